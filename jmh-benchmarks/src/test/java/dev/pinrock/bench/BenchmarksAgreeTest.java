package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;
import java.util.function.ToLongBiFunction;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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
        grid.keyBytes = 16;
        grid.valueBytes = VALUE_BYTES;
        grid.keys = KEYS;
        grid.order = "random";
        grid.location = location;
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

    @ParameterizedTest
    @CsvSource({"sst, true", "memtable, true", "sst, false", "memtable, false"})
    void pinrockBindingsReadTheExpectedValuesInEveryMode(String location, String memoryFirst) throws Exception {
        PinrockBenchmark bench = new PinrockBenchmark();
        for (String binding : new String[] {"ffm", "jni"}) {
            PinrockBenchmark.ReadDb db = grid(new PinrockBenchmark.ReadDb(), location);
            db.binding = binding;
            db.memoryFirst = memoryFirst;
            db.open();
            try {
                assertEquals(Boolean.parseBoolean(memoryFirst), db.options().memoryFirstReads(), binding);
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
    @ValueSource(strings = {"sst", "memtable"})
    void rocksJavaReadsTheExpectedValuesInEveryMode(String location) throws Exception {
        RocksJavaBenchmark bench = new RocksJavaBenchmark();
        RocksJavaBenchmark.ReadDb db = grid(new RocksJavaBenchmark.ReadDb(), location);
        db.open();
        try {
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

    @org.junit.jupiter.api.Test
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
