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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.internals.PositionSerde;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.DbOptions;
import dev.pinrock.KeyComparator;
import dev.pinrock.kafka.internal.StoreInternals;

class KeyValueStoreTest {
    @TempDir
    Path stateDir;

    private final List<KeyValueStore<Bytes, byte[]>> opened = new ArrayList<>();

    @AfterEach
    void closeStores() {
        opened.forEach(KeyValueStore::close);
    }

    private KeyValueStore<Bytes, byte[]> open(KeyValueStore<Bytes, byte[]> store, StoreContexts.Recording context) {
        store.init(context, store);
        opened.add(store);
        return store;
    }

    private StoreContexts.Recording context(String dir, Map<String, Object> config) {
        return new StoreContexts.Recording(stateDir.resolve(dir).toFile(), config);
    }

    private KeyValueStore<Bytes, byte[]> pinrock(String name, Map<String, Object> config) {
        return open(PinrockStores.keyValueStore(name).get(), context("pinrock", config));
    }

    private static Bytes bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return Bytes.wrap(b);
    }

    /** Keys of 1 to 3 bytes from a small alphabet with the edge bytes 0x00 and 0xff. */
    private static Bytes randomKey(Random random) {
        int[] alphabet = {0x00, 0x01, 'a', 0x7f, 0x80, 0xff};
        int[] key = new int[1 + random.nextInt(3)];
        for (int i = 0; i < key.length; i++) {
            key[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return bytes(key);
    }

    private static List<String> drain(KeyValueIterator<Bytes, byte[]> iterator) {
        List<String> entries = new ArrayList<>();
        try (iterator) {
            while (iterator.hasNext()) {
                KeyValue<Bytes, byte[]> entry = iterator.next();
                entries.add(entry.key + "=" + Arrays.toString(entry.value));
            }
        }
        return entries;
    }

    private static List<String> withPrefix(List<String> entries, Bytes prefix) {
        return entries.stream().filter(entry -> entry.startsWith(prefix.toString())).toList();
    }

    @Test
    void agreesWithTheBuiltInStoreOnRandomOperations() {
        long seed = Seeds.next("agreesWithTheBuiltInStoreOnRandomOperations");
        Random random = new Random(seed);
        KeyValueStore<Bytes, byte[]> pinrock = pinrock("store", Map.of());
        KeyValueStore<Bytes, byte[]> builtIn = open(Stores.persistentKeyValueStore("store").get(),
                context("builtin", Map.of()));
        String context = "seed " + seed;
        for (int round = 0; round < 40; round++) {
            for (int op = 0; op < 25; op++) {
                Bytes key = randomKey(random);
                byte[] value = random.nextInt(6) == 0 ? null : new byte[] {(byte) random.nextInt(), (byte) op};
                switch (random.nextInt(4)) {
                    case 0 -> {
                        pinrock.put(key, value);
                        builtIn.put(key, value);
                    }
                    case 1 -> assertArrayEquals(builtIn.putIfAbsent(key, value), pinrock.putIfAbsent(key, value),
                            context);
                    case 2 -> assertArrayEquals(builtIn.delete(key), pinrock.delete(key), context);
                    default -> {
                        List<KeyValue<Bytes, byte[]>> entries = List.of(KeyValue.pair(key, value),
                                KeyValue.pair(randomKey(random), new byte[] {9}), KeyValue.pair(key, new byte[] {7}));
                        pinrock.putAll(entries);
                        builtIn.putAll(entries);
                    }
                }
            }
            Bytes from = random.nextInt(4) == 0 ? null : randomKey(random);
            Bytes to = random.nextInt(4) == 0 ? null : randomKey(random);
            Bytes prefix = randomKey(random);
            assertEquals(drain(builtIn.all()), drain(pinrock.all()), context);
            assertEquals(drain(builtIn.reverseAll()), drain(pinrock.reverseAll()), context);
            assertEquals(drain(builtIn.range(from, to)), drain(pinrock.range(from, to)), context + " " + from + ".." + to);
            assertEquals(drain(builtIn.reverseRange(from, to)), drain(pinrock.reverseRange(from, to)), context);
            // Not compared with the built-in store: it scans up to Bytes.increment(prefix), which also
            // returns shorter keys past a prefix ending in 0xff (prefix 7f7fff gives key 7f80).
            assertEquals(withPrefix(drain(builtIn.all()), prefix),
                    drain(pinrock.prefixScan(prefix, Serdes.Bytes().serializer())), context + " prefix " + prefix);
            Bytes probe = randomKey(random);
            assertArrayEquals(builtIn.get(probe), pinrock.get(probe), context);
        }
    }

    @Test
    void onlyTheTimestampedSupplierGivesATimestampedBytesStore() {
        assertInstanceOf(TimestampedBytesStore.class, PinrockStores.timestampedKeyValueStore("t").get());
        assertFalse(PinrockStores.keyValueStore("p").get() instanceof TimestampedBytesStore);
        assertTrue(PinrockStores.keyValueStore("p").get().persistent());
        assertEquals("pinrock", PinrockStores.keyValueStore("p").metricsScope());
        assertThrows(NullPointerException.class, () -> PinrockStores.keyValueStore(null));
    }

    @Test
    void closingTheStoreClosesItsIteratorsAndLaterCallsSayItIsClosed() {
        KeyValueStore<Bytes, byte[]> store = pinrock("store", Map.of());
        for (int i = 0; i < 100; i++) {
            store.put(bytes(i), new byte[] {(byte) i});
        }
        KeyValueIterator<Bytes, byte[]> iterator = store.all();
        assertEquals(bytes(0), iterator.next().key);
        store.close();
        assertFalse(store.isOpen());
        assertThrows(InvalidStateStoreException.class, iterator::hasNext);
        assertThrows(InvalidStateStoreException.class, () -> store.get(bytes(1)));
        assertThrows(InvalidStateStoreException.class, () -> store.put(bytes(1), new byte[1]));
        assertThrows(InvalidStateStoreException.class, store::all);
        assertThrows(InvalidStateStoreException.class, store::approximateNumEntries);
        store.close();
        iterator.close();
    }

    @Test
    void flushedDataIsThereWhenTheStoreOpensAgain() {
        KeyValueStore<Bytes, byte[]> store = pinrock("store", Map.of());
        store.put(bytes(1), new byte[] {1});
        store.put(bytes(2), new byte[] {2});
        store.delete(bytes(2));
        store.flush();
        store.close();
        assertTrue(Files.isDirectory(stateDir.resolve("pinrock").resolve("pinrock").resolve("store")));
        KeyValueStore<Bytes, byte[]> reopened = pinrock("store", Map.of());
        assertArrayEquals(new byte[] {1}, reopened.get(bytes(1)));
        assertNull(reopened.get(bytes(2)));
    }

    @Test
    void aReversedRangeIsEmpty() {
        KeyValueStore<Bytes, byte[]> store = pinrock("store", Map.of());
        store.put(bytes(5), new byte[] {5});
        assertEquals(List.of(), drain(store.range(bytes(6), bytes(4))));
        assertEquals(List.of(), drain(store.reverseRange(bytes(6), bytes(4))));
        assertEquals(1, drain(store.range(bytes(5), bytes(5))).size());
    }

    @Test
    void restorationWritesEachBatchAsOneWriteBatch() {
        StoreContexts.Recording context = context("pinrock",
                Map.of(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG, "DEBUG"));
        KeyValueStore<Bytes, byte[]> store = open(PinrockStores.keyValueStore("store").get(), context);
        store.put(bytes(9), new byte[] {9});
        BatchingStateRestoreCallback restore = assertInstanceOf(BatchingStateRestoreCallback.class,
                context.restoreCallback);
        long writesBefore = writeCalls(store);
        List<KeyValue<byte[], byte[]>> batch = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            batch.add(KeyValue.pair(new byte[] {(byte) i, (byte) (i >> 8)}, new byte[] {(byte) i}));
        }
        batch.add(KeyValue.pair(new byte[] {9}, null));
        restore.restoreAll(batch);
        assertEquals(1, writeCalls(store) - writesBefore, "one write for the whole batch");
        assertNull(store.get(bytes(9)));
        assertEquals(500, drain(store.all()).size());
        assertArrayEquals(new byte[] {7}, store.get(bytes(7, 0)));
    }

    /** The store's write count, read through the statistics the DEBUG metrics level turns on. */
    private static long writeCalls(KeyValueStore<Bytes, byte[]> store) {
        return StoreInternals.database(store).statistics().ticker("rocksdb.write.self");
    }

    @Test
    void putAllIsOneWriteBatch() {
        StoreContexts.Recording context = context("pinrock",
                Map.of(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG, "DEBUG"));
        KeyValueStore<Bytes, byte[]> store = open(PinrockStores.keyValueStore("store").get(), context);
        store.put(bytes(1), new byte[] {1});
        long writesBefore = writeCalls(store);
        store.putAll(List.of(KeyValue.pair(bytes(1), null), KeyValue.pair(bytes(2), new byte[] {2}),
                KeyValue.pair(bytes(3), new byte[] {3})));
        assertEquals(1, writeCalls(store) - writesBefore);
        assertEquals(List.of("\\x02=[2]", "\\x03=[3]"), drain(store.all()).stream().map(s -> s.replace(" ", ""))
                .toList());
    }

    @Test
    void answersInteractiveQueriesWithinThePositionBound() {
        StoreContexts.Recording context = context("pinrock", Map.of());
        KeyValueStore<Bytes, byte[]> store = open(PinrockStores.keyValueStore("store").get(), context);
        context.processing("input", 0, 41);
        store.put(bytes(1), new byte[] {1});
        context.processing("input", 0, 42);
        store.put(bytes(2), new byte[] {2});
        QueryConfig config = new QueryConfig(true);

        QueryResult<byte[]> key = store.query(KeyQuery.withKey(bytes(2)), PositionBound.unbounded(), config);
        assertTrue(key.isSuccess());
        assertArrayEquals(new byte[] {2}, key.getResult());
        assertEquals(Position.fromMap(Map.of("input", Map.of(0, 42L))), key.getPosition());
        assertFalse(key.getExecutionInfo().isEmpty());

        QueryResult<KeyValueIterator<Bytes, byte[]>> descending = store.query(
                RangeQuery.<Bytes, byte[]>withNoBounds().withDescendingKeys(), PositionBound.unbounded(), config);
        assertEquals(List.of("\\x02=[2]", "\\x01=[1]"), drain(descending.getResult()).stream()
                .map(s -> s.replace(" ", "")).toList());
        QueryResult<KeyValueIterator<Bytes, byte[]>> upTo1 = store.query(
                RangeQuery.withRange(null, bytes(1)), PositionBound.unbounded(), config);
        assertEquals(1, drain(upTo1.getResult()).size());

        PositionBound ahead = PositionBound.at(Position.fromMap(Map.of("input", Map.of(0, 43L))));
        QueryResult<byte[]> notYet = store.query(KeyQuery.withKey(bytes(2)), ahead, config);
        assertEquals(FailureReason.NOT_UP_TO_BOUND, notYet.getFailureReason());
        PositionBound reached = PositionBound.at(Position.fromMap(Map.of("input", Map.of(0, 42L))));
        assertTrue(store.query(KeyQuery.withKey(bytes(2)), reached, config).isSuccess());

        QueryResult<?> windowQuery = store.query(WindowKeyQuery.withKeyAndWindowStartRange(bytes(1), java.time.Instant.EPOCH, java.time.Instant.EPOCH), PositionBound.unbounded(), config);
        assertEquals(FailureReason.UNKNOWN_QUERY_TYPE, windowQuery.getFailureReason());
    }

    /**
     * As the built-in store: the position is written to {@code <store>.position}
     * at every commit and read back when the store opens again, and restored
     * changelog records advance it by their position headers (IQ consistency on).
     */
    @Test
    void aPositionReachedBeforeARestartBoundsQueriesAfterIt() throws IOException {
        Map<String, Object> consistency = Map.of(StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, true);
        StoreContexts.Recording context = context("pinrock", consistency);
        KeyValueStore<Bytes, byte[]> store = open(PinrockStores.keyValueStore("store").get(), context);
        context.processing("input", 0, 42);
        store.put(bytes(1), new byte[] {1});
        context.commitCallback.onCommit();
        store.close();
        assertTrue(Files.exists(context.stateDir().toPath().resolve("store.position")));

        StoreContexts.Recording reopened = context("pinrock", consistency);
        store = open(PinrockStores.keyValueStore("store").get(), reopened);
        QueryConfig config = new QueryConfig(false);
        PositionBound reached = PositionBound.at(Position.fromMap(Map.of("input", Map.of(0, 42L))));
        assertTrue(store.query(KeyQuery.withKey(bytes(1)), reached, config).isSuccess());
        PositionBound restoredTo = PositionBound.at(Position.fromMap(Map.of("input", Map.of(0, 50L, 1, 7L))));
        assertEquals(FailureReason.NOT_UP_TO_BOUND, store.query(KeyQuery.withKey(bytes(1)), restoredTo, config)
                .getFailureReason());

        ConsumerRecord<byte[], byte[]> restored = new ConsumerRecord<>("changelog", 0, 0, bytes(2).get(),
                new byte[] {2});
        restored.headers().add(ChangelogRecordDeserializationHelper.CHANGELOG_VERSION_HEADER_RECORD_CONSISTENCY);
        restored.headers().add(ChangelogRecordDeserializationHelper.CHANGELOG_POSITION_HEADER_KEY,
                PositionSerde.serialize(Position.fromMap(Map.of("input", Map.of(0, 50L, 1, 7L)))).array());
        ((RecordBatchingStateRestoreCallback) reopened.restoreCallback).restoreBatch(List.of(restored));
        QueryResult<byte[]> afterRestore = store.query(KeyQuery.withKey(bytes(2)), restoredTo, config);
        assertTrue(afterRestore.isSuccess(), afterRestore.toString());
        assertArrayEquals(new byte[] {2}, afterRestore.getResult());
        store.close();
    }

    @Test
    void aDamagedPositionFileFailsTheOpenNamingItAndLeavesNothingOpen() throws IOException {
        StoreContexts.Recording context = context("pinrock", Map.of());
        Files.createDirectories(context.stateDir().toPath());
        Path positionFile = context.stateDir().toPath().resolve("store.position");
        Files.writeString(positionFile, "garbage\n");
        KeyValueStore<Bytes, byte[]> damaged = PinrockStores.keyValueStore("store").get();
        ProcessorStateException refused = assertThrows(ProcessorStateException.class,
                () -> damaged.init(context, damaged));
        assertTrue(refused.getMessage().contains(positionFile.toString()), refused.getMessage());
        Files.delete(positionFile);
        KeyValueStore<Bytes, byte[]> store = open(PinrockStores.keyValueStore("store").get(), context);
        store.put(bytes(1), new byte[] {1});
        assertArrayEquals(new byte[] {1}, store.get(bytes(1)));
        store.close();
    }

    @Test
    void registersRocksDbMetricsAndRecordsStatisticsOnFlush() {
        StoreContexts.Recording context = context("pinrock",
                Map.of(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG, "DEBUG"));
        KeyValueStore<Bytes, byte[]> store = open(PinrockStores.keyValueStore("counts").get(), context);
        for (int i = 0; i < 1000; i++) {
            store.put(bytes(i, i >> 8), new byte[100]);
        }
        assertTrue(metric(context, "cur-size-all-mem-tables") > 0);
        assertEquals(1000, metric(context, "num-entries-active-mem-table"));
        assertEquals(50L << 20, metric(context, "block-cache-capacity"));
        store.flush();
        assertTrue(metric(context, "bytes-written-total") >= 1000 * 100, "bytes written");
        assertTrue(metric(context, "memtable-bytes-flushed-total") > 0, "flushed");
        assertEquals(1000, metric(context, "estimate-num-keys"));
        assertTrue(metric(context, "memtable-flush-time-avg") > 0, "flush time");
        assertTrue(metric(context, "memtable-flush-time-max") >= metric(context, "memtable-flush-time-avg"));
        assertTrue(metric(context, "memtable-flush-time-min") <= metric(context, "memtable-flush-time-avg"));
        assertEquals(0, metric(context, "compaction-time-avg"), "no compaction ran");
        store.close();
        assertTrue(metricNames(context).isEmpty(), "metrics removed on close: " + metricNames(context));
    }

    private static List<MetricName> metricNames(StoreContexts.Recording context) {
        return context.metrics().metrics().keySet().stream()
                .filter(name -> "counts".equals(name.tags().get("pinrock-state-id")))
                .toList();
    }

    private static double metric(StoreContexts.Recording context, String name) {
        return context.metrics().metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name)
                        && "counts".equals(e.getKey().tags().get("pinrock-state-id"))
                        && "0_0".equals(e.getKey().tags().get("task-id")))
                .map(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst().orElseThrow(() -> new AssertionError("no metric " + name));
    }

    /** Records what pinrock asks of it, with the info log level it is given, and sets a 1 MiB block cache. */
    public static final class SmallCacheSetter implements PinrockConfigSetter {
        static final Map<String, String> CALLS = new ConcurrentHashMap<>();

        @Override
        public DbOptions setConfig(String storeName, DbOptions options, Map<String, Object> configs) {
            CALLS.merge(storeName, "set(" + options.infoLogLevel() + ")", String::concat);
            return options.blockCacheBytes(1 << 20);
        }

        @Override
        public void close(String storeName) {
            CALLS.merge(storeName, ",close", String::concat);
        }
    }

    @Test
    void theConfigSetterTunesEachStoreAndIsClosedWithIt() {
        StoreContexts.Recording context = context("pinrock",
                Map.of(PinrockStoreConfig.CONFIG_SETTER_CLASS_CONFIG, SmallCacheSetter.class.getName()));
        KeyValueStore<Bytes, byte[]> store = open(PinrockStores.keyValueStore("tuned").get(), context);
        assertEquals("set(ERROR)", SmallCacheSetter.CALLS.get("tuned"), "the built-in store's log level");
        assertEquals(1L << 20, StoreInternals.database(store).propertyLong("rocksdb.block-cache-capacity")
                .orElseThrow());
        store.close();
        assertEquals("set(ERROR),close", SmallCacheSetter.CALLS.get("tuned"));
    }

    /** Orders keys in reverse, which no store's queries can take. */
    public static final class ReverseOrderSetter implements PinrockConfigSetter {
        @Override
        public DbOptions setConfig(String storeName, DbOptions options, Map<String, Object> configs) {
            return options.comparator(KeyComparator.REVERSE_BYTEWISE);
        }
    }

    @Test
    void aConfigSetterCannotChangeTheOrderOfKeys() {
        StoreContexts.Recording context = context("pinrock",
                Map.of(PinrockStoreConfig.CONFIG_SETTER_CLASS_CONFIG, ReverseOrderSetter.class.getName()));
        ProcessorStateException e = assertThrows(ProcessorStateException.class,
                () -> PinrockStores.keyValueStore("s").get().init(context, null));
        assertTrue(e.getMessage().contains("bytewise"), e.getMessage());
    }

    @Test
    void anUnknownConfigSetterClassIsAClearError() {
        StoreContexts.Recording context = context("pinrock",
                Map.of(PinrockStoreConfig.CONFIG_SETTER_CLASS_CONFIG, "no.such.Setter"));
        ProcessorStateException e = assertThrows(ProcessorStateException.class,
                () -> PinrockStores.keyValueStore("s").get().init(context, null));
        assertTrue(e.getMessage().contains(PinrockStoreConfig.CONFIG_SETTER_CLASS_CONFIG), e.getMessage());
    }

    @Test
    void boundedMemoryGivesAllStoresOfAnApplicationOneCache() {
        Map<String, Object> bound = Map.of(PinrockStoreConfig.BOUNDED_MEMORY_BYTES_CONFIG, 8L << 20);
        StoreContexts.Recording first = context("a", bound);
        StoreContexts.Recording second = context("b", bound);
        KeyValueStore<Bytes, byte[]> one = open(PinrockStores.keyValueStore("one").get(), first);
        KeyValueStore<Bytes, byte[]> two = open(PinrockStores.keyValueStore("two").get(), second);
        for (int i = 0; i < 2000; i++) {
            one.put(bytes(i, i >> 8), new byte[1000]);
        }
        long usageSeenByOne = StoreInternals.database(one).propertyLong("rocksdb.block-cache-usage")
                .orElseThrow();
        long usageSeenByTwo = StoreInternals.database(two).propertyLong("rocksdb.block-cache-usage")
                .orElseThrow();
        assertEquals(8L << 20, StoreInternals.database(two).propertyLong("rocksdb.block-cache-capacity")
                .orElseThrow());
        assertTrue(usageSeenByOne > 1_000_000, "memtables are charged to the cache: " + usageSeenByOne);
        assertEquals(usageSeenByOne, usageSeenByTwo, "one cache");
    }

    @Test
    void aBoundThatIsNotANumberIsAClearError() {
        StoreContexts.Recording context = context("a",
                Map.of(PinrockStoreConfig.BOUNDED_MEMORY_BYTES_CONFIG, "lots"));
        var e = assertThrows(org.apache.kafka.common.config.ConfigException.class,
                () -> PinrockStores.keyValueStore("s").get().init(context, null));
        assertTrue(e.getMessage().contains(PinrockStoreConfig.BOUNDED_MEMORY_BYTES_CONFIG), e.getMessage());
    }
    /** The config setter of Kafka Streams' documentation (section "RocksDB"), as written there for RocksJava. */
    public static final class DocumentedRocksDbConfig implements org.apache.kafka.streams.state.RocksDBConfigSetter {
        private final org.rocksdb.Cache cache = new org.rocksdb.LRUCache(16 * 1024L * 1024L);

        @Override
        public void setConfig(String storeName, org.rocksdb.Options options, Map<String, Object> configs) {
            org.rocksdb.BlockBasedTableConfig tableConfig = (org.rocksdb.BlockBasedTableConfig) options.tableFormatConfig();
            tableConfig.setBlockCache(cache);
            tableConfig.setBlockSize(16 * 1024L);
            tableConfig.setCacheIndexAndFilterBlocks(true);
            options.setTableFormatConfig(tableConfig);
            options.setMaxWriteBufferNumber(2);
        }

        @Override
        public void close(String storeName, org.rocksdb.Options options) {
            cache.close();
        }
    }

    /** {@link DocumentedRocksDbConfig} ported line by line, as docs/guide.md shows it. */
    public static final class DocumentedPinrockConfig implements PinrockConfigSetter {
        @Override
        public DbOptions setConfig(String storeName, DbOptions options, Map<String, Object> configs) {
            return options.blockCacheBytes(16 * 1024L * 1024L)
                    .blockSize(16 * 1024L)
                    .cacheIndexAndFilterBlocks(true)
                    .maxWriteBufferNumber(2);
        }
    }

    @Test
    void aPortedConfigSetterGivesTheOptionsOfTheOriginal() throws IOException {
        pinrock("store", Map.of(PinrockStoreConfig.CONFIG_SETTER_CLASS_CONFIG, DocumentedPinrockConfig.class.getName()));
        open(Stores.persistentKeyValueStore("store").get(), context("builtin",
                Map.of(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, DocumentedRocksDbConfig.class)));
        Map<String, String> pinrock = recordedOptions(stateDir.resolve("pinrock"));
        Map<String, String> builtIn = recordedOptions(stateDir.resolve("builtin"));
        for (String option : List.of("block_size", "cache_index_and_filter_blocks", "max_write_buffer_number",
                "compaction_style", "filter_policy", "write_buffer_size", "compression")) {
            assertEquals(builtIn.get(option), pinrock.get(option), option);
        }
        assertEquals("16384", pinrock.get("block_size"));
        assertEquals("true", pinrock.get("cache_index_and_filter_blocks"));
        assertEquals("2", pinrock.get("max_write_buffer_number"));
    }

    /** The options RocksDB recorded for the one database below root, from its newest OPTIONS file. */
    private static Map<String, String> recordedOptions(Path root) throws IOException {
        Path newest;
        try (Stream<Path> files = Files.walk(root)) {
            newest = files.filter(file -> file.getFileName().toString().startsWith("OPTIONS-"))
                    .max(Comparator.comparing(file -> file.getFileName().toString())).orElseThrow();
        }
        Map<String, String> options = new HashMap<>();
        for (String line : Files.readAllLines(newest)) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                options.put(line.substring(0, equals).trim(), line.substring(equals + 1).trim());
            }
        }
        return options;
    }

    /** A store's defaults are the built-in store's RocksDB options, read from what RocksDB recorded for each. */
    @Test
    void theDefaultsAreTheBuiltInStoresOptions() throws IOException {
        pinrock("store", Map.of());
        open(Stores.persistentKeyValueStore("store").get(), context("builtin", Map.of()));
        Map<String, String> pinrock = recordedOptions(stateDir.resolve("pinrock"));
        Map<String, String> builtIn = recordedOptions(stateDir.resolve("builtin"));
        for (String option : List.of("compaction_style", "max_write_buffer_number", "write_buffer_size",
                "compression", "filter_policy", "block_size", "max_background_jobs", "info_log_level")) {
            assertEquals(builtIn.get(option), pinrock.get(option), option);
        }
        assertEquals("kCompactionStyleUniversal", pinrock.get("compaction_style"));
        assertEquals("bloomfilter:10:false", pinrock.get("filter_policy"));
    }
}
