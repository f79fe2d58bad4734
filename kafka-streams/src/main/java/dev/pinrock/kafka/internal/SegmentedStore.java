package dev.pinrock.kafka.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.processor.internals.metrics.TaskMetrics;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueIterator;

import dev.pinrock.Cursor;
import dev.pinrock.Keyspace;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDbException;
import dev.pinrock.WriteBatch;

/**
 * The segmented bytes store under pinrock's window and session stores, the
 * counterpart of Kafka Streams' {@code AbstractRocksDBSegmentedBytesStore}
 * with the same behaviour: time is cut into segments of
 * {@code segmentInterval} milliseconds, each one pinrock database in
 * {@code <state dir>/pinrock/<store>/<store>.<segment start>}; a record goes to
 * the segment of its key's time; stream time is the largest time seen, and
 * segments older than stream time minus the retention are closed and
 * deleted, and records for them dropped. Queries search the live segments of
 * their time range, in time order (reversed for backward queries), each in
 * binary key order. With a {@link TimeIndex}, each segment also keeps its
 * entries in time order, which {@link #fetchByTime} reads.
 *
 * <p>Writes and segment changes come from the stream thread; reads also
 * from interactive-query threads.
 */
final class SegmentedStore {
    private final String name;
    private final String metricsScope;
    private final SegmentKeySchema schema;
    /** The time order each segment also keeps, or null for none. */
    private final TimeIndex timeIndex;
    private final long retentionPeriod;
    private final long segmentInterval;
    /** Entries indexed per write batch when a segment's time index is built from its entries. */
    private static final int INDEX_BATCH_ENTRIES = 10_000;

    private final NavigableMap<Long, StoreDatabase> segments = new ConcurrentSkipListMap<>();
    /** Each open segment's time index family, with a time index. */
    private final Map<StoreDatabase, Keyspace> indexes = new ConcurrentHashMap<>();
    private final StorePosition storePosition = new StorePosition();
    private final Position position = storePosition.position();
    private OpenIterators iterators;
    /** Reused by the stream thread for every put and remove; guarded by this. */
    private WriteBatch writes;
    private StateStoreContext context;
    private Path directory;
    private StoreMetrics metrics;
    /**
     * Kafka's task-level dropped-records sensor, where the built-in store
     * counts records for expired segments; null when the context's metrics
     * are not Kafka Streams' own (they are in the runtime and in its test
     * utilities), which have no task-level sensors.
     */
    private Sensor expiredRecords;
    private long observedStreamTime = -1;
    private volatile boolean open;

    SegmentedStore(String name, String metricsScope, SegmentKeySchema schema, TimeIndex timeIndex,
            long retentionPeriod, long segmentInterval) {
        this.name = name;
        this.metricsScope = metricsScope;
        this.schema = schema;
        this.timeIndex = timeIndex;
        this.retentionPeriod = retentionPeriod;
        this.segmentInterval = segmentInterval;
    }

    /** Opens the segments found on disk, registers the metrics, loads the position and registers the restore callback. */
    synchronized void init(StateStoreContext context, StateStore root) {
        if (open) {
            throw new IllegalStateException("Store " + name + " is already open");
        }
        storePosition.load(context, name);
        this.context = context;
        this.directory = context.stateDir().toPath().resolve(PinrockKeyValueStore.STATE_SUBDIRECTORY).resolve(name);
        this.iterators = new OpenIterators(name);
        this.writes = new WriteBatch();
        try {
            Files.createDirectories(directory);
            try (Stream<Path> found = Files.list(directory)) {
                found.map(path -> segmentIdOf(path.getFileName().toString()))
                        .filter(id -> id >= 0)
                        .sorted()
                        .forEach(this::openSegment);
            }
        } catch (IOException e) {
            throw new ProcessorStateException("Error opening store " + name + " at " + directory, e);
        }
        metrics = StoreMetrics.register(context, name, metricsScope, () -> List.copyOf(segments.values()));
        expiredRecords = context.metrics() instanceof StreamsMetricsImpl streamsMetrics
                ? TaskMetrics.droppedRecordsSensor(Thread.currentThread().getName(), context.taskId().toString(),
                        streamsMetrics)
                : null;
        open = true;
        storePosition.register(context, root, this::restoreAll);
    }

