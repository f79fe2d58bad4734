package dev.pinrock.kafka.internal;

import java.util.NoSuchElementException;
import java.util.function.Function;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.state.internals.WindowKeySchema;

/**
 * A persistent Kafka Streams window bytes store on pinrock: Kafka Streams'
 * window key layout ([key][window start][sequence number]) in a
 * {@link SegmentedStore}, with the built-in {@code RocksDBWindowStore}'s
 * behaviour: with duplicates retained, every put gets the next sequence
 * number and a null value is ignored; otherwise a null value deletes.
 *
 * <p>Time-ordered (any {@link WindowOrder} but {@link WindowOrder#KEY}), it
 * also keeps its windows by start ({@link TimeIndex#WINDOW_START}) and
 * answers as the built-in {@code RocksDBTimeOrderedWindowStore}: queries
 * across keys ({@code fetchAll}, {@code all}, and key ranges in
 * {@link WindowOrder#TIME}) by window start, then key, then sequence number;
 * and windows from stream time minus the retention on. Kafka Streams sees
 * such a store through {@link TimeOrderedWindowStore}.
 *
 * <p>Writes come from the stream thread; reads also from interactive-query threads.
 */
public class PinrockWindowStore extends SegmentedStateStore implements WindowStore<Bytes, byte[]> {
    private final long windowSize;
    private final boolean retainDuplicates;
    private final WindowOrder order;
    private int seqnum;

    /**
     * @param name the store's name
     * @param metricsScope its supplier's metrics scope
     * @param retentionPeriod how long windows are kept, in ms
     * @param segmentInterval the segments' length, in ms
     * @param windowSize the windows' size, in ms
     * @param retainDuplicates whether every put is kept, with a sequence number
     * @param order the order of the answers to queries across keys
     */
    public PinrockWindowStore(String name, String metricsScope, long retentionPeriod, long segmentInterval,
            long windowSize, boolean retainDuplicates, WindowOrder order) {
        super(name, metricsScope, SegmentKeySchema.WINDOW, order.timeOrdered() ? TimeIndex.WINDOW_START : null,
                retentionPeriod, segmentInterval);
        this.windowSize = windowSize;
        this.retainDuplicates = retainDuplicates;
        this.order = order;
    }

    /**
     * The timestamped variant of the key-ordered store: values carry their timestamp (8 bytes)
     * first, so the DSL needs no adapter.
     */
    public static final class Timestamped extends PinrockWindowStore implements TimestampedBytesStore {
        /** Same parameters as {@link PinrockWindowStore}, in {@link WindowOrder#KEY}. */
        public Timestamped(String name, String metricsScope, long retentionPeriod, long segmentInterval,
                long windowSize, boolean retainDuplicates) {
            super(name, metricsScope, retentionPeriod, segmentInterval, windowSize, retainDuplicates,
                    WindowOrder.KEY);
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException for a window start before 0 or at {@code Long.MAX_VALUE}: no
     *     Kafka Streams window starts there (the built-in store takes such a put, then answers no
     *     query with the first, and every range query that reaches the second with this exception)
     */
    @Override
    public synchronized void put(Bytes key, byte[] value, long windowStartTimestamp) {
        if (windowStartTimestamp < 0 || windowStartTimestamp == Long.MAX_VALUE) {
            throw new IllegalArgumentException("Store " + name() + " cannot keep a window starting at "
                    + windowStartTimestamp + ": windows start at 0 or later, and before Long.MAX_VALUE");
        }
        if (value == null && retainDuplicates) {
            return; // deleting one of several duplicates is not possible; the built-in store ignores it too
        }
        if (retainDuplicates) {
            seqnum = (seqnum + 1) & 0x7FFFFFFF;
        }
        segmented.put(WindowKeySchema.toStoreKeyBinary(key, windowStartTimestamp, seqnum), value);
    }

    @Override
    public byte[] fetch(Bytes key, long time) {
        return segmented.get(WindowKeySchema.toStoreKeyBinary(key, time, seqnum));
    }

    @Override
    public WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo) {
        return new TimesIterator(segmented.fetch(key, key, timeFrom, timeTo, true, true));
    }

    @Override
    public WindowStoreIterator<byte[]> backwardFetch(Bytes key, long timeFrom, long timeTo) {
        return new TimesIterator(segmented.fetch(key, key, timeFrom, timeTo, false, true));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return keyRange(keyFrom, keyTo, timeFrom, timeTo, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo, long timeFrom,
            long timeTo) {
        return keyRange(keyFrom, keyTo, timeFrom, timeTo, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetchAll(long timeFrom, long timeTo) {
        return allKeys(timeFrom, timeTo, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetchAll(long timeFrom, long timeTo) {
        return allKeys(timeFrom, timeTo, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> all() {
        return allKeys(0, Long.MAX_VALUE, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardAll() {
        return allKeys(0, Long.MAX_VALUE, false);
    }

    /** The windows of keys keyFrom..keyTo (null: open) starting in from..to, in this store's order for key ranges. */
    private KeyValueIterator<Windowed<Bytes>, byte[]> keyRange(Bytes keyFrom, Bytes keyTo, long from, long to,
            boolean forward) {
        return windowed(order == WindowOrder.TIME
                ? segmented.fetchByTime(keyFrom, keyTo, from, to, forward)
                : segmented.fetch(keyFrom, keyTo, from, to, forward, false));
    }

    /** The windows of every key starting in from..to, by start in a time-ordered store. */
    private KeyValueIterator<Windowed<Bytes>, byte[]> allKeys(long from, long to, boolean forward) {
        return windowed(order.timeOrdered()
                ? segmented.fetchByTime(null, null, from, to, forward)
                : segmented.fetch(null, null, from, to, forward, false));
    }

    private KeyValueIterator<Windowed<Bytes>, byte[]> windowed(KeyValueIterator<Bytes, byte[]> binary) {
        return new MappedKeyIterator<>(binary, key -> WindowKeySchema.fromStoreBytesKey(key.get(), windowSize));
    }

    /** One key's entries as (window start, value). */
    private static final class TimesIterator extends MappedKeyIterator<Long> implements WindowStoreIterator<byte[]> {
        TimesIterator(KeyValueIterator<Bytes, byte[]> binary) {
            super(binary, key -> SegmentKeySchema.WINDOW.segmentTimestamp(key.get()));
        }
    }

    /** A binary-key iterator seen through a key conversion. */
    static class MappedKeyIterator<K> implements KeyValueIterator<K, byte[]> {
        private final KeyValueIterator<Bytes, byte[]> binary;
        private final Function<Bytes, K> convert;

        MappedKeyIterator(KeyValueIterator<Bytes, byte[]> binary, Function<Bytes, K> convert) {
            this.binary = binary;
            this.convert = convert;
        }

        @Override
        public boolean hasNext() {
            return binary.hasNext();
        }

        @Override
        public KeyValue<K, byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            KeyValue<Bytes, byte[]> entry = binary.next();
            return KeyValue.pair(convert.apply(entry.key), entry.value);
        }

        @Override
        public K peekNextKey() {
            return convert.apply(binary.peekNextKey());
        }

        @Override
        public void close() {
            binary.close();
        }
    }
}
