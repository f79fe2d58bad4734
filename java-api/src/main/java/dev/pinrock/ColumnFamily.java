package dev.pinrock;

import dev.pinrock.internal.NativeDb;

/**
 * A column family of an open database other than the default one: a key
 * space with options of its own, from {@link RocksDb#columnFamily(String)}
 * or {@link RocksDb#createColumnFamily(String, DbOptions)}. Its keyed
 * operations ({@link Keyspace}) act on this family only; write batches
 * ({@link WriteBatch#put(Keyspace, byte[], byte[])}) and snapshots span
 * families. A family needs no closing: it lives as long as its database.
 * After {@link RocksDb#dropColumnFamily(Keyspace)} every call throws
 * {@link IllegalStateException}. Thread-safe, as its database is.
 */
public final class ColumnFamily extends Keyspace {
    private final RocksDb database;
    private final String name;
    private final int id;
    private volatile boolean dropped;

    ColumnFamily(RocksDb database, String name, NativeDb db) {
        super(db, database.guard);
        this.database = database;
        this.name = name;
        this.id = db.familyId();
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
        if (dropped) {
            guard.release();
            throw new IllegalStateException("column family " + name + " was dropped");
        }
    }

    void markDropped() {
        dropped = true;
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
