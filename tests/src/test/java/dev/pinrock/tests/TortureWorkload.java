package dev.pinrock.tests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import dev.pinrock.AssociativeMergeOperator;
import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.KeyValue;
import dev.pinrock.KeyedCalls;
import dev.pinrock.Keyspace;
import dev.pinrock.MergeResult;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.Snapshot;
import dev.pinrock.StatusCode;
import dev.pinrock.Transaction;
import dev.pinrock.TransactionDbOptions;
import dev.pinrock.TransactionOptions;
import dev.pinrock.WriteBatch;
import dev.pinrock.WriteBatchWithIndex;
import dev.pinrock.WriteOptions;

/**
 * The lifetime and misuse torture run by {@link TortureTest} in a child JVM:
 * several threads take random steps through the public API over databases,
 * cursors, snapshots, arenas and column families that every thread shares and
 * any thread may close at any moment. The families the threads create keep
 * their keys in reverse order and merge through a merge operator written in
 * Java ({@link #FAMILY_OPTIONS}), so RocksDB calls into Java while databases
 * close under it.
 *
 * <p><b>Values check themselves.</b> Every value written encodes its key, its
 * own length and a CRC-32C of its bytes ({@link SelfCheckingValue}), so every
 * byte of every value read, on every read path (each access mode of get,
 * pinned reads, multiGet, cursor views, copies, readers, scans, batches,
 * iterators and streams in both directions, snapshots, column families,
 * shared pins while their arena is open), is verified without knowing who
 * wrote it. Each thread also owns its keys ({@code t<thread>-<n>}) and keeps a
 * model of their values per database: reads of them that no other thread can
 * write meanwhile (the latest state, a snapshot it just took) must return
 * exactly what the model holds, as a write either happened whole or threw. A
 * pooled cursor or snapshot carries a copy of its opener's model ({@link View}),
 * so any thread's read of the opener's keys through it, on every read path,
 * must return exactly that copy; after the last reopen a full scan of each
 * database must hold exactly every thread's model.
 *
 * <p><b>Exceptions.</b> Each kind of step ({@link Operation}) may end only in
 * the exceptions {@link #ALLOWED} lists for it: the exact class, status code
 * and message the public API's Javadoc and docs/reliability.md give for the
 * misuse the step can make. Any other exception, a wrong value, or a crash of
 * the JVM fails the run, naming the step, the exception and the seed.
 *
 * <p><b>Replaying a seed.</b> Each step draws its choices from its own
 * {@link Random}, seeded from the run's seed, the thread's index and the
 * step's number, never from state other threads share: a thread makes the same
 * choices in a replay however the earlier steps ended. What a choice does still
 * depends on how the threads interleave (whether a database is open, which
 * cursor or snapshot another thread left in a pool slot, which column families
 * exist, which values another thread wrote to a shared key, whether a write
 * raced a close), so with several threads a replay repeats each thread's
 * choices, not the run; with one thread it repeats the run.
 *
 * <p>Arguments: seed, operations (in total), threads, directory. Prints one
 * line {@code operations=N}, one {@code java merges=N} (the calls of the
 * families' merge operator), then the exceptions met by class (and status
 * code), then by step and allowed outcome.
 */
final class TortureWorkload {
    private static final int DATABASES = 2;
    private static final int KEYS_PER_THREAD = 64;
    private static final int POOL = 8;
    /**
     * The database slot that is always opened transactional, pessimistic or
     * optimistic as each open chooses; the other never is, and only it
     * deletes ranges (which transactional databases refuse).
     */
    private static final int TRANSACTIONAL = 1;
    private static final DbOptions OPTIONS = DbOptions.create().createIfMissing(true)
            .writeBufferBytes(1 << 20).blockCacheBytes(1 << 20);
    /**
     * The options of the column families the workers create: their keys in
     * reverse order by a comparator written in Java, and a merge operator
     * written in Java, so that comparisons and merges cross into Java on
     * RocksDB's threads (reads, flushes, compactions) while other threads
     * close and reopen the database. The merge's result is the last operand,
     * so merged values check themselves as written ones do.
     */
    private static final DbOptions FAMILY_OPTIONS = DbOptions.create().comparator(JavaReverseBytewise.INSTANCE)
            .mergeOperator(new LastOperandWins());

    /** The kinds of step a worker takes; {@link #ALLOWED} lists the exceptions each may end in. */
    enum Operation {
        OPEN, CLOSE, PUT, DELETE, GET, MULTI_GET, WRITE_BATCH, FAILING_BATCH, SNAPSHOTS, CURSORS,
        RELEASE_VIEWS, SHARED_ARENAS, OTHER_THREADS_ARENA, SHARED_BATCH, FAMILIES, MAINTENANCE, CLOSE_AGAIN,
        RENEW_CONFINED_ARENA, INDEXED_BATCH, TRANSACTION, SHARED_TRANSACTION
    }

    /**
     * An exception the API documents for a misuse: its exact class, its status
     * code (for a {@link RocksDbException}; null otherwise) and a pattern its
     * whole message must match.
     */
    record Outcome(String name, Class<? extends RuntimeException> type, StatusCode code, Pattern message) {
        static Outcome of(String name, Class<? extends RuntimeException> type, String message) {
            return new Outcome(name, type, null, Pattern.compile(message, Pattern.DOTALL));
        }

        static Outcome of(String name, Class<? extends RocksDbException> type, StatusCode code, String message) {
            return new Outcome(name, type, code, Pattern.compile(message, Pattern.DOTALL));
        }

        boolean matches(Throwable e) {
            return e.getClass() == type && (code == null || ((RocksDbException) e).code() == code)
                    && e.getMessage() != null && message.matcher(e.getMessage()).matches();
        }
    }

    /** The write options of the writes made with options: without the write-ahead log. */
    private static final WriteOptions WITHOUT_LOG = WriteOptions.DEFAULT.disableWal(true);

