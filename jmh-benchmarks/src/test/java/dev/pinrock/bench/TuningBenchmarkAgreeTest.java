package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every trial of {@link TuningBenchmark} reads the same database: the same
 * absent keys are absent and the same prefixes scan to the same entries
 * (read either way),
 * on both libraries, with and without the filter, in both layouts (its setup
 * also checks one present key, one absent key, one prefix's count and the
 * number of level-0 files).
 */
class TuningBenchmarkAgreeTest {
    /** Answers per round: getAbsent, prefixScan, prefixScanFlat. */
    private static final int STEP = 3;

    private static List<Long> run(String library, String filter, String layout) {
        TuningBenchmark benchmark = new TuningBenchmark();
        benchmark.library = library;
        benchmark.filter = filter;
        benchmark.layout = layout;
        benchmark.setUp();
        try {
            List<Long> answers = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                answers.add((long) benchmark.getAbsent());
                answers.add(benchmark.prefixScan());
                answers.add(benchmark.prefixScanFlat());
            }
            return answers;
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"overlapping", "compacted"})
    void bothLibrariesWithAndWithoutTheFilterReadTheSame(String layout) {
        List<Long> expected = run("rocksjava", "none", layout);
        for (int i = 0; i < expected.size(); i += STEP) {
            assertTrue(expected.get(i) < 0, "an absent key was found");
            assertNotEquals(0L, expected.get(i + 1), "a prefix scanned to nothing");
            assertNotEquals(0L, expected.get(i + 2), "a prefix scanned to nothing, read flat");
        }
        assertEquals(expected, run("rocksjava", "bloom", layout));
        List<Long> pinrock = run("pinrock", "bloom", layout);
        // pinrock answers NOT_FOUND, RocksJava RocksDB.NOT_FOUND: both negative, compared as such.
        for (int i = 0; i < expected.size(); i += STEP) {
            assertTrue(pinrock.get(i) < 0, "pinrock found an absent key");
            pinrock.set(i, expected.get(i));
        }
        assertEquals(expected, pinrock);
        List<Long> pinrockWithoutFilter = run("pinrock", "none", layout);
        for (int i = 0; i < expected.size(); i += STEP) {
            pinrockWithoutFilter.set(i, pinrockWithoutFilter.get(i) < 0 ? expected.get(i) : 0L);
        }
        assertEquals(expected, pinrockWithoutFilter);
    }
}
