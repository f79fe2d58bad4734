package dev.pinrock.kafka.internal;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.MultiVersionedKeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.query.VersionedKeyQuery;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.VersionedRecordIterator;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Interactive queries (IQv2) on pinrock's bytes stores: the queries Kafka
 * Streams' built-in RocksDB stores answer, with the same results and
 * failures. {@code KeyQuery} and {@code RangeQuery} on key-value stores,
 * {@code WindowKeyQuery} and {@code WindowRangeQuery} (time range) on window
 * stores, {@code WindowRangeQuery} (key) on session stores,
 * {@code VersionedKeyQuery} and {@code MultiVersionedKeyQuery} on versioned
 * stores; anything else is an unknown query type. The typed forms (timestamped queries, serdes) are
 * handled by the metered layer Kafka Streams puts around every store.
 */
public final class StoreQueries {
    private StoreQueries() {
    }

    /**
     * Records the position of the record being processed, if any, in a
     * store's position; call on every write. Synchronizes on the position,
     * as queries read it.
     */
    public static void updatePosition(Position position, StateStoreContext context) {
        if (context != null && context.recordMetadata().isPresent()) {
            var record = context.recordMetadata().get();
            if (record.topic() != null) {
                synchronized (position) {
                    position.withComponent(record.topic(), record.partition(), record.offset());
                }
            }
        }
    }

    /**
     * Answers a query on a store, when the store's position satisfies the bound.
     *
     * @param query the query; its key types are the store's bytes
     * @param positionBound the position the caller needs the store to have reached
     * @param config whether to collect execution info
     * @param store the store (a key-value, window or session bytes store)
     * @param position the store's position
     * @param context the store's context, null before init
     * @return the result, a failure, or "unknown query type"
     */
    public static <R> QueryResult<R> handle(Query<R> query, PositionBound positionBound, QueryConfig config,
            StateStore store, Position position, StateStoreContext context) {
        long start = config.isCollectExecutionInfo() ? System.nanoTime() : -1L;
        QueryResult<R> result;
        synchronized (position) {
            if (!isKnown(query)) {
                result = QueryResult.forUnknownQueryType(query, store);
            } else if (context == null || !isPermitted(position, positionBound, context.taskId().partition())) {
                result = QueryResult.notUpToBound(position, positionBound,
                        context == null ? null : context.taskId().partition());
            } else {
                result = run(query, store);
            }
            if (config.isCollectExecutionInfo()) {
                result.addExecutionInfo("Handled in " + store.getClass() + " in " + (System.nanoTime() - start)
                        + "ns");
            }
            result.setPosition(position.copy());
        }
        return result;
    }

    private static boolean isKnown(Query<?> query) {
        return query instanceof KeyQuery || query instanceof RangeQuery || query instanceof WindowKeyQuery
                || query instanceof WindowRangeQuery || query instanceof VersionedKeyQuery
                || query instanceof MultiVersionedKeyQuery;
    }

