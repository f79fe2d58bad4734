package dev.pinrock.internal;


import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

import dev.pinrock.InfoLogLevel;
import dev.pinrock.InfoLogger;

/**
 * Moves RocksDB's queued info-log messages (pr_log_next) to the
 * {@link System.Logger} named {@value #LOGGER_NAME} or to the
 * {@link InfoLogger} of their destination, on one daemon thread started by
 * the first database that logs to either.
 *
 * <p>Each options' {@link InfoLogger} is a destination of its own, held in
 * {@link #LOGGERS} until the queue says it ended (PR_LOG_END, after its last
 * message): its messages never find it gone.
 *
 * <p>The thread waits in native code for the next message; RocksDB's own
 * threads only queue messages and never call into Java, so nothing keeps the
 * JVM from exiting.
 *
 * <p>The logger is the application's code, and the thread survives it: a
 * message on which the logger's {@code isLoggable} or {@code log} throws
 * (any exception or error, a stack overflow included) is lost, later ones are
 * still delivered, and the first such failure is reported once, through the
 * same logger at ERROR (a failure of that report is dropped: there is nowhere
 * else to report it). Only an {@link OutOfMemoryError} or another
 * {@link VirtualMachineError} but a stack overflow, which means the JVM
 * itself is failing, ends the thread (its uncaught-exception handler
 * reports it); the next database opened with the info log routed here starts
 * a new one, which delivers the messages still queued.
 */
public final class InfoLogPump {
    /** The logger RocksDB's messages go to. */
    public static final String LOGGER_NAME = "dev.pinrock.rocksdb";
    private static final Logger LOG = System.getLogger(LOGGER_NAME);
    private static final long TEXT_CAP = 16 * 1024;
    private static final long WAIT_MS = 60_000;
    /** pr_log_level's value for the header (version, options) RocksDB writes at open, logged at INFO. */
    private static final int HEADER = 5;
    /** Logger levels by pr_log_level. */
    private static final Level[] LEVELS = new Level[HEADER + 1];
    /** Info log levels by pr_log_level. */
    private static final InfoLogLevel[] INFO_LOG_LEVELS = new InfoLogLevel[HEADER + 1];

    static {
        for (InfoLogLevel level : InfoLogLevel.values()) {
            LEVELS[level.nativeLevel()] = level.loggerLevel();
            INFO_LOG_LEVELS[level.nativeLevel()] = level;
        }
        LEVELS[HEADER] = Level.INFO;
        INFO_LOG_LEVELS[HEADER] = InfoLogLevel.INFO;
    }

    /** pr_options_set_info_log's destination for the file LOG. */
    private static final long FILE = 0;
    /** The destination of {@link System.Logger}; an {@link InfoLogger}'s are above it. */
    private static final long SYSTEM_LOGGER = 1;
    /** pr_log_level's value for a destination's end. */
    private static final int END = 6;
    /** The loggers of the destinations not yet ended, and the thread. */
    private static final TaggedDestinations<InfoLogger> LOGGERS =
            new TaggedDestinations<>("pinrock-info-log", SYSTEM_LOGGER, InfoLogPump::pumpMessages);
    /** Pump thread only: whether a failure of the logger has been reported. */
    private static boolean loggerFailureReported;

    private InfoLogPump() {
    }

    /**
     * Runs set with the destination of the info log: the file, System.Logger,
     * or a new one of logger's (held from here until its end is read, or
     * forgotten at once if set throws: nothing is queued for it then), and
     * starts the thread for the two latter.
     */
    static void withDestination(boolean toSystemLogger, InfoLogger logger, TaggedDestinations.DestinationUse set)
            throws Throwable {
        if (logger != null) {
            LOGGERS.withDestination(logger, set);
            return;
        }
        set.accept(toSystemLogger ? SYSTEM_LOGGER : FILE);
        if (toSystemLogger) {
            LOGGERS.ensureStarted();
        }
    }

    /** How many loggers' destinations have not ended; for tests. */
    static int liveLoggers() {
        return LOGGERS.live();
    }

    private static void pumpMessages() {
        Arena arena = Arena.ofConfined();
        MemorySegment level = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment destination = arena.allocate(ValueLayout.JAVA_LONG);
        MemorySegment text = arena.allocate(TEXT_CAP);
        MemorySegment dropped = arena.allocate(ValueLayout.JAVA_LONG);
        while (true) {
            int got;
            try {
                got = (int) Downcalls.logNext().invokeExact(WAIT_MS, level, destination, text, TEXT_CAP, dropped);
            } catch (Throwable t) {
                deliver(Level.ERROR, "reading RocksDB's info log failed; no more of it is logged", t);
                return;
            }
            if (got == 0) {
                continue;
            }
            long lost = dropped.get(ValueLayout.JAVA_LONG, 0);
            if (lost > 0) {
                deliver(Level.WARNING, lost + " RocksDB info log messages were dropped: the logger fell behind", null);
            }
            int severity = level.get(ValueLayout.JAVA_INT, 0);
            long to = destination.get(ValueLayout.JAVA_LONG, 0);
            if (severity == END) {
                LOGGERS.ended(to);
                continue;
            }
            InfoLogger logger = LOGGERS.target(to);
            if (logger != null) {
                deliver(logger, severity, text.getString(0, StandardCharsets.UTF_8));
            } else {
                Level target = severity >= 0 && severity < LEVELS.length ? LEVELS[severity] : Level.INFO;
                deliver(target, text.getString(0, StandardCharsets.UTF_8), null);
            }
        }
    }

    /** Hands one message to an application's logger; what it throws loses this message only. */
    private static void deliver(InfoLogger logger, int severity, String message) {
        try {
            logger.log(severity >= 0 && severity < INFO_LOG_LEVELS.length ? INFO_LOG_LEVELS[severity]
                    : InfoLogLevel.INFO, message);
        } catch (Throwable failure) {
            TaggedDestinations.rethrowIfTheJvmFails(failure);
        }
    }

    /**
     * Hands one message to the logger when it takes its level. What the
     * logger throws loses this message only; the first failure is reported.
     *
     * @param thrown what to log with the message, or null
     */
    private static void deliver(Level level, String message, Throwable thrown) {
        try {
            if (LOG.isLoggable(level)) {
                if (thrown == null) {
                    LOG.log(level, message);
                } else {
                    LOG.log(level, message, thrown);
                }
            }
        } catch (Throwable failure) {
            TaggedDestinations.rethrowIfTheJvmFails(failure);
            reportLoggerFailure(failure);
        }
    }

    /** Reports the logger's first failure through the logger itself, at most once. */
    private static void reportLoggerFailure(Throwable failure) {
        if (loggerFailureReported) {
            return;
        }
        loggerFailureReported = true;
        try {
            LOG.log(Level.ERROR, "the System.Logger " + LOGGER_NAME + " threw on a RocksDB info log message, which"
                    + " is lost; later messages are still delivered, and later failures are not reported", failure);
        } catch (Throwable reportFailure) {
            TaggedDestinations.rethrowIfTheJvmFails(reportFailure);
            // The logger cannot report its own failure, and there is nowhere else to: dropped.
        }
    }
}
