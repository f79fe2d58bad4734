package dev.pinrock.kafka.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The older versions of one key that one segment of a versioned store
 * holds: records newest first, each valid from its timestamp until the
 * next newer record's timestamp (the newest until {@link #next}); a null
 * value is a tombstone. A degenerate segment value (next equal to the
 * oldest timestamp) holds a single tombstone that covers no time. These
 * are the operations, and the meaning, of Kafka Streams' versioned store
 * segment values, on a list instead of in place.
 *
 * <p>Stored as {@code [next 8][min 8]} then, per record newest first,
 * {@code [validFrom 8][value size 4, -1 for a tombstone][value]}.
 */
final class HistorySegment {
    private long next;
    /** validFrom of each record, newest first. */
    private final List<Long> froms = new ArrayList<>();
    /** The value of each record (null: tombstone), in the order of {@link #froms}. */
    private final List<byte[]> values = new ArrayList<>();

    private HistorySegment() {
    }

    /** A segment value with one record, valid from {@code validFrom} until {@code validTo}. */
    static HistorySegment of(byte[] value, long validFrom, long validTo) {
        HistorySegment segment = new HistorySegment();
        segment.reset(value, validFrom, validTo);
        return segment;
    }

    /** The validTo of a stored segment value's newest record. */
    static long nextTimestamp(byte[] raw) {
        return ByteBuffer.wrap(raw).getLong(0);
    }

    /** The validFrom of a stored segment value's oldest record. */
    static long minTimestamp(byte[] raw) {
        return ByteBuffer.wrap(raw).getLong(8);
    }

    static HistorySegment parse(byte[] raw) {
        ByteBuffer in = ByteBuffer.wrap(raw);
        HistorySegment segment = new HistorySegment();
        segment.next = in.getLong();
        in.getLong();
        while (in.hasRemaining()) {
            segment.froms.add(in.getLong());
            int size = in.getInt();
            byte[] value = null;
            if (size >= 0) {
                value = new byte[size];
                in.get(value);
            }
            segment.values.add(value);
        }
        return segment;
    }

    byte[] serialize() {
        int size = 16;
        for (byte[] value : values) {
            size += 12 + (value == null ? 0 : value.length);
        }
        ByteBuffer out = ByteBuffer.allocate(size).putLong(next).putLong(min());
        for (int i = 0; i < froms.size(); i++) {
            byte[] value = values.get(i);
            out.putLong(froms.get(i)).putInt(value == null ? -1 : value.length);
            if (value != null) {
                out.put(value);
            }
        }
        return out.array();
    }

    private long min() {
        return froms.getLast();
    }

    private boolean degenerate() {
        return next == min();
    }

    private void reset(byte[] value, long validFrom, long validTo) {
        froms.clear();
        values.clear();
        froms.add(validFrom);
        values.add(value);
        next = validTo;
    }

    /** A record found: its position (0 = newest), validity and value. */
    record Found(int index, long validFrom, long validTo, byte[] value) {
    }

    /**
     * The record valid at {@code timestamp}.
     *
     * @throws IllegalArgumentException when the timestamp is outside [min, next)
     */
    Found find(long timestamp) {
        if (timestamp < min() || timestamp >= next) {
            throw new IllegalArgumentException("Timestamp " + timestamp + " is outside this segment value");
        }
        long validTo = next;
        for (int i = 0; i < froms.size(); i++) {
            long from = froms.get(i);
            if (from <= timestamp) {
                return new Found(i, from, validTo, values.get(i));
            }
            validTo = from;
        }
        throw new IllegalStateException("Search in segment expected to find result but did not.");
    }

    /** The non-tombstone records valid at some time in [fromTime, toTime], newest first. */
    List<Found> findAll(long fromTime, long toTime) {
        List<Found> found = new ArrayList<>();
        long validTo = next;
        for (int i = 0; i < froms.size(); i++) {
            long from = froms.get(i);
            if (values.get(i) != null && from <= toTime && validTo > fromTime) {
                found.add(new Found(i, from, validTo, values.get(i)));
            }
            validTo = from;
        }
        return found;
    }

    /**
     * Adds a record newer than all others, valid from {@code validFrom} until
     * {@code validTo}; a gap since the newest record's validTo is filled with
     * a tombstone. Records from {@code validFrom} on (left by a write that
     * failed midway and is now replayed) are dropped first.
     */
    void insertAsLatest(long validFrom, long validTo, byte[] value) {
        if (validFrom < next) {
            truncateTo(validFrom);
        }
        if (next == validFrom) {
            if (degenerate()) {
                reset(value, validFrom, validTo);
            } else {
                froms.addFirst(validFrom);
                values.addFirst(value);
            }
        } else {
            if (degenerate()) {
                reset(null, next, validFrom);
            } else {
                froms.addFirst(next);
                values.addFirst(null);
            }
            froms.addFirst(validFrom);
            values.addFirst(value);
        }
        next = validTo;
    }

    /** Adds a record older than all others, valid until the oldest one's validFrom. */
    void insertAsEarliest(long timestamp, byte[] value) {
        if (degenerate()) {
            reset(value, timestamp, next);
        } else {
            froms.addLast(timestamp);
            values.addLast(value);
        }
    }

    /** Inserts a record at {@code index} (from {@link #find}). */
    void insert(long timestamp, byte[] value, int index) {
        froms.add(index, timestamp);
        values.add(index, value);
    }

    /** Replaces the record at {@code index} (from {@link #find}). */
    void update(long timestamp, byte[] value, int index) {
        froms.set(index, timestamp);
        values.set(index, value);
    }

    /** Drops the records valid from {@code timestamp} on; the segment then ends there. */
    private void truncateTo(long timestamp) {
        if (timestamp <= min()) {
            reset(null, timestamp, timestamp);
            return;
        }
        while (froms.getFirst() >= timestamp) {
            froms.removeFirst();
            values.removeFirst();
        }
        next = timestamp;
    }
}