    /** Whether the store has seen, for its partition, every offset the bound asks for. */
    static boolean isPermitted(Position position, PositionBound positionBound, int partition) {
        Position bound = positionBound.position();
        for (String topic : bound.getTopics()) {
            Map<Integer, Long> bounds = bound.getPartitionPositions(topic);
            if (bounds.containsKey(partition)) {
                Long seen = position.getPartitionPositions(topic).get(partition);
                if (seen == null || seen < bounds.get(partition)) {
                    return false;
                }
            }
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private static <R> QueryResult<R> run(Query<R> query, StateStore store) {
        try {
            Object answer = switch (query) {
                case VersionedKeyQuery<?, ?> q when store instanceof PinrockVersionedStore s ->
                        q.asOfTimestamp().isPresent()
                                ? s.recordAsOf((Bytes) q.key(), q.asOfTimestamp().get().toEpochMilli())
                                : s.latestRecord((Bytes) q.key());
                case MultiVersionedKeyQuery<?, ?> q when store instanceof PinrockVersionedStore s ->
                        new VersionedRecords(s.records((Bytes) q.key(), q.fromTime().get().toEpochMilli(),
                                q.toTime().get().toEpochMilli(), q.resultOrder()));
                // As the built-in versioned store, which is no KeyValueStore: plain key-value queries are unknown.
                case Query<?> q when store instanceof PinrockVersionedStore -> QueryResult.forUnknownQueryType(q, store);
                case KeyQuery<?, ?> q when store instanceof KeyValueStore<?, ?> s ->
                        ((KeyValueStore<Bytes, byte[]>) s).get((Bytes) q.getKey());
                case RangeQuery<?, ?> q when store instanceof KeyValueStore<?, ?> s ->
                        range((KeyValueStore<Bytes, byte[]>) s, (RangeQuery<Bytes, byte[]>) q);
                case WindowKeyQuery<?, ?> q when store instanceof WindowStore<?, ?> s -> {
                    if (q.getTimeFrom().isEmpty() || q.getTimeTo().isEmpty()) {
                        yield failure(store, query, "it only supports closed-range queries.");
                    }
                    yield ((WindowStore<Bytes, byte[]>) s).fetch((Bytes) q.getKey(), q.getTimeFrom().get(),
                            q.getTimeTo().get());
                }
                case WindowRangeQuery<?, ?> q when store instanceof WindowStore<?, ?> s -> {
                    if (q.getTimeFrom().isEmpty() || q.getTimeTo().isEmpty()) {
                        yield failure(store, query,
                                "WindowStores only supports WindowRangeQuery.withWindowStartRange.");
                    }
                    yield ((WindowStore<Bytes, byte[]>) s).fetchAll(q.getTimeFrom().get(), q.getTimeTo().get());
                }
                case WindowRangeQuery<?, ?> q when store instanceof SessionStore<?, ?> s -> {
                    Optional<?> key = q.getKey();
                    if (key.isEmpty()) {
                        yield failure(store, query, "SessionStores only support WindowRangeQuery.withKey.");
                    }
                    yield ((SessionStore<Bytes, byte[]>) s).fetch((Bytes) key.get());
                }
                default -> QueryResult.forUnknownQueryType(query, store);
            };
            return answer instanceof QueryResult<?> r ? (QueryResult<R>) r : QueryResult.forResult((R) answer);
        } catch (RuntimeException e) {
            return QueryResult.forFailure(FailureReason.STORE_EXCEPTION, "Failed to execute query " + query
                    + " on store " + store.name() + " (" + store.getClass() + "): " + e);
        }
    }

    private static Object range(KeyValueStore<Bytes, byte[]> store, RangeQuery<Bytes, byte[]> query) {
        Bytes lower = query.getLowerBound().orElse(null);
        Bytes upper = query.getUpperBound().orElse(null);
        boolean descending = query.resultOrder() == ResultOrder.DESCENDING;
        if (lower == null && upper == null) {
            return descending ? store.reverseAll() : store.all();
        }
        return descending ? store.reverseRange(lower, upper) : store.range(lower, upper);
    }

    private static QueryResult<?> failure(StateStore store, Query<?> query, String why) {
        return QueryResult.forFailure(FailureReason.UNKNOWN_QUERY_TYPE, "This store (" + store.getClass()
                + ") doesn't know how to execute the given query (" + query + ") because " + why
                + " Contact the store maintainer if you need support for a new query type.");
    }

    /**
     * The answer to a {@code MultiVersionedKeyQuery}: records read when the
     * query ran (as the built-in store's iterator reads from a snapshot).
     */
    static final class VersionedRecords implements VersionedRecordIterator<byte[]> {
        private final Iterator<VersionedRecord<byte[]>> records;
        private volatile boolean open = true;

        VersionedRecords(List<VersionedRecord<byte[]>> records) {
            this.records = records.iterator();
        }

        /** @throws IllegalStateException once closed, as the built-in store's iterator */
        @Override
        public boolean hasNext() {
            if (!open) {
                throw new IllegalStateException("The iterator is out of scope.");
            }
            return records.hasNext();
        }

        @Override
        public VersionedRecord<byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return records.next();
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
