package dev.pinrock.bench;

import java.nio.ByteBuffer;
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
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import dev.pinrock.Compression;
import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;

/**
 * Reads that a tuned database's filters serve, on pinrock and on RocksJava
 * with identical RocksDB options: a lookup of an absent key, with a 10-bit
 * Bloom filter and without a filter, and a scan of one prefix with a fixed
 * 8-byte prefix extractor, in each library's two ways of reading entries
 * (as the main grid's scans, compare each library's best).
 *
 * <p>Each (library, filter) trial builds its own database with its own
 * library: {@value #PREFIXES} prefixes of {@value #KEYS_PER_PREFIX} keys each
 * (16-byte keys: an 8-byte prefix and an 8-byte suffix, both big-endian
 * numbers; present suffixes are even), {@value #VALUE_BYTES}-byte values, no
 * compression, a block cache holding everything, written in {@value #FILES}
 * passes flushed to {@value #FILES} table files that each span the whole key
 * range, with automatic compactions off. In the {@code overlapping} layout
 * the files stay so: a read consults every file, as in a database whose
 * writes are spread over time. In the {@code compacted} layout a full
 * compaction then merges them into one sorted run, as in a database that
 * compaction has caught up with. An absent key has an odd suffix within a
 * present prefix, so only a whole-key filter can answer it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TuningBenchmark {
    static final int PREFIXES = 10_000;
    static final int KEYS_PER_PREFIX = 50;
    static final int FILES = 4;
    static final int VALUE_BYTES = 100;
    static final int PREFIX_BYTES = 8;
    static final int KEY_BYTES = 16;
    static final int BLOOM_BITS_PER_KEY = 10;
    static final long BLOCK_CACHE_BYTES = 1L << 30;
    static final long WRITE_BUFFER_BYTES = 256L << 20;
    static final String LEVEL0_FILES = "rocksdb.num-files-at-level0";

    /** {@code pinrock} (FFM) or {@code rocksjava} (org.rocksdb:rocksdbjni). */
    @Param({"pinrock", "rocksjava"})
    public String library;

    /** {@code bloom}: a 10-bit whole-key Bloom filter; {@code none}: no filter. */
    @Param({"bloom", "none"})
    public String filter;

    /** {@code overlapping}: {@value #FILES} files each spanning every key; {@code compacted}: one sorted run. */
    @Param({"overlapping", "compacted"})
    public String layout;

    /** What a library must do for the benchmarks. */
    interface Reads extends AutoCloseable {
        /** @return the value's length, or a negative number when key is absent */
        int get(byte[] key, byte[] dst);

        /**
         * Reads the entries whose keys start with prefix the convenient way
         * (pinrock: a view of each key and value; RocksJava: each copied into
         * reused arrays).
         *
         * @return a hash of the entries ({@link Keys#scanHash})
         */
        long scanHash(byte[] prefix);

        /**
         * Reads the entries whose keys start with prefix the other way
         * (pinrock: stepping through each batch by offset, no object per
         * entry; RocksJava: each copied into reused direct buffers).
         *
         * @return what {@link #scanHash(byte[])} returns
         */
        long scanHashFlat(byte[] prefix);

        /** @return the number of entries whose keys start with prefix */
        int count(byte[] prefix);

        /** @return the number of table files in level 0 */
        long level0Files();

        @Override
        void close();
    }

    private Path dir;
    private Reads reads;
    private final SplittableRandom random = new SplittableRandom(42);
    private final byte[] key = new byte[KEY_BYTES];
    private final byte[] prefix = new byte[PREFIX_BYTES];
    private final byte[] value = new byte[VALUE_BYTES];

    @Setup(Level.Trial)
    public void setUp() {
        dir = Datasets.scratch();
        boolean bloom = switch (filter) {
            case "bloom" -> true;
            case "none" -> false;
            default -> throw new IllegalArgumentException("filter must be bloom or none: " + filter);
        };
        boolean compacted = switch (layout) {
            case "compacted" -> true;
            case "overlapping" -> false;
            default -> throw new IllegalArgumentException("layout must be overlapping or compacted: " + layout);
        };
        reads = switch (library) {
            case "pinrock" -> new PinrockReads(dir, bloom, compacted);
            case "rocksjava" -> new RocksJavaReads(dir, bloom, compacted);
            default -> throw new IllegalArgumentException("library must be pinrock or rocksjava: " + library);
        };
        // Both libraries must see the same database through their options.
        fill(key, 7, 2);
        if (reads.get(key, value) != VALUE_BYTES) {
            throw new IllegalStateException(library + " does not find a present key");
        }
        fill(key, 7, 3);
        if (reads.get(key, value) >= 0) {
            throw new IllegalStateException(library + " finds an absent key");
        }
        fillPrefix(prefix, 7);
        if (reads.count(prefix) != KEYS_PER_PREFIX) {
            throw new IllegalStateException(library + " scans " + reads.count(prefix) + " entries of a prefix");
        }
        long level0Files = reads.level0Files();
        if (level0Files != (compacted ? 0 : FILES)) {
            throw new IllegalStateException(library + " has " + level0Files + " level-0 files in the " + layout
                    + " layout");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        reads.close();
        Datasets.deleteRecursively(dir);
    }

    @Benchmark
    public int getAbsent() {
        fill(key, random.nextInt(PREFIXES), 2 * random.nextInt(KEYS_PER_PREFIX) + 1);
        return reads.get(key, value);
    }

    @Benchmark
    public long prefixScan() {
        fillPrefix(prefix, random.nextInt(PREFIXES));
        return reads.scanHash(prefix);
    }

    @Benchmark
    public long prefixScanFlat() {
        fillPrefix(prefix, random.nextInt(PREFIXES));
        return reads.scanHashFlat(prefix);
    }

    static void fillPrefix(byte[] prefix, long id) {
        for (int i = 0; i < PREFIX_BYTES; i++) {
            prefix[i] = (byte) (id >>> (8 * (PREFIX_BYTES - 1 - i)));
        }
    }

    static void fill(byte[] key, long prefixId, long suffix) {
        fillPrefix(key, prefixId);
        for (int i = 0; i < KEY_BYTES - PREFIX_BYTES; i++) {
            key[PREFIX_BYTES + i] = (byte) (suffix >>> (8 * (KEY_BYTES - PREFIX_BYTES - 1 - i)));
        }
    }

    /** Receives the database's entries, a flush after each pass, and the compaction of a compacted layout. */
    interface Loader {
        void put(byte[] key, byte[] value) throws Exception;

        void flush() throws Exception;

        /** Compacts the whole key range into one sorted run. */
        void compact() throws Exception;
    }

    /**
     * Writes every present key in {@value #FILES} passes over the whole key
     * range, each flushed, then compacts them into one sorted run when asked.
     */
    static void load(Loader loader, boolean compacted) {
        byte[] key = new byte[KEY_BYTES];
        byte[] value = new byte[VALUE_BYTES];
        try {
            for (int pass = 0; pass < FILES; pass++) {
                for (int prefixId = 0; prefixId < PREFIXES; prefixId++) {
                    for (int k = pass; k < KEYS_PER_PREFIX; k += FILES) {
                        fill(key, prefixId, 2L * k);
                        Keys.fillValue(value, prefixId * KEYS_PER_PREFIX + k);
                        loader.put(key, value);
                    }
                }
                loader.flush();
            }
            if (compacted) {
                loader.compact();
            }
        } catch (Exception e) {
            throw new IllegalStateException("loading the database failed", e);
        }
    }

    static final class PinrockReads implements Reads {
        private final RocksDb db;

        PinrockReads(Path dir, boolean bloom, boolean compacted) {
            DbOptions options = DbOptions.create().createIfMissing(true).compression(Compression.NONE)
                    .blockCacheBytes(BLOCK_CACHE_BYTES).writeBufferBytes(WRITE_BUFFER_BYTES)
                    .fixedPrefix(PREFIX_BYTES).familyOptions("disable_auto_compactions=true");
            db = RocksDb.open(dir, bloom ? options.bloomFilter(BLOOM_BITS_PER_KEY) : options);
            load(new Loader() {
                @Override
                public void put(byte[] key, byte[] value) {
                    db.put(key, value);
                }

                @Override
                public void flush() {
                    db.flush();
                }

                @Override
                public void compact() {
                    db.compactRange();
                }
            }, compacted);
        }

        @Override
        public int get(byte[] key, byte[] dst) {
            return db.get(key, dst);
        }

        @Override
        public long scanHash(byte[] prefix) {
            try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(prefix))) {
                return PinrockBenchmark.hashThroughViews(cursor);
            }
        }

        @Override
        public long scanHashFlat(byte[] prefix) {
            try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(prefix))) {
                return PinrockBenchmark.hashThroughBatchSteps(cursor);
            }
        }

        @Override
        public int count(byte[] prefix) {
            int count = 0;
            try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(prefix))) {
                for (boolean on = cursor.first(); on; on = cursor.next()) {
                    count++;
                }
            }
            return count;
        }

        @Override
        public long level0Files() {
            return Long.parseLong(db.property(LEVEL0_FILES));
        }

        @Override
        public void close() {
            db.close();
        }
    }

    static final class RocksJavaReads implements Reads {
        static {
            RocksDB.loadLibrary();
        }

        private final LRUCache cache = new LRUCache(BLOCK_CACHE_BYTES);
        private final BloomFilter bloomFilter;
        private final Options options;
        private final RocksDB db;
        private final org.rocksdb.ReadOptions prefixRead = new org.rocksdb.ReadOptions().setPrefixSameAsStart(true);
        private final byte[] keyBuffer = new byte[KEY_BYTES];
        private final byte[] valueBuffer = new byte[VALUE_BYTES];
        private final ByteBuffer keyDirect = ByteBuffer.allocateDirect(KEY_BYTES);
        private final ByteBuffer valueDirect = ByteBuffer.allocateDirect(VALUE_BYTES);

        RocksJavaReads(Path dir, boolean bloom, boolean compacted) {
            BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache);
            bloomFilter = bloom ? new BloomFilter(BLOOM_BITS_PER_KEY, false) : null;
            if (bloom) {
                table.setFilterPolicy(bloomFilter);
            }
            options = new Options().setCreateIfMissing(true).setCompressionType(CompressionType.NO_COMPRESSION)
                    .setWriteBufferSize(WRITE_BUFFER_BYTES).useFixedLengthPrefixExtractor(PREFIX_BYTES)
                    .setDisableAutoCompactions(true).setTableFormatConfig(table);
            try {
                db = RocksDB.open(options, dir.toString());
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
            try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                load(new Loader() {
                    @Override
                    public void put(byte[] key, byte[] value) throws RocksDBException {
                        db.put(key, value);
                    }

                    @Override
                    public void flush() throws RocksDBException {
                        db.flush(flush);
                    }

                    @Override
                    public void compact() throws RocksDBException {
                        db.compactRange();
                    }
                }, compacted);
            }
        }

        @Override
        public int get(byte[] key, byte[] dst) {
            try {
                return db.get(key, dst);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public long scanHash(byte[] prefix) {
            try (RocksIterator it = db.newIterator(prefixRead)) {
                it.seek(prefix);
                return RocksJavaBenchmark.hashIntoArrays(it, keyBuffer, valueBuffer);
            }
        }

        @Override
        public long scanHashFlat(byte[] prefix) {
            try (RocksIterator it = db.newIterator(prefixRead)) {
                it.seek(prefix);
                return RocksJavaBenchmark.hashIntoDirectBuffers(it, keyDirect, valueDirect);
            }
        }

        @Override
        public int count(byte[] prefix) {
            int count = 0;
            try (RocksIterator it = db.newIterator(prefixRead)) {
                for (it.seek(prefix); it.isValid(); it.next()) {
                    count++;
                }
            }
            return count;
        }

        @Override
        public long level0Files() {
            try {
                return Long.parseLong(db.getProperty(LEVEL0_FILES));
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            db.close();
            options.close();
            prefixRead.close();
            if (bloomFilter != null) {
                bloomFilter.close();
            }
            cache.close();
        }
    }
}
