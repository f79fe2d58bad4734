package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDBException;

import dev.pinrock.Compression;

/**
 * Runs every benchmark operation of every binding outside JMH on a small
 * dataset and checks they all read the same values for the same key
 * sequence: the comparison measures identical work.
 */
class BenchmarksAgreeTest {
    private static final int KEYS = 2000;
    private static final int VALUE_BYTES = 100;
    private static final int OPERATIONS = 500;

    @TempDir
    static Path data;

    @BeforeAll
    static void useTemporaryDatasets() {
        System.setProperty("pinrock.bench.data", data.toString());
    }

    @AfterAll
    static void restoreDatasets() {
        System.clearProperty("pinrock.bench.data");
    }

    private static <G extends Grid> G grid(G grid, String location) {
        return grid(grid, location, "random", Datasets.BLOCK_CACHE_BYTES);
    }

    private static <G extends Grid> G grid(G grid, String location, String order, long blockCacheBytes) {
        grid.keyBytes = 16;
        grid.valueBytes = VALUE_BYTES;
        grid.keys = KEYS;
        grid.order = order;
        grid.location = location;
        grid.blockCacheBytes = blockCacheBytes;
        grid.compression = "none";
        grid.values = "pattern";
        return grid;
    }

    private static Picker picker(Grid grid) {
        Picker picker = new Picker();
        picker.prepare(grid, 0, 1);
        return picker;
    }

    /** The checksums a correct read of the picker's key sequence gives. */
    private static long[] expected(Grid grid) {
        Picker picker = picker(grid);
        byte[] value = new byte[VALUE_BYTES];
        long[] sums = new long[OPERATIONS];
        for (int i = 0; i < OPERATIONS; i++) {
            Keys.fillValue(value, picker.nextIndex());
            sums[i] = Keys.checksum(MemorySegment.ofArray(value), VALUE_BYTES);
        }
        return sums;
    }

    /** The results a correct multiGet of the picker's key sequence gives, per multiGet. */
    private static long[] expectedMultiGets(Grid grid, int multiGets) {
        Picker picker = picker(grid);
        byte[] value = new byte[VALUE_BYTES];
        long[] sums = new long[multiGets];
        for (int i = 0; i < multiGets; i++) {
            for (int k = 0; k < Picker.MULTI_GET_KEYS; k++) {
                Keys.fillValue(value, picker.nextIndex());
                sums[i] = Keys.combine(sums[i], Keys.checksum(MemorySegment.ofArray(value), VALUE_BYTES));
            }
        }
        return sums;
    }

    /** The hash a correct full scan of the dataset gives: every entry once, in key order. */
    private static long expectedScan(Grid grid) {
        byte[] key = new byte[grid.keyBytes];
        byte[] value = new byte[VALUE_BYTES];
        long hash = 0;
        for (int i = 0; i < grid.keyCount(); i++) {
            Keys.fill(key, i);
            Keys.fillValue(value, i);
            hash = Keys.scanHash(hash, MemorySegment.ofArray(key), key.length, MemorySegment.ofArray(value),
                    VALUE_BYTES);
        }
        return hash;
    }

    private static <S extends Grid> long[] run(S state, ToLongBiFunction<S, Picker> operation) {
        return run(state, operation, OPERATIONS);
    }

    private static <S extends Grid> long[] run(S state, ToLongBiFunction<S, Picker> operation, int operations) {
        Picker picker = picker(state);
        long[] sums = new long[operations];
        for (int i = 0; i < operations; i++) {
            sums[i] = operation.applyAsLong(state, picker);
        }
        picker.tearDown();
        return sums;
    }

