package dev.pinrock.internal;

import java.lang.foreign.MemorySegment;

/** Checks on caller segments that no memory access makes for us. */
public final class Segments {
    private Segments() {
    }

    /**
     * Throws what an FFM access or downcall would for segment when its arena
     * is closed or confined to another thread: for the paths that pass a
     * segment's address on without touching it (JNI, a read that finds nothing).
     *
     * @param segment the segment about to be used, or that would have been
     * @throws IllegalStateException when its arena is closed
     * @throws WrongThreadException when its arena is confined to another thread
     */
    public static void requireUsable(MemorySegment segment) {
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("Already closed");
        }
        if (!segment.isAccessibleBy(Thread.currentThread())) {
            throw new WrongThreadException("Attempted access outside owning thread");
        }
    }
}
