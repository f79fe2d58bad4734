package dev.pinrock.internal;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;

/**
 * Segments of the bytes between a {@link ByteBuffer}'s position and limit,
 * for the ByteBuffer overloads of the public API.
 *
 * <p>{@link MemorySegment#ofBuffer} makes a new memory session and segment
 * on every call (72 B on JDK 25, which escape analysis does not remove). A
 * caller that reads into the same buffer again and again would allocate on
 * every read, so each thread remembers, per role, the last buffer it was
 * given and the segment of that buffer's whole capacity, which it returns as
 * it is or sliced to the buffer's current position and limit. A buffer's address,
 * capacity and read-only state never change, and the cached segment has the
 * buffer's own memory session, so every liveness and thread check that a
 * fresh {@code ofBuffer} segment gets still applies.
 *
 * <p>Both the buffer and its segment are held weakly: the cache never keeps a
 * buffer (or its native memory) alive. After a garbage collection clears
 * them the next call makes a new segment.
 */
public final class BufferSegments {
    private static final ThreadLocal<BufferSegments> PER_THREAD = ThreadLocal.withInitial(BufferSegments::new);

    private final Slot keys = new Slot();
    private final Slot values = new Slot();

    private BufferSegments() {
    }

    /** @return a segment of key's bytes from its position to its limit */
    public static MemorySegment ofKey(ByteBuffer key) {
        return PER_THREAD.get().keys.segmentOf(key);
    }

    /** @return a segment of the bytes from the buffer's position to its limit, for a value or a destination */
    public static MemorySegment ofValue(ByteBuffer value) {
        return PER_THREAD.get().values.segmentOf(value);
    }

    /** The last buffer of one role on this thread, and the segment of its whole capacity. */
    private static final class Slot {
        private WeakReference<ByteBuffer> buffer = new WeakReference<>(null);
        private WeakReference<MemorySegment> wholeBuffer = new WeakReference<>(null);

        MemorySegment segmentOf(ByteBuffer given) {
            MemorySegment whole = wholeBuffer.get();
            if (whole == null || buffer.get() != given) {
                whole = MemorySegment.ofBuffer(given.duplicate().clear());
                buffer = new WeakReference<>(given);
                wholeBuffer = new WeakReference<>(whole);
            }
            int position = given.position();
            int limit = given.limit();
            // A buffer used whole gets the cached segment itself: a slice may
            // be allocated when escape analysis does not reach the native call.
            return position == 0 && limit == given.capacity() ? whole : whole.asSlice(position, limit - position);
        }
    }
}
