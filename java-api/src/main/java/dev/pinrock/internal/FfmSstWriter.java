package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

import dev.pinrock.DbOptions;

/** The table-file writer of pinrock.h (pr_sst_writer_*) through FFM, for {@code dev.pinrock.SstFileWriter}. */
public final class FfmSstWriter {
    private final MemorySegment handle;

    private FfmSstWriter(MemorySegment handle) {
        this.handle = handle;
    }

    /** Opens a writer of a new table file compressed as options say. */
    public static FfmSstWriter open(Path path, DbOptions options) {
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment nativePath = NativeStrings.allocate(arena, path.toString(), "path");
            NativeOptions.with(options, SharedHandles.NONE, nativeOptions -> check(
                    (int) Downcalls.sstWriterOpen().invokeExact(nativeOptions, nativePath, out, scratch.err, Scratch.ERR_CAP), scratch));
            return new FfmSstWriter(out.get(ValueLayout.ADDRESS, 0));
        }
    }

    /** Adds key -> value; keys strictly ascending. */
    public void put(MemorySegment key, MemorySegment value) {
        try (Scratch scratch = Scratch.borrow()) {
            MemorySegment nativeKey = scratch.nativeKey(key);
            MemorySegment nativeValue = scratch.nativeInput(value);
            check((int) Downcalls.sstWriterPut().invokeExact(handle, nativeKey, key.byteSize(), nativeValue,
                    value.byteSize(), scratch.err, Scratch.ERR_CAP), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Adds a deletion of key; keys strictly ascending. */
    public void delete(MemorySegment key) {
        try (Scratch scratch = Scratch.borrow()) {
            MemorySegment nativeKey = scratch.nativeKey(key);
            check((int) Downcalls.sstWriterDelete().invokeExact(handle, nativeKey, key.byteSize(), scratch.err,
                    Scratch.ERR_CAP), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Completes the file; returns its size. */
    public long finish() {
        try (Scratch scratch = Scratch.borrow()) {
            check((int) Downcalls.sstWriterFinish().invokeExact(handle, scratch.word, scratch.err, Scratch.ERR_CAP),
                    scratch);
            return scratch.word.get(ValueLayout.JAVA_LONG, 0);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Frees the writer; called once. */
    public void destroy() {
        try {
            Downcalls.sstWriterDestroy().invokeExact(handle);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }
}
