package dev.pinrock.internal;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;

/** A cursor reached through the JNI variant, filling the same native records as FFM. */
final class JniCursor extends NativeCursor {
    private final long handle;

    JniCursor(long handle) {
        this.handle = handle;
    }

    @Override
    protected int move(int op, MemorySegment key, long keyLength) {
        Segments.requireUsable(key);
        int status = move(handle, op, key.address(), keyLength, memory.entry.address());
        Reference.reachabilityFence(key);
        return status;
    }

    @Override
    protected int scan(int flags, long maxEntries, MemorySegment buf) {
        return scan(handle, flags, maxEntries, buf.address(), buf.byteSize(), memory.counts.address(),
                memory.entry.address());
    }

    @Override
    protected void refreshNative(long snapshot) {
        refresh(handle, snapshot);
    }

    @Override
    protected void closeNative() {
        close(handle);
    }

    private static native void refresh(long cursor, long snapshot);

    private static native int move(long cursor, int op, long key, long keyLength, long entry);

    private static native int scan(long cursor, int flags, long maxEntries, long buf, long bufCapacity, long counts,
            long entry);

    private static native void close(long cursor);
}
