package org.apache.kafka.streams.state.internals;

import java.time.Duration;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;

import dev.pinrock.kafka.PinrockStores;

/**
 * Kafka's own session store contract ({@link AbstractSessionBytesStoreTest})
 * on pinrock's time-ordered session store, built with
 * {@code Stores.sessionStoreBuilder} over {@link PinrockStores#timeOrderedSessionStore}.
 * It answers as the suite's {@code RocksDBTimeOrderedSessionStoreWithIndex}
 * kind (the store emit-on-window-close session aggregations get), whose
 * expectations the suite applies, {@code findSessions(earliestEnd, latestEnd)}
 * in time order included; {@link BuiltInTimeOrderedSessionStoreContractTest}
 * is the control.
 */
class PinrockTimeOrderedSessionStoreContractTest extends AbstractSessionBytesStoreTest {
    @Override
    <K, V> SessionStore<K, V> buildSessionStore(long retentionPeriod, Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.sessionStoreBuilder(PinrockStores.timeOrderedSessionStore("rocksDB session store",
                Duration.ofMillis(retentionPeriod)), keySerde, valueSerde).build();
    }

    @Override
    StoreType storeType() {
        return StoreType.RocksDBTimeOrderedSessionStoreWithIndex;
    }
}
