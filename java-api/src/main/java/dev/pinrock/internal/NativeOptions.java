package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import java.util.List;

import dev.pinrock.DbOptions;

/**
 * Native options (pr_options_t) built from {@link DbOptions}, each value
 * validated by its native setter, with the shared objects a database uses:
 * what open, repair, column family creation and table file writers are given.
 */
public final class NativeOptions {
    private static final long ERR_CAP = Scratch.ERR_CAP;


    private NativeOptions() {
    }

    /** A call given a native pr_options_t. */
    interface OptionsUse {
        void accept(MemorySegment nativeOptions) throws Throwable;
    }

    /**
     * Builds the native pr_options_t for options (validated by the native
     * setters), runs use with it, and destroys it: its option strings first,
     * then the typed settings. Only the typed settings that differ from the
     * defaults ({@link DbOptions#create()}, which a fresh
     * pr_options_t has: NativeOptionsTest compares the OPTIONS files RocksDB
     * writes) are set: each setter whose signature no other call shares costs
     * a generated class at start-up.
     *
     * @param shared the shared objects' native handles
     */
    static void with(DbOptions options, SharedHandles shared, OptionsUse use) {
        with(options, DbOptions.create(), shared, new Callbacks.ComparatorWatch(), use);
    }

    /**
     * {@link #with(DbOptions, SharedHandles, OptionsUse)}, with watch told of
     * the failures of the options' comparators written in Java.
     */
    static void with(DbOptions options, SharedHandles shared, Callbacks.ComparatorWatch watch, OptionsUse use) {
        with(options, DbOptions.create(), shared, watch, use);
    }

