package dev.pinrock.kafka;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * The word-count application {@link RealBrokerWordCountTest} runs in a
 * child JVM (so that it can be killed with SIGKILL), on pinrock stores
 * through {@code dsl.store.suppliers.class}, exactly once. It prints
 * {@code RUNNING} once it runs and {@code RESTORED <records>} after a
 * restoration, and runs until it is killed; SIGTERM closes it cleanly, which
 * writes its local checkpoint.
 *
 * <p>Arguments: bootstrap servers, state directory, application id.
 */
public final class WordCountApp {
    static final String INPUT = "lines";
    static final String OUTPUT = "word-counts";

    private WordCountApp() {
    }

    static Properties config(String bootstrap, String stateDir, String applicationId) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, PinrockDslStoreSuppliers.class);
        // Exactly once: after a kill the uncommitted changelog writes are aborted, so the restored
        // counts match the committed input offsets and no word is counted twice.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        // A killed instance leaves its group and its open transaction behind; these bound how
        // long the next instance waits for them.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1000);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 5000);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        return props;
    }

    public static void main(String[] args) throws InterruptedException {
        Properties props = config(args[0], args[1], args[2]);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split(" ")))
                .groupBy((key, word) -> word, org.apache.kafka.streams.kstream.Grouped.with(Serdes.String(),
                        Serdes.String()))
                .count(Materialized.as("counts"))
                .toStream()
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        AtomicLong restored = new AtomicLong();
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
            }

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long end, long records) {
                restored.addAndGet(records);
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long total) {
                System.out.println("RESTORED " + restored.get());
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
        closed.await();
    }
}
