package dev.pinrock;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.pinrock.internal.FfmDb;
import dev.pinrock.internal.NativeLibrary;
import dev.pinrock.internal.NativeStrings;

/**
 * The settings {@link RocksDb#open(java.nio.file.Path, DbOptions)} applies.
 * Immutable and thread-safe: each {@code with}-style method returns a copy
 * with one setting changed, so a value can be shared and reused.
 *
 * <pre>{@code
 * DbOptions options = DbOptions.create().createIfMissing(true).compression(Compression.ZSTD);
 * }</pre>
 *
 * <p>Numeric values are validated by the native layer when the database opens;
 * an out-of-range value makes {@code open} throw
 * {@link RocksDbException.InvalidArgumentException} naming the allowed range,
 * before anything is written to disk.
 */
public final class DbOptions {
    /** Keep every table file open. */
    public static final int UNLIMITED_OPEN_FILES = -1;

    private static final DbOptions DEFAULTS = new DbOptions(new Values());
    /** RocksDB's name of the column family every database has. */
    private static final String DEFAULT_FAMILY = "default";

    /** What these options hold; never changed once made (each setter changes a copy). */
    private final Values v;

    /** The settings, each with its default; a setter changes one in a copy. */
    private static final class Values implements Cloneable {
        boolean createIfMissing;
        boolean errorIfExists;
        boolean paranoidChecks = true;
        WalRecovery walRecovery = WalRecovery.POINT_IN_TIME;
        Compression compression = Compression.LZ4;
        Compression bottommostCompression = Compression.ZSTD;
        int zstdLevel = 3;
        long blockCacheBytes = 32L << 20;
        long writeBufferBytes = 64L << 20;
        int maxOpenFiles = UNLIMITED_OPEN_FILES;
        String mergeOperator;
        MergeOperator javaMergeOperator;
        KeyComparator comparator = KeyComparator.BYTEWISE;
        CompactionFilterFactory compactionFilter;
        MemoryBudget memoryBudget;
        RateLimiter rateLimiter;
        SstFileManager sstFileManager;
        List<Compression> compressionPerLevel = List.of();
        int zstdDictionaryBytes;
        int zstdTrainingBytes;
        int compressionThreads = 1;
        StatsLevel statistics = StatsLevel.OFF;
        InfoLogLevel infoLogLevel = InfoLogLevel.INFO;
        boolean infoLogToSystemLogger;
        InfoLogger infoLogger;
        EventListener eventListener;
        boolean autoRecovery = true;
        boolean memoryFirstReads = true;
        Map<String, DbOptions> columnFamilyOptions = Map.of();
        List<String> databaseOptions = List.of();
        List<String> familyOptions = List.of();
        List<String> tableOptions = List.of();

