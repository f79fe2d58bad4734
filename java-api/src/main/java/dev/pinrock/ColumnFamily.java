package dev.pinrock;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.pinrock.internal.FfmDb;
import dev.pinrock.internal.ResourceGuard;

/**
 * A column family of an open database other than the default one: a key
 * space with options of its own, from {@link RocksDb#columnFamily(String)}
 * or {@link RocksDb#createColumnFamily(String, DbOptions)}. Its keyed
 * operations ({@link Keyspace}) act on this family only; write batches
 * ({@link WriteBatch#put(Keyspace, byte[], byte[])}) and snapshots span
 * families. A family needs no closing: it lives as long as its database, or
 * until {@link RocksDb#dropColumnFamily(Keyspace)}, which waits for the
 * family's calls in flight, after which every call throws
 * {@link IllegalStateException}. Thread-safe, as its database is.
 */
public final class ColumnFamily extends Keyspace {
    private final RocksDb database;
    private final String name;
    private final int id;
    /** Held by every call on the family besides the database's guard; closed by the drop. */
    private final ResourceGuard lifetime;
    /** Set by the first dropper, so that a second one is refused rather than waiting. */
    private final AtomicBoolean dropping = new AtomicBoolean();
    private volatile boolean dropped;

    ColumnFamily(RocksDb database, String name, FfmDb db) {
        super(db, database.binding.dataPath(db), database.guard);
        this.database = database;
        this.name = name;
        this.id = db.familyId();
        this.lifetime = new ResourceGuard("column family " + name);
    }

    @Override
    public RocksDb database() {
        return database;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    int familyId() {
        return id;
    }

    @Override
    void acquire() {
        super.acquire();
        if (!lifetime.tryAcquire()) {
            super.release();
            throw wasDropped();
        }
    }

    @Override
    void release() {
        lifetime.release();
        super.release();
    }

    /**
     * Drops the family once the calls on it in flight have returned, then frees
     * its native handle, and with it RocksDB's memtables of the family (those
     * still open cursors use go when they close). Called with the database's
     * guard held.
     *
     * @throws IllegalStateException when the family is dropped or being dropped
     */
    void drop() {
        if (!dropping.compareAndSet(false, true)) {
            throw wasDropped();
        }
        try {
            lifetime.close(() -> {
                db.dropFamily();
                dropped = true;
                db.releaseFamily();
            });
        } catch (RuntimeException | Error e) {
            dropping.set(false);
            throw e;
        }
    }

    private IllegalStateException wasDropped() {
        return new IllegalStateException("column family " + name + " was dropped");
    }

    /**
     * Returns whether the family was dropped.
     *
     * @return whether the family was dropped
     */
    public boolean isDropped() {
        return dropped;
    }

    @Override
    public String toString() {
        return "ColumnFamily[" + name + " of " + database.path() + (dropped ? ", dropped" : "") + "]";
    }
}
