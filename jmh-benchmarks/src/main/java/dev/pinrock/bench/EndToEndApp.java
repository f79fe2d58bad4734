package dev.pinrock.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.management.OperatingSystemMXBean;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;

import dev.pinrock.Compression;
import dev.pinrock.DbOptions;
import dev.pinrock.kafka.PinrockConfigSetter;
import dev.pinrock.kafka.PinrockDslStoreSuppliers;
import dev.pinrock.kafka.PinrockStoreConfig;

/**
 * One application of the end-to-end Kafka Streams benchmark
 * ({@link KafkaStreamsEndToEnd}), run in a child JVM with Kafka Streams'
 * defaults (one stream thread, the 10 MB record cache, the guarantee's
 * default commit interval: 30 s at least once, 100 ms exactly once).
 *
 * <p>It reads the events (key: a user, value: a line of words) of two topics,
 * the filled backlog and the live topic the driver writes to later, and
 * prints {@code BACKLOG <milliseconds> <CPU milliseconds> <first> <last>} when
 * its stateful processor has taken the backlog's last record: the time from
 * its first input record on, the CPU time its process (all threads, RocksDB's
 * included) spent meanwhile, and the wall-clock times (epoch milliseconds) of
 * the first record and the last. A line
 * {@code STATS} on standard input is answered with {@code STATS <bytes>}, the
 * heap in use after a full collection. SIGTERM closes it.
 *
 * <p>Arguments: bootstrap servers, state directory, application id, the
 * application ({@link Kind}), the processing guarantee, the stores
 * ({@link Stores}), the records the stateful processor takes from the
 * backlog, the backlog topic, the live topic, the output topic.
 */
public final class EndToEndApp {
    /** Tumbling windows of the windowed aggregation. */
    static final Duration WINDOW = Duration.ofMinutes(5);
    /** Inactivity gap of the session aggregation. */
    static final Duration SESSION_GAP = Duration.ofMinutes(5);
    /** Grace period of both. */
    static final Duration GRACE = Duration.ofMinutes(1);
    /** The memory bound of the tuned pinrock stores, shared by all of the application's stores. */
    static final long TUNED_MEMORY_BYTES = 256L << 20;

    /** The three applications. */
    enum Kind {
        /** Words of each line, repartitioned by word, counted (a key-value store). */
        WORD_COUNT,
        /** Events per user in 5-minute tumbling windows (a window store). */
        WINDOWED,
        /** Events per user session, 5 minutes of inactivity closing one (a session store). */
        SESSION;

        /** @return how the benchmark names it: word-count, windowed, session */
        String label() {
            return labelOf(this);
        }

        static Kind of(String label) {
            return byLabel(Kind.class, "application", label);
        }
    }

    /** The stores an application runs on. */
    enum Stores {
        /** Kafka Streams' built-in RocksDB stores (RocksJava). */
        BUILTIN,
        /** pinrock's stores with their defaults, which are the built-in stores' RocksDB options. */
        PINROCK,
        /** pinrock's stores, LZ4-compressed, all under one shared memory bound of {@value #TUNED_MEMORY_BYTES} B. */
        PINROCK_TUNED;

        /** @return how the benchmark names them: builtin, pinrock, pinrock-tuned */
        String label() {
            return labelOf(this);
        }

        static Stores of(String label) {
            return byLabel(Stores.class, "stores", label);
        }

