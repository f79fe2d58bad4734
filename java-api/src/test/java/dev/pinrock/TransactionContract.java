package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import dev.pinrock.internal.Binding;

/**
 * Transactions, pessimistic and optimistic: their writes and reads in every
 * access mode on the default family and another, commits, rollbacks, save
 * points, snapshots, reads for update, conflicts and the exceptions callers
 * retry on, and what a transaction refuses. Part of the contract, run with
 * FFM only (transactions have no JNI variant); see {@link BindingContract}.
 */
@ParameterizedClass(name = "[optimistic={0}]")
@ValueSource(booleans = {false, true})
class TransactionContract extends BindingContract {
    private final Path dir;
    private final boolean optimistic;
    private final RocksDb db;
    private final ColumnFamily family;

    TransactionContract(boolean optimistic, @TempDir Path dir) {
        super(Binding.FFM);
        this.optimistic = optimistic;
        this.dir = dir;
        this.db = RocksDb.openTransactional(dir.resolve("db"),
                DbOptions.create().createIfMissing(true).mergeOperator("uint64add"), options());
        this.family = db.createColumnFamily("f");
    }

    private TransactionDbOptions options() {
        return optimistic ? TransactionDbOptions.optimistic()
                : TransactionDbOptions.pessimistic().lockTimeoutMillis(50).defaultLockTimeoutMillis(50);
    }