        /** A copy to change: every field is immutable, so a shallow copy is one. */
        Values copy() {
            try {
                return (Values) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    private DbOptions(Values v) {
        this.v = v;
    }

    private Values values() {
        return v.copy();
    }

    /**
     * Returns the defaults: open an existing database only, paranoid checks on,
     * LZ4 on upper levels and zstd (level 3) on the bottommost level, a 32 MiB
     * block cache, 64 MiB memtables, every table file kept open.
     *
     * @return the default options
     */
    public static DbOptions create() {
        return DEFAULTS;
    }

    /**
     * Returns the options the database at {@code database} was last opened
     * with, read from the newest OPTIONS file RocksDB wrote there (RocksDB's
     * {@code LoadLatestOptions}), whichever program wrote it: pinrock,
     * RocksJava or any RocksDB application. They come as option strings
     * ({@link #databaseOptions(String)}, {@link #familyOptions(String)},
     * {@link #tableOptions(String)}; every option RocksDB records, a Bloom
     * filter and a prefix extractor included), a
     * {@link #comparator(KeyComparator)}, a {@link #mergeOperator(String)}
     * and a {@link #columnFamily(String, DbOptions)} for each other family, so
     * that {@link RocksDb#open(Path, DbOptions)} opens it as it was. Not in
     * them: {@code create_if_missing} and {@code error_if_exists} (they belong
     * to an open), the block cache ({@link #blockCacheBytes(long)}'s default
     * unless set), statistics and the info log. Typed settings made on the
     * result that differ from their defaults are applied after the strings.
     *
     * @param database the database directory
     * @return the options it was last opened with
     * @throws RocksDbException with {@link StatusCode#NOT_FOUND} when the directory holds no OPTIONS file
     * @throws RocksDbException.InvalidArgumentException naming the family and what pinrock cannot offer,
     *     for a database written with a comparator that is not one of RocksDB's built-in ones (one written in Java
     *     included), a merge operator pinrock does
     *     not offer, a compaction filter (one written in Java too) or a table format other than
     *     block-based, or naming an object
     *     of the writing program's own that RocksDB cannot make by name (a merge operator, comparator,
     *     compaction filter, prefix extractor, ...)
     */
    public static DbOptions loadLatest(Path database) {
        NativeLibrary.load(); // before any class that needs the library, see NativeLibrary
        List<String> texts = FfmDb.latestOptions(Objects.requireNonNull(database, "database").toAbsolutePath());
        DbOptions options = create().databaseOptions(texts.get(0));
        // Five texts per family: name, merge operator, comparator, family options, table options.
        for (int i = 1; i + 4 < texts.size(); i += 5) {
            String name = texts.get(i);
            String mergeOperator = texts.get(i + 1);
            DbOptions family = (name.equals(DEFAULT_FAMILY) ? options : create())
                    .comparator(KeyComparator.named(texts.get(i + 2)))
                    .familyOptions(texts.get(i + 3)).tableOptions(texts.get(i + 4));
            family = mergeOperator.isEmpty() ? family : family.mergeOperator(mergeOperator);
            options = name.equals(DEFAULT_FAMILY) ? family : options.columnFamily(name, family);
        }
        return options;
    }

    /**
     * Returns a copy that creates the database when it does not exist.
     *
     * @param value whether to create a missing database (default false)
     * @return a copy with the setting changed
     */
    public DbOptions createIfMissing(boolean value) {
        Values v = values();
        v.createIfMissing = value;
        return new DbOptions(v);
    }

    /**
     * Returns a copy that refuses to open an existing database.
     *
     * @param value whether an existing database is an error (default false)
     * @return a copy with the setting changed
     */
    public DbOptions errorIfExists(boolean value) {
        Values v = values();
        v.errorIfExists = value;
        return new DbOptions(v);
    }

    /**
     * Returns a copy with RocksDB's paranoid checks switched on or off.
     *
     * @param value whether to verify aggressively (default true)
     * @return a copy with the setting changed
     */
    public DbOptions paranoidChecks(boolean value) {
        Values v = values();
        v.paranoidChecks = value;
        return new DbOptions(v);
    }

    /**
     * Returns a copy that replays a damaged write-ahead log as {@code mode}
     * says when the database opens.
     *
     * @param mode the recovery mode (default {@link WalRecovery#POINT_IN_TIME})
     * @return a copy with the setting changed
     */
    public DbOptions walRecovery(WalRecovery mode) {
        Values v = values();
        v.walRecovery = Objects.requireNonNull(mode, "mode");
        return new DbOptions(v);
    }

    /**
     * Returns a copy with the compression of every level, including the
     * bottommost one.
     *
     * @param value the algorithm for all levels
     * @return a copy with the setting changed
     */
    public DbOptions compression(Compression value) {
        Objects.requireNonNull(value, "compression");
        Values v = values();
        v.compression = value;
        v.bottommostCompression = value;
        return new DbOptions(v);
    }

    /**
     * Returns a copy with the compression of the bottommost level only (where
     * most data lives). Call after {@link #compression(Compression)}, which
     * sets both.
     *
     * @param value the algorithm for the bottommost level (default ZSTD)
     * @return a copy with the setting changed
     */
    public DbOptions bottommostCompression(Compression value) {
        Objects.requireNonNull(value, "bottommostCompression");
        Values v = values();
        v.bottommostCompression = value;
        return new DbOptions(v);
    }

    /**
     * Returns a copy with the zstd level of every level that uses zstd.
     *
     * @param value 1..22, or a negative "fast" level down to -131072 (default 3)
     * @return a copy with the setting changed
     */
    public DbOptions zstdLevel(int value) {
        Values v = values();
        v.zstdLevel = value;
        return new DbOptions(v);
    }

    /**
     * Returns a copy with the block cache capacity.
     *
     * @param value bytes of uncompressed blocks kept in memory; 0 disables the cache (default 32 MiB)
     * @return a copy with the setting changed
     */
    public DbOptions blockCacheBytes(long value) {
        Values v = values();
        v.blockCacheBytes = value;
        return new DbOptions(v);
    }

    /**
     * Returns a copy with the memtable size. RocksDB preallocates 1.1 times this
     * on disk for each log file: the disk needs that much free beyond the data.
     *
     * @param value bytes per memtable, 64 KiB to 64 GiB (default 64 MiB; RocksDB's own range,
     *     refused outside it at open)
     * @return a copy with the setting changed
     */
    public DbOptions writeBufferBytes(long value) {
        Values v = values();
        v.writeBufferBytes = value;
        return new DbOptions(v);
    }

    /**
     * Returns a copy with the number of table files kept open.
     *
     * @param value {@link #UNLIMITED_OPEN_FILES} or at least 20 (default unlimited)
     * @return a copy with the setting changed
     */
    public DbOptions maxOpenFiles(int value) {
        Values v = values();
        v.maxOpenFiles = value;
        return new DbOptions(v);
    }

    /**
     * Returns a copy with a merge operator, which {@link WriteBatch#merge(byte[], byte[])}
     * needs: one of the RocksDB built-ins pinrock offers, by name: "uint64add"
     * (little-endian 64-bit sums), "stringappend" (comma-joined), "max"
     * (bytewise maximum), "put" (last value wins) or "bytesxor". Any other
     * name (RocksDB's "sortlist", which fails on operands that are not lists
     * of numbers, and option strings included) makes {@code open} throw
     * InvalidArgumentException naming the allowed ones. With "uint64add",
     * writing a batch that merges an operand of other than 8 bytes throws
     * InvalidArgumentException and applies nothing; an existing value of
     * other than 8 bytes (written by {@code put}) counts as 0.
     * A database written with a merge operator must be opened with it (see
     * {@link #columnFamily(String, DbOptions)}). Replaces a
     * {@link #mergeOperator(MergeOperator)}.
     *
     * @param name the operator's name, or null for none (the default)
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when name contains a NUL character or an unpaired surrogate
     */
    public DbOptions mergeOperator(String name) {
        if (name != null) {
            NativeStrings.require(name, "name");
        }
        Values v = values();
        v.mergeOperator = name;
        v.javaMergeOperator = null;
        return new DbOptions(v);
    }

    /**
     * Returns a copy with a merge operator written in Java (see
     * {@link MergeOperator}), for the default family or, in the options of
     * {@link #columnFamily(String, DbOptions)}, for that family. Replaces a
     * merge operator by name. Its name is checked when a database opens:
     * {@code open} throws InvalidArgumentException for a name out of the
     * allowed ones or naming one of RocksDB's built-ins. Options holding
     * one cannot be {@link #loadLatest(Path) loaded} back, as its code is
     * not in the OPTIONS file: build them again with the operator.
     *
     * @param operator the operator, or null for none (the default)
     * @return a copy with the setting changed
     */
    public DbOptions mergeOperator(MergeOperator operator) {
        Values v = values();
        v.javaMergeOperator = operator;
        v.mergeOperator = null;
        return new DbOptions(v);
    }

    /**
     * Returns a copy whose keys are in another order (see
     * {@link KeyComparator}), for the default family or, in the options of
     * {@link #columnFamily(String, DbOptions)}, for that family. A family
     * keeps the order it was created with: {@code open} throws
     * InvalidArgumentException naming both when it is given another.
     *
     * @param comparator the order of the keys (default {@link KeyComparator#BYTEWISE})
     * @return a copy with the setting changed
     */
    public DbOptions comparator(KeyComparator comparator) {
        Values v = values();
        v.comparator = Objects.requireNonNull(comparator, "comparator");
        return new DbOptions(v);
    }

    /**
     * Returns a copy with a compaction filter written in Java (see
     * {@link CompactionFilter}), for the default family or, in the options of
     * {@link #columnFamily(String, DbOptions)}, for that family. Its name is
     * checked when a database opens: {@code open} throws
     * InvalidArgumentException for a name out of the allowed ones. Options
     * holding one cannot be {@link #loadLatest(Path) loaded} back, as its
     * code is not in the OPTIONS file: build them again with the filter.
     *
     * @param factory the factory of each compaction's filter, or null for none (the default)
     * @return a copy with the setting changed
     */
    public DbOptions compactionFilter(CompactionFilterFactory factory) {
        Values v = values();
        v.compactionFilter = factory;
        return new DbOptions(v);
    }

    /**
     * Returns a copy whose databases share a memory budget: its block cache
     * replaces {@link #blockCacheBytes(long)}, and their memtables are charged
     * to it and flushed when they pass its memtable share.
     *
     * @param budget the budget, open when the database opens, or null for none (the default)
     * @return a copy with the setting changed
     */
    public DbOptions memoryBudget(MemoryBudget budget) {
        Values v = values();
        v.memoryBudget = budget;
        return new DbOptions(v);
    }

    /**
     * Returns a copy whose databases share a rate limiter for their flushes
     * and compactions (RocksDB's {@code rate_limiter}).
     *
     * @param limiter the limiter, open when the database opens, or null for none (the default)
     * @return a copy with the setting changed
     */
    public DbOptions rateLimiter(RateLimiter limiter) {
        Values v = values();
        v.rateLimiter = limiter;
        return new DbOptions(v);
    }

    /**
     * Returns a copy whose databases share an SST file manager, which tracks
     * their table files' total size, caps it and paces deletions (RocksDB's
     * {@code sst_file_manager}).
     *
     * @param manager the manager, open when the database opens, or null for none (the default)
     * @return a copy with the setting changed
     */
    public DbOptions sstFileManager(SstFileManager manager) {
        Values v = values();
        v.sstFileManager = manager;
        return new DbOptions(v);
    }

    /**
     * Returns a copy with the compression of each level. The first entry is
     * level 0; as RocksDB sizes levels dynamically, the next entries are the
     * levels counted from the one level 0 compacts into, and the last entry
     * covers every level after it. The bottommost level still uses
     * {@link #bottommostCompression(Compression)}.
     *
     * @param levels up to 7 algorithms, none to use {@link #compression(Compression)} everywhere
     * @return a copy with the setting changed
     */
    public DbOptions compressionPerLevel(Compression... levels) {
        Values v = values();
        v.compressionPerLevel = List.of(Objects.requireNonNull(levels, "levels"));
        return new DbOptions(v);
    }

    /**
     * Returns a copy with zstd dictionary compression: every table file gets
     * a dictionary, which helps most with many small, similar values.
     *
     * @param dictionaryBytes the dictionary size per file (0 disables, the default; 16 KiB is typical)
     * @param trainingBytes how much sampled data zstd's trainer learns from (0: the samples are
     *     the dictionary; otherwise at least dictionaryBytes, e.g. 100 times it)
     * @return a copy with the setting changed
     */
    public DbOptions zstdDictionary(int dictionaryBytes, int trainingBytes) {
        Values v = values();
        v.zstdDictionaryBytes = dictionaryBytes;
        v.zstdTrainingBytes = trainingBytes;
        return new DbOptions(v);
    }

    /**
     * Returns a copy that compresses each table file being written with
     * several threads.
     *
     * @param threads 1 to 64 (default 1)
     * @return a copy with the setting changed
     */
    public DbOptions compressionThreads(int threads) {
        Values v = values();
        v.compressionThreads = threads;
        return new DbOptions(v);
    }

    /**
     * Returns the compression per level, empty when every level uses {@link #compression()}.
     *
     * @return the compression per level, empty when every level uses {@link #compression()}
     */
    public List<Compression> compressionPerLevel() {
        return v.compressionPerLevel;
    }

    /**
     * Returns the zstd dictionary size per table file, 0 when disabled.
     *
     * @return the zstd dictionary size per table file, 0 when disabled
     */
    public int zstdDictionaryBytes() {
        return v.zstdDictionaryBytes;
    }

    /**
     * Returns the bytes zstd's dictionary trainer samples, 0 when not training.
     *
     * @return the bytes zstd's dictionary trainer samples, 0 when not training
     */
    public int zstdTrainingBytes() {
        return v.zstdTrainingBytes;
    }

    /**
     * Returns the threads compressing each table file.
     *
     * @return the threads compressing each table file
     */
    public int compressionThreads() {
        return v.compressionThreads;
    }

    /**
     * Returns a copy that collects RocksDB statistics, read with
     * {@link RocksDb#statistics()}.
     *
     * @param level how much to collect; {@link StatsLevel#OFF} (the default) collects nothing
     * @return a copy with the setting changed
     */
    public DbOptions statistics(StatsLevel level) {
        Values v = values();
        v.statistics = Objects.requireNonNull(level, "level");
        return new DbOptions(v);
    }

    /**
     * Returns how much statistics collect.
     *
     * @return how much statistics collect
     */
    public StatsLevel statistics() {
        return v.statistics;
    }

    /**
     * Returns a copy that logs RocksDB's info log from this severity up.
     *
     * @param level the lowest severity logged; {@link InfoLogLevel#INFO} by default
     * @return a copy with the setting changed
     */
    public DbOptions infoLogLevel(InfoLogLevel level) {
        Values v = values();
        v.infoLogLevel = Objects.requireNonNull(level, "level");
        return new DbOptions(v);
    }

    /**
     * Returns the lowest severity of the info log.
     *
     * @return the lowest severity of the info log
     */
    public InfoLogLevel infoLogLevel() {
        return v.infoLogLevel;
    }

    /**
     * Returns a copy that sends RocksDB's info log to {@link System.Logger}
     * instead of the file {@code LOG} in the database directory. Messages go
     * to the logger named {@code dev.pinrock.rocksdb} at the level
     * {@link InfoLogLevel#loggerLevel()} names, as {@code "<path>: <message>"},
     * from one daemon thread, {@code pinrock-info-log}, started with the first
     * database that uses it. Messages wait in a native queue of 4096 shared by
     * all databases; when the logger falls that far behind, the oldest are
     * dropped and a warning says how many. Database-wide: the options of a
     * {@link #columnFamily(String, DbOptions) column family} refuse it.
     *
     * @param value whether to log through System.Logger (default false: the file)
     * @return a copy with the setting changed
     */
    public DbOptions infoLogToSystemLogger(boolean value) {
        Values v = values();
        v.infoLogToSystemLogger = value;
        v.infoLogger = null;
        return new DbOptions(v);
    }

    /**
     * Returns a copy that sends RocksDB's info log to logger instead of the
     * file {@code LOG} in the database directory (see {@link InfoLogger}),
     * or, when logger is null, back to the file. Replaces
     * {@link #infoLogToSystemLogger(boolean)}. Database-wide: the options of
     * a {@link #columnFamily(String, DbOptions) column family} refuse one.
     *
     * @param logger the logger of the databases opened with these options, or null
     * @return a copy with the setting changed
     */
    public DbOptions infoLogger(InfoLogger logger) {
        Values v = values();
        v.infoLogger = logger;
        v.infoLogToSystemLogger = false;
        return new DbOptions(v);
    }

    /**
     * Returns the logger the info log goes to, or null for none (the file, or {@link System.Logger}).
     *
     * @return the logger, or null
     */
    public InfoLogger infoLogger() {
        return v.infoLogger;
    }

    /**
     * Returns a copy whose databases tell listener what RocksDB does in them
     * (see {@link EventListener}: flushes, compactions, files, stalls,
     * background errors), or, when listener is null, tell no one (the
     * default). Database-wide: the options of a
     * {@link #columnFamily(String, DbOptions) column family} refuse one.
     *
     * @param listener the listener, or null
     * @return a copy with the setting changed
     */
    public DbOptions eventListener(EventListener listener) {
        Values v = values();
        v.eventListener = listener;
        return new DbOptions(v);
    }

    /**
     * Returns the listener of the databases opened with these options, or null for none.
     *
     * @return the listener, or null
     */
    public EventListener eventListener() {
        return v.eventListener;
    }

    /**
     * Returns a copy that sets whether RocksDB recovers by itself from the
     * background errors it can recover from: an out-of-space it sees end
     * (with an {@link SstFileManager}), a retryable I/O error (retried
     * every second by default, {@code bgerror_resume_retry_interval}). With
     * false, such a database keeps refusing what the error stopped (flushes,
     * and writes for a hard error) until {@link RocksDb#resume()}, and the
     * option string {@code max_bgerror_resume_count} is overridden with 0.
     * An {@link EventListener} is told of each error and recovery either way.
     *
     * @param value whether RocksDB recovers by itself (default true)
     * @return a copy with the setting changed
     */
    public DbOptions autoRecovery(boolean value) {
        Values v = values();
        v.autoRecovery = value;
        return new DbOptions(v);
    }

    /**
     * Returns whether RocksDB recovers from background errors by itself.
     *
     * @return whether RocksDB recovers from background errors by itself
     */
    public boolean autoRecovery() {
        return v.autoRecovery;
    }

    /**
     * Returns whether the info log goes to {@link System.Logger} rather than the file.
     *
     * @return whether the info log goes to {@link System.Logger} rather than the file
     */
    public boolean infoLogToSystemLogger() {
        return v.infoLogToSystemLogger;
    }

    /**
     * Returns a copy whose gets try memory first, or not. A get that tries
     * memory first reads from the memtables and the block cache only, through
     * a cheaper call (one that cannot block), and reads normally when that
     * would need I/O. It pays while nearly every get finds its data in memory
     * and costs a wasted lookup on every get that does not, so each column
     * family measures its own reads and tries memory first only while at most
     * 1% of those tries need I/O (otherwise on one get in 64, to notice a
     * change). Gets through a snapshot or with read options other than the
     * defaults read normally, and so do all gets with
     * {@link #statistics(StatsLevel) statistics} on (a try that needs I/O
     * would count as a second read). On virtual threads, whatever these
     * settings, every get tries memory first, and one that needs I/O runs on
     * a platform thread of pinrock's while the virtual thread waits unmounted,
     * so that no carrier thread is held during a read from disk; a multiGet
     * on a virtual thread always runs on such a platform thread (cursor moves
     * and writes still hold their carrier while they run).
     *
     * @param value whether gets may try memory first (default true)
     * @return a copy with the setting changed
     */
    public DbOptions memoryFirstReads(boolean value) {
        Values v = values();
        v.memoryFirstReads = value;
        return new DbOptions(v);
    }

    /**
     * Returns whether gets may try memory first.
     *
     * @return whether gets may try memory first
     */
    public boolean memoryFirstReads() {
        return v.memoryFirstReads;
    }

    /**
     * Returns a copy that opens an existing column family with its own
     * options; families without an entry use these options. Only the
     * per-family settings of {@code options} apply (compression, zstd,
     * block cache, write buffer, merge operator); the database-wide ones
     * (create/error if exists, paranoid checks, open files, statistics,
     * info log, memory budget, event listener, auto recovery) come from these
     * options alone.
     *
     * <p>A family created with a merge operator of its own must be given it
     * here on every open and repair: its log may hold merges only that
     * operator applies, and a recovery that cannot apply one would drop it and
     * every write after it, in all families. {@link RocksDb#open(Path, DbOptions)}
     * and {@link RocksDb#repair(Path, DbOptions)} therefore refuse, with
     * {@link RocksDbException.InvalidArgumentException} naming the family and
     * both operators, a family given another merge operator (or none) than the
     * database last opened it with. Adding one where it had none is allowed.
     *
     * @param name the family's name
     * @param options the family's options; without a memory budget, rate limiter or SST file
     *     manager of their own (a family uses the database's)
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when options has a memory budget, a rate limiter, an SST
     *     file manager, an event listener, an info logger (or the info log to {@link System.Logger})
     *     or column family options,
     *     or name contains a NUL character or an unpaired surrogate
     */
    public DbOptions columnFamily(String name, DbOptions options) {
        NativeStrings.require(Objects.requireNonNull(name, "name"), "name");
        requireFamilyOptions(options);
        Values v = values();
        Map<String, DbOptions> families = new LinkedHashMap<>(v.columnFamilyOptions);
        families.put(name, options);
        v.columnFamilyOptions = Collections.unmodifiableMap(families);
        return new DbOptions(v);
    }

    /** Checks that options can be a column family's: no database-wide shared objects or nested families. */
    static DbOptions requireFamilyOptions(DbOptions options) {
        Objects.requireNonNull(options, "options");
        if (options.v.memoryBudget != null || options.v.rateLimiter != null || options.v.sstFileManager != null
                || options.v.eventListener != null || options.v.infoLogger != null || options.v.infoLogToSystemLogger) {
            throw new IllegalArgumentException("a column family uses its database's memory budget, rate limiter,"
                    + " SST file manager, event listener and info log, not its own");
        }
        if (!options.v.columnFamilyOptions.isEmpty()) {
            throw new IllegalArgumentException("column family options cannot name column families");
        }
        return options;
    }

    /**
     * Returns a copy that also sets database-wide options by RocksDB's own
     * names and values (its {@code DBOptions}), as RocksDB's option strings
     * and OPTIONS files write them: {@code "name=value;name=value"}, sizes
     * with K, M or G, e.g. {@code "max_background_jobs=4;bytes_per_sync=1M"}.
     * RocksDB's parsers read them when the database opens; every name RocksDB
     * 9.10 knows works but those pinrock sets itself or does not offer
     * ({@code statistics}, {@code info_log}, {@code env}, {@code rate_limiter}
     * and other objects RocksDB would make by name), thread counts above
     * 256, and values that change what an acknowledged write means, in any
     * spelling: {@code manual_wal_flush}, {@code avoid_flush_during_shutdown},
     * {@code best_efforts_recovery}, {@code unordered_write} or
     * {@code allow_mmap_writes} set to true (docs/reliability.md lists them
     * and those pinrock keeps). Option strings are applied first, in the order given (a later
     * one wins), then the typed settings that differ from their defaults: a
     * name set both ways takes the typed value unless that is the default.
     * A name or value RocksDB or pinrock refuses makes {@link RocksDb#open(Path, DbOptions)}
     * throw {@link RocksDbException.InvalidArgumentException} naming the string and the option.
     *
     * @param options the option string
     * @return a copy with the option string added
     * @throws IllegalArgumentException when options contains a NUL character or an unpaired surrogate
     */
    public DbOptions databaseOptions(String options) {
        Values v = values();
        v.databaseOptions = appended(v.databaseOptions, options);
        return new DbOptions(v);
    }

    /**
     * Returns a copy that also sets per-family options by RocksDB's own names
     * and values (its {@code ColumnFamilyOptions}), as
     * {@link #databaseOptions(String)} does for the database's, e.g.
     * {@code "compaction_style=kCompactionStyleUniversal;max_write_buffer_number=3;"
     * + "prefix_extractor=rocksdb.FixedPrefix.8"}. Refused: {@code merge_operator}
     * (see {@link #mergeOperator(String)}), {@code comparator} (keys stay in
     * bytewise order), table factories (see {@link #tableOptions(String)}),
     * compaction filters, the hash memtables ({@code prefix_hash},
     * {@code hash_linkedlist}: a get cannot find a key shorter than the
     * prefix), {@code inplace_update_support=true} (a cursor's value would
     * change under it) and level-0 triggers below 0.
     *
     * @param options the option string
     * @return a copy with the option string added
     * @throws IllegalArgumentException when options contains a NUL character or an unpaired surrogate
     */
    public DbOptions familyOptions(String options) {
        Values v = values();
        v.familyOptions = appended(v.familyOptions, options);
        return new DbOptions(v);
    }

    /**
     * Returns a copy that also sets block-based table options by RocksDB's own
     * names and values (its {@code BlockBasedTableOptions}), as
     * {@link #databaseOptions(String)} does for the database's, e.g.
     * {@code "block_size=16K;filter_policy=bloomfilter:10:false;cache_index_and_filter_blocks=true"}.
     * The block cache is pinrock's ({@link #blockCacheBytes(long)} or a
     * {@link MemoryBudget}): {@code block_cache} and {@code no_block_cache}
     * are refused, and a {@code filter_policy} RocksDB does not know (which it
     * would read as no filter) too, and {@code index_type=kHashSearch} (a get
     * cannot find a key shorter than the prefix).
     *
     * @param options the option string
     * @return a copy with the option string added
     * @throws IllegalArgumentException when options contains a NUL character or an unpaired surrogate
     */
    public DbOptions tableOptions(String options) {
        Values v = values();
        v.tableOptions = appended(v.tableOptions, options);
        return new DbOptions(v);
    }

    // Shorthands for RocksDB's most tuned options: each adds the option string it names, so
    // it takes effect in call order with the other strings, and its default is RocksDB's.

    /**
     * Returns a copy with a Bloom filter in every table file: a lookup of an
     * absent key then reads a table file's data blocks only when the filter
     * does not rule the key out (about 1 % false positives at 10 bits per key).
     * {@code tableOptions("filter_policy=bloomfilter:<bitsPerKey>:false")}.
     *
     * @param bitsPerKey filter bits per key, more than 0 (10 is usual)
     * @return a copy with the setting added
     * @throws IllegalArgumentException when bitsPerKey is not more than 0
     */
    public DbOptions bloomFilter(double bitsPerKey) {
        return tableOptions("filter_policy=bloomfilter:" + positive(bitsPerKey, "bitsPerKey") + ":false");
    }

    /**
     * Returns a copy with a Ribbon filter in every table file: as
     * {@link #bloomFilter(double)}, about 30 % smaller for the same false
     * positive rate, more CPU to build.
     * {@code tableOptions("filter_policy=ribbonfilter:<bitsPerKey>")}.
     *
     * @param bitsPerKey the Bloom-equivalent bits per key, more than 0
     * @return a copy with the setting added
     * @throws IllegalArgumentException when bitsPerKey is not more than 0
     */
    public DbOptions ribbonFilter(double bitsPerKey) {
        return tableOptions("filter_policy=ribbonfilter:" + positive(bitsPerKey, "bitsPerKey"));
    }

    /**
     * Returns a copy that sets whether filters hold whole keys (RocksDB's
     * default, true), besides the prefixes of a prefix extractor.
     * {@code tableOptions("whole_key_filtering=<value>")}.
     *
     * @param value whether whole keys go into the filters
     * @return a copy with the setting added
     */
    public DbOptions wholeKeyFiltering(boolean value) {
        return tableOptions("whole_key_filtering=" + value);
    }

    /**
     * Returns a copy with the size of table file data blocks (RocksDB's
     * default 4 KiB): larger blocks compress better and index smaller, smaller
     * ones read less per point lookup. {@code tableOptions("block_size=<bytes>")}.
     *
     * @param bytes uncompressed bytes per block, 1 to 4 GiB
     * @return a copy with the setting added
     * @throws IllegalArgumentException when bytes is not more than 0
     */
    public DbOptions blockSize(long bytes) {
        return tableOptions("block_size=" + positive(bytes, "bytes"));
    }

    /**
     * Returns a copy that keeps index and filter blocks in the block cache,
     * charged to its capacity, rather than beside it for as long as a table
     * file is open (RocksDB's default, false).
     * {@code tableOptions("cache_index_and_filter_blocks=<value>")}.
     *
     * @param value whether index and filter blocks go through the block cache
     * @return a copy with the setting added
     */
    public DbOptions cacheIndexAndFilterBlocks(boolean value) {
        return tableOptions("cache_index_and_filter_blocks=" + value);
    }

    /**
     * Returns a copy that caches index and filter blocks (with
     * {@link #cacheIndexAndFilterBlocks(boolean)}) at high priority, so that
     * data blocks are evicted before them (RocksDB's default, true).
     * {@code tableOptions("cache_index_and_filter_blocks_with_high_priority=<value>")}.
     *
     * @param value whether index and filter blocks are cached at high priority
     * @return a copy with the setting added
     */
    public DbOptions cacheIndexAndFilterBlocksWithHighPriority(boolean value) {
        return tableOptions("cache_index_and_filter_blocks_with_high_priority=" + value);
    }

    /**
     * Returns a copy that pins the index and filter blocks of level-0 files
     * in the block cache (with {@link #cacheIndexAndFilterBlocks(boolean)}).
     * {@code tableOptions("pin_l0_filter_and_index_blocks_in_cache=<value>")}.
     *
     * @param value whether level-0 index and filter blocks stay cached
     * @return a copy with the setting added
     */
    public DbOptions pinL0FilterAndIndexBlocks(boolean value) {
        return tableOptions("pin_l0_filter_and_index_blocks_in_cache=" + value);
    }

    /**
     * Returns a copy with partitioned indexes and filters: each table file's
     * index and filter split into blocks read through the block cache as
     * needed, for large files and small caches.
     * {@code tableOptions("index_type=kTwoLevelIndexSearch;partition_filters=true")}, or back to
     * RocksDB's defaults ({@code kBinarySearch}, {@code false}).
     *
     * @param value whether indexes and filters are partitioned
     * @return a copy with the setting added
     */
    public DbOptions partitionedIndexAndFilters(boolean value) {
        return tableOptions(value ? "index_type=kTwoLevelIndexSearch;partition_filters=true"
                : "index_type=kBinarySearch;partition_filters=false");
    }

    /**
     * Returns a copy with a hash index in each data block beside the binary
     * search (faster point lookups, a little more space).
     * {@code tableOptions("data_block_index_type=kDataBlockBinaryAndHash")}, or RocksDB's default
     * {@code kDataBlockBinarySearch}.
     *
     * @param value whether data blocks get a hash index
     * @return a copy with the setting added
     */
    public DbOptions dataBlockHashIndex(boolean value) {
        return tableOptions("data_block_index_type=" + (value ? "kDataBlockBinaryAndHash" : "kDataBlockBinarySearch"));
    }

    /**
     * Returns a copy with the table file format version (RocksDB 9.10's
     * default is 6; older readers need older versions).
     * {@code tableOptions("format_version=<version>")}.
     *
     * @param version a format RocksDB 9.10 writes, 2 to 6
     * @return a copy with the setting added
     */
    public DbOptions formatVersion(int version) {
        return tableOptions("format_version=" + version);
    }

    /**
     * Returns a copy that builds no filter for the last level, where most
     * keys are, when lookups mostly find their key: smaller filters, slower
     * absent-key lookups. {@code familyOptions("optimize_filters_for_hits=<value>")}.
     *
     * @param value whether the last level goes without filters
     * @return a copy with the setting added
     */
    public DbOptions optimizeFiltersForHits(boolean value) {
        return familyOptions("optimize_filters_for_hits=" + value);
    }

    /**
     * Returns a copy whose keys' first {@code length} bytes are their prefix:
     * filters (and the memtable's, see {@link #memtablePrefixBloomRatio(double)})
     * then hold prefixes, so a prefix scan skips files without that prefix.
     * Keys shorter than the prefix have none.
     * {@code familyOptions("prefix_extractor=rocksdb.FixedPrefix.<length>")}.
     *
     * @param length prefix bytes, more than 0
     * @return a copy with the setting added
     * @throws IllegalArgumentException when length is not more than 0
     */
    public DbOptions fixedPrefix(int length) {
        return familyOptions("prefix_extractor=rocksdb.FixedPrefix." + positive(length, "length"));
    }

    /**
     * Returns a copy whose keys' prefix is their first {@code length} bytes,
     * or the whole key when shorter ({@link #fixedPrefix(int)} otherwise).
     * {@code familyOptions("prefix_extractor=rocksdb.CappedPrefix.<length>")}.
     *
     * @param length the longest prefix, more than 0
     * @return a copy with the setting added
     * @throws IllegalArgumentException when length is not more than 0
     */
    public DbOptions cappedPrefix(int length) {
        return familyOptions("prefix_extractor=rocksdb.CappedPrefix." + positive(length, "length"));
    }

    /**
     * Returns a copy with a prefix Bloom filter in each memtable, of this
     * share of the memtable's size (with a prefix extractor; RocksDB caps it
     * at 0.25). {@code familyOptions("memtable_prefix_bloom_size_ratio=<ratio>")}.
     *
     * @param ratio the filter's size over the memtable's, 0 for none
     * @return a copy with the setting added
     */
    public DbOptions memtablePrefixBloomRatio(double ratio) {
        return familyOptions("memtable_prefix_bloom_size_ratio=" + ratio);
    }

    /**
     * Returns a copy with the compaction style; its own knobs are in
     * {@code compaction_options_universal} and {@code compaction_options_fifo}
     * ({@link #familyOptions(String)}).
     * {@code familyOptions("compaction_style=<style>")}.
     *
     * @param style leveled (RocksDB's default), universal or FIFO
     * @return a copy with the setting added
     */
    public DbOptions compactionStyle(CompactionStyle style) {
        return familyOptions("compaction_style=" + Objects.requireNonNull(style, "style").rocksDbName());
    }

    /**
     * Returns a copy with the most memtables a family keeps, the one taking
     * writes included (RocksDB's default 2): more absorb write bursts while
     * flushes run. {@code familyOptions("max_write_buffer_number=<count>")}.
     *
     * @param count memtables, at least 2 for writes to go on during a flush
     * @return a copy with the setting added
     */
    public DbOptions maxWriteBufferNumber(int count) {
        return familyOptions("max_write_buffer_number=" + count);
    }

    /**
     * Returns a copy with how many full memtables are merged into one level-0
     * file (RocksDB's default 1). {@code familyOptions("min_write_buffer_number_to_merge=<count>")}.
     *
     * @param count memtables per flush; RocksDB lowers it to
     *     {@code max_write_buffer_number - 1} when it is not below that
     * @return a copy with the setting added
     */
    public DbOptions minWriteBufferNumberToMerge(int count) {
        return familyOptions("min_write_buffer_number_to_merge=" + count);
    }

    /**
     * Returns a copy with the level-0 file counts that start a compaction,
     * slow writes down and stop them (RocksDB's defaults 4, 20 and 36).
     * {@code familyOptions("level0_file_num_compaction_trigger=...;level0_slowdown_writes_trigger=...;"
     * + "level0_stop_writes_trigger=...")}.
     *
     * @param compaction files that start a level-0 compaction
     * @param slowdown files at which writes slow down
     * @param stop files at which writes stop until compaction catches up
     * @return a copy with the settings added
     */
    public DbOptions level0Triggers(int compaction, int slowdown, int stop) {
        return familyOptions("level0_file_num_compaction_trigger=" + compaction + ";level0_slowdown_writes_trigger="
                + slowdown + ";level0_stop_writes_trigger=" + stop);
    }

    /**
     * Returns a copy with the target size of level-1 table files (RocksDB's
     * default 64 MiB; each further level multiplies it by
     * {@code target_file_size_multiplier}).
     * {@code familyOptions("target_file_size_base=<bytes>")}.
     *
     * @param bytes target bytes per file, more than 0
     * @return a copy with the setting added
     * @throws IllegalArgumentException when bytes is not more than 0
     */
    public DbOptions targetFileSizeBase(long bytes) {
        return familyOptions("target_file_size_base=" + positive(bytes, "bytes"));
    }

    /**
     * Returns a copy with the size of level 1 in leveled compaction (RocksDB's
     * default 256 MiB), from which the deeper levels grow.
     * {@code familyOptions("max_bytes_for_level_base=<bytes>")}.
     *
     * @param bytes bytes of level 1, more than 0
     * @return a copy with the setting added
     * @throws IllegalArgumentException when bytes is not more than 0
     */
    public DbOptions maxBytesForLevelBase(long bytes) {
        return familyOptions("max_bytes_for_level_base=" + positive(bytes, "bytes"));
    }

    /**
     * Returns a copy that sizes levels from the last one up (RocksDB's
     * default, true), which bounds space amplification.
     * {@code familyOptions("level_compaction_dynamic_level_bytes=<value>")}.
     *
     * @param value whether level sizes follow the last level's
     * @return a copy with the setting added
     */
    public DbOptions levelCompactionDynamicLevelBytes(boolean value) {
        return familyOptions("level_compaction_dynamic_level_bytes=" + value);
    }

    /**
     * Returns a copy that recompacts every table file at least this often,
     * so that deletes and expired data are dropped from files no write
     * reaches. {@code familyOptions("periodic_compaction_seconds=<seconds>")}.
     *
     * @param seconds the longest age of a file's data before it is recompacted; 0 turns it off
     * @return a copy with the setting added
     */
    public DbOptions periodicCompactionSeconds(long seconds) {
        return familyOptions("periodic_compaction_seconds=" + seconds);
    }

    /**
     * Returns a copy with a time to live for table files: files older than
     * this are compacted (leveled, universal) or deleted (FIFO: their entries
     * are gone). {@code familyOptions("ttl=<seconds>")}.
     *
     * @param seconds the age at which a file is compacted or, with FIFO, dropped; 0 turns it off
     * @return a copy with the setting added
     */
    public DbOptions ttlSeconds(long seconds) {
        return familyOptions("ttl=" + seconds);
    }

    /**
     * Returns a copy with the most flushes and compactions running at once
     * (RocksDB's default 2; pinrock refuses more than 256).
     * {@code databaseOptions("max_background_jobs=<jobs>")}.
     *
     * @param jobs concurrent background jobs
     * @return a copy with the setting added
     */
    public DbOptions maxBackgroundJobs(int jobs) {
        return databaseOptions("max_background_jobs=" + jobs);
    }

    /**
     * Returns a copy that splits a large compaction into this many parallel
     * ones (RocksDB's default 1; pinrock refuses more than 256).
     * {@code databaseOptions("max_subcompactions=<count>")}.
     *
     * @param count parallel parts of one compaction
     * @return a copy with the setting added
     */
    public DbOptions maxSubcompactions(int count) {
        return databaseOptions("max_subcompactions=" + count);
    }

    /**
     * Returns a copy that writes the write-ahead log in another directory
     * (for example a faster disk); RocksDB's default is the database's.
     * {@code databaseOptions("wal_dir=<directory>")}.
     *
     * <p>The log directory belongs to the database: pinrock writes a
     * {@code PINROCK-OWNER} file into it naming the database's directory,
     * and an open is refused with {@link StatusCode#INVALID_ARGUMENT}
     * before anything is recovered when the directory belongs to another
     * database (its owner file names another, or it is another database's
     * directory, or it holds log files no owner file accounts for), or
     * when the database's log files are in another directory than the one
     * given (it was written with another log directory, or with none, and
     * that one still holds log files): opened so, RocksDB would replay
     * another database's log, or not replay its own and lose the writes in
     * it. In one process, a directory that another open database writes is
     * refused with {@link StatusCode#IO_ERROR}. A checkpoint
     * ({@link RocksDb#checkpoint(Path)}) holds its log files in its own
     * directory: open it without a log directory, or with
     * {@link #loadLatest(Path)}, which gives the directory the logs are in.
     *
     * <p>To move a database's log directory: close it, move its log files
     * (the {@code *.log} files) and the {@code PINROCK-OWNER} file, if the
     * old directory has one, from the old directory into the new one (the
     * database's own directory when it is to have no other), then open it
     * with the new one.
     *
     * @param directory the log's directory; created one level deep when missing
     * @return a copy with the setting added
     */
    public DbOptions walDir(Path directory) {
        return databaseOptions("wal_dir={" + Objects.requireNonNull(directory, "directory").toAbsolutePath() + "}");
    }

    /**
     * Returns a copy that starts a flush of the families holding the oldest
     * log once the logs exceed this size (RocksDB's default 0: four times the
     * memtables' total). {@code databaseOptions("max_total_wal_size=<bytes>")}.
     *
     * @param bytes the logs' size limit
     * @return a copy with the setting added
     */
    public DbOptions maxTotalWalSize(long bytes) {
        return databaseOptions("max_total_wal_size=" + bytes);
    }

    /**
     * Returns a copy with how long and how large the archived logs RocksDB
     * keeps may grow (RocksDB's defaults 0: archived logs are deleted).
     * {@code databaseOptions("WAL_ttl_seconds=<seconds>;WAL_size_limit_MB=<megabytes>")}.
     *
     * @param seconds the age at which an archived log is deleted, 0 for none
     * @param megabytes the archive's size limit, 0 for none
     * @return a copy with the settings added
     */
    public DbOptions walArchiveLimits(long seconds, long megabytes) {
        return databaseOptions("WAL_ttl_seconds=" + seconds + ";WAL_size_limit_MB=" + megabytes);
    }

    /**
     * Returns a copy that asks the OS to write table files out every this
     * many bytes while they are written, smoothing I/O (RocksDB's default 0:
     * off; a change while open takes 0 as 1 MiB, see
     * {@link RocksDb#setDatabaseOptions(String)}).
     * {@code databaseOptions("bytes_per_sync=<bytes>")}.
     *
     * @param bytes bytes between syncs, 0 for none
     * @return a copy with the setting added
     */
    public DbOptions bytesPerSync(long bytes) {
        return databaseOptions("bytes_per_sync=" + bytes);
    }

    /**
     * Returns a copy that flushes every column family together, so that
     * writes across families without a write-ahead log stay consistent
     * (RocksDB's default, false). {@code databaseOptions("atomic_flush=<value>")}.
     *
     * @param value whether all families flush at once
     * @return a copy with the setting added
     */
    public DbOptions atomicFlush(boolean value) {
        return databaseOptions("atomic_flush=" + value);
    }

    private static double positive(double value, String name) {
        if (!(value > 0)) {
            throw new IllegalArgumentException(name + " must be more than 0, not " + value);
        }
        return value;
    }

    private static long positive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be more than 0, not " + value);
        }
        return value;
    }

