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
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.state.internals.RocksDBTimeOrderedWindowStore;
import org.apache.kafka.streams.state.internals.RocksDbIndexedTimeOrderedWindowBytesStoreSupplier;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A time-ordered {@link PinrockWindowStore} as Kafka Streams must see it so
 * that its store builder caches it in time order. Every call goes to the
 * pinrock store.
 *
 * <p>Why: Kafka Streams' {@code TimestampedWindowStoreBuilder} puts its
 * time-ordered record cache ({@code TimeOrderedCachingWindowStore}) only
 * around a store that is, or wraps, a {@link RocksDBTimeOrderedWindowStore};
 * around any other store it puts its key-ordered cache, which merges its
 * entries with the store's answers by key within each segment. A
 * time-ordered store under that cache answers the emit-on-window-close
 * aggregation's {@code fetchAll} with a window twice (the cache's newer
 * value and the store's older one) whenever the cache holds a window that
 * the store holds too; a key-ordered store under it answers in another
 * order than the built-in store (see {@code docs/kafka-streams.md}). So
 * this class is a {@link WrappedStateStore} whose {@link #wrapped()} is a
 * {@link RocksDBTimeOrderedWindowStore} that is never opened (built by
 * Kafka Streams' public supplier, it holds no files and no RocksDB
 * handle): the builder, which looks through wrappers, then puts the
 * time-ordered cache around this store, and the cache asks the marker
 * whether the store keeps a key index, which decides the order in which it
 * merges key ranges. The class is in pinrock's package, so the library
 * needs no class in Kafka Streams' packages and works on the module path
 * too.
 */
public final class TimeOrderedWindowStore extends WrappedStateStore<RocksDBTimeOrderedWindowStore, Object, Object>
        implements WindowStore<Bytes, byte[]>, TimestampedBytesStore {
    private final PinrockWindowStore store;

    /** @param supplier the supplier of a time-ordered store, whose parameters it and its marker take */
    TimeOrderedWindowStore(WindowSupplier supplier) {
        super((RocksDBTimeOrderedWindowStore) new RocksDbIndexedTimeOrderedWindowBytesStoreSupplier(supplier.name(),
                supplier.retentionPeriod(), supplier.segmentIntervalMs(), supplier.windowSize(),
                supplier.retainDuplicates(), supplier.order() == WindowOrder.TIME_KEY_RANGES_BY_KEY).get());
        this.store = new PinrockWindowStore(supplier.name(), WindowSupplier.METRICS_SCOPE, supplier.retentionPeriod(),
                supplier.segmentIntervalMs(), supplier.windowSize(), supplier.retainDuplicates(), supplier.order());
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        store.init(context, root);
    }

    @Override
    public String name() {
        return store.name();
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return store.isOpen();
    }

    @Override
    public void flush() {
        store.flush();
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return store.query(query, positionBound, config);
    }

    @Override
    public Position getPosition() {
        return store.getPosition();
    }

    @Override
    public void put(Bytes key, byte[] value, long windowStartTimestamp) {
        store.put(key, value, windowStartTimestamp);
    }

    @Override
    public byte[] fetch(Bytes key, long time) {
        return store.fetch(key, time);
    }

    @Override
    public WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo) {
        return store.fetch(key, timeFrom, timeTo);
    }

    @Override
    public WindowStoreIterator<byte[]> backwardFetch(Bytes key, long timeFrom, long timeTo) {
        return store.backwardFetch(key, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return store.fetch(keyFrom, keyTo, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo, long timeFrom,
            long timeTo) {
        return store.backwardFetch(keyFrom, keyTo, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetchAll(long timeFrom, long timeTo) {
        return store.fetchAll(timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetchAll(long timeFrom, long timeTo) {
        return store.backwardFetchAll(timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> all() {
        return store.all();
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardAll() {
        return store.backwardAll();
    }
}
