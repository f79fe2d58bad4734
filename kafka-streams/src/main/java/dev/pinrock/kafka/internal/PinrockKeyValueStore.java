package dev.pinrock.kafka.internal;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;

import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.TimestampedBytesStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.WriteBatch;

/**
 * A persistent Kafka Streams key-value bytes store on one pinrock database,
 * in {@code <state dir>/pinrock/<store name>}.
 *
 * <p>Writes come from the stream thread; reads also from interactive-query
 * threads. Writes skip the write-ahead log and {@link #flush()} persists the
 * memtables (the changelog is the log), as in the built-in store. Ranges
 * iterate pinrock cursors with batched scans; iterators still open when the
 * store closes are closed with it. Restoration writes each restored batch of
 * records as one write batch.
 */
public class PinrockKeyValueStore implements KeyValueStore<Bytes, byte[]> {
    /** The directory under the task's state directory that holds pinrock stores. */
    public static final String STATE_SUBDIRECTORY = "pinrock";
    private static final Logger LOG = LoggerFactory.getLogger(PinrockKeyValueStore.class);

    private final String name;
    private final String metricsScope;
    private final OpenIterators iterators;
    private final StorePosition storePosition = new StorePosition();
    private final Position position = storePosition.position();
    /** Reused by the stream thread for every write; guarded by this. */
    private WriteBatch writes;
    private StateStoreContext context;
    private StoreDatabase database;
    private StoreMetrics metrics;
    private volatile boolean open;

    /**
     * @param name the store's name
     * @param metricsScope its supplier's metrics scope
     */
    public PinrockKeyValueStore(String name, String metricsScope) {
        this.name = name;
        this.metricsScope = metricsScope;
        this.iterators = new OpenIterators(name);
    }

    /** The timestamped variant: values carry their timestamp (8 bytes) first, so the DSL needs no adapter. */
    public static final class Timestamped extends PinrockKeyValueStore implements TimestampedBytesStore {
        /**
         * @param name the store's name
         * @param metricsScope its supplier's metrics scope
         */
        public Timestamped(String name, String metricsScope) {
            super(name, metricsScope);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public synchronized void init(StateStoreContext context, StateStore root) {
        if (open) {
            throw new IllegalStateException("Store " + name + " is already open");
        }
        storePosition.load(context, name);
        Path directory = context.stateDir().toPath().resolve(STATE_SUBDIRECTORY).resolve(name);
        this.context = context;
        this.database = StoreDatabase.open(name, directory, context.appConfigs());
        this.writes = new WriteBatch();
        this.metrics = StoreMetrics.register(context, name, metricsScope, () -> open ? List.of(database) : List.of());
        open = true;
        storePosition.register(context, root, this::restoreAll);
    }

    /** Writes one restored batch of changelog records as one write batch; a null value deletes. */
    private synchronized void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
        WriteBatch writes = emptyBatch();
        for (KeyValue<byte[], byte[]> record : records) {
            if (record.value == null) {
                writes.delete(record.key);
            } else {
                writes.put(record.key, record.value);
            }
        }
        writeBatch("restoring");
    }

    @Override
    public synchronized void put(Bytes key, byte[] value) {
        checkKey(key);
        WriteBatch writes = emptyBatch();
        if (value == null) {
            writes.delete(key.get());
        } else {
            writes.put(key.get(), value);
        }
        writeBatch("putting a key/value pair");
    }