    // The outcomes, each with where the API documents it (reliability.md's section 1 is its table).
    /** RocksDb: "IllegalStateException when the database is closed" (every method but close and isOpen). */
    static final Outcome DATABASE_CLOSED = Outcome.of("database closed", IllegalStateException.class,
            "RocksDb .+ is closed");
    /** Cursor: "IllegalStateException when the cursor is ... closed"; closing the database closes its cursors. */
    static final Outcome CURSOR_CLOSED = Outcome.of("cursor closed", IllegalStateException.class,
            "Cursor is closed");
    /** Snapshot: "a read through a closed snapshot throws IllegalStateException"; so does Keyspace.get. */
    static final Outcome SNAPSHOT_CLOSED = Outcome.of("snapshot closed", IllegalStateException.class,
            "Snapshot is closed");
    /** WriteBatch: after close "any later use throws IllegalStateException". */
    static final Outcome BATCH_CLOSED = Outcome.of("batch closed", IllegalStateException.class,
            "WriteBatch is closed");
    /** Cursor: "a call made while another thread's call on the same cursor is in flight is refused". */
    static final Outcome CURSOR_IN_USE = Outcome.of("cursor in use", IllegalStateException.class,
            "Cursor is in use by another thread: it is not thread-safe");
    /** WriteBatch: "a call that arrives while another call on the batch (a write of it included) is in flight". */
    static final Outcome BATCH_IN_USE = Outcome.of("batch in use", IllegalStateException.class,
            "WriteBatch is in use by another thread: it is not thread-safe");
    /** Cursor.next/prev/key/value/read: "IllegalStateException when the cursor is on no entry". */
    static final Outcome CURSOR_ON_NO_ENTRY = Outcome.of("cursor on no entry", IllegalStateException.class,
            "the cursor is on no entry: place it with first, last or a seek");
    /**
     * Cursor: "a cursor whose entry views are open on another live thread cannot be moved or
     * closed from this one"; RocksDb.close: the same for the database, which stays open.
     */
    static final Outcome VIEWS_ON_ANOTHER_THREAD = Outcome.of("views on another thread",
            IllegalStateException.class, "views of this cursor's entry are open on Thread\\[.*\\]: move or close"
                    + " the cursor on that thread, or read with keyBytes/valueBytes");
    /** reliability.md: a segment whose arena is closed, or a pin read after it: the JDK's exception. */
    static final Outcome ARENA_CLOSED = Outcome.of("arena closed", IllegalStateException.class, "Already closed");
    /** reliability.md: a segment confined to another thread: the JDK's exception, also when the key is absent. */
    static final Outcome CONFINED_TO_ANOTHER_THREAD = Outcome.of("confined to another thread",
            WrongThreadException.class, "Attempted access outside owning thread");
    /** ColumnFamily: "after RocksDb.dropColumnFamily every call throws IllegalStateException". */
    static final Outcome FAMILY_DROPPED = Outcome.of("family dropped", IllegalStateException.class,
            "column family .+ was dropped");
    /** RocksDb.dropColumnFamily: "RocksDbException.InvalidArgumentException for the default family". */
    static final Outcome DEFAULT_FAMILY_DROPPED = Outcome.of("default family dropped",
            RocksDbException.InvalidArgumentException.class, StatusCode.INVALID_ARGUMENT,
            "Invalid argument: Can't drop default column family");
    /** Keyspace.get(ReadOptions, ...): "IllegalArgumentException when the snapshot belongs to another database". */
    static final Outcome SNAPSHOT_OF_ANOTHER_DATABASE = Outcome.of("snapshot of another database",
            IllegalArgumentException.class, "the snapshot belongs to RocksDb\\[.+\\]");
    /** RocksDb.open: "RocksIoException when the directory cannot be used": an open database holds its lock. */
    static final Outcome DATABASE_LOCKED = Outcome.of("database locked", RocksDbException.RocksIoException.class,
            StatusCode.IO_ERROR,
            "IO error: lock hold by current process: the database at .+ is already open \\(or being repaired\\)"
                    + " in this process|IO error: (lock hold by current process, acquire time \\d+ acquiring thread"
                    + " \\d+|While lock file): .+/LOCK.*");
    /** Transaction: "IllegalStateException when the transaction is closed"; closing the database closes it. */
    static final Outcome TRANSACTION_CLOSED = Outcome.of("transaction closed", IllegalStateException.class,
            "Transaction is closed");
    /** Transaction: "a call made while another thread's call on it is in flight is refused". */
    static final Outcome TRANSACTION_IN_USE = Outcome.of("transaction in use", IllegalStateException.class,
            "Transaction is in use by another thread: it is not thread-safe");
    /**
     * RocksDbException.ConflictException: "TRY_AGAIN: the memtables no longer held enough
     * history to tell" (an optimistic commit after flushes; each thread's keys are its own,
     * so no other conflict arises).
     */
    static final Outcome HISTORY_TOO_SHORT = Outcome.of("conflict history too short",
            RocksDbException.ConflictException.class, StatusCode.TRY_AGAIN,
            "Operation failed\\. Try again\\.: Transaction could not check for conflicts .*");
    /** Transaction: "after commit() or rollback() every call but close() is refused". */
    static final Outcome TRANSACTION_DONE = Outcome.of("transaction done",
            RocksDbException.InvalidArgumentException.class, StatusCode.INVALID_ARGUMENT,
            "Invalid argument: the transaction is committed or rolled back");
    /**
     * RocksDb.dropColumnFamily in a database whose log may hold prepared transactions: refused
     * while one is undecided (pessimistic), or always (opened otherwise); see Transaction.prepare.
     */
    static final Outcome DROP_BESIDE_PREPARED = Outcome.of("drop beside prepared transactions",
            RocksDbException.InvalidArgumentException.class, StatusCode.INVALID_ARGUMENT,
            "Invalid argument: a column family cannot be dropped (while prepared transactions are undecided"
                    + "|here): .+");
    /** RocksDb.write and Keyspace.merge: "InvalidArgumentException when ... merges into a database without a merge operator". */
    static final Outcome MERGE_WITHOUT_OPERATOR = Outcome.of("merge without a merge operator",
            RocksDbException.InvalidArgumentException.class, StatusCode.INVALID_ARGUMENT,
            "Invalid argument: the write merges into column family 'default', which has no merge operator");

    /**
     * Keyspace.put and RocksDb.write (every write, as put says): "RocksDbException ... with
     * SHUTDOWN_IN_PROGRESS when the database was closed while the write waited out a write stall"
     * (nothing is written).
     */
    static final Outcome CLOSED_IN_A_WRITE_STALL = Outcome.of("closed in a write stall", RocksDbException.class,
            StatusCode.SHUTDOWN_IN_PROGRESS, "Shutdown in progress: the database is closing");

    /** The exceptions each kind of step may end in; anything else fails the run. */
    static final Map<Operation, List<Outcome>> ALLOWED = new EnumMap<>(Operation.class);

    static {
        ALLOWED.put(Operation.OPEN, List.of(DATABASE_LOCKED, VIEWS_ON_ANOTHER_THREAD));
        ALLOWED.put(Operation.CLOSE, List.of(VIEWS_ON_ANOTHER_THREAD));
        ALLOWED.put(Operation.PUT, List.of(DATABASE_CLOSED, CLOSED_IN_A_WRITE_STALL));
        ALLOWED.put(Operation.DELETE, List.of(DATABASE_CLOSED, CLOSED_IN_A_WRITE_STALL));
        ALLOWED.put(Operation.GET, List.of(DATABASE_CLOSED));
        ALLOWED.put(Operation.MULTI_GET, List.of(DATABASE_CLOSED));
        ALLOWED.put(Operation.WRITE_BATCH, List.of(DATABASE_CLOSED, CLOSED_IN_A_WRITE_STALL));
        ALLOWED.put(Operation.FAILING_BATCH, List.of(DATABASE_CLOSED, MERGE_WITHOUT_OPERATOR,
                CLOSED_IN_A_WRITE_STALL));
        // Closing the database closes the cursor a step walks through a snapshot or a family.
        ALLOWED.put(Operation.SNAPSHOTS, List.of(DATABASE_CLOSED, SNAPSHOT_CLOSED, SNAPSHOT_OF_ANOTHER_DATABASE,
                CURSOR_CLOSED));
        ALLOWED.put(Operation.CURSORS, List.of(DATABASE_CLOSED, CURSOR_CLOSED, CURSOR_IN_USE, CURSOR_ON_NO_ENTRY,
                VIEWS_ON_ANOTHER_THREAD));
        // Once this thread moved the cursor in a later step, another may hold views of it.
        ALLOWED.put(Operation.RELEASE_VIEWS, List.of(CURSOR_CLOSED, CURSOR_IN_USE, CURSOR_ON_NO_ENTRY,
                VIEWS_ON_ANOTHER_THREAD));
        ALLOWED.put(Operation.SHARED_ARENAS, List.of(DATABASE_CLOSED, ARENA_CLOSED));
        ALLOWED.put(Operation.OTHER_THREADS_ARENA, List.of(DATABASE_CLOSED, CONFINED_TO_ANOTHER_THREAD,
                ARENA_CLOSED));
        ALLOWED.put(Operation.SHARED_BATCH, List.of(DATABASE_CLOSED, BATCH_CLOSED, BATCH_IN_USE,
                CLOSED_IN_A_WRITE_STALL));
        ALLOWED.put(Operation.FAMILIES, List.of(DATABASE_CLOSED, FAMILY_DROPPED, DEFAULT_FAMILY_DROPPED, CURSOR_CLOSED,
                CLOSED_IN_A_WRITE_STALL, DROP_BESIDE_PREPARED));
        ALLOWED.put(Operation.MAINTENANCE, List.of(DATABASE_CLOSED));
        ALLOWED.put(Operation.CLOSE_AGAIN, List.of(DATABASE_CLOSED, CURSOR_CLOSED, SNAPSHOT_CLOSED, BATCH_CLOSED));
        ALLOWED.put(Operation.RENEW_CONFINED_ARENA, List.of());
        // Closing the database closes the cursor a step walks over its batch.
        ALLOWED.put(Operation.INDEXED_BATCH, List.of(DATABASE_CLOSED, CURSOR_CLOSED, CLOSED_IN_A_WRITE_STALL));
        // Closing the database closes its transactions, and their cursors.
        ALLOWED.put(Operation.TRANSACTION, List.of(DATABASE_CLOSED, TRANSACTION_CLOSED, CURSOR_CLOSED,
                CLOSED_IN_A_WRITE_STALL, HISTORY_TOO_SHORT));
        // A pooled transaction is used, committed, rolled back and closed by any thread.
        // Committing, rolling back or closing one closes its cursors: refused while another thread has views.
        ALLOWED.put(Operation.SHARED_TRANSACTION, List.of(DATABASE_CLOSED, TRANSACTION_CLOSED, TRANSACTION_IN_USE,
                TRANSACTION_DONE, CURSOR_CLOSED, CLOSED_IN_A_WRITE_STALL, VIEWS_ON_ANOTHER_THREAD,
                HISTORY_TOO_SHORT));
        if (ALLOWED.size() != Operation.values().length) {
            throw new AssertionError("an operation has no entry in ALLOWED");
        }
    }

