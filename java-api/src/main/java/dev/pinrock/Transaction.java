package dev.pinrock;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.pinrock.internal.BatchEncoding.Operation;
import dev.pinrock.internal.FfmTransaction;
import dev.pinrock.internal.KeyPath;

/**
 * A transaction of a database opened with
 * {@link RocksDb#openTransactional(java.nio.file.Path, DbOptions, TransactionDbOptions)}:
 * its writes stay its own, read back by its reads (its writes merged over
 * the database), until {@link #commit()} applies them all at once.
 *
 * <p>The keyed calls of {@link KeyedCalls} act on the default column family
 * in every access mode; {@link #in(Keyspace)} gives them for another family,
 * and {@link #forUpdate(Keyspace, boolean)} the same reads as reads for
 * update. A transaction's reads read as of its snapshot when it has one
 * ({@link TransactionOptions#setSnapshot(boolean)}, {@link #setSnapshot()}),
 * otherwise the latest state; {@link ReadOptions} with a snapshot read as of
 * that one instead (a read for update only as of the transaction's own).
 *
 * <p><b>Conflicts.</b> In a pessimistic database each key the transaction
 * writes or reads for update is locked until it ends; a key locked by
 * another makes the call wait, up to the lock timeout
 * ({@link RocksDbException.TimedOutException}), or fail at once when the
 * wait would close a cycle of waits and deadlock detection is on
 * ({@link RocksDbException.DeadlockException}). An optimistic transaction
 * locks nothing: its commit fails with
 * {@link RocksDbException.ConflictException} when another wrote a key it
 * wrote or read for update since. In either, with a snapshot, writing or
 * reading for update a key another wrote after the snapshot fails with
 * {@link RocksDbException.ConflictException}. A lock timeout's message names
 * the transactions holding the key then, a deadlock's the cycle of waits
 * RocksDB found (each transaction by its {@link #id()} and the key it waited
 * for). A write or read that fails so
 * leaves the transaction open, without that write; a commit that fails ends
 * it with nothing applied. Each is a {@link RocksDbException.RetryableException}:
 * roll back and retry in a new transaction.
 *
 * <p><b>Two-phase commit.</b> In a pessimistic database a transaction
 * named with {@link #setName(String)} may be {@link #prepare() prepared}
 * before it is committed or rolled back: once prepared, its writes survive
 * a crash or a close, and the next open hands it back, by name, through
 * {@link RocksDb#preparedTransactions()}, to be decided then (as it hands
 * out one closed undecided).
 *
 * <p><b>Cursors.</b> {@code cursor()} on the transaction or a family of it
 * walks the transaction's writes merged over the database (as of its
 * snapshot, when it has one), within the bounds and prefix of its
 * {@link ReadOptions}. A write of the transaction while such a cursor is
 * open shows through the cursor at its next move, and invalidates the entry
 * it is on, as the write may move the memory it is in: its views close, and
 * reading it (keys, values, {@code read}, scans) throws
 * {@link IllegalStateException} until the cursor moves ({@code next} and
 * {@code prev} step from it). A write while such views are open on another
 * live thread, or while a call of such a cursor is in flight on another
 * thread, is refused with {@link IllegalStateException}. A cursor's call holds the transaction, so
 * the transaction refuses calls from inside its cursors' scan visitors and
 * readers. {@code refresh} is not supported on them. {@link #commit()},
 * {@link #rollback()}, {@link #rollbackToSavePoint()} and {@link #close()}
 * close the transaction's cursors first: RocksDB's iterators over a
 * transaction die with its writes.
 *
 * <p><b>Threads and lifetime.</b> A transaction is not thread-safe: a call
 * made while another thread's call on it is in flight is refused with
 * {@link IllegalStateException}. After {@link #commit()} or
 * {@link #rollback()} every call but {@link #close()} is refused with
 * {@link RocksDbException.InvalidArgumentException}. {@link #close()} rolls
 * back a transaction not committed and frees it; it may come from any
 * thread, waits for a call in flight, and is idempotent. Closing the
 * database closes its transactions (after the calls in flight, each bounded
 * by its lock timeout). Values read pinned stay valid after the transaction
 * ends, as those of the database do.
 */
public final class Transaction extends PendingWrites implements AutoCloseable {
    private final FfmTransaction transaction;
    /** How the database frees this transaction natively, before it closes or when the transaction does. */
    final RocksDb.Dependent dependent = new RocksDb.Dependent() {
        @Override
        public void closeNative() {
            Transaction.this.closeNative();
        }

        @Override
        public void poison(String reason, Throwable cause) {
            guard.poison(reason, cause);
        }
    };

    private Transaction(RocksDb owner, FfmTransaction transaction) {
        super(transaction.path(owner.db, FfmTransaction.READ), owner, "Transaction");
        this.transaction = transaction;
    }

