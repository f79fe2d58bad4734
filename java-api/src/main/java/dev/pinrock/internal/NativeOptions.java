package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import dev.pinrock.DbOptions;

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
            MemorySegment nativeOptions = (MemorySegment) Downcalls.optionsCreate().invokeExact();
            if (nativeOptions.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("pr_options_create: native memory exhausted");
            }
            try {
                Downcalls.optionsSetCreateIfMissing().invokeExact(nativeOptions, flag(options.createIfMissing()));
                Downcalls.optionsSetErrorIfExists().invokeExact(nativeOptions, flag(options.errorIfExists()));
                Downcalls.optionsSetParanoidChecks().invokeExact(nativeOptions, flag(options.paranoidChecks()));
                check((int) Downcalls.optionsSetWalRecoveryMode().invokeExact(nativeOptions,
                        options.walRecovery().nativeCode(), err, ERR_CAP), scratch);
                check((int) Downcalls.optionsSetCompression().invokeExact(nativeOptions,
                        options.compression().nativeCode(), err, ERR_CAP), scratch);
                check((int) Downcalls.optionsSetBottommostCompression().invokeExact(nativeOptions,
                        options.bottommostCompression().nativeCode(), err, ERR_CAP), scratch);
                check((int) Downcalls.optionsSetZstdLevel().invokeExact(nativeOptions, options.zstdLevel(), err, ERR_CAP),
                        scratch);
                check((int) Downcalls.optionsSetBlockCacheBytes().invokeExact(nativeOptions, options.blockCacheBytes(),
                        err, ERR_CAP), scratch);
                check((int) Downcalls.optionsSetWriteBufferBytes().invokeExact(nativeOptions, options.writeBufferBytes(),
                        err, ERR_CAP), scratch);
                check((int) Downcalls.optionsSetMaxOpenFiles().invokeExact(nativeOptions, options.maxOpenFiles(), err,
                        ERR_CAP), scratch);
                // A fresh pr_options_t has no per-level list; skipping the empty one spares an open
                // a downcall signature and the stream (milliseconds at start-up).
                if (!options.compressionPerLevel().isEmpty()) {
                    int[] levels = options.compressionPerLevel().stream().mapToInt(c -> c.nativeCode()).toArray();
                    check((int) Downcalls.optionsSetCompressionPerLevel().invokeExact(nativeOptions,
                            arena.allocateFrom(ValueLayout.JAVA_INT, levels), (long) levels.length, err, ERR_CAP),
                            scratch);
                }
                check((int) Downcalls.optionsSetZstdDictionary().invokeExact(nativeOptions, options.zstdDictionaryBytes(),
                        options.zstdTrainingBytes(), err, ERR_CAP), scratch);
                check((int) Downcalls.optionsSetCompressionThreads().invokeExact(nativeOptions, options.compressionThreads(), err,
                        ERR_CAP), scratch);
                check((int) Downcalls.optionsSetStatistics().invokeExact(nativeOptions, options.statistics().nativeLevel(), err,
                        ERR_CAP), scratch);
                check((int) Downcalls.optionsSetInfoLog().invokeExact(nativeOptions, options.infoLogLevel().nativeLevel(),
                        flag(options.infoLogToSystemLogger()), err, ERR_CAP), scratch);
                if (options.infoLogToSystemLogger()) {
                    InfoLogPump.ensureStarted();
                }
                if (memoryBudget != 0) {
                    check((int) Downcalls.optionsSetMemoryBudget().invokeExact(nativeOptions, MemorySegment.ofAddress(memoryBudget),
                            err, ERR_CAP), scratch);
                }
                for (var family : options.columnFamilyOptions().entrySet()) {
                    MemorySegment name = NativeStrings.allocate(arena, family.getKey(), "column family name");
                    with(family.getValue(), memoryBudget, familyOptions -> check(
                            (int) Downcalls.optionsSetFamilyOptions().invokeExact(nativeOptions, name, familyOptions, err, ERR_CAP),
                            scratch));
                }
                if (options.mergeOperator() != null) {
                    check((int) Downcalls.optionsSetMergeOperator().invokeExact(nativeOptions,
                            NativeStrings.allocate(arena, options.mergeOperator(), "mergeOperator"), err, ERR_CAP), scratch);
                }
                use.accept(nativeOptions);
            } finally {
                Downcalls.optionsDestroy().invokeExact(nativeOptions);
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
        try {
            Downcalls.memoryBudgetDestroy().invokeExact(MemorySegment.ofAddress(budget));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    private static int flag(boolean value) {
        return value ? 1 : 0;
    }
}
