package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.KeyValue;
import dev.pinrock.Keyspace;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.Snapshot;
import dev.pinrock.WriteBatch;

/**
 * Many threads mixing reads, writes, batches and scans on one database while
 * flushes and compactions run beside them, with invariants checked as they
 * go: money moved between accounts in write batches never appears or
 * vanishes under snapshot reads, and threads writing their own key ranges in
 * every access mode always read back what they wrote.
 *
 * <p>Small memtables make the background flushes and compactions frequent.
 * {@code -Dpinrock.stress.transfers} and {@code -Dpinrock.stress.operations}
 * lengthen the run; {@code -Dpinrock.stress.seed} replays one.
 */
class ConcurrencyStressTest {
    private static final int ACCOUNTS = 100;
    private static final long OPENING_BALANCE = 1000;
    private static final long TOTAL = ACCOUNTS * OPENING_BALANCE;
    private static final int TRANSFER_THREADS = 3;
    private static final int AUDITORS = 2;
    private static final int TRANSFERS_PER_THREAD = Integer.getInteger("pinrock.stress.transfers", 20_000);
    private static final int MODEL_THREADS = 4;
    private static final int OPERATIONS_PER_THREAD = Integer.getInteger("pinrock.stress.operations", 50_000);
    private static final long SEED = Long.getLong("pinrock.stress.seed", System.nanoTime());

    @TempDir
    Path dir;

    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

    private static DbOptions options() {
        return DbOptions.create().createIfMissing(true).writeBufferBytes(256 << 10);
    }

    @Test
    void bankTransfersInWriteBatchesKeepTheTotalUnderSnapshotReads() throws InterruptedException {
        System.out.println("ConcurrencyStressTest seed " + SEED + " (replay with -Dpinrock.stress.seed=" + SEED + ")");
        try (RocksDb db = RocksDb.open(dir.resolve("bank"), options())) {
            try (WriteBatch opening = new WriteBatch()) {
                for (int a = 0; a < ACCOUNTS; a++) {
                    opening.put(account(a), balance(OPENING_BALANCE));
                }
                db.write(opening);
            }
            ReentrantLock[] locks = new ReentrantLock[ACCOUNTS];
            Arrays.setAll(locks, a -> new ReentrantLock());
            AtomicBoolean transferring = new AtomicBoolean(true);
            AtomicLong audits = new AtomicLong();
            AtomicLong moved = new AtomicLong();

            List<Thread> transferers = new ArrayList<>();
            for (int t = 0; t < TRANSFER_THREADS; t++) {
                SplittableRandom random = new SplittableRandom(SEED + t);
                int mode = t;
                transferers.add(start("transfer-" + t, () -> {
                    for (int i = 0; i < TRANSFERS_PER_THREAD; i++) {
                        moved.addAndGet(transfer(db, locks, random, mode + i));
                    }
                }));
            }
            List<Thread> others = new ArrayList<>();
            for (int t = 0; t < AUDITORS; t++) {
                int first = t;
                others.add(start("auditor-" + t, () -> {
                    for (int round = first; transferring.get(); round++) {
                        audit(db, round);
                        audits.incrementAndGet();
                    }
                }));
            }
            others.add(start("maintenance", () -> maintain(db, transferring)));

            joinAll(transferers);
            transferring.set(false);
            joinAll(others);
            assertNoFailures();

            audit(db, 0);
            System.out.printf("%d transfers moved %d in total; %d snapshot audits saw %d each time%n",
                    TRANSFER_THREADS * TRANSFERS_PER_THREAD, moved.get(), audits.get(), TOTAL);
            assertTrue(moved.get() > 0, "no money moved");
            assertTrue(audits.get() >= 10, "only " + audits.get() + " audits ran");
        }
    }

