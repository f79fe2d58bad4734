package dev.pinrock;

/**
 * What a transactional database is opened with
 * ({@link RocksDb#openTransactional(java.nio.file.Path, DbOptions, TransactionDbOptions)}):
 * pessimistic (locks, RocksDB's {@code TransactionDB} with the
 * WRITE_COMMITTED policy) or optimistic (no locks, conflicts found at
 * commit, RocksDB's {@code OptimisticTransactionDB}). Immutable and
 * thread-safe; each method returns a copy with one setting changed.
 *
 * <pre>{@code
 * RocksDb.openTransactional(path, options, TransactionDbOptions.pessimistic().lockTimeoutMillis(200));
 * }</pre>
 */
public final class TransactionDbOptions {
    private final boolean optimistic;
    private final long lockTimeoutMillis;
    private final long defaultLockTimeoutMillis;
    private final long maxLocks;
    private final long deadlockDetectDepth;
    private final boolean parallelValidation;

    private TransactionDbOptions(boolean optimistic, long lockTimeoutMillis, long defaultLockTimeoutMillis,
            long maxLocks, long deadlockDetectDepth, boolean parallelValidation) {
        this.optimistic = optimistic;
        this.lockTimeoutMillis = lockTimeoutMillis;
        this.defaultLockTimeoutMillis = defaultLockTimeoutMillis;
        this.maxLocks = maxLocks;
        this.deadlockDetectDepth = deadlockDetectDepth;
        this.parallelValidation = parallelValidation;
    }

    /**
     * Returns pessimistic transactions with RocksDB's defaults: a
     * transaction waits up to 1 second for a key's lock, and so do the
     * database's own writes; no limit on locks; deadlocks searched 50
     * transactions deep (for transactions that detect them).
     *
     * @return pessimistic transactions with RocksDB's defaults
     */
    public static TransactionDbOptions pessimistic() {
        return new TransactionDbOptions(false, 1000, 1000, 0, 50, false);
    }

    /**
     * Returns optimistic transactions, validated one commit at a time
     * (RocksDB's default).
     *
     * @return optimistic transactions
     */
    public static TransactionDbOptions optimistic() {
        return new TransactionDbOptions(true, -1, -1, 0, 0, false);
    }

    /**
     * Returns a copy whose transactions wait this long for a key's lock by
     * default ({@link TransactionOptions#lockTimeoutMillis(long)} sets one
     * transaction's). Pessimistic only.
     *
     * @param millis milliseconds; 0 does not wait, -1 waits forever, more than 2^40 (about 35
     *     years) waits 2^40
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when millis is below -1
     * @throws IllegalStateException when these options are optimistic
     */
    public TransactionDbOptions lockTimeoutMillis(long millis) {
        requirePessimistic();
        return new TransactionDbOptions(false, timeout(millis), defaultLockTimeoutMillis, maxLocks,
                deadlockDetectDepth, false);
    }

    /**
     * Returns a copy whose database's own writes ({@code put}, {@code delete},
     * {@code write} outside transactions, which lock their keys while they
     * write) wait this long for a lock. Pessimistic only.
     *
     * @param millis milliseconds; 0 does not wait, -1 waits forever, more than 2^40 (about 35
     *     years) waits 2^40
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when millis is below -1
     * @throws IllegalStateException when these options are optimistic
     */
    public TransactionDbOptions defaultLockTimeoutMillis(long millis) {
        requirePessimistic();
        return new TransactionDbOptions(false, lockTimeoutMillis, timeout(millis), maxLocks, deadlockDetectDepth,
                false);
    }

    /**
     * Returns a copy that locks at most this many keys at once per column
     * family: a lock past it fails with {@link RocksDbException.ConflictException}.
     * Pessimistic only.
     *
     * @param locks the limit, 0 for none
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when locks is negative
     * @throws IllegalStateException when these options are optimistic
     */
    public TransactionDbOptions maxLocks(long locks) {
        requirePessimistic();
        if (locks < 0) {
            throw new IllegalArgumentException("the lock limit is 0 (none) or more: " + locks);
        }
        return new TransactionDbOptions(false, lockTimeoutMillis, defaultLockTimeoutMillis, locks,
                deadlockDetectDepth, false);
    }

    /**
     * Returns a copy whose deadlock detection (for transactions begun with
     * {@link TransactionOptions#detectDeadlocks(boolean)}) follows waits this
     * many transactions deep. Pessimistic only.
     *
     * @param depth the depth, 0 or more
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when depth is negative
     * @throws IllegalStateException when these options are optimistic
     */
    public TransactionDbOptions deadlockDetectDepth(long depth) {
        requirePessimistic();
        if (depth < 0) {
            throw new IllegalArgumentException("the deadlock detection depth is 0 or more: " + depth);
        }
        return new TransactionDbOptions(false, lockTimeoutMillis, defaultLockTimeoutMillis, maxLocks, depth, false);
    }

    /**
     * Returns a copy that validates optimistic commits in parallel, under
     * per-key locks taken at commit, before the write group forms (RocksDB's
     * {@code kValidateParallel}), instead of one at a time. Optimistic only.
     *
     * @param value whether to validate in parallel
     * @return a copy with the setting changed
     * @throws IllegalStateException when these options are pessimistic
     */
    public TransactionDbOptions parallelValidation(boolean value) {
        if (!optimistic) {
            throw new IllegalStateException("pessimistic transactions are not validated at commit");
        }
        return new TransactionDbOptions(true, -1, -1, 0, 0, value);
    }

    /**
     * Returns whether the transactions are optimistic.
     *
     * @return whether the transactions are optimistic
     */
    public boolean isOptimistic() {
        return optimistic;
    }

    long lockTimeoutMillis() {
        return lockTimeoutMillis;
    }

    long defaultLockTimeoutMillis() {
        return defaultLockTimeoutMillis;
    }

    long maxLocks() {
        return maxLocks;
    }

    long deadlockDetectDepth() {
        return deadlockDetectDepth;
    }

    boolean parallelValidation() {
        return parallelValidation;
    }

    private void requirePessimistic() {
        if (optimistic) {
            throw new IllegalStateException("optimistic transactions take no locks");
        }
    }

    static long timeout(long millis) {
        if (millis < -1) {
            throw new IllegalArgumentException("a timeout is -1 or at least 0 ms: " + millis);
        }
        return millis;
    }

    @Override
    public String toString() {
        return optimistic
                ? "TransactionDbOptions[optimistic" + (parallelValidation ? ", parallel validation]" : "]")
                : "TransactionDbOptions[pessimistic, lockTimeoutMillis=" + lockTimeoutMillis
                        + ", defaultLockTimeoutMillis=" + defaultLockTimeoutMillis + ", maxLocks=" + maxLocks
                        + ", deadlockDetectDepth=" + deadlockDetectDepth + "]";
    }
}
