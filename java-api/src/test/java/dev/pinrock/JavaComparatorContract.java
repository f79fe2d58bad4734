package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.internal.Binding;

/**
 * Part of the contract, run once per binding (reads and cursors go through
 * either); see {@link BindingContract}. A comparator written in Java: keys
 * that are 8-byte big-endian unsigned integers, the greatest first, in
 * writes, reads, cursors, bounds, ranges, batches with index, transactions,
 * table files, ingest and reopens; its name recorded; and a comparison that
 * throws, after which the database refuses every call and loses nothing.
 */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class JavaComparatorContract extends BindingContract {
    private static final ValueLayout.OfLong BIG_ENDIAN = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** 8-byte big-endian unsigned integers, the greatest first; any other key throws. */
    static class DescendingLongs extends KeyComparator {
        DescendingLongs() {
            super("test.DescendingLongs");
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            if (a.byteSize() != 8 || b.byteSize() != 8) {
                throw new IllegalArgumentException("not an 8-byte key");
            }
            return Long.compareUnsigned(b.get(BIG_ENDIAN, 0), a.get(BIG_ENDIAN, 0));
        }
    }

    /** The same order, by the same name, with any other key after the integers, bytewise. */
    static final class DescendingLongsThenOthers extends DescendingLongs {
        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            boolean aLong = a.byteSize() == 8;
            boolean bLong = b.byteSize() == 8;
            if (aLong && bLong) {
                return super.compare(a, b);
            }
            return aLong != bLong ? (aLong ? -1 : 1) : KeyComparator.BYTEWISE.compare(a, b);
        }
    }

    @TempDir
    Path dir;

    private RocksDb db;

    JavaComparatorContract(Binding binding) {
        super(binding);
    }

    @AfterEach
    void closeDatabase() {
        if (db != null) {
            db.close();
        }
    }

    private static byte[] key(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    private static long number(byte[] key) {
        return ByteBuffer.wrap(key).getLong();
    }

    private static DbOptions descending(KeyComparator comparator) {
        return DbOptions.create().createIfMissing(true).comparator(comparator);
    }

    private RocksDb openDescending() {
        db = open(dir.resolve("db"), descending(new DescendingLongs()));
        return db;
    }

    private static List<Long> walk(Cursor cursor, boolean backwards) {
        List<Long> keys = new ArrayList<>();
        try (cursor) {
            for (boolean on = backwards ? cursor.last() : cursor.first(); on; on = backwards ? cursor.prev()
                    : cursor.next()) {
                keys.add(number(cursor.keyBytes()));
            }
        }
        return keys;
    }

    private static void putAll(Keyspace keys, long... numbers) {
        for (long number : numbers) {
            keys.put(key(number), key(number));
        }
    }

    @Test
    void writesReadsAndCursorsAreInTheComparatorsOrderInMemtablesAndTableFiles() {
        openDescending();
        putAll(db, 2, 300, 10, -1);
        assertEquals(List.of(-1L, 300L, 10L, 2L), walk(db.cursor(), false), "-1 is the greatest unsigned");
        db.flush();
        putAll(db, 7, 0);
        assertEquals(List.of(0L, 2L, 7L, 10L, 300L, -1L), walk(db.cursor(), true));
        db.compactRange(null, null);
        assertEquals(List.of(-1L, 300L, 10L, 7L, 2L, 0L), walk(db.cursor(), false));
        assertArrayEquals(key(10), db.get(key(10)));
        assertNull(db.get(key(11)));
        try (Cursor cursor = db.cursor()) {
            assertTrue(cursor.seek(key(9)), "the first key at or after 9 in descending order");
            assertEquals(7L, number(cursor.keyBytes()));
            assertTrue(cursor.seekForPrev(key(9)));
            assertEquals(10L, number(cursor.keyBytes()));
        }
        // Bounds in the comparator's order: from 300 (inclusive) to 2 (exclusive).
        ReadOptions range = ReadOptions.DEFAULT.lowerBound(key(300)).upperBound(key(2));
        assertEquals(List.of(300L, 10L, 7L), walk(db.cursor(range), false));
        db.deleteRange(key(10), key(2));
        assertEquals(List.of(-1L, 300L, 2L, 0L), walk(db.cursor(), false));
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.deleteRange(key(2), key(10)),
                "a range whose end comes before its begin in the comparator's order");
    }

    @Test
    void batchesWithIndexAndTransactionsReadInTheComparatorsOrder() {
        openDescending();
        putAll(db, 1, 3);
        try (WriteBatchWithIndex batch = new WriteBatchWithIndex(db)) {
            batch.put(key(2), key(2));
            batch.put(key(4), key(4));
            assertEquals(List.of(4L, 3L, 2L, 1L), walk(batch.cursor(), false));
            db.write(batch);
        }
        db.close();
        db = RocksDb.openTransactional(dir.resolve("db"), descending(new DescendingLongs()),
                TransactionDbOptions.optimistic());
        try (Transaction transaction = db.beginTransaction()) {
            transaction.put(key(5), key(5));
            assertEquals(List.of(5L, 4L, 3L, 2L, 1L), walk(transaction.cursor(), false));
            transaction.commit();
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), walk(db.cursor(), true));
    }

    @Test
    void aDatabaseOpensOnlyWithAComparatorOfItsNameAndItsOptionsCannotMakeIt() {
        openDescending();
        putAll(db, 1, 2);
        db.close();
        db = null;
        Path path = dir.resolve("db");
        var refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> open(path, descending(KeyComparator.BYTEWISE)));
        assertTrue(refused.getMessage().contains("test.DescendingLongs")
                && refused.getMessage().contains("leveldb.BytewiseComparator"), refused.getMessage());
        KeyComparator renamed = new KeyComparator("test.Renamed") {
            @Override
            public int compare(MemorySegment a, MemorySegment b) {
                return new DescendingLongs().compare(a, b);
            }
        };
        refused = assertThrows(RocksDbException.InvalidArgumentException.class, () -> open(path, descending(renamed)));
        assertTrue(refused.getMessage().contains("test.Renamed"), refused.getMessage());
        refused = assertThrows(RocksDbException.InvalidArgumentException.class, () -> DbOptions.loadLatest(path));
        assertTrue(refused.getMessage().contains("test.DescendingLongs"), refused.getMessage());
        db = open(path, descending(new DescendingLongs()));
        assertEquals(List.of(2L, 1L), walk(db.cursor(), false), "nothing lost to the refused opens");
    }

    @Test
    void namesRocksDbOwnsOrOptionsCannotHoldAreRefused() {
        for (String name : List.of("leveldb.BytewiseComparator", "rocksdb.ReverseBytewiseComparator", "", "a=b",
                "a;b")) {
            KeyComparator misnamed = new KeyComparator(name) {
                @Override
                public int compare(MemorySegment a, MemorySegment b) {
                    return 0;
                }
            };
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> open(dir.resolve("db"), descending(misnamed)), name);
        }
        assertThrows(NullPointerException.class, () -> new KeyComparator(null) {
            @Override
            public int compare(MemorySegment a, MemorySegment b) {
                return 0;
            }
        });
    }

    @Test
    void aFamilyKeepsItsJavaOrderBesideABytewiseOne() {
        Path path = dir.resolve("db");
        DbOptions options = DbOptions.create().createIfMissing(true)
                .columnFamily("down", DbOptions.create().comparator(new DescendingLongs()));
        db = open(path, options);
        ColumnFamily down = db.createColumnFamily("down", DbOptions.create().comparator(new DescendingLongs()));
        putAll(down, 1, 2, 3);
        putAll(db, 1, 2, 3);
        assertEquals(List.of(3L, 2L, 1L), walk(down.cursor(), false));
        assertEquals(List.of(1L, 2L, 3L), walk(db.cursor(), false));
        db.close();
        db = open(path, options);
        assertEquals(List.of(3L, 2L, 1L), walk(db.columnFamily("down").cursor(), false));
    }

    @Test
    void tableFilesAreWrittenInTheOrderAndIngestedOnlyInIt() {
        openDescending();
        Path file = dir.resolve("descending.sst");
        try (SstFileWriter writer = SstFileWriter.open(file, DbOptions.create().comparator(new DescendingLongs()))) {
            writer.put(key(30), key(30));
            writer.put(key(4), key(4));
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> writer.put(key(5), key(5)),
                    "5 comes before 4");
            writer.finish();
        }
        Path bytewise = dir.resolve("bytewise.sst");
        try (SstFileWriter writer = SstFileWriter.open(bytewise, DbOptions.create())) {
            writer.put(key(1), key(1));
            writer.finish();
        }
        putAll(db, 9);
        db.ingest(List.of(file), false);
        assertEquals(List.of(30L, 9L, 4L), walk(db.cursor(), false));
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.ingest(List.of(bytewise), false));
        assertNull(db.get(key(1)));
    }

    @Test
    void aTableFileWriterWhoseComparisonThrewFinishesNothing() {
        Path file = dir.resolve("mixed.sst");
        try (SstFileWriter writer = SstFileWriter.open(file, DbOptions.create().comparator(new DescendingLongs()))) {
            writer.put(key(3), key(3));
            writer.put(new byte[] {1}, key(1));
            var refused = assertThrows(RocksDbException.class, writer::finish);
            assertTrue(refused.getMessage().contains("test.DescendingLongs failed a comparison"), refused.getMessage());
        }
    }

    @Test
    void aComparisonThatThrowsMakesTheDatabaseRefuseEveryCallAndLosesNoWrite() {
        openDescending();
        putAll(db, 1, 2);
        db.flush();
        putAll(db, 3);
        db.put(new byte[] {'x'}, key(0)); // logged; its comparisons in the memtable throw
        var refused = assertThrows(IllegalStateException.class, () -> db.get(key(1)));
        assertTrue(refused.getMessage().contains("test.DescendingLongs"), refused.getMessage());
        assertInstanceOf(IllegalArgumentException.class, refused.getCause());
        assertThrows(IllegalStateException.class, () -> putAll(db, 4));
        assertThrows(IllegalStateException.class, db::cursor);
        assertThrows(IllegalStateException.class, db::flush);
        closeAfterFailure();
        db = open(dir.resolve("db"), descending(new DescendingLongsThenOthers()));
        List<byte[]> keys = new ArrayList<>();
        try (Cursor cursor = db.cursor()) {
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                keys.add(cursor.keyBytes());
            }
        }
        assertEquals(4, keys.size(), "every acknowledged write is there");
        assertEquals(List.of(3L, 2L, 1L), keys.subList(0, 3).stream().map(JavaComparatorContract::number).toList());
        assertArrayEquals(new byte[] {'x'}, keys.get(3));
    }

    @Test
    void cursorsAndTransactionsOpenAtTheFailureRefuseTheirCallsToo() {
        db = RocksDb.openTransactional(dir.resolve("db"), descending(new DescendingLongs()),
                TransactionDbOptions.pessimistic());
        putAll(db, 1, 2);
        Cursor cursor = db.cursor();
        assertTrue(cursor.first());
        Transaction transaction = db.beginTransaction();
        transaction.put(key(3), key(3));
        db.put(new byte[] {'x'}, key(0));
        assertThrows(IllegalStateException.class, cursor::next);
        var refused = assertThrows(IllegalStateException.class, transaction::commit);
        assertInstanceOf(IllegalArgumentException.class, refused.getCause());
        cursor.close();
        transaction.close();
        closeAfterFailure();
        db = RocksDb.openTransactional(dir.resolve("db"), descending(new DescendingLongsThenOthers()),
                TransactionDbOptions.pessimistic());
        assertNull(db.get(key(3)), "the refused commit wrote nothing");
        assertArrayEquals(key(0), db.get(new byte[] {'x'}));
    }

    @Test
    void aComparatorThatCallsTheDatabaseIsRefusedAndEveryThrowableIsCaught() {
        AtomicReference<RocksDb> opened = new AtomicReference<>();
        KeyComparator reentrant = new DescendingLongs() {
            @Override
            public int compare(MemorySegment a, MemorySegment b) {
                if (a.byteSize() == 1 || b.byteSize() == 1) {
                    opened.get().get(key(1));
                }
                return super.compare(a, b);
            }
        };
        db = open(dir.resolve("db"), descending(reentrant));
        opened.set(db);
        putAll(db, 1);
        db.put(new byte[] {1}, key(0));
        var refused = assertThrows(IllegalStateException.class, () -> db.get(key(1)));
        assertTrue(refused.getCause().getMessage().contains("refuses calls from inside"),
                refused.getCause().getMessage());
        closeAfterFailure();

        KeyComparator overflowing = new DescendingLongs() {
            @Override
            public int compare(MemorySegment a, MemorySegment b) {
                return a.byteSize() == 8 && b.byteSize() == 8 ? super.compare(a, b) : compare(a, b);
            }
        };
        db = open(dir.resolve("other"), descending(overflowing));
        putAll(db, 1);
        db.put(new byte[] {1}, key(0));
        refused = assertThrows(IllegalStateException.class, () -> db.get(key(1)));
        assertInstanceOf(StackOverflowError.class, refused.getCause());
        closeAfterFailure();
    }

    /** Closes the database whose comparison failed: close reports the stopped flushes, and closes all the same. */
    private void closeAfterFailure() {
        RocksDb failed = db;
        db = null;
        try {
            failed.close();
        } catch (RocksDbException stopped) {
            assertTrue(stopped.getMessage().contains("failed a comparison"), stopped.getMessage());
        }
        assertFalse(failed.isOpen());
    }

    @Test
    void theViewsAreReadOnlyAndAViewKeptPastItsComparisonShowsLaterKeysNotFreedMemory() {
        AtomicReference<MemorySegment> kept = new AtomicReference<>();
        KeyComparator keeping = new DescendingLongs() {
            @Override
            public int compare(MemorySegment a, MemorySegment b) {
                kept.set(a);
                return super.compare(a, b);
            }
        };
        db = open(dir.resolve("db"), descending(keeping));
        putAll(db, 1, 2);
        assertTrue(kept.get().isReadOnly());
        MemorySegment view = kept.get();
        assertEquals(8, view.byteSize());
        putAll(db, 77);
        assertTrue(List.of(1L, 2L, 77L).contains(view.get(BIG_ENDIAN, 0)), "a key of the database, never garbage");
        assertArrayEquals(key(2), db.get(key(2)));
    }
}
