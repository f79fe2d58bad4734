package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.internal.Binding;

/** Part of the contract, run once per binding; see {@link BindingContract}. */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class ClosedDatabaseContract extends BindingContract {
    @TempDir
    Path dir;

    private static final byte[] KEY = {1, 2, 3};
    /** Numbers column families, so that concurrent calls create distinct ones. */
    private static final AtomicLong FAMILIES = new AtomicLong();

    /** Every public instance operation, by name. */
    private static final Map<String, Consumer<RocksDb>> OPERATIONS = Map.ofEntries(
            Map.entry("put(byte[])", db -> db.put(KEY, KEY)),
            Map.entry("put(ByteBuffer)", db -> db.put(ByteBuffer.wrap(KEY), ByteBuffer.wrap(KEY))),
            Map.entry("put(MemorySegment)", db -> db.put(MemorySegment.ofArray(KEY), MemorySegment.ofArray(KEY))),
            Map.entry("get(byte[])", db -> db.get(KEY)),
            Map.entry("get(byte[], byte[])", db -> db.get(KEY, new byte[8])),
            Map.entry("get(ByteBuffer, ByteBuffer)", db -> db.get(ByteBuffer.wrap(KEY), ByteBuffer.allocateDirect(8))),
            Map.entry("get(MemorySegment, MemorySegment)",
                    db -> db.get(MemorySegment.ofArray(KEY), MemorySegment.ofArray(new byte[8]))),
            Map.entry("getPinned(Arena, byte[])", db -> {
                try (Arena arena = Arena.ofConfined()) {
                    db.getPinned(arena, KEY);
                }
            }),
            Map.entry("getPinned(Arena, MemorySegment)", db -> {
                try (Arena arena = Arena.ofConfined()) {
                    db.getPinned(arena, MemorySegment.ofArray(KEY));
                }
            }),
            Map.entry("getPinned(byte[], Consumer)", db -> db.getPinned(KEY, view -> { })),
            Map.entry("getPinned(MemorySegment, Consumer)", db -> db.getPinned(MemorySegment.ofArray(KEY), view -> { })),
            Map.entry("multiGet(List)", db -> db.multiGet(List.of(KEY, KEY))),
            Map.entry("get(ReadOptions, byte[])", db -> db.get(ReadOptions.DEFAULT, KEY)),
            Map.entry("get(ReadOptions, byte[], byte[])", db -> db.get(ReadOptions.DEFAULT, KEY, new byte[8])),
            Map.entry("snapshot()", db -> db.snapshot().close()),
            Map.entry("delete(byte[])", db -> db.delete(KEY)),
            Map.entry("delete(ByteBuffer)", db -> db.delete(ByteBuffer.wrap(KEY))),
            Map.entry("delete(MemorySegment)", db -> db.delete(MemorySegment.ofArray(KEY))),
            Map.entry("flush()", RocksDb::flush),
            Map.entry("write(WriteBatch)", db -> {
                try (WriteBatch batch = new WriteBatch().put(KEY, KEY)) {
                    db.write(batch);
                }
            }),
            Map.entry("property(String)", db -> db.property("rocksdb.stats")),
            Map.entry("propertyLong(String)", db -> db.propertyLong("rocksdb.estimate-num-keys")),
            Map.entry("compactRange()", RocksDb::compactRange),
            Map.entry("approximateSize(byte[], byte[])", db -> db.approximateSize(KEY, KEY)),
            Map.entry("cursor()", db -> db.cursor().close()),
            Map.entry("cursor(ReadOptions)", db -> db.cursor(ReadOptions.DEFAULT).close()),
            Map.entry("statistics()", RocksDb::statistics),
            Map.entry("resetStatistics()", RocksDb::resetStatistics),
            Map.entry("memoryUsage()", RocksDb::memoryUsage),
            Map.entry("columnFamilyNames()", RocksDb::columnFamilyNames),
            Map.entry("columnFamily(String)", db -> db.columnFamily("x")),
            Map.entry("createColumnFamily(String)",
                    db -> db.dropColumnFamily(db.createColumnFamily("x" + FAMILIES.incrementAndGet()))));

    ClosedDatabaseContract(Binding binding) {
        super(binding);
    }

    @Test
    void everyCallOnAClosedDatabaseThrowsAClearIllegalStateException() {
        RocksDb db = open(dir.resolve("db"), DbOptions.create().createIfMissing(true));
        db.close();
        for (var operation : OPERATIONS.entrySet()) {
            var e = assertThrows(IllegalStateException.class, () -> operation.getValue().accept(db),
                    operation.getKey());
            assertEquals("RocksDb " + dir.resolve("db").toAbsolutePath() + " is closed", e.getMessage(),
                    operation.getKey());
        }
        assertThrows(IllegalStateException.class, () -> db.ingest(List.of(dir.resolve("none.sst")), true));
        var e = assertThrows(IllegalStateException.class, () -> db.checkpoint(dir.resolve("checkpoint")));
        assertTrue(e.getMessage().endsWith("is closed"), e.getMessage());
        // Reopening after close works: the lock was released.
        open(dir.resolve("db"), DbOptions.create()).close();
    }

    @Test
    void closeWhileOtherThreadsAreCallingEndsCleanly() throws Exception {
        List<Consumer<RocksDb>> operations = List.copyOf(OPERATIONS.values());
        for (int round = 0; round < 20; round++) {
            RocksDb db = open(dir.resolve("db" + round),
                    DbOptions.create().createIfMissing(true).statistics(StatsLevel.EXCEPT_DETAILED_TIMERS));
            db.put(KEY, new byte[100]);
            Map<String, Throwable> unexpected = new ConcurrentHashMap<>();
            AtomicBoolean sawClosed = new AtomicBoolean();
            CountDownLatch started = new CountDownLatch(2);
            Thread[] workers = new Thread[2];
            for (int w = 0; w < workers.length; w++) {
                int seed = w;
                workers[w] = new Thread(() -> {
                    started.countDown();
                    for (int i = 0; ; i++) {
                        try {
                            operations.get((i + seed) % operations.size()).accept(db);
                        } catch (IllegalStateException e) {
                            sawClosed.set(true);
                            return;
                        } catch (Throwable t) {
                            unexpected.put(Thread.currentThread().getName(), t);
                            return;
                        }
                    }
                });
                workers[w].start();
            }
            started.await();
            Thread.sleep(round % 5);
            Thread closer = new Thread(db::close);
            closer.start();
            db.close();
            closer.join();
            for (Thread worker : workers) {
                worker.join();
            }
            assertTrue(unexpected.isEmpty(), unexpected.toString());
            assertTrue(sawClosed.get());
        }
    }
}
