package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/**
 * Every trial of {@link CompactionFilterBenchmark} compacts the same data:
 * the filters, in Java on pinrock and RocksDB's built-in one on RocksJava,
 * remove exactly the empty values, and without one they stay.
 */
class CompactionFilterBenchmarkAgreeTest {
    /** Checks the library's data after the benchmark's compactions. */
    private static void check(String library, boolean filtered) {
        CompactionFilterBenchmark benchmark = new CompactionFilterBenchmark();
        benchmark.library = library;
        benchmark.setUp();
        try {
            benchmark.compactAll();
            CompactionFilterBenchmark.Compacting db = benchmark.compacting();
            byte[] value = new byte[CompactionFilterBenchmark.VALUE_BYTES];
            for (int i = 0; i < CompactionFilterBenchmark.ENTRIES; i += 997) {
                byte[] read = db.get(CompactionFilterBenchmark.key(i));
                if (i < CompactionFilterBenchmark.EMPTY) {
                    if (filtered) {
                        assertNull(read, library + " key " + i);
                    } else {
                        assertArrayEquals(new byte[0], read, library + " key " + i);
                    }
                } else {
                    Keys.fillValue(value, i);
                    assertArrayEquals(value, read, library + " key " + i);
                }
            }
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void theFiltersRemoveExactlyTheEmptyValues() {
        check("pinrock-java", true);
        check("rocksjava", true);
        check("pinrock", false);
    }
}
