package dev.pinrock;

import java.util.Objects;

/**
 * Makes the {@link CompactionFilter} of each compaction of a database or
 * family, given with {@link DbOptions#compactionFilter(CompactionFilterFactory)}:
 * a filter that needs what the compaction is (manual, full, its level), or
 * state of its own per compaction, such as the time a TTL filter measures
 * against, taken once. {@link #of(String, CompactionFilter)} makes one that
 * hands every compaction the same filter.
 *
 * <p>RocksDB calls {@link #newFilter} on its background threads, several at
 * once: a factory is thread-safe. A factory that throws (or returns null)
 * leaves that compaction unfiltered, keeping every entry, and is told with
 * {@link #failed(Throwable)}.
 *
 * <p><b>Name.</b> RocksDB records {@link #name()} in the database's OPTIONS
 * file. A family filtered once opens with or without a filter (the filter
 * decides what compactions keep, not how the log is read), but
 * {@link DbOptions#loadLatest(java.nio.file.Path)} refuses its options:
 * the filter's code is not in the file. Names are 1 to 255 letters, digits
 * and {@code . _ - $}. To tell families apart, give each its own factory in
 * its options ({@link DbOptions#columnFamily(String, DbOptions)}).
 *
 * <p>The factory, and each filter it made, is held for as long as RocksDB
 * may call it: until every database and family opened with it is closed
 * (or dropped), and until its compaction ends. Once a filter has run, the
 * JVM's exit ends the process without waiting for RocksDB's background
 * work, as a kill would (nothing acknowledged is lost): close databases
 * first to let compactions finish.
 */
public interface CompactionFilterFactory {
    /**
     * Returns the factory's name, the same on every call.
     *
     * @return the name RocksDB records
     */
    String name();

    /**
     * Makes the filter of one compaction.
     *
     * @param context what the compaction is
     * @return the compaction's filter; null leaves it unfiltered
     */
    CompactionFilter newFilter(CompactionFilter.Context context);

    /**
     * Told what a filter or {@link #newFilter} of this factory threw, on the
     * compaction's thread: the entry was kept (or the compaction ran
     * unfiltered). The default logs it to the {@link System.Logger} named
     * {@code dev.pinrock.CompactionFilter} at WARNING. What this method
     * throws is ignored.
     *
     * @param failure what was thrown
     */
    default void failed(Throwable failure) {
        System.getLogger("dev.pinrock.CompactionFilter").log(System.Logger.Level.WARNING,
                "compaction filter " + name() + " failed; the entry was kept", failure);
    }

    /**
     * Returns a factory named name that gives every compaction filter
     * (which must so be thread-safe: compactions run at once).
     *
     * @param name the name RocksDB records
     * @param filter the filter of every compaction
     * @return the factory
     */
    static CompactionFilterFactory of(String name, CompactionFilter filter) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(filter, "filter");
        return new CompactionFilterFactory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CompactionFilter newFilter(CompactionFilter.Context context) {
                return filter;
            }
        };
    }
}
