package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.internal.Binding;

/**
 * Merge operators written in Java: merges through every write path and read
 * path, in flushes and compactions, across reopens; failures that fail only
 * the reads of their key and lose nothing; the views and result of a merge
 * dying with its call; the name RocksDB records. Part of the contract, run
 * with each binding (a merge runs in RocksDB, called back from whichever
 * binding's read); transactions and batches with index are FFM's only.
 */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class MergeOperatorContract extends BindingContract {
    MergeOperatorContract(Binding binding) {
        super(binding);
    }

    private static final ValueLayout.OfLong UINT64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] uint64(long value) {
        byte[] bytes = new byte[8];
        MemorySegment.ofArray(bytes).set(UINT64, 0, value);
        return bytes;
    }

    private static long uint64(byte[] bytes) {
        return MemorySegment.ofArray(bytes).get(UINT64, 0);
    }

    /** Little-endian 64-bit sums, as RocksDB's uint64add, with partial merges counted. */
    static final class Counter implements MergeOperator {
        final AtomicInteger fullMerges = new AtomicInteger();
        final AtomicInteger partialMerges = new AtomicInteger();
        private final String name;

        Counter(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean fullMerge(MemorySegment key, MemorySegment existingValue, List<MemorySegment> operands,
                MergeResult result) {
            fullMerges.incrementAndGet();
            long sum = existingValue == null ? 0 : existingValue.get(UINT64, 0);
            for (MemorySegment operand : operands) {
                sum += operand.get(UINT64, 0);
            }
            result.allocate(8).set(UINT64, 0, sum);
            return true;
        }

        @Override
        public boolean partialMerge(MemorySegment key, MemorySegment left, MemorySegment right, MergeResult result) {
            partialMerges.incrementAndGet();
            result.allocate(8).set(UINT64, 0, left.get(UINT64, 0) + right.get(UINT64, 0));
            return true;
        }
    }

    /** Comma-joined operands, as RocksDB's stringappend, written associatively. */
    static final class ListAppend extends AssociativeMergeOperator {
        ListAppend() {
            super("test.ListAppend");
        }

        @Override
        protected boolean merge(MemorySegment key, MemorySegment value, MemorySegment operand, MergeResult result) {
            if (value == null) {
                result.useOperand(0);
                return true;
            }
            MemorySegment joined = result.allocate(value.byteSize() + 1 + operand.byteSize());
            joined.copyFrom(value);
            joined.set(ValueLayout.JAVA_BYTE, value.byteSize(), (byte) ',');
            joined.asSlice(value.byteSize() + 1).copyFrom(operand);
            return true;
        }
    }

    /** A full merge that does what the test gives it. */
    @FunctionalInterface
    interface FullMerge {
        boolean merge(MemorySegment key, MemorySegment existing, List<MemorySegment> operands, MergeResult result);
    }

    private static MergeOperator named(String name, FullMerge merge) {
        return new MergeOperator() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean fullMerge(MemorySegment key, MemorySegment existingValue, List<MemorySegment> operands,
                    MergeResult result) {
                return merge.merge(key, existingValue, operands, result);
            }
        };
    }

    private RocksDb open(String name, MergeOperator operator) {
        return open(dir.resolve(name), DbOptions.create().createIfMissing(true).mergeOperator(operator));
    }

    @Test
    void countersAddUpInEveryReadAcrossFlushesCompactionsAndReopens() {
        Counter counter = new Counter("test.Counter");
        try (RocksDb db = open("counters", counter)) {
            db.put(bytes("based"), uint64(100));
            for (int i = 1; i <= 3; i++) {
                db.merge(bytes("based"), uint64(i));
                db.merge(bytes("bare"), uint64(10 * i));
            }
            assertEquals(106, uint64(db.get(bytes("based"))));
            assertEquals(60, uint64(db.get(bytes("bare"))));
            db.flush(); // three operands without a base: a partial merge shortens them
            assertTrue(counter.partialMerges.get() > 0, "the flush merged no operands partially");
            db.merge(bytes("bare"), uint64(1));
            assertEquals(61, uint64(db.get(bytes("bare"))));
            try (Arena arena = Arena.ofConfined()) {
                assertEquals(106, db.getPinned(arena, bytes("based")).get(UINT64, 0));
            }
            byte[] into = new byte[8];
            assertEquals(8, db.get(bytes("bare"), into));
            assertEquals(61, uint64(into));
            List<byte[]> both = db.multiGet(List.of(bytes("bare"), bytes("based"), bytes("absent")));
            assertEquals(61, uint64(both.get(0)));
            assertEquals(106, uint64(both.get(1)));
            assertNull(both.get(2));
            db.compactRange();
            List<Long> scanned = new ArrayList<>();
            try (Cursor cursor = db.cursor()) {
                for (boolean on = cursor.first(); on; on = cursor.next()) {
                    scanned.add(uint64(cursor.valueBytes()));
                }
            }
            assertEquals(List.of(61L, 106L), scanned);
        }
        try (RocksDb db = open("counters", new Counter("test.Counter"))) {
            db.merge(bytes("bare"), uint64(1));
            assertEquals(62, uint64(db.get(bytes("bare"))));
            assertEquals(106, uint64(db.get(bytes("based"))));
        }
    }

    @Test
    void anAssociativeOperatorFoldsItsOperandsInOrder() {
        try (RocksDb db = open("lists", new ListAppend())) {
            for (String item : List.of("a", "b", "c", "d")) {
                db.merge(bytes("list"), bytes(item));
            }
            assertEquals("a,b,c,d", string(db.get(bytes("list"))));
            db.flush();
            db.merge(bytes("list"), bytes("e"));
            db.put(bytes("reset"), bytes("x"));
            db.merge(bytes("reset"), bytes("y"));
            assertEquals("a,b,c,d,e", string(db.get(bytes("list"))));
            db.compactRange();
            assertEquals("a,b,c,d,e", string(db.get(bytes("list"))));
            assertEquals("x,y", string(db.get(bytes("reset"))));
        }
    }

    @Test
    void mergesGoThroughBatchesTransactionsAndBatchesWithIndex() {
        DbOptions options = DbOptions.create().createIfMissing(true).mergeOperator(new Counter("test.Counter"));
        try (RocksDb db = RocksDb.openTransactional(dir.resolve("transactional"), options,
                TransactionDbOptions.pessimistic())) {
            try (WriteBatch batch = new WriteBatch()) {
                db.write(batch.merge(bytes("n"), uint64(1)).merge(bytes("n"), uint64(2)));
            }
            try (Transaction transaction = db.beginTransaction()) {
                transaction.merge(bytes("n"), uint64(4));
                assertEquals(7, uint64(transaction.get(bytes("n"))));
                transaction.commit();
            }
            try (WriteBatchWithIndex batch = new WriteBatchWithIndex(db)) {
                batch.merge(bytes("n"), uint64(8));
                assertEquals(15, uint64(batch.get(bytes("n"))));
                db.write(batch);
            }
            assertEquals(15, uint64(db.get(bytes("n"))));
        }
    }

    @Test
    void aFamilyMergesWithItsOwnOperator() {
        try (RocksDb db = open(dir.resolve("families"), DbOptions.create().createIfMissing(true))) {
            ColumnFamily lists = db.createColumnFamily("lists", DbOptions.create().mergeOperator(new ListAppend()));
            lists.merge(bytes("k"), bytes("1"));
            lists.merge(bytes("k"), bytes("2"));
            assertEquals("1,2", string(lists.get(bytes("k"))));
            RocksDbException e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> db.merge(bytes("k"), bytes("1")));
            assertTrue(e.getMessage().contains("no merge operator"), e.getMessage());
        }
        DbOptions reopen = DbOptions.create().columnFamily("lists", DbOptions.create().mergeOperator(new ListAppend()));
        try (RocksDb db = open(dir.resolve("families"), reopen)) {
            assertEquals("1,2", string(db.columnFamily("lists").get(bytes("k"))));
        }
    }

    @Test
    void aFailedMergeFailsOnlyTheReadsOfItsKeyAndLosesNothing() {
        MergeOperator failing = named("test.Failing", (key, existing, operands, result) -> {
            StringBuilder joined = new StringBuilder(existing == null ? "" : string(existing.toArray(ValueLayout.JAVA_BYTE)));
            for (MemorySegment operand : operands) {
                String item = string(operand.toArray(ValueLayout.JAVA_BYTE));
                if (item.equals("boom")) {
                    throw new IllegalArgumentException("no boom here");
                }
                joined.append(item);
            }
            result.set(bytes(joined.toString()));
            return true;
        });
        try (RocksDb db = open("failing", failing)) {
            db.merge(bytes("bad"), bytes("a"));
            db.merge(bytes("bad"), bytes("boom"));
            db.merge(bytes("good"), bytes("a"));
            RocksDbException.MergeFailedException e = assertThrows(RocksDbException.MergeFailedException.class,
                    () -> db.get(bytes("bad")));
            assertEquals(StatusCode.CORRUPTION, e.code());
            assertEquals(15, e.subCode());
            assertInstanceOf(IllegalArgumentException.class, e.getCause());
            assertEquals("no boom here", e.getCause().getMessage());
            assertEquals("a", string(db.get(bytes("good"))));
            // Flushes and compactions keep the operands, and the database stays writable.
            db.flush();
            db.compactRange();
            db.put(bytes("after"), bytes("written"));
            assertThrows(RocksDbException.MergeFailedException.class, () -> db.get(bytes("bad")));
        }
        MergeOperator fixed = named("test.Failing", (key, existing, operands, result) -> {
            StringBuilder joined = new StringBuilder();
            operands.forEach(operand -> joined.append(string(operand.toArray(ValueLayout.JAVA_BYTE))));
            result.set(bytes(joined.toString()));
            return true;
        });
        try (RocksDb db = open("failing", fixed)) {
            assertEquals("aboom", string(db.get(bytes("bad"))));
            assertEquals("written", string(db.get(bytes("after"))));
        }
    }

    @Test
    void errorsAndFalseInsideAMergeFailItWithoutHarm() {
        AtomicReference<String> mode = new AtomicReference<>();
        MergeOperator unruly = named("test.Unruly", (key, existing, operands, result) -> {
            switch (mode.get()) {
                case "false" -> {
                    return false;
                }
                case "stack" -> {
                    return recurse(0) > 0;
                }
                case "memory" -> throw new OutOfMemoryError("thrown by the test");
                default -> throw new AssertionError("thrown by the test");
            }
        });
        try (RocksDb db = open("unruly", unruly)) {
            db.merge(bytes("k"), bytes("v"));
            for (String each : List.of("false", "stack", "memory", "assertion")) {
                mode.set(each);
                RocksDbException.MergeFailedException e = assertThrows(RocksDbException.MergeFailedException.class,
                        () -> db.get(bytes("k")), each);
                Throwable cause = e.getCause();
                switch (each) {
                    case "false" -> assertTrue(cause.getMessage().contains("returned false"), cause.getMessage());
                    case "stack" -> assertInstanceOf(StackOverflowError.class, cause);
                    case "memory" -> assertInstanceOf(OutOfMemoryError.class, cause);
                    default -> assertInstanceOf(AssertionError.class, cause);
                }
            }
        }
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    @Test
    void viewsAndResultsDieWithTheirCall() {
        AtomicReference<MemorySegment> keptKey = new AtomicReference<>();
        AtomicReference<MemorySegment> keptOperand = new AtomicReference<>();
        AtomicReference<MergeResult> keptResult = new AtomicReference<>();
        AtomicReference<List<MemorySegment>> keptOperands = new AtomicReference<>();
        MergeOperator keeper = named("test.Keeper", (key, existing, operands, result) -> {
            keptKey.set(key);
            keptOperand.set(operands.get(0));
            keptResult.set(result);
            keptOperands.set(operands);
            assertThrows(IllegalArgumentException.class, () -> key.set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
            result.useOperand(0);
            assertThrows(IllegalStateException.class, () -> result.allocate(1));
            return true;
        });
        try (RocksDb db = open("keeper", keeper)) {
            db.merge(bytes("k"), bytes("v"));
            assertEquals("v", string(db.get(bytes("k"))));
            assertThrows(IllegalStateException.class, () -> keptKey.get().get(ValueLayout.JAVA_BYTE, 0));
            assertThrows(IllegalStateException.class, () -> keptOperand.get().toArray(ValueLayout.JAVA_BYTE));
            assertThrows(IllegalStateException.class, () -> keptResult.get().allocate(4));
            assertThrows(IllegalStateException.class, () -> keptResult.get().useOperand(0));
            assertThrows(IllegalStateException.class, () -> keptOperands.get().get(0));
        }
    }

    @Test
    void everyResultFormWrites() {
        AtomicReference<String> form = new AtomicReference<>();
        MergeOperator forms = named("test.Forms", (key, existing, operands, result) -> {
            switch (form.get()) {
                case "existing" -> result.useExisting();
                case "last" -> result.useOperand(operands.size() - 1);
                case "array" -> result.set(bytes("array"));
                case "segment" -> result.set(operands.get(0));
                case "nothing" -> {
                }
                default -> throw new AssertionError(form.get());
            }
            return true;
        });
        try (RocksDb db = open("forms", forms)) {
            db.put(bytes("k"), bytes("base"));
            db.merge(bytes("k"), bytes("first"));
            db.merge(bytes("k"), bytes("second"));
            db.merge(bytes("bare"), bytes("only"));
            for (String each : List.of("existing", "last", "array", "segment", "nothing")) {
                form.set(each);
                String expected = switch (each) {
                    case "existing" -> "base";
                    case "last" -> "second";
                    case "array" -> "array";
                    case "segment" -> "first";
                    default -> "";
                };
                assertEquals(expected, string(db.get(bytes("k"))), each);
            }
            form.set("existing"); // the key has none
            RocksDbException.MergeFailedException e = assertThrows(RocksDbException.MergeFailedException.class,
                    () -> db.get(bytes("bare")));
            assertInstanceOf(IllegalStateException.class, e.getCause());
        }
    }

    @Test
    void aMergeCannotCallIntoPinrock() {
        AtomicReference<RocksDb> database = new AtomicReference<>();
        MergeOperator reentrant = named("test.Reentrant", (key, existing, operands, result) -> {
            database.get().get(bytes("other"));
            return true;
        });
        try (RocksDb db = open("reentrant", reentrant)) {
            database.set(db);
            db.merge(bytes("k"), bytes("v"));
            RocksDbException.MergeFailedException e = assertThrows(RocksDbException.MergeFailedException.class,
                    () -> db.get(bytes("k")));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("refuses calls from inside a merge operator"),
                    e.getCause().getMessage());
            db.put(bytes("other"), bytes("still usable"));
            assertEquals("still usable", string(db.get(bytes("other"))));
        }
    }

    @Test
    void aDatabaseOpensOnlyWithTheOperatorItMergedWith() {
        try (RocksDb db = open("named", new Counter("test.First"))) {
            db.merge(bytes("n"), uint64(1));
        }
        for (DbOptions other : List.of(DbOptions.create().mergeOperator(new Counter("test.Second")),
                DbOptions.create().mergeOperator("uint64add"), DbOptions.create())) {
            RocksDbException e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> open(dir.resolve("named"), other).close());
            assertTrue(e.getMessage().contains("was last opened with merge operator test.First"), e.getMessage());
        }
        try (RocksDb db = open("named", new Counter("test.First"))) {
            assertEquals(1, uint64(db.get(bytes("n"))));
        }
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> DbOptions.loadLatest(dir.resolve("named")));
    }

    @Test
    void namesRocksDbCannotRecordOrThatAreItsOwnAreRefused() {
        for (String name : List.of("", "with space", "semi;colon", "braces{}", "uint64add", "UInt64AddOperator",
                "x".repeat(256))) {
            RocksDbException e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> open("refused", new Counter(name)).close(), name);
            assertTrue(e.getMessage().contains(name.length() > 40 ? "1 to 255" : name), e.getMessage());
        }
    }

    @Test
    void writesOfOperandsAreCheckedNoFurther() {
        try (RocksDb db = open("any", new ListAppend())) {
            db.merge(bytes("k"), new byte[0]);
            db.merge(bytes("k"), bytes("x"));
            assertArrayEquals(bytes(",x"), db.get(bytes("k")));
        }
    }
}
