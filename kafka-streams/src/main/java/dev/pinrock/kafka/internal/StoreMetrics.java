package dev.pinrock.kafka.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.Value;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.StateStoreContext;

import dev.pinrock.Histogram;
import dev.pinrock.Keyspace;
import dev.pinrock.RocksDbException;
import dev.pinrock.Statistics;

/**
 * The RocksDB metrics of one store, registered in Kafka Streams' metrics
 * registry under the names the built-in store uses (group
 * {@code stream-state-metrics}, tags {@code thread-id}, {@code task-id} and
 * {@code <scope>-state-id}, where the scope is the supplier's metrics scope).
 *
 * <ul>
 *   <li>Property gauges (recording level INFO), read when a reporter asks,
 *       summed over the store's databases (its segments): memtable sizes and
 *       entries, flush and compaction activity, SST sizes, estimated keys,
 *       block cache capacity and usage (when the application's stores share
 *       one memory bound, the block-cache figures are the shared cache's).</li>
 *   <li>Statistics (recording level DEBUG; the store then opens its databases
 *       with statistics on): bytes written and read, memtable bytes flushed,
 *       compaction bytes, write stalls and file errors as rates and totals,
 *       and memtable and block-cache hit ratios, recorded as the change since
 *       the previous recording; and the average, minimum and maximum of the
 *       memtable flush and compaction times over the databases' lives. All
 *       are recorded on every {@link #record()}, which the store calls from
 *       {@code flush()}, that is on every commit.</li>
 * </ul>
 *
 * <p>{@link #record()} and {@link #close()} run on the stream thread; gauges
 * are read from any thread and read 0 from a database that is closing.
 */
public final class StoreMetrics implements AutoCloseable {
    static final String GROUP = "stream-state-metrics";

    /** Integer properties reported as gauges: the metric is the property without "rocksdb.". */
    static final List<String> PROPERTY_GAUGES = List.of(
            "num-entries-active-mem-table", "num-deletes-active-mem-table", "num-entries-imm-mem-tables",
            "num-deletes-imm-mem-tables", "num-immutable-mem-table", "cur-size-active-mem-table",
            "cur-size-all-mem-tables", "size-all-mem-tables", "mem-table-flush-pending", "num-running-flushes",
            "compaction-pending", "num-running-compactions", "estimate-pending-compaction-bytes",
            "total-sst-files-size", "live-sst-files-size", "num-live-versions", "estimate-num-keys",
            "estimate-table-readers-mem", "background-errors");
    /** Block-cache properties: one shared cache is counted once. */
    static final List<String> CACHE_GAUGES = List.of(
            "block-cache-capacity", "block-cache-usage", "block-cache-pinned-usage");

    /** Statistics tickers recorded as a rate and a total: metric name to ticker. */
    static final Map<String, String> RATE_TOTALS = orderedMap(
            "bytes-written", "rocksdb.bytes.written",
            "bytes-read", "rocksdb.bytes.read",
            "memtable-bytes-flushed", "rocksdb.flush.write.bytes",
            "bytes-read-compaction", "rocksdb.compact.read.bytes",
            "bytes-written-compaction", "rocksdb.compact.write.bytes",
            "write-stall-duration", "rocksdb.stall.micros",
            "number-file-errors", "rocksdb.no.file.errors");
    /** Hit ratios: metric name to the hit ticker; the miss ticker ends in "miss" instead of "hit". */
    static final Map<String, String> HIT_RATIOS = orderedMap(
            "memtable-hit-ratio", "rocksdb.memtable.hit",
            "block-cache-data-hit-ratio", "rocksdb.block.cache.data.hit",
            "block-cache-index-hit-ratio", "rocksdb.block.cache.index.hit",
            "block-cache-filter-hit-ratio", "rocksdb.block.cache.filter.hit");

    /**
     * Statistics histograms reported, as the built-in store reports them, by
     * their average, minimum and maximum over the databases' lives (in
     * microseconds, as RocksDB records them): metric name to histogram.
     */
    static final Map<String, String> TIME_HISTOGRAMS = orderedMap(
            "memtable-flush-time", "rocksdb.db.flush.micros",
            "compaction-time", "rocksdb.compaction.times.micros");

