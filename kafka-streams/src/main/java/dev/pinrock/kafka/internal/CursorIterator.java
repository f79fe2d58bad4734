package dev.pinrock.kafka.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.util.ArrayDeque;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueIterator;

import dev.pinrock.Cursor;
import dev.pinrock.RocksDbException;

/**
 * A Kafka Streams iterator over a pinrock cursor (whose read options carry
 * the range's bounds). It copies entries out in batches, one native call per
 * batch; batches start small, for the common short scans, and double up to
 * {@value #MAX_BATCH} entries.
 *
 * <p>Not thread-safe, like every Kafka Streams iterator. Closing it closes
 * the cursor and tells its owner ({@code onClose}), which closes whatever
 * iterators are still open when the store closes.
 */
public final class CursorIterator implements KeyValueIterator<Bytes, byte[]> {
    static final int FIRST_BATCH = 8;
    static final int MAX_BATCH = 1024;

    private final String storeName;
    private final Cursor cursor;
    private final boolean reverse;
    private final Consumer<CursorIterator> onClose;
    private final ArrayDeque<KeyValue<Bytes, byte[]>> buffered = new ArrayDeque<>();
    private int nextBatch = FIRST_BATCH;
    private boolean exhausted;
    private volatile boolean open = true;

    /**
     * @param storeName names the store in exceptions
     * @param cursor the cursor, bounded to the range; the iterator owns it
     * @param reverse whether to iterate from the last key down
     * @param onClose told once when the iterator closes
     */
    public CursorIterator(String storeName, Cursor cursor, boolean reverse, Consumer<CursorIterator> onClose) {
        this.storeName = storeName;
        this.cursor = cursor;
        this.reverse = reverse;
        this.onClose = onClose;
    }

    @Override
    public boolean hasNext() {
        if (!open) {
            throw new InvalidStateStoreException("pinrock iterator for store " + storeName + " has closed");
        }
        if (buffered.isEmpty() && !exhausted) {
            fill();
        }
        return !buffered.isEmpty();
    }

    private void fill() {
        try {
            long read = reverse ? cursor.scanReverse(nextBatch, this::buffer) : cursor.scan(nextBatch, this::buffer);
            exhausted = read < nextBatch;
            nextBatch = Math.min(nextBatch * 2, MAX_BATCH);
        } catch (RocksDbException e) {
            throw new ProcessorStateException("Error while iterating store " + storeName, e);
        } catch (IllegalStateException e) {
            throw new InvalidStateStoreException("Store " + storeName + " closed while iterating");
        }
    }

    private void buffer(java.lang.foreign.MemorySegment key, java.lang.foreign.MemorySegment value) {
        buffered.add(KeyValue.pair(Bytes.wrap(key.toArray(JAVA_BYTE)), value.toArray(JAVA_BYTE)));
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return buffered.poll();
    }

    @Override
    public Bytes peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return buffered.peek().key;
    }

    /** Closes the cursor; idempotent. */
    @Override
    public void close() {
        if (open) {
            open = false;
            buffered.clear();
            cursor.close();
            onClose.accept(this);
        }
    }
}