    private static List<String> appended(List<String> strings, String options) {
        NativeStrings.require(Objects.requireNonNull(options, "options"), "options");
        List<String> longer = new ArrayList<>(strings);
        longer.add(options);
        return List.copyOf(longer);
    }

    /**
     * Returns the database option strings, in the order given.
     *
     * @return the database option strings, in the order given
     */
    public List<String> databaseOptions() {
        return v.databaseOptions;
    }

    /**
     * Returns the column family option strings, in the order given.
     *
     * @return the column family option strings, in the order given
     */
    public List<String> familyOptions() {
        return v.familyOptions;
    }

    /**
     * Returns the table option strings, in the order given.
     *
     * @return the table option strings, in the order given
     */
    public List<String> tableOptions() {
        return v.tableOptions;
    }

    /**
     * Returns the options of existing column families opened with their own, by name.
     *
     * @return the options of existing column families opened with their own, by name
     */
    public Map<String, DbOptions> columnFamilyOptions() {
        return v.columnFamilyOptions;
    }

    /**
     * Returns the shared memory budget, or null for none.
     *
     * @return the shared memory budget, or null for none
     */
    public MemoryBudget memoryBudget() {
        return v.memoryBudget;
    }

    /**
     * Returns the shared rate limiter, or null for none.
     *
     * @return the shared rate limiter, or null for none
     */
    public RateLimiter rateLimiter() {
        return v.rateLimiter;
    }

