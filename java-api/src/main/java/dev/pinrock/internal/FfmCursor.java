package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A cursor reached through FFM downcalls. */
final class FfmCursor extends NativeCursor {
    private final MemorySegment handle;
    private final MemorySegment entriesOut = counts.asSlice(0, ValueLayout.JAVA_LONG.byteSize());
    private final MemorySegment bytesOut = counts.asSlice(ValueLayout.JAVA_LONG.byteSize());

    FfmCursor(MemorySegment handle) {
        this.handle = handle;
    }

    @Override
    protected int move(int op, MemorySegment key, long keyLength) {
        try (Scratch scratch = Scratch.borrow()) {
            int status;
            try {
                status = (int) Downcalls.cursorMove().invokeExact(handle, op, key, keyLength, entry, scratch.err,
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
                status = (int) Downcalls.cursorScan().invokeExact(handle, flags, maxEntries, buf, buf.byteSize(),
                        entriesOut, bytesOut, entry, scratch.err, Scratch.ERR_CAP);
            } catch (Throwable t) {
                throw unchecked(t);
            }
            return checked(status, scratch);
        }
    }

    private static int checked(int status, Scratch scratch) {
        if (status != Downcalls.NOT_FOUND) {
            check(status, scratch);
        }
        return status;
    }

    @Override
    public void close() {
        try {
            Downcalls.cursorClose().invokeExact(handle);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }
}
