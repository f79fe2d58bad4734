package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import dev.pinrock.RocksDbException;
import dev.pinrock.StatusCode;

/**
 * Records encoded as they are added, in native memory, in RocksDB's own
 * WriteBatch format: a header of a sequence number (8 bytes, left zero) and
 * a record count (4 bytes, little-endian), then each record as a tag byte,
 * the family id as a varint32 when the record is not for the default
 * family, and each part as a varint32 length and its bytes. Handing the
 * encoding to RocksDB is one native call with no per-record crossing. Parts
 * are copied in; the caller's arrays and segments can be reused at once.
 *
 * <p>The encoding is guarded: it admits one call at a time (a call arriving
 * while another is in flight on another thread is refused with
 * {@link IllegalStateException}), and {@link #close()} waits for the call in
 * flight, then frees the memory; any later use throws
 * {@link IllegalStateException}. {@link #count()} and {@link #sizeBytes()}
 * hold the encoding themselves. Changes ({@link #append}, {@link #clear()})
 * and {@link #encoded()} are made under a {@link #hold()} that the caller
 * takes, so that in the same hold it can check and update what it keeps
 * about the records (the database their families belong to).
 */
public final class BatchEncoding {
    /** What a record does, with its tag for the default family and for another family. */
    public enum Operation {
        PUT(0x1, 0x5, false),
        DELETE(0x0, 0x4, false),
        SINGLE_DELETE(0x7, 0x8, false),
        MERGE(0x2, 0x6, false),
        /** Deletes [first, second): both parts are keys. */
        DELETE_RANGE(0xF, 0xE, true);

        private final byte defaultFamilyTag;
        private final byte otherFamilyTag;
        private final boolean secondPartIsKey;

        Operation(int defaultFamilyTag, int otherFamilyTag, boolean secondPartIsKey) {
            this.defaultFamilyTag = (byte) defaultFamilyTag;
            this.otherFamilyTag = (byte) otherFamilyTag;
            this.secondPartIsKey = secondPartIsKey;
        }
    }

    /** The id of the default family, which a record names by its tag alone. */
    public static final int DEFAULT_FAMILY = 0;

    /** Sequence number (8 bytes) and record count (4 bytes). */
    static final int HEADER_BYTES = 12;
    private static final long COUNT_OFFSET = 8;
    private static final ValueLayout.OfInt COUNT =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** A length is a varint32 of at most 5 bytes. */
    private static final int MAX_VARINT_BYTES = 5;
    /** RocksDB's 32-bit lengths. */
    private static final long MAX_VALUE_BYTES = 0xFFFF_FFFFL;
    /** PR_MAX_KEY_BYTES, pinrock's bound on keys, far below RocksDB's (pinrock.h, convention 2). */
    private static final long MAX_KEY_BYTES = 8L << 20;

    private final String name;
    private final ResourceGuard guard;
    private Arena arena;
    private MemorySegment buffer;
    private long size;
    private int count;

    /**
     * Creates an empty encoding.
     *
     * @param name what holds the records, for the messages (the public class's name)
     * @param reservedBytes room for about this many bytes of records before the buffer grows
     * @throws IllegalArgumentException when reservedBytes is negative
     */
    public BatchEncoding(String name, long reservedBytes) {
        if (reservedBytes < 0) {
            throw new IllegalArgumentException("reservedBytes is negative: " + reservedBytes);
        }
        this.name = name;
        guard = ResourceGuard.exclusive(name);
        arena = Arena.ofShared();
        buffer = arena.allocate(HEADER_BYTES + reservedBytes);
        size = HEADER_BYTES;
    }

    /**
     * Holds the encoding for one call that changes it; pair with
     * {@link #release()} in a finally block.
     *
     * @throws IllegalStateException when the encoding is closed or in use by another thread
     */
    public void hold() {
        guard.acquire();
    }

    /** Ends a call started by {@link #hold()}. */
    public void release() {
        guard.release();
    }

    /**
     * Appends one record, under a {@link #hold()}. Each part is a byte array
     * or a memory segment (the public overloads keep that typed); arrays are
     * copied straight into the buffer, since heap segments of them are
     * allocated whenever the JIT does not remove them. The size and count
     * move only once the whole record is in place, so a refused part, or a
     * segment of a closed arena (which throws), leaves the encoding as it was.
     *
     * @param familyId the family's id, or {@link #DEFAULT_FAMILY}
     * @param operation what the record does
     * @param first the key (the range's begin for {@link Operation#DELETE_RANGE})
     * @param second the value (the range's end for {@link Operation#DELETE_RANGE}), or null
     *     for a record of one part (a delete or single delete)
     * @throws IllegalArgumentException when a key is longer than 8 MiB or a value than
     *     2^32 - 1 bytes; nothing is appended
     */
    public void append(int familyId, Operation operation, Object first, Object second) {
        long firstLength = length(first);
        long secondLength = second == null ? 0 : length(second);
        requireWithinLimit("key", MAX_KEY_BYTES, firstLength);
        if (operation.secondPartIsKey) {
            requireWithinLimit("key", MAX_KEY_BYTES, secondLength);
        } else if (second != null) {
            requireWithinLimit("value", MAX_VALUE_BYTES, secondLength);
        }
        ensureCapacity(size + recordBound(first, second));
        size = encodeRecord(buffer, size, familyId, operation, first, second);
        buffer.set(COUNT, COUNT_OFFSET, ++count);
    }

