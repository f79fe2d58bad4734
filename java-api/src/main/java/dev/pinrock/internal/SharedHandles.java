package dev.pinrock.internal;

/**
 * The native handles of the objects a database shares with others, each 0
 * when it has none; the caller keeps each valid for the call it passes them
 * to.
 *
 * @param memoryBudget a pr_memory_budget_t
 * @param rateLimiter a pr_rate_limiter_t
 * @param sstFileManager a pr_sst_file_manager_t
 */
public record SharedHandles(long memoryBudget, long rateLimiter, long sstFileManager) {
    /** No shared objects. */
    public static final SharedHandles NONE = new SharedHandles(0, 0, 0);
}
