package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.DbOptions;
import dev.pinrock.InfoLogLevel;
import dev.pinrock.InfoLogger;
import dev.pinrock.RocksDb;

/**
 * RocksDB's info log handed to a logger of the application's per database:
 * each database's messages reach its own logger, from its level up; a
 * logger that throws loses that message only; and each logger is let go
 * once its databases closed and their last message was handed over.
 */
class InfoLoggerTest {
    @TempDir
    Path dir;

    /** A logger that keeps "LEVEL message" lines. */
    record Kept(List<String> lines) implements InfoLogger {
        Kept() {
            this(new CopyOnWriteArrayList<>());
        }

        @Override
        public void log(InfoLogLevel level, String message) {
            lines.add(level + " " + message);
        }
    }

    /** Waits up to 30 s for condition, which the info-log thread makes true. */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited 30 s for " + what);
            Thread.sleep(10);
        }
    }

    @Test
    void eachDatabaseLogsToItsOwnLoggerFromItsLevelUpAndTheLoggerIsLetGoAfterItsLastMessage() throws Exception {
        int before = InfoLogPump.liveLoggers();
        Kept informed = new Kept();
        Kept warned = new Kept();
        Path first = dir.resolve("first");
        Path second = dir.resolve("second");
        try (RocksDb a = RocksDb.open(first, DbOptions.create().createIfMissing(true).infoLogger(informed));
                RocksDb b = RocksDb.open(second, DbOptions.create().createIfMissing(true)
                        .infoLogLevel(InfoLogLevel.WARN).infoLogger(warned))) {
            a.put(new byte[] {1}, new byte[] {1});
            a.flush();
            b.flush();
        }
        await(() -> InfoLogPump.liveLoggers() == before, "both loggers to be let go");
        assertTrue(informed.lines().stream().anyMatch(line -> line.startsWith("INFO " + first + ": RocksDB version:")),
                informed.lines().toString());
        assertTrue(informed.lines().stream().anyMatch(line -> line.contains("flush")), informed.lines().toString());
        assertTrue(informed.lines().stream().allMatch(line -> line.contains(" " + first + ": ")),
                informed.lines().toString());
        assertTrue(warned.lines().stream().allMatch(line -> line.startsWith("WARN ") || line.startsWith("ERROR ")
                || line.startsWith("FATAL ")), warned.lines().toString());
        assertFalse(Files.exists(first.resolve("LOG")));
    }

    @Test
    void aLoggerThatThrowsLosesThatMessageOnly() throws Exception {
        int before = InfoLogPump.liveLoggers();
        List<String> kept = new CopyOnWriteArrayList<>();
        InfoLogger failingFirst = (level, message) -> {
            if (kept.isEmpty() && !message.endsWith("thrown")) {
                kept.add("thrown");
                throw new StackOverflowError("made up");
            }
            kept.add(message);
        };
        try (RocksDb db = RocksDb.open(dir.resolve("db"), DbOptions.create().createIfMissing(true)
                .infoLogger(failingFirst))) {
            db.flush();
        }
        await(() -> InfoLogPump.liveLoggers() == before, "the logger to be let go");
        assertEquals("thrown", kept.get(0));
        assertTrue(kept.size() > 2, kept.toString());
    }

    @Test
    void withoutALoggerTheLogIsTheFileAgain() {
        DbOptions logged = DbOptions.create().createIfMissing(true).infoLogger((level, message) -> { });
        try (RocksDb db = RocksDb.open(dir.resolve("file"), logged.infoLogger(null))) {
            assertTrue(Files.exists(dir.resolve("file").resolve("LOG")));
        }
        assertEquals(null, logged.infoLogToSystemLogger(true).infoLogger(), "System.Logger replaces the logger");
    }

    @Test
    void theInfoLogIsTheDatabasesAndAFamilysOptionsRefuseOne() {
        for (DbOptions logging : List.of(DbOptions.create().infoLogger((level, message) -> { }),
                DbOptions.create().infoLogToSystemLogger(true))) {
            var refused = assertThrows(IllegalArgumentException.class,
                    () -> DbOptions.create().columnFamily("f", logging));
            assertTrue(refused.getMessage().contains("info log"), refused.getMessage());
            try (RocksDb db = RocksDb.open(dir.resolve("db"), DbOptions.create().createIfMissing(true))) {
                assertThrows(IllegalArgumentException.class, () -> db.createColumnFamily("f", logging));
                assertEquals(List.of("default"), db.columnFamilyNames());
            }
        }
    }
}
