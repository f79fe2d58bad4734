package dev.pinrock.bench;

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
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatchWithIndex;

import dev.pinrock.Compression;
import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * Reads through a batch with index (RocksDB's {@code WriteBatchWithIndex})
 * on pinrock and on RocksJava with identical RocksDB options: a get of a
 * random key from the batch merged over the database
 * ({@code GetFromBatchAndDB}), and a cursor over both
 * ({@code NewIteratorWithBase}) seeking a random key and reading
 * {@value #SCAN_ENTRIES} entries, opened for the read or kept open, each
 * library as its cursors read many entries (pinrock: a scan, copying them
 * per native call and showing them as views; RocksJava: next, key and value
 * per entry). The batch holds a put of every
 * {@value #BATCH_EVERY}th key (overwrite-key mode), so that a read finds
 * some keys in the batch and most in the database; the database holds
 * {@value #KEYS} keys of {@value #VALUE_BYTES} bytes, no compression, a
 * 64 MiB write buffer. pinrock's batch, made once, stays indexed between
 * reads, as RocksJava's does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class IndexedBatchBenchmark {
    static final int KEYS = 100_000;
    static final int KEY_BYTES = 16;
    static final int VALUE_BYTES = 100;
    static final int BATCH_EVERY = 100;
    static final int SCAN_ENTRIES = 10;
    static final long WRITE_BUFFER_BYTES = 64L << 20;

    /** {@code pinrock} (FFM) or {@code rocksjava} (org.rocksdb:rocksdbjni). */
    @Param({"pinrock", "rocksjava"})
    public String library;

    /** What a library must do: reads through one batch with index over one database. */
    interface IndexedBatch extends AutoCloseable {
        /** Writes key -> value into the database. */
        void putInDatabase(byte[] key, byte[] value);

        /** Puts key -> value into the batch. */
        void putInBatch(byte[] key, byte[] value);

        /** @return key's value read from the batch over the database, or null */
        byte[] get(byte[] key);

        /**
         * Opens a cursor over the batch and the database, seeks key and reads
         * at most entries entries, then closes the cursor.
         *
         * @return the total length of the keys and values read
         */
        long scan(byte[] key, int entries);

        /** {@link #scan} through one cursor opened at the first call and kept open. */
        long scanKeptOpen(byte[] key, int entries);

        @Override
        void close();
    }

    private Path dir;
    private IndexedBatch batch;
    private final SplittableRandom random = new SplittableRandom(42);
    private final byte[] key = new byte[KEY_BYTES];

    @Setup(Level.Trial)
    public void setUp() {
        dir = Datasets.scratch();
        batch = switch (library) {
            case "pinrock" -> new PinrockIndexedBatch(dir);
            case "rocksjava" -> new RocksJavaIndexedBatch(dir);
            default -> throw new IllegalArgumentException("library must be pinrock or rocksjava: " + library);
        };
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < KEYS; i++) {
            Keys.fill(key, i);
            Keys.fillValue(value, i);
            batch.putInDatabase(key, value);
            if (i % BATCH_EVERY == 0) {
                Keys.fillValue(value, i + 1);
                batch.putInBatch(key, value);
            }
        }
        // Both libraries must read the batch over the database.
        Keys.fill(key, BATCH_EVERY);
        Keys.fillValue(value, BATCH_EVERY + 1);
        if (!java.util.Arrays.equals(value, batch.get(key))) {
            throw new IllegalStateException(library + " does not read a key of its batch back");
        }
    }

    /** The library under test, for {@code IndexedBatchBenchmarkAgreeTest}. */
    IndexedBatch batch() {
        return batch;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        batch.close();
        Datasets.deleteRecursively(dir);
    }

    @Benchmark
    public byte[] getFromBatchAndDb() {
        Keys.fill(key, random.nextInt(KEYS));
        return batch.get(key);
    }

    @Benchmark
    public long cursorOverBatchAndDb() {
        Keys.fill(key, random.nextInt(KEYS));
        return batch.scan(key, SCAN_ENTRIES);
    }

    @Benchmark
    public long openCursorOverBatchAndDb() {
        Keys.fill(key, random.nextInt(KEYS));
        return batch.scanKeptOpen(key, SCAN_ENTRIES);
    }

    static final class PinrockIndexedBatch implements IndexedBatch {
        private final RocksDb db;
        private final dev.pinrock.WriteBatchWithIndex batch;
        private Cursor open;

        PinrockIndexedBatch(Path dir) {
            db = RocksDb.open(dir, DbOptions.create().createIfMissing(true).compression(Compression.NONE)
                    .writeBufferBytes(WRITE_BUFFER_BYTES));
            batch = new dev.pinrock.WriteBatchWithIndex(db, true);
        }

        @Override
        public void putInDatabase(byte[] key, byte[] value) {
            db.put(key, value);
        }

        @Override
        public void putInBatch(byte[] key, byte[] value) {
            batch.put(key, value);
        }

        @Override
        public byte[] get(byte[] key) {
            return batch.get(key);
        }

        @Override
        public long scan(byte[] key, int entries) {
            try (Cursor cursor = batch.cursor()) {
                return read(cursor, key, entries);
            }
        }

        @Override
        public long scanKeptOpen(byte[] key, int entries) {
            if (open == null) {
                open = batch.cursor();
            }
            return read(open, key, entries);
        }

        private static long read(Cursor cursor, byte[] key, int entries) {
            long[] bytes = {0};
            if (cursor.seek(key)) {
                cursor.scan(entries, (k, v) -> bytes[0] += k.byteSize() + v.byteSize());
            }
            return bytes[0];
        }

        @Override
        public void close() {
            batch.close(); // closes its cursor
            db.close();
        }
    }

    static final class RocksJavaIndexedBatch implements IndexedBatch {
        static {
            RocksDB.loadLibrary();
        }

        private final Options options = new Options().setCreateIfMissing(true)
                .setCompressionType(CompressionType.NO_COMPRESSION).setWriteBufferSize(WRITE_BUFFER_BYTES);
        private final org.rocksdb.ReadOptions readOptions = new org.rocksdb.ReadOptions();
        private final WriteBatchWithIndex batch = new WriteBatchWithIndex(true);
        private final RocksDB db;
        private RocksIterator open;

        RocksJavaIndexedBatch(Path dir) {
            try {
                db = RocksDB.open(options, dir.toString());
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void putInDatabase(byte[] key, byte[] value) {
            try {
                db.put(key, value);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void putInBatch(byte[] key, byte[] value) {
            try {
                batch.put(key, value);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public byte[] get(byte[] key) {
            try {
                return batch.getFromBatchAndDB(db, readOptions, key);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public long scan(byte[] key, int entries) {
            try (RocksIterator iterator = batch.newIteratorWithBase(db.newIterator(readOptions))) {
                return read(iterator, key, entries);
            }
        }

        @Override
        public long scanKeptOpen(byte[] key, int entries) {
            if (open == null) {
                open = batch.newIteratorWithBase(db.newIterator(readOptions));
            }
            return read(open, key, entries);
        }

        private static long read(RocksIterator iterator, byte[] key, int entries) {
            long bytes = 0;
            int left = entries;
            for (iterator.seek(key); iterator.isValid() && left-- > 0; iterator.next()) {
                bytes += iterator.key().length + iterator.value().length;
            }
            return bytes;
        }

        @Override
        public void close() {
            if (open != null) {
                open.close();
            }
            batch.close();
            db.close();
            readOptions.close();
            options.close();
        }
    }
}
