package dev.pinrock.internal;


import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import dev.pinrock.bindings.pr_cursor_entry;

/**
 * One open native cursor (pr_cursor_t) as a binding reaches it. This class
 * owns what both bindings share: the native entry record that every move
 * fills, and the scan buffer ({@link dev.pinrock.Cursor.Batch} reads its
 * layout); a binding supplies the downcalls. Not thread-safe: the public
 * {@link dev.pinrock.Cursor} guards it and hands out views with their
 * lifetimes, none of which outlives the cursor, so the native memory goes
 * back to a pool when the cursor closes: a short cursor (the entries of one
 * prefix) would otherwise spend about a third of its time allocating,
 * zeroing and later freeing it.
 */
public abstract class NativeCursor {
    /**
     * Scan buffer size at a fresh memory's first scan: enough for a short
     * scan, whose cursor would otherwise pay for allocating and zeroing a
     * large buffer it does not fill.
     */
    private static final long FIRST_BATCH_BYTES = 4 * 1024;
    /**
     * The size the scan buffer doubles up to while scans fill it (one larger
     * entry grows it beyond, and such a buffer is not pooled).
     */
    private static final long FULL_BATCH_BYTES = 64 * 1024;

    /** The native memory of open cursors, kept for the next cursor while none is open. */
    private static final SlotPool<Memory> POOL = new SlotPool<>();

    /** The native memory of one cursor at a time, each region freed by the GC once unreachable. */
    protected static final class Memory {
        /** The pr_cursor_entry that moves and scans fill. */
        final MemorySegment entry = Arena.ofAuto().allocate(pr_cursor_entry.layout());
        /** Two uint64 outputs of a scan: entries copied, bytes used (or needed). */
        final MemorySegment counts = Arena.ofAuto().allocate(ValueLayout.JAVA_LONG, 2);
        final MemorySegment entriesOut = counts.asSlice(0, ValueLayout.JAVA_LONG.byteSize());
        final MemorySegment bytesOut = counts.asSlice(ValueLayout.JAVA_LONG.byteSize());
        /** The scan buffer, allocated by the first scan. */
        private MemorySegment batch;

        private MemorySegment batch(long minimumBytes) {
            if (batch == null || batch.byteSize() < minimumBytes) {
                batch = Arena.ofAuto().allocate(minimumBytes, 8);
            }
            return batch;
        }
    }

    /** This cursor's memory, until it closes. */
    protected Memory memory;
    /** The bytes the last scan used of the scan buffer. */
    private long batchBytes;
    private boolean onEntry;
    /**
     * Whether the transaction or batch with index the cursor reads was
     * written since the cursor last moved: the write may have moved the
     * memory the current entry is in, so it is read again only by a move.
     */
    private boolean writtenOver;

    protected NativeCursor() {
        Memory pooled = POOL.take();
        memory = pooled != null ? pooled : new Memory();
    }

    /**
     * pr_cursor_move: returns PR_OK or PR_NOT_FOUND, throws RocksDbException otherwise.
     *
     * @param key a native segment, or NULL for moves that take no key
     */
    protected abstract int move(int op, MemorySegment key, long keyLength);

    /** pr_cursor_scan into buf: returns PR_OK or PR_NOT_FOUND, throws RocksDbException otherwise. */
    protected abstract int scan(int flags, long maxEntries, MemorySegment buf);

    /** pr_cursor_refresh to a snapshot handle (0: the latest state); throws RocksDbException on failure. */
    protected abstract void refreshNative(long snapshot);

    /** pr_cursor_close. */
    protected abstract void closeNative();

    /** Closes the native cursor and gives its memory back; called once, when no view of the cursor is open. */
    public final void close() {
        Memory returned = memory;
        memory = null;
        try {
            closeNative();
        } finally {
            if (returned.batch != null && returned.batch.byteSize() > FULL_BATCH_BYTES) {
                returned.batch = null;
            }
            POOL.giveBack(returned);
        }
    }

    public boolean first() {
        return moved(move(Downcalls.CURSOR_FIRST, MemorySegment.NULL, 0));
    }

