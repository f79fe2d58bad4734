package dev.pinrock;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * The order of a column family's keys (RocksDB's {@code Comparator}), set
 * with {@link DbOptions#comparator(KeyComparator)}: one of RocksDB's
 * built-in comparators ({@link #BYTEWISE}, {@link #REVERSE_BYTEWISE}), by
 * the name RocksDB records in the database, or one written in Java, a
 * subclass of this class (RocksJava's {@code AbstractComparator}).
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
 * <p><b>Comparators written in Java.</b> RocksDB calls {@link #compare} for
 * every comparison of the family's keys: in writes (on the writing thread,
 * inserting into the memtable), reads and cursors (on the reading thread),
 * and flushes and compactions (on RocksDB's background threads), several
 * at once: it must be thread-safe, fast, and a total order that never
 * changes for the life of the data. The keys are read-only views of copies
 * the calling thread reuses, so that a comparison allocates nothing: a view
 * kept past its call shows the bytes of later keys. It must not call
 * pinrock (such a call throws {@link IllegalStateException}: RocksDB may
 * hold locks it needs). Its name (1 to 255 ASCII letters, digits and
 * {@code . _ - $}, none of RocksDB's) is what RocksDB records: the family
 * opens only with a comparator of that name, and
 * {@link DbOptions#loadLatest(java.nio.file.Path)} cannot make it. A
 * comparator of this class is called through an FFM upcall, about the cost
 * of a JNI callback's half (see the benchmarks), where RocksJava's
 * {@code AbstractComparator} pays a JNI callback with its buffers.
 *
 * <p>RocksDB has no way to fail a comparison. A compare that throws (any
 * {@link Throwable}, {@link StackOverflowError} and
 * {@link OutOfMemoryError} included) is answered as {@link #BYTEWISE}
 * would, and the database is then out of order for those keys: from that
 * moment it writes no table file and no MANIFEST record (its flushes and
 * compactions fail, and with them its writes, with
 * {@link RocksDbException.RocksIoException} naming the comparator), and
 * every later call on the database, its families, cursors, transactions and
 * batches throws {@link IllegalStateException} with the comparator's
 * exception as its cause. Nothing acknowledged is lost: the log keeps the
 * writes, and the next open, with a comparator that answers, replays them.
 * The call during which the comparison failed may still return an answer
 * that followed the bytewise order for it. Close the database and open it
 * again.
 *
 * <p>The built-in instances are immutable and thread-safe; {@link #compare}
 * gives the order in Java too, for sorting keys before an
 * {@link SstFileWriter}.
 */
public abstract class KeyComparator {
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

    /**
     * Creates a comparator written in Java.
     *
     * @param name the name RocksDB records (1 to 255 ASCII letters, digits and {@code . _ - $},
     *     none of RocksDB's comparators'); checked when options holding it are used
     */
    protected KeyComparator(String name) {
        this.name = Objects.requireNonNull(name, "name");
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
     * Compares two keys in this order. RocksDB calls it on many threads at
     * once (see the class comment): the views are read-only, and their bytes
     * are the keys' only during the call.
     *
     * @param a a key
     * @param b another key
     * @return a negative number when a comes before b, 0 when they are the same key, a positive one otherwise
     */
    public abstract int compare(MemorySegment a, MemorySegment b);

    /**
     * Returns whether this is one of RocksDB's built-in comparators, which
     * pinrock names rather than calls.
     *
     * @return whether this is {@link #BYTEWISE} or {@link #REVERSE_BYTEWISE}
     */
    public final boolean isBuiltIn() {
        return this == BYTEWISE || this == REVERSE_BYTEWISE;
    }

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