    private final StreamsMetrics registry;
    private final Supplier<List<StoreDatabase>> databases;
    private final List<Sensor> sensors = new ArrayList<>();
    private final Map<String, Sensor> tickerSensors = new LinkedHashMap<>();
    private final Map<String, Sensor> ratioSensors = new LinkedHashMap<>();
    /** Per TIME_HISTOGRAMS name: the sensors of its average, minimum and maximum. */
    private final Map<String, List<Sensor>> timeSensors = new LinkedHashMap<>();
    /** Ticker totals at the previous recording, per database. */
    private final Map<StoreDatabase, Map<String, Long>> previousTickers = new IdentityHashMap<>();

    private StoreMetrics(StreamsMetrics registry, Supplier<List<StoreDatabase>> databases) {
        this.registry = registry;
        this.databases = databases;
    }

    /**
     * Registers a store's metrics.
     *
     * @param context the store's context (its task id and metrics registry)
     * @param storeName the store's name
     * @param scope the store supplier's metrics scope, e.g. {@code pinrock-window}
     * @param databases the store's open databases now (segments come and go); called from any thread
     * @return the metrics; the store closes them before its databases
     */
    public static StoreMetrics register(StateStoreContext context, String storeName, String scope,
            Supplier<List<StoreDatabase>> databases) {
        StoreMetrics metrics = new StoreMetrics(context.metrics(), databases);
        Map<String, String> tags = new HashMap<>();
        tags.put("thread-id", Thread.currentThread().getName());
        tags.put("task-id", context.taskId().toString());
        tags.put(scope + "-state-id", storeName);
        String prefix = "pinrock." + context.taskId() + "." + scope + "." + storeName + ".";

        for (String property : PROPERTY_GAUGES) {
            metrics.gauge(prefix, tags, property, () -> metrics.sumProperty("rocksdb." + property, false));
        }
        for (String property : CACHE_GAUGES) {
            metrics.gauge(prefix, tags, property, () -> metrics.sumProperty("rocksdb." + property, true));
        }
        for (String name : RATE_TOTALS.keySet()) {
            Sensor sensor = metrics.sensor(prefix + name, Sensor.RecordingLevel.DEBUG);
            sensor.add(metricName(name + "-rate", "Average per second of " + name, tags), new Rate(TimeUnit.SECONDS));
            sensor.add(metricName(name + "-total", "Total " + name, tags), new CumulativeSum());
            metrics.tickerSensors.put(name, sensor);
        }
        for (String name : HIT_RATIOS.keySet()) {
            Sensor sensor = metrics.sensor(prefix + name, Sensor.RecordingLevel.DEBUG);
            sensor.add(metricName(name, "Hits over lookups since the previous commit", tags), new Value());
            metrics.ratioSensors.put(name, sensor);
        }
        for (String name : TIME_HISTOGRAMS.keySet()) {
            List<Sensor> sensors = new ArrayList<>();
            for (String statistic : List.of("avg", "min", "max")) {
                String metric = name + "-" + statistic;
                Sensor sensor = metrics.sensor(prefix + metric, Sensor.RecordingLevel.DEBUG);
                sensor.add(metricName(metric, statistic + " of RocksDB's " + TIME_HISTOGRAMS.get(name)
                        + " histogram", tags), new Value());
                sensors.add(sensor);
            }
            metrics.timeSensors.put(name, sensors);
        }
        return metrics;
    }

    private static MetricName metricName(String name, String description, Map<String, String> tags) {
        return new MetricName(name, GROUP, description, tags);
    }

    private Sensor sensor(String name, Sensor.RecordingLevel level) {
        Sensor sensor = registry.addSensor(name, level);
        sensors.add(sensor);
        return sensor;
    }

    private void gauge(String prefix, Map<String, String> tags, String name, Supplier<Long> value) {
        sensor(prefix + name, Sensor.RecordingLevel.INFO)
                .add(metricName(name, "RocksDB property rocksdb." + name, tags), new Gauge(value));
    }