    @Override
    public synchronized byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] existing = get(key);
        if (existing == null) {
            put(key, value);
        }
        return existing;
    }

    @Override
    public synchronized void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        WriteBatch writes = emptyBatch();
        for (KeyValue<Bytes, byte[]> entry : entries) {
            checkKey(entry.key);
            if (entry.value == null) {
                writes.delete(entry.key.get());
            } else {
                writes.put(entry.key.get(), entry.value);
            }
        }
        writeBatch("putting all key/value pairs");
    }

    @Override
    public synchronized byte[] delete(Bytes key) {
        byte[] old = get(key);
        put(key, null);
        return old;
    }

    /** @return the reusable write batch, emptied; throws when the store is closed */
    private WriteBatch emptyBatch() {
        db();
        writes.clear();
        return writes;
    }

    /** Writes {@link #writes} without the WAL and records the position. */
    private void writeBatch(String what) {
        RocksDb db = db();
        try {
            db.write(writes, StoreDatabase.WRITE_OPTIONS);
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while " + what + " in store " + name, e);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
        StoreQueries.updatePosition(position, context);
    }

    @Override
    public byte[] get(Bytes key) {
        checkKey(key);
        RocksDb db = db();
        try {
            return db.get(key.get());
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while getting value for key from store " + name, e);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return range(from, to, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return range(from, to, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return range(null, null, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return range(null, null, true);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        byte[] prefixBytes = prefixKeySerializer.serialize(null, prefix);
        return iterate(ReadOptions.DEFAULT.prefix(prefixBytes), false);
    }

    /** Keys from {@code from} to {@code to}, both inclusive; null leaves that end open. */
    private KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to, boolean reverse) {
        if (invalidRange(from, to)) {
            return EmptyIterator.INSTANCE;
        }
        ReadOptions bounds = ReadOptions.DEFAULT
                .lowerBound(from == null ? null : from.get())
                .upperBound(to == null ? null : successor(to.get()));
        return iterate(bounds, reverse);
    }

    /** The smallest key after {@code key}: the key with a 0 byte appended (an exclusive bound). */
    static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    private KeyValueIterator<Bytes, byte[]> iterate(ReadOptions options, boolean reverse) {
        RocksDb db = db();
        try {
            return iterators.open(db.cursor(options), reverse);
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while creating an iterator on store " + name, e);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    /**
     * Returns RocksDB's estimate of the number of keys.
     *
     * @return the estimate, {@link Long#MAX_VALUE} when it overflows
     */
    @Override
    public long approximateNumEntries() {
        RocksDb db = db();
        try {
            long estimate = db.propertyLong("rocksdb.estimate-num-keys").orElse(0);
            return estimate < 0 ? Long.MAX_VALUE : estimate;
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    /** Persists the memtables (the store writes without the WAL) and records the statistics metrics. */
    @Override
    public synchronized void flush() {
        RocksDb db = db();
        try {
            db.flush();
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while executing flush from store " + name, e);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
        metrics.record();
    }

    /** Closes the open iterators, the metrics and the database; idempotent. */
    @Override
    public synchronized void close() {
        if (!open) {
            return;
        }
        open = false;
        iterators.closeAll();
        metrics.close();
        database.close();
        writes.close();
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return StoreQueries.handle(query, positionBound, config, this, position, context);
    }

    @Override
    public Position getPosition() {
        return position;
    }

    RocksDb db() {
        if (!open) {
            throw new InvalidStateStoreException("Store " + name + " is currently closed");
        }
        return database.db();
    }

    /** A pinrock "closed" from a store that closed meanwhile is Kafka Streams' "store closed". */
    private RuntimeException closedOr(IllegalStateException e) {
        return open ? e : new InvalidStateStoreException("Store " + name + " is currently closed");
    }

    private static void checkKey(Bytes key) {
        if (key == null) {
            throw new NullPointerException("key cannot be null");
        }
    }

    /**
     * Whether a range's from key comes after its to key; such a range is
     * empty, and the built-in stores log it, word for word as here.
     */
    static boolean invalidRange(Bytes from, Bytes to) {
        if (from == null || to == null || from.compareTo(to) <= 0) {
            return false;
        }
        LOG.warn("Returning empty iterator for fetch with invalid key range: from > to. This may be due to range"
                + " arguments set in the wrong order, or serdes that don't preserve ordering when lexicographically"
                + " comparing the serialized bytes. Note that the built-in numerical serdes do not follow this for"
                + " negative numbers");
        return true;
    }

    /** The iterator of an empty range. */
    static final class EmptyIterator implements KeyValueIterator<Bytes, byte[]> {
        static final EmptyIterator INSTANCE = new EmptyIterator();

        @Override
        public boolean hasNext() {
            return false;
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            throw new NoSuchElementException();
        }

        @Override
        public Bytes peekNextKey() {
            throw new NoSuchElementException();
        }

        @Override
        public void close() {
        }
    }
}