    /**
     * The read points: each location with memory-first reads on and off, and
     * zipfian keys from a block cache smaller than the data (64 KiB under
     * 200 KB of values: memory-first reads miss, and read again).
     */
    @ParameterizedTest
    @CsvSource({"sst, true, random, 1073741824", "memtable, true, random, 1073741824",
        "sst, false, random, 1073741824", "memtable, false, random, 1073741824",
        "sst, true, zipfian, 65536", "sst, false, zipfian, 65536"})
    void pinrockBindingsReadTheExpectedValuesInEveryMode(String location, String memoryFirst, String order,
            long blockCacheBytes) throws Exception {
        PinrockBenchmark bench = new PinrockBenchmark();
        for (String binding : new String[] {"ffm", "jni"}) {
            PinrockBenchmark.ReadDb db = grid(new PinrockBenchmark.ReadDb(), location, order, blockCacheBytes);
            db.binding = binding;
            db.memoryFirst = memoryFirst;
            db.open();
            try {
                assertEquals(Boolean.parseBoolean(memoryFirst), db.options().memoryFirstReads(), binding);
                assertEquals(blockCacheBytes, db.db.propertyLong("rocksdb.block-cache-capacity").orElseThrow(),
                        binding);
                long[] expected = expected(db);
                assertArrayEquals(expected, run(db, bench::getNewArray), binding + " new-array");
                assertArrayEquals(expected, run(db, bench::getIntoArray), binding + " into-array");
                assertArrayEquals(expected, run(db, bench::getDirectBuffer), binding + " direct-buffer");
                assertArrayEquals(expected, run(db, bench::getPinned), binding + " pinned");
                long[] multiGets = expectedMultiGets(db, 5);
                assertArrayEquals(multiGets, run(db, bench::multiGet, 5), binding + " multiGet");
                assertArrayEquals(multiGets, run(db, bench::multiGetPinned, 5), binding + " multiGetPinned");
                long scan = expectedScan(db);
                assertEquals(scan, bench.scanBatchSteps(db), binding + " scanBatchSteps");
                assertEquals(scan, bench.scanBatched(db), binding + " scanBatched");
                assertEquals(scan, bench.scanReader(db), binding + " scanReader");
                assertEquals(scan, bench.scanViews(db), binding + " scanViews");
                assertEquals(scan, bench.scanArrays(db), binding + " scanArrays");
                assertWritesValues(db, bench::getToFilePinned, binding + " getToFilePinned");
                assertWritesValues(db, bench::getToFileDirectBuffer, binding + " getToFileDirectBuffer");
                for (long absent : run(db, bench::getAbsent)) {
                    assertEquals(-1, absent, binding + " absent");
                }
            } finally {
                db.close();
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"sst, random, 1073741824", "memtable, random, 1073741824", "sst, zipfian, 65536"})
    void rocksJavaReadsTheExpectedValuesInEveryMode(String location, String order, long blockCacheBytes)
            throws Exception {
        RocksJavaBenchmark bench = new RocksJavaBenchmark();
        RocksJavaBenchmark.ReadDb db = grid(new RocksJavaBenchmark.ReadDb(), location, order, blockCacheBytes);
        db.open();
        try {
            assertEquals(blockCacheBytes, db.db.getLongProperty("rocksdb.block-cache-capacity"));
            long[] expected = expected(db);
            assertArrayEquals(expected, run(db, unchecked(bench::getNewArray)), "new-array");
            assertArrayEquals(expected, run(db, unchecked(bench::getIntoArray)), "into-array");
            assertArrayEquals(expected, run(db, unchecked(bench::getDirectBuffer)), "direct-buffer");
            assertArrayEquals(expectedMultiGets(db, 5), run(db, unchecked(bench::multiGet), 5), "multiGet");
            long scan = expectedScan(db);
            assertEquals(scan, bench.scanArrays(db), "scanArrays");
            RocksJavaBenchmark.ScanBuffers buffers = new RocksJavaBenchmark.ScanBuffers();
            buffers.allocate(db);
            assertEquals(scan, bench.scanDirectBuffer(db, buffers), "scanDirectBuffer");
            assertEquals(scan, bench.scanIntoArrays(db, buffers), "scanIntoArrays");
            assertWritesValues(db, bench::getToFileDirectBuffer, "getToFileDirectBuffer");
            for (long absent : run(db, unchecked(bench::getAbsent))) {
                assertEquals(-1, absent, "absent");
            }
        } finally {
            db.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "jni"})
    void pinrockWritesLandAndDeletesRemove(String binding) {
        PinrockBenchmark bench = new PinrockBenchmark();
        PinrockBenchmark.WriteDb db = grid(new PinrockBenchmark.WriteDb(), "memtable");
        db.binding = binding;
        db.memoryFirst = "true";
        db.open();
        try {
            Picker writes = picker(db);
            for (int i = 0; i < OPERATIONS; i++) {
                bench.put(db, writes);
            }
            Picker reads = picker(db);
            byte[] value = new byte[VALUE_BYTES];
            for (int i = 0; i < OPERATIONS; i++) {
                int index = reads.nextKey();
                Keys.fillValue(value, index);
                assertArrayEquals(value, db.db.get(reads.key));
            }
            assertBatchPutsLand(db, batches -> {
                PinrockBenchmark.Batch batch = new PinrockBenchmark.Batch();
                batch.open();
                Picker picker = picker(db);
                for (int i = 0; i < batches; i++) {
                    bench.batchPut(db, batch, picker);
                }
                int count = batch.batch.count();
                batch.close();
                return count;
            }, key -> db.db.get(key));
            Picker deletes = picker(db);
            for (int i = 0; i < OPERATIONS; i++) {
                bench.delete(db, deletes);
            }
            Picker check = picker(db);
            for (int i = 0; i < OPERATIONS; i++) {
                check.nextKey();
                assertEquals(null, db.db.get(check.key));
            }
        } finally {
            db.close();
        }
    }

    @Test
    void rocksJavaWritesLand() throws Exception {
        RocksJavaBenchmark bench = new RocksJavaBenchmark();
        RocksJavaBenchmark.WriteDb db = grid(new RocksJavaBenchmark.WriteDb(), "memtable");
        db.open();
        try {
            Picker writes = picker(db);
            for (int i = 0; i < OPERATIONS; i++) {
                bench.put(db, writes);
            }
            Picker reads = picker(db);
            int index = reads.nextKey();
            byte[] value = new byte[VALUE_BYTES];
            Keys.fillValue(value, index);
            assertNotNull(db.db.get(reads.key));
            assertArrayEquals(value, db.db.get(reads.key));
            bench.delete(db, picker(db));
            assertEquals(null, db.db.get(reads.key));
            assertBatchPutsLand(db, batches -> {
                RocksJavaBenchmark.Batch batch = new RocksJavaBenchmark.Batch();
                batch.open();
                try {
                    Picker picker = picker(db);
                    for (int i = 0; i < batches; i++) {
                        bench.batchPut(db, batch, picker);
                    }
                    return batch.batch.count();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    batch.close();
                }
            }, key -> {
                try {
                    return db.db.get(key);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        } finally {
            db.close();
        }
    }

    /**
     * Runs two batch puts with one batch and one picker (batchPuts runs that
     * many and returns the entries the batch holds after the last), then checks
     * that the batch held one operation's puts and that the picker's first
     * 2 * {@link PinrockBenchmark#BATCH_PUTS} entries are in the database.
     */
    private static void assertBatchPutsLand(Grid grid, IntUnaryOperator batchPuts, Function<byte[], byte[]> get) {
        assertEquals(PinrockBenchmark.BATCH_PUTS, batchPuts.applyAsInt(2), "entries in the reused batch");
        Picker reads = picker(grid);
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < 2 * PinrockBenchmark.BATCH_PUTS; i++) {
            int index = reads.nextKey();
            Keys.fillValue(value, index);
            assertArrayEquals(value, get.apply(reads.key), "batch-put entry " + i);
        }
    }

    /** A get-to-file benchmark method: the state, the picker and the file it writes to. */
    @FunctionalInterface
    interface GetToFile<S> {
        int apply(S state, Picker picker, FileSink sink) throws Exception;
    }

    /** Runs a get-to-file benchmark; after each operation the file holds exactly the picked key's value. */
    private static <S extends Grid> void assertWritesValues(S state, GetToFile<S> operation, String what)
            throws Exception {
        FileSink sink = new FileSink();
        sink.open();
        Picker picker = picker(state);
        Picker expectedKeys = picker(state);
        byte[] value = new byte[VALUE_BYTES];
        try {
            for (int i = 0; i < 50; i++) {
                assertEquals(VALUE_BYTES, operation.apply(state, picker, sink), what + " bytes written");
                Keys.fillValue(value, expectedKeys.nextIndex());
                assertArrayEquals(value, Files.readAllBytes(sink.file), what + " file after operation " + i);
            }
        } finally {
            picker.tearDown();
            expectedKeys.tearDown();
            sink.close();
        }
    }

    @Test
    void zipfianKeysAreTheSameForEveryBindingSkewedAndSpreadOverTheKeySpace() {
        Grid grid = grid(new Grid(), "sst", "zipfian", Datasets.BLOCK_CACHE_BYTES);
        grid.keys = 200_000;
        int draws = 100_000;
        Picker first = new Picker();
        first.prepare(grid, 0, 2);
        Picker second = new Picker();
        second.prepare(grid, 0, 2);
        Picker otherThread = new Picker();
        otherThread.prepare(grid, 1, 2);
        int[] counts = new int[grid.keyCount()];
        int sameAsOtherThread = 0;
        int[] start = new int[5];
        for (int i = 0; i < draws; i++) {
            int index = first.nextIndex();
            assertEquals(index, second.nextIndex(), "draw " + i);
            sameAsOtherThread += index == otherThread.nextIndex() ? 1 : 0;
            counts[index]++;
            if (i < start.length) {
                start[i] = index;
            }
        }
        // The floor (native/bench/floor.cc) was checked to draw the same keys; these pin the sequence.
        assertArrayEquals(new int[] {166620, 92517, 193674, 3620, 130947}, start);
        assertTrue(sameAsOtherThread < draws / 10, "threads draw their own sequences: " + sameAsOtherThread);
        int hottest = 0;
        for (int index = 0; index < counts.length; index++) {
            hottest = counts[index] > counts[hottest] ? index : hottest;
        }
        double uniform = (double) draws / counts.length;
        // YCSB's hottest item is 1 / zeta(10^10, 0.99) of the draws, 3.8 %: some 7,500 times a uniform key's share.
        assertTrue(counts[hottest] > 0.03 * draws, counts[hottest] + " draws of the hottest key");
        assertTrue(counts[hottest] > 1000 * uniform);
        // Scrambled: the hot keys are not the first keys, and not next to each other.
        int hotInFirstTenth = 0;
        for (int index = 0; index < counts.length / 10; index++) {
            hotInFirstTenth += counts[index] > 100 * uniform ? 1 : 0;
        }
        int hot = (int) IntStream.of(counts).filter(c -> c > 100 * uniform).count();
        assertTrue(hot >= 10 && hotInFirstTenth < hot / 2,
                hotInFirstTenth + " of " + hot + " hot keys in the first tenth");
        first.tearDown();
        second.tearDown();
        otherThread.tearDown();
    }

    @Test
    void theZipfianConstantsAreYcsbsFormulas() {
        double theta = Zipfian.THETA;
        double zeta2 = 1 / StrictMath.pow(1, theta) + 1 / StrictMath.pow(2, theta);
        assertEquals(26.46902820178302, Zipfian.ZETAN);
        assertEquals(1.0 / (1.0 - theta), Zipfian.ALPHA);
        assertEquals((1 - StrictMath.pow(2.0 / 10_000_000_001L, 1 - theta)) / (1 - zeta2 / Zipfian.ZETAN),
                Zipfian.ETA);
        assertEquals(1.0 + StrictMath.pow(0.5, theta), Zipfian.SECOND_ITEM);
        // YCSB's first two items, and its FNV-1a hash (Utils.fnvhash64 before Math.abs).
        assertEquals(0, Zipfian.item(0.0));
        assertEquals(1, Zipfian.item(1.2 / Zipfian.ZETAN));
        assertEquals(0xA8C7F832281A39C5L, Zipfian.fnvHash64(0));
        // Item 0, the hottest, is key (2^64 - that) mod 200,000.
        assertEquals(177211, Zipfian.index(0, 200_000));
    }

    /** The load point's grid: records under random keys, zstd, a 64 MiB cache, memtables that flush. */
    private static <G extends Grid> G load(G grid) {
        grid(grid, "flushing", "random", Comparison.SMALL_CACHE_BYTES);
        grid.valueBytes = Keys.RECORD_BYTES;
        grid.keys = Comparison.LOAD_KEYS;
        grid.compression = "zstd";
        grid.values = "fields";
        return grid;
    }

    /** Puts OPERATIONS records through put, checks each is the record of its key, flushes: the table bytes. */
    private static <S extends Grid> long loadAndFlush(S db, BiConsumer<S, Picker> put, Function<byte[], byte[]> get,
            ToLongFunction<S> flushedBytes) {
        Picker writes = picker(db);
        for (int i = 0; i < OPERATIONS; i++) {
            put.accept(db, writes);
        }
        Picker reads = picker(db);
        byte[] record = new byte[Keys.RECORD_BYTES];
        for (int i = 0; i < OPERATIONS; i++) {
            int index = reads.nextKey();
            Keys.fillRecord(record, index);
            assertArrayEquals(record, get.apply(reads.key), "record " + i);
        }
        writes.tearDown();
        reads.tearDown();
        return flushedBytes.applyAsLong(db);
    }

    /**
     * Zstd took the records to about 78 % (YCSB-like text), plus keys and
     * table overhead: neither uncompressed nor the pattern values' 100 times.
     */
    private static void assertCompressedAsRecords(long tableBytes, String what) {
        double ratio = (double) tableBytes / ((long) OPERATIONS * Keys.RECORD_BYTES);
        assertTrue(ratio > 0.7 && ratio < 0.95, what + ": tables hold " + ratio + " of the values' bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "jni"})
    void pinrockLoadsRecordsWithZstdIntoMemtablesThatFlush(String binding) {
        PinrockBenchmark bench = new PinrockBenchmark();
        PinrockBenchmark.WriteDb db = load(new PinrockBenchmark.WriteDb());
        db.binding = binding;
        db.memoryFirst = "true";
        db.open();
        try {
            assertEquals(Compression.ZSTD, db.options().compression());
            assertEquals(64L << 20, db.options().writeBufferBytes());
            assertEquals(64L << 20, db.db.propertyLong("rocksdb.block-cache-capacity").orElseThrow());
            assertCompressedAsRecords(loadAndFlush(db, bench::put, key -> db.db.get(key), s -> {
                s.db.flush();
                return s.db.propertyLong("rocksdb.total-sst-files-size").orElseThrow();
            }), binding);
        } finally {
            db.close();
        }
    }

    @Test
    void rocksJavaLoadsRecordsWithZstdIntoMemtablesThatFlush() throws Exception {
        RocksJavaBenchmark bench = new RocksJavaBenchmark();
        RocksJavaBenchmark.WriteDb db = load(new RocksJavaBenchmark.WriteDb());
        db.open();
        try {
            assertEquals(CompressionType.ZSTD_COMPRESSION, db.options.compressionType());
            assertEquals(3, db.options.compressionOptions().level());
            assertEquals(64L << 20, db.options.writeBufferSize());
            assertEquals(64L << 20, db.db.getLongProperty("rocksdb.block-cache-capacity"));
            assertCompressedAsRecords(loadAndFlush(db, (s, p) -> {
                try {
                    bench.put(s, p);
                } catch (RocksDBException e) {
                    throw new IllegalStateException(e);
                }
            }, key -> {
                try {
                    return db.db.get(key);
                } catch (RocksDBException e) {
                    throw new IllegalStateException(e);
                }
            }, s -> {
                try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                    s.db.flush(flush);
                    return s.db.getLongProperty("rocksdb.total-sst-files-size");
                } catch (RocksDBException e) {
                    throw new IllegalStateException(e);
                }
            }), "rocksjava");
        } finally {
            db.close();
        }
    }

    @Test
    void recordsAreTenFieldsOfYcsbLikeTextAfterAHeader() {
        byte[] record = new byte[Keys.RECORD_BYTES];
        Keys.fillRecord(record, 0);
        byte[] header = new byte[Keys.RECORD_HEADER_BYTES];
        header[0] = 10;
        for (int field = 1; field <= 10; field++) {
            header[2 * field] = 100;
        }
        header[22] = 1;
        assertArrayEquals(header, java.util.Arrays.copyOf(record, Keys.RECORD_HEADER_BYTES));
        for (int at = Keys.RECORD_HEADER_BYTES; at < Keys.RECORD_BYTES; at++) {
            assertTrue(record[at] >= ' ' && record[at] <= 127, "byte " + at + ": " + record[at]);
        }
        assertEquals("/Ms;Q=9!*!Bq4Oy2;p*S", new String(record, Keys.RECORD_HEADER_BYTES, 20,
                java.nio.charset.StandardCharsets.US_ASCII));
        // The floor (native/bench/floor.cc) was checked to write the same records; these pin them.
        assertEquals(0x622471167b7b3a49L, Keys.checksum(record, record.length));
        Keys.fillRecord(record, 9973);
        assertEquals(0x581f4c1b19432740L, Keys.checksum(record, record.length));
    }

    @Test
    void readsAndRecordsKeepToWhereTheyApply() {
        Grid records = load(new Grid());
        records.valueBytes = 100;
        assertThrows(IllegalArgumentException.class, () -> new Picker().prepare(records, 0, 1));
        Grid recordsToRead = grid(new Grid(), "sst");
        recordsToRead.values = "fields";
        assertThrows(IllegalArgumentException.class, recordsToRead::inMemtable);
        assertThrows(IllegalArgumentException.class, load(new Grid())::inMemtable);
        // Flushing memtables draw keys from the whole range; datasets are capped.
        assertEquals(Comparison.LOAD_KEYS, load(new Grid()).keyCount());
    }

    /** A benchmark method that declares RocksDBException. */
    @FunctionalInterface
    interface RocksJavaOperation<S> {
        long apply(S state, Picker picker) throws Exception;
    }

    private static <S> ToLongBiFunction<S, Picker> unchecked(RocksJavaOperation<S> operation) {
        return (state, picker) -> {
            try {
                return operation.apply(state, picker);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }
}
