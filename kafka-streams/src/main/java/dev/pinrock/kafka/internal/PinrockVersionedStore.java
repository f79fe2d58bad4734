package dev.pinrock.kafka.internal;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.TreeSet;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.processor.internals.metrics.TaskMetrics;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.VersionedBytesStore;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pinrock.Cursor;
import dev.pinrock.Keyspace;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.WriteBatch;

/**
 * A versioned key-value bytes store on one pinrock database in
 * {@code <state dir>/pinrock/<store name>}, answering as Kafka Streams'
 * {@code RocksDBVersionedStore}: the same decisions on the same segments,
 * so that puts, gets, gets as of a time, deletes and what they return
 * agree with the built-in store, expired records and segments included.
 *
 * <p>Layout: the default family maps each key to its latest value,
 * {@code [validFrom 8][value]} (absent when the latest record is a
 * tombstone); the {@code history} family maps {@code [segment id 8, sign
 * flipped][key]} to the key's older records whose validTo falls in that
 * segment ({@link HistorySegment}). Segments are {@code segmentInterval}
 * long; a segment expires, and is deleted with one range delete, once all
 * of it lies before stream time (the largest timestamp put) minus the
 * history retention. Each put writes one write batch, without the WAL (the
 * changelog is the log); restoration goes through the same put, with the
 * batch's stream time, as in the built-in store.
 *
 * <p>Every call synchronizes on the store's position, the one lock IQv2
 * queries take ({@link StoreQueries#handle}) and writes take to advance it,
 * so that a query and a write never wait on each other's second lock.
 */
public final class PinrockVersionedStore implements VersionedBytesStore {
    private static final Logger LOG = LoggerFactory.getLogger(PinrockVersionedStore.class);
    private static final String HISTORY_FAMILY = "history";
    /** Found no record (Kafka's sentinel inside a put). */
    private static final long NONE = Long.MIN_VALUE;

    private final String name;
    private final String metricsScope;
    private final long historyRetention;
    private final long segmentInterval;
    private final StorePosition storePosition = new StorePosition();
    private final Position position = storePosition.position();
    /** The ids of the segments that hold records; guarded by position, as every field below. */
    private final NavigableSet<Long> segments = new TreeSet<>();
    /** The largest timestamp put (or restored); -1 at open, as in the built-in store. */
    private long observedStreamTime = -1L;
    private WriteBatch writes;
    private StateStoreContext context;
    private StoreDatabase database;
    private Keyspace history;
    private StoreMetrics metrics;
    private Sensor expiredRecords;
    private volatile boolean open;

    /**
     * @param name the store's name
     * @param metricsScope its supplier's metrics scope
     * @param historyRetention how long older versions stay queryable, in ms (also the grace period)
     * @param segmentInterval the history segments' length, in ms
     */
    public PinrockVersionedStore(String name, String metricsScope, long historyRetention, long segmentInterval) {
        this.name = name;
        this.metricsScope = metricsScope;
        this.historyRetention = historyRetention;
        this.segmentInterval = segmentInterval;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        synchronized (position) {
            if (open) {
                throw new IllegalStateException("Store " + name + " is already open");
            }
            storePosition.load(context, name);
            Path directory = context.stateDir().toPath().resolve(PinrockKeyValueStore.STATE_SUBDIRECTORY).resolve(name);
            this.context = context;
            this.database = StoreDatabase.open(name, directory, context.appConfigs());
            try {
                RocksDb db = database.db();
                Keyspace family = db.columnFamily(HISTORY_FAMILY);
                history = family != null ? family : db.createColumnFamily(HISTORY_FAMILY);
                loadSegments();
            } catch (RuntimeException e) {
                database.close();
                throw e instanceof RocksDbException ? new ProcessorStateException("Error opening store " + name, e) : e;
            }
            writes = new WriteBatch();
            metrics = StoreMetrics.register(context, name, metricsScope, () -> open ? List.of(database) : List.of());
            expiredRecords = context.metrics() instanceof StreamsMetricsImpl streamsMetrics
                    ? TaskMetrics.droppedRecordsSensor(Thread.currentThread().getName(), context.taskId().toString(),
                            streamsMetrics)
                    : null;
            open = true;
            storePosition.registerRecords(context, root, (RecordBatchingStateRestoreCallback) this::restoreBatch);
        }
    }

