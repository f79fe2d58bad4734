package dev.pinrock;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.pinrock.internal.BatchEncoding.Operation;
import dev.pinrock.internal.BufferSegments;
import dev.pinrock.internal.DataPath;
import dev.pinrock.internal.FfmDb;
import dev.pinrock.internal.NativeCursor;
import dev.pinrock.internal.PinnedValue;
import dev.pinrock.internal.ResourceGuard;
import dev.pinrock.internal.Scratch;

/**
 * One column family of a database: the keyed calls every keyspace shares
 * ({@link KeyedCalls}), each write also with {@link WriteOptions}, range
 * deletes, {@code keyMayExist} and per-family maintenance. A {@link RocksDb} is its default family; a
 * {@link ColumnFamily} is any other. The rules of access modes, results,
 * threads and lifetime are those described on {@link RocksDb}: every call
 * holds the database's guard, so closing the database waits for it (and a
 * {@link ColumnFamily}'s calls hold the family's too, so dropping it waits).
 *
 * <p>Every write ({@code put}, {@code delete}, {@code singleDelete},
 * {@code merge}, {@code deleteRange}) has a form that takes
 * {@link WriteOptions} first, as RocksJava's do; the others use
 * {@link WriteOptions#DEFAULT}: through the write-ahead log, not synced,
 * waiting out write stalls. Every single-key read has a form that takes
 * {@link ReadOptions} first; the others use {@link ReadOptions#DEFAULT}.
 * A write with options other than the default, and every single delete,
 * merge and delete range, is applied as a write batch of that one record:
 * it is refused, and fails, exactly as the same record in a
 * {@link WriteBatch} written with the same options would (a merge into a
 * family without a merge operator, a range whose end comes before its
 * begin, sync with disableWal: {@link RocksDbException.InvalidArgumentException},
 * nothing written).
 */
public abstract sealed class Keyspace extends KeyedCalls permits RocksDb, ColumnFamily {
    /** The owner of the family's native handle: every call but the data path's. */
    final FfmDb db;
    /** The family's data path, through the database's binding. */
    final DataPath data;
    /** The database's guard: every call holds it. */
    final ResourceGuard guard;

    Keyspace(FfmDb db, DataPath data, ResourceGuard guard) {
        super(data);
        this.db = db;
        this.data = data;
        this.guard = guard;
    }

    /**
     * Returns the database this family belongs to.
     *
     * @return the database this family belongs to
     */
    @Override
    public abstract RocksDb database();

    /**
     * Returns the family's name ("default" for a {@link RocksDb}).
     *
     * @return the family's name ("default" for a {@link RocksDb})
     */
    public abstract String name();

    /**
     * Returns the id write batch records name the family by (0 for the default family).
     *
     * @return the id write batch records name the family by (0 for the default family)
     */
    abstract int familyId();

    /**
     * Marks a call in flight on the database.
     *
     * @throws IllegalStateException when the database is closed or the family dropped
     */
    @Override
    void acquire() {
        guard.acquire();
    }

    @Override
    void release() {
        guard.release();
    }

    @Override
    void writeOne(Operation operation, Object first, Object second) {
        writeRecord(WriteOptions.DEFAULT, operation, first, second);
    }

    @Override
    Cursor adopt(NativeCursor cursor) {
        Cursor adopted = new Cursor(database(), cursor, null);
        database().register(adopted.dependent);
        return adopted;
    }

    /**
     * Makes a rarely used call on the owner of the family's handle between
     * {@link #acquire()} and {@link #release()}; the data path writes those
     * out, to stay free of the lambda.
     *
     * @return what call returns
     */
    <T> T adminCall(Function<FfmDb, T> call) {
        acquire();
        try {
            return call.apply(db);
        } finally {
            release();
        }
    }

    /** {@link #adminCall(Function)} for a call that returns nothing. */
    void adminRun(Consumer<FfmDb> call) {
        adminCall(owner -> {
            call.accept(owner);
            return null;
        });
    }

