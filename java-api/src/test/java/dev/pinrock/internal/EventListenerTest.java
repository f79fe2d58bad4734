package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.DbOptions;
import dev.pinrock.EventListener;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.SstFileManager;
import dev.pinrock.SstFileWriter;

/**
 * RocksDB's events handed to an {@link EventListener}: every kind with its
 * fields, in order, on pinrock's thread; a listener that throws or closes
 * its database from an event; background errors and {@link RocksDb#resume()};
 * and each listener let go once its databases closed and its last event was
 * delivered (which is what the tests wait for).
 */
class EventListenerTest {
    private static final byte[] VALUE = {1};

    @TempDir
    Path dir;

    /** Keeps every event it is told, in order. */
    static class Kept implements EventListener {
        final List<Object> events = new CopyOnWriteArrayList<>();
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();

        void keep(Object event) {
            events.add(event);
            threads.add(Thread.currentThread());
        }

        <T> List<T> of(Class<T> kind) {
            return events.stream().filter(kind::isInstance).map(kind::cast).toList();
        }

        @Override
        public void onFlushBegun(FlushInfo flush) {
            keep(new Begun(flush));
        }

        @Override
        public void onFlushCompleted(FlushInfo flush) {
            keep(flush);
        }

        @Override
        public void onCompactionBegun(CompactionInfo compaction) {
            keep(new Begun(compaction));
        }

        @Override
        public void onCompactionCompleted(CompactionInfo compaction) {
            keep(compaction);
        }

        @Override
        public void onTableFileCreated(TableFileCreated file) {
            keep(file);
        }

        @Override
        public void onTableFileDeleted(TableFileDeleted file) {
            keep(file);
        }

        @Override
        public void onMemTableSealed(MemTableSealed memTable) {
            keep(memTable);
        }

        @Override
        public void onExternalFileIngested(ExternalFileIngested file) {
            keep(file);
        }

        @Override
        public void onWriteStallChanged(WriteStallChange stall) {
            keep(stall);
        }

        @Override
        public void onBackgroundError(BackgroundError error) {
            keep(error);
        }

        @Override
        public void onErrorRecoveryEnded(ErrorRecovery recovery) {
            keep(recovery);
        }

        @Override
        public void failed(Throwable failure) {
            failures.add(failure);
        }
    }

    /** A begun flush's or compaction's info, told apart from a completed one's. */
    record Begun(Object info) {
    }

