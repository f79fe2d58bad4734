package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import dev.pinrock.internal.Binding;

/**
 * Batches with index, indexing every record and only each key's latest:
 * their writes read back in every access mode over the database, cursors
 * over them, the write of a batch, and what a batch refuses. Part of the
 * contract, run with FFM only (batches with index have no JNI variant); see
 * {@link BindingContract}.
 */
@ParameterizedClass(name = "[overwriteKey={0}]")
@ValueSource(booleans = {false, true})
class WriteBatchWithIndexContract extends BindingContract {
    private final boolean overwriteKey;
    private final Path dir;
    private final RocksDb db;
    private final ColumnFamily counters;

    WriteBatchWithIndexContract(boolean overwriteKey, @TempDir Path dir) {
        super(Binding.FFM);
        this.overwriteKey = overwriteKey;
        this.dir = dir;
        this.db = open(dir.resolve("db"), DbOptions.create().createIfMissing(true));
        this.counters = db.createColumnFamily("counters", DbOptions.create().mergeOperator("uint64add"));
    }

    @AfterEach
    void closeDatabase() {
        db.close();
    }

    private WriteBatchWithIndex batch() {
        return new WriteBatchWithIndex(db, overwriteKey);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] uint64(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    @Test
    void writesOfEveryFormStayInTheBatchUntilItIsWritten() {
        db.put(bytes("deleted"), bytes("db"));
        counters.merge(bytes("n"), uint64(1));
        try (Arena arena = Arena.ofConfined(); WriteBatchWithIndex batch = batch()) {
            batch.put(bytes("array"), bytes("1"));
            batch.put(ByteBuffer.wrap(bytes("heap-buffer")), ByteBuffer.wrap(bytes("2")));
            batch.put(ByteBuffer.allocateDirect(13).put(bytes("direct-buffer")).flip(),
                    ByteBuffer.allocateDirect(1).put(bytes("3")).flip());
            batch.put(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("segment")),
                    arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("4")));
            batch.delete(bytes("deleted"));
            batch.in(counters).merge(bytes("n"), uint64(2));
            batch.in(counters).merge(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("n")),
                    arena.allocateFrom(ValueLayout.JAVA_BYTE, uint64(3)));
            batch.put(bytes("array"), bytes("again"));
            assertEquals(8, batch.count());
            assertEquals("again", string(batch.get(bytes("array"))));
            assertEquals("4", string(batch.get(bytes("segment"))));
            assertNull(batch.get(bytes("deleted")));
            assertArrayEquals(uint64(6), batch.in(counters).get(bytes("n")));
            // The database has none of it yet.
            assertNull(db.get(bytes("array")));
            assertEquals("db", string(db.get(bytes("deleted"))));
            db.write(batch);
            assertEquals("again", string(db.get(bytes("array"))));
            assertEquals("2", string(db.get(bytes("heap-buffer"))));
            assertEquals("3", string(db.get(bytes("direct-buffer"))));
            assertNull(db.get(bytes("deleted")));
            assertArrayEquals(uint64(6), counters.get(bytes("n")));
            // The batch keeps its records until cleared; merges read over the database now count twice.
            assertEquals(8, batch.count());
            assertArrayEquals(uint64(11), batch.in(counters).get(bytes("n")));
            batch.clear();
            assertEquals(0, batch.count());
            assertEquals("again", string(batch.get(bytes("array"))));
            assertArrayEquals(uint64(6), batch.in(counters).get(bytes("n")));
        }
    }

    @Test
    void readsInEveryAccessModeSeeTheBatchOverTheDatabase() {
        byte[] large = new byte[100_000];
        Arrays.fill(large, (byte) 'L');
        db.put(bytes("stored"), large);
        db.put(bytes("deleted"), bytes("x"));
        try (Arena arena = Arena.ofConfined(); WriteBatchWithIndex batch = batch()) {
            batch.put(bytes("own"), bytes("mine"));
            batch.delete(bytes("deleted"));
            batch.in(counters).put(bytes("own"), bytes("family"));
            for (KeyedCalls view : List.of(batch, batch.in(db))) {
                assertEquals("mine", string(view.get(bytes("own"))));
                assertArrayEquals(large, view.get(bytes("stored")));
                assertNull(view.get(bytes("deleted")));
                byte[] small = new byte[2];
                assertEquals(4, view.get(bytes("own"), small));
                assertEquals(KeyedCalls.NOT_FOUND, view.get(bytes("deleted"), small));
                ByteBuffer direct = ByteBuffer.allocateDirect(8);
                assertEquals(4, view.get(ByteBuffer.wrap(bytes("own")), direct));
                assertEquals("mine", StandardCharsets.UTF_8.decode(direct).toString());
                MemorySegment dst = arena.allocate(large.length);
                assertEquals(large.length, view.get(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("stored")), dst));
                assertEquals(-1, MemorySegment.ofArray(large).mismatch(dst));
                MemorySegment pinned = view.getPinned(arena, bytes("own"));
                assertTrue(pinned.isReadOnly());
                assertEquals("mine", new String(pinned.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
                assertNull(view.getPinned(arena, bytes("deleted")));
                List<String> seen = new ArrayList<>();
                assertTrue(view.getPinned(bytes("stored"), v -> seen.add("stored " + v.byteSize())));
                assertFalse(view.getPinned(bytes("deleted"), v -> seen.add("deleted")));
                assertEquals(List.of("stored " + large.length), seen);
                List<byte[]> keys = List.of(bytes("own"), bytes("stored"), bytes("deleted"), bytes("none"));
                for (ReadOptions options : List.of(ReadOptions.DEFAULT, ReadOptions.DEFAULT.memoryOnly(true))) {
                    List<byte[]> values = view.multiGet(options, keys);
                    assertEquals("mine", string(values.get(0)));
                    assertNull(values.get(2));
                    assertNull(values.get(3));
                }
                List<MemorySegment> segmentKeys = keys.stream()
                        .map(key -> arena.allocateFrom(ValueLayout.JAVA_BYTE, key)).toList();
                long[] offsets = new long[4];
                long[] lengths = new long[4];
                MemorySegment into = arena.allocate(large.length + 16);
                assertEquals(large.length + 4, view.multiGet(segmentKeys, into, offsets, lengths));
                assertEquals(large.length, lengths[1]);
                assertEquals(KeyedCalls.NOT_FOUND, lengths[2]);
                List<MemorySegment> pinnedValues = view.multiGetPinned(arena, segmentKeys);
                assertEquals(-1, MemorySegment.ofArray(large).mismatch(pinnedValues.get(1)));
                assertNull(pinnedValues.get(2));
            }
            assertEquals("family", string(batch.in(counters).get(bytes("own"))));
            // A snapshot reads the database as of it, the batch as it is.
            try (Snapshot before = db.snapshot()) {
                db.put(bytes("later"), bytes("db"));
                batch.put(bytes("batch-later"), bytes("b"));
                ReadOptions asOfBefore = ReadOptions.DEFAULT.snapshot(before);
                assertNull(batch.get(asOfBefore, bytes("later")));
                assertEquals("b", string(batch.get(asOfBefore, bytes("batch-later"))));
                assertEquals("db", string(batch.get(bytes("later"))));
            }
        }
    }

    @Test
    void aCursorWalksTheBatchOverTheDatabaseWithinItsBounds() {
        for (String key : List.of("a", "b", "c", "e")) {
            db.put(bytes(key), bytes("db"));
        }
        try (WriteBatchWithIndex batch = batch()) {
            batch.put(bytes("d"), bytes("1"));
            batch.put(bytes("d"), bytes("batch"));
            batch.delete(bytes("b"));
            batch.put(bytes("c"), bytes("batch"));
            batch.in(counters).put(bytes("x"), bytes("batch"));
            try (Cursor cursor = batch.cursor(ReadOptions.DEFAULT.lowerBound(bytes("b")).upperBound(bytes("e")));
                    Cursor inFamily = batch.in(counters).cursor()) {
                assertEquals(List.of("c=batch", "d=batch"), entries(cursor));
                assertEquals(List.of("x=batch"), entries(inFamily));
                assertTrue(cursor.seek(bytes("c")));
                MemorySegment view = cursor.value();
                // A write while the cursor is open invalidates its entry's views and shows at its next move.
                batch.put(bytes("cc"), bytes("new"));
                assertThrows(IllegalStateException.class, () -> view.get(ValueLayout.JAVA_BYTE, 0));
                // So is the entry, until the cursor moves: the write may have moved the memory it is in.
                assertThrows(IllegalStateException.class, cursor::valueBytes);
                assertThrows(IllegalStateException.class, () -> cursor.scan(1, (k, v) -> { }));
                assertTrue(cursor.next());
                assertEquals("cc", string(cursor.keyBytes()));
                assertEquals(List.of("c=batch", "cc=new", "d=batch"), entries(cursor));
                assertThrows(RocksDbException.class, cursor::refresh);
                // A call of the batch from inside its cursor's scan is refused: the scan reads the batch.
                assertTrue(cursor.first());
                cursor.scan(1, (k, v) -> assertThrows(IllegalStateException.class,
                        () -> batch.put(bytes("z"), bytes("v"))));
                // Clearing closes the batch's cursors.
                batch.clear();
                assertFalse(cursor.isOpen());
                assertFalse(inFamily.isOpen());
            }
            // A cursor over the batch reads it in place, as of its writes: it cannot be tailing.
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> batch.cursor(ReadOptions.DEFAULT.tailing(true)));
            try (Cursor cursor = batch.cursor()) {
                assertEquals(List.of("a=db", "b=db", "c=db", "e=db"), entries(cursor));
                batch.close();
                assertFalse(cursor.isOpen());
            }
        }
    }

    @Test
    void recordsTheDatabaseWouldRefuseAreRefusedWhenAdded() {
        try (WriteBatchWithIndex batch = batch()) {
            batch.put(bytes("k"), bytes("v"));
            // The default family has no merge operator; uint64add takes 8-byte operands.
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> batch.merge(bytes("k"), bytes("1")));
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> batch.in(counters).merge(bytes("n"), bytes("1")));
            // A key longer than pinrock's limit, as a direct write refuses it.
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> batch.put(new byte[(8 << 20) + 1], bytes("v")));
            assertEquals(1, batch.count());
            assertEquals("v", string(batch.get(bytes("k"))));
            batch.singleDelete(bytes("k"));
            assertNull(batch.get(bytes("k")));
            db.write(batch, WriteOptions.DEFAULT.sync(true));
            assertNull(db.get(bytes("k")));
        }
    }

    @Test
    void aBatchReadsAndWritesOverItsOwnDatabaseOnly() throws Exception {
        try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true));
                WriteBatchWithIndex batch = batch()) {
            assertThrows(IllegalArgumentException.class, () -> batch.in(other));
            batch.put(bytes("k"), bytes("v"));
            assertThrows(IllegalArgumentException.class, () -> other.write(batch));
            assertNull(other.get(bytes("k")));
            // A call from another thread, with none in flight, is served.
            assertEquals("v", CompletableFuture.supplyAsync(() -> string(batch.get(bytes("k")))).get());
        }
    }

    @Test
    void aDroppedFamilysRecordFailsTheWriteUntilCleared() {
        ColumnFamily dropped = db.createColumnFamily("dropped");
        try (WriteBatchWithIndex batch = batch()) {
            batch.put(bytes("kept"), bytes("v"));
            batch.in(dropped).put(bytes("k"), bytes("v"));
            db.dropColumnFamily(dropped);
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> batch.get(bytes("kept")));
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.write(batch));
            assertNull(db.get(bytes("kept")));
            batch.clear();
            batch.put(bytes("kept"), bytes("v"));
            assertEquals("v", string(batch.get(bytes("kept"))));
            db.write(batch);
            assertEquals("v", string(db.get(bytes("kept"))));
        }
    }

    @Test
    void aClosedBatchOrDatabaseRefusesEveryCall() {
        WriteBatchWithIndex batch = batch();
        batch.put(bytes("k"), bytes("v"));
        batch.close();
        batch.close();
        assertThrows(IllegalStateException.class, () -> batch.get(bytes("k")));
        assertThrows(IllegalStateException.class, () -> batch.put(bytes("k"), bytes("v")));
        assertThrows(IllegalStateException.class, batch::count);
        assertThrows(IllegalStateException.class, () -> db.write(batch));
        RocksDb closing = open(dir.resolve("closing"), DbOptions.create().createIfMissing(true));
        try (WriteBatchWithIndex open = new WriteBatchWithIndex(closing)) {
            open.put(bytes("k"), bytes("v"));
            Cursor cursor = open.cursor();
            closing.close();
            assertFalse(cursor.isOpen());
            assertThrows(IllegalStateException.class, () -> open.get(bytes("k")));
            assertThrows(IllegalStateException.class, () -> open.put(bytes("k"), bytes("v")));
            assertThrows(IllegalStateException.class, () -> new WriteBatchWithIndex(closing));
        }
    }

    private static List<String> entries(Cursor cursor) {
        List<String> entries = new ArrayList<>();
        for (boolean on = cursor.first(); on; on = cursor.next()) {
            entries.add(string(cursor.keyBytes()) + "=" + string(cursor.valueBytes()));
        }
        return entries;
    }
}
