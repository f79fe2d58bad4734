package dev.pinrock.kafka.internal;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Supplies {@link PinrockWindowStore}s, plain or timestamped.
 *
 * @param name the store's name
 * @param retentionPeriod how long windows are kept, in ms
 * @param segmentIntervalMs the segments' length, in ms
 * @param windowSize the windows' size, in ms
 * @param retainDuplicates whether every put is kept
 * @param timestamped whether values carry their timestamp ({@code TimestampedBytesStore})
 */
public record WindowSupplier(String name, long retentionPeriod, long segmentIntervalMs, long windowSize,
        boolean retainDuplicates, boolean timestamped) implements WindowBytesStoreSupplier {
    /** The metrics scope: metrics carry the tag {@code pinrock-window-state-id}. */
    public static final String METRICS_SCOPE = "pinrock-window";

    @Override
    public WindowStore<Bytes, byte[]> get() {
        return timestamped
                ? new PinrockWindowStore.Timestamped(name, METRICS_SCOPE, retentionPeriod, segmentIntervalMs,
                        windowSize, retainDuplicates)
                : new PinrockWindowStore(name, METRICS_SCOPE, retentionPeriod, segmentIntervalMs, windowSize,
                        retainDuplicates);
    }

    @Override
    public String metricsScope() {
        return METRICS_SCOPE;
    }
}
