package dev.pinrock.kafka.internal;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.internals.SessionKeySchema;

/**
 * A persistent Kafka Streams session bytes store on pinrock: Kafka Streams'
 * session key layout ([key][session end][session start]) in a
 * {@link SegmentedStore} segmented by session end, with the built-in
 * {@code RocksDBSessionStore}'s behaviour. Time-ordered, it also keeps its
 * sessions by end time ({@link TimeIndex#SESSION_END}) and answers
 * {@link #findSessions(long, long)} in that order, as the built-in
 * time-ordered session store that emit-on-window-close session aggregations
 * use.
 *
 * <p>Writes come from the stream thread; reads also from interactive-query threads.
 */
public class PinrockSessionStore extends SegmentedStateStore implements SessionStore<Bytes, byte[]> {
    private final boolean timeOrdered;

    /**
     * @param name the store's name
     * @param metricsScope its supplier's metrics scope
     * @param retentionPeriod how long sessions are kept after they end, in ms
     * @param segmentInterval the segments' length, in ms
     * @param timeOrdered whether the store also keeps its sessions in end-time order
     */
    public PinrockSessionStore(String name, String metricsScope, long retentionPeriod, long segmentInterval,
            boolean timeOrdered) {
        super(name, metricsScope, SegmentKeySchema.SESSION, timeOrdered ? TimeIndex.SESSION_END : null,
                retentionPeriod, segmentInterval);
        this.timeOrdered = timeOrdered;
    }

    /**
     * Returns every session whose end is in earliestSessionEndTime..latestSessionEndTime, ordered by
     * end, then start, then key bytes, as the built-in time-ordered session store does.
     *
     * @throws UnsupportedOperationException on a store that is not time-ordered, as the built-in
     *     {@code RocksDBSessionStore} answers
     */
    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(long earliestSessionEndTime,
            long latestSessionEndTime) {
        if (!timeOrdered) {
            return SessionStore.super.findSessions(earliestSessionEndTime, latestSessionEndTime);
        }
        return sessions(segmented.fetchByTime(null, null, earliestSessionEndTime, latestSessionEndTime, true));
    }

    @Override
    public void put(Windowed<Bytes> sessionKey, byte[] aggregate) {
        segmented.put(SessionKeySchema.toBinary(sessionKey), aggregate);
    }

    @Override
    public void remove(Windowed<Bytes> sessionKey) {
        segmented.remove(SessionKeySchema.toBinary(sessionKey));
    }

    @Override
    public byte[] fetchSession(Bytes key, long sessionStartTime, long sessionEndTime) {
        return segmented.get(SessionKeySchema.toBinary(key, sessionStartTime, sessionEndTime));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes key, long earliestSessionEndTime,
            long latestSessionStartTime) {
        return sessions(segmented.fetch(key, key, earliestSessionEndTime, latestSessionStartTime, true, true));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes key, long earliestSessionEndTime,
            long latestSessionStartTime) {
        return sessions(segmented.fetch(key, key, earliestSessionEndTime, latestSessionStartTime, false, true));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes keyFrom, Bytes keyTo,
            long earliestSessionEndTime, long latestSessionStartTime) {
        return sessions(segmented.fetch(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, true,
                false));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes keyFrom, Bytes keyTo,
            long earliestSessionEndTime, long latestSessionStartTime) {
        return sessions(segmented.fetch(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, false,
                false));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes key) {
        return findSessions(key, 0, Long.MAX_VALUE);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes key) {
        return backwardFindSessions(key, 0, Long.MAX_VALUE);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo) {
        return findSessions(keyFrom, keyTo, 0, Long.MAX_VALUE);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo) {
        return backwardFindSessions(keyFrom, keyTo, 0, Long.MAX_VALUE);
    }

    private static KeyValueIterator<Windowed<Bytes>, byte[]> sessions(KeyValueIterator<Bytes, byte[]> binary) {
        return new PinrockWindowStore.MappedKeyIterator<>(binary, SessionKeySchema::from);
    }
}
