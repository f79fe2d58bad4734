package dev.pinrock.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import dev.pinrock.Compression;

/**
 * The one parameter grid every binding's benchmarks share. The runner
 * ({@link Comparison}) picks the points: a core sweep over value sizes and
 * one-axis variations around the 100-byte point.
 */
@State(Scope.Benchmark)
public class Grid {
    /** Key size in bytes, at least 16. */
    @Param({"16"})
    public int keyBytes;

    /** Value size in bytes. */
    @Param({"100"})
    public int valueBytes;

    /**
     * Keys requested (for "flushing", the range keys are drawn from); large
     * values are capped, see {@link #keyCount()}.
     */
    @Param({"1000000"})
    public int keys;

    /**
     * "random" (uniform), "sequential", or "zipfian": skewed, YCSB's
     * scrambled zipfian ({@link Zipfian}).
     */
    @Param({"random"})
    public String order;

    /**
     * "sst": flushed to table files, served from the block cache;
     * "memtable": never flushed ({@link Datasets#WRITE_BUFFER_BYTES}
     * memtables); "flushing", for writes only: memtables of RocksDB's default
     * size ({@link Datasets#FLUSHING_WRITE_BUFFER_BYTES}), so that flushes
     * and compactions run while the benchmark writes.
     */
    @Param({"sst"})
    public String location;

    /**
     * The block cache's capacity in bytes: by default {@link Datasets#BLOCK_CACHE_BYTES},
     * which holds every dataset; a smaller one makes some reads miss it.
     */
    @Param({"1073741824"})
    public long blockCacheBytes;

    /** Compression of every level: "none" or "zstd" (pinrock's default level, 3). */
    @Param({"none"})
    public String compression;

    /**
     * The values written: "pattern" ({@link Keys#fillValue}, what the
     * datasets hold) or "fields", records of ten 100-byte fields
     * ({@link Keys#fillRecord}, writes of {@link Keys#RECORD_BYTES} only).
     */
    @Param({"pattern"})
    public String values;

    /** How {@link Picker} chooses keys. */
    public enum Order {
        RANDOM, SEQUENTIAL, ZIPFIAN
    }

    /** Datasets hold at most this many bytes of values, so that 64 KiB values stay feasible. */
    public static final long MAX_DATASET_BYTES = 256L << 20;

    /** @return the number of keys actually used: keys, capped to MAX_DATASET_BYTES of values */
    public int keyCount() {
        return keyCount(keys, valueBytes, location);
    }

    /**
     * @return keys capped so that keys * valueBytes stays within
     *     MAX_DATASET_BYTES, except at "flushing", where keys are only drawn
     *     from a range, and what is written is what a trial writes
     */
    public static int keyCount(int keys, int valueBytes, String location) {
        return location.equals("flushing") ? keys
                : (int) Math.min(keys, Math.max(1, MAX_DATASET_BYTES / Math.max(1, valueBytes)));
    }

    /** @return the key order */
    public Order keyOrder() {
        return switch (order) {
            case "random" -> Order.RANDOM;
            case "sequential" -> Order.SEQUENTIAL;
            case "zipfian" -> Order.ZIPFIAN;
            default -> throw new IllegalArgumentException("order must be random, sequential or zipfian: " + order);
        };
    }

    /**
     * @return whether a read point's data stays in the memtable; reads need
     *     location sst or memtable, and the datasets' pattern values
     */
    public boolean inMemtable() {
        if (fieldValues()) {
            throw new IllegalArgumentException("reads use the datasets' values: values must be pattern");
        }
        return switch (location) {
            case "memtable" -> true;
            case "sst" -> false;
            default -> throw new IllegalArgumentException("reads need location sst or memtable: " + location);
        };
    }

    /** @return the memtable size the location asks for */
    public long writeBufferBytes() {
        return writeBufferBytes(location);
    }

    /** @return the memtable size of a location: RocksDB's default where it flushes, else one that never fills */
    public static long writeBufferBytes(String location) {
        return switch (location) {
            case "flushing" -> Datasets.FLUSHING_WRITE_BUFFER_BYTES;
            case "sst", "memtable" -> Datasets.WRITE_BUFFER_BYTES;
            default -> throw new IllegalArgumentException("location must be sst, memtable or flushing: " + location);
        };
    }

    /** @return the compression */
    public Compression compressionType() {
        return switch (compression) {
            case "none" -> Compression.NONE;
            case "zstd" -> Compression.ZSTD;
            default -> throw new IllegalArgumentException("compression must be none or zstd: " + compression);
        };
    }

    /** @return whether puts write records ({@link Keys#fillRecord}) rather than the pattern values */
    public boolean fieldValues() {
        return switch (values) {
            case "pattern" -> false;
            case "fields" -> true;
            default -> throw new IllegalArgumentException("values must be pattern or fields: " + values);
        };
    }
}
