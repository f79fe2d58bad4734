package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.call;
import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;
import static dev.pinrock.internal.Downcalls.word;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDbException;
import dev.pinrock.StatsLevel;
import dev.pinrock.StatusCode;
import dev.pinrock.bindings.pr_transaction_db_options;

/**
 * The owner of an open database's (or column family's) native handle.
 * Whichever binding reads and writes (see {@link Binding}: {@link FfmDataPath}
 * or {@link JniDb}), every other call (open and close, options, column
 * families, snapshots, maintenance, statistics) is made here: each
 * operation is one downcall through {@link Downcalls}, most through its
 * guarded call.
 */
public final class FfmDb {
    private static final long ERR_CAP = Scratch.ERR_CAP;

    private final MemorySegment handle;
    /**
     * Whether this handle's data paths may try memory first (see
     * {@link MemoryFirst}). Not with statistics: a memory-only attempt that
     * misses would count as a second read (keys read, get timings,
     * block-cache misses) in figures users watch.
     */
    private final boolean memoryFirst;
    /** The database's comparators written in Java, its families' included: one watch per database. */
    private final Callbacks.ComparatorWatch comparators;

    private FfmDb(MemorySegment handle, boolean memoryFirst, Callbacks.ComparatorWatch comparators) {
        this.handle = handle;
        this.memoryFirst = memoryFirst;
        this.comparators = comparators;
    }

    /**
     * Returns what tells the database's guard of a failed comparison of one
     * of its comparators written in Java.
     *
     * @return the database's comparator watch
     */
    public Callbacks.ComparatorWatch comparators() {
        return comparators;
    }

