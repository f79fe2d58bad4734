package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The concurrent tests time out instead of hanging when a guard loses count of a call. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ResourceGuardTest {
    @Test
    void closeReleasesOnceAndLaterAcquiresThrow() {
        ResourceGuard guard = new ResourceGuard("thing");
        AtomicInteger releases = new AtomicInteger();
        guard.acquire();
        guard.release();
        guard.close(releases::incrementAndGet);
        guard.close(releases::incrementAndGet);
        assertEquals(1, releases.get());
        assertTrue(guard.isClosed());
        var e = assertThrows(IllegalStateException.class, guard::acquire);
        assertEquals("thing is closed", e.getMessage());
    }

    @Test
    void aPoisonedGuardRefusesNewCallsWithItsReasonLetsThoseInFlightEndAndStillCloses() throws Exception {
        for (ResourceGuard guard : new ResourceGuard[] {new ResourceGuard("thing"), ResourceGuard.exclusive("thing")}) {
            Throwable cause = new IllegalArgumentException("the cause");
            guard.acquire();
            guard.poison("it is out of order", cause);
            guard.poison("a second reason", null);
            guard.release(); // the call in flight ends as it began
            var refused = assertThrows(IllegalStateException.class, guard::acquire);
            assertEquals("thing is unusable: it is out of order", refused.getMessage());
            assertEquals(cause, refused.getCause());
            assertFalse(guard.tryAcquire());
            assertFalse(guard.isClosed());
            AtomicInteger releases = new AtomicInteger();
            guard.close(releases::incrementAndGet);
            assertEquals(1, releases.get());
            assertEquals("thing is closed", assertThrows(IllegalStateException.class, guard::acquire).getMessage());
        }
        // A guard counting in stripes is refused too.
        ResourceGuard striped = stripedGuard();
        striped.poison("poisoned", null);
        assertEquals("thing is unusable: poisoned", assertThrows(IllegalStateException.class, striped::acquire)
                .getMessage());
    }

    @Test
    void anExclusiveGuardRefusesASecondCallInFlight() {
        ResourceGuard guard = ResourceGuard.exclusive("thing");
        guard.acquire();
        assertFalse(guard.tryAcquire());
        var e = assertThrows(IllegalStateException.class, guard::acquire);
        assertEquals("thing is in use by another thread: it is not thread-safe", e.getMessage());
        guard.release();
        guard.acquire();
        guard.release();
        guard.close(() -> { });
        assertEquals("thing is closed", assertThrows(IllegalStateException.class, guard::acquire).getMessage());
    }

    @Test
    void aReleaseThatThrowsLeavesTheGuardOpenForALaterClose() {
        ResourceGuard guard = new ResourceGuard("thing");
        AtomicInteger releases = new AtomicInteger();
        assertThrows(IllegalStateException.class, () -> guard.close(() -> {
            throw new IllegalStateException("busy");
        }));
        assertFalse(guard.isClosed());
        guard.acquire();
        guard.release();
        guard.close(releases::incrementAndGet);
        assertEquals(1, releases.get());
        assertTrue(guard.isClosed());
    }

    @Test
    void aCallRefusedByACloseThatThenFailsIsToldTheResourceIsClosed() throws Exception {
        for (ResourceGuard guard : new ResourceGuard[] {new ResourceGuard("thing"), ResourceGuard.exclusive("thing")}) {
            AtomicBoolean stop = new AtomicBoolean();
            Thread closer = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        guard.close(() -> {
                            throw new IllegalStateException("busy");
                        });
                    } catch (IllegalStateException expected) {
                        // the guard opens again
                    }
                }
            });
            closer.start();
            int refusals = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            try {
                // Until enough calls met the close for the race to have been run, however busy the machine.
                while (refusals < 1_000 && System.nanoTime() < deadline) {
                    try {
                        guard.acquire();
                        guard.release();
                    } catch (IllegalStateException e) {
                        assertEquals("thing is closed", e.getMessage());
                        refusals++;
                    }
                }
            } finally {
                stop.set(true);
                closer.join();
            }
            assertTrue(refusals > 0, "no call met the failing close");
        }
    }

    @Test
    void closeWaitsForTheCallInFlight() throws Exception {
        ResourceGuard guard = new ResourceGuard("thing");
        AtomicBoolean callFinished = new AtomicBoolean();
        guard.acquire();
        AtomicBoolean releasedEarly = new AtomicBoolean();
        Thread closer = new Thread(() -> guard.close(() -> releasedEarly.set(!callFinished.get())));
        closer.start();
        while (!guard.isClosed()) {
            Thread.onSpinWait();
        }
        // Closing has begun: new calls are refused while the one in flight finishes.
        assertThrows(IllegalStateException.class, guard::acquire);
        Thread.sleep(50);
        callFinished.set(true);
        guard.release();
        closer.join();
        assertFalse(releasedEarly.get(), "released while a call was in flight");
    }

    @Test
    void racingCallsMoveToStripesAndCloseStillWaitsForEveryOneOfThem() throws Exception {
        ResourceGuard guard = stripedGuard();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean releasedEarly = new AtomicBoolean();
        Runnable caller = () -> {
            while (guard.tryAcquire()) {
                inFlight.incrementAndGet();
                calls.incrementAndGet();
                Thread.onSpinWait();
                inFlight.decrementAndGet();
                guard.release();
            }
        };
        Thread first = new Thread(caller);
        Thread second = new Thread(caller);
        first.start();
        second.start();
        while (calls.get() < 100_000) {
            Thread.onSpinWait();
        }
        guard.close(() -> releasedEarly.set(inFlight.get() != 0));
        first.join();
        second.join();
        assertFalse(releasedEarly.get(), "released while a call was in flight");
        assertEquals("thing is closed", assertThrows(IllegalStateException.class, guard::acquire).getMessage());
    }

    @Test
    void aStripedCallReleasedOnAnotherThreadIsWaitedForUntilItsRelease() throws Exception {
        ResourceGuard guard = stripedGuard();
        Thread acquirer = new Thread(guard::acquire);
        acquirer.start();
        acquirer.join();
        AtomicBoolean released = new AtomicBoolean();
        Thread closer = new Thread(() -> guard.close(() -> released.set(true)));
        closer.start();
        while (!guard.isClosed()) {
            Thread.onSpinWait();
        }
        Thread.sleep(50);
        assertFalse(released.get(), "released while a call was in flight");
        guard.release();
        closer.join();
        assertTrue(released.get());
    }

    @Test
    void anExclusiveGuardStaysOneWordUnderRacingCalls() throws Exception {
        ResourceGuard guard = ResourceGuard.exclusive("thing");
        AtomicInteger inFlight = new AtomicInteger();
        AtomicBoolean overlapped = new AtomicBoolean();
        Runnable caller = () -> {
            for (int i = 0; i < 1_000_000; i++) {
                if (guard.tryAcquire()) {
                    overlapped.compareAndSet(false, inFlight.incrementAndGet() != 1);
                    inFlight.decrementAndGet();
                    guard.release();
                }
            }
        };
        runOnTwoThreads(caller);
        assertFalse(overlapped.get(), "two calls were admitted at once");
        assertFalse(guard.isStriped());
    }

    @Test
    void aCloserWaitingForALongCallParksInsteadOfSpinning() throws Exception {
        assertCloserParksWhileACallRuns(new ResourceGuard("thing"));
        assertCloserParksWhileACallRuns(stripedGuard());
        assertCloserParksWhileACallRuns(ResourceGuard.exclusive("thing"));
    }

    /**
     * Holds a call for a second while another thread closes the guard, and
     * checks that the closer waits parked (a closer that spins or yields
     * stays runnable) and used a small part of that second's CPU (one that
     * spins uses nearly all of it, unless other threads crowd it out).
     */
    private static void assertCloserParksWhileACallRuns(ResourceGuard guard) throws InterruptedException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        guard.acquire();
        AtomicBoolean released = new AtomicBoolean();
        Thread closer = new Thread(() -> guard.close(() -> released.set(true)));
        closer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Thread.State state = closer.getState();
        while (state != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.sleep(1);
            state = closer.getState();
        }
        assertEquals(Thread.State.WAITING, state, "the closer does not park");
        assertTrue(guard.isClosed());
        long cpuBefore = threads.getThreadCpuTime(closer.threadId());
        long wallBefore = System.nanoTime();
        Thread.sleep(1000);
        long cpu = threads.getThreadCpuTime(closer.threadId()) - cpuBefore;
        long wall = System.nanoTime() - wallBefore;
        assertFalse(released.get(), "released while a call was in flight");
        guard.release();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(closer.isAlive(), "the release did not wake the closer");
        assertTrue(released.get());
        assertTrue(cpu < wall / 5, "the closer used " + cpu + " ns of CPU in " + wall + " ns of waiting");
    }

    @Test
    void aSecondCloserWaitsForTheFirstAndReturnsOnceReleased() throws Exception {
        ResourceGuard guard = new ResourceGuard("thing");
        AtomicInteger releases = new AtomicInteger();
        guard.acquire();
        Thread first = new Thread(() -> guard.close(releases::incrementAndGet));
        Thread second = new Thread(() -> guard.close(releases::incrementAndGet));
        first.start();
        while (!guard.isClosed()) {
            Thread.onSpinWait();
        }
        second.start();
        Thread.sleep(50);
        assertEquals(0, releases.get());
        guard.release();
        first.join(TimeUnit.SECONDS.toMillis(30));
        second.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(first.isAlive() || second.isAlive(), "a closer never returned");
        assertEquals(1, releases.get());
    }

    /** Returns a shared guard whose calls are counted in stripes: two threads race for it until it is. */
    private static ResourceGuard stripedGuard() throws InterruptedException {
        ResourceGuard guard = new ResourceGuard("thing");
        assertFalse(guard.isStriped());
        Runnable racer = () -> {
            for (int i = 0; i < 100_000_000 && !guard.isStriped(); i++) {
                guard.acquire();
                guard.release();
            }
        };
        runOnTwoThreads(racer);
        assertTrue(guard.isStriped(), "two racing threads never collided on the guard's word");
        return guard;
    }

    /** Runs the task on this thread and on another at once, and waits for both. */
    private static void runOnTwoThreads(Runnable task) throws InterruptedException {
        Thread other = new Thread(task);
        other.start();
        task.run();
        other.join();
    }
}
