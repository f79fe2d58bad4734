package dev.pinrock.bench;

import java.nio.file.Path;
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
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.RemoveEmptyValueCompactionFilter;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import dev.pinrock.CompactionFilter;
import dev.pinrock.CompactionFilterFactory;
import dev.pinrock.Compression;
import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * Compactions that filter: a database of {@value #ENTRIES} keys with
 * {@value #VALUE_BYTES}-byte values (and {@value #EMPTY} empty ones, which
 * filters remove) in one table file, compacted whole (the last level
 * rewritten, so every entry passes the filter) by each
 * {@link #compactAll() operation}. The filter removes empty values:
 * written in Java on pinrock ({@code pinrock-java}, an FFM upcall per
 * entry), none on pinrock ({@code pinrock}: the cost of the compaction
 * alone), and RocksDB's built-in {@code RemoveEmptyValueCompactionFilter} in
 * C++ on RocksJava ({@code rocksjava}): RocksJava cannot run a compaction
 * filter written in Java. No compression.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CompactionFilterBenchmark {
    static final int ENTRIES = 100_000;
    static final int EMPTY = 100;
    static final int VALUE_BYTES = 100;

    /** {@code pinrock-java}, {@code pinrock} or {@code rocksjava}; see the class comment. */
    @Param({"pinrock-java", "pinrock", "rocksjava"})
    public String library;

    /** What a library must do: write, compact whole, read. */
    interface Compacting extends AutoCloseable {
        void put(byte[] key, byte[] value);

        void compactAll();

        byte[] get(byte[] key);

        @Override
        void close();
    }

    /** RocksDB's RemoveEmptyValueCompactionFilter written in Java. */
    static final CompactionFilterFactory REMOVE_EMPTY_VALUES = CompactionFilterFactory.of("bench.RemoveEmptyValues",
            (key, kind, value, decision) -> {
                if (kind == CompactionFilter.EntryKind.VALUE && value.byteSize() == 0) {
                    decision.remove();
                }
            });

    private Path dir;
    private Compacting compacting;

    /** Key i of the database: entry i, empty for the first {@value #EMPTY}. */
    static byte[] key(int i) {
        byte[] key = new byte[Keys.MIN_KEY_BYTES];
        Keys.fill(key, i);
        return key;
    }

    @Setup(Level.Trial)
    public void setUp() {
        dir = Datasets.scratch();
        compacting = switch (library) {
            case "pinrock-java" -> new PinrockCompacting(dir, DbOptions.create().compactionFilter(REMOVE_EMPTY_VALUES));
            case "pinrock" -> new PinrockCompacting(dir, DbOptions.create());
            case "rocksjava" -> new RocksJavaCompacting(dir);
            default -> throw new IllegalArgumentException("library must be pinrock-java, pinrock or rocksjava: "
                    + library);
        };
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < ENTRIES; i++) {
            Keys.fillValue(value, i);
            compacting.put(key(i), i < EMPTY ? new byte[0] : value);
        }
        compacting.compactAll();
    }

    /** The library under test, for {@code CompactionFilterBenchmarkAgreeTest}. */
    Compacting compacting() {
        return compacting;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        compacting.close();
        Datasets.deleteRecursively(dir);
    }

    @Benchmark
    public void compactAll() {
        compacting.compactAll();
    }

    static final class PinrockCompacting implements Compacting {
        private final RocksDb db;

        PinrockCompacting(Path dir, DbOptions filtering) {
            db = RocksDb.open(dir, filtering.createIfMissing(true).compression(Compression.NONE)
                    .bottommostCompression(Compression.NONE));
        }

        @Override
        public void put(byte[] key, byte[] value) {
            db.put(key, value);
        }

        @Override
        public void compactAll() {
            db.compactRange(); // rewrites the last level too
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

    static final class RocksJavaCompacting implements Compacting {
        static {
            RocksDB.loadLibrary();
        }

        private final RemoveEmptyValueCompactionFilter filter = new RemoveEmptyValueCompactionFilter();
        private final Options options = new Options().setCreateIfMissing(true)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setBottommostCompressionType(CompressionType.NO_COMPRESSION).setCompactionFilter(filter);
        private final CompactRangeOptions wholeRewrite = new CompactRangeOptions()
                .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce);
        private final RocksDB db;

        RocksJavaCompacting(Path dir) {
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
        public void compactAll() {
            try {
                db.compactRange(db.getDefaultColumnFamily(), null, null, wholeRewrite);
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
            wholeRewrite.close();
            options.close();
            filter.close();
        }
    }
}
