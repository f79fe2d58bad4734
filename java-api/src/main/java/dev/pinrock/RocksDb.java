package dev.pinrock;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import dev.pinrock.internal.Binding;
import dev.pinrock.internal.Callbacks;
import dev.pinrock.internal.FfmDb;
import dev.pinrock.internal.MultiGet;
import dev.pinrock.internal.NativeLibrary;
import dev.pinrock.internal.NativeStatistics;
import dev.pinrock.internal.ResourceGuard;
import dev.pinrock.internal.SharedHandles;

/**
 * An open RocksDB database.
 *
 * <p><b>Access modes.</b> {@code put}, {@code delete} and the copying
 * {@code get} come for {@code byte[]}, {@link ByteBuffer} (direct or heap) and
 * {@link MemorySegment} (native or heap); the other calls take the forms their
 * own documentation lists. Reads either allocate the result ({@link #get(byte[])}), copy into a
 * caller's buffer and return the value's length ({@link #get(byte[], byte[])},
 * {@link #get(ByteBuffer, ByteBuffer)}, {@link #get(MemorySegment, MemorySegment)}),
 * or hand out a zero-copy view of RocksDB's own memory, owned by the caller's
 * arena ({@link #getPinned(Arena, MemorySegment)}) or valid while a reader runs
 * ({@link #getPinned(MemorySegment, java.util.function.Consumer)}).
 *
 * <p><b>Results.</b> An absent key is a return value: {@code null}, or
 * {@link #NOT_FOUND} from the into-buffer reads. Failures throw
 * {@link RocksDbException} with the RocksDB status code and message.
 *
 * <p><b>Threads and lifetime.</b> All methods are thread-safe. {@link #close()}
 * is idempotent and thread-safe: it waits for calls in flight on other threads
 * to return, then closes the database; every later call throws
 * {@link IllegalStateException}. Pinned segments belong to the arena they were
 * read into, not to the database: each keeps the memory it views alive, so a
 * pinned segment stays valid after the database closes, until its arena
 * closes. After the arena closes, any access to the segment throws
 * {@link IllegalStateException}.
 *
 * <p><b>Column families.</b> The keyed operations ({@link Keyspace}) of a
 * {@code RocksDb} act on its default column family; {@link #columnFamily(String)}
 * and {@link #createColumnFamily(String)} give the others. Opening a database
 * opens all of its families.
 */
public final class RocksDb extends Keyspace implements AutoCloseable {
    private final Path path;
    /** How the data path reaches native code, for this database and its column families. */
    final Binding binding;
    /** The memory budget the database was opened with, or null; families created later share it. */
    private final MemoryBudget memoryBudget;
    /** Snapshots and cursors not yet closed; closing the database closes them first. */
    private final Set<Dependent> dependents = ConcurrentHashMap.newKeySet();
    /** Why every call is refused ({@link #poison}), and what caused it; set once, the cause first. */
    private volatile Throwable poisonCause;
    private volatile String poisonReason;
    /** The column families other than the default one, once asked for, by name. */
    private final Map<String, ColumnFamily> families = new ConcurrentHashMap<>();

    /** A native resource that belongs to this database and must be freed before it closes. */
    interface Dependent {
        /** Frees the resource natively, once; later calls return at once. */
        void closeNative();

        /**
         * @param thread a thread
         * @return whether thread is running a callback (a cursor's scan visitor or reader) of
         *     this resource, which a close of the database would wait for forever
         */
        default boolean callsBackOn(Thread thread) {
            return false;
        }

        /**
         * Refuses every later call on the resource (see
         * {@link ResourceGuard#poison}) whose answers the database's state
         * could make wrong; its close goes on working.
         *
         * @param reason why, for the exceptions
         * @param cause what made it so
         */
        default void poison(String reason, Throwable cause) {
        }
    }

    private RocksDb(Path path, FfmDb db, Binding binding, MemoryBudget memoryBudget) {
        super(db, binding.dataPath(db), new ResourceGuard("RocksDb " + path));
        this.path = path;
        this.binding = binding;
        this.memoryBudget = memoryBudget;
        db.comparators().onFailure(this::poison);
    }

    @Override
    public RocksDb database() {
        return this;
    }

    /**
     * Returns "default": a {@code RocksDb}'s keyed operations act on the default family.
     *
     * @return "default": a {@code RocksDb}'s keyed operations act on the default family
     */
    @Override
    public String name() {
        return "default";
    }

    @Override
    int familyId() {
        return 0;
    }

