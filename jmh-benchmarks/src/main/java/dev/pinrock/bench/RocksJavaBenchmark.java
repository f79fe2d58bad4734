package dev.pinrock.bench;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The baseline: RocksJava 9.10.0 (the same RocksDB version as pinrock's
 * engine) on the same datasets, options and operations as
 * {@link PinrockBenchmark}, with RocksJava's best call for each access mode.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class RocksJavaBenchmark {
    static {
        RocksDB.loadLibrary();
    }

    /** A RocksJava handle with the options {@link Datasets#options(Grid)} gives pinrock. */
    public abstract static class Handle extends Grid {
        RocksDB db;
        ReadOptions readOptions;
        WriteOptions writeOptions;
        WriteOptions withoutLog;
        private LRUCache cache;
        private CompressionOptions compressionOptions;
        private CompressionOptions bottommostCompressionOptions;
        Options options;
        Path scratch;

        void open(Path path, boolean create) throws RocksDBException {
            cache = new LRUCache(blockCacheBytes);
            CompressionType compressionType = switch (compressionType()) {
                case NONE -> CompressionType.NO_COMPRESSION;
                case ZSTD -> CompressionType.ZSTD_COMPRESSION;
                default -> throw new IllegalArgumentException(compression);
            };
            // pinrock's zstd level, set on both levels' options as pinrock sets it.
            compressionOptions = new CompressionOptions().setLevel(Datasets.options().zstdLevel());
            bottommostCompressionOptions = new CompressionOptions().setLevel(Datasets.options().zstdLevel())
                    .setEnabled(true);
            options = new Options().setCreateIfMissing(create).setParanoidChecks(true)
                    .setCompressionType(compressionType).setBottommostCompressionType(compressionType)
                    .setCompressionOptions(compressionOptions)
                    .setBottommostCompressionOptions(bottommostCompressionOptions)
                    .setMaxOpenFiles(-1).setWriteBufferSize(writeBufferBytes())
                    .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
            db = RocksDB.open(options, path.toString());
            readOptions = new ReadOptions();
            writeOptions = new WriteOptions();
            withoutLog = new WriteOptions().setDisableWAL(true);
        }

        @TearDown(Level.Trial)
        public void close() {
            writeOptions.close();
            withoutLog.close();
            readOptions.close();
            db.close();
            options.close();
            bottommostCompressionOptions.close();
            compressionOptions.close();
            cache.close();
            if (scratch != null) {
                Datasets.deleteRecursively(scratch);
            }
        }
    }

    /** A database to read: the shared flushed dataset, or a memtable loaded for this trial. */
    @State(Scope.Benchmark)
    public static class ReadDb extends Handle {
        @Setup(Level.Trial)
        public void open() throws RocksDBException {
            if (inMemtable()) {
                scratch = Datasets.scratch();
                open(scratch, true);
                Datasets.load((key, value) -> db.put(writeOptions, key, value), keyBytes, valueBytes, keyCount());
            } else {
                open(Datasets.sst(keyBytes, valueBytes, keyCount()), false);
            }
        }
    }

    /**
     * The keys of the grid in the memtables of two column families, as
     * {@link PinrockBenchmark.TwoFamilies} has them, and the family of each
     * of a multiGet's keys.
     */
    @State(Scope.Benchmark)
    public static class TwoFamilies extends Handle {
        List<ColumnFamilyHandle> families;
        private ColumnFamilyOptions secondOptions;
        private ColumnFamilyHandle second;

        @Setup(Level.Trial)
        public void open() throws RocksDBException {
            scratch = Datasets.scratch();
            open(scratch, true);
            secondOptions = new ColumnFamilyOptions(options);
            second = db.createColumnFamily(
                    new ColumnFamilyDescriptor("second".getBytes(StandardCharsets.UTF_8), secondOptions));
            ColumnFamilyHandle first = db.getDefaultColumnFamily();
            Datasets.load((key, value) -> db.put(first, writeOptions, key, value), keyBytes, valueBytes, keyCount());
            Datasets.load((key, value) -> db.put(second, writeOptions, key, value), keyBytes, valueBytes, keyCount());
            families = IntStream.range(0, Picker.MULTI_GET_KEYS).mapToObj(i -> i % 2 == 0 ? first : second).toList();
        }

        /** The second family's handle and options go before the database (RocksJava's order). */
        @Override
        @TearDown(Level.Trial)
        public void close() {
            second.close();
            secondOptions.close();
            super.close();
        }
    }

    /** An empty database per trial, for writes. */
    @State(Scope.Benchmark)
    public static class WriteDb extends Handle {
        @Setup(Level.Trial)
        public void open() throws RocksDBException {
            scratch = Datasets.scratch();
            open(scratch, true);
        }
    }

    /** A write batch per thread, reused by every batch-put. */
    @State(Scope.Thread)
    public static class Batch {
        WriteBatch batch;

        @Setup(Level.Trial)
        public void open() {
            batch = new WriteBatch(PinrockBenchmark.BATCH_PUTS * 128);
        }

        @TearDown(Level.Trial)
        public void close() {
            batch.close();
        }
    }

    /** Direct buffers and arrays per thread for the scans that read into them. */
    @State(Scope.Thread)
    public static class ScanBuffers {
        ByteBuffer key;
        ByteBuffer value;
        byte[] keyArray;
        byte[] valueArray;

        @Setup(Level.Trial)
        public void allocate(Grid grid) {
            key = ByteBuffer.allocateDirect(grid.keyBytes);
            value = ByteBuffer.allocateDirect(grid.valueBytes);
            keyArray = new byte[grid.keyBytes];
            valueArray = new byte[grid.valueBytes];
        }
    }

    @Benchmark
    public long getNewArray(ReadDb s, Picker p) throws RocksDBException {
        p.nextKey();
        byte[] value = s.db.get(p.key);
        return Keys.checksum(value, value.length);
    }

    @Benchmark
    public long getIntoArray(ReadDb s, Picker p) throws RocksDBException {
        p.nextKey();
        int length = s.db.get(p.key, p.valueArray);
        return Keys.checksum(p.valueArray, length);
    }

    @Benchmark
    public long getDirectBuffer(ReadDb s, Picker p) throws RocksDBException {
        p.nextDirectKey();
        p.directValue.clear();
        int length = s.db.get(s.readOptions, p.directKey, p.directValue);
        return Keys.checksum(p.directValueView, length);
    }

    /** RocksJava's best call for a value bound for a file: into a reused direct buffer, then written. */
    @Benchmark
    public int getToFileDirectBuffer(ReadDb s, Picker p, FileSink sink) throws RocksDBException, IOException {
        p.nextDirectKey();
        p.directValue.clear();
        int length = s.db.get(s.readOptions, p.directKey, p.directValue);
        p.directValue.position(0).limit(length);
        return sink.channel.write(p.directValue, 0);
    }

    @Benchmark
    public int getAbsent(ReadDb s, Picker p) throws RocksDBException {
        p.nextAbsentKey();
        return s.db.get(p.key, p.valueArray);
    }

    @Benchmark
    public void put(WriteDb s, Picker p) throws RocksDBException {
        p.nextEntry();
        s.db.put(s.writeOptions, p.key, p.value);
    }

    /** A put with write options: without the write-ahead log, as Kafka Streams' stores write. */
    @Benchmark
    public void putWithoutLog(WriteDb s, Picker p) throws RocksDBException {
        p.nextEntry();
        s.db.put(s.withoutLog, p.key, p.value);
    }

    @Benchmark
    public void delete(WriteDb s, Picker p) throws RocksDBException {
        p.nextKey();
        s.db.delete(s.writeOptions, p.key);
    }

    @Benchmark
    public void batchPut(WriteDb s, Batch b, Picker p) throws RocksDBException {
        b.batch.clear();
        for (int i = 0; i < PinrockBenchmark.BATCH_PUTS; i++) {
            p.nextEntry();
            b.batch.put(p.key, p.value);
        }
        s.db.write(s.writeOptions, b.batch);
    }

    @Benchmark
    public long multiGet(ReadDb s, Picker p) throws RocksDBException {
        p.nextKeys();
        long sum = 0;
        for (byte[] value : s.db.multiGetAsList(s.readOptions, p.keys)) {
            sum = Keys.combine(sum, Keys.checksum(value, value.length));
        }
        return sum;
    }

    /** multiGetAsList of keys of two column families in one call. */
    @Benchmark
    public long multiGetFamilies(TwoFamilies s, Picker p) throws RocksDBException {
        p.nextKeys();
        long sum = 0;
        for (byte[] value : s.db.multiGetAsList(s.readOptions, s.families, p.keys)) {
            sum = Keys.combine(sum, Keys.checksum(value, value.length));
        }
        return sum;
    }

    /** Every entry, copying each key and value into new arrays (RocksIterator.key()/value()). */
    @Benchmark
    public long scanArrays(ReadDb s) {
        long hash = 0;
        try (RocksIterator it = s.db.newIterator(s.readOptions)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] key = it.key();
                byte[] value = it.value();
                hash = Keys.scanHash(hash, MemorySegment.ofArray(key), key.length, MemorySegment.ofArray(value),
                        value.length);
            }
        }
        return hash;
    }

    /** Every entry, copying each key and value into reused arrays (RocksIterator.key(byte[])/value(byte[])). */
    @Benchmark
    public long scanIntoArrays(ReadDb s, ScanBuffers b) {
        try (RocksIterator it = s.db.newIterator(s.readOptions)) {
            it.seekToFirst();
            return hashIntoArrays(it, b.keyArray, b.valueArray);
        }
    }

    /**
     * {@link Keys#scanHash} of the entries from the iterator's position on,
     * each key and value copied into the reused arrays (which fit them).
     */
    static long hashIntoArrays(RocksIterator it, byte[] keyArray, byte[] valueArray) {
        long hash = 0;
        MemorySegment key = MemorySegment.ofArray(keyArray);
        MemorySegment value = MemorySegment.ofArray(valueArray);
        for (; it.isValid(); it.next()) {
            int keyLength = it.key(keyArray);
            int valueLength = it.value(valueArray);
            hash = Keys.scanHash(hash, key, keyLength, value, valueLength);
        }
        return hash;
    }

    /** Every entry, copying each key and value into reused direct buffers. */
    @Benchmark
    public long scanDirectBuffer(ReadDb s, ScanBuffers b) {
        try (RocksIterator it = s.db.newIterator(s.readOptions)) {
            it.seekToFirst();
            return hashIntoDirectBuffers(it, b.key, b.value);
        }
    }

    /**
     * {@link Keys#scanHash} of the entries from the iterator's position on,
     * each key and value copied into the reused direct buffers (which fit them).
     */
    static long hashIntoDirectBuffers(RocksIterator it, ByteBuffer keyBuffer, ByteBuffer valueBuffer) {
        long hash = 0;
        MemorySegment key = MemorySegment.ofBuffer(keyBuffer);
        MemorySegment value = MemorySegment.ofBuffer(valueBuffer);
        for (; it.isValid(); it.next()) {
            keyBuffer.clear();
            valueBuffer.clear();
            int keyLength = it.key(keyBuffer);
            int valueLength = it.value(valueBuffer);
            hash = Keys.scanHash(hash, key, keyLength, value, valueLength);
        }
        return hash;
    }
}
