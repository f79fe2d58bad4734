package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;

import dev.pinrock.internal.Binding;

/** Part of the contract, run with FFM only; see {@link BindingContract}. */
class StatisticsContract extends OpenDatabaseContract {
    StatisticsContract() {
        super(Binding.FFM);
    }

    private RocksDb openWithStatistics(StatsLevel level) {
        db.close();
        return db = open(dir.resolve("stats"), DbOptions.create().createIfMissing(true).statistics(level));
    }

    @Test
    void statisticsOfADatabaseOpenedWithoutThemAreNotSupported() {
        var e = assertThrows(RocksDbException.class, db::statistics);
        assertEquals(StatusCode.NOT_SUPPORTED, e.code());
        assertTrue(e.getMessage().contains("without statistics"), e.getMessage());
        assertThrows(RocksDbException.class, db::resetStatistics);
        assertThrows(NullPointerException.class, () -> DbOptions.create().statistics(null));
    }

    @Test
    void tickersAndHistogramsCountTheWorkDoneIncludingFileReadsOfGets() {
        RocksDb db = openWithStatistics(StatsLevel.EXCEPT_TIME_FOR_MUTEX);
        for (int i = 0; i < 10; i++) {
            db.put(bytes("k" + i), bytes("v"));
        }
        db.flush();
        db.get(bytes("k3"));
        Statistics statistics = db.statistics();
        assertEquals(10, statistics.ticker("rocksdb.number.keys.written"));
        assertEquals(1, statistics.ticker("rocksdb.number.keys.read"));
        assertEquals(1, statistics.histogram("rocksdb.db.get.micros").count());
        Histogram fileReads = statistics.histogram("rocksdb.file.read.get.micros");
        assertTrue(fileReads.count() >= 1, fileReads.toString());
        assertTrue(fileReads.max() >= fileReads.min(), fileReads.toString());
        assertTrue(statistics.histogram("rocksdb.file.write.flush.micros").count() >= 1);
        assertTrue(statistics.tickers().size() > 100);
        assertThrows(IllegalArgumentException.class, () -> statistics.ticker("rocksdb.no.such.ticker"));
        assertThrows(IllegalArgumentException.class, () -> statistics.histogram("rocksdb.no.such.histogram"));
        assertThrows(UnsupportedOperationException.class, () -> statistics.tickers().clear());

        db.resetStatistics();
        assertEquals(0, db.statistics().ticker("rocksdb.number.keys.written"));
    }

    @Test
    void lowerLevelsLeaveTheDetailedTimersOut() {
        RocksDb db = openWithStatistics(StatsLevel.EXCEPT_DETAILED_TIMERS);
        db.put(bytes("k"), bytes("v"));
        db.flush();
        db.get(bytes("k"));
        Statistics statistics = db.statistics();
        assertEquals(1, statistics.ticker("rocksdb.number.keys.read"));
        assertEquals(0, statistics.histogram("rocksdb.file.read.get.micros").count());
        assertTrue(statistics.histogram("rocksdb.file.write.flush.micros").count() >= 1);
    }

    @Test
    void memoryUsageFollowsMemtablesTheBlockCacheAndPins() {
        MemoryUsage empty = db.memoryUsage();
        for (int i = 0; i < 1000; i++) {
            db.put(bytes("key" + i), new byte[100]);
        }
        MemoryUsage written = db.memoryUsage();
        assertTrue(written.memtableBytes() > empty.memtableBytes(), written.toString());
        assertTrue(written.unflushedMemtableBytes() > 100_000, written.toString());
        db.flush();
        MemoryUsage reading;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pinned = db.getPinned(arena, bytes("key1"));
            assertEquals(100, pinned.byteSize());
            reading = db.memoryUsage();
            assertTrue(reading.blockCacheBytes() > 0, reading.toString());
            assertTrue(reading.pinnedBlockCacheBytes() >= 4096, reading.toString()); // the value's whole block
            assertTrue(reading.tableReaderBytes() > 0, reading.toString());
        }
        MemoryUsage released = db.memoryUsage();
        assertTrue(released.pinnedBlockCacheBytes() < reading.pinnedBlockCacheBytes() - 4000, released.toString());
    }
}
