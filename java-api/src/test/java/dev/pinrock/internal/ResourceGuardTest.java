package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

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
}