    private final long seed;
    private final Path dir;
    private final AtomicReferenceArray<RocksDb> databases = new AtomicReferenceArray<>(DATABASES);
    /**
     * Per slot, the column families the workers created and did not drop,
     * which an open names with their options (a family in reverse order
     * opens only so). Each set is its own lock: read and changed with it
     * held, which an open holds until it returns, so no family is created or
     * dropped meanwhile. (Listing the families on disk instead would race
     * with the MANIFEST writes of a close still under way.)
     */
    private final List<Set<String>> createdFamilies = Stream.generate(() -> (Set<String>) new HashSet<String>())
            .limit(DATABASES).toList();
    private final AtomicReferenceArray<Viewed<Cursor>> cursors = new AtomicReferenceArray<>(POOL);
    private final AtomicReferenceArray<Viewed<Snapshot>> snapshots = new AtomicReferenceArray<>(POOL);
    private final AtomicReferenceArray<Arena> sharedArenas = new AtomicReferenceArray<>(POOL);
    /** Values pinned into the shared arenas, read by any thread, also after their arena may have closed. */
    private final AtomicReferenceArray<Pin> sharedPins = new AtomicReferenceArray<>(POOL);
    /** A segment of each thread's confined arena, touched by other threads. */
    private final AtomicReferenceArray<MemorySegment> confinedSegments;
    private final AtomicReferenceArray<Arena> confinedArenas;
    private final AtomicReferenceArray<WriteBatch> sharedBatches = new AtomicReferenceArray<>(POOL);
    private final AtomicReferenceArray<PooledTransaction> sharedTransactions = new AtomicReferenceArray<>(POOL);
    /** Whether each transactional database was opened pessimistic (two-phase commits, no single deletes). */
    private final Map<RocksDb, Boolean> pessimistic = Collections.synchronizedMap(new WeakHashMap<>());
    /** The allowed exceptions met, by class (and status code), and by operation and outcome. */
    private final Map<String, LongAdder> met = new ConcurrentHashMap<>();
    private final LongAdder operations = new LongAdder();
    /** Which open of its slot each database is, for the history a failure prints. */
    private final Map<RocksDb, Long> generations = Collections.synchronizedMap(new WeakHashMap<>());
    private final AtomicLong opens = new AtomicLong();
    /** The latest opens and closes, for the history a failure prints. */
    private final ArrayDeque<String> lifecycle = new ArrayDeque<>();

    /**
     * A transaction any thread may use, commit, roll back or close, with the
     * key it wrote (one no other transaction writes, so none waits for its
     * lock) and the value it wrote there, which its reads must return.
     */
    private record PooledTransaction(Transaction transaction, byte[] key, byte[] value) implements AutoCloseable {
        @Override
        public void close() {
            transaction.close();
        }
    }

    /** A value pinned into a shared arena, with the key it was read under and the bytes it held then. */
    private record Pin(byte[] key, MemorySegment value, byte[] pinned) {
    }

