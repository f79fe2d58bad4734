package dev.pinrock.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import dev.pinrock.kafka.PinrockDslStoreSuppliers;
import dev.pinrock.kafka.PinrockStores;

/**
 * Kafka Streams' key-value store alone, pinrock's against the built-in
 * RocksDB store, records per second: the store initialised as Kafka Streams
 * does, with word count's access pattern (get the count, put count + 1) over
 * {@value #VOCABULARY} words, and a flush (a commit) every
 * {@value #UPDATES_PER_COMMIT} updates. One operation is one update. The whole
 * applications on a real broker are {@link KafkaStreamsEndToEnd}'s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class KafkaStreamsBenchmark {
    static final int VOCABULARY = 100_000;
    static final int UPDATES_PER_COMMIT = 10_000;
    static final int UPDATES_PER_OPERATION = 1000;

    /** Which store: {@code pinrock} or {@code builtin} (Kafka Streams' RocksDB store). */
    @Param({"pinrock", "builtin"})
    public String store;

    private Path stateDir;
    private KeyValueStore<Bytes, byte[]> bytesStore;
    private Bytes[] words;
    private int nextWord;
    private long updates;

    static Properties config(String store, Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "word-count-" + store);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:0");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, store.equals("pinrock")
                ? PinrockDslStoreSuppliers.class : BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class);
        return props;
    }

    @Setup(Level.Trial)
    public void open() throws IOException {
        stateDir = Files.createTempDirectory("pinrock-kafka-streams-bench");
        Properties storeConfig = config(store, stateDir.resolve("store"));
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(storeConfig, new TaskId(0, 0),
                stateDir.resolve("store").toFile());
        bytesStore = store.equals("pinrock") ? PinrockStores.keyValueStore("words").get()
                : Stores.persistentKeyValueStore("words").get();
        bytesStore.init(context.getStateStoreContext(), bytesStore);
        words = new Bytes[VOCABULARY];
        Random random = new Random(7);
        for (int i = 0; i < words.length; i++) {
            words[i] = Bytes.wrap(("w" + (int) Math.abs(random.nextGaussian() * VOCABULARY / 3) % VOCABULARY)
                    .getBytes());
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        bytesStore.close();
        Utils.delete(stateDir.toFile());
    }

    /** Counts {@value #UPDATES_PER_OPERATION} words in the store, committing every {@value #UPDATES_PER_COMMIT}. */
    @Benchmark
    @OperationsPerInvocation(UPDATES_PER_OPERATION)
    public void store() {
        for (int i = 0; i < UPDATES_PER_OPERATION; i++) {
            countWord(words[nextWord]);
            nextWord = (nextWord + 1) % words.length;
        }
    }

    void countWord(Bytes word) {
        byte[] count = bytesStore.get(word);
        bytesStore.put(word, ByteBuffer.allocate(Long.BYTES)
                .putLong(count == null ? 1 : ByteBuffer.wrap(count).getLong() + 1).array());
        if (++updates % UPDATES_PER_COMMIT == 0) {
            bytesStore.flush();
        }
    }

    /** @return the word the index-th update counts (for the agreement test) */
    String word(int index) {
        return new String(words[index % words.length].get());
    }

    /** @return the store's count of a word, or 0 (for the agreement test) */
    long countOf(String word) {
        byte[] count = bytesStore.get(Bytes.wrap(word.getBytes()));
        return count == null ? 0 : ByteBuffer.wrap(count).getLong();
    }
}
