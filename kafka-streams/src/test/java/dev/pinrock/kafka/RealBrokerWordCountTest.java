package dev.pinrock.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Word count on pinrock stores against a real Kafka broker: a single KRaft
 * node (broker and controller) started from the Maven Central jars in a
 * child JVM on loopback. The application, in a child JVM too, is killed with
 * SIGKILL after the first third of the input, its state directory removed,
 * and started again, so that its store is restored from the changelog; after
 * the second third it is stopped cleanly and started on its state directory,
 * whose checkpoint spares it the restoration. The counts must always equal
 * the counts of the input so far.
 */
class RealBrokerWordCountTest {
    private static final Duration PATIENCE = Duration.ofMinutes(3);
    private static final List<String> WORDS = List.of("rock", "pin", "stream", "kafka", "store", "cursor",
            "segment", "batch", "arena", "value", "key", "commit");

    @TempDir
    Path work;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (Process child : children) {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Starts a JVM on this test's class path, its output in a log file. */
    private Process java(String name, List<String> jvmOptions, String mainClass, String... args) throws IOException {
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

    private String log(String name) {
        try {
            return Files.readString(work.resolve(name + ".log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private String startBroker() throws Exception {
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
        java("broker", small, "kafka.Kafka", config.toString());
        String bootstrap = "127.0.0.1:" + brokerPort;
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
                return bootstrap;
            } catch (Exception notYet) {
                assertTrue(System.nanoTime() < deadline && children.getLast().isAlive(),
                        "the broker did not start:\n" + log("broker"));
                Thread.sleep(500);
            }
        }
    }

    private Process startApp(String bootstrap, Path stateDir, String name) throws IOException {
        return java(name, List.of("-Xmx384m", "--enable-native-access=ALL-UNNAMED"), WordCountApp.class.getName(),
                bootstrap, stateDir.toString(), "pinrock-word-count");
    }

    private static void produce(String bootstrap, List<String> lines) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < lines.size(); i++) {
                producer.send(new ProducerRecord<>(WordCountApp.INPUT, "line" + i, lines.get(i)));
            }
            producer.flush();
        }
    }

    private static Map<String, Long> count(List<String> lines) {
        Map<String, Long> counts = new HashMap<>();
        for (String line : lines) {
            for (String word : line.toLowerCase(Locale.ROOT).split(" ")) {
                counts.merge(word, 1L, Long::sum);
            }
        }
        return counts;
    }

    /** Reads committed counts until the latest count of every word equals the expected one. */
    private void awaitCounts(KafkaConsumer<String, Long> output, Map<String, Long> latest, Map<String, Long> expected,
            String app) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!latest.equals(expected)) {
            for (ConsumerRecord<String, Long> record : output.poll(Duration.ofMillis(500))) {
                latest.put(record.key(), record.value());
            }
            assertTrue(System.nanoTime() < deadline, "counts did not reach " + expected + ", got " + latest
                    + "\n" + log(app));
            latest.forEach((word, count) -> assertTrue(count <= expected.getOrDefault(word, 0L),
                    () -> word + " counted " + count + " times, expected " + expected.get(word) + "\n" + log(app)));
        }
    }

    private void awaitLine(String app, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (log(app).lines().noneMatch(line -> line.startsWith(prefix))) {
            assertTrue(System.nanoTime() < deadline, app + " never printed " + prefix + ":\n" + log(app));
            Thread.sleep(200);
        }
    }

    @Test
    void wordCountSurvivesAKillAndARestart() throws Exception {
        String bootstrap = startBroker();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(WordCountApp.INPUT, 2, (short) 1),
                    new NewTopic(WordCountApp.OUTPUT, 2, (short) 1))).all().get(1, TimeUnit.MINUTES);
        }
        Random random = new Random(5);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            StringBuilder line = new StringBuilder(WORDS.get(random.nextInt(WORDS.size())));
            for (int w = random.nextInt(6); w > 0; w--) {
                line.append(' ').append(WORDS.get(random.nextInt(WORDS.size()))).append(random.nextInt(50));
            }
            lines.add(line.toString());
        }
        int third = lines.size() / 3;

        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "checker");
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Path stateDir = work.resolve("app-state");
        try (KafkaConsumer<String, Long> output = new KafkaConsumer<>(consumerProps, new StringDeserializer(),
                new LongDeserializer())) {
            output.subscribe(List.of(WordCountApp.OUTPUT));
            Map<String, Long> latest = new HashMap<>();

            Process first = startApp(bootstrap, stateDir, "app-1");
            produce(bootstrap, lines.subList(0, third));
            awaitCounts(output, latest, count(lines.subList(0, third)), "app-1");
            assertTrue(Files.isDirectory(stateDir.resolve("pinrock-word-count")), "the app kept state");
            first.destroyForcibly();
            assertTrue(first.waitFor(1, TimeUnit.MINUTES));
            assertEquals(137, first.exitValue(), "killed by SIGKILL");

            Utils.delete(stateDir.toFile());
            assertFalse(Files.exists(stateDir));
            Process second = startApp(bootstrap, stateDir, "app-2");
            awaitLine("app-2", "RUNNING");
            produce(bootstrap, lines.subList(third, 2 * third));
            awaitCounts(output, latest, count(lines.subList(0, 2 * third)), "app-2");
            second.destroy();
            assertTrue(second.waitFor(2, TimeUnit.MINUTES), "a clean close:\n" + log("app-2"));

            startApp(bootstrap, stateDir, "app-3");
            awaitLine("app-3", "RUNNING");
            produce(bootstrap, lines.subList(2 * third, lines.size()));
            awaitCounts(output, latest, count(lines), "app-3");
        }
        assertTrue(restored("app-2") > 0, "the second instance restored its store from the changelog:\n"
                + log("app-2"));
        assertTrue(restored("app-3") < restored("app-2") / 10, "the third instance started from its checkpoint: "
                + restored("app-3") + " records restored\n" + log("app-3"));
        try (var files = Files.walk(stateDir)) {
            assertTrue(files.anyMatch(path -> path.endsWith(Path.of("pinrock", "counts"))), "pinrock's store");
        }
    }

    /** @return the records an application instance reported restoring (0 when it restored nothing) */
    private long restored(String app) {
        return log(app).lines().filter(line -> line.startsWith("RESTORED "))
                .mapToLong(line -> Long.parseLong(line.substring("RESTORED ".length()))).max().orElse(0);
    }
}
