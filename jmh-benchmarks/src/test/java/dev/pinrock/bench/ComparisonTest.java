package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The grids, the report and the benchmark classes agree: a mismatch would
 * otherwise surface only when the runner reaches that point.
 */
class ComparisonTest {
    /** One benchmark method the runner measures at a grid point for a binding. */
    private record Measured(Comparison.Point point, String binding, Class<?> benchmarks, String method) {
        String where() {
            return point.name() + ", " + binding + ": " + benchmarks.getSimpleName() + "." + method;
        }
    }

    private static List<Measured> measured(List<Comparison.Point> grid) {
        List<Measured> measured = new ArrayList<>();
        for (Comparison.Point point : grid) {
            for (String binding : List.of("ffm", "jni", "rocksjava")) {
                for (String method : point.methods(binding).split("\\|")) {
                    measured.add(new Measured(point, binding, Comparison.benchmarkClass(binding), method));
                }
            }
        }
        return measured;
    }

    @Test
    void everyGridPointRunsBenchmarksThatTheReportFilesUnderItsOperation() {
        for (Measured m : measured(Stream.concat(Comparison.quickGrid().stream(), Comparison.fullGrid().stream())
                .toList())) {
            assertTrue(Stream.of(m.benchmarks().getMethods()).anyMatch(
                    method -> method.getName().equals(m.method()) && method.isAnnotationPresent(Benchmark.class)),
                    m.where());
            assertEquals(m.point().operation(), Report.operationAndMode(m.method())[0], m.where());
        }
    }

    @Test
    void theFullGridRunsEveryBenchmarkMethod() {
        Set<String> measured = measured(Comparison.fullGrid()).stream()
                .map(m -> m.benchmarks().getSimpleName() + "." + m.method()).collect(Collectors.toSet());
        for (Class<?> benchmarks : List.of(PinrockBenchmark.class, RocksJavaBenchmark.class)) {
            for (Method method : benchmarks.getMethods()) {
                String name = benchmarks.getSimpleName() + "." + method.getName();
                assertTrue(!method.isAnnotationPresent(Benchmark.class) || measured.contains(name),
                        name + " is in no point of the full grid");
            }
        }
    }

    @Test
    void recordedResultsNameNoDirectoryOfTheMachine() {
        String jmh = """
                "jvm" : "/opt/jdk-25/bin/java",
                "jvmArgs" : ["-Dpinrock.bench.data=/home/ci/.cache/pinrock/bench-data"],
                """;
        assertEquals("""
                "jvm" : "$JAVA_HOME/bin/java",
                "jvmArgs" : ["-Dpinrock.bench.data=~/.cache/pinrock/bench-data"],
                """, Comparison.withoutMachinePaths(jmh, "/opt/jdk-25", "/home/ci"));
    }

    @Test
    void theFloorFigureIsTheMeanOfItsRunsBeforeAndAfterFfmWithHalfTheirSpreadAsError() {
        Report.Row before = ReportTest.row("scan", "native", "pinned", 100, 16, 1_000_000, "sequential", "sst", 1,
                9.0, Double.NaN, Double.NaN);
        Report.Row after = ReportTest.row("scan", "native", "pinned", 100, 16, 1_000_000, "sequential", "sst", 1,
                10.0, Double.NaN, Double.NaN);
        Report.Row floor = Comparison.bracketed(before, after);
        assertEquals(9.5, floor.opsPerSecond());
        assertEquals(0.5, floor.error());
        assertEquals(before.scenario(), floor.scenario());
        assertEquals(floor, Comparison.bracketed(after, before));
    }

    @Test
    void theFullGridRunsPinrocksGetsWithMemoryFirstReadsOffTooAndTheQuickGridDoesNot() {
        for (Comparison.Point point : Comparison.fullGrid()) {
            assertEquals(point.operation().equals("get"), point.withoutMemoryFirst(), point.name());
        }
        assertTrue(Comparison.quickGrid().stream().noneMatch(Comparison.Point::withoutMemoryFirst));
    }

