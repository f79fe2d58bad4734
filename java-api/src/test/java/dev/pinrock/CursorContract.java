package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.pinrock.internal.Binding;

/** Part of the contract, run once per binding; see {@link BindingContract}. */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class CursorContract extends OpenDatabaseContract {
    CursorContract(Binding binding) {
        super(binding);
    }

    private void putAll(String... keys) {
        for (String key : keys) {
            db.put(bytes(key), bytes("v" + key));
        }
    }

    private static String text(MemorySegment segment) {
        return new String(segment.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Every key the cursor walks from first to last. */
    private static List<String> forward(Cursor cursor) {
        List<String> keys = new ArrayList<>();
        for (boolean on = cursor.first(); on; on = cursor.next()) {
            keys.add(text(cursor.keyBytes()));
        }
        return keys;
    }

    @Test
    void aCursorWalksTheKeysInOrderInBothDirections() {
        putAll("b", "d", "a", "c");
        try (Cursor cursor = db.cursor()) {
            assertFalse(cursor.isValid());
            assertEquals(List.of("a", "b", "c", "d"), forward(cursor));
            assertFalse(cursor.isValid());
            assertTrue(cursor.last());
            assertEquals("d", text(cursor.key()));
            assertEquals("vd", text(cursor.value()));
            assertTrue(cursor.prev());
            assertEquals("c", text(cursor.keyBytes()));
            assertTrue(cursor.seek(bytes("bb")));
            assertEquals("c", text(cursor.key()));
            assertTrue(cursor.seekForPrev(bytes("bb")));
            assertEquals("b", text(cursor.key()));
            assertFalse(cursor.seek(bytes("e")));
            assertFalse(cursor.seekForPrev(bytes("")));
        }
    }

    @Test
    void seeksTakeNativeAndHeapSegments() {
        putAll("a", "b");
        try (Cursor cursor = db.cursor(); Arena arena = Arena.ofConfined()) {
            assertTrue(cursor.seek(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("b"))));
            assertEquals("b", text(cursor.key()));
            assertTrue(cursor.seekForPrev(MemorySegment.ofArray(bytes("az"))));
            assertEquals("a", text(cursor.key()));
        }
    }

    @Test
    void steppingOrReadingOffTheEntriesIsRefused() {
        putAll("a");
        try (Cursor cursor = db.cursor()) {
            assertThrows(IllegalStateException.class, cursor::next);
            assertThrows(IllegalStateException.class, cursor::prev);
            assertThrows(IllegalStateException.class, cursor::key);
            assertThrows(IllegalStateException.class, cursor::valueBytes);
            assertTrue(cursor.first());
            assertFalse(cursor.next());
            var e = assertThrows(IllegalStateException.class, cursor::next);
            assertTrue(e.getMessage().contains("on no entry"), e.getMessage());
        }
    }

    @Test
    void aViewThrowsOnceTheCursorMovesInsteadOfReadingStaleMemory() {
        putAll("a", "b");
        try (Cursor cursor = db.cursor()) {
            cursor.first();
            MemorySegment key = cursor.key();
            MemorySegment value = cursor.value();
            assertTrue(key.isReadOnly());
            assertThrows(IllegalArgumentException.class, () -> value.set(ValueLayout.JAVA_BYTE, 0, (byte) 0));
            cursor.next();
            assertThrows(IllegalStateException.class, () -> key.get(ValueLayout.JAVA_BYTE, 0));
            assertThrows(IllegalStateException.class, () -> value.get(ValueLayout.JAVA_BYTE, 0));
            MemorySegment last = cursor.key();
            cursor.close();
            assertThrows(IllegalStateException.class, () -> last.get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    @Test
    void viewsAreConfinedAndPinTheCursorToTheirThreadUntilItMoves() throws Exception {
        putAll("a", "b");
        Cursor cursor = db.cursor();
        cursor.first();
        MemorySegment key = cursor.key();
        CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
            assertThrows(WrongThreadException.class, () -> key.get(ValueLayout.JAVA_BYTE, 0));
            assertThrows(IllegalStateException.class, cursor::next);
            assertThrows(IllegalStateException.class, cursor::close);
            // New views would be in the owner's arena: refused as moves are, not WrongThreadException.
            var e = assertThrows(IllegalStateException.class, cursor::key);
            assertTrue(e.getMessage().contains("views of this cursor's entry are open on"), e.getMessage());
            assertThrows(IllegalStateException.class, cursor::value);
            assertArrayEquals(bytes("a"), cursor.keyBytes());  // copies are fine
        });
        other.get();
        assertTrue(cursor.isOpen());
        assertTrue(cursor.next());  // the owner moves on; now any thread may use it
        CompletableFuture.runAsync(cursor::close).get();
        assertFalse(cursor.isOpen());
    }

    @Test
    void closingTheDatabaseUnderAnotherThreadsViewsIsRefusedAndLeavesItUsable() throws Exception {
        putAll("a");
        Cursor cursor = db.cursor();
        CountDownLatch viewing = new CountDownLatch(1);
        CountDownLatch move = new CountDownLatch(1);
        Throwable[] viewerFailure = new Throwable[1];
        Thread viewer = Thread.ofPlatform().start(() -> {
            try {
                cursor.first();
                cursor.key();
                viewing.countDown();
                move.await();
                cursor.next();
            } catch (Throwable t) {
                viewerFailure[0] = t;
                viewing.countDown();
            }
        });
        try {
            viewing.await();
            assertThrows(IllegalStateException.class, db::close);
            assertTrue(db.isOpen());
            assertTrue(cursor.isOpen());
            assertArrayEquals(bytes("va"), db.get(bytes("a")));
            assertThrows(RocksDbException.RocksIoException.class, () -> open(dir.resolve("db"), DbOptions.create()));
        } finally {
            move.countDown();
            viewer.join();
        }
        assertNull(viewerFailure[0]);
        db.close();  // now finishes: the cursor, then the database and its lock
        assertFalse(cursor.isOpen());
        db = open(dir.resolve("db"), DbOptions.create());
    }

    @Test
    void aMoveDuringAnotherCallOnTheCursorIsRefused() {
        putAll("a", "b", "c");
        try (Cursor cursor = db.cursor()) {
            var e = assertThrows(IllegalStateException.class, () -> cursor.scan(3, (key, value) -> cursor.next()));
            assertTrue(e.getMessage().contains("in use by its own scan visitor"), e.getMessage());
            assertTrue(cursor.first());  // usable again once the scan returned
            assertEquals("a", text(cursor.key()));
        }
    }

    @Test
    void boundsAndPrefixLimitTheKeysSeen() {
        putAll("a", "ab", "abc", "abd", "b", "c");
        try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.lowerBound(bytes("ab")).upperBound(bytes("b")))) {
            assertEquals(List.of("ab", "abc", "abd"), forward(cursor));
            assertTrue(cursor.last());
            assertEquals("abd", text(cursor.key()));
            assertTrue(cursor.seek(bytes("")));
            assertEquals("ab", text(cursor.key()));
        }
        try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(bytes("ab")))) {
            assertEquals(List.of("ab", "abc", "abd"), forward(cursor));
        }
        try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(new byte[0]))) {
            assertEquals(6, forward(cursor).size());
        }
    }

    /**
     * With a prefix extractor and a Bloom filter, RocksDB's auto_prefix_mode probed a table file's
     * filter for the seek's prefix when the upper bound was the prefix's same-length successor;
     * reaching it through a carry ("a\xff" to "b\0") lets keys shorter than the prefix into the
     * range ("b"), and a cursor skipped them with each file lacking the prefix. Every cursor, over
     * random bounds and seeks, sees what a filter-free scan sees within its bounds.
     */
    @ParameterizedTest
    @ValueSource(strings = {"fixed", "capped"})
    void prefixFilteredCursorsSeeEveryKeyWithinAnyBounds(String extractor) {
        DbOptions options = DbOptions.create().createIfMissing(true).bloomFilter(10)
                .familyOptions("disable_auto_compactions=true");
        options = extractor.equals("fixed") ? options.fixedPrefix(2) : options.cappedPrefix(2);
        Random random = new Random(7);
        TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
        try (RocksDb prefixed = open(dir.resolve("prefixed"), options)) {
            // Each group in a table file of its own, so that a filter can skip a file lacking a
            // prefix; the first, "b" alone, is the example of the bounds ["a\xff", "b\0").
            for (int file = 0; file < 25; file++) {
                for (int n = file == 0 ? 1 : 1 + random.nextInt(2); n > 0; n--) {
                    byte[] key = file == 0 ? bytes("b") : randomKey(random, 1);
                    prefixed.put(key, bytes("v"));
                    keys.add(key);
                }
                prefixed.flush();
            }
            List<byte[][]> bounds = new ArrayList<>();
            bounds.add(new byte[][] {{'a', (byte) 0xff}, {'b', 0}, {}});
            for (int i = 0; i < 1000; i++) {
                bounds.add(new byte[][] {random.nextBoolean() ? randomKey(random, 0) : null,
                        random.nextBoolean() ? randomKey(random, 0) : null, randomKey(random, 0)});
            }
            for (byte[][] bound : bounds) {
                byte[] lower = bound[0];
                byte[] upper = bound[1];
                byte[] seek = bound[2];
                ReadOptions read = ReadOptions.DEFAULT;
                read = lower == null ? read : read.lowerBound(lower);
                read = upper == null ? read : read.upperBound(upper);
                List<String> expected = new ArrayList<>();
                for (byte[] key : keys) {
                    if ((lower == null || Arrays.compareUnsigned(key, lower) >= 0)
                            && (upper == null || Arrays.compareUnsigned(key, upper) < 0)
                            && Arrays.compareUnsigned(key, seek) >= 0) {
                        expected.add(HexFormat.of().formatHex(key));
                    }
                }
                List<String> seen = new ArrayList<>();
                try (Cursor cursor = prefixed.cursor(read)) {
                    for (boolean on = cursor.seek(seek); on; on = cursor.next()) {
                        seen.add(HexFormat.of().formatHex(cursor.keyBytes()));
                    }
                }
                assertEquals(expected, seen, () -> "bounds [" + hex(lower) + ", " + hex(upper) + ") seek "
                        + hex(seek));
            }
        }
    }

    /**
     * A random key of minLength to 3 bytes over 0x00, 'a', 'b' and 0xff: keys shorter than a prefix
     * of 2, and prefixes whose successor carries ("a\xff" to "b\0").
     */
    private static byte[] randomKey(Random random, int minLength) {
        byte[] alphabet = {0, 'a', 'b', (byte) 0xff};
        byte[] key = new byte[minLength + random.nextInt(4 - minLength)];
        for (int i = 0; i < key.length; i++) {
            key[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return key;
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? "none" : HexFormat.of().formatHex(bytes);
    }

    @Test
    void prefixOfFfBytesHasNoUpperBound() {
        byte[] ff = {(byte) 0xff};
        byte[] ffff = {(byte) 0xff, (byte) 0xff};
        db.put(bytes("a"), bytes("x"));
        db.put(ff, bytes("y"));
        db.put(ffff, bytes("z"));
        assertArrayEquals(new byte[] {1}, ReadOptions.prefixEnd(new byte[] {0, (byte) 0xff}));
        try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(ff))) {
            List<KeyValue> entries = cursor.stream().toList();
            assertEquals(List.of(new KeyValue(ff, bytes("y")), new KeyValue(ffff, bytes("z"))), entries);
        }
    }

    @Test
    void aCursorKeepsTheViewItOpenedWith() {
        putAll("a");
        Snapshot snapshot = db.snapshot();
        db.put(bytes("a"), bytes("changed"));
        try (Cursor latest = db.cursor(); Cursor past = db.cursor(ReadOptions.DEFAULT.snapshot(snapshot))) {
            snapshot.close();  // the cursor keeps its view
            db.put(bytes("b"), bytes("new"));
            assertEquals(List.of("a"), forward(latest));
            assertTrue(latest.first());
            assertEquals("changed", text(latest.valueBytes()));
            assertTrue(past.first());
            assertEquals("va", text(past.valueBytes()));
            assertFalse(past.next());
        }
    }

    @Test
    void readOptionsReachTheCursor() {
        putAll("k");
        db.flush();
        db.close();
        db = open(dir.resolve("db"), DbOptions.create());
        ReadOptions memoryOnly = ReadOptions.DEFAULT.memoryOnly(true);
        try (Cursor cursor = db.cursor(memoryOnly)) {
            var e = assertThrows(RocksDbException.class, cursor::first);
            assertEquals(StatusCode.INCOMPLETE, e.code());
        }
        ReadOptions tuned = ReadOptions.DEFAULT.fillCache(false).verifyChecksums(false).readaheadBytes(1 << 20)
                .asyncIo(true);
        try (Cursor cursor = db.cursor(tuned)) {
            assertEquals(List.of("k"), forward(cursor));
        }
        assertThrows(IllegalArgumentException.class, () -> ReadOptions.DEFAULT.readaheadBytes(-1));
    }

    @Test
    void aTailingCursorSeesLaterWritesAndMovesForwardOnly() {
        putAll("a");
        try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.tailing(true).upperBound(bytes("y")))) {
            assertEquals(List.of("a"), forward(cursor));
            putAll("b", "z");
            db.flush();
            putAll("c");
            // A seek reads the latest state, without a refresh, within the bounds.
            assertTrue(cursor.seek(bytes("b")));
            assertEquals("b", text(cursor.key()));
            assertTrue(cursor.next());
            assertEquals("c", text(cursor.key()));
            assertFalse(cursor.next());
            assertTrue(cursor.seek(bytes("b")));
            for (Executable backward : List.<Executable>of(cursor::last, cursor::prev,
                    () -> cursor.seekForPrev(bytes("c")), () -> cursor.scanReverse(2, (k, v) -> { }))) {
                assertEquals(StatusCode.NOT_SUPPORTED, assertThrows(RocksDbException.class, backward).code());
            }
            // Each refused move left the cursor where it was.
            assertTrue(cursor.next());
            assertEquals("c", text(cursor.key()));
            assertEquals(StatusCode.NOT_SUPPORTED, assertThrows(RocksDbException.class, cursor::refresh).code());
        }
        try (Snapshot snapshot = db.snapshot()) {
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> db.cursor(ReadOptions.DEFAULT.tailing(true).snapshot(snapshot)));
        }
    }

    @Test
    void scanVisitsManyEntriesPerCallAndLeavesTheCursorAfterThem() {
        for (int i = 0; i < 5000; i++) {
            db.put(bytes(String.format("k%05d", i)), bytes("value" + i));
        }
        try (Cursor cursor = db.cursor()) {
            List<String> seen = new ArrayList<>();
            // Never placed: the scan starts at the first key.
            assertEquals(3000, cursor.scan(3000, (key, value) -> seen.add(text(key) + "=" + text(value))));
            assertEquals("k00000=value0", seen.get(0));
            assertEquals("k02999=value2999", seen.get(2999));
            assertTrue(cursor.isValid());
            assertEquals("k03000", text(cursor.key()));
            assertEquals(2000, cursor.scan(Long.MAX_VALUE, (key, value) -> seen.add(text(key))));
            assertEquals("k04999", seen.getLast());
            assertFalse(cursor.isValid());
            assertEquals(0, cursor.scan(10, (key, value) -> seen.add("more")));
            assertTrue(cursor.seek(bytes("k00010")));
            List<String> reverse = new ArrayList<>();
            assertEquals(11, cursor.scanReverse(100, (key, value) -> reverse.add(text(key))));
            assertEquals("k00010", reverse.getFirst());
            assertEquals("k00000", reverse.getLast());
        }
    }

    /** The key and value a batch is on, read through its segment and offsets and through its views. */
    private static String entryText(Cursor.Batch batch) {
        MemorySegment entries = batch.segment();
        String key = text(entries.asSlice(batch.keyOffset(), batch.keyLength()));
        String value = text(entries.asSlice(batch.valueOffset(), batch.valueLength()));
        assertEquals(key, text(batch.key()));
        assertEquals(value, text(batch.value()));
        return key + "=" + value;
    }

    @Test
    void scanBatchesShowsBatchesToStepThroughAndLeavesTheCursorAfterThem() {
        String filler = "v".repeat(100);
        for (int i = 0; i < 5000; i++) {
            db.put(bytes(String.format("k%05d", i)), bytes(filler + i));
        }
        try (Cursor cursor = db.cursor()) {
            List<String> seen = new ArrayList<>();
            List<Long> sizes = new ArrayList<>();
            // Never placed: the scan starts at the first key.
            assertEquals(3000, cursor.scanBatches(3000, batch -> {
                long before = seen.size();
                while (batch.next()) {
                    seen.add(entryText(batch));
                }
                assertFalse(batch.next());
                assertEquals(batch.size(), seen.size() - before);
                sizes.add(batch.size());
            }));
            assertTrue(sizes.size() > 1, "3000 entries of 100 B fill more than one buffer: " + sizes);
            assertEquals(3000, seen.size());
            assertEquals("k00000=" + filler + 0, seen.get(0));
            assertEquals("k02999=" + filler + 2999, seen.get(2999));
            assertEquals("k03000", text(cursor.key()));
            // A visitor that reads nothing still moves the cursor past its batches.
            assertEquals(2000, cursor.scanBatches(Long.MAX_VALUE, batch -> { }));
            assertFalse(cursor.isValid());
            assertEquals(0, cursor.scanBatches(10, batch -> seen.add("more")));
            assertTrue(cursor.seek(bytes("k00010")));
            List<String> reverse = new ArrayList<>();
            assertEquals(11, cursor.scanBatchesReverse(100, batch -> {
                while (batch.next()) {
                    reverse.add(text(batch.key()));
                }
            }));
            assertEquals("k00010", reverse.getFirst());
            assertEquals("k00000", reverse.getLast());
        }
    }

    @Test
    void aBatchIsReadOnlyOnThisThreadAndGoneWhenItsVisitorReturns() {
        putAll("a", "b");
        List<Cursor.Batch> kept = new ArrayList<>();
        List<MemorySegment> views = new ArrayList<>();
        try (Cursor cursor = db.cursor()) {
            cursor.scanBatches(10, batch -> {
                assertEquals(2, batch.size());
                assertThrows(IllegalStateException.class, batch::key);  // before the first next()
                assertThrows(IllegalStateException.class, batch::valueOffset);
                assertTrue(batch.next());
                MemorySegment first = batch.key();
                assertTrue(batch.next());
                assertEquals("a", text(first));  // earlier entries stay readable
                assertEquals("vb", text(batch.value()));
                assertTrue(batch.segment().isReadOnly());
                assertTrue(batch.value().isReadOnly());
                assertThrows(IllegalArgumentException.class,
                        () -> batch.segment().set(ValueLayout.JAVA_BYTE, batch.valueOffset(), (byte) 0));
                CompletableFuture<Void> other = CompletableFuture.runAsync(() -> first.get(ValueLayout.JAVA_BYTE, 0));
                var e = assertThrows(Exception.class, other::get);
                assertTrue(e.getCause() instanceof WrongThreadException, e.toString());
                assertFalse(batch.next());
                assertFalse(batch.next());
                assertThrows(IllegalStateException.class, batch::value);  // after the last
                assertThrows(IllegalStateException.class, batch::keyLength);
                views.add(first);
                kept.add(batch);
            });
        }
        assertThrows(IllegalStateException.class, () -> views.get(0).get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> kept.get(0).segment().get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> kept.get(0).next());
    }

    @Test
    void theNextCursorReusesAClosedCursorsScanMemoryWithoutShowingItsEntries() {
        // One entry larger than any pooled scan buffer, then many small ones.
        db.put(bytes("big"), new byte[100_000]);
        for (int i = 0; i < 200; i++) {
            db.put(bytes(String.format("s%03d", i)), bytes("v" + i));
        }
        List<Cursor.Batch> kept = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            List<String> seen = new ArrayList<>();
            try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(bytes("s")))) {
                cursor.scanBatches(Long.MAX_VALUE, batch -> {
                    while (batch.next()) {
                        seen.add(entryText(batch));
                    }
                    kept.add(batch);
                });
            }
            assertEquals(200, seen.size());
            assertEquals("s000=v0", seen.getFirst());
            assertEquals("s199=v199", seen.getLast());
            try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(bytes("b")))) {
                long[] bigValue = {-1};
                assertEquals(1, cursor.scanBatches(Long.MAX_VALUE, batch -> {
                    assertTrue(batch.next());
                    bigValue[0] = batch.valueLength();
                    kept.add(batch);
                }));
                assertEquals(100_000, bigValue[0]);
            }
        }
        // No batch of a closed cursor reads the memory the later cursors used.
        for (Cursor.Batch batch : kept) {
            assertThrows(IllegalStateException.class, () -> batch.segment().get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    @Test
    void aBatchVisitorCannotUseItsCursorAndWhatItThrowsReachesTheCaller() {
        putAll("a", "b", "c");
        try (Cursor cursor = db.cursor()) {
            var refused = assertThrows(IllegalStateException.class,
                    () -> cursor.scanBatches(3, batch -> cursor.next()));
            assertTrue(refused.getMessage().contains("in use by its own scan visitor or reader"), refused.getMessage());
            assertFalse(cursor.isValid());  // the refused call came after the cursor moved past its batch
            assertTrue(cursor.first());
            RuntimeException failure = new UnsupportedOperationException("visitor failed");
            assertSame(failure, assertThrows(RuntimeException.class, () -> cursor.scanBatches(3, batch -> {
                throw failure;
            })));
            assertFalse(cursor.isValid());  // past the whole batch
            assertThrows(IllegalArgumentException.class, () -> cursor.scanBatches(-1, batch -> { }));
        }
    }

    @Test
    void scanViewsAreValidDuringTheCallbackOnly() {
        putAll("a", "b");
        List<MemorySegment> kept = new ArrayList<>();
        try (Cursor cursor = db.cursor()) {
            cursor.scan(10, (key, value) -> {
                assertTrue(key.isReadOnly());
                kept.add(key);
            });
        }
        assertEquals(2, kept.size());
        assertThrows(IllegalStateException.class, () -> kept.get(0).get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void readShowsTheCurrentEntryForTheCallOnly() throws Exception {
        putAll("a", "b");
        List<MemorySegment> kept = new ArrayList<>();
        try (Cursor cursor = db.cursor()) {
            assertThrows(IllegalStateException.class, () -> cursor.read((key, value) -> kept.add(key)));
            assertTrue(kept.isEmpty());
            cursor.first();
            cursor.read((key, value) -> {
                assertEquals("a", text(key));
                assertEquals("va", text(value));
                assertTrue(key.isReadOnly());
                assertThrows(IllegalArgumentException.class, () -> value.set(ValueLayout.JAVA_BYTE, 0, (byte) 0));
                kept.add(key);
                kept.add(value);
            });
            assertThrows(IllegalStateException.class, () -> kept.get(0).get(ValueLayout.JAVA_BYTE, 0));
            assertThrows(IllegalStateException.class, () -> kept.get(1).get(ValueLayout.JAVA_BYTE, 0));
            assertEquals("a", text(cursor.keyBytes()));  // the cursor stays on its entry
            assertTrue(cursor.next());
            cursor.read((key, value) -> {
                assertEquals("vb", text(value));
                CompletableFuture<Void> other = CompletableFuture.runAsync(() -> key.get(ValueLayout.JAVA_BYTE, 0));
                var e = assertThrows(Exception.class, other::get);
                assertTrue(e.getCause() instanceof WrongThreadException, e.toString());
            });
        }
    }

    @Test
    void aReaderCannotUseItsCursorAndWhatItThrowsReachesTheCaller() {
        putAll("a", "b");
        try (Cursor cursor = db.cursor()) {
            cursor.first();
            var refused = assertThrows(IllegalStateException.class, () -> cursor.read((key, value) -> cursor.next()));
            assertTrue(refused.getMessage().contains("in use by its own scan visitor or reader"), refused.getMessage());
            assertThrows(IllegalStateException.class, () -> cursor.read((key, value) -> cursor.isValid()));
            RuntimeException failure = new UnsupportedOperationException("reader failed");
            assertSame(failure, assertThrows(RuntimeException.class, () -> cursor.read((key, value) -> {
                throw failure;
            })));
            assertEquals("a", text(cursor.keyBytes()));
            assertTrue(cursor.next());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void neitherTheCursorNorItsDatabaseClosesFromTheCursorsOwnCallbacks() {
        putAll("a", "b", "c", "d", "e");  // each round reads one entry and scans past two
        Cursor cursor = db.cursor();
        cursor.first();
        for (Runnable close : List.<Runnable>of(cursor::close, db::close)) {
            var e = assertThrows(IllegalStateException.class, () -> cursor.read((key, value) -> close.run()));
            assertTrue(e.getMessage().contains("own scan visitor or reader"), e.getMessage());
            e = assertThrows(IllegalStateException.class, () -> cursor.scan(1, (key, value) -> close.run()));
            assertTrue(e.getMessage().contains("own scan visitor or reader"), e.getMessage());
            e = assertThrows(IllegalStateException.class, () -> cursor.scanBatches(1, batch -> close.run()));
            assertTrue(e.getMessage().contains("own scan visitor or reader"), e.getMessage());
        }
        assertTrue(cursor.isOpen());
        assertTrue(db.isOpen());
        assertArrayEquals(bytes("va"), db.get(bytes("a")));
        assertTrue(cursor.first());
        cursor.close();  // once the calls have returned
        assertFalse(cursor.isOpen());
    }

    @Test
    void scanGrowsItsBufferForLargeEntries() {
        byte[] large = new byte[1 << 20];
        large[large.length - 1] = 7;
        db.put(bytes("big"), large);
        db.put(bytes("small"), bytes("s"));
        try (Cursor cursor = db.cursor()) {
            List<Long> sizes = new ArrayList<>();
            cursor.scan(10, (key, value) -> sizes.add(value.byteSize()));
            assertEquals(List.of((long) large.length, 1L), sizes);
        }
        try (Cursor cursor = db.cursor()) {
            assertEquals(List.of(new KeyValue(bytes("big"), large), new KeyValue(bytes("small"), bytes("s"))),
                    cursor.stream().toList());
        }
    }

    @Test
    void streamsAndIteratorsCopyEntriesInBothDirections() {
        List<String> keys = IntStream.range(0, 2500).mapToObj(i -> String.format("%04d", i)).toList();
        keys.forEach(k -> db.put(bytes(k), bytes(k)));
        try (Cursor cursor = db.cursor()) {
            assertEquals(keys, cursor.stream().map(kv -> text(kv.key())).toList());
        }
        try (Cursor cursor = db.cursor()) {
            List<String> reversed = cursor.reverseStream().map(kv -> text(kv.value())).collect(Collectors.toList());
            assertEquals(keys.reversed(), reversed);
        }
        try (Cursor cursor = db.cursor()) {
            cursor.seek(bytes("2498"));
            Iterator<KeyValue> rest = cursor.iterator();
            assertEquals("2498", text(rest.next().key()));
            assertEquals("2499", text(rest.next().key()));
            assertFalse(rest.hasNext());
            assertThrows(NoSuchElementException.class, rest::next);
        }
    }

    @Test
    void valueCopiesIntoABuffer() {
        putAll("k");
        try (Cursor cursor = db.cursor()) {
            cursor.first();
            ByteBuffer small = ByteBuffer.allocate(1);
            assertEquals(2, cursor.value(small));
            assertEquals(1, small.limit());
            ByteBuffer dst = ByteBuffer.allocateDirect(8);
            assertEquals(2, cursor.value(dst));
            assertEquals(2, dst.limit());
            assertEquals('v', dst.get(0));
            assertThrows(ReadOnlyBufferException.class, () -> cursor.value(ByteBuffer.allocate(8).asReadOnlyBuffer()));
        }
    }

    @Test
    void aClosedCursorRefusesEveryCall() {
        putAll("a");
        Cursor cursor = db.cursor();
        cursor.close();
        cursor.close();
        assertFalse(cursor.isOpen());
        assertFalse(cursor.isValid());
        assertThrows(IllegalStateException.class, cursor::first);
        assertThrows(IllegalStateException.class, () -> cursor.seek(bytes("a")));
        assertThrows(IllegalStateException.class, cursor::keyBytes);
        assertThrows(IllegalStateException.class, () -> cursor.scan(1, (k, v) -> { }));
        assertThrows(IllegalStateException.class, () -> cursor.read((k, v) -> { }));
        assertThrows(IllegalStateException.class, () -> cursor.scanBatches(1, batch -> { }));
        assertThrows(IllegalStateException.class, () -> cursor.iterator().hasNext());
    }

    @Test
    void closingTheDatabaseClosesItsCursorsAndInvalidatesTheirViews() {
        putAll("a");
        Cursor cursor = db.cursor();
        cursor.first();
        MemorySegment key = cursor.key();
        Iterator<KeyValue> entries = db.cursor().iterator();
        db.close();
        assertFalse(cursor.isOpen());
        assertThrows(IllegalStateException.class, () -> key.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, cursor::next);
        assertThrows(IllegalStateException.class, entries::hasNext);
        cursor.close();
        assertThrows(IllegalStateException.class, db::cursor);
        db = open(dir.resolve("db"), DbOptions.create());  // closed cleanly: reopens
        assertArrayEquals(bytes("va"), db.get(bytes("a")));
    }

    @Test
    void closingTheDatabaseWaitsForACursorCallInFlight() throws Exception {
        putAll("a", "b");
        Cursor cursor = db.cursor();
        CountDownLatch inCallback = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Long> scan = CompletableFuture.supplyAsync(() -> cursor.scan(10, (k, v) -> {
            inCallback.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }));
        inCallback.await();
        CompletableFuture<Void> close = CompletableFuture.runAsync(db::close);
        Thread.sleep(50);
        assertFalse(close.isDone());
        release.countDown();
        assertEquals(2, scan.get());
        close.get();
        assertFalse(cursor.isOpen());
    }

    @Test
    void aVisitorClosesOtherCursorsAndSnapshotsWhileAnotherThreadClosesTheDatabase() {
        // A database of its own: a hang must not reach the closing of the shared one after the test.
        RocksDb closing = open(dir.resolve("closing"), DbOptions.create().createIfMissing(true));
        closing.put(bytes("a"), bytes("1"));
        Cursor scanned = closing.cursor();
        Cursor other = closing.cursor();
        Snapshot snapshot = closing.snapshot();
        Thread[] closer = new Thread[1];
        IllegalStateException[] closeFromVisitor = new IllegalStateException[1];
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            scanned.scan(1, (key, value) -> {
                closer[0] = Thread.ofPlatform().start(closing::close);
                while (closing.isOpen()) {
                    Thread.onSpinWait();  // until the other thread's close has begun
                }
                other.close();
                snapshot.close();
                closeFromVisitor[0] = assertThrows(IllegalStateException.class, closing::close);
            });
            closer[0].join();
        }, "a close from the visitor waited for the database's close, which waits for the visitor");
        assertTrue(closeFromVisitor[0].getMessage().contains("own scan visitor or reader"),
                closeFromVisitor[0].getMessage());
        assertFalse(other.isOpen());
        assertFalse(snapshot.isOpen());
        assertFalse(scanned.isOpen());
        assertFalse(closing.isOpen());
    }

    @Test
    void aCursorWithASnapshotOfAnotherDatabaseIsRejected() {
        try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true));
                Snapshot foreign = other.snapshot()) {
            assertThrows(IllegalArgumentException.class, () -> db.cursor(ReadOptions.DEFAULT.snapshot(foreign)));
        }
    }

    @Test
    void negativeScanLimitsAreRejected() {
        try (Cursor cursor = db.cursor()) {
            assertThrows(IllegalArgumentException.class, () -> cursor.scan(-1, (k, v) -> { }));
        }
    }

    @Test
    void refreshShowsTheWritesMadeSinceOpenWithinTheSameBounds() {
        putAll("a", "c");
        try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.lowerBound(bytes("b")).upperBound(bytes("d")))) {
            assertTrue(cursor.first());
            MemorySegment oldKey = cursor.key();
            db.put(bytes("b"), bytes("new"));
            db.put(bytes("c"), bytes("new"));
            db.put(bytes("d"), bytes("new"));
            db.flush();
            assertEquals("vc", text(cursor.valueBytes()), "the open view changed");
            assertFalse(cursor.next());
            cursor.refresh();
            assertFalse(cursor.isValid());
            assertThrows(IllegalStateException.class, cursor::next);
            assertThrows(IllegalStateException.class, () -> oldKey.get(ValueLayout.JAVA_BYTE, 0));
            List<String> seen = new ArrayList<>();
            // A scan after a refresh starts at the first key, as on a new cursor.
            cursor.scan(10, (key, value) -> seen.add(text(key) + "=" + text(value)));
            assertEquals(List.of("b=new", "c=new"), seen);
        }
    }

    @Test
    void refreshToASnapshotShowsItsStateAndOutlivesIt() {
        putAll("a");
        try (Cursor cursor = db.cursor()) {
            db.put(bytes("a"), bytes("then"));
            Snapshot snapshot = db.snapshot();
            db.put(bytes("a"), bytes("now"));
            cursor.refresh(snapshot);
            snapshot.close();
            assertTrue(cursor.first());
            assertEquals("then", text(cursor.valueBytes()));
            cursor.refresh();
            assertTrue(cursor.first());
            assertEquals("now", text(cursor.valueBytes()));
            assertThrows(IllegalStateException.class, () -> cursor.refresh(snapshot));
            assertTrue(cursor.isValid(), "a refused refresh moved the cursor");
            try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true));
                    Snapshot foreign = other.snapshot()) {
                assertThrows(IllegalArgumentException.class, () -> cursor.refresh(foreign));
            }
            assertThrows(NullPointerException.class, () -> cursor.refresh(null));
            assertTrue(cursor.isValid());
        }
    }

    @Test
    void aClosedCursorOrDatabaseRefusesRefresh() {
        Cursor cursor = db.cursor();
        cursor.close();
        assertThrows(IllegalStateException.class, cursor::refresh);
        Cursor open = db.cursor();
        db.close();
        assertThrows(IllegalStateException.class, open::refresh);
        db = open(dir.resolve("db"), DbOptions.create());
    }

    @Test
    void aRefusedStepChangesNothingNotEvenWhereAScanStarts() {
        putAll("a", "b");
        try (Cursor cursor = db.cursor()) {
            assertThrows(IllegalStateException.class, cursor::next);
            assertThrows(IllegalStateException.class, cursor::prev);
            List<String> seen = new ArrayList<>();
            cursor.scan(10, (key, value) -> seen.add(text(key)));
            assertEquals(List.of("a", "b"), seen, "a refused step placed the cursor");
        }
    }
}
