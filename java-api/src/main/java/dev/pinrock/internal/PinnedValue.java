package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * What a binding's pinned read found: the value's address and length in
 * RocksDB's memory, and the pin that keeps that memory alive (0 for an empty
 * value, which needs none). Each pinned read makes one. The caller owns the
 * pin and hands it on exactly once: to {@link #read(Consumer)}, which
 * releases it, or to a {@link #view(Arena)}'s arena.
 */
public final class PinnedValue {
    private final LongConsumer releasePin;
    private final long address;
    private final long length;
    private final long pin;

    /** @param releasePin the binding's release of a non-zero pin */
    PinnedValue(long address, long length, long pin, LongConsumer releasePin) {
        this.address = address;
        this.length = length;
        this.pin = pin;
        this.releasePin = releasePin;
    }

    /** Releases a pin this binding reported; 0 is accepted. */
    private void release(long pin) {
        if (pin != 0) {
            releasePin.accept(pin);
        }
    }

    /**
     * Shows the value to reader through a read-only segment of a confined
     * arena of this call, closed before the pin is released, also when reader
     * throws. The value is taken first: reader may pin again on this thread.
     * Nothing is registered with the arena, so the JIT can remove it and the
     * segment when it inlines reader here.
     */
    public void read(Consumer<? super MemorySegment> reader) {
        long pin = this.pin;
        try (Arena call = Arena.ofConfined()) {
            reader.accept(MemorySegment.ofAddress(address).asReadOnly().reinterpret(length, call, null));
        } finally {
            release(pin);
        }
    }

    /**
     * The value as a read-only segment of arena, whose closing releases the
     * pin. When the segment cannot be made (the arena is closed or another
     * thread's), the pin is released at once and the failure thrown.
     */
    public MemorySegment view(Arena arena) {
        if (pin == 0) {
            return MemorySegment.NULL.reinterpret(0, arena, null).asReadOnly();
        }
        long pin = this.pin;
        try {
            return view(address, length, pin, arena, releasePin);
        } catch (RuntimeException | Error e) {
            releasePin.accept(pin);
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
