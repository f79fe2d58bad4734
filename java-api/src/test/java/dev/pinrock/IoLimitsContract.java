package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.internal.Binding;

/**
 * The shared rate limiter and SST file manager. Part of the contract, run
 * with FFM only; see {@link BindingContract}.
 */
class IoLimitsContract extends BindingContract {
    @TempDir
    Path dir;

    private static final byte[] VALUE = new byte[1024];

    static {
        Arrays.fill(VALUE, (byte) 'v');
    }

    IoLimitsContract() {
        super(Binding.FFM);
    }

    private static void writeAndFlush(RocksDb db, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            db.put((prefix + i).getBytes(), VALUE);
        }
        db.flush();
    }

    private static long liveTableBytes(RocksDb db) {
        return db.propertyLong("rocksdb.live-sst-files-size").getAsLong();
    }

    @Test
    void aRateLimiterCountsTheFlushesOfEveryDatabaseSharingIt() {
        try (RateLimiter limiter = RateLimiter.create(64L << 20);
                RocksDb a = open(dir.resolve("a"), DbOptions.create().createIfMissing(true).rateLimiter(limiter));
                RocksDb b = open(dir.resolve("b"), DbOptions.create().createIfMissing(true).rateLimiter(limiter))) {
            assertEquals(0, limiter.totalBytesThrough());
            writeAndFlush(a, "a", 512);
            long afterA = limiter.totalBytesThrough();
            // The table file went through the limiter (all but a few bytes of it).
            assertTrue(afterA > liveTableBytes(a) * 9 / 10, afterA + " bytes through, table " + liveTableBytes(a));
            writeAndFlush(b, "b", 512);
            assertTrue(limiter.totalBytesThrough() > afterA + liveTableBytes(b) * 9 / 10);
            assertTrue(limiter.totalRequests() > 0);
            assertEquals(64L << 20, limiter.bytesPerSecond());
            limiter.setBytesPerSecond(32L << 20);
            assertEquals(32L << 20, limiter.bytesPerSecond());
        }
    }

    @Test
    void aRateLimiterRefusesRatesRocksDbWouldDivideByOrNeverGrant() {
        for (long rate : new long[] {0, -1, 9, Long.MIN_VALUE}) {
            var e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> RateLimiter.create(rate));
            assertTrue(e.getMessage().contains("refills nothing"), e.getMessage());
        }
        assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> RateLimiter.create(199, RateLimiter.DEFAULT_REFILL_PERIOD_MICROS, 10, RateLimiter.Mode.ALL_IO, true));
        assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> RateLimiter.create(1 << 20, 999, 10, RateLimiter.Mode.WRITES_ONLY, false));
        assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> RateLimiter.create(1 << 20, 100_000, 0, RateLimiter.Mode.READS_ONLY, false));
        assertThrows(NullPointerException.class, () -> RateLimiter.create(1 << 20, 100_000, 10, null, false));
        try (RateLimiter limiter = RateLimiter.create(10)) {
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> limiter.setBytesPerSecond(9));
            assertEquals(10, limiter.bytesPerSecond());
        }
    }

    @Test
    void aClosedLimiterOrManagerKeepsOpenDatabasesWorkingButOpensNoMore() {
        RateLimiter limiter = RateLimiter.create(64L << 20);
        SstFileManager manager = SstFileManager.create();
        DbOptions options = DbOptions.create().createIfMissing(true).rateLimiter(limiter).sstFileManager(manager);
        try (RocksDb db = open(dir.resolve("a"), options)) {
            limiter.close();
            limiter.close();
            manager.close();
            writeAndFlush(db, "k", 64);
            db.compactRange();
            assertArrayEquals(VALUE, db.get("k7".getBytes()));
            assertThrows(IllegalStateException.class, limiter::bytesPerSecond);
            assertThrows(IllegalStateException.class, () -> limiter.setBytesPerSecond(1 << 20));
            assertThrows(IllegalStateException.class, manager::totalSize);
            assertThrows(IllegalStateException.class, () -> manager.setMaxAllowedSpaceUsage(1));
        }
        assertThrows(IllegalStateException.class,
                () -> open(dir.resolve("b"), DbOptions.create().createIfMissing(true).rateLimiter(limiter)));
        assertThrows(IllegalStateException.class,
                () -> open(dir.resolve("c"), DbOptions.create().createIfMissing(true).sstFileManager(manager)));
    }

    @Test
    void aFamilyUsesItsDatabasesLimits() {
        try (RateLimiter limiter = RateLimiter.create(1 << 20); SstFileManager manager = SstFileManager.create()) {
            assertThrows(IllegalArgumentException.class,
                    () -> DbOptions.create().columnFamily("f", DbOptions.create().rateLimiter(limiter)));
            try (RocksDb db = open(dir.resolve("a"), DbOptions.create().createIfMissing(true).sstFileManager(manager))) {
                assertThrows(IllegalArgumentException.class,
                        () -> db.createColumnFamily("f", DbOptions.create().sstFileManager(manager)));
                ColumnFamily family = db.createColumnFamily("f", DbOptions.create());
                family.put("k".getBytes(), VALUE);
                family.flush();
                assertEquals(liveTableBytes(db) + family.propertyLong("rocksdb.live-sst-files-size").getAsLong(),
                        manager.totalSize());
            }
        }
    }

    @Test
    void anSstFileManagerTracksTheTableFilesOfEveryDatabaseSharingIt() {
        try (SstFileManager manager = SstFileManager.create();
                RocksDb a = open(dir.resolve("a"), DbOptions.create().createIfMissing(true).sstFileManager(manager));
                RocksDb b = open(dir.resolve("b"), DbOptions.create().createIfMissing(true).sstFileManager(manager))) {
            assertEquals(0, manager.totalSize());
            writeAndFlush(a, "a", 256);
            writeAndFlush(b, "b", 256);
            assertTrue(liveTableBytes(a) > 0);
            assertEquals(liveTableBytes(a) + liveTableBytes(b), manager.totalSize());
            assertFalse(manager.isMaxAllowedSpaceReached());
            manager.setDeleteRateBytesPerSecond(1 << 20);
            assertEquals(1 << 20, manager.deleteRateBytesPerSecond());
            manager.setCompactionBufferSize(1 << 20);
            assertEquals(0, manager.totalTrashSize());
            for (long negative : new long[] {-1, Long.MIN_VALUE}) {
                assertThrows(RocksDbException.InvalidArgumentException.class, () -> manager.setMaxAllowedSpaceUsage(negative));
                assertThrows(RocksDbException.InvalidArgumentException.class, () -> manager.setDeleteRateBytesPerSecond(negative));
                assertThrows(RocksDbException.InvalidArgumentException.class, () -> manager.setCompactionBufferSize(negative));
            }
        }
    }

    @Test
    void theSpaceLimitStopsWritesUntilRaisedAndLosesNothing() throws InterruptedException {
        Path path = dir.resolve("db");
        try (SstFileManager manager = SstFileManager.create()) {
            manager.setMaxAllowedSpaceUsage(1);
            DbOptions options = DbOptions.create().createIfMissing(true).sstFileManager(manager);
            try (RocksDb db = open(path, options)) {
                for (int i = 0; i < 64; i++) {
                    db.put(("before" + i).getBytes(), VALUE);
                }
                // The flush writes its table file, then finds the limit passed and stops writes.
                try {
                    db.flush();
                } catch (RocksDbException e) {
                    assertEquals(StatusCode.IO_ERROR, e.code(), e.getMessage());
                }
                assertTrue(manager.isMaxAllowedSpaceReached());
                var refused = assertThrows(RocksDbException.class, () -> db.put("refused".getBytes(), VALUE));
                assertEquals(StatusCode.IO_ERROR, refused.code());
                assertTrue(refused.getMessage().contains("Max allowed space was reached"), refused.getMessage());
                assertArrayEquals(VALUE, db.get("before63".getBytes()));

                // Raised, RocksDB resumes by itself: the manager retries every few seconds.
                manager.setMaxAllowedSpaceUsage(0);
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (true) {
                    try {
                        db.put("after".getBytes(), VALUE);
                        break;
                    } catch (RocksDbException e) {
                        if (System.nanoTime() > deadline) {
                            throw e;
                        }
                        Thread.sleep(100);
                    }
                }
            }
            try (RocksDb db = open(path, options)) {
                for (int i = 0; i < 64; i++) {
                    assertArrayEquals(VALUE, db.get(("before" + i).getBytes()), "before" + i);
                }
                assertArrayEquals(VALUE, db.get("after".getBytes()));
                assertNull(db.get("refused".getBytes()));
            }
        }
    }
}
