package dev.pinrock.tests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.Keyspace;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.Snapshot;
import dev.pinrock.WriteBatch;

/**
 * The lifetime and misuse torture run by {@link TortureTest} in a child JVM:
 * several threads pick random public API operations from one seeded random
 * stream each, over databases, cursors, snapshots, arenas and column families
 * that every thread shares and any thread may close at any moment.
 *
 * <p>Each thread owns its own keys ({@code t<thread>-<n>}) and keeps a model of
 * their values per database, so a read that succeeds is checked against what
 * the thread wrote: a write either happened whole or threw. Only the exceptions
 * the API documents for misuse are tolerated (and counted); anything else, a
 * wrong value, or a crash of the JVM fails the run. The seed fixes each thread's
 * sequence of operations; how the threads interleave is up to the scheduler.
 *
 * <p>Arguments: seed, operations (in total), threads, directory. Prints one
 * line {@code operations=N} followed by the tolerated exceptions by kind.
 */
final class TortureWorkload {
    private static final int DATABASES = 2;
    private static final int KEYS_PER_THREAD = 64;
    private static final int POOL = 8;
    private static final DbOptions OPTIONS = DbOptions.create().createIfMissing(true)
            .writeBufferBytes(1 << 20).blockCacheBytes(1 << 20);

    private final Path dir;
    private final AtomicReferenceArray<RocksDb> databases = new AtomicReferenceArray<>(DATABASES);
    private final AtomicReferenceArray<Cursor> cursors = new AtomicReferenceArray<>(POOL);
    private final AtomicReferenceArray<Snapshot> snapshots = new AtomicReferenceArray<>(POOL);
    private final AtomicReferenceArray<Arena> sharedArenas = new AtomicReferenceArray<>(POOL);
    /** Pinned values in the shared arenas, read by any thread after their arena may have closed. */
    private final AtomicReferenceArray<MemorySegment> sharedPins = new AtomicReferenceArray<>(POOL);
    /** A segment of each thread's confined arena, touched by other threads. */
    private final AtomicReferenceArray<MemorySegment> confinedSegments;
    private final AtomicReferenceArray<Arena> confinedArenas;
    private final AtomicReferenceArray<WriteBatch> sharedBatches = new AtomicReferenceArray<>(POOL);
    private final AtomicLong familyNames = new AtomicLong();
    private final Map<String, LongAdder> tolerated = new ConcurrentHashMap<>();
    private final LongAdder operations = new LongAdder();
    /** Which open of its slot each database is, for the history a failure prints. */
    private final Map<RocksDb, Long> generations = Collections.synchronizedMap(new WeakHashMap<>());
    private final AtomicLong opens = new AtomicLong();
    /** The latest opens and closes, for the history a failure prints. */
    private final ArrayDeque<String> lifecycle = new ArrayDeque<>();

