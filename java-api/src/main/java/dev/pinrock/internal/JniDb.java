package dev.pinrock.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;

/**
 * The JNI variant of the data path: gets in every form, puts, deletes, write
 * batches, multiGets and cursors go through JNI entry points in the same
 * libpinrock.so, calling the same pinrock.h functions as {@link FfmDb}, so
 * JMH can compare the two boundaries on one engine and one contract suite can
 * prove they behave and fail alike. Everything else is not what the variant
 * compares and goes through the handle's owner, {@link FfmDb}.
 *
 * <p>Not public API: a JNI call cannot hold a shared arena's segment alive
 * the way an FFM downcall does, so a segment of a shared arena closed by
 * another thread during a call is not protected here. Native segments are
 * checked for liveness and thread before each call and kept reachable during
 * it; heap ones are copied.
 */
public final class JniDb implements DataPath {
    /** What each thread's last pinned read found. */
    private static final ThreadLocal<PinnedValue> PINNED =
            ThreadLocal.withInitial(() -> new PinnedValue(JniDb::releasePin));

    static {
        NativeLibrary.load();
    }

    /** The native pr_db_t* of the column family, owned by an {@link FfmDb}. */
    private final long handle;

    /** @param owner the handle's owner, which outlives this data path */
    JniDb(FfmDb owner) {
        this.handle = owner.address();
    }

    @Override
    public void put(byte[] key, byte[] value) {
        put(handle, key, value);
    }

    @Override
    public void put(MemorySegment key, MemorySegment value) {
        if (key.isNative() && value.isNative()) {
            Segments.requireUsable(key);
            Segments.requireUsable(value);
            putAddress(handle, key.address(), key.byteSize(), value.address(), value.byteSize());
            Reference.reachabilityFence(key);
            Reference.reachabilityFence(value);
        } else {
            put(handle, key.toArray(ValueLayout.JAVA_BYTE), value.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Override
    public byte[] get(byte[] key) {
        return get(handle, 0L, 0, key);
    }

    @Override
    public int get(byte[] key, byte[] dst) {
        return getInto(handle, 0L, 0, key, dst);
    }

    @Override
    public byte[] get(byte[] key, long snapshot, int readFlags) {
        return get(handle, snapshot, readFlags, key);
    }

    @Override
    public int get(byte[] key, byte[] dst, long snapshot, int readFlags) {
        return getInto(handle, snapshot, readFlags, key, dst);
    }

    @Override
    public long get(MemorySegment key, MemorySegment dst) {
        if (key.isNative() && dst.isNative()) {
            Segments.requireUsable(key);
            Segments.requireUsable(dst);
            long length = getAddress(handle, key.address(), key.byteSize(), dst.address(), dst.byteSize());
            Reference.reachabilityFence(key);
            Reference.reachabilityFence(dst);
            return length;
        }
        byte[] value = get(handle, 0L, 0, key.toArray(ValueLayout.JAVA_BYTE));
        if (value == null) {
            return NOT_FOUND;
        }
        if (value.length <= dst.byteSize()) {
            MemorySegment.copy(value, 0, dst, ValueLayout.JAVA_BYTE, 0, value.length);
        }
        return value.length;
    }

    @Override
    public PinnedValue pin(MemorySegment key) {
        return pin(key.toArray(ValueLayout.JAVA_BYTE));
    }

    @Override
    public PinnedValue pin(byte[] key) {
        long[] dataAndLength = new long[2];
        long pin = getPinned(handle, key, dataAndLength);
        // An empty value fits the empty buffer: it is not pinned (pin 0).
        return pin == NOT_FOUND ? null : PINNED.get().set(dataAndLength[0], dataAndLength[1], pin);
    }

    @Override
    public void multiGet(MultiGet keys, MemorySegment dst) {
        Segments.requireUsable(dst);
        multiGetInto(handle, keys.count, keys.pointers.address(), keys.keyLengths.address(), dst.address(),
                dst.byteSize(), keys.valueOffsets.address(), keys.valueLengths.address(), keys.statuses.address());
        Reference.reachabilityFence(dst);
    }

    @Override
    public void multiGetPinned(MultiGet keys, MemorySegment results) {
        multiGetPinned(handle, keys.count, keys.pointers.address(), keys.keyLengths.address(), results.address(),
                keys.statuses.address());
    }

    @Override
    public void write(MemorySegment batch, int flags) {
        Segments.requireUsable(batch);
        write(handle, batch.address(), batch.byteSize(), flags);
        Reference.reachabilityFence(batch);
    }

    @Override
    public byte[][] multiGet(byte[][] keys, int[] statuses) {
        return multiGet(handle, keys, statuses);
    }

    @Override
    public void delete(byte[] key) {
        delete(handle, key);
    }

    @Override
    public void delete(MemorySegment key) {
        if (key.isNative()) {
            Segments.requireUsable(key);
            deleteAddress(handle, key.address(), key.byteSize());
            Reference.reachabilityFence(key);
        } else {
            delete(handle, key.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Override
    public NativeCursor openCursor(long snapshot, int readFlags, long readaheadBytes, byte[] lower, byte[] upper) {
        return new JniCursor(openCursor(handle, snapshot, readFlags, readaheadBytes, lower, upper));
    }

    private static native void multiGetInto(long db, long count, long keys, long keyLengths, long dst,
            long dstCapacity, long valueOffsets, long valueLengths, long statuses);

    private static native void multiGetPinned(long db, long count, long keys, long keyLengths, long results,
            long statuses);

    private static native long openCursor(long db, long snapshot, int readFlags, long readaheadBytes, byte[] lower,
            byte[] upper);

    private static native void put(long db, byte[] key, byte[] value);

    private static native void putAddress(long db, long key, long keyLength, long value, long valueLength);

    private static native void write(long db, long batch, long batchLength, int flags);

    private static native void delete(long db, byte[] key);

    private static native void deleteAddress(long db, long key, long keyLength);

    private static native byte[] get(long db, long snapshot, int readFlags, byte[] key);

    private static native int getInto(long db, long snapshot, int readFlags, byte[] key, byte[] dst);

    private static native long getAddress(long db, long key, long keyLength, long dst, long dstCapacity);

    /** Returns the pin (0 for an empty value), or NOT_FOUND; fills {data address, length}. */
    private static native long getPinned(long db, byte[] key, long[] dataAndLength);

    private static native void releasePin(long pin);

    private static native byte[][] multiGet(long db, byte[][] keys, int[] statuses);
}
