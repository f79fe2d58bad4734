package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.pinrock.RocksDbException;
import dev.pinrock.StatusCode;
import dev.pinrock.bindings.pr_get_result;

/**
 * The keys of one multiGet as the C ABI takes them (an array of pointers and
 * an array of lengths) with the per-key arrays the call fills (statuses,
 * value offsets and lengths), and the multiGet forms both bindings share. Every
 * key is copied into the call's arena: the array of pointers is memory FFM does
 * not look into, so it only ever points at memory the call itself owns.
 */
public final class MultiGet {
    /**
     * How a multiGet reads: as of a snapshot handle (0: the latest state),
     * with PR_READ_* flags, and from a family per key (the owners of their
     * handles, of the database called; null: every key from the family called).
     */
    public record Reads(long snapshot, int flags, List<FfmDb> families) {
        /** The latest state, default read options, the family called. */
        public static final Reads DEFAULT = new Reads(0L, 0, null);
    }

    final long count;
    final Reads reads;
    /** A family handle per key (pr_db_multi_get_with's families), or NULL for the family called. */
    final MemorySegment families;
    final MemorySegment pointers;
    final MemorySegment keyLengths;
    final MemorySegment statuses;
    /** Filled by pr_db_multi_get: where each value starts in the buffer, and its length. */
    final MemorySegment valueOffsets;
    final MemorySegment valueLengths;

    /**
     * Keys given as segments, every one copied into the arena (native ones
     * too): the native array holds the copies' addresses, which FFM neither
     * checks nor keeps alive during the call, so the copy is where each key's
     * arena is checked (closed: IllegalStateException; another thread's:
     * WrongThreadException), and a key's arena closed by another thread
     * afterwards cannot free memory the call reads.
     *
     * @param arena holds the arrays and the keys' copies for the duration of the call
     * @param keys the keys
     * @param reads how the keys are read
     */
    MultiGet(Arena arena, List<MemorySegment> keys, Reads reads) {
        this(arena, keys.size(), reads);
        long bytes = 0;
        for (MemorySegment key : keys) {
            bytes += key.byteSize();
        }
        MemorySegment copies = arena.allocate(Math.max(1, bytes));
        long at = 0;
        for (int i = 0; i < keys.size(); i++) {
            MemorySegment key = keys.get(i);
            // The copy checks the key's arena, except for an empty key: it copies nothing.
            if (key.byteSize() == 0) {
                Segments.requireUsable(key);
            }
            MemorySegment.copy(key, 0, copies, at, key.byteSize());
            pointers.setAtIndex(ValueLayout.ADDRESS, i, copies.asSlice(at, key.byteSize()));
            keyLengths.setAtIndex(ValueLayout.JAVA_LONG, i, key.byteSize());
            at += key.byteSize();
        }
    }

    /**
     * Keys given as arrays, copied into the arena straight from the arrays
     * (no heap segment is made of them).
     *
     * @param arena holds the arrays and the keys' copies for the duration of the call
     * @param keys the keys
     * @param reads how the keys are read
     */
    MultiGet(Arena arena, byte[][] keys, Reads reads) {
        this(arena, keys.length, reads);
        long bytes = 0;
        for (byte[] key : keys) {
            bytes += key.length;
        }
        MemorySegment copies = arena.allocate(Math.max(1, bytes));
        long at = 0;
        for (int i = 0; i < keys.length; i++) {
            MemorySegment.copy(keys[i], 0, copies, ValueLayout.JAVA_BYTE, at, keys[i].length);
            pointers.setAtIndex(ValueLayout.ADDRESS, i, MemorySegment.ofAddress(copies.address() + at));
            keyLengths.setAtIndex(ValueLayout.JAVA_LONG, i, keys[i].length);
            at += keys[i].length;
        }
    }

    /**
     * An arena for one multiGet call's arrays and key copies: shared on a
     * virtual thread, whose call runs on a {@link BlockingReads} thread
     * (which must reach them), confined otherwise.
     */
    static Arena callArena() {
        return Thread.currentThread().isVirtual() ? Arena.ofShared() : Arena.ofConfined();
    }

    /** The arrays of a call of count keys, not yet filled but for the families. */
    private MultiGet(Arena arena, int count, Reads reads) {
        this.count = count;
        this.reads = reads;
        int n = Math.max(1, count);
        if (reads.families() == null) {
            families = MemorySegment.NULL;
        } else {
            families = arena.allocate(ValueLayout.ADDRESS, n);
            for (int i = 0; i < count; i++) {
                families.setAtIndex(ValueLayout.ADDRESS, i, reads.families().get(i).handle());
            }
        }
        pointers = arena.allocate(ValueLayout.ADDRESS, n);
        keyLengths = arena.allocate(ValueLayout.JAVA_LONG, n);
        statuses = arena.allocate(ValueLayout.JAVA_INT, n);
        valueOffsets = arena.allocate(ValueLayout.JAVA_LONG, n);
        valueLengths = arena.allocate(ValueLayout.JAVA_LONG, n);
    }

    /** @return PR_OK, PR_NOT_FOUND or the failure of key i, after the call */
    int status(int i) {
        return statuses.getAtIndex(ValueLayout.JAVA_INT, i);
    }

    /** @return where value i starts in the buffer, or -1 when absent or not copied, after pr_db_multi_get */
    long valueOffset(int i) {
        return valueOffsets.getAtIndex(ValueLayout.JAVA_LONG, i);
    }

    /** @return the length of value i (0 when absent), after pr_db_multi_get */
    long valueLength(int i) {
        return valueLengths.getAtIndex(ValueLayout.JAVA_LONG, i);
    }

