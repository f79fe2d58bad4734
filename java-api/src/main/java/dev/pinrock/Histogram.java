package dev.pinrock;

/**
 * One RocksDB histogram's summary since the database opened (or the last
 * {@link RocksDb#resetStatistics()}), e.g. {@code "rocksdb.db.get.micros"}.
 * Immutable.
 *
 * @param count the number of samples
 * @param sum the sum of the samples
 * @param min the smallest sample
 * @param max the largest sample
 * @param average the mean
 * @param median the 50th percentile
 * @param p95 the 95th percentile
 * @param p99 the 99th percentile
 * @param standardDeviation the standard deviation
 */
public record Histogram(long count, long sum, double min, double max, double average, double median, double p95,
        double p99, double standardDeviation) {
}
