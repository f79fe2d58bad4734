package dev.pinrock;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import dev.pinrock.internal.BufferSegments;
import dev.pinrock.internal.NativeCursor;
import dev.pinrock.internal.ResourceGuard;
import dev.pinrock.internal.Segments;

/**
 * Walks a database's keys in bytewise order, in both directions, over the
 * state the database had when the cursor was opened (or the snapshot of its
 * {@link ReadOptions}), within the options' key range, until
 * {@link #refresh()} moves it to the latest state (or
 * {@link #refresh(Snapshot)} to a snapshot's). From
 * {@link RocksDb#cursor(ReadOptions)}.
 *
 * <pre>{@code
 * try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(prefix))) {
 *     for (boolean on = cursor.first(); on; on = cursor.next()) {
 *         MemorySegment key = cursor.key(); // valid until the cursor moves
 *     }
 * }
 * }</pre>
 *
 * <p><b>Positioning.</b> A new cursor is on no entry. {@link #first()},
 * {@link #last()}, {@link #seek(byte[])} and {@link #seekForPrev(byte[])} place
 * it; {@link #next()} and {@link #prev()} step. Each returns whether the
 * cursor is on an entry afterwards ({@link #isValid()}).
 *
 * <p><b>Five ways to read entries.</b> {@link #key()} and {@link #value()}
 * are zero-copy, read-only views of RocksDB's memory, valid until the cursor
 * next moves or closes; any access after that throws
 * {@link IllegalStateException}. They are confined to the thread that asked
 * for them, and cost an arena per entry. {@link #read(BiConsumer)} shows the
 * same memory to a callback, valid during the call only, and allocates
 * nothing once the JIT inlines the callback.
 * {@link #scanBatches(long, Consumer)} copies many entries into a native
 * buffer per native call and shows each batch to a visitor that steps
 * through it, reading each entry at its offsets in the buffer (or through
 * views), valid until the visitor returns: the fastest way through many
 * entries, and by offsets it allocates nothing whatever the JIT inlines.
 * {@link #scan(long, BiConsumer)} does the same with a visitor per entry,
 * whose views allocate unless the JIT inlines that visitor.
 * {@link #stream()} and {@link #iterator()} copy entries into
 * {@link KeyValue} arrays, a batch per native call.
 *
 * <p><b>Threads and lifetime.</b> A cursor is not thread-safe: use it from one
 * thread at a time. A call made while another thread's call on the same
 * cursor is in flight is refused with {@link IllegalStateException} (so is a
 * call on the cursor from inside its scan's visitor or its reader).
 * {@link #close()} may come from any thread: it waits for a call in flight,
 * and is idempotent. Closing the database closes its cursors. Neither the
 * cursor nor its database can be closed from inside the cursor's own visitor
 * or reader ({@link IllegalStateException}): close them once the call returns.
 * Other cursors and snapshots may be closed from there, also while another
 * thread closes the database (they close at once).
 * A cursor whose entry views are open on another live thread cannot be moved
 * or closed from this one ({@link IllegalStateException}): move it on that
 * thread first, or read with {@link #keyBytes()}.
 */
public final class Cursor implements AutoCloseable, Iterable<KeyValue> {
    /** Entries per native call for the iterator and stream. */
    private static final long ITERATOR_BATCH_ENTRIES = 1024;

    private final RocksDb owner;
    private final NativeCursor cursor;
    /**
     * The pending writes (a transaction's, a batch with index's) the cursor
     * reads through, or null: each call holds their guard too, since the
     * native cursor reads those writes in place.
     */
    private final PendingWrites writes;
    private final ResourceGuard guard = ResourceGuard.exclusive("Cursor");
    /** How the database frees this cursor natively, before it closes or when the cursor does. */
    final RocksDb.Dependent dependent = new RocksDb.Dependent() {
        @Override
        public void closeNative() {
            Cursor.this.closeNative();
        }

        @Override
        public boolean callsBackOn(Thread thread) {
            return callbackThread == thread;
        }

        @Override
        public void poison(String reason, Throwable cause) {
            guard.poison(reason, cause);
        }
    };
    /** Whether the cursor has been placed at least once (scans start at an end otherwise). */
    private boolean placed;
    /** The arena of the views of the current entry, when any were handed out. */
    private Arena views;
    private Thread viewsThread;
    /** The thread running a scan's visitor or a reader, which must not close this cursor. */
    private Thread callbackThread;

