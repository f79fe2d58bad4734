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
        assertEquals(String.valueOf(Datasets.BLOCK_CACHE_BYTES),
                Grid.class.getField("blockCacheBytes").getAnnotation(org.openjdk.jmh.annotations.Param.class).value()[0]);
    }

    @Test
    void theCacheSmallerThanTheDataIsReadInZipfianOrderByTwoThreadsInBothGrids() {
        Comparison.Point point = Comparison.largerThanCache();
        assertEquals(Map.of("keyBytes", "16", "valueBytes", "1024", "keys", "200000", "order", "zipfian",
                "location", "sst", "blockCacheBytes", String.valueOf(64L << 20)), point.params());
        assertEquals(200_000, point.keyCount());
        assertTrue((long) point.keyCount() * point.valueBytes() > 3 * point.blockCacheBytes());
        assertEquals(2, point.threads());
        for (String binding : List.of("ffm", "jni", "rocksjava")) {
            assertEquals("getNewArray|getIntoArray|getDirectBuffer", point.methods(binding), binding);
        }
        assertTrue(Comparison.quickGrid().contains(point));
        assertTrue(Comparison.fullGrid().contains(point.alsoWithoutMemoryFirst()));
        assertEquals("get 1 KiB, 16 B keys, 200,000 keys, zipfian, sst, 64 MiB block cache, 2 threads",
                point.scenario().label());
    }

    @Test
    void theBulkOperationsAreInTheFullGridOnly() {
        Set<String> bulk = Set.of("batch-put", "multi-get", "scan");
        Set<String> full = Comparison.fullGrid().stream().map(Comparison.Point::operation).collect(Collectors.toSet());
        assertTrue(full.containsAll(bulk), full.toString());
        assertTrue(Comparison.quickGrid().stream().map(Comparison.Point::operation).noneMatch(bulk::contains));
    }
}
