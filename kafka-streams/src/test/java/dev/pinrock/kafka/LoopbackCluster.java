package dev.pinrock.kafka;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The broker of {@link LocalKafka} with the word count's topics, and
 * {@link WordCountApp} instances in child JVMs, for the tests that need them.
 */
final class LoopbackCluster extends LocalKafka {
    private static final List<String> WORDS = List.of("rock", "pin", "stream", "kafka", "store", "cursor",
            "segment", "batch", "arena", "value", "key", "commit");

    LoopbackCluster(Path work) {
        super(work);
    }

    /**
     * Starts the broker and creates the word count's input and output topics.
     *
     * @param partitions the partitions of each topic
     */
    void startBroker(int partitions) throws Exception {
        startBroker();
        createTopics(partitions, WordCountApp.INPUT, WordCountApp.OUTPUT);
    }

    /**
     * Starts a word-count instance (see {@link WordCountApp} for its arguments after
     * the bootstrap address).
     */
    Process startApp(String name, String... appArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of(bootstrap()));
        args.addAll(List.of(appArgs));
        return java(name, List.of("-Xmx384m", "--enable-native-access=ALL-UNNAMED"), WordCountApp.class.getName(),
                args.toArray(String[]::new));
    }

    /** @return count lines of words drawn with the seed: 12 words, most of them numbered 0..49 */
    static List<String> lines(int count, long seed) {
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder line = new StringBuilder(WORDS.get(random.nextInt(WORDS.size())));
            for (int w = random.nextInt(6); w > 0; w--) {
                line.append(' ').append(WORDS.get(random.nextInt(WORDS.size()))).append(random.nextInt(50));
            }
            lines.add(line.toString());
        }
        return lines;
    }

    /** Writes lines to the input topic, each keyed by its index, and waits until all are acknowledged. */
    void produce(List<String> lines, int firstIndex) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < lines.size(); i++) {
                producer.send(new ProducerRecord<>(WordCountApp.INPUT, "line" + (firstIndex + i), lines.get(i)));
            }
            producer.flush();
        }
    }

    /** @return each word's count in lines */
    static Map<String, Long> count(List<String> lines) {
        Map<String, Long> counts = new HashMap<>();
        for (String line : lines) {
            for (String word : line.toLowerCase(Locale.ROOT).split(" ")) {
                counts.merge(word, 1L, Long::sum);
            }
        }
        return counts;
    }

    /** @return a consumer of the committed counts, from the start of the output topic */
    KafkaConsumer<String, Long> outputConsumer() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "checker");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        KafkaConsumer<String, Long> output = new KafkaConsumer<>(props, new StringDeserializer(),
                new LongDeserializer());
        output.subscribe(List.of(WordCountApp.OUTPUT));
        return output;
    }

    /**
     * Reads committed counts into latest until the latest count of every word
     * equals the expected one (exactly once: never more than it on the way) or,
     * at least once, is at least the expected one.
     *
     * @param apps the instances whose logs a failure shows
     */
    void awaitCounts(KafkaConsumer<String, Long> output, Map<String, Long> latest, Map<String, Long> expected,
            boolean exactlyOnce, String... apps) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (exactlyOnce ? !latest.equals(expected) : !atLeast(latest, expected)) {
            for (ConsumerRecord<String, Long> record : output.poll(Duration.ofMillis(500))) {
                latest.put(record.key(), record.value());
            }
            assertTrue(System.nanoTime() < deadline, () -> "counts did not reach " + expected + ", got " + latest
                    + logs(apps));
            if (exactlyOnce) {
                latest.forEach((word, count) -> assertTrue(count <= expected.getOrDefault(word, 0L),
                        () -> word + " counted " + count + " times, expected " + expected.get(word) + logs(apps)));
            }
        }
    }

    private static boolean atLeast(Map<String, Long> latest, Map<String, Long> expected) {
        return expected.entrySet().stream().allMatch(e -> latest.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    /** @return the logs of the named children, for a failure message */
    String logs(String... names) {
        StringBuilder text = new StringBuilder();
        for (String name : names) {
            text.append("\n--- ").append(name).append(" ---\n").append(log(name));
        }
        return text.toString();
    }
}
