package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction filters written in Java: what each decision does to the data,
 * the context a factory is given, merge operands, failures that keep the
 * entry and are told to the factory, views and decisions that die with
 * their call, re-entry refused, names, and reopens. FFM's only: compactions
 * call back whichever binding wrote the data.
 */
class CompactionFilterTest {
    private static final ValueLayout.OfLong BIG_ENDIAN_LONG = ValueLayout.JAVA_LONG_UNALIGNED
            .withOrder(ByteOrder.BIG_ENDIAN);

    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    private static String string(MemorySegment segment) {
        return new String(segment.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /** A value that expires at expiry: the time, 8 bytes big-endian, then the payload. */
    private static byte[] expiring(long expiry, String payload) {
        byte[] body = bytes(payload);
        byte[] value = new byte[8 + body.length];
        MemorySegment.ofArray(value).set(BIG_ENDIAN_LONG, 0, expiry);
        System.arraycopy(body, 0, value, 8, body.length);
        return value;
    }

    /**
     * Flink's state TTL in Java: each compaction's filter takes the time once,
     * and removes the values that expired by then.
     */
    static final class Expiry implements CompactionFilterFactory {
        final List<CompactionFilter.Context> contexts = new CopyOnWriteArrayList<>();
        volatile long now;

        @Override
        public String name() {
            return "test.Expiry";
        }

        @Override
        public CompactionFilter newFilter(CompactionFilter.Context context) {
            contexts.add(context);
            long time = now;
            return (key, kind, value, decision) -> {
                if (value.get(BIG_ENDIAN_LONG, 0) <= time) {
                    decision.remove();
                }
            };
        }
    }

    /** A filter by value text: "remove", "change", "until-KEY"; failures recorded. */
    static final class ByText implements CompactionFilterFactory {
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final List<String> asked = new CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return "test.ByText";
        }

        @Override
        public CompactionFilter newFilter(CompactionFilter.Context context) {
            return (key, kind, value, decision) -> {
                String text = string(value);
                asked.add(kind + ":" + string(key) + "=" + text);
                if (text.equals("remove")) {
                    decision.remove();
                } else if (text.equals("change")) {
                    decision.changeValue(bytes("changed"));
                } else if (text.equals("grow")) {
                    MemorySegment grown = decision.allocateValue(value.byteSize() * 2);
                    grown.copyFrom(value);
                    grown.asSlice(value.byteSize()).copyFrom(value);
                } else if (text.startsWith("until-")) {
                    decision.removeUntil(value.asSlice(6));
                } else if (text.equals("throw")) {
                    throw new IllegalStateException("this filter fails on " + string(key));
                }
            };
        }

        @Override
        public void failed(Throwable failure) {
            failures.add(failure);
        }
    }

    private RocksDb open(String name, CompactionFilterFactory factory) {
        return RocksDb.open(dir.resolve(name), DbOptions.create().createIfMissing(true).compactionFilter(factory));
    }

    @Test
    void aFilterInJavaExpiresValuesInCompactionsAndFlushesLeaveThem() {
        Expiry expiry = new Expiry();
        try (RocksDb db = open("expiry", expiry)) {
            db.put(bytes("old"), expiring(100, "a"));
            db.put(bytes("fresh"), expiring(300, "b"));
            expiry.now = 200;
            db.flush();
            assertEquals(List.of(), expiry.contexts, "a flush makes no filter");
            assertArrayEquals(expiring(100, "a"), db.get(bytes("old")));
            db.compactRange();
            assertNull(db.get(bytes("old")));
            assertArrayEquals(expiring(300, "b"), db.get(bytes("fresh")));
            assertEquals(List.of(new CompactionFilter.Context(true, true, 0)), expiry.contexts);
        }
    }

    @Test
    void decisionsRemoveChangeGrowAndRemoveRangesAndEverythingElseIsKept() {
        ByText byText = new ByText();
        try (RocksDb db = open("decisions", byText)) {
            db.put(bytes("a"), bytes("keep"));
            db.put(bytes("b"), bytes("remove"));
            db.put(bytes("c"), bytes("change"));
            db.put(bytes("d"), bytes("grow"));
            db.put(bytes("e"), bytes("until-g"));
            db.put(bytes("f"), bytes("keep"));
            db.put(bytes("g"), bytes("keep"));
            db.put(bytes("h"), bytes("until-a")); // an end before the key keeps the entry
            db.put(bytes("i"), bytes(""));
            db.compactRange();
            assertEquals("keep", string(db.get(bytes("a"))));
            assertNull(db.get(bytes("b")));
            assertEquals("changed", string(db.get(bytes("c"))));
            assertEquals("growgrow", string(db.get(bytes("d"))));
            assertNull(db.get(bytes("e")));
            assertNull(db.get(bytes("f")));
            assertEquals("keep", string(db.get(bytes("g"))));
            assertEquals("until-a", string(db.get(bytes("h"))));
            assertEquals("", string(db.get(bytes("i"))));
            assertEquals(List.of(), byText.failures);
        }
    }

    @Test
    void mergeOperandsAreFilteredAsOperands() {
        ByText byText = new ByText();
        DbOptions options = DbOptions.create().createIfMissing(true).mergeOperator("stringappend")
                .compactionFilter(byText);
        try (RocksDb db = RocksDb.open(dir.resolve("operands"), options)) {
            // Snapshots between the merges keep the operands apart through the flush.
            List<Snapshot> snapshots = new CopyOnWriteArrayList<>();
            for (String operand : List.of("one", "remove", "change")) {
                db.merge(bytes("k"), bytes(operand));
                snapshots.add(db.snapshot());
            }
            db.flush();
            snapshots.forEach(Snapshot::close);
            db.compactRange();
            assertEquals("one,changed", string(db.get(bytes("k"))));
            assertEquals(List.of("MERGE_OPERAND:k=change", "MERGE_OPERAND:k=remove", "MERGE_OPERAND:k=one"),
                    byText.asked);
        }
    }

    @Test
    void aThrowingFilterKeepsTheEntryAndTellsItsFactory() {
        ByText byText = new ByText();
        try (RocksDb db = open("throwing", byText)) {
            db.put(bytes("a"), bytes("throw"));
            db.put(bytes("b"), bytes("remove"));
            db.compactRange();
            assertEquals("throw", string(db.get(bytes("a"))));
            assertNull(db.get(bytes("b")), "the compaction went on past the failure");
            assertEquals(1, byText.failures.size());
            assertEquals("this filter fails on a", byText.failures.get(0).getMessage());
        }
    }

    @Test
    void aFactoryThatThrowsOrGivesNoFilterLeavesTheCompactionUnfiltered() {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CompactionFilterFactory throwing = new CompactionFilterFactory() {
            @Override
            public String name() {
                return "test.Throwing";
            }

            @Override
            public CompactionFilter newFilter(CompactionFilter.Context context) {
                throw new StackOverflowError("made up");
            }

            @Override
            public void failed(Throwable failure) {
                failures.add(failure);
                throw new IllegalStateException("ignored");
            }
        };
        try (RocksDb db = open("throwing-factory", throwing)) {
            db.put(bytes("a"), bytes("v"));
            db.compactRange();
            assertEquals("v", string(db.get(bytes("a"))));
            assertEquals(1, failures.size());
            assertInstanceOf(StackOverflowError.class, failures.get(0));
        }
        CompactionFilterFactory none = new CompactionFilterFactory() {
            @Override
            public String name() {
                return "test.None";
            }

            @Override
            public CompactionFilter newFilter(CompactionFilter.Context context) {
                return null;
            }
        };
        try (RocksDb db = open("no-filter", none)) {
            db.put(bytes("a"), bytes("v"));
            db.compactRange();
            assertEquals("v", string(db.get(bytes("a"))));
        }
    }

    @Test
    void viewsAndDecisionsDieWithTheirCallAndADecisionIsMadeOnce() {
        AtomicReference<MemorySegment> keptKey = new AtomicReference<>();
        AtomicReference<CompactionFilter.Decision> keptDecision = new AtomicReference<>();
        AtomicReference<Throwable> second = new AtomicReference<>();
        CompactionFilterFactory keeper = CompactionFilterFactory.of("test.Keeper", (key, kind, value, decision) -> {
            keptKey.set(key);
            keptDecision.set(decision);
            decision.remove();
            second.set(assertThrows(IllegalStateException.class, () -> decision.changeValue(bytes("x"))));
            assertThrows(IllegalArgumentException.class, () -> value.set(ValueLayout.JAVA_BYTE, 0, (byte) 1),
                    "the value is read-only");
        });
        try (RocksDb db = open("keeper", keeper)) {
            db.put(bytes("a"), bytes("v"));
            db.compactRange();
            assertNull(db.get(bytes("a")), "the first decision holds");
            assertTrue(second.get().getMessage().contains("once"), second.get().getMessage());
            // RocksDB's compaction thread made them: here they are another thread's.
            assertThrows(WrongThreadException.class, () -> keptKey.get().get(ValueLayout.JAVA_BYTE, 0));
            assertThrows(WrongThreadException.class, () -> keptDecision.get().remove());
        }
    }

    @Test
    void aFilterCallingPinrockIsRefusedAndTheEntryKept() {
        AtomicReference<RocksDb> database = new AtomicReference<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CompactionFilterFactory reentrant = new CompactionFilterFactory() {
            @Override
            public String name() {
                return "test.Reentrant";
            }

            @Override
            public CompactionFilter newFilter(CompactionFilter.Context context) {
                return (key, kind, value, decision) -> {
                    database.get().get(key.toArray(ValueLayout.JAVA_BYTE));
                    decision.remove();
                };
            }

            @Override
            public void failed(Throwable failure) {
                failures.add(failure);
            }
        };
        try (RocksDb db = open("reentrant", reentrant)) {
            database.set(db);
            db.put(bytes("a"), bytes("v"));
            db.compactRange();
            assertEquals("v", string(db.get(bytes("a"))));
            assertEquals(1, failures.size());
            assertInstanceOf(IllegalStateException.class, failures.get(0));
        }
    }

    @Test
    void aFamilyFiltersWithItsOwnFactory() {
        ByText byText = new ByText();
        try (RocksDb db = RocksDb.open(dir.resolve("families"), DbOptions.create().createIfMissing(true))) {
            ColumnFamily filtered = db.createColumnFamily("filtered", DbOptions.create().compactionFilter(byText));
            filtered.put(bytes("a"), bytes("remove"));
            db.put(bytes("a"), bytes("remove"));
            filtered.compactRange();
            db.compactRange();
            assertNull(filtered.get(bytes("a")));
            assertEquals("remove", string(db.get(bytes("a"))));
        }
    }

    @Test
    void aDatabaseFilteredOnceReopensWithOrWithoutItAndItsOptionsDoNotLoad() {
        ByText byText = new ByText();
        try (RocksDb db = open("reopened", byText)) {
            db.put(bytes("a"), bytes("remove"));
        }
        RocksDbException refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> DbOptions.loadLatest(dir.resolve("reopened")));
        assertTrue(refused.getMessage().contains("test.ByText"), refused.getMessage());
        try (RocksDb db = RocksDb.open(dir.resolve("reopened"), DbOptions.create())) {
            db.compactRange();
            assertEquals("remove", string(db.get(bytes("a"))));
        }
        try (RocksDb db = RocksDb.open(dir.resolve("reopened"), DbOptions.create().compactionFilter(byText))) {
            db.compactRange();
            assertNull(db.get(bytes("a")));
        }
    }

    @Test
    void namesOutOfRangeAreRefusedAtOpen() {
        for (String name : List.of("", "a b", "x".repeat(256), "a;b=c")) {
            CompactionFilterFactory named = CompactionFilterFactory.of(name, (key, kind, value, decision) -> { });
            RocksDbException e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> open("named", named).close(), name);
            assertTrue(e.getMessage().contains("compaction filter's name"), e.getMessage());
        }
    }
}
