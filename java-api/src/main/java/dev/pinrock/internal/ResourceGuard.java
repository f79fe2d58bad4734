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
 *
 * <p>An {@linkplain #exclusive(String) exclusive} guard admits one call at a
 * time, for a native resource that is not thread-safe (a RocksDB iterator or
 * table-file writer): a call arriving while another is in flight is refused
 * with {@link IllegalStateException} instead of racing it in native code.
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
    private final boolean exclusive;
    private volatile int state;
    /** Guarded by this: whether the native resource has been released. */
    private boolean released;

    /**
     * Creates an open guard.
     *
     * @param name what the guard protects, for the message of a use after close
     */
    public ResourceGuard(String name) {
        this(name, false);
    }

    private ResourceGuard(String name, boolean exclusive) {
        this.name = name;
        this.exclusive = exclusive;
    }

    /**
     * Creates an open guard that admits one call at a time.
     *
     * @param name what the guard protects, for the messages
     * @return the guard
     */
    public static ResourceGuard exclusive(String name) {
        return new ResourceGuard(name, true);
    }

    /**
     * Marks one call in flight; pair with {@link #release()} in a finally block.
     *
     * @throws IllegalStateException when the resource is closed or closing, or, for an
     *     exclusive guard, in use by another call
     */
    public void acquire() {
        if (!tryAcquire()) {
            throw new IllegalStateException(isClosed() ? name + " is closed"
                    : name + " is in use by another thread: it is not thread-safe");
        }
    }

    /**
     * Marks one call in flight unless the resource is closed or closing (or,
     * for an exclusive guard, in use); pair a true result with
     * {@link #release()} in a finally block.
     *
     * @return whether the call may go on
     */
    public boolean tryAcquire() {
        int current;
        do {
            current = state;
            if ((current & CLOSING) != 0 || (exclusive && current != 0)) {
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
     * {@code releaseResource}, which completes once over the guard's life.
     * Later or concurrent closers return once the resource is released.
     *
     * @param releaseResource frees the native resource, or throws having freed nothing: then
     *     the guard opens again (calls are accepted, a later close tries again) and the
     *     exception reaches the closer
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
        try {
            releaseResource.run();
        } catch (RuntimeException | Error e) {
            STATE.getAndBitwiseAnd(this, ~CLOSING);
            throw e;
        }
        released = true;
    }

    /**
     * Waits for a close under way to end.
     *
     * @return whether the resource is released (false: open, or its close failed)
     */
    public synchronized boolean awaitRelease() {
        return released;
    }

    /** @return whether closing has begun (calls are refused) */
    public boolean isClosed() {
        return (state & CLOSING) != 0;
    }
}
