package dev.pinrock.kafka.internal;

import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;

/**
 * What the window and session stores share as state stores: a
 * {@link SegmentedStore} that each lays out its keys in, and that answers
 * for the store's life cycle (init, flush, close), its interactive queries
 * and its position.
 */
public abstract class SegmentedStateStore implements StateStore {
    private final String name;
    /** The store's segments, in the key layout of the subclass. */
    protected final SegmentedStore segmented;

    /**
     * @param name the store's name
     * @param metricsScope its supplier's metrics scope
     * @param schema how the subclass's keys carry their timestamp
     * @param timeIndex the time order the segments also keep, or null for none
     * @param retentionPeriod how long records are kept, in ms
     * @param segmentInterval the segments' length, in ms
     */
    protected SegmentedStateStore(String name, String metricsScope, SegmentKeySchema schema, TimeIndex timeIndex,
            long retentionPeriod, long segmentInterval) {
        this.name = name;
        this.segmented = new SegmentedStore(name, metricsScope, schema, timeIndex, retentionPeriod, segmentInterval);
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
