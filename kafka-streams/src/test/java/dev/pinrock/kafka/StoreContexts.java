package dev.pinrock.kafka;

import java.io.File;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.CommitCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Contexts for initialising stores directly, outside a topology. */
final class StoreContexts {
    private StoreContexts() {
    }

    /** A store context that remembers the restore and commit callbacks its store registers. */
    static final class Recording implements StateStoreContext {
        private final StateStoreContext delegate;
        private final MockProcessorContext<Object, Object> processorContext;
        StateRestoreCallback restoreCallback;
        CommitCallback commitCallback;

        Recording(File stateDir, Map<String, Object> extraConfig) {
            Properties config = new Properties();
            config.put(StreamsConfig.APPLICATION_ID_CONFIG, "pinrock-store-test");
            config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:0");
            config.putAll(extraConfig);
            processorContext = new MockProcessorContext<>(config, new TaskId(0, 0), stateDir);
            delegate = processorContext.getStateStoreContext();
        }

        /** Sets the metadata of the record being processed, which writes record in the store's position. */
        void processing(String topic, int partition, long offset) {
            processorContext.setRecordMetadata(topic, partition, offset);
        }

        @Override
        public String applicationId() {
            return delegate.applicationId();
        }

        @Override
        public TaskId taskId() {
            return delegate.taskId();
        }

        @Override
        public Optional<RecordMetadata> recordMetadata() {
            return delegate.recordMetadata();
        }

        @Override
        public Serde<?> keySerde() {
            return delegate.keySerde();
        }

        @Override
        public Serde<?> valueSerde() {
            return delegate.valueSerde();
        }

        @Override
        public File stateDir() {
            return delegate.stateDir();
        }

        @Override
        public StreamsMetrics metrics() {
            return delegate.metrics();
        }

        @Override
        public void register(StateStore store, StateRestoreCallback callback) {
            register(store, callback, () -> { });
        }

        @Override
        public void register(StateStore store, StateRestoreCallback callback, CommitCallback checkpoint) {
            restoreCallback = callback;
            commitCallback = checkpoint;
            delegate.register(store, callback, checkpoint);
        }

        @Override
        public Map<String, Object> appConfigs() {
            return delegate.appConfigs();
        }

        @Override
        public Map<String, Object> appConfigsWithPrefix(String prefix) {
            return delegate.appConfigsWithPrefix(prefix);
        }
    }
}