    public boolean last() {
        return moved(move(Downcalls.CURSOR_LAST, MemorySegment.NULL, 0));
    }

    public boolean seek(MemorySegment key) {
        try (Scratch scratch = Scratch.borrow()) {
            return moved(move(Downcalls.CURSOR_SEEK, scratch.nativeKey(key), key.byteSize()));
        }
    }

    public boolean seekForPrev(MemorySegment key) {
        try (Scratch scratch = Scratch.borrow()) {
            return moved(move(Downcalls.CURSOR_SEEK_FOR_PREV, scratch.nativeKey(key), key.byteSize()));
        }
    }

    /** Moves to the next entry; the caller has checked {@link #onEntry()}. */
    public boolean next() {
        return moved(move(Downcalls.CURSOR_NEXT, MemorySegment.NULL, 0));
    }

    /** Moves to the previous entry; the caller has checked {@link #onEntry()}. */
    public boolean prev() {
        return moved(move(Downcalls.CURSOR_PREV, MemorySegment.NULL, 0));
    }

    /**
     * Moves the cursor's view to the latest state, or to a snapshot's
     * (pr_cursor_refresh); the cursor is on no entry afterwards, also when it throws.
     *
     * @param snapshot a snapshot handle of the cursor's database, or 0 for the latest state
     */
    public void refresh(long snapshot) {
        onEntry = false;
        writtenOver = false;
        refreshNative(snapshot);
    }

    private boolean moved(int status) {
        onEntry = status == Downcalls.OK;
        writtenOver = false;
        return onEntry;
    }

    /**
     * Notes a write of the transaction or batch with index the cursor reads:
     * until the cursor moves, its current entry cannot be read (a step from
     * it, next or prev, is a move and reads what the write left).
     */
    public void writtenOver() {
        writtenOver = true;
    }

    private void requireNotWrittenOver() {
        if (writtenOver && onEntry) {
            throw new IllegalStateException("the writes this cursor reads changed since it reached its entry: move"
                    + " it (next, prev, first, last or a seek) before reading");
        }
    }

    /** @return whether the cursor is on an entry */
    public boolean onEntry() {
        return onEntry;
    }

    /** The current key as an unscoped view: the caller scopes it before handing it out. */
    public MemorySegment rawKey() {
        requireNotWrittenOver();
        MemorySegment entry = memory.entry;
        return pr_cursor_entry.key(entry).reinterpret(pr_cursor_entry.key_len(entry));
    }

    /** The current value as an unscoped view: the caller scopes it before handing it out. */
    public MemorySegment rawValue() {
        requireNotWrittenOver();
        MemorySegment entry = memory.entry;
        return pr_cursor_entry.value(entry).reinterpret(pr_cursor_entry.value_len(entry));
    }

    /**
     * Copies up to maxEntries entries, from the current one on, into the
     * batch buffer in one downcall (more when one entry needs a larger
     * buffer), laid out as pr_cursor_scan describes; {@link #batch()} holds
     * them afterwards. The cursor ends on the entry after the last one copied.
     *
     * @return the number of entries copied
     */
    public long fill(boolean reverse, long maxEntries) {
        requireNotWrittenOver(); // a scan copies the current entry first
        int flags = reverse ? Downcalls.SCAN_REVERSE : 0;
        MemorySegment batch = memory.batch(FIRST_BATCH_BYTES);
        if (batchBytes > batch.byteSize() / 2 && batch.byteSize() < FULL_BATCH_BYTES) {
            batch = memory.batch(2 * batch.byteSize());
        }
        while (true) {
            moved(scan(flags, maxEntries, batch));
            long entries = memory.counts.getAtIndex(ValueLayout.JAVA_LONG, 0);
            long bytes = memory.counts.getAtIndex(ValueLayout.JAVA_LONG, 1);
            if (entries == 0 && bytes > batch.byteSize()) {
                batch = memory.batch(Math.max(bytes, 2 * batch.byteSize()));
                continue;
            }
            batchBytes = bytes;
            return entries;
        }
    }

    /** The buffer the last scan filled, of the bytes it used. */
    public MemorySegment batch() {
        return memory.batch.asSlice(0, batchBytes);
    }
}
