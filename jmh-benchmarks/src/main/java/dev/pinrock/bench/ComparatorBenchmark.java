package dev.pinrock.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rocksdb.AbstractComparator;
import org.rocksdb.ComparatorOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.ReusedSynchronisationType;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import dev.pinrock.Compression;
import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.KeyComparator;
import dev.pinrock.RocksDb;

/**
 * A comparator written in Java against RocksDB's own: the bytewise order
 * written in Java on pinrock ({@code pinrock-java}, a {@link KeyComparator},
 * an FFM upcall per comparison) and on RocksJava ({@code rocksjava-java}, an
 * {@code AbstractComparator}, a JNI callback per comparison, with RocksJava's
 * fastest settings: thread-local reused direct buffers), and RocksDB's
 * built-in bytewise comparator on both ({@code pinrock}, {@code rocksjava}).
 * A database of {@value #KEYS} keys with {@value #VALUE_BYTES}-byte values in
 * one table file; {@link #fill()} puts a key at random among
 * {@value #FILL_KEYS} into the memtable, {@link #randomGet()} reads a key at
 * random from the table file, and {@link #scan()} seeks to a key at random
 * and walks the next {@value #SCAN_LENGTH}. Same RocksDB options everywhere:
 * no compression.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ComparatorBenchmark {
    static final int KEYS = 100_000;
    static final int FILL_KEYS = 10_000_000;
    static final int VALUE_BYTES = 100;
    static final int SCAN_LENGTH = 100;

    /** {@code pinrock-java}, {@code pinrock}, {@code rocksjava-java} or {@code rocksjava}; see the class comment. */
    @Param({"pinrock-java", "pinrock", "rocksjava-java", "rocksjava"})
    public String library;

    /** What a library must do: write, flush, read, walk. */
    interface Ordered extends AutoCloseable {
        void put(byte[] key, byte[] value);

        void flush();

        byte[] get(byte[] key);

        /** Seeks to key and walks up to count keys; returns how many it walked. */
        int scan(byte[] key, int count);

        @Override
        void close();
    }

    /**
     * RocksDB's bytewise order written in Java, for pinrock: eight bytes at
     * a time as unsigned big-endian longs, then byte by byte, then the
     * shorter key first. {@link RocksJavaBytewise} is the same code over
     * ByteBuffers.
     */
    static final class JavaBytewise extends KeyComparator {
        private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

        JavaBytewise() {
            super("bench.JavaBytewise");
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            long common = Math.min(a.byteSize(), b.byteSize());
            long at = 0;
            for (; at + 8 <= common; at += 8) {
                long x = a.get(WORD, at);
                long y = b.get(WORD, at);
                if (x != y) {
                    return Long.compareUnsigned(x, y);
                }
            }
            for (; at < common; at++) {
                int order = Byte.compareUnsigned(a.get(ValueLayout.JAVA_BYTE, at), b.get(ValueLayout.JAVA_BYTE, at));
                if (order != 0) {
                    return order;
                }
            }
            return Long.compare(a.byteSize(), b.byteSize());
        }
    }

    /** RocksDB's bytewise order written in Java, for RocksJava: {@link JavaBytewise}'s code. */
    static final class RocksJavaBytewise extends AbstractComparator {
        RocksJavaBytewise(ComparatorOptions options) {
            super(options);
        }

        @Override
        public String name() {
            return "bench.JavaBytewise";
        }

        @Override
        public int compare(ByteBuffer a, ByteBuffer b) {
            return compareBuffers(a, b);
        }

        /** The order of keys a and b, big-endian buffers positioned at them (as RocksJava passes them). */
        static int compareBuffers(ByteBuffer a, ByteBuffer b) {
            int common = Math.min(a.remaining(), b.remaining());
            int at = 0;
            for (; at + 8 <= common; at += 8) {
                long x = a.getLong(a.position() + at);
                long y = b.getLong(b.position() + at);
                if (x != y) {
                    return Long.compareUnsigned(x, y);
                }
            }
            for (; at < common; at++) {
                int order = Byte.compareUnsigned(a.get(a.position() + at), b.get(b.position() + at));
                if (order != 0) {
                    return order;
                }
            }
            return Integer.compare(a.remaining(), b.remaining());
        }
    }

    private Path dir;
    private Ordered ordered;
    private final SplittableRandom random = new SplittableRandom(42);
    private final byte[] key = new byte[Keys.MIN_KEY_BYTES];
    private final byte[] value = new byte[VALUE_BYTES];

    @Setup(Level.Trial)
    public void setUp() {
        dir = Datasets.scratch();
        ordered = switch (library) {
            case "pinrock-java" -> new PinrockOrdered(dir, new JavaBytewise());
            case "pinrock" -> new PinrockOrdered(dir, KeyComparator.BYTEWISE);
            case "rocksjava-java" -> new RocksJavaOrdered(dir, true);
            case "rocksjava" -> new RocksJavaOrdered(dir, false);
            default -> throw new IllegalArgumentException(
                    "library must be pinrock-java, pinrock, rocksjava-java or rocksjava: " + library);
        };
        for (int i = 0; i < KEYS; i++) {
            Keys.fill(key, i);
            Keys.fillValue(value, i);
            ordered.put(key, value);
        }
        ordered.flush();
    }

    /** The library under test, for {@code ComparatorBenchmarkAgreeTest}. */
    Ordered ordered() {
        return ordered;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        ordered.close();
        Datasets.deleteRecursively(dir);
    }

    @Benchmark
    public void fill() {
        Keys.fill(key, KEYS + random.nextInt(FILL_KEYS));
        ordered.put(key, value);
    }

    @Benchmark
    public byte[] randomGet() {
        Keys.fill(key, random.nextInt(KEYS));
        return ordered.get(key);
    }

    @Benchmark
    public int scan() {
        Keys.fill(key, random.nextInt(KEYS));
        return ordered.scan(key, SCAN_LENGTH);
    }

    static final class PinrockOrdered implements Ordered {
        private final RocksDb db;

        PinrockOrdered(Path dir, KeyComparator comparator) {
            db = RocksDb.open(dir, DbOptions.create().createIfMissing(true).comparator(comparator)
                    .compression(Compression.NONE).bottommostCompression(Compression.NONE));
        }

        @Override
        public void put(byte[] key, byte[] value) {
            db.put(key, value);
        }

        @Override
        public void flush() {
            db.flush();
        }

        @Override
        public byte[] get(byte[] key) {
            return db.get(key);
        }

        @Override
        public int scan(byte[] key, int count) {
            int walked = 0;
            try (Cursor cursor = db.cursor()) {
                for (boolean on = cursor.seek(key); on && walked < count; on = cursor.next()) {
                    walked++;
                }
            }
            return walked;
        }

        @Override
        public void close() {
            db.close();
        }
    }

    static final class RocksJavaOrdered implements Ordered {
        static {
            RocksDB.loadLibrary();
        }

        private final ComparatorOptions comparatorOptions = new ComparatorOptions()
                .setReusedSynchronisationType(ReusedSynchronisationType.THREAD_LOCAL).setMaxReusedBufferSize(64);
        private final RocksJavaBytewise comparator;
        private final Options options = new Options().setCreateIfMissing(true)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setBottommostCompressionType(CompressionType.NO_COMPRESSION);
        private final RocksDB db;

        RocksJavaOrdered(Path dir, boolean javaComparator) {
            comparator = javaComparator ? new RocksJavaBytewise(comparatorOptions) : null;
            if (comparator != null) {
                options.setComparator(comparator);
            }
            try {
                db = RocksDB.open(options, dir.toString());
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void put(byte[] key, byte[] value) {
            try {
                db.put(key, value);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void flush() {
            try (org.rocksdb.FlushOptions flush = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
                db.flush(flush);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public byte[] get(byte[] key) {
            try {
                return db.get(key);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public int scan(byte[] key, int count) {
            int walked = 0;
            try (RocksIterator iterator = db.newIterator()) {
                for (iterator.seek(key); iterator.isValid() && walked < count; iterator.next()) {
                    walked++;
                }
            }
            return walked;
        }

        @Override
        public void close() {
            db.close();
            options.close();
            if (comparator != null) {
                comparator.close();
            }
            comparatorOptions.close();
        }
    }
}
