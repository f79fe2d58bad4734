package dev.pinrock;

/**
 * A logger of the caller's for RocksDB's info log (RocksJava's
 * {@code Logger}), given per database with
 * {@link DbOptions#infoLogger(InfoLogger)}: opens, recoveries, flushes,
 * compactions, stalls, background errors and periodic statistics, from
 * the level {@link DbOptions#infoLogLevel(InfoLogLevel)} sets up.
 *
 * <p><b>Who calls it.</b> RocksDB's threads never call it: they only queue
 * their messages in native memory, and one daemon thread of pinrock's,
 * {@code pinrock-info-log}, hands them over in order, one at a time, so a
 * slow logger delays no flush, compaction or write. The queue holds 4096
 * messages, shared by every database logging this way; when loggers fall
 * that far behind, the oldest messages are dropped and a warning through
 * {@link System.Logger} {@code dev.pinrock.rocksdb} says how many. One
 * thread hands over every database's messages: a logger that blocks holds
 * up the others' too. A logger that throws loses that message only. A
 * logger may call pinrock.
 *
 * <p>A logger is held until the last message of every database opened with
 * it was handed over, after their close.
 */
@FunctionalInterface
public interface InfoLogger {
    /**
     * Takes one message of the info log.
     *
     * @param level its severity (the header RocksDB writes at open, its version and options, at
     *     {@link InfoLogLevel#INFO})
     * @param message {@code "<database path>: <message>"}
     */
    void log(InfoLogLevel level, String message);
}
