package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The native objects several databases share (pinrock.h's memory budget and
 * shared I/O limits sections): memory budgets, rate limiters and SST file
 * managers, each created here and destroyed here, read and changed through
 * their native handles.
 */
public final class NativeShared {
    private static final long ERR_CAP = Scratch.ERR_CAP;

    /** A value of {@link #sstFileManagerSet} and {@link #sstFileManagerRead} (enum pr_sst_file_manager_value). */
    public static final int SST_MAX_ALLOWED_SPACE = Downcalls.SST_MAX_ALLOWED_SPACE;
    /** See {@link #SST_MAX_ALLOWED_SPACE}. */
    public static final int SST_COMPACTION_BUFFER = Downcalls.SST_COMPACTION_BUFFER;
    /** See {@link #SST_MAX_ALLOWED_SPACE}. */
    public static final int SST_DELETE_RATE = Downcalls.SST_DELETE_RATE;
    /** See {@link #SST_MAX_ALLOWED_SPACE}. */
    public static final int SST_TOTAL_SIZE = Downcalls.SST_TOTAL_SIZE;
    /** See {@link #SST_MAX_ALLOWED_SPACE}. */
    public static final int SST_TRASH_SIZE = Downcalls.SST_TRASH_SIZE;
    /** See {@link #SST_MAX_ALLOWED_SPACE}. */
    public static final int SST_SPACE_LIMIT_REACHED = Downcalls.SST_SPACE_LIMIT_REACHED;
    /** A mode of {@link #createRateLimiter} (enum pr_rate_limiter_mode). */
    public static final int RATE_LIMIT_READS = Downcalls.RATE_LIMIT_READS;
    /** See {@link #RATE_LIMIT_READS}. */
    public static final int RATE_LIMIT_WRITES = Downcalls.RATE_LIMIT_WRITES;
    /** See {@link #RATE_LIMIT_READS}. */
    public static final int RATE_LIMIT_ALL = Downcalls.RATE_LIMIT_ALL;
    /** A value of {@link #rateLimiterRead} (enum pr_rate_limiter_value). */
    public static final int RATE_LIMITER_BYTES_PER_SECOND = Downcalls.RATE_LIMITER_BYTES_PER_SECOND;
    /** See {@link #RATE_LIMITER_BYTES_PER_SECOND}. */
    public static final int RATE_LIMITER_TOTAL_BYTES = Downcalls.RATE_LIMITER_TOTAL_BYTES;
    /** See {@link #RATE_LIMITER_BYTES_PER_SECOND}. */
    public static final int RATE_LIMITER_TOTAL_REQUESTS = Downcalls.RATE_LIMITER_TOTAL_REQUESTS;

    private NativeShared() {
    }

    /**
     * Creates a memory budget (pr_memory_budget_create).
     *
     * @return its native handle
     */
    public static long createMemoryBudget(long totalBytes, long memtableBytes) {
        return Downcalls.word((scratch, arena) -> (int) Downcalls.memoryBudgetCreate().invokeExact(totalBytes, memtableBytes,
                scratch.word, scratch.err, ERR_CAP)).getAsLong();
    }

    /** Bytes in use in a memory budget's cache (pr_memory_budget_usage). */
    public static long memoryBudgetUsage(long budget) {
        try {
            return (long) Downcalls.memoryBudgetUsage().invokeExact(MemorySegment.ofAddress(budget));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Drops a memory budget handle (pr_memory_budget_destroy). */
    public static void destroyMemoryBudget(long budget) {
        destroy(Downcalls.memoryBudgetDestroy(), budget);
    }

    /**
     * Creates a rate limiter (pr_rate_limiter_create).
     *
     * @param mode an enum pr_rate_limiter_mode value
     * @return its native handle
     */
    public static long createRateLimiter(long bytesPerSecond, long refillPeriodMicros, int fairness, int mode,
            boolean autoTuned) {
        return Downcalls.word((scratch, arena) -> (int) Downcalls.rateLimiterCreate().invokeExact(bytesPerSecond,
                refillPeriodMicros, fairness, mode, autoTuned ? 1 : 0, scratch.word, scratch.err, ERR_CAP)).getAsLong();
    }

    /** Changes a rate limiter's rate (pr_rate_limiter_set_bytes_per_second). */
    public static void rateLimiterSetBytesPerSecond(long limiter, long bytesPerSecond) {
        Downcalls.call((scratch, arena) -> (int) Downcalls.rateLimiterSetBytesPerSecond().invokeExact(
                MemorySegment.ofAddress(limiter), bytesPerSecond, scratch.err, ERR_CAP));
    }

    /** Reads one of a rate limiter's values (pr_rate_limiter_read). */
    public static long rateLimiterRead(long limiter, int value) {
        return read(Downcalls.rateLimiterRead(), limiter, value);
    }

    /** Drops a rate limiter handle (pr_rate_limiter_destroy). */
    public static void destroyRateLimiter(long limiter) {
        destroy(Downcalls.rateLimiterDestroy(), limiter);
    }

    /**
     * Creates an SST file manager (pr_sst_file_manager_create).
     *
     * @return its native handle
     */
    public static long createSstFileManager() {
        return Downcalls.word((scratch, arena) -> (int) Downcalls.sstFileManagerCreate().invokeExact(scratch.word,
                scratch.err, ERR_CAP)).getAsLong();
    }

    /** Sets one of an SST file manager's settings (pr_sst_file_manager_set). */
    public static void sstFileManagerSet(long manager, int setting, long value) {
        Downcalls.call((scratch, arena) -> (int) Downcalls.sstFileManagerSet().invokeExact(
                MemorySegment.ofAddress(manager), setting, value, scratch.err, ERR_CAP));
    }

    /** Reads one of an SST file manager's values (pr_sst_file_manager_read). */
    public static long sstFileManagerRead(long manager, int value) {
        return read(Downcalls.sstFileManagerRead(), manager, value);
    }

    /** Drops an SST file manager handle (pr_sst_file_manager_destroy). */
    public static void destroySstFileManager(long manager) {
        destroy(Downcalls.sstFileManagerDestroy(), manager);
    }

    /** Calls a destroy function, (pr_x_t*) -> void. */
    private static void destroy(MethodHandle destroy, long handle) {
        try {
            destroy.invokeExact(MemorySegment.ofAddress(handle));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Calls a read function, (const pr_x_t*, int32_t value) -> int64_t. */
    private static long read(MethodHandle read, long handle, int value) {
        try {
            return (long) read.invokeExact(MemorySegment.ofAddress(handle), value);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }
}