    /**
     * {@link #with(DbOptions, SharedHandles, Callbacks.ComparatorWatch, OptionsUse)}, skipping
     * the settings whose value equals base's, or calling every setter when base is null.
     */
    static void with(DbOptions options, DbOptions base, SharedHandles shared, Callbacks.ComparatorWatch watch,
            OptionsUse use) {
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment err = scratch.err;
            MemorySegment nativeOptions = (MemorySegment) Downcalls.optionsCreate().invokeExact();
            if (nativeOptions.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("pr_options_create: native memory exhausted");
            }
            try {
                // Option strings first: a typed setting that differs from its default wins over them.
                setStrings(nativeOptions, Downcalls.OPTION_SCOPE_DB, options.databaseOptions(), arena, scratch);
                setStrings(nativeOptions, Downcalls.OPTION_SCOPE_FAMILY, options.familyOptions(), arena, scratch);
                setStrings(nativeOptions, Downcalls.OPTION_SCOPE_TABLE, options.tableOptions(), arena, scratch);
                boolean all = base == null;
                if (all || options.createIfMissing() != base.createIfMissing()) {
                    Downcalls.optionsSetCreateIfMissing().invokeExact(nativeOptions, flag(options.createIfMissing()));
                }
                if (all || options.errorIfExists() != base.errorIfExists()) {
                    Downcalls.optionsSetErrorIfExists().invokeExact(nativeOptions, flag(options.errorIfExists()));
                }
                if (all || options.paranoidChecks() != base.paranoidChecks()) {
                    Downcalls.optionsSetParanoidChecks().invokeExact(nativeOptions, flag(options.paranoidChecks()));
                }
                if (all || options.walRecovery() != base.walRecovery()) {
                    check((int) Downcalls.optionsSetWalRecoveryMode().invokeExact(nativeOptions,
                            options.walRecovery().nativeCode(), err, ERR_CAP), scratch);
                }
                if (all || options.compression() != base.compression()) {
                    check((int) Downcalls.optionsSetCompression().invokeExact(nativeOptions,
                            options.compression().nativeCode(), err, ERR_CAP), scratch);
                }
                if (all || options.bottommostCompression() != base.bottommostCompression()) {
                    check((int) Downcalls.optionsSetBottommostCompression().invokeExact(nativeOptions,
                            options.bottommostCompression().nativeCode(), err, ERR_CAP), scratch);
                }
                if (all || options.zstdLevel() != base.zstdLevel()) {
                    check((int) Downcalls.optionsSetZstdLevel().invokeExact(nativeOptions, options.zstdLevel(), err,
                            ERR_CAP), scratch);
                }
                if (all || options.blockCacheBytes() != base.blockCacheBytes()) {
                    check((int) Downcalls.optionsSetBlockCacheBytes().invokeExact(nativeOptions,
                            options.blockCacheBytes(), err, ERR_CAP), scratch);
                }
                if (all || options.writeBufferBytes() != base.writeBufferBytes()) {
                    check((int) Downcalls.optionsSetWriteBufferBytes().invokeExact(nativeOptions,
                            options.writeBufferBytes(), err, ERR_CAP), scratch);
                }
                if (all || options.maxOpenFiles() != base.maxOpenFiles()) {
                    check((int) Downcalls.optionsSetMaxOpenFiles().invokeExact(nativeOptions, options.maxOpenFiles(),
                            err, ERR_CAP), scratch);
                }
                if (all || !options.compressionPerLevel().equals(base.compressionPerLevel())) {
                    int[] levels = new int[options.compressionPerLevel().size()];
                    for (int i = 0; i < levels.length; i++) {
                        levels[i] = options.compressionPerLevel().get(i).nativeCode();
                    }
                    check((int) Downcalls.optionsSetCompressionPerLevel().invokeExact(nativeOptions,
                            arena.allocateFrom(ValueLayout.JAVA_INT, levels), (long) levels.length, err, ERR_CAP),
                            scratch);
                }
                if (all || options.zstdDictionaryBytes() != base.zstdDictionaryBytes()
                        || options.zstdTrainingBytes() != base.zstdTrainingBytes()) {
                    check((int) Downcalls.optionsSetZstdDictionary().invokeExact(nativeOptions,
                            options.zstdDictionaryBytes(), options.zstdTrainingBytes(), err, ERR_CAP), scratch);
                }
                if (all || options.compressionThreads() != base.compressionThreads()) {
                    check((int) Downcalls.optionsSetCompressionThreads().invokeExact(nativeOptions,
                            options.compressionThreads(), err, ERR_CAP), scratch);
                }
                if (all || options.statistics() != base.statistics()) {
                    check((int) Downcalls.optionsSetStatistics().invokeExact(nativeOptions,
                            options.statistics().nativeLevel(), err, ERR_CAP), scratch);
                }
                if (all || options.infoLogLevel() != base.infoLogLevel()
                        || options.infoLogToSystemLogger() != base.infoLogToSystemLogger()
                        || options.infoLogger() != base.infoLogger()) {
                    InfoLogPump.withDestination(options.infoLogToSystemLogger(), options.infoLogger(),
                            destination -> check((int) Downcalls.optionsSetInfoLog().invokeExact(nativeOptions,
                                    options.infoLogLevel().nativeLevel(), destination, err, ERR_CAP), scratch));
                }
                if (options.eventListener() != null && (all || options.eventListener() != base.eventListener())) {
                    EventPump.withDestination(options.eventListener(), destination -> check(
                            (int) Downcalls.optionsSetEventListener().invokeExact(nativeOptions, destination, err,
                                    ERR_CAP), scratch));
                }
                if (all || options.autoRecovery() != base.autoRecovery()) {
                    check((int) Downcalls.optionsSetAutoRecovery().invokeExact(nativeOptions,
                            flag(options.autoRecovery()), err, ERR_CAP), scratch);
                }
                if (shared.memoryBudget() != 0) {
                    check((int) Downcalls.optionsSetMemoryBudget().invokeExact(nativeOptions,
                            MemorySegment.ofAddress(shared.memoryBudget()), err, ERR_CAP), scratch);
                }
                if (shared.rateLimiter() != 0) {
                    check((int) Downcalls.optionsSetRateLimiter().invokeExact(nativeOptions,
                            MemorySegment.ofAddress(shared.rateLimiter()), err, ERR_CAP), scratch);
                }
                if (shared.sstFileManager() != 0) {
                    check((int) Downcalls.optionsSetSstFileManager().invokeExact(nativeOptions,
                            MemorySegment.ofAddress(shared.sstFileManager()), err, ERR_CAP), scratch);
                }
                for (var family : options.columnFamilyOptions().entrySet()) {
                    MemorySegment name = NativeStrings.allocate(arena, family.getKey(), "column family name");
                    with(family.getValue(), base, shared, watch, familyOptions -> check(
                            (int) Downcalls.optionsSetFamilyOptions().invokeExact(nativeOptions, name, familyOptions,
                                    err, ERR_CAP), scratch));
                }
                if (!options.comparator().isBuiltIn()) {
                    Callbacks.withComparator(options.comparator(), watch, scratch, arena, comparator -> check(
                            (int) Downcalls.optionsSetComparatorObject().invokeExact(nativeOptions, comparator, err,
                                    ERR_CAP), scratch));
                } else if (all || options.comparator() != base.comparator()) {
                    check((int) Downcalls.optionsSetComparator().invokeExact(nativeOptions,
                            NativeStrings.allocate(arena, options.comparator().name(), "comparator"), err, ERR_CAP),
                            scratch);
                }
                if (options.mergeOperator() != null) {
                    check((int) Downcalls.optionsSetMergeOperator().invokeExact(nativeOptions,
                            NativeStrings.allocate(arena, options.mergeOperator(), "mergeOperator"), err, ERR_CAP),
                            scratch);
                }
                if (options.javaMergeOperator() != null) {
                    Callbacks.withMergeOperator(options.javaMergeOperator(), scratch, arena, mergeOperator -> check(
                            (int) Downcalls.optionsSetMergeOperatorObject().invokeExact(nativeOptions, mergeOperator,
                                    err, ERR_CAP), scratch));
                }
                if (options.compactionFilter() != null) {
                    Callbacks.withCompactionFilterFactory(options.compactionFilter(), scratch, arena, factory -> check(
                            (int) Downcalls.optionsSetCompactionFilterFactory().invokeExact(nativeOptions, factory,
                                    err, ERR_CAP), scratch));
                }
                use.accept(nativeOptions);
            } finally {
                Downcalls.optionsDestroy().invokeExact(nativeOptions);
            }
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Sets each option string of one scope (pr_options_set_string), in order. */
    private static void setStrings(MemorySegment nativeOptions, int scope, List<String> strings, Arena arena,
            Scratch scratch) throws Throwable {
        for (String text : strings) {
            check((int) Downcalls.optionsSetString().invokeExact(nativeOptions, scope,
                    NativeStrings.allocate(arena, text, "options"), scratch.err, ERR_CAP), scratch);
        }
    }

    private static int flag(boolean value) {
        return value ? 1 : 0;
    }
}
