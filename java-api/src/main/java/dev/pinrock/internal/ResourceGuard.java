package dev.pinrock.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes closing a native resource safe against concurrent use: every call
 * holds the guard while it uses the native handle; {@link #close(Runnable)}
 * first refuses new calls, then waits for the calls in flight to return, and
 * only then releases the native resource. Close is idempotent and
 * thread-safe: a second closer waits until the first has finished. A call
 * must not close the guard it holds.
 *
 * <p>The closer parks while it waits (it burns no CPU however long a call
 * runs): a release, or an acquire backing out, that sees the closing mark
 * unparks it, and it sums the counts again. No lock is held while a closer
 * waits for calls or for another closer, so a call in flight may close
 * other guards, whatever their closers wait for.
 *
 * <p>An {@linkplain #exclusive(String) exclusive} guard admits one call at a
 * time, for a native resource that is not thread-safe (a RocksDB iterator or
 * table-file writer): a call arriving while another is in flight is refused
 * with {@link IllegalStateException} instead of racing it in native code.
 *
 * <p>A shared guard counts calls in one word until two threads race for it.
 * Then it counts them in striped counters, one cache line per stripe and a
 * thread always on the same stripe, so that threads calling at once do not
 * pass one cache line back and forth twice per call. A call adds itself to its
 * stripe, then checks that closing has not begun (backing out if it has);
 * close marks closing, then waits until the word and the stripes sum to zero.
 * Every counter access is a volatile one, so a call either sees the closing
 * mark or is seen by the closer's sum. Only the sum means anything: a call
 * released on another thread than the one that acquired it leaves one
 * stripe above and another below zero.
 */
public final class ResourceGuard {
    /** Set in {@link #state} once closing has begun; the other bits count calls in flight. */
    private static final int CLOSING = 0x8000_0000;
    /** Set in {@link #state} once the resource is unusable ({@link #poison}): calls are refused, a close is not. */
    private static final int POISONED = 0x4000_0000;
    /** The bits that refuse calls. */
    private static final int REFUSING = CLOSING | POISONED;
    /** What {@link #admit()} returns for an admitted call; no refusing state is 0. */
    private static final int ADMITTED = 0;
    /** Ints from one stripe's counter to the next: 128 bytes, two cache lines. */
    private static final int STRIPE_SPACING = 32;
    /** log2 of the number of stripes: twice the processors, rounded up to a power of two, at most 64. */
    private static final int STRIPE_BITS = Math.min(6,
            32 - Integer.numberOfLeadingZeros(2 * Runtime.getRuntime().availableProcessors() - 1));
    private static final VarHandle STATE;
    private static final VarHandle STRIPES;
    private static final VarHandle COUNTER = MethodHandles.arrayElementVarHandle(int[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(ResourceGuard.class, "state", int.class);
            STRIPES = lookup.findVarHandle(ResourceGuard.class, "stripes", int[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final boolean exclusive;
    private volatile int state;
    /** The striped counters, at every {@link #STRIPE_SPACING}th int; null until two calls race. */
    private volatile int[] stripes;
    /** The thread closing the guard (waiting for calls, then releasing), or null; written under this. */
    private volatile Thread closer;
    /** Whether the native resource has been released; written under this. */
    private volatile boolean released;
    /** Why the resource is unusable, and what caused it; set once, before {@link #POISONED}. */
    private volatile String poisonReason;
    private volatile Throwable poisonCause;

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
     *     exclusive guard, in use by another call, or when the thread runs a callback
     *     ({@link Callbacks#refuseReentry()})
     */
    public void acquire() {
        Callbacks.refuseReentry();
        int refusing = admit();
        if (refusing != ADMITTED) {
            // Judged by the state that refused the call: a close that fails opens the guard again.
            if ((refusing & CLOSING) == 0 && poisonReason != null) {
                throw new IllegalStateException(name + " is unusable: " + poisonReason, poisonCause);
            }
            throw new IllegalStateException((refusing & CLOSING) != 0 ? name + " is closed"
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
        return admit() == ADMITTED;
    }

    /**
     * Marks one call in flight unless the guard refuses it.
     *
     * @return {@link #ADMITTED}, or the state that refused the call (never 0)
     */
    private int admit() {
        int[] counters = stripes;
        if (counters != null) {
            return tryAcquireStriped(counters) ? ADMITTED : stripedRefusal();
        }
        int current = state;
        while ((current & REFUSING) == 0 && !(exclusive && current != 0)) {
            int witness = (int) STATE.compareAndExchange(this, current, current + 1);
            if (witness == current) {
                return ADMITTED;
            }
            if (!exclusive) {
                return tryAcquireStriped(stripes()) ? ADMITTED : stripedRefusal();
            }
            current = witness;
        }
        return current;
    }

    /** Returns the state that refused a striped call: one with a refusing bit, never 0. */
    private int stripedRefusal() {
        int current = state;
        return (current & REFUSING) != 0 ? current : CLOSING;
    }

    /** Counts a call on the current thread's stripe, unless calls are refused. */
    private boolean tryAcquireStriped(int[] counters) {
        int offset = stripeOffset();
        COUNTER.getAndAdd(counters, offset, 1);
        if ((state & REFUSING) != 0) {
            COUNTER.getAndAdd(counters, offset, -1);
            // The closer may have counted this call and parked.
            LockSupport.unpark(closer);
            return false;
        }
        return true;
    }

    /**
     * Ends a call started by {@link #acquire()}. When closing has begun it
     * unparks the closer, which may be waiting for this call.
     */
    public void release() {
        int[] counters = stripes;
        if (counters == null) {
            if (((int) STATE.getAndAdd(this, -1) & CLOSING) != 0) {
                LockSupport.unpark(closer);
            }
        } else {
            COUNTER.getAndAdd(counters, stripeOffset(), -1);
            if ((state & CLOSING) != 0) {
                LockSupport.unpark(closer);
            }
        }
    }

    /** Returns the striped counters, creating them when no thread has yet. */
    private int[] stripes() {
        int[] created = new int[((1 << STRIPE_BITS) + 2) * STRIPE_SPACING];
        int[] witness = (int[]) STRIPES.compareAndExchange(this, (int[]) null, created);
        return witness == null ? created : witness;
    }

    /**
     * Returns where the current thread's counter is: the thread's id, spread
     * by Fibonacci hashing so that consecutive ids land on different stripes,
     * past one spacing that keeps the array's header line free of counters.
     */
    private static int stripeOffset() {
        long spread = Thread.currentThread().threadId() * 0x9E37_79B9_7F4A_7C15L;
        return ((int) (spread >>> (64 - STRIPE_BITS)) + 1) * STRIPE_SPACING;
    }

    /** Returns the calls in flight: the word's count plus the stripes' sum. */
    private int callsInFlight() {
        int calls = state & ~REFUSING;
        int[] counters = stripes;
        if (counters != null) {
            for (int offset = STRIPE_SPACING; offset < counters.length - STRIPE_SPACING; offset += STRIPE_SPACING) {
                calls += (int) COUNTER.getVolatile(counters, offset);
            }
        }
        return calls;
    }

    /**
     * Refuses new calls, waits until no call is in flight, then runs
     * {@code releaseResource}, which completes once over the guard's life.
     * Later or concurrent closers return once the resource is released; a
     * concurrent closer waits for the one under way without holding a lock.
     * The waits ignore interrupts (the thread's interrupt status is kept).
     *
     * @param releaseResource frees the native resource, or throws having freed nothing: then
     *     the guard opens again (calls are accepted, a later close tries again) and the
     *     exception reaches the closer
     * @throws IllegalStateException when called by releaseResource of this guard
     */
    public void close(Runnable releaseResource) {
        close(() -> { }, releaseResource);
    }

    /**
     * Closes as {@link #close(Runnable)} does, running {@code whenRefusing}
     * once new calls are refused and before waiting for those in flight: to
     * make them return sooner.
     *
     * @param whenRefusing tells the calls in flight to end; must not throw
     * @param releaseResource as for {@link #close(Runnable)}
     * @throws IllegalStateException when called by releaseResource of this guard
     */
    public void close(Runnable whenRefusing, Runnable releaseResource) {
        if (!becomeCloser()) {
            return;
        }
        boolean interrupted = false;
        try {
            STATE.getAndBitwiseOr(this, CLOSING);
            whenRefusing.run();
            while (callsInFlight() != 0) {
                LockSupport.park(this);
                interrupted |= Thread.interrupted();
            }
            try {
                releaseResource.run();
            } catch (RuntimeException | Error e) {
                STATE.getAndBitwiseAnd(this, ~CLOSING);
                throw e;
            }
            released = true;
        } finally {
            synchronized (this) {
                closer = null;
                notifyAll();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Makes this thread the closer, after waiting (in {@link Object#wait()},
     * which lets go of the monitor) for a close under way to end.
     *
     * @return false when the resource is released, by this close or an earlier one
     */
    private synchronized boolean becomeCloser() {
        if (closer == Thread.currentThread()) {
            throw new IllegalStateException(name + " is being closed by this thread already");
        }
        boolean interrupted = false;
        while (closer != null) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (released) {
            return false;
        }
        closer = Thread.currentThread();
        return true;
    }

    /**
     * Makes the resource unusable: every later call is refused with an
     * {@link IllegalStateException} giving reason, with cause as its cause;
     * calls in flight go on, and a close works as before. The first poison
     * is kept. Thread-safe; never waits for a call.
     *
     * @param reason why the resource cannot be used, and what to do
     * @param cause what made it so, or null
     */
    public void poison(String reason, Throwable cause) {
        synchronized (this) {
            if (poisonReason != null) {
                return;
            }
            poisonCause = cause;
            poisonReason = reason;
        }
        STATE.getAndBitwiseOr(this, POISONED);
    }

    /** @return whether calls are counted in stripes (for the tests) */
    boolean isStriped() {
        return stripes != null;
    }

    /** @return whether closing has begun (calls are refused) */
    public boolean isClosed() {
        return (state & CLOSING) != 0;
    }
}