    /**
     * Returns the shared SST file manager, or null for none.
     *
     * @return the shared SST file manager, or null for none
     */
    public SstFileManager sstFileManager() {
        return v.sstFileManager;
    }

    /**
     * Returns whether a missing database is created.
     *
     * @return whether a missing database is created
     */
    public boolean createIfMissing() {
        return v.createIfMissing;
    }

    /**
     * Returns whether an existing database is an error.
     *
     * @return whether an existing database is an error
     */
    public boolean errorIfExists() {
        return v.errorIfExists;
    }

    /**
     * Returns whether paranoid checks are on.
     *
     * @return whether paranoid checks are on
     */
    public boolean paranoidChecks() {
        return v.paranoidChecks;
    }

    /**
     * Returns how a damaged write-ahead log is replayed.
     *
     * @return how a damaged write-ahead log is replayed
     */
    public WalRecovery walRecovery() {
        return v.walRecovery;
    }

    /**
     * Returns the compression of every level but the bottommost.
     *
     * @return the compression of every level but the bottommost
     */
    public Compression compression() {
        return v.compression;
    }

    /**
     * Returns the compression of the bottommost level.
     *
     * @return the compression of the bottommost level
     */
    public Compression bottommostCompression() {
        return v.bottommostCompression;
    }

    /**
     * Returns the zstd level.
     *
     * @return the zstd level
     */
    public int zstdLevel() {
        return v.zstdLevel;
    }

