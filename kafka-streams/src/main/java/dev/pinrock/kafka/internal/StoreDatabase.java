package dev.pinrock.kafka.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessorStateException;

import dev.pinrock.CompactionStyle;
import dev.pinrock.Compression;
import dev.pinrock.DbOptions;
import dev.pinrock.InfoLogLevel;
import dev.pinrock.KeyComparator;
import dev.pinrock.MemoryBudget;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.StatsLevel;
import dev.pinrock.WriteOptions;
import dev.pinrock.kafka.PinrockConfigSetter;
import dev.pinrock.kafka.PinrockStoreConfig;

/**
 * One open pinrock database of a Kafka Streams store (a key-value store, or
 * one segment of a window or session store), opened with the application's
 * configuration: the built-in store's RocksDB options, the shared memory bound, the
 * statistics level that the metrics recording level asks for, and the
 * user's {@link PinrockConfigSetter}. Closing it closes the database, then
 * releases the memory bound and the config setter.
 *
 * <p>Writes go without the write-ahead log, as in Kafka Streams' built-in
 * store: the changelog topic is the log, and {@code flush()} (called on
 * every commit) persists the memtables.
 */
public final class StoreDatabase implements AutoCloseable {
    /** Store writes: no WAL, the changelog topic is the log. */
    public static final WriteOptions WRITE_OPTIONS = WriteOptions.DEFAULT.disableWal(true);

    static final long BLOCK_CACHE_BYTES = 50L << 20;
    static final long WRITE_BUFFER_BYTES = 16L << 20;
    static final int MAX_WRITE_BUFFERS = 3;
    static final int BLOOM_BITS_PER_KEY = 10;

    private final String name;
    private final RocksDb db;
    private final SharedMemoryBudgets.Lease budget;
    private final PinrockConfigSetter configSetter;

    private StoreDatabase(String name, RocksDb db, SharedMemoryBudgets.Lease budget,
            PinrockConfigSetter configSetter) {
        this.name = name;
        this.db = db;
        this.budget = budget;
        this.configSetter = configSetter;
    }

    /**
     * Opens (creating when missing) the database of a store.
     *
     * @param name the store's (or segment's) name, as the config setter sees it
     * @param directory the database's directory; its parents are created
     * @param appConfigs the application's configuration
     * @return the open database; the caller closes it
     * @throws ProcessorStateException when the database cannot be opened
     */
    public static StoreDatabase open(String name, Path directory, Map<String, Object> appConfigs) {
        SharedMemoryBudgets.Lease budget = SharedMemoryBudgets.acquire(appConfigs);
        PinrockConfigSetter setter = null;
        try {
            // The built-in store's options (RocksDBStore.openDB), each the same RocksDB option.
            DbOptions options = DbOptions.create()
                    .createIfMissing(true)
                    .blockCacheBytes(BLOCK_CACHE_BYTES)
                    .writeBufferBytes(WRITE_BUFFER_BYTES)
                    .maxWriteBufferNumber(MAX_WRITE_BUFFERS)
                    .compactionStyle(CompactionStyle.UNIVERSAL)
                    .bloomFilter(BLOOM_BITS_PER_KEY)
                    .compression(Compression.NONE)
                    .maxBackgroundJobs(Math.max(Runtime.getRuntime().availableProcessors(), 2))
                    .statistics(statisticsLevel(appConfigs))
                    .infoLogLevel(InfoLogLevel.ERROR);
            if (budget != null) {
                options = options.memoryBudget(budget.budget());
            }
            setter = configSetter(appConfigs);
            if (setter != null) {
                options = Objects.requireNonNull(setter.setConfig(name, options, new HashMap<>(appConfigs)),
                        "PinrockConfigSetter.setConfig returned null");
                if (options.comparator() != KeyComparator.BYTEWISE) {
                    throw new ProcessorStateException("Error opening store " + name + ": its "
                            + setter.getClass().getName() + " orders keys with " + options.comparator()
                            + ", and the store's range queries need bytewise order: leave the comparator as it is");
                }
            }
            Files.createDirectories(directory.getParent());
            return new StoreDatabase(name, RocksDb.open(directory, options), budget, setter);
        } catch (IOException | RocksDbException e) {
            release(name, budget, setter);
            throw new ProcessorStateException("Error opening store " + name + " at location " + directory, e);
        } catch (RuntimeException | Error e) {
            release(name, budget, setter);
            throw e;
        }
    }

    /** Statistics cost time; collect them only when the application records DEBUG metrics. */
    private static StatsLevel statisticsLevel(Map<String, Object> appConfigs) {
        Object level = appConfigs.get(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG);
        return "DEBUG".equals(String.valueOf(level)) || "TRACE".equals(String.valueOf(level))
                ? StatsLevel.EXCEPT_DETAILED_TIMERS
                : StatsLevel.OFF;
    }

    private static PinrockConfigSetter configSetter(Map<String, Object> appConfigs) {
        Object configured = appConfigs.get(PinrockStoreConfig.CONFIG_SETTER_CLASS_CONFIG);
        if (configured == null) {
            return null;
        }
        try {
            Class<?> type = configured instanceof Class<?> c ? c
                    : Class.forName(configured.toString().trim(), true, Utils.getContextOrKafkaClassLoader());
            return Utils.newInstance(type.asSubclass(PinrockConfigSetter.class));
        } catch (ClassNotFoundException | ClassCastException e) {
            throw new ProcessorStateException(PinrockStoreConfig.CONFIG_SETTER_CLASS_CONFIG + " = " + configured
                    + " does not name a class implementing " + PinrockConfigSetter.class.getName(), e);
        }
    }

    /** @return the store's (or segment's) name */
    public String name() {
        return name;
    }

    /** @return the open database */
    public RocksDb db() {
        return db;
    }

    /** @return whether the application's stores share one memory bound */
    public boolean memoryBounded() {
        return budget != null;
    }

    /** Closes the database, then releases the memory bound and the config setter; idempotent. */
    @Override
    public void close() {
        if (db.isOpen()) {
            db.close();
            release(name, budget, configSetter);
        }
    }

    private static void release(String name, SharedMemoryBudgets.Lease budget, PinrockConfigSetter setter) {
        try {
            if (setter != null) {
                setter.close(name);
            }
        } finally {
            if (budget != null) {
                budget.release();
            }
        }
    }

    /** Deletes a closed store's directory and everything in it. */
    public static void delete(Path directory) {
        try {
            Utils.delete(directory.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }
}