    /**
     * Opens the database in a directory. A database is its directory: a
     * process opens it once, under whatever path names it (through
     * {@code .}, {@code ..}, a symbolic link or a bind mount).
     *
     * @param path the database directory; with {@link DbOptions#createIfMissing(boolean)} it
     *     is created when missing (its parent must exist)
     * @param options the options to open with
     * @return the open database; the caller closes it
     * @throws RocksDbException.InvalidArgumentException when the database is missing (without
     *     createIfMissing), exists (with errorIfExists), an option value is out of range, or a
     *     column family is given another merge operator than it was last opened with (see
     *     {@link DbOptions#columnFamily(String, DbOptions)}), before anything is recovered
     * @throws RocksDbException.RocksIoException when the directory cannot be created or used, or
     *     the database is already open, in this process (under any path naming its directory,
     *     or being repaired) or another
     * @throws RocksDbException.CorruptionException when the database's files are damaged
     * @throws IllegalStateException when the options' memory budget, rate limiter or SST file
     *     manager is closed
     */
    public static RocksDb open(Path path, DbOptions options) {
        return open(path, options, Binding.FFM);
    }

    /** Opens through a chosen binding: the JNI variant is reachable only from within pinrock. */
    static RocksDb open(Path path, DbOptions options, Binding binding) {
        return open(path, options, binding, (absolute, shared) -> FfmDb.open(absolute, options, shared));
    }

    /**
     * Opens with open, given the absolute path and the handles of the objects
     * the options share, holding those objects meanwhile.
     */
    private static RocksDb open(Path path, DbOptions options, Binding binding,
            BiFunction<Path, SharedHandles, FfmDb> open) {
        NativeLibrary.load(); // before any class that needs the library, see NativeLibrary
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(options, "options");
        Path absolute = path.toAbsolutePath();
        FfmDb db = SharedObject.withHandles(options.memoryBudget(), options.rateLimiter(), options.sstFileManager(),
                shared -> open.apply(absolute, shared));
        return new RocksDb(absolute, db, binding, options.memoryBudget());
    }

    /**
     * Opens a database for transactions ({@link #beginTransaction()}), as
     * {@link #open(Path, DbOptions)} opens one: the result is an ordinary
     * database in every other way, and the directory holds an ordinary
     * RocksDB database, which either open may open next. In a pessimistic
     * database (RocksDB's {@code TransactionDB}, WRITE_COMMITTED) the
     * database's own writes ({@code put}, {@code delete}, {@code write}
     * and the rest) also lock their keys while they write, waiting up to
     * {@link TransactionDbOptions#defaultLockTimeoutMillis(long)} for a key a
     * transaction holds ({@link RocksDbException.TimedOutException}); in an
     * optimistic one they never wait, and make the transactions that read or
     * wrote their keys fail to commit. Range deletes ({@code deleteRange},
     * and write batches holding one) are refused with
     * {@link RocksDbException.InvalidArgumentException}, nothing written:
     * RocksDB's transactions track keys, not ranges. So are single deletes
     * outside transactions in a pessimistic database ({@code singleDelete}
     * on the database or a family, and write batches holding one): RocksDB
     * 9.10 takes no lock for them (a transaction's own are locked).
     *
     * <p>A pessimistic open records RocksDB's {@code allow_2pc} in the
     * directory's OPTIONS file, and every later open of the directory, of
     * any kind, keeps it: its log may hold prepared transactions (see
     * {@link Transaction#prepare()}) and commits of them whose values only
     * the log holds, which a recovery without it would drop.
     *
     * @param path the database directory
     * @param options the options to open with
     * @param transactions pessimistic or optimistic, with their settings
     * @return the open database; the caller closes it
     * @throws RocksDbException as {@link #open(Path, DbOptions)} throws
     * @throws IllegalStateException as {@link #open(Path, DbOptions)} throws
     */
    public static RocksDb openTransactional(Path path, DbOptions options, TransactionDbOptions transactions) {
        Objects.requireNonNull(transactions, "transactions");
        return open(path, options, Binding.FFM, (absolute, shared) -> FfmDb.openTransactional(absolute, options,
                shared, transactions.isOptimistic(), transactions.lockTimeoutMillis(),
                transactions.defaultLockTimeoutMillis(), transactions.maxLocks(), transactions.deadlockDetectDepth(),
                transactions.parallelValidation()));
    }