    @Test
    void everyPointSetsEveryGridParameterAndTheDefaultsAreTheDatasetOptions() throws Exception {
        Set<String> gridParams = Stream.of(Grid.class.getFields())
                .filter(f -> f.isAnnotationPresent(org.openjdk.jmh.annotations.Param.class)).map(Field::getName)
                .collect(Collectors.toSet());
        for (Comparison.Point point : Stream.concat(Comparison.quickGrid().stream(),
                Comparison.fullGrid().stream()).toList()) {
            assertEquals(gridParams, point.params().keySet(), point.name());
        }
        assertEquals(String.valueOf(Datasets.BLOCK_CACHE_BYTES), gridDefault("blockCacheBytes"));
        assertEquals(Report.DEFAULT_COMPRESSION, gridDefault("compression"));
        assertEquals(Report.DEFAULT_VALUES, gridDefault("values"));
    }

    private static String gridDefault(String param) throws NoSuchFieldException {
        return Grid.class.getField(param).getAnnotation(org.openjdk.jmh.annotations.Param.class).value()[0];
    }

    /** Checks a point: its parameters and threads, what every binding runs there, and its label in the report. */
    private static void assertPoint(Comparison.Point point, Map<String, String> params, int threads, String methods,
            String label) {
        assertEquals(params, point.params());
        assertEquals(threads, point.threads());
        for (String binding : List.of("ffm", "jni", "rocksjava")) {
            assertEquals(methods, point.methods(binding), binding);
        }
        assertEquals(label, point.scenario().label());
    }

    @Test
    void theCacheSmallerThanTheDataIsReadInZipfianOrderByTwoThreadsInBothGrids() {
        Comparison.Point point = Comparison.largerThanCache();
        assertPoint(point, Map.of("keyBytes", "16", "valueBytes", "1024", "keys", "200000", "order", "zipfian",
                "location", "sst", "blockCacheBytes", String.valueOf(64L << 20), "compression", "none",
                "values", "pattern"), 2, "getNewArray|getIntoArray|getDirectBuffer",
                "get 1 KiB, 16 B keys, 200,000 keys, zipfian, sst, 64 MiB block cache, 2 threads");
        assertEquals(200_000, point.keyCount());
        assertTrue((long) point.keyCount() * point.valueBytes() > 3 * point.blockCacheBytes());
        assertTrue(Comparison.quickGrid().contains(point));
        assertTrue(Comparison.fullGrid().contains(point.alsoWithoutMemoryFirst()));
    }

    @Test
    void theLoadOfRecordsIsInTheFullGridOnly() {
        Comparison.Point point = Comparison.load();
        assertPoint(point, Map.of("keyBytes", "16", "valueBytes", "1024", "keys", "1000000000", "order", "random",
                "location", "flushing", "blockCacheBytes", String.valueOf(64L << 20), "compression", "zstd",
                "values", "fields"), 1, "put", "put 1 KiB, 16 B keys, 1,000,000,000 keys, random, flushing, "
                        + "64 MiB block cache, zstd, 10 x 100 B fields");
        assertTrue(!point.reads());
        assertEquals(Comparison.LOAD_KEYS, point.keyCount());
        assertTrue(Comparison.fullGrid().contains(point));
        assertTrue(!Comparison.quickGrid().contains(point));
        assertEquals(64L << 20, Grid.writeBufferBytes("flushing"));
    }

    @Test
    void theBulkOperationsAreInTheFullGridOnly() {
        Set<String> bulk = Set.of("batch-put", "multi-get", "scan");
        Set<String> full = Comparison.fullGrid().stream().map(Comparison.Point::operation).collect(Collectors.toSet());
        assertTrue(full.containsAll(bulk), full.toString());
        assertTrue(Comparison.quickGrid().stream().map(Comparison.Point::operation).noneMatch(bulk::contains));
    }
}