    /**
     * @param owner the database
     * @param cursor the native cursor
     * @param writes the pending writes it reads through, or null
     */
    Cursor(RocksDb owner, NativeCursor cursor, PendingWrites writes) {
        this.owner = owner;
        this.cursor = cursor;
        this.writes = writes;
    }

    /**
     * Moves to the first key.
     *
     * @return whether the cursor is on an entry (false when no key is in range)
     * @throws RocksDbException when a read fails
     * @throws IllegalStateException when the cursor is closed
     */
    public boolean first() {
        return move(cursor::first);
    }

    /**
     * Moves to the last key.
     *
     * @return whether the cursor is on an entry
     * @throws RocksDbException when a read fails
     * @throws IllegalStateException when the cursor is closed
     */
    public boolean last() {
        return move(cursor::last);
    }

    /**
     * Moves to the first key at or after {@code key}.
     *
     * @param key the target
     * @return whether the cursor is on an entry
     * @throws RocksDbException when a read fails
     * @throws IllegalStateException when the cursor is closed
     */
    public boolean seek(byte[] key) {
        Objects.requireNonNull(key, "key");
        return seek(MemorySegment.ofArray(key));
    }

    /**
     * Moves to the first key at or after {@code key}.
     *
     * @param key the target (native or heap)
     * @return whether the cursor is on an entry
     * @throws RocksDbException when a read fails
     * @throws IllegalStateException when the cursor or the key's arena is closed
     */
    public boolean seek(MemorySegment key) {
        Objects.requireNonNull(key, "key");
        return move(() -> cursor.seek(key));
    }

    /**
     * Moves to the last key at or before {@code key}.
     *
     * @param key the target
     * @return whether the cursor is on an entry
     * @throws RocksDbException when a read fails
     * @throws IllegalStateException when the cursor is closed
     */
    public boolean seekForPrev(byte[] key) {
        Objects.requireNonNull(key, "key");
        return seekForPrev(MemorySegment.ofArray(key));
    }

    /**
     * Moves to the last key at or before {@code key}.
     *
     * @param key the target (native or heap)
     * @return whether the cursor is on an entry
     * @throws RocksDbException when a read fails
     * @throws IllegalStateException when the cursor or the key's arena is closed
     */
    public boolean seekForPrev(MemorySegment key) {
        Objects.requireNonNull(key, "key");
        return move(() -> cursor.seekForPrev(key));
    }

    /**
     * Moves to the next key.
     *
     * @return whether the cursor is on an entry (false past the last key)
     * @throws IllegalStateException when the cursor is on no entry, or closed
     * @throws RocksDbException when a read fails
     */
    public boolean next() {
        return step(cursor::next);
    }

    /**
     * Moves to the previous key.
     *
     * @return whether the cursor is on an entry (false before the first key)
     * @throws IllegalStateException when the cursor is on no entry, or closed
     * @throws RocksDbException when a read fails
     */
    public boolean prev() {
        return step(cursor::prev);
    }

    /**
     * Moves the cursor's view to the database's state now, keeping its key
     * range and read options (RocksDB's {@code Iterator::refresh}): writes
     * made since it was opened become visible, without the cost of opening a
     * new cursor. The cursor is then on no entry: place it again with
     * {@link #first()}, {@link #seek(byte[])}, ...; views of the entry it was
     * on are invalidated.
     *
     * @throws RocksDbException when RocksDB fails the refresh (the cursor is on no entry)
     * @throws IllegalStateException when the cursor is closed or in use by another thread
     */
    public void refresh() {
        acquire();
        try {
            beforeRefresh();
            cursor.refresh(0L);
        } finally {
            release();
        }
    }

    /**
     * Moves the cursor's view to the state as of a snapshot, keeping its key
     * range and read options; see {@link #refresh()}. The snapshot may be
     * closed afterwards: the cursor keeps the view.
     *
     * @param snapshot a snapshot of the cursor's database
     * @throws IllegalArgumentException when the snapshot belongs to another database
     * @throws RocksDbException when RocksDB fails the refresh (the cursor is on no entry)
     * @throws IllegalStateException when the cursor or the snapshot is closed, or the cursor is in
     *     use by another thread
     */
    public void refresh(Snapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        if (snapshot.owner != owner) {
            throw new IllegalArgumentException("the snapshot belongs to " + snapshot.owner);
        }
        acquire();
        try {
            snapshot.guard.acquire();
            try {
                beforeRefresh();
                cursor.refresh(snapshot.handle);
            } finally {
                snapshot.guard.release();
            }
        } finally {
            release();
        }
    }

