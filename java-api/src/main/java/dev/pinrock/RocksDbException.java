package dev.pinrock;

import dev.pinrock.internal.Callbacks;

/**
 * A failure reported by RocksDB (or by pinrock's native boundary), carrying
 * the RocksDB status code, sub-code and message. Expected outcomes such as an
 * absent key are return values, never this exception. Immutable.
 *
 * <p>Every exception pinrock raises for a native status is made by
 * {@link #of(int, String)}, whichever binding produced the status; the
 * subclasses let callers catch the families that need different handling.
 */
public class RocksDbException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** RocksDB's sub-code of a wait that would have closed a cycle of lock waits. */
    private static final int DEADLOCK_SUBCODE = 5;
    /** RocksDB's sub-code of a merge its merge operator failed (kMergeOperatorFailed). */
    private static final int MERGE_OPERATOR_FAILED_SUBCODE = 15;

    /** The native status: RocksDB's code in bits 0-7, its sub-code in bits 8-15. */
    private final int status;

    /**
     * Creates an exception for a status.
     *
     * @param status the native status: code in bits 0-7, sub-code in bits 8-15
     * @param message the status message
     */
    protected RocksDbException(int status, String message) {
        super(message);
        this.status = status;
    }

    /**
     * Maps a failed native status to the exception for it. This is the one
     * place where pinrock turns status codes into exceptions.
     *
     * @param status the native status (not {@code PR_OK})
     * @param message the status message written by the native side
     * @return the exception to throw
     */
    public static RocksDbException of(int status, String message) {
        String text = message == null || message.isEmpty()
                ? StatusCode.of(status & 0xff) + " (status " + status + ")"
                : message;
        return switch (StatusCode.of(status & 0xff)) {
            case CORRUPTION -> (status >> 8 & 0xff) == MERGE_OPERATOR_FAILED_SUBCODE
                    ? new MergeFailedException(status, text, Callbacks.takeMergeFailure())
                    : new CorruptionException(status, text);
            case INVALID_ARGUMENT -> new InvalidArgumentException(status, text);
            case IO_ERROR -> new RocksIoException(status, text);
            case TIMED_OUT -> new TimedOutException(status, text);
            case BUSY -> (status >> 8 & 0xff) == DEADLOCK_SUBCODE ? new DeadlockException(status, text)
                    : new ConflictException(status, text);
            case TRY_AGAIN -> new ConflictException(status, text);
            default -> new RocksDbException(status, text);
        };
    }

    /**
     * Returns the raw status as the C ABI reported it.
     *
     * @return code in bits 0-7, sub-code in bits 8-15
     */
    public int status() {
        return status;
    }

    /**
     * Returns the status code.
     *
     * @return the code, never {@link StatusCode#OK}
     */
    public StatusCode code() {
        return StatusCode.of(status & 0xff);
    }

    /**
     * Returns RocksDB's status sub-code ({@code rocksdb::Status::SubCode}),
     * e.g. 4 for "no space", 0 when there is none.
     *
     * @return the sub-code
     */
    public int subCode() {
        return (status >> 8) & 0xff;
    }

    /** Data on disk failed a checksum or consistency check ({@link StatusCode#CORRUPTION}). */
    public static final class CorruptionException extends RocksDbException {
        private static final long serialVersionUID = 1L;

        CorruptionException(int status, String message) {
            super(status, message);
        }
    }

    /**
     * A read met a merge its {@link MergeOperator} failed (returned false or
     * threw): {@link StatusCode#CORRUPTION} with sub-code 15, RocksDB's
     * {@code kMergeOperatorFailed}, though nothing on disk is damaged. Its
     * cause is what the operator threw, when the merge ran on the reading
     * thread. The key's operands are kept: a read with a fixed operator of
     * the same name merges them.
     */
    public static final class MergeFailedException extends RocksDbException {
        private static final long serialVersionUID = 1L;

        MergeFailedException(int status, String message, Throwable cause) {
            super(status, message);
            if (cause != null) {
                initCause(cause);
            }
        }
    }

    /** An argument or option value was rejected ({@link StatusCode#INVALID_ARGUMENT}). */
    public static final class InvalidArgumentException extends RocksDbException {
        private static final long serialVersionUID = 1L;

        InvalidArgumentException(int status, String message) {
            super(status, message);
        }
    }

    /**
     * The file system failed ({@link StatusCode#IO_ERROR}): a missing or
     * unwritable path, a database locked by another handle, a full disk.
     */
    public static final class RocksIoException extends RocksDbException {
        private static final long serialVersionUID = 1L;

        RocksIoException(int status, String message) {
            super(status, message);
        }
    }

    /**
     * A failure that may not happen again: another transaction or write held
     * or changed what this one needed. The transaction it happened in (if any)
     * should be rolled back and retried in a new one; see {@link Transaction}.
     */
    public abstract static sealed class RetryableException extends RocksDbException
            permits TimedOutException, DeadlockException, ConflictException {
        private static final long serialVersionUID = 1L;

        RetryableException(int status, String message) {
            super(status, message);
        }
    }

    /**
     * A wait timed out ({@link StatusCode#TIMED_OUT}): in a pessimistic
     * transactional database, for a key's lock another transaction (or
     * write) held past the lock timeout (sub-code 2, RocksDB's
     * {@code kLockTimeout}).
     */
    public static final class TimedOutException extends RetryableException {
        private static final long serialVersionUID = 1L;

        TimedOutException(int status, String message) {
            super(status, message);
        }
    }

    /**
     * A lock wait would have closed a cycle of transactions waiting for each
     * other ({@link StatusCode#BUSY}, sub-code 5, RocksDB's {@code kDeadlock}),
     * found by the deadlock detection of
     * {@link TransactionOptions#detectDeadlocks(boolean)}: this transaction's
     * call failed at once instead of waiting.
     */
    public static final class DeadlockException extends RetryableException {
        private static final long serialVersionUID = 1L;

        DeadlockException(int status, String message) {
            super(status, message);
        }
    }

    /**
     * A transaction conflicts with another's writes ({@link StatusCode#BUSY}
     * or {@link StatusCode#TRY_AGAIN}): a key it wrote or read for update was
     * written by another after its snapshot or, at an optimistic commit,
     * since it was first written or read (TRY_AGAIN: the memtables no longer
     * held enough history to tell); or the lock limit
     * ({@link TransactionDbOptions#maxLocks(long)}) was reached (sub-code 3).
     */
    public static final class ConflictException extends RetryableException {
        private static final long serialVersionUID = 1L;

        ConflictException(int status, String message) {
            super(status, message);
        }
    }
}