    /**
     * Encodes a batch of one record into target, which must hold at least
     * {@link #oneRecordBound} bytes, and returns the encoding (a slice of target).
     * The parts are byte arrays or memory segments, as {@link #append} takes them.
     * Its failures are those of a direct write (pr_db_put), not of append's:
     * the native write of the batch refuses a key longer than pinrock's limit
     * with {@code INVALID_ARGUMENT}, and so does this a value the format
     * cannot hold.
     *
     * @throws RocksDbException.InvalidArgumentException when a value is longer than 2^32 - 1 bytes
     */
    public static MemorySegment oneRecord(MemorySegment target, int familyId, Operation operation, Object first,
            Object second) {
        if (!operation.secondPartIsKey && second != null && length(second) > MAX_VALUE_BYTES) {
            throw RocksDbException.of(StatusCode.INVALID_ARGUMENT.nativeCode(), "a value of " + length(second)
                    + " bytes exceeds RocksDB's limit of " + MAX_VALUE_BYTES + " bytes");
        }
        target.asSlice(0, HEADER_BYTES).fill((byte) 0);
        target.set(COUNT, COUNT_OFFSET, 1);
        return target.asSlice(0, encodeRecord(target, HEADER_BYTES, familyId, operation, first, second));
    }

    /** @return the bytes {@link #oneRecord} may need for a record of these parts, header included */
    public static long oneRecordBound(Object first, Object second) {
        return HEADER_BYTES + recordBound(first, second);
    }

    /** @return the most bytes a record of these parts takes (the lengths as varints of at most 5 bytes) */
    private static long recordBound(Object first, Object second) {
        return 1 + 2 * MAX_VARINT_BYTES + length(first) + (second == null ? 0 : MAX_VARINT_BYTES + length(second));
    }

    /**
     * Writes one record at offset of target, which has room for it: its tag,
     * the family id when not the default family, and each part. Returns the
     * offset after it.
     */
    private static long encodeRecord(MemorySegment target, long offset, int familyId, Operation operation,
            Object first, Object second) {
        long end = offset;
        if (familyId == DEFAULT_FAMILY) {
            target.set(ValueLayout.JAVA_BYTE, end++, operation.defaultFamilyTag);
        } else {
            target.set(ValueLayout.JAVA_BYTE, end++, operation.otherFamilyTag);
            end = putVarint(target, familyId, end);
        }
        end = appendPart(target, first, end);
        if (second != null) {
            end = appendPart(target, second, end);
        }
        return end;
    }

    /** Removes every record, under a {@link #hold()}; the memory is kept for reuse. */
    public void clear() {
        size = HEADER_BYTES;
        count = 0;
        buffer.set(COUNT, COUNT_OFFSET, 0);
    }

    /**
     * Removes the records after the first recordCount, which end at
     * sizeBytes (what {@link #size()} and {@link #recordCount()} said then),
     * under a {@link #hold()}.
     */
    void truncate(long sizeBytes, int recordCount) {
        size = sizeBytes;
        count = recordCount;
        buffer.set(COUNT, COUNT_OFFSET, count);
    }

    /** @return the encoded size in bytes, header included, under a {@link #hold()} */
    long size() {
        return size;
    }

    /** @return the number of records, under a {@link #hold()} */
    int recordCount() {
        return count;
    }

    /**
     * Returns the number of records.
     *
     * @return the number of records
     * @throws IllegalStateException when the encoding is closed or in use by another thread
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
     * @throws IllegalStateException when the encoding is closed or in use by another thread
     */
    public long sizeBytes() {
        guard.acquire();
        try {
            return size;
        } finally {
            guard.release();
        }
    }

    /**
     * Returns the encoded records, header included, under a {@link #hold()}:
     * the segment is valid only until that hold is released, since the next
     * change may move the records and a close frees them.
     *
     * @return the encoded records
     */
    public MemorySegment encoded() {
        return buffer.asSlice(0, size);
    }

    /** Frees the native memory once no call is in flight; idempotent. */
    public void close() {
        guard.close(() -> {
            arena.close();
            arena = null;
            buffer = null;
        });
    }

    /** @return the length of a record part, a byte array or a memory segment */
    static long length(Object part) {
        return part instanceof byte[] array ? array.length : ((MemorySegment) part).byteSize();
    }

    /** Refuses a key or value longer than its limit, before any memory is reserved for it. */
    private static void requireWithinLimit(String what, long max, long length) {
        if (length > max) {
            throw new IllegalArgumentException(
                    "a " + what + " of " + length + " bytes exceeds the limit of " + max + " bytes");
        }
    }

    /** Writes a varint32 length and the part's bytes at offset of target; returns the offset after them. */
    private static long appendPart(MemorySegment target, Object part, long offset) {
        long length = length(part);
        long position = putVarint(target, length, offset);
        if (part instanceof byte[] array) {
            MemorySegment.copy(array, 0, target, ValueLayout.JAVA_BYTE, position, array.length);
        } else {
            MemorySegment.copy((MemorySegment) part, 0, target, position, length);
        }
        return position + length;
    }

    /** Writes a varint32 at offset of target; returns the offset after it. */
    private static long putVarint(MemorySegment target, long value, long offset) {
        long position = offset;
        long v = value;
        while (v >= 0x80) {
            target.set(ValueLayout.JAVA_BYTE, position++, (byte) (v | 0x80));
            v >>>= 7;
        }
        target.set(ValueLayout.JAVA_BYTE, position++, (byte) v);
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
        return arena == null ? name + "[closed]" : name + "[" + count + " operations, " + size + " bytes]";
    }
}