    private TortureWorkload(Path dir, int threads) {
        this.dir = dir;
        this.confinedSegments = new AtomicReferenceArray<>(threads);
        this.confinedArenas = new AtomicReferenceArray<>(threads);
    }

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        long total = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        TortureWorkload workload = new TortureWorkload(Path.of(args[3]), threads);
        for (int i = 0; i < POOL; i++) {
            workload.sharedArenas.set(i, Arena.ofShared());
        }
        List<Thread> workers = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            Worker worker = workload.new Worker(t, new Random(seed * 31 + t), total / threads);
            workers.add(Thread.ofPlatform().name("torture-" + t).uncaughtExceptionHandler((thread, e) -> {
                synchronized (failure) {
                    if (failure[0] == null) {
                        failure[0] = e;
                    }
                }
            }).start(worker));
        }
        for (Thread worker : workers) {
            worker.join();
        }
        if (failure[0] != null) {
            System.err.println("torture failed with seed " + seed);
            failure[0].printStackTrace();
            System.exit(1);
        }
        workload.closeEverything();
        System.out.println("operations=" + workload.operations.sum());
        new TreeMap<>(workload.tolerated).forEach((kind, count) -> System.out.println(kind + "=" + count.sum()));
    }

    /** Closes what is left, as a program ending normally would, and checks each database reopens. */
    private void closeEverything() {
        for (int i = 0; i < POOL; i++) {
            closeQuietly(cursors.get(i));
            closeQuietly(snapshots.get(i));
            closeQuietly(sharedBatches.get(i));
            Arena arena = sharedArenas.get(i);
            if (arena.scope().isAlive()) {
                arena.close();
            }
        }
        for (int i = 0; i < DATABASES; i++) {
            RocksDb db = databases.get(i);
            if (db != null) {
                db.close();
            }
            RocksDb.open(dir.resolve("db" + i), OPTIONS).close();
        }
    }

    private void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception e) {
                tolerate(e);
            }
        }
    }

    private String generation(RocksDb db) {
        return "gen " + generations.getOrDefault(db, -1L);
    }

    private void logLifecycle(String event) {
        synchronized (lifecycle) {
            lifecycle.addLast(System.nanoTime() / 1000 + "us " + Thread.currentThread().getName() + ": " + event);
            if (lifecycle.size() > 40) {
                lifecycle.removeFirst();
            }
        }
    }

    private String lifecycleLog() {
        synchronized (lifecycle) {
            return String.join("\n  ", lifecycle);
        }
    }

    /** Counts an exception the API documents for the misuse just made; rethrows any other. */
    private void tolerate(Throwable e) {
        if (e instanceof IllegalStateException || e instanceof WrongThreadException
                || e instanceof IllegalArgumentException || e instanceof RocksDbException
                || e instanceof NoSuchElementException
                || e instanceof ConcurrentModificationException) {
            String kind = e.getClass().getSimpleName();
            if (e instanceof RocksDbException r) {
                kind += "." + r.code();
            }
            tolerated.computeIfAbsent(kind, k -> new LongAdder()).increment();
            return;
        }
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        throw new AssertionError(e);
    }

    private final class Worker implements Runnable {
        private final int id;
        private final Random random;
        private final long count;
        /** What this thread wrote to its keys, per database. */
        private final List<Map<Integer, byte[]>> model = new ArrayList<>();
        /** The latest writes to each of this thread's keys, per database, for a failure's message. */
        private final List<Map<Integer, ArrayDeque<String>>> history = new ArrayList<>();
        /** The database slot the current step works on. */
        private int slot;
        private long step;
        /** This thread's confined arena (made on the thread, which owns it). */
        private Arena confined;
        /** Views this thread holds of a shared cursor's entry, which keep others from moving it. */
        private Cursor viewing;

        Worker(int id, Random random, long count) {
            this.id = id;
            this.random = random;
            this.count = count;
            for (int i = 0; i < DATABASES; i++) {
                model.add(new HashMap<>());
                history.add(new HashMap<>());
            }
        }

        @Override
        public void run() {
            confined = Arena.ofConfined();
            confinedArenas.set(id, confined);
            confinedSegments.set(id, confined.allocate(16));
            for (step = 0; step < count; step++) {
                int operation = random.nextInt(1000);
                try {
                    step(operation);
                } catch (AssertionError e) {
                    throw new AssertionError("operation " + operation + " (step " + step + " of thread " + id
                            + "): " + e.getMessage() + "\nlatest opens and closes:\n  " + lifecycleLog(), e);
                } catch (RuntimeException | Error e) {
                    tolerate(e);
                }
                operations.increment();
                if (viewing != null && random.nextInt(4) == 0) {
                    releaseViews();
                }
            }
            releaseViews();
            confined.close();
        }

        private void step(int operation) {
            slot = random.nextInt(DATABASES);
            RocksDb db = databases.get(slot);
            if (db == null || operation < 2 || (!db.isOpen() && random.nextInt(8) == 0)) {
                openOrReopen(slot);
                return;
            }
            Map<Integer, byte[]> mine = model.get(slot);
            int n = random.nextInt(KEYS_PER_THREAD);
            byte[] key = key(n);
            if (operation < 4) {
                close(db, "close"); // the closed database stays in its slot until a thread reopens it
            } else if (operation < 150) {
                byte[] value = value();
                put(db, n, value);
                mine.put(n, value);
            } else if (operation < 200) {
                delete(db, n);
                mine.remove(n);
            } else if (operation < 420) {
                checkRead(db, key, mine.get(n), n);
            } else if (operation < 470) {
                multiGet(db, mine);
            } else if (operation < 530) {
                writeBatch(db, mine);
            } else if (operation < 545) {
                failingBatch(db, mine);
            } else if (operation < 600) {
                snapshots(db, mine, n);
            } else if (operation < 720) {
                cursors(db);
            } else if (operation < 780) {
                sharedArenas(db, key, mine.get(n), n);
            } else if (operation < 810) {
                otherThreadsArena(db, key);
            } else if (operation < 840) {
                sharedBatch(db);
            } else if (operation < 860) {
                families(db);
            } else if (operation < 880) {
                maintenance(db);
            } else if (operation < 900) {
                closeAgain(db);
            } else if (operation < 910) {
                renewConfinedArena();
            } else {
                checkRead(db, key, mine.get(n), n);
            }
        }

        private void openOrReopen(int slot) {
            RocksDb current = databases.get(slot);
            if (current != null && current.isOpen()) {
                // A second open of an open database: refused by its lock. It succeeds
                // only when another thread closed the first meanwhile (its lock is
                // released only after isOpen() turned false).
                RocksDb second = open(slot, "second open beside " + generation(current));
                close(second, "close of the second open");
                if (current.isOpen()) {
                    throw new AssertionError("a second open of db" + slot + " succeeded");
                }
                return;
            }
            if (current != null) {
                close(current, "close before reopening"); // finishes a close refused while views were open
            }
            RocksDb opened = open(slot, "opened");
            if (!databases.compareAndSet(slot, current, opened)) {
                // Another thread reopened the slot and someone closed that one since: ours is late.
                close(opened, "close of a late reopening");
            }
        }

        /** Notes a write to key n of the current slot, which threw when failure is not null. */
        private void record(int n, String write, RocksDb db, RuntimeException failure) {
            ArrayDeque<String> writes = history.get(slot).computeIfAbsent(n, k -> new ArrayDeque<>());
            writes.addLast(System.nanoTime() / 1000 + "us step " + step + ": " + write + " into " + generation(db)
                    + (failure == null ? "" : " threw " + failure));
            if (writes.size() > 6) {
                writes.removeFirst();
            }
        }

        private String history(int n) {
            ArrayDeque<String> writes = history.get(slot).get(n);
            return writes == null ? "no writes" : String.join("\n  ", writes);
        }

        private byte[] key(int n) {
            return ("t" + id + "-" + n).getBytes(StandardCharsets.UTF_8);
        }

        private byte[] value() {
            int length = random.nextInt(20) == 0 ? 2000 + random.nextInt(20_000) : random.nextInt(200);
            byte[] value = new byte[length];
            random.nextBytes(value);
            return value;
        }

        /** Runs a write to key n and records it, with the exception it threw, if any. */
        private void write(int n, String write, RocksDb db, Runnable call) {
            try {
                call.run();
            } catch (RuntimeException e) {
                record(n, write, db, e);
                throw e;
            }
            record(n, write, db, null);
        }

        private void put(RocksDb db, int n, byte[] value) {
            byte[] key = key(n);
            int mode = random.nextInt(4);
            write(n, "put of " + value.length + " bytes in mode " + mode, db, () -> {
                switch (mode) {
                    case 0 -> db.put(key, value);
                    case 1 -> db.put(ByteBuffer.wrap(key), direct(value));
                    case 2 -> db.put(MemorySegment.ofArray(key), confined.allocateFrom(ValueLayout.JAVA_BYTE, value));
                    default -> {
                        try (WriteBatch batch = new WriteBatch()) {
                            db.write(batch.put(key, value));
                        }
                    }
                }
            });
        }

        private void delete(RocksDb db, int n) {
            byte[] key = key(n);
            int mode = random.nextInt(3);
            write(n, "delete in mode " + mode, db, () -> {
                switch (mode) {
                    case 0 -> db.delete(key);
                    case 1 -> db.delete(ByteBuffer.wrap(key));
                    default -> db.delete(confined.allocateFrom(ValueLayout.JAVA_BYTE, key));
                }
            });
        }

        /** Reads key through one of the access modes; null when absent. */
        private byte[] get(RocksDb db, byte[] key) {
            return get(db, key, random.nextInt(6));
        }

        /** Reads key through access mode 0 to 5; null when absent. */
        private byte[] get(RocksDb db, byte[] key, int mode) {
            switch (mode) {
                case 0:
                    return db.get(key);
                case 1: {
                    byte[] dst = new byte[random.nextInt(300)];
                    int length = db.get(key, dst);
                    if (length == Keyspace.NOT_FOUND) {
                        return null;
                    }
                    return length <= dst.length ? Arrays.copyOf(dst, length) : db.get(key);
                }
                case 2: {
                    ByteBuffer dst = ByteBuffer.allocateDirect(random.nextInt(300));
                    int length = db.get(ByteBuffer.wrap(key), dst);
                    if (length == Keyspace.NOT_FOUND) {
                        return null;
                    }
                    if (length > dst.capacity()) {
                        return db.get(key);
                    }
                    byte[] value = new byte[length];
                    dst.get(value);
                    return value;
                }
                case 3: {
                    MemorySegment dst = confined.allocate(random.nextInt(300));
                    long length = db.get(MemorySegment.ofArray(key), dst);
                    if (length == Keyspace.NOT_FOUND) {
                        return null;
                    }
                    return length <= dst.byteSize() ? dst.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE)
                            : db.get(key);
                }
                case 4: {
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment pinned = db.getPinned(arena, key);
                        return pinned == null ? null : pinned.toArray(ValueLayout.JAVA_BYTE);
                    }
                }
                default:
                    return db.get(ReadOptions.DEFAULT.verifyChecksums(random.nextBoolean()), key);
            }
        }

        /**
         * Reads key in a random access mode and checks it; a mismatch names the
         * mode and whether a second, plain read agrees with the model (a read
         * bug) or with the first read (a lost or misapplied write).
         */
        private void checkRead(RocksDb db, byte[] key, byte[] expected, int n) {
            int mode = random.nextInt(6);
            byte[] actual = get(db, key, mode);
            if (!Arrays.equals(expected, actual)) {
                byte[] again = db.get(key);
                throw new AssertionError("key t" + id + "-" + n + " read in mode " + mode + ": expected "
                        + describe(expected) + ", read " + describe(actual) + "; read again: " + describe(again)
                        + (Arrays.equals(again, expected) ? " (as expected)" : Arrays.equals(again, actual)
                                ? " (the same)" : " (another value)") + " from " + generation(db)
                        + "; its latest writes:\n  " + history(n));
            }
        }

        private static String describe(byte[] value) {
            return value == null ? "absent" : value.length + " bytes";
        }

        private void check(byte[] expected, byte[] actual, int n) {
            if (!Arrays.equals(expected, actual)) {
                throw new AssertionError("key t" + id + "-" + n + ": expected " + describe(expected) + ", read "
                        + describe(actual) + (actual == null ? "" : " (different)") + "; its latest writes:\n  "
                        + history(n));
            }
        }

        private void multiGet(RocksDb db, Map<Integer, byte[]> mine) {
            int[] ns = random.ints(1 + random.nextInt(20), 0, KEYS_PER_THREAD).toArray();
            if (random.nextBoolean()) {
                List<byte[]> keys = Arrays.stream(ns).mapToObj(this::key).toList();
                List<byte[]> values = db.multiGet(keys);
                for (int i = 0; i < ns.length; i++) {
                    check(mine.get(ns[i]), values.get(i), ns[i]);
                }
            } else {
                List<MemorySegment> keys = Arrays.stream(ns)
                        .mapToObj(k -> confined.allocateFrom(ValueLayout.JAVA_BYTE, key(k))).toList();
                try (Arena arena = Arena.ofConfined()) {
                    List<MemorySegment> values = db.multiGetPinned(arena, keys);
                    for (int i = 0; i < ns.length; i++) {
                        MemorySegment value = values.get(i);
                        check(mine.get(ns[i]), value == null ? null : value.toArray(ValueLayout.JAVA_BYTE), ns[i]);
                    }
                }
            }
        }

        /** Puts, deletes and a range deletion of this thread's keys, applied together or not at all. */
        private void writeBatch(RocksDb db, Map<Integer, byte[]> mine) {
            Map<Integer, byte[]> after = new HashMap<>(mine);
            Map<Integer, String> writes = new TreeMap<>();
            try (WriteBatch batch = new WriteBatch(random.nextInt(64))) {
                for (int i = random.nextInt(30); i >= 0; i--) {
                    int n = random.nextInt(KEYS_PER_THREAD);
                    switch (random.nextInt(5)) {
                        case 0, 1, 2 -> {
                            byte[] value = value();
                            batch.put(key(n), value);
                            after.put(n, value);
                            writes.merge(n, "put of " + value.length + " bytes", (a, b) -> a + ", " + b);
                        }
                        case 3 -> {
                            batch.delete(key(n));
                            after.remove(n);
                            writes.merge(n, "delete", (a, b) -> a + ", " + b);
                        }
                        default -> {
                            // Keys t<id>-<n> sort as strings: delete [t<id>-1, t<id>-2) drops 1, 10..19.
                            int digit = random.nextInt(8) + 1;
                            batch.deleteRange(("t" + id + "-" + digit).getBytes(StandardCharsets.UTF_8),
                                    ("t" + id + "-" + (digit + 1)).getBytes(StandardCharsets.UTF_8));
                            after.keySet().removeIf(k -> String.valueOf(k).startsWith(String.valueOf(digit)));
                            for (int k = 0; k < KEYS_PER_THREAD; k++) {
                                if (String.valueOf(k).startsWith(String.valueOf(digit))) {
                                    writes.merge(k, "range deletion", (a, b) -> a + ", " + b);
                                }
                            }
                        }
                    }
                }
                try {
                    db.write(batch);
                } catch (RuntimeException e) {
                    writes.forEach((n, write) -> record(n, "batch: " + write, db, e));
                    throw e;
                }
            }
            writes.forEach((n, write) -> record(n, "batch: " + write, db, null));
            mine.clear();
            mine.putAll(after);
        }

        /** A merge without a merge operator fails the whole batch before anything is written. */
        private void failingBatch(RocksDb db, Map<Integer, byte[]> mine) {
            int n = random.nextInt(KEYS_PER_THREAD);
            try (WriteBatch batch = new WriteBatch()) {
                batch.put(key(n), value()).merge(key(n), new byte[8]);
                write(n, "batch of a put and a merge (which must fail)", db, () -> db.write(batch));
                throw new AssertionError("a merge without a merge operator was written");
            } catch (RocksDbException expected) {
                tolerate(expected);
            }
            check(mine.get(n), db.get(key(n)), n);
        }

        private void snapshots(RocksDb db, Map<Integer, byte[]> mine, int n) {
            int slot = random.nextInt(POOL);
            switch (random.nextInt(3)) {
                case 0 -> {
                    Snapshot previous = snapshots.getAndSet(slot, db.snapshot());
                    if (previous != null) {
                        previous.close();
                    }
                }
                case 1 -> {
                    Snapshot snapshot = snapshots.get(slot);
                    if (snapshot != null) {
                        snapshot.close();
                    }
                }
                default -> {
                    // A fresh snapshot sees this thread's writes; a pooled one may be of another database.
                    try (Snapshot snapshot = db.snapshot()) {
                        check(mine.get(n), db.get(ReadOptions.DEFAULT.snapshot(snapshot), key(n)), n);
                    }
                    Snapshot pooled = snapshots.get(slot);
                    if (pooled != null) {
                        db.get(ReadOptions.DEFAULT.snapshot(pooled), key(n));
                    }
                }
            }
        }

        private void cursors(RocksDb db) {
            int slot = random.nextInt(POOL);
            Cursor cursor = cursors.get(slot);
            if (cursor == null || random.nextInt(10) == 0) {
                Cursor opened = random.nextBoolean() ? db.cursor()
                        : db.cursor(ReadOptions.DEFAULT.prefix(("t" + random.nextInt(4)).getBytes(StandardCharsets.UTF_8)));
                Cursor previous = cursors.getAndSet(slot, opened);
                if (previous != null) {
                    previous.close();
                }
                return;
            }
            switch (random.nextInt(12)) {
                case 0 -> cursor.first();
                case 1 -> cursor.last();
                case 2 -> cursor.next();
                case 3 -> cursor.prev();
                case 4 -> cursor.seek(key(random.nextInt(KEYS_PER_THREAD)));
                case 5 -> cursor.seekForPrev(key(random.nextInt(KEYS_PER_THREAD)));
                case 6 -> {
                    MemorySegment key = cursor.key();
                    MemorySegment value = cursor.value();
                    viewing = cursor;
                    if (key.byteSize() == 0) {
                        throw new AssertionError("empty key at a valid cursor (value of " + value.byteSize()
                                + " bytes)");
                    }
                }
                case 7 -> {
                    byte[] key = cursor.keyBytes();
                    cursor.valueBytes();
                    if (key.length == 0) {
                        throw new AssertionError("empty key at a valid cursor");
                    }
                }
                case 8 -> cursor.scan(1 + random.nextInt(50), (k, v) -> {
                    if (k.byteSize() == 0) {
                        throw new AssertionError("empty key in a scan");
                    }
                });
                case 9 -> cursor.scanReverse(1 + random.nextInt(50), (k, v) -> { });
                case 10 -> {
                    Iterator<?> entries = cursor.iterator();
                    for (int i = random.nextInt(20); i >= 0 && entries.hasNext(); i--) {
                        entries.next();
                    }
                }
                default -> cursor.close();
            }
        }

        /** Moves the cursor whose views this thread holds, so that other threads may use it again. */
        private void releaseViews() {
            Cursor cursor = viewing;
            viewing = null;
            if (cursor != null) {
                try {
                    cursor.next();
                } catch (RuntimeException e) {
                    tolerate(e);
                }
            }
        }

        /** Pins into arenas any thread may close, and reads pins whose arena may be gone. */
        private void sharedArenas(RocksDb db, byte[] key, byte[] expected, int n) {
            int slot = random.nextInt(POOL);
            switch (random.nextInt(3)) {
                case 0 -> {
                    MemorySegment pinned = db.getPinned(sharedArenas.get(slot), key);
                    if (pinned != null) {
                        byte[] read = pinned.toArray(ValueLayout.JAVA_BYTE);
                        // Another thread may close the arena between the pin and the read (which then throws).
                        check(expected, read, n);
                        sharedPins.set(slot, pinned);
                    } else {
                        check(expected, null, n);
                    }
                }
                case 1 -> {
                    MemorySegment pinned = sharedPins.get(slot);
                    if (pinned != null && pinned.byteSize() > 0) {
                        pinned.get(ValueLayout.JAVA_BYTE, random.nextLong(pinned.byteSize()));
                    }
                }
                default -> {
                    Arena old = sharedArenas.getAndSet(slot, Arena.ofShared());
                    old.close();
                }
            }
        }

        /** Uses another thread's confined arena and segments: WrongThreadException, never a crash. */
        private void otherThreadsArena(RocksDb db, byte[] key) {
            int other = random.nextInt(confinedArenas.length());
            Arena arena = confinedArenas.get(other);
            MemorySegment segment = confinedSegments.get(other);
            if (arena == null || other == id) {
                return;
            }
            switch (random.nextInt(4)) {
                case 0 -> db.getPinned(arena, key);
                case 1 -> db.put(segment, segment);
                case 2 -> db.get(MemorySegment.ofArray(key), segment);
                default -> segment.get(ValueLayout.JAVA_BYTE, 0);
            }
            throw new AssertionError("thread " + id + " used the confined arena of thread " + other);
        }

        /** A batch every thread adds to and writes, against its contract, under keys no one models. */
        private void sharedBatch(RocksDb db) {
            int slot = random.nextInt(POOL);
            WriteBatch batch = sharedBatches.get(slot);
            if (batch == null) {
                sharedBatches.compareAndSet(slot, null, new WriteBatch());
                return;
            }
            byte[] key = ("shared-" + random.nextInt(100)).getBytes(StandardCharsets.UTF_8);
            switch (random.nextInt(5)) {
                case 0, 1 -> batch.put(key, value());
                case 2 -> batch.delete(key);
                case 3 -> {
                    db.write(batch);
                    batch.clear();
                }
                default -> {
                    batch.close();
                    sharedBatches.compareAndSet(slot, batch, null);
                }
            }
        }

        private void families(RocksDb db) {
            List<String> names = db.columnFamilyNames();
            String name = names.get(random.nextInt(names.size()));
            switch (random.nextInt(4)) {
                case 0 -> {
                    if (names.size() < 6) {
                        db.createColumnFamily("f" + familyNames.incrementAndGet());
                    }
                }
                case 1 -> {
                    Keyspace family = db.columnFamily(name); // null when another thread dropped it since
                    if (family != null) {
                        db.dropColumnFamily(family);
                    }
                }
                default -> {
                    Keyspace family = db.columnFamily(name);
                    if (family == null) {
                        return;
                    }
                    byte[] key = ("family-" + id).getBytes(StandardCharsets.UTF_8);
                    family.put(key, key);
                    family.get(key);
                    try (Cursor cursor = family.cursor()) {
                        cursor.first();
                    }
                }
            }
        }

        private void maintenance(RocksDb db) {
            switch (random.nextInt(6)) {
                case 0 -> db.flush();
                case 1 -> db.compactRange(key(0), key(10));
                case 2 -> db.property("rocksdb.stats");
                case 3 -> db.propertyLong("rocksdb.estimate-num-keys");
                case 4 -> db.memoryUsage();
                default -> db.approximateSize(key(0), key(KEYS_PER_THREAD - 1));
            }
        }

        /** Closes things twice and uses them afterwards: idempotent close, then IllegalStateException. */
        private void closeAgain(RocksDb db) {
            Snapshot snapshot = db.snapshot();
            snapshot.close();
            snapshot.close();
            Cursor cursor = db.cursor();
            cursor.close();
            cursor.close();
            WriteBatch batch = new WriteBatch();
            batch.close();
            batch.close();
            switch (random.nextInt(3)) {
                case 0 -> cursor.first();
                case 1 -> db.get(ReadOptions.DEFAULT.snapshot(snapshot), key(0));
                default -> batch.put(key(0), key(0));
            }
            throw new AssertionError("a closed resource was used without an exception");
        }

        /** Opens the database of a slot, numbers this open and logs it. */
        private RocksDb open(int slot, String what) {
            RocksDb db = RocksDb.open(dir.resolve("db" + slot), OPTIONS);
            generations.put(db, opens.incrementAndGet());
            logLifecycle(what + " db" + slot + ": " + generation(db));
            return db;
        }

        private void close(RocksDb db, String why) {
            try {
                db.close();
            } catch (RuntimeException e) {
                logLifecycle(why + " of db" + slot + " " + generation(db) + " threw " + e);
                throw e;
            }
            logLifecycle(why + " of db" + slot + " " + generation(db));
        }

        private void renewConfinedArena() {
            confined.close();
            confined = Arena.ofConfined();
            confinedArenas.set(id, confined);
            confinedSegments.set(id, confined.allocate(16));
        }

        private ByteBuffer direct(byte[] value) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(value.length);
            buffer.put(value).flip();
            return buffer;
        }
    }
}
