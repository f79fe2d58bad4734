package dev.pinrock;

import java.util.Objects;

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

    private static final DbOptions DEFAULTS = new DbOptions(false, false, true, Compression.LZ4,
            Compression.ZSTD, 3, 32L << 20, 64L << 20, UNLIMITED_OPEN_FILES);

    private final boolean createIfMissing;
    private final boolean errorIfExists;
    private final boolean paranoidChecks;
    private final Compression compression;
    private final Compression bottommostCompression;
    private final int zstdLevel;
    private final long blockCacheBytes;
    private final long writeBufferBytes;
    private final int maxOpenFiles;

    private DbOptions(boolean createIfMissing, boolean errorIfExists, boolean paranoidChecks,
            Compression compression, Compression bottommostCompression, int zstdLevel,
            long blockCacheBytes, long writeBufferBytes, int maxOpenFiles) {
        this.createIfMissing = createIfMissing;
        this.errorIfExists = errorIfExists;
        this.paranoidChecks = paranoidChecks;
        this.compression = compression;
        this.bottommostCompression = bottommostCompression;
        this.zstdLevel = zstdLevel;
        this.blockCacheBytes = blockCacheBytes;
        this.writeBufferBytes = writeBufferBytes;
        this.maxOpenFiles = maxOpenFiles;
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
        return new DbOptions(value, errorIfExists, paranoidChecks, compression,
                bottommostCompression, zstdLevel, blockCacheBytes, writeBufferBytes, maxOpenFiles);
    }

    /**
     * Returns a copy that refuses to open an existing database.
     *
     * @param value whether an existing database is an error (default false)
     * @return a copy with the setting changed
     */
    public DbOptions errorIfExists(boolean value) {
        return new DbOptions(createIfMissing, value, paranoidChecks, compression,
                bottommostCompression, zstdLevel, blockCacheBytes, writeBufferBytes, maxOpenFiles);
    }

    /**
     * Returns a copy with RocksDB's paranoid checks switched on or off.
     *
     * @param value whether to verify aggressively (default true)
     * @return a copy with the setting changed
     */
    public DbOptions paranoidChecks(boolean value) {
        return new DbOptions(createIfMissing, errorIfExists, value, compression,
                bottommostCompression, zstdLevel, blockCacheBytes, writeBufferBytes, maxOpenFiles);
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
        return new DbOptions(createIfMissing, errorIfExists, paranoidChecks, value, value,
                zstdLevel, blockCacheBytes, writeBufferBytes, maxOpenFiles);
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
        return new DbOptions(createIfMissing, errorIfExists, paranoidChecks, compression, value,
                zstdLevel, blockCacheBytes, writeBufferBytes, maxOpenFiles);
    }

    /**
     * Returns a copy with the zstd level of every level that uses zstd.
     *
     * @param value 1..22, or a negative "fast" level down to -131072 (default 3)
     * @return a copy with the setting changed
     */
    public DbOptions zstdLevel(int value) {
        return new DbOptions(createIfMissing, errorIfExists, paranoidChecks, compression,
                bottommostCompression, value, blockCacheBytes, writeBufferBytes, maxOpenFiles);
    }

    /**
     * Returns a copy with the block cache capacity.
     *
     * @param value bytes of uncompressed blocks kept in memory; 0 disables the cache (default 32 MiB)
     * @return a copy with the setting changed
     */
    public DbOptions blockCacheBytes(long value) {
        return new DbOptions(createIfMissing, errorIfExists, paranoidChecks, compression,
                bottommostCompression, zstdLevel, value, writeBufferBytes, maxOpenFiles);
    }

    /**
     * Returns a copy with the memtable size.
     *
     * @param value bytes per memtable, 64 KiB to 2^40 (default 64 MiB)
     * @return a copy with the setting changed
     */
    public DbOptions writeBufferBytes(long value) {
        return new DbOptions(createIfMissing, errorIfExists, paranoidChecks, compression,
                bottommostCompression, zstdLevel, blockCacheBytes, value, maxOpenFiles);
    }

    /**
     * Returns a copy with the number of table files kept open.
     *
     * @param value {@link #UNLIMITED_OPEN_FILES} or at least 20 (default unlimited)
     * @return a copy with the setting changed
     */
    public DbOptions maxOpenFiles(int value) {
        return new DbOptions(createIfMissing, errorIfExists, paranoidChecks, compression,
                bottommostCompression, zstdLevel, blockCacheBytes, writeBufferBytes, value);
    }

    /** @return whether a missing database is created */
    public boolean createIfMissing() {
        return createIfMissing;
    }

    /** @return whether an existing database is an error */
    public boolean errorIfExists() {
        return errorIfExists;
    }

    /** @return whether paranoid checks are on */
    public boolean paranoidChecks() {
        return paranoidChecks;
    }

    /** @return the compression of every level but the bottommost */
    public Compression compression() {
        return compression;
    }

    /** @return the compression of the bottommost level */
    public Compression bottommostCompression() {
        return bottommostCompression;
    }

    /** @return the zstd level */
    public int zstdLevel() {
        return zstdLevel;
    }

    /** @return the block cache capacity in bytes, 0 when disabled */
    public long blockCacheBytes() {
        return blockCacheBytes;
    }

    /** @return the memtable size in bytes */
    public long writeBufferBytes() {
        return writeBufferBytes;
    }

    /** @return the number of table files kept open, or {@link #UNLIMITED_OPEN_FILES} */
    public int maxOpenFiles() {
        return maxOpenFiles;
    }

    @Override
    public String toString() {
        return "DbOptions[createIfMissing=" + createIfMissing + ", errorIfExists=" + errorIfExists
                + ", paranoidChecks=" + paranoidChecks + ", compression=" + compression
                + ", bottommostCompression=" + bottommostCompression + ", zstdLevel=" + zstdLevel
                + ", blockCacheBytes=" + blockCacheBytes + ", writeBufferBytes=" + writeBufferBytes
                + ", maxOpenFiles=" + maxOpenFiles + "]";
    }
}
