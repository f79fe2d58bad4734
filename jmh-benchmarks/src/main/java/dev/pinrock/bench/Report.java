package dev.pinrock.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.pinrock.RocksDb;

/**
 * Turns JMH JSON results and the native floor's figures into
 * {@code RESULTS.md}, {@code results.csv} and {@code chart.png}. Ratios are
 * computed from one run only. Run on recorded files:
 * {@code java -cp ... dev.pinrock.bench.Report [--command TEXT] [--date ISO] OUT_DIR FLOOR_CSV JMH_JSON...}.
 */
public final class Report {
    static final String CSV_HEADER = "operation,binding,mode,value_bytes,key_bytes,keys,order,location,threads,"
            + "ops_per_s,error,bytes_per_op,memory_first,block_cache_bytes,compression,values";

    /** {@link Row#memoryFirst()} of pinrock with memory-first reads on (its default) and off. */
    static final String MEMORY_FIRST_ON = "on";
    static final String MEMORY_FIRST_OFF = "off";
    /** The grid's default compression and values, which a scenario's label leaves unsaid. */
    static final String DEFAULT_COMPRESSION = "none";
    static final String DEFAULT_VALUES = "pattern";

    /**
     * One measured benchmark: a line of results.csv. memoryFirst is pinrock's
     * setting ({@link #MEMORY_FIRST_ON} or {@link #MEMORY_FIRST_OFF}), empty
     * for RocksJava, the native floor and results recorded before the setting
     * existed.
     */
    public record Row(Scenario scenario, String binding, String mode, String memoryFirst, double opsPerSecond,
            double error, double bytesPerOp) {

        String csv() {
            Scenario s = scenario;
            return String.join(",", s.operation(), binding, mode, String.valueOf(s.valueBytes()),
                    String.valueOf(s.keyBytes()), String.valueOf(s.keys()), s.order(), s.location(),
                    String.valueOf(s.threads()), csvFigure(opsPerSecond), csvFigure(error), csvFigure(bytesPerOp),
                    memoryFirst, String.valueOf(s.blockCacheBytes()), s.compression(), s.values());
        }

        /** Reads a line of results.csv; lines without the later columns (older runs) get their defaults. */
        static Row parseCsv(String line) {
            String[] f = line.split(",", -1);
            Scenario scenario = new Scenario(f[0], Integer.parseInt(f[3]), Integer.parseInt(f[4]),
                    Integer.parseInt(f[5]), f[6], f[7], Integer.parseInt(f[8]),
                    f.length > 13 ? Long.parseLong(f[13]) : Datasets.BLOCK_CACHE_BYTES,
                    f.length > 14 ? f[14] : DEFAULT_COMPRESSION, f.length > 15 ? f[15] : DEFAULT_VALUES);
            return new Row(scenario, f[1], f[2], f.length > 12 ? f[12] : "", parse(f[9]), parse(f[10]),
                    parse(f[11]));
        }

        /** @return whether this row is pinrock with memory-first reads off, outside the default comparison */
        boolean memoryFirstOff() {
            return memoryFirst.equals(MEMORY_FIRST_OFF);
        }
    }

    /** Everything but binding and mode: the rows of one scenario are compared with each other. */
    record Scenario(String operation, int valueBytes, int keyBytes, int keys, String order, String location,
            int threads, long blockCacheBytes, String compression, String values) {
        /** A scenario with the default options ({@link Datasets#options()}) and values. */
        Scenario(String operation, int valueBytes, int keyBytes, int keys, String order, String location,
                int threads) {
            this(operation, valueBytes, keyBytes, keys, order, location, threads, Datasets.BLOCK_CACHE_BYTES,
                    DEFAULT_COMPRESSION, DEFAULT_VALUES);
        }

        /** @return the same scenario on the given number of threads */
        Scenario withThreads(int count) {
            return new Scenario(operation, valueBytes, keyBytes, keys, order, location, count, blockCacheBytes,
                    compression, values);
        }

        /** @return whether the scenario has the default options and values */
        private boolean defaultOptions() {
            return blockCacheBytes == Datasets.BLOCK_CACHE_BYTES && compression.equals(DEFAULT_COMPRESSION)
                    && values.equals(DEFAULT_VALUES);
        }

        /** Names the options and values only where they are not the default ones. */
        String label() {
            return String.format(Locale.ROOT, "%s %s, %d B keys, %,d keys, %s, %s%s%s%s%s", operation,
                    size(valueBytes), keyBytes, keys, order, location,
                    blockCacheBytes == Datasets.BLOCK_CACHE_BYTES ? "" : ", " + size(blockCacheBytes) + " block cache",
                    compression.equals(DEFAULT_COMPRESSION) ? "" : ", " + compression,
                    values.equals(DEFAULT_VALUES) ? "" : values.equals("fields")
                            ? ", " + Keys.FIELDS + " x " + Keys.FIELD_BYTES + " B fields" : ", " + values + " values",
                    threads > 1 ? ", " + threads + " threads" : "");
        }

        /** @return the entries one operation handles: its puts, its keys, every key for a scan, else one */
        int entriesPerOperation() {
            return switch (operation) {
                case "batch-put" -> PinrockBenchmark.BATCH_PUTS;
                case "multi-get" -> Picker.MULTI_GET_KEYS;
                case "scan" -> keys;
                default -> 1;
            };
        }

        boolean isCoreSweep() {
            return operation.equals("get") && keyBytes == Keys.MIN_KEY_BYTES && order.equals("random")
                    && location.equals("sst") && threads == 1 && defaultOptions()
                    && keys == Grid.keyCount(Comparison.CORE_KEYS, valueBytes, location);
        }
    }

