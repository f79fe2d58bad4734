package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import dev.pinrock.internal.Binding;

/** Part of the contract, run with FFM only; see {@link BindingContract}. */
class ColumnFamilyContract extends OpenDatabaseContract {
    ColumnFamilyContract() {
        super(Binding.FFM);
    }

    private static byte[] uint64(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    private void reopen(DbOptions options) {
        db.close();
        db = open(dir.resolve("db"), options);
    }

    @Test
    void familiesAreSeparateKeySpaces() {
        ColumnFamily users = db.createColumnFamily("users");
        assertEquals("users", users.name());
        assertSame(db, users.database());
        assertSame(users, db.columnFamily("users"));
        assertSame(db, db.columnFamily("default"));
        assertNull(db.columnFamily("nobody"));
        db.put(bytes("k"), bytes("default value"));
        users.put(bytes("k"), bytes("user value"));
        users.put(bytes("only"), bytes("in users"));
        assertArrayEquals(bytes("default value"), db.get(bytes("k")));
        assertArrayEquals(bytes("user value"), users.get(bytes("k")));
        assertNull(db.get(bytes("only")));
        assertEquals(List.of("default", "users"), db.columnFamilyNames());
        List<byte[]> values = users.multiGet(List.of(bytes("k"), bytes("nope")));
        assertArrayEquals(bytes("user value"), values.get(0));
        assertNull(values.get(1));
        try (Cursor cursor = users.cursor()) {
            assertEquals(List.of(new KeyValue(bytes("k"), bytes("user value")),
                    new KeyValue(bytes("only"), bytes("in users"))), cursor.stream().toList());
        }
        users.flush();
        assertEquals(2, users.propertyLong("rocksdb.estimate-num-keys").orElseThrow());
        users.delete(bytes("only"));
        assertNull(users.get(bytes("only")));
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.createColumnFamily("users"));
    }

