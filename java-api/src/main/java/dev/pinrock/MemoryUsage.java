package dev.pinrock;

/**
 * Approximate memory a database uses, in bytes, from {@link RocksDb#memoryUsage()}.
 * Immutable.
 *
 * @param memtableBytes all memtables: the mutable one, immutable ones and those kept for history
 * @param unflushedMemtableBytes memtables not yet flushed
 * @param tableReaderBytes indexes and filters of open table files held outside the block cache
 * @param blockCacheBytes the block cache's usage (shared with other databases of the same
 *     {@link MemoryBudget}, memtable charges included)
 * @param pinnedBlockCacheBytes block-cache entries pinned by readers (pinned values, cursors)
 */
public record MemoryUsage(long memtableBytes, long unflushedMemtableBytes, long tableReaderBytes,
        long blockCacheBytes, long pinnedBlockCacheBytes) {
}
