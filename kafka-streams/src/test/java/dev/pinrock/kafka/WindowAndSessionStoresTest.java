package dev.pinrock.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.state.internals.RocksDbIndexedTimeOrderedWindowBytesStoreSupplier;
import org.apache.kafka.streams.state.internals.RocksDbTimeOrderedSessionBytesStoreSupplier;
import org.apache.kafka.streams.state.internals.SessionKeySchema;
import org.apache.kafka.streams.state.internals.WindowKeySchema;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * pinrock's window and session stores against the built-in ones: random
 * operations through a processor (the built-in stores need Kafka Streams'
 * internal context, so both run inside {@link TopologyTestDriver}), every
 * answer compared; then retention, restoration, queries and misuse on
 * pinrock's stores directly.
 */
class WindowAndSessionStoresTest {
    private static final long MINUTE = 60_000;
    private static final long START = 1_700_000_000_000L;
    /** Keys where one is a prefix of another, so binary ranges let foreign keys through. */
    private static final List<String> KEYS = List.of("a", "aa", "ab", "b", "ba", "c");
    private static final Bytes A = Bytes.wrap("a".getBytes());
    private static final Bytes B = Bytes.wrap("b".getBytes());

    @TempDir
    Path stateDir;

    /** Runs one operation (a line of words) on a store and describes the answer. */
    interface Operations<S> {
        String run(S store, String[] op);
    }

    /** Applies each input record's operation to the store and forwards the answer. */
    record Exerciser<S>(String storeName, Operations<S> operations)
            implements Processor<String, String, String, String> {
        private static final ThreadLocal<ProcessorContext<String, String>> CONTEXT = new ThreadLocal<>();

        @Override
        public void init(ProcessorContext<String, String> context) {
            CONTEXT.set(context);
        }

        @Override
        public void process(Record<String, String> record) {
            ProcessorContext<String, String> context = CONTEXT.get();
            S store = context.getStateStore(storeName);
            String answer;
            try {
                answer = operations.run(store, record.value().split(" "));
            } catch (RuntimeException e) {
                answer = "threw " + e.getClass().getSimpleName();
            }
            context.forward(record.withValue(answer));
        }
    }

