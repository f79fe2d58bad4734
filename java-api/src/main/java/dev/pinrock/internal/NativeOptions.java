package dev.pinrock.internal;

import static dev.pinrock.internal.FfmDb.check;
import static dev.pinrock.internal.FfmDb.unchecked;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import dev.pinrock.DbOptions;
import dev.pinrock.bindings.PinrockNative;

/**
 * Native options (pr_options_t) built from {@link DbOptions}, each value
 * validated by its native setter, and memory budgets (pr_memory_budget_t):
 * what open, repair, column family creation and table file writers are given.
 */
public final class NativeOptions {
    private static final long ERR_CAP = Scratch.ERR_CAP;

    static {
        NativeLibrary.load();
    }

    private static final MethodHandle OPTIONS_CREATE = PinrockNative.pr_options_create$handle();
    private static final MethodHandle OPTIONS_DESTROY = PinrockNative.pr_options_destroy$handle();
    private static final MethodHandle SET_CREATE_IF_MISSING = PinrockNative.pr_options_set_create_if_missing$handle();
    private static final MethodHandle SET_ERROR_IF_EXISTS = PinrockNative.pr_options_set_error_if_exists$handle();
    private static final MethodHandle SET_PARANOID_CHECKS = PinrockNative.pr_options_set_paranoid_checks$handle();
    private static final MethodHandle SET_WAL_RECOVERY_MODE = PinrockNative.pr_options_set_wal_recovery_mode$handle();
    private static final MethodHandle SET_COMPRESSION = PinrockNative.pr_options_set_compression$handle();
    private static final MethodHandle SET_BOTTOMMOST_COMPRESSION = PinrockNative.pr_options_set_bottommost_compression$handle();
    private static final MethodHandle SET_ZSTD_LEVEL = PinrockNative.pr_options_set_zstd_level$handle();
    private static final MethodHandle SET_BLOCK_CACHE_BYTES = PinrockNative.pr_options_set_block_cache_bytes$handle();
    private static final MethodHandle SET_WRITE_BUFFER_BYTES = PinrockNative.pr_options_set_write_buffer_bytes$handle();
    private static final MethodHandle SET_MAX_OPEN_FILES = PinrockNative.pr_options_set_max_open_files$handle();
    private static final MethodHandle SET_MERGE_OPERATOR = PinrockNative.pr_options_set_merge_operator$handle();
    private static final MethodHandle SET_COMPRESSION_PER_LEVEL = PinrockNative.pr_options_set_compression_per_level$handle();
    private static final MethodHandle SET_ZSTD_DICTIONARY = PinrockNative.pr_options_set_zstd_dictionary$handle();
    private static final MethodHandle SET_COMPRESSION_THREADS = PinrockNative.pr_options_set_compression_threads$handle();
    private static final MethodHandle SET_STATISTICS = PinrockNative.pr_options_set_statistics$handle();
    private static final MethodHandle SET_INFO_LOG = PinrockNative.pr_options_set_info_log$handle();
    private static final MethodHandle SET_MEMORY_BUDGET = PinrockNative.pr_options_set_memory_budget$handle();
    private static final MethodHandle BUDGET_CREATE = PinrockNative.pr_memory_budget_create$handle();
    private static final MethodHandle BUDGET_DESTROY = PinrockNative.pr_memory_budget_destroy$handle();
    private static final MethodHandle BUDGET_USAGE = PinrockNative.pr_memory_budget_usage$handle();
    private static final MethodHandle SET_FAMILY_OPTIONS = PinrockNative.pr_options_set_family_options$handle();

    private NativeOptions() {
    }

    /** A call given a native pr_options_t. */
    interface OptionsUse {
        void accept(MemorySegment nativeOptions) throws Throwable;
    }

