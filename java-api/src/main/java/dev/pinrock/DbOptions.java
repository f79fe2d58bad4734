package dev.pinrock;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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

    private final boolean createIfMissing;
    private final boolean errorIfExists;
    private final boolean paranoidChecks;
    private final WalRecovery walRecovery;
    private final Compression compression;
    private final Compression bottommostCompression;
    private final int zstdLevel;
    private final long blockCacheBytes;
    private final long writeBufferBytes;
    private final int maxOpenFiles;
    private final String mergeOperator;
    private final MemoryBudget memoryBudget;
    private final List<Compression> compressionPerLevel;
    private final int zstdDictionaryBytes;
    private final int zstdTrainingBytes;
    private final int compressionThreads;
    private final StatsLevel statistics;
    private final InfoLogLevel infoLogLevel;
    private final boolean infoLogToSystemLogger;
    private final boolean memoryFirstReads;
    private final Map<String, DbOptions> columnFamilyOptions;

    /** The settings while a copy is being made; each wither changes one. */
    private static final class Values {
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
        MemoryBudget memoryBudget;
        List<Compression> compressionPerLevel = List.of();
        int zstdDictionaryBytes;
        int zstdTrainingBytes;
        int compressionThreads = 1;
        StatsLevel statistics = StatsLevel.OFF;
        InfoLogLevel infoLogLevel = InfoLogLevel.INFO;
        boolean infoLogToSystemLogger;
        boolean memoryFirstReads = true;
        Map<String, DbOptions> columnFamilyOptions = Map.of();
    }

    private DbOptions(Values v) {
        this.createIfMissing = v.createIfMissing;
        this.errorIfExists = v.errorIfExists;
        this.paranoidChecks = v.paranoidChecks;
        this.walRecovery = v.walRecovery;
        this.compression = v.compression;
        this.bottommostCompression = v.bottommostCompression;
        this.zstdLevel = v.zstdLevel;
        this.blockCacheBytes = v.blockCacheBytes;
        this.writeBufferBytes = v.writeBufferBytes;
        this.maxOpenFiles = v.maxOpenFiles;
        this.mergeOperator = v.mergeOperator;
        this.memoryBudget = v.memoryBudget;
        this.compressionPerLevel = v.compressionPerLevel;
        this.zstdDictionaryBytes = v.zstdDictionaryBytes;
        this.zstdTrainingBytes = v.zstdTrainingBytes;
        this.compressionThreads = v.compressionThreads;
        this.statistics = v.statistics;
        this.infoLogLevel = v.infoLogLevel;
        this.infoLogToSystemLogger = v.infoLogToSystemLogger;
        this.memoryFirstReads = v.memoryFirstReads;
        this.columnFamilyOptions = v.columnFamilyOptions;
    }

    private Values values() {
        Values v = new Values();
        v.createIfMissing = createIfMissing;
        v.errorIfExists = errorIfExists;
        v.paranoidChecks = paranoidChecks;
        v.walRecovery = walRecovery;
        v.compression = compression;
        v.bottommostCompression = bottommostCompression;
        v.zstdLevel = zstdLevel;
        v.blockCacheBytes = blockCacheBytes;
        v.writeBufferBytes = writeBufferBytes;
        v.maxOpenFiles = maxOpenFiles;
        v.mergeOperator = mergeOperator;
        v.memoryBudget = memoryBudget;
        v.compressionPerLevel = compressionPerLevel;
        v.zstdDictionaryBytes = zstdDictionaryBytes;
        v.zstdTrainingBytes = zstdTrainingBytes;
        v.compressionThreads = compressionThreads;
        v.statistics = statistics;
        v.infoLogLevel = infoLogLevel;
        v.infoLogToSystemLogger = infoLogToSystemLogger;
        v.memoryFirstReads = memoryFirstReads;
        v.columnFamilyOptions = columnFamilyOptions;
        return v;
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
     * {@link #columnFamily(String, DbOptions)}).
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
        return compressionPerLevel;
    }

    /**
     * Returns the zstd dictionary size per table file, 0 when disabled.
     *
     * @return the zstd dictionary size per table file, 0 when disabled
     */
    public int zstdDictionaryBytes() {
        return zstdDictionaryBytes;
    }

    /**
     * Returns the bytes zstd's dictionary trainer samples, 0 when not training.
     *
     * @return the bytes zstd's dictionary trainer samples, 0 when not training
     */
    public int zstdTrainingBytes() {
        return zstdTrainingBytes;
    }

    /**
     * Returns the threads compressing each table file.
     *
     * @return the threads compressing each table file
     */
    public int compressionThreads() {
        return compressionThreads;
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
        return statistics;
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
        return infoLogLevel;
    }

    /**
     * Returns a copy that sends RocksDB's info log to {@link System.Logger}
     * instead of the file {@code LOG} in the database directory. Messages go
     * to the logger named {@code dev.pinrock.rocksdb} at the level
     * {@link InfoLogLevel#loggerLevel()} names, as {@code "<path>: <message>"},
     * from one daemon thread, {@code pinrock-info-log}, started with the first
     * database that uses it. Messages wait in a native queue of 4096 shared by
     * all databases; when the logger falls that far behind, the oldest are
     * dropped and a warning says how many.
     *
     * @param value whether to log through System.Logger (default false: the file)
     * @return a copy with the setting changed
     */
    public DbOptions infoLogToSystemLogger(boolean value) {
        Values v = values();
        v.infoLogToSystemLogger = value;
        return new DbOptions(v);
    }

    /**
     * Returns whether the info log goes to {@link System.Logger} rather than the file.
     *
     * @return whether the info log goes to {@link System.Logger} rather than the file
     */
    public boolean infoLogToSystemLogger() {
        return infoLogToSystemLogger;
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
        return memoryFirstReads;
    }

    /**
     * Returns a copy that opens an existing column family with its own
     * options; families without an entry use these options. Only the
     * per-family settings of {@code options} apply (compression, zstd,
     * block cache, write buffer, merge operator); the database-wide ones
     * (create/error if exists, paranoid checks, open files, statistics,
     * info log, memory budget) come from these options alone.
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
     * @param options the family's options; without a memory budget of their own (a family
     *     uses the database's)
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when options has a memory budget or column family options,
     *     or name contains a NUL character or an unpaired surrogate
     */
    public DbOptions columnFamily(String name, DbOptions options) {
        NativeStrings.require(Objects.requireNonNull(name, "name"), "name");
        requireFamilyOptions(options);
        Values v = values();
        Map<String, DbOptions> families = new LinkedHashMap<>(columnFamilyOptions);
        families.put(name, options);
        v.columnFamilyOptions = Collections.unmodifiableMap(families);
        return new DbOptions(v);
    }

    /** Checks that options can be a column family's: no database-wide budget or nested families. */
    static DbOptions requireFamilyOptions(DbOptions options) {
        Objects.requireNonNull(options, "options");
        if (options.memoryBudget != null) {
            throw new IllegalArgumentException("a column family uses its database's memory budget, not its own");
        }
        if (!options.columnFamilyOptions.isEmpty()) {
            throw new IllegalArgumentException("column family options cannot name column families");
        }
        return options;
    }

    /**
     * Returns the options of existing column families opened with their own, by name.
     *
     * @return the options of existing column families opened with their own, by name
     */
    public Map<String, DbOptions> columnFamilyOptions() {
        return columnFamilyOptions;
    }

    /**
     * Returns the shared memory budget, or null for none.
     *
     * @return the shared memory budget, or null for none
     */
    public MemoryBudget memoryBudget() {
        return memoryBudget;
    }

    /**
     * Returns whether a missing database is created.
     *
     * @return whether a missing database is created
     */
    public boolean createIfMissing() {
        return createIfMissing;
    }

    /**
     * Returns whether an existing database is an error.
     *
     * @return whether an existing database is an error
     */
    public boolean errorIfExists() {
        return errorIfExists;
    }

    /**
     * Returns whether paranoid checks are on.
     *
     * @return whether paranoid checks are on
     */
    public boolean paranoidChecks() {
        return paranoidChecks;
    }

    /**
     * Returns how a damaged write-ahead log is replayed.
     *
     * @return how a damaged write-ahead log is replayed
     */
    public WalRecovery walRecovery() {
        return walRecovery;
    }

    /**
     * Returns the compression of every level but the bottommost.
     *
     * @return the compression of every level but the bottommost
     */
    public Compression compression() {
        return compression;
    }

    /**
     * Returns the compression of the bottommost level.
     *
     * @return the compression of the bottommost level
     */
    public Compression bottommostCompression() {
        return bottommostCompression;
    }

    /**
     * Returns the zstd level.
     *
     * @return the zstd level
     */
    public int zstdLevel() {
        return zstdLevel;
    }

    /**
     * Returns the block cache capacity in bytes, 0 when disabled.
     *
     * @return the block cache capacity in bytes, 0 when disabled
     */
    public long blockCacheBytes() {
        return blockCacheBytes;
    }

    /**
     * Returns the memtable size in bytes.
     *
     * @return the memtable size in bytes
     */
    public long writeBufferBytes() {
        return writeBufferBytes;
    }

    /**
     * Returns the number of table files kept open, or {@link #UNLIMITED_OPEN_FILES}.
     *
     * @return the number of table files kept open, or {@link #UNLIMITED_OPEN_FILES}
     */
    public int maxOpenFiles() {
        return maxOpenFiles;
    }

    /**
     * Returns the merge operator's name, or null for none.
     *
     * @return the merge operator's name, or null for none
     */
    public String mergeOperator() {
        return mergeOperator;
    }

    @Override
    public String toString() {
        return "DbOptions[createIfMissing=" + createIfMissing + ", errorIfExists=" + errorIfExists
                + ", paranoidChecks=" + paranoidChecks + ", walRecovery=" + walRecovery + ", compression=" + compression
                + ", bottommostCompression=" + bottommostCompression + ", zstdLevel=" + zstdLevel
                + ", blockCacheBytes=" + blockCacheBytes + ", writeBufferBytes=" + writeBufferBytes
                + ", maxOpenFiles=" + maxOpenFiles + ", mergeOperator=" + mergeOperator + ", memoryBudget=" + (memoryBudget != null) + ", compressionPerLevel=" + compressionPerLevel
                + ", zstdDictionaryBytes=" + zstdDictionaryBytes + ", zstdTrainingBytes=" + zstdTrainingBytes
                + ", compressionThreads=" + compressionThreads + ", statistics=" + statistics
                + ", infoLogLevel=" + infoLogLevel + ", infoLogToSystemLogger=" + infoLogToSystemLogger
                + ", memoryFirstReads=" + memoryFirstReads
                + ", columnFamilyOptions=" + columnFamilyOptions + "]";
    }
}
