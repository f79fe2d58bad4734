package org.apache.kafka.streams.state.internals;

import java.time.Duration;

import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * The control of {@link PinrockTimeOrderedWindowStoreContractTest}: the same
 * suite on the built-in time-ordered RocksDB window store without its key
 * index, as the DSL builds it for tumbling and hopping windows that emit on
 * window close.
 */
class BuiltInTimeOrderedWindowStoreContractTest extends PinrockWindowStoreContractTest {
    @Override
    WindowBytesStoreSupplier supplier(String name, Duration retentionPeriod, Duration windowSize,
            boolean retainDuplicates) {
        return RocksDbIndexedTimeOrderedWindowBytesStoreSupplier.create(name, retentionPeriod, windowSize,
                retainDuplicates, false);
    }
}