    /**
     * Returns the block cache capacity in bytes, 0 when disabled.
     *
     * @return the block cache capacity in bytes, 0 when disabled
     */
    public long blockCacheBytes() {
        return v.blockCacheBytes;
    }

    /**
     * Returns the memtable size in bytes.
     *
     * @return the memtable size in bytes
     */
    public long writeBufferBytes() {
        return v.writeBufferBytes;
    }

    /**
     * Returns the number of table files kept open, or {@link #UNLIMITED_OPEN_FILES}.
     *
     * @return the number of table files kept open, or {@link #UNLIMITED_OPEN_FILES}
     */
    public int maxOpenFiles() {
        return v.maxOpenFiles;
    }

    /**
     * Returns the order of the keys.
     *
     * @return the comparator
     */
    public KeyComparator comparator() {
        return v.comparator;
    }

    /**
     * Returns the name of the built-in merge operator, or null for none (or one written in Java).
     *
     * @return the merge operator's name, or null
     */
    public String mergeOperator() {
        return v.mergeOperator;
    }

    /**
     * Returns the merge operator written in Java, or null for none (or a built-in one).
     *
     * @return the merge operator, or null
     */
    public MergeOperator javaMergeOperator() {
        return v.javaMergeOperator;
    }

    /**
     * Returns the factory of the compaction filters written in Java, or null for none.
     *
     * @return the compaction filter factory, or null
     */
    public CompactionFilterFactory compactionFilter() {
        return v.compactionFilter;
    }

