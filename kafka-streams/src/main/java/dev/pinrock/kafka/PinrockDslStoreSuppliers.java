package dev.pinrock.kafka;

import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Moves every store of a Kafka Streams DSL topology onto pinrock with one
 * configuration line:
 * <pre>{@code
 * props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, PinrockDslStoreSuppliers.class);
 * }</pre>
 * or per operator with {@code Materialized.as(new PinrockDslStoreSuppliers())}.
 *
 * <p>Every store comes from {@link PinrockStores}: key-value stores (plain
 * and timestamped), window stores and session stores, with the retention,
 * window size and duplicate settings the DSL asks for. Aggregations that
 * emit only final results ({@code EmitStrategy.onWindowClose()}) get
 * pinrock's time-ordered stores, as the built-in suppliers give them Kafka
 * Streams' time-ordered ones: session aggregations the time-ordered session
 * store; tumbling and hopping windows the time-ordered window store; sliding
 * windows the same store answering key ranges key first, as the built-in
 * store with its key index does. No store falls back to the built-in RocksDB
 * store. Kafka Streams never asks store suppliers for a versioned store (a
 * table is versioned only when its {@code Materialized} names a versioned
 * supplier): give such tables {@link PinrockStores#versionedKeyValueStore}.
 *
 * <p>Stateless and thread-safe.
 */
public class PinrockDslStoreSuppliers implements DslStoreSuppliers {

    /** Creates the suppliers; Kafka Streams calls this through {@code dsl.store.suppliers.class}. */
    public PinrockDslStoreSuppliers() {
    }

    @Override
    public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
        return params.isTimestamped()
                ? PinrockStores.timestampedKeyValueStore(params.name())
                : PinrockStores.keyValueStore(params.name());
    }

    @Override
    public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
        if (params.emitStrategy().type() == EmitStrategy.StrategyType.ON_WINDOW_CLOSE) {
            return params.isSlidingWindow()
                    ? PinrockStores.timeOrderedSlidingWindowStore(params.name(), params.retentionPeriod(),
                            params.windowSize(), params.retainDuplicates())
                    : PinrockStores.timeOrderedWindowStore(params.name(), params.retentionPeriod(),
                            params.windowSize(), params.retainDuplicates());
        }
        return params.isTimestamped()
                ? PinrockStores.timestampedWindowStore(params.name(), params.retentionPeriod(), params.windowSize(),
                        params.retainDuplicates())
                : PinrockStores.windowStore(params.name(), params.retentionPeriod(), params.windowSize(),
                        params.retainDuplicates());
    }

    @Override
    public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
        if (params.emitStrategy().type() == EmitStrategy.StrategyType.ON_WINDOW_CLOSE) {
            return PinrockStores.timeOrderedSessionStore(params.name(), params.retentionPeriod());
        }
        return PinrockStores.sessionStore(params.name(), params.retentionPeriod());
    }
}