    /** Moves a random amount between two random accounts; returns the amount. */
    private static long transfer(RocksDb db, ReentrantLock[] locks, SplittableRandom random, int mode) {
        int from = random.nextInt(ACCOUNTS);
        int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
        ReentrantLock first = locks[Math.min(from, to)];
        ReentrantLock second = locks[Math.max(from, to)];
        first.lock();
        second.lock();
        try (Arena arena = Arena.ofConfined(); WriteBatch batch = new WriteBatch()) {
            long fromBalance = read(db, arena, from, mode);
            long toBalance = read(db, arena, to, mode + 1);
            long amount = fromBalance == 0 ? 0 : random.nextLong(fromBalance + 1);
            switch (mode % 3) {
                case 0 -> batch.put(account(from), balance(fromBalance - amount))
                        .put(account(to), balance(toBalance + amount));
                case 1 -> batch.put(ByteBuffer.wrap(account(from)), ByteBuffer.wrap(balance(fromBalance - amount)))
                        .put(ByteBuffer.wrap(account(to)), ByteBuffer.wrap(balance(toBalance + amount)));
                default -> batch.put(segment(arena, account(from)), segment(arena, balance(fromBalance - amount)))
                        .put(segment(arena, account(to)), segment(arena, balance(toBalance + amount)));
            }
            db.write(batch);
            return amount;
        } finally {
            second.unlock();
            first.unlock();
        }
    }

