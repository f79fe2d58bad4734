package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;

/** Both stores of {@link KafkaStreamsBenchmark} do the same work and count the same. */
class KafkaStreamsBenchmarkAgreeTest {

    private static Map<String, Long> run(String store) throws Exception {
        KafkaStreamsBenchmark benchmark = new KafkaStreamsBenchmark();
        benchmark.store = store;
        benchmark.open();
        try {
            for (int i = 0; i < 3; i++) {
                benchmark.topology();
            }
            for (int i = 0; i < 12; i++) {
                benchmark.store();
            }
            Map<String, Long> counts = new HashMap<>();
            try (KeyValueIterator<String, Long> all = benchmark.topologyCounts().all()) {
                all.forEachRemaining(entry -> counts.put("topology " + entry.key, entry.value));
            }
            for (int word = 0; word < 2000; word++) {
                counts.put("store w" + word, benchmark.countOf("w" + word));
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
        Map<String, Long> expected = new HashMap<>();
        List<String> lines = KafkaStreamsBenchmark.lines(3 * KafkaStreamsBenchmark.LINES_PER_OPERATION, 42);
        for (String line : lines) {
            for (String word : line.split(" ")) {
                expected.merge("topology " + word, 1L, Long::sum);
            }
        }
        pinrock.keySet().removeIf(key -> key.startsWith("store "));
        assertEquals(expected, pinrock);
        assertTrue(expected.size() > 100);
    }
}
