package dev.pinrock.internal;

import static dev.pinrock.internal.FfmDb.check;
import static dev.pinrock.internal.FfmDb.unchecked;
import static dev.pinrock.bindings.PinrockNative.pr_memory_budget_create$handle;
import static dev.pinrock.bindings.PinrockNative.pr_memory_budget_destroy$handle;
import static dev.pinrock.bindings.PinrockNative.pr_memory_budget_usage$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_create$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_destroy$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_block_cache_bytes$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_bottommost_compression$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_compression$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_compression_per_level$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_compression_threads$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_create_if_missing$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_error_if_exists$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_family_options$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_info_log$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_max_open_files$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_memory_budget$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_merge_operator$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_paranoid_checks$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_statistics$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_wal_recovery_mode$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_write_buffer_bytes$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_zstd_dictionary$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_zstd_level$handle;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

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
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment err = scratch.err;
            MemorySegment nativeOptions = (MemorySegment) pr_options_create$handle().invokeExact();
            if (nativeOptions.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("pr_options_create: native memory exhausted");
            }
            try {
                pr_options_set_create_if_missing$handle().invokeExact(nativeOptions, flag(options.createIfMissing()));
                pr_options_set_error_if_exists$handle().invokeExact(nativeOptions, flag(options.errorIfExists()));
                pr_options_set_paranoid_checks$handle().invokeExact(nativeOptions, flag(options.paranoidChecks()));
                check((int) pr_options_set_wal_recovery_mode$handle().invokeExact(nativeOptions,
                        options.walRecovery().nativeCode(), err, ERR_CAP), scratch);
                check((int) pr_options_set_compression$handle().invokeExact(nativeOptions,
                        options.compression().nativeCode(), err, ERR_CAP), scratch);
                check((int) pr_options_set_bottommost_compression$handle().invokeExact(nativeOptions,
                        options.bottommostCompression().nativeCode(), err, ERR_CAP), scratch);
                check((int) pr_options_set_zstd_level$handle().invokeExact(nativeOptions, options.zstdLevel(), err, ERR_CAP),
                        scratch);
                check((int) pr_options_set_block_cache_bytes$handle().invokeExact(nativeOptions, options.blockCacheBytes(),
                        err, ERR_CAP), scratch);
                check((int) pr_options_set_write_buffer_bytes$handle().invokeExact(nativeOptions, options.writeBufferBytes(),
                        err, ERR_CAP), scratch);
                check((int) pr_options_set_max_open_files$handle().invokeExact(nativeOptions, options.maxOpenFiles(), err,
                        ERR_CAP), scratch);
                // A fresh pr_options_t has no per-level list; skipping the empty one spares an open
                // a downcall signature and the stream (milliseconds at start-up).
                if (!options.compressionPerLevel().isEmpty()) {
                    int[] levels = options.compressionPerLevel().stream().mapToInt(c -> c.nativeCode()).toArray();
                    check((int) pr_options_set_compression_per_level$handle().invokeExact(nativeOptions,
                            arena.allocateFrom(ValueLayout.JAVA_INT, levels), (long) levels.length, err, ERR_CAP),
                            scratch);
                }
                check((int) pr_options_set_zstd_dictionary$handle().invokeExact(nativeOptions, options.zstdDictionaryBytes(),
                        options.zstdTrainingBytes(), err, ERR_CAP), scratch);
                check((int) pr_options_set_compression_threads$handle().invokeExact(nativeOptions, options.compressionThreads(), err,
                        ERR_CAP), scratch);
                check((int) pr_options_set_statistics$handle().invokeExact(nativeOptions, options.statistics().nativeLevel(), err,
                        ERR_CAP), scratch);
                check((int) pr_options_set_info_log$handle().invokeExact(nativeOptions, options.infoLogLevel().nativeLevel(),
                        flag(options.infoLogToSystemLogger()), err, ERR_CAP), scratch);
                if (options.infoLogToSystemLogger()) {
                    InfoLogPump.ensureStarted();
                }
                if (memoryBudget != 0) {
                    check((int) pr_options_set_memory_budget$handle().invokeExact(nativeOptions, MemorySegment.ofAddress(memoryBudget),
                            err, ERR_CAP), scratch);
                }
                for (var family : options.columnFamilyOptions().entrySet()) {
                    MemorySegment name = NativeStrings.allocate(arena, family.getKey(), "column family name");
                    with(family.getValue(), memoryBudget, familyOptions -> check(
                            (int) pr_options_set_family_options$handle().invokeExact(nativeOptions, name, familyOptions, err, ERR_CAP),
                            scratch));
                }
                if (options.mergeOperator() != null) {
                    check((int) pr_options_set_merge_operator$handle().invokeExact(nativeOptions,
                            NativeStrings.allocate(arena, options.mergeOperator(), "mergeOperator"), err, ERR_CAP), scratch);
                }
                use.accept(nativeOptions);
            } finally {
                pr_options_destroy$handle().invokeExact(nativeOptions);
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
        return FfmDb.word((scratch, arena) -> (int) pr_memory_budget_create$handle().invokeExact(totalBytes, memtableBytes,
                scratch.word, scratch.err, ERR_CAP)).getAsLong();
    }

    /** Bytes in use in a memory budget's cache (pr_memory_budget_usage). */
    public static long memoryBudgetUsage(long budget) {
        try {
            return (long) pr_memory_budget_usage$handle().invokeExact(MemorySegment.ofAddress(budget));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Drops a memory budget handle (pr_memory_budget_destroy). */
    public static void destroyMemoryBudget(long budget) {
        try {
            pr_memory_budget_destroy$handle().invokeExact(MemorySegment.ofAddress(budget));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    private static int flag(boolean value) {
        return value ? 1 : 0;
    }
}
