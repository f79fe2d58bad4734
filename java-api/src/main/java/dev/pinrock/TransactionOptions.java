package dev.pinrock;

import java.util.Objects;

/**
 * What a transaction begins with ({@link RocksDb#beginTransaction(TransactionOptions)}).
 * Immutable and thread-safe; each method returns a copy with one setting
 * changed.
 */
public final class TransactionOptions {
    /** No snapshot, no deadlock detection, the database's lock timeout, no expiration, default writes. */
    public static final TransactionOptions DEFAULT = new TransactionOptions(WriteOptions.DEFAULT, false, false, -1,
            -1);

    private final WriteOptions writeOptions;
    private final boolean setSnapshot;
    private final boolean detectDeadlocks;
    private final long lockTimeoutMillis;
    private final long expirationMillis;

    private TransactionOptions(WriteOptions writeOptions, boolean setSnapshot, boolean detectDeadlocks,
            long lockTimeoutMillis, long expirationMillis) {
        this.writeOptions = writeOptions;
        this.setSnapshot = setSnapshot;
        this.detectDeadlocks = detectDeadlocks;
        this.lockTimeoutMillis = lockTimeoutMillis;
        this.expirationMillis = expirationMillis;
    }

    /**
     * Returns a copy whose commit writes with these options (synced, without
     * the write-ahead log, failing instead of waiting out a stall).
     *
     * @param options how the commit writes
     * @return a copy with the setting changed
     */
    public TransactionOptions writeOptions(WriteOptions options) {
        return new TransactionOptions(Objects.requireNonNull(options, "options"), setSnapshot, detectDeadlocks,
                lockTimeoutMillis, expirationMillis);
    }

    /**
     * Returns a copy that takes the transaction's snapshot when it begins
     * (see {@link Transaction#setSnapshot()}).
     *
     * @param value whether to take a snapshot at begin
     * @return a copy with the setting changed
     */
    public TransactionOptions setSnapshot(boolean value) {
        return new TransactionOptions(writeOptions, value, detectDeadlocks, lockTimeoutMillis, expirationMillis);
    }

    /**
     * Returns a copy whose lock waits look for deadlocks: a wait that would
     * close a cycle of transactions waiting for each other fails at once with
     * {@link RocksDbException.DeadlockException}. Pessimistic databases only
     * (optimistic transactions never wait).
     *
     * @param value whether to detect deadlocks
     * @return a copy with the setting changed
     */
    public TransactionOptions detectDeadlocks(boolean value) {
        return new TransactionOptions(writeOptions, setSnapshot, value, lockTimeoutMillis, expirationMillis);
    }

    /**
     * Returns a copy that waits this long for a key's lock. Pessimistic
     * databases only.
     *
     * @param millis milliseconds, 0 for no wait; -1 for the database's
     *     ({@link TransactionDbOptions#lockTimeoutMillis(long)}); more than 2^40 (about 35 years)
     *     waits 2^40
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when millis is below -1
     */
    public TransactionOptions lockTimeoutMillis(long millis) {
        return new TransactionOptions(writeOptions, setSnapshot, detectDeadlocks, TransactionDbOptions.timeout(millis),
                expirationMillis);
    }

    /**
     * Returns a copy whose locks another transaction may take once this one
     * is older than this: it then fails to commit, with
     * {@link StatusCode#EXPIRED}. Pessimistic databases only.
     *
     * @param millis milliseconds, -1 for never; more than 2^40 (about 35 years) expires after 2^40
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when millis is below -1
     */
    public TransactionOptions expirationMillis(long millis) {
        return new TransactionOptions(writeOptions, setSnapshot, detectDeadlocks, lockTimeoutMillis,
                TransactionDbOptions.timeout(millis));
    }

    WriteOptions writeOptions() {
        return writeOptions;
    }

    boolean setSnapshot() {
        return setSnapshot;
    }

    boolean detectDeadlocks() {
        return detectDeadlocks;
    }

    long lockTimeoutMillis() {
        return lockTimeoutMillis;
    }

    long expirationMillis() {
        return expirationMillis;
    }

    @Override
    public String toString() {
        return "TransactionOptions[" + writeOptions + ", setSnapshot=" + setSnapshot + ", detectDeadlocks="
                + detectDeadlocks + ", lockTimeoutMillis=" + lockTimeoutMillis + ", expirationMillis="
                + expirationMillis + "]";
    }
}
