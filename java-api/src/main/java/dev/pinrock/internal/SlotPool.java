package dev.pinrock.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A fixed number of slots holding objects for reuse: a thread takes one
 * with {@link #take()} and gives it back with {@link #giveBack(Object)}, so
 * the objects kept are at most the number of slots however many threads
 * (virtual ones included) use the pool. Each thread looks first in the slot
 * of its id, then in the next: a platform thread finds the object it gave
 * back (its memory still in its processor's cache) unless another thread
 * took it meanwhile, and two threads whose ids share a slot settle on one
 * slot each. Lock-free; an object the pool has no room for is left to the
 * garbage collector.
 *
 * @param <T> what the slots hold
 */
final class SlotPool<T> {
    /** Four slots per processor (a power of two, at least 16): takers rarely meet in one. */
    static final int SLOTS = Integer.highestOneBit(Math.max(16, Runtime.getRuntime().availableProcessors() * 4));

    private final AtomicReferenceArray<T> slots = new AtomicReferenceArray<>(SLOTS);

    /** @return an object given back earlier, or null when the thread's two slots are empty */
    T take() {
        int home = homeSlot();
        T pooled = take(home);
        return pooled != null ? pooled : take((home + 1) & (SLOTS - 1));
    }

    private T take(int slot) {
        T pooled = slots.getAcquire(slot);
        return pooled != null && slots.compareAndSet(slot, pooled, null) ? pooled : null;
    }

    /**
     * Keeps an object in the first empty one of the two slots {@link #take()}
     * looks in, else leaves it to the garbage collector. Two threads giving
     * back into one empty slot at once may both store; the one overwritten
     * is only dropped.
     */
    void giveBack(T object) {
        int home = homeSlot();
        if (!giveBack(home, object)) {
            giveBack((home + 1) & (SLOTS - 1), object);
        }
    }

    private boolean giveBack(int slot, T object) {
        if (slots.getPlain(slot) != null) {
            return false;
        }
        slots.setRelease(slot, object);
        return true;
    }

    private static int homeSlot() {
        return (int) Thread.currentThread().threadId() & (SLOTS - 1);
    }
}
