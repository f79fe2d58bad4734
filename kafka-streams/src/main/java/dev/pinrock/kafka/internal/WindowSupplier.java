package dev.pinrock.kafka.internal;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Supplies {@link PinrockWindowStore}s: key-ordered, plain or timestamped;
 * or time-ordered (always timestamped, as the built-in time-ordered store),
 * seen by Kafka Streams through {@link TimeOrderedWindowStore}.
 *
 * @param name the store's name
 * @param retentionPeriod how long windows are kept, in ms
 * @param segmentIntervalMs the segments' length, in ms
 * @param windowSize the windows' size, in ms
 * @param retainDuplicates whether every put is kept
 * @param timestamped whether values carry their timestamp ({@code TimestampedBytesStore}); true when
 *     time-ordered
 * @param order the order of the stores' answers to queries across keys
 */
public record WindowSupplier(String name, long retentionPeriod, long segmentIntervalMs, long windowSize,
        boolean retainDuplicates, boolean timestamped, WindowOrder order) implements WindowBytesStoreSupplier {
    /** The metrics scope: metrics carry the tag {@code pinrock-window-state-id}. */
    public static final String METRICS_SCOPE = "pinrock-window";

    @Override
    public WindowStore<Bytes, byte[]> get() {
        if (order.timeOrdered()) {
            return new TimeOrderedWindowStore(this);
        }
        return timestamped
                ? new PinrockWindowStore.Timestamped(name, METRICS_SCOPE, retentionPeriod, segmentIntervalMs,
                        windowSize, retainDuplicates)
                : new PinrockWindowStore(name, METRICS_SCOPE, retentionPeriod, segmentIntervalMs, windowSize,
                        retainDuplicates, WindowOrder.KEY);
    }

    @Override
    public String metricsScope() {
        return METRICS_SCOPE;
    }
}
