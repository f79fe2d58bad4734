package dev.pinrock.internal;

import static dev.pinrock.bindings.PinrockNative.PR_GET_PIN_IF_LARGER;
import static dev.pinrock.bindings.PinrockNative.PR_CODE_INCOMPLETE;
import static dev.pinrock.bindings.PinrockNative.PR_INGEST_MOVE;
import static dev.pinrock.bindings.PinrockNative.PR_NOT_FOUND;
import static dev.pinrock.bindings.PinrockNative.PR_OK;
import static dev.pinrock.bindings.PinrockNative.PR_RANGE_HAS_BEGIN;
import static dev.pinrock.bindings.PinrockNative.PR_RANGE_HAS_END;
import static dev.pinrock.bindings.PinrockNative.PR_READ_MEMORY_ONLY;
import static dev.pinrock.bindings.PinrockNative.pr_cursor_open$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_approximate_size$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_checkpoint$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_close$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_compact_range$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_create_family$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_delete$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_drop_family$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_family$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_family_id$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_family_names$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_family_release$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_flush$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_ingest$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_list_families$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_memory_usage$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_multi_get$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_multi_get_pinned$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_open$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_property$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_property_int$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_put$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_repair$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_set_closing$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_snapshot_create$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_snapshot_release$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_statistics$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_statistics_reset$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_write$handle;
import static dev.pinrock.bindings.PinrockNative.pr_engine_version$handle;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDbException;
import dev.pinrock.StatsLevel;
import dev.pinrock.bindings.PinrockNative;
import dev.pinrock.bindings.pr_histogram;

/**
 * The owner of an open database's (or column family's) native handle, and
 * the FFM binding's data path. Whichever binding reads and writes (see
 * {@link Binding}), every other call (open and close, options, column
 * families, snapshots, maintenance, statistics) is made here. Each operation
 * is one downcall through the handles that jextract generated from
 * pinrock.h. Calls use the method handles directly (not the generated
 * wrappers, which turn argument errors such as a closed arena into
 * AssertionError), so those errors reach the caller as the JDK throws them.
 */
public final class FfmDb implements DataPath {
    static {
        NativeLibrary.load();
    }

    /*
     * Each downcall handle is made on its first use, not when this class is
     * initialised: the JDK generates a class for every distinct signature
     * (milliseconds each at start-up), and a program that opens a database,
     * puts and gets needs a dozen of the sixty. The generated
     * PinrockNative.<function>$handle() accessors are lazy already (a holder
     * class each) and fold to a constant in compiled code, as a static final
     * field does; the four handles made here have holder classes of their own.
     * Their descriptors are written out below rather than taken from the
     * generated pr_<function>$descriptor() accessors, which would make the
     * generated handle as well (one more generated class at the first get);
     * FfmDbDescriptorsTest checks them against the generated ones.
     */

    /** pr_db_get's generated descriptor. */
    static final FunctionDescriptor GET_DESCRIPTOR = FunctionDescriptor.of(PinrockNative.C_INT,
            PinrockNative.C_POINTER, PinrockNative.C_POINTER, PinrockNative.C_LONG, PinrockNative.C_POINTER,
            PinrockNative.C_LONG, PinrockNative.C_INT, PinrockNative.C_POINTER, PinrockNative.C_POINTER,
            PinrockNative.C_LONG);
    /** pr_db_get_at's generated descriptor. */
    static final FunctionDescriptor GET_AT_DESCRIPTOR = FunctionDescriptor.of(PinrockNative.C_INT,
            PinrockNative.C_POINTER, PinrockNative.C_POINTER, PinrockNative.C_INT, PinrockNative.C_POINTER,
            PinrockNative.C_LONG, PinrockNative.C_POINTER, PinrockNative.C_LONG, PinrockNative.C_INT,
            PinrockNative.C_POINTER, PinrockNative.C_POINTER, PinrockNative.C_LONG);
    /** pr_pin_release's generated descriptor. */
    static final FunctionDescriptor PIN_RELEASE_DESCRIPTOR = FunctionDescriptor.ofVoid(PinrockNative.C_POINTER);

