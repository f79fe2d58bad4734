package dev.pinrock.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Makes closing a native resource safe against concurrent use: every call
 * holds the guard while it uses the native handle; {@link #close(Runnable)}
 * first refuses new calls, then waits for the calls in flight to return, and
 * only then releases the native resource. Close is idempotent and
 * thread-safe: a second closer waits until the first has finished. A call
 * must not close the guard it holds.
 */
public final class ResourceGuard {
    /** Set in {@link #state} once closing has begun; the other bits count calls in flight. */
    private static final int CLOSING = 0x8000_0000;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ResourceGuard.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private volatile int state;
    /** Guarded by this: whether the native resource has been released. */
    private boolean released;

    /**
     * Creates an open guard.
     *
     * @param name what the guard protects, for the message of a use after close
     */
    public ResourceGuard(String name) {
        this.name = name;
    }

    /**
     * Marks one call in flight; pair with {@link #release()} in a finally block.
     *
     * @throws IllegalStateException when the resource is closed or closing
     */
    public void acquire() {
        if (!tryAcquire()) {
            throw new IllegalStateException(name + " is closed");
        }
    }

    /**
     * Marks one call in flight unless the resource is closed or closing;
     * pair a true result with {@link #release()} in a finally block.
     *
     * @return whether the call may go on
     */
    public boolean tryAcquire() {
        int current;
        do {
            current = state;
            if ((current & CLOSING) != 0) {
                return false;
            }
        } while (!STATE.weakCompareAndSet(this, current, current + 1));
        return true;
    }

    /** Ends a call started by {@link #acquire()}. */
    public void release() {
        STATE.getAndAdd(this, -1);
    }

    /**
     * Refuses new calls, waits until no call is in flight, then runs
     * {@code releaseResource} exactly once over the guard's life. Later or
     * concurrent closers return once the resource is released.
     *
     * @param releaseResource frees the native resource; what it throws reaches the first closer
     */
    public synchronized void close(Runnable releaseResource) {
        if (released) {
            return;
        }
        STATE.getAndBitwiseOr(this, CLOSING);
        int spins = 0;
        while ((state & ~CLOSING) != 0) {
            if (++spins < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        released = true;
        releaseResource.run();
    }

    /** @return whether closing has begun (calls are refused) */
    public boolean isClosed() {
        return (state & CLOSING) != 0;
    }
}
