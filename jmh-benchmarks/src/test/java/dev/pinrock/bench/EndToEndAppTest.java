package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The applications of the end-to-end benchmark ({@link EndToEndApp}) compute
 * what they should on every kind of stores, and call the benchmark's counters
 * once per record: word count's per word, the others' per event.
 */
class EndToEndAppTest {
    private static final int EVENTS = 1000;
    private static final int USERS = 100;
    /** Events 3 s apart, so each user's come about 300 s apart: sessions grow and close, windows fill. */
    private static final long SPACING_MILLIS = 3000;

    @TempDir
    Path state;

    @ParameterizedTest
    @EnumSource(EndToEndApp.Kind.class)
    void everyStoreComputesTheExpectedAggregates(EndToEndApp.Kind kind) {
        List<TestRecord<String, String>> events = events();
        Map<String, Long> expected = expected(kind, events);
        assertTrue(expected.size() > 200, "a meaningful number of aggregates: " + expected.size());
        for (EndToEndApp.Stores stores : EndToEndApp.Stores.values()) {
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "e2e-" + kind.label() + "-" + stores.label());
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:0");
            props.put(StreamsConfig.STATE_DIR_CONFIG, state.resolve(stores.label()).toString());
            stores.configure(props);
            AtomicLong inputs = new AtomicLong();
            AtomicLong stateful = new AtomicLong();
            try (TopologyTestDriver driver = new TopologyTestDriver(EndToEndApp.topology(kind, props,
                    List.of("backlog", "live"), "out", inputs::incrementAndGet, stateful::incrementAndGet), props)) {
                TestInputTopic<String, String> input = driver.createInputTopic("backlog",
                        Serdes.String().serializer(), Serdes.String().serializer());
                events.forEach(input::pipeInput);
                TestOutputTopic<String, Long> output = driver.createOutputTopic("out", Serdes.String().deserializer(),
                        Serdes.Long().deserializer());
                Map<String, Long> latest = new TreeMap<>();
                for (TestRecord<String, Long> record : output.readRecordsToList()) {
                    if (record.value() == null) {
                        latest.remove(record.key()); // a session merged into a longer one
                    } else {
                        latest.put(record.key(), record.value());
                    }
                }
                assertEquals(expected, latest, stores.label());
            }
            assertEquals(EVENTS, inputs.get(), stores.label());
            long words = events.stream().mapToLong(e -> e.value().split(" ").length).sum();
            assertEquals(kind == EndToEndApp.Kind.WORD_COUNT ? words : EVENTS, stateful.get(), stores.label());
        }
    }

    private static List<TestRecord<String, String>> events() {
        Random random = new Random(3);
        List<TestRecord<String, String>> events = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            events.add(new TestRecord<>("user" + random.nextInt(USERS), KafkaStreamsEndToEnd.line(random), null,
                    1_000_000L + i * SPACING_MILLIS));
        }
        return events;
    }

    /** @return the latest aggregate of each output key, computed without Kafka Streams */
    private static Map<String, Long> expected(EndToEndApp.Kind kind, List<TestRecord<String, String>> events) {
        Map<String, Long> expected = new TreeMap<>();
        long window = EndToEndApp.WINDOW.toMillis();
        Map<String, long[]> openSession = new HashMap<>(); // user -> {start, end}
        for (TestRecord<String, String> event : events) {
            long time = event.timestamp();
            switch (kind) {
                case WORD_COUNT -> {
                    for (String word : event.value().split(" ")) {
                        expected.merge(word, 1L, Long::sum);
                    }
                }
                case WINDOWED -> expected.merge(event.key() + "@" + (time - time % window), 1L, Long::sum);
                case SESSION -> {
                    long[] session = openSession.get(event.key());
                    if (session != null && time - session[1] <= EndToEndApp.SESSION_GAP.toMillis()) {
                        long count = expected.remove(event.key() + "@" + session[0]);
                        session[1] = time;
                        expected.put(event.key() + "@" + session[0], count + 1);
                    } else {
                        openSession.put(event.key(), new long[] {time, time});
                        expected.put(event.key() + "@" + time, 1L);
                    }
                }
            }
        }
        return expected;
    }
}
