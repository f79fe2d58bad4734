package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * What is done with a value a pinned read found ({@link KeyPath#pin}): its
 * address and length in RocksDB's memory, and the pin that keeps that memory
 * alive (0 for an empty value, which needs none). The caller owns the pin and
 * hands it on exactly once: to {@link #read}, which releases it, or to a
 * {@link #view}'s arena. No object stands for the pinned value, so a pinned
 * read allocates nothing whatever the JIT inlines.
 */
public final class PinnedValue {
    private PinnedValue() {
    }

    /**
     * Shows the value to reader through a read-only segment of a confined
     * arena of this call, closed before the pin is released, also when reader
     * throws. Nothing is registered with the arena, so the JIT can remove it
     * and the segment when it inlines reader here.
     */
    public static void read(long address, long length, long pin, KeyPath path, Consumer<? super MemorySegment> reader) {
        try (Arena call = Arena.ofConfined()) {
            reader.accept(MemorySegment.ofAddress(address).asReadOnly().reinterpret(length, call, null));
        } finally {
            path.release(pin);
        }
    }

    /**
     * The value as a read-only segment of arena, whose closing releases the
     * pin. When the segment cannot be made (the arena is closed or another
     * thread's), the pin is released at once and the failure thrown.
     */
    public static MemorySegment view(long address, long length, long pin, KeyPath path, Arena arena) {
        if (pin == 0) {
            return MemorySegment.NULL.reinterpret(0, arena, null).asReadOnly();
        }
        try {
            return view(address, length, pin, arena, path::release);
        } catch (RuntimeException | Error e) {
            path.release(pin);
            throw e;
        }
    }

    /**
     * A read-only segment of pinned memory in arena, whose closing releases
     * the (non-zero) pin; when this throws, the pin is still the caller's.
     * The release captures the pin's address rather than a segment, and the
     * view is made read-only before it is scoped, so that only what the arena
     * keeps is allocated.
     */
    static MemorySegment view(long address, long length, long pin, Arena arena, LongConsumer releasePin) {
        return MemorySegment.ofAddress(address).asReadOnly()
                .reinterpret(length, arena, unused -> releasePin.accept(pin));
    }
}
