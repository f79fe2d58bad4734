package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
