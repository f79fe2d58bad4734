package dev.pinrock.bench;

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
import org.rocksdb.CompressionType;
import org.rocksdb.OptimisticTransactionDB;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.TransactionDB;
import org.rocksdb.TransactionDBOptions;
import org.rocksdb.WriteOptions;

import dev.pinrock.Compression;
import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.Transaction;
import dev.pinrock.TransactionDbOptions;

/**
 * Transactions on pinrock and on RocksJava with identical RocksDB options,
 * pessimistic ({@code TransactionDB}, WRITE_COMMITTED) and optimistic
 * ({@code OptimisticTransactionDB}): a transaction that puts one key and
 * commits, one that puts {@value #KEYS_PER_TRANSACTION} keys and commits,
 * and a read-modify-write (a read for update of a counter, its put
 * incremented, the commit). Each operation begins a new transaction and
 * closes it, as applications do; the commits are logged, not synced.
 *
 * <p>Each (library, kind) trial opens its own database with its own library
 * and writes {@value #KEYS} keys of {@value #VALUE_BYTES} bytes (each
 * value's first 8 bytes a little-endian counter), no compression, a 64 MiB
 * write buffer. The operations pick keys at random among them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TransactionBenchmark {
    static final int KEYS = 100_000;
    static final int KEY_BYTES = 16;
    static final int VALUE_BYTES = 100;
    static final int KEYS_PER_TRANSACTION = 4;
    static final long WRITE_BUFFER_BYTES = 64L << 20;

    /** {@code pinrock} (FFM) or {@code rocksjava} (org.rocksdb:rocksdbjni). */
    @Param({"pinrock", "rocksjava"})
    public String library;

    /** {@code pessimistic} ({@code TransactionDB}) or {@code optimistic} ({@code OptimisticTransactionDB}). */
    @Param({"pessimistic", "optimistic"})
    public String kind;

    /** What a library must do for the benchmarks: each call one transaction, begun and closed. */
    interface Transactions extends AutoCloseable {
        /** Puts each key of keys with value in one transaction and commits it. */
        void putAndCommit(byte[][] keys, byte[] value);

        /**
         * Reads key for update, puts its value with the counter in its first
         * 8 bytes incremented, and commits.
         *
         * @return the counter written
         */
        long incrementAndCommit(byte[] key);

        /** @return key's value, or null when absent (outside any transaction) */
        byte[] get(byte[] key);

        @Override
        void close();
    }

    private Path dir;
    private Transactions transactions;
    private final SplittableRandom random = new SplittableRandom(42);
    private final byte[][] one = {new byte[KEY_BYTES]};
    private final byte[][] several = new byte[KEYS_PER_TRANSACTION][KEY_BYTES];
    private final byte[] value = new byte[VALUE_BYTES];

    @Setup(Level.Trial)
    public void setUp() {
        dir = Datasets.scratch();
        boolean optimistic = switch (kind) {
            case "pessimistic" -> false;
            case "optimistic" -> true;
            default -> throw new IllegalArgumentException("kind must be pessimistic or optimistic: " + kind);
        };
        transactions = switch (library) {
            case "pinrock" -> new PinrockTransactions(dir, optimistic);
            case "rocksjava" -> new RocksJavaTransactions(dir, optimistic);
            default -> throw new IllegalArgumentException("library must be pinrock or rocksjava: " + library);
        };
        byte[][] key = {new byte[KEY_BYTES]};
        for (int i = 0; i < KEYS; i++) {
            Keys.fill(key[0], i);
            Keys.fillValue(value, i);
            counter(value, 0);
            transactions.putAndCommit(key, value);
        }
        // Both libraries must see the same database.
        Keys.fill(key[0], 7);
        byte[] found = transactions.get(key[0]);
        if (found == null || found.length != VALUE_BYTES || counter(found) != 0) {
            throw new IllegalStateException(library + " does not read back a key it wrote");
        }
        Keys.fillValue(value, 0);
        counter(value, 0);
    }

    /** The library under test, for {@code TransactionBenchmarkAgreeTest}. */
    Transactions transactions() {
        return transactions;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        transactions.close();
        Datasets.deleteRecursively(dir);
    }

    @Benchmark
    public void putCommit1() {
        Keys.fill(one[0], random.nextInt(KEYS));
        transactions.putAndCommit(one, value);
    }

    @Benchmark
    public void putCommit4() {
        for (byte[] key : several) {
            Keys.fill(key, random.nextInt(KEYS));
        }
        transactions.putAndCommit(several, value);
    }

    @Benchmark
    public long readModifyWrite() {
        Keys.fill(one[0], random.nextInt(KEYS));
        return transactions.incrementAndCommit(one[0]);
    }

    /** The counter in value's first 8 bytes, little-endian. */
    static long counter(byte[] value) {
        return ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
    }

    /** Sets the counter in value's first 8 bytes. */
    static void counter(byte[] value, long counter) {
        ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).putLong(0, counter);
    }

    static final class PinrockTransactions implements Transactions {
        private final RocksDb db;

        PinrockTransactions(Path dir, boolean optimistic) {
            db = RocksDb.openTransactional(dir, DbOptions.create().createIfMissing(true)
                    .compression(Compression.NONE).writeBufferBytes(WRITE_BUFFER_BYTES),
                    optimistic ? TransactionDbOptions.optimistic() : TransactionDbOptions.pessimistic());
        }

        @Override
        public void putAndCommit(byte[][] keys, byte[] value) {
            try (Transaction transaction = db.beginTransaction()) {
                for (byte[] key : keys) {
                    transaction.put(key, value);
                }
                transaction.commit();
            }
        }

        @Override
        public long incrementAndCommit(byte[] key) {
            try (Transaction transaction = db.beginTransaction()) {
                byte[] value = transaction.forUpdate().get(key);
                long counter = counter(value) + 1;
                counter(value, counter);
                transaction.put(key, value);
                transaction.commit();
                return counter;
            }
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

    static final class RocksJavaTransactions implements Transactions {
        static {
            RocksDB.loadLibrary();
        }

        private final Options options = new Options().setCreateIfMissing(true)
                .setCompressionType(CompressionType.NO_COMPRESSION).setWriteBufferSize(WRITE_BUFFER_BYTES);
        private final TransactionDBOptions transactionOptions = new TransactionDBOptions();
        private final WriteOptions writeOptions = new WriteOptions();
        private final org.rocksdb.ReadOptions readOptions = new org.rocksdb.ReadOptions();
        private final RocksDB db;
        private final TransactionDB pessimistic;
        private final OptimisticTransactionDB optimistic;

        RocksJavaTransactions(Path dir, boolean optimistic) {
            try {
                if (optimistic) {
                    this.optimistic = OptimisticTransactionDB.open(options, dir.toString());
                    this.pessimistic = null;
                    db = this.optimistic;
                } else {
                    this.pessimistic = TransactionDB.open(options, transactionOptions, dir.toString());
                    this.optimistic = null;
                    db = this.pessimistic;
                }
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        private org.rocksdb.Transaction begin() {
            return pessimistic != null ? pessimistic.beginTransaction(writeOptions)
                    : optimistic.beginTransaction(writeOptions);
        }

        @Override
        public void putAndCommit(byte[][] keys, byte[] value) {
            try (org.rocksdb.Transaction transaction = begin()) {
                for (byte[] key : keys) {
                    transaction.put(key, value);
                }
                transaction.commit();
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public long incrementAndCommit(byte[] key) {
            try (org.rocksdb.Transaction transaction = begin()) {
                byte[] value = transaction.getForUpdate(readOptions, key, true);
                long counter = counter(value) + 1;
                counter(value, counter);
                transaction.put(key, value);
                transaction.commit();
                return counter;
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
            readOptions.close();
            writeOptions.close();
            transactionOptions.close();
            options.close();
        }
    }
}
