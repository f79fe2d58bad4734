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
     * the order of Kafka Streams' time-ordered session store. Reads by end
     * answer every session of a live segment, as that store does.
     */
    SESSION_END(false) {
        @Override
        byte[] indexKey(byte[] storeKey) {
            return rotated(storeKey, storeKey.length - SESSION_TIMES);
        }

        @Override
        byte[] storeKey(byte[] indexKey) {
            return rotated(indexKey, SESSION_TIMES);
        }
    },

    /**
     * Windows by start, then key, then sequence number
     * ([8-byte start][key][4-byte sequence number]), the order of Kafka
     * Streams' time-ordered window store (its time-first key schema without
     * the schema's prefix byte). As that store, the window store that keeps
     * it answers windows from stream time minus the retention on, one
     * millisecond more than the key-first window store.
     */
    WINDOW_START(true) {
        @Override
        byte[] indexKey(byte[] storeKey) {
            int keyLength = storeKey.length - WINDOW_SUFFIX;
            byte[] indexKey = new byte[storeKey.length];
            System.arraycopy(storeKey, keyLength, indexKey, 0, SegmentKeySchema.TIMESTAMP_SIZE);
            System.arraycopy(storeKey, 0, indexKey, SegmentKeySchema.TIMESTAMP_SIZE, keyLength);
            System.arraycopy(storeKey, storeKey.length - SegmentKeySchema.SEQNUM_SIZE, indexKey,
                    storeKey.length - SegmentKeySchema.SEQNUM_SIZE, SegmentKeySchema.SEQNUM_SIZE);
            return indexKey;
        }

        @Override
        byte[] storeKey(byte[] indexKey) {
            int keyLength = indexKey.length - WINDOW_SUFFIX;
            byte[] storeKey = new byte[indexKey.length];
            System.arraycopy(indexKey, SegmentKeySchema.TIMESTAMP_SIZE, storeKey, 0, keyLength);
            System.arraycopy(indexKey, 0, storeKey, keyLength, SegmentKeySchema.TIMESTAMP_SIZE);
            System.arraycopy(indexKey, indexKey.length - SegmentKeySchema.SEQNUM_SIZE, storeKey,
                    indexKey.length - SegmentKeySchema.SEQNUM_SIZE, SegmentKeySchema.SEQNUM_SIZE);
            return storeKey;
        }
    };

    /** The column family of each segment that holds the index. */
    static final String FAMILY = "by-time";

    /**
     * The key that marks an index holding every entry of its segment: empty,
     * so before every index key and outside every time range read.
     */
    static final byte[] COMPLETE = new byte[0];

    private static final int SESSION_TIMES = 2 * SegmentKeySchema.TIMESTAMP_SIZE;
    private static final int WINDOW_SUFFIX = SegmentKeySchema.TIMESTAMP_SIZE + SegmentKeySchema.SEQNUM_SIZE;

    private final boolean retentionEdgeLive;

    TimeIndex(boolean retentionEdgeLive) {
        this.retentionEdgeLive = retentionEdgeLive;
    }

    /** @return the index key of a store key */
    abstract byte[] indexKey(byte[] storeKey);

    /** @return the store key an index key stands for */
    abstract byte[] storeKey(byte[] indexKey);

    /**
     * @return whether the store answers records of stream time minus the retention (the built-in
     *     time-first window schema's edge), and clips reads by time to it; otherwise it answers from
     *     one millisecond later, and reads by time answer what live segments hold
     */
    boolean retentionEdgeLive() {
        return retentionEdgeLive;
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
