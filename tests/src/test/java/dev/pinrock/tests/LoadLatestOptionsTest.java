package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import dev.pinrock.DbOptions;
import dev.pinrock.Keyspace;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.StatusCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

/**
 * A database written by RocksJava 9.10.0 (in this JVM, beside pinrock)
 * reopens with pinrock with the options it was written with, read by
 * DbOptions.loadLatest from its OPTIONS file: a Bloom filter, a prefix
 * extractor, universal compaction, a merge operator and a second family.
 */
class LoadLatestOptionsTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] uint64(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    /** Writes a database with RocksJava: the default family and "counts", both tuned. */
    private static void writeWithRocksJava(Path path) throws Exception {
        RocksDB.loadLibrary();
        try (BloomFilter filter = new BloomFilter(10, false);
                ColumnFamilyOptions tuned = new ColumnFamilyOptions()
                        .useFixedLengthPrefixExtractor(4)
                        .setCompactionStyle(CompactionStyle.UNIVERSAL)
                        .setMaxWriteBufferNumber(3)
                        .setMergeOperatorName("uint64add")
                        .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(filter).setBlockSize(16 * 1024));
                DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                        .setMaxBackgroundJobs(3)) {
            List<ColumnFamilyDescriptor> descriptors = List.of(
                    new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, tuned),
                    new ColumnFamilyDescriptor(bytes("counts"), tuned));
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            try (RocksDB db = RocksDB.open(options, path.toString(), descriptors, handles)) {
                db.put(handles.get(0), bytes("user1234"), bytes("written by RocksJava"));
                db.merge(handles.get(1), bytes("hits"), uint64(5));
                db.merge(handles.get(1), bytes("hits"), uint64(7));
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    private static String newestOptionsFile(Path path) throws Exception {
        try (Stream<Path> files = Files.list(path)) {
            return Files.readString(files.filter(file -> file.getFileName().toString().startsWith("OPTIONS-"))
                    .max(Comparator.comparing(file -> file.getFileName().toString())).orElseThrow());
        }
    }

    @Test
    void aRocksJavaDatabaseReopensWithItsOwnOptions() throws Exception {
        Path path = dir.resolve("written-by-rocksjava");
        writeWithRocksJava(path);

        DbOptions options = DbOptions.loadLatest(path);
        assertEquals("uint64add", options.mergeOperator());
        assertEquals("uint64add", options.columnFamilyOptions().get("counts").mergeOperator());
        try (RocksDb db = RocksDb.open(path, options)) {
            assertArrayEquals(bytes("written by RocksJava"), db.get(bytes("user1234")));
            Keyspace counts = db.columnFamily("counts");
            assertArrayEquals(uint64(12), counts.get(bytes("hits")));
            db.put(bytes("user5678"), bytes("written by pinrock"));
            db.flush();
        }
        // pinrock's open kept them: RocksDB records what it was given.
        String recorded = newestOptionsFile(path);
        for (String expected : List.of("filter_policy=bloomfilter:10:false", "rocksdb.FixedPrefix.4",
                "compaction_style=kCompactionStyleUniversal", "max_write_buffer_number=3", "block_size=16384",
                "max_background_jobs=3", "[CFOptions \"counts\"]")) {
            assertTrue(recorded.contains(expected), expected + " is not in the OPTIONS file pinrock's open wrote");
        }
    }

    @Test
    void aComparatorPinrockDoesNotOfferIsNamed() throws Exception {
        Path path = dir.resolve("own-order");
        RocksDB.loadLibrary();
        // A comparator of RocksJava's application (bytewise in its code, under a name of its own).
        try (org.rocksdb.ComparatorOptions comparatorOptions = new org.rocksdb.ComparatorOptions();
                org.rocksdb.AbstractComparator comparator = new org.rocksdb.AbstractComparator(comparatorOptions) {
                    @Override
                    public String name() {
                        return "test.ApplicationsOwnOrder";
                    }

                    @Override
                    public int compare(java.nio.ByteBuffer a, java.nio.ByteBuffer b) {
                        return a.compareTo(b);
                    }
                };
                org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true)
                        .setComparator(comparator);
                RocksDB db = RocksDB.open(options, path.toString())) {
            db.put(bytes("k"), bytes("v"));
        }
        RocksDbException.InvalidArgumentException e = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> DbOptions.loadLatest(path));
        assertTrue(e.getMessage().contains("test.ApplicationsOwnOrder"), e.getMessage());
        e = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> RocksDb.open(path, DbOptions.create()).close());
        assertTrue(e.getMessage().contains("test.ApplicationsOwnOrder"), e.getMessage());
    }

    @Test
    void aDirectoryWithoutOptionsFileIsNotFound() {
        RocksDbException e = assertThrows(RocksDbException.class, () -> DbOptions.loadLatest(dir.resolve("none")));
        assertEquals(StatusCode.NOT_FOUND, e.code());
    }
}
