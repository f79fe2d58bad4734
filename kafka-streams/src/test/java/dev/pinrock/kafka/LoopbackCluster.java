package dev.pinrock.kafka;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
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
 * A real Kafka broker and {@link WordCountApp} instances, each in a child JVM
 * on loopback, for the tests that need them: a single KRaft node (broker and
 * controller) started from the Maven Central jars. Each child's output goes
 * to {@code <name>.log} in the work directory; closing kills every child.
 */
final class LoopbackCluster implements AutoCloseable {
    static final Duration PATIENCE = Duration.ofMinutes(3);
    private static final List<String> WORDS = List.of("rock", "pin", "stream", "kafka", "store", "cursor",
            "segment", "batch", "arena", "value", "key", "commit");

    private final Path work;
    private final List<Process> children = new ArrayList<>();
    private String bootstrap;

    LoopbackCluster(Path work) {
        this.work = work;
    }

    /** Kills every child JVM and waits for each to end (interrupted: stops waiting, keeps the interrupt). */
    @Override
    public void close() {
        for (Process child : children) {
            child.destroyForcibly();
        }
        try {
            for (Process child : children) {
                child.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Starts a JVM on this test's class path, its output in {@code <name>.log}. */
    Process java(String name, List<String> jvmOptions, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve(name + ".log").toFile())
                .start();
        children.add(process);
        return process;
    }

    /** @return what the child JVM called name printed so far */
    String log(String name) {
        try {
            return Files.readString(work.resolve(name + ".log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** @return the broker's bootstrap address */
    String bootstrap() {
        return bootstrap;
    }

    /**
     * Starts the broker and creates the word count's input and output topics.
     *
     * @param partitions the partitions of each topic
     */
    void startBroker(int partitions) throws Exception {
        int brokerPort = freePort();
        int controllerPort = freePort();
        Path config = work.resolve("server.properties");
        Files.writeString(config, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + work.resolve("broker-data"),
                "num.partitions=2",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=2",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "transaction.state.log.num.partitions=2",
                "transaction.abort.timed.out.transaction.cleanup.interval.ms=1000",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "") + "\n");
        List<String> small = List.of("-Xmx512m", "-XX:+UseSerialGC");
        Process format = java("format", small, "kafka.tools.StorageTool", "format", "-t",
                UUID.randomUUID().toString().replace("-", "").substring(0, 22), "-c", config.toString());
        assertTrue(format.waitFor(2, TimeUnit.MINUTES) && format.exitValue() == 0,
                "formatting the log directory failed:\n" + log("format"));
        Process broker = java("broker", small, "kafka.Kafka", config.toString());
        String address = "127.0.0.1:" + brokerPort;
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (bootstrap == null) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address))) {
                admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
                admin.createTopics(List.of(new NewTopic(WordCountApp.INPUT, partitions, (short) 1),
                        new NewTopic(WordCountApp.OUTPUT, partitions, (short) 1))).all().get(1, TimeUnit.MINUTES);
                bootstrap = address;
            } catch (Exception notYet) {
                assertTrue(System.nanoTime() < deadline && broker.isAlive(), "the broker did not start:\n"
                        + log("broker"));
                Thread.sleep(500);
            }
        }
    }

    /**
     * Starts a word-count instance (see {@link WordCountApp} for its arguments after
     * the bootstrap address).
     */
    Process startApp(String name, String... appArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of(bootstrap));
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
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
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
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
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

    /** Waits until the child called app prints a line starting with prefix. */
    void awaitLine(String app, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (log(app).lines().noneMatch(line -> line.startsWith(prefix))) {
            assertTrue(System.nanoTime() < deadline, app + " never printed " + prefix + ":\n" + log(app));
            Thread.sleep(200);
        }
    }
}
