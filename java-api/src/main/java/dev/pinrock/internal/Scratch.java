package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import dev.pinrock.bindings.pr_get_result;

/**
 * Per-thread native buffers for the FFM binding, so that the copying paths
 * (byte[] keys and values, heap buffers and heap segments) allocate nothing
 * per call. A thread uses its scratch for one native call at a time.
 */
final class Scratch {
    static final long ERR_CAP = 1024;
    /** Values up to this size come back from a get in one downcall. */
    static final long VALUE_CAP = 16 * 1024;
    /** Larger key or value copies use a one-off segment instead of growing the kept ones. */
    private static final long KEEP_LIMIT = 1 << 20;

    private static final ThreadLocal<Scratch> PER_THREAD = ThreadLocal.withInitial(Scratch::new);

    final MemorySegment err = allocate(ERR_CAP);
    final MemorySegment result = Arena.ofAuto().allocate(pr_get_result.layout());
    final MemorySegment value = allocate(VALUE_CAP);
    final MemorySegment word = Arena.ofAuto().allocate(ValueLayout.JAVA_LONG);
    /** err's and result's addresses, for the downcalls that take them as plain addresses. */
    final long errAddress = err.address();
    final long resultAddress = result.address();
    /** What this thread's last pinned read found. */
    final PinnedValue pinned = new PinnedValue(FfmDb::releasePin);
    private final Region keyRegion = new Region(256);
    private final Region inputRegion = new Region(4096);

    /** The most memory-only gets skipped after a run of them needed I/O. */
    private static final int MAX_MEMORY_FIRST_BACKOFF = 1024;
    /** Gets to make normally before trying memory first again. */
    private int memoryFirstSkips;
    /** What memoryFirstSkips is set to at the next miss: doubles while memory-only gets miss. */
    private int memoryFirstBackoff;

    static Scratch get() {
        return PER_THREAD.get();
    }

    /** Each region has its own automatic arena, so a replaced region is freed by the GC. */
    private static MemorySegment allocate(long bytes) {
        return Arena.ofAuto().allocate(bytes, 8);
    }

    /** Returns a key segment itself when native, otherwise a native copy of it. */
    MemorySegment nativeKey(MemorySegment key) {
        return key.isNative() ? key : keyRegion.copyOf(key);
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
    long resultLength() {
        return result.get(ValueLayout.JAVA_LONG, pr_get_result.value_len$offset());
    }

    /** @return the address of the pin the last get wrote into result, or 0 */
    long resultPin() {
        return result.get(ValueLayout.JAVA_LONG, pr_get_result.pin$offset());
    }

    /** @return the address of the value's bytes the last get wrote into result */
    long resultData() {
        return result.get(ValueLayout.JAVA_LONG, pr_get_result.data$offset());
    }

    /** @return where the value of the last get is: this value buffer, or its pinned memory */
    MemorySegment resultSource(long length) {
        return resultPin() == 0 ? value : MemorySegment.ofAddress(resultData()).reinterpret(length);
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

        /** Copies a heap segment into the region (or a one-off segment) and returns the copy. */
        MemorySegment copyOf(MemorySegment heap) {
            MemorySegment target = fit(heap.byteSize());
            MemorySegment.copy(heap, 0, target, 0, heap.byteSize());
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

    /**
     * Whether this thread's next get should try memory first. A thread whose
     * memory-only gets keep needing I/O (a dataset larger than the block
     * cache) backs off, so it does not pay for two lookups per get.
     */
    boolean tryMemoryFirst() {
        if (memoryFirstSkips == 0) {
            return true;
        }
        memoryFirstSkips--;
        return false;
    }

    /** Records whether a memory-only get answered (false: it needed I/O). */
    void memoryFirstAnswered(boolean answered) {
        if (answered) {
            memoryFirstBackoff = 0;
        } else {
            memoryFirstBackoff = Math.min(MAX_MEMORY_FIRST_BACKOFF, memoryFirstBackoff * 2 + 1);
            memoryFirstSkips = memoryFirstBackoff;
        }
    }

    String message() {
        return err.getString(0);
    }
}
