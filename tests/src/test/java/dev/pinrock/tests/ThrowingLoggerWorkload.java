package dev.pinrock.tests;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * A child-JVM program for {@link InfoLogTest}: its {@link System.LoggerFinder}
 * (registered by the test through a service file) gives pinrock a logger
 * whose {@code isLoggable} throws once and whose {@code log} then throws three
 * times (an exception, an error, a stack overflow). The program routes a
 * database's info log there, then waits for a later database's messages to
 * arrive, and prints what it saw: the messages after the failures are
 * delivered, and the first failure is reported once through the logger.
 */
public final class ThrowingLoggerWorkload {
    /** The messages the logger took (those it did not throw on). */
    private static final List<String> LOGGED = new CopyOnWriteArrayList<>();
    /** The failures pinrock reported through the logger, by their cause's message. */
    private static final List<String> REPORTED = new CopyOnWriteArrayList<>();

    private ThrowingLoggerWorkload() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path dir = Path.of(args[0]);
        try (RocksDb db = RocksDb.open(dir.resolve("db"),
                DbOptions.create().createIfMissing(true).infoLogToSystemLogger(true))) {
            db.put(new byte[] {1}, new byte[] {2});
            db.flush();
        }
        Path marker = dir.resolve("marker");
        RocksDb.open(marker, DbOptions.create().createIfMissing(true).infoLogToSystemLogger(true)).close();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (LOGGED.stream().noneMatch(message -> message.startsWith(marker + ": "))) {
            if (System.nanoTime() > deadline) {
                System.out.println("the later database's messages never arrived");
                System.exit(1);
            }
            Thread.sleep(10);
        }
        System.out.println("delivered after " + ThrowingLogger.FAILURES + " failures");
        System.out.println("reported: " + REPORTED);
    }

    /** Registered as the JVM's LoggerFinder by the test's service file. */
    public static final class Finder extends System.LoggerFinder {
        @Override
        public System.Logger getLogger(String name, Module module) {
            return new ThrowingLogger(name);
        }
    }

    /**
     * pinrock's logger throws on its first isLoggable and on its log calls 2
     * to 4, and takes everything else; the JDK's own loggers log nothing.
     */
    private static final class ThrowingLogger implements System.Logger {
        static final int FAILURES = 4;
        private static final AtomicInteger IS_LOGGABLE_CALLS = new AtomicInteger();
        private static final AtomicInteger LOG_CALLS = new AtomicInteger();
        private final String name;
        private final boolean pinrocks;

        ThrowingLogger(String name) {
            this.name = name;
            this.pinrocks = name.equals("dev.pinrock.rocksdb");
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean isLoggable(Level level) {
            if (!pinrocks) {
                return false;
            }
            if (IS_LOGGABLE_CALLS.incrementAndGet() == 1) {
                throw new IllegalStateException("isLoggable fails");
            }
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
            take(message, thrown);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            take(format, null);
        }

        private void take(String message, Throwable thrown) {
            if (!pinrocks) {
                return;
            }
            switch (LOG_CALLS.incrementAndGet()) {
                case 2 -> throw new IllegalArgumentException("log fails");
                case 3 -> throw new AssertionError("log fails with an error");
                case 4 -> throw new StackOverflowError("log overflows");
                default -> {
                    LOGGED.add(message);
                    if (thrown != null) {
                        REPORTED.add(thrown.getMessage());
                    }
                }
            }
        }
    }
}
