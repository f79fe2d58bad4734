package dev.pinrock.kafka.internal;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.internals.SessionKeySchema;

/**
 * A persistent Kafka Streams session bytes store on pinrock: Kafka Streams'
 * session key layout ([key][session end][session start]) in a
 * {@link SegmentedStore} segmented by session end, with the built-in
 * {@code RocksDBSessionStore}'s behaviour.
 *
 * <p>Writes come from the stream thread; reads also from interactive-query threads.
 */
public class PinrockSessionStore implements SessionStore<Bytes, byte[]> {
    private final String name;
    private final SegmentedStore segmented;

    /**
     * @param name the store's name
     * @param metricsScope its supplier's metrics scope
     * @param retentionPeriod how long sessions are kept after they end, in ms
     * @param segmentInterval the segments' length, in ms
     */
    public PinrockSessionStore(String name, String metricsScope, long retentionPeriod, long segmentInterval) {
        this.name = name;
        this.segmented = new SegmentedStore(name, metricsScope, SegmentKeySchema.SESSION, retentionPeriod,
                segmentInterval);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        segmented.init(context, root);
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

    @Override
    public void flush() {
        segmented.flush();
    }

    @Override
    public void close() {
        segmented.close();
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return segmented.isOpen();
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return StoreQueries.handle(query, positionBound, config, this, segmented.position(), segmented.context());
    }

    @Override
    public Position getPosition() {
        return segmented.position();
    }
}