    @Test
    void aBatchWritesSeveralFamiliesAtomically() {
        ColumnFamily a = db.createColumnFamily("a");
        ColumnFamily b = db.createColumnFamily("b");
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(a, bytes("k"), bytes("in a")).put(b, bytes("k"), bytes("in b")).put(bytes("k"), bytes("plain"))
                    .delete(a, bytes("gone")).deleteRange(b, bytes("x"), bytes("y"));
            db.write(batch);
        }
        assertArrayEquals(bytes("in a"), a.get(bytes("k")));
        assertArrayEquals(bytes("in b"), b.get(bytes("k")));
        assertArrayEquals(bytes("plain"), db.get(bytes("k")));
        // A merge into a family without a merge operator fails the whole batch.
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(a, bytes("new"), bytes("v")).merge(b, bytes("k"), bytes("x"));
            var e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.write(batch));
            assertTrue(e.getMessage().contains("'b'"), e.getMessage());
        }
        assertNull(a.get(bytes("new")));
    }

    @Test
    void aBatchCannotMixOrCrossDatabases() {
        ColumnFamily mine = db.createColumnFamily("mine");
        try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true));
                WriteBatch batch = new WriteBatch()) {
            ColumnFamily theirs = other.createColumnFamily("theirs");
            batch.put(mine, bytes("k"), bytes("v"));
            assertThrows(IllegalArgumentException.class, () -> batch.put(theirs, bytes("k"), bytes("v")));
            assertThrows(IllegalArgumentException.class, () -> other.write(batch));
            assertEquals(1, batch.count());
            batch.clear();
            batch.put(theirs, bytes("k"), bytes("v"));
            other.write(batch);
            assertArrayEquals(bytes("v"), theirs.get(bytes("k")));
        }
    }

    @Test
    void aRecordNamingADatabasesDefaultFamilyTiesTheBatchToThatDatabase() {
        try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true));
                WriteBatch batch = new WriteBatch()) {
            batch.put(bytes("neutral"), bytes("v")).put(other, bytes("k"), bytes("v"));
            var e = assertThrows(IllegalArgumentException.class, () -> db.write(batch));
            assertTrue(e.getMessage().contains("keyspaces of"), e.getMessage());
            assertNull(db.get(bytes("k")));
            assertNull(db.get(bytes("neutral")));
            assertThrows(IllegalArgumentException.class, () -> batch.delete(db, bytes("k")));
            assertThrows(IllegalArgumentException.class, () -> batch.put(db.createColumnFamily("mine"),
                    bytes("k"), bytes("v")));
            assertEquals(2, batch.count());
            other.write(batch);
            assertArrayEquals(bytes("v"), other.get(bytes("k")));
            assertArrayEquals(bytes("v"), other.get(bytes("neutral")));
            // Records without a keyspace go to whichever database the batch is written to.
            batch.clear();
            db.write(batch.put(bytes("neutral"), bytes("mine")));
            assertArrayEquals(bytes("mine"), db.get(bytes("neutral")));
        }
    }

    @Test
    void aKeyspaceOfAClosedDatabaseOrADroppedFamilyIsRefusedWhenAdded() {
        ColumnFamily dropped = db.createColumnFamily("dropped");
        db.dropColumnFamily(dropped);
        RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true));
        ColumnFamily ofClosed = other.createColumnFamily("theirs");
        other.close();
        try (WriteBatch batch = new WriteBatch()) {
            assertThrows(IllegalStateException.class, () -> batch.put(dropped, bytes("k"), bytes("v")));
            assertThrows(IllegalStateException.class, () -> batch.merge(other, bytes("k"), bytes("v")));
            assertThrows(IllegalStateException.class, () -> batch.deleteRange(ofClosed, bytes("a"), bytes("b")));
            assertEquals(0, batch.count());
            db.write(batch.put(db, bytes("k"), bytes("v")));  // the batch stays usable
            assertArrayEquals(bytes("v"), db.get(bytes("k")));
        }
    }

    @Test
    void namesThatNativeCodeWouldChangeAreRefused() {
        db.createColumnFamily("a");
        // A NUL would end the name in C; an unpaired surrogate would become '?' in UTF-8.
        for (String name : List.of("a\0b", "\uD800", "x\uDC00y", "end\uD83D")) {
            var e = assertThrows(IllegalArgumentException.class, () -> db.createColumnFamily(name));
            assertTrue(e.getMessage().startsWith("name "), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> db.columnFamily(name));
            assertThrows(IllegalArgumentException.class,
                    () -> DbOptions.create().columnFamily(name, DbOptions.create()));
            assertThrows(IllegalArgumentException.class, () -> DbOptions.create().mergeOperator(name));
        }
        assertEquals(2, db.columnFamilyNames().size());
        // A surrogate pair is a character like any other.
        ColumnFamily smiling = db.createColumnFamily("\uD83D\uDE00");
        assertSame(smiling, db.columnFamily("\uD83D\uDE00"));
        assertTrue(db.columnFamilyNames().contains("\uD83D\uDE00"));
    }

    @Test
    void familiesHaveTheirOwnOptionsAndReopenWithThem() {
        DbOptions counting = DbOptions.create().mergeOperator("uint64add");
        ColumnFamily counters = db.createColumnFamily("counters", counting);
        db.createColumnFamily("plain");
        try (WriteBatch batch = new WriteBatch()) {
            batch.merge(counters, bytes("n"), uint64(2)).merge(counters, bytes("n"), uint64(3));
            db.write(batch);
        }
        assertArrayEquals(uint64(5), counters.get(bytes("n")));
        db.close();
        assertEquals(List.of("default", "counters", "plain"), RocksDb.listColumnFamilies(dir.resolve("db")));

        db = open(dir.resolve("db"), DbOptions.create().columnFamily("counters", counting));
        Keyspace reopened = db.columnFamily("counters");
        assertArrayEquals(uint64(5), reopened.get(bytes("n")));
        try (WriteBatch batch = new WriteBatch()) {
            db.write(batch.merge(reopened, bytes("n"), uint64(1)));
        }
        assertArrayEquals(uint64(6), reopened.get(bytes("n")));
        // Families opened with the database's options have no merge operator.
        try (WriteBatch batch = new WriteBatch()) {
            batch.merge(db.columnFamily("plain"), bytes("n"), uint64(1));
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.write(batch));
        }
    }

    @Test
    void familyOptionsCannotCarryDatabaseWideSettings() {
        try (MemoryBudget budget = MemoryBudget.create(64 << 20, 0)) {
            DbOptions withBudget = DbOptions.create().memoryBudget(budget);
            assertThrows(IllegalArgumentException.class, () -> DbOptions.create().columnFamily("x", withBudget));
            assertThrows(IllegalArgumentException.class, () -> db.createColumnFamily("x", withBudget));
        }
        DbOptions nested = DbOptions.create().columnFamily("inner", DbOptions.create());
        assertThrows(IllegalArgumentException.class, () -> DbOptions.create().columnFamily("outer", nested));
        assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> db.createColumnFamily("bad", DbOptions.create().zstdLevel(99)));
    }

    @Test
    void aDroppedFamilyRefusesCallsAndIsGoneAfterReopen() {
        ColumnFamily temp = db.createColumnFamily("temp");
        temp.put(bytes("k"), bytes("v"));
        db.dropColumnFamily(temp);
        assertTrue(temp.isDropped());
        var e = assertThrows(IllegalStateException.class, () -> temp.get(bytes("k")));
        assertEquals("column family temp was dropped", e.getMessage());
        assertThrows(IllegalStateException.class, () -> db.dropColumnFamily(temp));
        assertThrows(IllegalStateException.class, temp::cursor);
        assertEquals(List.of("default"), db.columnFamilyNames());
        assertNull(db.columnFamily("temp"));
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.dropColumnFamily(db));
        ColumnFamily again = db.createColumnFamily("temp");
        assertNull(again.get(bytes("k")));
        assertSame(again, db.columnFamily("temp"));
        reopen(DbOptions.create());
        assertEquals(List.of("default", "temp"), db.columnFamilyNames());
    }

    @Test
    void ofTwoThreadsDroppingOneFamilyTheSecondGetsIllegalStateException() throws Exception {
        for (int round = 0; round < 20; round++) {
            ColumnFamily family = db.createColumnFamily("raced");
            CountDownLatch start = new CountDownLatch(1);
            Callable<Throwable> drop = () -> {
                start.await();
                try {
                    db.dropColumnFamily(family);
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            };
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Future<Throwable> first = threads.submit(drop);
                Future<Throwable> second = threads.submit(drop);
                start.countDown();
                Throwable a = first.get();
                Throwable b = second.get();
                Throwable loser = a == null ? b : a;
                assertTrue(a == null ^ b == null, "exactly one drop succeeds: " + a + ", " + b);
                assertInstanceOf(IllegalStateException.class, loser);
                assertEquals("column family raced was dropped", loser.getMessage());
            } finally {
                threads.shutdown();
            }
            assertTrue(family.isDropped());
        }
    }

    @Test
    void aCursorOnADroppedFamilyReadsOnUntilItIsClosed() {
        ColumnFamily family = db.createColumnFamily("scanned");
        family.put(bytes("k"), bytes("v"));
        try (Cursor cursor = family.cursor()) {
            db.dropColumnFamily(family);
            assertTrue(cursor.first());
            assertArrayEquals(bytes("k"), cursor.keyBytes());
            assertFalse(cursor.next());
        }
        db.createColumnFamily("scanned").put(bytes("other"), bytes("v"));
    }

    @Test
    void aFamilyOfAnotherDatabaseCannotBeDropped() {
        try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true))) {
            ColumnFamily theirs = other.createColumnFamily("theirs");
            assertThrows(IllegalArgumentException.class, () -> db.dropColumnFamily(theirs));
            assertFalse(theirs.isDropped());
        }
    }

    @Test
    void closingTheDatabaseClosesItsFamilies() {
        ColumnFamily users = db.createColumnFamily("users");
        db.close();
        var e = assertThrows(IllegalStateException.class, () -> users.put(bytes("k"), bytes("v")));
        assertTrue(e.getMessage().endsWith("is closed"), e.getMessage());
        assertThrows(IllegalStateException.class, db::columnFamilyNames);
        assertThrows(IllegalStateException.class, () -> db.columnFamily("users"));
        assertThrows(IllegalStateException.class, () -> db.createColumnFamily("more"));
        db = open(dir.resolve("db"), DbOptions.create());
    }

    @Test
    void listingTheFamiliesOfAMissingDatabaseFails() {
        assertThrows(RocksDbException.RocksIoException.class, () -> RocksDb.listColumnFamilies(dir.resolve("none")));
    }
}
