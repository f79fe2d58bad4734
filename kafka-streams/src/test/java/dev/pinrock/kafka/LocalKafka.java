package dev.pinrock.kafka;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * A real Kafka broker in a child JVM on loopback, and the other child JVMs
 * that use it: a single KRaft node (broker and controller) started from the
 * Maven Central jars on this JVM's class path. Each child's output goes to
 * {@code <name>.log} in the work directory; closing kills every child. The
 * tests ({@link LoopbackCluster}) and the end-to-end benchmark share it.
 */
public class LocalKafka implements AutoCloseable {
    /** How long a broker, an application or an answer is waited for. */
    public static final Duration PATIENCE = Duration.ofMinutes(3);

    private final Path work;
    private final List<Process> children = new ArrayList<>();
    /** The newest child of each name. */
    private final Map<String, Process> byName = new HashMap<>();
    private String bootstrap;

    /** @param work the directory for the broker's data and the children's logs */
    public LocalKafka(Path work) {
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

    /** @return a loopback port free when asked */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Starts a JVM on this JVM's class path, its output in {@code <name>.log}. */
    public Process java(String name, List<String> jvmOptions, String mainClass, String... args) throws IOException {
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
        byName.put(name, process);
        return process;
    }

    /** @return what the child JVM called name printed so far */
    public String log(String name) {
        try {
            return Files.readString(work.resolve(name + ".log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Waits up to {@link #PATIENCE}, see {@link #awaitLine(String, String, Duration)}. */
    public String awaitLine(String name, String prefix) throws InterruptedException {
        return awaitLine(name, prefix, PATIENCE);
    }

    /**
     * Waits until the child JVM called name prints a line starting with prefix.
     *
     * @return the first such line
     * @throws IllegalStateException with the child's log when it ended, or patience passed, before printing one
     */
    public String awaitLine(String name, String prefix, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            String found = log(name).lines().filter(line -> line.startsWith(prefix)).findFirst().orElse(null);
            if (found != null) {
                return found;
            }
            Process child = byName.get(name);
            if (child != null && !child.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " never printed " + prefix + ":\n" + log(name));
            }
            Thread.sleep(50);
        }
    }

    /** @return the broker's bootstrap address (null before {@link #startBroker()}) */
    public String bootstrap() {
        return bootstrap;
    }

    /**
     * Formats a log directory and starts the broker, waiting until it answers.
     *
     * @throws IllegalStateException with the broker's log when it did not start within {@link #PATIENCE}
     */
    public void startBroker() throws IOException, InterruptedException {
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
        if (!format.waitFor(2, TimeUnit.MINUTES) || format.exitValue() != 0) {
            throw new IllegalStateException("formatting the log directory failed:\n" + log("format"));
        }
        Process broker = java("broker", small, "kafka.Kafka", config.toString());
        String address = "127.0.0.1:" + brokerPort;
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (bootstrap == null) {
            try (Admin admin = admin(address)) {
                admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
                bootstrap = address;
            } catch (Exception notYet) {
                if (System.nanoTime() > deadline || !broker.isAlive()) {
                    throw new IllegalStateException("the broker did not start:\n" + log("broker"), notYet);
                }
                Thread.sleep(500);
            }
        }
    }

    /** Creates topics of the given partitions each (replication factor 1) and waits until they exist. */
    public void createTopics(int partitions, String... names) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(Arrays.stream(names).map(name -> new NewTopic(name, partitions, (short) 1)).toList())
                    .all().get(1, TimeUnit.MINUTES);
        }
    }

    private static Admin admin(String address) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address));
    }
}
