package org.apache.kafka.streams.state.internals;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

import dev.pinrock.kafka.PinrockStores;

/**
 * Kafka's own key-value store contract ({@link AbstractKeyValueStoreTest}
 * from the kafka-streams test jar) on pinrock's store, built as an
 * application builds it: {@code Stores.keyValueStoreBuilder} over
 * {@link PinrockStores#keyValueStore}. {@link BuiltInKeyValueStoreContractTest}
 * runs the same suite on the built-in RocksDB store.
 */
class PinrockKeyValueStoreContractTest extends AbstractKeyValueStoreTest {
    /** The supplier of the store under test. */
    KeyValueBytesStoreSupplier supplier(String name) {
        return PinrockStores.keyValueStore(name);
    }

    @Override
    @SuppressWarnings("unchecked")
    protected <K, V> KeyValueStore<K, V> createKeyValueStore(StateStoreContext context) {
        KeyValueStore<K, V> store = Stores.keyValueStoreBuilder(supplier("my-store"), (Serde<K>) context.keySerde(),
                (Serde<V>) context.valueSerde()).build();
        store.init(context, store);
        return store;
    }
}
