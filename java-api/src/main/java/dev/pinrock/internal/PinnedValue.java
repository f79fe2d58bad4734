package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.LongConsumer;

/**
 * What a binding's pinned read found: the value's address and length in
 * RocksDB's memory, and the pin that keeps that memory alive (0 for an empty
 * value, which needs none). A binding keeps one per thread and refills it at
 * the thread's next pinned read, so callers take what they need before they
 * read again. The caller owns the pin and releases it exactly once, with
 * {@link #release(long)} or through a view's arena.
 */
public final class PinnedValue {
    private final LongConsumer releasePin;
    private long address;
    private long length;
    private long pin;

    /** @param releasePin the binding's release of a non-zero pin */
    PinnedValue(LongConsumer releasePin) {
        this.releasePin = releasePin;
    }

    PinnedValue set(long address, long length, long pin) {
        this.address = address;
        this.length = length;
        this.pin = pin;
        return this;
    }

    public long address() {
        return address;
    }

    public long length() {
        return length;
    }

    public long pin() {
        return pin;
    }

    /** Releases a pin this binding reported; 0 is accepted. */
    public void release(long pin) {
        if (pin != 0) {
            releasePin.accept(pin);
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