    /**
     * Takes the prepared transactions owner recovered at its open, each
     * once; owner's guard is held by the caller.
     */
    static List<Transaction> takePrepared(RocksDb owner) {
        List<Transaction> prepared = new ArrayList<>();
        for (FfmTransaction taken; (taken = FfmTransaction.takePrepared(owner.db)) != null;) {
            Transaction transaction = new Transaction(owner, taken);
            owner.register(transaction.dependent);
            prepared.add(transaction);
        }
        return List.copyOf(prepared);
    }

    /** Begins a transaction on owner, whose guard the caller holds. */
    static Transaction begin(RocksDb owner, TransactionOptions options) {
        int flags = (options.setSnapshot() ? FfmTransaction.SET_SNAPSHOT : 0)
                | (options.detectDeadlocks() ? FfmTransaction.DETECT_DEADLOCKS : 0);
        Transaction transaction = new Transaction(owner, FfmTransaction.begin(owner.db,
                options.writeOptions().flags(), flags, options.lockTimeoutMillis(), options.expirationMillis()));
        owner.register(transaction.dependent);
        return transaction;
    }

    /**
     * Returns the keyed calls of another column family of the database, in
     * this transaction; its reads are plain reads.
     *
     * @param family the database itself (its default family) or one of its column families
     * @return the family as this transaction sees it
     * @throws IllegalArgumentException when the family belongs to another database
     */
    public KeyedCalls in(Keyspace family) {
        return scope(family, FfmTransaction.READ);
    }

    /**
     * Returns the keyed calls of the default family whose reads are reads
     * for update, locking exclusively: {@code forUpdate(database(), true)}.
     *
     * @return the default family, read for update
     */
    public KeyedCalls forUpdate() {
        return forUpdate(owner, true);
    }

    /**
     * Returns the keyed calls of a column family in this transaction whose
     * reads, in every access mode, are reads for update (RocksDB's
     * {@code GetForUpdate}): in a pessimistic database each read locks its
     * key, exclusively or shared (others may read it for update shared too,
     * none may write it); in either kind, a write of the key by another
     * after the read, or after the transaction's snapshot, is a conflict of
     * this transaction. Such reads read as of the transaction's snapshot or
     * the latest state ({@link ReadOptions} naming another snapshot are
     * refused with {@link RocksDbException.InvalidArgumentException}).
     *
     * @param family the database itself (its default family) or one of its column families
     * @param exclusive whether the lock is exclusive rather than shared
     * @return the family, read for update
     * @throws IllegalArgumentException when the family belongs to another database
     */
    public KeyedCalls forUpdate(Keyspace family, boolean exclusive) {
        return scope(family, exclusive ? FfmTransaction.READ_FOR_UPDATE : FfmTransaction.READ_FOR_UPDATE_SHARED);
    }

    private KeyedCalls scope(Keyspace family, int lock) {
        return new Scope(this, requireOwn(family), transaction.path(family.db, lock));
    }

    /**
     * Names the transaction, for two-phase commit ({@link #prepare()}).
     *
     * @param name 1 to 512 bytes in UTF-8, unique among the database's transactions open or prepared
     * @throws RocksDbException.InvalidArgumentException when the transaction is named, prepared,
     *     done or optimistic, the name's length is out of range or another transaction has it
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public void setName(String name) {
        byte[] bytes = Objects.requireNonNull(name, "name").getBytes(StandardCharsets.UTF_8);
        run(() -> transaction.setName(bytes));
    }

    /**
     * Returns the transaction's name: the one {@link #setName(String)} gave
     * it, or the one it was prepared with for a transaction
     * {@link RocksDb#preparedTransactions()} recovered (its bytes read as
     * UTF-8).
     *
     * @return the name, or empty when the transaction has none
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public Optional<String> name() {
        byte[] name = call(transaction::name);
        return name.length == 0 ? Optional.empty() : Optional.of(new String(name, StandardCharsets.UTF_8));
    }

    /**
     * Prepares a named transaction (two-phase commit, pessimistic databases):
     * writes its writes to the write-ahead log as a prepared section
     * (synced when its {@link TransactionOptions#writeOptions()} sync),
     * which a crash or a close keeps. From then on the transaction reads
     * but changes nothing more (writes, reads for update, save points and
     * snapshots are refused with
     * {@link RocksDbException.InvalidArgumentException}) until
     * {@link #commit()} or {@link #rollback()} decides it. A prepared
     * transaction closed undecided stays prepared, with its locks, and
     * {@link RocksDb#preparedTransactions()} hands it out again; one left so
     * by closing the database or by a crash is recovered at the next open,
     * where the same call hands it out. While one is undecided no column
     * family can be dropped ({@link RocksDb#dropColumnFamily(Keyspace)}).
     * Closes the transaction's cursors first.
     *
     * @throws RocksDbException.InvalidArgumentException when the transaction has no name, is
     *     prepared or done, is optimistic, wrote into a family dropped since, or commits without
     *     the write-ahead log
     *     ({@link WriteOptions#disableWal(boolean)}: the commit could be lost while its prepared
     *     section stays, to be recovered and applied again)
     * @throws RocksDbException with {@link StatusCode#EXPIRED} past the transaction's expiration,
     *     or the log write's failure; the transaction is then as it was
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public void prepare() {
        run(() -> {
            closeCursors();
            transaction.prepare();
        });
    }

    /**
     * Applies the transaction's writes atomically and releases its locks;
     * the transaction is then done. A prepared transaction whose commit
     * fails cannot be committed again or rolled back (RocksDB 9.10): the
     * database keeps it, with its locks, until it closes, and the next open
     * hands it back prepared ({@link RocksDb#preparedTransactions()}), to be
     * decided then; until then no family can be dropped.
     *
     * @throws RocksDbException.ConflictException (optimistic) when another wrote a key this
     *     transaction wrote or read for update since; nothing is applied and the transaction is done
     * @throws RocksDbException when the commit fails otherwise ({@link StatusCode#EXPIRED} past
     *     the expiration); nothing is applied and the transaction is done
     * @throws RocksDbException.InvalidArgumentException when the transaction is already done
     * @throws IllegalStateException when the transaction is closed or in use by another thread,
     *     or a cursor over it has entry views open on another live thread (see {@link #close()}):
     *     nothing is committed then
     */
    public void commit() {
        run(() -> {
            closeCursors();
            transaction.commit();
        });
    }

