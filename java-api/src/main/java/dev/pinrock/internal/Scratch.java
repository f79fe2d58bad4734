package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import dev.pinrock.bindings.pr_get_result;

/**
 * Native buffers for one FFM call at a time, so that the copying paths
 * (byte[] keys and values, heap buffers and heap segments) allocate nothing
 * per call. A call borrows a scratch ({@link #borrow()}) and gives it back
 * when it ends ({@link #close()}, with try-with-resources): no thread keeps
 * one. Given-back scratches wait in a {@link SlotPool}, so the native memory
 * kept is at most {@link SlotPool#SLOTS} times about 150 KiB (the fixed
 * buffers and two copy regions of at most {@link #KEEP_LIMIT}), however many
 * threads (virtual ones included) read and write; a call that finds no
 * scratch in the pool makes one, which the garbage collector frees when the
 * pool has no room for it.
 */
public final class Scratch implements AutoCloseable {
    static final long ERR_CAP = 1024;
    /** Values up to this size come back from a get in one downcall. */
    static final long VALUE_CAP = 16 * 1024;
    /** Key and value copies grow their region up to this size; larger ones use a one-off segment. */
    private static final long KEEP_LIMIT = 64 * 1024;
    private static final SlotPool<Scratch> POOL = new SlotPool<>();

    final MemorySegment err = allocate(ERR_CAP);
    final MemorySegment result = Arena.ofAuto().allocate(pr_get_result.layout());
    final MemorySegment value = allocate(VALUE_CAP);
    final MemorySegment word = Arena.ofAuto().allocate(ValueLayout.JAVA_LONG);
    /** err's and result's addresses, for the downcalls that take them as plain addresses. */
    final long errAddress = err.address();
    final long resultAddress = result.address();
    private final Region keyRegion = new Region(256);
    private final Region inputRegion = new Region(4096);

    private Scratch() {
    }

    /**
     * Takes a scratch for one call: from the pool, or a new one. The caller
     * gives it back with {@link #close()} and uses it on no other thread
     * meanwhile, except one the call hands its work to and waits for.
     */
    public static Scratch borrow() {
        Scratch pooled = POOL.take();
        return pooled != null ? pooled : new Scratch();
    }

    /** Gives this scratch back to the pool (or to the garbage collector when the pool has no room). */
    @Override
    public void close() {
        POOL.giveBack(this);
    }

    /** Each region has its own automatic arena, so a replaced region is freed by the GC. */
    private static MemorySegment allocate(long bytes) {
        return Arena.ofAuto().allocate(bytes, 8);
    }

    /** Returns a key segment itself when native, otherwise a native copy of it. */
    MemorySegment nativeKey(MemorySegment key) {
        return key.isNative() ? key : keyRegion.copyOf(key);
    }

    /**
     * Returns a copy of the first length bytes of a native key (which may be
     * this scratch's own copy) in this scratch's memory, which any thread may use.
     */
    MemorySegment keyCopy(MemorySegment key, long length) {
        return keyRegion.copyOf(key.asSlice(0, length));
    }

    /** Returns a native copy of a key array (made without a heap segment, so nothing is allocated). */
    MemorySegment nativeKey(byte[] key) {
        return keyRegion.copyOf(key);
    }

    /** Returns a native copy of a value array (made without a heap segment). */
    MemorySegment nativeInput(byte[] bytes) {
        return inputRegion.copyOf(bytes);
    }

    /** @return the value length the last get wrote into result */
    public long resultLength() {
        return result.get(ValueLayout.JAVA_LONG, pr_get_result.value_len$offset());
    }

    /** @return the address of the pin the last get wrote into result, or 0 */
    public long resultPin() {
        return result.get(ValueLayout.JAVA_LONG, pr_get_result.pin$offset());
    }

    /** @return the address of the value's bytes the last get wrote into result */
    public long resultData() {
        return result.get(ValueLayout.JAVA_LONG, pr_get_result.data$offset());
    }

    /** Records a get's result as the native get writes it: the value's address and length, and its pin or 0. */
    void setResult(long data, long length, long pin) {
        result.set(ValueLayout.JAVA_LONG, pr_get_result.data$offset(), data);
        result.set(ValueLayout.JAVA_LONG, pr_get_result.value_len$offset(), length);
        result.set(ValueLayout.JAVA_LONG, pr_get_result.pin$offset(), pin);
    }

    /** Records that the last get's value was copied out of its pin, which was released. */
    void pinnedIntoBuffer() {
        result.set(ValueLayout.JAVA_LONG, pr_get_result.pin$offset(), 0L);
    }

    /** @return where the value of the last get is: this value buffer, or its pinned memory */
    MemorySegment resultSource(long length) {
        return resultPin() == 0 ? value : MemorySegment.ofAddress(resultData()).reinterpret(length);
    }

    /**
     * Returns native memory of at least bytes bytes for the encoding of one
     * write (the value copies' region, or a one-off segment when larger than it keeps).
     */
    MemorySegment writeArea(long bytes) {
        return inputRegion.fit(bytes);
    }

    /** Returns a value segment itself when native, otherwise a native copy of it. */
    MemorySegment nativeInput(MemorySegment bytes) {
        return bytes.isNative() ? bytes : inputRegion.copyOf(bytes);
    }

    /** A kept native region that grows up to KEEP_LIMIT; larger requests get one-off segments. */
    private static final class Region {
        private MemorySegment area;

        Region(long initialBytes) {
            area = allocate(initialBytes);
        }

        /** Copies an array into the region (or a one-off segment) and returns the copy. */
        MemorySegment copyOf(byte[] bytes) {
            MemorySegment target = fit(bytes.length);
            MemorySegment.copy(bytes, 0, target, ValueLayout.JAVA_BYTE, 0, bytes.length);
            return target;
        }

        /** Copies a segment into the region (or a one-off segment) and returns the copy. */
        MemorySegment copyOf(MemorySegment source) {
            MemorySegment target = fit(source.byteSize());
            MemorySegment.copy(source, 0, target, 0, source.byteSize());
            return target;
        }

        private MemorySegment fit(long needed) {
            if (needed > area.byteSize()) {
                if (needed > KEEP_LIMIT) {
                    return allocate(needed);
                }
                area = allocate(Math.max(needed, Math.min(KEEP_LIMIT, area.byteSize() * 2)));
            }
            return area;
        }
    }

    String message() {
        return err.getString(0);
    }
}
