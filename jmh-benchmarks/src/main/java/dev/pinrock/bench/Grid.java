package dev.pinrock.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

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

    /** Keys requested; large values are capped, see {@link #keyCount()}. */
    @Param({"1000000"})
    public int keys;

    /**
     * "random" (uniform), "sequential", or "zipfian": skewed, YCSB's
     * scrambled zipfian ({@link Zipfian}).
     */
    @Param({"random"})
    public String order;

    /** "sst": flushed to table files, served from the block cache; "memtable": never flushed. */
    @Param({"sst"})
    public String location;

    /**
     * The block cache's capacity in bytes: by default {@link Datasets#BLOCK_CACHE_BYTES},
     * which holds every dataset; a smaller one makes some reads miss it.
     */
    @Param({"1073741824"})
    public long blockCacheBytes;

    /** How {@link Picker} chooses keys. */
    public enum Order {
        RANDOM, SEQUENTIAL, ZIPFIAN
    }

    /** Datasets hold at most this many bytes of values, so that 64 KiB values stay feasible. */
    public static final long MAX_DATASET_BYTES = 256L << 20;

    /** @return the number of keys actually written: keys, capped to MAX_DATASET_BYTES of values */
    public int keyCount() {
        return keyCount(keys, valueBytes);
    }

    /** @return keys capped so that keys * valueBytes stays within MAX_DATASET_BYTES */
    public static int keyCount(int keys, int valueBytes) {
        return (int) Math.min(keys, Math.max(1, MAX_DATASET_BYTES / Math.max(1, valueBytes)));
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

    /** @return whether the data stays in the memtable */
    public boolean inMemtable() {
        return switch (location) {
            case "memtable" -> true;
            case "sst" -> false;
            default -> throw new IllegalArgumentException("location must be sst or memtable: " + location);
        };
    }
}
