package dev.pinrock;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Consumer;

import dev.pinrock.internal.BatchEncoding;
import dev.pinrock.internal.BatchEncoding.Operation;
import dev.pinrock.internal.BufferSegments;

/**
 * Operations applied together by {@link RocksDb#write(WriteBatch)}: all of
 * them or none. The batch is encoded as it grows, in native memory, in
 * RocksDB's own WriteBatch format, so writing it is one native call with no
 * per-operation crossing. Keys and values are copied in when added; the
 * caller's arrays, buffers and segments can be reused at once.
 *
 * <p>Not thread-safe: one thread builds a batch at a time; it may then be
 * handed to another thread to write. A call that arrives while another call
 * on the batch (a write of it included) is in flight on another thread is
 * refused with {@link IllegalStateException}, so a shared batch never holds
 * a mix of records. {@link #close()} waits for a call in flight and frees the
 * batch's memory (idempotent); any later use throws
 * {@link IllegalStateException}.
 *
 * <p>A record added without a {@link Keyspace} goes to the default family of
 * whichever database the batch is written to. A record that names a
 * keyspace (a {@link ColumnFamily}, or a {@link RocksDb} for its default
 * family) ties the batch to that keyspace's database: writing it to another
 * database throws {@link IllegalArgumentException} and applies nothing, and
 * adding a keyspace of another database throws the same. A keyspace of a
 * closed database or a dropped family is refused when added
 * ({@link IllegalStateException}).
 */
public final class WriteBatch implements AutoCloseable {
    private final BatchEncoding encoding;
    /**
     * The database of the keyspaces the records name, once one does (its
     * default family included): the only one the batch may be written to.
     */
    private RocksDb keyspacesOf;

    /** Creates an empty batch. */
    public WriteBatch() {
        this(256);
    }

    /**
     * Creates an empty batch with room for about {@code reservedBytes} of
     * encoded operations before it grows.
     *
     * @param reservedBytes initial capacity in bytes
     */
    public WriteBatch(long reservedBytes) {
        encoding = new BatchEncoding("WriteBatch", reservedBytes);
    }

    /**
     * Adds a put of key to value.
     *
     * @param key the key
     * @param value the value
     * @return this batch
     */
    public WriteBatch put(byte[] key, byte[] value) {
        return record(null, Operation.PUT, Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(value, "value"));
    }

    /**
     * Adds a put of the bytes between each buffer's position and limit (unchanged).
     *
     * @param key the key, direct or heap
     * @param value the value, direct or heap
     * @return this batch
     */
    public WriteBatch put(ByteBuffer key, ByteBuffer value) {
        return put(BufferSegments.ofKey(Objects.requireNonNull(key, "key")),
                BufferSegments.ofValue(Objects.requireNonNull(value, "value")));
    }

    /**
     * Adds a put of key to value.
     *
     * @param key the key
     * @param value the value
     * @return this batch
     * @throws IllegalArgumentException when the key is longer than 8 MiB or the value
     *     than 2^32 - 1 bytes; the batch is unchanged
     */
    public WriteBatch put(MemorySegment key, MemorySegment value) {
        return record(null, Operation.PUT, Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(value, "value"));
    }

    /**
     * Adds a put of key to value in a column family.
     *
     * @param family the column family (a {@link RocksDb} means its default family)
     * @param key the key
     * @param value the value
     * @return this batch
     * @throws IllegalArgumentException when the batch already names keyspaces of another database
     * @throws IllegalStateException when the family's database is closed or the family dropped
     */
    public WriteBatch put(Keyspace family, byte[] key, byte[] value) {
        return record(Objects.requireNonNull(family, "family"), Operation.PUT, Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(value, "value"));
    }

    /**
     * Adds a put of key to value in a column family.
     *
     * @param family the column family (a {@link RocksDb} means its default family)
     * @param key the key
     * @param value the value
     * @return this batch
     * @throws IllegalArgumentException when the batch already names keyspaces of another database
     * @throws IllegalStateException when the family's database is closed or the family dropped
     */
    public WriteBatch put(Keyspace family, MemorySegment key, MemorySegment value) {
        return record(Objects.requireNonNull(family, "family"), Operation.PUT, Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(value, "value"));
    }