    /**
     * Checks that calls on the keyspace are accepted now, for what names it
     * without calling it (a write batch's record).
     *
     * @throws IllegalStateException when the database is closed or the family dropped
     */
    void requireUsable() {
        acquire();
        release();
    }


    /**
     * Tells without I/O whether a key may exist (RocksDB's KeyMayExist):
     * answered from the memtables, the block cache and the table files'
     * filters. {@code false} means the key certainly does not exist;
     * {@code true} that it may (a Bloom filter's false positive, or a key
     * whose block is not in memory), to be settled by a get.
     *
     * @param key the key
     * @return false when the key certainly does not exist
     * @throws RocksDbException when RocksDB fails the read (with another status than needing I/O)
     * @throws IllegalStateException when the database is closed
     */
    public boolean keyMayExist(byte[] key) {
        return keyMayExist(ReadOptions.DEFAULT, key);
    }

    /**
     * {@link #keyMayExist(byte[])} of a key given as a segment.
     *
     * @param key the key
     * @return false when the key certainly does not exist
     */
    public boolean keyMayExist(MemorySegment key) {
        return keyMayExist(ReadOptions.DEFAULT, key);
    }

    /**
     * {@link #keyMayExist(byte[])} with read options (a snapshot, checksums).
     *
     * @param options how to read ({@code memoryOnly} changes nothing: this read is always memory-only)
     * @param key the key
     * @return false when the key certainly does not exist
     */
    public boolean keyMayExist(ReadOptions options, byte[] key) {
        Objects.requireNonNull(key, "key");
        return mayExist(options, key, null);
    }

    /**
     * {@link #keyMayExist(MemorySegment)} with read options.
     *
     * @param options how to read
     * @param key the key
     * @return false when the key certainly does not exist
     */
    public boolean keyMayExist(ReadOptions options, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        return mayExist(options, key, null);
    }

