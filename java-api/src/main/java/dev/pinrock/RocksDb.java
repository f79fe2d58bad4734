package dev.pinrock;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.pinrock.internal.Binding;
import dev.pinrock.internal.FfmDb;
import dev.pinrock.internal.NativeDb;
import dev.pinrock.internal.NativeStatistics;
import dev.pinrock.internal.ResourceGuard;

/**
 * An open RocksDB database.
 *
 * <p><b>Access modes.</b> Each operation comes for {@code byte[]},
 * {@link ByteBuffer} (direct or heap) and {@link MemorySegment} (native or
 * heap). Reads either allocate the result ({@link #get(byte[])}), copy into a
 * caller's buffer and return the value's length ({@link #get(byte[], byte[])},
 * {@link #get(ByteBuffer, ByteBuffer)}, {@link #get(MemorySegment, MemorySegment)}),
 * or hand out a zero-copy view of RocksDB's own memory
 * ({@link #getPinned(Arena, MemorySegment)}).
 *
 * <p><b>Results.</b> An absent key is a return value: {@code null}, or
 * {@link #NOT_FOUND} from the into-buffer reads. Failures throw
 * {@link RocksDbException} with the RocksDB status code and message.
 *
 * <p><b>Threads and lifetime.</b> All methods are thread-safe. {@link #close()}
 * is idempotent and thread-safe: it waits for calls in flight on other threads
 * to return, then closes the database; every later call throws
 * {@link IllegalStateException}. Pinned segments belong to the arena they were
 * read into, not to the database: each keeps the memory it views alive, so a
 * pinned segment stays valid after the database closes, until its arena
 * closes. After the arena closes, any access to the segment throws
 * {@link IllegalStateException}.
 */
public final class RocksDb implements AutoCloseable {
    /** Returned by the into-buffer reads when the key is absent. */
    public static final int NOT_FOUND = NativeDb.NOT_FOUND;

    private final Path path;
    private final NativeDb db;
    private final ResourceGuard guard;
    /** Snapshots and cursors not yet closed; closing the database closes them first. */
    private final Set<Dependent> dependents = ConcurrentHashMap.newKeySet();

    /** A native resource that belongs to this database and must be freed before it closes. */
    interface Dependent {
        /** Frees the resource natively, once; later calls return at once. */
        void closeNative();
    }

    private RocksDb(Path path, NativeDb db) {
        this.path = path;
        this.db = db;
        this.guard = new ResourceGuard("RocksDb " + path);
    }

    /**
     * Opens the database in a directory.
     *
     * @param path the database directory; with {@link DbOptions#createIfMissing(boolean)} it
     *     is created when missing (its parent must exist)
     * @param options the options to open with
     * @return the open database; the caller closes it
     * @throws RocksDbException.InvalidArgumentException when the database is missing (without
     *     createIfMissing), exists (with errorIfExists), or an option value is out of range
     * @throws RocksDbException.RocksIoException when the directory cannot be created or used, or
     *     the database is already open, in this process or another
     * @throws RocksDbException.CorruptionException when the database's files are damaged
     */
    public static RocksDb open(Path path, DbOptions options) {
        return open(path, options, Binding.FFM);
    }

