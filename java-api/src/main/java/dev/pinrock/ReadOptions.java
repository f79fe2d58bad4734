package dev.pinrock;

/**
 * How a read is made. Immutable and thread-safe; each method returns a copy
 * with one setting changed.
 *
 * <pre>{@code
 * try (Snapshot snapshot = db.snapshot()) {
 *     byte[] old = db.get(ReadOptions.DEFAULT.snapshot(snapshot), key);
 * }
 * }</pre>
 */
public final class ReadOptions {
    /** RocksDB's defaults: the latest state, blocks cached, checksums verified, I/O allowed. */
    public static final ReadOptions DEFAULT = new ReadOptions(null, true, true, false);

    private static final int SKIP_FILL_CACHE = 1;
    private static final int SKIP_CHECKSUMS = 2;
    private static final int MEMORY_ONLY = 4;

    private final Snapshot snapshot;
    private final boolean fillCache;
    private final boolean verifyChecksums;
    private final boolean memoryOnly;

    private ReadOptions(Snapshot snapshot, boolean fillCache, boolean verifyChecksums, boolean memoryOnly) {
        this.snapshot = snapshot;
        this.fillCache = fillCache;
        this.verifyChecksums = verifyChecksums;
        this.memoryOnly = memoryOnly;
    }

    /**
     * Returns a copy that reads as of a snapshot.
     *
     * @param value a snapshot of the database read, or null for the latest state (the default)
     * @return a copy with the setting changed
     */
    public ReadOptions snapshot(Snapshot value) {
        return new ReadOptions(value, fillCache, verifyChecksums, memoryOnly);
    }

    /**
     * Returns a copy that does or does not add the blocks it reads to the
     * block cache (turn it off for one-off reads that should not evict hot data).
     *
     * @param value whether to cache the blocks read (default true)
     * @return a copy with the setting changed
     */
    public ReadOptions fillCache(boolean value) {
        return new ReadOptions(snapshot, value, verifyChecksums, memoryOnly);
    }

    /**
     * Returns a copy that does or does not verify the checksums of the blocks it reads.
     *
     * @param value whether to verify (default true)
     * @return a copy with the setting changed
     */
    public ReadOptions verifyChecksums(boolean value) {
        return new ReadOptions(snapshot, fillCache, value, memoryOnly);
    }

    /**
     * Returns a copy that answers from memory only (memtables and block
     * cache): a read that would need I/O throws {@link RocksDbException}
     * with {@link StatusCode#INCOMPLETE} instead.
     *
     * @param value whether to avoid I/O (default false)
     * @return a copy with the setting changed
     */
    public ReadOptions memoryOnly(boolean value) {
        return new ReadOptions(snapshot, fillCache, verifyChecksums, value);
    }

    /** @return the snapshot read, or null for the latest state */
    public Snapshot snapshot() {
        return snapshot;
    }

    /** @return whether blocks read are cached */
    public boolean fillCache() {
        return fillCache;
    }

    /** @return whether checksums are verified */
    public boolean verifyChecksums() {
        return verifyChecksums;
    }

    /** @return whether reads avoid I/O */
    public boolean memoryOnly() {
        return memoryOnly;
    }

    /** @return the PR_READ_* flags of the C ABI */
    int flags() {
        return (fillCache ? 0 : SKIP_FILL_CACHE) | (verifyChecksums ? 0 : SKIP_CHECKSUMS) | (memoryOnly ? MEMORY_ONLY : 0);
    }

    @Override
    public String toString() {
        return "ReadOptions[snapshot=" + snapshot + ", fillCache=" + fillCache + ", verifyChecksums="
                + verifyChecksums + ", memoryOnly=" + memoryOnly + "]";
    }
}
