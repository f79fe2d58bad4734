package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.MemorySegment;

/** A cursor reached through FFM downcalls. */
final class FfmCursor extends NativeCursor {
    private final MemorySegment handle;

    FfmCursor(MemorySegment handle) {
        this.handle = handle;
    }

    @Override
    protected int move(int op, MemorySegment key, long keyLength) {
        try (Scratch scratch = Scratch.borrow()) {
            int status;
            try {
                status = (int) Downcalls.cursorMove().invokeExact(handle, op, key, keyLength, memory.entry, scratch.err,
                        Scratch.ERR_CAP);
            } catch (Throwable t) {
                throw unchecked(t);
            }
            return checked(status, scratch);
        }
    }

    @Override
    protected int scan(int flags, long maxEntries, MemorySegment buf) {
        try (Scratch scratch = Scratch.borrow()) {
            int status;
            try {
                Memory memory = this.memory;
                status = (int) Downcalls.cursorScan().invokeExact(handle, flags, maxEntries, buf, buf.byteSize(),
                        memory.entriesOut, memory.bytesOut, memory.entry, scratch.err, Scratch.ERR_CAP);
            } catch (Throwable t) {
                throw unchecked(t);
            }
            return checked(status, scratch);
        }
    }

    @Override
    protected void refreshNative(long snapshot) {
        try (Scratch scratch = Scratch.borrow()) {
            int status;
            try {
                status = (int) Downcalls.cursorRefresh().invokeExact(handle, MemorySegment.ofAddress(snapshot),
                        scratch.err, Scratch.ERR_CAP);
            } catch (Throwable t) {
                throw unchecked(t);
            }
            check(status, scratch);
        }
    }

    private static int checked(int status, Scratch scratch) {
        if (status != Downcalls.NOT_FOUND) {
            check(status, scratch);
        }
        return status;
    }

    @Override
    protected void closeNative() {
        try {
            Downcalls.cursorClose().invokeExact(handle);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }
}