    /**
     * Returns the RocksDB version linked into libpinrock.so.
     *
     * @return major * 10000 + minor * 100 + patch
     */
    public static int engineVersion() {
        try {
            return (int) Downcalls.engineVersion().invokeExact();
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Opens a database.
     *
     * @param path the database directory
     * @param options validated by the native layer
     * @param shared the native handles of the objects it shares with other databases
     * @return the open database
     */
    public static FfmDb open(Path path, DbOptions options, SharedHandles shared) {
        return open(path, options, shared, (nativeOptions, nativePath, dbOut, scratch, arena) ->
                (int) Downcalls.dbOpen().invokeExact(nativeOptions, nativePath, dbOut, scratch.err, ERR_CAP));
    }

    /**
     * Opens a transactional database (pr_db_open_transactional).
     *
     * @param optimistic whether optimistic rather than pessimistic
     * @param lockTimeoutMs a transaction's lock wait, -1 forever
     * @param defaultLockTimeoutMs a plain write's lock wait, -1 forever
     * @param maxLocks at most this many locks per family, 0 for no limit
     * @param deadlockDetectDepth how deep a deadlock search goes
     * @param parallelValidation whether optimistic commits validate in parallel
     * @return the open database
     */
    public static FfmDb openTransactional(Path path, DbOptions options, SharedHandles shared, boolean optimistic,
            long lockTimeoutMs, long defaultLockTimeoutMs, long maxLocks, long deadlockDetectDepth,
            boolean parallelValidation) {
        return open(path, options, shared, (nativeOptions, nativePath, dbOut, scratch, arena) -> {
            MemorySegment txnOptions = pr_transaction_db_options.allocate(arena);
            pr_transaction_db_options.lock_timeout_ms(txnOptions, lockTimeoutMs);
            pr_transaction_db_options.default_lock_timeout_ms(txnOptions, defaultLockTimeoutMs);
            pr_transaction_db_options.max_num_locks(txnOptions, maxLocks);
            pr_transaction_db_options.deadlock_detect_depth(txnOptions, deadlockDetectDepth);
            pr_transaction_db_options.optimistic_validation(txnOptions, parallelValidation ? 1 : 0);
            return (int) Downcalls.dbOpenTransactional().invokeExact(nativeOptions, nativePath,
                    optimistic ? Downcalls.TRANSACTIONS_OPTIMISTIC : Downcalls.TRANSACTIONS_PESSIMISTIC, txnOptions,
                    dbOut, scratch.err, ERR_CAP);
        });
    }

    /** The open call of {@link #open(Path, DbOptions, SharedHandles, OpenCall)}. */
    private interface OpenCall {
        int run(MemorySegment nativeOptions, MemorySegment nativePath, MemorySegment dbOut, Scratch scratch,
                Arena arena) throws Throwable;
    }

    private static FfmDb open(Path path, DbOptions options, SharedHandles shared, OpenCall open) {
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment dbOut = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment nativePath = NativeStrings.allocate(arena, path.toString(), "path");
            Callbacks.ComparatorWatch comparators = new Callbacks.ComparatorWatch();
            NativeOptions.with(options, shared, comparators, nativeOptions -> check(
                    open.run(nativeOptions, nativePath, dbOut, scratch, arena), scratch));
            return new FfmDb(dbOut.get(ValueLayout.ADDRESS, 0),
                    options.memoryFirstReads() && options.statistics() == StatsLevel.OFF, comparators);
        }
    }

    /**
     * Returns which kind of database this is (pr_db_transactions).
     *
     * @return whether the database was opened for optimistic transactions, pessimistic ones, or
     *     neither (null)
     */
    public Boolean optimisticTransactions() {
        try {
            int kind = (int) Downcalls.dbTransactions().invokeExact(handle);
            return kind == 0 ? null : kind == Downcalls.TRANSACTIONS_OPTIMISTIC;
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Takes a snapshot; returns its native handle. */
    public long createSnapshot() {
        return word((scratch, arena) -> (int) Downcalls.dbSnapshotCreate().invokeExact(handle, scratch.word, scratch.err, ERR_CAP))
                .getAsLong();
    }

    /** Releases a snapshot handle; no read may be using it. */
    public void releaseSnapshot(long snapshot) {
        try {
            Downcalls.dbSnapshotRelease().invokeExact(handle, MemorySegment.ofAddress(snapshot));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Changes options of the open database or of this handle's family (pr_db_set_options).
     *
     * @param familyScope whether text names column family options rather than database ones
     */
    public void setOptions(boolean familyScope, String text) {
        int scope = familyScope ? Downcalls.OPTION_SCOPE_FAMILY : Downcalls.OPTION_SCOPE_DB;
        call((scratch, arena) -> (int) Downcalls.dbSetOptions().invokeExact(handle, scope,
                NativeStrings.allocate(arena, text, "options"), scratch.err, ERR_CAP));
    }

    /**
     * Changes, while open, every option of the database or of this handle's
     * family that options set (pr_db_set_options_from); what only an open
     * takes is refused with InvalidArgumentException, as the native call
     * refuses its own.
     *
     * @param familyScope whether to change column family options rather than database ones
     * @param shared the native handles of the shared objects options name
     */
    public void setOptions(boolean familyScope, DbOptions options, SharedHandles shared) {
        if (options.memoryFirstReads() != DbOptions.create().memoryFirstReads()) {
            throw RocksDbException.of(StatusCode.INVALID_ARGUMENT.nativeCode(),
                    "Invalid argument: memoryFirstReads can only be set when the database opens");
        }
        int scope = familyScope ? Downcalls.OPTION_SCOPE_FAMILY : Downcalls.OPTION_SCOPE_DB;
        NativeOptions.with(options, shared, nativeOptions -> call((scratch, arena) -> (int) Downcalls
                .dbSetOptionsFrom().invokeExact(handle, scope, nativeOptions, scratch.err, ERR_CAP)));
    }

    /** Flushes this family's memtable into a table file. */
    public void flush() {
        call((scratch, arena) -> (int) Downcalls.dbFlush().invokeExact(handle, scratch.err, ERR_CAP));
    }

    /** Compacts [begin, end) of this family; a null bound is open. */
    public void compactRange(byte[] begin, byte[] end) {
        int bounds = (begin != null ? Downcalls.RANGE_HAS_BEGIN : 0) | (end != null ? Downcalls.RANGE_HAS_END : 0);
        call((scratch, arena) -> {
            MemorySegment first = begin != null ? arena.allocateFrom(ValueLayout.JAVA_BYTE, begin) : MemorySegment.NULL;
            MemorySegment last = end != null ? arena.allocateFrom(ValueLayout.JAVA_BYTE, end) : MemorySegment.NULL;
            return (int) Downcalls.dbCompactRange().invokeExact(handle, first, first.byteSize(), last, last.byteSize(), bounds,
                    scratch.err, ERR_CAP);
        });
    }

    /** Returns the approximate bytes [begin, end) of this family takes, in files and memtables. */
    public long approximateSize(byte[] begin, byte[] end) {
        return word((scratch, arena) -> {
            MemorySegment first = arena.allocateFrom(ValueLayout.JAVA_BYTE, begin);
            MemorySegment last = arena.allocateFrom(ValueLayout.JAVA_BYTE, end);
            return (int) Downcalls.dbApproximateSize().invokeExact(handle, first, first.byteSize(), last, last.byteSize(),
                    scratch.word, scratch.err, ERR_CAP);
        }).getAsLong();
    }

    /** Writes an openable copy of the database into directory, which must not exist. */
    public void checkpoint(Path directory) {
        call((scratch, arena) -> (int) Downcalls.dbCheckpoint().invokeExact(handle,
                NativeStrings.allocate(arena, directory.toString(), "directory"), scratch.err, ERR_CAP));
    }

    /** Adds finished table files to this family atomically, moving them when move is set. */
    public void ingest(String[] files, boolean move) {
        call((scratch, arena) -> {
            MemorySegment paths = arena.allocate(ValueLayout.ADDRESS, Math.max(1, files.length));
            for (int i = 0; i < files.length; i++) {
                paths.setAtIndex(ValueLayout.ADDRESS, i, NativeStrings.allocate(arena, files[i], "file"));
            }
            return (int) Downcalls.dbIngest().invokeExact(handle, paths, (long) files.length, move ? Downcalls.INGEST_MOVE : 0,
                    scratch.err, ERR_CAP);
        });
    }

    /** Returns the integer property, or -1 when RocksDB knows no integer property of that name. */
    public long propertyLong(String name) {
        return word((scratch, arena) -> (int) Downcalls.dbPropertyInt().invokeExact(handle, NativeStrings.allocate(arena, name,
                "name"), scratch.word, scratch.err, ERR_CAP)).orElse(-1);
    }

    /** Returns the string property, or null when RocksDB knows no property of that name. */
    public String property(String name) {
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment nativeName = NativeStrings.allocate(arena, name, "name");
            MemorySegment buf = scratch.value;
            while (true) {
                int status = (int) Downcalls.dbProperty().invokeExact(handle, nativeName, buf, buf.byteSize(), scratch.word,
                        scratch.err, ERR_CAP);
                if (status == Downcalls.NOT_FOUND) {
                    return null;
                }
                check(status, scratch);
                long length = scratch.word.get(ValueLayout.JAVA_LONG, 0);
                if (length <= buf.byteSize()) {
                    return new String(buf.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
                }
                buf = arena.allocate(length);
            }
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Reads every statistic (pr_db_statistics) into native arrays: a uint64
     * per ticker and a pr_histogram per histogram, in the order of
     * {@link NativeStatistics}.
     */
    public void statistics(MemorySegment tickers, long tickerCount, MemorySegment histograms, long histogramCount) {
        call((scratch, arena) -> (int) Downcalls.dbStatistics().invokeExact(handle, tickers, tickerCount, histograms,
                histogramCount, scratch.err, ERR_CAP));
    }

    /** Resets every statistic to zero. */
    public void resetStatistics() {
        call((scratch, arena) -> (int) Downcalls.dbStatisticsReset().invokeExact(handle, scratch.err, ERR_CAP));
    }

    /** Asks RocksDB to recover from the background error that stopped the database (pr_db_resume). */
    public void resume() {
        call((scratch, arena) -> (int) Downcalls.dbResume().invokeExact(handle, scratch.err, ERR_CAP));
    }

    /** Fills a native pr_memory_usage (pr_db_memory_usage). */
    public void memoryUsage(MemorySegment usage) {
        call((scratch, arena) -> (int) Downcalls.dbMemoryUsage().invokeExact(handle, usage, scratch.err, ERR_CAP));
    }

    /** The column families of the database at path (pr_db_list_families). */
    public static List<String> listFamilies(Path path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativePath = NativeStrings.allocate(arena, path.toString(), "path");
            return names((buf, length, scratch) -> (int) Downcalls.dbListFamilies().invokeExact(MemorySegment.NULL, nativePath,
                    buf, buf.byteSize(), length, scratch.err, ERR_CAP));
        }
    }

    /**
     * The options the database at path was last opened with (pr_options_latest):
     * its database option string, then for each column family (the default
     * one first) its name, merge operator ("" for none), column family
     * option string and table option string.
     */
    public static List<String> latestOptions(Path path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativePath = NativeStrings.allocate(arena, path.toString(), "path");
            return names((buf, length, scratch) -> (int) Downcalls.optionsLatest().invokeExact(nativePath, buf,
                    buf.byteSize(), length, scratch.err, ERR_CAP));
        }
    }

    /**
     * Rebuilds the metadata of the closed database at path (RocksDB's RepairDB).
     *
     * @param path the absolute database directory
     * @param options the options the database is opened with
     */
    public static void repair(Path path, DbOptions options) {
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment nativePath = NativeStrings.allocate(arena, path.toString(), "path");
            NativeOptions.with(options, SharedHandles.NONE, nativeOptions -> check(
                    (int) Downcalls.dbRepair().invokeExact(nativeOptions, nativePath, scratch.err, ERR_CAP), scratch));
        }
    }

    /** A call that writes NUL-terminated names into buf and their full length into length. */
    private interface NamesCall {
        int run(MemorySegment buf, MemorySegment length, Scratch scratch) throws Throwable;
    }

    /** Runs a names call, with a larger buffer when the first was too small, and splits its names. */
    private static List<String> names(NamesCall call) {
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment buf = scratch.value;
            while (true) {
                check(call.run(buf, scratch.word, scratch), scratch);
                long length = scratch.word.get(ValueLayout.JAVA_LONG, 0);
                if (length <= buf.byteSize()) {
                    // Each name ends with a NUL and contains none.
                    String joined = new String(buf.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE),
                            StandardCharsets.UTF_8);
                    return joined.isEmpty() ? List.of()
                            : List.of(joined.substring(0, joined.length() - 1).split("\0", -1));
                }
                buf = arena.allocate(length);
            }
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Finds an open column family of this database.
     *
     * @return its handle, or null when there is none of that name
     */
    public FfmDb family(String name) {
        OptionalLong family = word((scratch, arena) -> (int) Downcalls.dbFamily().invokeExact(handle,
                NativeStrings.allocate(arena, name, "name"), scratch.word, scratch.err, ERR_CAP));
        return family.isPresent() ? new FfmDb(MemorySegment.ofAddress(family.getAsLong()), memoryFirst, comparators) : null;
    }

    /**
     * Creates a column family.
     *
     * @param options its options, or null for those of the default family
     * @param shared the database's shared objects' native handles (its memory budget's matters)
     * @return its handle
     */
    public FfmDb createFamily(String name, DbOptions options, SharedHandles shared) {
        long family = word((scratch, arena) -> {
            MemorySegment nativeName = NativeStrings.allocate(arena, name, "name");
            if (options == null) {
                return (int) Downcalls.dbCreateFamily().invokeExact(handle, MemorySegment.NULL, nativeName, scratch.word,
                        scratch.err, ERR_CAP);
            }
            int[] status = new int[1];
            NativeOptions.with(options, shared, comparators, nativeOptions -> status[0] = (int) Downcalls.dbCreateFamily().invokeExact(
                    handle, nativeOptions, nativeName, scratch.word, scratch.err, ERR_CAP));
            return status[0];
        }).getAsLong();
        return new FfmDb(MemorySegment.ofAddress(family), memoryFirst, comparators);
    }

    /** Drops this handle's column family; the handle stays valid (writes fail) until {@link #releaseFamily()}. */
    public void dropFamily() {
        call((scratch, arena) -> (int) Downcalls.dbDropFamily().invokeExact(handle, scratch.err, ERR_CAP));
    }

    /**
     * Frees this dropped family's handle, and what RocksDB keeps of the family (its
     * memtables, its part in write stalls), once cursors opened on it have closed. The
     * handle must not be used afterwards: call with no call on it in flight.
     */
    public void releaseFamily() {
        call((scratch, arena) -> (int) Downcalls.dbFamilyRelease().invokeExact(handle, scratch.err, ERR_CAP));
    }

    /**
     * Marks the database closing, or open again: while closing, writes waiting out a write
     * stall give up with {@link dev.pinrock.StatusCode#SHUTDOWN_IN_PROGRESS}. Safe during any
     * call but {@link #close()}.
     */
    public void setClosing(boolean closing) {
        try {
            Downcalls.dbSetClosing().invokeExact(handle, closing ? 1 : 0);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** @return the names of this database's open column families */
    public List<String> familyNames() {
        return names((buf, length, scratch) -> (int) Downcalls.dbFamilyNames().invokeExact(handle, buf, buf.byteSize(), length,
                scratch.err, ERR_CAP));
    }

    /** @return this handle's column family id, as write batch records name it */
    public int familyId() {
        try {
            return (int) Downcalls.dbFamilyId().invokeExact(handle);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** @return the native pr_db_t* of this handle, for the data paths */
    MemorySegment handle() {
        return handle;
    }

    /** @return a memory-first policy of its own for one data path of this handle */
    MemoryFirst memoryFirst() {
        return memoryFirst ? MemoryFirst.adaptive() : MemoryFirst.NEVER;
    }

    /** Closes the native database; called exactly once, when no other call is in flight. */
    public void close() {
        call((scratch, arena) -> (int) Downcalls.dbClose().invokeExact(handle, scratch.err, ERR_CAP));
    }
}
