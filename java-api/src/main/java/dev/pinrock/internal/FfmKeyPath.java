package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The FFM binding's keyed calls over one native read and the put and delete
 * of a keyspace (a column family's, {@link FfmDataPath}, one as a transaction
 * sees it, {@link FfmTransactionPath}, or through a batch with index,
 * {@link FfmBatchPath}): what each access mode
 * does around that read (the scratch buffers, pins, copies into the caller's
 * array, buffer or segment) is written once, here.
 */
abstract sealed class FfmKeyPath implements KeyPath permits FfmDataPath, FfmTransactionPath, FfmBatchPath {
    /**
     * At most this many bytes are copied inside the read, which may be a
     * critical downcall, holding off the garbage collector while it runs; a
     * larger value is pinned there and copied afterwards.
     */
    static final long CRITICAL_COPY_CAP = 64 * 1024;
    static final long ERR_CAP = Scratch.ERR_CAP;

    /**
     * Reads key: the value lands in the first bufCap bytes of buf when it
     * fits, else it is pinned (with PR_GET_PIN_IF_LARGER in flags) or only
     * measured. key and buf are native; buf may be the caller's own segment.
     *
     * @return false when the key is absent; otherwise scratch.result says where the value went
     */
    abstract boolean read(Scratch scratch, long snapshot, int readFlags, MemorySegment key, long keyLength,
            MemorySegment buf, long bufCap, int flags);

    /**
     * What a read's status says: false for PR_NOT_FOUND, true for PR_OK, and
     * any other status thrown with scratch's message.
     */
    static boolean found(int status, Scratch scratch) {
        if (status == Downcalls.NOT_FOUND) {
            return false;
        }
        Downcalls.check(status, scratch);
        return true;
    }

    /** Writes key -> value, both native, failing through scratch's error buffer. */
    abstract void put(Scratch scratch, MemorySegment key, long keyLength, MemorySegment value, long valueLength);

    /** Deletes key, native, failing through scratch's error buffer. */
    abstract void delete(Scratch scratch, MemorySegment key, long keyLength);

    /**
     * Opens a native cursor into scratch's word with the bound keys given
     * (native, NULL when absent, as PR_RANGE_HAS_* bounds say).
     *
     * @return the status
     */
    abstract int openCursor(MemorySegment snapshot, int readFlags, long readaheadBytes, MemorySegment lower,
            MemorySegment upper, int bounds, Scratch scratch) throws Throwable;

    @Override
    public NativeCursor openCursor(long snapshot, int readFlags, long readaheadBytes, byte[] lower, byte[] upper,
            boolean prefix) {
        int bounds = (lower != null ? Downcalls.RANGE_HAS_BEGIN : 0) | (upper != null ? Downcalls.RANGE_HAS_END : 0)
                | (prefix ? Downcalls.RANGE_PREFIX : 0);
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment first = lower != null ? arena.allocateFrom(ValueLayout.JAVA_BYTE, lower) : MemorySegment.NULL;
            MemorySegment last = upper != null ? arena.allocateFrom(ValueLayout.JAVA_BYTE, upper) : MemorySegment.NULL;
            Downcalls.check(openCursor(MemorySegment.ofAddress(snapshot), readFlags, readaheadBytes, first, last, bounds,
                    scratch), scratch);
            return new FfmCursor(scratch.word.get(ValueLayout.ADDRESS, 0));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try (Scratch scratch = Scratch.borrow()) {
            put(scratch, scratch.nativeKey(key), key.length, scratch.nativeInput(value), value.length);
        }
    }

    @Override
    public void put(MemorySegment key, MemorySegment value) {
        try (Scratch scratch = Scratch.borrow()) {
            put(scratch, scratch.nativeKey(key), key.byteSize(), scratch.nativeInput(value), value.byteSize());
        }
    }

    @Override
    public void delete(byte[] key) {
        try (Scratch scratch = Scratch.borrow()) {
            delete(scratch, scratch.nativeKey(key), key.length);
        }
    }

    @Override
    public void delete(MemorySegment key) {
        try (Scratch scratch = Scratch.borrow()) {
            delete(scratch, scratch.nativeKey(key), key.byteSize());
        }
    }

    @Override
    public byte[] get(byte[] key) {
        return get(key, 0L, 0);
    }

    @Override
    public byte[] get(byte[] key, long snapshot, int readFlags) {
        try (Scratch scratch = Scratch.borrow()) {
            // byte[] keys are copied into the scratch buffers rather than viewed
            // by heap segments, so that the call allocates nothing.
            if (!read(scratch, snapshot, readFlags, scratch.nativeKey(key), key.length, scratch.value,
                    Scratch.VALUE_CAP, Downcalls.GET_PIN_IF_LARGER)) {
                return null;
            }
            long length = scratch.resultLength();
            if (length > Segments.MAX_ARRAY_BYTES) {
                releasePin(scratch.resultPin());
                throw Segments.tooLargeForArray(length, "getPinned");
            }
            byte[] value = new byte[(int) length];
            copyIfFits(scratch, value);
            return value;
        }
    }