    /** Reads one account's latest balance through one of the access modes. */
    private static long read(RocksDb db, Arena arena, int account, int mode) {
        byte[] key = account(account);
        return switch (mode % 4) {
            case 0 -> toLong(db.get(key));
            case 1 -> {
                byte[] dst = new byte[8];
                assertEquals(8, db.get(key, dst));
                yield toLong(dst);
            }
            case 2 -> {
                ByteBuffer dst = ByteBuffer.allocateDirect(8);
                assertEquals(8, db.get(ByteBuffer.wrap(key), dst));
                yield dst.getLong(0);
            }
            default -> {
                MemorySegment pinned = db.getPinned(arena, key);
                assertEquals(8, pinned.byteSize());
                yield pinned.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 0);
            }
        };
    }

    /** Reads every account as of one snapshot, in a way chosen by round, and checks the total. */
    private static void audit(RocksDb db, int round) {
        try (Snapshot snapshot = db.snapshot()) {
            ReadOptions options = ReadOptions.DEFAULT.snapshot(snapshot);
            long[] balances = new long[ACCOUNTS];
            Arrays.fill(balances, -1);
            switch (round % 6) {
                case 0 -> {
                    try (Cursor cursor = db.cursor(options)) {
                        for (boolean on = cursor.first(); on; on = cursor.next()) {
                            record(balances, cursor.keyBytes(), cursor.valueBytes());
                        }
                    }
                }
                case 1 -> {
                    try (Cursor cursor = db.cursor(options)) {
                        for (boolean on = cursor.last(); on; on = cursor.prev()) {
                            record(balances, cursor.keyBytes(), cursor.valueBytes());
                        }
                    }
                }
                case 2 -> {
                    try (Cursor cursor = db.cursor(options)) {
                        cursor.first();
                        cursor.scan(Long.MAX_VALUE, (key, value) -> record(balances,
                                key.toArray(ValueLayout.JAVA_BYTE), value.toArray(ValueLayout.JAVA_BYTE)));
                    }
                }
                case 3 -> {
                    try (Cursor cursor = db.cursor(options)) {
                        cursor.stream().forEach(entry -> record(balances, entry.key(), entry.value()));
                    }
                }
                case 4 -> {
                    for (int a = 0; a < ACCOUNTS; a++) {
                        record(balances, account(a), db.get(options, account(a)));
                    }
                }
                default -> {
                    byte[] dst = new byte[8];
                    for (int a = 0; a < ACCOUNTS; a++) {
                        assertEquals(8, db.get(options, account(a), dst));
                        record(balances, account(a), dst.clone());
                    }
                }
            }
            long sum = 0;
            for (int a = 0; a < ACCOUNTS; a++) {
                assertTrue(balances[a] >= 0, "account " + a + " missing or negative: " + balances[a]);
                sum += balances[a];
            }
            assertEquals(TOTAL, sum, "audit mode " + round % 6 + " saw a total of " + sum);
        }
    }

    private static void record(long[] balances, byte[] key, byte[] value) {
        int a = Integer.parseInt(new String(key, StandardCharsets.US_ASCII).substring("account".length()));
        assertEquals(-1, balances[a], "account " + a + " seen twice");
        balances[a] = toLong(value);
    }

    @Test
    void threadsWritingTheirOwnKeysInEveryModeReadBackWhatTheyWrote() throws InterruptedException {
        System.out.println("ConcurrencyStressTest seed " + SEED + " (replay with -Dpinrock.stress.seed=" + SEED + ")");
        Path path = dir.resolve("models");
        List<TreeMap<String, byte[]>> models = new ArrayList<>();
        try (RocksDb db = RocksDb.open(path, options())) {
            AtomicBoolean working = new AtomicBoolean(true);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < MODEL_THREADS; t++) {
                TreeMap<String, byte[]> model = new TreeMap<>();
                models.add(model);
                ModelWorker worker = new ModelWorker(db, "t" + t + "/", model, new Random(SEED + 100 + t));
                workers.add(start("writer-" + t, worker::run));
            }
            Thread maintenance = start("maintenance", () -> maintain(db, working));
            joinAll(workers);
            working.set(false);
            joinAll(List.of(maintenance));
            assertNoFailures();
            assertHoldsExactly(db, models);
        }
        try (RocksDb db = RocksDb.open(path, DbOptions.create())) {
            assertHoldsExactly(db, models);
        }
    }

    /** Checks a walk over the whole database gives exactly the union of the models. */
    private static void assertHoldsExactly(RocksDb db, List<TreeMap<String, byte[]>> models) {
        TreeMap<String, byte[]> expected = new TreeMap<>();
        models.forEach(expected::putAll);
        List<String> keys = new ArrayList<>();
        try (Cursor cursor = db.cursor()) {
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                String key = new String(cursor.keyBytes(), StandardCharsets.US_ASCII);
                assertArrayEquals(expected.get(key), cursor.valueBytes(), key);
                keys.add(key);
            }
        }
        assertEquals(List.copyOf(expected.keySet()), keys);
        System.out.println(keys.size() + " keys match the models");
    }

    /**
     * One thread's random mix of operations on keys under its own prefix,
     * each checked against a model of what the thread wrote.
     */
    private final class ModelWorker {
        private static final int KEYS = 500;

        private final RocksDb db;
        private final String prefix;
        private final TreeMap<String, byte[]> model;
        private final Random random;

        ModelWorker(RocksDb db, String prefix, TreeMap<String, byte[]> model, Random random) {
            this.db = db;
            this.prefix = prefix;
            this.model = model;
            this.random = random;
        }

        void run() {
            for (int i = 0; i < OPERATIONS_PER_THREAD; i++) {
                try (Arena arena = Arena.ofConfined()) {
                    step(arena, random.nextInt(100));
                }
            }
        }

        private void step(Arena arena, int dice) {
            String key = key(random.nextInt(KEYS));
            byte[] k = key.getBytes(StandardCharsets.US_ASCII);
            if (dice < 25) {
                byte[] value = value();
                switch (dice % 3) {
                    case 0 -> db.put(k, value);
                    case 1 -> db.put(ByteBuffer.wrap(k), ByteBuffer.wrap(value));
                    default -> db.put(segment(arena, k), segment(arena, value));
                }
                model.put(key, value);
            } else if (dice < 35) {
                switch (dice % 3) {
                    case 0 -> db.delete(k);
                    case 1 -> db.delete(ByteBuffer.wrap(k));
                    default -> db.delete(segment(arena, k));
                }
                model.remove(key);
            } else if (dice < 45) {
                batch();
            } else if (dice < 80) {
                checkGet(arena, key, k, dice % 5);
            } else if (dice < 90) {
                checkMultiGet(arena);
            } else {
                checkScan(dice % 2 == 0);
            }
        }

        /** A batch of puts, deletes and sometimes a range delete, applied atomically. */
        private void batch() {
            TreeMap<String, byte[]> after = new TreeMap<>(model);
            try (WriteBatch batch = new WriteBatch()) {
                for (int n = random.nextInt(1, 20); n > 0; n--) {
                    String key = key(random.nextInt(KEYS));
                    byte[] k = key.getBytes(StandardCharsets.US_ASCII);
                    int kind = random.nextInt(10);
                    if (kind < 6) {
                        byte[] value = value();
                        batch.put(k, value);
                        after.put(key, value);
                    } else if (kind < 9) {
                        batch.delete(k);
                        after.remove(key);
                    } else {
                        String end = key(Math.min(KEYS, Integer.parseInt(key.substring(prefix.length())) + 10));
                        batch.deleteRange(k, end.getBytes(StandardCharsets.US_ASCII));
                        after.subMap(key, end).clear();
                    }
                }
                db.write(batch);
            }
            model.clear();
            model.putAll(after);
        }

        private void checkGet(Arena arena, String key, byte[] k, int mode) {
            byte[] expected = model.get(key);
            switch (mode) {
                case 0 -> assertArrayEquals(expected, db.get(k), key);
                case 1 -> {
                    byte[] dst = new byte[64];
                    int length = db.get(k, dst);
                    if (expected == null) {
                        assertEquals(Keyspace.NOT_FOUND, length, key);
                    } else {
                        assertEquals(expected.length, length, key);
                        assertArrayEquals(expected, Arrays.copyOf(dst, length), key);
                    }
                }
                case 2 -> {
                    ByteBuffer dst = ByteBuffer.allocateDirect(64);
                    int length = db.get(ByteBuffer.wrap(k), dst);
                    if (expected == null) {
                        assertEquals(Keyspace.NOT_FOUND, length, key);
                    } else {
                        byte[] got = new byte[length];
                        dst.get(0, got);
                        assertArrayEquals(expected, got, key);
                    }
                }
                case 3 -> {
                    MemorySegment dst = arena.allocate(64);
                    long length = db.get(segment(arena, k), dst);
                    if (expected == null) {
                        assertEquals(Keyspace.NOT_FOUND, length, key);
                    } else {
                        assertArrayEquals(expected, dst.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE), key);
                    }
                }
                default -> {
                    MemorySegment pinned = db.getPinned(arena, k);
                    if (expected == null) {
                        assertNull(pinned, key);
                    } else {
                        assertArrayEquals(expected, pinned.toArray(ValueLayout.JAVA_BYTE), key);
                    }
                }
            }
        }

        private void checkMultiGet(Arena arena) {
            List<String> keys = new ArrayList<>();
            for (int n = random.nextInt(1, 30); n > 0; n--) {
                keys.add(key(random.nextInt(KEYS)));
            }
            List<byte[]> raw = keys.stream().map(k -> k.getBytes(StandardCharsets.US_ASCII)).toList();
            if (random.nextBoolean()) {
                List<byte[]> values = db.multiGet(raw);
                for (int i = 0; i < keys.size(); i++) {
                    assertArrayEquals(model.get(keys.get(i)), values.get(i), keys.get(i));
                }
            } else {
                List<MemorySegment> segments = raw.stream().map(k -> segment(arena, k)).toList();
                List<MemorySegment> values = db.multiGetPinned(arena, segments);
                for (int i = 0; i < keys.size(); i++) {
                    byte[] expected = model.get(keys.get(i));
                    MemorySegment value = values.get(i);
                    assertArrayEquals(expected, value == null ? null : value.toArray(ValueLayout.JAVA_BYTE),
                            keys.get(i));
                }
            }
        }

        /** Scans the thread's own prefix forward or backward and compares it with the model. */
        private void checkScan(boolean forward) {
            List<KeyValue> expected = new ArrayList<>();
            for (Map.Entry<String, byte[]> entry : model.entrySet()) {
                expected.add(new KeyValue(entry.getKey().getBytes(StandardCharsets.US_ASCII), entry.getValue()));
            }
            ReadOptions options = ReadOptions.DEFAULT.prefix(prefix.getBytes(StandardCharsets.US_ASCII));
            try (Cursor cursor = db.cursor(options)) {
                List<KeyValue> actual;
                if (forward) {
                    actual = cursor.stream().toList();
                } else {
                    actual = new ArrayList<>(cursor.reverseStream().toList());
                    Collections.reverse(actual);
                }
                assertEquals(expected, actual, prefix + (forward ? " forward" : " backward"));
            }
        }

        private String key(int n) {
            return prefix + String.format("%04d", n);
        }

        private byte[] value() {
            byte[] value = new byte[random.nextInt(0, 64)];
            random.nextBytes(value);
            return value;
        }
    }

    /** Flushes and compacts over and over until told to stop. */
    private static void maintain(RocksDb db, AtomicBoolean running) {
        for (int round = 0; running.get(); round++) {
            if (round % 4 == 3) {
                db.compactRange();
            } else {
                db.flush();
            }
        }
    }

    private Thread start(String name, Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        }, name);
        thread.start();
        return thread;
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    private void assertNoFailures() {
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(failures.size() + " threads failed (seed " + SEED + ")",
                    failures.peek());
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }

    private static byte[] account(int n) {
        return String.format("account%03d", n).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] balance(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    private static long toLong(byte[] value) {
        assertEquals(8, value.length);
        return ByteBuffer.wrap(value).getLong();
    }

    private static MemorySegment segment(Arena arena, byte[] bytes) {
        return arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes);
    }
}