    /** Waits up to 30 s for condition, which the events thread makes true. */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited 30 s for " + what);
            Thread.sleep(10);
        }
    }

    /** Waits until every listener opened since before was let go: their every event was delivered. */
    private static void awaitDelivered(int before) throws InterruptedException {
        await(() -> EventPump.liveListeners() == before, "the listeners to be let go");
    }

    @Test
    void flushesCompactionsAndTheirFilesAreToldInOrderWithTheirFieldsOnPinrocksThread() throws Exception {
        int before = EventPump.liveListeners();
        Kept kept = new Kept();
        Path path = dir.resolve("db");
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true).eventListener(kept))) {
            db.put(new byte[] {'a'}, VALUE);
            db.put(new byte[] {'b'}, VALUE);
            db.flush();
            db.put(new byte[] {'c'}, VALUE);
            db.delete(new byte[] {'a'});
            db.flush();
            db.compactRange();
        }
        awaitDelivered(before);

        assertTrue(kept.threads.stream().allMatch(thread -> thread.getName().equals("pinrock-events")),
                kept.threads.toString());
        List<EventListener.FlushInfo> flushes = kept.of(EventListener.FlushInfo.class);
        assertEquals(2, flushes.size(), kept.events.toString());
        for (EventListener.FlushInfo flush : flushes) {
            assertEquals(path.toString(), flush.database());
            assertEquals("default", flush.family());
            assertTrue(flush.filePath().endsWith(".sst"), flush.filePath());
            assertEquals(EventListener.FlushReason.MANUAL_FLUSH, flush.reason());
            assertEquals(2, flush.entries());
            assertTrue(flush.smallestSequence() <= flush.largestSequence());
        }
        assertEquals(List.of(0L, 1L), flushes.stream().map(EventListener.FlushInfo::deletions).toList());

        List<EventListener.MemTableSealed> sealed = kept.of(EventListener.MemTableSealed.class);
        assertEquals(2, sealed.size());
        assertEquals(2, sealed.get(0).entries());

        List<EventListener.TableFileCreated> created = kept.of(EventListener.TableFileCreated.class);
        assertEquals(List.of(EventListener.TableFileReason.FLUSH, EventListener.TableFileReason.FLUSH,
                EventListener.TableFileReason.COMPACTION),
                created.stream().map(EventListener.TableFileCreated::reason).toList());
        assertTrue(created.stream().allMatch(file -> file.error() == null && file.fileSize() > 0), created.toString());
        assertEquals(flushes.get(0).jobId(), created.get(0).jobId());

        List<EventListener.CompactionInfo> compactions = kept.of(EventListener.CompactionInfo.class);
        assertEquals(1, compactions.size());
        EventListener.CompactionInfo compaction = compactions.get(0);
        assertNull(compaction.error());
        assertEquals(EventListener.CompactionReason.MANUAL_COMPACTION, compaction.reason());
        assertEquals(flushes.stream().map(EventListener.FlushInfo::filePath).sorted().toList(),
                compaction.inputs().stream().map(EventListener.CompactionFile::path).sorted().toList());
        assertTrue(compaction.inputs().stream().allMatch(file -> file.level() == 0 && file.fileNumber() > 0));
        assertEquals(List.of(created.get(2).filePath()),
                compaction.outputs().stream().map(EventListener.CompactionFile::path).toList());
        assertEquals(4, compaction.recordsRead());
        assertEquals(2, compaction.recordsWritten());
        assertEquals(created.get(2).jobId(), compaction.jobId());

        assertEquals(flushes.stream().map(EventListener.FlushInfo::filePath).sorted().toList(),
                kept.of(EventListener.TableFileDeleted.class).stream().map(EventListener.TableFileDeleted::filePath)
                        .sorted().toList());

        // Each begins before it completes; the compaction after both flushes.
        int compactionBegun = indexOf(kept, Begun.class, 2);
        assertTrue(kept.events.indexOf(flushes.get(1)) < compactionBegun, kept.events.toString());
        assertTrue(compactionBegun < kept.events.indexOf(compaction), kept.events.toString());
        assertTrue(kept.failures.isEmpty(), kept.failures.toString());
    }

    /** The index of the nth (from 0) event of kind. */
    private static int indexOf(Kept kept, Class<?> kind, int nth) {
        int seen = 0;
        for (int i = 0; i < kept.events.size(); i++) {
            if (kind.isInstance(kept.events.get(i)) && seen++ == nth) {
                return i;
            }
        }
        throw new AssertionError("no event " + nth + " of " + kind + " in " + kept.events);
    }

    @Test
    void ingestionsAndWriteStallsAreTold() throws Exception {
        int before = EventPump.liveListeners();
        Kept kept = new Kept();
        Path file = dir.resolve("ingested.sst");
        try (SstFileWriter writer = SstFileWriter.open(file, DbOptions.create())) {
            writer.put(new byte[] {'k'}, VALUE);
            writer.finish();
        }
        try (RocksDb db = RocksDb.open(dir.resolve("db"), DbOptions.create().createIfMissing(true)
                .familyOptions("level0_file_num_compaction_trigger=2;level0_slowdown_writes_trigger=2")
                .eventListener(kept))) {
            db.ingest(List.of(file), false);
            for (int i = 0; i < 2; i++) {
                db.put(new byte[] {'x', (byte) i}, VALUE);
                db.flush();
            }
        }
        awaitDelivered(before);
        List<EventListener.ExternalFileIngested> ingested = kept.of(EventListener.ExternalFileIngested.class);
        assertEquals(1, ingested.size());
        assertEquals(file.toString(), ingested.get(0).externalPath());
        assertTrue(ingested.get(0).internalPath().startsWith(dir.resolve("db").toString()), ingested.toString());
        assertEquals(1, ingested.get(0).entries());
        List<EventListener.WriteStallChange> stalls = kept.of(EventListener.WriteStallChange.class);
        assertFalse(stalls.isEmpty(), kept.events.toString());
        assertEquals(EventListener.WriteStallCondition.DELAYED, stalls.get(0).current());
        assertEquals(EventListener.WriteStallCondition.NORMAL, stalls.get(0).previous());
    }

    @Test
    void aListenerThatThrowsLosesThatEventOnlyAndIsTold() throws Exception {
        int before = EventPump.liveListeners();
        AtomicBoolean thrown = new AtomicBoolean();
        Kept kept = new Kept() {
            @Override
            public void onFlushCompleted(FlushInfo flush) {
                if (!thrown.getAndSet(true)) {
                    throw new IllegalStateException("the listener's own bug");
                }
                super.onFlushCompleted(flush);
            }

            @Override
            public void onMemTableSealed(MemTableSealed memTable) {
                throw new StackOverflowError("deep");
            }
        };
        try (RocksDb db = RocksDb.open(dir.resolve("db"), DbOptions.create().createIfMissing(true)
                .eventListener(kept))) {
            for (int i = 0; i < 2; i++) {
                db.put(new byte[] {(byte) i}, VALUE);
                db.flush();
            }
        }
        awaitDelivered(before);
        assertEquals(1, kept.of(EventListener.FlushInfo.class).size(), kept.events.toString());
        assertEquals(2, kept.of(EventListener.TableFileCreated.class).size(), kept.events.toString());
        assertEquals(3, kept.failures.size(), kept.failures.toString());
        assertEquals("the listener's own bug", kept.failures.stream()
                .filter(IllegalStateException.class::isInstance).findFirst().orElseThrow().getMessage());
    }

    @Test
    void aListenerMayCloseItsDatabaseFromAnEvent() throws Exception {
        int before = EventPump.liveListeners();
        RocksDb[] opened = new RocksDb[1];
        List<Object> closedBy = new CopyOnWriteArrayList<>();
        EventListener closer = new EventListener() {
            @Override
            public void onFlushCompleted(FlushInfo flush) {
                opened[0].close();
                closedBy.add(Thread.currentThread().getName());
            }
        };
        opened[0] = RocksDb.open(dir.resolve("db"), DbOptions.create().createIfMissing(true).eventListener(closer));
        opened[0].put(VALUE, VALUE);
        opened[0].flush();
        awaitDelivered(before);
        assertEquals(List.of("pinrock-events"), closedBy);
        assertFalse(opened[0].isOpen());
    }

    @Test
    void withoutAutoRecoveryABackgroundErrorHoldsUntilResume() throws Exception {
        int before = EventPump.liveListeners();
        Kept kept = new Kept();
        try (SstFileManager files = SstFileManager.create();
                RocksDb db = RocksDb.open(dir.resolve("db"), DbOptions.create().createIfMissing(true)
                        .sstFileManager(files).autoRecovery(false).eventListener(kept))) {
            files.setMaxAllowedSpaceUsage(1);
            db.put(VALUE, VALUE);
            RocksDbException stopped = assertThrows(RocksDbException.class, db::flush);
            await(() -> !kept.of(EventListener.BackgroundError.class).isEmpty(), "the background error");
            EventListener.BackgroundError error = kept.of(EventListener.BackgroundError.class).get(0);
            assertEquals(EventListener.BackgroundErrorReason.FLUSH, error.reason());
            assertNotNull(error.error());
            assertTrue(error.error().getMessage().contains("Max allowed space was reached"), error.toString());
            assertThrows(RocksDbException.class, () -> db.put(VALUE, VALUE), stopped.getMessage());
            files.setMaxAllowedSpaceUsage(0);
            db.resume();
            db.put(VALUE, VALUE);
            db.flush();
        }
        awaitDelivered(before);
        List<EventListener.ErrorRecovery> recoveries = kept.of(EventListener.ErrorRecovery.class);
        assertEquals(1, recoveries.size(), kept.events.toString());
        assertInstanceOf(RocksDbException.class, recoveries.get(0).recoveredFrom());
        assertNull(recoveries.get(0).remaining());
    }

    @Test
    void aListenerIsTheDatabasesAndOnlyAnOpenTakesIt() throws Exception {
        Kept kept = new Kept();
        assertThrows(IllegalArgumentException.class,
                () -> DbOptions.create().columnFamily("f", DbOptions.create().eventListener(kept)));
        try (RocksDb db = RocksDb.open(dir.resolve("db"), DbOptions.create().createIfMissing(true))) {
            int before = EventPump.liveListeners();
            var refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> db.setDatabaseOptions(DbOptions.create().eventListener(kept)));
            assertTrue(refused.getMessage().contains("an event listener"), refused.getMessage());
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> db.setDatabaseOptions(DbOptions.create().autoRecovery(false)));
            awaitDelivered(before);
            db.resume();
        }
        assertTrue(kept.events.isEmpty());
    }
}
