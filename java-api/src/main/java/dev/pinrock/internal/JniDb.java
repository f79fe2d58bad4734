package dev.pinrock.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.List;

import dev.pinrock.DbOptions;
import dev.pinrock.bindings.pr_histogram;

/**
 * The JNI variant: the same pinrock.h calls as {@link FfmDb}, made through
 * JNI entry points in the same libpinrock.so, so JMH can compare the two
 * boundaries on one engine and one contract suite can prove they behave and
 * fail alike. Not public API: a JNI call cannot hold a shared arena's segment
 * alive the way an FFM downcall does, so a segment of a shared arena closed
 * by another thread during a call is not protected here. Native segments are
 * checked for liveness and thread before each call and kept reachable during
 * it; heap ones are copied. Strings (paths, property names) pass the same
 * {@link NativeStrings} check as through FFM, but reach native code as JNI's
 * modified UTF-8: a character outside the Basic Multilingual Plane arrives
 * as its two surrogates' 3-byte forms, not the 4-byte UTF-8 that FFM passes.
 */
public final class JniDb implements NativeDb {
    /** What each thread's last pinned read found. */
    private static final ThreadLocal<PinnedValue> PINNED =
            ThreadLocal.withInitial(() -> new PinnedValue(JniDb::releasePin));

    static {
        NativeLibrary.load();
    }

    private final long handle;

    private JniDb(long handle) {
        this.handle = handle;
    }

    /**
     * Opens a database through JNI. The options are built by the same code
     * as for FFM ({@link FfmDb#withNativeOptions}): only the data calls are
     * what the JNI variant compares.
     *
     * @param path the database directory
     * @param options validated by the native layer
     * @param memoryBudget a memory budget's native handle, or 0
     * @return the open database
     */
    public static JniDb open(Path path, DbOptions options, long memoryBudget) {
        String nativePath = NativeStrings.require(path.toString(), "path");
        long[] handle = new long[1];
        FfmDb.withNativeOptions(options, memoryBudget,
                nativeOptions -> handle[0] = open(nativeOptions.address(), nativePath));
        return new JniDb(handle[0]);
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
    public long createSnapshot() {
        return createSnapshot(handle);
    }

    @Override
    public void releaseSnapshot(long snapshot) {
        releaseSnapshot(handle, snapshot);
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
    public void flush() {
        flush(handle);
    }

    @Override
    public String property(String name) {
        return property(handle, NativeStrings.require(name, "name"));
    }

    @Override
    public void compactRange(byte[] begin, byte[] end) {
        compactRange(handle, begin, end);
    }

    @Override
    public long approximateSize(byte[] begin, byte[] end) {
        return approximateSize(handle, begin, end);
    }

    @Override
    public void checkpoint(Path directory) {
        checkpoint(handle, NativeStrings.require(directory.toString(), "directory"));
    }

    @Override
    public long propertyLong(String name) {
        return propertyLong(handle, NativeStrings.require(name, "name"));
    }

    @Override
    public void ingest(String[] files, boolean move) {
        for (String file : files) {
            NativeStrings.require(file, "file");
        }
        ingest(handle, files, move);
    }

    @Override
    public void statistics(MemorySegment tickers, MemorySegment histograms) {
        statistics(handle, tickers.address(), tickers.byteSize() / Long.BYTES, histograms.address(),
                histograms.byteSize() / pr_histogram.layout().byteSize());
        Reference.reachabilityFence(tickers);
        Reference.reachabilityFence(histograms);
    }

    @Override
    public void resetStatistics() {
        resetStatistics(handle);
    }

    @Override
    public void memoryUsage(MemorySegment usage) {
        memoryUsage(handle, usage.address());
        Reference.reachabilityFence(usage);
    }

    // Column families are managed through FFM on the same native handle:
    // only the data calls are what the JNI variant compares.

    @Override
    public NativeDb family(String name) {
        long family = FfmDb.family(handle, name);
        return family == 0 ? null : new JniDb(family);
    }

    @Override
    public NativeDb createFamily(String name, DbOptions options, long memoryBudget) {
        return new JniDb(FfmDb.createFamily(handle, name, options, memoryBudget));
    }

    @Override
    public void dropFamily() {
        FfmDb.dropFamily(handle);
    }

    @Override
    public void releaseFamily() {
        FfmDb.releaseFamily(handle);
    }

    @Override
    public void setClosing(boolean closing) {
        FfmDb.setClosing(handle, closing);
    }

    @Override
    public List<String> familyNames() {
        return FfmDb.familyNames(handle);
    }

    @Override
    public int familyId() {
        return FfmDb.familyId(handle);
    }

    @Override
    public NativeCursor openCursor(long snapshot, int readFlags, long readaheadBytes, byte[] lower, byte[] upper) {
        return new JniCursor(openCursor(handle, snapshot, readFlags, readaheadBytes, lower, upper));
    }

    @Override
    public void close() {
        close(handle);
    }

    private static native long open(long options, String path);

    private static native void close(long db);

    private static native void multiGetInto(long db, long count, long keys, long keyLengths, long dst,
            long dstCapacity, long valueOffsets, long valueLengths, long statuses);

    private static native void multiGetPinned(long db, long count, long keys, long keyLengths, long results,
            long statuses);

    private static native void statistics(long db, long tickers, long tickerCount, long histograms,
            long histogramCount);

    private static native void resetStatistics(long db);

    private static native void memoryUsage(long db, long usage);

    private static native long openCursor(long db, long snapshot, int readFlags, long readaheadBytes, byte[] lower,
            byte[] upper);

    private static native void put(long db, byte[] key, byte[] value);

    private static native void putAddress(long db, long key, long keyLength, long value, long valueLength);

    private static native void write(long db, long batch, long batchLength, int flags);

    private static native void delete(long db, byte[] key);

    private static native void deleteAddress(long db, long key, long keyLength);

    private static native byte[] get(long db, long snapshot, int readFlags, byte[] key);

    private static native int getInto(long db, long snapshot, int readFlags, byte[] key, byte[] dst);

    private static native long createSnapshot(long db);

    private static native void releaseSnapshot(long db, long snapshot);

    private static native long getAddress(long db, long key, long keyLength, long dst, long dstCapacity);

    /** Returns the pin (0 for an empty value), or NOT_FOUND; fills {data address, length}. */
    private static native long getPinned(long db, byte[] key, long[] dataAndLength);

    private static native void releasePin(long pin);

    private static native byte[][] multiGet(long db, byte[][] keys, int[] statuses);

    private static native void flush(long db);

    private static native String property(long db, String name);

    private static native void compactRange(long db, byte[] begin, byte[] end);

    private static native long approximateSize(long db, byte[] begin, byte[] end);

    private static native void checkpoint(long db, String path);

    private static native long propertyLong(long db, String name);

    private static native void ingest(long db, String[] files, boolean move);
}