    @AfterEach
    void closeDatabase() {
        db.close();
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
    void writesOfEveryFormStayTheTransactionsUntilItCommits() {
        try (Arena arena = Arena.ofConfined(); Transaction tx = db.beginTransaction()) {
            tx.put(bytes("array"), bytes("1"));
            tx.put(ByteBuffer.wrap(bytes("heap-buffer")), ByteBuffer.wrap(bytes("2")));
            tx.put(ByteBuffer.allocateDirect(13).put(bytes("direct-buffer")).flip(),
                    ByteBuffer.allocateDirect(1).put(bytes("3")).flip());
            tx.put(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("segment")),
                    arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("4")));
            tx.merge(bytes("counter"), uint64(5));
            tx.merge(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("counter")),
                    arena.allocateFrom(ValueLayout.JAVA_BYTE, uint64(6)));
            tx.in(family).put(bytes("array"), bytes("family"));
            assertEquals(7, tx.writeCount());
            // Its own reads see them; the database does not yet.
            assertEquals("1", string(tx.get(bytes("array"))));
            assertEquals(11, ByteBuffer.wrap(tx.get(bytes("counter"))).order(ByteOrder.LITTLE_ENDIAN).getLong());
            assertEquals("family", string(tx.in(family).get(bytes("array"))));
            assertNull(db.get(bytes("array")));
            assertNull(family.get(bytes("array")));
            tx.commit();
            assertEquals(0, tx.writeCount());
        }
        assertEquals("1", string(db.get(bytes("array"))));
        assertEquals("2", string(db.get(bytes("heap-buffer"))));
        assertEquals("3", string(db.get(bytes("direct-buffer"))));
        assertEquals("4", string(db.get(bytes("segment"))));
        assertArrayEquals(uint64(11), db.get(bytes("counter")));
        assertEquals("family", string(family.get(bytes("array"))));
    }

    @Test
    void readsInEveryAccessModeSeeTheTransactionsWritesOverTheDatabase() {
        byte[] large = new byte[100_000];
        Arrays.fill(large, (byte) 'L');
        db.put(bytes("stored"), large);
        db.put(bytes("deleted"), bytes("x"));
        try (Arena arena = Arena.ofConfined(); Transaction tx = db.beginTransaction()) {
            tx.put(bytes("own"), bytes("mine"));
            tx.delete(bytes("deleted"));
            for (KeyedCalls view : List.of(tx, tx.forUpdate(), tx.forUpdate(db, false))) {
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
                assertEquals(MemorySegment.ofArray(large).mismatch(dst), -1);
                MemorySegment pinned = view.getPinned(arena, bytes("stored"));
                assertTrue(pinned.isReadOnly());
                assertEquals(-1, MemorySegment.ofArray(large).mismatch(pinned));
                assertNull(view.getPinned(arena, bytes("deleted")));
                List<String> seen = new ArrayList<>();
                assertTrue(view.getPinned(bytes("own"), v -> seen.add(new String(v.toArray(ValueLayout.JAVA_BYTE)))));
                assertFalse(view.getPinned(bytes("deleted"), v -> seen.add("deleted")));
                assertEquals(List.of("mine"), seen);
                // multiGet in its three forms, with and without read options
                List<byte[]> keys = List.of(bytes("own"), bytes("stored"), bytes("deleted"), bytes("none"));
                for (ReadOptions options : List.of(ReadOptions.DEFAULT, ReadOptions.DEFAULT.fillCache(false))) {
                    List<byte[]> values = view.multiGet(options, keys);
                    assertEquals("mine", string(values.get(0)));
                    assertArrayEquals(large, values.get(1));
                    assertNull(values.get(2));
                    assertNull(values.get(3));
                }
                List<MemorySegment> segmentKeys = keys.stream()
                        .map(key -> arena.allocateFrom(ValueLayout.JAVA_BYTE, key)).toList();
                long[] offsets = new long[4];
                long[] lengths = new long[4];
                MemorySegment into = arena.allocate(large.length + 16);
                assertEquals(large.length + 4, view.multiGet(segmentKeys, into, offsets, lengths));
                assertEquals("mine", new String(into.asSlice(offsets[0], lengths[0]).toArray(ValueLayout.JAVA_BYTE),
                        StandardCharsets.UTF_8));
                assertEquals(large.length, lengths[1]);
                assertEquals(KeyedCalls.NOT_FOUND, lengths[2]);
                List<MemorySegment> pinnedValues = view.multiGetPinned(arena, segmentKeys);
                assertEquals(-1, MemorySegment.ofArray(large).mismatch(pinnedValues.get(1)));
                assertTrue(pinnedValues.get(0).isReadOnly());
                assertNull(pinnedValues.get(3));
            }
        }
    }

    @Test
    void aMultiGetForUpdateLocksEveryKeyItReads() throws Exception {
        db.put(bytes("a"), bytes("1"));
        try (Transaction tx = db.beginTransaction(); Transaction other = db.beginTransaction()) {
            List<byte[]> values = tx.forUpdate().multiGet(List.of(bytes("a"), bytes("absent")));
            assertEquals("1", string(values.get(0)));
            assertNull(values.get(1));
            if (optimistic) {
                other.put(bytes("absent"), bytes("other"));
                other.commit();
                tx.put(bytes("a"), bytes("2"));
                assertThrows(RocksDbException.ConflictException.class, tx::commit);
            } else {
                assertThrows(RocksDbException.TimedOutException.class, () -> other.put(bytes("absent"), bytes("x")));
                // A key locked by another fails the multiGet, naming the key.
                other.put(bytes("b"), bytes("other"));
                RocksDbException failed = assertThrows(RocksDbException.TimedOutException.class,
                        () -> tx.forUpdate().multiGet(List.of(bytes("a"), bytes("b"))));
                assertTrue(failed.getMessage().contains("key #1"), failed.getMessage());
                tx.commit();
            }
        }
    }

    @Test
    void aCursorSeesTheTransactionsWritesOverTheDatabaseWithinItsBounds() {
        for (String key : List.of("a", "b", "c", "e")) {
            db.put(bytes(key), bytes("db"));
        }
        family.put(bytes("c"), bytes("family"));
        try (Transaction tx = db.beginTransaction()) {
            tx.put(bytes("d"), bytes("tx"));
            tx.delete(bytes("b"));
            tx.put(bytes("c"), bytes("tx"));
            tx.in(family).put(bytes("x"), bytes("tx"));
            try (Cursor cursor = tx.cursor(ReadOptions.DEFAULT.lowerBound(bytes("b")).upperBound(bytes("e")));
                    Cursor inFamily = tx.in(family).cursor()) {
                assertEquals(List.of("c=tx", "d=tx"), entries(cursor));
                assertEquals(List.of("c=family", "x=tx"), entries(inFamily));
                assertTrue(cursor.seek(bytes("c")));
                MemorySegment view = cursor.value();
                // A write invalidates the entry views (the write may move their memory), and shows through.
                tx.put(bytes("cc"), bytes("new"));
                assertThrows(IllegalStateException.class, () -> view.get(ValueLayout.JAVA_BYTE, 0));
                // So is the entry, until the cursor moves: the write may have moved the memory it is in.
                assertThrows(IllegalStateException.class, cursor::valueBytes);
                assertThrows(IllegalStateException.class, cursor::keyBytes);
                assertThrows(IllegalStateException.class, () -> cursor.scan(1, (k, v) -> { }));
                assertTrue(cursor.next());
                assertEquals("cc", string(cursor.keyBytes()));
                assertEquals(List.of("c=tx", "cc=new", "d=tx"), entries(cursor));
                assertThrows(RocksDbException.class, cursor::refresh);
                // A call of the transaction from inside its cursor's scan is refused: the scan reads its writes.
                assertTrue(cursor.first());
                cursor.scan(1, (k, v) -> assertThrows(IllegalStateException.class,
                        () -> tx.put(bytes("z"), bytes("v"))));
            }
            // The database sees none of it yet.
            try (Cursor plain = db.cursor()) {
                assertEquals(List.of("a=db", "b=db", "c=db", "e=db"), entries(plain));
            }
            tx.commit();
        }
        assertEquals("new", string(db.get(bytes("cc"))));
    }

    @Test
    void commitRollbackAndCloseCloseTheTransactionsCursors() {
        db.put(bytes("k"), bytes("v"));
        Transaction tx = db.beginTransaction();
        tx.setSavePoint();
        Cursor first = tx.cursor();
        assertTrue(tx.rollbackToSavePoint());
        assertThrows(IllegalStateException.class, first::first);
        Cursor second = tx.cursor();
        tx.put(bytes("k2"), bytes("v2"));
        tx.commit();
        assertThrows(IllegalStateException.class, second::first);
        tx.close();
        Transaction other = db.beginTransaction();
        Cursor third = other.cursor();
        assertTrue(third.first());
        other.close();
        assertThrows(IllegalStateException.class, third::first);
        Transaction open = db.beginTransaction();
        Cursor fourth = open.cursor();
        db.close(); // closes the transaction and its cursor
        assertThrows(IllegalStateException.class, fourth::first);
        assertThrows(IllegalStateException.class, open::commit);
    }

    private static List<String> entries(Cursor cursor) {
        List<String> entries = new ArrayList<>();
        for (boolean on = cursor.first(); on; on = cursor.next()) {
            entries.add(string(cursor.keyBytes()) + "=" + string(cursor.valueBytes()));
        }
        return entries;
    }

    @Test
    void aPinnedValueOutlivesItsTransaction() {
        byte[] large = new byte[50_000];
        Arrays.fill(large, (byte) 'v');
        MemorySegment pinned;
        try (Arena arena = Arena.ofShared()) {
            try (Transaction tx = db.beginTransaction()) {
                tx.put(bytes("k"), large);
                pinned = tx.getPinned(arena, bytes("k"));
            }
            assertEquals(-1, MemorySegment.ofArray(large).mismatch(pinned));
        }
        assertThrows(IllegalStateException.class, () -> pinned.get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void rollbackAndCloseDiscardTheWritesAndEndTheTransaction() {
        Transaction rolledBack = db.beginTransaction();
        rolledBack.put(bytes("a"), bytes("1"));
        rolledBack.rollback();
        var done = assertThrows(RocksDbException.InvalidArgumentException.class, () -> rolledBack.put(bytes("b"),
                bytes("2")));
        assertTrue(done.getMessage().contains("committed or rolled back"), done.getMessage());
        assertThrows(RocksDbException.InvalidArgumentException.class, rolledBack::commit);
        rolledBack.close();
        rolledBack.close();
        assertThrows(IllegalStateException.class, () -> rolledBack.get(bytes("a")));
        Transaction closed = db.beginTransaction();
        closed.in(family).put(bytes("c"), bytes("3"));
        closed.close();
        assertNull(db.get(bytes("a")));
        assertNull(family.get(bytes("c")));
    }

    @Test
    void savePointsRollBackTheWritesSince() {
        try (Transaction tx = db.beginTransaction()) {
            assertFalse(tx.rollbackToSavePoint());
            assertFalse(tx.popSavePoint());
            tx.put(bytes("a"), bytes("1"));
            tx.setSavePoint();
            tx.put(bytes("b"), bytes("2"));
            tx.singleDelete(bytes("a"));
            assertTrue(tx.rollbackToSavePoint());
            assertEquals("1", string(tx.get(bytes("a"))));
            assertNull(tx.get(bytes("b")));
            tx.commit();
        }
        assertEquals("1", string(db.get(bytes("a"))));
        assertNull(db.get(bytes("b")));
    }

    /** RocksDB 9.10 refused such a commit ("Must set transaction commit timestamp"), applying nothing. */
    @Test
    void aCommitWhileASnapshotOnTheNextOperationIsPendingCommits() {
        try (Transaction tx = db.beginTransaction()) {
            tx.put(bytes("k"), bytes("v"));
            tx.setSnapshotOnNextOperation();
            tx.commit();
        }
        assertEquals("v", string(db.get(bytes("k"))));
    }

    /** RocksDB 9.10 read such a read for update through the former snapshot, which it had just released. */
    @Test
    void aReadForUpdateReadsAsOfTheSnapshotItsOperationTakes() {
        db.put(bytes("k"), bytes("1"));
        try (Transaction tx = db.beginTransaction()) {
            tx.setSnapshot();
            tx.setSnapshotOnNextOperation();
            db.put(bytes("k"), bytes("2"));
            assertEquals("2", string(tx.forUpdate().get(bytes("k"))));
            tx.commit();
        }
    }

    @Test
    void aSnapshotMakesReadsRepeatableAndALaterWriteOfAKeyReadForUpdateAConflict() {
        db.put(bytes("k"), bytes("1"));
        try (Transaction tx = db.beginTransaction(TransactionOptions.DEFAULT.setSnapshot(true))) {
            db.put(bytes("k"), bytes("2"));
            assertEquals("1", string(tx.get(bytes("k"))));
            // A snapshot of the database's own still reads as of it.
            try (Snapshot now = db.snapshot()) {
                assertEquals("2", string(tx.get(ReadOptions.DEFAULT.snapshot(now), bytes("k"))));
                assertThrows(RocksDbException.InvalidArgumentException.class,
                        () -> tx.forUpdate().get(ReadOptions.DEFAULT.snapshot(now), bytes("k")));
            }
            if (optimistic) {
                assertEquals("1", string(tx.forUpdate().get(bytes("k"))));
                assertThrows(RocksDbException.ConflictException.class, tx::commit);
            } else {
                var conflict = assertThrows(RocksDbException.ConflictException.class,
                        () -> tx.forUpdate().get(bytes("k")));
                assertEquals(StatusCode.BUSY, conflict.code());
                assertInstanceOf(RocksDbException.RetryableException.class, conflict);
                tx.commit();
            }
        }
        assertEquals("2", string(db.get(bytes("k"))));
    }

    @Test
    void aConflictingWriteIsARetryableExceptionAndTheRetrySucceeds() throws Exception {
        Transaction first = db.beginTransaction();
        first.put(bytes("k"), bytes("first"));
        if (optimistic) {
            db.put(bytes("k"), bytes("plain"));
            assertThrows(RocksDbException.ConflictException.class, first::commit);
            first.close();
            assertEquals("plain", string(db.get(bytes("k"))));
        } else {
            // Held: another transaction and a plain write time out.
            try (Transaction second = db.beginTransaction(TransactionOptions.DEFAULT.lockTimeoutMillis(0))) {
                var timedOut = assertThrows(RocksDbException.TimedOutException.class,
                        () -> second.put(bytes("k"), bytes("second")));
                assertEquals(2, timedOut.subCode());
                // The message names the holder, by the id its Transaction tells.
                assertTrue(timedOut.getMessage().contains("locked exclusively by transaction " + first.id()),
                        timedOut.getMessage());
                var forUpdate = assertThrows(RocksDbException.TimedOutException.class,
                        () -> second.forUpdate(db, false).get(bytes("k")));
                assertTrue(forUpdate.getMessage().contains("by transaction " + first.id()), forUpdate.getMessage());
                second.put(bytes("other"), bytes("second")); // the transaction goes on
                second.commit();
            }
            assertThrows(RocksDbException.TimedOutException.class, () -> db.put(bytes("k"), bytes("plain")));
            first.commit();
            first.close();
            assertEquals("first", string(db.get(bytes("k"))));
            assertEquals("second", string(db.get(bytes("other"))));
        }
        // The retry in a new transaction succeeds.
        try (Transaction retry = db.beginTransaction()) {
            retry.put(bytes("k"), bytes("retry"));
            retry.commit();
        }
        assertEquals("retry", string(db.get(bytes("k"))));
    }

    @Test
    void aWaitClosingACycleOfWaitsIsADeadlockForOneOfTheTwo() throws Exception {
        if (optimistic) {
            return; // optimistic transactions never wait
        }
        TransactionOptions detecting = TransactionOptions.DEFAULT.detectDeadlocks(true).lockTimeoutMillis(10_000);
        Transaction first = db.beginTransaction(detecting);
        Transaction second = db.beginTransaction(detecting);
        first.put(bytes("a"), bytes("1"));
        second.put(bytes("b"), bytes("2"));
        // Each then wants the other's key: whichever waits second closes the cycle, and fails at
        // once; rolling it back lets the other go on.
        boolean firstLost;
        boolean secondLost;
        try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
            Future<Boolean> firstDeadlocked = threads.submit(() -> waitFor(first, "b"));
            Future<Boolean> secondDeadlocked = threads.submit(() -> waitFor(second, "a"));
            firstLost = firstDeadlocked.get(30, TimeUnit.SECONDS);
            secondLost = secondDeadlocked.get(30, TimeUnit.SECONDS);
        }
        assertTrue(firstLost != secondLost, "exactly one deadlocked: " + firstLost + ", " + secondLost);
        Transaction winner = firstLost ? second : first;
        winner.commit();
        first.close();
        second.close();
        String value = firstLost ? "2" : "1";
        assertEquals(value, string(db.get(bytes("a"))));
        assertEquals(value, string(db.get(bytes("b"))));
    }

    @Test
    void aCycleOfThreeWaitsIsADeadlockForTheOneClosingItNamingTheCycle() throws Exception {
        if (optimistic) {
            return; // optimistic transactions never wait
        }
        TransactionOptions detecting = TransactionOptions.DEFAULT.detectDeadlocks(true).lockTimeoutMillis(20_000);
        List<Transaction> transactions = new ArrayList<>();
        List<String> keys = List.of("a", "b", "c");
        for (String key : keys) {
            Transaction tx = db.beginTransaction(detecting);
            tx.put(bytes(key), bytes(key));
            transactions.add(tx);
        }
        // Each wants the next one's key; the last to wait closes the cycle and fails at once, and
        // rolls back; the others then get their keys in turn, and commit.
        List<String> messages = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(3)) {
            List<Future<String>> waits = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Transaction tx = transactions.get(i);
                String wanted = keys.get((i + 1) % 3);
                waits.add(threads.submit(() -> {
                    try {
                        tx.put(bytes(wanted), bytes("taken"));
                        tx.commit();
                        return null;
                    } catch (RocksDbException.DeadlockException e) {
                        tx.rollback(); // lets the others go on
                        return e.getMessage();
                    }
                }));
                Thread.sleep(100); // in this order, so that the third closes the cycle
            }
            for (Future<String> wait : waits) {
                String message = wait.get(60, TimeUnit.SECONDS);
                if (message != null) {
                    messages.add(message);
                }
            }
        }
        assertEquals(1, messages.size(), "exactly one deadlocked: " + messages);
        for (Transaction tx : transactions) {
            assertTrue(messages.get(0).contains("transaction " + tx.id() + " waits for key 0x"), messages.get(0));
            tx.close();
        }
        // The third closed the cycle: its writes are gone, the others' applied.
        assertEquals(List.of("a", "taken", "taken"), keys.stream().map(key -> string(db.get(bytes(key)))).toList());
    }

    @Test
    void lockTimeoutsOfZeroAndOfLongMaxValueAreHonoured() throws Exception {
        if (optimistic) {
            return; // optimistic transactions never wait
        }
        try (Transaction holder = db.beginTransaction()) {
            holder.put(bytes("k"), bytes("held"));
            try (Transaction impatient = db.beginTransaction(TransactionOptions.DEFAULT.lockTimeoutMillis(0))) {
                assertThrows(RocksDbException.TimedOutException.class, () -> impatient.put(bytes("k"), bytes("v")));
            }
            // Long.MAX_VALUE waits (RocksDB's microseconds would wrap around into the 50 ms default).
            Transaction patient = db.beginTransaction(TransactionOptions.DEFAULT.lockTimeoutMillis(Long.MAX_VALUE)
                    .expirationMillis(Long.MAX_VALUE));
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> patient.put(bytes("k"), bytes("patient")));
            Thread.sleep(500);
            assertFalse(waiting.isDone(), "a put with a lock timeout of Long.MAX_VALUE stopped waiting");
            holder.commit();
            waiting.get(30, TimeUnit.SECONDS);
            patient.commit();
            patient.close();
        }
        assertEquals("patient", string(db.get(bytes("k"))));
        try (RocksDb patientDb = RocksDb.openTransactional(dir.resolve("patient"), DbOptions.create()
                .createIfMissing(true), TransactionDbOptions.pessimistic().lockTimeoutMillis(Long.MAX_VALUE)
                .defaultLockTimeoutMillis(Long.MAX_VALUE));
                Transaction holder = patientDb.beginTransaction()) {
            holder.put(bytes("k"), bytes("held"));
            CompletableFuture<Void> plain = CompletableFuture.runAsync(() -> patientDb.put(bytes("k"), bytes("plain")));
            Thread.sleep(300);
            assertFalse(plain.isDone(), "a plain write with a default lock timeout of Long.MAX_VALUE stopped waiting");
            holder.commit();
            plain.get(30, TimeUnit.SECONDS);
            assertEquals("plain", string(patientDb.get(bytes("k"))));
        }
    }

    @Test
    void aCommitRacingTheDatabasesCloseAppliesAllOrNothing() throws Exception {
        Path racing = dir.resolve("racing");
        TransactionDbOptions kind = options();
        for (int round = 0; round < 20; round++) {
            RocksDb opened = RocksDb.openTransactional(racing, DbOptions.create().createIfMissing(true), kind);
            Transaction tx = opened.beginTransaction();
            byte[] key = bytes("k" + round);
            tx.put(key, bytes("v"));
            tx.put(bytes("pair" + round), bytes("v"));
            CompletableFuture<Boolean> committed = CompletableFuture.supplyAsync(() -> {
                try {
                    tx.commit();
                    return true;
                } catch (IllegalStateException e) {
                    return false; // the close came first and rolled it back
                }
            });
            opened.close();
            boolean applied = committed.get(30, TimeUnit.SECONDS);
            tx.close();
            try (RocksDb reopened = RocksDb.openTransactional(racing, DbOptions.create(), kind)) {
                assertEquals(applied ? "v" : null, string(reopened.get(key)), "round " + round);
                assertEquals(applied ? "v" : null, string(reopened.get(bytes("pair" + round))), "round " + round);
            }
        }
    }

    /** Writes key in tx; on a deadlock rolls tx back (so the other goes on) and returns true. */
    private static boolean waitFor(Transaction tx, String key) {
        try {
            tx.put(bytes(key), bytes(key.equals("a") ? "2" : "1"));
            return false;
        } catch (RocksDbException.DeadlockException e) {
            assertEquals(StatusCode.BUSY, e.code());
            assertEquals(5, e.subCode());
            tx.rollback();
            return true;
        }
    }

    @Test
    void whatATransactionCannotDoIsRefusedAndChangesNothing() {
        try (Transaction tx = db.beginTransaction()) {
            // A merge the family's merge operator cannot take.
            var merge = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> tx.merge(bytes("counter"), bytes("short")));
            assertTrue(merge.getMessage().contains("operands of 8 bytes"), merge.getMessage());
            // A key over the limit.
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> tx.put(new byte[8 * 1024 * 1024 + 1], bytes("v")));
            // A family of another database.
            try (RocksDb other = RocksDb.open(dir.resolve("other"), DbOptions.create().createIfMissing(true))) {
                assertThrows(IllegalArgumentException.class, () -> tx.in(other));
                assertThrows(RocksDbException.class, other::beginTransaction);
            }
            // A dropped family.
            ColumnFamily dropped = db.createColumnFamily("dropped");
            KeyedCalls inDropped = tx.in(dropped);
            dropped.drop();
            assertThrows(IllegalStateException.class, () -> inDropped.put(bytes("k"), bytes("v")));
            // Nulls.
            assertThrows(NullPointerException.class, () -> tx.put(null, bytes("v")));
            assertThrows(NullPointerException.class, () -> tx.in(null));
            assertEquals(0, tx.writeCount());
            tx.put(bytes("k"), bytes("v"));
            tx.commit();
        }
        assertEquals("v", string(db.get(bytes("k"))));
    }

    @Test
    void closingTheDatabaseRollsBackItsOpenTransactions() {
        Transaction open = db.beginTransaction();
        open.put(bytes("k"), bytes("v"));
        db.close();
        assertThrows(IllegalStateException.class, () -> open.put(bytes("k2"), bytes("v")));
        open.close();
        try (RocksDb reopened = RocksDb.openTransactional(dir.resolve("db"),
                DbOptions.create().mergeOperator("uint64add"), options())) {
            assertNull(reopened.get(bytes("k")));
        }
        // closeDatabase closes again: idempotent
    }

    @Test
    void aPreparedTransactionSurvivesTheCloseAndIsDecidedAfterTheNextOpen() {
        Transaction kept = db.beginTransaction();
        assertEquals(java.util.Optional.empty(), kept.name());
        if (optimistic) {
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> kept.setName("kept"));
            assertThrows(RocksDbException.InvalidArgumentException.class, kept::prepare);
            assertEquals(List.of(), db.preparedTransactions());
            kept.close();
            return;
        }
        assertThrows(RocksDbException.InvalidArgumentException.class, kept::prepare); // no name
        kept.setName("kept-é");
        assertEquals(java.util.Optional.of("kept-é"), kept.name());
        kept.put(bytes("a"), bytes("1"));
        kept.in(family).merge(bytes("n"), uint64(5));
        Cursor cursor = kept.cursor();
        kept.prepare();
        assertThrows(IllegalStateException.class, cursor::first); // closed by the prepare
        assertEquals("1", string(kept.get(bytes("a"))));
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> kept.put(bytes("b"), bytes("2")));
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> kept.forUpdate().get(bytes("a")));
        assertThrows(RocksDbException.InvalidArgumentException.class, kept::setSavePoint);
        assertNull(db.get(bytes("a")));
        try (Transaction other = db.beginTransaction()) {
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> other.setName("kept-é"));
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> other.setName(""));
            other.setName("rolled-back");
            other.put(bytes("c"), bytes("3"));
            other.prepare();
            other.rollback();
        }
        kept.close(); // stays prepared, with its locks, and is handed out again
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.dropColumnFamily(family));
        try (Transaction other = db.beginTransaction()) {
            assertThrows(RocksDbException.TimedOutException.class, () -> other.put(bytes("a"), bytes("2")));
        }
        List<Transaction> undecided = db.preparedTransactions();
        assertEquals(1, undecided.size());
        assertEquals(java.util.Optional.of("kept-é"), undecided.get(0).name());
        assertEquals(List.of(), db.preparedTransactions()); // handed out once
        db.close(); // closes it, undecided

        // A plain open keeps it for the next pessimistic open.
        try (RocksDb plain = RocksDb.open(dir.resolve("db"), DbOptions.create().mergeOperator("uint64add"))) {
            assertNull(plain.get(bytes("a")));
            assertEquals(List.of(), plain.preparedTransactions());
            plain.flush();
        }
        try (RocksDb reopened = RocksDb.openTransactional(dir.resolve("db"),
                DbOptions.create().mergeOperator("uint64add"), options())) {
            List<Transaction> prepared = reopened.preparedTransactions();
            assertEquals(1, prepared.size());
            Transaction recovered = prepared.get(0);
            assertEquals(java.util.Optional.of("kept-é"), recovered.name());
            assertEquals(List.of(), reopened.preparedTransactions()); // handed out once
            assertNull(reopened.get(bytes("a")));
            recovered.commit();
            recovered.close();
            assertEquals("1", string(reopened.get(bytes("a"))));
            assertArrayEquals(uint64(5), reopened.columnFamily("f").get(bytes("n")));
            assertNull(reopened.get(bytes("c")));
        }
        // Committed, its values are in the log's prepared section only: a plain open keeps them too.
        try (RocksDb plain = RocksDb.open(dir.resolve("db"), DbOptions.create().mergeOperator("uint64add"))) {
            assertEquals("1", string(plain.get(bytes("a"))));
            assertArrayEquals(uint64(5), plain.columnFamily("f").get(bytes("n")));
        }
    }

    @Test
    void aTransactionCommittingWithoutTheLogIsNotPrepared() {
        if (optimistic) {
            return; // optimistic transactions are not prepared at all: see the test above
        }
        try (Transaction transaction = db.beginTransaction(
                TransactionOptions.DEFAULT.writeOptions(WriteOptions.DEFAULT.disableWal(true)))) {
            transaction.setName("no-log");
            transaction.put(bytes("k"), bytes("v"));
            RocksDbException refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                    transaction::prepare);
            assertTrue(refused.getMessage().contains("write-ahead log"), refused.getMessage());
            transaction.commit();
        }
        assertEquals("v", string(db.get(bytes("k"))));
    }

    @Test
    void aCallFromAnotherThreadWhileOneIsInFlightIsRefused() throws Exception {
        if (optimistic) {
            return; // nothing of an optimistic transaction waits
        }
        Transaction holder = db.beginTransaction();
        holder.put(bytes("k"), bytes("held"));
        try (Transaction waiter = db.beginTransaction(TransactionOptions.DEFAULT.lockTimeoutMillis(20_000))) {
            // The waiter's put waits for the holder's lock; any other call on it meanwhile is refused.
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
                while (true) {
                    try {
                        waiter.put(bytes("k"), bytes("waiter"));
                        return;
                    } catch (IllegalStateException e) {
                        // this test's own probe held the transaction for a moment: try again
                    }
                }
            });
            IllegalStateException refused = null;
            for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15); refused == null
                    && System.nanoTime() < end;) {
                try {
                    waiter.writeCount();
                    Thread.sleep(1);
                } catch (IllegalStateException e) {
                    refused = e;
                }
            }
            assertTrue(refused != null, "a call while another is in flight was refused");
            holder.rollback();
            waiting.get(30, TimeUnit.SECONDS);
            waiter.commit();
        }
        holder.close();
        assertEquals("waiter", string(db.get(bytes("k"))));
    }
}
