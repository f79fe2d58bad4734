package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.DbOptions;
import dev.pinrock.InfoLogLevel;
import dev.pinrock.RocksDb;

/**
 * RocksDB's info log routed to {@link System.Logger} (here backed by
 * java.util.logging, the JDK's default): every message arrives on the logger
 * {@code dev.pinrock.rocksdb} named after its database, at its level, and a
 * JVM that logged this way still exits by itself.
 */
class InfoLogTest {
    @TempDir
    Path dir;

    private final Logger logger = Logger.getLogger("dev.pinrock.rocksdb");
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void capture() {
        logger.setLevel(Level.ALL);
        logger.addHandler(capture);
    }

    @AfterEach
    void release() {
        logger.removeHandler(capture);
    }

    /** Opens, writes, flushes and closes a database, then waits for its closing message to be logged. */
    private List<LogRecord> useAndCollect(Path path, DbOptions options) throws InterruptedException {
        try (RocksDb db = RocksDb.open(path, options.createIfMissing(true))) {
            db.put(new byte[] {1}, new byte[] {2});
            db.flush();
        }
        // A last database routed to the logger marks the end: the queue is first in, first out.
        Path marker = dir.resolve("marker-" + path.getFileName());
        RocksDb.open(marker, DbOptions.create().createIfMissing(true).infoLogToSystemLogger(true)).close();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (records.stream().noneMatch(r -> r.getMessage().startsWith(marker + ": "))) {
            assertTrue(System.nanoTime() < deadline, "no message of " + marker + " within 30 s");
            Thread.sleep(10);
        }
        return records.stream().filter(r -> r.getMessage().startsWith(path + ": ")).toList();
    }

    @Test
    void messagesGoToTheLoggerNamedAfterTheirDatabaseAndNoLogFileIsWritten() throws Exception {
        Path path = dir.resolve("db");
        List<LogRecord> logged = useAndCollect(path, DbOptions.create().infoLogToSystemLogger(true));

        assertTrue(logged.stream().anyMatch(r -> r.getLevel() == Level.INFO
                && r.getMessage().contains("RocksDB version: 9.10.0")), "the header is logged");
        assertTrue(logged.stream().anyMatch(r -> r.getMessage().toLowerCase(Locale.ROOT).contains("flush")),
                "the flush is logged");
        assertTrue(logged.stream().allMatch(r -> r.getLoggerName().equals("dev.pinrock.rocksdb")));
        assertFalse(Files.exists(path.resolve("LOG")), "no LOG file beside the data");
    }

    @Test
    void aHigherLevelKeepsLowerSeveritiesOut() throws Exception {
        Path path = dir.resolve("db");
        List<LogRecord> logged = useAndCollect(path,
                DbOptions.create().infoLogToSystemLogger(true).infoLogLevel(InfoLogLevel.WARN));

        assertEquals(List.of(), logged.stream().filter(r -> r.getLevel().intValue() < Level.WARNING.intValue())
                .map(LogRecord::getMessage).toList());
    }

    @Test
    void theFileIsTheDefaultAndNothingReachesTheLogger() throws Exception {
        Path path = dir.resolve("db");
        List<LogRecord> logged = useAndCollect(path, DbOptions.create());

        assertEquals(List.of(), logged.stream().map(LogRecord::getMessage).toList());
        String log = Files.readString(path.resolve("LOG"));
        assertTrue(log.contains("RocksDB version: 9.10.0"), log.lines().findFirst().orElse(""));
    }

    @Test
    void aJvmLoggingThisWayExitsByItselfAndPrintsNothingToStandardOutput() throws Exception {
        Path path = dir.resolve("child");
        ChildJvm.Outcome outcome = ChildJvm.run(List.of("--enable-native-access=ALL-UNNAMED"),
                ChildJvm.testClassPath(), Duration.ofSeconds(60), InfoLogWorkload.class.getName(),
                path.toString());

        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals("written\n", outcome.stdout());
        // java.util.logging's console handler prints INFO and above to standard error.
        assertTrue(outcome.stderr().contains(path + ": "), outcome.stderr());
    }

    @Test
    void aLoggerThatThrowsLosesOnlyItsMessagesAndIsReportedOnceThroughItself() throws Exception {
        Path finder = dir.resolve("finder");
        Path services = Files.createDirectories(finder.resolve("META-INF").resolve("services"));
        Files.writeString(services.resolve(System.LoggerFinder.class.getName()),
                ThrowingLoggerWorkload.Finder.class.getName() + "\n");
        ChildJvm.Outcome outcome = ChildJvm.run(List.of("--enable-native-access=ALL-UNNAMED"),
                ChildJvm.testClassPath() + File.pathSeparator + finder, Duration.ofSeconds(90),
                ThrowingLoggerWorkload.class.getName(), dir.toString());

        assertEquals(0, outcome.exitCode(), outcome.stdout() + outcome.stderr());
        assertEquals("delivered after 4 failures\nreported: [isLoggable fails]\n", outcome.stdout());
        assertEquals("", outcome.stderr());
    }
}
