package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
    @TempDir
    Path dir;

    /**
     * A JMH result in the JSON shape JMH 1.37 writes; binding null for
     * RocksJava, pinrock's memory-first reads on.
     */
    private static String jmhResult(String benchmark, String binding, double score, double allocated) {
        return jmhResult(benchmark, binding, true, score, allocated);
    }

    private static String jmhResult(String benchmark, String binding, boolean memoryFirst, double score,
            double allocated) {
        return """
                {"benchmark": "%s", "mode": "thrpt", "threads": 1,
                 "params": {%s"keyBytes": "16", "valueBytes": "100", "keys": "1000000",
                            "order": "random", "location": "sst"},
                 "primaryMetric": {"score": %s, "scoreError": 10.0, "scoreUnit": "ops/s"},
                 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": %s, "scoreUnit": "B/op"}}}
                """.formatted(benchmark, binding == null ? ""
                        : "\"binding\": \"" + binding + "\", \"memoryFirst\": \"" + memoryFirst + "\", ",
                        score, allocated);
    }

    /**
     * A row from results.csv's columns up to bytes_per_op: pinrock's with
     * memory-first reads on, the other bindings' without the setting.
     */
    static Report.Row row(String operation, String binding, String mode, int valueBytes, int keyBytes, int keys,
            String order, String location, int threads, double opsPerSecond, double error, double bytesPerOp) {
        return new Report.Row(new Report.Scenario(operation, valueBytes, keyBytes, keys, order, location, threads),
                binding, mode, binding.startsWith("pinrock-") ? Report.MEMORY_FIRST_ON : "", opsPerSecond, error,
                bytesPerOp);
    }

    /** Writes JMH results (from {@link #jmhResult}) as one JSON file in the test's directory. */
    private Path jmhFile(String name, String... results) throws IOException {
        return Files.writeString(dir.resolve(name), "[" + String.join(",", results) + "]");
    }

    @Test
    void ratiosCsvMarkdownAndChartComeFromTheResults() throws Exception {
        Path pinrock = jmhFile("pinrock.json",
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "ffm", 1200, 0),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getPinned", "ffm", 1500, 48),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "jni", 1000, 0));
        Path rocksJava = jmhFile("rocksjava.json",
                jmhResult("dev.pinrock.bench.RocksJavaBenchmark.getIntoArray", null, 1000, 16),
                jmhResult("dev.pinrock.bench.RocksJavaBenchmark.getNewArray", null, 750, 136));
        Report.Row floor = row("get", "native", "pinned", 100, 16, 1_000_000, "random", "sst", 1,
                2000, Double.NaN, Double.NaN);

        Report.Summary summary = Report.write(List.of(pinrock, rocksJava), List.of(floor), dir.resolve("out"),
                "scripts/bench.sh", ZonedDateTime.parse("2026-11-22T08:00:00Z"));

        assertEquals(1, summary.ratios().size());
        Report.Ratios ratios = summary.ratios().get(0);
        assertEquals(1.5, ratios.ffmOverRocksJava(), 1e-9);
        assertEquals(1.5, ratios.ffmOverJni(), 1e-9);
        assertEquals(0.75, ratios.javaOverNative(), 1e-9);
        assertEquals(1e9 / 1500 - 1e9 / 2000, ratios.boundaryNanos(), 1e-6);
        assertEquals(1.2, ratios.ffmOverRocksJavaByMode().get("into-array"), 1e-9);
        assertTrue(summary.ratioTable().contains("1.50"), summary.ratioTable());

        List<String> csv = Files.readAllLines(dir.resolve("out/results.csv"));
        assertEquals(Report.CSV_HEADER, csv.get(0));
        assertEquals("operation,binding,mode,value_bytes,key_bytes,keys,order,location,threads,ops_per_s,error,"
                + "bytes_per_op,memory_first,block_cache_bytes,compression,values", csv.get(0));
        assertEquals(1 + 6, csv.size());
        assertTrue(csv.contains("get,pinrock-ffm,pinned,100,16,1000000,random,sst,1,1500.0,10.0,48.0,on,1073741824,"
                + "none,pattern"), csv.toString());
        assertTrue(csv.contains("get,native,pinned,100,16,1000000,random,sst,1,2000.0,,,,1073741824,none,pattern"),
                csv.toString());

        String markdown = Files.readString(dir.resolve("out/RESULTS.md"));
        assertTrue(markdown.contains("`scripts/bench.sh`"), markdown);
        assertTrue(markdown.contains("| date | 2026-11-22T08:00:00Z |"), markdown);
        assertTrue(markdown.contains("RocksJava org.rocksdb:rocksdbjni:9.10.0"), markdown);
        assertTrue(markdown.contains("| get 100 B, 16 B keys, 1,000,000 keys, random, sst | 1.50 | 1.50 | 0.75 |"),
                markdown);

        assertNotNull(ImageIO.read(dir.resolve("out/chart.png").toFile()));

        // The recorded CSV of the floor reads back into the same rows.
        assertEquals(floor.csv(), Report.Row.parseCsv(Files.readAllLines(dir.resolve("out/floor.csv")).get(1)).csv());
    }

    @Test
    void memoryFirstReadsOffAreComparedInTheirOwnSectionOnly() throws Exception {
        Path pinrock = jmhFile("pinrock.json",
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "ffm", true, 1200, 0),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getPinned", "ffm", true, 1500, 0),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "jni", true, 1000, 0),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "jni", false, 800, 0),
                // Off, FFM's pinned get is its fastest, and it allocates: neither counts outside its section.
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "ffm", false, 960, 0),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getPinned", "ffm", false, 5000, 48));
        Path rocksJava = jmhFile("rocksjava.json",
                jmhResult("dev.pinrock.bench.RocksJavaBenchmark.getIntoArray", null, 1000, 0));

        Report.Summary summary = Report.write(List.of(pinrock, rocksJava), List.of(), dir.resolve("out"),
                "scripts/bench.sh --full", ZonedDateTime.parse("2026-11-22T08:00:00Z"));

        Report.Ratios ratios = summary.ratios().get(0);
        assertEquals(1.5, ratios.ffmOverRocksJava(), 1e-9);
        assertEquals(1.5, ratios.ffmOverJni(), 1e-9);
        assertEquals(1, summary.memoryFirst().size());
        Report.MemoryFirstRatios memoryFirst = summary.memoryFirst().get(0);
        // The modes both bindings run: into-array, not FFM's pinned.
        assertEquals(1.2, memoryFirst.ffmOverJniOn(), 1e-9);
        assertEquals(1.2, memoryFirst.ffmOverJniOff(), 1e-9);
        assertEquals(1.25, memoryFirst.ffmGain(), 1e-9);
        assertEquals(1.25, memoryFirst.jniGain(), 1e-9);
        assertTrue(summary.ratioTable().contains("FFM/JNI off"), summary.ratioTable());
        List<Report.Row> rows = Report.readJmh(pinrock);
        assertEquals(List.of("on", "on", "on", "off", "off", "off"), rows.stream().map(Report.Row::memoryFirst)
                .toList());
        assertTrue(Report.targets(rows, Report.ratios(rows)).stream().noneMatch(v -> v.measured().startsWith("48")));

        String markdown = Files.readString(dir.resolve("out/RESULTS.md"));
        String scenario = "| get 100 B, 16 B keys, 1,000,000 keys, random, sst | ";
        assertTrue(markdown.contains("## Memory-first reads"), markdown);
        assertTrue(markdown.contains("| scenario | FFM/JNI, memory-first on | FFM/JNI, memory-first off | "
                + "FFM on/off | JNI on/off |"), markdown);
        assertTrue(markdown.contains(scenario + "1.20 | 1.20 | 1.25 | 1.25 |"), markdown);
        assertTrue(markdown.contains(scenario + "pinrock-ffm | pinned | off | 5,000 |"), markdown);
        assertTrue(markdown.contains(scenario + "pinrock-ffm | pinned | on | 1,500 |"), markdown);
        List<String> csv = Files.readAllLines(dir.resolve("out/results.csv"));
        assertTrue(csv.contains("get,pinrock-jni,into-array,100,16,1000000,random,sst,1,800.0,10.0,0.0,off,1073741824,"
                + "none,pattern"), csv.toString());
    }

    @Test
    void aRunWithoutMemoryFirstReadsOffHasNoSectionForThem() throws Exception {
        Path pinrock = jmhFile("pinrock.json",
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "ffm", 1200, 0),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "jni", 1000, 0));

        Report.Summary summary = Report.write(List.of(pinrock), List.of(), dir.resolve("out"), "scripts/bench.sh",
                ZonedDateTime.parse("2026-11-22T08:00:00Z"));

        assertTrue(summary.memoryFirst().isEmpty());
        assertTrue(!Files.readString(dir.resolve("out/RESULTS.md")).contains("## Memory-first reads"));
    }

    @Test
    void aScenarioWithItsOwnBlockCacheIsLabelledAndRecordedWithIt() throws Exception {
        Path results = jmhFile("zipfian.json", """
                {"benchmark": "dev.pinrock.bench.PinrockBenchmark.getIntoArray", "mode": "thrpt", "threads": 2,
                 "params": {"binding": "jni", "memoryFirst": "false", "keyBytes": "16", "valueBytes": "1024",
                            "keys": "200000", "order": "zipfian", "location": "sst", "blockCacheBytes": "67108864"},
                 "primaryMetric": {"score": 300000, "scoreError": 1000, "scoreUnit": "ops/s"}}
                """);

        Report.Row row = Report.readJmh(results).get(0);

        assertEquals("get 1 KiB, 16 B keys, 200,000 keys, zipfian, sst, 64 MiB block cache, 2 threads",
                row.scenario().label());
        assertEquals("get,pinrock-jni,into-array,1024,16,200000,zipfian,sst,2,300000.0,1000.0,,off,67108864,none,"
                + "pattern", row.csv());
        assertEquals(row, Report.Row.parseCsv(row.csv()));
        assertEquals(Datasets.BLOCK_CACHE_BYTES, Report.readJmh(jmhFile("default.json",
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "ffm", 1, 0))).get(0).scenario()
                .blockCacheBytes());
    }

    @Test
    void theLoadOfRecordsIsLabelledWithItsOptionsAndItsKeyRange() throws Exception {
        Path results = jmhFile("load.json", """
                {"benchmark": "dev.pinrock.bench.RocksJavaBenchmark.put", "mode": "thrpt", "threads": 1,
                 "params": {"keyBytes": "16", "valueBytes": "1024", "keys": "1000000000", "order": "random",
                            "location": "flushing", "blockCacheBytes": "67108864", "compression": "zstd",
                            "values": "fields"},
                 "primaryMetric": {"score": 90000, "scoreError": 900, "scoreUnit": "ops/s"}}
                """);

        Report.Row row = Report.readJmh(results).get(0);

        assertEquals("put 1 KiB, 16 B keys, 1,000,000,000 keys, random, flushing, 64 MiB block cache, zstd, "
                + "10 x 100 B fields", row.scenario().label());
        assertEquals("put,rocksjava,array,1024,16,1000000000,random,flushing,1,90000.0,900.0,,,67108864,zstd,fields",
                row.csv());
        assertEquals(row, Report.Row.parseCsv(row.csv()));
        assertTrue(!row.scenario().isCoreSweep());
    }

    @Test
    void theCsvKeepsFourSignificantDigitsOfFiguresBelowAHundred() {
        Report.Row scan = row("scan", "native", "pinned", 100, 16, 1_000_000, "sequential", "sst", 1,
                9.452, 0.0524, Double.NaN);
        assertEquals("scan,native,pinned,100,16,1000000,sequential,sst,1,9.452,0.0524,,,1073741824,none,pattern",
                scan.csv());
        assertEquals(scan.csv(), Report.Row.parseCsv(scan.csv()).csv());
        // A line of a run recorded before the later columns existed reads with their defaults.
        assertEquals(scan.csv(), Report.Row.parseCsv("scan,native,pinned,100,16,1000000,sequential,sst,1,9.452,0.0524,")
                .csv());
    }

    @Test
    void sizesAreNamedInTheLargestWholeUnit() {
        assertEquals("2 GiB", Report.size(2L << 30));
        assertEquals("512 MiB", Report.size(512L << 20));
        assertEquals("64 KiB", Report.size(65536));
        assertEquals("100 B", Report.size(100));
    }

    @Test
    void targetsAreCheckedAgainstTheRun() throws Exception {
        Path results = jmhFile("targets.json",
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "ffm", 1200, 0.4),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getPinned", "ffm", 1500, 48),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.getIntoArray", "jni", 1000, 0),
                jmhResult("dev.pinrock.bench.RocksJavaBenchmark.getIntoArray", null, 1000, 0));
        List<Report.Row> rows = new ArrayList<>(Report.readJmh(results));
        rows.add(row("get", "native", "pinned", 100, 16, 1_000_000, "random", "sst", 1, 1530,
                Double.NaN, Double.NaN));

        List<Report.Verdict> verdicts = Report.targets(rows, Report.ratios(rows));

        assertEquals(List.of("FFM / RocksJava, best calls >= 1.00: 1.50 met",
                "Java time / native time <= 1.03: 1.02 met",
                "FFM / JNI variant, best modes >= 1.00: 1.50 met",
                "allocates nothing (GC profiler, bytes per entry < 1.0): 0.40 B per entry met",
                "allocates nothing (GC profiler, bytes per entry < 1.0): 48.00 B per entry not met"),
                verdicts.stream().map(v -> v.goal() + ": " + v.measured() + (v.met() ? " met" : " not met"))
                        .toList());
    }

    @Test
    void anFfmShortfallAgainstJniSaysWhetherTheErrorsOverlap() {
        List<Report.Row> rows = List.of(
                getRow("pinrock-ffm", 100, 950, 40), getRow("pinrock-jni", 100, 1000, 20),
                getRow("pinrock-ffm", 1024, 900, 10), getRow("pinrock-jni", 1024, 1000, 10),
                getRow("pinrock-ffm", 4096, 1100, 10), getRow("pinrock-jni", 4096, 1000, 10));

        List<String> verdicts = Report.targets(rows, Report.ratios(rows)).stream()
                .filter(v -> v.goal().startsWith("FFM / JNI"))
                .map(v -> v.measured() + (v.met() ? " met" : " not met"))
                .toList();

        assertEquals(List.of("0.95 (FFM 950 ± 40.0, JNI 1,000 ± 20.0: within the 99.9 % errors) not met",
                "0.90 (FFM 900 ± 10.0, JNI 1,000 ± 10.0: apart beyond the 99.9 % errors) not met",
                "1.10 met"), verdicts);
    }

    private static Report.Row getRow(String binding, int valueBytes, double opsPerSecond, double error) {
        return row("get", binding, "into-array", valueBytes, 16, 1_000_000, "random", "sst", 1,
                opsPerSecond, error, 0);
    }

    @Test
    void everyTwoThreadGetIsHeldToItsOneThreadPointsScaling() {
        List<Report.Row> rows = List.of(
                threadRow("pinrock-ffm", 1_000_000, "sst", 1, 1000),
                threadRow("pinrock-ffm", 1_000_000, "sst", 2, 1900),
                threadRow("rocksjava", 1_000_000, "sst", 1, 1000), threadRow("rocksjava", 1_000_000, "sst", 2, 1850),
                threadRow("pinrock-ffm", 10_000, "memtable", 1, 1000),
                threadRow("pinrock-ffm", 10_000, "memtable", 2, 1600),
                threadRow("rocksjava", 10_000, "memtable", 1, 1000),
                threadRow("rocksjava", 10_000, "memtable", 2, 1700),
                // Two threads with no one-thread point: nothing to compare with.
                threadRow("pinrock-ffm", 100_000, "sst", 2, 1900), threadRow("rocksjava", 100_000, "sst", 2, 1000));

        List<String> scaling = Report.targets(rows, Report.ratios(rows)).stream()
                .filter(v -> v.goal().startsWith("FFM 2-thread"))
                .map(v -> v.target() + ": " + v.measured() + (v.met() ? " met" : " not met"))
                .toList();

        assertEquals(List.of("get 100 B, 16 B keys, 1,000,000 keys, random, sst, 2 threads: 1.90 (RocksJava 1.85) met",
                "get 100 B, 16 B keys, 10,000 keys, random, memtable, 2 threads: 1.60 (RocksJava 1.70) not met"),
                scaling);
    }

    private static Report.Row threadRow(String binding, int keys, String location, int threads, double opsPerSecond) {
        return row("get", binding, "into-array", 100, 16, keys, "random", location, threads,
                opsPerSecond, 10, 0);
    }

    @Test
    void cursorScansAreHeldToNoAllocationInTheirCallbackModesOnly() throws Exception {
        Path results = jmhFile("scans.json",
                jmhResult("dev.pinrock.bench.PinrockBenchmark.scanBatchSteps", "ffm", 8, 420_000),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.scanBatched", "ffm", 6, 80_490_000),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.scanReader", "ffm", 7, 3_600),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.scanViews", "ffm", 5, 208_000_000));
        List<Report.Row> rows = Report.readJmh(results);

        List<String> allocation = Report.targets(rows, Report.ratios(rows)).stream()
                .filter(v -> v.goal().startsWith("allocates nothing"))
                .map(v -> v.target() + ": " + v.measured() + (v.met() ? " met" : " not met"))
                .toList();

        String scenario = "scan 100 B, 16 B keys, 1,000,000 keys, random, sst, ";
        assertEquals(List.of(scenario + "batch-offsets: 0.42 B per entry met",
                scenario + "batched-views: 80.49 B per entry not met",
                scenario + "reader-views: 0.00 B per entry met"), allocation);
    }

    @Test
    void bulkOperationsGetTheSameRatiosAndTheirEntriesPerSecond() throws Exception {
        Path results = jmhFile("bulk.json",
                jmhResult("dev.pinrock.bench.PinrockBenchmark.scanBatched", "ffm", 4, 0),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.scanViews", "jni", 5, 0),
                jmhResult("dev.pinrock.bench.RocksJavaBenchmark.scanArrays", null, 2, 1.7e8),
                jmhResult("dev.pinrock.bench.PinrockBenchmark.batchPut", "ffm", 300, 0),
                jmhResult("dev.pinrock.bench.RocksJavaBenchmark.multiGet", null, 2500, 11200));
        Report.Row floor = row("scan", "native", "pinned", 100, 16, 1_000_000, "random", "sst", 1,
                8, Double.NaN, Double.NaN);

        Report.Summary summary = Report.write(List.of(results), List.of(floor), dir.resolve("out"),
                "scripts/bench.sh --full", ZonedDateTime.parse("2026-11-22T08:00:00Z"));

        assertEquals(List.of("scan", "batch-put", "multi-get"),
                summary.ratios().stream().map(r -> r.scenario().operation()).toList());
        Report.Ratios scan = summary.ratios().get(0);
        assertEquals(2.0, scan.ffmOverRocksJava(), 1e-9);
        assertEquals(0.8, scan.ffmOverJni(), 1e-9);
        assertEquals(0.5, scan.javaOverNative(), 1e-9);

        // Whole scans per second keep three digits; entries/s counts every key a scan reads.
        String markdown = Files.readString(dir.resolve("out/RESULTS.md"));
        String scenario = "| scan 100 B, 16 B keys, 1,000,000 keys, random, sst | ";
        assertTrue(markdown.contains(scenario + "pinrock-ffm | batched-views | on | 4.00 | 10.0 | 4,000,000 | 0.0 |"),
                markdown);
        assertTrue(markdown.contains(scenario + "native | pinned |  | 8.00 |  | 8,000,000 |  |"), markdown);
        assertTrue(markdown.contains("| pinrock-ffm | array | on | 300 | 10.0 | 300,000 | 0.0 |"), markdown);
        assertTrue(markdown.contains("| rocksjava | new-array |  | 2,500 | 10.0 | 250,000 | 11200.0 |"), markdown);
    }

    @Test
    void keyCountIsCappedForLargeValues() {
        assertEquals(1_000_000, Grid.keyCount(1_000_000, 100, "sst"));
        assertEquals(4096, Grid.keyCount(1_000_000, 65536, "sst"));
        assertEquals(4096, Grid.keyCount(1_000_000, 65536, "memtable"));
        assertEquals(100_000, Grid.keyCount(100_000, 1024, "sst"));
        // Writes into flushing memtables load no dataset: keys are the range they are drawn from.
        assertEquals(1_000_000_000, Grid.keyCount(1_000_000_000, 1024, "flushing"));
    }

    @Test
    void keysSortLikeTheirIndexAndArePaddedToTheirSize() {
        byte[] key = new byte[20];
        Keys.fill(key, 1234);
        assertEquals("key-000000001234xxxx", new String(key, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void checksumReadsEveryByte() {
        byte[] value = new byte[13];
        long base = Keys.checksum(java.lang.foreign.MemorySegment.ofArray(value), value.length);
        for (int i = 0; i < value.length; i++) {
            value[i] = 1;
            assertTrue(Keys.checksum(java.lang.foreign.MemorySegment.ofArray(value), value.length) != base,
                    "byte " + i + " ignored");
            value[i] = 0;
        }
    }

    @Test
    void checksumIsTheXorOfLittleEndianWordsWithTheTailBytesFoldedIn() {
        byte[] memory = new byte[80];
        new java.util.Random(11).nextBytes(memory);
        for (int offset = 0; offset < 4; offset++) {
            for (int length = 0; length <= memory.length - offset; length++) {
                long expected = 0;
                for (int i = 0; i < length; i++) {
                    expected ^= (memory[offset + i] & 0xFFL) << (8 * (i % 8)); // byte i of its word or of the tail
                }
                assertEquals(expected, Keys.checksum(java.lang.foreign.MemorySegment.ofArray(memory), offset, length),
                        "offset " + offset + ", length " + length);
            }
        }
    }

    @Test
    void anArrayChecksumsAsItsSegmentDoes() {
        byte[] value = new byte[80]; // past the four-word steps
        new java.util.Random(7).nextBytes(value);
        for (int length = 0; length <= value.length; length++) {
            assertEquals(Keys.checksum(java.lang.foreign.MemorySegment.ofArray(value), length),
                    Keys.checksum(value, length), "length " + length);
        }
    }
}
