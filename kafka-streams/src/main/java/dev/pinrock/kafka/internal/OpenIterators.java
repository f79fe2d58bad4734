package dev.pinrock.kafka.internal;

import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.pinrock.Cursor;

/**
 * The iterators a store has handed out and that are still open, so that
 * closing the store closes them (Kafka Streams' built-in store does the same
 * and so does pinrock: a database does not close under an open cursor).
 * Thread-safe: interactive queries open iterators from other threads.
 */
public final class OpenIterators {
    private final String storeName;
    private final Set<CursorIterator> open = ConcurrentHashMap.newKeySet();

    /** @param storeName names the store in the iterators' exceptions */
    public OpenIterators(String storeName) {
        this.storeName = storeName;
    }

    /**
     * Wraps a cursor in an iterator that this registry tracks until it closes.
     *
     * @param cursor the cursor, bounded to the range; the iterator owns it
     * @param reverse whether to iterate from the last key down
     * @return the iterator
     */
    public CursorIterator open(Cursor cursor, boolean reverse) {
        CursorIterator iterator = new CursorIterator(storeName, cursor, reverse, open::remove);
        open.add(iterator);
        return iterator;
    }

    /** @return how many iterators are open */
    public int count() {
        return open.size();
    }

    /** Closes every open iterator. */
    public void closeAll() {
        for (CursorIterator iterator : new ArrayList<>(open)) {
            iterator.close();
        }
    }
}
