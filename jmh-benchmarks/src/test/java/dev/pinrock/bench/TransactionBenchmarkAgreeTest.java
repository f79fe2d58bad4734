package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every trial of {@link TransactionBenchmark} does the same work on both
 * libraries: the same read-modify-writes read and write the same counters,
 * and the puts leave the same values (its setup also reads one key back).
 */
class TransactionBenchmarkAgreeTest {
    private static final int ROUNDS = 300;

    /** The counters the read-modify-writes wrote, then a sample of the keys' values after the puts. */
    private static List<Object> run(String library, String kind) {
        TransactionBenchmark benchmark = new TransactionBenchmark();
        benchmark.library = library;
        benchmark.kind = kind;
        benchmark.setUp();
        try {
            List<Object> answers = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                answers.add(benchmark.readModifyWrite());
                benchmark.putCommit1();
                benchmark.putCommit4();
            }
            TransactionBenchmark.Transactions transactions = benchmark.transactions();
            byte[] key = new byte[TransactionBenchmark.KEY_BYTES];
            for (int i = 0; i < TransactionBenchmark.KEYS; i += 97) {
                Keys.fill(key, i);
                answers.add(TransactionBenchmark.counter(transactions.get(key)));
            }
            return answers;
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pessimistic", "optimistic"})
    void bothLibrariesDoTheSameWork(String kind) {
        List<Object> rocksJava = run("rocksjava", kind);
        assertEquals(ROUNDS + (TransactionBenchmark.KEYS + 96) / 97, rocksJava.size());
        assertEquals(1L, rocksJava.get(0), "the first read-modify-write did not raise a counter of 0 to 1");
        assertEquals(rocksJava, run("pinrock", kind));
    }
}
