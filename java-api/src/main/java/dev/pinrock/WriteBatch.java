package dev.pinrock;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.function.Consumer;

import dev.pinrock.internal.BufferSegments;
import dev.pinrock.internal.ResourceGuard;

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
    /** Sequence number (8 bytes) and record count (4 bytes). */
    private static final int HEADER_BYTES = 12;
    private static final long COUNT_OFFSET = 8;
    private static final ValueLayout.OfInt COUNT =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final byte DELETION = 0x0;
    private static final byte VALUE = 0x1;
    private static final byte MERGE = 0x2;
    private static final byte SINGLE_DELETION = 0x7;
    private static final byte RANGE_DELETION = 0xF;
    /** Tags of the same records for a column family other than the default one. */
    private static final byte FAMILY_DELETION = 0x4;
    private static final byte FAMILY_VALUE = 0x5;
    private static final byte FAMILY_MERGE = 0x6;
    private static final byte FAMILY_SINGLE_DELETION = 0x8;
    private static final byte FAMILY_RANGE_DELETION = 0xE;
    /** A length is a varint32 of at most 5 bytes. */
    private static final int MAX_VARINT_BYTES = 5;
    /** RocksDB's 32-bit lengths. */
    private static final long MAX_VALUE_BYTES = 0xFFFF_FFFFL;
    /** PR_MAX_KEY_BYTES, pinrock's bound on keys, far below RocksDB's (pinrock.h, convention 2). */
    private static final long MAX_KEY_BYTES = 8L << 20;

    private final ResourceGuard guard = ResourceGuard.exclusive("WriteBatch");
    private Arena arena;
    private MemorySegment buffer;
    private long size;
    private int count;
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
        if (reservedBytes < 0) {
            throw new IllegalArgumentException("reservedBytes is negative: " + reservedBytes);
        }
        arena = Arena.ofShared();
        buffer = arena.allocate(HEADER_BYTES + reservedBytes);
        size = HEADER_BYTES;
    }

    /**
     * Adds a put of key to value.
     *
     * @param key the key
     * @param value the value
     * @return this batch
     */
    public WriteBatch put(byte[] key, byte[] value) {
        return record(null, VALUE, FAMILY_VALUE, Objects.requireNonNull(key, "key"),
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
        return record(null, VALUE, FAMILY_VALUE, Objects.requireNonNull(key, "key"),
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
        return record(Objects.requireNonNull(family, "family"), VALUE, FAMILY_VALUE, Objects.requireNonNull(key, "key"),
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
        return record(Objects.requireNonNull(family, "family"), VALUE, FAMILY_VALUE, Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(value, "value"));
    }

    /**
     * Adds a delete of key.
     *
     * @param key the key
     * @return this batch
     */
    public WriteBatch delete(byte[] key) {
        return record(null, DELETION, FAMILY_DELETION, Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Adds a delete of key.
     *
     * @param key the key
     * @return this batch
     */
    public WriteBatch delete(MemorySegment key) {
        return record(null, DELETION, FAMILY_DELETION, Objects.requireNonNull(key, "key"), null);
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
        return record(Objects.requireNonNull(family, "family"), DELETION, FAMILY_DELETION,
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
        return record(null, SINGLE_DELETION, FAMILY_SINGLE_DELETION,
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
        return record(Objects.requireNonNull(family, "family"), SINGLE_DELETION, FAMILY_SINGLE_DELETION,
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
        return record(null, RANGE_DELETION, FAMILY_RANGE_DELETION,
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
        return record(Objects.requireNonNull(family, "family"), RANGE_DELETION, FAMILY_RANGE_DELETION,
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
        return record(null, MERGE, FAMILY_MERGE, Objects.requireNonNull(key, "key"),
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
        return record(Objects.requireNonNull(family, "family"), MERGE, FAMILY_MERGE,
                Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(value, "value"));
    }

    /**
     * Returns the number of operations in the batch.
     *
     * @return the number of operations in the batch
     */
    public int count() {
        guard.acquire();
        try {
            return count;
        } finally {
            guard.release();
        }
    }

    /**
     * Returns the encoded size in bytes, header included.
     *
     * @return the encoded size in bytes, header included
     */
    public long sizeBytes() {
        guard.acquire();
        try {
            return size;
        } finally {
            guard.release();
        }
    }

    /** Removes every operation; the memory is kept for reuse. */
    public void clear() {
        guard.acquire();
        try {
            size = HEADER_BYTES;
            count = 0;
            keyspacesOf = null;
            buffer.set(COUNT, COUNT_OFFSET, 0);
        } finally {
            guard.release();
        }
    }

    /** Frees the batch's native memory once no call is in flight; idempotent. */
    @Override
    public void close() {
        guard.close(() -> {
            arena.close();
            arena = null;
            buffer = null;
        });
    }

    /**
     * Hands the encoded batch to a write into database, holding the batch so
     * that no other thread changes or frees it meanwhile.
     *
     * @throws IllegalArgumentException when the records name keyspaces of another database
     * @throws IllegalStateException when the batch is closed or in use by another thread
     */
    void writeInto(RocksDb database, Consumer<MemorySegment> write) {
        guard.acquire();
        try {
            if (keyspacesOf != null && keyspacesOf != database) {
                throw new IllegalArgumentException("the batch holds records of keyspaces of " + keyspacesOf
                        + ", not of " + database);
            }
            write.accept(buffer.asSlice(0, size));
        } finally {
            guard.release();
        }
    }

    /**
     * Appends one record, holding the batch meanwhile. Its parts are byte
     * arrays or memory segments (the public overloads keep that typed);
     * arrays are copied straight into the batch, since heap segments of them
     * are allocated whenever the JIT does not remove them. The size and count
     * move only once the whole record is in place, so a key from a closed
     * arena (which throws) leaves the batch as it was.
     *
     * @param second the second part, or null for a record of one part
     */
    private WriteBatch record(Keyspace family, byte defaultTag, byte familyTag, Object first, Object second) {
        guard.acquire();
        try {
            appendRecord(family, defaultTag, familyTag, first, second);
        } finally {
            guard.release();
        }
        return this;
    }

    private void appendRecord(Keyspace family, byte defaultTag, byte familyTag, Object first, Object second) {
        int familyId = 0;
        if (family != null) {
            family.requireUsable();
            if (keyspacesOf != null && keyspacesOf != family.database()) {
                throw new IllegalArgumentException("the batch already holds records of keyspaces of " + keyspacesOf
                        + ", not of " + family.database());
            }
            familyId = family.familyId();
        }
        long firstLength = length(first);
        long secondLength = second == null ? 0 : length(second);
        requireWithinLimit("key", MAX_KEY_BYTES, firstLength);
        if (defaultTag == RANGE_DELETION) {
            requireWithinLimit("key", MAX_KEY_BYTES, secondLength);
        } else if (second != null) {
            requireWithinLimit("value", MAX_VALUE_BYTES, secondLength);
        }
        long needed = 1 + 2 * MAX_VARINT_BYTES + firstLength
                + (second == null ? 0 : MAX_VARINT_BYTES + secondLength);
        ensureCapacity(size + needed);
        long end = size;
        if (familyId == 0) {
            buffer.set(ValueLayout.JAVA_BYTE, end++, defaultTag);
        } else {
            buffer.set(ValueLayout.JAVA_BYTE, end++, familyTag);
            end = putVarint(familyId, end);
        }
        end = append(first, end);
        if (second != null) {
            end = append(second, end);
        }
        size = end;
        buffer.set(COUNT, COUNT_OFFSET, ++count);
        if (family != null) {
            keyspacesOf = family.database();
        }
    }

    /** @return the length of a record part, a byte array or a memory segment */
    private static long length(Object part) {
        return part instanceof byte[] array ? array.length : ((MemorySegment) part).byteSize();
    }

    /** Refuses a key or value longer than its limit, before any memory is reserved for it. */
    private static void requireWithinLimit(String what, long max, long length) {
        if (length > max) {
            throw new IllegalArgumentException(
                    "a " + what + " of " + length + " bytes exceeds the limit of " + max + " bytes");
        }
    }

    /** Writes a varint32 length and the part's bytes at offset; returns the offset after them. */
    private long append(Object part, long offset) {
        long length = length(part);
        long position = putVarint(length, offset);
        if (part instanceof byte[] array) {
            MemorySegment.copy(array, 0, buffer, ValueLayout.JAVA_BYTE, position, array.length);
        } else {
            MemorySegment.copy((MemorySegment) part, 0, buffer, position, length);
        }
        return position + length;
    }

    /** Writes a varint32 at offset; returns the offset after it. */
    private long putVarint(long value, long offset) {
        long position = offset;
        long v = value;
        while (v >= 0x80) {
            buffer.set(ValueLayout.JAVA_BYTE, position++, (byte) (v | 0x80));
            v >>>= 7;
        }
        buffer.set(ValueLayout.JAVA_BYTE, position++, (byte) v);
        return position;
    }

    private void ensureCapacity(long capacity) {
        if (capacity <= buffer.byteSize()) {
            return;
        }
        Arena grown = Arena.ofShared();
        MemorySegment larger = grown.allocate(Math.max(capacity, buffer.byteSize() * 2));
        MemorySegment.copy(buffer, 0, larger, 0, size);
        arena.close();
        arena = grown;
        buffer = larger;
    }

    @Override
    public String toString() {
        return arena == null ? "WriteBatch[closed]" : "WriteBatch[" + count + " operations, " + size + " bytes]";
    }
}
