package dev.pinrock.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

import dev.pinrock.InfoLogLevel;
import dev.pinrock.bindings.PinrockNative;

/**
 * Moves RocksDB's queued info-log messages (pr_log_next) to the
 * {@link System.Logger} named {@value #LOGGER_NAME}, on one daemon thread
 * started by the first database that logs there.
 *
 * <p>The thread waits in native code for the next message; RocksDB's own
 * threads only queue messages and never call into Java, so nothing keeps the
 * JVM from exiting.
 */
public final class InfoLogPump {
    /** The logger RocksDB's messages go to. */
    public static final String LOGGER_NAME = "dev.pinrock.rocksdb";
    private static final Logger LOG = System.getLogger(LOGGER_NAME);
    private static final MethodHandle LOG_NEXT = PinrockNative.pr_log_next$handle();
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

    private static boolean started;

    private InfoLogPump() {
    }

    /** Starts the thread unless it runs already. Thread-safe. */
    public static synchronized void ensureStarted() {
        if (!started) {
            Thread.ofPlatform().daemon().name("pinrock-info-log").start(InfoLogPump::pump);
            started = true;
        }
    }

    private static void pump() {
        Arena arena = Arena.ofConfined();
        MemorySegment level = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment text = arena.allocate(TEXT_CAP);
        MemorySegment dropped = arena.allocate(ValueLayout.JAVA_LONG);
        while (true) {
            int got;
            try {
                got = (int) LOG_NEXT.invokeExact(WAIT_MS, level, text, TEXT_CAP, dropped);
            } catch (Throwable t) {
                LOG.log(Level.ERROR, "reading RocksDB's info log failed; no more of it is logged", t);
                return;
            }
            if (got == 0) {
                continue;
            }
            long lost = dropped.get(ValueLayout.JAVA_LONG, 0);
            if (lost > 0) {
                LOG.log(Level.WARNING, "{0} RocksDB info log messages were dropped: the logger fell behind", lost);
            }
            int severity = level.get(ValueLayout.JAVA_INT, 0);
            Level target = severity >= 0 && severity < LEVELS.length ? LEVELS[severity] : Level.INFO;
            if (LOG.isLoggable(target)) {
                LOG.log(target, text.getString(0, StandardCharsets.UTF_8));
            }
        }
    }
}
