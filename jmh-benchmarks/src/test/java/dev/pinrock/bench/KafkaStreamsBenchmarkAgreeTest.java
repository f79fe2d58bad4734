package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Both stores of {@link KafkaStreamsBenchmark} do the same work and count what they were given. */
class KafkaStreamsBenchmarkAgreeTest {
    private static final int OPERATIONS = 12;

    /** @return the store's count of every word the operations updated */
    private static Map<String, Long> run(String store) throws Exception {
        KafkaStreamsBenchmark benchmark = new KafkaStreamsBenchmark();
        benchmark.store = store;
        benchmark.open();
        try {
            for (int i = 0; i < OPERATIONS; i++) {
                benchmark.store();
            }
            Map<String, Long> counts = new HashMap<>();
            for (int i = 0; i < OPERATIONS * KafkaStreamsBenchmark.UPDATES_PER_OPERATION; i++) {
                counts.put(benchmark.word(i), benchmark.countOf(benchmark.word(i)));
            }
            return counts;
        } finally {
            benchmark.close();
        }
    }

    @Test
    void pinrockAndTheBuiltInStoreCountTheSame() throws Exception {
        Map<String, Long> pinrock = run("pinrock");
        assertEquals(run("builtin"), pinrock);
        KafkaStreamsBenchmark words = new KafkaStreamsBenchmark();
        words.store = "pinrock";
        words.open();
        Map<String, Long> expected = new HashMap<>();
        try {
            for (int i = 0; i < OPERATIONS * KafkaStreamsBenchmark.UPDATES_PER_OPERATION; i++) {
                expected.merge(words.word(i), 1L, Long::sum);
            }
        } finally {
            words.close();
        }
        assertEquals(expected, pinrock);
        assertTrue(expected.values().stream().anyMatch(count -> count > 1), "some words counted more than once");
    }
}
