package dev.pinrock.internal;

import java.lang.foreign.MemorySegment;

/**
 * The data path of one column family as a binding (FFM, or the JNI variant)
 * reaches it: the keyed calls of {@link KeyPath}, and write batches,
 * multiGets, memory-only reads and cursors, the calls whose boundary the
 * benchmarks compare. Everything else goes through {@link FfmDb}, the one
 * owner of the native handle, whichever binding reads and writes. The public
 * {@link dev.pinrock.Keyspace} validates arguments, guards the handle's
 * lifetime and delegates here, as {@link KeyPath} describes.
 */
public interface DataPath extends KeyPath {
    /** {@link #pinFromMemory}'s answer: the key certainly does not exist. */
    int ABSENT = 0;
    /** {@link #pinFromMemory}'s answer: the key may exist, but only I/O could tell (nothing is pinned). */
    int MAY_EXIST = 1;
    /** {@link #pinFromMemory}'s answer: memory held the value, pinned as {@link #pin} pins it. */
    int FOUND = 2;

    /**
     * {@link #pin(MemorySegment, Scratch, long, int)} answered from memory
     * only (the memtables, the block cache and the table files' filters,
     * with no I/O), without an exception when that cannot tell: RocksDB's
     * KeyMayExist, with the value when memory holds it. A failure other than
     * needing I/O is thrown as by pin.
     *
     * @return {@link #ABSENT}, {@link #MAY_EXIST} or {@link #FOUND}
     */
    int pinFromMemory(MemorySegment key, Scratch scratch, long snapshot, int readFlags);

    /** {@link #pinFromMemory(MemorySegment, Scratch, long, int)} of an array key. */
    int pinFromMemory(byte[] key, Scratch scratch, long snapshot, int readFlags);

    /**
     * {@link KeyPath#multiGet(byte[][], int[], MultiGet.Reads)} with the
     * default reads, the form each binding makes its own way.
     */
    byte[][] multiGet(byte[][] keys, int[] statuses);

    @Override
    default byte[][] multiGet(byte[][] keys, int[] statuses, MultiGet.Reads reads) {
        return reads == MultiGet.Reads.DEFAULT ? multiGet(keys, statuses) : MultiGet.arrays(this, reads, keys, statuses);
    }

    /** Applies an encoded write batch (RocksDB's WriteBatch format) with PR_WRITE_* flags. */
    void write(MemorySegment batch, int flags);

    /**
     * Applies one record with PR_WRITE_* flags, as a write batch of that
     * record alone ({@link BatchEncoding#oneRecord}), encoded in a scratch's
     * memory: the writes with write options, and the operations RocksDB has
     * no direct call of pinrock's for (single delete, merge, delete range).
     * The parts are byte arrays or memory segments.
     *
     * @param familyId the id of the family written, {@link BatchEncoding#DEFAULT_FAMILY} for the default one
     */
    default void writeRecord(int familyId, BatchEncoding.Operation operation, Object first, Object second,
            int flags) {
        try (Scratch scratch = Scratch.borrow()) {
            write(BatchEncoding.oneRecord(scratch.writeArea(BatchEncoding.oneRecordBound(first, second)), familyId,
                    operation, first, second), flags);
        }
    }
}
