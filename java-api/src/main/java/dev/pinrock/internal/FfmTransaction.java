package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.call;
import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import dev.pinrock.bindings.pr_txn_options;

/**
 * The owner of one transaction's native handle (pr_txn_t): begins it, makes
 * the calls on the transaction as a whole, and frees it. Its keyed reads and
 * writes go through {@link #path}. Not thread-safe: the public
 * {@link dev.pinrock.Transaction} admits one call at a time.
 */
public final class FfmTransaction {
    /** Lock mode of {@link #path}: plain reads. */
    public static final int READ = Downcalls.TXN_READ;
    /** Lock mode of {@link #path}: reads for update, locking exclusively. */
    public static final int READ_FOR_UPDATE = Downcalls.TXN_READ_FOR_UPDATE;
    /** Lock mode of {@link #path}: reads for update, locking shared. */
    public static final int READ_FOR_UPDATE_SHARED = Downcalls.TXN_READ_FOR_UPDATE_SHARED;
    /** Begin flag: take a snapshot at begin. */
    public static final int SET_SNAPSHOT = Downcalls.TXN_SET_SNAPSHOT;
    /** Begin flag: detect deadlocks while waiting for a lock. */
    public static final int DETECT_DEADLOCKS = Downcalls.TXN_DETECT_DEADLOCKS;

    private final MemorySegment handle;

    private FfmTransaction(MemorySegment handle) {
        this.handle = handle;
    }

    /**
     * Begins a transaction on a database (pr_txn_begin).
     *
     * @param db any family handle of the database
     * @param writeFlags PR_WRITE_* flags of the commit
     * @param flags {@link #SET_SNAPSHOT}, {@link #DETECT_DEADLOCKS}
     * @param lockTimeoutMs -1 for the database's
     * @param expirationMs -1 for never
     * @return the transaction; the caller frees it
     */
    public static FfmTransaction begin(FfmDb db, int writeFlags, int flags, long lockTimeoutMs, long expirationMs) {
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment options = pr_txn_options.allocate(arena);
            pr_txn_options.flags(options, flags);
            pr_txn_options.lock_timeout_ms(options, lockTimeoutMs);
            pr_txn_options.expiration_ms(options, expirationMs);
            check((int) Downcalls.txnBegin().invokeExact(db.handle(), writeFlags, options, scratch.word, scratch.err,
                    Scratch.ERR_CAP), scratch);
            return new FfmTransaction(scratch.word.get(ValueLayout.ADDRESS, 0));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Hands out one prepared transaction the database recovered at its open
     * (pr_db_take_prepared).
     *
     * @param db any family handle of the database
     * @return the transaction, which the caller frees; null when none is left
     */
    public static FfmTransaction takePrepared(FfmDb db) {
        try (Scratch scratch = Scratch.borrow()) {
            int status = (int) Downcalls.dbTakePrepared().invokeExact(db.handle(), scratch.word, scratch.err,
                    Scratch.ERR_CAP);
            if (status == Downcalls.NOT_FOUND) {
                return null;
            }
            check(status, scratch);
            return new FfmTransaction(scratch.word.get(ValueLayout.ADDRESS, 0));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * The keyed reads and writes of one family in this transaction.
     *
     * @param family a family handle of the transaction's database
     * @param lock {@link #READ}, {@link #READ_FOR_UPDATE} or {@link #READ_FOR_UPDATE_SHARED}
     * @return the path; valid while the transaction and the family are
     */
    public KeyPath path(FfmDb family, int lock) {
        return new FfmTransactionPath(handle, family.handle(), lock);
    }

    /**
     * Writes a single delete or a merge through a path {@link #path} made.
     *
     * @param path a path of this transaction
     */
    public static void write(KeyPath path, BatchEncoding.Operation operation, Object key, Object operand) {
        ((FfmTransactionPath) path).write(operation, key, operand);
    }

    /** pr_txn_set_name. */
    public void setName(byte[] name) {
        call((scratch, arena) -> (int) Downcalls.txnSetName().invokeExact(handle, arena.allocateFrom(
                ValueLayout.JAVA_BYTE, name), (long) name.length, scratch.err, Scratch.ERR_CAP));
    }

    /**
     * pr_txn_name.
     *
     * @return the name's bytes, empty when the transaction has none
     */
    public byte[] name() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment length = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment name = (MemorySegment) Downcalls.txnName().invokeExact(handle, length);
            return name.reinterpret(length.get(ValueLayout.JAVA_LONG, 0)).toArray(ValueLayout.JAVA_BYTE);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** pr_txn_prepare. */
    public void prepare() {
        call((scratch, arena) -> (int) Downcalls.txnPrepare().invokeExact(handle, scratch.err, Scratch.ERR_CAP));
    }

    /** pr_txn_commit. */
    public void commit() {
        call((scratch, arena) -> (int) Downcalls.txnCommit().invokeExact(handle, scratch.err, Scratch.ERR_CAP));
    }

    /** pr_txn_rollback. */
    public void rollback() {
        call((scratch, arena) -> (int) Downcalls.txnRollback().invokeExact(handle, scratch.err, Scratch.ERR_CAP));
    }

    /** pr_txn_set_savepoint. */
    public void setSavePoint() {
        call((scratch, arena) -> (int) Downcalls.txnSetSavepoint().invokeExact(handle, scratch.err,
                Scratch.ERR_CAP));
    }

    /**
     * pr_txn_rollback_to_savepoint.
     *
     * @return false when there was no save point
     */
    public boolean rollbackToSavePoint() {
        return savePointCall(true);
    }

    /**
     * pr_txn_pop_savepoint.
     *
     * @return false when there was no save point
     */
    public boolean popSavePoint() {
        return savePointCall(false);
    }

    private boolean savePointCall(boolean rollback) {
        try (Scratch scratch = Scratch.borrow()) {
            int status = rollback
                    ? (int) Downcalls.txnRollbackToSavepoint().invokeExact(handle, scratch.err, Scratch.ERR_CAP)
                    : (int) Downcalls.txnPopSavepoint().invokeExact(handle, scratch.err, Scratch.ERR_CAP);
            if (status == Downcalls.NOT_FOUND) {
                return false;
            }
            check(status, scratch);
            return true;
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** pr_txn_set_snapshot. */
    public void setSnapshot(boolean onNextOperation) {
        call((scratch, arena) -> (int) Downcalls.txnSetSnapshot().invokeExact(handle, onNextOperation ? 1 : 0,
                scratch.err, Scratch.ERR_CAP));
    }

    /**
     * pr_txn_size.
     *
     * @return the records the transaction holds, and its batch's bytes
     */
    public long[] size() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment both = arena.allocate(ValueLayout.JAVA_LONG, 2);
            Downcalls.txnSize().invokeExact(handle, both, both.asSlice(Long.BYTES));
            return both.toArray(ValueLayout.JAVA_LONG);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** @return pr_txn_id: the transaction's id */
    public long id() {
        try {
            return (long) Downcalls.txnId().invokeExact(handle);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** pr_txn_free: once, after the last call; rolls back what is not committed. */
    public void free() {
        try {
            Downcalls.txnFree().invokeExact(handle);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }
}
