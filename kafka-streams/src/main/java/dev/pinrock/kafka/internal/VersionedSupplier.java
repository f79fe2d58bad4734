package dev.pinrock.kafka.internal;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.VersionedBytesStoreSupplier;

/**
 * Supplies {@link PinrockVersionedStore}s.
 *
 * @param name the store's name
 * @param historyRetentionMs how long older versions stay queryable (also the grace period), in ms
 * @param segmentIntervalMs the history segments' length, in ms
 */
public record VersionedSupplier(String name, long historyRetentionMs, long segmentIntervalMs)
        implements VersionedBytesStoreSupplier {
    /** The metrics scope: metrics carry the tag {@code pinrock-versioned-state-id}. */
    public static final String METRICS_SCOPE = "pinrock-versioned";

    /**
     * The built-in store's default segment interval for a history retention:
     * a third of it up to a minute (at least 2 s), a fifth up to five minutes
     * (at least 20 s), a twelfth up to an hour (at least a minute), else a
     * 24th (at least five minutes).
     */
    public static long defaultSegmentInterval(long historyRetentionMs) {
        if (historyRetentionMs <= 60_000L) {
            return Math.max(historyRetentionMs / 3, 2_000L);
        }
        if (historyRetentionMs <= 300_000L) {
            return Math.max(historyRetentionMs / 5, 20_000L);
        }
        if (historyRetentionMs <= 3_600_000L) {
            return Math.max(historyRetentionMs / 12, 60_000L);
        }
        return Math.max(historyRetentionMs / 24, 300_000L);
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return new PinrockVersionedStore(name, METRICS_SCOPE, historyRetentionMs, segmentIntervalMs);
    }

    @Override
    public String metricsScope() {
        return METRICS_SCOPE;
    }
}