    /**
     * Begins a transaction with {@link TransactionOptions#DEFAULT}.
     *
     * @return the transaction; the caller closes it (closing the database does too)
     * @throws RocksDbException with {@link StatusCode#NOT_SUPPORTED} when the database was not
     *     opened with {@link #openTransactional(Path, DbOptions, TransactionDbOptions)}
     * @throws IllegalStateException when the database is closed
     */
    public Transaction beginTransaction() {
        return beginTransaction(TransactionOptions.DEFAULT);
    }

    /**
     * Begins a transaction; see {@link Transaction}.
     *
     * @param options how the transaction locks, snapshots and commits
     * @return the transaction; the caller closes it (closing the database does too)
     * @throws RocksDbException with {@link StatusCode#NOT_SUPPORTED} when the database was not
     *     opened with {@link #openTransactional(Path, DbOptions, TransactionDbOptions)}
     * @throws RocksDbException.InvalidArgumentException when the write options sync without the
     *     write-ahead log
     * @throws IllegalStateException when the database is closed
     */
    public Transaction beginTransaction(TransactionOptions options) {
        Objects.requireNonNull(options, "options");
        guard.acquire();
        try {
            return Transaction.begin(this, options);
        } finally {
            guard.release();
        }
    }

    /**
     * Hands out the undecided prepared transactions (see
     * {@link Transaction#prepare()}) that no open {@link Transaction} holds:
     * those this database recovered from its write-ahead log at open, named
     * and prepared as before and holding no locks (RocksDB recovers them
     * without; decide them before writing their keys otherwise), and those
     * closed undecided since, with their locks. Commit or roll back each;
     * one closed undecided again is handed out again, and after the
     * database's close, by the next open. Empty for a database not opened
     * pessimistic (one opened otherwise keeps what was prepared for the next
     * pessimistic open).
     *
     * @return the undecided prepared transactions no open transaction holds; the caller closes
     *     them (closing the database does too)
     * @throws IllegalStateException when the database is closed
     */
    public List<Transaction> preparedTransactions() {
        guard.acquire();
        try {
            return Transaction.takePrepared(this);
        } finally {
            guard.release();
        }
    }

    /**
     * Returns the version of the RocksDB engine inside pinrock's native library.
     *
     * @return e.g. "9.10.0"
     */
    public static String engineVersion() {
        NativeLibrary.load(); // before any class that needs the library, see NativeLibrary
        int version = FfmDb.engineVersion();
        return version / 10000 + "." + version / 100 % 100 + "." + version % 100;
    }

    /**
     * Returns the absolute path of the database directory.
     *
     * @return the absolute path of the database directory
     */
    public Path path() {
        return path;
    }

    /**
     * Reads many keys of several column families of this database in one
     * native call (one batched RocksDB MultiGet), with read options: key
     * {@code i} from {@code families.get(i)}, all as of one state (the
     * options' snapshot, or the latest state).
     *
     * @param options how to read
     * @param families a keyspace per key: this database or its column families
     * @param keys the keys, in any order, duplicates allowed
     * @return the values in the order of the keys, {@code null} where a key is absent
     * @throws IllegalArgumentException when families and keys differ in size, or a family or the
     *     snapshot belongs to another database
     * @throws RocksDbException for the first key whose read failed
     * @throws IllegalStateException when the database or the snapshot is closed, or a family dropped
     */
    public List<byte[]> multiGet(ReadOptions options, List<? extends Keyspace> families, List<byte[]> keys) {
        byte[][] keyArray = keyArray(keys);
        List<Keyspace> familyList = familiesOf(families, keyArray.length);
        int[] statuses = new int[keyArray.length];
        byte[][] values;
        List<Keyspace> held = hold(familyList);
        try {
            long snapshot = acquire(options);
            try {
                values = data.multiGet(keyArray, statuses, readsOf(options, snapshot, owners(familyList)));
            } finally {
                release(options);
            }
        } finally {
            releaseAll(held);
        }
        MultiGet.requireAllAnswered(statuses);
        return Arrays.asList(values);
    }

    /**
     * Reads many keys of several column families of this database in one
     * native call without copying, with read options: each found value is
     * pinned and viewed by a read-only segment of {@code arena}, as
     * {@link #multiGetPinned(Arena, List)} does; key {@code i} from
     * {@code families.get(i)}; see {@link #multiGet(ReadOptions, List, List)}.
     *
     * @param options how to read
     * @param arena the arena the segments belong to; closing it releases the pins
     * @param families a keyspace per key: this database or its column families
     * @param keys the keys (native or heap segments), in any order
     * @return a segment per key, in the order of the keys, null where a key is absent
     */
    public List<MemorySegment> multiGetPinned(ReadOptions options, Arena arena, List<? extends Keyspace> families,
            List<MemorySegment> keys) {
        Objects.requireNonNull(arena, "arena");
        List<MemorySegment> keyList = List.copyOf(Objects.requireNonNull(keys, "keys"));
        List<Keyspace> familyList = familiesOf(families, keyList.size());
        List<Keyspace> held = hold(familyList);
        try {
            long snapshot = acquire(options);
            try {
                return MultiGet.pinned(data, readsOf(options, snapshot, owners(familyList)), arena, keyList);
            } finally {
                release(options);
            }
        } finally {
            releaseAll(held);
        }
    }

