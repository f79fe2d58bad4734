package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.MemorySegment;

import dev.pinrock.internal.BatchEncoding.Operation;

/**
 * One column family through a batch with index: writes are appended to the
 * batch's records, reads (pr_indexed_batch_*) see them merged over the
 * database, once the batch has indexed what they need. Batches with index
 * have no JNI variant.
 */
final class FfmBatchPath extends FfmKeyPath {
    private final FfmIndexedBatch batch;
    private final MemorySegment family;
    private final int familyId;

    FfmBatchPath(FfmIndexedBatch batch, MemorySegment family, int familyId) {
        this.batch = batch;
        this.family = family;
        this.familyId = familyId;
    }

    @Override
    boolean read(Scratch scratch, long snapshot, int readFlags, MemorySegment key, long keyLength,
            MemorySegment buf, long bufCap, int flags) {
        batch.index(family);
        int status;
        try {
            status = (int) Downcalls.indexedBatchGet().invokeExact(batch.handle(), family,
                    MemorySegment.ofAddress(snapshot), readFlags, key, keyLength, buf, bufCap, flags, scratch.result,
                    scratch.err, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        return found(status, scratch);
    }

    @Override
    void put(Scratch scratch, MemorySegment key, long keyLength, MemorySegment value, long valueLength) {
        batch.append(family, familyId, Operation.PUT, key.asSlice(0, keyLength), value.asSlice(0, valueLength));
    }

    @Override
    void delete(Scratch scratch, MemorySegment key, long keyLength) {
        batch.append(family, familyId, Operation.DELETE, key.asSlice(0, keyLength), null);
    }

    /** A single delete or merge (each part a byte array or a segment), refused now if RocksDB would refuse it. */
    void appendChecked(Operation operation, Object key, Object operand) {
        batch.appendChecked(family, familyId, operation, key, operand);
    }

    @Override
    public void multiGet(MultiGet keys, MemorySegment dst) {
        batch.index(family);
        try (Scratch scratch = Scratch.borrow()) {
            check((int) Downcalls.indexedBatchMultiGet().invokeExact(batch.handle(), family,
                    MemorySegment.ofAddress(keys.reads.snapshot()), keys.reads.flags(), keys.count, keys.pointers,
                    keys.keyLengths, dst, dst.byteSize(), keys.valueOffsets, keys.valueLengths, keys.statuses,
                    scratch.err, ERR_CAP), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    public void multiGetPinned(MultiGet keys, MemorySegment results) {
        batch.index(family);
        try (Scratch scratch = Scratch.borrow()) {
            check((int) Downcalls.indexedBatchMultiGetPinned().invokeExact(batch.handle(), family,
                    MemorySegment.ofAddress(keys.reads.snapshot()), keys.reads.flags(), keys.count, keys.pointers,
                    keys.keyLengths, results, keys.statuses, scratch.err, ERR_CAP), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    int openCursor(MemorySegment snapshot, int readFlags, long readaheadBytes, MemorySegment lower,
            MemorySegment upper, int bounds, Scratch scratch) throws Throwable {
        batch.index(family);
        return (int) Downcalls.indexedBatchCursorOpen().invokeExact(batch.handle(), family, snapshot, readFlags,
                readaheadBytes, lower, lower.byteSize(), upper, upper.byteSize(), bounds, scratch.word, scratch.err,
                ERR_CAP);
    }
}
