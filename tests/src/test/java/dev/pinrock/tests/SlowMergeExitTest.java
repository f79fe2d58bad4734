package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * {@code System.exit} while RocksDB's flush thread runs a slow merge
 * operator written in Java neither hangs nor crashes: the exit joins
 * RocksDB's threads, and one that entered Java after the JVM stopped running
 * Java would never return. The child JVM (given two minutes; the flush's
 * merges alone would take 20 s) must exit normally without an
 * {@code hs_err} file, and every key must read merged after, with a fast
 * operator of the same name: the merges the exit cut off kept their
 * operands.
 */
class SlowMergeExitTest {
    @TempDir
    Path dir;

    @Test
    void theExitEndsAndLosesNoOperand() throws Exception {
        Path path = dir.resolve("db");
        ChildJvm.assertEndsCleanly(dir, Duration.ofMinutes(2), "merging\nexiting\n", SlowMergeExitWorkload.class.getName(),
                path.toString(), "50");
        try (RocksDb db = RocksDb.open(path, DbOptions.create()
                .mergeOperator(SlowMergeExitWorkload.join(0, new CountDownLatch(1))))) {
            for (int i = 0; i < SlowMergeExitWorkload.KEYS; i++) {
                assertEquals(SlowMergeExitWorkload.merged(i),
                        new String(db.get(SlowMergeExitWorkload.key(i)), StandardCharsets.UTF_8), "key " + i);
            }
        }
    }
}
