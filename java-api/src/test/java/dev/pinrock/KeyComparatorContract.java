package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.internal.Binding;

/**
 * Part of the contract, run once per binding (cursors open through either);
 * see {@link BindingContract}. A database whose default family orders its
 * keys in reverse ({@link KeyComparator#REVERSE_BYTEWISE}) beside a family in
 * bytewise order: every read, bound and range in the family's own order.
 */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class KeyComparatorContract extends BindingContract {
    @TempDir
    Path dir;

    private RocksDb db;

    KeyComparatorContract(Binding binding) {
        super(binding);
    }

    @AfterEach
    void closeDatabase() {
        if (db != null) {
            db.close();
        }
    }

    private static DbOptions reversed() {
        return DbOptions.create().createIfMissing(true).comparator(KeyComparator.REVERSE_BYTEWISE)
                .columnFamily("up", DbOptions.create());
    }

    /** Opens the database of {@link #reversed()}, creating its bytewise family "up". */
    private RocksDb openReversed() {
        db = open(dir.resolve("db"), reversed());
        db.createColumnFamily("up", DbOptions.create());
        return db;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static List<String> walk(Cursor cursor) {
        List<String> keys = new ArrayList<>();
        try (cursor) {
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                keys.add(text(cursor.keyBytes()));
            }
        }
        return keys;
    }

    private static void putAll(Keyspace keys, String... names) {
        for (String name : names) {
            keys.put(bytes(name), bytes("v" + name));
        }
    }

    @Test
    void theComparatorsOrderKeysAsRocksDbDoes() {
        Random random = new Random(7);
        for (int i = 0; i < 1000; i++) {
            byte[] a = new byte[random.nextInt(4)];
            byte[] b = new byte[random.nextInt(4)];
            random.nextBytes(a);
            random.nextBytes(b);
            int bytewise = Arrays.compareUnsigned(a, b);
            assertEquals(Integer.signum(bytewise), Integer.signum(KeyComparator.BYTEWISE.compare(a, b)));
            assertEquals(-Integer.signum(bytewise), Integer.signum(KeyComparator.REVERSE_BYTEWISE.compare(a, b)));
        }
        assertTrue(KeyComparator.BYTEWISE.compare(bytes("a"), bytes("ab")) < 0, "a key before those it begins");
        assertEquals("leveldb.BytewiseComparator", KeyComparator.BYTEWISE.name());
        assertEquals("rocksdb.ReverseBytewiseComparator", KeyComparator.REVERSE_BYTEWISE.name());
        assertSame(KeyComparator.BYTEWISE, DbOptions.create().comparator());
        assertThrows(NullPointerException.class, () -> DbOptions.create().comparator(null));
    }

    @Test
    void cursorsWalkEachFamilyInItsOrderAndSeekInIt() {
        openReversed();
        Keyspace up = db.columnFamily("up");
        putAll(db, "a", "ab", "b", "c", "");
        putAll(up, "a", "ab", "b", "c", "");
        assertEquals(List.of("c", "b", "ab", "a", ""), walk(db.cursor()));
        assertEquals(List.of("", "a", "ab", "b", "c"), walk(up.cursor()));
        db.flush();
        assertEquals(List.of("c", "b", "ab", "a", ""), walk(db.cursor()), "from the table files too");
        try (Cursor cursor = db.cursor()) {
            assertTrue(cursor.seek(bytes("bb")), "the first key at or after bb in reverse order");
            assertEquals("b", text(cursor.keyBytes()));
            assertTrue(cursor.seekForPrev(bytes("aa")));
            assertEquals("ab", text(cursor.keyBytes()));
            assertTrue(cursor.last());
            assertEquals("", text(cursor.keyBytes()));
        }
        // Bounds in the family's order: from c (inclusive) to a (exclusive).
        ReadOptions range = ReadOptions.DEFAULT.lowerBound(bytes("c")).upperBound(bytes("a"));
        assertEquals(List.of("c", "b", "ab"), walk(db.cursor(range)));
        assertEquals(List.of(), walk(up.cursor(range)), "an empty range in bytewise order");
        assertEquals("vab", text(db.get(bytes("ab"))));
        assertArrayEquals(bytes("v"), db.get(bytes("")));
    }

    @Test
    void aPrefixIsBytewiseAndRefusedOverAFamilyInAnotherOrder() {
        openReversed();
        Keyspace up = db.columnFamily("up");
        putAll(db, "a", "ab", "b");
        putAll(up, "a", "ab", "b");
        ReadOptions prefix = ReadOptions.DEFAULT.prefix(bytes("a"));
        assertEquals(List.of("a", "ab"), walk(up.cursor(prefix)));
        var refused = assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.cursor(prefix));
        assertTrue(refused.getMessage().contains("rocksdb.ReverseBytewiseComparator"), refused.getMessage());
        assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> db.cursor(ReadOptions.DEFAULT.prefix(new byte[] {(byte) 0xff})), "a prefix with no end");
        // Bounds set after the prefix are the caller's, in the family's order; an empty prefix bounds nothing.
        assertEquals(List.of("b", "ab"), walk(db.cursor(prefix.lowerBound(bytes("b")).upperBound(bytes("a")))));
        assertEquals(List.of("b", "ab", "a"), walk(db.cursor(ReadOptions.DEFAULT.prefix(new byte[0]))));
    }

    @Test
    void rangesAreInTheFamilysOrder() {
        openReversed();
        putAll(db, "a", "b", "c", "d");
        db.deleteRange(bytes("d"), bytes("b"));
        assertEquals(List.of("b", "a"), walk(db.cursor()));
        var refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> db.deleteRange(bytes("a"), bytes("b")));
        assertTrue(refused.getMessage().contains("before its begin"), refused.getMessage());
        try (WriteBatch batch = new WriteBatch()) {
            batch.deleteRange(bytes("a"), bytes("b"));
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.write(batch));
        }
        assertEquals(List.of("b", "a"), walk(db.cursor()), "nothing deleted by the refused ranges");
        db.compactRange(bytes("b"), bytes("a"));
        assertEquals(List.of("b", "a"), walk(db.cursor()));
    }

    @Test
    void aBatchWithIndexReadsInTheFamilysOrder() {
        openReversed();
        putAll(db, "a", "c");
        try (WriteBatchWithIndex batch = new WriteBatchWithIndex(db)) {
            batch.put(bytes("b"), bytes("batch"));
            batch.put(bytes("d"), bytes("batch"));
            batch.in(db.columnFamily("up")).put(bytes("z"), bytes("batch"));
            assertEquals(List.of("d", "c", "b", "a"), walk(batch.cursor()));
            assertEquals("batch", text(batch.get(bytes("b"))));
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> batch.cursor(ReadOptions.DEFAULT.prefix(bytes("b"))));
            db.write(batch);
        }
        assertEquals(List.of("d", "c", "b", "a"), walk(db.cursor()));
        assertEquals(List.of("z"), walk(db.columnFamily("up").cursor()));
    }

    @Test
    void aFamilyOpensOnlyInTheOrderItWasCreatedWith() {
        openReversed();
        putAll(db, "b", "a");
        db.columnFamily("up").put(bytes("k"), bytes("up"));
        db.close();
        db = null;
        Path path = dir.resolve("db");
        var refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> open(path, reversed().comparator(KeyComparator.BYTEWISE)));
        assertTrue(refused.getMessage().contains("rocksdb.ReverseBytewiseComparator")
                && refused.getMessage().contains("leveldb.BytewiseComparator"), refused.getMessage());
        refused = assertThrows(RocksDbException.InvalidArgumentException.class, () -> open(path,
                reversed().columnFamily("up", DbOptions.create().comparator(KeyComparator.REVERSE_BYTEWISE))));
        assertTrue(refused.getMessage().contains("'up'"), refused.getMessage());
        // The options RocksDB recorded give each family its order back.
        DbOptions latest = DbOptions.loadLatest(path);
        assertSame(KeyComparator.REVERSE_BYTEWISE, latest.comparator());
        assertSame(KeyComparator.BYTEWISE, latest.columnFamilyOptions().get("up").comparator());
        db = open(path, latest);
        assertEquals(List.of("b", "a"), walk(db.cursor()), "nothing lost to the refused opens");
        assertEquals("up", text(db.columnFamily("up").get(bytes("k"))));
    }

    @Test
    void aNameDroppedSinceTheOpenIsCreatedAgainOnlyInItsOrder() {
        Path path = dir.resolve("db");
        DbOptions down = DbOptions.create().comparator(KeyComparator.REVERSE_BYTEWISE);
        openReversed();
        db.dropColumnFamily(db.createColumnFamily("down", down));
        // RocksDB's next open would check "down" against the dropped family's creation, in reverse.
        var refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> db.createColumnFamily("down", DbOptions.create()));
        assertTrue(refused.getMessage().contains("Reopen"), refused.getMessage());
        db.createColumnFamily("down", down).put(bytes("k"), bytes("v"));
        db.close();
        db = open(path, reversed().columnFamily("down", down));
        assertEquals("v", text(db.columnFamily("down").get(bytes("k"))));
        db.dropColumnFamily(db.columnFamily("down"));
        db.close();
        // The open wrote a MANIFEST without the dropped family: the name is free for another order.
        db = open(path, reversed());
        db.createColumnFamily("down", DbOptions.create()).put(bytes("k"), bytes("bytewise"));
        db.close();
        db = open(path, DbOptions.loadLatest(path));
        assertEquals("bytewise", text(db.columnFamily("down").get(bytes("k"))));
        assertSame(KeyComparator.BYTEWISE, DbOptions.loadLatest(path).columnFamilyOptions().get("down").comparator());
    }

    @Test
    void aTableFileIsWrittenInItsOptionsOrderAndIngestedOnlyInThatOrder() {
        openReversed();
        Path reverse = dir.resolve("reverse.sst");
        try (SstFileWriter writer = SstFileWriter.open(reverse, DbOptions.create()
                .comparator(KeyComparator.REVERSE_BYTEWISE))) {
            writer.put(bytes("c"), bytes("file"));
            writer.put(bytes("b"), bytes("file"));
            var refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> writer.put(bytes("bb"), bytes("file")));
            assertTrue(refused.getMessage().contains("order"), refused.getMessage());
            writer.finish();
        }
        Path bytewise = dir.resolve("bytewise.sst");
        try (SstFileWriter writer = SstFileWriter.open(bytewise, DbOptions.create())) {
            writer.put(bytes("x"), bytes("file"));
            writer.put(bytes("y"), bytes("file"));
            writer.finish();
        }
        db.ingest(List.of(reverse), false);
        assertEquals(List.of("c", "b"), walk(db.cursor()));
        var refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> db.ingest(List.of(bytewise), false));
        assertTrue(refused.getMessage().contains("omparator"), refused.getMessage());
        assertNull(db.get(bytes("x")));
        db.columnFamily("up").ingest(List.of(bytewise), false);
        assertEquals(List.of("x", "y"), walk(db.columnFamily("up").cursor()));
        assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> db.columnFamily("up").ingest(List.of(reverse), false));
        assertFalse(walk(db.cursor()).contains("x"));
    }
}
