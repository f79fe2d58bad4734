package dev.pinrock.internal;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

import dev.pinrock.DbOptions;

/**
 * One open database as a binding (FFM, or the JNI variant) reaches it. The
 * public {@link dev.pinrock.RocksDb} validates arguments, guards the handle's
 * lifetime and delegates here; implementations perform the native call and
 * report failures through {@link dev.pinrock.RocksDbException#of(int, String)}.
 * Contracts (returns, copying rules) are those of the same-named methods of
 * {@code RocksDb}. Arguments are non-null and buffers writable when they reach
 * an implementation.
 */
public interface NativeDb {
    /** Value length returned by the into-buffer reads when the key is absent. */
    int NOT_FOUND = -1;

    void put(byte[] key, byte[] value);

    byte[] get(byte[] key);

    int get(byte[] key, byte[] dst);

    /** get(key) as of a snapshot handle (0: the latest state) with PR_READ_* flags. */
    byte[] get(byte[] key, long snapshot, int readFlags);

    /** get(key, dst) as of a snapshot handle (0: the latest state) with PR_READ_* flags. */
    int get(byte[] key, byte[] dst, long snapshot, int readFlags);

    /** Takes a snapshot; returns its native handle. */
    long createSnapshot();

    /** Releases a snapshot handle; no read may be using it. */
    void releaseSnapshot(long snapshot);

    void delete(byte[] key);

    void put(MemorySegment key, MemorySegment value);

    long get(MemorySegment key, MemorySegment dst);

    void delete(MemorySegment key);

    /**
     * Reads a value without copying it: pins it.
     *
     * @return this thread's PinnedValue, refilled, whose pin the caller now owns; null when the key is absent
     */
    PinnedValue pin(MemorySegment key);

    /** {@link #pin(MemorySegment)} of an array key. */
    PinnedValue pin(byte[] key);

    /**
     * Reads many keys in one native call. Fills statuses[i] with PR_OK,
     * PR_NOT_FOUND or the failure of key i, and returns the values (null
     * where there is none).
     */
    byte[][] multiGet(byte[][] keys, int[] statuses);

    /**
     * pr_db_multi_get into dst (native, of the caller's size): fills the
     * keys' statuses, value offsets and value lengths.
     */
    void multiGet(MultiGet keys, MemorySegment dst);

    /** pr_db_multi_get_pinned: fills the keys' statuses and one native pr_get_result per key. */
    void multiGetPinned(MultiGet keys, MemorySegment results);

    /** Applies an encoded write batch (RocksDB's WriteBatch format) with PR_WRITE_* flags. */
    void write(MemorySegment batch, int flags);

    void flush();

    /** Compacts [begin, end); a null bound is open. */
    void compactRange(byte[] begin, byte[] end);

    long approximateSize(byte[] begin, byte[] end);

    void checkpoint(Path directory);

    /** Adds finished table files to the database atomically, moving them when move is set. */
    void ingest(String[] files, boolean move);

    /** Returns the integer property, or -1 when RocksDB knows no integer property of that name. */
    long propertyLong(String name);

    String property(String name);

    /**
     * Reads every statistic (pr_db_statistics) into native arrays: a uint64
     * per ticker and a pr_histogram per histogram, in the order of
     * {@link NativeStatistics}.
     */
    void statistics(MemorySegment tickers, MemorySegment histograms);

    void resetStatistics();

    /** Fills a native pr_memory_usage (pr_db_memory_usage). */
    void memoryUsage(MemorySegment usage);

    /**
     * Opens a cursor (pr_cursor_open).
     *
     * @param snapshot a snapshot handle, or 0 for the latest state
     * @param readFlags PR_READ_* flags
     * @param readaheadBytes table-file read-ahead, 0 for RocksDB's automatic one
     * @param lower the first key the cursor sees, or null for none
     * @param upper the first key past what the cursor sees, or null for none
     */
    NativeCursor openCursor(long snapshot, int readFlags, long readaheadBytes, byte[] lower, byte[] upper);

    /** Finds an open column family of this database: its handle, or null when there is none of that name. */
    NativeDb family(String name);

    /**
     * Creates a column family.
     *
     * @param options its options, or null for those of the default family
     * @param memoryBudget the database's memory budget handle, or 0
     */
    NativeDb createFamily(String name, DbOptions options, long memoryBudget);

    /** Drops this handle's column family; the handle stays valid (writes fail) until {@link #releaseFamily()}. */
    void dropFamily();

    /**
     * Frees this dropped family's handle, and what RocksDB keeps of the family (its
     * memtables, its part in write stalls), once cursors opened on it have closed. The
     * handle must not be used afterwards: call with no call on it in flight.
     */
    void releaseFamily();

    /** @return the names of this database's open column families */
    List<String> familyNames();

    /** @return this handle's column family id, as write batch records name it */
    int familyId();

    /**
     * Marks the database closing, or open again: while closing, writes waiting out a write
     * stall give up with {@link dev.pinrock.StatusCode#SHUTDOWN_IN_PROGRESS}. Safe during any
     * call but {@link #close()}.
     */
    void setClosing(boolean closing);

    /** Closes the native database; called exactly once, when no other call is in flight. */
    void close();
}
