package org.apache.kafka.streams.state.internals;

import java.time.Duration;

import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/** The control of {@link PinrockWindowStoreContractTest}: the same suite on the built-in RocksDB window store. */
class BuiltInWindowStoreContractTest extends PinrockWindowStoreContractTest {
    @Override
    WindowBytesStoreSupplier supplier(String name, Duration retentionPeriod, Duration windowSize,
            boolean retainDuplicates) {
        return Stores.persistentWindowStore(name, retentionPeriod, windowSize, retainDuplicates);
    }
}