    /** Finds the ids of the segments the history family holds, one seek per segment. */
    private void loadSegments() {
        try (Cursor cursor = history.cursor()) {
            boolean valid = cursor.first();
            while (valid) {
                long id = segmentIdOf(cursor.keyBytes());
                segments.add(id);
                valid = id != Long.MAX_VALUE && cursor.seek(segmentPrefix(id + 1));
            }
        }
    }

    /** Restores a batch of changelog records through the put path, with the batch's stream time. */
    private void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        synchronized (position) {
            checkOpen();
            long endOfBatchStreamTime = observedStreamTime;
            for (ConsumerRecord<byte[], byte[]> record : records) {
                endOfBatchStreamTime = Math.max(endOfBatchStreamTime, record.timestamp());
            }
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (record.timestamp() < observedStreamTime - historyRetention) {
                    continue;
                }
                observedStreamTime = Math.max(observedStreamTime, record.timestamp());
                storePosition.advance(record);
                doPut(endOfBatchStreamTime, new Bytes(record.key()), record.value(), record.timestamp());
            }
        }
    }

    /**
     * Puts a record valid from {@code timestamp}; a null value is a tombstone.
     *
     * @return the record's validTo: {@link VersionedKeyValueStore#PUT_RETURN_CODE_VALID_TO_UNDEFINED}
     *     when it is (or would be) the latest; {@link VersionedKeyValueStore#PUT_RETURN_CODE_NOT_PUT}
     *     when its timestamp is before stream time minus the history retention
     */
    @Override
    public long put(Bytes key, byte[] value, long timestamp) {
        synchronized (position) {
            Objects.requireNonNull(key, "key cannot be null");
            checkOpen();
            if (timestamp < observedStreamTime - historyRetention) {
                recordExpired();
                LOG.warn("Skipping record for expired put.");
                StoreQueries.updatePosition(position, context);
                return VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT;
            }
            observedStreamTime = Math.max(observedStreamTime, timestamp);
            long validTo = doPut(observedStreamTime, key, value, timestamp);
            StoreQueries.updatePosition(position, context);
            return validTo;
        }
    }

    /**
     * Puts a tombstone at {@code timestamp}.
     *
     * @return the record valid at {@code timestamp} before, as {@code [validFrom 8][value]}; null when
     *     there was none or the timestamp is before stream time minus the history retention (then
     *     nothing is put)
     */
    @Override
    public byte[] delete(Bytes key, long timestamp) {
        synchronized (position) {
            Objects.requireNonNull(key, "key cannot be null");
            checkOpen();
            if (timestamp < observedStreamTime - historyRetention) {
                recordExpired();
                LOG.warn("Skipping record for expired delete.");
                return null;
            }
            byte[] existing = get(key, timestamp);
            observedStreamTime = Math.max(observedStreamTime, timestamp);
            doPut(observedStreamTime, key, null, timestamp);
            StoreQueries.updatePosition(position, context);
            return existing;
        }
    }

    private void recordExpired() {
        if (expiredRecords != null) {
            expiredRecords.record();
        }
    }

    /** @return the latest record, as {@code [validFrom 8][value]}; null when it is a tombstone or there is none */
    @Override
    public byte[] get(Bytes key) {
        synchronized (position) {
            Objects.requireNonNull(key, "key cannot be null");
            checkOpen();
            return latest(key);
        }
    }

    /**
     * @return the record valid at {@code asOfTimestamp}, as {@code [validFrom 8][value]}; null when
     *     there is none, it is a tombstone, or the time is before stream time minus the history
     *     retention and the latest record is younger
     */
    @Override
    public byte[] get(Bytes key, long asOfTimestamp) {
        VersionedRecord<byte[]> record = recordAsOf(key, asOfTimestamp);
        return record == null ? null : withTimestamp(record.timestamp(), record.value());
    }

    /** The latest record, without validTo; null when it is a tombstone or there is none. */
    VersionedRecord<byte[]> latestRecord(Bytes key) {
        synchronized (position) {
            Objects.requireNonNull(key, "key cannot be null");
            checkOpen();
            byte[] latest = latest(key);
            return latest == null ? null : new VersionedRecord<>(valueOf(latest), timestampOf(latest));
        }
    }

    /** The record valid at {@code asOfTimestamp}, with its validTo unless it is the latest; as {@link #get(Bytes, long)}. */
    VersionedRecord<byte[]> recordAsOf(Bytes key, long asOfTimestamp) {
        synchronized (position) {
            VersionedRecord<byte[]> latest = latestRecord(key);
            if (latest != null && latest.timestamp() <= asOfTimestamp) {
                return latest;
            }
            if (asOfTimestamp < observedStreamTime - historyRetention) {
                LOG.warn("Returning null for expired get.");
                return null;
            }
            for (long segment : segments.subSet(segmentId(asOfTimestamp), true, segmentId(Long.MAX_VALUE), true)
                    .descendingSet()) {
                byte[] raw = segmentValue(segment, key);
                if (raw == null) {
                    continue;
                }
                if (HistorySegment.nextTimestamp(raw) <= asOfTimestamp) {
                    return null;
                }
                if (HistorySegment.minTimestamp(raw) > asOfTimestamp) {
                    continue;
                }
                HistorySegment.Found found = HistorySegment.parse(raw).find(asOfTimestamp);
                return found.value() == null ? null
                        : new VersionedRecord<>(found.value(), found.validFrom(), found.validTo());
            }
            return null;
        }
    }

    /**
     * The records of a key valid at some time from {@code fromTime} to
     * {@code toTime} (tombstones left out), as the built-in store's
     * {@code MultiVersionedKeyQuery} answers: the latest record when its
     * validFrom is at most {@code toTime}; the older ones only when
     * {@code toTime} is not before stream time minus the history retention,
     * and then those the store still holds.
     */
    List<VersionedRecord<byte[]>> records(Bytes key, long fromTime, long toTime, ResultOrder order) {
        synchronized (position) {
            List<VersionedRecord<byte[]>> records = new ArrayList<>();
            VersionedRecord<byte[]> latest = latestRecord(key);
            if (latest != null && latest.timestamp() <= toTime) {
                records.add(latest);
            }
            if (toTime >= observedStreamTime - historyRetention) {
                for (long segment : segments.subSet(segmentId(Long.MIN_VALUE), true, segmentId(toTime), true)
                        .descendingSet()) {
                    byte[] raw = segmentValue(segment, key);
                    if (raw != null) {
                        for (HistorySegment.Found found : HistorySegment.parse(raw).findAll(fromTime, toTime)) {
                            records.add(new VersionedRecord<>(found.value(), found.validFrom(), found.validTo()));
                        }
                    }
                }
            }
            if (order == ResultOrder.ASCENDING) {
                Collections.reverse(records);
            }
            return records;
        }
    }

    // The put: Kafka Streams' RocksDBVersionedStore.doPut, step by step on this layout.

    private long doPut(long streamTime, Bytes key, byte[] value, long timestamp) {
        WriteBatch batch = writes;
        batch.clear();
        long minLiveSegment = segmentId(streamTime - historyRetention);
        NavigableSet<Long> expired = segments.headSet(minLiveSegment, false);
        if (!expired.isEmpty()) {
            batch.deleteRange(history, segmentPrefix(expired.first()), segmentPrefix(minLiveSegment));
            expired.clear();
        }
        long validTo = put(streamTime, key, value, timestamp);
        try {
            database.db().write(batch, StoreDatabase.WRITE_OPTIONS);
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while putting a record in store " + name, e);
        }
        return validTo == NONE ? VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED : validTo;
    }

    /** Adds the put's writes to {@link #writes}; returns the record's validTo, or {@link #NONE}. */
    private long put(long streamTime, Bytes key, byte[] value, long timestamp) {
        long foundTs = NONE;
        byte[] latest = latest(key);
        if (latest != null) {
            long latestTs = timestampOf(latest);
            if (timestamp >= latestTs) {
                // The new record is the latest; the previous latest moves into the history.
                if (timestamp > latestTs && liveSegment(segmentId(timestamp), streamTime)) {
                    long segment = segmentId(timestamp);
                    putHistory(segment, key, segmentValue(segment, key), latestTs, timestamp, valueOf(latest));
                }
                if (value != null) {
                    writes.put(key.get(), withTimestamp(timestamp, value));
                } else {
                    writes.delete(key.get());
                }
                return NONE;
            }
            foundTs = latestTs;
        }
        for (long segment : segments.subSet(segmentId(timestamp), true, segmentId(Long.MAX_VALUE), true)
                .descendingSet()) {
            byte[] raw = segmentValue(segment, key);
            if (raw == null) {
                continue;
            }
            if (HistorySegment.nextTimestamp(raw) <= timestamp) {
                break;
            }
            long minTs = HistorySegment.minTimestamp(raw);
            if (minTs <= timestamp) {
                return putIntoSegment(streamTime, segment, raw, key, value, timestamp);
            }
            if (minTs < streamTime - historyRetention) {
                return NONE;
            }
            foundTs = minTs;
        }
        return finishPut(streamTime, key, value, timestamp, foundTs);
    }

    /** The record goes inside a segment value whose records span its timestamp. */
    private long putIntoSegment(long streamTime, long segment, byte[] raw, Bytes key, byte[] value, long timestamp) {
        long ownSegment = segmentId(timestamp);
        HistorySegment records = HistorySegment.parse(raw);
        HistorySegment.Found found = records.find(timestamp);
        if (found.validFrom() == timestamp) {
            records.update(timestamp, value, found.index());
        } else if (ownSegment != segment) {
            // The record it truncates now ends at timestamp, so it belongs to an older segment.
            if (liveSegment(ownSegment, streamTime)) {
                putHistory(ownSegment, key, segmentValue(ownSegment, key), found.validFrom(), timestamp,
                        found.value());
            }
            records.update(timestamp, value, found.index());
        } else {
            records.insert(timestamp, value, found.index());
        }
        writes.put(history, segmentKey(segment, key), records.serialize());
        return found.validTo();
    }

    /** The record is older than every record found in the segments, or the key has none there. */
    private long finishPut(long streamTime, Bytes key, byte[] value, long timestamp, long foundTs) {
        if (foundTs == NONE) {
            if (value != null) {
                writes.put(key.get(), withTimestamp(timestamp, value));
                return NONE;
            }
            long segment = segmentId(timestamp);
            if (!liveSegment(segment, streamTime)) {
                return NONE;
            }
            byte[] raw = segmentValue(segment, key);
            if (raw == null) {
                putHistory(segment, key, null, timestamp, timestamp, null);
            } else if (HistorySegment.nextTimestamp(raw) != timestamp) {
                putHistory(segment, key, raw, HistorySegment.nextTimestamp(raw), timestamp, null);
            }
            return foundTs;
        }
        long segment = segmentId(foundTs);
        if (!liveSegment(segment, streamTime)) {
            return NONE;
        }
        byte[] raw = segmentValue(segment, key);
        if (raw == null || HistorySegment.nextTimestamp(raw) <= timestamp) {
            putHistory(segment, key, raw, timestamp, foundTs, value);
        } else {
            HistorySegment records = HistorySegment.parse(raw);
            records.insertAsEarliest(timestamp, value);
            writes.put(history, segmentKey(segment, key), records.serialize());
        }
        return foundTs;
    }

    /**
     * Adds a record valid from {@code validFrom} until {@code validTo} as the
     * newest of a segment's for the key, whose stored value is {@code raw}
     * (null: none).
     */
    private void putHistory(long segment, Bytes key, byte[] raw, long validFrom, long validTo, byte[] value) {
        HistorySegment records;
        if (raw == null) {
            records = HistorySegment.of(value, validFrom, validTo);
        } else {
            records = HistorySegment.parse(raw);
            records.insertAsLatest(validFrom, validTo, value);
        }
        writes.put(history, segmentKey(segment, key), records.serialize());
    }

    /**
     * Whether a segment is live at this stream time; a live segment joins
     * the store's segments (as the built-in store creates it).
     *
     * @throws IllegalArgumentException for a segment before time 0, as the built-in store (whose
     *     message speaks of reserved segments)
     */
    private boolean liveSegment(long segment, long streamTime) {
        if (segment < segmentId(streamTime - historyRetention)) {
            return false;
        }
        if (segment < 0) {
            throw new IllegalArgumentException("Store " + name + " keeps no history segment before time 0 (segment "
                    + segment + " of " + segmentInterval + " ms)");
        }
        segments.add(segment);
        return true;
    }

    private long segmentId(long timestamp) {
        return timestamp / segmentInterval;
    }

    private byte[] latest(Bytes key) {
        try {
            return database.db().get(key.get());
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while getting value for key from store " + name, e);
        }
    }

    private byte[] segmentValue(long segment, Bytes key) {
        try {
            return history.get(segmentKey(segment, key));
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while getting value for key from store " + name, e);
        }
    }

    private static byte[] segmentPrefix(long segment) {
        return ByteBuffer.allocate(8).putLong(segment ^ Long.MIN_VALUE).array();
    }

    private static byte[] segmentKey(long segment, Bytes key) {
        byte[] k = key.get();
        return ByteBuffer.allocate(8 + k.length).putLong(segment ^ Long.MIN_VALUE).put(k).array();
    }

    private static long segmentIdOf(byte[] segmentKey) {
        return ByteBuffer.wrap(segmentKey).getLong() ^ Long.MIN_VALUE;
    }

    static long timestampOf(byte[] valueAndTimestamp) {
        return ByteBuffer.wrap(valueAndTimestamp).getLong();
    }

    private static byte[] valueOf(byte[] valueAndTimestamp) {
        byte[] value = new byte[valueAndTimestamp.length - 8];
        System.arraycopy(valueAndTimestamp, 8, value, 0, value.length);
        return value;
    }

    private static byte[] withTimestamp(long timestamp, byte[] value) {
        return ByteBuffer.allocate(8 + value.length).putLong(timestamp).put(value).array();
    }

    /**
     * Persists the memtables of both families (the store writes without the
     * WAL); does nothing once the store is closed, as the built-in store.
     */
    @Override
    public void flush() {
        synchronized (position) {
            if (!open) {
                return;
            }
            try {
                database.db().flush();
                history.flush();
            } catch (RocksDbException e) {
                throw new ProcessorStateException("Error while executing flush from store " + name, e);
            }
            metrics.record();
        }
    }

    /** Closes the metrics and the database; idempotent. */
    @Override
    public void close() {
        synchronized (position) {
            if (!open) {
                return;
            }
            open = false;
            metrics.close();
            database.close();
            writes.close();
            segments.clear();
        }
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

    private void checkOpen() {
        if (!open) {
            throw new InvalidStateStoreException("Store " + name + " is currently closed");
        }
    }

    // The plain key-value operations, refused as by the built-in store's adapter.

    @Override
    public void put(Bytes key, byte[] value) {
        throw new UnsupportedOperationException(
                "Versioned key-value stores should use put(key, value, timestamp) instead");
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support putIfAbsent(key, value)");
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support putAll(entries)");
    }

    @Override
    public byte[] delete(Bytes key) {
        throw new UnsupportedOperationException(
                "Versioned key-value stores do not support delete(key). Use delete(key, timestamp) instead.");
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support range(from, to)");
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support reverseRange(from, to)");
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        throw new UnsupportedOperationException("Versioned key-value stores do not support all()");
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        throw new UnsupportedOperationException("Versioned key-value stores do not support reverseAll()");
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        throw new UnsupportedOperationException(
                "Versioned key-value stores do not support prefixScan(prefix, prefixKeySerializer)");
    }

    @Override
    public long approximateNumEntries() {
        throw new UnsupportedOperationException(
                "Versioned key-value stores do not support approximateNumEntries()");
    }
}
