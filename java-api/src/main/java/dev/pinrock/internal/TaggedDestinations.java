package dev.pinrock.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the readers of pinrock.h's tagged queues (the info log's and the
 * events') share: the application's targets by destination tag, each held
 * from the options that name it until the queue says it ended (after its
 * last message: its messages never find it gone), and the one daemon thread
 * that drains the queue, started by the first destination.
 *
 * @param <T> what a destination's messages go to
 */
final class TaggedDestinations<T> {
    /** What sets a destination in native options. */
    interface DestinationUse {
        void accept(long destination) throws Throwable;
    }

    private final String threadName;
    private final Runnable drain;
    /** The targets of the destinations not yet ended. */
    private final Map<Long, T> targets = new ConcurrentHashMap<>();
    private final AtomicLong lastTag;
    /** Guarded by this: whether the thread runs. */
    private boolean started;

    /**
     * @param threadName the draining thread's name
     * @param reservedTags the tags up to which the caller reserves for itself: new destinations are above
     * @param drain drains the queue until the JVM fails (it returns only then)
     */
    TaggedDestinations(String threadName, long reservedTags, Runnable drain) {
        this.threadName = threadName;
        this.lastTag = new AtomicLong(reservedTags);
        this.drain = drain;
    }

    /**
     * Runs set with a new destination of target's (held from here until its
     * end is read, or forgotten at once if set throws: nothing is queued for
     * it then), and starts the thread.
     */
    void withDestination(T target, DestinationUse set) throws Throwable {
        long destination = lastTag.incrementAndGet();
        targets.put(destination, target);
        try {
            set.accept(destination);
        } catch (Throwable refused) {
            targets.remove(destination);
            throw refused;
        }
        ensureStarted();
    }

    /** Returns the target of destination, or null for a reserved or ended one. */
    T target(long destination) {
        return targets.get(destination);
    }

    /** Forgets destination, whose end the queue gave. */
    void ended(long destination) {
        targets.remove(destination);
    }

    /** How many destinations have not ended; for tests. */
    int live() {
        return targets.size();
    }

    /** Starts the thread unless it runs already. Thread-safe. */
    synchronized void ensureStarted() {
        if (!started) {
            Thread.ofPlatform().daemon().name(threadName).start(this::run);
            started = true;
        }
    }

    private void run() {
        try {
            drain.run();
        } finally {
            synchronized (this) {
                started = false;
            }
        }
    }

    /**
     * Rethrows an error that means the JVM itself is failing (out of memory,
     * an internal error); a stack overflow has unwound by the time it is
     * caught, and is the application's failure like any other.
     */
    static void rethrowIfTheJvmFails(Throwable failure) {
        if (failure instanceof VirtualMachineError error && !(failure instanceof StackOverflowError)) {
            throw error;
        }
    }
}
