package dev.pinrock.bench;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * The baseline: RocksJava 9.10.0 (the same RocksDB version as pinrock's
 * engine) on the same datasets, options and operations as
 * {@link PinrockBenchmark}, with RocksJava's best call for each access mode.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class RocksJavaBenchmark {
    static {
        RocksDB.loadLibrary();
    }

    /** A RocksJava handle with the options {@link Datasets#options()} gives pinrock. */
    public abstract static class Handle extends Grid {
        RocksDB db;
        ReadOptions readOptions;
        WriteOptions writeOptions;
        private LRUCache cache;
        private Options options;
        Path scratch;

        void open(Path path, boolean create) throws RocksDBException {
            cache = new LRUCache(Datasets.BLOCK_CACHE_BYTES);
            options = new Options().setCreateIfMissing(create).setParanoidChecks(true)
                    .setCompressionType(CompressionType.NO_COMPRESSION)
                    .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
                    .setMaxOpenFiles(-1).setWriteBufferSize(Datasets.WRITE_BUFFER_BYTES)
                    .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
            db = RocksDB.open(options, path.toString());
            readOptions = new ReadOptions();
            writeOptions = new WriteOptions();
        }

        @TearDown(Level.Trial)
        public void close() {
            writeOptions.close();
            readOptions.close();
            db.close();
            options.close();
            cache.close();
            if (scratch != null) {
                Datasets.deleteRecursively(scratch);
            }
        }
    }

    /** A database to read: the shared flushed dataset, or a memtable loaded for this trial. */
    @State(Scope.Benchmark)
    public static class ReadDb extends Handle {
        @Setup(Level.Trial)
        public void open() throws RocksDBException {
            if (inMemtable()) {
                scratch = Datasets.scratch();
                open(scratch, true);
                Datasets.load((key, value) -> db.put(writeOptions, key, value), keyBytes, valueBytes, keyCount());
            } else {
                open(Datasets.sst(keyBytes, valueBytes, keyCount()), false);
            }
        }
    }

    /** An empty database per trial, for writes. */
    @State(Scope.Benchmark)
    public static class WriteDb extends Handle {
        @Setup(Level.Trial)
        public void open() throws RocksDBException {
            scratch = Datasets.scratch();
            open(scratch, true);
        }
    }

    @Benchmark
    public long getNewArray(ReadDb s, Picker p) throws RocksDBException {
        p.nextKey();
        byte[] value = s.db.get(p.key);
        return Keys.checksum(MemorySegment.ofArray(value), value.length);
    }

    @Benchmark
    public long getIntoArray(ReadDb s, Picker p) throws RocksDBException {
        p.nextKey();
        int length = s.db.get(p.key, p.valueArray);
        return Keys.checksum(MemorySegment.ofArray(p.valueArray), length);
    }

    @Benchmark
    public long getDirectBuffer(ReadDb s, Picker p) throws RocksDBException {
        p.nextDirectKey();
        p.directValue.clear();
        int length = s.db.get(s.readOptions, p.directKey, p.directValue);
        return Keys.checksum(MemorySegment.ofBuffer(p.directValue), length);
    }

    @Benchmark
    public int getAbsent(ReadDb s, Picker p) throws RocksDBException {
        p.nextAbsentKey();
        return s.db.get(p.key, p.valueArray);
    }

    @Benchmark
    public void put(WriteDb s, Picker p) throws RocksDBException {
        p.nextEntry();
        s.db.put(s.writeOptions, p.key, p.value);
    }

    @Benchmark
    public void delete(WriteDb s, Picker p) throws RocksDBException {
        p.nextKey();
        s.db.delete(s.writeOptions, p.key);
    }
}