    /**
     * Adds a delete of key.
     *
     * @param key the key
     * @return this batch
     */
    public WriteBatch delete(byte[] key) {
        return record(null, Operation.DELETE, Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Adds a delete of key.
     *
     * @param key the key
     * @return this batch
     */
    public WriteBatch delete(MemorySegment key) {
        return record(null, Operation.DELETE, Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Adds a delete of key in a column family.
     *
     * @param family the column family (a {@link RocksDb} means its default family)
     * @param key the key
     * @return this batch
     * @throws IllegalArgumentException when the batch already names keyspaces of another database
     * @throws IllegalStateException when the family's database is closed or the family dropped
     */
    public WriteBatch delete(Keyspace family, byte[] key) {
        return record(Objects.requireNonNull(family, "family"), Operation.DELETE,
                Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Adds a single delete: cheaper than {@link #delete(byte[])}, and correct
     * only for a key that was put once since its last delete and never merged.
     * Otherwise that key's value is undefined afterwards (RocksDB's
     * contract); other keys, flushes, compactions and reopening are not
     * affected.
     *
     * @param key the key
     * @return this batch
     */
    public WriteBatch singleDelete(byte[] key) {
        return record(null, Operation.SINGLE_DELETE,
                Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Adds a single delete of key in a column family; see {@link #singleDelete(byte[])}.
     *
     * @param family the column family (a {@link RocksDb} means its default family)
     * @param key the key
     * @return this batch
     * @throws IllegalArgumentException when the batch already names keyspaces of another database
     * @throws IllegalStateException when the family's database is closed or the family dropped
     */
    public WriteBatch singleDelete(Keyspace family, byte[] key) {
        return record(Objects.requireNonNull(family, "family"), Operation.SINGLE_DELETE,
                Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Adds a delete of every key in [begin, end).
     *
     * @param begin the first key deleted
     * @param end the first key kept after the range
     * @return this batch
     * @throws IllegalArgumentException when begin or end is longer than 8 MiB; the batch is unchanged
     */
    public WriteBatch deleteRange(byte[] begin, byte[] end) {
        return record(null, Operation.DELETE_RANGE,
                Objects.requireNonNull(begin, "begin"),
                Objects.requireNonNull(end, "end"));
    }

    /**
     * Adds a delete of every key in [begin, end) of a column family.
     *
     * @param family the column family (a {@link RocksDb} means its default family)
     * @param begin the first key deleted
     * @param end the first key kept after the range
     * @return this batch
     * @throws IllegalArgumentException when begin or end is longer than 8 MiB; the batch is unchanged
     * @throws IllegalArgumentException when the batch already names keyspaces of another database
     * @throws IllegalStateException when the family's database is closed or the family dropped
     */
    public WriteBatch deleteRange(Keyspace family, byte[] begin, byte[] end) {
        return record(Objects.requireNonNull(family, "family"), Operation.DELETE_RANGE,
                Objects.requireNonNull(begin, "begin"),
                Objects.requireNonNull(end, "end"));
    }

    /**
     * Adds a merge of value into key, combined by the database's merge
     * operator ({@link DbOptions#mergeOperator(String)}); writing the batch to
     * a database without one fails with InvalidArgument and applies nothing.
     *
     * @param key the key
     * @param value the operand
     * @return this batch
     */
    public WriteBatch merge(byte[] key, byte[] value) {
        return record(null, Operation.MERGE, Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(value, "value"));
    }

    /**
     * Adds a merge of value into key in a column family, combined by that
     * family's merge operator; see {@link #merge(byte[], byte[])}.
     *
     * @param family the column family (a {@link RocksDb} means its default family)
     * @param key the key
     * @param value the operand
     * @return this batch
     * @throws IllegalArgumentException when the batch already names keyspaces of another database
     * @throws IllegalStateException when the family's database is closed or the family dropped
     */
    public WriteBatch merge(Keyspace family, byte[] key, byte[] value) {
        return record(Objects.requireNonNull(family, "family"), Operation.MERGE,
                Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(value, "value"));
    }

    /**
     * Returns the number of operations in the batch.
     *
     * @return the number of operations in the batch
     */
    public int count() {
        return encoding.count();
    }

    /**
     * Returns the encoded size in bytes, header included.
     *
     * @return the encoded size in bytes, header included
     */
    public long sizeBytes() {
        return encoding.sizeBytes();
    }

    /** Removes every operation; the memory is kept for reuse. */
    public void clear() {
        encoding.hold();
        try {
            encoding.clear();
            keyspacesOf = null;
        } finally {
            encoding.release();
        }
    }

    /** Frees the batch's native memory once no call is in flight; idempotent. */
    @Override
    public void close() {
        encoding.close();
    }

    /**
     * Hands the encoded batch to a write into database, holding the batch so
     * that no other thread changes or frees it meanwhile.
     *
     * @throws IllegalArgumentException when the records name keyspaces of another database
     * @throws IllegalStateException when the batch is closed or in use by another thread
     */
    void writeInto(RocksDb database, Consumer<MemorySegment> write) {
        encoding.hold();
        try {
            if (keyspacesOf != null && keyspacesOf != database) {
                throw new IllegalArgumentException("the batch holds records of keyspaces of " + keyspacesOf
                        + ", not of " + database);
            }
            write.accept(encoding.encoded());
        } finally {
            encoding.release();
        }
    }

    /**
     * Appends one record, holding the batch meanwhile; its parts are byte
     * arrays or memory segments, as {@link BatchEncoding#append} takes them.
     */
    private WriteBatch record(Keyspace family, Operation operation, Object first, Object second) {
        encoding.hold();
        try {
            encoding.append(familyIdOf(family), operation, first, second);
            tieTo(family);
        } finally {
            encoding.release();
        }
        return this;
    }

    /**
     * Returns the id a record names family by, under the batch's hold, once
     * the family is usable and of the database the batch's records name, if
     * any (the default family for null).
     */
    private int familyIdOf(Keyspace family) {
        if (family == null) {
            return BatchEncoding.DEFAULT_FAMILY;
        }
        family.requireUsable();
        if (keyspacesOf != null && keyspacesOf != family.database()) {
            throw new IllegalArgumentException("the batch already holds records of keyspaces of " + keyspacesOf
                    + ", not of " + family.database());
        }
        return family.familyId();
    }

    /** Ties the batch to the family's database once a record for it is in (none for null). */
    private void tieTo(Keyspace family) {
        if (family != null) {
            keyspacesOf = family.database();
        }
    }

    @Override
    public String toString() {
        return encoding.toString();
    }
}
