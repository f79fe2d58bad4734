package dev.pinrock.kafka.internal;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;

/**
 * Supplies {@link PinrockSessionStore}s.
 *
 * @param name the store's name
 * @param retentionPeriod how long sessions are kept after they end, in ms
 * @param timeOrdered whether the stores also keep their sessions in end-time order (what
 *     emit-on-window-close session aggregations need)
 */
public record SessionSupplier(String name, long retentionPeriod, boolean timeOrdered)
        implements SessionBytesStoreSupplier {
    /** The metrics scope: metrics carry the tag {@code pinrock-session-state-id}. */
    public static final String METRICS_SCOPE = "pinrock-session";

    @Override
    public SessionStore<Bytes, byte[]> get() {
        return new PinrockSessionStore(name, METRICS_SCOPE, retentionPeriod, segmentIntervalMs(), timeOrdered);
    }

    /** @return the segments' length: half the retention, at least a minute, as for the built-in store */
    @Override
    public long segmentIntervalMs() {
        return Math.max(retentionPeriod / 2, 60_000L);
    }

    @Override
    public String metricsScope() {
        return METRICS_SCOPE;
    }
}
