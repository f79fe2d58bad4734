package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Every trial of {@link MergeOperatorBenchmark} does the same work on each
 * library: the same reads merge to the same sums, with the operator in
 * Java or RocksDB's built-in one.
 */
class MergeOperatorBenchmarkAgreeTest {
    private static final int ROUNDS = 500;

    /** The sums the reads returned. */
    private static List<Long> run(String library) {
        MergeOperatorBenchmark benchmark = new MergeOperatorBenchmark();
        benchmark.library = library;
        benchmark.setUp();
        try {
            List<Long> sums = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                sums.add(MergeOperatorBenchmark.uint64(benchmark.getMerged()));
                sums.add(MergeOperatorBenchmark.uint64(benchmark.mergeThenGet()));
            }
            return sums;
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void everyLibraryAddsTheSameOperands() {
        List<Long> rocksJava = run("rocksjava");
        assertEquals(2 * ROUNDS, rocksJava.size());
        assertEquals(rocksJava, run("pinrock"));
        assertEquals(rocksJava, run("pinrock-java"));
    }
}
