package dev.pinrock;

/**
 * How much a database's {@link Statistics} collect, from
 * {@link DbOptions#statistics(StatsLevel)}: RocksDB's StatsLevel values, plus
 * {@link #OFF}. Each level includes what the previous one collects; timers
 * cost a clock read per operation.
 */
public enum StatsLevel {
    /** No statistics (the default): {@link RocksDb#statistics()} throws. */
    OFF(0),
    /** Tickers only. */
    EXCEPT_HISTOGRAM_OR_TIMERS(1),
    /** Tickers and histograms of sizes, no timers. */
    EXCEPT_TIMERS(2),
    /** Also operation timers, except detailed ones (RocksDB's usual choice). */
    EXCEPT_DETAILED_TIMERS(3),
    /** Also the detailed timers, such as the per-IO-activity file read histograms. */
    EXCEPT_TIME_FOR_MUTEX(4),
    /**
     * Everything RocksDB collects at its kAll. pinrock's engine is built
     * without RocksDB's perf context, which is what times the waits for the
     * database mutex at this level, so {@code rocksdb.db.mutex.wait.micros}
     * stays 0 and this level collects what {@link #EXCEPT_TIME_FOR_MUTEX} does.
     */
    ALL(5);

    private final int nativeLevel;

    StatsLevel(int nativeLevel) {
        this.nativeLevel = nativeLevel;
    }

    /**
     * Returns the level of pr_options_set_statistics.
     *
     * @return the level of pr_options_set_statistics
     */
    public int nativeLevel() {
        return nativeLevel;
    }
}