    /** A pooled cursor or snapshot, with what its opener's keys held in its view. */
    private record Viewed<T extends AutoCloseable>(T resource, View view) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            resource.close();
        }
    }

    /**
     * What one thread's keys held in a database when a cursor or snapshot fixed
     * its view of it: that thread's model then. Only that thread writes those
     * keys, so every read of them through the view, by any thread and at any
     * later time, must return exactly this (the value, or absence), and a read
     * in key order may skip none of them.
     */
    private record View(int owner, byte[] keyPrefix, NavigableMap<byte[], byte[]> values) {
        static View of(int owner, Map<Integer, byte[]> model) {
            NavigableMap<byte[], byte[]> values = new TreeMap<>(Arrays::compareUnsigned);
            model.forEach((n, value) -> values.put(ownedKey(owner, n), value));
            return new View(owner, ("t" + owner + "-").getBytes(StandardCharsets.UTF_8), values);
        }

        /** Returns what is wrong with value (null when absent) read under key, or null when nothing is. */
        String problem(byte[] key, byte[] value) {
            if (!Arrays.equals(keyPrefix, 0, keyPrefix.length, key, 0, Math.min(key.length, keyPrefix.length))) {
                return null; // another thread's key: only checked whole
            }
            byte[] expected = values.get(key);
            if (Arrays.equals(expected, value)) {
                return null;
            }
            return "key " + new String(key, StandardCharsets.UTF_8) + " read as " + describe(value)
                    + " where the view holds " + describe(expected)
                    + (expected != null && value != null ? " (another value)" : "");
        }

        /** Returns a key of the view strictly between two keys read one after the other, or null. */
        byte[] skippedBetween(byte[] one, byte[] other) {
            boolean ascending = Arrays.compareUnsigned(one, other) < 0;
            byte[] low = ascending ? one : other;
            byte[] high = ascending ? other : one;
            byte[] next = values.higherKey(low);
            return next != null && Arrays.compareUnsigned(next, high) < 0 ? next : null;
        }
    }

    /** Key n of thread owner: {@code t<owner>-<n>}, which only that thread writes. */
    static byte[] ownedKey(int owner, int n) {
        return ("t" + owner + "-" + n).getBytes(StandardCharsets.UTF_8);
    }

    private static String describe(byte[] value) {
        return value == null ? "absent" : value.length + " bytes";
    }

    private TortureWorkload(long seed, Path dir, int threads) {
        this.seed = seed;
        this.dir = dir;
        this.confinedSegments = new AtomicReferenceArray<>(threads);
        this.confinedArenas = new AtomicReferenceArray<>(threads);
    }

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        long total = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        TortureWorkload workload = new TortureWorkload(seed, Path.of(args[3]), threads);
        for (int i = 0; i < POOL; i++) {
            workload.sharedArenas.set(i, Arena.ofShared());
        }
        List<Worker> workers = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            Worker worker = workload.new Worker(t, total / threads);
            workers.add(worker);
            running.add(Thread.ofPlatform().name("torture-" + t).uncaughtExceptionHandler((thread, e) -> {
                synchronized (failure) {
                    if (failure[0] == null) {
                        failure[0] = e;
                    }
                }
            }).start(worker));
        }
        for (Thread worker : running) {
            worker.join();
        }
        if (failure[0] != null) {
            System.err.println("torture failed with seed " + seed);
            failure[0].printStackTrace();
            System.exit(1);
        }
        workload.closeEverything(workers);
        System.out.println("operations=" + workload.operations.sum());
        System.out.println("java merges=" + LastOperandWins.MERGES.sum());
        new TreeMap<>(workload.met).forEach((kind, count) -> System.out.println(kind + "=" + count.sum()));
    }

    /**
     * Closes what is left, as a program ending normally would, and checks that
     * each database reopens holding exactly what every worker's model says of
     * its keys. The workers have ended, so nothing may throw.
     */
    private void closeEverything(List<Worker> workers) {
        for (int i = 0; i < POOL; i++) {
            closeIfPresent(cursors.get(i));
            closeIfPresent(snapshots.get(i));
            closeIfPresent(sharedBatches.get(i));
            closeIfPresent(sharedTransactions.get(i));
            Arena arena = sharedArenas.get(i);
            if (arena.scope().isAlive()) {
                arena.close();
            }
        }
        for (int i = 0; i < DATABASES; i++) {
            closeIfPresent(databases.get(i));
            try (RocksDb db = RocksDb.open(dir.resolve("db" + i), optionsNamingFamilies(i))) {
                sweep(db, i, workers);
            }
        }
    }

    /**
     * The options that open the database of a slot: {@link #OPTIONS}, and
     * {@link #FAMILY_OPTIONS} for each family the workers created. Call with
     * the slot's set of them locked, until the open returns.
     */
    private DbOptions optionsNamingFamilies(int slot) {
        DbOptions options = OPTIONS;
        for (String name : createdFamilies.get(slot)) {
            options = options.columnFamily(name, FAMILY_OPTIONS);
        }
        return options;
    }

    /**
     * Reads the whole database of a slot with one cursor and compares the
     * threads' keys it holds with their models: the same keys, each with the
     * value its thread last wrote.
     */
    private static void sweep(RocksDb db, int slot, List<Worker> workers) {
        NavigableMap<byte[], byte[]> expected = new TreeMap<>(Arrays::compareUnsigned);
        for (Worker worker : workers) {
            expected.putAll(View.of(worker.id, worker.model.get(slot)).values());
        }
        Pattern owned = Pattern.compile("t\\d+-\\d+");
        int read = 0;
        try (Cursor cursor = db.cursor()) {
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                byte[] key = cursor.keyBytes();
                if (!owned.matcher(new String(key, StandardCharsets.UTF_8)).matches()) {
                    continue;
                }
                byte[] want = expected.get(key);
                if (!Arrays.equals(want, cursor.valueBytes())) {
                    throw new AssertionError("after the last reopen db" + slot + " holds " + describe(cursor
                            .valueBytes()) + " under " + new String(key, StandardCharsets.UTF_8)
                            + ", its thread's model " + describe(want) + (want == null ? "" : " (another value)"));
                }
                read++;
            }
        }
        if (read != expected.size()) {
            throw new AssertionError("after the last reopen db" + slot + " holds " + read + " of the " + expected.size()
                    + " keys the threads' models hold: it lost a write");
        }
    }

    private static void closeIfPresent(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new AssertionError("closing " + closeable + " after the workers ended threw " + e, e);
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

    /**
     * Counts an exception {@link #ALLOWED} lists for the operation; fails the
     * run with any other, naming the operation, the exception and the seed.
     */
    private void expect(Operation operation, Throwable e, String where) {
        for (Outcome outcome : ALLOWED.get(operation)) {
            if (outcome.matches(e)) {
                String kind = e.getClass().getSimpleName();
                if (e instanceof RocksDbException r) {
                    kind += "." + r.code();
                }
                met.computeIfAbsent(kind, k -> new LongAdder()).increment();
                met.computeIfAbsent(operation + " / " + outcome.name(), k -> new LongAdder()).increment();
                return;
            }
        }
        throw new AssertionError("operation " + operation + " (" + where + ", seed " + seed
                + ") threw an exception its API does not document for it: " + e, e);
    }

    /**
     * Steps draw their choices from a generator seeded by the run's seed, the
     * thread and the step (SplitMix64's finalizer), so no step's choices
     * depend on how the steps before it ended.
     */
    private long stepSeed(int thread, long step) {
        long z = seed + 0x9E37_79B9_7F4A_7C15L * (thread + 1) + 0xD1B5_4A32_D192_ED03L * step;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    /** A merge operator written in Java whose merge is the last operand: a put by merge. */
    static final class LastOperandWins extends AssociativeMergeOperator {
        /** The merges RocksDB called it for, on any thread: the run fails when there were none. */
        static final LongAdder MERGES = new LongAdder();

        LastOperandWins() {
            super("torture.LastOperandWins");
        }

        @Override
        protected boolean merge(MemorySegment key, MemorySegment value, MemorySegment operand, MergeResult result) {
            MERGES.increment();
            result.useOperand(0);
            return true;
        }
    }

    /**
     * The values the workload writes: a 4-byte big-endian total length, a
     * 2-byte key length, the key, random payload, and a CRC-32C of all the
     * bytes before it, so that any read of any value can be checked whole
     * against the key it was read under.
     */
    static final class SelfCheckingValue {
        private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
        private static final ValueLayout.OfShort SHORT =
                ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
        private static final int HEADER = Integer.BYTES + Short.BYTES;
        private static final int CHECKSUM = Integer.BYTES;

        private SelfCheckingValue() {
        }

        /** Returns a value for key with payloadLength random bytes. */
        static byte[] create(byte[] key, int payloadLength, Random random) {
            byte[] value = new byte[HEADER + key.length + payloadLength + CHECKSUM];
            byte[] payload = new byte[payloadLength];
            random.nextBytes(payload);
            ByteBuffer.wrap(value).putInt(value.length).putShort((short) key.length).put(key).put(payload);
            CRC32C crc = new CRC32C();
            crc.update(value, 0, value.length - CHECKSUM);
            ByteBuffer.wrap(value).putInt(value.length - CHECKSUM, (int) crc.getValue());
            return value;
        }

        /**
         * Returns the key a value says it was written for, or an empty key (which no
         * value is written for) when the value is too short to name one.
         */
        static byte[] keyNamedBy(byte[] value) {
            if (value.length < HEADER) {
                return new byte[0];
            }
            int keyLength = Short.toUnsignedInt(ByteBuffer.wrap(value).getShort(Integer.BYTES));
            return Arrays.copyOfRange(value, HEADER, Math.min(value.length, HEADER + keyLength));
        }

        /** Returns what is wrong with value as one written for key, or null when nothing is. */
        static String problem(byte[] key, MemorySegment value) {
            long size = value.byteSize();
            if (size < HEADER + CHECKSUM) {
                return "it has " + size + " bytes, fewer than a header and a checksum";
            }
            int length = value.get(INT, 0);
            if (length != size) {
                return "it says it has " + length + " bytes but has " + size;
            }
            int keyLength = Short.toUnsignedInt(value.get(SHORT, Integer.BYTES));
            if (HEADER + keyLength + CHECKSUM > size) {
                return "its key of " + keyLength + " bytes overruns it";
            }
            MemorySegment written = value.asSlice(HEADER, keyLength);
            if (keyLength != key.length || MemorySegment.mismatch(written, 0, keyLength,
                    MemorySegment.ofArray(key), 0, key.length) != -1) {
                return "it is a value of key " + new String(written.toArray(ValueLayout.JAVA_BYTE),
                        StandardCharsets.UTF_8);
            }
            CRC32C crc = new CRC32C();
            crc.update(value.asSlice(0, size - CHECKSUM).asByteBuffer());
            int stored = value.get(INT, size - CHECKSUM);
            if (stored != (int) crc.getValue()) {
                return "its checksum is " + Integer.toHexString(stored) + ", its bytes' "
                        + Integer.toHexString((int) crc.getValue());
            }
            return null;
        }
    }

    private final class Worker implements Runnable {
        private final int id;
        private final long count;
        /** What this thread wrote to its keys, per database. */
        private final List<Map<Integer, byte[]>> model = new ArrayList<>();
        /** The latest writes to each of this thread's keys, per database, for a failure's message. */
        private final List<Map<Integer, ArrayDeque<String>>> history = new ArrayList<>();
        /** The current step's choices, drawn from a generator of its own (see {@link #stepSeed}). */
        private Random random;
        /** The database slot the current step works on. */
        private int slot;
        private long step;
        /** This thread's confined arena (made on the thread, which owns it). */
        private Arena confined;
        /** Views this thread holds of a shared cursor's entry, which keep others from moving it. */
        private Cursor viewing;

        Worker(int id, long count) {
            this.id = id;
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
                random = new Random(stepSeed(id, step));
                int choice = random.nextInt(1000);
                slot = random.nextInt(DATABASES);
                Operation operation = operation(choice);
                try {
                    step(operation);
                } catch (AssertionError e) {
                    throw new AssertionError(operation + " (" + where() + ", seed " + seed + "): "
                            + e.getMessage() + "\nlatest opens and closes:\n  " + lifecycleLog(), e);
                } catch (RuntimeException | Error e) {
                    expect(operation, e, where());
                }
                operations.increment();
                if (viewing != null && random.nextInt(4) == 0) {
                    releaseViews();
                }
            }
            releaseViews();
            confined.close();
        }

        private String where() {
            return "step " + step + " of thread " + id;
        }

        /** The kind of step a choice makes on the current slot. */
        private Operation operation(int choice) {
            RocksDb db = databases.get(slot);
            if (db == null || choice < 2 || (!db.isOpen() && choice % 8 == 0)) {
                return Operation.OPEN;
            }
            if (choice < 4) {
                return Operation.CLOSE;
            } else if (choice < 150) {
                return Operation.PUT;
            } else if (choice < 200) {
                return Operation.DELETE;
            } else if (choice < 420) {
                return Operation.GET;
            } else if (choice < 470) {
                return Operation.MULTI_GET;
            } else if (choice < 530) {
                return Operation.WRITE_BATCH;
            } else if (choice < 545) {
                return Operation.FAILING_BATCH;
            } else if (choice < 600) {
                return Operation.SNAPSHOTS;
            } else if (choice < 720) {
                return Operation.CURSORS;
            } else if (choice < 780) {
                return Operation.SHARED_ARENAS;
            } else if (choice < 810) {
                return Operation.OTHER_THREADS_ARENA;
            } else if (choice < 840) {
                return Operation.SHARED_BATCH;
            } else if (choice < 860) {
                return Operation.FAMILIES;
            } else if (choice < 880) {
                return Operation.MAINTENANCE;
            } else if (choice < 900) {
                return Operation.CLOSE_AGAIN;
            } else if (choice < 910) {
                return Operation.RENEW_CONFINED_ARENA;
            } else if (choice < 940) {
                return Operation.INDEXED_BATCH;
            } else if (choice < 975 && slot == TRANSACTIONAL) {
                return Operation.TRANSACTION;
            } else if (choice < 995 && slot == TRANSACTIONAL) {
                return Operation.SHARED_TRANSACTION;
            }
            return Operation.GET;
        }

        private void step(Operation operation) {
            if (operation == Operation.OPEN) {
                openOrReopen(slot);
                return;
            }
            RocksDb db = databases.get(slot);
            Map<Integer, byte[]> mine = model.get(slot);
            int n = random.nextInt(KEYS_PER_THREAD);
            byte[] key = key(n);
            switch (operation) {
                case CLOSE -> close(db, "close"); // the closed database stays in its slot until a thread reopens it
                case PUT -> {
                    byte[] value = value(key);
                    put(db, n, value);
                    mine.put(n, value);
                }
                case DELETE -> {
                    delete(db, n);
                    mine.remove(n);
                }
                case GET -> checkRead(db, key, mine.get(n), n);
                case MULTI_GET -> multiGet(db, mine);
                case WRITE_BATCH -> writeBatch(db, mine);
                case FAILING_BATCH -> failingBatch(db, mine);
                case SNAPSHOTS -> snapshots(db, mine, n);
                case CURSORS -> cursors(db, mine);
                case SHARED_ARENAS -> sharedArenas(db, key, mine.get(n), n);
                case OTHER_THREADS_ARENA -> otherThreadsArena(db, key);
                case SHARED_BATCH -> sharedBatch(db);
                case FAMILIES -> families(db);
                case MAINTENANCE -> maintenance(db);
                case CLOSE_AGAIN -> closeAgain(db);
                case RENEW_CONFINED_ARENA -> renewConfinedArena();
                case INDEXED_BATCH -> indexedBatch(db, mine);
                case TRANSACTION -> transaction(db, mine);
                case SHARED_TRANSACTION -> sharedTransaction(db, mine);
                default -> throw new AssertionError("no step for " + operation);
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
            return ownedKey(id, n);
        }

        /** A self-checking value for key: mostly under 200 bytes, one in twenty 2 to 22 KB. */
        private byte[] value(byte[] key) {
            int payload = random.nextInt(20) == 0 ? 2000 + random.nextInt(20_000) : random.nextInt(200);
            return SelfCheckingValue.create(key, payload, random);
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
            int mode = random.nextInt(6);
            write(n, "put of " + value.length + " bytes in mode " + mode, db, () -> {
                switch (mode) {
                    case 0 -> db.put(key, value);
                    case 1 -> db.put(ByteBuffer.wrap(key), direct(value));
                    case 2 -> db.put(MemorySegment.ofArray(key), confined.allocateFrom(ValueLayout.JAVA_BYTE, value));
                    // With write options: a one-record batch (a close flushes what skipped the log).
                    case 3 -> db.put(WITHOUT_LOG, key, value);
                    case 4 -> db.put(WITHOUT_LOG, confined.allocateFrom(ValueLayout.JAVA_BYTE, key),
                            MemorySegment.ofArray(value));
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
            int drawn = random.nextInt(5);
            int mode = drawn == 3 && slot == TRANSACTIONAL ? 0 : drawn; // no range deletes there
            write(n, "delete in mode " + mode, db, () -> {
                switch (mode) {
                    case 0 -> db.delete(key);
                    case 1 -> db.delete(ByteBuffer.wrap(key));
                    case 2 -> db.delete(WITHOUT_LOG, key);
                    // The range of this one key: [key, key + 0x00).
                    case 3 -> db.deleteRange(key, Arrays.copyOf(key, key.length + 1));
                    default -> db.delete(confined.allocateFrom(ValueLayout.JAVA_BYTE, key));
                }
            });
        }

        /** Reads key through access mode 0 to 5; null when absent. Each mode's read is verified whole. */
        private byte[] get(KeyedCalls db, byte[] key, int mode) {
            String path = "get in mode " + mode;
            switch (mode) {
                case 0:
                    return verified(path, key, db.get(key));
                case 1: {
                    byte[] dst = new byte[random.nextInt(300)];
                    int length = db.get(key, dst);
                    if (length == Keyspace.NOT_FOUND) {
                        return null;
                    }
                    return length <= dst.length ? verified(path, key, Arrays.copyOf(dst, length))
                            : verified("get after " + path + " did not fit", key, db.get(key));
                }
                case 2: {
                    ByteBuffer dst = ByteBuffer.allocateDirect(random.nextInt(300));
                    int length = db.get(ByteBuffer.wrap(key), dst);
                    if (length == Keyspace.NOT_FOUND) {
                        return null;
                    }
                    if (length > dst.capacity()) {
                        return verified("get after " + path + " did not fit", key, db.get(key));
                    }
                    byte[] value = new byte[length];
                    dst.get(value);
                    return verified(path, key, value);
                }
                case 3: {
                    MemorySegment dst = confined.allocate(random.nextInt(300));
                    long length = db.get(MemorySegment.ofArray(key), dst);
                    if (length == Keyspace.NOT_FOUND) {
                        return null;
                    }
                    return length <= dst.byteSize()
                            ? verified(path, key, dst.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE))
                            : verified("get after " + path + " did not fit", key, db.get(key));
                }
                case 4: {
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment pinned = db.getPinned(arena, key);
                        if (pinned == null) {
                            return null;
                        }
                        verify("getPinned", key, pinned);
                        return pinned.toArray(ValueLayout.JAVA_BYTE);
                    }
                }
                default:
                    return verified(path, key, db.get(ReadOptions.DEFAULT.verifyChecksums(random.nextBoolean()), key));
            }
        }

        /** Fails the run when value, read under key by path, is not a whole value written for key. */
        private void verify(String path, byte[] key, MemorySegment value) {
            String problem = SelfCheckingValue.problem(key, value);
            if (problem != null) {
                throw new AssertionError(path + " read a value of " + value.byteSize() + " bytes under key "
                        + new String(key, StandardCharsets.UTF_8) + " that is not one written for it: " + problem);
            }
        }

        /** Returns value (null when absent) once {@link #verify} has found it whole. */
        private byte[] verified(String path, byte[] key, byte[] value) {
            if (value != null) {
                verify(path, key, MemorySegment.ofArray(value));
            }
            return value;
        }

        /** Verifies a key a cursor showed alone: one the workload writes to the default family. */
        private void verifyKey(String path, byte[] key) {
            if (!new String(key, StandardCharsets.UTF_8).matches("(t\\d+|shared|family|pooled)-\\d+")) {
                throw new AssertionError(path + " showed a key no thread writes: " + Arrays.toString(key));
            }
        }

        /**
         * Verifies a value a cursor showed alone: whole, one written for the key it names,
         * and (when view is not null) the one the cursor's view holds for that key.
         */
        private void verifyWhole(String path, byte[] value, View view) {
            byte[] key = SelfCheckingValue.keyNamedBy(value);
            verify(path, key, MemorySegment.ofArray(value));
            inView(path, view, key, value);
        }

        /**
         * Verifies an entry a cursor showed, whose key says what its value must be, and
         * (when view is not null) that it is what the cursor's view holds.
         */
        private void verifyEntry(String path, MemorySegment key, MemorySegment value, View view) {
            if (key.byteSize() == 0) {
                throw new AssertionError(path + " showed an empty key (value of " + value.byteSize() + " bytes)");
            }
            byte[] bytes = key.toArray(ValueLayout.JAVA_BYTE);
            verify(path, bytes, value);
            inView(path, view, bytes, value.toArray(ValueLayout.JAVA_BYTE));
        }

        /** Fails the run when view is not null and holds something else than value under key. */
        private void inView(String path, View view, byte[] key, byte[] value) {
            String problem = view == null ? null : view.problem(key, value);
            if (problem != null) {
                throw new AssertionError(path + ": " + problem);
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
                    check(mine.get(ns[i]), verified("multiGet", keys.get(i), values.get(i)), ns[i]);
                }
            } else {
                List<MemorySegment> keys = Arrays.stream(ns)
                        .mapToObj(k -> confined.allocateFrom(ValueLayout.JAVA_BYTE, key(k))).toList();
                try (Arena arena = Arena.ofConfined()) {
                    List<MemorySegment> values = db.multiGetPinned(arena, keys);
                    for (int i = 0; i < ns.length; i++) {
                        MemorySegment value = values.get(i);
                        if (value != null) {
                            verify("multiGetPinned", key(ns[i]), value);
                        }
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
                            byte[] value = value(key(n));
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
                            // A transactional database deletes no ranges: there, each key of it.
                            int digit = random.nextInt(8) + 1;
                            if (slot != TRANSACTIONAL) {
                                batch.deleteRange(("t" + id + "-" + digit).getBytes(StandardCharsets.UTF_8),
                                        ("t" + id + "-" + (digit + 1)).getBytes(StandardCharsets.UTF_8));
                            }
                            after.keySet().removeIf(k -> String.valueOf(k).startsWith(String.valueOf(digit)));
                            for (int k = 0; k < KEYS_PER_THREAD; k++) {
                                if (String.valueOf(k).startsWith(String.valueOf(digit))) {
                                    if (slot == TRANSACTIONAL) {
                                        batch.delete(key(k));
                                    }
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

        /**
         * Writes this thread's keys into a batch with index, reading each back
         * through it (its writes merged over the database), then writes the
         * batch or drops it.
         */
        private void indexedBatch(RocksDb db, Map<Integer, byte[]> mine) {
            Map<Integer, byte[]> after = new HashMap<>(mine);
            Map<Integer, String> writes = new TreeMap<>();
            try (WriteBatchWithIndex batch = new WriteBatchWithIndex(db, random.nextBoolean())) {
                for (int i = random.nextInt(20); i >= 0; i--) {
                    writeThrough(batch, after, writes);
                    int read = random.nextInt(KEYS_PER_THREAD);
                    check(after.get(read), readThrough(batch, key(read)), read);
                }
                checkCursorOver(batch, after, "cursor over a batch with index");
                if (random.nextBoolean()) {
                    return; // dropped: the database keeps what the model holds
                }
                try {
                    db.write(batch);
                } catch (RuntimeException e) {
                    writes.forEach((n, write) -> record(n, "batch with index: " + write, db, e));
                    throw e;
                }
            }
            writes.forEach((n, write) -> record(n, "batch with index: " + write, db, null));
            mine.clear();
            mine.putAll(after);
        }

        /**
         * Writes this thread's keys in a transaction of the transactional
         * database, with save points, snapshots and reads (for update too)
         * checked against what it wrote; then closes it undecided, rolls it
         * back, or commits it (named and prepared first, one in three in a
         * pessimistic database). Only a commit that returned changes the model:
         * one that a close cut off after the prepare leaves a prepared
         * transaction, which the next open rolls back.
         */
        private void transaction(RocksDb db, Map<Integer, byte[]> mine) {
            boolean pessimisticDb = pessimistic.getOrDefault(db, false);
            boolean twoPhase = pessimisticDb && random.nextInt(3) == 0;
            int ending = random.nextInt(6); // 0: closed undecided, 1: rolled back, otherwise committed
            Map<Integer, byte[]> after = new HashMap<>(mine);
            Map<Integer, String> writes = new TreeMap<>();
            ArrayDeque<Map<Integer, byte[]>> savePoints = new ArrayDeque<>();
            String what = (twoPhase ? "prepared " : "") + "transaction";
            try (Transaction transaction = db.beginTransaction(TransactionOptions.DEFAULT
                    .setSnapshot(random.nextBoolean()))) {
                for (int i = random.nextInt(12); i >= 0; i--) {
                    int n = random.nextInt(KEYS_PER_THREAD);
                    switch (random.nextInt(9)) {
                        case 0 -> {
                            transaction.setSavePoint();
                            savePoints.push(new HashMap<>(after));
                        }
                        case 1 -> {
                            boolean had = transaction.rollbackToSavePoint();
                            if (had == savePoints.isEmpty()) {
                                throw new AssertionError("rollbackToSavePoint returned " + had + " with "
                                        + savePoints.size() + " save points set");
                            }
                            if (had) {
                                after = savePoints.pop();
                                writes.replaceAll((k, write) -> write + ", rolled back to a save point");
                            }
                        }
                        case 2 -> check(after.get(n), readThrough(transaction.forUpdate(db, !pessimisticDb
                                || random.nextBoolean()), key(n)), n);
                        case 3 -> check(after.get(n), readThrough(transaction, key(n)), n);
                        case 4 -> {
                            if (random.nextBoolean()) {
                                transaction.setSnapshot();
                            } else {
                                transaction.setSnapshotOnNextOperation();
                            }
                        }
                        default -> writeThrough(transaction, after, writes);
                    }
                }
                if (random.nextInt(3) == 0) {
                    checkCursorOver(transaction, after, "cursor over a transaction");
                }
                if (ending == 0) {
                    return; // closed undecided: rolled back
                } else if (ending == 1) {
                    transaction.rollback();
                    return;
                }
                try {
                    if (twoPhase) {
                        transaction.setName("t" + id + "-" + step);
                        transaction.prepare();
                    }
                    transaction.commit();
                } catch (RuntimeException e) {
                    writes.forEach((n, write) -> record(n, what + ": " + write, db, e));
                    throw e;
                }
            }
            writes.forEach((n, write) -> record(n, what + ": " + write, db, null));
            mine.clear();
            mine.putAll(after);
        }

        /**
         * Takes a step on a pooled transaction of the transactional database,
         * which any thread may have begun, used, committed, rolled back or
         * closed: begins one (writing a key of its own) in place of the pool
         * slot's, reads this thread's keys or the transaction's own through it,
         * walks this thread's keys with a cursor over it, or commits, rolls
         * back or closes it. It never reads for update, so it locks no key a
         * thread writes.
         */
        private void sharedTransaction(RocksDb db, Map<Integer, byte[]> mine) {
            int index = random.nextInt(POOL);
            PooledTransaction pooled = sharedTransactions.get(index);
            int n = random.nextInt(KEYS_PER_THREAD);
            switch (pooled == null ? 0 : random.nextInt(8)) {
                case 0 -> {
                    byte[] key = ("pooled-" + (step * 64 + id)).getBytes(StandardCharsets.UTF_8);
                    byte[] value = value(key);
                    Transaction transaction = db.beginTransaction();
                    try {
                        transaction.put(key, value);
                    } catch (RuntimeException e) {
                        transaction.close();
                        throw e;
                    }
                    closeIfPresent(sharedTransactions.getAndSet(index, new PooledTransaction(transaction, key,
                            value)));
                }
                case 1, 2 -> check(mine.get(n), readThrough(pooled.transaction(), key(n)), n);
                case 3 -> {
                    byte[] read = readThrough(pooled.transaction(), pooled.key());
                    if (!Arrays.equals(read, pooled.value())) {
                        throw new AssertionError("a pooled transaction read its own write to "
                                + new String(pooled.key(), StandardCharsets.UTF_8) + " as " + describe(read)
                                + ", where it wrote " + describe(pooled.value()));
                    }
                }
                case 4 -> checkCursorOver(pooled.transaction(), mine, "cursor over a pooled transaction");
                case 5 -> pooled.transaction().commit();
                case 6 -> pooled.transaction().rollback();
                default -> pooled.close();
            }
        }

        /**
         * Writes one of this thread's keys through pending writes (a batch
         * with index or a transaction): a put or a delete, noted in after
         * (what the pending writes hold for the keys) and writes (their history).
         */
        private void writeThrough(KeyedCalls pending, Map<Integer, byte[]> after, Map<Integer, String> writes) {
            int n = random.nextInt(KEYS_PER_THREAD);
            if (random.nextInt(4) == 0) {
                pending.delete(key(n));
                after.remove(n);
                writes.merge(n, "delete", (a, b) -> a + ", " + b);
            } else {
                byte[] value = value(key(n));
                pending.put(key(n), value);
                after.put(n, value);
                writes.merge(n, "put of " + value.length + " bytes", (a, b) -> a + ", " + b);
            }
        }

        /**
         * Walks this thread's keys with a cursor over pending writes (a batch
         * with index or a transaction, merged over the database): it must show
         * exactly expected, every value whole.
         */
        private void checkCursorOver(KeyedCalls pending, Map<Integer, byte[]> expected, String path) {
            String prefix = "t" + id + "-";
            Map<Integer, byte[]> seen = new HashMap<>();
            try (Cursor cursor = pending.cursor(ReadOptions.DEFAULT.prefix(prefix.getBytes(StandardCharsets.UTF_8)))) {
                for (boolean on = cursor.first(); on; on = cursor.next()) {
                    verifyEntry(path, cursor.key(), cursor.value(), null);
                    String key = new String(cursor.keyBytes(), StandardCharsets.UTF_8);
                    seen.put(Integer.parseInt(key.substring(prefix.length())), cursor.valueBytes());
                }
            }
            for (int n = 0; n < KEYS_PER_THREAD; n++) {
                check(expected.get(n), seen.get(n), n);
            }
        }

        /**
         * Reads key through pending writes (a batch with index or a
         * transaction) in a random access mode (those of {@link #get} and a
         * multiGet), its value verified.
         */
        private byte[] readThrough(KeyedCalls pending, byte[] key) {
            int mode = random.nextInt(7);
            if (mode == 6) {
                return verified("multiGet through pending writes", key, pending.multiGet(List.of(key)).get(0));
            }
            return get(pending, key, mode);
        }

        /** A merge without a merge operator fails the whole batch before anything is written. */
        private void failingBatch(RocksDb db, Map<Integer, byte[]> mine) {
            int n = random.nextInt(KEYS_PER_THREAD);
            try (WriteBatch batch = new WriteBatch()) {
                batch.put(key(n), value(key(n))).merge(key(n), value(key(n)));
                write(n, "batch of a put and a merge (which must fail)", db, () -> db.write(batch));
                throw new AssertionError("a merge without a merge operator was written");
            } catch (RocksDbException e) {
                expect(Operation.FAILING_BATCH, e, where());
            }
            check(mine.get(n), verified("get after a failed batch", key(n), db.get(key(n))), n);
        }

        private void snapshots(RocksDb db, Map<Integer, byte[]> mine, int n) {
            int slot = random.nextInt(POOL);
            switch (random.nextInt(3)) {
                case 0 -> {
                    Viewed<Snapshot> previous = snapshots.getAndSet(slot, new Viewed<>(db.snapshot(),
                            View.of(id, mine)));
                    if (previous != null) {
                        previous.resource().close();
                    }
                }
                case 1 -> {
                    Viewed<Snapshot> snapshot = snapshots.get(slot);
                    if (snapshot != null) {
                        snapshot.resource().close();
                    }
                }
                default -> {
                    // A fresh snapshot sees this thread's writes; a pooled one may be older, or of another database.
                    byte[] key = key(n);
                    try (Snapshot snapshot = db.snapshot()) {
                        check(mine.get(n), verified("get through a fresh snapshot", key,
                                db.get(ReadOptions.DEFAULT.snapshot(snapshot), key)), n);
                    }
                    Viewed<Snapshot> pooled = snapshots.get(slot);
                    if (pooled != null) {
                        ReadOptions options = ReadOptions.DEFAULT.snapshot(pooled.resource());
                        if (random.nextBoolean()) {
                            // A key of the thread that took the snapshot, whose view it holds.
                            byte[] viewed = ownedKey(pooled.view().owner(), n);
                            byte[] read = verified("get through a pooled snapshot", viewed, db.get(options, viewed));
                            String problem = pooled.view().problem(viewed, read);
                            if (problem != null) {
                                throw new AssertionError("get through a pooled snapshot: " + problem);
                            }
                        } else {
                            try (Cursor cursor = db.cursor(options)) {
                                walk("cursor through a pooled snapshot", cursor, random.nextBoolean(),
                                        1 + random.nextInt(50), true, pooled.view());
                            }
                        }
                    }
                }
            }
        }

        private void cursors(RocksDb db, Map<Integer, byte[]> mine) {
            int slot = random.nextInt(POOL);
            Viewed<Cursor> pooled = cursors.get(slot);
            boolean replace = random.nextInt(10) == 0;
            if (pooled == null || replace) {
                byte[] prefix = ("t" + random.nextInt(4)).getBytes(StandardCharsets.UTF_8);
                Cursor opened = random.nextBoolean() ? db.cursor() : db.cursor(ReadOptions.DEFAULT.prefix(prefix));
                // A cursor reads the state the database had when it was opened: this thread's model now.
                Viewed<Cursor> previous = cursors.getAndSet(slot, new Viewed<>(opened, View.of(id, mine)));
                if (previous != null) {
                    previous.resource().close();
                }
                return;
            }
            Cursor cursor = pooled.resource();
            View view = pooled.view();
            int entries = 1 + random.nextInt(50);
            boolean reverse = random.nextBoolean();
            switch (random.nextInt(13)) {
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
                    verifyEntry("cursor key() and value() views", key, value, view);
                }
                case 7 -> {
                    // Two calls: another thread may move the shared cursor between them (the
                    // cursor refuses only calls in flight at once), so each copy is checked alone.
                    verifyKey("cursor keyBytes()", cursor.keyBytes());
                    verifyWhole("cursor valueBytes()", cursor.valueBytes(), view);
                }
                case 8 -> cursor.read((key, value) -> verifyEntry("cursor read(reader)", key, value, view));
                case 9 -> {
                    EntryOrder order = new EntryOrder(reverse ? "cursor scanReverse" : "cursor scan", reverse,
                            true, view);
                    if (reverse) {
                        cursor.scanReverse(entries, order::visit);
                    } else {
                        cursor.scan(entries, order::visit);
                    }
                }
                case 10 -> {
                    EntryOrder order = new EntryOrder(reverse ? "cursor scanBatchesReverse" : "cursor scanBatches",
                            reverse, true, view);
                    Consumer<Cursor.Batch> visitor = batch -> {
                        while (batch.next()) {
                            order.visit(batch.key(), batch.value());
                        }
                    };
                    if (reverse) {
                        cursor.scanBatchesReverse(entries, visitor);
                    } else {
                        cursor.scanBatches(entries, visitor);
                    }
                }
                // The iterator and stream read a batch per call: another thread may move the
                // shared cursor between two, so only each entry is checked, not their order.
                case 11 -> walk("cursor", cursor, reverse, entries, false, view);
                default -> cursor.close();
            }
        }

        /**
         * Reads up to entries entries through the cursor's iterator or stream, in either
         * direction, checking each (against view, when not null) and, when ordered, that
         * the keys come in the path's order.
         */
        private void walk(String what, Cursor cursor, boolean reverse, int entries, boolean ordered, View view) {
            walk(what, cursor, reverse, entries, ordered, view, false);
        }

        /** As above, over keys in reverse bytewise order when keysReversed. */
        private void walk(String what, Cursor cursor, boolean reverse, int entries, boolean ordered, View view,
                boolean keysReversed) {
            boolean descending = reverse != keysReversed;
            EntryOrder order;
            if (random.nextBoolean()) {
                order = new EntryOrder(what + (reverse ? " reverseIterator" : " iterator"), descending, ordered,
                        view);
                Iterator<KeyValue> iterator = reverse ? cursor.reverseIterator() : cursor.iterator();
                for (int i = entries; i > 0 && iterator.hasNext(); i--) {
                    order.visit(iterator.next());
                }
            } else {
                order = new EntryOrder(what + (reverse ? " reverseStream" : " stream"), descending, ordered, view);
                (reverse ? cursor.reverseStream() : cursor.stream()).limit(entries).forEach(order::visit);
            }
        }

        /**
         * Verifies each entry a cursor read path shows (against the cursor's view, when
         * known), and (when ordered) that the keys come in its order, skipping none of the view's.
         */
        private final class EntryOrder {
            private final String path;
            private final boolean descending;
            private final boolean ordered;
            private final View view;
            private byte[] previous;

            EntryOrder(String path, boolean descending, boolean ordered, View view) {
                this.path = path;
                this.descending = descending;
                this.ordered = ordered;
                this.view = view;
            }

            void visit(KeyValue entry) {
                visit(MemorySegment.ofArray(entry.key()), MemorySegment.ofArray(entry.value()));
            }

            void visit(MemorySegment key, MemorySegment value) {
                verifyEntry(path, key, value, view);
                byte[] current = key.toArray(ValueLayout.JAVA_BYTE);
                if (ordered && previous != null) {
                    int order = Arrays.compareUnsigned(previous, current);
                    if (descending ? order <= 0 : order >= 0) {
                        throw new AssertionError(path + " showed key " + new String(current, StandardCharsets.UTF_8)
                                + " after " + new String(previous, StandardCharsets.UTF_8));
                    }
                    byte[] skipped = view == null ? null : view.skippedBetween(previous, current);
                    if (skipped != null) {
                        throw new AssertionError(path + " went from " + new String(previous, StandardCharsets.UTF_8)
                                + " to " + new String(current, StandardCharsets.UTF_8) + ", skipping "
                                + new String(skipped, StandardCharsets.UTF_8) + ", which its view holds");
                    }
                }
                previous = current;
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
                    expect(Operation.RELEASE_VIEWS, e, where());
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
                        // Another thread may close the arena between the pin and the read (which then throws).
                        byte[] read = pinned.toArray(ValueLayout.JAVA_BYTE);
                        check(expected, verified("getPinned into a shared arena", key, read), n);
                        sharedPins.set(slot, new Pin(key, pinned, read));
                    } else {
                        check(expected, null, n);
                    }
                }
                case 1 -> {
                    Pin pin = sharedPins.get(slot);
                    if (pin != null) {
                        // A copy, so that the arena closing midway throws rather than leaving half a value to check.
                        byte[] read = verified("a shared pin", pin.key(), pin.value().toArray(ValueLayout.JAVA_BYTE));
                        if (!Arrays.equals(pin.pinned(), read)) {
                            throw new AssertionError("a shared pin of " + new String(pin.key(), StandardCharsets.UTF_8)
                                    + " read " + describe(read) + " where it pinned " + describe(pin.pinned())
                                    + " (another value)");
                        }
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
            int use = random.nextInt(4);
            Arena arena = confinedArenas.get(other);
            MemorySegment segment = confinedSegments.get(other);
            if (arena == null || other == id) {
                return;
            }
            switch (use) {
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
            int use = random.nextInt(5);
            byte[] key = ("shared-" + random.nextInt(100)).getBytes(StandardCharsets.UTF_8);
            byte[] value = value(key);
            WriteBatch batch = sharedBatches.get(slot);
            if (batch == null) {
                sharedBatches.compareAndSet(slot, null, new WriteBatch());
                return;
            }
            switch (use) {
                case 0, 1 -> batch.put(key, value);
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

        /**
         * Creates, drops, writes and reads column families. The families the
         * workers create have {@link #FAMILY_OPTIONS}: keys in reverse order,
         * and merges by a merge operator written in Java.
         */
        private void families(RocksDb db) {
            int use = random.nextInt(4);
            int pick = random.nextInt(Integer.MAX_VALUE);
            List<String> names = db.columnFamilyNames();
            String name = names.get(pick % names.size());
            switch (use) {
                case 0 -> {
                    if (names.size() < 6) {
                        String created = "f" + id + "-" + step; // unique without shared counters
                        synchronized (createdFamilies.get(slot)) {
                            db.createColumnFamily(created, FAMILY_OPTIONS);
                            createdFamilies.get(slot).add(created);
                        }
                    }
                }
                case 1 -> {
                    Keyspace family = db.columnFamily(name); // null when another thread dropped it since
                    if (family != null) {
                        synchronized (createdFamilies.get(slot)) {
                            db.dropColumnFamily(family);
                            createdFamilies.get(slot).remove(name);
                        }
                    }
                }
                default -> {
                    Keyspace family = db.columnFamily(name);
                    if (family == null) {
                        return;
                    }
                    boolean created = !name.equals("default");
                    // Only this thread writes its key, so it reads back what it just wrote (or the family is gone).
                    byte[] key = ("family-" + id).getBytes(StandardCharsets.UTF_8);
                    byte[] value = value(key);
                    boolean merged = created && random.nextBoolean();
                    if (merged) {
                        family.merge(key, value);
                    } else {
                        family.put(key, value);
                    }
                    byte[] read = get(family, key, random.nextInt(6));
                    if (!Arrays.equals(value, read)) {
                        throw new AssertionError("family " + name + " read " + describe(read) + " under "
                                + new String(key, StandardCharsets.UTF_8) + " just after a "
                                + (merged ? "merge" : "put") + " of " + describe(value));
                    }
                    try (Cursor cursor = family.cursor()) {
                        walk("cursor of family " + name, cursor, random.nextBoolean(), 1 + random.nextInt(20), true,
                                null, created);
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
            int use = random.nextInt(3);
            Snapshot snapshot = db.snapshot();
            snapshot.close();
            snapshot.close();
            Cursor cursor = db.cursor();
            cursor.close();
            cursor.close();
            WriteBatch batch = new WriteBatch();
            batch.close();
            batch.close();
            switch (use) {
                case 0 -> cursor.first();
                case 1 -> db.get(ReadOptions.DEFAULT.snapshot(snapshot), key(0));
                default -> batch.put(key(0), key(0));
            }
            throw new AssertionError("a closed resource was used without an exception");
        }

        /** Opens the database of a slot, numbers this open and logs it. */
        private RocksDb open(int slot, String what) {
            RocksDb db;
            if (slot == TRANSACTIONAL) {
                boolean pessimisticOpen = random.nextBoolean();
                synchronized (createdFamilies.get(slot)) {
                    db = RocksDb.openTransactional(dir.resolve("db" + slot), optionsNamingFamilies(slot),
                            pessimisticOpen ? TransactionDbOptions.pessimistic() : TransactionDbOptions.optimistic());
                }
                pessimistic.put(db, pessimisticOpen);
                // Prepared transactions whose commit a close cut off: their threads' models hold them
                // uncommitted, so every open that recovers them rolls them back before anyone reads.
                for (Transaction prepared : db.preparedTransactions()) {
                    try (prepared) {
                        prepared.rollback();
                    }
                }
            } else {
                synchronized (createdFamilies.get(slot)) {
                    db = RocksDb.open(dir.resolve("db" + slot), optionsNamingFamilies(slot));
                }
            }
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