    /** The families of a cross-family read, one per key, each checked to be of this database. */
    private List<Keyspace> familiesOf(List<? extends Keyspace> families, int keys) {
        List<Keyspace> familyList = List.copyOf(Objects.requireNonNull(families, "families"));
        if (familyList.size() != keys) {
            throw new IllegalArgumentException(familyList.size() + " families for " + keys + " keys");
        }
        for (Keyspace family : familyList) {
            if (family.database() != this) {
                throw new IllegalArgumentException("the family " + family.name() + " belongs to " + family.database());
            }
        }
        return familyList;
    }

    /**
     * Holds each distinct family of a cross-family read for the call, so that
     * a drop waits for it; a dropped one releases those held and throws.
     */
    private static List<Keyspace> hold(List<Keyspace> families) {
        List<Keyspace> held = new ArrayList<>();
        try {
            for (Keyspace family : families) {
                if (!containsSame(held, family)) {
                    family.acquire();
                    held.add(family);
                }
            }
        } catch (RuntimeException e) {
            releaseAll(held);
            throw e;
        }
        return held;
    }

    private static void releaseAll(List<Keyspace> held) {
        for (Keyspace family : held) {
            family.release();
        }
    }

    /** Whether list holds this very keyspace (a handful are held: no set, no stream, per key). */
    private static boolean containsSame(List<Keyspace> list, Keyspace keyspace) {
        for (Keyspace element : list) {
            if (element == keyspace) {
                return true;
            }
        }
        return false;
    }

    private static List<FfmDb> owners(List<Keyspace> families) {
        FfmDb[] owners = new FfmDb[families.size()];
        for (int i = 0; i < owners.length; i++) {
            owners[i] = families.get(i).db;
        }
        return Arrays.asList(owners);
    }

    /**
     * Takes a snapshot: a consistent view of the database as it is now, for
     * reads through {@link ReadOptions#snapshot(Snapshot)}.
     *
     * @return the snapshot; the caller closes it (closing the database does too)
     * @throws IllegalStateException when the database is closed
     */
    public Snapshot snapshot() {
        guard.acquire();
        try {
            long handle = db.createSnapshot();
            Snapshot snapshot = new Snapshot(this, handle, () -> db.releaseSnapshot(handle));
            register(snapshot.dependent);
            return snapshot;
        } finally {
            guard.release();
        }
    }

    /** Registers a snapshot or cursor that closing the database must free first. */
    void register(Dependent dependent) {
        dependents.add(dependent);
        // Registered by a call admitted before a poison that then missed it in dependents.
        String reason = poisonReason;
        if (reason != null) {
            dependent.poison(reason, poisonCause);
        }
    }

    /**
     * Makes the database, and each cursor and transaction over it, refuse
     * every later call: a comparator written in Java threw, so its keys may
     * be out of order (see {@link KeyComparator}). Close still works.
     */
    private void poison(String comparatorName, Throwable cause) {
        String reason = "its comparator " + comparatorName + " threw, so its keys may be out of order and it writes"
                + " no more table files: close the database and open it again with a comparator that answers";
        synchronized (dependents) {
            if (poisonReason != null) {
                return;
            }
            poisonCause = cause;
            poisonReason = reason;
        }
        guard.poison(reason, cause);
        for (Dependent dependent : dependents) {
            dependent.poison(reason, cause);
        }
    }

    /**
     * Frees a snapshot or cursor once; a no-op when the database already freed
     * it on close. While the database is open, its guard is held so that it
     * does not close natively under the dependent's close. While it is closing
     * (or closed), the dependent is freed directly, never waiting for the
     * database's close (which may itself wait for a scan whose visitor is this
     * caller): that close frees every dependent not yet freed before the
     * native close, and the dependent's own guard makes the two frees of it
     * one.
     */
    void release(Dependent dependent) {
        boolean databaseOpen = guard.tryAcquire();
        try {
            dependent.closeNative();
        } finally {
            if (databaseOpen) {
                guard.release();
            }
        }
    }

