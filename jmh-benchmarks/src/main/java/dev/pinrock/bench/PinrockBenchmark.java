package dev.pinrock.bench;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.IntStream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import dev.pinrock.BenchmarkAccess;
import dev.pinrock.ColumnFamily;
import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.Keyspace;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.WriteBatch;
import dev.pinrock.WriteOptions;

/**
 * pinrock through FFM and through its JNI variant: one class, so both run the
 * very same operations; the {@code binding} parameter picks the boundary.
 * Every read consumes the value with {@link Keys#checksum}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class PinrockBenchmark {
    /** Puts per batch-put (the native floor's kBatchPuts). */
    public static final int BATCH_PUTS = 1000;
    private static final WriteOptions WITHOUT_LOG = WriteOptions.DEFAULT.disableWal(true);

    /** A pinrock handle through the binding the parameter names. */
    public abstract static class Handle extends Grid {
        /** "ffm" or "jni". */
        @Param({"ffm"})
        public String binding;

        /**
         * "true": gets try memory first ({@link DbOptions#memoryFirstReads},
         * pinrock's default, the same policy in both bindings); "false":
         * every get is one normal read.
         */
        @Param({"true"})
        public String memoryFirst;

        RocksDb db;
        Path scratch;

        /** @return the options this handle opens with: {@link Datasets#options(Grid)} and the memory-first setting */
        DbOptions options() {
            return Datasets.options(this).memoryFirstReads(switch (memoryFirst) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException("memoryFirst must be true or false: " + memoryFirst);
            });
        }

        void openScratch() {
            scratch = Datasets.scratch();
            db = BenchmarkAccess.open(binding, scratch, options().createIfMissing(true));
        }

        @TearDown(Level.Trial)
        public void close() {
            db.close();
            if (scratch != null) {
                Datasets.deleteRecursively(scratch);
            }
        }
    }

    /** A database to read: the shared flushed dataset, or a memtable loaded for this trial. */
    @State(Scope.Benchmark)
    public static class ReadDb extends Handle {
        @Setup(Level.Trial)
        public void open() {
            if (inMemtable()) {
                openScratch();
                Datasets.load(db::put, keyBytes, valueBytes, keyCount());
            } else {
                db = BenchmarkAccess.open(binding, Datasets.sst(keyBytes, valueBytes, keyCount()), options());
            }
        }
    }

    /**
     * The keys of the grid in the memtables of two column families, the
     * database's own and a second one, and the family of each of a
     * multiGet's keys: every second key from the second family.
     */
    @State(Scope.Benchmark)
    public static class TwoFamilies extends Handle {
        List<Keyspace> families;

        @Setup(Level.Trial)
        public void open() {
            openScratch();
            ColumnFamily second = db.createColumnFamily("second");
            Datasets.load(db::put, keyBytes, valueBytes, keyCount());
            Datasets.load(second::put, keyBytes, valueBytes, keyCount());
            families = IntStream.range(0, Picker.MULTI_GET_KEYS).<Keyspace>mapToObj(i -> i % 2 == 0 ? db : second)
                    .toList();
        }
    }

    /** An empty database per trial, for writes. */
    @State(Scope.Benchmark)
    public static class WriteDb extends Handle {
        @Setup(Level.Trial)
        public void open() {
            openScratch();
        }
    }

    /** A write batch per thread, reused by every batch-put. */
    @State(Scope.Thread)
    public static class Batch {
        WriteBatch batch;

        @Setup(Level.Trial)
        public void open() {
            batch = new WriteBatch(BATCH_PUTS * 128L);
        }

        @TearDown(Level.Trial)
        public void close() {
            batch.close();
        }
    }

    @Benchmark
    public long getNewArray(ReadDb s, Picker p) {
        p.nextKey();
        byte[] value = s.db.get(p.key);
        return Keys.checksum(value, value.length);
    }

    @Benchmark
    public long getIntoArray(ReadDb s, Picker p) {
        p.nextKey();
        int length = s.db.get(p.key, p.valueArray);
        return Keys.checksum(p.valueArray, length);
    }

    @Benchmark
    public long getDirectBuffer(ReadDb s, Picker p) {
        p.nextDirectKey();
        p.directValue.clear();
        int length = s.db.get(p.directKey, p.directValue);
        return Keys.checksum(p.directValueView, length);
    }

    /** A value read where RocksDB keeps it, for the length of the reader's call. */
    @Benchmark
    public long getPinned(ReadDb s, Picker p) {
        p.nextNativeKey();
        s.db.getPinned(p.nativeKey, p.valueChecksum);
        return p.valueChecksum.sum;
    }

    /** A value handed to a file without a copy on the Java side: the channel reads RocksDB's memory. */
    @Benchmark
    public int getToFilePinned(ReadDb s, Picker p, FileSink sink) throws IOException {
        p.nextNativeKey();
        try (Arena arena = Arena.ofConfined()) {
            return sink.channel.write(s.db.getPinned(arena, p.nativeKey).asByteBuffer(), 0);
        }
    }

    /** A value copied into a reused direct buffer, then written to a file. */
    @Benchmark
    public int getToFileDirectBuffer(ReadDb s, Picker p, FileSink sink) throws IOException {
        p.nextDirectKey();
        p.directValue.clear();
        s.db.get(p.directKey, p.directValue);
        return sink.channel.write(p.directValue, 0);
    }

    @Benchmark
    public int getAbsent(ReadDb s, Picker p) {
        p.nextAbsentKey();
        return s.db.get(p.key, p.valueArray);
    }

    @Benchmark
    public void put(WriteDb s, Picker p) {
        p.nextEntry();
        s.db.put(p.key, p.value);
    }

    /** A put with write options: without the write-ahead log, as Kafka Streams' stores write. */
    @Benchmark
    public void putWithoutLog(WriteDb s, Picker p) {
        p.nextEntry();
        s.db.put(WITHOUT_LOG, p.key, p.value);
    }

    @Benchmark
    public void delete(WriteDb s, Picker p) {
        p.nextKey();
        s.db.delete(p.key);
    }

    @Benchmark
    public void batchPut(WriteDb s, Batch b, Picker p) {
        b.batch.clear();
        for (int i = 0; i < BATCH_PUTS; i++) {
            p.nextEntry();
            b.batch.put(p.key, p.value);
        }
        s.db.write(b.batch);
    }

    @Benchmark
    public long multiGet(ReadDb s, Picker p) {
        p.nextKeys();
        long sum = 0;
        for (byte[] value : s.db.multiGet(p.keys)) {
            sum = Keys.combine(sum, Keys.checksum(value, value.length));
        }
        return sum;
    }

    /** multiGet of keys of two column families in one call, with read options. */
    @Benchmark
    public long multiGetFamilies(TwoFamilies s, Picker p) {
        p.nextKeys();
        long sum = 0;
        for (byte[] value : s.db.multiGet(ReadOptions.DEFAULT, s.families, p.keys)) {
            sum = Keys.combine(sum, Keys.checksum(value, value.length));
        }
        return sum;
    }

    @Benchmark
    public long multiGetPinned(ReadDb s, Picker p) {
        p.nextKeys();
        long sum = 0;
        try (Arena arena = Arena.ofConfined()) {
            for (MemorySegment value : s.db.multiGetPinned(arena, p.nativeKeys)) {
                sum = Keys.combine(sum, Keys.checksum(value, value.byteSize()));
            }
        }
        return sum;
    }

    /** Every entry through the batched scan: many entries per native call, zero-copy views. */
    @Benchmark
    public long scanBatched(ReadDb s) {
        try (Cursor cursor = s.db.cursor()) {
            return hashThroughViews(cursor);
        }
    }

    /** {@link Keys#scanHash} of the entries from the cursor's position on, through {@link Cursor#scan}'s views. */
    static long hashThroughViews(Cursor cursor) {
        long[] hash = {0};
        cursor.scan(Long.MAX_VALUE, (key, value) -> hash[0] = Keys.scanHash(hash[0], key, key.byteSize(), value,
                value.byteSize()));
        return hash[0];
    }

    /** Every entry through batches of many entries per native call, read in place by offset. */
    @Benchmark
    public long scanBatchSteps(ReadDb s) {
        try (Cursor cursor = s.db.cursor()) {
            return hashThroughBatchSteps(cursor);
        }
    }

    /**
     * {@link Keys#scanHash} of the entries from the cursor's position on,
     * stepping through {@link Cursor#scanBatches}' batches by offset.
     */
    static long hashThroughBatchSteps(Cursor cursor) {
        long[] hash = {0};
        cursor.scanBatches(Long.MAX_VALUE, batch -> {
            long batchHash = hash[0];
            MemorySegment entries = batch.segment();
            while (batch.next()) {
                batchHash = Keys.scanHash(batchHash, entries, batch.keyOffset(), batch.keyLength(), entries,
                        batch.valueOffset(), batch.valueLength());
            }
            hash[0] = batchHash;
        });
        return hash[0];
    }

    /** Every entry by stepping the cursor, reading zero-copy views of each entry. */
    @Benchmark
    public long scanViews(ReadDb s) {
        long hash = 0;
        try (Cursor cursor = s.db.cursor()) {
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                MemorySegment key = cursor.key();
                MemorySegment value = cursor.value();
                hash = Keys.scanHash(hash, key, key.byteSize(), value, value.byteSize());
            }
        }
        return hash;
    }

    /** Every entry by stepping the cursor, showing each entry's zero-copy views to a reader. */
    @Benchmark
    public long scanReader(ReadDb s) {
        ScanHash hash = new ScanHash();
        try (Cursor cursor = s.db.cursor()) {
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                cursor.read(hash);
            }
        }
        return hash.hash;
    }

    /** Folds each entry it is shown into a scan's running hash ({@link Keys#scanHash}). */
    private static final class ScanHash implements BiConsumer<MemorySegment, MemorySegment> {
        long hash;

        @Override
        public void accept(MemorySegment key, MemorySegment value) {
            hash = Keys.scanHash(hash, key, key.byteSize(), value, value.byteSize());
        }
    }

    /** Every entry by stepping the cursor, copying each key and value into new arrays. */
    @Benchmark
    public long scanArrays(ReadDb s) {
        long hash = 0;
        try (Cursor cursor = s.db.cursor()) {
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                byte[] key = cursor.keyBytes();
                byte[] value = cursor.valueBytes();
                hash = Keys.scanHash(hash, MemorySegment.ofArray(key), key.length, MemorySegment.ofArray(value),
                        value.length);
            }
        }
        return hash;
    }
}