    /**
     * Discards the transaction's writes and releases its locks; the
     * transaction is then done.
     *
     * @throws RocksDbException.InvalidArgumentException when the transaction is already done
     * @throws IllegalStateException when the transaction is closed or in use by another thread,
     *     or a cursor over it has entry views open on another live thread (see {@link #close()}):
     *     nothing is rolled back then
     */
    public void rollback() {
        run(() -> {
            closeCursors();
            transaction.rollback();
        });
    }

    /**
     * Marks a save point: {@link #rollbackToSavePoint()} discards the writes
     * made since (and restores the snapshot the transaction had then). Save
     * points nest.
     *
     * @throws RocksDbException.InvalidArgumentException when the transaction is done
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public void setSavePoint() {
        run(transaction::setSavePoint);
    }

    /**
     * Discards the writes since the latest save point and removes it; the
     * locks taken since are kept.
     *
     * @return false when there was no save point (nothing changes)
     * @throws RocksDbException.InvalidArgumentException when the transaction is done
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public boolean rollbackToSavePoint() {
        return call(() -> {
            closeCursors();
            return transaction.rollbackToSavePoint();
        });
    }

    /**
     * Removes the latest save point, keeping the writes made since.
     *
     * @return false when there was no save point
     * @throws RocksDbException.InvalidArgumentException when the transaction is done
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public boolean popSavePoint() {
        return call(transaction::popSavePoint);
    }

    /**
     * Takes the transaction's snapshot now, replacing any it had: from then
     * on its reads read as of it, and writing or reading for update a key
     * that another writes after it is a conflict.
     *
     * @throws RocksDbException.InvalidArgumentException when the transaction is done
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public void setSnapshot() {
        run(() -> transaction.setSnapshot(false));
    }

    /**
     * {@link #setSnapshot()} at the transaction's next write or read for
     * update, rather than now.
     *
     * @throws RocksDbException.InvalidArgumentException when the transaction is done
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public void setSnapshotOnNextOperation() {
        run(() -> transaction.setSnapshot(true));
    }

    /**
     * Returns the transaction's id (RocksDB's TransactionID), unique among
     * the database's transactions since it opened: the messages of
     * {@link RocksDbException.TimedOutException} and
     * {@link RocksDbException.DeadlockException} name the transactions
     * holding a key, or waiting in a cycle, by it.
     *
     * @return the transaction's id
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public long id() {
        return call(transaction::id);
    }

    /**
     * Returns how many records (puts, deletes, merges) the transaction holds, 0 once it is done.
     *
     * @return how many records the transaction holds
     * @throws IllegalStateException when the transaction is closed or in use by another thread
     */
    public long writeCount() {
        return call(() -> transaction.size()[0]);
    }

    /**
     * Rolls back the transaction unless it is committed or prepared, and
     * frees it; a prepared one stays prepared, with its locks, and
     * {@link RocksDb#preparedTransactions()} hands it out again (see
     * {@link #prepare()}).
     * Idempotent; may be called from any thread, and waits for a call in
     * flight on another.
     *
     * @throws IllegalStateException when a cursor over the transaction has entry views open on
     *     another live thread: that cursor cannot be closed safely, so the transaction stays
     *     open (cursors closed before it stay closed); close again once that thread has moved the
     *     cursor or ended
     */
    @Override
    public void close() {
        owner.release(dependent);
    }

    private void closeNative() {
        guard.close(() -> {
            closeCursors();
            transaction.free();
            // Only now: a database closing meanwhile must find this transaction and wait for its close.
            owner.forget(dependent);
        });
    }

    @Override
    public String toString() {
        return "Transaction[" + owner + (guard.isClosed() ? ", closed]" : "]");
    }

    @Override
    void writeRecord(KeyPath keys, Operation operation, Object first, Object second) {
        FfmTransaction.write(keys, operation, first, second);
    }
}
