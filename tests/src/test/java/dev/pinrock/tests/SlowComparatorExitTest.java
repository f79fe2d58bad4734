package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * {@code System.exit} while RocksDB's compaction thread runs a slow
 * comparator written in Java neither hangs nor crashes (pinrock.h's rule
 * C6, as {@link SlowMergeExitTest} shows for merges): the child JVM (given
 * two minutes; the compaction's comparisons alone would take far longer)
 * must exit normally without an {@code hs_err} file, and the database must
 * open after, with a fast comparator of the same name, every key there in
 * its order.
 */
class SlowComparatorExitTest {
    @TempDir
    Path dir;

    @Test
    void theExitEndsAndLosesNoKey() throws Exception {
        Path path = dir.resolve("db");
        ChildJvm.assertEndsCleanly(dir, Duration.ofMinutes(2), "comparing\nexiting\n", SlowComparatorExitWorkload.class.getName(),
                path.toString(), "50");
        try (RocksDb db = RocksDb.open(path, DbOptions.create().comparator(new SlowComparatorExitWorkload.SlowReverse()));
                Cursor cursor = db.cursor()) {
            int expected = SlowComparatorExitWorkload.KEYS;
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                assertArrayEquals(SlowComparatorExitWorkload.key(--expected), cursor.keyBytes());
            }
            assertEquals(0, expected, "every key, in reverse order");
        }
    }
}
