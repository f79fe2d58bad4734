package dev.pinrock.bench;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The data every benchmark and the native floor (native/bench/floor.cc) agree
 * on: key number i is "key-" and i as 12 decimal digits, padded with 'x' to
 * the key size (so keys sort like their numbers); byte j of value number i is
 * (byte) (i * 31 + j % 10), or, where a grid point writes records
 * ({@code values=fields}), value number i is record number i
 * ({@link #fillRecord}). Keys at or beyond the key count were never written.
 */
public final class Keys {
    /** The shortest key: "key-" and 12 digits. */
    public static final int MIN_KEY_BYTES = 16;

    /** A record: a header of {@link #RECORD_HEADER_BYTES}, then {@link #FIELDS} fields of {@link #FIELD_BYTES}. */
    public static final int FIELDS = 10;
    public static final int FIELD_BYTES = 100;
    public static final int RECORD_HEADER_BYTES = 24;
    public static final int RECORD_BYTES = RECORD_HEADER_BYTES + FIELDS * FIELD_BYTES;
    /** The format version the header's last word gives. */
    private static final int RECORD_VERSION = 1;
    /** How YCSB's RandomByteIterator makes six characters of a 32-bit number: shift and mask of each. */
    private static final int[] CHAR_SHIFTS = {0, 5, 10, 15, 20, 25};
    private static final int[] CHAR_MASKS = {31, 63, 95, 31, 63, 95};
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle ARRAY_WORD = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private Keys() {
    }

    /** Writes key number index into key (whose length is the key size). */
    public static void fill(byte[] key, long index) {
        key[0] = 'k';
        key[1] = 'e';
        key[2] = 'y';
        key[3] = '-';
        long rest = index;
        for (int pos = MIN_KEY_BYTES - 1; pos >= 4; pos--) {
            key[pos] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        for (int pos = MIN_KEY_BYTES; pos < key.length; pos++) {
            key[pos] = 'x';
        }
    }

    /** Writes value number index into value (whose length is the value size). */
    public static void fillValue(byte[] value, int index) {
        for (int j = 0; j < value.length; j++) {
            value[j] = valueByte(index, j);
        }
    }

    /**
     * Writes record number index into value ({@link #RECORD_BYTES} long): a
     * value shaped like a YCSB record, ten fields of 100 characters, after a
     * header as a serialised record would have one. The header is twelve
     * little-endian 16-bit words: the field count (10), each field's length
     * (100) and a format version (1). The fields' characters are made as
     * YCSB's {@code RandomByteIterator} makes them, six characters (' ' to
     * DEL) from each 32-bit random number: the number shifted right by 0, 5,
     * 10, 15, 20 and 25 bits, masked with 31, 63, 95, 31, 63 and 95, plus
     * ' '; 17 numbers a field (its last gives 4 characters), 170 a record. The
     * numbers come from a splitmix64 generator seeded with the index, the
     * low half of each 64-bit output, then the high half. So every record
     * differs, and compresses as YCSB's random text does (5.3 bits of
     * entropy per character; zstd at level 3 leaves about 78 % of 100 MB of
     * records), where the pattern values of {@link #fillValue} repeat every
     * 10 bytes.
     */
    public static void fillRecord(byte[] value, int index) {
        if (value.length != RECORD_BYTES) {
            throw new IllegalArgumentException("a record is " + RECORD_BYTES + " bytes, not " + value.length);
        }
        for (int word = 0; word < RECORD_HEADER_BYTES / 2; word++) {
            int header = word == 0 ? FIELDS : word <= FIELDS ? FIELD_BYTES : RECORD_VERSION;
            value[2 * word] = (byte) header;
            value[2 * word + 1] = (byte) (header >>> 8);
        }
        long state = index;
        long random = 0;
        int numbers = 0;
        for (int field = 0; field < FIELDS; field++) {
            int start = RECORD_HEADER_BYTES + field * FIELD_BYTES;
            for (int at = 0; at < FIELD_BYTES; at += CHAR_SHIFTS.length) {
                if ((numbers & 1) == 0) {
                    state += GOLDEN_GAMMA;
                    random = splitMix64(state);
                }
                int number = (int) (random >>> (32 * (numbers++ & 1)));
                for (int k = 0; k < CHAR_SHIFTS.length && at + k < FIELD_BYTES; k++) {
                    value[start + at + k] = (byte) (' ' + ((number >>> CHAR_SHIFTS[k]) & CHAR_MASKS[k]));
                }
            }
        }
    }

    /** splitmix64's output function of its state. */
    private static long splitMix64(long state) {
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Byte j of value number index: repetitive enough to compress, distinct per key. */
    public static byte valueByte(int index, int j) {
        return (byte) (index * 31 + j % 10);
    }

    /**
     * Folds one scanned entry into a scan's running hash: order-sensitive, so
     * a scan that skips, repeats or reorders entries hashes differently.
     */
    public static long scanHash(long hash, MemorySegment key, long keyLength, MemorySegment value, long valueLength) {
        return scanHash(hash, key, 0, keyLength, value, 0, valueLength);
    }

    /**
     * {@link #scanHash(long, MemorySegment, long, MemorySegment, long)} of a
     * key and a value inside larger segments.
     */
    public static long scanHash(long hash, MemorySegment keys, long keyOffset, long keyLength, MemorySegment values,
            long valueOffset, long valueLength) {
        return hash * 31 + (checksum(keys, keyOffset, keyLength) ^ checksum(values, valueOffset, valueLength));
    }

    /**
     * Folds one value's checksum into the running result of a multiGet, in
     * key order: a value read for the wrong key, or two values swapped or
     * repeated, changes the result (a plain XOR would not see them).
     */
    public static long combine(long result, long checksum) {
        return result * 31 + checksum;
    }

    /**
     * Reads every byte of a value: the xor of its little-endian 8-byte words,
     * folded with the tail bytes. Every benchmark consumes what it read this
     * way, so that zero-copy reads do the same work on the value as copies.
     * The floor computes the same sum with the same reads: the words, then
     * the tail as the top bytes of the value's last 8 bytes (one read, not a
     * loop of byte reads; only values under 8 bytes read single bytes).
     */
    public static long checksum(MemorySegment value, long length) {
        return checksum(value, 0, length);
    }

    /**
     * {@link #checksum(MemorySegment, long)} of the length bytes at offset in
     * memory. The word loop reads four words per step: C2 compiles a loop of
     * one 8-byte read of unknown count into code twice as slow as a C
     * compiler's, and that would be charged to the binding.
     */
    public static long checksum(MemorySegment memory, long offset, long length) {
        long sum = 0;
        long wordsEnd = offset + (length & ~7L);
        long at = offset;
        for (; at + 32 <= wordsEnd; at += 32) {
            sum ^= memory.get(WORD, at) ^ memory.get(WORD, at + 8) ^ memory.get(WORD, at + 16)
                    ^ memory.get(WORD, at + 24);
        }
        for (; at < wordsEnd; at += 8) {
            sum ^= memory.get(WORD, at);
        }
        int tail = (int) (length & 7);
        if (tail == 0) {
            return sum;
        }
        if (length >= 8) {
            return sum ^ memory.get(WORD, offset + length - 8) >>> (64 - 8 * tail);
        }
        for (int k = 0; k < tail; k++) {
            sum ^= (memory.get(ValueLayout.JAVA_BYTE, wordsEnd + k) & 0xFFL) << (8 * k);
        }
        return sum;
    }

    /**
     * {@link #checksum(MemorySegment, long)} of an array, read in place: a
     * heap segment made per read can allocate when the JIT does not remove
     * it, and the benchmarks must not charge that to a binding.
     */
    public static long checksum(byte[] value, int length) {
        long sum = 0;
        int wordsEnd = length & ~7;
        int at = 0;
        for (; at + 32 <= wordsEnd; at += 32) {
            sum ^= (long) ARRAY_WORD.get(value, at) ^ (long) ARRAY_WORD.get(value, at + 8)
                    ^ (long) ARRAY_WORD.get(value, at + 16) ^ (long) ARRAY_WORD.get(value, at + 24);
        }
        for (; at < wordsEnd; at += 8) {
            sum ^= (long) ARRAY_WORD.get(value, at);
        }
        int tail = length & 7;
        if (tail == 0) {
            return sum;
        }
        if (length >= 8) {
            return sum ^ (long) ARRAY_WORD.get(value, length - 8) >>> (64 - 8 * tail);
        }
        for (int k = 0; k < tail; k++) {
            sum ^= (value[wordsEnd + k] & 0xFFL) << (8 * k);
        }
        return sum;
    }
}