    /**
     * Sums an integer property over the store's databases: a block cache
     * property once per database, and once for all when the cache is shared;
     * any other over every column family (a time-ordered store's time index
     * is one, where the built-in store keeps its index in the same family).
     */
    private long sumProperty(String property, boolean perCache) {
        long sum = 0;
        for (StoreDatabase database : databases.get()) {
            try {
                if (perCache) {
                    long value = database.db().propertyLong(property).orElse(0);
                    if (database.memoryBounded()) {
                        return value;
                    }
                    sum += value;
                    continue;
                }
                for (String family : database.db().columnFamilyNames()) {
                    Keyspace keyspace = database.db().columnFamily(family);
                    sum += keyspace == null ? 0 : keyspace.propertyLong(property).orElse(0);
                }
            } catch (IllegalStateException closing) {
                // a segment that closes while a reporter reads counts as 0
            }
        }
        return sum;
    }

    /**
     * Records the statistics' change since the previous call (no-op unless
     * the application records DEBUG metrics).
     */
    public void record() {
        if (tickerSensors.isEmpty() || !tickerSensors.values().iterator().next().shouldRecord()) {
            return;
        }
        Map<String, Long> delta = new HashMap<>();
        Map<StoreDatabase, Map<String, Long>> seen = new IdentityHashMap<>();
        Map<String, TimeTotals> times = new HashMap<>();
        for (StoreDatabase database : databases.get()) {
            Statistics statistics;
            try {
                statistics = database.db().statistics();
            } catch (RocksDbException statisticsOff) {
                continue; // a config setter turned statistics off for this database
            }
            Map<String, Long> previous = previousTickers.getOrDefault(database, Map.of());
            seen.put(database, statistics.tickers());
            statistics.tickers().forEach((ticker, total) ->
                    delta.merge(ticker, total - previous.getOrDefault(ticker, 0L), Long::sum));
            TIME_HISTOGRAMS.forEach((name, histogram) -> times.computeIfAbsent(name, n -> new TimeTotals())
                    .add(statistics.histogram(histogram)));
        }
        previousTickers.clear();
        previousTickers.putAll(seen);
        long now = System.currentTimeMillis();
        RATE_TOTALS.forEach((name, ticker) -> tickerSensors.get(name).record(delta.getOrDefault(ticker, 0L), now));
        times.forEach((name, totals) -> {
            List<Sensor> sensors = timeSensors.get(name);
            sensors.get(0).record(totals.count == 0 ? 0 : (double) totals.sum / totals.count, now);
            sensors.get(1).record(totals.min, now);
            sensors.get(2).record(totals.max, now);
        });
        HIT_RATIOS.forEach((name, hitTicker) -> {
            long hits = delta.getOrDefault(hitTicker, 0L);
            long misses = delta.getOrDefault(hitTicker.substring(0, hitTicker.length() - 3) + "miss", 0L);
            if (hits + misses > 0) {
                ratioSensors.get(name).record((double) hits / (hits + misses), now);
            }
        });
    }

    /** Removes every metric of the store from the registry; idempotent. */
    @Override
    public void close() {
        for (Sensor sensor : sensors) {
            registry.removeSensor(sensor);
        }
        sensors.clear();
        tickerSensors.clear();
        ratioSensors.clear();
        timeSensors.clear();
        previousTickers.clear();
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** A time histogram summed over a store's databases, as the built-in store sums it. */
    private static final class TimeTotals {
        long sum;
        long count;
        double min = Double.MAX_VALUE;
        double max;

        void add(Histogram histogram) {
            sum += histogram.sum();
            count += histogram.count();
            min = Math.min(min, histogram.min());
            max = Math.max(max, histogram.max());
        }
    }

    /** A metric whose value is read when a reporter asks. */
    private record Gauge(Supplier<Long> value) implements MeasurableStat {
        @Override
        public double measure(MetricConfig config, long now) {
            return value.get();
        }

        @Override
        public void record(MetricConfig config, double value, long timeMs) {
            // read on demand; nothing to record
        }
    }
}
