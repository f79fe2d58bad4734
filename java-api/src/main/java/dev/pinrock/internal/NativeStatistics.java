package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.pinrock.Histogram;
import dev.pinrock.MemoryUsage;
import dev.pinrock.Statistics;
import dev.pinrock.bindings.pr_histogram;
import dev.pinrock.bindings.pr_memory_usage;

/**
 * Turns the native statistics and memory-usage records into their Java
 * values, for either binding: the binding only fills the native memory.
 */
public final class NativeStatistics {
    /** Ticker names in the order pr_db_statistics fills them. */
    private static final List<String> TICKERS = names(Downcalls.tickerCount(),
            Downcalls.tickerName());
    /** Histogram names in the order pr_db_statistics fills them. */
    private static final List<String> HISTOGRAMS = names(Downcalls.histogramCount(),
            Downcalls.histogramName());

    private NativeStatistics() {
    }

    private static List<String> names(MethodHandle count, MethodHandle name) {
        try {
            long n = (long) count.invokeExact();
            List<String> names = new ArrayList<>((int) n);
            for (long i = 0; i < n; i++) {
                MemorySegment text = (MemorySegment) name.invokeExact(i);
                names.add(text.reinterpret(Long.MAX_VALUE).getString(0));
            }
            return List.copyOf(names);
        } catch (Throwable t) {
            throw Downcalls.unchecked(t);
        }
    }

    /** Reads every ticker and histogram of db in one native call. */
    public static Statistics read(FfmDb db) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tickers = arena.allocate(ValueLayout.JAVA_LONG, TICKERS.size());
            MemorySegment histograms = arena.allocate(pr_histogram.layout(), HISTOGRAMS.size());
            db.statistics(tickers, TICKERS.size(), histograms, HISTOGRAMS.size());
            Map<String, Long> tickerValues = new LinkedHashMap<>();
            for (int i = 0; i < TICKERS.size(); i++) {
                tickerValues.put(TICKERS.get(i), tickers.getAtIndex(ValueLayout.JAVA_LONG, i));
            }
            Map<String, Histogram> histogramValues = new LinkedHashMap<>();
            for (int i = 0; i < HISTOGRAMS.size(); i++) {
                MemorySegment h = pr_histogram.asSlice(histograms, i);
                histogramValues.put(HISTOGRAMS.get(i), new Histogram(pr_histogram.count(h), pr_histogram.sum(h),
                        pr_histogram.min(h), pr_histogram.max(h), pr_histogram.average(h), pr_histogram.median(h),
                        pr_histogram.p95(h), pr_histogram.p99(h), pr_histogram.std_dev(h)));
            }
            return new Statistics(tickerValues, histogramValues);
        }
    }

    /** Reads db's memory usage in one native call. */
    public static MemoryUsage memoryUsage(FfmDb db) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment usage = arena.allocate(pr_memory_usage.layout());
            db.memoryUsage(usage);
            return new MemoryUsage(pr_memory_usage.memtables(usage), pr_memory_usage.memtables_unflushed(usage),
                    pr_memory_usage.table_readers(usage), pr_memory_usage.block_cache(usage),
                    pr_memory_usage.block_cache_pinned(usage));
        }
    }
}
