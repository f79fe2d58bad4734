package dev.pinrock;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.pinrock.internal.BatchEncoding.Operation;
import dev.pinrock.internal.KeyPath;
import dev.pinrock.internal.NativeCursor;
import dev.pinrock.internal.ResourceGuard;

/**
 * Writes not yet in the database that reads see merged over it: those of a
 * {@link Transaction} or of a {@link WriteBatchWithIndex}. What both share is
 * here: one call at a time under their own guard (beside the database's or
 * the family's), the views of a column family through them
 * ({@link Scope}), and the cursors that read the writes in place, which
 * hold the guard for each of their calls, lose their entry's views at each
 * write, and are closed before the writes are dropped.
 */
abstract sealed class PendingWrites extends KeyedCalls permits Transaction, WriteBatchWithIndex {
    /** The database the writes read over. */
    final RocksDb owner;
    /** Admits one call at a time: the writes' own, or one of their cursors'. */
    final ResourceGuard guard;
    /** The cursors over these writes not yet closed. */
    private final Set<Cursor> cursors = ConcurrentHashMap.newKeySet();

    PendingWrites(KeyPath keys, RocksDb owner, String name) {
        super(keys);
        this.owner = owner;
        this.guard = ResourceGuard.exclusive(name);
    }

    @Override
    public RocksDb database() {
        return owner;
    }

    /**
     * Writes a single delete or a merge through the keys of a view of these
     * writes; the caller holds the view's guards.
     */
    abstract void writeRecord(KeyPath keys, Operation operation, Object first, Object second);

    @Override
    void writeOne(Operation operation, Object first, Object second) {
        writeOne(this, operation, first, second);
    }

    /** A single delete or merge through view, these writes themselves or a {@link Scope} of them. */
    void writeOne(KeyedCalls view, Operation operation, Object first, Object second) {
        view.acquire();
        try {
            beforeWrite();
            writeRecord(view.keys, operation, first, second);
        } finally {
            view.release();
        }
    }

    /**
     * Returns family once it is of this database.
     *
     * @throws IllegalArgumentException when the family belongs to another database
     */
    Keyspace requireOwn(Keyspace family) {
        Objects.requireNonNull(family, "family");
        if (family.database() != owner) {
            throw new IllegalArgumentException(family + " belongs to another database than " + this);
        }
        return family;
    }

    @Override
    void acquire() {
        acquireIn(owner);
    }

    @Override
    void release() {
        releaseIn(owner);
    }

    /** Marks a keyed call on family in flight: this guard, then the family's. */
    void acquireIn(Keyspace family) {
        guard.acquire();
        try {
            family.acquire();
        } catch (RuntimeException e) {
            guard.release();
            throw e;
        }
    }

    /** Ends a call started by {@link #acquireIn(Keyspace)}. */
    void releaseIn(Keyspace family) {
        try {
            family.release();
        } finally {
            guard.release();
        }
    }

    /** Runs a call on the writes as a whole with the guard held. */
    void run(Runnable call) {
        call(() -> {
            call.run();
            return null;
        });
    }

    /** Makes a call on the writes as a whole with the guard held; returns what it returns. */
    <T> T call(Supplier<T> call) {
        guard.acquire();
        try {
            return call.get();
        } finally {
            guard.release();
        }
    }

    @Override
    Cursor adopt(NativeCursor cursor) {
        Cursor adopted = new Cursor(owner, cursor, this);
        cursors.add(adopted);
        owner.register(adopted.dependent);
        return adopted;
    }

    /** A write moves the memory that the cursors' entry views view: they are invalidated. */
    @Override
    void beforeWrite() {
        for (Cursor cursor : cursors) {
            cursor.invalidateViews();
        }
    }

    /** @return whether cursors over these writes are open */
    boolean hasCursors() {
        return !cursors.isEmpty();
    }

    /** Closes the cursors over these writes, before what drops or rebuilds the writes they read. */
    void closeCursors() {
        for (Cursor cursor : List.copyOf(cursors)) {
            cursor.dependent.closeNative();
        }
    }

    /** Marks a call of one of the cursors in flight: no other call is admitted then. */
    void acquireForCursor() {
        guard.acquire();
    }

    /** Ends a call started by {@link #acquireForCursor()}. */
    void releaseForCursor() {
        guard.release();
    }

    /** Drops a closed cursor from those closed with the writes. */
    void forget(Cursor cursor) {
        cursors.remove(cursor);
    }

    /**
     * A column family as pending writes see it: what
     * {@link Transaction#in(Keyspace)}, {@link Transaction#forUpdate(Keyspace, boolean)}
     * and {@link WriteBatchWithIndex#in(Keyspace)} return. Its calls are
     * those of the writes and follow their rules.
     */
    static final class Scope extends KeyedCalls {
        private final PendingWrites writes;
        private final Keyspace family;

        Scope(PendingWrites writes, Keyspace family, KeyPath keys) {
            super(keys);
            this.writes = writes;
            this.family = family;
        }

        @Override
        public RocksDb database() {
            return writes.owner;
        }

        @Override
        void acquire() {
            writes.acquireIn(family);
        }

        @Override
        void release() {
            writes.releaseIn(family);
        }

        @Override
        void writeOne(Operation operation, Object first, Object second) {
            writes.writeOne(this, operation, first, second);
        }

        @Override
        Cursor adopt(NativeCursor cursor) {
            return writes.adopt(cursor);
        }

        @Override
        void beforeWrite() {
            writes.beforeWrite();
        }

        @Override
        public String toString() {
            return family.name() + " in " + writes;
        }
    }
}
