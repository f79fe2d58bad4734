package dev.pinrock;

/**
 * The code of a RocksDB status ({@code rocksdb::Status::Code}), plus
 * {@link #INTERNAL} for a C++ exception caught at pinrock's native boundary.
 */
public enum StatusCode {
    /** Success; never carried by an exception. */
    OK(0),
    /** Not found; pinrock returns it as a value ({@code null} or {@link RocksDb#NOT_FOUND}). */
    NOT_FOUND(1),
    /** Data on disk failed a checksum or consistency check. */
    CORRUPTION(2),
    /** The operation or option is not supported (by this engine build, or with these settings). */
    NOT_SUPPORTED(3),
    /** An argument or option value was rejected. */
    INVALID_ARGUMENT(4),
    /** The file system failed (including a database locked by another handle, or a full disk). */
    IO_ERROR(5),
    /** A merge is in progress. */
    MERGE_IN_PROGRESS(6),
    /** The answer is incomplete, e.g. a memory-only read that would need I/O. */
    INCOMPLETE(7),
    /** The database is shutting down. */
    SHUTDOWN_IN_PROGRESS(8),
    /** The operation timed out. */
    TIMED_OUT(9),
    /** The operation was aborted. */
    ABORTED(10),
    /** A resource is busy. */
    BUSY(11),
    /** A resource expired. */
    EXPIRED(12),
    /** The operation may succeed when retried. */
    TRY_AGAIN(13),
    /** A compaction would be too large. */
    COMPACTION_TOO_LARGE(14),
    /** The column family was dropped. */
    COLUMN_FAMILY_DROPPED(15),
    /** pinrock's own: a C++ exception (such as out of memory) was caught at the boundary. */
    INTERNAL(100),
    /** A code this version of pinrock does not know. */
    UNKNOWN(-1);

    private final int nativeCode;

    StatusCode(int nativeCode) {
        this.nativeCode = nativeCode;
    }

    /**
     * Returns the numeric code, as in the C ABI's {@code enum pr_code}.
     *
     * @return the numeric code, or -1 for {@link #UNKNOWN}
     */
    public int nativeCode() {
        return nativeCode;
    }

    /**
     * Returns the constant for a numeric code.
     *
     * @param nativeCode a value of {@code PR_STATUS_CODE(status)}
     * @return the matching constant, or {@link #UNKNOWN}
     */
    public static StatusCode of(int nativeCode) {
        for (StatusCode code : values()) {
            if (code.nativeCode == nativeCode) {
                return code;
            }
        }
        return UNKNOWN;
    }
}
