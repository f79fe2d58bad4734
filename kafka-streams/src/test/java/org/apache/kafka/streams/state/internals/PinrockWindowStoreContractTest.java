package org.apache.kafka.streams.state.internals;

import java.time.Duration;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

import dev.pinrock.kafka.PinrockStores;

/**
 * Kafka's own window store contract ({@link AbstractWindowBytesStoreTest})
 * on pinrock's window store, built with {@code Stores.windowStoreBuilder}
 * over {@link PinrockStores#windowStore}; {@link BuiltInWindowStoreContractTest}
 * is the control.
 */
class PinrockWindowStoreContractTest extends AbstractWindowBytesStoreTest {
    /** The supplier of the store under test. */
    WindowBytesStoreSupplier supplier(String name, Duration retentionPeriod, Duration windowSize,
            boolean retainDuplicates) {
        return PinrockStores.windowStore(name, retentionPeriod, windowSize, retainDuplicates);
    }

    @Override
    <K, V> WindowStore<K, V> buildWindowStore(long retentionPeriod, long windowSize, boolean retainDuplicates,
            Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.windowStoreBuilder(supplier("rocksDB window store", Duration.ofMillis(retentionPeriod),
                Duration.ofMillis(windowSize), retainDuplicates), keySerde, valueSerde).build();
    }
}
