package dev.pinrock.internal;


import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

import dev.pinrock.InfoLogLevel;

/**
 * Moves RocksDB's queued info-log messages (pr_log_next) to the
 * {@link System.Logger} named {@value #LOGGER_NAME}, on one daemon thread
 * started by the first database that logs there.
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

    static {
        for (InfoLogLevel level : InfoLogLevel.values()) {
            LEVELS[level.nativeLevel()] = level.loggerLevel();
        }
        LEVELS[HEADER] = Level.INFO;
    }

    /** Guarded by the class: whether the thread runs. */
    private static boolean started;
    /** Pump thread only: whether a failure of the logger has been reported. */
    private static boolean loggerFailureReported;

    private InfoLogPump() {
    }

    /** Starts the thread unless it runs already. Thread-safe. */
    public static synchronized void ensureStarted() {
        if (!started) {
            Thread.ofPlatform().daemon().name("pinrock-info-log").start(InfoLogPump::pump);
            started = true;
        }
    }

    private static synchronized void stopped() {
        started = false;
    }

    private static void pump() {
        try {
            pumpMessages();
        } finally {
            stopped();
        }
    }

    private static void pumpMessages() {
        Arena arena = Arena.ofConfined();
        MemorySegment level = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment text = arena.allocate(TEXT_CAP);
        MemorySegment dropped = arena.allocate(ValueLayout.JAVA_LONG);
        while (true) {
            int got;
            try {
                got = (int) Downcalls.logNext().invokeExact(WAIT_MS, level, text, TEXT_CAP, dropped);
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
            Level target = severity >= 0 && severity < LEVELS.length ? LEVELS[severity] : Level.INFO;
            deliver(target, text.getString(0, StandardCharsets.UTF_8), null);
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
            rethrowIfTheJvmFails(failure);
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
            rethrowIfTheJvmFails(reportFailure);
            // The logger cannot report its own failure, and there is nowhere else to: dropped.
        }
    }

    /**
     * Rethrows an error that means the JVM itself is failing (out of memory,
     * an internal error); a stack overflow has unwound by the time it is
     * caught, and is the logger's failure like any other.
     */
    private static void rethrowIfTheJvmFails(Throwable failure) {
        if (failure instanceof VirtualMachineError error && !(failure instanceof StackOverflowError)) {
            throw error;
        }
    }
}