    /** Opens through a chosen binding: the JNI variant is reachable only from within pinrock. */
    static RocksDb open(Path path, DbOptions options, Binding binding) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(options, "options");
        Path absolute = path.toAbsolutePath();
        MemoryBudget budget = options.memoryBudget();
        NativeDb db = budget == null
                ? binding.open(absolute, options, 0L)
                : budget.withHandle(handle -> binding.open(absolute, options, handle));
        return new RocksDb(absolute, db);
    }

    /**
     * Returns the version of the RocksDB engine inside pinrock's native library.
     *
     * @return e.g. "9.10.0"
     */
    public static String engineVersion() {
        int version = FfmDb.engineVersion();
        return version / 10000 + "." + version / 100 % 100 + "." + version % 100;
    }

    /** @return the absolute path of the database directory */
    public Path path() {
        return path;
    }

    /**
     * Writes a key and value.
     *
     * @param key the key (may be empty)
     * @param value the value (may be empty)
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database is closed
     */
    public void put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        guard.acquire();
        try {
            db.put(key, value);
        } finally {
            guard.release();
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
        put(MemorySegment.ofBuffer(key), MemorySegment.ofBuffer(value));
    }

    /**
     * Writes a key and value from segments. Native segments are read in place;
     * heap segments are copied first.
     *
     * @param key the key
     * @param value the value
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database or a segment's arena is closed
     * @throws WrongThreadException when a segment is confined to another thread
     */
    public void put(MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        guard.acquire();
        try {
            db.put(key, value);
        } finally {
            guard.release();
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
        guard.acquire();
        try {
            return db.get(key);
        } finally {
            guard.release();
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
        return read(options, (snapshot, flags) -> db.get(key, snapshot, flags));
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
        return read(options, (snapshot, flags) -> db.get(key, dst, snapshot, flags));
    }

    /** A read given a snapshot handle (0: the latest state) and PR_READ_* flags. */
    private interface Read<T> {
        T run(long snapshot, int flags);
    }

    /** Runs a read with the guards of the database and of the snapshot held. */
    private <T> T read(ReadOptions options, Read<T> read) {
        Objects.requireNonNull(options, "options");
        Snapshot snapshot = options.snapshot();
        if (snapshot != null && snapshot.owner != this) {
            throw new IllegalArgumentException("the snapshot belongs to " + snapshot.owner);
        }
        guard.acquire();
        try {
            if (snapshot == null) {
                return read.run(0L, options.flags());
            }
            snapshot.guard.acquire();
            try {
                return read.run(snapshot.handle, options.flags());
            } finally {
                snapshot.guard.release();
            }
        } finally {
            guard.release();
        }
    }

    /**
     * Takes a snapshot: a consistent view of the database as it is now, for
     * reads through {@link ReadOptions#snapshot(Snapshot)}.
     *
     * @return the snapshot; the caller closes it (closing the database does too)
     * @throws IllegalStateException when the database is closed
     */
    public Snapshot snapshot() {
        guard.acquire();
        try {
            long handle = db.createSnapshot();
            Snapshot snapshot = new Snapshot(this, handle, () -> db.releaseSnapshot(handle));
            dependents.add(snapshot.dependent);
            return snapshot;
        } finally {
            guard.release();
        }
    }

    /**
     * Opens a cursor over the database as it is now, over every key.
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
        return read(options, (snapshot, flags) -> {
            Cursor cursor = new Cursor(this, db.openCursor(snapshot, flags, options.readaheadBytes(),
                    options.lowerBoundNoCopy(), options.upperBoundNoCopy()));
            dependents.add(cursor.dependent);
            return cursor;
        });
    }

    /** Frees a snapshot or cursor once; a no-op when the database already freed it on close. */
    void release(Dependent dependent) {
        if (!guard.tryAcquire()) {
            return;
        }
        try {
            dependent.closeNative();
        } finally {
            guard.release();
        }
    }

    /** Drops a freed snapshot or cursor from the ones closing the database frees. */
    void forget(Dependent dependent) {
        dependents.remove(dependent);
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
        guard.acquire();
        try {
            return db.get(key, dst);
        } finally {
            guard.release();
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
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        long length;
        guard.acquire();
        try {
            length = db.get(MemorySegment.ofBuffer(key), MemorySegment.ofBuffer(dst));
        } finally {
            guard.release();
        }
        if (length == NOT_FOUND) {
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
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("dst is a read-only segment");
        }
        guard.acquire();
        try {
            return db.get(key, dst);
        } finally {
            guard.release();
        }
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
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(key, "key");
        guard.acquire();
        try {
            MemorySegment value = db.getPinned(arena, key);
            return value == null ? null : value.asReadOnly();
        } finally {
            guard.release();
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
        Objects.requireNonNull(key, "key");
        return getPinned(arena, MemorySegment.ofArray(key));
    }

    /**
     * Reads many keys in one native call, over RocksDB's batched MultiGet.
     *
     * @param keys the keys, in any order, duplicates allowed
     * @return the values in the order of the keys, {@code null} where a key is absent
     * @throws RocksDbException for the first key whose read failed
     * @throws IllegalStateException when the database is closed
     */
    public List<byte[]> multiGet(List<byte[]> keys) {
        Objects.requireNonNull(keys, "keys");
        byte[][] keyArray = keys.toArray(new byte[0][]);
        for (byte[] key : keyArray) {
            Objects.requireNonNull(key, "a key in keys");
        }
        int[] statuses = new int[keyArray.length];
        byte[][] values;
        guard.acquire();
        try {
            values = db.multiGet(keyArray, statuses);
        } finally {
            guard.release();
        }
        for (int i = 0; i < statuses.length; i++) {
            if (statuses[i] != StatusCode.OK.nativeCode() && statuses[i] != StatusCode.NOT_FOUND.nativeCode()) {
                throw RocksDbException.of(statuses[i], StatusCode.of(statuses[i] & 0xff) + ": multiGet failed for key #" + i);
            }
        }
        return Arrays.asList(values);
    }

    /**
     * Deletes a key; deleting an absent key succeeds.
     *
     * @param key the key
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database is closed
     */
    public void delete(byte[] key) {
        Objects.requireNonNull(key, "key");
        guard.acquire();
        try {
            db.delete(key);
        } finally {
            guard.release();
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
        delete(MemorySegment.ofBuffer(key));
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
        guard.acquire();
        try {
            db.delete(key);
        } finally {
            guard.release();
        }
    }

    /**
     * Applies a batch atomically, with {@link WriteOptions#DEFAULT}.
     *
     * @param batch the operations; unchanged, reusable after the call
     * @throws RocksDbException.InvalidArgumentException when the batch merges into a database
     *     without a merge operator (nothing is applied)
     * @throws RocksDbException when RocksDB fails the write (nothing is applied)
     * @throws IllegalStateException when the database or the batch is closed
     */
    public void write(WriteBatch batch) {
        write(batch, WriteOptions.DEFAULT);
    }

    /**
     * Applies a batch atomically: every operation or none, also across a crash.
     *
     * @param batch the operations; unchanged, reusable after the call
     * @param options durability of the write
     * @throws RocksDbException.InvalidArgumentException when the batch merges into a database
     *     without a merge operator, or sync is combined with disableWal (nothing is applied)
     * @throws RocksDbException when RocksDB fails the write (nothing is applied)
     * @throws IllegalStateException when the database or the batch is closed
     */
    public void write(WriteBatch batch, WriteOptions options) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(options, "options");
        MemorySegment encoded = batch.encoded();
        guard.acquire();
        try {
            db.write(encoded, options.flags());
        } finally {
            guard.release();
        }
    }

    /**
     * Writes the memtables to table files and waits until that is done.
     *
     * @throws RocksDbException when the flush fails
     * @throws IllegalStateException when the database is closed
     */
    public void flush() {
        guard.acquire();
        try {
            db.flush();
        } finally {
            guard.release();
        }
    }

    /**
     * Compacts every key down the LSM tree and waits until that is done.
     *
     * @throws RocksDbException when the compaction fails
     * @throws IllegalStateException when the database is closed
     */
    public void compactRange() {
        compactRange(null, null);
    }

    /**
     * Compacts the keys in [begin, end) down the LSM tree, rewriting the
     * last level's files too (so they take the current compression), and
     * waits until that is done.
     *
     * @param begin the first key, or null to start before every key
     * @param end the first key after the range, or null to end after every key
     * @throws RocksDbException when the compaction fails
     * @throws IllegalStateException when the database is closed
     */
    public void compactRange(byte[] begin, byte[] end) {
        guard.acquire();
        try {
            db.compactRange(begin, end);
        } finally {
            guard.release();
        }
    }

    /**
     * Estimates the bytes that the keys in [begin, end) occupy in table files
     * and memtables (compressed size on disk for table files).
     *
     * @param begin the first key
     * @param end the first key after the range
     * @return the estimate in bytes
     * @throws RocksDbException when RocksDB fails the estimate
     * @throws IllegalStateException when the database is closed
     */
    public long approximateSize(byte[] begin, byte[] end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        guard.acquire();
        try {
            return db.approximateSize(begin, end);
        } finally {
            guard.release();
        }
    }

    /**
     * Writes a consistent copy of the database, openable on its own, into a
     * new directory. Table files are hard-linked when the directory is on
     * the same file system, so a checkpoint costs little space or time.
     *
     * @param directory the directory to create; its parent must exist
     * @throws RocksDbException.InvalidArgumentException when the directory exists
     * @throws RocksDbException when RocksDB fails the checkpoint
     * @throws IllegalStateException when the database is closed
     */
    public void checkpoint(Path directory) {
        Objects.requireNonNull(directory, "directory");
        guard.acquire();
        try {
            db.checkpoint(directory.toAbsolutePath());
        } finally {
            guard.release();
        }
    }

    /**
     * Adds finished table files (from {@link SstFileWriter}) to the database,
     * atomically. With move, each file is hard-linked into the database and
     * its original name removed, so nothing is copied (the files must be on
     * the database's file system; otherwise RocksDB copies them).
     *
     * @param files the table files, whose key ranges must not overlap each other
     * @param move whether to move the files instead of copying them
     * @throws RocksDbException when a file is missing, damaged or overlaps another
     * @throws IllegalStateException when the database is closed
     */
    public void ingest(List<Path> files, boolean move) {
        Objects.requireNonNull(files, "files");
        String[] paths = files.stream().map(p -> Objects.requireNonNull(p, "a file in files").toAbsolutePath().toString())
                .toArray(String[]::new);
        guard.acquire();
        try {
            db.ingest(paths, move);
        } finally {
            guard.release();
        }
    }

    /**
     * Reads an integer RocksDB property, e.g. {@code "rocksdb.estimate-num-keys"}
     * or {@code "rocksdb.cur-size-all-mem-tables"}.
     *
     * @param name the property name
     * @return its value, or empty when RocksDB knows no integer property of that name
     * @throws IllegalStateException when the database is closed
     */
    public OptionalLong propertyLong(String name) {
        Objects.requireNonNull(name, "name");
        guard.acquire();
        try {
            long value = db.propertyLong(name);
            return value < 0 ? OptionalLong.empty() : OptionalLong.of(value);
        } finally {
            guard.release();
        }
    }

    /**
     * Reads a RocksDB property, e.g. {@code "rocksdb.stats"} or
     * {@code "rocksdb.estimate-num-keys"}.
     *
     * @param name the property name
     * @return its value, or {@code null} when RocksDB knows no such property
     * @throws IllegalStateException when the database is closed
     */
    public String property(String name) {
        Objects.requireNonNull(name, "name");
        guard.acquire();
        try {
            return db.property(name);
        } finally {
            guard.release();
        }
    }

    /**
     * Reads RocksDB's statistics: every ticker and histogram, in one native call.
     *
     * @return the statistics now
     * @throws RocksDbException with {@link StatusCode#NOT_SUPPORTED} when the database was
     *     opened without {@link DbOptions#statistics(StatsLevel)}
     * @throws IllegalStateException when the database is closed
     */
    public Statistics statistics() {
        guard.acquire();
        try {
            return NativeStatistics.read(db);
        } finally {
            guard.release();
        }
    }

    /**
     * Sets every ticker and histogram back to zero.
     *
     * @throws RocksDbException with {@link StatusCode#NOT_SUPPORTED} without statistics
     * @throws IllegalStateException when the database is closed
     */
    public void resetStatistics() {
        guard.acquire();
        try {
            db.resetStatistics();
        } finally {
            guard.release();
        }
    }

    /**
     * Reads the approximate memory the database uses: memtables, table
     * readers and the block cache.
     *
     * @return the usage now
     * @throws IllegalStateException when the database is closed
     */
    public MemoryUsage memoryUsage() {
        guard.acquire();
        try {
            return NativeStatistics.memoryUsage(db);
        } finally {
            guard.release();
        }
    }

    /** @return whether the database is still open */
    public boolean isOpen() {
        return !guard.isClosed();
    }

    /**
     * Closes the database: waits for calls in flight to return, closes its
     * cursors and snapshots, then releases its files and lock. Idempotent
     * and thread-safe; pinned segments stay valid until their arenas close.
     *
     * @throws RocksDbException when RocksDB reports an error while closing (the
     *     database is closed all the same)
     * @throws IllegalStateException when a cursor's entry views are open on another live
     *     thread: the cursor cannot be closed safely, so the database stays open natively
     *     (its lock held) while every call through this object is refused
     */
    @Override
    public void close() {
        guard.close(() -> {
            // RocksDB's iterators and snapshots must go before the database.
            for (Dependent dependent : List.copyOf(dependents)) {
                dependent.closeNative();
            }
            db.close();
        });
    }

    @Override
    public String toString() {
        return "RocksDb[" + path + (isOpen() ? "" : ", closed") + "]";
    }
}