    /** The ratios of one scenario. */
    record Ratios(Scenario scenario, double ffmBest, double jniBest, double rocksJavaBest, double nativeOps,
            Map<String, Double> ffmOverRocksJavaByMode) {
        double ffmOverRocksJava() {
            return ffmBest / rocksJavaBest;
        }

        double ffmOverJni() {
            return ffmBest / jniBest;
        }

        double javaOverNative() {
            return ffmBest / nativeOps;
        }

        /** Java time per operation over native time per operation: 1.03 means 3% slower. */
        double javaTimeOverNative() {
            return nativeOps / ffmBest;
        }

        /** Java time per operation minus native time per operation, per thread. */
        double boundaryNanos() {
            return scenario.threads() * 1e9 / ffmBest - scenario.threads() * 1e9 / nativeOps;
        }
    }

    /**
     * pinrock's gets in one scenario measured with memory-first reads on and
     * off: FFM / JNI with them on, FFM / JNI with them off, and each
     * binding's gain (its throughput with them on over off: above 1 when
     * they gain). Each figure is the binding's best over the modes both
     * bindings run (the JNI variant's, which FFM runs too), so that FFM and
     * JNI compare on the same modes and, with each setting, on the same read
     * algorithm.
     */
    record MemoryFirstRatios(Scenario scenario, double ffmOverJniOn, double ffmOverJniOff, double ffmGain,
            double jniGain) {
        static MemoryFirstRatios of(Scenario scenario, double ffmOn, double jniOn, double ffmOff, double jniOff) {
            return new MemoryFirstRatios(scenario, ffmOn / jniOn, ffmOff / jniOff, ffmOn / ffmOff, jniOn / jniOff);
        }
    }

    /** One performance target checked against this run: what it asks, what was measured, whether it is met. */
    record Verdict(String target, String goal, String measured, boolean met) {
    }

    /** What the caller prints. */
    public record Summary(List<Ratios> ratios, List<MemoryFirstRatios> memoryFirst, String ratioTable) {
    }

    private Report() {
    }

