package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.internal.Binding;

/**
 * Options on every call: each write ({@code put}, {@code delete},
 * {@code singleDelete}, {@code merge}, {@code deleteRange}) with
 * {@link WriteOptions}, each single-key read form with {@link ReadOptions},
 * on the default family and on another one. Part of the contract, run once
 * per binding; see {@link BindingContract}.
 */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class CallOptionsContract extends OpenDatabaseContract {
    private static final WriteOptions WITHOUT_LOG = WriteOptions.DEFAULT.disableWal(true);
    private static final WriteOptions SYNCED = WriteOptions.DEFAULT.sync(true);
    private static final WriteOptions SYNCED_WITHOUT_LOG = WriteOptions.DEFAULT.sync(true).disableWal(true);

    CallOptionsContract(Binding binding) {
        super(binding);
    }

    private static byte[] uint64(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    private static MemorySegment segment(Arena arena, String s) {
        return arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes(s));
    }

    /** The bytes of the database's write-ahead log files, as the file system sees them. */
    private long logBytes() {
        try (Stream<Path> files = Files.list(dir.resolve("db"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every form of a write with the given options, each writing a 64 KiB value under its own key. */
    private static List<Consumer<Keyspace>> everyPutForm(WriteOptions options, byte[] value, Arena arena) {
        List<Consumer<Keyspace>> forms = new ArrayList<>();
        forms.add(k -> k.put(options, bytes("array"), value));
        forms.add(k -> k.put(options, ByteBuffer.wrap(bytes("heap-buffer")), ByteBuffer.wrap(value)));
        forms.add(k -> k.put(options, ByteBuffer.allocateDirect(13).put(bytes("direct-buffer")).flip(),
                ByteBuffer.allocateDirect(value.length).put(value).flip()));
        forms.add(k -> k.put(options, segment(arena, "native-segment"),
                arena.allocateFrom(ValueLayout.JAVA_BYTE, value)));
        forms.add(k -> k.put(options, MemorySegment.ofArray(bytes("heap-segment")), MemorySegment.ofArray(value)));
        return forms;
    }

    @Test
    void writesWithoutTheLogLeaveItAsItWasAndOthersGrowIt() {
        byte[] value = new byte[64 * 1024];
        try (Arena arena = Arena.ofConfined()) {
            ColumnFamily family = db.createColumnFamily("other");
            for (Keyspace keyspace : List.of(db, family)) {
                for (Consumer<Keyspace> put : everyPutForm(WITHOUT_LOG, value, arena)) {
                    long before = logBytes();
                    put.accept(keyspace);
                    assertEquals(before, logBytes(), "a write without the log wrote to it");
                }
                for (Consumer<Keyspace> put : everyPutForm(WriteOptions.DEFAULT, value, arena)) {
                    long before = logBytes();
                    put.accept(keyspace);
                    assertTrue(logBytes() >= before + value.length, "a logged write did not reach the log");
                }
                for (String key : List.of("array", "heap-buffer", "direct-buffer", "native-segment", "heap-segment")) {
                    assertArrayEquals(value, keyspace.get(bytes(key)), key);
                }
                keyspace.put(bytes("once"), value);
                long before = logBytes();
                keyspace.delete(WITHOUT_LOG, bytes("array"));
                keyspace.delete(WITHOUT_LOG, ByteBuffer.wrap(bytes("heap-buffer")));
                keyspace.delete(WITHOUT_LOG, ByteBuffer.allocateDirect(13).put(bytes("direct-buffer")).flip());
                keyspace.delete(WITHOUT_LOG, segment(arena, "native-segment"));
                keyspace.deleteRange(WITHOUT_LOG, segment(arena, "heap"), segment(arena, "heaq"));
                keyspace.singleDelete(WITHOUT_LOG, segment(arena, "once"));
                assertEquals(before, logBytes());
                for (String key : List.of("array", "heap-buffer", "direct-buffer", "native-segment", "heap-segment",
                        "once")) {
                    assertNull(keyspace.get(bytes(key)), key);
                }
            }
        }
    }

    @Test
    void syncedWritesSyncTheLogOnEveryForm() {
        db.close();
        db = open(dir.resolve("db"), DbOptions.create().statistics(StatsLevel.EXCEPT_DETAILED_TIMERS)
                .mergeOperator("uint64add"));
        byte[] value = bytes("v");
        List<Executable> writes;
        try (Arena arena = Arena.ofConfined()) {
            writes = new ArrayList<>();
            for (Consumer<Keyspace> put : everyPutForm(SYNCED, value, arena)) {
                writes.add(() -> put.accept(db));
            }
            writes.add(() -> db.delete(SYNCED, bytes("array")));
            writes.add(() -> db.delete(SYNCED, ByteBuffer.wrap(bytes("heap-buffer"))));
            writes.add(() -> db.delete(SYNCED, segment(arena, "native-segment")));
            writes.add(() -> db.singleDelete(SYNCED, bytes("heap-segment")));
            writes.add(() -> db.singleDelete(SYNCED, segment(arena, "direct-buffer")));
            writes.add(() -> db.merge(SYNCED, bytes("counter"), uint64(2)));
            writes.add(() -> db.merge(SYNCED, segment(arena, "counter"), MemorySegment.ofArray(uint64(3))));
            writes.add(() -> db.deleteRange(SYNCED, bytes("a"), bytes("b")));
            writes.add(() -> db.deleteRange(SYNCED, segment(arena, "a"), segment(arena, "b")));
            for (Executable write : writes) {
                long synced = db.statistics().ticker("rocksdb.wal.synced");
                assertDoesNotThrow(write);
                assertEquals(synced + 1, db.statistics().ticker("rocksdb.wal.synced"));
            }
        }
        assertArrayEquals(uint64(5), db.get(bytes("counter")));
    }

    private static void assertDoesNotThrow(Executable executable) {
        org.junit.jupiter.api.Assertions.assertDoesNotThrow(executable);
    }

    @Test
    void syncWithoutTheLogIsRefusedOnEveryWriteAndWritesNothing() {
        db.put(bytes("k"), bytes("kept"));
        try (Arena arena = Arena.ofConfined()) {
            List<Executable> refused = new ArrayList<>();
            for (Consumer<Keyspace> put : everyPutForm(SYNCED_WITHOUT_LOG, bytes("v"), arena)) {
                refused.add(() -> put.accept(db));
            }
            refused.add(() -> db.delete(SYNCED_WITHOUT_LOG, bytes("k")));
            refused.add(() -> db.delete(SYNCED_WITHOUT_LOG, ByteBuffer.wrap(bytes("k"))));
            refused.add(() -> db.delete(SYNCED_WITHOUT_LOG, segment(arena, "k")));
            refused.add(() -> db.singleDelete(SYNCED_WITHOUT_LOG, bytes("k")));
            refused.add(() -> db.deleteRange(SYNCED_WITHOUT_LOG, bytes("a"), bytes("z")));
            for (Executable write : refused) {
                var e = assertThrows(RocksDbException.InvalidArgumentException.class, write);
                assertEquals(StatusCode.INVALID_ARGUMENT, e.code());
            }
        }
        assertArrayEquals(bytes("kept"), db.get(bytes("k")));
        try (Cursor cursor = db.cursor()) {
            assertTrue(cursor.first());
            assertArrayEquals(bytes("k"), cursor.keyBytes());
            assertFalse(cursor.next(), "a refused write left a key");
        }
    }

    @Test
    void mergeSingleDeleteAndDeleteRangeWriteTheirFamilyOnly() {
        ColumnFamily counters = db.createColumnFamily("counters", DbOptions.create().mergeOperator("uint64add"));
        for (Keyspace keyspace : List.of(db, counters)) {
            for (String key : List.of("a", "b", "c", "d", "once")) {
                keyspace.put(bytes(key), bytes(keyspace.name()));
            }
        }
        counters.merge(bytes("n"), uint64(40));
        try (Arena arena = Arena.ofConfined()) {
            counters.merge(segment(arena, "n"), arena.allocateFrom(ValueLayout.JAVA_BYTE, uint64(2)));
            counters.deleteRange(bytes("b"), bytes("d"));
            db.deleteRange(segment(arena, "a"), segment(arena, "b"));
            db.singleDelete(segment(arena, "once"));
        }
        counters.singleDelete(bytes("once"));
        assertArrayEquals(uint64(42), counters.get(bytes("n")));
        assertNull(db.get(bytes("n")));
        assertEquals(List.of("b", "c", "d"), keys(db));
        assertEquals(List.of("a", "d", "n"), keys(counters));
        // An empty range is accepted and deletes nothing.
        db.deleteRange(bytes("c"), bytes("c"));
        assertEquals(List.of("b", "c", "d"), keys(db));
    }

    private static List<String> keys(Keyspace keyspace) {
        List<String> keys = new ArrayList<>();
        try (Cursor cursor = keyspace.cursor()) {
            for (boolean valid = cursor.first(); valid; valid = cursor.next()) {
                keys.add(new String(cursor.keyBytes()));
            }
        }
        return keys;
    }

    @Test
    void aMergeOrRangeRocksDbRefusesWritesNothing() {
        db.put(bytes("k"), bytes("kept"));
        var noOperator = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> db.merge(bytes("k"), uint64(1)));
        assertTrue(noOperator.getMessage().contains("no merge operator"), noOperator.getMessage());
        var backwards = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> db.deleteRange(bytes("z"), bytes("a")));
        assertTrue(backwards.getMessage().contains("end"), backwards.getMessage());
        ColumnFamily counters = db.createColumnFamily("counters", DbOptions.create().mergeOperator("uint64add"));
        var shortOperand = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> counters.merge(WITHOUT_LOG, bytes("n"), new byte[7]));
        assertTrue(shortOperand.getMessage().contains("8"), shortOperand.getMessage());
        assertArrayEquals(bytes("kept"), db.get(bytes("k")));
        assertNull(counters.get(bytes("n")));
    }

    @Test
    void keysBeyondTheLimitAreRefusedAsByTheDirectWrites() {
        byte[] longKey = new byte[8 * 1024 * 1024 + 1];
        List<Executable> refused = List.of(
                () -> db.put(longKey, bytes("v")),
                () -> db.put(WITHOUT_LOG, longKey, bytes("v")),
                () -> db.delete(SYNCED, longKey),
                () -> db.singleDelete(longKey),
                () -> db.deleteRange(bytes("a"), longKey));
        for (Executable write : refused) {
            var e = assertThrows(RocksDbException.InvalidArgumentException.class, write);
            assertTrue(e.getMessage().contains("limit"), e.getMessage());
        }
        try (Cursor cursor = db.cursor()) {
            assertFalse(cursor.first());
        }
    }

    @Test
    void writesThroughAClosedDatabaseOrDroppedFamilyOrClosedArenaThrowAndWriteNothing() {
        ColumnFamily dropped = db.createColumnFamily("dropped");
        db.dropColumnFamily(dropped);
        assertThrows(IllegalStateException.class, () -> dropped.put(WITHOUT_LOG, bytes("k"), bytes("v")));
        assertThrows(IllegalStateException.class, () -> dropped.merge(bytes("k"), bytes("v")));
        assertThrows(IllegalStateException.class, () -> dropped.deleteRange(bytes("a"), bytes("b")));
        Arena arena = Arena.ofConfined();
        MemorySegment key = segment(arena, "k");
        arena.close();
        assertThrows(IllegalStateException.class, () -> db.put(SYNCED, key, MemorySegment.ofArray(bytes("v"))));
        assertThrows(IllegalStateException.class, () -> db.singleDelete(key));
        assertThrows(NullPointerException.class, () -> db.put((WriteOptions) null, bytes("k"), bytes("v")));
        assertThrows(NullPointerException.class, () -> db.merge(WITHOUT_LOG, bytes("k"), (byte[]) null));
        try (Cursor cursor = db.cursor()) {
            assertFalse(cursor.first());
        }
        db.close();
        assertThrows(IllegalStateException.class, () -> db.put(WITHOUT_LOG, bytes("k"), bytes("v")));
        assertThrows(IllegalStateException.class, () -> db.singleDelete(bytes("k")));
        assertThrows(IllegalStateException.class, () -> db.deleteRange(SYNCED, bytes("a"), bytes("b")));
    }

    /** Each single-key read form with options, answering the value it found or null. */
    private interface OptionRead {
        byte[] read(Keyspace keyspace, ReadOptions options, byte[] key);
    }

    private static List<OptionRead> everyReadForm() {
        List<OptionRead> forms = new ArrayList<>();
        forms.add((k, o, key) -> k.get(o, key));
        forms.add((k, o, key) -> {
            byte[] dst = new byte[64];
            int length = k.get(o, key, dst);
            return length == RocksDb.NOT_FOUND ? null : java.util.Arrays.copyOf(dst, length);
        });
        forms.add((k, o, key) -> {
            ByteBuffer dst = ByteBuffer.allocateDirect(64);
            int length = k.get(o, ByteBuffer.wrap(key), dst);
            if (length == RocksDb.NOT_FOUND) {
                return null;
            }
            byte[] value = new byte[length];
            dst.get(value);
            return value;
        });
        forms.add((k, o, key) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment dst = arena.allocate(64);
                long length = k.get(o, arena.allocateFrom(ValueLayout.JAVA_BYTE, key), dst);
                return length == RocksDb.NOT_FOUND ? null : dst.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
            }
        });
        forms.add((k, o, key) -> {
            MemorySegment dst = MemorySegment.ofArray(new byte[64]);
            long length = k.get(o, MemorySegment.ofArray(key), dst);
            return length == RocksDb.NOT_FOUND ? null : dst.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
        });
        forms.add((k, o, key) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment value = k.getPinned(o, arena, key);
                return value == null ? null : value.toArray(ValueLayout.JAVA_BYTE);
            }
        });
        forms.add((k, o, key) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment value = k.getPinned(o, arena, arena.allocateFrom(ValueLayout.JAVA_BYTE, key));
                return value == null ? null : value.toArray(ValueLayout.JAVA_BYTE);
            }
        });
        forms.add((k, o, key) -> {
            byte[][] found = new byte[1][];
            k.getPinned(o, key, value -> found[0] = value.toArray(ValueLayout.JAVA_BYTE));
            return found[0];
        });
        forms.add((k, o, key) -> {
            byte[][] found = new byte[1][];
            k.getPinned(o, MemorySegment.ofArray(key), value -> found[0] = value.toArray(ValueLayout.JAVA_BYTE));
            return found[0];
        });
        return forms;
    }

    @Test
    void everyReadFormReadsAsOfItsSnapshot() {
        ColumnFamily family = db.createColumnFamily("other");
        for (Keyspace keyspace : List.of(db, family)) {
            keyspace.put(bytes("k"), bytes("old"));
            keyspace.put(bytes("deleted"), bytes("here"));
        }
        try (Snapshot snapshot = db.snapshot()) {
            for (Keyspace keyspace : List.of(db, family)) {
                keyspace.put(bytes("k"), bytes("new"));
                keyspace.delete(bytes("deleted"));
                keyspace.put(bytes("later"), bytes("x"));
            }
            db.flush();
            ReadOptions then = ReadOptions.DEFAULT.snapshot(snapshot);
            int form = 0;
            for (OptionRead read : everyReadForm()) {
                String name = "read form " + form++;
                for (Keyspace keyspace : List.of(db, family)) {
                    assertArrayEquals(bytes("old"), read.read(keyspace, then, bytes("k")), name);
                    assertArrayEquals(bytes("here"), read.read(keyspace, then, bytes("deleted")), name);
                    assertNull(read.read(keyspace, then, bytes("later")), name);
                    assertArrayEquals(bytes("new"), read.read(keyspace, ReadOptions.DEFAULT, bytes("k")), name);
                    assertNull(read.read(keyspace, ReadOptions.DEFAULT, bytes("deleted")), name);
                }
            }
        }
    }

    @Test
    void everyReadFormRefusesAClosedOrForeignSnapshot() {
        Snapshot closed = db.snapshot();
        closed.close();
        try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true));
                Snapshot foreign = other.snapshot()) {
            for (OptionRead read : everyReadForm()) {
                assertThrows(IllegalStateException.class,
                        () -> read.read(db, ReadOptions.DEFAULT.snapshot(closed), bytes("k")));
                assertThrows(IllegalArgumentException.class,
                        () -> read.read(db, ReadOptions.DEFAULT.snapshot(foreign), bytes("k")));
            }
        }
        // The refused reads held nothing: the database still closes and reopens.
        db.close();
        db = open(dir.resolve("db"), DbOptions.create());
        assertNotNull(db);
    }

    @Test
    void everyReadFormReadsFromMemoryOnlyWhenAsked() {
        db.put(bytes("k"), bytes("v"));
        db.flush();
        db.close();
        db = open(dir.resolve("db"), DbOptions.create());
        ReadOptions memoryOnly = ReadOptions.DEFAULT.memoryOnly(true);
        for (OptionRead read : everyReadForm()) {
            var e = assertThrows(RocksDbException.class, () -> read.read(db, memoryOnly, bytes("k")));
            assertEquals(StatusCode.INCOMPLETE, e.code());
        }
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
        for (OptionRead read : everyReadForm()) {
            assertArrayEquals(bytes("v"), read.read(db, memoryOnly, bytes("k")));
        }
    }
}
