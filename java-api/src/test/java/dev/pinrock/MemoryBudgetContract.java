package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.internal.Binding;

/** Part of the contract, run with FFM only; see {@link BindingContract}. */
class MemoryBudgetContract extends BindingContract {
    @TempDir
    Path dir;

    private static final long TOTAL = 8L << 20;
    private static final long MEMTABLES = 4L << 20;

    MemoryBudgetContract() {
        super(Binding.FFM);
    }

    @Test
    void databasesSharingABudgetStayWithinItsCap() throws InterruptedException {
        byte[] value = new byte[1024];
        Arrays.fill(value, (byte) 'v');
        try (MemoryBudget budget = MemoryBudget.create(TOTAL, MEMTABLES);
                RocksDb a = open(dir.resolve("a"), DbOptions.create().createIfMissing(true).memoryBudget(budget));
                RocksDb b = open(dir.resolve("b"), DbOptions.create().createIfMissing(true).memoryBudget(budget))) {
            // 2 x 32 MiB, far beyond the cap, and no explicit flush.
            for (int i = 0; i < 32 * 1024; i++) {
                byte[] key = ("key" + i).getBytes();
                a.put(key, value);
                b.put(key, value);
            }
            // Flushes run in the background, and the write-buffer manager acts on writes only: a
            // memtable that grew while its database's previous flush was still running is flushed
            // by that database's next write. Write one more key to each until they settle.
            long deadline = System.nanoTime() + 60_000_000_000L;
            long memtables;
            for (int extra = 0; ; extra++) {
                while (System.nanoTime() < deadline && (flushing(a) || flushing(b))) {
                    Thread.sleep(10);
                }
                memtables = a.propertyLong("rocksdb.cur-size-all-mem-tables").getAsLong()
                        + b.propertyLong("rocksdb.cur-size-all-mem-tables").getAsLong();
                if (memtables <= MEMTABLES * 3 / 2 || extra == 100 || System.nanoTime() > deadline) {
                    break;
                }
                a.put(("extra" + extra).getBytes(), value);
                b.put(("extra" + extra).getBytes(), value);
            }
            assertTrue(memtables <= MEMTABLES * 3 / 2, "memtables hold " + memtables + " bytes");
            for (int i = 0; i < 32 * 1024; i += 997) {
                assertArrayEquals(value, a.get(("key" + i).getBytes()));
            }
            assertTrue(budget.usageBytes() <= TOTAL * 5 / 4, "budget holds " + budget.usageBytes() + " bytes");
            assertEquals(TOTAL, budget.totalBytes());
        }
    }

    private static boolean flushing(RocksDb db) {
        return db.propertyLong("rocksdb.mem-table-flush-pending").getAsLong() > 0
                || db.propertyLong("rocksdb.num-running-flushes").getAsLong() > 0
                || db.propertyLong("rocksdb.num-immutable-mem-table").getAsLong() > 0;
    }

    @Test
    void aClosedBudgetKeepsOpenDatabasesWorkingButOpensNoMore() {
        MemoryBudget budget = MemoryBudget.create(TOTAL, MEMTABLES);
        DbOptions options = DbOptions.create().createIfMissing(true).memoryBudget(budget);
        try (RocksDb db = open(dir.resolve("a"), options)) {
            budget.close();
            budget.close();
            db.put(new byte[] {1}, new byte[] {2});
            assertArrayEquals(new byte[] {2}, db.get(new byte[] {1}));
            var e = assertThrows(IllegalStateException.class, () -> open(dir.resolve("b"), options));
            assertEquals("MemoryBudget is closed", e.getMessage());
            assertThrows(IllegalStateException.class, budget::usageBytes);
        }
    }

    /**
     * Dropping a family frees its memtables at once (no cursor is open on it):
     * what they were charged leaves the budget. A dropped family whose handle
     * were kept would keep them, and could keep a write stall it had, which
     * stops every write of the database.
     */
    @Test
    void aDroppedFamilysMemtablesLeaveTheBudget() {
        byte[] value = new byte[1024];
        Arrays.fill(value, (byte) 'v');
        try (MemoryBudget budget = MemoryBudget.create(64L << 20, 0);
                RocksDb db = open(dir.resolve("a"), DbOptions.create().createIfMissing(true).memoryBudget(budget))) {
            Keyspace family = db.createColumnFamily("f");
            for (int i = 0; i < 4096; i++) {
                family.put(("key" + i).getBytes(), value);
            }
            long withMemtables = budget.usageBytes();
            assertTrue(withMemtables >= 4L << 20, "the budget holds " + withMemtables + " bytes");
            db.dropColumnFamily(family);
            long afterTheDrop = budget.usageBytes();
            assertTrue(afterTheDrop <= withMemtables - (3L << 20),
                    "the budget holds " + afterTheDrop + " bytes after the drop, " + withMemtables + " before");
        }
    }

    @Test
    void invalidBudgetsAreRejected() {
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> MemoryBudget.create(0, 0));
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> MemoryBudget.create(10, 11));
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> MemoryBudget.create(-1, 0));
    }
}