    @Override
    public String toString() {
        return "DbOptions[createIfMissing=" + v.createIfMissing + ", errorIfExists=" + v.errorIfExists
                + ", paranoidChecks=" + v.paranoidChecks + ", walRecovery=" + v.walRecovery + ", compression=" + v.compression
                + ", bottommostCompression=" + v.bottommostCompression + ", zstdLevel=" + v.zstdLevel
                + ", blockCacheBytes=" + v.blockCacheBytes + ", writeBufferBytes=" + v.writeBufferBytes
                + ", maxOpenFiles=" + v.maxOpenFiles + ", mergeOperator=" + (v.javaMergeOperator != null ? v.javaMergeOperator.name() : v.mergeOperator)
                + ", compactionFilter=" + (v.compactionFilter != null ? v.compactionFilter.name() : null) + ", memoryBudget=" + (v.memoryBudget != null) + ", rateLimiter=" + (v.rateLimiter != null)
                + ", sstFileManager=" + (v.sstFileManager != null) + ", compressionPerLevel=" + v.compressionPerLevel
                + ", zstdDictionaryBytes=" + v.zstdDictionaryBytes + ", zstdTrainingBytes=" + v.zstdTrainingBytes
                + ", compressionThreads=" + v.compressionThreads + ", statistics=" + v.statistics
                + ", infoLogLevel=" + v.infoLogLevel + ", infoLogToSystemLogger=" + v.infoLogToSystemLogger
                + ", infoLogger=" + (v.infoLogger != null) + ", eventListener=" + (v.eventListener != null)
                + ", autoRecovery=" + v.autoRecovery
                + ", memoryFirstReads=" + v.memoryFirstReads
                + ", columnFamilyOptions=" + v.columnFamilyOptions + ", databaseOptions=" + v.databaseOptions
                + ", familyOptions=" + v.familyOptions + ", tableOptions=" + v.tableOptions + "]";
    }
}
