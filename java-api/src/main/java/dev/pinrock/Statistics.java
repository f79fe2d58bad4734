package dev.pinrock;

import java.util.Map;
import java.util.Objects;

/**
 * RocksDB's statistics of one database at one moment, from
 * {@link RocksDb#statistics()}: every ticker (a counter such as
 * {@code "rocksdb.block.cache.miss"}) and every histogram (such as
 * {@code "rocksdb.db.get.micros"} or the per-IO-activity
 * {@code "rocksdb.file.read.get.micros"}) under RocksDB's own names.
 * Immutable; what is collected depends on the {@link StatsLevel}.
 *
 * @param tickers every ticker by name, in RocksDB's order
 * @param histograms every histogram by name, in RocksDB's order
 */
public record Statistics(Map<String, Long> tickers, Map<String, Histogram> histograms) {
    /**
     * Creates statistics from copies of the given maps.
     *
     * @param tickers every ticker by name (copied)
     * @param histograms every histogram by name (copied)
     */
    public Statistics {
        tickers = Map.copyOf(tickers);
        histograms = Map.copyOf(histograms);
    }

    /**
     * Returns one ticker.
     *
     * @param name RocksDB's name of the ticker
     * @return its count
     * @throws IllegalArgumentException when RocksDB has no ticker of that name
     */
    public long ticker(String name) {
        Long value = tickers.get(Objects.requireNonNull(name, "name"));
        if (value == null) {
            throw new IllegalArgumentException("RocksDB has no ticker named " + name);
        }
        return value;
    }

    /**
     * Returns one histogram.
     *
     * @param name RocksDB's name of the histogram
     * @return its summary
     * @throws IllegalArgumentException when RocksDB has no histogram of that name
     */
    public Histogram histogram(String name) {
        Histogram value = histograms.get(Objects.requireNonNull(name, "name"));
        if (value == null) {
            throw new IllegalArgumentException("RocksDB has no histogram named " + name);
        }
        return value;
    }
}