    private List<String> exercise(StoreBuilder<?> store, Operations<?> operations, List<String> ops, String run) {
        Topology topology = new Topology();
        topology.addSource("ops", Serdes.String().deserializer(), Serdes.String().deserializer(), "ops");
        topology.addProcessor("exercise", () -> new Exerciser<>(store.name(), operations), "ops");
        topology.addStateStore(store, "exercise");
        topology.addSink("answers", "answers", Serdes.String().serializer(), Serdes.String().serializer(),
                "exercise");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "exercise");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:0");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(run).toString());
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, props)) {
            TestInputTopic<String, String> input = driver.createInputTopic("ops", Serdes.String().serializer(),
                    Serdes.String().serializer());
            for (String op : ops) {
                input.pipeInput("op", op, START);
            }
            return driver.createOutputTopic("answers", Serdes.String().deserializer(),
                    Serdes.String().deserializer()).readValuesToList();
        }
    }

    private static <K> String describe(KeyValueIterator<K, String> iterator, Function<K, String> key) {
        StringBuilder answer = new StringBuilder();
        try (iterator) {
            while (iterator.hasNext()) {
                KeyValue<K, String> entry = iterator.next();
                answer.append(key.apply(entry.key)).append('=').append(entry.value).append(' ');
            }
        }
        return answer.toString();
    }

    private static String windowed(Windowed<String> key) {
        return key.key() + "@" + key.window().start() + "/" + key.window().end();
    }

    private static String key(Random random) {
        return random.nextInt(8) == 0 ? "-" : KEYS.get(random.nextInt(KEYS.size()));
    }

    private static String nullable(String key) {
        return "-".equals(key) ? null : key;
    }

    /** The time range that ends an operation: its last two words. */
    private static long from(String[] op) {
        return Long.parseLong(op[op.length - 2]);
    }

    private static long to(String[] op) {
        return Long.parseLong(op[op.length - 1]);
    }

    private static final Operations<WindowStore<String, String>> WINDOW_OPERATIONS = (store, op) -> {
        return switch (op[0]) {
            case "put" -> {
                store.put(op[1], "null".equals(op[3]) ? null : op[3], Long.parseLong(op[2]));
                yield "ok";
            }
            case "fetch1" -> String.valueOf(store.fetch(op[1], Long.parseLong(op[2])));
            case "fetch" -> describe(store.fetch(op[1], from(op), to(op)), String::valueOf);
            case "bfetch" -> describe(store.backwardFetch(op[1], from(op), to(op)), String::valueOf);
            case "range" -> describe(store.fetch(nullable(op[1]), nullable(op[2]), from(op), to(op)),
                    WindowAndSessionStoresTest::windowed);
            case "brange" -> describe(store.backwardFetch(nullable(op[1]), nullable(op[2]), from(op), to(op)),
                    WindowAndSessionStoresTest::windowed);
            case "fetchAll" -> describe(store.fetchAll(from(op), to(op)), WindowAndSessionStoresTest::windowed);
            case "bfetchAll" -> describe(store.backwardFetchAll(from(op), to(op)), WindowAndSessionStoresTest::windowed);
            case "all" -> describe(store.all(), WindowAndSessionStoresTest::windowed);
            case "ball" -> describe(store.backwardAll(), WindowAndSessionStoresTest::windowed);
            default -> throw new IllegalArgumentException(op[0]);
        };
    };

    /** Random window operations over a stream time that moves on, so that segments expire. */
    private static List<String> windowOperations(long seed) {
        Random random = new Random(seed);
        List<String> ops = new ArrayList<>();
        long time = START;
        for (int i = 0; i < 400; i++) {
            time += random.nextInt(5000);
            long windowStart = time - random.nextInt(4) * MINUTE - (time % MINUTE);
            long from = time - random.nextInt(6) * MINUTE;
            long to = from + random.nextInt(5) * MINUTE;
            String k = KEYS.get(random.nextInt(KEYS.size()));
            ops.add(switch (random.nextInt(12)) {
                case 0, 1, 2, 3 -> "put " + k + " " + windowStart + " v" + i;
                case 4 -> "put " + k + " " + windowStart + " null";
                case 5 -> "fetch1 " + k + " " + windowStart;
                case 6 -> (random.nextBoolean() ? "fetch " : "bfetch ") + k + " " + from + " " + to;
                case 7, 8 -> (random.nextBoolean() ? "range " : "brange ") + key(random) + " " + key(random)
                        + " " + from + " " + to;
                case 9 -> (random.nextBoolean() ? "fetchAll " : "bfetchAll ") + from + " " + to;
                default -> random.nextBoolean() ? "all" : "ball";
            });
        }
        return ops;
    }

    /** A kind of window store: pinrock's supplier and the built-in one it must answer as. */
    enum WindowKind {
        /** The window store. */
        PLAIN,
        /** The time-ordered one that tumbling and hopping windows emitting on window close get. */
        TIME_ORDERED,
        /** The time-ordered one that sliding windows emitting on window close get (key ranges by key). */
        TIME_ORDERED_SLIDING;

        WindowBytesStoreSupplier pinrock(String name, Duration retention, Duration size, boolean duplicates) {
            return switch (this) {
                case PLAIN -> PinrockStores.windowStore(name, retention, size, duplicates);
                case TIME_ORDERED -> PinrockStores.timeOrderedWindowStore(name, retention, size, duplicates);
                case TIME_ORDERED_SLIDING -> PinrockStores.timeOrderedSlidingWindowStore(name, retention, size,
                        duplicates);
            };
        }

        WindowBytesStoreSupplier builtIn(String name, Duration retention, Duration size, boolean duplicates) {
            return this == PLAIN ? Stores.persistentWindowStore(name, retention, size, duplicates)
                    : RocksDbIndexedTimeOrderedWindowBytesStoreSupplier.create(name, retention, size, duplicates,
                            this == TIME_ORDERED_SLIDING);
        }
    }

    /** Runs window operations on a store of a supplier (without change logging) and returns its answers. */
    private List<String> exerciseWindows(WindowBytesStoreSupplier supplier, List<String> ops, String run) {
        return exercise(Stores.windowStoreBuilder(supplier, Serdes.String(), Serdes.String()).withLoggingDisabled(),
                WINDOW_OPERATIONS, ops, run);
    }

    @ParameterizedTest(name = "{0}, retainDuplicates {1}")
    @CsvSource({"PLAIN, false", "PLAIN, true", "TIME_ORDERED, false", "TIME_ORDERED, true",
            "TIME_ORDERED_SLIDING, false", "TIME_ORDERED_SLIDING, true"})
    void windowStoresAgreeOnRandomOperations(WindowKind kind, boolean retainDuplicates) {
        long seed = Seeds.next("windowStoresAgreeOnRandomOperations");
        List<String> ops = windowOperations(seed);
        List<String> builtIn = exerciseWindows(kind.builtIn("w", Duration.ofMinutes(3), Duration.ofMinutes(1),
                retainDuplicates), ops, "builtin");
        List<String> pinrock = exerciseWindows(kind.pinrock("w", Duration.ofMinutes(3), Duration.ofMinutes(1),
                retainDuplicates), ops, "pinrock");
        for (int i = 0; i < ops.size(); i++) {
            assertEquals(builtIn.get(i), pinrock.get(i), "seed " + seed + ", operation " + i + ": " + ops.get(i));
        }
        assertTrue(builtIn.stream().filter(answer -> answer.contains("=")).count() > 50, "queries found entries");
    }

    /**
     * Hostile inputs, as a user could send them through the public API: time ranges inverted,
     * empty, negative and out to {@code Long.MIN_VALUE}/{@code MAX_VALUE}; key ranges inverted and
     * open; windows at the retention's edge; deletes. Each store kind answers each as its built-in
     * counterpart does, but for one time-ordered answer: a range from before 0 while stream time
     * is younger than the retention finds the windows in it, where the built-in time-ordered store
     * finds none (it turns the negative start into the lower bound of its time-first keys, which
     * sorts after every window).
     */
    @ParameterizedTest(name = "{0}, retainDuplicates {1}")
    @CsvSource({"PLAIN, false", "PLAIN, true", "TIME_ORDERED, false", "TIME_ORDERED, true",
            "TIME_ORDERED_SLIDING, false", "TIME_ORDERED_SLIDING, true"})
    void windowStoresAgreeOnHostileOperations(WindowKind kind, boolean retainDuplicates) {
        String min = Long.toString(Long.MIN_VALUE);
        String max = Long.toString(Long.MAX_VALUE);
        List<String> ops = List.of(
                // a young store: stream time minus the retention is negative
                "put z 1000 v0", "fetchAll -100 5000", "range - - -100 5000", "fetch z -100 5000", "all",
                "put a 60000 v1", "put b 0 v2", "put a 120000 v3", "put c 180000 v4",
                // stream time 180000, retention 180000: the window at 0 is at the retention's edge
                "fetch1 b 0", "fetch b 0 0", "range - - 0 0", "fetchAll 0 0", "fetchAll -1 -1",
                "fetchAll -100 100", "fetchAll " + min + " " + max, "fetchAll " + max + " " + min,
                "bfetchAll " + min + " " + max, "fetchAll " + max + " " + max,
                "fetch a " + min + " " + max, "bfetch a " + min + " " + max, "fetch a 200000 0",
                "fetch a " + max + " " + max, "range a c " + min + " " + max, "brange a c " + min + " " + max,
                "range c a 0 200000", "range - a 0 200000", "brange b - 0 200000", "all", "ball",
                "put b 0 v5", "fetch1 b 0", "put a 240000 v6", "fetch1 a 60000", "fetchAll 0 300000",
                "put a 60000 null", "fetchAll 0 300000", "all", "fetch1 a 240000", "range - - " + max + " " + max);
        List<String> builtIn = exerciseWindows(kind.builtIn("w", Duration.ofMinutes(3), Duration.ofMinutes(1),
                retainDuplicates), ops, "builtin");
        List<String> pinrock = exerciseWindows(kind.pinrock("w", Duration.ofMinutes(3), Duration.ofMinutes(1),
                retainDuplicates), ops, "pinrock");
        List<String> fromBeforeZeroByTime = kind == WindowKind.TIME_ORDERED
                ? List.of("fetchAll -100 5000", "range - - -100 5000")
                : kind == WindowKind.TIME_ORDERED_SLIDING ? List.of("fetchAll -100 5000") : List.of();
        for (int i = 0; i < ops.size(); i++) {
            String op = ops.get(i);
            if (fromBeforeZeroByTime.contains(op)) {
                assertEquals("", builtIn.get(i), "the built-in store finds nothing: " + op);
                assertEquals("z@1000/61000=v0 ", pinrock.get(i), op);
            } else {
                assertEquals(builtIn.get(i), pinrock.get(i), "operation " + i + ": " + op);
            }
        }
    }

    /**
     * A window no Kafka Streams window can be is refused: one starting before 0 (the built-in
     * store takes it, then finds it nowhere) or at {@code Long.MAX_VALUE} (the built-in store takes
     * it, then fails every range query that reaches it: its end cannot follow its start). The
     * store goes on answering.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(WindowKind.class)
    void windowsThatNoKafkaWindowCanBeAreRefused(WindowKind kind) {
        WindowStore<Bytes, byte[]> store = open(kind.pinrock("w", Duration.ofMinutes(3), Duration.ofMinutes(1),
                false).get(), new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        Bytes key = Bytes.wrap(new byte[] {1});
        store.put(key, new byte[] {1}, MINUTE);
        for (long start : new long[] {-1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> store.put(key, new byte[] {2}, start));
            assertTrue(refused.getMessage().contains("cannot keep a window starting at " + start),
                    refused.getMessage());
        }
        try (KeyValueIterator<Windowed<Bytes>, byte[]> all = store.all()) {
            assertEquals(MINUTE, all.next().key.window().start());
            assertFalse(all.hasNext());
        }
        store.close();
    }

    private static final Operations<SessionStore<String, String>> SESSION_OPERATIONS = (store, op) -> {
        return switch (op[0]) {
            case "put" -> {
                store.put(new Windowed<>(op[1], new SessionWindow(Long.parseLong(op[2]), Long.parseLong(op[3]))),
                        op[4]);
                yield "ok";
            }
            case "remove" -> {
                store.remove(new Windowed<>(op[1], new SessionWindow(from(op), to(op))));
                yield "ok";
            }
            case "fetchSession" -> String.valueOf(store.fetchSession(op[1], from(op), to(op)));
            case "find" -> describe(store.findSessions(op[1], from(op), to(op)), WindowAndSessionStoresTest::windowed);
            case "findRange" -> describe(store.findSessions(nullable(op[1]), nullable(op[2]), from(op), to(op)),
                    WindowAndSessionStoresTest::windowed);
            case "fetch" -> describe(store.fetch(op[1]), WindowAndSessionStoresTest::windowed);
            case "fetchRange" -> describe(store.fetch(op[1], op[2]), WindowAndSessionStoresTest::windowed);
            case "findByEnd" -> {
                try {
                    yield describe(store.findSessions(from(op), to(op)), WindowAndSessionStoresTest::windowed);
                } catch (UnsupportedOperationException e) {
                    yield "unsupported: " + e.getMessage();
                }
            }
            default -> throw new IllegalArgumentException(op[0]);
        };
    };

    /**
     * The session stores, and the time-ordered ones (emit-on-window-close aggregations' stores,
     * which also answer findSessions by session end), answer alike.
     */
    @ParameterizedTest(name = "time-ordered {0}")
    @ValueSource(booleans = {false, true})
    void sessionStoresAgreeOnRandomOperations(boolean timeOrdered) {
        long seed = Seeds.next("sessionStoresAgreeOnRandomOperations");
        Random random = new Random(seed);
        List<String> ops = new ArrayList<>();
        List<String> sessions = new ArrayList<>();
        long time = START;
        for (int i = 0; i < 400; i++) {
            time += random.nextInt(5000);
            long end = time - random.nextInt(3) * MINUTE;
            long start = end - random.nextInt(3) * 20_000;
            String k = KEYS.get(random.nextInt(KEYS.size()));
            long earliestEnd = time - random.nextInt(6) * MINUTE;
            long latestStart = earliestEnd + random.nextInt(5) * MINUTE;
            ops.add(switch (random.nextInt(11)) {
                case 0, 1, 2 -> {
                    sessions.add(k + " " + start + " " + end);
                    yield "put " + k + " " + start + " " + end + " v" + i;
                }
                case 3 -> "remove " + (sessions.isEmpty() ? k + " 0 0" : sessions.get(random.nextInt(sessions.size())));
                case 4 -> "fetchSession " + (sessions.isEmpty() ? k + " 0 0"
                        : sessions.get(random.nextInt(sessions.size())));
                case 5 -> "find " + k + " " + earliestEnd + " " + latestStart;
                case 6, 7 -> "findRange " + key(random) + " " + key(random) + " " + earliestEnd + " " + latestStart;
                case 8 -> "fetch " + k;
                case 9 -> "findByEnd " + switch (random.nextInt(8)) {
                    // the extremes too, where the time encoding's sign matters (up to the largest time
                    // but one: the built-in store answers nothing up to Long.MAX_VALUE, see below)
                    case 0 -> Long.MIN_VALUE + " " + (Long.MAX_VALUE - 1);
                    case 1 -> "0 " + (Long.MAX_VALUE - 1);
                    case 2 -> "-5 " + earliestEnd;
                    default -> earliestEnd + " " + (earliestEnd + random.nextInt(5) * MINUTE);
                };
                default -> "fetchRange " + k + " " + KEYS.get(random.nextInt(KEYS.size()));
            });
        }
        Function<SessionBytesStoreSupplier, StoreBuilder<?>> builder = supplier -> Stores.sessionStoreBuilder(
                supplier, Serdes.String(), Serdes.String()).withLoggingDisabled();
        Duration retention = Duration.ofMinutes(4);
        List<String> builtIn = exercise(builder.apply(timeOrdered
                ? new RocksDbTimeOrderedSessionBytesStoreSupplier("s", retention.toMillis(), true)
                : Stores.persistentSessionStore("s", retention)), SESSION_OPERATIONS, ops, "builtin");
        List<String> pinrock = exercise(builder.apply(timeOrdered
                ? PinrockStores.timeOrderedSessionStore("s", retention)
                : PinrockStores.sessionStore("s", retention)), SESSION_OPERATIONS, ops, "pinrock");
        for (int i = 0; i < ops.size(); i++) {
            assertEquals(builtIn.get(i), pinrock.get(i), "seed " + seed + ", operation " + i + ": " + ops.get(i));
        }
        assertTrue(builtIn.stream().filter(answer -> answer.contains("=")).count() > 50, "queries found entries");
        assertTrue(builtIn.stream().anyMatch(answer -> answer.startsWith(timeOrdered ? "a@" : "unsupported")),
                "findSessions by session end answered");
    }

    /**
     * The backward session queries, which a processor cannot reach (Kafka
     * Streams' read-write decorator lacks them): each is its forward query reversed.
     */
    @Test
    void backwardSessionQueriesAreTheForwardOnesReversed() {
        SessionStore<Bytes, byte[]> store = open(PinrockStores.sessionStore("s", Duration.ofMinutes(4)).get(),
                new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        Random random = new Random(3);
        for (int i = 0; i < 300; i++) {
            long end = START + random.nextInt(400) * 1000L;
            Bytes key = Bytes.wrap(KEYS.get(random.nextInt(KEYS.size())).getBytes());
            store.put(new Windowed<>(key, new SessionWindow(end - random.nextInt(30_000), end)), new byte[] {1});
        }
        Bytes a = Bytes.wrap("a".getBytes());
        Bytes b = Bytes.wrap("b".getBytes());
        long from = START + 100_000;
        long to = START + 300_000;
        assertReversed(store.findSessions(a, from, to), store.backwardFindSessions(a, from, to));
        assertReversed(store.findSessions(a, b, from, to), store.backwardFindSessions(a, b, from, to));
        assertReversed(store.findSessions(null, b, from, to), store.backwardFindSessions(null, b, from, to));
        assertReversed(store.fetch(a), store.backwardFetch(a));
        assertReversed(store.fetch(a, b), store.backwardFetch(a, b));
        store.close();
    }

    private static void assertReversed(KeyValueIterator<Windowed<Bytes>, byte[]> forward,
            KeyValueIterator<Windowed<Bytes>, byte[]> backward) {
        List<String> expected = new ArrayList<>();
        try (forward) {
            forward.forEachRemaining(entry -> expected.add(0, entry.key.toString()));
        }
        List<String> actual = new ArrayList<>();
        try (backward) {
            backward.forEachRemaining(entry -> actual.add(entry.key.toString()));
        }
        assertFalse(expected.isEmpty());
        assertEquals(expected, actual);
    }

    private <S extends org.apache.kafka.streams.processor.StateStore> S open(S store, StoreContexts.Recording context) {
        store.init(context, store);
        return store;
    }

    private List<String> segmentDirectories(String store) throws IOException {
        try (Stream<Path> found = Files.list(stateDir.resolve("pinrock").resolve(store))) {
            return found.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void expiredSegmentsAreDeletedAndTheirRecordsDropped() throws IOException {
        StoreContexts.Recording context = new StoreContexts.Recording(stateDir.toFile(), Map.of());
        WindowStore<Bytes, byte[]> store = open(PinrockStores.windowStore("w", Duration.ofMinutes(3),
                Duration.ofMinutes(1), false).get(), context);
        Bytes key = Bytes.wrap(new byte[] {1});
        store.put(key, new byte[] {1}, 0);
        store.put(key, new byte[] {2}, 90_000);
        assertEquals(List.of("w.0", "w.90000"), segmentDirectories("w"), "segments of 90 s: half the retention");
        store.put(key, new byte[] {3}, 5 * MINUTE);
        assertEquals(List.of("w.270000", "w.90000"), segmentDirectories("w"), "segment 0 expired and deleted");
        store.put(key, new byte[] {4}, 0);
        assertNull(store.fetch(key, 0), "a record for an expired segment is dropped");
        try (WindowStoreIterator<byte[]> all = store.fetch(key, 0, Long.MAX_VALUE)) {
            assertEquals(5 * MINUTE, all.next().key);
            assertFalse(all.hasNext());
        }
        store.close();
        WindowStore<Bytes, byte[]> reopened = open(PinrockStores.windowStore("w", Duration.ofMinutes(3),
                Duration.ofMinutes(1), false).get(), new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        assertEquals(3, reopened.fetch(key, 5 * MINUTE)[0], "segments found on disk reopen");
        reopened.close();
    }

    @Test
    void restorationWritesIntoLiveSegmentsOnly() throws IOException {
        StoreContexts.Recording context = new StoreContexts.Recording(stateDir.toFile(), Map.of());
        WindowStore<Bytes, byte[]> store = open(PinrockStores.timestampedWindowStore("t", Duration.ofMinutes(3),
                Duration.ofMinutes(1), false).get(), context);
        assertInstanceOf(TimestampedBytesStore.class, store);
        BatchingStateRestoreCallback restore = assertInstanceOf(BatchingStateRestoreCallback.class,
                context.restoreCallback);
        Bytes key = Bytes.wrap(new byte[] {7});
        restore.restoreAll(List.of(
                KeyValue.pair(WindowKeySchema.toStoreKeyBinary(key, 0, 0).get(), new byte[] {0}),
                KeyValue.pair(WindowKeySchema.toStoreKeyBinary(key, 4 * MINUTE, 0).get(), new byte[] {4}),
                KeyValue.pair(WindowKeySchema.toStoreKeyBinary(key, 5 * MINUTE, 0).get(), new byte[] {5}),
                KeyValue.pair(WindowKeySchema.toStoreKeyBinary(key, 5 * MINUTE, 0).get(), null)));
        assertEquals(List.of("t.180000", "t.270000"), segmentDirectories("t"));
        assertNull(store.fetch(key, 0));
        assertEquals(4, store.fetch(key, 4 * MINUTE)[0]);
        assertNull(store.fetch(key, 5 * MINUTE), "a null value deletes");
        store.close();
    }

    /** The time order of a time-ordered session store is restored from the changelog and reopened from disk. */
    @Test
    void aTimeOrderedSessionStoreKeepsItsTimeOrderThroughRestorationAndReopening() {
        StoreContexts.Recording context = new StoreContexts.Recording(stateDir.toFile(), Map.of());
        SessionStore<Bytes, byte[]> store = openTimeOrdered("o", context);
        restorer(context).restoreAll(List.of(
                KeyValue.pair(SessionKeySchema.toBinary(B, START, START + 2 * MINUTE).get(), new byte[] {1}),
                KeyValue.pair(SessionKeySchema.toBinary(A, START + MINUTE, START + 2 * MINUTE).get(), new byte[] {2}),
                KeyValue.pair(SessionKeySchema.toBinary(A, START, START + MINUTE).get(), new byte[] {3}),
                KeyValue.pair(SessionKeySchema.toBinary(B, START + 3 * MINUTE, START + 3 * MINUTE).get(), new byte[] {4}),
                KeyValue.pair(SessionKeySchema.toBinary(B, START + 3 * MINUTE, START + 3 * MINUTE).get(), null)));
        store.put(new Windowed<>(B, new SessionWindow(START + 4 * MINUTE, START + 5 * MINUTE)), new byte[] {5});
        List<String> byEnd = List.of("a@" + START + "/" + (START + MINUTE) + "=3",
                "b@" + START + "/" + (START + 2 * MINUTE) + "=1",
                "a@" + (START + MINUTE) + "/" + (START + 2 * MINUTE) + "=2",
                "b@" + (START + 4 * MINUTE) + "/" + (START + 5 * MINUTE) + "=5");
        assertEquals(byEnd, byEnd(store));
        try (KeyValueIterator<Windowed<Bytes>, byte[]> every = store.findSessions(0, Long.MAX_VALUE);
                KeyValueIterator<Windowed<Bytes>, byte[]> none = store.findSessions(START + MINUTE, START)) {
            assertEquals(4, Stream.generate(() -> null).takeWhile(unused -> every.hasNext() && every.next() != null)
                    .count());
            assertFalse(none.hasNext(), "an inverted time range is empty");
            // (the built-in time-ordered store answers nothing up to Long.MAX_VALUE: the range's end,
            // the time after it, overflows)
        }
        KeyValueIterator<Windowed<Bytes>, byte[]> leftOpen = store.findSessions(START, START + 10 * MINUTE);
        store.close();
        assertFalse(leftOpen.hasNext(), "an iterator left open at close has no next entry");
        SessionStore<Bytes, byte[]> reopened = openTimeOrdered("o",
                new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        assertEquals(byEnd, byEnd(reopened));
        reopened.remove(new Windowed<>(A, new SessionWindow(START, START + MINUTE)));
        assertEquals(byEnd.subList(1, 4), byEnd(reopened), "a removed session leaves the time order too");
        reopened.close();
    }

    /** A store that becomes time-ordered (its aggregation now emits on window close) finds its earlier sessions by time. */
    @Test
    void aSessionStoreThatBecomesTimeOrderedFindsItsEarlierSessionsByTime() throws IOException {
        SessionStore<Bytes, byte[]> plain = open(PinrockStores.sessionStore("p", Duration.ofMinutes(4)).get(),
                new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        Bytes a = Bytes.wrap("a".getBytes());
        plain.put(new Windowed<>(a, new SessionWindow(START + MINUTE, START + 2 * MINUTE)), new byte[] {1});
        plain.put(new Windowed<>(a, new SessionWindow(START, START)), new byte[] {2});
        plain.close();
        // As a crash while a first open indexed them leaves it: the index family, not complete.
        try (Stream<Path> segments = Files.list(stateDir.resolve("pinrock").resolve("p"))) {
            for (Path segment : segments.toList()) {
                try (RocksDb db = RocksDb.open(segment, DbOptions.create())) {
                    db.createColumnFamily("by-time");
                }
            }
        }
        SessionStore<Bytes, byte[]> timeOrdered = openTimeOrdered("p",
                new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        timeOrdered.put(new Windowed<>(a, new SessionWindow(START + MINUTE, START + 3 * MINUTE)), new byte[] {3});
        assertEquals(List.of("a@" + START + "/" + START + "=2", "a@" + (START + MINUTE) + "/" + (START + 2 * MINUTE)
                + "=1", "a@" + (START + MINUTE) + "/" + (START + 3 * MINUTE) + "=3"), byEnd(timeOrdered));
        timeOrdered.close();
        SessionStore<Bytes, byte[]> plainAgain = open(PinrockStores.sessionStore("p", Duration.ofMinutes(4)).get(),
                new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        assertEquals(3, plainAgain.fetchSession(a, START + MINUTE, START + 3 * MINUTE)[0], "and back");
        plainAgain.close();
    }

    /** A time-ordered store's RocksDB metrics count its time index too, as the built-in's count its index. */
    @Test
    void aTimeOrderedSessionStoresMetricsCountItsTimeIndex() {
        StoreContexts.Recording context = new StoreContexts.Recording(stateDir.toFile(), Map.of());
        SessionStore<Bytes, byte[]> store = openTimeOrdered("m", context);
        for (int i = 0; i < 100; i++) {
            store.put(new Windowed<>(Bytes.wrap(new byte[] {(byte) i}), new SessionWindow(START, START)),
                    new byte[] {1});
        }
        double entries = context.metrics().metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("num-entries-active-mem-table")
                        && "m".equals(e.getKey().tags().get("pinrock-session-state-id")))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst().orElseThrow();
        assertEquals(201, entries, "100 sessions, their 100 index entries and the mark of a complete index");
        store.close();
    }

    /**
     * A time-ordered window store's time order is restored from the changelog (Kafka's key-first
     * window keys), kept by later writes and deletes, and reopened from disk.
     */
    @Test
    void aTimeOrderedWindowStoreKeepsItsTimeOrderThroughRestorationAndReopening() {
        StoreContexts.Recording context = new StoreContexts.Recording(stateDir.toFile(), Map.of());
        WindowStore<Bytes, byte[]> store = openTimeOrderedWindows("o", context);
        restorer(context).restoreAll(List.of(
                KeyValue.pair(WindowKeySchema.toStoreKeyBinary(B, START, 0).get(), new byte[] {1}),
                KeyValue.pair(WindowKeySchema.toStoreKeyBinary(A, START + MINUTE, 0).get(), new byte[] {2}),
                KeyValue.pair(WindowKeySchema.toStoreKeyBinary(A, START, 0).get(), new byte[] {3}),
                KeyValue.pair(WindowKeySchema.toStoreKeyBinary(B, START + 2 * MINUTE, 0).get(), new byte[] {4}),
                KeyValue.pair(WindowKeySchema.toStoreKeyBinary(B, START + 2 * MINUTE, 0).get(), null)));
        store.put(B, new byte[] {5}, START + 3 * MINUTE);
        List<String> byStart = List.of("a@" + START + "=3", "b@" + START + "=1", "a@" + (START + MINUTE) + "=2",
                "b@" + (START + 3 * MINUTE) + "=5");
        assertEquals(byStart, byStart(store));
        KeyValueIterator<Windowed<Bytes>, byte[]> leftOpen = store.fetchAll(START, START + 10 * MINUTE);
        store.close();
        assertFalse(leftOpen.hasNext(), "an iterator left open at close has no next entry");
        WindowStore<Bytes, byte[]> reopened = openTimeOrderedWindows("o",
                new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        assertEquals(byStart, byStart(reopened));
        reopened.put(A, null, START);
        assertEquals(byStart.subList(1, 4), byStart(reopened), "a deleted window leaves the time order too");
        reopened.close();
    }

    /**
     * A window store that becomes time-ordered (its aggregation now emits on window close) finds
     * its earlier windows by time: in a segment without the index family, and in one whose index
     * a crash left incomplete.
     */
    @Test
    void aWindowStoreThatBecomesTimeOrderedFindsItsEarlierWindowsByTime() throws IOException {
        WindowStore<Bytes, byte[]> plain = open(PinrockStores.timestampedWindowStore("p", Duration.ofMinutes(4),
                Duration.ofMinutes(1), false).get(), new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        plain.put(B, new byte[] {1}, START);
        plain.put(A, new byte[] {2}, START + MINUTE);
        plain.put(A, new byte[] {3}, START + 3 * MINUTE);
        plain.close();
        List<String> segments = segmentDirectories("p");
        assertTrue(segments.size() > 1, "several segments: " + segments);
        try (RocksDb db = RocksDb.open(stateDir.resolve("pinrock").resolve("p").resolve(segments.get(0)),
                DbOptions.create())) {
            db.createColumnFamily("by-time");
        }
        WindowStore<Bytes, byte[]> timeOrdered = openTimeOrderedWindows("p",
                new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        timeOrdered.put(B, new byte[] {4}, START + 3 * MINUTE);
        assertEquals(List.of("b@" + START + "=1", "a@" + (START + MINUTE) + "=2", "a@" + (START + 3 * MINUTE) + "=3",
                "b@" + (START + 3 * MINUTE) + "=4"), byStart(timeOrdered));
        timeOrdered.close();
    }

    /**
     * Interactive queries read a time-ordered window store while the stream thread writes into it
     * and its segments expire: every answer is in time order without a window twice, and no read
     * fails.
     */
    @Test
    void timeOrderedReadsDuringWritesAndExpiryStayOrdered() throws Exception {
        WindowStore<Bytes, byte[]> store = openTimeOrderedWindows("c",
                new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong windowsRead = new AtomicLong();
        Callable<Void> reader = () -> {
            for (int round = 0; writing.get(); round++) {
                try (KeyValueIterator<Windowed<Bytes>, byte[]> found = switch (round % 3) {
                    case 0 -> store.fetchAll(0, Long.MAX_VALUE);
                    case 1 -> store.all();
                    default -> store.fetch(Bytes.wrap(new byte[] {10}), Bytes.wrap(new byte[] {40}), 0,
                            Long.MAX_VALUE);
                }) {
                    long lastStart = -1;
                    Bytes lastKey = null;
                    while (found.hasNext()) {
                        Windowed<Bytes> window = found.next().key;
                        long start = window.window().start();
                        assertTrue(start > lastStart || start == lastStart && window.key().compareTo(lastKey) > 0,
                                window + " after " + lastKey + "@" + lastStart);
                        lastStart = start;
                        lastKey = window.key();
                        windowsRead.incrementAndGet();
                    }
                }
            }
            return null;
        };
        ExecutorService readers = Executors.newFixedThreadPool(2);
        try {
            List<Future<Void>> reading = List.of(readers.submit(reader), readers.submit(reader));
            for (int i = 0; i < 20_000; i++) {
                store.put(Bytes.wrap(new byte[] {(byte) (i % 50)}), new byte[] {1}, START + i * 100L);
            }
            writing.set(false);
            for (Future<Void> read : reading) {
                read.get();
            }
        } finally {
            writing.set(false);
            readers.shutdownNow();
        }
        assertTrue(windowsRead.get() > 1000, windowsRead.get() + " windows read");
        store.close();
    }

    /**
     * Kafka Streams' timestamped window store builder, which the DSL uses, puts its time-ordered
     * record cache around the time-ordered stores, as around the built-in time-ordered store, and
     * its key-ordered cache around the others.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(WindowKind.class)
    void kafkaStreamsCachesTheTimeOrderedStoresInTimeOrder(WindowKind kind) {
        for (WindowBytesStoreSupplier supplier : List.of(kind.pinrock("w", Duration.ofMinutes(3),
                Duration.ofMinutes(1), false), kind.builtIn("w", Duration.ofMinutes(3), Duration.ofMinutes(1), false))) {
            WrappedStateStore<?, ?, ?> metered = assertInstanceOf(WrappedStateStore.class,
                    Stores.timestampedWindowStoreBuilder(supplier, Serdes.String(), Serdes.String())
                            .withCachingEnabled().withLoggingDisabled().build());
            assertEquals(kind == WindowKind.PLAIN ? "CachingWindowStore" : "TimeOrderedCachingWindowStore",
                    metered.wrapped().getClass().getSimpleName(), supplier.toString());
        }
    }

    /** @return an open time-ordered window store of 4 minutes' retention and 1-minute windows */
    private WindowStore<Bytes, byte[]> openTimeOrderedWindows(String name, StoreContexts.Recording context) {
        return open(PinrockStores.timeOrderedWindowStore(name, Duration.ofMinutes(4), Duration.ofMinutes(1), false)
                .get(), context);
    }

    private static List<String> byStart(WindowStore<Bytes, byte[]> store) {
        List<String> windows = new ArrayList<>();
        try (KeyValueIterator<Windowed<Bytes>, byte[]> found = store.fetchAll(START, START + 10 * MINUTE)) {
            found.forEachRemaining(entry -> windows.add(new String(entry.key.key().get()) + "@"
                    + entry.key.window().start() + "=" + entry.value[0]));
        }
        return windows;
    }

    /** @return the batching restore callback a store registered in its context */
    private static BatchingStateRestoreCallback restorer(StoreContexts.Recording context) {
        return assertInstanceOf(BatchingStateRestoreCallback.class, context.restoreCallback);
    }

    /** @return an open time-ordered session store of 4 minutes' retention */
    private SessionStore<Bytes, byte[]> openTimeOrdered(String name, StoreContexts.Recording context) {
        return open(PinrockStores.timeOrderedSessionStore(name, Duration.ofMinutes(4)).get(), context);
    }

    private static List<String> byEnd(SessionStore<Bytes, byte[]> store) {
        List<String> sessions = new ArrayList<>();
        try (KeyValueIterator<Windowed<Bytes>, byte[]> found = store.findSessions(START, START + 10 * MINUTE)) {
            found.forEachRemaining(entry -> sessions.add(new String(entry.key.key().get()) + "@"
                    + entry.key.window().start() + "/" + entry.key.window().end() + "=" + entry.value[0]));
        }
        return sessions;
    }

    @Test
    void answersWindowQueriesAndRefusesOthers() {
        StoreContexts.Recording context = new StoreContexts.Recording(stateDir.toFile(), Map.of());
        WindowStore<Bytes, byte[]> windows = open(PinrockStores.windowStore("w", Duration.ofMinutes(3),
                Duration.ofMinutes(1), false).get(), context);
        SessionStore<Bytes, byte[]> sessions = open(PinrockStores.sessionStore("s", Duration.ofMinutes(3)).get(),
                context);
        Bytes key = Bytes.wrap(new byte[] {1});
        windows.put(key, new byte[] {1}, MINUTE);
        sessions.put(new Windowed<>(key, new SessionWindow(10, 20)), new byte[] {2});
        QueryConfig config = new QueryConfig(false);
        // One instant for both ends: Kafka Streams 4.1.0's WindowKeyQuery swaps timeFrom and timeTo,
        // so a wider range finds nothing, in the built-in store as in pinrock's.
        java.time.Instant minute = java.time.Instant.ofEpochMilli(MINUTE);
        QueryResult<WindowStoreIterator<byte[]>> byKey = windows.query(WindowKeyQuery.withKeyAndWindowStartRange(
                key, minute, minute), PositionBound.unbounded(), config);
        try (WindowStoreIterator<byte[]> found = byKey.getResult()) {
            assertEquals(MINUTE, found.next().key);
        }
        QueryResult<KeyValueIterator<Windowed<Bytes>, byte[]>> byTime = windows.query(
                WindowRangeQuery.withWindowStartRange(java.time.Instant.EPOCH,
                        java.time.Instant.ofEpochMilli(2 * MINUTE)), PositionBound.unbounded(), config);
        try (KeyValueIterator<Windowed<Bytes>, byte[]> found = byTime.getResult()) {
            assertEquals(key, found.next().key.key());
        }
        assertEquals(FailureReason.UNKNOWN_QUERY_TYPE, windows.query(WindowRangeQuery.withKey(key),
                PositionBound.unbounded(), config).getFailureReason());
        QueryResult<KeyValueIterator<Windowed<Bytes>, byte[]>> session = sessions.query(WindowRangeQuery.withKey(key),
                PositionBound.unbounded(), config);
        try (KeyValueIterator<Windowed<Bytes>, byte[]> found = session.getResult()) {
            assertEquals(20, found.next().key.window().end());
        }
        windows.close();
        sessions.close();
    }

    /**
     * As Kafka's own contract suites expect of a segmented store (and the
     * built-in answers): an iterator left open ends and reads answer nothing;
     * unlike the built-in, which opens a new segment for a put after close
     * and never closes it, writes and flushes are refused.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(WindowKind.class)
    void closingEndsIteratorsEmptiesReadsAndRefusesWrites(WindowKind kind) {
        StoreContexts.Recording context = new StoreContexts.Recording(stateDir.toFile(), Map.of());
        WindowStore<Bytes, byte[]> store = open(kind.pinrock("w", Duration.ofMinutes(3),
                Duration.ofMinutes(1), false).get(), context);
        for (int i = 0; i < 50; i++) {
            store.put(Bytes.wrap(new byte[] {(byte) i}), new byte[] {1}, i * 1000L);
        }
        KeyValueIterator<Windowed<Bytes>, byte[]> all = store.all();
        all.next();
        KeyValueIterator<Windowed<Bytes>, byte[]> unread = store.fetchAll(0, Long.MAX_VALUE);
        store.close();
        assertFalse(all.hasNext());
        assertThrows(NoSuchElementException.class, all::next);
        assertFalse(unread.hasNext(), "an iterator never read ends too");
        assertThrows(NoSuchElementException.class, unread::peekNextKey);
        assertNull(store.fetch(Bytes.wrap(new byte[] {1}), 1000));
        try (KeyValueIterator<Windowed<Bytes>, byte[]> afterClose = store.all();
                KeyValueIterator<Windowed<Bytes>, byte[]> fetchedAfterClose = store.fetchAll(0, Long.MAX_VALUE);
                KeyValueIterator<Windowed<Bytes>, byte[]> rangeAfterClose = store.fetch(null, null, 0,
                        Long.MAX_VALUE)) {
            assertFalse(afterClose.hasNext());
            assertFalse(fetchedAfterClose.hasNext());
            assertFalse(rangeAfterClose.hasNext());
        }
        assertThrows(InvalidStateStoreException.class, () -> store.put(Bytes.wrap(new byte[] {1}), new byte[1], 0));
        assertThrows(InvalidStateStoreException.class, store::flush);
        store.close();
        all.close();
        unread.close();
        // A restore into the closed store is read back, and the next close closes what it opened.
        Bytes key = Bytes.wrap(new byte[] {7});
        ((BatchingStateRestoreCallback) context.restoreCallback).restoreAll(
                List.of(KeyValue.pair(WindowKeySchema.toStoreKeyBinary(key, 49_000, 0).get(), new byte[] {7})));
        assertArrayEquals(new byte[] {7}, store.fetch(key, 49_000));
        store.close();
        WindowStore<Bytes, byte[]> reopened = open(kind.pinrock("w", Duration.ofMinutes(3),
                Duration.ofMinutes(1), false).get(), new StoreContexts.Recording(stateDir.toFile(), Map.of()));
        assertArrayEquals(new byte[] {7}, reopened.fetch(key, 49_000));
        reopened.close();
    }

    @Test
    void suppliersValidateLikeTheBuiltInOnes() {
        assertThrows(IllegalArgumentException.class, () -> PinrockStores.windowStore("w", Duration.ofMinutes(1),
                Duration.ofMinutes(2), false));
        assertThrows(IllegalArgumentException.class, () -> PinrockStores.windowStore("w", Duration.ofMinutes(-1),
                Duration.ZERO, false));
        assertThrows(IllegalArgumentException.class, () -> PinrockStores.sessionStore("s", Duration.ofMinutes(-1)));
        assertThrows(NullPointerException.class, () -> PinrockStores.sessionStore(null, Duration.ZERO));
        WindowBytesStoreSupplier supplier = PinrockStores.timestampedWindowStore("w", Duration.ofHours(1),
                Duration.ofMinutes(5), true);
        WindowBytesStoreSupplier builtIn = Stores.persistentTimestampedWindowStore("w", Duration.ofHours(1),
                Duration.ofMinutes(5), true);
        assertEquals(builtIn.segmentIntervalMs(), supplier.segmentIntervalMs());
        assertEquals(builtIn.retentionPeriod(), supplier.retentionPeriod());
        assertEquals(builtIn.windowSize(), supplier.windowSize());
        assertTrue(supplier.retainDuplicates());
        assertEquals("pinrock-window", supplier.metricsScope());
        assertEquals(Stores.persistentSessionStore("s", Duration.ofMinutes(30)).segmentIntervalMs(),
                PinrockStores.sessionStore("s", Duration.ofMinutes(30)).segmentIntervalMs());
    }
}
