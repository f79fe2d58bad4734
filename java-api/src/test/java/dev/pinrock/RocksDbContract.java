package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.Random;

import org.junit.jupiter.api.Test;

import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.pinrock.internal.Binding;

/** Part of the contract, run once per binding; see {@link BindingContract}. */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class RocksDbContract extends OpenDatabaseContract {
    RocksDbContract(Binding binding) {
        super(binding);
    }

    /** A value of the given size whose bytes depend on the seed, so mix-ups show. */
    static byte[] value(int size, int seed) {
        byte[] value = new byte[size];
        new Random(seed).nextBytes(value);
        return value;
    }

    /**
     * A database whose writes stop for good by its options (no compaction ever
     * runs, and two level-0 files stop writes): a put waiting out the stop
     * gives up unapplied once another thread closes the database, with
     * SHUTDOWN_IN_PROGRESS, and the close returns. Each wait is bounded, so a
     * stall that holds the close up fails the test instead of hanging it.
     */
    @Test
    void closeEndsAPutThatWaitsOutAStopForGood() throws Exception {
        Path path = dir.resolve("stopped");
        DbOptions options = DbOptions.create().createIfMissing(true).familyOptions(
                "compaction_style=kCompactionStyleNone;level0_file_num_compaction_trigger=2;"
                        + "level0_slowdown_writes_trigger=2;level0_stop_writes_trigger=2");
        RocksDb stopped = open(path, options);
        for (String key : List.of("a", "b")) {
            stopped.put(bytes(key), bytes("v"));
            stopped.flush();
        }
        assertEquals(1L, stopped.propertyLong("rocksdb.is-write-stopped").getAsLong(),
                "two level-0 files did not stop writes");
        CompletableFuture<Throwable> put = onDaemonThread(() -> stopped.put(bytes("k"), bytes("v")));
        assertThrows(TimeoutException.class, () -> put.get(200, TimeUnit.MILLISECONDS),
                "a put returned while writes were stopped");
        CompletableFuture<Throwable> close = onDaemonThread(stopped::close);
        assertNull(within60Seconds(close, "close, while a put waits out the stop,"), "close threw");
        var gaveUp = assertInstanceOf(RocksDbException.class, within60Seconds(put, "the put, once closing,"));
        assertEquals(StatusCode.SHUTDOWN_IN_PROGRESS, gaveUp.code());
        try (RocksDb reopened = open(path, options)) {
            assertNull(reopened.get(bytes("k")), "the put that gave up was applied");
            assertArrayEquals(bytes("v"), reopened.get(bytes("b")));
        }
    }

    /** What outcome completes with, failing the test when that takes over a minute. */
    private static Throwable within60Seconds(CompletableFuture<Throwable> outcome, String what) throws Exception {
        try {
            return outcome.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " has not returned after 60 s", e);
        }
    }

    /** Runs call on a new daemon thread; completes with what it threw, or null. */
    private static CompletableFuture<Throwable> onDaemonThread(Runnable call) {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                call.run();
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        thread.setDaemon(true);
        thread.start();
        return outcome;
    }

    @Test
    void engineIsRocksDb9100() {
        assertEquals("9.10.0", RocksDb.engineVersion());
    }

    @Test
    void absentKeyIsNullOrNotFoundInEveryMode() {
        byte[] key = bytes("absent");
        assertNull(db.get(key));
        assertEquals(RocksDb.NOT_FOUND, db.get(key, new byte[8]));
        ByteBuffer dst = ByteBuffer.allocateDirect(8);
        assertEquals(RocksDb.NOT_FOUND, db.get(ByteBuffer.allocateDirect(6).put(key).flip(), dst));
        assertEquals(8, dst.limit());
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(RocksDb.NOT_FOUND, db.get(arena.allocateFrom(ValueLayout.JAVA_BYTE, key), arena.allocate(8)));
            assertNull(db.getPinned(arena, key));
        }
        assertFalse(db.getPinned(key, view -> {
            throw new AssertionError("the reader ran for an absent key");
        }));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 100, 16 * 1024, 16 * 1024 + 1, 64 * 1024, 8 * 1024 * 1024})
    void valueRoundTripsThroughEveryAccessMode(int size) {
        byte[] key = bytes("key-" + size);
        byte[] value = value(size, size);
        db.put(key, value);

        assertArrayEquals(value, db.get(key));

        byte[] dst = new byte[size + 3];
        assertEquals(size, db.get(key, dst));
        assertArrayEquals(value, Arrays.copyOf(dst, size));

        for (ByteBuffer buffer : new ByteBuffer[] {ByteBuffer.allocateDirect(size + 5), ByteBuffer.allocate(size + 5)}) {
            buffer.position(2);
            ByteBuffer keyBuffer = ByteBuffer.allocateDirect(key.length).put(key).flip();
            assertEquals(size, db.get(keyBuffer, buffer));
            assertEquals(2, buffer.position());
            assertEquals(2 + size, buffer.limit());
            assertEquals(0, keyBuffer.position());
            byte[] read = new byte[size];
            buffer.get(read);
            assertArrayEquals(value, read);
        }

        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeDst = arena.allocate(size + 1);
            assertEquals(size, db.get(arena.allocateFrom(ValueLayout.JAVA_BYTE, key), nativeDst));
            assertArrayEquals(value, nativeDst.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE));

            byte[] heap = new byte[size];
            assertEquals(size, db.get(MemorySegment.ofArray(key), MemorySegment.ofArray(heap)));
            assertArrayEquals(value, heap);

            MemorySegment pinned = db.getPinned(arena, key);
            assertNotNull(pinned);
            assertEquals(size, pinned.byteSize());
            assertTrue(pinned.isReadOnly());
            assertArrayEquals(value, pinned.toArray(ValueLayout.JAVA_BYTE));
        }

        List<byte[]> read = new ArrayList<>();
        assertTrue(db.getPinned(key, view -> {
            assertTrue(view.isReadOnly());
            read.add(view.toArray(ValueLayout.JAVA_BYTE));
        }));
        assertTrue(db.getPinned(MemorySegment.ofArray(key), view -> read.add(view.toArray(ValueLayout.JAVA_BYTE))));
        assertEquals(2, read.size());
        assertArrayEquals(value, read.get(0));
        assertArrayEquals(value, read.get(1));
    }

    @Test
    void reusedBuffersAreReadAtTheirCurrentPositionAndLimitEveryTime() {
        ByteBuffer keys = ByteBuffer.allocateDirect(4).put(bytes("k1k2")).flip();
        ByteBuffer values = ByteBuffer.allocate(7).put(bytes("onetwo!")).flip();
        db.put(keys.limit(2), values.limit(3));
        db.put(keys.position(2).limit(4), values.position(3).limit(7));

        ByteBuffer dst = ByteBuffer.allocateDirect(16);
        for (int round = 0; round < 3; round++) {
            assertEquals(3, db.get(keys.position(0).limit(2), dst.clear().position(5)));
            assertEquals(5, dst.position());
            assertEquals(8, dst.limit());
            assertArrayEquals(bytes("one"), remainingBytes(dst));
            assertEquals(4, db.get(keys.position(2).limit(4), dst.clear().position(1)));
            assertEquals(5, dst.limit());
            assertArrayEquals(bytes("two!"), remainingBytes(dst));
            assertEquals(3, db.get(keys.position(0).limit(2), dst.clear()), "the whole buffer");
            assertArrayEquals(bytes("one"), remainingBytes(dst));
            assertEquals(4, db.get(keys.position(2).limit(4), dst.clear().limit(3)), "too small: only the length");
            assertEquals(3, dst.limit());
        }
    }

    @Test
    void aReusedBufferOfAClosedArenaIsRefused() {
        db.put(bytes("k"), bytes("v"));
        Arena arena = Arena.ofConfined();
        ByteBuffer key = arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("k")).asByteBuffer();
        ByteBuffer dst = arena.allocate(8).asByteBuffer();
        assertEquals(1, db.get(key, dst));
        arena.close();

        assertThrows(IllegalStateException.class, () -> db.get(key, ByteBuffer.allocateDirect(8)));
        assertThrows(IllegalStateException.class, () -> db.get(ByteBuffer.wrap(bytes("k")), dst));
        assertThrows(IllegalStateException.class, () -> db.put(key, ByteBuffer.wrap(bytes("w"))));
        assertThrows(IllegalStateException.class, () -> db.delete(key));
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
    }

    private static byte[] remainingBytes(ByteBuffer remaining) {
        byte[] read = new byte[remaining.remaining()];
        remaining.duplicate().get(read);
        return read;
    }

    @Test
    void valuesWrittenThroughBuffersAndSegmentsReadBackAsArrays() {
        byte[] value = value(300, 7);
        ByteBuffer key = ByteBuffer.allocate(10).put(bytes("xxbufkeyxx")).position(2).limit(8);
        db.put(key, ByteBuffer.wrap(value));
        assertEquals(2, key.position());
        assertEquals(8, key.limit());
        assertArrayEquals(value, db.get(bytes("bufkey")));

        try (Arena arena = Arena.ofConfined()) {
            db.put(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("segkey")), arena.allocateFrom(ValueLayout.JAVA_BYTE, value));
        }
        assertArrayEquals(value, db.get(bytes("segkey")));
    }

    @Test
    void emptyKeyIsAKeyLikeAnyOther() {
        db.put(new byte[0], bytes("empty-key"));
        assertArrayEquals(bytes("empty-key"), db.get(new byte[0]));
        db.delete(new byte[0]);
        assertNull(db.get(new byte[0]));
    }

    @Test
    void tooSmallDestinationGetsTheLengthAndStaysUntouched() {
        db.put(bytes("k"), value(100, 1));
        byte[] small = new byte[10];
        assertEquals(100, db.get(bytes("k"), small));
        assertArrayEquals(new byte[10], small);

        ByteBuffer buffer = ByteBuffer.allocateDirect(10);
        assertEquals(100, db.get(ByteBuffer.wrap(bytes("k")), buffer));
        assertEquals(0, buffer.position());
        assertEquals(10, buffer.limit());
        assertEquals(0, buffer.get(0));

        // Sized from the returned length, the retry succeeds.
        byte[] retry = new byte[100];
        assertEquals(100, db.get(bytes("k"), retry));
        assertArrayEquals(value(100, 1), retry);
    }

    @Test
    void largeValueIntoSmallerHeapArrayReportsItsLength() {
        db.put(bytes("big"), value(64 * 1024, 2));
        assertEquals(64 * 1024, db.get(bytes("big"), new byte[32 * 1024]));
    }

    @Test
    void readOnlyDestinationsAreRejected() {
        db.put(bytes("k"), bytes("v"));
        assertThrows(ReadOnlyBufferException.class,
                () -> db.get(ByteBuffer.wrap(bytes("k")), ByteBuffer.allocate(4).asReadOnlyBuffer()));
        assertThrows(IllegalArgumentException.class,
                () -> db.get(MemorySegment.ofArray(bytes("k")), MemorySegment.ofArray(new byte[4]).asReadOnly()));
    }

    @Test
    void nullArgumentsAreRejectedWithTheirName() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> db.put(null, new byte[1]));
        assertEquals("key", e.getMessage());
        assertThrows(NullPointerException.class, () -> db.put(new byte[1], (byte[]) null));
        assertThrows(NullPointerException.class, () -> db.get((byte[]) null));
        assertThrows(NullPointerException.class, () -> db.get(new byte[1], (byte[]) null));
        assertThrows(NullPointerException.class, () -> db.getPinned(null, new byte[1]));
        assertThrows(NullPointerException.class, () -> db.getPinned(new byte[1], null));
        assertThrows(NullPointerException.class, () -> db.property(null));
        assertThrows(NullPointerException.class, () -> open(null, DbOptions.create()));
        assertThrows(NullPointerException.class, () -> open(dir, null));
    }

    @Test
    void deleteRemovesInEveryKeyForm() {
        db.put(bytes("a"), bytes("1"));
        db.put(bytes("b"), bytes("2"));
        db.put(bytes("c"), bytes("3"));
        db.delete(bytes("a"));
        db.delete(ByteBuffer.allocateDirect(1).put(bytes("b")).flip());
        db.delete(MemorySegment.ofArray(bytes("c")));
        db.delete(bytes("never-written"));
        assertNull(db.get(bytes("a")));
        assertNull(db.get(bytes("b")));
        assertNull(db.get(bytes("c")));
    }

    @Test
    void overwriteReplacesTheValue() {
        db.put(bytes("k"), bytes("old"));
        db.put(bytes("k"), bytes("new"));
        assertArrayEquals(bytes("new"), db.get(bytes("k")));
    }

    @Test
    void pinnedSegmentThrowsAfterItsArenaCloses() {
        db.put(bytes("k"), value(1000, 3));
        MemorySegment pinned;
        try (Arena arena = Arena.ofConfined()) {
            pinned = db.getPinned(arena, bytes("k"));
            assertEquals(value(1000, 3)[999], pinned.get(ValueLayout.JAVA_BYTE, 999));
        }
        MemorySegment released = pinned;
        assertThrows(IllegalStateException.class, () -> released.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> released.toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void pinnedSegmentFromATableFileOutlivesTheDatabase() {
        byte[] value = value(64 * 1024, 4);
        db.put(bytes("k"), value);
        db.flush();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pinned = db.getPinned(arena, bytes("k"));
            db.close();
            assertArrayEquals(value, pinned.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void getPinnedIntoAClosedArenaThrowsAndLeaksNothing() {
        db.put(bytes("k"), bytes("v"));
        Arena arena = Arena.ofConfined();
        arena.close();
        assertThrows(IllegalStateException.class, () -> db.getPinned(arena, bytes("k")));
        // The database is still fully usable.
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
    }

    @Test
    void getPinnedIntoAnotherThreadsArenaThrowsWrongThread() throws Exception {
        db.put(bytes("k"), bytes("value"));
        try (Arena arena = Arena.ofConfined()) {
            Throwable[] thrown = new Throwable[1];
            Thread other = new Thread(() -> {
                try {
                    db.getPinned(arena, bytes("k"));
                } catch (Throwable t) {
                    thrown[0] = t;
                }
            });
            other.start();
            other.join();
            assertTrue(thrown[0] instanceof WrongThreadException, String.valueOf(thrown[0]));
        }
    }

    @Test
    void unusableDestinationsAreRefusedAlsoWhenTheKeyIsAbsent() throws Exception {
        Arena closed = Arena.ofConfined();
        MemorySegment closedDst = closed.allocate(8);
        closed.close();
        assertThrows(IllegalStateException.class, () -> db.getPinned(closed, bytes("absent")));
        assertThrows(IllegalStateException.class, () -> db.get(MemorySegment.ofArray(bytes("absent")), closedDst));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(8);
            List<Class<?>> thrown = new CopyOnWriteArrayList<>();
            Thread other = new Thread(() -> {
                for (Runnable read : List.<Runnable>of(
                        () -> db.getPinned(arena, bytes("absent")),
                        () -> db.get(MemorySegment.ofArray(bytes("absent")), dst),
                        () -> db.get(ByteBuffer.wrap(bytes("absent")), dst.asByteBuffer()))) {
                    try {
                        read.run();
                        thrown.add(Void.class);
                    } catch (Throwable t) {
                        thrown.add(t.getClass());
                    }
                }
            });
            other.start();
            other.join();
            assertEquals(List.of(WrongThreadException.class, WrongThreadException.class, WrongThreadException.class),
                    thrown);
        }
    }

    @Test
    void keyFromAClosedArenaIsRejected() {
        Arena arena = Arena.ofConfined();
        MemorySegment key = arena.allocateFrom("k");
        arena.close();
        assertThrows(IllegalStateException.class, () -> db.put(key, MemorySegment.ofArray(new byte[1])));
        assertThrows(IllegalStateException.class, () -> db.get(key, MemorySegment.ofArray(new byte[1])));
        assertThrows(IllegalStateException.class, () -> db.delete(key));
        assertThrows(IllegalStateException.class, () -> db.getPinned(key, view -> { }));
    }

    @Test
    void emptyValueIsPinnedAsAnEmptySegment() {
        db.put(bytes("e"), new byte[0]);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pinned = db.getPinned(arena, bytes("e"));
            assertNotNull(pinned);
            assertEquals(0, pinned.byteSize());
        }
    }

    @Test
    void readerViewDiesWhenTheReaderReturnsAndItsPinIsReleased() {
        byte[] value = value(64 * 1024, 5);
        db.put(bytes("k"), value);
        db.flush();
        long pinnedBefore = pinnedBlockCacheBytesAfterACopyingRead(bytes("k"));
        List<MemorySegment> views = new ArrayList<>();
        List<Long> pinnedWhileReading = new ArrayList<>();
        assertTrue(db.getPinned(bytes("k"), view -> {
            views.add(view);
            pinnedWhileReading.add(pinnedBlockCacheBytes());
            assertArrayEquals(value, view.toArray(ValueLayout.JAVA_BYTE));
            assertThrows(IllegalArgumentException.class, () -> view.set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
        }));
        assertTrue(pinnedWhileReading.get(0) >= pinnedBefore + value.length, "pinned while reading: "
                + pinnedWhileReading + ", before: " + pinnedBefore);
        assertEquals(pinnedBefore, pinnedBlockCacheBytes());
        assertThrows(IllegalStateException.class, () -> views.get(0).get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void aReaderThatThrowsReleasesThePinAndTheFailureReachesTheCaller() {
        db.put(bytes("k"), value(64 * 1024, 6));
        db.flush();
        long pinnedBefore = pinnedBlockCacheBytesAfterACopyingRead(bytes("k"));
        IllegalArgumentException failure = new IllegalArgumentException("reader failed");
        assertSame(failure, assertThrows(IllegalArgumentException.class, () -> db.getPinned(bytes("k"), view -> {
            throw failure;
        })));
        assertEquals(pinnedBefore, pinnedBlockCacheBytes());
        assertArrayEquals(value(64 * 1024, 6), db.get(bytes("k")));
    }

    @Test
    void aReaderMayCloseTheDatabaseAndStillReadItsValue() {
        byte[] value = value(64 * 1024, 9);
        db.put(bytes("k"), value);
        db.flush();
        List<byte[]> read = new ArrayList<>();
        assertTrue(db.getPinned(bytes("k"), view -> {
            db.close();
            read.add(view.toArray(ValueLayout.JAVA_BYTE));
        }));
        assertArrayEquals(value, read.get(0));
        assertThrows(IllegalStateException.class, () -> db.get(bytes("k")));
    }

    @Test
    void aReaderMayReadAgainAndTheViewIsItsThreadsOnly() throws Exception {
        db.put(bytes("outer"), value(20_000, 7));
        db.put(bytes("inner"), value(30_000, 8));
        List<Object> seen = new ArrayList<>();
        assertTrue(db.getPinned(bytes("outer"), outer -> {
            assertTrue(db.getPinned(bytes("inner"), inner -> seen.add(inner.toArray(ValueLayout.JAVA_BYTE))));
            seen.add(outer.toArray(ValueLayout.JAVA_BYTE));
            Thread other = new Thread(() -> {
                try {
                    outer.get(ValueLayout.JAVA_BYTE, 0);
                    seen.add("read from another thread");
                } catch (WrongThreadException expected) {
                    seen.add(expected.getClass());
                }
            });
            other.start();
            try {
                other.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }));
        assertArrayEquals(value(30_000, 8), (byte[]) seen.get(0));
        assertArrayEquals(value(20_000, 7), (byte[]) seen.get(1));
        assertEquals(WrongThreadException.class, seen.get(2));
    }

    /** The bytes of the block cache that a table file keeps pinned once read (its index, for one). */
    private long pinnedBlockCacheBytesAfterACopyingRead(byte[] key) {
        assertNotNull(db.get(key));
        return pinnedBlockCacheBytes();
    }

    /** The bytes of the block cache that pins hold. */
    private long pinnedBlockCacheBytes() {
        return db.propertyLong("rocksdb.block-cache-pinned-usage").orElseThrow();
    }

    @Test
    void propertiesAnswerAndUnknownOnesAreNull() {
        for (int i = 0; i < 100; i++) {
            db.put(bytes("key" + i), bytes("v"));
        }
        assertEquals("100", db.property("rocksdb.estimate-num-keys"));
        String stats = db.property("rocksdb.stats");
        assertTrue(stats.contains("DB Stats"), stats);
        assertNull(db.property("rocksdb.no-such-property"));
    }

    @Test
    void flushMovesTheMemtableToATableFile() throws Exception {
        db.put(bytes("k"), bytes("v"));
        assertEquals("1", db.property("rocksdb.num-entries-active-mem-table"));
        db.flush();
        assertEquals("0", db.property("rocksdb.num-entries-active-mem-table"));
        try (var files = Files.list(db.path())) {
            assertEquals(1, files.filter(p -> p.toString().endsWith(".sst")).count());
        }
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
    }

    @Test
    void dataSurvivesCloseAndReopen() {
        db.put(bytes("flushed"), bytes("1"));
        db.flush();
        db.put(bytes("in-wal"), bytes("2"));
        db.close();
        try (RocksDb reopened = open(dir.resolve("db"), DbOptions.create())) {
            assertArrayEquals(bytes("1"), reopened.get(bytes("flushed")));
            assertArrayEquals(bytes("2"), reopened.get(bytes("in-wal")));
        }
    }

    /**
     * Gets first try to answer from memory; a read that needs the table files
     * (here: a block cache far smaller than the data) is made again normally.
     * Every mode reads every value right, whether it was answered from memory
     * or not, including values above the 64 KiB that a memory-only read copies
     * in place, and with memory-first reads switched off (the one normal call
     * a family also makes once its memory-first tries keep missing).
     */
    @ParameterizedTest(name = "memoryFirstReads {0}")
    @ValueSource(booleans = {true, false})
    void everyAccessModeReadsValuesThatMustComeFromTableFiles(boolean memoryFirst) {
        int[] sizes = {0, 100, 4096, 64 * 1024, 64 * 1024 + 1, 300 * 1024};
        int keys = 60;
        for (int i = 0; i < keys; i++) {
            db.put(bytes("key-" + i), value(sizes[i % sizes.length], i));
        }
        db.flush();
        db.close();
        db = open(dir.resolve("db"), DbOptions.create().blockCacheBytes(64 * 1024).memoryFirstReads(memoryFirst));
        db.put(bytes("in-memtable"), value(100, -1));
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < keys; i++) {
                byte[] key = bytes("key-" + i);
                byte[] expected = value(sizes[i % sizes.length], i);
                int size = expected.length;
                assertArrayEquals(expected, db.get(key), "new array, key " + i);
                byte[] dst = new byte[size + 1];
                assertEquals(size, db.get(key, dst), "into array, key " + i);
                assertArrayEquals(expected, Arrays.copyOf(dst, size), "into array, key " + i);
                if (size > 0) {
                    byte[] small = new byte[size - 1];
                    assertEquals(size, db.get(key, small), "too small an array, key " + i);
                    assertArrayEquals(new byte[size - 1], small, "a too small array stays untouched, key " + i);
                }
                ByteBuffer buffer = ByteBuffer.allocateDirect(size);
                assertEquals(size, db.get(ByteBuffer.wrap(key), buffer), "direct buffer, key " + i);
                byte[] read = new byte[size];
                buffer.get(read);
                assertArrayEquals(expected, read, "direct buffer, key " + i);
                try (Arena arena = Arena.ofConfined()) {
                    assertArrayEquals(expected, db.getPinned(arena, key).toArray(ValueLayout.JAVA_BYTE),
                            "pinned, key " + i);
                }
                assertArrayEquals(value(100, -1), db.get(bytes("in-memtable")), "memtable after key " + i);
                assertNull(db.get(bytes("absent")), "absent after key " + i);
            }
        }
    }

    @Test
    void closeIsIdempotentAndReportedByIsOpen() {
        assertTrue(db.isOpen());
        db.close();
        db.close();
        assertFalse(db.isOpen());
        assertTrue(db.toString().contains("closed"));
    }
}
