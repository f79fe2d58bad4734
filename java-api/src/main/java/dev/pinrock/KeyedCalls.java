package dev.pinrock;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import dev.pinrock.internal.BatchEncoding.Operation;
import dev.pinrock.internal.BufferSegments;
import dev.pinrock.internal.FfmDb;
import dev.pinrock.internal.KeyPath;
import dev.pinrock.internal.MultiGet;
import dev.pinrock.internal.NativeCursor;
import dev.pinrock.internal.PinnedValue;
import dev.pinrock.internal.Scratch;
import dev.pinrock.internal.Segments;

/**
 * The keyed reads and writes every keyspace shares, in every access mode:
 * a column family of a database ({@link Keyspace}: a {@link RocksDb} or a
 * {@link ColumnFamily}) and a column family as a {@link Transaction} sees
 * it (the transaction itself for the default family, and
 * {@link Transaction#in(Keyspace)}). The rules of access modes, results,
 * threads and lifetime are those described on {@link RocksDb}; a
 * transaction's own rules are on {@link Transaction}.
 *
 * <p>Every write here ({@code put}, {@code delete}, {@code singleDelete},
 * {@code merge}) uses the keyspace's default way of writing: for a
 * database, {@link WriteOptions#DEFAULT} ({@link Keyspace} has the forms
 * with {@link WriteOptions}); for a transaction, into the transaction.
 * Every read has a form that takes {@link ReadOptions} first; the others
 * use {@link ReadOptions#DEFAULT}.
 */
public abstract sealed class KeyedCalls permits Keyspace, PendingWrites, PendingWrites.Scope {
    /** Returned by the into-buffer reads when the key is absent. */
    public static final int NOT_FOUND = KeyPath.NOT_FOUND;

    /** The reads and writes of this keyspace, through its database's binding. */
    final KeyPath keys;

    KeyedCalls(KeyPath keys) {
        this.keys = keys;
    }

    /**
     * Returns the database this keyspace belongs to.
     *
     * @return the database this keyspace belongs to
     */
    public abstract RocksDb database();

    /**
     * Marks a call in flight: holds the guards of what the call uses.
     *
     * @throws IllegalStateException when the database or family is closed or dropped, or the
     *     transaction is done or in use by another thread
     */
    abstract void acquire();

    /** Ends a call started by {@link #acquire()}. */
    abstract void release();

    /**
     * Writes one record of a kind without a call of its own in the key
     * path (single delete, merge), the keyspace's default way.
     */
    abstract void writeOne(Operation operation, Object first, Object second);

    /**
     * Makes the public cursor of a native one just opened, registered with
     * what closes it (the database, and a transaction).
     */
    abstract Cursor adopt(NativeCursor cursor);

    /**
     * Runs, with the call's guards held, before every write: what a write
     * invalidates (a transaction's cursors' entry views). Nothing by default.
     *
     * @throws IllegalStateException when the write cannot be made now
     */
    void beforeWrite() {
    }

    /**
     * Opens a cursor over the keyspace as it is now, over every key: a
     * family's keys, or a transaction's writes merged over them (see
     * {@link Transaction} for what such a cursor adds).
     *
     * @return the cursor, on no entry yet; the caller closes it (closing the database does too)
     * @throws IllegalStateException when the database is closed
     */
    public Cursor cursor() {
        return cursor(ReadOptions.DEFAULT);
    }

    /**
     * Opens a cursor with read options: a snapshot, a key range or prefix,
     * caching, checksums, memory only, read-ahead. The cursor keeps the view
     * it opened with, even when the snapshot closes before it.
     *
     * @param options how to read
     * @return the cursor, on no entry yet; the caller closes it (closing the database does too)
     * @throws IllegalArgumentException when the snapshot belongs to another database
     * @throws IllegalStateException when the database or the snapshot is closed
     */
    public Cursor cursor(ReadOptions options) {
        long snapshot = acquire(options);
        try {
            return adopt(keys.openCursor(snapshot, options.flags(), options.readaheadBytes(),
                    options.lowerBoundNoCopy(), options.upperBoundNoCopy(), options.prefixBounds()));
        } finally {
            release(options);
        }
    }

