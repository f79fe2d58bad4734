package dev.pinrock;

/**
 * What {@link RocksDb#open(java.nio.file.Path, DbOptions)} does when the
 * write-ahead log holds damaged records (RocksDB's {@code WALRecoveryMode}).
 * Chosen with {@link DbOptions#walRecovery(WalRecovery)}.
 */
public enum WalRecovery {
    /**
     * Ignore an incomplete record at the end of a log, as a write cut short by
     * a crash leaves it; damage anywhere else fails the open with a
     * corruption error.
     */
    TOLERATE_CORRUPTED_TAIL(0),
    /** Fail the open on any damaged or incomplete record. */
    ABSOLUTE_CONSISTENCY(1),
    /**
     * Replay the log up to the first damaged record and drop what follows it,
     * so the database is consistent as of one moment (RocksDB's default and
     * pinrock's).
     */
    POINT_IN_TIME(2),
    /**
     * Salvage: replay every record that can be read and skip damaged ones, so
     * a later write may survive where an earlier one is lost. For recovering
     * what is left after a disaster, not for normal operation.
     */
    SKIP_ANY_CORRUPTED(3);

    private final int nativeCode;

    WalRecovery(int nativeCode) {
        this.nativeCode = nativeCode;
    }

    /**
     * Returns the value of this mode in the C ABI ({@code enum pr_wal_recovery_mode}).
     *
     * @return the native code
     */
    public int nativeCode() {
        return nativeCode;
    }
}
