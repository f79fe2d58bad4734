package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.MemorySegment;

import dev.pinrock.internal.BatchEncoding.Operation;

/**
 * One column family as one transaction sees it: its reads (with a lock
 * mode) and writes are the transaction's (pr_txn_*), one downcall each, with
 * the buffers of a borrowed {@link Scratch}. Transactions have no JNI
 * variant. Reads are normal downcalls: a read for update may wait for a
 * lock, which no critical downcall may do.
 */
final class FfmTransactionPath extends FfmKeyPath {
    private final MemorySegment transaction;
    private final MemorySegment family;
    /** A PR_TXN_READ* mode. */
    private final int lock;

    FfmTransactionPath(MemorySegment transaction, MemorySegment family, int lock) {
        this.transaction = transaction;
        this.family = family;
        this.lock = lock;
    }

    @Override
    boolean read(Scratch scratch, long snapshot, int readFlags, MemorySegment key, long keyLength,
            MemorySegment buf, long bufCap, int flags) {
        int status;
        try {
            status = (int) Downcalls.txnGet().invokeExact(transaction, family, MemorySegment.ofAddress(snapshot),
                    readFlags, lock, key, keyLength, buf, bufCap, flags, scratch.result, scratch.err, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        return found(status, scratch);
    }

    @Override
    void put(Scratch scratch, MemorySegment key, long keyLength, MemorySegment value, long valueLength) {
        int status;
        try {
            status = (int) Downcalls.txnPut().invokeExact(transaction, family, key, keyLength, value, valueLength,
                    scratch.err, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        check(status, scratch);
    }

    @Override
    void delete(Scratch scratch, MemorySegment key, long keyLength) {
        int status;
        try {
            status = (int) Downcalls.txnDelete().invokeExact(transaction, family, key, keyLength, scratch.err,
                    ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        check(status, scratch);
    }

    /*
     * Reads for update may wait for locks: the multi-gets are normal
     * downcalls, on any thread (MultiGet.callArena serves virtual threads).
     */

    @Override
    public void multiGet(MultiGet keys, MemorySegment dst) {
        try (Scratch scratch = Scratch.borrow()) {
            check((int) Downcalls.txnMultiGet().invokeExact(transaction, family,
                    MemorySegment.ofAddress(keys.reads.snapshot()), keys.reads.flags(), lock, keys.count,
                    keys.pointers, keys.keyLengths, dst, dst.byteSize(), keys.valueOffsets, keys.valueLengths,
                    keys.statuses, scratch.err, ERR_CAP), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    public void multiGetPinned(MultiGet keys, MemorySegment results) {
        try (Scratch scratch = Scratch.borrow()) {
            check((int) Downcalls.txnMultiGetPinned().invokeExact(transaction, family,
                    MemorySegment.ofAddress(keys.reads.snapshot()), keys.reads.flags(), lock, keys.count,
                    keys.pointers, keys.keyLengths, results, keys.statuses, scratch.err, ERR_CAP), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    int openCursor(MemorySegment snapshot, int readFlags, long readaheadBytes, MemorySegment lower,
            MemorySegment upper, int bounds, Scratch scratch) throws Throwable {
        return (int) Downcalls.txnCursorOpen().invokeExact(transaction, family, snapshot, readFlags, readaheadBytes,
                lower, lower.byteSize(), upper, upper.byteSize(), bounds, scratch.word, scratch.err, ERR_CAP);
    }

    /**
     * Writes a single delete of key, or a merge of the operand into key,
     * into the transaction: each part a byte array or a memory segment.
     */
    void write(Operation operation, Object key, Object operand) {
        try (Scratch scratch = Scratch.borrow()) {
            MemorySegment nativeKey = key instanceof byte[] array ? scratch.nativeKey(array)
                    : scratch.nativeKey((MemorySegment) key);
            long keyLength = BatchEncoding.length(key);
            int status = switch (operation) {
                case SINGLE_DELETE -> (int) Downcalls.txnSingleDelete().invokeExact(transaction, family, nativeKey,
                        keyLength, scratch.err, ERR_CAP);
                case MERGE -> {
                    MemorySegment nativeOperand = operand instanceof byte[] array ? scratch.nativeInput(array)
                            : scratch.nativeInput((MemorySegment) operand);
                    yield (int) Downcalls.txnMerge().invokeExact(transaction, family, nativeKey, keyLength,
                            nativeOperand, BatchEncoding.length(operand), scratch.err, ERR_CAP);
                }
                default -> throw new IllegalArgumentException(operation + " is not a transaction's record");
            };
            check(status, scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }
}
