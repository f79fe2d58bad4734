package dev.pinrock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.LongUnaryOperator;

import dev.pinrock.internal.ResourceGuard;
import dev.pinrock.internal.SharedHandles;

/**
 * A native object several databases share: a {@link MemoryBudget}, a
 * {@link RateLimiter} or an {@link SstFileManager}. Thread-safe. Closing it
 * drops this handle's reference only: databases already open keep theirs,
 * and new databases can no longer be opened with it.
 */
abstract sealed class SharedObject implements AutoCloseable permits MemoryBudget, RateLimiter, SstFileManager {
    private final long handle;
    private final ResourceGuard guard;
    private final LongConsumer destroy;

    SharedObject(String name, long handle, LongConsumer destroy) {
        this.handle = handle;
        this.guard = new ResourceGuard(name);
        this.destroy = destroy;
    }

    /**
     * Runs a native call on the handle, held valid meanwhile.
     *
     * @throws IllegalStateException when this object is closed
     */
    final long use(LongUnaryOperator call) {
        guard.acquire();
        try {
            return call.applyAsLong(handle);
        } finally {
            guard.release();
        }
    }

    /**
     * Runs action with the native handles of the shared objects given (each
     * may be null), every one held valid meanwhile.
     *
     * @throws IllegalStateException when one of them is closed
     */
    static <T> T withHandles(MemoryBudget budget, RateLimiter limiter, SstFileManager manager,
            Function<SharedHandles, T> action) {
        List<SharedObject> held = new ArrayList<>(3);
        try {
            for (SharedObject object : Arrays.asList(budget, limiter, manager)) {
                if (object != null) {
                    object.guard.acquire();
                    held.add(object);
                }
            }
            return action.apply(new SharedHandles(handleOf(budget), handleOf(limiter), handleOf(manager)));
        } finally {
            held.forEach(object -> object.guard.release());
        }
    }

    private static long handleOf(SharedObject object) {
        return object == null ? 0 : object.handle;
    }

    /** Drops this handle's reference; idempotent. */
    @Override
    public final void close() {
        guard.close(() -> destroy.accept(handle));
    }
}
