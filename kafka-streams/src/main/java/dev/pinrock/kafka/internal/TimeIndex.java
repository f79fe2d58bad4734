package dev.pinrock.kafka.internal;

import java.nio.ByteBuffer;

/**
 * A second copy of a segmented store's entries in time order, for the
 * stores that emit-on-window-close aggregations read by time (the built-in
 * time-ordered stores): in each segment's column family {@link #FAMILY},
 * every entry under an index key that starts with its time, with its value.
 * {@link SegmentedStore} writes it in the same write batch as the entry and
 * drops it with its segment.
 */
enum TimeIndex {
    /**
     * Sessions by end, then start, then key ([8-byte end][8-byte start][key]),
     * the order of Kafka Streams' time-ordered session store.
     */
    SESSION_END;

    /** The column family of each segment that holds the index. */
    static final String FAMILY = "by-time";

    /**
     * The key that marks an index holding every entry of its segment: empty,
     * so before every index key and outside every time range read.
     */
    static final byte[] COMPLETE = new byte[0];

    private static final int TIMES = 2 * SegmentKeySchema.TIMESTAMP_SIZE;

    /** @return the index key of a store key [key][end][start] */
    byte[] indexKey(byte[] storeKey) {
        return rotated(storeKey, storeKey.length - TIMES);
    }

    /** @return the store key an index key stands for */
    byte[] storeKey(byte[] indexKey) {
        return rotated(indexKey, TIMES);
    }

    /** @return the bytes from {@code split} on, then those before it */
    private static byte[] rotated(byte[] bytes, int split) {
        byte[] rotated = new byte[bytes.length];
        System.arraycopy(bytes, split, rotated, 0, bytes.length - split);
        System.arraycopy(bytes, 0, rotated, bytes.length - split, split);
        return rotated;
    }

    /** @return the smallest index key of the entries at {@code time} or later */
    byte[] lowerBound(long time) {
        return ByteBuffer.allocate(SegmentKeySchema.TIMESTAMP_SIZE).putLong(time).array();
    }
}
