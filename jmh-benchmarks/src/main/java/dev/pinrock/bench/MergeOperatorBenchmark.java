package dev.pinrock.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
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
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.UInt64AddOperator;

import dev.pinrock.Compression;
import dev.pinrock.DbOptions;
import dev.pinrock.MergeOperator;
import dev.pinrock.MergeResult;
import dev.pinrock.RocksDb;

/**
 * Reads that merge: each of {@value #KEYS} keys holds a put of an 8-byte
 * little-endian counter and {@value #OPERANDS} merge operands adding to it,
 * all in the memtable, so every {@link #getMerged() get} merges
 * {@value #OPERANDS} operands onto a value, and each {@link #mergeThenGet()
 * merge followed by a get} of a key picked at random also merges the
 * operands written during the trial. The operator is RocksDB's built-in
 * {@code uint64add} (pinrock by name, RocksJava's {@code UInt64AddOperator})
 * or the same sums written in Java on pinrock ({@link JavaUint64Add}):
 * RocksJava cannot run a merge operator written in Java. Same RocksDB options
 * everywhere: no compression, a 64 MiB write buffer.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MergeOperatorBenchmark {
    static final int KEYS = 10_000;
    static final int OPERANDS = 4;
    static final long WRITE_BUFFER_BYTES = 64L << 20;

    /**
     * {@code pinrock-java} (pinrock, the operator in Java), {@code pinrock}
     * (pinrock, the built-in operator) or {@code rocksjava} (RocksJava, the built-in operator).
     */
    @Param({"pinrock-java", "pinrock", "rocksjava"})
    public String library;

    /** What a library must do: merges and reads of counters. */
    interface Counters extends AutoCloseable {
        void put(byte[] key, byte[] value);

        void merge(byte[] key, byte[] operand);

        byte[] get(byte[] key);

        @Override
        void close();
    }

    /** RocksDB's uint64add written in Java: little-endian 64-bit sums, partial merges included. */
    static final class JavaUint64Add implements MergeOperator {
        private static final ValueLayout.OfLong UINT64 =
                ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

        @Override
        public String name() {
            return "bench.JavaUint64Add";
        }

        @Override
        public boolean fullMerge(MemorySegment key, MemorySegment existingValue, List<MemorySegment> operands,
                MergeResult result) {
            long sum = existingValue == null || existingValue.byteSize() != 8 ? 0 : existingValue.get(UINT64, 0);
            for (int i = 0, n = operands.size(); i < n; i++) {
                sum += operands.get(i).get(UINT64, 0);
            }
            result.allocate(8).set(UINT64, 0, sum);
            return true;
        }

        @Override
        public boolean partialMerge(MemorySegment key, MemorySegment left, MemorySegment right, MergeResult result) {
            result.allocate(8).set(UINT64, 0, left.get(UINT64, 0) + right.get(UINT64, 0));
            return true;
        }
    }

    private Path dir;
    private Counters counters;
    private final SplittableRandom random = new SplittableRandom(42);
    private final byte[] key = new byte[16];
    private final byte[] one = uint64(1);

    static byte[] uint64(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    static long uint64(byte[] value) {
        return ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    @Setup(Level.Trial)
    public void setUp() {
        dir = Datasets.scratch();
        counters = switch (library) {
            case "pinrock-java" -> new PinrockCounters(dir, DbOptions.create().mergeOperator(new JavaUint64Add()));
            case "pinrock" -> new PinrockCounters(dir, DbOptions.create().mergeOperator("uint64add"));
            case "rocksjava" -> new RocksJavaCounters(dir);
            default -> throw new IllegalArgumentException("library must be pinrock-java, pinrock or rocksjava: "
                    + library);
        };
        for (int i = 0; i < KEYS; i++) {
            Keys.fill(key, i);
            counters.put(key, uint64(i));
            for (int j = 0; j < OPERANDS; j++) {
                counters.merge(key, one);
            }
        }
        Keys.fill(key, 7);
        if (uint64(counters.get(key)) != 7 + OPERANDS) {
            throw new IllegalStateException(library + " does not add its operands up");
        }
    }

    /** The library under test, for {@code MergeOperatorBenchmarkAgreeTest}. */
    Counters counters() {
        return counters;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        counters.close();
        Datasets.deleteRecursively(dir);
    }

    @Benchmark
    public byte[] getMerged() {
        Keys.fill(key, random.nextInt(KEYS));
        return counters.get(key);
    }

    @Benchmark
    public byte[] mergeThenGet() {
        Keys.fill(key, random.nextInt(KEYS));
        counters.merge(key, one);
        Keys.fill(key, random.nextInt(KEYS));
        return counters.get(key);
    }

    static final class PinrockCounters implements Counters {
        private final RocksDb db;

        PinrockCounters(Path dir, DbOptions merging) {
            db = RocksDb.open(dir, merging.createIfMissing(true).compression(Compression.NONE)
                    .writeBufferBytes(WRITE_BUFFER_BYTES));
        }

        @Override
        public void put(byte[] key, byte[] value) {
            db.put(key, value);
        }

        @Override
        public void merge(byte[] key, byte[] operand) {
            db.merge(key, operand);
        }

        @Override
        public byte[] get(byte[] key) {
            return db.get(key);
        }

        @Override
        public void close() {
            db.close();
        }
    }

    static final class RocksJavaCounters implements Counters {
        static {
            RocksDB.loadLibrary();
        }

        private final UInt64AddOperator operator = new UInt64AddOperator();
        private final Options options = new Options().setCreateIfMissing(true)
                .setCompressionType(CompressionType.NO_COMPRESSION).setWriteBufferSize(WRITE_BUFFER_BYTES)
                .setMergeOperator(operator);
        private final RocksDB db;

        RocksJavaCounters(Path dir) {
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
        public void merge(byte[] key, byte[] operand) {
            try {
                db.merge(key, operand);
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
        public void close() {
            db.close();
            options.close();
            operator.close();
        }
    }
}
