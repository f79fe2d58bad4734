package dev.pinrock;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * The order of a column family's keys (RocksDB's {@code Comparator}), set
 * with {@link DbOptions#comparator(KeyComparator)}: one of RocksDB's
 * built-in comparators, by the name RocksDB records in the database.
 *
 * <p>A family keeps the order it was created with: RocksDB records the
 * comparator's name, and {@link RocksDb#open(java.nio.file.Path, DbOptions)}
 * throws {@link RocksDbException.InvalidArgumentException} naming both when
 * a family is given another one, before it reads the log. Cursors walk the
 * keys in the family's order, and {@link ReadOptions#lowerBound(byte[])},
 * {@link ReadOptions#upperBound(byte[])}, {@link Keyspace#deleteRange(byte[], byte[])},
 * {@link Keyspace#compactRange(byte[], byte[])} and batches with index are in
 * it; an {@link SstFileWriter} made with the options takes keys in it, and
 * {@link Keyspace#ingest(java.util.List, boolean)} refuses a file written in
 * another.
 * {@link ReadOptions#prefix(byte[])} bounds keys bytewise and is refused
 * over a family in another order. Kafka Streams stores keep the bytewise
 * order their key schemas need.
 *
 * <p>Instances are immutable and thread-safe; {@link #compare} gives the
 * order in Java too, for sorting keys before an {@link SstFileWriter}.
 */
public abstract sealed class KeyComparator permits KeyComparator.Bytewise, KeyComparator.ReverseBytewise {
    /**
     * Keys by their bytes, unsigned, a key before every longer key it
     * begins: RocksDB's default ({@code leveldb.BytewiseComparator}).
     */
    public static final KeyComparator BYTEWISE = new Bytewise();

    /**
     * The reverse of {@link #BYTEWISE}: the key with the greatest bytes first
     * (RocksDB's {@code rocksdb.ReverseBytewiseComparator}, RocksJava's
     * {@code BuiltinComparator.REVERSE_BYTEWISE_COMPARATOR}).
     */
    public static final KeyComparator REVERSE_BYTEWISE = new ReverseBytewise();

    private final String name;

    private KeyComparator(String name) {
        this.name = name;
    }

    /**
     * Returns the comparator's name, which RocksDB records in the database
     * and its OPTIONS file.
     *
     * @return the name
     */
    public final String name() {
        return name;
    }

    /**
     * Compares two keys in this order.
     *
     * @param a a key
     * @param b another key
     * @return a negative number when a comes before b, 0 when they are the same key, a positive one otherwise
     */
    public abstract int compare(MemorySegment a, MemorySegment b);

    /**
     * Compares two keys in this order.
     *
     * @param a a key
     * @param b another key
     * @return a negative number when a comes before b, 0 when they are the same key, a positive one otherwise
     */
    public final int compare(byte[] a, byte[] b) {
        return compare(MemorySegment.ofArray(Objects.requireNonNull(a, "a")),
                MemorySegment.ofArray(Objects.requireNonNull(b, "b")));
    }

    /**
     * Returns the comparator RocksDB records under name.
     *
     * @param name a comparator's name, as {@link #name()} gives it
     * @return the comparator
     * @throws IllegalArgumentException when pinrock offers no comparator of that name
     */
    static KeyComparator named(String name) {
        for (KeyComparator offered : new KeyComparator[] {BYTEWISE, REVERSE_BYTEWISE}) {
            if (offered.name.equals(name)) {
                return offered;
            }
        }
        throw new IllegalArgumentException("unknown comparator \"" + name + "\": pinrock offers "
                + BYTEWISE.name + ", " + REVERSE_BYTEWISE.name);
    }

    @Override
    public String toString() {
        return name;
    }

    /** RocksDB's bytewise comparator. */
    static final class Bytewise extends KeyComparator {
        private Bytewise() {
            super("leveldb.BytewiseComparator");
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            long at = a.mismatch(b);
            if (at < 0) {
                return 0;
            }
            if (at == a.byteSize() || at == b.byteSize()) {
                return Long.compare(a.byteSize(), b.byteSize());
            }
            return Byte.compareUnsigned(a.get(ValueLayout.JAVA_BYTE, at), b.get(ValueLayout.JAVA_BYTE, at));
        }
    }

    /** RocksDB's reverse bytewise comparator. */
    static final class ReverseBytewise extends KeyComparator {
        private ReverseBytewise() {
            super("rocksdb.ReverseBytewiseComparator");
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            return BYTEWISE.compare(b, a);
        }
    }
}
