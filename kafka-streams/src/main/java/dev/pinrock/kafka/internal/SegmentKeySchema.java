package dev.pinrock.kafka.internal;

import java.nio.ByteBuffer;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.internals.SessionKeySchema;
import org.apache.kafka.streams.state.internals.WindowKeySchema;

/**
 * How a segmented store lays out its binary keys: Kafka Streams' own window
 * and session key schemas, so that pinrock's stores write and restore the
 * same changelog records as the built-in ones. The range bounds come from
 * Kafka Streams' schemas; {@link #matches} is their "has next" condition,
 * which drops the keys a binary range lets through but the query excludes.
 */
enum SegmentKeySchema {
    /** [key][8-byte window start][4-byte sequence number]; segments by window start. */
    WINDOW(new WindowKeySchema()) {
        @Override
        long segmentTimestamp(byte[] storeKey) {
            return ByteBuffer.wrap(storeKey).getLong(storeKey.length - TIMESTAMP_SIZE - SEQNUM_SIZE);
        }

        @Override
        boolean matches(byte[] storeKey, Bytes keyFrom, Bytes keyTo, long from, long to) {
            int keyLength = storeKey.length - TIMESTAMP_SIZE - SEQNUM_SIZE;
            long time = segmentTimestamp(storeKey);
            return inRange(storeKey, keyLength, keyFrom, keyTo) && time >= from && time <= to;
        }

        @Override
        long lastSegmentTime(long to) {
            return to;
        }
    },

    /** [key][8-byte session end][8-byte session start]; segments by session end. */
    SESSION(new SessionKeySchema()) {
        @Override
        long segmentTimestamp(byte[] storeKey) {
            return ByteBuffer.wrap(storeKey).getLong(storeKey.length - 2 * TIMESTAMP_SIZE);
        }

        @Override
        boolean matches(byte[] storeKey, Bytes keyFrom, Bytes keyTo, long from, long to) {
            int keyLength = storeKey.length - 2 * TIMESTAMP_SIZE;
            long end = segmentTimestamp(storeKey);
            long start = ByteBuffer.wrap(storeKey).getLong(storeKey.length - TIMESTAMP_SIZE);
            return inRange(storeKey, keyLength, keyFrom, keyTo) && end >= from && start <= to;
        }

        @Override
        long lastSegmentTime(long to) {
            return Long.MAX_VALUE; // a session that started by `to` may end in any later segment
        }
    };

    static final int TIMESTAMP_SIZE = 8;
    static final int SEQNUM_SIZE = 4;

    private final org.apache.kafka.streams.state.internals.SegmentedBytesStore.KeySchema kafkaSchema;

    SegmentKeySchema(org.apache.kafka.streams.state.internals.SegmentedBytesStore.KeySchema kafkaSchema) {
        this.kafkaSchema = kafkaSchema;
    }

    /** @return the time that decides a binary key's segment */
    abstract long segmentTimestamp(byte[] storeKey);

    /**
     * @return whether a binary key belongs to a query for keys keyFrom..keyTo (null: open) and the
     *     time range from..to (window start for windows; session end >= from, start <= to for sessions)
     */
    abstract boolean matches(byte[] storeKey, Bytes keyFrom, Bytes keyTo, long from, long to);

    /** @return the time of the last segment a query up to {@code to} must search */
    abstract long lastSegmentTime(long to);

    /** @return the smallest binary key of one key's entries from {@code from} on */
    Bytes lowerRangeFixedSize(Bytes key, long from) {
        return kafkaSchema.lowerRangeFixedSize(key, from);
    }

    /** @return the largest binary key of one key's entries up to {@code to} */
    Bytes upperRangeFixedSize(Bytes key, long to) {
        return kafkaSchema.upperRangeFixedSize(key, to);
    }

    /** @return a binary key no larger than any entry of keys from {@code key} on, or null for null */
    Bytes lowerRange(Bytes key, long from) {
        return kafkaSchema.lowerRange(key, from);
    }

    /** @return a binary key no smaller than any entry of keys up to {@code key}, or null for null */
    Bytes upperRange(Bytes key, long to) {
        return kafkaSchema.upperRange(key, to);
    }

    private static boolean inRange(byte[] storeKey, int keyLength, Bytes keyFrom, Bytes keyTo) {
        return (keyFrom == null || compare(storeKey, keyLength, keyFrom.get()) >= 0)
                && (keyTo == null || compare(storeKey, keyLength, keyTo.get()) <= 0);
    }

    /** Compares the first keyLength bytes of storeKey with key, unsigned and lexicographically. */
    private static int compare(byte[] storeKey, int keyLength, byte[] key) {
        return java.util.Arrays.compareUnsigned(storeKey, 0, keyLength, key, 0, key.length);
    }
}