    /** A refresh invalidates the views of the entry it leaves, and the next scan starts at an end. */
    private void beforeRefresh() {
        closeViews();
        placed = false;
    }

    /**
     * Returns whether the cursor is on an entry.
     *
     * @return whether the cursor is on an entry (false when closed)
     * @throws IllegalStateException when another thread's call on the cursor is in flight
     */
    public boolean isValid() {
        if (guard.isClosed()) {
            return false;
        }
        acquire();
        try {
            return cursor.onEntry();
        } finally {
            release();
        }
    }

    /**
     * Returns the current key without copying it: a read-only view of
     * RocksDB's memory, valid until the cursor moves or closes, confined to
     * this thread.
     *
     * @return the key
     * @throws IllegalStateException when the cursor is on no entry, or closed, or views of the
     *     entry are open on another live thread (move the cursor there first, or read with
     *     {@link #keyBytes()})
     */
    public MemorySegment key() {
        return onEntry(() -> view(cursor.rawKey()));
    }

    /**
     * Returns the current value without copying it; see {@link #key()}.
     *
     * @return the value
     * @throws IllegalStateException when the cursor is on no entry, or closed, or views of the
     *     entry are open on another live thread
     */
    public MemorySegment value() {
        return onEntry(() -> view(cursor.rawValue()));
    }

    /**
     * Shows the current entry to {@code reader} without copying it or
     * allocating: read-only views of the key and value in RocksDB's memory,
     * valid during the call only, confined to this thread. Unlike
     * {@link #key()} and {@link #value()}, whose views live until the cursor
     * moves and so need an arena per entry, these views belong to this call,
     * which the JIT can remove altogether when it inlines {@code reader}:
     * stepping with {@link #next()} and reading with this method walks
     * entries without garbage. The reader must not use this cursor (its calls
     * are refused with {@link IllegalStateException}); what it throws reaches
     * the caller, and the cursor stays where it was.
     *
     * @param reader receives the key and the value
     * @throws IllegalStateException when the cursor is on no entry, or closed
     */
    public void read(BiConsumer<MemorySegment, MemorySegment> reader) {
        Objects.requireNonNull(reader, "reader");
        acquire();
        try {
            requireEntry();
            callbackThread = Thread.currentThread();
            try (Arena call = Arena.ofConfined()) {
                reader.accept(scoped(cursor.rawKey(), call), scoped(cursor.rawValue(), call));
            }
        } finally {
            callbackThread = null;
            release();
        }
    }

    /**
     * Returns a copy of the current key.
     *
     * @return the key
     * @throws RocksDbException.InvalidArgumentException when the key is longer than a byte[] holds
     *     (read it with {@link #key()})
     * @throws IllegalStateException when the cursor is on no entry, or closed
     */
    public byte[] keyBytes() {
        return onEntry(() -> Segments.toArray(cursor.rawKey(), "key()"));
    }

    /**
     * Returns a copy of the current value.
     *
     * @return the value
     * @throws RocksDbException.InvalidArgumentException when the value is longer than a byte[]
     *     holds (read it with {@link #value()})
     * @throws IllegalStateException when the cursor is on no entry, or closed
     */
    public byte[] valueBytes() {
        return onEntry(() -> Segments.toArray(cursor.rawValue(), "value()"));
    }

    /**
     * Copies the current value into a buffer, at its position, when it fits;
     * see {@link RocksDb#get(ByteBuffer, ByteBuffer)} for how {@code dst} changes.
     *
     * @param dst the destination, direct or heap, writable
     * @return the value's length (copied when at most {@code dst.remaining()})
     * @throws ReadOnlyBufferException when dst is read-only
     * @throws IllegalStateException when the cursor is on no entry, or closed
     */
    public int value(ByteBuffer dst) {
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        return onEntry(() -> {
            MemorySegment value = cursor.rawValue();
            if (value.byteSize() <= dst.remaining()) {
                BufferSegments.ofValue(dst).copyFrom(value);
                dst.limit(dst.position() + (int) value.byteSize());
            }
            return (int) Math.min(value.byteSize(), Integer.MAX_VALUE);
        });
    }