    /** @return the id of a segment directory named {@code <store>.<segment start>}, or -1 for anything else */
    private long segmentIdOf(String directoryName) {
        if (!directoryName.startsWith(name + ".")) {
            return -1;
        }
        try {
            return Long.parseLong(directoryName.substring(name.length() + 1)) / segmentInterval;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private StoreDatabase openSegment(long segmentId) {
        return segments.computeIfAbsent(segmentId, id -> {
            String segmentName = name + "." + id * segmentInterval;
            StoreDatabase segment = StoreDatabase.open(segmentName, directory.resolve(segmentName),
                    context.appConfigs());
            if (timeIndex != null) {
                try {
                    indexes.put(segment, timeIndexOf(segment));
                } catch (RuntimeException e) {
                    segment.close();
                    throw new ProcessorStateException("Error opening the time index of store " + segmentName, e);
                }
            }
            return segment;
        });
    }

    /**
     * Returns a segment's time index, creating it and indexing the entries the
     * segment already holds when it has none, or none complete: those of a
     * store that was not time-ordered before (an application that switched an
     * aggregation to emitting on window close) are found by time too. The
     * index is complete once it holds {@link TimeIndex#COMPLETE}, written
     * through the log after the entries, so that a crash while indexing leaves
     * an index the next open completes.
     */
    private Keyspace timeIndexOf(StoreDatabase segment) {
        Keyspace index = segment.db().columnFamily(TimeIndex.FAMILY);
        if (index == null) {
            index = segment.db().createColumnFamily(TimeIndex.FAMILY);
        }
        if (index.get(TimeIndex.COMPLETE) != null) {
            return index;
        }
        try (Cursor entries = segment.db().cursor(); WriteBatch batch = new WriteBatch()) {
            for (boolean on = entries.first(); on; on = entries.next()) {
                batch.put(index, timeIndex.indexKey(entries.keyBytes()), entries.valueBytes());
                if (batch.count() >= INDEX_BATCH_ENTRIES) {
                    segment.db().write(batch);
                    batch.clear();
                }
            }
            batch.put(index, TimeIndex.COMPLETE, new byte[0]);
            segment.db().write(batch);
        }
        return index;
    }

    private long segmentId(long timestamp) {
        return timestamp / segmentInterval;
    }

    /**
     * Returns the live segment for a time, opening it if needed, and drops
     * the segments that stream time has made expire.
     *
     * @return the segment, or null when the time's segment has expired
     */
    private StoreDatabase liveSegment(long timestamp) {
        long minLiveSegment = segmentId(observedStreamTime - retentionPeriod);
        long segmentId = segmentId(timestamp);
        StoreDatabase segment = segmentId >= minLiveSegment ? openSegment(segmentId) : null;
        dropSegmentsBefore(minLiveSegment);
        return segment;
    }

    private void dropSegmentsBefore(long minLiveSegment) {
        Iterator<Map.Entry<Long, StoreDatabase>> expired = segments.headMap(minLiveSegment, false).entrySet()
                .iterator();
        while (expired.hasNext()) {
            StoreDatabase segment = expired.next().getValue();
            expired.remove();
            indexes.remove(segment);
            segment.close();
            StoreDatabase.delete(directory.resolve(segment.name()));
        }
    }

    /**
     * Writes a binary key (a null value deletes it); a record for an expired
     * segment is dropped and counted in the task's dropped records.
     */
    synchronized void put(Bytes key, byte[] value) {
        checkOpen();
        long timestamp = schema.segmentTimestamp(key.get());
        observedStreamTime = Math.max(observedStreamTime, timestamp);
        StoreDatabase segment = liveSegment(timestamp);
        if (segment == null) {
            if (expiredRecords != null) {
                expiredRecords.record();
            }
            return;
        }
        writes.clear();
        addWrite(writes, segment, key.get(), value);
        write(segment, "putting key/value into");
        StoreQueries.updatePosition(position, context);
    }

    /** Removes a binary key, advancing stream time as a put does. */
    synchronized void remove(Bytes key) {
        checkOpen();
        long timestamp = schema.segmentTimestamp(key.get());
        observedStreamTime = Math.max(observedStreamTime, timestamp);
        StoreDatabase segment = segments.get(segmentId(timestamp));
        if (segment != null) {
            writes.clear();
            addWrite(writes, segment, key.get(), null);
            write(segment, "removing a key from");
        }
    }

    /** Adds writing key to batch (deleting it for a null value), with its time index entry. */
    private void addWrite(WriteBatch batch, StoreDatabase segment, byte[] key, byte[] value) {
        if (value == null) {
            batch.delete(key);
        } else {
            batch.put(key, value);
        }
        if (timeIndex != null) {
            Keyspace index = indexes.get(segment);
            byte[] indexKey = timeIndex.indexKey(key);
            if (value == null) {
                batch.delete(index, indexKey);
            } else {
                batch.put(index, indexKey, value);
            }
        }
    }

    /** Writes {@link #writes} to a segment without the WAL. */
    private void write(StoreDatabase segment, String what) {
        try {
            segment.db().write(writes, StoreDatabase.WRITE_OPTIONS);
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while " + what + " store " + name, e);
        }
    }

    /** @return the value of a binary key, or null when absent or expired (or the store closed: it has no segments) */
    byte[] get(Bytes key) {
        long timestamp = schema.segmentTimestamp(key.get());
        if (timestamp < oldestLiveTime()) {
            return null;
        }
        StoreDatabase segment = segments.get(segmentId(timestamp));
        if (segment == null) {
            return null;
        }
        try {
            return segment.db().get(key.get());
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while getting value for key from store " + name, e);
        } catch (IllegalStateException segmentClosed) {
            return null; // the segment expired meanwhile
        }
    }

    /** Restores one batch of changelog records: one write batch per segment. */
    private synchronized void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
        for (KeyValue<byte[], byte[]> record : records) {
            observedStreamTime = Math.max(observedStreamTime, schema.segmentTimestamp(record.key));
        }
        Map<StoreDatabase, WriteBatch> batches = new HashMap<>();
        try {
            for (KeyValue<byte[], byte[]> record : records) {
                StoreDatabase segment = liveSegment(schema.segmentTimestamp(record.key));
                if (segment != null) {
                    addWrite(batches.computeIfAbsent(segment, s -> new WriteBatch()), segment, record.key,
                            record.value);
                }
            }
            for (Map.Entry<StoreDatabase, WriteBatch> entry : batches.entrySet()) {
                entry.getKey().db().write(entry.getValue(), StoreDatabase.WRITE_OPTIONS);
            }
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error restoring batch to store " + name, e);
        } finally {
            batches.values().forEach(WriteBatch::close);
        }
    }

    /**
     * Iterates the binary keys of keys keyFrom..keyTo (null: open) whose time
     * matches from..to, segment by segment.
     *
     * @param fixedSizeKey whether keyFrom and keyTo are one key (tighter binary bounds)
     * @return the iterator; empty once the store is closed (it has no segments), as the built-in
     *     store answers, unless a restore reopened segments since
     */
    KeyValueIterator<Bytes, byte[]> fetch(Bytes keyFrom, Bytes keyTo, long from, long to, boolean forward,
            boolean fixedSizeKey) {
        if (PinrockKeyValueStore.invalidRange(keyFrom, keyTo)) {
            return PinrockKeyValueStore.EmptyIterator.INSTANCE;
        }
        long actualFrom = Math.max(from, oldestLiveTime());
        long lastSegmentTime = schema.lastSegmentTime(to);
        if (schema == SegmentKeySchema.WINDOW && to < actualFrom) {
            return PinrockKeyValueStore.EmptyIterator.INSTANCE;
        }
        NavigableMap<Long, StoreDatabase> searched = segmentId(actualFrom) > segmentId(lastSegmentTime)
                ? new ConcurrentSkipListMap<>()
                : segments.subMap(segmentId(actualFrom), true, segmentId(lastSegmentTime), true);
        List<StoreDatabase> searchSpace = new ArrayList<>((forward ? searched : searched.descendingMap()).values());
        Bytes lower = fixedSizeKey ? schema.lowerRangeFixedSize(keyFrom, actualFrom) : schema.lowerRange(keyFrom,
                actualFrom);
        Bytes upper = fixedSizeKey ? schema.upperRangeFixedSize(keyTo, to) : schema.upperRange(keyTo, to);
        ReadOptions bounds = ReadOptions.DEFAULT
                .lowerBound(lower == null ? null : lower.get())
                .upperBound(upper == null ? null : PinrockKeyValueStore.successor(upper.get()));
        return new SegmentIterator(searchSpace.iterator(), StoreDatabase::db, bounds, forward,
                storeKey -> schema.matches(storeKey, keyFrom, keyTo, actualFrom, to));
    }

    /**
     * @return the oldest time whose records the store answers: stream time minus the retention, plus
     *     one unless the time index answers from that edge (see {@link TimeIndex#retentionEdgeLive})
     */
    private long oldestLiveTime() {
        return observedStreamTime - retentionPeriod + (timeIndex != null && timeIndex.retentionEdgeLive() ? 0 : 1);
    }

    /**
     * Iterates, in time order (reversed for a backward read), the entries of
     * the time index whose time is from..to and whose key is keyFrom..keyTo
     * (null: open), in the live segments of those times, under their binary
     * store keys. An index that keeps the retention edge live answers from
     * there on; another answers the records of a segment not yet dropped
     * too, as the built-in time-ordered session store. Times before 0 are no
     * times (Kafka Streams drops records with them), as for the built-in
     * stores.
     *
     * @return the iterator; empty for an inverted key range, as {@link #fetch} answers
     * @throws IllegalStateException when the store keeps no time index
     */
    KeyValueIterator<Bytes, byte[]> fetchByTime(Bytes keyFrom, Bytes keyTo, long requestedFrom, long to,
            boolean forward) {
        if (timeIndex == null) {
            throw new IllegalStateException("store " + name + " keeps no time index");
        }
        if (PinrockKeyValueStore.invalidRange(keyFrom, keyTo)) {
            return PinrockKeyValueStore.EmptyIterator.INSTANCE;
        }
        long from = Math.max(0, timeIndex.retentionEdgeLive() ? Math.max(requestedFrom, oldestLiveTime())
                : requestedFrom);
        if (from > to) {
            return PinrockKeyValueStore.EmptyIterator.INSTANCE;
        }
        NavigableMap<Long, StoreDatabase> searched = segments.subMap(segmentId(from), true, segmentId(to), true);
        List<StoreDatabase> searchSpace = new ArrayList<>((forward ? searched : searched.descendingMap()).values());
        // Up to Long.MAX_VALUE, the index ends before the negative times (their sign bit sorts them last).
        ReadOptions bounds = ReadOptions.DEFAULT.lowerBound(timeIndex.lowerBound(from))
                .upperBound(timeIndex.lowerBound(to == Long.MAX_VALUE ? Long.MIN_VALUE : to + 1));
        Predicate<byte[]> matches = keyFrom == null && keyTo == null ? indexKey -> true
                : indexKey -> schema.matches(timeIndex.storeKey(indexKey), keyFrom, keyTo, from, to);
        KeyValueIterator<Bytes, byte[]> byTime = new SegmentIterator(searchSpace.iterator(), indexes::get, bounds,
                forward, matches);
        return new PinrockWindowStore.MappedKeyIterator<>(byTime,
                indexKey -> Bytes.wrap(timeIndex.storeKey(indexKey.get())));
    }

    /**
     * Walks the searched segments one after another, skipping entries the
     * query excludes. A segment closed meanwhile (expired, or the store
     * closed) ends its part of the walk: an iterator left open when the store
     * closes then has no next entry, as the built-in store's.
     */
    private final class SegmentIterator implements KeyValueIterator<Bytes, byte[]> {
        private final Iterator<StoreDatabase> remaining;
        private final Function<StoreDatabase, Keyspace> keyspace;
        private final ReadOptions bounds;
        private final boolean forward;
        private final Predicate<byte[]> matches;
        private CursorIterator current;

        /** @param keyspace what of each segment it walks: its entries or its time index */
        SegmentIterator(Iterator<StoreDatabase> segments, Function<StoreDatabase, Keyspace> keyspace,
                ReadOptions bounds, boolean forward, Predicate<byte[]> matches) {
            this.remaining = segments;
            this.keyspace = keyspace;
            this.bounds = bounds;
            this.forward = forward;
            this.matches = matches;
        }

        @Override
        public boolean hasNext() {
            while (true) {
                if (current != null) {
                    try {
                        while (current.hasNext()) {
                            if (matches.test(current.peekNextKey().get())) {
                                return true;
                            }
                            current.next();
                        }
                    } catch (InvalidStateStoreException segmentClosed) {
                        // go on with the next segment
                    }
                    current.close();
                    current = null;
                }
                if (!remaining.hasNext()) {
                    return false;
                }
                StoreDatabase segment = remaining.next();
                try {
                    Keyspace walked = keyspace.apply(segment);
                    if (walked != null) { // null: the segment closed and dropped meanwhile
                        current = iterators.open(walked.cursor(bounds), !forward);
                    }
                } catch (IllegalStateException segmentClosed) {
                    // go on with the next segment
                }
            }
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return current.next();
        }

        @Override
        public Bytes peekNextKey() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return current.peekNextKey();
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }

    /** Persists every segment's memtables, its time index's too, and records the statistics metrics. */
    synchronized void flush() {
        checkOpen();
        try {
            for (StoreDatabase segment : segments.values()) {
                segment.db().flush();
                if (timeIndex != null) {
                    indexes.get(segment).flush();
                }
            }
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while executing flush from store " + name, e);
        }
        metrics.record();
    }

    /**
     * Closes the open iterators, the metrics and every segment, the ones a
     * restore into the closed store opened since included; idempotent.
     */
    synchronized void close() {
        if (iterators == null) {
            return; // never initialized
        }
        open = false;
        iterators.closeAll();
        metrics.close();
        segments.values().forEach(StoreDatabase::close);
        segments.clear();
        indexes.clear();
        writes.close();
    }

    boolean isOpen() {
        return open;
    }

    Position position() {
        return position;
    }

    StateStoreContext context() {
        return context;
    }

    private void checkOpen() {
        if (!open) {
            throw new InvalidStateStoreException("Store " + name + " is currently closed");
        }
    }
}
