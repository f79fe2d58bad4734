package dev.pinrock;

import dev.pinrock.internal.NativeLibrary;
import dev.pinrock.internal.NativeShared;

/**
 * One memory cap for several databases: a block cache of the budget's size,
 * with every memtable charged to that same cache (RocksDB's unified memory
 * tracking), so an application sets one number for all its databases.
 * Databases opened with {@link DbOptions#memoryBudget(MemoryBudget)} share
 * it; when their memtables pass the memtable share, RocksDB flushes them. It
 * checks on each write, and flushes the writing database's memtable: one that
 * grew while its previous flush was still running waits for that database's
 * next write, so the share can be exceeded until writes go on.
 *
 * <p>Thread-safe. Closing the budget drops this handle's reference only:
 * databases already open keep theirs, and new databases can no longer be
 * opened with it.
 */
public final class MemoryBudget extends SharedObject {
    private final long totalBytes;

    private MemoryBudget(long handle, long totalBytes) {
        super("MemoryBudget", handle, NativeShared::destroyMemoryBudget);
        this.totalBytes = totalBytes;
    }

    /**
     * Creates a budget.
     *
     * @param totalBytes the cap for block cache and memtables together
     * @param memtableBytes the memtables' share of it, at most totalBytes (0: memtables are
     *     charged but not capped)
     * @return the budget; the caller closes it
     * @throws RocksDbException.InvalidArgumentException when totalBytes is not positive or
     *     memtableBytes exceeds it
     */
    public static MemoryBudget create(long totalBytes, long memtableBytes) {
        NativeLibrary.load(); // before any class that needs the library, see NativeLibrary
        return new MemoryBudget(NativeShared.createMemoryBudget(totalBytes, memtableBytes), totalBytes);
    }

    /**
     * Returns the cap in bytes.
     *
     * @return the cap in bytes
     */
    public long totalBytes() {
        return totalBytes;
    }

    /**
     * Returns what the shared cache holds now: cached blocks and memtable charges.
     *
     * @return bytes in use
     * @throws IllegalStateException when the budget is closed
     */
    public long usageBytes() {
        return use(NativeShared::memoryBudgetUsage);
    }
}