    /**
     * Reads up to {@code maxEntries} entries forward, from the current one
     * (from the first key when the cursor was never placed), copying many
     * per native call into a native buffer. {@code visitor} receives
     * read-only views of each key and value, valid during that call only.
     * Afterwards the cursor is on the entry after the last one visited. When
     * the visitor throws, the scan stops, and the cursor is past the whole
     * batch the entry came in.
     *
     * @param maxEntries the most entries to visit, at least 0
     * @param visitor receives each key and value
     * @return the number of entries visited (less than maxEntries when the keys ran out)
     * @throws RocksDbException when a read fails
     * @throws IllegalStateException when the cursor is closed
     */
    public long scan(long maxEntries, BiConsumer<MemorySegment, MemorySegment> visitor) {
        return scan(false, maxEntries, visitor);
    }

    /**
     * Reads up to {@code maxEntries} entries backward, from the current one
     * (from the last key when the cursor was never placed); otherwise as
     * {@link #scan(long, BiConsumer)}.
     *
     * @param maxEntries the most entries to visit, at least 0
     * @param visitor receives each key and value
     * @return the number of entries visited
     */
    public long scanReverse(long maxEntries, BiConsumer<MemorySegment, MemorySegment> visitor) {
        return scan(true, maxEntries, visitor);
    }

    private long scan(boolean reverse, long maxEntries, BiConsumer<MemorySegment, MemorySegment> visitor) {
        Objects.requireNonNull(visitor, "visitor");
        return scanBatches(reverse, maxEntries, batch -> {
            while (batch.next()) {
                visitor.accept(batch.key(), batch.value());
            }
        });
    }

    /**
     * Reads up to {@code maxEntries} entries forward, from the current one
     * (from the first key when the cursor was never placed), a batch per
     * native call, and shows each batch to {@code visitor}, which steps
     * through it:
     *
     * <pre>{@code
     * cursor.scanBatches(Long.MAX_VALUE, batch -> {
     *     MemorySegment entries = batch.segment();
     *     while (batch.next()) {
     *         consume(entries, batch.keyOffset(), batch.keyLength(), batch.valueOffset(), batch.valueLength());
     *     }
     * });
     * }</pre>
     *
     * <p>The loop over the entries is the visitor's own code, and the batch's
     * segment with its offsets needs no object per entry: this allocates
     * nothing whatever the JIT decides to inline, where
     * {@link #scan(long, BiConsumer)}'s views allocate when the JIT does not
     * inline its visitor. What the batch shows is read-only, confined to this
     * thread and valid until the visitor returns. The cursor moves past a
     * whole batch before the visitor sees it, whether or not the visitor
     * reads every entry; afterwards it is on the entry after the last one
     * copied. When the visitor throws, the scan stops.
     *
     * @param maxEntries the most entries to read, at least 0
     * @param visitor receives each batch
     * @return the number of entries read (less than maxEntries when the keys ran out)
     * @throws RocksDbException when a read fails
     * @throws IllegalStateException when the cursor is closed
     */
    public long scanBatches(long maxEntries, Consumer<? super Batch> visitor) {
        return scanBatches(false, maxEntries, visitor);
    }

    /**
     * Reads up to {@code maxEntries} entries backward, from the current one
     * (from the last key when the cursor was never placed); otherwise as
     * {@link #scanBatches(long, Consumer)}.
     *
     * @param maxEntries the most entries to read, at least 0
     * @param visitor receives each batch, whose entries are in descending key order
     * @return the number of entries read
     */
    public long scanBatchesReverse(long maxEntries, Consumer<? super Batch> visitor) {
        return scanBatches(true, maxEntries, visitor);
    }

