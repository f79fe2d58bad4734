package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.pinrock.internal.Binding;

/** Part of the contract, run once per binding; see {@link BindingContract}. */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class MultiGetContract extends OpenDatabaseContract {
    MultiGetContract(Binding binding) {
        super(binding);
    }

    @Test
    void valuesComeBackInKeyOrderWithNullForAbsentKeys() {
        db.put(bytes("a"), bytes("1"));
        db.put(bytes("c"), bytes("3"));
        db.put(bytes("empty"), new byte[0]);
        List<byte[]> values = db.multiGet(List.of(bytes("c"), bytes("b"), bytes("a"), bytes("empty"), bytes("a")));
        assertEquals(5, values.size());
        assertArrayEquals(bytes("3"), values.get(0));
        assertNull(values.get(1));
        assertArrayEquals(bytes("1"), values.get(2));
        assertArrayEquals(new byte[0], values.get(3));
        assertArrayEquals(bytes("1"), values.get(4));
    }

    @Test
    void valuesLargerThanOneCallsBufferAreReadWhole() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            byte[] value = new byte[10_000 + i];
            Arrays.fill(value, (byte) i);
            db.put(bytes("k" + i), value);
            keys.add(bytes("k" + i));
        }
        db.flush();
        List<byte[]> values = db.multiGet(keys);
        for (int i = 0; i < 20; i++) {
            assertEquals(10_000 + i, values.get(i).length);
            assertEquals((byte) i, values.get(i)[9_999]);
        }
    }

    @Test
    void noKeysGiveNoValuesAndNullKeysAreRejected() {
        assertEquals(List.of(), db.multiGet(List.of()));
        assertThrows(NullPointerException.class, () -> db.multiGet(null));
        assertThrows(NullPointerException.class, () -> db.multiGet(Arrays.asList(bytes("a"), null)));
    }

    @Test
    void multiGetIntoASegmentPacksTheValuesInKeyOrder() {
        db.put(bytes("a"), bytes("first"));
        db.put(bytes("c"), bytes("third!"));
        List<MemorySegment> keys = List.of(MemorySegment.ofArray(bytes("a")), MemorySegment.ofArray(bytes("b")),
                MemorySegment.ofArray(bytes("c")));
        long[] offsets = new long[3];
        long[] lengths = new long[3];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(64);
            assertEquals(11, db.multiGet(keys, dst, offsets, lengths));
            assertArrayEquals(new long[] {5, RocksDb.NOT_FOUND, 6}, lengths);
            assertEquals(-1, offsets[1]);
            assertEquals("first", text(dst.asSlice(offsets[0], lengths[0])));
            assertEquals("third!", text(dst.asSlice(offsets[2], lengths[2])));
            // Too small for the second value: it reports its length and no offset.
            MemorySegment small = arena.allocate(8);
            assertEquals(5, db.multiGet(keys, small, offsets, lengths));
            assertEquals(-1, offsets[2]);
            assertEquals(6, lengths[2]);
        }
        byte[] heap = new byte[16];
        assertEquals(11, db.multiGet(keys, MemorySegment.ofArray(heap), offsets, lengths));
        assertEquals("third!", new String(heap, (int) offsets[2], 6, StandardCharsets.UTF_8));
        assertThrows(IllegalArgumentException.class,
                () -> db.multiGet(keys, MemorySegment.ofArray(heap), new long[2], lengths));
        assertThrows(IllegalArgumentException.class,
                () -> db.multiGet(keys, MemorySegment.ofArray(heap).asReadOnly(), offsets, lengths));
    }

    @Test
    void multiGetPinnedViewsEveryFoundValueUntilTheArenaCloses() {
        db.put(bytes("a"), bytes("first"));
        db.put(bytes("c"), new byte[10_000]);
        db.flush();
        List<MemorySegment> keys = List.of(MemorySegment.ofArray(bytes("a")), MemorySegment.ofArray(bytes("b")),
                MemorySegment.ofArray(bytes("c")));
        List<MemorySegment> values;
        try (Arena arena = Arena.ofConfined()) {
            values = db.multiGetPinned(arena, keys);
            assertEquals("first", text(values.get(0)));
            assertNull(values.get(1));
            assertEquals(10_000, values.get(2).byteSize());
            assertTrue(values.get(0).isReadOnly());
            db.close();  // pins outlive the database
            assertEquals("first", text(values.get(0)));
        }
        assertThrows(IllegalStateException.class, () -> values.get(0).get(ValueLayout.JAVA_BYTE, 0));
        db = open(dir.resolve("db"), DbOptions.create());
    }

    @Test
    void multiGetPinnedIntoAnUnusableArenaPinsNothing() throws Exception {
        db.put(bytes("a"), bytes("v"));
        db.flush();
        List<MemorySegment> keys = List.of(MemorySegment.ofArray(bytes("a")));
        long pinnedBefore = db.memoryUsage().pinnedBlockCacheBytes();
        Arena closed = Arena.ofConfined();
        closed.close();
        assertThrows(IllegalStateException.class, () -> db.multiGetPinned(closed, keys));
        try (Arena other = Arena.ofConfined()) {
            Throwable failure = thrownInAnotherThread(() -> db.multiGetPinned(other, keys));
            assertTrue(failure instanceof WrongThreadException, String.valueOf(failure));
        }
        assertEquals(pinnedBefore, db.memoryUsage().pinnedBlockCacheBytes());
    }

    /** An empty key too: copying it reads nothing, so nothing would check its arena. */
    @ParameterizedTest
    @ValueSource(strings = {"a", ""})
    void aKeyOfAClosedArenaIsRefusedByEverySegmentForm(String keyText) {
        db.put(bytes(keyText), bytes("v"));
        Arena closed = Arena.ofConfined();
        MemorySegment key = closed.allocateFrom(ValueLayout.JAVA_BYTE, bytes(keyText));
        closed.close();
        List<MemorySegment> keys = List.of(MemorySegment.ofArray(bytes("a")), key);
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalStateException.class,
                    () -> db.multiGet(keys, arena.allocate(16), new long[2], new long[2]));
            long pinnedBefore = db.memoryUsage().pinnedBlockCacheBytes();
            assertThrows(IllegalStateException.class, () -> db.multiGetPinned(arena, keys));
            assertEquals(pinnedBefore, db.memoryUsage().pinnedBlockCacheBytes());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", ""})
    void aKeyConfinedToAnotherThreadIsRefusedByEverySegmentForm(String keyText) throws Exception {
        db.put(bytes(keyText), bytes("v"));
        try (Arena owner = Arena.ofConfined()) {
            List<MemorySegment> keys = List.of(owner.allocateFrom(ValueLayout.JAVA_BYTE, bytes(keyText)));
            Throwable into = thrownInAnotherThread(() -> {
                try (Arena arena = Arena.ofConfined()) {
                    db.multiGet(keys, arena.allocate(16), new long[1], new long[1]);
                }
            });
            assertTrue(into instanceof WrongThreadException, String.valueOf(into));
            Throwable pinned = thrownInAnotherThread(() -> {
                try (Arena arena = Arena.ofConfined()) {
                    db.multiGetPinned(arena, keys);
                }
            });
            assertTrue(pinned instanceof WrongThreadException, String.valueOf(pinned));
            // The owner still reads with it.
            long[] lengths = new long[1];
            db.multiGet(keys, owner.allocate(16), new long[1], lengths);
            assertEquals(1, lengths[0]);
        }
    }

    /** @return what call threw when run in another thread, or null */
    private static Throwable thrownInAnotherThread(Runnable call) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                call.run();
                return null;
            } catch (Throwable t) {
                return t;
            }
        }).get();
    }

    private static String text(MemorySegment segment) {
        return new String(segment.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    private static List<String> texts(List<byte[]> values) {
        return values.stream().map(v -> v == null ? null : new String(v, StandardCharsets.UTF_8)).toList();
    }

    private static List<String> segmentTexts(List<MemorySegment> values) {
        return values.stream().map(v -> v == null ? null
                : new String(v.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void everyFormReadsAsOfTheSnapshotOfItsReadOptions() {
        db.put(bytes("k"), bytes("old"));
        db.put(bytes("gone"), bytes("here"));
        try (Snapshot snapshot = db.snapshot(); Arena arena = Arena.ofConfined()) {
            db.put(bytes("k"), bytes("new"));
            db.delete(bytes("gone"));
            db.put(bytes("later"), bytes("x"));
            ReadOptions then = ReadOptions.DEFAULT.snapshot(snapshot);
            List<String> keys = List.of("k", "gone", "later");
            List<String> expected = Arrays.asList("old", "here", null);
            assertEquals(expected, texts(db.multiGet(then, keys.stream().map(OpenDatabaseContract::bytes).toList())));
            List<MemorySegment> segmentKeys = keys.stream()
                    .map(k -> arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes(k))).toList();
            assertEquals(expected, segmentTexts(db.multiGetPinned(then, arena, segmentKeys)));
            MemorySegment dst = arena.allocate(64);
            long[] offsets = new long[3];
            long[] lengths = new long[3];
            db.multiGet(then, segmentKeys, dst, offsets, lengths);
            assertEquals("old", new String(dst.asSlice(offsets[0], lengths[0]).toArray(ValueLayout.JAVA_BYTE),
                    StandardCharsets.UTF_8));
            assertEquals(RocksDb.NOT_FOUND, lengths[2]);
            assertEquals(Arrays.asList("new", null, "x"),
                    texts(db.multiGet(ReadOptions.DEFAULT, keys.stream().map(OpenDatabaseContract::bytes).toList())));
        }
    }

    @Test
    void aMemoryOnlyMultiGetThatNeedsIoFailsWithIncomplete() {
        db.put(bytes("k"), bytes("v"));
        db.flush();
        db.close();
        db = open(dir.resolve("db"), DbOptions.create());
        ReadOptions memoryOnly = ReadOptions.DEFAULT.memoryOnly(true);
        var e = assertThrows(RocksDbException.class, () -> db.multiGet(memoryOnly, List.of(bytes("k"))));
        assertEquals(StatusCode.INCOMPLETE, e.code());
        try (Arena arena = Arena.ofConfined()) {
            var pinned = assertThrows(RocksDbException.class,
                    () -> db.multiGetPinned(memoryOnly, arena, List.of(MemorySegment.ofArray(bytes("k")))));
            assertEquals(StatusCode.INCOMPLETE, pinned.code());
        }
        assertEquals(List.of("v"), texts(db.multiGet(List.of(bytes("k")))));
        assertEquals(List.of("v"), texts(db.multiGet(memoryOnly, List.of(bytes("k")))));
    }

    @Test
    void oneCallReadsKeysOfSeveralFamiliesAsOfOneState() {
        ColumnFamily users = db.createColumnFamily("users");
        ColumnFamily orders = db.createColumnFamily("orders");
        db.put(bytes("k"), bytes("default"));
        users.put(bytes("k"), bytes("user"));
        orders.put(bytes("o"), bytes("order"));
        try (Snapshot snapshot = db.snapshot(); Arena arena = Arena.ofConfined()) {
            users.put(bytes("k"), bytes("changed"));
            List<Keyspace> families = List.of(users, db, orders, users, orders);
            List<byte[]> keys = List.of(bytes("k"), bytes("k"), bytes("o"), bytes("absent"), bytes("k"));
            ReadOptions then = ReadOptions.DEFAULT.snapshot(snapshot);
            assertEquals(Arrays.asList("user", "default", "order", null, null), texts(db.multiGet(then, families, keys)));
            assertEquals(Arrays.asList("changed", "default", "order", null, null),
                    texts(db.multiGet(ReadOptions.DEFAULT, families, keys)));
            List<MemorySegment> segmentKeys = keys.stream().map(MemorySegment::ofArray).toList();
            assertEquals(Arrays.asList("user", "default", "order", null, null),
                    segmentTexts(db.multiGetPinned(then, arena, families, segmentKeys)));
        }
    }

    @Test
    void aCrossFamilyReadRefusesMismatchesForeignAndDroppedFamilies() {
        ColumnFamily users = db.createColumnFamily("users");
        var sizes = assertThrows(IllegalArgumentException.class,
                () -> db.multiGet(ReadOptions.DEFAULT, List.of(users), List.of(bytes("a"), bytes("b"))));
        assertTrue(sizes.getMessage().contains("1 families for 2 keys"), sizes.getMessage());
        try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true))) {
            assertThrows(IllegalArgumentException.class,
                    () -> db.multiGet(ReadOptions.DEFAULT, List.of(users, other), List.of(bytes("a"), bytes("b"))));
        }
        db.dropColumnFamily(users);
        assertThrows(IllegalStateException.class,
                () -> db.multiGet(ReadOptions.DEFAULT, List.of(db, users), List.of(bytes("a"), bytes("b"))));
        // The refused read holds nothing: the default family still reads and the database closes.
        db.put(bytes("a"), bytes("v"));
        assertEquals(List.of("v"), texts(db.multiGet(ReadOptions.DEFAULT, List.of(db), List.of(bytes("a")))));
        db.close();
        assertThrows(IllegalStateException.class,
                () -> db.multiGet(ReadOptions.DEFAULT, List.of(db), List.of(bytes("a"))));
    }
}
