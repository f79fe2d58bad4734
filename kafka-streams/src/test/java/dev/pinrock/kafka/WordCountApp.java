package dev.pinrock.kafka;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;

/**
 * The word-count application {@link RealBrokerWordCountTest} and
 * {@link ScaleOutTest} run in child JVMs (so that they can be killed with
 * SIGKILL). It prints {@code RUNNING} each time it starts running (after
 * each rebalance too), {@code RESTORED <records so far> <partition> <records>
 * <milliseconds>} after each restoration of a store partition,
 * and runs until
 * it is killed, and {@code STANDBY <partition> <records>} for each batch
 * of changelog records a standby replica loads; SIGTERM closes it cleanly,
 * which writes its local checkpoint.
 *
 * <p>Interactive queries (IQv2): each line {@code GET <id> <word>} on its
 * standard input is answered with {@code ANSWER <id> owner=<port> value=<count>}
 * (0 for a word not counted yet) when this instance runs the active task
 * holding the word ({@code <port>}
 * is the one it was given), {@code ANSWER <id> owner=<port> value=-} naming
 * the instance that does otherwise, {@code owner=none} while no instance does
 * (during a rebalance), and {@code value=failed:<reason>} when the query
 * failed.
 *
 * <p>Arguments: bootstrap servers, state directory, application id, then
 * optionally the processing guarantee ({@code exactly_once_v2}, the default,
 * or {@code at_least_once}), the stores ({@code pinrock}, the default, or
 * {@code builtin}), the number of standby replicas (default 0) and the port
 * that names this instance in {@code application.server} (default 0).
 */
public final class WordCountApp {
    static final String INPUT = "lines";
    static final String OUTPUT = "word-counts";
    static final String STORE = "counts";

    private WordCountApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        String guarantee = args.length > 3 ? args[3] : StreamsConfig.EXACTLY_ONCE_V2;
        boolean pinrock = args.length <= 4 || args[4].equals("pinrock");
        int standbys = args.length > 5 ? Integer.parseInt(args[5]) : 0;
        int port = args.length > 6 ? Integer.parseInt(args[6]) : 0;
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[2]);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.STATE_DIR_CONFIG, args[1]);
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG,
                pinrock ? PinrockDslStoreSuppliers.class : BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class);
        // Exactly once: after a kill the uncommitted changelog writes are aborted, so the restored
        // counts match the committed input offsets and no word is counted twice.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, standbys);
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + port);
        // A killed instance leaves its group and its open transaction behind; these bound how
        // long the next instance waits for them.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1000);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 5000);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split(" ")))
                .groupBy((key, word) -> word, org.apache.kafka.streams.kstream.Grouped.with(Serdes.String(),
                        Serdes.String()))
                .count(Materialized.as(STORE))
                .toStream()
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        AtomicLong restored = new AtomicLong();
        Map<TopicPartition, Long> restoreStarts = new ConcurrentHashMap<>();
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
                restoreStarts.put(partition, System.nanoTime());
            }

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long end, long records) {
                restored.addAndGet(records);
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long total) {
                long started = restoreStarts.getOrDefault(partition, System.nanoTime());
                System.out.println("RESTORED " + restored.get() + " " + partition + " " + total + " "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            }
        });
        streams.setStandbyUpdateListener(new StandbyUpdateListener() {
            @Override
            public void onUpdateStart(TopicPartition partition, String store, long startingOffset) {
            }

            @Override
            public void onBatchLoaded(TopicPartition partition, String store, TaskId task, long batchEndOffset,
                    long batchSize, long currentEndOffset) {
                System.out.println("STANDBY " + partition + " " + batchSize);
            }

            @Override
            public void onUpdateSuspended(TopicPartition partition, String store, long storeOffset,
                    long currentEndOffset, SuspendReason reason) {
            }
        });
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                System.out.println("RUNNING");
            }
        });
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(Duration.ofMinutes(1));
            closed.countDown();
        }));
        streams.start();
        Thread queries = new Thread(() -> answerQueries(streams, port), "queries");
        queries.setDaemon(true);
        queries.start();
        closed.await();
    }

    /** Answers the GET lines of standard input until it ends. */
    private static void answerQueries(KafkaStreams streams, int port) {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] words = line.split(" ");
                System.out.println("ANSWER " + words[1] + " " + answer(streams, port, words[2]));
            }
        } catch (IOException e) {
            System.out.println("QUERIES ENDED " + e);
        }
    }

    private static String answer(KafkaStreams streams, int port, String word) {
        try {
            KeyQueryMetadata owner = streams.queryMetadataForKey(STORE, word, Serdes.String().serializer());
            if (owner == null || owner.activeHost() == null || owner.activeHost().port() == -1) {
                return "owner=none value=-";
            }
            if (owner.activeHost().port() != port) {
                return "owner=" + owner.activeHost().port() + " value=-";
            }
            StateQueryResult<Long> result = streams.query(StateQueryRequest.inStore(STORE)
                    .withQuery(KeyQuery.<String, Long>withKey(word))
                    .withPartitions(Set.of(owner.partition()))
                    .requireActive());
            QueryResult<Long> partition = result.getPartitionResults().get(owner.partition());
            if (partition == null || partition.isFailure()) {
                return failed(port, partition == null ? "no result" : partition.getFailureMessage());
            }
            return "owner=" + port + " value=" + (partition.getResult() == null ? 0 : partition.getResult());
        } catch (RuntimeException e) {
            return failed(port, e.toString());
        }
    }

    /** @return the answer for a failed query: its reason as one word, the answer's last */
    private static String failed(int port, String reason) {
        return "owner=" + port + " value=failed:" + reason.replace(' ', '_').replace('\n', '_');
    }
}