    /**
     * The gets take the database handle, the snapshot and the per-thread
     * result and error buffers as plain addresses (rawAddresses); the key and
     * the value buffer, which may be the caller's memory, stay segments.
     */
    private static final class Get {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                address("pr_db_get"), rawAddresses(GET_DESCRIPTOR, 0, 6, 7));
    }

    /** pr_db_get_at, with plain addresses as {@link Get}'s. */
    private static final class GetAt {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                address("pr_db_get_at"), rawAddresses(GET_AT_DESCRIPTOR, 0, 1, 8, 9));
    }

    /**
     * Releasing a pin only drops a reference (no I/O, no callback), so it runs
     * as a critical downcall: no thread-state transition. jextract cannot
     * express the option; the descriptor and address are the generated ones.
     */
    private static final class PinRelease {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                address("pr_pin_release"), PIN_RELEASE_DESCRIPTOR, Linker.Option.critical(false));
    }

    /**
     * pr_db_get_at as a critical downcall, for gets answered from memory
     * (PR_READ_MEMORY_ONLY): no thread-state transition. Heap access stays
     * off: passing heap segments made the JIT keep them (they allocated),
     * where copying through the scratch buffers allocates nothing. pinrock.h
     * promises that such a read
     * does no I/O and never calls back; one that would need I/O answers
     * PR_CODE_INCOMPLETE and is made again as a normal downcall.
     */
    private static final class GetInMemory {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                address("pr_db_get_at"), rawAddresses(GET_AT_DESCRIPTOR, 0, 1, 8, 9), Linker.Option.critical(false));
    }

    /**
     * At most this many bytes are copied inside a critical downcall, which
     * holds off the garbage collector while it runs; a larger value is pinned
     * there and copied afterwards.
     */
    private static final long CRITICAL_COPY_CAP = 64 * 1024;
    /** getInMemory's answer when the get must be made as a normal downcall. */
    private static final int NEEDS_NORMAL_GET = -1;

    private static final long ERR_CAP = Scratch.ERR_CAP;

    private final MemorySegment handle;
    /** handle's address, for the downcalls that take it as a plain address. */
    private final long handleAddress;
    /**
     * Whether gets try memory first. Not with statistics: a memory-only
     * attempt that misses would count as a second read (keys read, get
     * timings, block-cache misses) in figures users watch.
     */
    private final boolean memoryFirst;

    private FfmDb(MemorySegment handle, boolean memoryFirst) {
        this.handle = handle;
        this.handleAddress = handle.address();
        this.memoryFirst = memoryFirst;
    }

    /**
     * Returns the RocksDB version linked into libpinrock.so.
     *
     * @return major * 10000 + minor * 100 + patch
     */
    public static int engineVersion() {
        try {
            return (int) pr_engine_version$handle().invokeExact();
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Opens a database.
     *
     * @param path the database directory
     * @param options validated by the native layer
     * @param memoryBudget a memory budget's native handle, or 0
     * @return the open database
     */
    public static FfmDb open(Path path, DbOptions options, long memoryBudget) {
        Scratch scratch = Scratch.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dbOut = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment nativePath = NativeStrings.allocate(arena, path.toString(), "path");
            NativeOptions.with(options, memoryBudget, nativeOptions -> check(
                    (int) pr_db_open$handle().invokeExact(nativeOptions, nativePath, dbOut, scratch.err, ERR_CAP), scratch));
            return new FfmDb(dbOut.get(ValueLayout.ADDRESS, 0), options.statistics() == StatsLevel.OFF);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        Scratch scratch = Scratch.get();
        put(scratch, scratch.nativeKey(key), key.length, scratch.nativeInput(value), value.length);
    }

    @Override
    public void put(MemorySegment key, MemorySegment value) {
        Scratch scratch = Scratch.get();
        put(scratch, scratch.nativeKey(key), key.byteSize(), scratch.nativeInput(value), value.byteSize());
    }

    private void put(Scratch scratch, MemorySegment key, long keyLength, MemorySegment value, long valueLength) {
        int status;
        try {
            status = (int) pr_db_put$handle().invokeExact(handle, key, keyLength, value, valueLength, scratch.err, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        check(status, scratch);
    }

    @Override
    public void delete(byte[] key) {
        Scratch scratch = Scratch.get();
        delete(scratch, scratch.nativeKey(key), key.length);
    }

    @Override
    public void delete(MemorySegment key) {
        Scratch scratch = Scratch.get();
        delete(scratch, scratch.nativeKey(key), key.byteSize());
    }

    private void delete(Scratch scratch, MemorySegment key, long keyLength) {
        int status;
        try {
            status = (int) pr_db_delete$handle().invokeExact(handle, key, keyLength, scratch.err, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        check(status, scratch);
    }

    @Override
    public void write(MemorySegment batch, int flags) {
        Scratch scratch = Scratch.get();
        int status;
        try {
            status = (int) pr_db_write$handle().invokeExact(handle, batch, batch.byteSize(), flags, scratch.err, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        check(status, scratch);
    }

    /**
     * One get downcall: the value lands in the first bufCap bytes of buf when
     * it fits, else it is pinned (with PR_GET_PIN_IF_LARGER) or only
     * measured. Returns false when the key is absent; the outcome is then in
     * scratch.result. Reads with default read options take pr_db_get, others
     * pr_db_get_at.
     */
    private boolean get(Scratch scratch, long snapshot, int readFlags, MemorySegment key, long keyLength,
            MemorySegment buf, long bufCap, int flags) {
        int status;
        try {
            status = snapshot == 0 && readFlags == 0
                    ? (int) Get.HANDLE.invokeExact(handleAddress, key, keyLength, buf, bufCap, flags, scratch.resultAddress,
                            scratch.errAddress, ERR_CAP)
                    : (int) GetAt.HANDLE.invokeExact(handleAddress, snapshot, readFlags, key, keyLength, buf, bufCap, flags,
                            scratch.resultAddress, scratch.errAddress, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        if (status == PR_NOT_FOUND()) {
            return false;
        }
        check(status, scratch);
        return true;
    }

    @Override
    public byte[] get(byte[] key) {
        return get(key, 0L, 0);
    }

    @Override
    public byte[] get(byte[] key, long snapshot, int readFlags) {
        Scratch scratch = Scratch.get();
        // byte[] keys are copied into the scratch buffers rather than viewed
        // by heap segments, so that the call allocates nothing.
        if (!getMemoryFirst(scratch, snapshot, readFlags, scratch.nativeKey(key), key.length, scratch.value,
                Scratch.VALUE_CAP, PR_GET_PIN_IF_LARGER())) {
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

    /**
     * A get whose value lands in the first bufCap bytes of the native buf
     * (at most CRITICAL_COPY_CAP), or is pinned (with PR_GET_PIN_IF_LARGER)
     * or only measured: memory first, then a normal downcall.
     *
     * @return whether the key was found; the outcome is then in scratch.result
     */
    private boolean getMemoryFirst(Scratch scratch, long snapshot, int readFlags, MemorySegment nativeKey,
            long keyLength, MemorySegment buf, long bufCap, int flags) {
        int status = snapshot == 0 && readFlags == 0
                ? getInMemory(scratch, nativeKey, keyLength, buf, bufCap, flags)
                : NEEDS_NORMAL_GET;
        if (status == NEEDS_NORMAL_GET) {
            return get(scratch, snapshot, readFlags, nativeKey, keyLength, buf, bufCap, flags);
        }
        return status == PR_OK();
    }

    /** copyIfFits(Scratch, MemorySegment) into an array, without making a heap segment of it. */
    private static long copyIfFits(Scratch scratch, byte[] dst) {
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
    public int get(byte[] key, byte[] dst) {
        return get(key, dst, 0L, 0);
    }

    @Override
    public int get(byte[] key, byte[] dst, long snapshot, int readFlags) {
        // Small values come through the scratch buffer, larger ones through a
        // pin, in the same single downcall.
        Scratch scratch = Scratch.get();
        int flags = dst.length > Scratch.VALUE_CAP ? PR_GET_PIN_IF_LARGER() : 0;
        if (!getMemoryFirst(scratch, snapshot, readFlags, scratch.nativeKey(key), key.length, scratch.value,
                Math.min(dst.length, Scratch.VALUE_CAP), flags)) {
            return NOT_FOUND;
        }
        return clampToInt(copyIfFits(scratch, dst));
    }

    @Override
    public long get(MemorySegment key, MemorySegment dst) {
        return get(key, dst, 0L, 0);
    }

    private long get(MemorySegment key, MemorySegment dst, long snapshot, int readFlags) {
        Scratch scratch = Scratch.get();
        MemorySegment nativeKey = scratch.nativeKey(key);
        if (dst.isNative()) {
            // dst receives the value in the call; from memory, only up to the
            // critical copy cap: a larger value is pinned there and copied here.
            boolean capped = dst.byteSize() > CRITICAL_COPY_CAP;
            int status = snapshot == 0 && readFlags == 0
                    ? getInMemory(scratch, nativeKey, key.byteSize(), dst,
                            Math.min(dst.byteSize(), CRITICAL_COPY_CAP), capped ? PR_GET_PIN_IF_LARGER() : 0)
                    : NEEDS_NORMAL_GET;
            if (status == NEEDS_NORMAL_GET) {
                return get(scratch, snapshot, readFlags, nativeKey, key.byteSize(), dst, dst.byteSize(), 0)
                        ? scratch.resultLength()
                        : NOT_FOUND;
            }
            if (status != PR_OK()) {
                return NOT_FOUND;
            }
            // Copied into dst in the call, unless it was pinned.
            return scratch.resultPin() == 0 ? scratch.resultLength() : copyIfFits(scratch, dst);
        }
        // A heap destination: small values come through the scratch buffer,
        // larger ones through a pin, in the same single downcall.
        int flags = dst.byteSize() > Scratch.VALUE_CAP ? PR_GET_PIN_IF_LARGER() : 0;
        if (!getMemoryFirst(scratch, snapshot, readFlags, nativeKey, key.byteSize(), scratch.value,
                Math.min(dst.byteSize(), Scratch.VALUE_CAP), flags)) {
            return NOT_FOUND;
        }
        return copyIfFits(scratch, dst);
    }

    /**
     * Tries a get from memory only as a critical downcall (GET_IN_MEMORY),
     * unless the database keeps statistics or this thread's recent
     * memory-only gets needed I/O. key and buf are native; the value lands
     * in the first bufCap bytes of buf when it fits.
     *
     * @return PR_OK (scratch.result says where the value went), PR_NOT_FOUND,
     *     or NEEDS_NORMAL_GET
     */
    private int getInMemory(Scratch scratch, MemorySegment key, long keyLength, MemorySegment buf, long bufCap,
            int flags) {
        if (!memoryFirst || !scratch.tryMemoryFirst()) {
            return NEEDS_NORMAL_GET;
        }
        int status;
        try {
            status = (int) GetInMemory.HANDLE.invokeExact(handleAddress, 0L, PR_READ_MEMORY_ONLY(), key, keyLength, buf,
                    bufCap, flags, scratch.resultAddress, scratch.errAddress, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        boolean answered = status != PR_CODE_INCOMPLETE();
        scratch.memoryFirstAnswered(answered);
        if (!answered) {
            return NEEDS_NORMAL_GET;
        }
        if (status != PR_NOT_FOUND()) {
            check(status, scratch);
        }
        return status;
    }

    /**
     * Copies the value that scratch.result describes (in scratch.value or
     * pinned) into dst when it fits, and releases its pin if any.
     *
     * @return the value's length
     */
    private static long copyIfFits(Scratch scratch, MemorySegment dst) {
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

    @Override
    public PinnedValue pin(MemorySegment key) {
        Scratch scratch = Scratch.get();
        return pin(scratch, scratch.nativeKey(key), key.byteSize());
    }

    @Override
    public PinnedValue pin(byte[] key) {
        Scratch scratch = Scratch.get();
        return pin(scratch, scratch.nativeKey(key), key.length);
    }

    /** A get that pins whatever value it finds (an empty one fits the empty buffer: pin 0). */
    private PinnedValue pin(Scratch scratch, MemorySegment nativeKey, long keyLength) {
        if (!getMemoryFirst(scratch, 0L, 0, nativeKey, keyLength, MemorySegment.NULL, 0, PR_GET_PIN_IF_LARGER())) {
            return null;
        }
        return scratch.pinned.set(scratch.resultData(), scratch.resultLength(), scratch.resultPin());
    }

    /** Takes a snapshot; returns its native handle. */
    public long createSnapshot() {
        return word((scratch, arena) -> (int) pr_db_snapshot_create$handle().invokeExact(handle, scratch.word, scratch.err, ERR_CAP))
                .getAsLong();
    }

    /** Releases a snapshot handle; no read may be using it. */
    public void releaseSnapshot(long snapshot) {
        try {
            pr_db_snapshot_release$handle().invokeExact(handle, MemorySegment.ofAddress(snapshot));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    public byte[][] multiGet(byte[][] keys, int[] statuses) {
        int n = keys.length;
        byte[][] values = new byte[n][];
        try (Arena arena = Arena.ofConfined()) {
            MultiGet nativeKeys = new MultiGet(arena, keys);
            MemorySegment buf = Scratch.get().value;
            while (true) {
                multiGet(nativeKeys, buf);
                long needed = 0;
                boolean allCopied = true;
                for (int i = 0; i < n; i++) {
                    if (nativeKeys.status(i) == PR_OK()) {
                        long length = nativeKeys.valueLength(i);
                        if (length > Segments.MAX_ARRAY_BYTES) {
                            throw Segments.tooLargeForArray(length, "getPinned");
                        }
                        needed += length;
                        allCopied &= nativeKeys.valueOffset(i) != -1L;
                    }
                }
                if (allCopied) {
                    break;
                }
                // Values changed size between calls: the loop retries.
                buf = arena.allocate(needed);
            }
            for (int i = 0; i < n; i++) {
                statuses[i] = nativeKeys.status(i);
                if (statuses[i] == PR_OK()) {
                    values[i] = new byte[(int) nativeKeys.valueLength(i)];
                    MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, nativeKeys.valueOffset(i), values[i], 0,
                            values[i].length);
                }
            }
            return values;
        }
    }

    @Override
    public void multiGet(MultiGet keys, MemorySegment dst) {
        Scratch scratch = Scratch.get();
        try {
            check((int) pr_db_multi_get$handle().invokeExact(handle, keys.count, keys.pointers, keys.keyLengths, dst, dst.byteSize(),
                    keys.valueOffsets, keys.valueLengths, keys.statuses, scratch.err, ERR_CAP), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    public void multiGetPinned(MultiGet keys, MemorySegment results) {
        Scratch scratch = Scratch.get();
        try {
            check((int) pr_db_multi_get_pinned$handle().invokeExact(handle, keys.count, keys.pointers, keys.keyLengths, results,
                    keys.statuses, scratch.err, ERR_CAP), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Flushes this family's memtable into a table file. */
    public void flush() {
        call((scratch, arena) -> (int) pr_db_flush$handle().invokeExact(handle, scratch.err, ERR_CAP));
    }

    /** Compacts [begin, end) of this family; a null bound is open. */
    public void compactRange(byte[] begin, byte[] end) {
        int bounds = (begin != null ? PR_RANGE_HAS_BEGIN() : 0) | (end != null ? PR_RANGE_HAS_END() : 0);
        call((scratch, arena) -> {
            MemorySegment first = begin != null ? arena.allocateFrom(ValueLayout.JAVA_BYTE, begin) : MemorySegment.NULL;
            MemorySegment last = end != null ? arena.allocateFrom(ValueLayout.JAVA_BYTE, end) : MemorySegment.NULL;
            return (int) pr_db_compact_range$handle().invokeExact(handle, first, first.byteSize(), last, last.byteSize(), bounds,
                    scratch.err, ERR_CAP);
        });
    }

    /** Returns the approximate bytes [begin, end) of this family takes, in files and memtables. */
    public long approximateSize(byte[] begin, byte[] end) {
        return word((scratch, arena) -> {
            MemorySegment first = arena.allocateFrom(ValueLayout.JAVA_BYTE, begin);
            MemorySegment last = arena.allocateFrom(ValueLayout.JAVA_BYTE, end);
            return (int) pr_db_approximate_size$handle().invokeExact(handle, first, first.byteSize(), last, last.byteSize(),
                    scratch.word, scratch.err, ERR_CAP);
        }).getAsLong();
    }

    /** Writes an openable copy of the database into directory, which must not exist. */
    public void checkpoint(Path directory) {
        call((scratch, arena) -> (int) pr_db_checkpoint$handle().invokeExact(handle,
                NativeStrings.allocate(arena, directory.toString(), "directory"), scratch.err, ERR_CAP));
    }

    /** Adds finished table files to this family atomically, moving them when move is set. */
    public void ingest(String[] files, boolean move) {
        call((scratch, arena) -> {
            MemorySegment paths = arena.allocate(ValueLayout.ADDRESS, Math.max(1, files.length));
            for (int i = 0; i < files.length; i++) {
                paths.setAtIndex(ValueLayout.ADDRESS, i, NativeStrings.allocate(arena, files[i], "file"));
            }
            return (int) pr_db_ingest$handle().invokeExact(handle, paths, (long) files.length, move ? PR_INGEST_MOVE() : 0,
                    scratch.err, ERR_CAP);
        });
    }

    /** Returns the integer property, or -1 when RocksDB knows no integer property of that name. */
    public long propertyLong(String name) {
        return word((scratch, arena) -> (int) pr_db_property_int$handle().invokeExact(handle, NativeStrings.allocate(arena, name,
                "name"), scratch.word, scratch.err, ERR_CAP)).orElse(-1);
    }

    /** Returns the string property, or null when RocksDB knows no property of that name. */
    public String property(String name) {
        Scratch scratch = Scratch.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeName = NativeStrings.allocate(arena, name, "name");
            MemorySegment buf = scratch.value;
            while (true) {
                int status = (int) pr_db_property$handle().invokeExact(handle, nativeName, buf, buf.byteSize(), scratch.word,
                        scratch.err, ERR_CAP);
                if (status == PR_NOT_FOUND()) {
                    return null;
                }
                check(status, scratch);
                long length = scratch.word.get(ValueLayout.JAVA_LONG, 0);
                if (length <= buf.byteSize()) {
                    return new String(buf.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
                }
                buf = arena.allocate(length);
            }
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Reads every statistic (pr_db_statistics) into native arrays: a uint64
     * per ticker and a pr_histogram per histogram, in the order of
     * {@link NativeStatistics}.
     */
    public void statistics(MemorySegment tickers, MemorySegment histograms) {
        call((scratch, arena) -> (int) pr_db_statistics$handle().invokeExact(handle, tickers,
                tickers.byteSize() / ValueLayout.JAVA_LONG.byteSize(), histograms,
                histograms.byteSize() / pr_histogram.layout().byteSize(), scratch.err, ERR_CAP));
    }

    /** Resets every statistic to zero. */
    public void resetStatistics() {
        call((scratch, arena) -> (int) pr_db_statistics_reset$handle().invokeExact(handle, scratch.err, ERR_CAP));
    }

    /** Fills a native pr_memory_usage (pr_db_memory_usage). */
    public void memoryUsage(MemorySegment usage) {
        call((scratch, arena) -> (int) pr_db_memory_usage$handle().invokeExact(handle, usage, scratch.err, ERR_CAP));
    }

    @Override
    public NativeCursor openCursor(long snapshot, int readFlags, long readaheadBytes, byte[] lower, byte[] upper) {
        Scratch scratch = Scratch.get();
        int bounds = (lower != null ? PR_RANGE_HAS_BEGIN() : 0) | (upper != null ? PR_RANGE_HAS_END() : 0);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment first = lower != null ? arena.allocateFrom(ValueLayout.JAVA_BYTE, lower) : MemorySegment.NULL;
            MemorySegment last = upper != null ? arena.allocateFrom(ValueLayout.JAVA_BYTE, upper) : MemorySegment.NULL;
            check((int) pr_cursor_open$handle().invokeExact(handle, MemorySegment.ofAddress(snapshot), readFlags, readaheadBytes,
                    first, first.byteSize(), last, last.byteSize(), bounds, scratch.word, scratch.err, ERR_CAP),
                    scratch);
            return new FfmCursor(scratch.word.get(ValueLayout.ADDRESS, 0));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** The column families of the database at path (pr_db_list_families). */
    public static List<String> listFamilies(Path path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativePath = NativeStrings.allocate(arena, path.toString(), "path");
            return names((buf, length, scratch) -> (int) pr_db_list_families$handle().invokeExact(MemorySegment.NULL, nativePath,
                    buf, buf.byteSize(), length, scratch.err, ERR_CAP));
        }
    }

    /**
     * Rebuilds the metadata of the closed database at path (RocksDB's RepairDB).
     *
     * @param path the absolute database directory
     * @param options the options the database is opened with
     */
    public static void repair(Path path, DbOptions options) {
        Scratch scratch = Scratch.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativePath = NativeStrings.allocate(arena, path.toString(), "path");
            NativeOptions.with(options, 0, nativeOptions -> check(
                    (int) pr_db_repair$handle().invokeExact(nativeOptions, nativePath, scratch.err, ERR_CAP), scratch));
        }
    }

    /** A call that writes NUL-terminated names into buf and their full length into length. */
    private interface NamesCall {
        int run(MemorySegment buf, MemorySegment length, Scratch scratch) throws Throwable;
    }

    /** Runs a names call, with a larger buffer when the first was too small, and splits its names. */
    private static List<String> names(NamesCall call) {
        Scratch scratch = Scratch.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = scratch.value;
            while (true) {
                check(call.run(buf, scratch.word, scratch), scratch);
                long length = scratch.word.get(ValueLayout.JAVA_LONG, 0);
                if (length <= buf.byteSize()) {
                    // Each name ends with a NUL and contains none.
                    String joined = new String(buf.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE),
                            StandardCharsets.UTF_8);
                    return joined.isEmpty() ? List.of()
                            : List.of(joined.substring(0, joined.length() - 1).split("\0", -1));
                }
                buf = arena.allocate(length);
            }
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Finds an open column family of this database.
     *
     * @return its handle, or null when there is none of that name
     */
    public FfmDb family(String name) {
        OptionalLong family = word((scratch, arena) -> (int) pr_db_family$handle().invokeExact(handle,
                NativeStrings.allocate(arena, name, "name"), scratch.word, scratch.err, ERR_CAP));
        return family.isPresent() ? new FfmDb(MemorySegment.ofAddress(family.getAsLong()), memoryFirst) : null;
    }

    /**
     * Creates a column family.
     *
     * @param options its options, or null for those of the default family
     * @param memoryBudget the database's memory budget handle, or 0
     * @return its handle
     */
    public FfmDb createFamily(String name, DbOptions options, long memoryBudget) {
        long family = word((scratch, arena) -> {
            MemorySegment nativeName = NativeStrings.allocate(arena, name, "name");
            if (options == null) {
                return (int) pr_db_create_family$handle().invokeExact(handle, MemorySegment.NULL, nativeName, scratch.word,
                        scratch.err, ERR_CAP);
            }
            int[] status = new int[1];
            NativeOptions.with(options, memoryBudget, nativeOptions -> status[0] = (int) pr_db_create_family$handle().invokeExact(
                    handle, nativeOptions, nativeName, scratch.word, scratch.err, ERR_CAP));
            return status[0];
        }).getAsLong();
        return new FfmDb(MemorySegment.ofAddress(family), memoryFirst);
    }

    /** Drops this handle's column family; the handle stays valid (writes fail) until {@link #releaseFamily()}. */
    public void dropFamily() {
        call((scratch, arena) -> (int) pr_db_drop_family$handle().invokeExact(handle, scratch.err, ERR_CAP));
    }

    /**
     * Frees this dropped family's handle, and what RocksDB keeps of the family (its
     * memtables, its part in write stalls), once cursors opened on it have closed. The
     * handle must not be used afterwards: call with no call on it in flight.
     */
    public void releaseFamily() {
        call((scratch, arena) -> (int) pr_db_family_release$handle().invokeExact(handle, scratch.err, ERR_CAP));
    }

    /**
     * Marks the database closing, or open again: while closing, writes waiting out a write
     * stall give up with {@link dev.pinrock.StatusCode#SHUTDOWN_IN_PROGRESS}. Safe during any
     * call but {@link #close()}.
     */
    public void setClosing(boolean closing) {
        try {
            pr_db_set_closing$handle().invokeExact(handle, closing ? 1 : 0);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** @return the names of this database's open column families */
    public List<String> familyNames() {
        return names((buf, length, scratch) -> (int) pr_db_family_names$handle().invokeExact(handle, buf, buf.byteSize(), length,
                scratch.err, ERR_CAP));
    }

    /** @return this handle's column family id, as write batch records name it */
    public int familyId() {
        try {
            return (int) pr_db_family_id$handle().invokeExact(handle);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** @return the native pr_db_t* of this handle, for the JNI variant's data path */
    long address() {
        return handleAddress;
    }

    /** Closes the native database; called exactly once, when no other call is in flight. */
    public void close() {
        Scratch scratch = Scratch.get();
        int status;
        try {
            status = (int) pr_db_close$handle().invokeExact(handle, scratch.err, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        check(status, scratch);
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
            PinRelease.HANDLE.invokeExact(pin);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** A rarely used downcall, given this thread's scratch and an arena for its arguments; returns its status. */
    @FunctionalInterface
    interface Downcall {
        int run(Scratch scratch, Arena arena) throws Throwable;
    }

    /**
     * Makes a rarely used downcall: its arguments live in an arena closed
     * after it, a failure status is thrown as a RocksDbException, and what the
     * method handle throws is passed on unchecked.
     */
    static void call(Downcall downcall) {
        Scratch scratch = Scratch.get();
        try (Arena arena = Arena.ofConfined()) {
            check(downcall.run(scratch, arena), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * {@link #call(Downcall)} for a downcall that answers a word (in scratch.word) or PR_NOT_FOUND.
     *
     * @return the word, or empty when the call answered PR_NOT_FOUND
     */
    static OptionalLong word(Downcall downcall) {
        Scratch scratch = Scratch.get();
        try (Arena arena = Arena.ofConfined()) {
            int status = downcall.run(scratch, arena);
            if (status == PR_NOT_FOUND()) {
                return OptionalLong.empty();
            }
            check(status, scratch);
            return OptionalLong.of(scratch.word.get(ValueLayout.JAVA_LONG, 0));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    static void check(int status, Scratch scratch) {
        if (status != PR_OK()) {
            throw RocksDbException.of(status, scratch.message());
        }
    }

    private static int clampToInt(long length) {
        return (int) Math.min(length, Integer.MAX_VALUE);
    }

    /** The address of one of libpinrock.so's functions (loaded by this class's loader). */
    private static MemorySegment address(String function) {
        Optional<MemorySegment> found = SymbolLookup.loaderLookup().find(function);
        if (found.isEmpty()) {
            throw new UnsatisfiedLinkError("unresolved symbol: " + function);
        }
        return found.get();
    }

    /**
     * The generated descriptor of a pinrock function with the pointer
     * arguments at the given positions taken as plain addresses (JAVA_LONG,
     * passed as a pointer is on the 64-bit Linux ABI). The linker acquires,
     * checks and releases the memory session of every segment argument, a
     * few calls each that C2 did not inline into the gets; that guards
     * memory another thread could free during the call. Only what needs no
     * such guard goes as an address: handles, which were bare addresses
     * already (a database's ResourceGuard holds off its closing), and the
     * thread's Scratch buffers (reachable from the thread while it lives).
     *
     * @throws IllegalStateException if an argument at those positions is not a pointer
     */
    private static FunctionDescriptor rawAddresses(FunctionDescriptor generated, int... positions) {
        MemoryLayout[] arguments = generated.argumentLayouts().toArray(new MemoryLayout[0]);
        for (int position : positions) {
            if (!(arguments[position] instanceof AddressLayout)) {
                throw new IllegalStateException("argument " + position + " of " + generated + " is not a pointer");
            }
            arguments[position] = ValueLayout.JAVA_LONG;
        }
        return generated.returnLayout()
                .map(result -> FunctionDescriptor.of(result, arguments))
                .orElseGet(() -> FunctionDescriptor.ofVoid(arguments));
    }


    /** Rethrows what a downcall threw: unchecked as it is, anything else wrapped. */
    static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("unexpected checked exception from a downcall", t);
    }
}
