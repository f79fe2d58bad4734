package dev.pinrock.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The comparison: runs the JMH suites of pinrock FFM, the JNI variant and
 * RocksJava, and the native floor, over the grid, then writes the report.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -Dpinrock.floor=native/target/cmake/pinrock_floor \
 *      -cp ... dev.pinrock.bench.Comparison [--full] [--report DIR] [--command TEXT]
 * </pre>
 *
 * The quick grid (the default, the README's main job) measures gets at 100 B
 * and 4 KiB, gets from a hot memtable, absent-key gets, puts, and zipfian
 * gets on 2 threads of 1 KiB values from data larger than the block cache;
 * {@code --full} measures those zipfian gets too, the core
 * sweep over five value sizes, the one-axis variations around the 100-byte
 * point (a hot memtable of 10,000 keys among them, and two threads on it and
 * on the 1M keys in table files), 64 KiB gets written to a
 * file, get-absent, put and delete, the load of 1 KiB records into memtables
 * that flush and compact, and batch put (1000 entries per
 * operation), multiGet (100 keys per operation) and a full scan of 1M
 * entries; at each of its get points pinrock also runs with memory-first
 * reads off ({@code memoryFirst=false}). The report goes to DIR (default
 * jmh-benchmarks/target/comparison), the raw JMH JSON to DIR/jmh.
 */
public final class Comparison {
    /** Gets: FFM in every access mode; the JNI variant and RocksJava in their copying modes. */
    private static final String FFM_GETS = "getNewArray|getIntoArray|getDirectBuffer|getPinned";
    private static final String COPY_GETS = "getNewArray|getIntoArray|getDirectBuffer";
    /** Scans and multiGets: pinrock (either binding) in every mode, RocksJava in its own. */
    private static final String PINROCK_SCANS = "scanBatchSteps|scanBatched|scanReader|scanViews|scanArrays";
    private static final String ROCKSJAVA_SCANS = "scanArrays|scanIntoArrays|scanDirectBuffer";
    /** Values written to a file: FFM pinned or copied; the JNI variant and RocksJava copied. */
    private static final String FFM_GETS_TO_FILE = "getToFilePinned|getToFileDirectBuffer";
    private static final String COPY_GETS_TO_FILE = "getToFileDirectBuffer";
    private static final String PINROCK_MULTI_GETS = "multiGet|multiGetPinned";
    /** Keys requested by the core sweep (capped for large values, see {@link Grid#keyCount()}). */
    static final int CORE_KEYS = 1_000_000;
    /** Keys of the hot-memtable point: few enough that the memtable stays in the CPU caches. */
    static final int HOT_KEYS = 10_000;
    /**
     * The point whose data does not fit the block cache: 200,000 values of
     * 1 KiB (about 200 MB) under a 64 MiB cache, read by 2 threads in YCSB's
     * zipfian order, the workload memory-first reads must pay on.
     */
    static final int LARGER_THAN_CACHE_KEYS = 200_000;
    static final long SMALL_CACHE_BYTES = 64L << 20;
    /**
     * The range the load point draws its random keys from: wide enough that
     * nearly every put inserts a new key, as a load does (a trial's one to
     * three million puts repeat about 0.1 % of their keys).
     */
    static final int LOAD_KEYS = 1_000_000_000;

    /**
     * How long each binding runs at a point: JMH's warm-up and measurement
     * iterations. The native floor warms up and measures for the same total
     * times, so that writes grow the memtable as far in both. The full grid
     * measures ten iterations of 1 s rather than five of 2 s: JMH's 99.9 %
     * error is Student's t over the iterations, and t falls from 8.6 at five
     * to 4.8 at ten, so the same 10 s tell two bindings apart at about half
     * the margin.
     */
    record Timing(int warmupIterations, int measurementIterations, int secondsPerIteration) {
        static Timing of(boolean full) {
            return full ? new Timing(4, 10, 1) : new Timing(1, 3, 1);
        }

        int warmupSeconds() {
            return warmupIterations * secondsPerIteration;
        }

        int measurementSeconds() {
            return measurementIterations * secondsPerIteration;
        }
    }

    /**
     * One grid point: a set of benchmark methods at one parameter setting.
     * pinrock runs it with its default memory-first reads, and where
     * withoutMemoryFirst is set, with them off too ({@code memoryFirst=false}).
     * A get point measures FFM in every access mode unless copyingGets
     * limits it to the copying modes the other bindings run.
     */
    record Point(String name, String operation, Map<String, String> params, int threads,
            boolean withoutMemoryFirst, boolean copyingGets) {
        Point(String name, String operation, Map<String, String> params, int threads) {
            this(name, operation, params, threads, false, false);
        }

        /** @return this point, measured for pinrock with memory-first reads off as well as on */
        Point alsoWithoutMemoryFirst() {
            return new Point(name, operation, params, threads, true, copyingGets);
        }

        /** @return this point with FFM's gets in the copying modes only */
        Point copyingGetsOnly() {
            return new Point(name, operation, params, threads, withoutMemoryFirst, true);
        }

        /** @return this point with one parameter set otherwise */
        Point with(String param, Object value) {
            if (!params.containsKey(param)) {
                throw new IllegalArgumentException("no parameter " + param);
            }
            Map<String, String> changed = new LinkedHashMap<>(params);
            changed.put(param, String.valueOf(value));
            return new Point(name, operation, changed, threads, withoutMemoryFirst, copyingGets);
        }

        int keyBytes() {
            return Integer.parseInt(params.get("keyBytes"));
        }

        int valueBytes() {
            return Integer.parseInt(params.get("valueBytes"));
        }

        int keyCount() {
            return Grid.keyCount(Integer.parseInt(params.get("keys")), valueBytes(), params.get("location"));
        }

        long blockCacheBytes() {
            return Long.parseLong(params.get("blockCacheBytes"));
        }

        /** @return what the report files this point's figures under */
        Report.Scenario scenario() {
            return new Report.Scenario(operation, valueBytes(), keyBytes(), keyCount(), params.get("order"),
                    params.get("location"), threads, blockCacheBytes(), params.get("compression"),
                    params.get("values"));
        }

        /** @return whether the operation reads an existing dataset rather than writing */
        boolean reads() {
            return switch (operation) {
                case "get", "get-absent", "get-to-file", "multi-get", "multi-get-families", "scan" -> true;
                default -> false;
            };
        }

        /** @return the benchmark methods that measure this point for a binding ("ffm", "jni", "rocksjava") */
        String methods(String binding) {
            boolean rocksJava = binding.equals("rocksjava");
            return switch (operation) {
                case "get" -> binding.equals("ffm") && !copyingGets ? FFM_GETS : COPY_GETS;
                case "get-to-file" -> binding.equals("ffm") ? FFM_GETS_TO_FILE : COPY_GETS_TO_FILE;
                case "get-absent" -> "getAbsent";
                case "put" -> "put";
                case "put-without-log" -> "putWithoutLog";
                case "delete" -> "delete";
                case "batch-put" -> "batchPut";
                case "multi-get" -> rocksJava ? "multiGet" : PINROCK_MULTI_GETS;
                case "multi-get-families" -> "multiGetFamilies";
                case "scan" -> rocksJava ? ROCKSJAVA_SCANS : PINROCK_SCANS;
                default -> throw new IllegalArgumentException(operation);
            };
        }
    }

    private Comparison() {
    }

    public static void main(String[] args) throws Exception {
        boolean full = false;
        Path report = Path.of("jmh-benchmarks/target/comparison");
        String command = "scripts/bench.sh";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--full" -> full = true;
                case "--report" -> report = Path.of(args[++i]);
                case "--command" -> command = args[++i];
                default -> {
                    System.err.println("usage: Comparison [--full] [--report DIR] [--command TEXT]");
                    System.exit(2);
                }
            }
        }
        Path floor = Path.of(System.getProperty("pinrock.floor", "native/target/cmake/pinrock_floor"));
        if (!Files.isExecutable(floor)) {
            throw new IllegalStateException(floor + " is missing: build native/ first (scripts/bench.sh does)");
        }
        Path out = report.resolve("jmh");
        Files.createDirectories(out);
        List<Point> points = full ? fullGrid() : quickGrid();
        Timing timing = Timing.of(full);
        ZonedDateTime started = ZonedDateTime.now();
        List<Path> jmhResults = new ArrayList<>();
        List<Report.Row> floorRows = new ArrayList<>();
        for (Point point : points) {
            System.out.printf("%n=== %s (%s) ===%n", point.name(), point.params());
            if (point.reads() && point.params().get("location").equals("sst")) {
                Datasets.sst(point.keyBytes(), point.valueBytes(), point.keyCount()); // built once, outside the forks
            }
            // The floor runs just before and just after FFM, the binding the
            // native targets hold to native, so that a slow or fast moment of
            // the machine weighs on both sides of that ratio alike.
            Report.Row floorBefore = runFloor(floor, point, timing);
            jmhResults.add(runJmh(point, "ffm", true, timing, out));
            Report.Row floorAfter = runFloor(floor, point, timing);
            floorRows.add(bracketed(floorBefore, floorAfter));
            jmhResults.add(runJmh(point, "jni", true, timing, out));
            if (point.withoutMemoryFirst()) {
                // Memory-first reads off: JNI, then FFM, so that FFM, JNI, JNI,
                // FFM puts each binding's two runs the same distance apart
                // around the middle, and a steady drift of the machine's speed
                // weighs on FFM / JNI with the setting on and off alike.
                jmhResults.add(runJmh(point, "jni", false, timing, out));
                jmhResults.add(runJmh(point, "ffm", false, timing, out));
            }
            jmhResults.add(runJmh(point, "rocksjava", true, timing, out));
        }
        Report.Summary summary = Report.write(jmhResults, floorRows, report, command + (full ? " --full" : ""),
                started);
        System.out.println();
        System.out.println(summary.ratioTable());
        System.out.println("report: " + report.resolve("RESULTS.md"));
    }

    static List<Point> quickGrid() {
        List<Point> points = new ArrayList<>();
        for (int valueBytes : new int[] {100, 4096}) {
            points.add(new Point("get " + valueBytes + " B", "get", params(16, valueBytes, CORE_KEYS, "random", "sst"), 1));
        }
        points.add(new Point("hot memtable", "get", params(16, 100, HOT_KEYS, "random", "memtable"), 1));
        points.add(new Point("get-absent", "get-absent", params(16, 100, CORE_KEYS, "random", "sst"), 1));
        points.add(new Point("put", "put", params(16, 100, CORE_KEYS, "random", "memtable"), 1));
        points.add(largerThanCache());
        return points;
    }

    /**
     * Gets where the data does not fit the block cache: 1 KiB values, about
     * 200 MB of them under a 64 MiB cache (the rest in the OS page cache),
     * keys in YCSB's zipfian order, 2 threads; copying modes, as the
     * applications this models read.
     */
    static Point largerThanCache() {
        return new Point("cache smaller than data, zipfian, 2 threads", "get",
                params(16, 1024, LARGER_THAN_CACHE_KEYS, "zipfian", "sst"), 2)
                .with("blockCacheBytes", SMALL_CACHE_BYTES).copyingGetsOnly();
    }

    static List<Point> fullGrid() {
        List<Point> points = new ArrayList<>();
        for (int valueBytes : new int[] {16, 100, 1024, 4096, 65536}) {
            points.add(new Point("core get " + valueBytes + " B", "get",
                    params(16, valueBytes, CORE_KEYS, "random", "sst"), 1));
        }
        points.add(new Point("128 B keys", "get", params(128, 100, CORE_KEYS, "random", "sst"), 1));
        points.add(new Point("100k keys", "get", params(16, 100, 100_000, "random", "sst"), 1));
        points.add(new Point("sequential", "get", params(16, 100, CORE_KEYS, "sequential", "sst"), 1));
        points.add(new Point("hot memtable", "get", params(16, 100, HOT_KEYS, "random", "memtable"), 1));
        points.add(new Point("hot memtable, 2 threads", "get", params(16, 100, HOT_KEYS, "random", "memtable"), 2));
        points.add(new Point("2 threads", "get", params(16, 100, CORE_KEYS, "random", "sst"), 2));
        points.add(largerThanCache());
        points.add(new Point("64 KiB to a file", "get-to-file", params(16, 65536, CORE_KEYS, "random", "sst"), 1));
        points.add(new Point("get-absent", "get-absent", params(16, 100, CORE_KEYS, "random", "sst"), 1));
        points.add(new Point("put", "put", params(16, 100, CORE_KEYS, "random", "memtable"), 1));
        points.add(new Point("put without the log", "put-without-log",
                params(16, 100, CORE_KEYS, "random", "memtable"), 1));
        points.add(load());
        points.add(new Point("delete", "delete", params(16, 100, CORE_KEYS, "random", "memtable"), 1));
        points.add(new Point("batch put", "batch-put", params(16, 100, CORE_KEYS, "random", "memtable"), 1));
        points.add(new Point("multiGet", "multi-get", params(16, 100, CORE_KEYS, "random", "sst"), 1));
        // Hot keys: RocksDB's lookups stay in the CPU caches, so that what the
        // bindings add (keys in, values out, one call for both families) shows.
        points.add(new Point("multiGet across 2 families", "multi-get-families",
                params(16, 100, HOT_KEYS, "random", "memtable"), 1));
        points.add(new Point("full scan", "scan", params(16, 100, CORE_KEYS, "sequential", "sst"), 1));
        // pinrock's gets also with memory-first reads off: FFM against JNI on
        // either algorithm, and what memory first gains each binding.
        return points.stream().map(p -> p.operation().equals("get") ? p.alsoWithoutMemoryFirst() : p).toList();
    }

    /**
     * Loading a fresh database of 1 KiB records: puts of records of ten
     * 100-byte fields ({@link Keys#fillRecord}) under random 16-byte keys,
     * with zstd, a 64 MiB block cache and RocksDB's default 64 MiB memtables,
     * so that flushes and compactions run during the trial (the other write
     * points never fill their memtable); one thread.
     */
    static Point load() {
        return new Point("load 1 KiB records", "put", params(16, Keys.RECORD_BYTES, LOAD_KEYS, "random", "flushing"),
                1).with("blockCacheBytes", SMALL_CACHE_BYTES).with("compression", "zstd").with("values", "fields");
    }

    private static Map<String, String> params(int keyBytes, int valueBytes, int keys, String order, String location) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("keyBytes", String.valueOf(keyBytes));
        params.put("valueBytes", String.valueOf(valueBytes));
        params.put("keys", String.valueOf(keys));
        params.put("order", order);
        params.put("location", location);
        params.put("blockCacheBytes", String.valueOf(Datasets.BLOCK_CACHE_BYTES));
        params.put("compression", "none");
        params.put("values", "pattern");
        return params;
    }

    /** @return the class whose benchmarks measure a binding ("ffm", "jni", "rocksjava") */
    static Class<?> benchmarkClass(String binding) {
        return binding.equals("rocksjava") ? RocksJavaBenchmark.class : PinrockBenchmark.class;
    }

    /**
     * Runs one binding ("ffm", "jni", "rocksjava") at one point, pinrock with
     * memory-first reads on or off (RocksJava has no such setting); returns
     * the JMH JSON file written.
     */
    private static Path runJmh(Point point, String binding, boolean memoryFirst, Timing timing, Path out)
            throws RunnerException, IOException {
        String slug = point.name().replaceAll("[^A-Za-z0-9]+", "-");
        String methods = point.methods(binding);
        String benchmarkClass = benchmarkClass(binding).getName();
        Path json = out.resolve("jmh-" + slug + "-" + binding + (memoryFirst ? "" : "-memory-first-off") + ".json");
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(Pattern.quote(benchmarkClass) + "\\.(" + methods + ")$")
                .threads(point.threads())
                .forks(1)
                .warmupIterations(timing.warmupIterations())
                .warmupTime(TimeValue.seconds(timing.secondsPerIteration()))
                .measurementIterations(timing.measurementIterations())
                .measurementTime(TimeValue.seconds(timing.secondsPerIteration()))
                .timeUnit(TimeUnit.SECONDS)
                .addProfiler(GCProfiler.class)
                .resultFormat(ResultFormatType.JSON)
                .result(json.toString())
                .jvmArgsAppend("-Dpinrock.bench.data=" + Datasets.root());
        point.params().forEach(options::param);
        if (!binding.equals("rocksjava")) {
            options.param("binding", binding);
            options.param("memoryFirst", String.valueOf(memoryFirst));
        }
        int measured = new Runner(options.build()).run().size();
        int expected = methods.split("\\|").length;
        if (measured != expected) {
            throw new IllegalStateException(binding + " at " + point.name() + ": " + measured + " of " + expected
                    + " benchmarks produced a result; see the JMH output above");
        }
        withoutMachinePaths(json);
        return json;
    }

    /**
     * Rewrites a JMH JSON file so that it names no directory of this
     * machine: the JDK (JMH records the java launcher) becomes $JAVA_HOME and
     * the home directory (where the datasets are cached) ~.
     */
    static void withoutMachinePaths(Path json) throws IOException {
        Files.writeString(json, withoutMachinePaths(Files.readString(json), System.getProperty("java.home"),
                System.getProperty("user.home")));
    }

    static String withoutMachinePaths(String text, String javaHome, String userHome) {
        return text.replace(javaHome, "$JAVA_HOME").replace(userHome + "/", "~/");
    }

    /**
     * The floor's figure at a point from its runs before and after FFM:
     * their mean, with half their difference as the error.
     */
    static Report.Row bracketed(Report.Row before, Report.Row after) {
        double mean = (before.opsPerSecond() + after.opsPerSecond()) / 2;
        double halfSpread = Math.abs(before.opsPerSecond() - after.opsPerSecond()) / 2;
        return new Report.Row(before.scenario(), before.binding(), before.mode(), before.memoryFirst(), mean,
                halfSpread, before.bytesPerOp());
    }

    private static final Pattern FLOOR_RESULT = Pattern.compile("RESULT .*ops_per_s=([0-9.]+) .*");

    /** Times the same operation in C++ on the same data and options. */
    private static Report.Row runFloor(Path floor, Point point, Timing timing)
            throws IOException, InterruptedException {
        boolean reads = point.reads();
        String location = point.params().get("location");
        boolean memtable = location.equals("memtable");
        Path scratch = null;
        Path db;
        if (reads && !memtable) {
            db = Datasets.sst(point.keyBytes(), point.valueBytes(), point.keyCount());
        } else {
            scratch = Datasets.scratch();
            db = scratch.resolve("db");
        }
        List<String> command = List.of(floor.toString(), "--db", db.toString(), "--op", point.operation(),
                "--location", location,
                "--key-bytes", String.valueOf(point.keyBytes()), "--value-bytes", String.valueOf(point.valueBytes()),
                "--keys", String.valueOf(point.keyCount()), "--order", point.params().get("order"),
                "--threads", String.valueOf(point.threads()),
                "--warmup-seconds", String.valueOf(timing.warmupSeconds()),
                "--seconds", String.valueOf(timing.measurementSeconds()),
                "--block-cache-bytes", String.valueOf(point.blockCacheBytes()),
                "--write-buffer-bytes", String.valueOf(Grid.writeBufferBytes(location)),
                "--compression", point.params().get("compression"), "--values", point.params().get("values"));
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor();
            Matcher matcher = FLOOR_RESULT.matcher(output.strip());
            if (exit != 0 || !matcher.matches()) {
                throw new IllegalStateException("native floor failed (exit " + exit + "): " + command + "\n" + output);
            }
            System.out.println("native floor: " + output.strip());
            return new Report.Row(point.scenario(), "native", "pinned", "", Double.parseDouble(matcher.group(1)),
                    Double.NaN, Double.NaN);
        } finally {
            if (scratch != null) {
                Datasets.deleteRecursively(scratch);
            }
        }
    }
}
