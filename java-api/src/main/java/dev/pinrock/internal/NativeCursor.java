package dev.pinrock.internal;


import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import dev.pinrock.bindings.pr_cursor_entry;

/**
 * One open native cursor (pr_cursor_t) as a binding reaches it. This class
 * owns what both bindings share: the native entry record that every move
 * fills, and the scan buffer ({@link dev.pinrock.Cursor.Batch} reads its
 * layout); a binding supplies the two downcalls. Not thread-safe: the
 * public {@link dev.pinrock.Cursor} guards it and hands out views with their
 * lifetimes.
 */
public abstract class NativeCursor {
    /**
     * Scan buffer size at a cursor's first scan: enough for a short scan
     * (the entries of one prefix), whose cursor would otherwise pay for
     * allocating and zeroing a large buffer it does not fill.
     */
    private static final long FIRST_BATCH_BYTES = 4 * 1024;
    /** The size the scan buffer doubles up to while scans fill it (one larger entry grows it beyond). */
    private static final long FULL_BATCH_BYTES = 64 * 1024;

    /** Native memory this cursor keeps; freed by the GC once the cursor is unreachable. */
    private final Arena arena = Arena.ofAuto();
    /** The pr_cursor_entry that moves and scans fill. */
    protected final MemorySegment entry = arena.allocate(pr_cursor_entry.layout());
    /** Two uint64 outputs of a scan: entries copied, bytes used (or needed). */
    protected final MemorySegment counts = arena.allocate(ValueLayout.JAVA_LONG, 2);
    /** The scan buffer, allocated by the first scan. */
    private MemorySegment batch;
    private long batchBytes;
    private boolean onEntry;

    /**
     * pr_cursor_move: returns PR_OK or PR_NOT_FOUND, throws RocksDbException otherwise.
     *
     * @param key a native segment, or NULL for moves that take no key
     */
    protected abstract int move(int op, MemorySegment key, long keyLength);

    /** pr_cursor_scan into buf: returns PR_OK or PR_NOT_FOUND, throws RocksDbException otherwise. */
    protected abstract int scan(int flags, long maxEntries, MemorySegment buf);

    /** pr_cursor_close; called once. */
    public abstract void close();

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

    private boolean moved(int status) {
        onEntry = status == Downcalls.OK;
        return onEntry;
    }

    /** @return whether the cursor is on an entry */
    public boolean onEntry() {
        return onEntry;
    }

    /** The current key as an unscoped view: the caller scopes it before handing it out. */
    public MemorySegment rawKey() {
        return pr_cursor_entry.key(entry).reinterpret(pr_cursor_entry.key_len(entry));
    }

    /** The current value as an unscoped view: the caller scopes it before handing it out. */
    public MemorySegment rawValue() {
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
        int flags = reverse ? Downcalls.SCAN_REVERSE : 0;
        if (batch == null) {
            batch = arena.allocate(FIRST_BATCH_BYTES, 8);
        } else if (batchBytes > batch.byteSize() / 2 && batch.byteSize() < FULL_BATCH_BYTES) {
            batch = arena.allocate(2 * batch.byteSize(), 8);
        }
        while (true) {
            moved(scan(flags, maxEntries, batch));
            long entries = counts.getAtIndex(ValueLayout.JAVA_LONG, 0);
            long bytes = counts.getAtIndex(ValueLayout.JAVA_LONG, 1);
            if (entries == 0 && bytes > batch.byteSize()) {
                batch = arena.allocate(Math.max(bytes, 2 * batch.byteSize()), 8);
                continue;
            }
            batchBytes = bytes;
            return entries;
        }
    }

    /** The buffer the last scan filled, of the bytes it used. */
    public MemorySegment batch() {
        return batch.asSlice(0, batchBytes);
    }
}