    private long scanBatches(boolean reverse, long maxEntries, Consumer<? super Batch> visitor) {
        if (maxEntries < 0) {
            throw new IllegalArgumentException("maxEntries must be >= 0, got " + maxEntries);
        }
        Objects.requireNonNull(visitor, "visitor");
        acquire();
        try {
            startScan(reverse);
            callbackThread = Thread.currentThread();
            long read = 0;
            while (read < maxEntries && cursor.onEntry()) {
                long entries = cursor.fill(reverse, maxEntries - read);
                read += entries;
                try (Arena batchViews = Arena.ofConfined()) {
                    visitor.accept(new Batch(scoped(cursor.batch(), batchViews), entries));
                }
            }
            return read;
        } finally {
            callbackThread = null;
            release();
        }
    }

    /**
     * The entries one native call of {@link #scanBatches(long, Consumer)}
     * copied, in scan order. {@link #next()} steps to the next entry. The
     * entry stepped to is at {@link #keyOffset()} and {@link #valueOffset()}
     * in {@link #segment()}, or a view of its own from {@link #key()} and
     * {@link #value()}. All of them are read-only, confined to the scanning
     * thread and valid until the visitor returns (what they show of earlier
     * entries of the batch stays valid too). Not thread-safe.
     *
     * <p>Reading through {@link #segment()} and the offsets allocates nothing
     * whatever the JIT does. The views from {@link #key()} and {@link #value()}
     * are new objects, which the JIT removes only when the code that uses
     * them is compiled into the visitor's loop; handed to a method that is
     * not, each costs about 40 bytes.
     */
    public static final class Batch {
        /** The two uint32 lengths (native byte order) in front of each entry's key and value. */
        private static final long ENTRY_HEADER_BYTES = 8;

        private final MemorySegment entries;
        private final long size;
        private long nextOffset;
        /** Where the current entry's key starts, or -1 before the first and after the last. */
        private long keyOffset = -1;
        private long keyLength;
        private long valueLength;

        Batch(MemorySegment entries, long size) {
            this.entries = entries;
            this.size = size;
        }

        /**
         * Steps to the next entry of the batch.
         *
         * @return whether there was one (false once the batch is used up)
         * @throws IllegalStateException when the visitor has returned
         * @throws WrongThreadException when called from another thread than the scan's
         */
        public boolean next() {
            if (nextOffset == entries.byteSize()) {
                // Reading a header checks the batch's arena; at the end nothing is read.
                if (!entries.scope().isAlive()) {
                    throw new IllegalStateException("the batch is gone: its scan's visitor has returned");
                }
                keyOffset = -1;
                return false;
            }
            keyLength = Integer.toUnsignedLong(entries.get(ValueLayout.JAVA_INT_UNALIGNED, nextOffset));
            valueLength = Integer.toUnsignedLong(entries.get(ValueLayout.JAVA_INT_UNALIGNED, nextOffset + 4));
            keyOffset = nextOffset + ENTRY_HEADER_BYTES;
            nextOffset = keyOffset + keyLength + valueLength;
            return true;
        }

        /**
         * Returns the memory of the whole batch, which holds the current
         * entry's key at {@link #keyOffset()} and its value at
         * {@link #valueOffset()}.
         *
         * @return a read-only view of every entry of the batch, valid until the visitor returns
         */
        public MemorySegment segment() {
            return entries;
        }

        /**
         * Returns where the current entry's key starts in {@link #segment()}.
         *
         * @return the offset of the key
         * @throws IllegalStateException when {@link #next()} has not returned true, or returned false
         */
        public long keyOffset() {
            requireEntry();
            return keyOffset;
        }

        /**
         * Returns the length of the current entry's key.
         *
         * @return the key's length in bytes
         * @throws IllegalStateException when {@link #next()} has not returned true, or returned false
         */
        public long keyLength() {
            requireEntry();
            return keyLength;
        }

        /**
         * Returns where the current entry's value starts in {@link #segment()}.
         *
         * @return the offset of the value
         * @throws IllegalStateException when {@link #next()} has not returned true, or returned false
         */
        public long valueOffset() {
            requireEntry();
            return keyOffset + keyLength;
        }

        /**
         * Returns the length of the current entry's value.
         *
         * @return the value's length in bytes
         * @throws IllegalStateException when {@link #next()} has not returned true, or returned false
         */
        public long valueLength() {
            requireEntry();
            return valueLength;
        }

        /**
         * Returns the current entry's key as a view of its own.
         *
         * @return a read-only view, valid until the visitor returns
         * @throws IllegalStateException when {@link #next()} has not returned true, or returned false
         */
        public MemorySegment key() {
            return entries.asSlice(keyOffset(), keyLength);
        }

