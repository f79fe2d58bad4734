package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Every trial of {@link TuningBenchmark} reads the same database: the same
 * absent keys are absent and the same prefixes scan to the same entries,
 * on both libraries, with and without the filter (its setup also checks one
 * present key, one absent key and one prefix's count).
 */
class TuningBenchmarkAgreeTest {

    private static List<Long> run(String library, String filter) {
        TuningBenchmark benchmark = new TuningBenchmark();
        benchmark.library = library;
        benchmark.filter = filter;
        benchmark.setUp();
        try {
            List<Long> answers = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                answers.add((long) benchmark.getAbsent());
                answers.add(benchmark.prefixScan());
            }
            return answers;
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void bothLibrariesWithAndWithoutTheFilterReadTheSame() {
        List<Long> expected = run("rocksjava", "none");
        for (int i = 0; i < expected.size(); i += 2) {
            assertTrue(expected.get(i) < 0, "an absent key was found");
            assertNotEquals(0L, expected.get(i + 1), "a prefix scanned to nothing");
        }
        assertEquals(expected, run("rocksjava", "bloom"));
        List<Long> pinrock = run("pinrock", "bloom");
        // pinrock answers NOT_FOUND, RocksJava RocksDB.NOT_FOUND: both negative, compared as such.
        for (int i = 0; i < expected.size(); i += 2) {
            assertTrue(pinrock.get(i) < 0, "pinrock found an absent key");
            pinrock.set(i, expected.get(i));
        }
        assertEquals(expected, pinrock);
        List<Long> pinrockWithoutFilter = run("pinrock", "none");
        for (int i = 0; i < expected.size(); i += 2) {
            pinrockWithoutFilter.set(i, pinrockWithoutFilter.get(i) < 0 ? expected.get(i) : 0L);
        }
        assertEquals(expected, pinrockWithoutFilter);
    }
}
