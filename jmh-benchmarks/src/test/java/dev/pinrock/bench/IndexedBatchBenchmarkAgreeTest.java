package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Every trial of {@link IndexedBatchBenchmark} does the same work on both
 * libraries: the same gets read the same values (from the batch or the
 * database) and the same scans, through new cursors or one kept open, read
 * as many bytes.
 */
class IndexedBatchBenchmarkAgreeTest {
    private static final int ROUNDS = 500;

    /** What the gets read (as strings of their bytes) and the scans' byte counts. */
    private static List<Object> run(String library) {
        IndexedBatchBenchmark benchmark = new IndexedBatchBenchmark();
        benchmark.library = library;
        benchmark.setUp();
        try {
            List<Object> answers = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                answers.add(Arrays.toString(benchmark.getFromBatchAndDb()));
                answers.add(benchmark.cursorOverBatchAndDb());
                answers.add(benchmark.openCursorOverBatchAndDb());
            }
            return answers;
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void bothLibrariesDoTheSameWork() {
        List<Object> rocksJava = run("rocksjava");
        assertEquals(3 * ROUNDS, rocksJava.size());
        assertNotEquals("null", rocksJava.get(0), "the first get found nothing");
        assertEquals(rocksJava, run("pinrock"));
    }
}
