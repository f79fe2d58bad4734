package dev.pinrock.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import dev.pinrock.RocksDbException;
import dev.pinrock.StatusCode;

/** Checks on caller segments that no memory access makes for us, and copies into arrays. */
public final class Segments {
    /** The longest byte[] the JDK makes (a few bytes short of 2^31). */
    public static final long MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

    private Segments() {
    }

    /**
     * Copies a key or value out of native memory into a new array.
     *
     * @param bytes the key or value
     * @param readItWith the call that reads it without an array, named in the exception
     * @return the copy
     * @throws RocksDbException.InvalidArgumentException when it is longer than an array holds
     */
    public static byte[] toArray(MemorySegment bytes, String readItWith) {
        if (bytes.byteSize() > MAX_ARRAY_BYTES) {
            throw tooLargeForArray(bytes.byteSize(), readItWith);
        }
        return bytes.toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The exception for a key or value that no byte[] can hold.
     *
     * @param length its length in bytes
     * @param readItWith the call that reads it without an array
     * @return an exception with status INVALID_ARGUMENT, to throw
     */
    public static RocksDbException tooLargeForArray(long length, String readItWith) {
        return RocksDbException.of(StatusCode.INVALID_ARGUMENT.nativeCode(), "Invalid argument: the value has "
                + length + " bytes, more than a Java array holds; read it with " + readItWith);
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
