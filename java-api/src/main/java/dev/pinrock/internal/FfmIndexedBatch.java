package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.Consumer;

import dev.pinrock.RocksDbException;
import dev.pinrock.StatusCode;
import dev.pinrock.internal.BatchEncoding.Operation;

/**
 * The records of a batch with index and their native index
 * (pr_indexed_batch_t). Records are appended to a {@link BatchEncoding} in
 * Java, with no crossing, and handed to the index in order by the first
 * read that needs them ({@link #index}), or at once while cursors read the
 * index ({@link #indexEachWrite(boolean)}) and for records RocksDB may
 * refuse ({@link #appendChecked}); writing the batch hands the same encoding
 * to the database. Not thread-safe: the public
 * {@link dev.pinrock.WriteBatchWithIndex} admits one call at a time.
 */
public final class FfmIndexedBatch {
    private final MemorySegment handle;
    private final BatchEncoding encoding;
    /** How much of the encoding the index holds: bytes (header included) and records. */
    private long indexedBytes = BatchEncoding.HEADER_BYTES;
    private int indexedCount;
    /** Whether the index is to be emptied before it takes records (after a clear or a failed indexing). */
    private boolean rebuild;
    private boolean indexEachWrite;

    private FfmIndexedBatch(MemorySegment handle, BatchEncoding encoding) {
        this.handle = handle;
        this.encoding = encoding;
    }

    /**
     * Creates an empty batch (pr_indexed_batch_create).
     *
     * @param name the public class's name, for messages
     * @param overwriteKey whether a key's latest record replaces its earlier ones in the index
     * @return the batch; the caller frees it
     */
    public static FfmIndexedBatch create(String name, boolean overwriteKey) {
        try (Scratch scratch = Scratch.borrow()) {
            check((int) Downcalls.indexedBatchCreate().invokeExact(overwriteKey ? 1 : 0, scratch.word, scratch.err,
                    Scratch.ERR_CAP), scratch);
            return new FfmIndexedBatch(scratch.word.get(ValueLayout.ADDRESS, 0), new BatchEncoding(name, 256));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * The keyed reads and writes of one family through this batch.
     *
     * @param family a family handle of the database the batch reads over
     * @param familyId the id the family's records name it by
     * @return the path; valid while the batch and the family are
     */
    public KeyPath path(FfmDb family, int familyId) {
        return new FfmBatchPath(this, family.handle(), familyId);
    }

    /**
     * Writes a single delete or a merge through a path {@link #path} made,
     * checked at once (see {@link #appendChecked}).
     */
    public static void write(KeyPath path, Operation operation, Object key, Object operand) {
        ((FfmBatchPath) path).appendChecked(operation, key, operand);
    }

    /** Whether every write is indexed as it is made: while cursors read the index, so that they see it. */
    public void indexEachWrite(boolean value) {
        indexEachWrite = value;
    }

    /** Appends a record of family (any handle of the database, for the indexing) and indexes it if asked to. */
    void append(MemorySegment family, int familyId, Operation operation, Object first, Object second) {
        encoding.hold();
        try {
            appendHeld(familyId, operation, first, second);
        } finally {
            encoding.release();
        }
        if (indexEachWrite) {
            index(family);
        }
    }

    /**
     * Appends a record and indexes it at once, so that a record the database
     * would refuse (a merge into a family without a merge operator, a single
     * delete in a pessimistic database) is refused now and not kept.
     *
     * @throws RocksDbException with RocksDB's refusal; the batch is as it was
     */
    void appendChecked(MemorySegment family, int familyId, Operation operation, Object first, Object second) {
        encoding.hold();
        try {
            long size = encoding.size();
            int count = encoding.recordCount();
            appendHeld(familyId, operation, first, second);
            try {
                indexHeld(family);
            } catch (RuntimeException e) {
                encoding.truncate(size, count);
                throw e;
            }
        } finally {
            encoding.release();
        }
    }

    /**
     * Appends a record with the encoding held, refusing a key or value too
     * long as a direct write refuses it (INVALID_ARGUMENT, nothing added).
     */
    private void appendHeld(int familyId, Operation operation, Object first, Object second) {
        try {
            encoding.append(familyId, operation, first, second);
        } catch (IllegalArgumentException e) {
            throw RocksDbException.of(StatusCode.INVALID_ARGUMENT.nativeCode(), e.getMessage());
        }
    }

    /**
     * Hands the index the records appended since it last took some (all of
     * them after a clear), as records of the database of family (any of its
     * handles): pr_indexed_batch_index. A failure leaves the index to be
     * rebuilt by the next call.
     */
    void index(MemorySegment family) {
        encoding.hold();
        try {
            indexHeld(family);
        } finally {
            encoding.release();
        }
    }

    /** {@link #index} with the encoding held by the caller. */
    private void indexHeld(MemorySegment family) {
        long size = encoding.size();
        int count = encoding.recordCount();
        long from = rebuild ? BatchEncoding.HEADER_BYTES : indexedBytes;
        if (!rebuild && from == size) {
            return;
        }
        MemorySegment records = encoding.encoded().asSlice(from);
        int added = rebuild ? count : count - indexedCount;
        try (Scratch scratch = Scratch.borrow()) {
            int status = (int) Downcalls.indexedBatchIndex().invokeExact(handle, family, records, records.byteSize(),
                    added, rebuild ? 1 : 0, scratch.err, Scratch.ERR_CAP);
            if (status != Downcalls.OK) {
                rebuild = true;
                check(status, scratch);
            }
        } catch (Throwable t) {
            throw unchecked(t);
        }
        indexedBytes = size;
        indexedCount = count;
        rebuild = false;
    }

    /** The native batch, for reads once {@link #index} has run. */
    MemorySegment handle() {
        return handle;
    }

    /** Hands the encoded records to a write, with the encoding held. */
    public void writeInto(Consumer<MemorySegment> write) {
        encoding.hold();
        try {
            write.accept(encoding.encoded());
        } finally {
            encoding.release();
        }
    }

    /** @return the number of records */
    public int count() {
        return encoding.count();
    }

    /** @return the encoded size in bytes, header included */
    public long sizeBytes() {
        return encoding.sizeBytes();
    }

    /** Removes every record; the index is emptied before its next read (its cursors must be closed by then). */
    public void clear() {
        encoding.hold();
        try {
            encoding.clear();
        } finally {
            encoding.release();
        }
        rebuild = true;
        indexedBytes = BatchEncoding.HEADER_BYTES;
        indexedCount = 0;
    }

    /** pr_indexed_batch_free and the encoding's memory: once, after the last call and the cursors' close. */
    public void free() {
        encoding.close();
        try {
            Downcalls.indexedBatchFree().invokeExact(handle);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }
}
