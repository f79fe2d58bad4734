package dev.pinrock.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Aggregator;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.internals.VersionedKeyValueToBytesStoreAdapter;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.apache.kafka.streams.test.TestRecord;

import dev.pinrock.kafka.internal.PinrockVersionedStore;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same topologies (word count, table-table joins, stream-stream joins,
 * windowed counts, windowed aggregations that emit on window close, a
 * session aggregation, a Processor API store) on pinrock's stores and on Kafka Streams' built-in
 * RocksDB stores, through {@link TopologyTestDriver}: their outputs and
 * final store contents must be identical. Each runs without the record cache
 * (every update reaches the store) and with it (the caching layer merges its
 * entries with the store's ranges).
 *
 * <p>The cases run concurrently (src/test/resources/junit-platform.properties:
 * two at a time): each drives one single-threaded test driver after another in
 * its own state directory, so two of them keep both of a 2-core machine's
 * cores busy and the class takes half as long.
 */
@Execution(ExecutionMode.CONCURRENT)
class TopologiesAgreeTest {
    private static final List<String> VOCABULARY = vocabulary();

    @TempDir
    Path stateDir;

    /** What one run produced: output records and the final contents of the stores read back. */
    record Outcome(List<String> output, List<String> stores) {
    }

    private static List<String> vocabulary() {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            words.add(Integer.toString(i * 7919, 36));
        }
        return words;
    }

    private Properties config(Object storeSuppliers, long cacheBytes, String run) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "agree");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:0");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(run).toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, cacheBytes);
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, storeSuppliers);
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        // Aggregations that emit on window close do so at most once per this interval of wall-clock
        // time, which the test driver's clock does not advance: every record may emit.
        props.put(StreamsConfig.InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_WINDOWED_AGGREGATION, 0L);
        return props;
    }

    /**
     * Runs a topology on the built-in stores and on pinrock's, and checks that pinrock's were used.
     * Each run builds its own topology: a topology's DSL stores take their suppliers from the
     * first configuration they see.
     */
    private void assertSameOutcome(Supplier<Topology> topology, long cacheBytes,
            Function<TopologyTestDriver, Outcome> run) {
        Outcome builtIn;
        try (TopologyTestDriver driver = new TopologyTestDriver(topology.get(),
                config(BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class, cacheBytes, "builtin"))) {
            builtIn = run.apply(driver);
            assertEveryPersistentStoreIs(driver, BUILT_IN);
        }
        Outcome pinrock;
        try (TopologyTestDriver driver = new TopologyTestDriver(topology.get(),
                config(PinrockDslStoreSuppliers.class, cacheBytes, "pinrock"))) {
            pinrock = run.apply(driver);
            assertEveryPersistentStoreIs(driver, PINROCK);
            Path task = stateDir.resolve("pinrock").resolve("agree").resolve("0_0");
            assertTrue(Files.isDirectory(task.resolve("pinrock")), "pinrock stores in " + task);
            assertFalse(Files.exists(task.resolve("rocksdb")), "no built-in store in " + task);
        }
        assertFalse(builtIn.output().isEmpty());
        assertSameLines("output", builtIn.output(), pinrock.output());
        assertSameLines("stores", builtIn.stores(), pinrock.stores());
    }

    /** Whether the innermost store of a run is the one its configuration asked for. */
    private static final Predicate<Class<?>> PINROCK = type -> type.getName().startsWith("dev.pinrock.kafka.");
    private static final Predicate<Class<?>> BUILT_IN = type -> type.getName().startsWith(
            "org.apache.kafka.streams.state.internals.RocksDB");

    /**
     * Checks, store by store, that every persistent store of a run is backed by the expected
     * implementation: the first store under Kafka's wrappers (metering, caching, change logging)
     * that is pinrock's or the built-in RocksDB one is pinrock's, or in the control run the built-in
     * one. (pinrock's time-ordered window store wraps a marker of the built-in kind, never opened.)
     */
    private static void assertEveryPersistentStoreIs(TopologyTestDriver driver, Predicate<Class<?>> expected) {
        int persistent = 0;
        for (Map.Entry<String, StateStore> entry : driver.getAllStateStores().entrySet()) {
            StateStore store = entry.getValue();
            if (!store.persistent()) {
                continue;
            }
            while (!PINROCK.test(store.getClass()) && !BUILT_IN.test(store.getClass())
                    && store instanceof WrappedStateStore<?, ?, ?> wrapper) {
                store = wrapper.wrapped();
            }
            assertTrue(expected.test(store.getClass()), "store " + entry.getKey() + " is a " + store.getClass().getName());
            persistent++;
        }
        assertTrue(persistent > 0, "the topology has persistent stores");
    }

    /** Equal lists, or a failure that shows the first difference rather than both lists. */
    static void assertSameLines(String what, List<String> expected, List<String> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + " differ first at line " + i);
        }
        assertEquals(expected.size(), actual.size(), what + ": number of lines");
    }

    private static <K, V> List<String> contents(KeyValueIterator<K, V> iterator) {
        List<String> entries = new ArrayList<>();
        try (iterator) {
            iterator.forEachRemaining(entry -> entries.add(entry.key + "=" + entry.value));
        }
        return entries;
    }

    private static <K, V> List<String> records(TestOutputTopic<K, V> topic) {
        return topic.readRecordsToList().stream()
                .map(r -> r.key() + "=" + r.value() + "@" + r.timestamp())
                .toList();
    }

    @ParameterizedTest(name = "cache {0} bytes")
    @ValueSource(longs = {0, 1 << 20})
    void wordCount(long cacheBytes) {
        Supplier<Topology> wordCount = () -> {
            StreamsBuilder builder = new StreamsBuilder();
            builder.<String, String>stream("lines")
                    .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split(" ")))
                    .groupBy((key, word) -> word)
                    .count(Materialized.as("counts"))
                    .toStream()
                    .to("counts-out", Produced.with(Serdes.String(), Serdes.Long()));
            return builder.build();
        };
        Random random = new Random(42);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            StringBuilder line = new StringBuilder();
            for (int w = 1 + random.nextInt(8); w > 0; w--) {
                line.append(VOCABULARY.get((int) Math.abs(random.nextGaussian() * 60) % VOCABULARY.size()))
                        .append(' ');
            }
            lines.add(line.toString().trim());
        }
        assertSameOutcome(wordCount, cacheBytes, driver -> {
            TestInputTopic<String, String> input = driver.createInputTopic("lines",
                    Serdes.String().serializer(), Serdes.String().serializer());
            Instant time = Instant.ofEpochSecond(1_700_000_000);
            for (String line : lines) {
                input.pipeInput(null, line, time);
                time = time.plusMillis(10);
            }
            TestOutputTopic<String, Long> output = driver.createOutputTopic("counts-out",
                    Serdes.String().deserializer(), Serdes.Long().deserializer());
            KeyValueStore<String, ValueAndTimestamp<Long>> counts = driver.getTimestampedKeyValueStore("counts");
            List<String> stores = new ArrayList<>(contents(counts.all()));
            stores.addAll(contents(counts.reverseRange("a", "m")));
            stores.addAll(contents(counts.prefixScan("1", Serdes.String().serializer())));
            stores.add("entries~" + (counts.approximateNumEntries() > 0));
            return new Outcome(records(output), stores);
        });
    }

    @ParameterizedTest(name = "cache {0} bytes")
    @ValueSource(longs = {0, 1 << 20})
    void tableTableJoins(long cacheBytes) {
        Supplier<Topology> joins = () -> {
            StreamsBuilder builder = new StreamsBuilder();
            var users = builder.table("users", Consumed.with(Serdes.String(), Serdes.String()),
                    Materialized.as("users"));
            var regions = builder.table("regions", Consumed.with(Serdes.String(), Serdes.String()),
                    Materialized.as("regions"));
            users.join(regions, (user, region) -> user + "@" + region, Materialized.as("inner"))
                    .toStream().to("inner-out");
            users.leftJoin(regions, (user, region) -> user + "@" + region, Materialized.as("left"))
                    .toStream().to("left-out");
            return builder.build();
        };
        assertSameOutcome(joins, cacheBytes, driver -> {
            Random random = new Random(7);
            TestInputTopic<String, String> userInput = driver.createInputTopic("users",
                    Serdes.String().serializer(), Serdes.String().serializer());
            TestInputTopic<String, String> regionInput = driver.createInputTopic("regions",
                    Serdes.String().serializer(), Serdes.String().serializer());
            Instant time = Instant.ofEpochSecond(1_700_000_000);
            for (int i = 0; i < 1500; i++) {
                String key = "k" + random.nextInt(120);
                String value = random.nextInt(10) == 0 ? null : "v" + i;
                (random.nextBoolean() ? userInput : regionInput).pipeInput(new TestRecord<>(key, value, time));
                time = time.plusMillis(random.nextInt(5));
            }
            List<String> output = new ArrayList<>(records(driver.createOutputTopic("inner-out",
                    Serdes.String().deserializer(), Serdes.String().deserializer())));
            output.addAll(records(driver.createOutputTopic("left-out",
                    Serdes.String().deserializer(), Serdes.String().deserializer())));
            List<String> stores = new ArrayList<>();
            for (String store : List.of("users", "regions", "inner", "left")) {
                stores.addAll(contents(driver.getTimestampedKeyValueStore(store).all()));
                stores.addAll(contents(driver.getTimestampedKeyValueStore(store).reverseAll()));
            }
            return new Outcome(output, stores);
        });
    }

    /**
     * A versioned table (prices, updated out of order, some updates later
     * than the history retention, some deletes) joined with a stream of
     * orders, also out of order: each order joins the price valid at its
     * time. The DSL takes a versioned store only from a supplier its
     * {@code Materialized} names, so each run names its own: the built-in
     * {@code Stores.persistentVersionedKeyValueStore} and
     * {@code PinrockStores.versionedKeyValueStore}. Compares the join's and
     * the table's output record for record and the table's store as of
     * every millisecond of the run.
     */
    @ParameterizedTest(name = "cache {0} bytes")
    @ValueSource(longs = {0, 1 << 20})
    void versionedTableJoin(long cacheBytes) {
        Duration history = Duration.ofMillis(300);
        Function<Boolean, Topology> topology = pinrock -> {
            StreamsBuilder builder = new StreamsBuilder();
            var prices = builder.table("prices", Consumed.with(Serdes.String(), Serdes.String()),
                    Materialized.as(pinrock ? PinrockStores.versionedKeyValueStore("prices", history)
                            : Stores.persistentVersionedKeyValueStore("prices", history)));
            prices.toStream().to("price-changes");
            builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()))
                    .leftJoin(prices, (order, price) -> order + " at " + price)
                    .to("priced");
            return builder.build();
        };
        List<List<String>> outcomes = new ArrayList<>();
        for (boolean pinrock : new boolean[] {false, true}) {
            String run = pinrock ? "pinrock-versioned" : "builtin-versioned";
            try (TopologyTestDriver driver = new TopologyTestDriver(topology.apply(pinrock), config(pinrock
                    ? PinrockDslStoreSuppliers.class : BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class,
                    cacheBytes, run))) {
                StateStore store = driver.getAllStateStores().get("prices");
                while (store instanceof WrappedStateStore<?, ?, ?> wrapper) {
                    store = wrapper.wrapped();
                }
                assertEquals(pinrock ? PinrockVersionedStore.class : VersionedKeyValueToBytesStoreAdapter.class,
                        store.getClass());
                Random random = new Random(13);
                TestInputTopic<String, String> priceInput = driver.createInputTopic("prices",
                        Serdes.String().serializer(), Serdes.String().serializer());
                TestInputTopic<String, String> orderInput = driver.createInputTopic("orders",
                        Serdes.String().serializer(), Serdes.String().serializer());
                long time = START;
                for (int i = 0; i < 1500; i++) {
                    String key = "item" + random.nextInt(40);
                    long timestamp = time - (random.nextInt(3) == 0 ? random.nextInt(600) : 0);
                    if (random.nextInt(3) == 0) {
                        orderInput.pipeInput(new TestRecord<>(key, "order" + i, Instant.ofEpochMilli(timestamp)));
                    } else {
                        String price = random.nextInt(12) == 0 ? null : "p" + i;
                        priceInput.pipeInput(new TestRecord<>(key, price, Instant.ofEpochMilli(timestamp)));
                    }
                    time += random.nextInt(4);
                }
                List<String> outcome = new ArrayList<>(records(driver.createOutputTopic("priced",
                        Serdes.String().deserializer(), Serdes.String().deserializer())));
                outcome.addAll(records(driver.createOutputTopic("price-changes",
                        Serdes.String().deserializer(), Serdes.String().deserializer())));
                VersionedKeyValueStore<String, String> table = driver.getVersionedKeyValueStore("prices");
                for (int item = 0; item < 40; item++) {
                    outcome.add("item" + item + " latest " + table.get("item" + item));
                    for (long t = time - 400; t <= time; t++) {
                        outcome.add("item" + item + " as of " + t + " " + table.get("item" + item, t));
                    }
                }
                outcomes.add(outcome);
            }
        }
        assertSameLines("versioned join", outcomes.get(0), outcomes.get(1));
    }

    private static final long START = 1_700_000_000_000L;

    /** Clicks per user with out-of-order timestamps: some arrive after their window's grace period. */
    private static void pipeClicks(TopologyTestDriver driver) {
        Random random = new Random(11);
        TestInputTopic<String, String> clicks = driver.createInputTopic("clicks",
                Serdes.String().serializer(), Serdes.String().serializer());
        long time = START;
        for (int i = 0; i < 1000; i++) {
            time += random.nextInt(4000);
            long lateness = random.nextInt(10) == 0 ? random.nextInt(200_000) : 0;
            clicks.pipeInput("user" + random.nextInt(40), "page" + random.nextInt(5),
                    Instant.ofEpochMilli(time - lateness));
        }
    }

    private static String windowed(Windowed<String> key) {
        return key.key() + "@" + key.window().start() + "/" + key.window().end();
    }

    @ParameterizedTest(name = "cache {0} bytes")
    @ValueSource(longs = {0, 1 << 20})
    void windowedCounts(long cacheBytes) {
        Supplier<Topology> counts = () -> {
            StreamsBuilder builder = new StreamsBuilder();
            var clicks = builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String())).groupByKey();
            clicks.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(1), Duration.ofSeconds(20)))
                    .count(Materialized.as("tumbling"))
                    .toStream((key, count) -> windowed(key)).to("tumbling-out",
                            Produced.with(Serdes.String(), Serdes.Long()));
            clicks.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(2), Duration.ZERO)
                            .advanceBy(Duration.ofSeconds(30)))
                    .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("hopping")
                            .withRetention(Duration.ofMinutes(5)))
                    .toStream((key, count) -> windowed(key)).to("hopping-out",
                            Produced.with(Serdes.String(), Serdes.Long()));
            return builder.build();
        };
        assertSameOutcome(counts, cacheBytes, driver -> {
            pipeClicks(driver);
            List<String> output = new ArrayList<>();
            for (String topic : List.of("tumbling-out", "hopping-out")) {
                output.addAll(records(driver.createOutputTopic(topic, Serdes.String().deserializer(),
                        Serdes.Long().deserializer())));
            }
            List<String> stores = new ArrayList<>();
            for (String name : List.of("tumbling", "hopping")) {
                WindowStore<String, ValueAndTimestamp<Long>> store = driver.getTimestampedWindowStore(name);
                stores.addAll(contents(store.all()));
                stores.addAll(contents(store.backwardAll()));
                stores.addAll(contents(store.fetchAll(Instant.ofEpochMilli(START + 600_000),
                        Instant.ofEpochMilli(START + 3_000_000))));
                // bounded: a caching store steps through a time range segment by segment
                stores.addAll(contents(store.fetch("user1", "user3", Instant.ofEpochMilli(START),
                        Instant.ofEpochMilli(START + 10_000_000))));
                stores.addAll(contents(store.backwardFetch("user7", Instant.ofEpochMilli(START),
                        Instant.ofEpochMilli(START + 10_000_000))));
            }
            return new Outcome(output, stores);
        });
    }

    @ParameterizedTest(name = "cache {0} bytes, emit on window close {1}")
    @CsvSource({"0, false", "1048576, false", "0, true", "1048576, true"})
    void sessionAggregation(long cacheBytes, boolean onWindowClose) {
        Supplier<Topology> sessions = () -> {
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String())).groupByKey()
                    .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(30),
                            Duration.ofSeconds(40)))
                    .emitStrategy(onWindowClose ? EmitStrategy.onWindowClose() : EmitStrategy.onWindowUpdate())
                    .aggregate(() -> "", (user, page, pages) -> pages + page.charAt(4),
                            (user, left, right) -> left + right,
                            Materialized.<String, String, SessionStore<Bytes, byte[]>>as("sessions")
                                    .withRetention(Duration.ofMinutes(10)))
                    .toStream((key, pages) -> windowed(key)).to("sessions-out");
            return builder.build();
        };
        assertSameOutcome(sessions, cacheBytes, driver -> {
            pipeClicks(driver);
            List<String> output = records(driver.createOutputTopic("sessions-out", Serdes.String().deserializer(),
                    Serdes.String().deserializer()));
            SessionStore<String, String> store = driver.getSessionStore("sessions");
            List<String> stores = new ArrayList<>();
            // bounded: a caching store steps through a time range segment by segment
            for (int user = 0; user < 40; user++) {
                stores.addAll(contents(store.findSessions("user" + user, START, START + 10_000_000)));
                stores.addAll(contents(store.backwardFindSessions("user" + user, START, START + 10_000_000)));
            }
            stores.addAll(contents(store.findSessions("user1", "user2", START + 1_000_000, START + 3_000_000)));
            stores.addAll(contents(store.findSessions("user3", "user5", START, START + 10_000_000)));
            if (onWindowClose) {
                // by session end, as the time-ordered stores emit them
                stores.addAll(contents(store.findSessions(START, START + 10_000_000)));
                stores.addAll(contents(store.findSessions(START + 1_000_000, START + 2_000_000)));
            }
            return new Outcome(output, stores);
        });
    }

    /** Splits a record whose value is "page:offset,..." into one record per page, offset ms after it. */
    static final class Bursts implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> context;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(FixedKeyRecord<String, String> record) {
            for (String event : record.value().split(",")) {
                String[] pageAndOffset = event.split(":");
                context.forward(record.withValue(pageAndOffset[0])
                        .withTimestamp(record.timestamp() + Long.parseLong(pageAndOffset[1])));
            }
        }
    }

    /**
     * Windowed aggregations that emit final results only ({@code EmitStrategy.onWindowClose()}):
     * tumbling, hopping and sliding windows, each emitting what closed by one range read of its
     * store; each final result is compared with the input record after which it came. With bursts, one input record becomes up to four records of its key, up to minutes
     * apart, processed before the next commit: windows updated in the record cache (and stored
     * at an earlier commit) close before the cache is flushed, so the emitting read merges cached
     * windows with stored ones, which the test driver's commit after every input record otherwise
     * hides.
     */
    @ParameterizedTest(name = "cache {0} bytes, bursts {1}")
    @CsvSource({"0, false", "1048576, false", "0, true", "1048576, true"})
    void windowedAggregationsEmitOnWindowClose(long cacheBytes, boolean bursts) {
        Supplier<Topology> aggregations = () -> {
            StreamsBuilder builder = new StreamsBuilder();
            var clicks = builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                    .processValues(Bursts::new).groupByKey();
            Map<String, Duration> retentions = Map.of("tumbling", Duration.ofMinutes(2), "hopping",
                    Duration.ofMinutes(3), "sliding", Duration.ofMinutes(2));
            Function<String, Materialized<String, String, WindowStore<Bytes, byte[]>>> store = name -> Materialized
                    .<String, String, WindowStore<Bytes, byte[]>>as(name).withRetention(retentions.get(name));
            Aggregator<String, String, String> pages = (user, page, visited) -> visited + page.charAt(4);
            clicks.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(1), Duration.ofSeconds(20)))
                    .emitStrategy(EmitStrategy.onWindowClose())
                    .aggregate(() -> "", pages, store.apply("tumbling"))
                    .toStream((key, visited) -> windowed(key)).to("tumbling-out");
            clicks.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(2), Duration.ZERO)
                            .advanceBy(Duration.ofSeconds(30)))
                    .emitStrategy(EmitStrategy.onWindowClose())
                    .aggregate(() -> "", pages, store.apply("hopping"))
                    .toStream((key, visited) -> windowed(key)).to("hopping-out");
            clicks.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(30), Duration.ofSeconds(10)))
                    .emitStrategy(EmitStrategy.onWindowClose())
                    .aggregate(() -> "", pages, store.apply("sliding"))
                    .toStream((key, visited) -> windowed(key)).to("sliding-out");
            return builder.build();
        };
        assertSameOutcome(aggregations, cacheBytes, driver -> {
            Random random = new Random(17);
            TestInputTopic<String, String> clicks = driver.createInputTopic("clicks",
                    Serdes.String().serializer(), Serdes.String().serializer());
            List<String> names = List.of("tumbling", "hopping", "sliding");
            List<TestOutputTopic<String, String>> outputs = names.stream().map(name -> driver.createOutputTopic(
                    name + "-out", Serdes.String().deserializer(), Serdes.String().deserializer())).toList();
            List<String> output = new ArrayList<>();
            long time = START;
            for (int i = 0; i < 400; i++) {
                time += random.nextInt(4000);
                long lateness = random.nextInt(10) == 0 ? random.nextInt(100_000) : 0;
                StringBuilder events = new StringBuilder("page" + random.nextInt(5) + ":0");
                long offset = 0;
                for (int more = bursts ? random.nextInt(4) : 0; more > 0; more--) {
                    offset += random.nextInt(90_000);
                    events.append(",page").append(random.nextInt(5)).append(':').append(offset);
                }
                clicks.pipeInput("user" + random.nextInt(30), events.toString(), Instant.ofEpochMilli(time - lateness));
                // each final result with the input record after which it came: when it was emitted
                for (int topic = 0; topic < names.size(); topic++) {
                    for (String result : records(outputs.get(topic))) {
                        output.add("after input " + i + ": " + names.get(topic) + " " + result);
                    }
                }
            }
            List<String> stores = new ArrayList<>();
            for (String name : names) {
                WindowStore<String, ValueAndTimestamp<String>> store = driver.getTimestampedWindowStore(name);
                // bounded: a caching store steps through a time range segment by segment
                stores.addAll(contents(store.fetchAll(Instant.ofEpochMilli(time - 150_000),
                        Instant.ofEpochMilli(time))));
                stores.addAll(contents(store.backwardFetchAll(Instant.ofEpochMilli(time - 150_000),
                        Instant.ofEpochMilli(time))));
                stores.addAll(contents(store.fetch("user1", "user3", Instant.ofEpochMilli(time - 150_000),
                        Instant.ofEpochMilli(time))));
                stores.addAll(contents(store.backwardFetch("user7", Instant.ofEpochMilli(time - 150_000),
                        Instant.ofEpochMilli(time))));
            }
            assertTrue(output.size() > 400, output.size() + " windows emitted");
            return new Outcome(output, stores);
        });
    }

    @ParameterizedTest(name = "cache {0} bytes")
    @ValueSource(longs = {0, 1 << 20})
    void streamStreamJoins(long cacheBytes) {
        Supplier<Topology> joins = () -> {
            StreamsBuilder builder = new StreamsBuilder();
            var views = builder.stream("views", Consumed.with(Serdes.String(), Serdes.String()));
            var clicks = builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()));
            JoinWindows window = JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(30), Duration.ofSeconds(10));
            views.join(clicks, (view, click) -> view + "+" + click, window).to("inner-out");
            views.outerJoin(clicks, (view, click) -> view + "+" + click, window).to("outer-out");
            return builder.build();
        };
        assertSameOutcome(joins, cacheBytes, driver -> {
            Random random = new Random(13);
            TestInputTopic<String, String> views = driver.createInputTopic("views",
                    Serdes.String().serializer(), Serdes.String().serializer());
            TestInputTopic<String, String> clicks = driver.createInputTopic("clicks",
                    Serdes.String().serializer(), Serdes.String().serializer());
            long time = START;
            for (int i = 0; i < 800; i++) {
                time += random.nextInt(3000);
                long lateness = random.nextInt(8) == 0 ? random.nextInt(60_000) : 0;
                (random.nextBoolean() ? views : clicks).pipeInput("user" + random.nextInt(30), "e" + i,
                        Instant.ofEpochMilli(time - lateness));
            }
            List<String> output = new ArrayList<>();
            for (String topic : List.of("inner-out", "outer-out")) {
                output.addAll(records(driver.createOutputTopic(topic, Serdes.String().deserializer(),
                        Serdes.String().deserializer())));
            }
            return new Outcome(output, List.of());
        });
    }

    /** Emits each key's first value only, remembering keys in a key-value store built by the caller. */
    static final class FirstSeen implements Processor<String, String, String, String> {
        private final String storeName;
        private KeyValueStore<String, String> seen;
        private ProcessorContext<String, String> context;

        FirstSeen(String storeName) {
            this.storeName = storeName;
        }

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            this.seen = context.getStateStore(storeName);
        }

        @Override
        public void process(Record<String, String> record) {
            if (seen.putIfAbsent(record.key(), record.value()) == null) {
                context.forward(record);
            }
        }
    }

    @ParameterizedTest(name = "cache {0} bytes")
    @ValueSource(longs = {0, 1 << 20})
    void processorApiStoreBuilders(long cacheBytes) {
        Function<KeyValueBytesStoreSupplier, Topology> topology = supplier -> {
            Topology t = new Topology();
            t.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), "events");
            t.addProcessor("first", () -> new FirstSeen("seen"), "in");
            t.addStateStore(Stores.keyValueStoreBuilder(supplier, Serdes.String(), Serdes.String())
                    .withCachingEnabled(), "first");
            t.addSink("out", "firsts", Serdes.String().serializer(), Serdes.String().serializer(), "first");
            return t;
        };
        Function<TopologyTestDriver, Outcome> run = driver -> {
            TestInputTopic<String, String> input = driver.createInputTopic("events",
                    Serdes.String().serializer(), Serdes.String().serializer());
            for (int i = 0; i < 2000; i++) {
                input.pipeInput("k" + (i * 31 % 500), "v" + i, i);
            }
            KeyValueStore<String, String> seen = driver.getKeyValueStore("seen");
            return new Outcome(records(driver.createOutputTopic("firsts", Serdes.String().deserializer(),
                    Serdes.String().deserializer())), contents(seen.range("k1", "k3")));
        };
        Outcome builtIn;
        try (TopologyTestDriver driver = new TopologyTestDriver(
                topology.apply(Stores.persistentKeyValueStore("seen")),
                config(BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class, cacheBytes, "builtin"))) {
            builtIn = run.apply(driver);
            assertEveryPersistentStoreIs(driver, BUILT_IN);
        }
        try (TopologyTestDriver driver = new TopologyTestDriver(topology.apply(PinrockStores.keyValueStore("seen")),
                config(BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class, cacheBytes, "pinrock"))) {
            assertEquals(builtIn, run.apply(driver));
            assertEveryPersistentStoreIs(driver, PINROCK);
            assertTrue(Files.isDirectory(stateDir.resolve("pinrock/agree/0_0/pinrock/seen")));
        }
        assertEquals(500, builtIn.output().size());
    }
}