        /** Adds the configuration that selects these stores to props. */
        void configure(Properties props) {
            props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, this == BUILTIN
                    ? BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class : PinrockDslStoreSuppliers.class);
            if (this == PINROCK_TUNED) {
                props.put(PinrockStoreConfig.BOUNDED_MEMORY_BYTES_CONFIG, TUNED_MEMORY_BYTES);
                props.put(PinrockStoreConfig.CONFIG_SETTER_CLASS_CONFIG, Lz4.class);
            }
        }
    }

    /** The tuned stores' compression. */
    public static final class Lz4 implements PinrockConfigSetter {
        @Override
        public DbOptions setConfig(String storeName, DbOptions options, Map<String, Object> configs) {
            return options.compression(Compression.LZ4);
        }
    }

    private EndToEndApp() {
    }

    /** @return the constant's name in lower case, with dashes for underscores */
    private static String labelOf(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @return the constant of type labelled label; what names the type in the failure's message */
    private static <E extends Enum<E>> E byLabel(Class<E> type, String what, String label) {
        return Arrays.stream(type.getEnumConstants()).filter(constant -> labelOf(constant).equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no " + what + " called " + label + " ("
                        + String.join(", ", Arrays.stream(type.getEnumConstants()).map(EndToEndApp::labelOf).toList())
                        + ")"));
    }

    /**
     * Builds one application's topology.
     *
     * @param inputs the topics of events it reads
     * @param output the topic its aggregates go to (keys: the word, or the user, {@code @} and the window's start)
     * @param firstInput called for each input record, before anything else
     * @param stateful called for each record the stateful processor takes, just before it does
     */
    static Topology topology(Kind kind, Properties props, List<String> inputs, String output, Runnable firstInput,
            Runnable stateful) {
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        KStream<String, String> events = builder.stream(inputs, Consumed.with(Serdes.String(), Serdes.String()))
                .peek((user, line) -> firstInput.run());
        Produced<String, Long> produced = Produced.with(Serdes.String(), Serdes.Long());
        switch (kind) {
            case WORD_COUNT -> events
                    .flatMapValues(line -> Arrays.asList(line.split(" ")))
                    .selectKey((user, word) -> word)
                    .repartition(Repartitioned.with(Serdes.String(), Serdes.String()).withName("words"))
                    .peek((word, same) -> stateful.run())
                    .groupByKey()
                    .count(Materialized.as("word-counts"))
                    .toStream()
                    .to(output, produced);
            case WINDOWED -> events
                    .peek((user, line) -> stateful.run())
                    .groupByKey()
                    .windowedBy(TimeWindows.ofSizeAndGrace(WINDOW, GRACE))
                    .count(Materialized.as("window-counts"))
                    .toStream((window, count) -> window.key() + "@" + window.window().start())
                    .to(output, produced);
            case SESSION -> events
                    .peek((user, line) -> stateful.run())
                    .groupByKey()
                    .windowedBy(SessionWindows.ofInactivityGapAndGrace(SESSION_GAP, GRACE))
                    .count(Materialized.as("session-counts"))
                    .toStream((session, count) -> session.key() + "@" + session.window().start())
                    .to(output, produced);
        }
        return builder.build();
    }

    public static void main(String[] args) throws InterruptedException {
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.STATE_DIR_CONFIG, args[1]);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[2]);
        Kind kind = Kind.of(args[3]);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, args[4]);
        Stores.of(args[5]).configure(props);
        long backlog = Long.parseLong(args[6]);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);

        OperatingSystemMXBean system = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
        long[] first = new long[3]; // nanoTime, CPU nanoseconds, epoch milliseconds of the first input record
        AtomicLong taken = new AtomicLong();
        Topology topology = topology(kind, props, List.of(args[7], args[8]), args[9], () -> {
            if (first[0] == 0) {
                first[0] = System.nanoTime();
                first[1] = system.getProcessCpuTime();
                first[2] = System.currentTimeMillis();
            }
        }, () -> {
            if (taken.incrementAndGet() == backlog) {
                System.out.println("BACKLOG " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - first[0]) + " "
                        + TimeUnit.NANOSECONDS.toMillis(system.getProcessCpuTime() - first[1]) + " " + first[2]
                        + " " + System.currentTimeMillis());
            }
        });
        KafkaStreams streams = new KafkaStreams(topology, props);
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(Duration.ofMinutes(1));
            closed.countDown();
        }));
        streams.start();
        Thread stats = new Thread(EndToEndApp::answerStats, "stats");
        stats.setDaemon(true);
        stats.start();
        closed.await();
    }

    /** Answers each STATS line of standard input with the heap in use after a full collection. */
    private static void answerStats() {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals("STATS")) {
                    System.gc();
                    System.out.println("STATS " + ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
                }
            }
        } catch (IOException e) {
            System.out.println("STATS ENDED " + e);
        }
    }
}