    public static void main(String[] args) throws IOException {
        String command = "(recomputed from recorded JMH JSON)";
        ZonedDateTime date = ZonedDateTime.now();
        int first = 0;
        while (first < args.length && args[first].startsWith("--")) {
            switch (args[first]) {
                case "--command" -> command = args[first + 1];
                case "--date" -> date = ZonedDateTime.parse(args[first + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[first]);
            }
            first += 2;
        }
        if (args.length - first < 3) {
            System.err.println("usage: Report [--command TEXT] [--date ISO] OUT_DIR FLOOR_CSV JMH_JSON...");
            System.exit(2);
        }
        List<Row> floor = Files.readAllLines(Path.of(args[first + 1])).stream().skip(1).map(Row::parseCsv).toList();
        List<Path> jmh = Stream.of(args).skip(first + 2).map(Path::of).toList();
        System.out.println(write(jmh, floor, Path.of(args[first]), command, date).ratioTable());
    }

    /**
     * Writes the report.
     *
     * @param jmhResults JMH JSON result files
     * @param floorRows the native floor's figures
     * @param dir where RESULTS.md, results.csv, floor.csv and chart.png go
     * @param command the command that produced the figures
     * @param measured when the figures were measured
     * @return the ratios, also as a plain-text table
     */
    public static Summary write(List<Path> jmhResults, List<Row> floorRows, Path dir, String command,
            ZonedDateTime measured) {
        List<Row> rows = new ArrayList<>();
        jmhResults.forEach(file -> rows.addAll(readJmh(file)));
        rows.addAll(floorRows);
        List<Ratios> ratios = ratios(rows);
        List<MemoryFirstRatios> memoryFirst = memoryFirstRatios(rows);
        try {
            Files.createDirectories(dir);
            Files.write(dir.resolve("results.csv"), Stream.concat(Stream.of(CSV_HEADER), rows.stream().map(Row::csv))
                    .toList());
            Files.write(dir.resolve("floor.csv"), Stream.concat(Stream.of(CSV_HEADER),
                    floorRows.stream().map(Row::csv)).toList());
            Files.writeString(dir.resolve("RESULTS.md"), markdown(rows, ratios, targets(rows, ratios), memoryFirst,
                    command, measured));
            ImageIO.write(chart(withDefaultReads(rows), ratios), "png", dir.resolve("chart.png").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Summary(ratios, memoryFirst, plainTable(ratios, memoryFirst));
    }

    /** Reads the rows of one JMH JSON result file. */
    static List<Row> readJmh(Path file) {
        List<Row> rows = new ArrayList<>();
        try {
            for (JsonElement element : JsonParser.parseString(Files.readString(file)).getAsJsonArray()) {
                JsonObject result = element.getAsJsonObject();
                String benchmark = result.get("benchmark").getAsString();
                String className = benchmark.substring(0, benchmark.lastIndexOf('.'));
                String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
                JsonObject params = result.getAsJsonObject("params");
                String binding = className.endsWith("RocksJavaBenchmark") ? "rocksjava"
                        : "pinrock-" + params.get("binding").getAsString();
                String[] operationAndMode = operationAndMode(method);
                JsonObject primary = result.getAsJsonObject("primaryMetric");
                int valueBytes = params.get("valueBytes").getAsInt();
                String location = params.get("location").getAsString();
                Scenario scenario = new Scenario(operationAndMode[0], valueBytes, params.get("keyBytes").getAsInt(),
                        Grid.keyCount(params.get("keys").getAsInt(), valueBytes, location),
                        params.get("order").getAsString(), location, result.get("threads").getAsInt(),
                        params.has("blockCacheBytes") ? params.get("blockCacheBytes").getAsLong()
                                : Datasets.BLOCK_CACHE_BYTES,
                        params.has("compression") ? params.get("compression").getAsString() : DEFAULT_COMPRESSION,
                        params.has("values") ? params.get("values").getAsString() : DEFAULT_VALUES);
                String memoryFirst = !params.has("memoryFirst") ? ""
                        : params.get("memoryFirst").getAsBoolean() ? MEMORY_FIRST_ON : MEMORY_FIRST_OFF;
                rows.add(new Row(scenario, binding, operationAndMode[1], memoryFirst,
                        primary.get("score").getAsDouble(), number(primary.get("scoreError")),
                        allocatedBytesPerOp(result)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    /** @return the operation and access mode a benchmark method measures, as results.csv names them */
    static String[] operationAndMode(String method) {
        return switch (method) {
            case "getNewArray" -> new String[] {"get", "new-array"};
            case "getIntoArray" -> new String[] {"get", "into-array"};
            case "getDirectBuffer" -> new String[] {"get", "direct-buffer"};
            case "getPinned" -> new String[] {"get", "pinned"};
            case "getToFilePinned" -> new String[] {"get-to-file", "pinned"};
            case "getToFileDirectBuffer" -> new String[] {"get-to-file", "direct-buffer"};
            case "getAbsent" -> new String[] {"get-absent", "into-array"};
            case "put" -> new String[] {"put", "array"};
            case "putWithoutLog" -> new String[] {"put-without-log", "array"};
            case "delete" -> new String[] {"delete", "array"};
            case "batchPut" -> new String[] {"batch-put", "array"};
            case "multiGet" -> new String[] {"multi-get", "new-array"};
            case "multiGetPinned" -> new String[] {"multi-get", "pinned"};
            case "multiGetFamilies" -> new String[] {"multi-get-families", "new-array"};
            case "scanBatchSteps" -> new String[] {"scan", "batch-offsets"};
            case "scanBatched" -> new String[] {"scan", "batched-views"};
            case "scanViews" -> new String[] {"scan", "views"};
            case "scanReader" -> new String[] {"scan", "reader-views"};
            case "scanArrays" -> new String[] {"scan", "new-array"};
            case "scanDirectBuffer" -> new String[] {"scan", "direct-buffer"};
            case "scanIntoArrays" -> new String[] {"scan", "into-array"};
            default -> throw new IllegalArgumentException("unknown benchmark method " + method);
        };
    }

    private static double allocatedBytesPerOp(JsonObject result) {
        JsonObject secondary = result.getAsJsonObject("secondaryMetrics");
        if (secondary == null) {
            return Double.NaN;
        }
        for (String name : new String[] {"gc.alloc.rate.norm", "\u00b7gc.alloc.rate.norm"}) {
            if (secondary.has(name)) {
                return secondary.getAsJsonObject(name).get("score").getAsDouble();
            }
        }
        return Double.NaN;
    }

    private static double number(JsonElement element) {
        return element == null || element.isJsonNull() || element.getAsString().equals("NaN")
                ? Double.NaN : element.getAsDouble();
    }

    /**
     * The rows of pinrock's default read algorithm and of the other
     * bindings: what the ratios, the targets and the chart compare. The rows
     * with memory-first reads off are compared only with each other and with
     * their "on" counterparts ({@link #memoryFirstRatios}).
     */
    static List<Row> withDefaultReads(List<Row> rows) {
        return rows.stream().filter(row -> !row.memoryFirstOff()).toList();
    }

    private static Map<Scenario, List<Row>> byScenario(List<Row> rows) {
        return rows.stream().collect(Collectors.groupingBy(Row::scenario, LinkedHashMap::new, Collectors.toList()));
    }

    static List<Ratios> ratios(List<Row> rows) {
        Map<Scenario, List<Row>> byScenario = byScenario(withDefaultReads(rows));
        List<Ratios> ratios = new ArrayList<>();
        byScenario.forEach((scenario, scenarioRows) -> {
            Map<String, Double> ffmOverRocksJava = new LinkedHashMap<>();
            for (Row ffm : scenarioRows) {
                if (ffm.binding().equals("pinrock-ffm")) {
                    find(scenarioRows, "rocksjava", ffm.mode()).ifPresent(
                            rj -> ffmOverRocksJava.put(ffm.mode(), ffm.opsPerSecond() / rj.opsPerSecond()));
                }
            }
            ratios.add(new Ratios(scenario, best(scenarioRows, "pinrock-ffm"), best(scenarioRows, "pinrock-jni"),
                    best(scenarioRows, "rocksjava"), best(scenarioRows, "native"), ffmOverRocksJava));
        });
        return ratios;
    }

    /** The scenarios in which pinrock ran with memory-first reads off, in the order of the rows. */
    static List<MemoryFirstRatios> memoryFirstRatios(List<Row> rows) {
        List<MemoryFirstRatios> ratios = new ArrayList<>();
        byScenario(rows).forEach((scenario, scenarioRows) -> {
            if (scenarioRows.stream().noneMatch(Row::memoryFirstOff)) {
                return;
            }
            Set<String> shared = scenarioRows.stream().filter(r -> r.binding().equals("pinrock-jni"))
                    .map(Row::mode).collect(Collectors.toSet());
            ratios.add(MemoryFirstRatios.of(scenario, best(scenarioRows, "pinrock-ffm", MEMORY_FIRST_ON, shared),
                    best(scenarioRows, "pinrock-jni", MEMORY_FIRST_ON, shared),
                    best(scenarioRows, "pinrock-ffm", MEMORY_FIRST_OFF, shared),
                    best(scenarioRows, "pinrock-jni", MEMORY_FIRST_OFF, shared)));
        });
        return ratios;
    }

    /** The binding's fastest figure with the memory-first setting among the given modes. */
    private static double best(List<Row> rows, String binding, String memoryFirst, Set<String> modes) {
        return best(rows.stream().filter(r -> r.memoryFirst().equals(memoryFirst) && modes.contains(r.mode()))
                .toList(), binding);
    }

    private static Optional<Row> find(List<Row> rows, String binding, String mode) {
        return rows.stream().filter(r -> r.binding().equals(binding) && r.mode().equals(mode)).findFirst();
    }

    private static double best(List<Row> rows, String binding) {
        return bestRow(rows, binding).map(Row::opsPerSecond).orElse(Double.NaN);
    }

    /** The binding's fastest mode among rows. */
    private static Optional<Row> bestRow(List<Row> rows, String binding) {
        return rows.stream().filter(r -> r.binding().equals(binding))
                .max(Comparator.comparingDouble(Row::opsPerSecond));
    }

    private static String plainTable(List<Ratios> ratios, List<MemoryFirstRatios> memoryFirst) {
        String heading = "scenario (best mode of each binding)";
        int width = Stream.concat(Stream.of(heading), ratios.stream().map(r -> r.scenario().label()))
                .mapToInt(String::length).max().orElseThrow();
        String line = "%-" + width + "s %9s %9s %17s %12s%n";
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, line,
                heading, "FFM/RJ", "FFM/JNI", "Java/native ops/s", "boundary ns"));
        for (Ratios r : ratios) {
            out.append(String.format(Locale.ROOT, line, r.scenario().label(),
                    ratio(r.ffmOverRocksJava()), ratio(r.ffmOverJni()), ratio(r.javaOverNative()),
                    format(r.boundaryNanos())));
        }
        if (!memoryFirst.isEmpty()) {
            String mfHeading = "memory-first reads (best of the modes both bindings run)";
            int mfWidth = Stream.concat(Stream.of(mfHeading), memoryFirst.stream().map(r -> r.scenario().label()))
                    .mapToInt(String::length).max().orElseThrow();
            String mfLine = "%-" + mfWidth + "s %14s %15s %10s %10s%n";
            out.append(String.format(Locale.ROOT, "%n" + mfLine, mfHeading, "FFM/JNI on", "FFM/JNI off",
                    "FFM on/off", "JNI on/off"));
            for (MemoryFirstRatios r : memoryFirst) {
                out.append(String.format(Locale.ROOT, mfLine, r.scenario().label(), ratio(r.ffmOverJniOn()),
                        ratio(r.ffmOverJniOff()), ratio(r.ffmGain()), ratio(r.jniGain())));
            }
        }
        return out.toString();
    }

    /** Allocation the GC profiler reports for a zero-allocation path, per entry: below this counts as none. */
    static final double NO_ALLOCATION_BYTES = 1.0;

    /**
     * Checks the performance targets (docs/benchmarking.md lists them)
     * against one run. A target whose scenario the run did not measure (the
     * quick grid) is left out.
     */
    static List<Verdict> targets(List<Row> allRows, List<Ratios> ratios) {
        List<Row> rows = withDefaultReads(allRows);
        List<Verdict> verdicts = new ArrayList<>();
        int coreKeys = Comparison.CORE_KEYS;
        scenario(ratios, "get", 100, coreKeys, "random", "sst", 1).ifPresent(r -> {
            verdicts.add(atLeast(r, "FFM / RocksJava, best calls", r.ffmOverRocksJava(), 1.0));
            verdicts.add(atMost(r, "Java time / native time", r.javaTimeOverNative(), 1.03));
        });
        scenario(ratios, "get", 100, Comparison.HOT_KEYS, "random", "memtable", 1).ifPresent(r -> {
            verdicts.add(atLeast(r, "FFM / RocksJava, best calls", r.ffmOverRocksJava(), 1.5));
            verdicts.add(atMost(r, "Java time / native time", r.javaTimeOverNative(), 1.15));
        });
        scenario(ratios, "get-to-file", 65536, coreKeys, "random", "sst", 1).ifPresent(r -> {
            List<Row> scenarioRows = rowsOf(rows, r.scenario());
            double pinned = find(scenarioRows, "pinrock-ffm", "pinned").map(Row::opsPerSecond).orElse(Double.NaN);
            verdicts.add(atLeast(r, "FFM pinned / RocksJava into a direct buffer",
                    pinned / r.rocksJavaBest(), 1.5));
            verdicts.add(atMost(r, "Java time / native time", r.nativeOps() / pinned, 1.05));
        });
        scenario(ratios, "batch-put", 100, coreKeys, "random", "memtable", 1).ifPresent(r -> {
            verdicts.add(atLeast(r, "FFM / RocksJava", r.ffmOverRocksJava(), 1.0));
            verdicts.add(atMost(r, "Java time / native time", r.javaTimeOverNative(), 1.05));
        });
        scenario(ratios, "scan", 100, coreKeys, "sequential", "sst", 1).ifPresent(r -> {
            List<Row> scenarioRows = rowsOf(rows, r.scenario());
            double allocating = find(scenarioRows, "rocksjava", "new-array").map(Row::opsPerSecond)
                    .orElse(Double.NaN);
            verdicts.add(atLeast(r, "FFM / RocksJava's fastest iterator call", r.ffmOverRocksJava(), 1.3));
            verdicts.add(atLeast(r, "FFM / RocksJava key()/value()", r.ffmBest() / allocating, 1.8));
            verdicts.add(atMost(r, "Java time / native time", r.javaTimeOverNative(), 1.10));
        });
        scenario(ratios, "multi-get", 100, coreKeys, "random", "sst", 1).ifPresent(r -> {
            verdicts.add(atLeast(r, "FFM / RocksJava multiGetAsList", r.ffmOverRocksJava(), 1.15));
            verdicts.add(atMost(r, "Java time / native time", r.javaTimeOverNative(), 1.05));
        });
        scenario(ratios, "multi-get-families", 100, Comparison.HOT_KEYS, "random", "memtable", 1).ifPresent(r ->
                verdicts.add(atLeast(r, "FFM / RocksJava multiGetAsList across 2 families", r.ffmOverRocksJava(),
                        1.15)));
        for (Ratios r : ratios) {
            if (!Double.isNaN(r.ffmOverJni())) {
                verdicts.add(ffmNotBelowJni(r, rowsOf(rows, r.scenario())));
            }
        }
        for (Row row : rows) {
            boolean zeroCopyGet = row.scenario().operation().equals("get")
                    && List.of("into-array", "direct-buffer", "pinned").contains(row.mode());
            boolean cursorScan = row.scenario().operation().equals("scan")
                    && List.of("batch-offsets", "batched-views", "reader-views").contains(row.mode());
            if (row.binding().equals("pinrock-ffm") && (zeroCopyGet || cursorScan)) {
                double perEntry = row.bytesPerOp() / row.scenario().entriesPerOperation();
                verdicts.add(new Verdict(row.scenario().label() + ", " + row.mode(),
                        "allocates nothing (GC profiler, bytes per entry < " + format(NO_ALLOCATION_BYTES) + ")",
                        String.format(Locale.ROOT, "%.2f B per entry", perEntry), perEntry < NO_ALLOCATION_BYTES));
            }
        }
        for (Ratios two : ratios) {
            Scenario twoThreads = two.scenario();
            if (twoThreads.operation().equals("get") && twoThreads.threads() == 2) {
                ratiosOf(ratios, twoThreads.withThreads(1)).ifPresent(one -> {
                    double ffm = two.ffmBest() / one.ffmBest();
                    double rocksJava = two.rocksJavaBest() / one.rocksJavaBest();
                    verdicts.add(new Verdict(twoThreads.label(), "FFM 2-thread / 1-thread throughput >= 1.80 "
                            + "and >= RocksJava's", String.format(Locale.ROOT, "%.2f (RocksJava %.2f)", ffm,
                                    rocksJava), ffm >= 1.8 && ffm >= rocksJava));
                });
            }
        }
        return verdicts;
    }

    private static Optional<Ratios> scenario(List<Ratios> ratios, String operation, int valueBytes, int keys,
            String order, String location, int threads) {
        return ratiosOf(ratios, new Scenario(operation, valueBytes, Keys.MIN_KEY_BYTES,
                Grid.keyCount(keys, valueBytes, location), order, location, threads));
    }

    private static Optional<Ratios> ratiosOf(List<Ratios> ratios, Scenario scenario) {
        return ratios.stream().filter(r -> r.scenario().equals(scenario)).findFirst();
    }

    private static List<Row> rowsOf(List<Row> rows, Scenario scenario) {
        return rows.stream().filter(row -> row.scenario().equals(scenario)).toList();
    }

    /**
     * FFM >= the JNI variant, best modes. When FFM falls short, the measured
     * figure says whether the two intervals of JMH's 99.9 % error overlap:
     * then this run cannot tell the two apart, though the target still
     * counts as not met.
     */
    private static Verdict ffmNotBelowJni(Ratios r, List<Row> scenarioRows) {
        Verdict verdict = atLeast(r, "FFM / JNI variant, best modes", r.ffmOverJni(), 1.0);
        // Both bindings have rows here: the ratio is a number.
        Row ffm = bestRow(scenarioRows, "pinrock-ffm").orElseThrow();
        Row jni = bestRow(scenarioRows, "pinrock-jni").orElseThrow();
        if (verdict.met() || Double.isNaN(ffm.error()) || Double.isNaN(jni.error())) {
            return verdict;
        }
        boolean overlap = ffm.opsPerSecond() + ffm.error() >= jni.opsPerSecond() - jni.error();
        String measured = String.format(Locale.ROOT, "%s (FFM %s ± %s, JNI %s ± %s: %s)", verdict.measured(),
                throughput(ffm.opsPerSecond()), throughput(ffm.error()), throughput(jni.opsPerSecond()),
                throughput(jni.error()), overlap ? "within the 99.9 % errors" : "apart beyond the 99.9 % errors");
        return new Verdict(verdict.target(), verdict.goal(), measured, false);
    }

    private static Verdict atLeast(Ratios r, String what, double measured, double goal) {
        return new Verdict(r.scenario().label(), what + " >= " + ratio(goal), ratio(measured), measured >= goal);
    }

    private static Verdict atMost(Ratios r, String what, double measured, double goal) {
        return new Verdict(r.scenario().label(), what + " <= " + ratio(goal), ratio(measured), measured <= goal);
    }

    private static String markdown(List<Row> rows, List<Ratios> ratios, List<Verdict> verdicts,
            List<MemoryFirstRatios> memoryFirst, String command, ZonedDateTime measured) {
        StringBuilder md = new StringBuilder();
        md.append("# pinrock benchmark results\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| command | `").append(command).append("` |\n");
        md.append("| date | ").append(measured.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append(" |\n");
        md.append("| machine | ").append(machine()).append(" |\n");
        md.append("| JDK | ").append(System.getProperty("java.vm.vendor")).append(' ')
                .append(Runtime.version()).append(" |\n");
        md.append("| RocksDB | pinrock engine ").append(RocksDb.engineVersion())
                .append("; RocksJava org.rocksdb:rocksdbjni:").append(rocksJavaVersion()).append(" |\n");
        md.append("| options | no compression, ").append(size(Datasets.BLOCK_CACHE_BYTES))
                .append(" block cache (every dataset fits), ").append(size(Datasets.WRITE_BUFFER_BYTES))
                .append(" memtable (none fills during a trial), paranoid checks, all files open, except where a ")
                .append("scenario names its own block cache or compression, or is `flushing` (")
                .append(size(Datasets.FLUSHING_WRITE_BUFFER_BYTES))
                .append(" memtables, flushed and compacted during the trial); identical for every binding and ")
                .append("the native floor |\n\n");
        md.append("Throughput in one run on one machine; compare ratios, not absolute numbers (these 2-core ")
                .append("machines are noisy). Every read consumes the value (a checksum over every byte). ")
                .append("Datasets hold at most 256 MiB of values, so the key count shrinks for large values. ")
                .append("`FFM/RJ` compares each binding's best access mode; `Java/native ops/s` is Java ")
                .append("throughput over native C++ throughput (the targets' Java time / native time is its ")
                .append("inverse); `boundary ns` is Java time per ")
                .append("operation minus native C++ time per operation (per thread). pinrock reads with its ")
                .append("default, memory-first reads on, in both bindings; where it also ran with them off, ")
                .append("those figures are compared in their own section.\n\n");
        md.append("![relative throughput](chart.png)\n\n");
        md.append("## Ratios\n\n");
        md.append("| scenario | FFM/RocksJava | FFM/JNI | Java/native ops/s | boundary ns | FFM/RocksJava by mode |\n");
        md.append("|---|---|---|---|---|---|\n");
        for (Ratios r : ratios) {
            String byMode = r.ffmOverRocksJavaByMode().entrySet().stream()
                    .map(e -> e.getKey() + " " + ratio(e.getValue())).collect(Collectors.joining(", "));
            md.append("| ").append(r.scenario().label()).append(" | ").append(ratio(r.ffmOverRocksJava()))
                    .append(" | ").append(ratio(r.ffmOverJni())).append(" | ").append(ratio(r.javaOverNative()))
                    .append(" | ").append(format(r.boundaryNanos())).append(" | ").append(byMode).append(" |\n");
        }
        if (!verdicts.isEmpty()) {
            md.append("\n## Targets\n\n");
            md.append(verdicts.stream().filter(Verdict::met).count()).append(" of ").append(verdicts.size())
                    .append(" met in this run. [benchmarking.md](../benchmarking.md#targets) says where each ")
                    .append("target comes from, and where the time of the unmet ones goes.\n\n");
            md.append("| scenario | target | measured | met |\n|---|---|---|---|\n");
            for (Verdict v : verdicts) {
                md.append("| ").append(v.target()).append(" | ").append(v.goal()).append(" | ")
                        .append(v.measured()).append(" | ").append(v.met() ? "yes" : "**no**").append(" |\n");
            }
        }
        if (!memoryFirst.isEmpty()) {
            md.append("\n## Memory-first reads\n\n");
            md.append("pinrock's gets with `DbOptions.memoryFirstReads` on (the default: a get first tries a ")
                    .append("read from memory only, under the adaptive policy) and off (one normal read). Both ")
                    .append("bindings follow the same policy, so each FFM/JNI column compares FFM and JNI on the ")
                    .append("same algorithm; `on/off` is what memory first gains a binding (above 1.00: faster ")
                    .append("with it). Each figure is the binding's best of the modes both bindings run (")
                    .append("new-array, into-array, direct-buffer); every figure, with its setting, is in the ")
                    .append("throughput table.\n\n");
            md.append("| scenario | FFM/JNI, memory-first on | FFM/JNI, memory-first off | FFM on/off | JNI on/off |\n")
                    .append("|---|---|---|---|---|\n");
            for (MemoryFirstRatios r : memoryFirst) {
                md.append("| ").append(r.scenario().label()).append(" | ").append(ratio(r.ffmOverJniOn()))
                        .append(" | ").append(ratio(r.ffmOverJniOff())).append(" | ").append(ratio(r.ffmGain()))
                        .append(" | ").append(ratio(r.jniGain())).append(" |\n");
            }
        }
        md.append("\n## Throughput (ops/s) and allocation (bytes/op, GC profiler)\n\n");
        md.append("`entries/s` is ops/s times the entries one operation handles: 1 for get, get-absent, put ")
                .append("and delete, ").append(PinrockBenchmark.BATCH_PUTS).append(" for a batch put, ")
                .append(Picker.MULTI_GET_KEYS).append(" for a multiGet, every key of the dataset for a scan. ")
                .append("`± error` is JMH's 99.9 % error; the native floor's is half the difference of its two ")
                .append("runs, just before and just after FFM's. `memory-first` is pinrock's setting.\n\n");
        md.append("| scenario | binding | mode | memory-first | ops/s | ± error | entries/s | bytes/op |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            md.append("| ").append(row.scenario().label()).append(" | ").append(row.binding()).append(" | ")
                    .append(row.mode()).append(" | ").append(row.memoryFirst()).append(" | ")
                    .append(throughput(row.opsPerSecond()))
                    .append(" | ").append(Double.isNaN(row.error()) ? "" : throughput(row.error()))
                    .append(" | ").append(throughput(row.opsPerSecond() * row.scenario().entriesPerOperation()))
                    .append(" | ").append(Double.isNaN(row.bytesPerOp()) ? "" : String.format(Locale.ROOT, "%.1f",
                            row.bytesPerOp()))
                    .append(" |\n");
        }
        md.append("\nAll figures: [results.csv](results.csv) (native floor alone: [floor.csv](floor.csv)).\n");
        return md.toString();
    }

    static String machine() {
        String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name").orElse("unknown CPU");
        String memory = firstValue(Path.of("/proc/meminfo"), "MemTotal")
                .map(kb -> Math.round(Long.parseLong(kb.replace("kB", "").strip()) / 1048576.0) + " GiB RAM")
                .orElse("unknown RAM");
        return String.format(Locale.ROOT, "%s, %d cores, %s, %s %s", cpu, Runtime.getRuntime().availableProcessors(),
                memory, System.getProperty("os.name"), System.getProperty("os.version"));
    }

    /** The value of the first "name : value" line of a /proc file. */
    private static Optional<String> firstValue(Path file, String name) {
        try {
            return Files.readAllLines(file).stream().filter(l -> l.startsWith(name))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static String rocksJavaVersion() {
        org.rocksdb.RocksDB.loadLibrary();
        return org.rocksdb.RocksDB.rocksdbVersion().toString();
    }

    /** Bars of throughput relative to RocksJava's best call, for the core sweep. */
    private static BufferedImage chart(List<Row> rows, List<Ratios> ratios) {
        List<Ratios> sweep = ratios.stream().filter(r -> r.scenario().isCoreSweep()).toList();
        String[] series = {"pinrock FFM, best mode", "pinrock FFM, pinned", "pinrock JNI, best mode",
            "RocksJava, best call", "native C++"};
        Color[] colors = {new Color(0x1f77b4), new Color(0x17becf), new Color(0xff7f0e), new Color(0x7f7f7f),
            new Color(0x2ca02c)};
        int width = 1100;
        int height = 560;
        int left = 80;
        int right = 260;
        int top = 60;
        int bottom = 70;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString("get throughput relative to RocksJava's best call (1.0), random keys from the block cache",
                left, 30);
        double[][] values = new double[sweep.size()][];
        double max = 1.0;
        for (int i = 0; i < sweep.size(); i++) {
            Ratios r = sweep.get(i);
            List<Row> scenarioRows = rows.stream().filter(row -> row.scenario().equals(r.scenario())).toList();
            double pinned = find(scenarioRows, "pinrock-ffm", "pinned").map(Row::opsPerSecond).orElse(Double.NaN);
            values[i] = new double[] {r.ffmBest(), pinned, r.jniBest(), r.rocksJavaBest(), r.nativeOps()};
            for (int s = 0; s < values[i].length; s++) {
                values[i][s] /= r.rocksJavaBest();
                if (!Double.isNaN(values[i][s])) {
                    max = Math.max(max, values[i][s]);
                }
            }
        }
        double scaleMax = Math.ceil(max * 4) / 4;
        int plotWidth = width - left - right;
        int plotHeight = height - top - bottom;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setStroke(new BasicStroke(1));
        for (double tick = 0; tick <= scaleMax + 1e-9; tick += 0.25) {
            int y = top + plotHeight - (int) (tick / scaleMax * plotHeight);
            g.setColor(tick == 1.0 ? Color.DARK_GRAY : new Color(0xdddddd));
            g.drawLine(left, y, left + plotWidth, y);
            g.setColor(Color.BLACK);
            g.drawString(String.format(Locale.ROOT, "%.2f", tick), left - 40, y + 4);
        }
        int groups = Math.max(1, sweep.size());
        int groupWidth = plotWidth / groups;
        int barWidth = Math.max(4, (groupWidth - 30) / series.length);
        for (int i = 0; i < sweep.size(); i++) {
            int x0 = left + i * groupWidth + 15;
            for (int s = 0; s < series.length; s++) {
                double v = values[i][s];
                if (Double.isNaN(v)) {
                    continue;
                }
                int barHeight = (int) (v / scaleMax * plotHeight);
                g.setColor(colors[s]);
                g.fillRect(x0 + s * barWidth, top + plotHeight - barHeight, barWidth - 2, barHeight);
            }
            g.setColor(Color.BLACK);
            g.drawString(size(sweep.get(i).scenario().valueBytes()) + " values", x0, top + plotHeight + 20);
            g.drawString(String.format(Locale.ROOT, "%,d keys", sweep.get(i).scenario().keys()), x0,
                    top + plotHeight + 36);
        }
        for (int s = 0; s < series.length; s++) {
            int y = top + 20 + s * 24;
            g.setColor(colors[s]);
            g.fillRect(width - right + 20, y - 12, 16, 16);
            g.setColor(Color.BLACK);
            g.drawString(series[s], width - right + 44, y + 1);
        }
        g.dispose();
        return image;
    }

    /** A size in the largest unit that divides it whole: "100 B", "64 KiB", "512 MiB", "2 GiB". */
    static String size(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB"};
        int unit = 0;
        long amount = bytes;
        while (unit < units.length - 1 && amount >= 1024 && amount % 1024 == 0) {
            amount /= 1024;
            unit++;
        }
        return amount + " " + units[unit];
    }

    /** Whole numbers with separators, but three significant digits below 100 (whole scans per second). */
    private static String throughput(double value) {
        return String.format(Locale.ROOT, Math.abs(value) < 100 ? "%.3g" : "%,.0f", value);
    }

    private static String ratio(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String format(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.1f", value);
    }

    /**
     * A CSV figure: one decimal, but four significant digits below 100, so
     * that the ratios of a few scans or batches per second can be recomputed.
     */
    static String csvFigure(double value) {
        if (Double.isNaN(value)) {
            return "";
        }
        if (value == 0 || Math.abs(value) >= 100) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        String digits = new BigDecimal(value).round(new MathContext(4)).stripTrailingZeros().toPlainString();
        return digits.contains(".") ? digits : digits + ".0";
    }

    private static double parse(String field) {
        return field.isEmpty() ? Double.NaN : Double.parseDouble(field);
    }
}