    /** @return the statuses of every key, after the call */
    int[] statuses() {
        return statuses.asSlice(0, count * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
    }

    /**
     * Throws for the first key whose read failed (not found is no failure).
     *
     * @throws RocksDbException with that key's status
     */
    public static void requireAllAnswered(int[] statuses) {
        for (int i = 0; i < statuses.length; i++) {
            int code = statuses[i] & 0xff;
            if (code != StatusCode.OK.nativeCode() && code != StatusCode.NOT_FOUND.nativeCode()) {
                throw RocksDbException.of(statuses[i], StatusCode.of(code) + ": multiGet failed for key #" + i);
            }
        }
    }

    /**
     * Reads keys into dst: found values one after another in key order, while they fit.
     *
     * @param offsets receives where each value starts in dst, or -1 when absent or not copied
     * @param lengths receives each value's length, or NOT_FOUND (-1) when absent
     * @return the bytes of dst used
     */
    public static long into(KeyPath db, Reads reads, List<MemorySegment> keys, MemorySegment dst, long[] offsets,
            long[] lengths) {
        try (Arena arena = callArena()) {
            MultiGet call = new MultiGet(arena, keys, reads);
            // A virtual thread's call runs on another thread, which dst may be confined from.
            MemorySegment target = dst.isNative() && !Thread.currentThread().isVirtual() ? dst
                    : arena.allocate(Math.max(1, dst.byteSize()));
            db.multiGet(call, target);
            int[] statuses = call.statuses();
            requireAllAnswered(statuses);
            long used = 0;
            for (int i = 0; i < statuses.length; i++) {
                offsets[i] = call.valueOffset(i);
                lengths[i] = statuses[i] == StatusCode.OK.nativeCode() ? call.valueLength(i) : KeyPath.NOT_FOUND;
                if (offsets[i] != -1) {
                    used = Math.max(used, offsets[i] + lengths[i]);
                }
            }
            if (target != dst) {
                MemorySegment.copy(target, 0, dst, 0, used);
            }
            return used;
        }
    }

    /**
     * Reads keys without copying: each found value is pinned and viewed by a
     * read-only segment of arena, whose closing releases the pin.
     *
     * @return a segment per key, null where the key is absent
     */
    public static List<MemorySegment> pinned(KeyPath db, Reads reads, Arena arena, List<MemorySegment> keys) {
        // Fails now, before anything is pinned, when the arena is closed or another thread's.
        MemorySegment.NULL.reinterpret(0, arena, null);
        try (Arena call = callArena()) {
            MultiGet multiGet = new MultiGet(call, keys, reads);
            MemorySegment results = call.allocate(pr_get_result.layout(), Math.max(1, keys.size()));
            db.multiGetPinned(multiGet, results);
            int[] statuses = multiGet.statuses();
            List<MemorySegment> values = new ArrayList<>(Arrays.asList(new MemorySegment[keys.size()]));
            int next = 0;
            try {
                requireAllAnswered(statuses);
                for (; next < keys.size(); next++) {
                    MemorySegment result = pr_get_result.asSlice(results, next);
                    long pin = result.get(ValueLayout.JAVA_LONG, pr_get_result.pin$offset());
                    if (pin != 0) {
                        long data = result.get(ValueLayout.JAVA_LONG, pr_get_result.data$offset());
                        long length = result.get(ValueLayout.JAVA_LONG, pr_get_result.value_len$offset());
                        values.set(next, PinnedValue.view(data, length, pin, arena, FfmKeyPath::releasePin));
                    }
                }
            } finally {
                // Pins not yet handed to the arena (after a failure) are released here.
                for (int i = next; i < keys.size(); i++) {
                    FfmKeyPath.releasePin(pr_get_result.pin(pr_get_result.asSlice(results, i)));
                }
            }
            return values;
        }
    }

    /**
     * Reads keys into new arrays: the values are copied into a scratch's
     * value buffer, or into a buffer of their size when they do not fit,
     * and from there into arrays.
     *
     * @param statuses receives PR_OK, PR_NOT_FOUND or the failure of each key
     * @return the values in the order of the keys, null where there is none
     */
    static byte[][] arrays(KeyPath db, Reads reads, byte[][] keys, int[] statuses) {
        int n = keys.length;
        byte[][] values = new byte[n][];
        try (Arena arena = callArena(); Scratch scratch = Scratch.borrow()) {
            MultiGet call = new MultiGet(arena, keys, reads);
            MemorySegment buf = scratch.value;
            while (true) {
                db.multiGet(call, buf);
                long needed = 0;
                boolean allCopied = true;
                for (int i = 0; i < n; i++) {
                    if (call.status(i) == StatusCode.OK.nativeCode()) {
                        long length = call.valueLength(i);
                        if (length > Segments.MAX_ARRAY_BYTES) {
                            throw Segments.tooLargeForArray(length, "getPinned");
                        }
                        needed += length;
                        allCopied &= call.valueOffset(i) != -1L;
                    }
                }
                if (allCopied) {
                    break;
                }
                // Values changed size between calls: the loop retries.
                buf = arena.allocate(needed);
            }
            for (int i = 0; i < n; i++) {
                statuses[i] = call.status(i);
                if (statuses[i] == StatusCode.OK.nativeCode()) {
                    values[i] = new byte[(int) call.valueLength(i)];
                    MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, call.valueOffset(i), values[i], 0,
                            values[i].length);
                }
            }
            return values;
        }
    }
}
