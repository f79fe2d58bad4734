package dev.pinrock.internal;

import java.lang.foreign.MemorySegment;

/**
 * The keyed reads and writes one keyspace offers, whatever it is: a
 * database's column family ({@link DataPath}, either binding), a column
 * family as one transaction sees it ({@link FfmTransactionPath}) or through
 * a batch with index ({@link FfmBatchPath}). The public
 * {@link dev.pinrock.KeyedCalls} validates arguments, guards lifetimes and
 * delegates here; implementations perform the native call and report
 * failures through {@link dev.pinrock.RocksDbException#of(int, String)}.
 * Contracts (returns, copying rules) are those of the same-named methods of
 * {@code KeyedCalls}. Arguments are non-null and buffers writable when they
 * reach an implementation.
 */
public interface KeyPath {
    /** Value length returned by the into-buffer reads when the key is absent. */
    int NOT_FOUND = -1;

    void put(byte[] key, byte[] value);

    byte[] get(byte[] key);

    int get(byte[] key, byte[] dst);

    /** get(key) as of a snapshot handle (0: the latest state) with PR_READ_* flags. */
    byte[] get(byte[] key, long snapshot, int readFlags);

    /** get(key, dst) as of a snapshot handle (0: the latest state) with PR_READ_* flags. */
    int get(byte[] key, byte[] dst, long snapshot, int readFlags);

    void delete(byte[] key);

    void put(MemorySegment key, MemorySegment value);

    /** get(key, dst) of segments as of a snapshot handle (0: the latest state) with PR_READ_* flags. */
    long get(MemorySegment key, MemorySegment dst, long snapshot, int readFlags);

    void delete(MemorySegment key);

    /**
     * Reads a value without copying it: pins it and records its address,
     * length and pin (0 for an empty value, which needs none) in scratch's
     * result, so that no object is made per read. The caller then owns the
     * pin and hands it to {@link #release(long)} once. It reads as of a
     * snapshot handle (0: the latest state) with PR_READ_* flags.
     *
     * @return false when the key is absent (nothing is pinned)
     */
    boolean pin(MemorySegment key, Scratch scratch, long snapshot, int readFlags);

    /** {@link #pin(MemorySegment, Scratch, long, int)} of an array key. */
    boolean pin(byte[] key, Scratch scratch, long snapshot, int readFlags);

    /** Releases a pin {@link #pin} recorded; 0 is accepted. */
    void release(long pin);

    /**
     * pr_db_multi_get_with, or pr_txn_multi_get for a transaction's, into dst
     * (native, of the caller's size): fills the keys' statuses, value offsets
     * and value lengths.
     */
    void multiGet(MultiGet keys, MemorySegment dst);

    /** The pinned form of {@link #multiGet(MultiGet, MemorySegment)}: one native pr_get_result per key. */
    void multiGetPinned(MultiGet keys, MemorySegment results);

    /**
     * Reads many keys into new arrays. Fills statuses[i] with PR_OK,
     * PR_NOT_FOUND or the failure of key i, and returns the values (null
     * where there is none).
     */
    default byte[][] multiGet(byte[][] keys, int[] statuses, MultiGet.Reads reads) {
        return MultiGet.arrays(this, reads, keys, statuses);
    }

    /**
     * Opens a cursor (pr_cursor_open, or pr_txn_cursor_open for a transaction's).
     *
     * @param snapshot a snapshot handle, or 0 for the latest state (a transaction's: its own snapshot, if any)
     * @param readFlags PR_READ_* flags
     * @param readaheadBytes table-file read-ahead, 0 for RocksDB's automatic one
     * @param lower the first key the cursor sees, or null for none
     * @param upper the first key past what the cursor sees, or null for none
     * @param prefix whether the bounds are a prefix's (PR_RANGE_PREFIX: bytewise)
     */
    NativeCursor openCursor(long snapshot, int readFlags, long readaheadBytes, byte[] lower, byte[] upper,
            boolean prefix);
}
