package dev.pinrock.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * Runs the gets of virtual threads that need I/O on platform threads of its
 * own. A native call pins a virtual thread to its carrier for as long as it
 * runs, and a read from disk can take milliseconds, during which that carrier
 * would run no other virtual thread. So a virtual thread's get first tries
 * memory (which never blocks); only when that needs I/O does it hand the read
 * here and wait, unmounted, for it. The waiting is not interruptible: the
 * read uses the caller's buffers until it ends.
 */
final class BlockingReads {
    /** Reads in flight at once, at most; more wait in the queue. Idle threads end after a while. */
    private static final int READERS = Math.max(16, 4 * Runtime.getRuntime().availableProcessors());
    private static final ThreadPoolExecutor EXECUTOR = executor();
    /** Reads handed here since start, for tests. */
    private static final LongAdder HANDED_OVER = new LongAdder();

    private BlockingReads() {
    }

    private static ThreadPoolExecutor executor() {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(READERS, READERS, 10, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "pinrock-read-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /**
     * Runs read on a platform thread of this class and waits for it,
     * uninterruptibly (the interrupt status stays set). What read throws is
     * thrown here. read must not use memory confined to the calling thread.
     *
     * @return what read returned
     */
    static boolean run(BooleanSupplier read) {
        HANDED_OVER.increment();
        try {
            return CompletableFuture.supplyAsync(read::getAsBoolean, EXECUTOR).join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** @return how many reads were handed here since the class was loaded */
    static long handedOver() {
        return HANDED_OVER.sum();
    }
}