        /**
         * Returns the current entry's value as a view of its own.
         *
         * @return a read-only view, valid until the visitor returns
         * @throws IllegalStateException when {@link #next()} has not returned true, or returned false
         */
        public MemorySegment value() {
            return entries.asSlice(valueOffset(), valueLength);
        }

        /**
         * Returns the number of entries in the batch.
         *
         * @return the number of entries, at least 1
         */
        public long size() {
            return size;
        }

        private void requireEntry() {
            if (keyOffset < 0) {
                throw new IllegalStateException("the batch is on no entry: step with next() until it returns false");
            }
        }
    }

    /**
     * Returns the entries from the current one forward (from the first key
     * when the cursor was never placed), as copies. The iterator reads ahead
     * in batches, so the cursor moves ahead of what it has returned; place
     * the cursor again before using it directly.
     *
     * @return an iterator over copies of the entries
     */
    @Override
    public Iterator<KeyValue> iterator() {
        return new CopyingIterator(false);
    }

    /**
     * Returns the entries from the current one backward (from the last key
     * when the cursor was never placed), as copies; see {@link #iterator()}.
     *
     * @return an iterator over copies of the entries, in descending key order
     */
    public Iterator<KeyValue> reverseIterator() {
        return new CopyingIterator(true);
    }

    /**
     * Returns the entries of {@link #iterator()} as a sequential stream.
     * Closing the stream does not close the cursor.
     *
     * @return a stream of copies of the entries, in ascending key order
     */
    public Stream<KeyValue> stream() {
        return toStream(iterator());
    }

    /**
     * Returns the entries of {@link #reverseIterator()} as a sequential stream.
     *
     * @return a stream of copies of the entries, in descending key order
     */
    public Stream<KeyValue> reverseStream() {
        return toStream(reverseIterator());
    }

