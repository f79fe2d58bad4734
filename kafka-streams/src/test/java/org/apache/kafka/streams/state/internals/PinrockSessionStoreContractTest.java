package org.apache.kafka.streams.state.internals;

import java.time.Duration;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;

import dev.pinrock.kafka.PinrockStores;

/**
 * Kafka's own session store contract ({@link AbstractSessionBytesStoreTest})
 * on pinrock's session store, built with {@code Stores.sessionStoreBuilder}
 * over {@link PinrockStores#sessionStore}. It answers as the suite's
 * {@code RocksDBSessionStore} kind (key-first, segmented), whose expectations
 * the suite applies; {@link BuiltInSessionStoreContractTest} is the control.
 */
class PinrockSessionStoreContractTest extends AbstractSessionBytesStoreTest {
    @Override
    <K, V> SessionStore<K, V> buildSessionStore(long retentionPeriod, Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.sessionStoreBuilder(PinrockStores.sessionStore("rocksDB session store",
                Duration.ofMillis(retentionPeriod)), keySerde, valueSerde).build();
    }

    @Override
    StoreType storeType() {
        return StoreType.RocksDBSessionStore;
    }
}
