package dev.pinrock;

import java.lang.System.Logger.Level;

/**
 * The lowest severity RocksDB writes to a database's info log, from
 * {@link DbOptions#infoLogLevel(InfoLogLevel)}: RocksDB's InfoLogLevel values.
 * Each level includes the ones above it. Routed to {@link System.Logger}
 * ({@link DbOptions#infoLogToSystemLogger(boolean)}), each maps to the
 * {@link Level} named here.
 */
public enum InfoLogLevel {
    /** Everything, including per-operation detail; {@link Level#DEBUG}. */
    DEBUG(0, Level.DEBUG),
    /** Opens, recoveries, flushes, compactions and periodic statistics (the default); {@link Level#INFO}. */
    INFO(1, Level.INFO),
    /** Conditions worth attention, such as write stalls; {@link Level#WARNING}. */
    WARN(2, Level.WARNING),
    /** Failed background work, such as a flush that could not write; {@link Level#ERROR}. */
    ERROR(3, Level.ERROR),
    /** Errors that stop the database; {@link Level#ERROR}. */
    FATAL(4, Level.ERROR);

    private final int nativeLevel;
    private final Level loggerLevel;

    InfoLogLevel(int nativeLevel, Level loggerLevel) {
        this.nativeLevel = nativeLevel;
        this.loggerLevel = loggerLevel;
    }

    /**
     * Returns the level of pr_options_set_info_log.
     *
     * @return the level of pr_options_set_info_log
     */
    public int nativeLevel() {
        return nativeLevel;
    }

    /**
     * Returns the {@link System.Logger} level messages of this severity are logged at.
     *
     * @return the {@link System.Logger} level messages of this severity are logged at
     */
    public Level loggerLevel() {
        return loggerLevel;
    }
}