    private static Stream<KeyValue> toStream(Iterator<KeyValue> entries) {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(entries,
                Spliterator.ORDERED | Spliterator.NONNULL), false);
    }

    /** Copies entries out of the cursor a batch (one native call) at a time. */
    private final class CopyingIterator implements Iterator<KeyValue> {
        private final boolean reverse;
        private final ArrayDeque<KeyValue> ready = new ArrayDeque<>();

        CopyingIterator(boolean reverse) {
            this.reverse = reverse;
        }

        @Override
        public boolean hasNext() {
            if (ready.isEmpty()) {
                acquire();
                try {
                    startScan(reverse);
                    if (cursor.onEntry()) {
                        long entries = cursor.fill(reverse, ITERATOR_BATCH_ENTRIES);
                        Batch batch = new Batch(cursor.batch(), entries);
                        while (batch.next()) {
                            ready.add(new KeyValue(Segments.toArray(batch.key(), "key()"),
                                    Segments.toArray(batch.value(), "value()")));
                        }
                    }
                } finally {
                    release();
                }
            }
            return !ready.isEmpty();
        }

        @Override
        public KeyValue next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return ready.poll();
        }
    }

    /**
     * Returns whether the cursor is open.
     *
     * @return whether the cursor is open
     */
    public boolean isOpen() {
        return !guard.isClosed();
    }

    /**
     * Closes the cursor and invalidates its views. Idempotent; may be called
     * from any thread.
     *
     * @throws IllegalStateException when views of the current entry are open on another live
     *     thread, or when called from this cursor's own scan visitor or reader (the cursor
     *     stays open)
     */
    @Override
    public void close() {
        if (guard.tryAcquire()) {
            try {
                closeViews();
            } finally {
                guard.release();
            }
        }
        owner.release(dependent);
    }

    private void closeNative() {
        if (callbackThread == Thread.currentThread()) {
            // The guard is this thread's own call: waiting for it would never end.
            throw closedFromOwnCallback();
        }
        guard.close(() -> {
            closeViews();
            cursor.close();
            // Only now: a database closing meanwhile must find this cursor and wait for its close.
            owner.forget(dependent);
            if (writes != null) {
                writes.forget(this);
            }
        });
    }

    /** @return the exception for a close of a cursor, or of its database, from the cursor's own callback */
    static IllegalStateException closedFromOwnCallback() {
        return new IllegalStateException("a cursor cannot be closed, nor its database, from the cursor's own"
                + " scan visitor or reader: close it once the call returns");
    }

    /**
     * Marks a call in flight. A call from this cursor's own visitor or reader
     * is refused with a message that says so, rather than as another thread's.
     */
    private void acquire() {
        if (callbackThread == Thread.currentThread()) {
            throw new IllegalStateException("the cursor is in use by its own scan visitor or reader, which must not"
                    + " call it: use it once the call returns");
        }
        guard.acquire();
        if (writes != null) {
            try {
                writes.acquireForCursor();
            } catch (RuntimeException e) {
                guard.release();
                throw e;
            }
        }
    }

    /** Ends a call started by {@link #acquire()}. */
    private void release() {
        if (writes != null) {
            writes.releaseForCursor();
        }
        guard.release();
    }

    /**
     * Invalidates the current entry and its views, for a write of the
     * cursor's pending writes: the write may move the memory they view. The
     * caller holds the writes' guard, which excludes this cursor's calls
     * that read; a cursor being closed closes its views itself.
     *
     * @throws IllegalStateException when views of the entry are open on another live thread, or a
     *     call of the cursor is in flight there (it fails, or waits for the writes' guard): the
     *     write is refused, and may be retried
     */
    void invalidateViews() {
        if (guard.tryAcquire()) {
            try {
                closeViews();
                cursor.writtenOver();
            } finally {
                guard.release();
            }
        } else if (!guard.isClosed()) {
            throw new IllegalStateException("a cursor over these writes is in use by another thread: write once"
                    + " its call has returned");
        }
    }

    /** Runs a move with the guard held, after invalidating the views of the entry it leaves. */
    private boolean move(BooleanSupplier move) {
        acquire();
        try {
            beforeMove();
            return move.getAsBoolean();
        } finally {
            release();
        }
    }

    /**
     * Runs a step from the current entry: refused, changing nothing (the
     * views and where a scan starts included), when the cursor is on no entry.
     */
    private boolean step(BooleanSupplier step) {
        acquire();
        try {
            requireEntry();
            beforeMove();
            return step.getAsBoolean();
        } finally {
            release();
        }
    }

    /** Reads the current entry with the guard held. */
    private <T> T onEntry(Supplier<T> read) {
        acquire();
        try {
            requireEntry();
            return read.get();
        } finally {
            release();
        }
    }

    /** Every move invalidates the views of the entry the cursor leaves. */
    private void beforeMove() {
        closeViews();
        placed = true;
    }

    /** A scan starts where the cursor is, or at the end it walks from when it was never placed. */
    private void startScan(boolean reverse) {
        boolean wasPlaced = placed;
        beforeMove();
        if (!wasPlaced) {
            if (reverse) {
                cursor.last();
            } else {
                cursor.first();
            }
        }
    }

    private void requireEntry() {
        if (!cursor.onEntry()) {
            throw new IllegalStateException("the cursor is on no entry: place it with first, last or a seek");
        }
    }

    private MemorySegment view(MemorySegment raw) {
        if (views != null && viewsThread != Thread.currentThread()) {
            closeViews(); // refused while that thread lives; a dead thread's views are forgotten
        }
        if (views == null) {
            views = Arena.ofConfined();
            viewsThread = Thread.currentThread();
        }
        return scoped(raw, views);
    }

    /** A read-only view of raw (RocksDB's memory) that dies with arena. */
    private static MemorySegment scoped(MemorySegment raw, Arena arena) {
        return raw.reinterpret(arena, null).asReadOnly();
    }

    /**
     * Closes the views of the current entry. Views confined to another live
     * thread cannot be closed here; a dead thread's views are unreachable.
     */
    private void closeViews() {
        if (views == null) {
            return;
        }
        if (viewsThread == Thread.currentThread()) {
            views.close();
        } else if (viewsThread.isAlive()) {
            throw new IllegalStateException("views of this cursor's entry are open on " + viewsThread
                    + ": move or close the cursor on that thread, or read with keyBytes/valueBytes");
        }
        views = null;
        viewsThread = null;
    }

    @Override
    public String toString() {
        return "Cursor[" + owner.path() + (isOpen() ? "" : ", closed") + "]";
    }
}