    /** Drops a freed snapshot or cursor from the ones closing the database frees. */
    void forget(Dependent dependent) {
        dependents.remove(dependent);
    }

    /**
     * Applies a batch atomically, with {@link WriteOptions#DEFAULT}.
     *
     * @param batch the operations; unchanged, reusable after the call
     * @throws RocksDbException.InvalidArgumentException when the batch merges into a database
     *     without a merge operator (nothing is applied)
     * @throws RocksDbException when RocksDB fails the write (nothing is applied)
     * @throws IllegalStateException when the database or the batch is closed
     */
    public void write(WriteBatch batch) {
        write(batch, WriteOptions.DEFAULT);
    }

    /**
     * Applies a batch atomically: every operation or none, also across a crash.
     *
     * @param batch the operations; unchanged, reusable after the call
     * @param options durability of the write
     * @throws RocksDbException.InvalidArgumentException when the batch merges into a database
     *     without a merge operator, or sync is combined with disableWal (nothing is applied)
     * @throws RocksDbException when RocksDB fails the write (nothing is applied), with
     *     {@link StatusCode#SHUTDOWN_IN_PROGRESS} when the database was closed while the write
     *     waited out a write stall
     * @throws IllegalArgumentException when the batch names keyspaces of another database (its
     *     default family included; nothing is applied)
     * @throws IllegalStateException when the database or the batch is closed, or the batch is in
     *     use by another thread
     */
    public void write(WriteBatch batch, WriteOptions options) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(options, "options");
        batch.writeInto(this, encoded -> writeEncoded(encoded, options));
    }

    /**
     * Applies a batch with index atomically, with {@link WriteOptions#DEFAULT}.
     *
     * @param batch the records; kept in the batch, which reads them until cleared
     * @see #write(WriteBatchWithIndex, WriteOptions)
     */
    public void write(WriteBatchWithIndex batch) {
        write(batch, WriteOptions.DEFAULT);
    }

    /**
     * Applies a batch with index atomically: every record or none, also
     * across a crash, as {@link #write(WriteBatch, WriteOptions)} applies a
     * batch. The batch keeps its records (reads through it see them over
     * the database that now holds them too) until {@link WriteBatchWithIndex#clear()}.
     *
     * @param batch the records
     * @param options durability of the write
     * @throws RocksDbException.InvalidArgumentException when a record's family was dropped since
     *     it was added, or sync is combined with disableWal (nothing is applied)
     * @throws RocksDbException when RocksDB fails the write (nothing is applied)
     * @throws IllegalArgumentException when the batch reads over another database
     * @throws IllegalStateException when the database or the batch is closed, or the batch is in
     *     use by another thread
     */
    public void write(WriteBatchWithIndex batch, WriteOptions options) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(options, "options");
        batch.writeInto(this, encoded -> writeEncoded(encoded, options));
    }

    /** Writes an encoded batch, of either batch kind, with the database held. */
    private void writeEncoded(MemorySegment encoded, WriteOptions options) {
        guard.acquire();
        try {
            data.write(encoded, options.flags());
        } finally {
            guard.release();
        }
    }

    /**
     * Writes a consistent copy of the database, openable on its own, into a
     * new directory. Table files are hard-linked when the directory is on
     * the same file system, so a checkpoint costs little space or time.
     *
     * @param directory the directory to create; its parent must exist
     * @throws RocksDbException.InvalidArgumentException when the directory exists
     * @throws RocksDbException when RocksDB fails the checkpoint
     * @throws IllegalStateException when the database is closed
     */
    public void checkpoint(Path directory) {
        Objects.requireNonNull(directory, "directory");
        adminRun(owner -> owner.checkpoint(directory.toAbsolutePath()));
    }

    /**
     * Changes database-wide options while the database is open, by RocksDB's
     * own names and values as {@link DbOptions#databaseOptions(String)} takes
     * them (RocksDB's {@code SetDBOptions}): only those RocksDB can change
     * while open, such as {@code max_background_jobs}, {@code bytes_per_sync}
     * or {@code max_total_wal_size}. RocksDB records them in a new OPTIONS file;
     * the next open takes its options from {@link DbOptions} again. Column
     * family options change with {@link #setFamilyOptions(String)}. RocksDB's
     * own rule: a change while open takes {@code bytes_per_sync=0} (its
     * default, background syncs off) as 1 MiB, whether the string names it or
     * it was 0 before; only an open (without a rate limiter) keeps it 0.
     *
     * @param options the option string
     * @throws RocksDbException.InvalidArgumentException naming the string and the option, when RocksDB
     *     cannot change it while open, does not know it, pinrock refuses it (as at open), or it is a
     *     value an open would have corrected (such as {@code max_write_buffer_number=0} or level-0
     *     triggers of 0, which RocksDB takes as they are while open and which stop writes for good;
     *     the message says what an open would use); nothing is changed then
     * @throws IllegalArgumentException when options contains a NUL character or an unpaired surrogate
     * @throws IllegalStateException when the database is closed
     */
    public void setDatabaseOptions(String options) {
        Objects.requireNonNull(options, "options");
        adminRun(owner -> owner.setOptions(false, options));
    }

    /**
     * Changes database-wide options while the database is open, as
     * {@link #setDatabaseOptions(String)} does, to what options set: every
     * option its {@link DbOptions#databaseOptions(String) database option
     * strings} name (the typed shorthands that add them included, e.g.
     * {@link DbOptions#maxBackgroundJobs(int)} or {@link DbOptions#bytesPerSync(long)}),
     * with the last value given, and every typed setting that differs from
     * {@link DbOptions#create()}'s, the typed value winning over a string's as
     * at open. E.g. {@code setDatabaseOptions(DbOptions.create().maxBackgroundJobs(4))}.
     * Options equal to {@link DbOptions#create()} change nothing. Column
     * family options change with {@link #setFamilyOptions(DbOptions)}.
     *
     * @param options the options to change
     * @throws RocksDbException.InvalidArgumentException naming them, when RocksDB cannot change one
     *     while open (e.g. {@link DbOptions#maxOpenFiles(int)}, {@link DbOptions#paranoidChecks(boolean)}),
     *     options also set column family or table options, or what only an open takes (the block
     *     cache, a memory budget, rate limiter or SST file manager, statistics, the info log,
     *     {@link DbOptions#memoryFirstReads(boolean)}, families' own options); nothing is changed then
     * @throws IllegalStateException when the database or a shared object options names is closed
     */
    public void setDatabaseOptions(DbOptions options) {
        setOptions(false, options);
    }

    /**
     * Reads RocksDB's statistics: every ticker and histogram, in one native call.
     *
     * @return the statistics now
     * @throws RocksDbException with {@link StatusCode#NOT_SUPPORTED} when the database was
     *     opened without {@link DbOptions#statistics(StatsLevel)}
     * @throws IllegalStateException when the database is closed
     */
    public Statistics statistics() {
        return adminCall(NativeStatistics::read);
    }

    /**
     * Sets every ticker and histogram back to zero.
     *
     * @throws RocksDbException with {@link StatusCode#NOT_SUPPORTED} without statistics
     * @throws IllegalStateException when the database is closed
     */
    public void resetStatistics() {
        adminRun(FfmDb::resetStatistics);
    }

    /**
     * Asks RocksDB to recover from the background error that stopped the
     * database's flushes or writes (RocksDB's {@code DB::Resume}): it flushes
     * what it must and accepts them again. Needed after an error when
     * {@link DbOptions#autoRecovery(boolean)} is false, or when RocksDB's own
     * recovery gave up; an {@link EventListener} is told of the error and of
     * the recovery's end. Returns at once when there is nothing to recover
     * from.
     *
     * @throws RocksDbException with RocksDB's status when the error persists (a disk still
     *     full, an unrecoverable error: then only a reopen helps) or a recovery is under way
     * @throws IllegalStateException when the database is closed
     */
    public void resume() {
        adminRun(FfmDb::resume);
    }

    /**
     * Reads the approximate memory the database uses: memtables, table
     * readers and the block cache.
     *
     * @return the usage now
     * @throws IllegalStateException when the database is closed
     */
    public MemoryUsage memoryUsage() {
        return adminCall(NativeStatistics::memoryUsage);
    }

    /**
     * Rebuilds the metadata of a closed database from the table and log files
     * in its directory (RocksDB's {@code RepairDB}): the way back in when the
     * {@code MANIFEST} or {@code CURRENT} file is lost or damaged and
     * {@link #open(Path, DbOptions)} fails. Recovery is best effort: records in
     * damaged table files, and deletions the lost metadata alone knew about, may
     * not come back; files repair cannot use are moved to {@code path/lost}.
     * A database whose metadata is intact (it names every table file in the
     * directory) keeps every acknowledged write: it is first opened once, so
     * that its recovery writes the log into table files, and each column family
     * holding an ingested file is compacted (RepairDB cannot take such a file).
     * Every column family the database had is there afterwards, empty ones too,
     * each fully compacted (so that gets and cursors agree on every key).
     * Without the metadata, a column family is known by its table files alone:
     * writes only in the log of a family with none yet are lost, and so is an
     * ingested file not compacted since (moved to {@code path/lost}).
     * A database that keeps values in blob files ({@code enable_blob_files}) is refused before
     * anything changes: RepairDB takes table and log files only, and the blob files, with every
     * value in them, would be deleted by the next open. Refused are a blob file in the directory,
     * a column family last opened with blob files enabled, and options here that enable them.
     * Back the directory up first. Refuses a database open in this process
     * (under any path naming its directory) or another; an open of it while
     * the repair runs fails the same way.
     *
     * @param path the database directory
     * @param options the options the database is opened with: each column family named with
     *     {@link DbOptions#columnFamily(String, DbOptions)} is repaired with its own, the others
     *     with these
     * @throws RocksDbException.InvalidArgumentException when path is not a directory, or a
     *     column family is given another merge operator than it was last opened with
     * @throws RocksDbException.RocksIoException when the database is open, in this process or
     *     another
     * @throws RocksDbException with {@link StatusCode#NOT_SUPPORTED} when the database uses blob
     *     files, or options enable them; or when a pessimistic transactional open wrote it and log
     *     files remain (RocksDB's repair would apply every prepared transaction they hold, rolled
     *     back or not: open it with {@link #openTransactional(Path, DbOptions, TransactionDbOptions)})
     * @throws RocksDbException when the repair fails (e.g. an I/O error), with RocksDB's status
     */
    public static void repair(Path path, DbOptions options) {
        NativeLibrary.load(); // before any class that needs the library, see NativeLibrary
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(options, "options");
        FfmDb.repair(path.toAbsolutePath(), options);
    }

    /**
     * Lists the column families of a database that need not be open.
     *
     * @param path the database directory
     * @return the family names, "default" included
     * @throws RocksDbException.RocksIoException when there is no database at path
     */
    public static List<String> listColumnFamilies(Path path) {
        NativeLibrary.load(); // before any class that needs the library, see NativeLibrary
        Objects.requireNonNull(path, "path");
        return FfmDb.listFamilies(path.toAbsolutePath());
    }

    /**
     * Returns the names of the database's column families.
     *
     * @return the names, "default" included, dropped families excluded
     * @throws IllegalStateException when the database is closed
     */
    public List<String> columnFamilyNames() {
        return adminCall(FfmDb::familyNames);
    }

    /**
     * Returns a column family by name.
     *
     * @param name the family's name
     * @return the family (this database for "default"), or null when there is none of that name
     * @throws IllegalArgumentException when name contains a NUL character or an unpaired surrogate
     * @throws IllegalStateException when the database is closed
     */
    public Keyspace columnFamily(String name) {
        Objects.requireNonNull(name, "name");
        if (name.equals(name())) {
            return this;
        }
        guard.acquire();
        try {
            // One ColumnFamily per native handle: its guard is what a drop waits on.
            ColumnFamily family = families.compute(name, (unused, known) -> {
                if (known != null && !known.isDropped()) {
                    return known;
                }
                FfmDb handle = db.family(name);
                return handle == null ? known : new ColumnFamily(this, name, handle);
            });
            return family == null || family.isDropped() ? null : family;
        } finally {
            guard.release();
        }
    }

    /**
     * Creates a column family with the options of the default family.
     *
     * @param name the new family's name
     * @return the family
     * @throws RocksDbException.InvalidArgumentException when a family of that name exists
     * @throws IllegalArgumentException when name contains a NUL character or an unpaired surrogate
     * @throws IllegalStateException when the database is closed
     */
    public ColumnFamily createColumnFamily(String name) {
        return createColumnFamily(name, null);
    }

    /**
     * Creates a column family with its own options (see
     * {@link DbOptions#columnFamily(String, DbOptions)} for which apply). To
     * reopen the database with the same options, name them with
     * {@link DbOptions#columnFamily(String, DbOptions)}.
     *
     * @param name the new family's name
     * @param options the family's options, or null for those of the default family
     * @return the family
     * @throws RocksDbException.InvalidArgumentException when a family of that name exists, an
     *     option is out of range, or a family of that name dropped since the database opened had
     *     another {@link DbOptions#comparator(KeyComparator) comparator} (RocksDB would refuse to
     *     open the database until an open has forgotten the dropped family: reopen first)
     * @throws IllegalArgumentException when options has what
     *     {@link DbOptions#columnFamily(String, DbOptions)} refuses (a memory budget, rate limiter,
     *     SST file manager, event listener or info log of its own), or name contains a NUL character
     *     or an unpaired surrogate
     * @throws IllegalStateException when the database is closed
     */
    public ColumnFamily createColumnFamily(String name, DbOptions options) {
        Objects.requireNonNull(name, "name");
        if (options != null) {
            DbOptions.requireFamilyOptions(options);
        }
        guard.acquire();
        try {
            // Created while columnFamily(name) waits, so that it finds this one.
            return families.compute(name, (unused, known) -> new ColumnFamily(this, name,
                    SharedObject.withHandles(memoryBudget, null, null, shared -> db.createFamily(name, options, shared))));
        } finally {
            guard.release();
        }
    }

    /**
     * Drops a column family and its data. The drop waits for the calls on the
     * family in flight on other threads to return (a write among them is
     * applied before the drop), then frees what RocksDB keeps of the family,
     * so that no dropped family holds memory or stalls the other families'
     * writes; an open cursor on the family keeps the family's memtables until
     * it is closed. Later calls on the family throw
     * {@link IllegalStateException}. Thread-safe.
     *
     * <p>No family is dropped while prepared transactions may be undecided
     * (see {@link Transaction#prepare()}): in a pessimistic database while it
     * holds one, and in any other open of a directory a pessimistic open
     * wrote. RocksDB 9.10 cannot recover a prepared transaction that wrote
     * into a family dropped since (its open crashes).
     *
     * @param family a family of this database
     * @throws IllegalArgumentException when the family belongs to another database
     * @throws RocksDbException.InvalidArgumentException for the default family, and while prepared
     *     transactions may be undecided
     * @throws IllegalStateException when the database is closed or the family already dropped
     *     (or being dropped by another thread)
     */
    public void dropColumnFamily(Keyspace family) {
        Objects.requireNonNull(family, "family");
        if (family.database() != this) {
            throw new IllegalArgumentException(family + " belongs to " + family.database());
        }
        guard.acquire();
        try {
            if (family instanceof ColumnFamily columnFamily) {
                columnFamily.drop();
            } else {
                db.dropFamily(); // the default family, which RocksDB refuses to drop
            }
        } finally {
            guard.release();
        }
    }

    /**
     * Returns whether the database is still open.
     *
     * @return whether the database is still open
     */
    public boolean isOpen() {
        return !guard.isClosed();
    }

    /**
     * Closes the database: waits for calls in flight to return, closes its
     * cursors and snapshots, then releases its files and lock. Idempotent
     * and thread-safe; pinned segments stay valid until their arenas close.
     * Writes in flight waiting out a write stall do not hold the close up:
     * they give up unapplied, throwing {@link RocksDbException} with
     * {@link StatusCode#SHUTDOWN_IN_PROGRESS}.
     *
     * @throws RocksDbException when RocksDB reports an error while closing (the
     *     database is closed all the same)
     * @throws IllegalStateException when a cursor's entry views are open on another live
     *     thread: that cursor cannot be closed safely, so the database stays open and usable
     *     (cursors and snapshots closed before it stay closed); close again once that thread
     *     has moved the cursor or ended. The same, before anything is closed, when called from
     *     inside one of its cursors' scan visitor or reader (also while another thread is
     *     closing the database, whose close waits for that call): close again once that call
     *     has returned
     */
    @Override
    public void close() {
        Thread current = Thread.currentThread();
        if (dependents.stream().anyMatch(dependent -> dependent.callsBackOn(current))) {
            // Checked before waiting for another thread's close, which waits for that callback.
            throw Cursor.closedFromOwnCallback();
        }
        RocksDbException[] closeError = new RocksDbException[1];
        guard.close(() -> db.setClosing(true), () -> {
            // RocksDB's iterators and snapshots must go before the database.
            try {
                for (Dependent dependent : List.copyOf(dependents)) {
                    dependent.closeNative();
                }
            } catch (RuntimeException | Error e) {
                db.setClosing(false); // the database stays open
                throw e;
            }
            try {
                db.close();
            } catch (RocksDbException e) {
                closeError[0] = e; // the native handle is freed all the same: the guard must stay closed
            }
        });
        Callbacks.forgetReleased(); // RocksDB no longer calls the database's merge operators
        if (closeError[0] != null) {
            throw closeError[0];
        }
    }

    @Override
    public String toString() {
        return "RocksDb[" + path + (isOpen() ? "" : ", closed") + "]";
    }
}