    /**
     * Builds the native pr_options_t for options (validated by the native
     * setters), runs use with it, and destroys it.
     *
     * @param memoryBudget a memory budget's native handle, or 0
     */
    static void with(DbOptions options, long memoryBudget, OptionsUse use) {
        Scratch scratch = Scratch.get();
        MemorySegment err = scratch.err;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeOptions = (MemorySegment) OPTIONS_CREATE.invokeExact();
            if (nativeOptions.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("pr_options_create: native memory exhausted");
            }
            try {
                SET_CREATE_IF_MISSING.invokeExact(nativeOptions, flag(options.createIfMissing()));
                SET_ERROR_IF_EXISTS.invokeExact(nativeOptions, flag(options.errorIfExists()));
                SET_PARANOID_CHECKS.invokeExact(nativeOptions, flag(options.paranoidChecks()));
                check((int) SET_WAL_RECOVERY_MODE.invokeExact(nativeOptions,
                        options.walRecovery().nativeCode(), err, ERR_CAP), scratch);
                check((int) SET_COMPRESSION.invokeExact(nativeOptions,
                        options.compression().nativeCode(), err, ERR_CAP), scratch);
                check((int) SET_BOTTOMMOST_COMPRESSION.invokeExact(nativeOptions,
                        options.bottommostCompression().nativeCode(), err, ERR_CAP), scratch);
                check((int) SET_ZSTD_LEVEL.invokeExact(nativeOptions, options.zstdLevel(), err, ERR_CAP),
                        scratch);
                check((int) SET_BLOCK_CACHE_BYTES.invokeExact(nativeOptions, options.blockCacheBytes(),
                        err, ERR_CAP), scratch);
                check((int) SET_WRITE_BUFFER_BYTES.invokeExact(nativeOptions, options.writeBufferBytes(),
                        err, ERR_CAP), scratch);
                check((int) SET_MAX_OPEN_FILES.invokeExact(nativeOptions, options.maxOpenFiles(), err,
                        ERR_CAP), scratch);
                int[] levels = options.compressionPerLevel().stream().mapToInt(c -> c.nativeCode()).toArray();
                check((int) SET_COMPRESSION_PER_LEVEL.invokeExact(nativeOptions,
                        arena.allocateFrom(ValueLayout.JAVA_INT, levels), (long) levels.length, err, ERR_CAP), scratch);
                check((int) SET_ZSTD_DICTIONARY.invokeExact(nativeOptions, options.zstdDictionaryBytes(),
                        options.zstdTrainingBytes(), err, ERR_CAP), scratch);
                check((int) SET_COMPRESSION_THREADS.invokeExact(nativeOptions, options.compressionThreads(), err,
                        ERR_CAP), scratch);
                check((int) SET_STATISTICS.invokeExact(nativeOptions, options.statistics().nativeLevel(), err,
                        ERR_CAP), scratch);
                check((int) SET_INFO_LOG.invokeExact(nativeOptions, options.infoLogLevel().nativeLevel(),
                        flag(options.infoLogToSystemLogger()), err, ERR_CAP), scratch);
                if (options.infoLogToSystemLogger()) {
                    InfoLogPump.ensureStarted();
                }
                if (memoryBudget != 0) {
                    check((int) SET_MEMORY_BUDGET.invokeExact(nativeOptions, MemorySegment.ofAddress(memoryBudget),
                            err, ERR_CAP), scratch);
                }
                for (var family : options.columnFamilyOptions().entrySet()) {
                    MemorySegment name = NativeStrings.allocate(arena, family.getKey(), "column family name");
                    with(family.getValue(), memoryBudget, familyOptions -> check(
                            (int) SET_FAMILY_OPTIONS.invokeExact(nativeOptions, name, familyOptions, err, ERR_CAP),
                            scratch));
                }
                if (options.mergeOperator() != null) {
                    check((int) SET_MERGE_OPERATOR.invokeExact(nativeOptions,
                            NativeStrings.allocate(arena, options.mergeOperator(), "mergeOperator"), err, ERR_CAP), scratch);
                }
                use.accept(nativeOptions);
            } finally {
                OPTIONS_DESTROY.invokeExact(nativeOptions);
            }
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Creates a memory budget (pr_memory_budget_create).
     *
     * @return its native handle
     */
    public static long createMemoryBudget(long totalBytes, long memtableBytes) {
        return FfmDb.word((scratch, arena) -> (int) BUDGET_CREATE.invokeExact(totalBytes, memtableBytes,
                scratch.word, scratch.err, ERR_CAP)).getAsLong();
    }

    /** Bytes in use in a memory budget's cache (pr_memory_budget_usage). */
    public static long memoryBudgetUsage(long budget) {
        try {
            return (long) BUDGET_USAGE.invokeExact(MemorySegment.ofAddress(budget));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Drops a memory budget handle (pr_memory_budget_destroy). */
    public static void destroyMemoryBudget(long budget) {
        try {
            BUDGET_DESTROY.invokeExact(MemorySegment.ofAddress(budget));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    private static int flag(boolean value) {
        return value ? 1 : 0;
    }
}