    /**
     * {@link #keyMayExist(ReadOptions, byte[])} that also shows the value
     * when memory holds it, without copying it: {@code reader} gets a
     * read-only view of RocksDB's memory, valid until it returns, as
     * {@link #getPinned(byte[], Consumer)} gives. When this returns
     * {@code true} and {@code reader} did not run, only a get can tell.
     *
     * @param options how to read
     * @param key the key
     * @param reader what to do with the value; it may call this database again
     * @return false when the key certainly does not exist
     */
    public boolean keyMayExist(ReadOptions options, byte[] key, Consumer<? super MemorySegment> reader) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reader, "reader");
        return mayExist(options, key, reader);
    }

    /**
     * {@link #keyMayExist(ReadOptions, byte[], Consumer)} of a key given as a segment.
     *
     * @param options how to read
     * @param key the key
     * @param reader what to do with the value
     * @return false when the key certainly does not exist
     */
    public boolean keyMayExist(ReadOptions options, MemorySegment key, Consumer<? super MemorySegment> reader) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reader, "reader");
        return mayExist(options, key, reader);
    }

    /**
     * keyMayExist of a byte[] or MemorySegment key: shows a value found in
     * memory to reader once the scratch is back (reader may read this
     * database again), or releases its pin when reader is null (the forms
     * without one).
     */
    private boolean mayExist(ReadOptions options, Object key, Consumer<? super MemorySegment> reader) {
        long address;
        long length;
        long pin;
        try (Scratch scratch = Scratch.borrow()) {
            long snapshot = acquire(options);
            int answer;
            try {
                answer = key instanceof byte[] array
                        ? data.pinFromMemory(array, scratch, snapshot, options.flags())
                        : data.pinFromMemory((MemorySegment) key, scratch, snapshot, options.flags());
            } finally {
                release(options);
            }
            if (answer != DataPath.FOUND) {
                return answer == DataPath.MAY_EXIST;
            }
            address = scratch.resultData();
            length = scratch.resultLength();
            pin = scratch.resultPin();
        }
        if (reader == null) {
            data.release(pin);
        } else {
            PinnedValue.read(address, length, pin, data, reader);
        }
        return true;
    }

    /**
     * Writes a key and value with write options: synced, without the
     * write-ahead log, or failing rather than waiting out a write stall.
     *
     * @param options how to write
     * @param key the key (may be empty)
     * @param value the value (may be empty)
     * @throws RocksDbException.InvalidArgumentException when sync is combined with disableWal, or the
     *     key is longer than 8 MiB; nothing is written
     * @throws RocksDbException when RocksDB fails the write (nothing is written), with
     *     {@link StatusCode#INCOMPLETE} when noSlowdown met a write stall
     * @throws IllegalStateException when the database is closed or the family dropped
     */
    public void put(WriteOptions options, byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (Objects.requireNonNull(options, "options").flags() == 0) {
            put(key, value);
        } else {
            writeRecord(options, Operation.PUT, key, value);
        }
    }

    /**
     * Writes a key and value from buffers with write options; see
     * {@link #put(ByteBuffer, ByteBuffer)} and {@link #put(WriteOptions, byte[], byte[])}.
     *
     * @param options how to write
     * @param key the key, direct or heap
     * @param value the value, direct or heap
     */
    public void put(WriteOptions options, ByteBuffer key, ByteBuffer value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        put(options, BufferSegments.ofKey(key), BufferSegments.ofValue(value));
    }

    /**
     * Writes a key and value from segments with write options; see
     * {@link #put(MemorySegment, MemorySegment)} and {@link #put(WriteOptions, byte[], byte[])}.
     *
     * @param options how to write
     * @param key the key
     * @param value the value
     */
    public void put(WriteOptions options, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (Objects.requireNonNull(options, "options").flags() == 0) {
            put(key, value);
        } else {
            writeRecord(options, Operation.PUT, key, value);
        }
    }

    /**
     * Deletes a key with write options; see {@link #put(WriteOptions, byte[], byte[])}.
     *
     * @param options how to write
     * @param key the key
     */
    public void delete(WriteOptions options, byte[] key) {
        Objects.requireNonNull(key, "key");
        if (Objects.requireNonNull(options, "options").flags() == 0) {
            delete(key);
        } else {
            writeRecord(options, Operation.DELETE, key, null);
        }
    }

    /**
     * Deletes the key between the buffer's position and limit (unchanged) with write options.
     *
     * @param options how to write
     * @param key the key, direct or heap
     */
    public void delete(WriteOptions options, ByteBuffer key) {
        Objects.requireNonNull(key, "key");
        delete(options, BufferSegments.ofKey(key));
    }

    /**
     * Deletes a key given as a segment, with write options.
     *
     * @param options how to write
     * @param key the key
     */
    public void delete(WriteOptions options, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        if (Objects.requireNonNull(options, "options").flags() == 0) {
            delete(key);
        } else {
            writeRecord(options, Operation.DELETE, key, null);
        }
    }

    /**
     * {@link #singleDelete(byte[])} with write options.
     *
     * @param options how to write
     * @param key the key
     */
    public void singleDelete(WriteOptions options, byte[] key) {
        Objects.requireNonNull(key, "key");
        writeRecord(options, Operation.SINGLE_DELETE, key, null);
    }

    /**
     * {@link #singleDelete(byte[])} of a key given as a segment, with write options.
     *
     * @param options how to write
     * @param key the key
     */
    public void singleDelete(WriteOptions options, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        writeRecord(options, Operation.SINGLE_DELETE, key, null);
    }

    /**
     * {@link #merge(byte[], byte[])} with write options.
     *
     * @param options how to write
     * @param key the key
     * @param operand the operand
     */
    public void merge(WriteOptions options, byte[] key, byte[] operand) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operand, "operand");
        writeRecord(options, Operation.MERGE, key, operand);
    }

    /**
     * {@link #merge(byte[], byte[])} of segments, with write options.
     *
     * @param options how to write
     * @param key the key
     * @param operand the operand
     */
    public void merge(WriteOptions options, MemorySegment key, MemorySegment operand) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operand, "operand");
        writeRecord(options, Operation.MERGE, key, operand);
    }

    /**
     * Deletes every key in [begin, end) (RocksDB's DeleteRange): one record
     * whatever the number of keys; an empty range (begin equal to end) is accepted.
     *
     * @param begin the first key deleted
     * @param end the first key past the range
     * @throws RocksDbException.InvalidArgumentException when end comes before begin; nothing is
     *     written
     * @throws RocksDbException when RocksDB fails the write
     * @throws IllegalStateException when the database is closed or the family dropped
     */
    public void deleteRange(byte[] begin, byte[] end) {
        deleteRange(WriteOptions.DEFAULT, begin, end);
    }

    /**
     * {@link #deleteRange(byte[], byte[])} with write options.
     *
     * @param options how to write
     * @param begin the first key deleted
     * @param end the first key past the range
     */
    public void deleteRange(WriteOptions options, byte[] begin, byte[] end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        writeRecord(options, Operation.DELETE_RANGE, begin, end);
    }

    /**
     * {@link #deleteRange(byte[], byte[])} of segments.
     *
     * @param begin the first key deleted
     * @param end the first key past the range
     */
    public void deleteRange(MemorySegment begin, MemorySegment end) {
        deleteRange(WriteOptions.DEFAULT, begin, end);
    }

    /**
     * {@link #deleteRange(byte[], byte[])} of segments, with write options.
     *
     * @param options how to write
     * @param begin the first key deleted
     * @param end the first key past the range
     */
    public void deleteRange(WriteOptions options, MemorySegment begin, MemorySegment end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        writeRecord(options, Operation.DELETE_RANGE, begin, end);
    }

    /** Applies one record of this family as a batch of its own, with the database's guard held. */
    private void writeRecord(WriteOptions options, Operation operation, Object first, Object second) {
        int flags = Objects.requireNonNull(options, "options").flags();
        acquire();
        try {
            data.writeRecord(familyId(), operation, first, second, flags);
        } finally {
            release();
        }
    }

    /**
     * Changes column family options of this keyspace while the database is
     * open, by RocksDB's own names and values as
     * {@link DbOptions#familyOptions(String)} takes them (RocksDB's
     * {@code SetOptions}): only those RocksDB can change while open, such as
     * {@code write_buffer_size}, {@code disable_auto_compactions} or
     * {@code level0_file_num_compaction_trigger}. RocksDB records them in a new
     * OPTIONS file in the database directory; the next open takes its options
     * from {@link DbOptions} again.
     *
     * @param options the option string
     * @throws RocksDbException.InvalidArgumentException naming the string and the option, when RocksDB
     *     cannot change it while open, does not know it, pinrock refuses it (as at open), or it is a
     *     value an open would have corrected (such as {@code max_write_buffer_number=0} or level-0
     *     triggers of 0, which RocksDB takes as they are while open and which stop writes for good;
     *     the message says what an open would use); nothing is changed then
     * @throws IllegalArgumentException when options contains a NUL character or an unpaired surrogate
     * @throws IllegalStateException when the database is closed
     */
    public void setFamilyOptions(String options) {
        Objects.requireNonNull(options, "options");
        adminRun(owner -> owner.setOptions(true, options));
    }

    /**
     * Changes column family options of this keyspace while the database is
     * open, as {@link #setFamilyOptions(String)} does, to what options set:
     * every option its {@link DbOptions#familyOptions(String) family option
     * strings} name (the typed shorthands that add them included, e.g.
     * {@link DbOptions#level0Triggers(int, int, int)}), with the last value
     * given, and every typed setting that differs from
     * {@link DbOptions#create()}'s ({@link DbOptions#writeBufferBytes(long)},
     * {@link DbOptions#compression(Compression)}, {@link DbOptions#zstdLevel(int)}
     * and the other compression settings), the typed value winning over a
     * string's as at open. E.g.
     * {@code setFamilyOptions(DbOptions.create().writeBufferBytes(8 << 20).familyOptions("disable_auto_compactions=true"))}.
     * Options equal to {@link DbOptions#create()} change nothing.
     *
     * @param options the options to change
     * @throws RocksDbException.InvalidArgumentException naming them, when RocksDB cannot change one
     *     while open, options also set database or table options, or what only an open takes (the
     *     block cache, a memory budget, rate limiter or SST file manager, a merge operator,
     *     statistics, the info log, {@link DbOptions#memoryFirstReads(boolean)}, families' own
     *     options); nothing is changed then
     * @throws IllegalStateException when the database or a shared object options names is closed
     */
    public void setFamilyOptions(DbOptions options) {
        setOptions(true, options);
    }

    /** Changes the database's or this family's options while open to what options set. */
    void setOptions(boolean familyScope, DbOptions options) {
        Objects.requireNonNull(options, "options");
        adminRun(owner -> SharedObject.withHandles(options.memoryBudget(), options.rateLimiter(),
                options.sstFileManager(), shared -> {
                    owner.setOptions(familyScope, options, shared);
                    return null;
                }));
    }

    /**
     * Writes the memtables to table files and waits until that is done.
     *
     * @throws RocksDbException when the flush fails
     * @throws IllegalStateException when the database is closed
     */
    public void flush() {
        adminRun(FfmDb::flush);
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
        adminRun(owner -> owner.compactRange(begin, end));
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
        return adminCall(owner -> owner.approximateSize(begin, end));
    }

    /**
     * Adds finished table files (from {@link SstFileWriter}) to the database,
     * atomically. With move, each file is hard-linked into the database and
     * its original name removed, so nothing is copied (the files must be on
     * the database's file system; otherwise RocksDB copies them). Files
     * whose key ranges overlap each other are accepted: for a key in several,
     * the file later in the list wins; an ingested key wins over the
     * database's own.
     *
     * @param files the table files, at least one
     * @param move whether to move the files instead of copying them
     * @throws RocksDbException when a file is missing or damaged
     * @throws IllegalArgumentException when files is empty
     * @throws IllegalStateException when the database is closed
     */
    public void ingest(List<Path> files, boolean move) {
        Objects.requireNonNull(files, "files");
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no file to ingest");
        }
        String[] paths = files.stream().map(p -> Objects.requireNonNull(p, "a file in files").toAbsolutePath().toString())
                .toArray(String[]::new);
        adminRun(owner -> owner.ingest(paths, move));
    }

    /**
     * Reads an integer RocksDB property, e.g. {@code "rocksdb.estimate-num-keys"}
     * or {@code "rocksdb.cur-size-all-mem-tables"}.
     *
     * <p>Names are RocksDB 9.10's, spelled exactly; one ending in a level or
     * temperature ({@code "rocksdb.num-files-at-level<N>"}) takes N as a
     * decimal 0..255 without sign, spaces or leading zeros. Any other name
     * answers empty without reaching RocksDB.
     *
     * @param name the property name
     * @return its value, or empty when RocksDB knows no integer property of that name
     *     (a level the column family does not have, or a malformed name, included)
     * @throws IllegalArgumentException when name contains a NUL character or an unpaired surrogate
     * @throws IllegalStateException when the database is closed
     */
    public OptionalLong propertyLong(String name) {
        Objects.requireNonNull(name, "name");
        long value = adminCall(owner -> owner.propertyLong(name));
        return value < 0 ? OptionalLong.empty() : OptionalLong.of(value);
    }

    /**
     * Reads a RocksDB property, e.g. {@code "rocksdb.stats"} or
     * {@code "rocksdb.estimate-num-keys"}.
     *
     * <p>Names are checked as by {@link #propertyLong(String)}: a malformed or
     * unknown one answers {@code null} without reaching RocksDB.
     *
     * @param name the property name
     * @return its value, or {@code null} when RocksDB knows no such property
     * @throws IllegalArgumentException when name contains a NUL character or an unpaired surrogate
     * @throws IllegalStateException when the database is closed
     */
    public String property(String name) {
        Objects.requireNonNull(name, "name");
        return adminCall(owner -> owner.property(name));
    }
}
