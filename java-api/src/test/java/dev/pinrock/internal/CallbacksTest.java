package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.ColumnFamily;
import dev.pinrock.CompactionFilterFactory;
import dev.pinrock.DbOptions;
import dev.pinrock.MergeOperator;
import dev.pinrock.MergeResult;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;

/**
 * The Java objects RocksDB may call stay held exactly as long as it may
 * call them: from the open that gives them to RocksDB until the last
 * database or family holding them lets go, and not past a refused creation.
 */
class CallbacksTest {
    @TempDir
    Path dir;

    private static MergeOperator lastWins(String name) {
        return new MergeOperator() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean fullMerge(MemorySegment key, MemorySegment existingValue, List<MemorySegment> operands,
                    MergeResult result) {
                result.useOperand(operands.size() - 1);
                return true;
            }
        };
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anOperatorIsHeldWhileADatabaseOrFamilyHoldsIt() {
        int before = Callbacks.live();
        try (RocksDb db = RocksDb.open(dir.resolve("db"),
                DbOptions.create().createIfMissing(true).mergeOperator(lastWins("test.LastWins")))) {
            assertEquals(before + 1, Callbacks.live());
            ColumnFamily family = db.createColumnFamily("f", DbOptions.create().mergeOperator(lastWins("test.Other")));
            assertEquals(before + 2, Callbacks.live());
            family.merge(bytes("k"), bytes("v"));
            assertEquals("v", new String(family.get(bytes("k")), StandardCharsets.UTF_8));
            db.dropColumnFamily(family);
            assertEquals(before + 1, Callbacks.live());
        }
        assertEquals(before, Callbacks.live());
    }

    @Test
    void aCompactionsFilterIsHeldUntilItEndsAndItsFactoryWhileTheDatabaseHoldsIt() {
        int before = Callbacks.live();
        CompactionFilterFactory removeAll = CompactionFilterFactory.of("test.RemoveAll",
                (key, kind, value, decision) -> decision.remove());
        try (RocksDb db = RocksDb.open(dir.resolve("filtered"),
                DbOptions.create().createIfMissing(true).compactionFilter(removeAll))) {
            for (int i = 0; i < 3; i++) {
                db.put(bytes("k" + i), bytes("v"));
                db.compactRange();
                assertNull(db.get(bytes("k" + i)));
                assertEquals(before + 1, Callbacks.live(), "the factory, and no filter of an ended compaction");
            }
        }
        assertEquals(before, Callbacks.live());
    }

    /**
     * RocksDB's threads that call into Java are attached once and stay so:
     * two hundred compactions, each with a filter called back on a background
     * thread, leave no more threads and no more held objects than the first ten.
     */
    @Test
    void manyFilteredCompactionsLeaveNoThreadsOrFiltersBehind() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        CompactionFilterFactory keepAll = CompactionFilterFactory.of("test.KeepAll", (key, kind, value, decision) -> { });
        try (RocksDb db = RocksDb.open(dir.resolve("many"),
                DbOptions.create().createIfMissing(true).compactionFilter(keepAll))) {
            int afterWarmUp = 0;
            int live = 0;
            for (int i = 0; i < 200; i++) {
                db.put(bytes("k" + (i % 10)), bytes("v" + i));
                db.compactRange();
                if (i == 9) {
                    afterWarmUp = threads.getThreadCount();
                    live = Callbacks.live();
                }
            }
            assertEquals(afterWarmUp, threads.getThreadCount(), "threads after 10 compactions and after 200");
            assertEquals(live, Callbacks.live(), "objects held after 10 compactions and after 200");
        }
    }

    @Test
    void aRefusedOperatorOrFilterIsNotHeld() {
        int before = Callbacks.live();
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> RocksDb.open(dir.resolve("refused"),
                DbOptions.create().createIfMissing(true).compactionFilter(CompactionFilterFactory.of("not a name",
                        (key, kind, value, decision) -> { }))).close());
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> RocksDb.open(dir.resolve("refused"),
                DbOptions.create().createIfMissing(true).mergeOperator(lastWins("not a name"))).close());
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> RocksDb.open(dir.resolve("refused"),
                DbOptions.create().mergeOperator(lastWins("test.Missing"))).close());
        assertEquals(before, Callbacks.live());
    }
}
