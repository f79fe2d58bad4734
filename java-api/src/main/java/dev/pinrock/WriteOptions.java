package dev.pinrock;

/**
 * How a write is made durable. Immutable and thread-safe; each method
 * returns a copy with one setting changed.
 *
 * <pre>{@code
 * db.write(batch, WriteOptions.DEFAULT.sync(true));
 * }</pre>
 */
public final class WriteOptions {
    /** RocksDB's defaults: through the write-ahead log, not synced, waiting out stalls. */
    public static final WriteOptions DEFAULT = new WriteOptions(false, false, false);

    private static final int SYNC = 1;
    private static final int DISABLE_WAL = 2;
    private static final int NO_SLOWDOWN = 4;

    private final boolean sync;
    private final boolean disableWal;
    private final boolean noSlowdown;

    private WriteOptions(boolean sync, boolean disableWal, boolean noSlowdown) {
        this.sync = sync;
        this.disableWal = disableWal;
        this.noSlowdown = noSlowdown;
    }

    /**
     * Returns a copy that waits until the write-ahead log reaches stable
     * storage: an acknowledged write survives a machine crash.
     *
     * @param value whether to sync (default false: the write survives a process crash only)
     * @return a copy with the setting changed
     */
    public WriteOptions sync(boolean value) {
        return new WriteOptions(value, disableWal, noSlowdown);
    }

    /**
     * Returns a copy that skips the write-ahead log: faster, but the write is
     * lost on a crash until a flush writes it to a table file. Cannot be
     * combined with {@link #sync(boolean)} (the write fails with InvalidArgument).
     *
     * @param value whether to skip the log (default false)
     * @return a copy with the setting changed
     */
    public WriteOptions disableWal(boolean value) {
        return new WriteOptions(sync, value, noSlowdown);
    }

    /**
     * Returns a copy that fails with {@link StatusCode#INCOMPLETE} instead of
     * waiting when RocksDB stalls writes.
     *
     * @param value whether to fail instead of waiting (default false)
     * @return a copy with the setting changed
     */
    public WriteOptions noSlowdown(boolean value) {
        return new WriteOptions(sync, disableWal, value);
    }

    /**
     * Returns whether writes wait for the log to reach stable storage.
     *
     * @return whether writes wait for the log to reach stable storage
     */
    public boolean sync() {
        return sync;
    }

    /**
     * Returns whether writes skip the write-ahead log.
     *
     * @return whether writes skip the write-ahead log
     */
    public boolean disableWal() {
        return disableWal;
    }

    /**
     * Returns whether writes fail instead of waiting out a stall.
     *
     * @return whether writes fail instead of waiting out a stall
     */
    public boolean noSlowdown() {
        return noSlowdown;
    }

    /**
     * Returns the PR_WRITE_* flags of the C ABI.
     *
     * @return the PR_WRITE_* flags of the C ABI
     */
    int flags() {
        return (sync ? SYNC : 0) | (disableWal ? DISABLE_WAL : 0) | (noSlowdown ? NO_SLOWDOWN : 0);
    }

    @Override
    public String toString() {
        return "WriteOptions[sync=" + sync + ", disableWal=" + disableWal + ", noSlowdown=" + noSlowdown + "]";
    }
}
