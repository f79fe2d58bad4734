package dev.pinrock.kafka.internal;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies {@link PinrockKeyValueStore}s, plain or timestamped.
 *
 * @param name the store's name
 * @param timestamped whether values carry their timestamp ({@code TimestampedBytesStore})
 */
public record KeyValueSupplier(String name, boolean timestamped) implements KeyValueBytesStoreSupplier {
    /** The metrics scope: metrics carry the tag {@code pinrock-state-id}. */
    public static final String METRICS_SCOPE = "pinrock";

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return timestamped
                ? new PinrockKeyValueStore.Timestamped(name, METRICS_SCOPE)
                : new PinrockKeyValueStore(name, METRICS_SCOPE);
    }

    @Override
    public String metricsScope() {
        return METRICS_SCOPE;
    }
}
