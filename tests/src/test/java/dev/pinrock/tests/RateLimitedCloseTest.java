package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.provider.ValueSource;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * A close, and the JVM's exit, are bounded whatever a rate limiter allows:
 * with flushes waiting in a limiter of 100 bytes per second (a background
 * flush and a {@code flush()} call), {@code close()} waited for hours, and so
 * did {@code System.exit(0)}, which runs RocksDB's exit code joining its
 * background threads. Each runs in a child JVM (a hang would otherwise hang
 * this one), given two minutes to end; every acknowledged key is there after.
 */
class RateLimitedCloseTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"close", "exit"})
    void theChildEndsAndKeepsEveryKey(String mode) throws Exception {
        Path path = dir.resolve("db");
        ChildJvm.Outcome outcome = ChildJvm.run(List.of("--enable-native-access=ALL-UNNAMED"),
                ChildJvm.testClassPath(), Duration.ofMinutes(2), RateLimitedCloseWorkload.class.getName(),
                path.toString(), mode);

        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals("written\n" + (mode.equals("exit") ? "exiting\n" : "closed\n"), outcome.stdout(),
                outcome.stderr());
        try (RocksDb db = RocksDb.open(path, DbOptions.create())) {
            for (int i = 0; i < RateLimitedCloseWorkload.KEYS; i++) {
                assertNotNull(db.get(RateLimitedCloseWorkload.key(i)), "key " + i);
            }
        }
    }
}
