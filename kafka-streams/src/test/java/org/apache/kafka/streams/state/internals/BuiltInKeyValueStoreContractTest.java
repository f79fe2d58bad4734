package org.apache.kafka.streams.state.internals;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/** The control of {@link PinrockKeyValueStoreContractTest}: the same suite on the built-in RocksDB store. */
class BuiltInKeyValueStoreContractTest extends PinrockKeyValueStoreContractTest {
    @Override
    KeyValueBytesStoreSupplier supplier(String name) {
        return Stores.persistentKeyValueStore(name);
    }
}
