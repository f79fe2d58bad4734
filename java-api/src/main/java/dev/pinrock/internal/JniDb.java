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
    /** What the gets answer when a memory-only read needed I/O (get(byte[]): this very array). */
    private static final byte[] NEEDS_IO = new byte[0];
    private static final int NEEDS_IO_LENGTH = -2;
    /**
     * A read flag of the JNI entry points only (pinrock_jni.cc's
     * kMemoryFirstAttempt): read from memory only, and answer NEEDS_IO or
     * NEEDS_IO_LENGTH rather than throw when that needs I/O.
     */
    private static final int MEMORY_FIRST_ATTEMPT = 1 << 30;

    /** The native pr_db_t* of the column family, owned by an {@link FfmDb}. */
    private final long handle;
    private final MemoryFirst memoryFirst;

    /** @param owner the handle's owner, which outlives this data path */
    JniDb(FfmDb owner) {
        this.handle = owner.handle().address();
        this.memoryFirst = owner.memoryFirst();
    }

    /*
     * The gets try memory first as FfmDataPath's do (same policy, same two
     * RocksDB reads on a miss), so that the two bindings are compared on one
     * algorithm: an attempt (MEMORY_FIRST_ATTEMPT) answers NEEDS_IO (or
     * NEEDS_IO_LENGTH) when it would need I/O, and the get is made again.
     */

    /** Whether this get tries memory first: with default read options, when the policy says so. */
    private boolean memoryFirst(long snapshot, int readFlags) {
        return snapshot == 0 && readFlags == 0 && memoryFirst.tryNow();
    }

    /** Records a memory-first attempt's outcome; returns whether it answered. */
    private boolean answered(boolean inMemory) {
        memoryFirst.answered(inMemory);
        return inMemory;
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
        return get(key, 0L, 0);
    }

    @Override
    public int get(byte[] key, byte[] dst) {
        return get(key, dst, 0L, 0);
    }

    @Override
    public byte[] get(byte[] key, long snapshot, int readFlags) {
        if (memoryFirst(snapshot, readFlags)) {
            byte[] value = get(handle, 0L, MEMORY_FIRST_ATTEMPT, key, NEEDS_IO);
            if (answered(value != NEEDS_IO)) {
                return value;
            }
        }
        return get(handle, snapshot, readFlags, key, NEEDS_IO);
    }

    @Override
    public int get(byte[] key, byte[] dst, long snapshot, int readFlags) {
        if (memoryFirst(snapshot, readFlags)) {
            int length = getInto(handle, 0L, MEMORY_FIRST_ATTEMPT, key, dst);
            if (answered(length != NEEDS_IO_LENGTH)) {
                return length;
            }
        }
        return getInto(handle, snapshot, readFlags, key, dst);
    }

    @Override
    public long get(MemorySegment key, MemorySegment dst, long snapshot, int readFlags) {
        if (key.isNative() && dst.isNative()) {
            Segments.requireUsable(key);
            Segments.requireUsable(dst);
            long length = NEEDS_IO_LENGTH;
            if (memoryFirst(snapshot, readFlags)) {
                length = getAddress(handle, snapshot, MEMORY_FIRST_ATTEMPT, key.address(), key.byteSize(),
                        dst.address(), dst.byteSize());
                answered(length != NEEDS_IO_LENGTH);
            }
            if (length == NEEDS_IO_LENGTH) {
                length = getAddress(handle, snapshot, readFlags, key.address(), key.byteSize(), dst.address(),
                        dst.byteSize());
            }
            Reference.reachabilityFence(key);
            Reference.reachabilityFence(dst);
            return length;
        }
        byte[] value = get(key.toArray(ValueLayout.JAVA_BYTE), snapshot, readFlags);
        if (value == null) {
            return NOT_FOUND;
        }
        if (value.length <= dst.byteSize()) {
            MemorySegment.copy(value, 0, dst, ValueLayout.JAVA_BYTE, 0, value.length);
        }
        return value.length;
    }

    @Override
    public boolean pin(MemorySegment key, Scratch scratch, long snapshot, int readFlags) {
        return pin(key.toArray(ValueLayout.JAVA_BYTE), scratch, snapshot, readFlags);
    }

    @Override
    public boolean pin(byte[] key, Scratch scratch, long snapshot, int readFlags) {
        if (memoryFirst(snapshot, readFlags)) {
            int answer = pinFromMemory(key, scratch, snapshot, readFlags);
            if (answered(answer != MAY_EXIST)) {
                return answer == FOUND;
            }
        }
        long[] dataAndLength = new long[2];
        long pin = getPinned(handle, snapshot, readFlags, key, dataAndLength);
        if (pin == NOT_FOUND) {
            return false;
        }
        // An empty value fits the empty buffer: it is not pinned (pin 0).
        scratch.setResult(dataAndLength[0], dataAndLength[1], pin);
        return true;
    }

    @Override
    public int pinFromMemory(MemorySegment key, Scratch scratch, long snapshot, int readFlags) {
        return pinFromMemory(key.toArray(ValueLayout.JAVA_BYTE), scratch, snapshot, readFlags);
    }

    @Override
    public int pinFromMemory(byte[] key, Scratch scratch, long snapshot, int readFlags) {
        long[] dataAndLength = new long[2];
        // An attempt answers NEEDS_IO_LENGTH instead of throwing when it would need I/O.
        long pin = getPinned(handle, snapshot, readFlags | MEMORY_FIRST_ATTEMPT, key, dataAndLength);
        if (pin == NOT_FOUND) {
            return ABSENT;
        }
        if (pin == NEEDS_IO_LENGTH) {
            return MAY_EXIST;
        }
        scratch.setResult(dataAndLength[0], dataAndLength[1], pin);
        return FOUND;
    }

    @Override
    public void release(long pin) {
        if (pin != 0) {
            releasePin(pin);
        }
    }

    @Override
    public void multiGet(MultiGet keys, MemorySegment dst) {
        Segments.requireUsable(dst);
        multiGetInto(handle, keys.reads.snapshot(), keys.reads.flags(), keys.families.address(), keys.count,
                keys.pointers.address(), keys.keyLengths.address(), dst.address(), dst.byteSize(),
                keys.valueOffsets.address(), keys.valueLengths.address(), keys.statuses.address());
        Reference.reachabilityFence(dst);
    }

    @Override
    public void multiGetPinned(MultiGet keys, MemorySegment results) {
        multiGetPinned(handle, keys.reads.snapshot(), keys.reads.flags(), keys.families.address(), keys.count,
                keys.pointers.address(), keys.keyLengths.address(), results.address(), keys.statuses.address());
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
    public NativeCursor openCursor(long snapshot, int readFlags, long readaheadBytes, byte[] lower, byte[] upper,
            boolean prefix) {
        return new JniCursor(openCursor(handle, snapshot, readFlags, readaheadBytes, lower, upper, prefix));
    }

    private static native void multiGetInto(long db, long snapshot, int readFlags, long families, long count,
            long keys, long keyLengths, long dst, long dstCapacity, long valueOffsets, long valueLengths,
            long statuses);

    private static native void multiGetPinned(long db, long snapshot, int readFlags, long families, long count,
            long keys, long keyLengths, long results, long statuses);

    private static native long openCursor(long db, long snapshot, int readFlags, long readaheadBytes, byte[] lower,
            byte[] upper, boolean prefix);

    private static native void put(long db, byte[] key, byte[] value);

    private static native void putAddress(long db, long key, long keyLength, long value, long valueLength);

    private static native void write(long db, long batch, long batchLength, int flags);

    private static native void delete(long db, byte[] key);

    private static native void deleteAddress(long db, long key, long keyLength);

    /** Returns the value, null when absent, or needsIo when a MEMORY_FIRST_ATTEMPT needed I/O. */
    private static native byte[] get(long db, long snapshot, int readFlags, byte[] key, byte[] needsIo);

    /** Returns the value's length, NOT_FOUND, or NEEDS_IO_LENGTH (a MEMORY_FIRST_ATTEMPT needed I/O). */
    private static native int getInto(long db, long snapshot, int readFlags, byte[] key, byte[] dst);

    /** As getInto, into native memory. */
    private static native long getAddress(long db, long snapshot, int readFlags, long key, long keyLength, long dst,
            long dstCapacity);

    /**
     * Returns the pin (0 for an empty value), NOT_FOUND, or NEEDS_IO_LENGTH
     * (a MEMORY_FIRST_ATTEMPT needed I/O); fills {data address, length}.
     */
    private static native long getPinned(long db, long snapshot, int readFlags, byte[] key, long[] dataAndLength);

    private static native void releasePin(long pin);

    private static native byte[][] multiGet(long db, byte[][] keys, int[] statuses);

    /**
     * Makes times JNI calls from native code into a static Java method that
     * only returns, each checked for an exception as a JNI callback must be:
     * the cost of a JNI callback beside {@link Callbacks#probe(long)}'s, for
     * the benchmarks.
     *
     * @param times how many calls
     * @return how many of them returned
     */
    public static long probe(long times) {
        NativeLibrary.load();
        return callBack(times);
    }

    private static native long callBack(long times);

    /** What {@link #callBack} calls. */
    private static int probed() {
        return 0;
    }
}