    /**
     * Writes a key and value, with {@link WriteOptions#DEFAULT}.
     *
     * <p>Like every write, it waits while RocksDB stalls writes (until flushes and
     * compactions catch up), unless the database is closed meanwhile.
     *
     * @param key the key (may be empty)
     * @param value the value (may be empty)
     * @throws RocksDbException when RocksDB fails the write (nothing is written), with
     *     {@link StatusCode#SHUTDOWN_IN_PROGRESS} when the database was closed while the write
     *     waited out a write stall
     * @throws IllegalStateException when the database is closed or the family dropped
     */
    public void put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        acquire();
        try {
            beforeWrite();
            keys.put(key, value);
        } finally {
            release();
        }
    }

    /**
     * Writes a key and value from buffers: the bytes between each buffer's
     * position and limit. The buffers' positions and limits are not changed.
     *
     * @param key the key, direct or heap
     * @param value the value, direct or heap
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database is closed
     */
    public void put(ByteBuffer key, ByteBuffer value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        put(BufferSegments.ofKey(key), BufferSegments.ofValue(value));
    }

    /**
     * Writes a key and value from segments. Native segments are read in place;
     * heap segments are copied first.
     *
     * @param key the key
     * @param value the value
     * @throws RocksDbException.InvalidArgumentException when the key is longer than 8 MiB
     *     or the value than 2^32 - 1 bytes; nothing is written
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database or a segment's arena is closed
     * @throws WrongThreadException when a segment is confined to another thread
     */
    public void put(MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        acquire();
        try {
            beforeWrite();
            keys.put(key, value);
        } finally {
            release();
        }
    }

    /**
     * Reads a value into a new array.
     *
     * @param key the key
     * @return the value, or {@code null} when the key is absent
     * @throws RocksDbException when RocksDB fails the read
     * @throws IllegalStateException when the database is closed
     */
    public byte[] get(byte[] key) {
        Objects.requireNonNull(key, "key");
        acquire();
        try {
            return keys.get(key);
        } finally {
            release();
        }
    }

    /**
     * Reads a value into a new array, with read options (a snapshot,
     * caching, checksums, memory only).
     *
     * @param options how to read
     * @param key the key
     * @return the value, or {@code null} when the key is absent
     * @throws IllegalArgumentException when the snapshot belongs to another database
     * @throws RocksDbException with {@link StatusCode#INCOMPLETE} when a memory-only read would need I/O
     * @throws IllegalStateException when the database or the snapshot is closed
     */
    public byte[] get(ReadOptions options, byte[] key) {
        Objects.requireNonNull(key, "key");
        long snapshot = acquire(options);
        try {
            return keys.get(key, snapshot, options.flags());
        } finally {
            release(options);
        }
    }

    /**
     * Reads a value into a caller's array, from index 0, when it fits, with
     * read options; see {@link #get(byte[], byte[])} and {@link #get(ReadOptions, byte[])}.
     *
     * @param options how to read
     * @param key the key
     * @param dst where the value is copied when it fits
     * @return the value's length, or {@link #NOT_FOUND}
     */
    public int get(ReadOptions options, byte[] key, byte[] dst) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(dst, "dst");
        long snapshot = acquire(options);
        try {
            return keys.get(key, dst, snapshot, options.flags());
        } finally {
            release(options);
        }
    }

    /**
     * Marks a read with options in flight: holds the database's guard and,
     * when the options name a snapshot, the snapshot's; pair with
     * {@link #release(ReadOptions)}.
     *
     * @return the snapshot's handle, or 0 for the latest state
     * @throws IllegalArgumentException when the snapshot belongs to another database
     * @throws IllegalStateException when the database or the snapshot is closed
     */
    long acquire(ReadOptions options) {
        Objects.requireNonNull(options, "options");
        Snapshot snapshot = options.snapshot();
        if (snapshot != null && snapshot.owner != database()) {
            throw new IllegalArgumentException("the snapshot belongs to " + snapshot.owner);
        }
        acquire();
        if (snapshot == null) {
            return 0L;
        }
        try {
            snapshot.guard.acquire();
        } catch (RuntimeException e) {
            release();
            throw e;
        }
        return snapshot.handle;
    }

    /** Ends a read started by {@link #acquire(ReadOptions)}. */
    void release(ReadOptions options) {
        Snapshot snapshot = options.snapshot();
        if (snapshot != null) {
            snapshot.guard.release();
        }
        release();
    }

    /**
     * Reads a value into a caller's array, from index 0, when it fits.
     *
     * @param key the key
     * @param dst where the value is copied when its length is at most {@code dst.length};
     *     left untouched otherwise
     * @return the value's length (copy done when it is at most {@code dst.length}, otherwise
     *     retry with a larger array), or {@link #NOT_FOUND}
     * @throws RocksDbException when RocksDB fails the read
     * @throws IllegalStateException when the database is closed
     */
    public int get(byte[] key, byte[] dst) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(dst, "dst");
        acquire();
        try {
            return keys.get(key, dst);
        } finally {
            release();
        }
    }

    /**
     * Reads a value into a caller's buffer, when it fits. The key is the bytes
     * between {@code key}'s position and limit (neither changes). When the
     * value fits in {@code dst.remaining()}, it is written at {@code dst}'s
     * position and {@code dst}'s limit is set to the end of the value (the
     * position does not change, so the value is ready to read); otherwise
     * {@code dst} is left untouched.
     *
     * @param key the key, direct or heap
     * @param dst the destination, direct or heap, writable
     * @return the value's length (copied when at most the remaining space), or {@link #NOT_FOUND}
     * @throws ReadOnlyBufferException when dst is read-only
     * @throws RocksDbException when RocksDB fails the read
     * @throws IllegalStateException when the database is closed
     */
    public int get(ByteBuffer key, ByteBuffer dst) {
        return get(ReadOptions.DEFAULT, key, dst);
    }

    /**
     * Reads a value into a caller's buffer, when it fits, with read options;
     * see {@link #get(ByteBuffer, ByteBuffer)} and {@link #get(ReadOptions, byte[])}.
     *
     * @param options how to read
     * @param key the key, direct or heap
     * @param dst the destination, direct or heap, writable
     * @return the value's length (copied when at most the remaining space), or {@link #NOT_FOUND}
     */
    public int get(ReadOptions options, ByteBuffer key, ByteBuffer dst) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        long length;
        MemorySegment destination = BufferSegments.ofValue(dst);
        long snapshot = acquire(options);
        try {
            length = keys.get(BufferSegments.ofKey(key), destination, snapshot, options.flags());
        } finally {
            release(options);
        }
        if (length == NOT_FOUND) {
            Segments.requireUsable(destination);
            return NOT_FOUND;
        }
        if (length <= dst.remaining()) {
            dst.limit(dst.position() + (int) length);
        }
        return (int) Math.min(length, Integer.MAX_VALUE);
    }

    /**
     * Reads a value into a caller's segment, from offset 0, when it fits.
     * A native destination receives the value directly from RocksDB.
     *
     * @param key the key
     * @param dst the destination, writable
     * @return the value's length (copied when at most {@code dst.byteSize()}), or {@link #NOT_FOUND}
     * @throws IllegalArgumentException when dst is read-only
     * @throws RocksDbException when RocksDB fails the read
     * @throws IllegalStateException when the database or a segment's arena is closed
     * @throws WrongThreadException when a segment is confined to another thread
     */
    public long get(MemorySegment key, MemorySegment dst) {
        return get(ReadOptions.DEFAULT, key, dst);
    }

    /**
     * Reads a value into a caller's segment, when it fits, with read options;
     * see {@link #get(MemorySegment, MemorySegment)} and {@link #get(ReadOptions, byte[])}.
     *
     * @param options how to read
     * @param key the key
     * @param dst the destination, writable
     * @return the value's length (copied when at most {@code dst.byteSize()}), or {@link #NOT_FOUND}
     */
    public long get(ReadOptions options, MemorySegment key, MemorySegment dst) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("dst is a read-only segment");
        }
        long length;
        long snapshot = acquire(options);
        try {
            length = keys.get(key, dst, snapshot, options.flags());
        } finally {
            release(options);
        }
        if (length == NOT_FOUND) {
            Segments.requireUsable(dst);
        }
        return length;
    }

    /**
     * Reads a value without copying it: the returned segment views RocksDB's
     * own memory (a pinned block-cache entry or memtable copy), read-only.
     * The pin is released when {@code arena} closes; from then on any access
     * to the segment throws {@link IllegalStateException}. The segment stays
     * valid when the database closes first. Pins hold memory (for a value from
     * a table file, its whole block stays in the cache), so keep arenas short.
     *
     * @param arena the arena the segment belongs to; it must be open and usable by this thread
     * @param key the key
     * @return a read-only segment of the value's length, or {@code null} when the key is absent
     * @throws RocksDbException when RocksDB fails the read
     * @throws IllegalStateException when the database or the arena is closed
     * @throws WrongThreadException when the arena or key is confined to another thread
     */
    public MemorySegment getPinned(Arena arena, MemorySegment key) {
        return getPinned(ReadOptions.DEFAULT, arena, key);
    }

    /**
     * Reads a value without copying it, with read options; see
     * {@link #getPinned(Arena, MemorySegment)} and {@link #get(ReadOptions, byte[])}.
     *
     * @param options how to read
     * @param arena the arena the segment belongs to
     * @param key the key
     * @return a read-only segment of the value, or {@code null} when the key is absent
     */
    public MemorySegment getPinned(ReadOptions options, Arena arena, MemorySegment key) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(key, "key");
        try (Scratch scratch = Scratch.borrow()) {
            return view(arena, pin(options, key, scratch), scratch);
        }
    }

    /**
     * Reads a value without copying it; see {@link #getPinned(Arena, MemorySegment)}.
     *
     * @param arena the arena the segment belongs to
     * @param key the key
     * @return a read-only segment of the value, or {@code null} when the key is absent
     */
    public MemorySegment getPinned(Arena arena, byte[] key) {
        return getPinned(ReadOptions.DEFAULT, arena, key);
    }

    /**
     * Reads a value without copying it, with read options; see
     * {@link #getPinned(ReadOptions, Arena, MemorySegment)}.
     *
     * @param options how to read
     * @param arena the arena the segment belongs to
     * @param key the key
     * @return a read-only segment of the value, or {@code null} when the key is absent
     */
    public MemorySegment getPinned(ReadOptions options, Arena arena, byte[] key) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(key, "key");
        try (Scratch scratch = Scratch.borrow()) {
            return view(arena, pin(options, key, scratch), scratch);
        }
    }

    /**
     * Reads a value without copying it, for the length of one call: {@code reader}
     * gets a read-only segment of RocksDB's own memory (a pinned block-cache
     * entry or memtable copy) that is valid only until {@code reader} returns
     * (any access from then on, or from another thread, throws). The pin is
     * released when {@code reader} returns or throws. Unlike
     * {@link #getPinned(Arena, MemorySegment)} the caller needs no arena, and
     * the read allocates nothing when the JIT inlines {@code reader} into it,
     * as it does while a program's hot reads use one or two reader classes;
     * a reader kept in a field, or a lambda that captures nothing, is not
     * allocated per read either.
     *
     * @param key the key
     * @param reader what to do with the value; it may call this database again
     * @return whether the key was found (the reader runs only then)
     * @throws RocksDbException when RocksDB fails the read
     * @throws IllegalStateException when the database is closed
     * @throws WrongThreadException when the key is confined to another thread
     */
    public boolean getPinned(MemorySegment key, Consumer<? super MemorySegment> reader) {
        return getPinned(ReadOptions.DEFAULT, key, reader);
    }

    /**
     * Reads a value without copying it, for the length of one call, with read
     * options; see {@link #getPinned(MemorySegment, Consumer)} and
     * {@link #get(ReadOptions, byte[])}.
     *
     * @param options how to read
     * @param key the key
     * @param reader what to do with the value
     * @return whether the key was found (the reader runs only then)
     */
    public boolean getPinned(ReadOptions options, MemorySegment key, Consumer<? super MemorySegment> reader) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reader, "reader");
        long address;
        long length;
        long pin;
        // The scratch goes back before reader runs: reader may read this database again.
        try (Scratch scratch = Scratch.borrow()) {
            if (!pin(options, key, scratch)) {
                return false;
            }
            address = scratch.resultData();
            length = scratch.resultLength();
            pin = scratch.resultPin();
        }
        PinnedValue.read(address, length, pin, keys, reader);
        return true;
    }

    /**
     * Reads a value without copying it, for the length of one call; see
     * {@link #getPinned(MemorySegment, Consumer)}.
     *
     * @param key the key
     * @param reader what to do with the value
     * @return whether the key was found (the reader runs only then)
     */
    public boolean getPinned(byte[] key, Consumer<? super MemorySegment> reader) {
        return getPinned(ReadOptions.DEFAULT, key, reader);
    }

    /**
     * Reads a value without copying it, for the length of one call, with read
     * options; see {@link #getPinned(ReadOptions, MemorySegment, Consumer)}.
     *
     * @param options how to read
     * @param key the key
     * @param reader what to do with the value
     * @return whether the key was found (the reader runs only then)
     */
    public boolean getPinned(ReadOptions options, byte[] key, Consumer<? super MemorySegment> reader) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reader, "reader");
        long address;
        long length;
        long pin;
        try (Scratch scratch = Scratch.borrow()) {
            if (!pin(options, key, scratch)) {
                return false;
            }
            address = scratch.resultData();
            length = scratch.resultLength();
            pin = scratch.resultPin();
        }
        PinnedValue.read(address, length, pin, keys, reader);
        return true;
    }

    private boolean pin(ReadOptions options, MemorySegment key, Scratch scratch) {
        long snapshot = acquire(options);
        try {
            return keys.pin(key, scratch, snapshot, options.flags());
        } finally {
            release(options);
        }
    }

    private boolean pin(ReadOptions options, byte[] key, Scratch scratch) {
        long snapshot = acquire(options);
        try {
            return keys.pin(key, scratch, snapshot, options.flags());
        } finally {
            release(options);
        }
    }

    /** The pinned value in scratch as a segment of arena; null (once the arena is known usable) when there is none. */
    private MemorySegment view(Arena arena, boolean found, Scratch scratch) {
        if (!found) {
            // Nothing was pinned into the arena: fail as a pin would have.
            MemorySegment.NULL.reinterpret(0, arena, null);
            return null;
        }
        return PinnedValue.view(scratch.resultData(), scratch.resultLength(), scratch.resultPin(), keys, arena);
    }

    /**
     * Deletes a key, with {@link WriteOptions#DEFAULT}; deleting an absent key succeeds.
     *
     * @param key the key
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database is closed
     */
    public void delete(byte[] key) {
        Objects.requireNonNull(key, "key");
        acquire();
        try {
            beforeWrite();
            keys.delete(key);
        } finally {
            release();
        }
    }

    /**
     * Deletes the key between the buffer's position and limit (unchanged).
     *
     * @param key the key, direct or heap
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database is closed
     */
    public void delete(ByteBuffer key) {
        Objects.requireNonNull(key, "key");
        delete(BufferSegments.ofKey(key));
    }

    /**
     * Deletes a key given as a segment.
     *
     * @param key the key
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database or the segment's arena is closed
     */
    public void delete(MemorySegment key) {
        Objects.requireNonNull(key, "key");
        acquire();
        try {
            beforeWrite();
            keys.delete(key);
        } finally {
            release();
        }
    }

    /**
     * Deletes a key that was put once since it was last deleted (RocksDB's
     * SingleDelete), which compactions drop together with that put. A key
     * deleted, merged, put more than once or single-deleted since its last
     * put is left with an undefined value (RocksDB's contract); nothing else
     * is affected.
     *
     * @param key the key
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database is closed or the family dropped
     */
    public void singleDelete(byte[] key) {
        Objects.requireNonNull(key, "key");
        writeOne(Operation.SINGLE_DELETE, key, null);
    }

    /**
     * {@link #singleDelete(byte[])} of a key given as a segment.
     *
     * @param key the key
     */
    public void singleDelete(MemorySegment key) {
        Objects.requireNonNull(key, "key");
        writeOne(Operation.SINGLE_DELETE, key, null);
    }

    /**
     * Merges an operand into a key's value with the family's merge operator
     * ({@link DbOptions#mergeOperator(String)}).
     *
     * @param key the key
     * @param operand the operand, as the merge operator takes it (8 bytes, little-endian, for
     *     {@code "uint64add"})
     * @throws RocksDbException.InvalidArgumentException when the family has no merge operator, or
     *     the operand does not suit it; nothing is written
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database is closed or the family dropped
     */
    public void merge(byte[] key, byte[] operand) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operand, "operand");
        writeOne(Operation.MERGE, key, operand);
    }

    /**
     * {@link #merge(byte[], byte[])} of segments.
     *
     * @param key the key
     * @param operand the operand
     */
    public void merge(MemorySegment key, MemorySegment operand) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operand, "operand");
        writeOne(Operation.MERGE, key, operand);
    }
    /**
     * Reads many keys in one native call, over RocksDB's batched MultiGet (a
     * transaction's: its writes merged over the database; for update, each
     * key read and locked in turn).
     *
     * @param keys the keys, in any order, duplicates allowed
     * @return the values in the order of the keys, {@code null} where a key is absent
     * @throws RocksDbException for the first key whose read failed
     * @throws IllegalStateException when the database is closed
     */
    public List<byte[]> multiGet(List<byte[]> keys) {
        return multiGet(ReadOptions.DEFAULT, keys);
    }

    /**
     * Reads many keys in one native call, with read options (a snapshot,
     * caching, checksums, memory only); see {@link #multiGet(List)}.
     *
     * @param options how to read
     * @param keys the keys, in any order, duplicates allowed
     * @return the values in the order of the keys, {@code null} where a key is absent
     * @throws IllegalArgumentException when the snapshot belongs to another database
     * @throws RocksDbException for the first key whose read failed ({@link StatusCode#INCOMPLETE}
     *     for a memory-only read that needed I/O)
     * @throws IllegalStateException when the database or the snapshot is closed
     */
    public List<byte[]> multiGet(ReadOptions options, List<byte[]> keys) {
        byte[][] keyArray = keyArray(keys);
        int[] statuses = new int[keyArray.length];
        byte[][] values;
        long snapshot = acquire(options);
        try {
            values = this.keys.multiGet(keyArray, statuses, readsOf(options, snapshot, null));
        } finally {
            release(options);
        }
        MultiGet.requireAllAnswered(statuses);
        return Arrays.asList(values);
    }

    /** The keys of a multiGet as an array, each checked non-null. */
    static byte[][] keyArray(List<byte[]> keys) {
        byte[][] keyArray = Objects.requireNonNull(keys, "keys").toArray(new byte[0][]);
        for (byte[] key : keyArray) {
            Objects.requireNonNull(key, "a key in keys");
        }
        return keyArray;
    }

    /**
     * How a multiGet with options reads: {@link MultiGet.Reads#DEFAULT} itself
     * for the default options, so that the caller can take the plain path.
     *
     * @param families the owner of a family's handle per key, or null for this keyspace's own
     */
    static MultiGet.Reads readsOf(ReadOptions options, long snapshot, List<FfmDb> families) {
        return snapshot == 0 && options.flags() == 0 && families == null ? MultiGet.Reads.DEFAULT
                : new MultiGet.Reads(snapshot, options.flags(), families);
    }

    /**
     * Reads many keys in one native call into a caller's segment, without
     * intermediate copies for a native destination: the found values are
     * copied one after another, in key order, while they fit.
     *
     * @param keys the keys (native or heap segments), in any order
     * @param dst where the values go
     * @param offsets receives, per key, where its value starts in dst, or -1 when the key is
     *     absent or its value did not fit (its length tells how much room it needs)
     * @param lengths receives, per key, its value's length, or {@link #NOT_FOUND}
     * @return the bytes of dst used
     * @throws IllegalArgumentException when offsets or lengths is shorter than keys, or dst is read-only
     * @throws RocksDbException for the first key whose read failed
     * @throws IllegalStateException when the database or a segment's arena is closed
     */
    public long multiGet(List<MemorySegment> keys, MemorySegment dst, long[] offsets, long[] lengths) {
        return multiGet(ReadOptions.DEFAULT, keys, dst, offsets, lengths);
    }

    /**
     * {@link #multiGet(List, MemorySegment, long[], long[])} with read options;
     * see {@link #multiGet(ReadOptions, List)}.
     *
     * @param options how to read
     * @param keys the keys (native or heap segments), in any order
     * @param dst where the values go
     * @param offsets receives, per key, where its value starts in dst, or -1
     * @param lengths receives, per key, its value's length, or {@link #NOT_FOUND}
     * @return the bytes of dst used
     */
    public long multiGet(ReadOptions options, List<MemorySegment> keys, MemorySegment dst, long[] offsets,
            long[] lengths) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(dst, "dst");
        Objects.requireNonNull(offsets, "offsets");
        Objects.requireNonNull(lengths, "lengths");
        if (offsets.length < keys.size() || lengths.length < keys.size()) {
            throw new IllegalArgumentException("offsets and lengths need " + keys.size() + " elements");
        }
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("dst is a read-only segment");
        }
        List<MemorySegment> keyList = List.copyOf(keys);
        long snapshot = acquire(options);
        try {
            return MultiGet.into(this.keys, readsOf(options, snapshot, null), keyList, dst, offsets, lengths);
        } finally {
            release(options);
        }
    }

    /**
     * Reads many keys in one native call without copying: each found value
     * is pinned and viewed by a read-only segment of {@code arena}, like
     * {@link #getPinned(Arena, MemorySegment)}.
     *
     * @param arena the arena the segments belong to; closing it releases the pins
     * @param keys the keys (native or heap segments), in any order
     * @return a segment per key, in the order of the keys, null where a key is absent
     * @throws RocksDbException for the first key whose read failed (nothing stays pinned)
     * @throws IllegalStateException when the database or the arena is closed
     * @throws WrongThreadException when the arena is confined to another thread
     */
    public List<MemorySegment> multiGetPinned(Arena arena, List<MemorySegment> keys) {
        return multiGetPinned(ReadOptions.DEFAULT, arena, keys);
    }

    /**
     * {@link #multiGetPinned(Arena, List)} with read options; see {@link #multiGet(ReadOptions, List)}.
     *
     * @param options how to read
     * @param arena the arena the segments belong to; closing it releases the pins
     * @param keys the keys (native or heap segments), in any order
     * @return a segment per key, in the order of the keys, null where a key is absent
     */
    public List<MemorySegment> multiGetPinned(ReadOptions options, Arena arena, List<MemorySegment> keys) {
        Objects.requireNonNull(arena, "arena");
        List<MemorySegment> keyList = List.copyOf(Objects.requireNonNull(keys, "keys"));
        long snapshot = acquire(options);
        try {
            return MultiGet.pinned(this.keys, readsOf(options, snapshot, null), arena, keyList);
        } finally {
            release(options);
        }
    }

}