    @Override
    public int get(byte[] key, byte[] dst) {
        return get(key, dst, 0L, 0);
    }

    @Override
    public int get(byte[] key, byte[] dst, long snapshot, int readFlags) {
        // Small values come through the scratch buffer, larger ones through a
        // pin, in the same single downcall.
        try (Scratch scratch = Scratch.borrow()) {
            int flags = dst.length > Scratch.VALUE_CAP ? Downcalls.GET_PIN_IF_LARGER : 0;
            if (!read(scratch, snapshot, readFlags, scratch.nativeKey(key), key.length, scratch.value,
                    Math.min(dst.length, Scratch.VALUE_CAP), flags)) {
                return NOT_FOUND;
            }
            return clampToInt(copyIfFits(scratch, dst));
        }
    }

    @Override
    public long get(MemorySegment key, MemorySegment dst, long snapshot, int readFlags) {
        try (Scratch scratch = Scratch.borrow()) {
            MemorySegment nativeKey = scratch.nativeKey(key);
            if (dst.isNative()) {
                // dst receives the value in the call; from memory, only up to the
                // critical copy cap: a larger value is pinned there and copied here.
                long cap = Math.min(dst.byteSize(), CRITICAL_COPY_CAP);
                int flags = dst.byteSize() > CRITICAL_COPY_CAP ? Downcalls.GET_PIN_IF_LARGER : 0;
                if (!read(scratch, snapshot, readFlags, nativeKey, key.byteSize(), dst, cap, flags)) {
                    return NOT_FOUND;
                }
                // Copied into dst in the call, unless it was pinned.
                return scratch.resultPin() == 0 ? scratch.resultLength() : copyIfFits(scratch, dst);
            }
            // A heap destination: small values come through the scratch buffer,
            // larger ones through a pin, in the same single downcall.
            int flags = dst.byteSize() > Scratch.VALUE_CAP ? Downcalls.GET_PIN_IF_LARGER : 0;
            if (!read(scratch, snapshot, readFlags, nativeKey, key.byteSize(), scratch.value,
                    Math.min(dst.byteSize(), Scratch.VALUE_CAP), flags)) {
                return NOT_FOUND;
            }
            return copyIfFits(scratch, dst);
        }
    }

    /**
     * Copies the value that scratch.result describes (in scratch.value or
     * pinned) into dst when it fits, and releases its pin if any.
     *
     * @return the value's length
     */
    static long copyIfFits(Scratch scratch, MemorySegment dst) {
        long length = scratch.resultLength();
        try {
            if (length <= dst.byteSize()) {
                MemorySegment.copy(scratch.resultSource(length), 0, dst, 0, length);
            }
        } finally {
            releasePin(scratch.resultPin());
        }
        return length;
    }

    /** copyIfFits(Scratch, MemorySegment) into an array, without making a heap segment of it. */
    static long copyIfFits(Scratch scratch, byte[] dst) {
        long length = scratch.resultLength();
        try {
            if (length <= dst.length) {
                MemorySegment.copy(scratch.resultSource(length), ValueLayout.JAVA_BYTE, 0, dst, 0, (int) length);
            }
        } finally {
            releasePin(scratch.resultPin());
        }
        return length;
    }

    @Override
    public boolean pin(MemorySegment key, Scratch scratch, long snapshot, int readFlags) {
        return pin(scratch, scratch.nativeKey(key), key.byteSize(), snapshot, readFlags);
    }

    @Override
    public boolean pin(byte[] key, Scratch scratch, long snapshot, int readFlags) {
        return pin(scratch, scratch.nativeKey(key), key.length, snapshot, readFlags);
    }

    /** A get that pins whatever value it finds (an empty one fits the empty buffer: pin 0). */
    private boolean pin(Scratch scratch, MemorySegment nativeKey, long keyLength, long snapshot, int readFlags) {
        return read(scratch, snapshot, readFlags, nativeKey, keyLength, MemorySegment.NULL, 0,
                Downcalls.GET_PIN_IF_LARGER);
    }

    @Override
    public void release(long pin) {
        releasePin(pin);
    }

    /** Releases a pin given by its address; 0 is accepted. */
    static void releasePin(long pin) {
        if (pin != 0) {
            releasePin(MemorySegment.ofAddress(pin));
        }
    }

    static void releasePin(MemorySegment pin) {
        if (pin.equals(MemorySegment.NULL)) {
            return;
        }
        try {
            Downcalls.PinRelease.HANDLE.invokeExact(pin);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    private static int clampToInt(long length) {
        return (int) Math.min(length, Integer.MAX_VALUE);
    }
}
