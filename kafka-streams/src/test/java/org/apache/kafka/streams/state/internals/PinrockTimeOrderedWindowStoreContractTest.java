package org.apache.kafka.streams.state.internals;

import java.time.Duration;

import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

import dev.pinrock.kafka.PinrockStores;

/**
 * Kafka's own window store contract ({@link AbstractWindowBytesStoreTest})
 * on pinrock's time-ordered window store ({@link PinrockStores#timeOrderedWindowStore},
 * the store windowed aggregations that emit on window close get);
 * {@link BuiltInTimeOrderedWindowStoreContractTest} is the control.
 */
class PinrockTimeOrderedWindowStoreContractTest extends PinrockWindowStoreContractTest {
    @Override
    WindowBytesStoreSupplier supplier(String name, Duration retentionPeriod, Duration windowSize,
            boolean retainDuplicates) {
        return PinrockStores.timeOrderedWindowStore(name, retentionPeriod, windowSize, retainDuplicates);
    }
}
