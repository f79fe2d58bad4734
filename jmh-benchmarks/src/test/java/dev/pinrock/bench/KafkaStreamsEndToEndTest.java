package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZonedDateTime;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The end-to-end benchmark's statistics and report ({@link KafkaStreamsEndToEnd}). */
class KafkaStreamsEndToEndTest {

    private static KafkaStreamsEndToEnd.Run run(int round, String stores, long backlogMillis, long p99) {
        return new KafkaStreamsEndToEnd.Run(round, "windowed", "exactly_once_v2", stores, 600_000, backlogMillis,
                6_000, 80, p99, 1000, 50L << 20, 900L << 20, 1L << 20, null);
    }

    @Test
    void percentilesAreNearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, KafkaStreamsEndToEnd.percentile(sorted, 50));
        assertEquals(10, KafkaStreamsEndToEnd.percentile(sorted, 99));
        assertEquals(1, KafkaStreamsEndToEnd.percentile(new long[] {1}, 99));
        assertEquals(-1, KafkaStreamsEndToEnd.percentile(new long[0], 50));
    }

    @Test
    void theReportGivesEachConfigurationsMediansAndTheRatioOfTheMedians() {
        List<KafkaStreamsEndToEnd.Run> runs = List.of(
                run(1, "builtin", 10_000, 300), run(1, "pinrock", 6_000, 100),
                run(2, "builtin", 12_000, 200), run(2, "pinrock", 8_000, 400),
                run(3, "builtin", 7_500, 100), run(3, "pinrock", 5_000, 200));
        assertEquals(60_000, KafkaStreamsEndToEnd.median(List.of(runs.get(0), runs.get(2), runs.get(4)),
                KafkaStreamsEndToEnd.Run::recordsPerSecond));
        String report = KafkaStreamsEndToEnd.markdown(runs, 600_000, 1000, 20, 3, "test", ZonedDateTime.now());
        // built-in: 60,000 (50,000–80,000) records/s; pinrock: 100,000 (75,000–120,000); ratio 100,000 / 60,000
        assertTrue(report.contains(
                "| windowed | exactly_once_v2 | builtin | 60,000 (50,000–80,000) | 1.00 | 10 | 80 | 200 |"), report);
        assertTrue(report.contains("| windowed | exactly_once_v2 | pinrock | 100,000 (75,000–120,000) | 1.67 "
                + "| 10 | 80 | 200 |"), report);
        assertTrue(report.contains("median of 3 rounds"), report);
    }
}
