package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RocksDb#repair(Path, DbOptions)} and {@link DbOptions#walRecovery(WalRecovery)}. */
class RepairTest {
    @TempDir
    Path dir;

    private static final DbOptions CREATE = DbOptions.create().createIfMissing(true);

    @Test
    void repairBringsBackADatabaseWhoseCurrentFileIsLost() throws IOException {
        Path path = dir.resolve("db");
        try (RocksDb db = RocksDb.open(path, CREATE)) {
            db.put(bytes("flushed"), bytes("1"));
            db.flush();
            db.put(bytes("logged"), bytes("2"));
        }
        Files.delete(path.resolve("CURRENT"));
        assertThrows(RocksDbException.class, () -> RocksDb.open(path, DbOptions.create()).close());

        RocksDb.repair(path, DbOptions.create());
        try (RocksDb db = RocksDb.open(path, DbOptions.create())) {
            assertArrayEquals(bytes("1"), db.get(bytes("flushed")));
            assertArrayEquals(bytes("2"), db.get(bytes("logged")));
        }
    }

    @Test
    void repairKeepsEveryAcknowledgedWriteOfAHealthyDatabaseWithColumnFamilies() {
        Path path = dir.resolve("db");
        DbOptions counting = DbOptions.create().mergeOperator("uint64add");
        DbOptions options = DbOptions.create().columnFamily("counters", counting);
        WriteOptions sync = WriteOptions.DEFAULT.sync(true);
        try (RocksDb db = RocksDb.open(path, CREATE)) {
            ColumnFamily tabled = db.createColumnFamily("tabled");
            ColumnFamily logged = db.createColumnFamily("logged");
            ColumnFamily counters = db.createColumnFamily("counters", counting);
            tabled.put(bytes("t"), bytes("in a table file"));
            db.put(bytes("flushed"), bytes("in a table file"));
            try (WriteBatch batch = new WriteBatch()) {
                db.write(batch.merge(counters, bytes("n"), count(1)), sync);
            }
            for (Keyspace family : new Keyspace[] {db, tabled, counters}) {
                family.flush();
            }
            logged.put(bytes("l"), bytes("in the log"));
            try (WriteBatch batch = new WriteBatch()) {
                db.write(batch.merge(counters, bytes("n"), count(2))
                        .put(bytes("batched"), bytes("with the merge")), sync);
            }
        }
        var refused = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> RocksDb.repair(path, DbOptions.create()));
        assertTrue(refused.getMessage().contains("column family 'counters'"), refused.getMessage());

        RocksDb.repair(path, options);
        try (RocksDb db = RocksDb.open(path, options)) {
            assertArrayEquals(count(3), db.columnFamily("counters").get(bytes("n")));
            assertArrayEquals(bytes("in a table file"), db.get(bytes("flushed")));
            assertArrayEquals(bytes("with the merge"), db.get(bytes("batched")));
            assertArrayEquals(bytes("in a table file"), db.columnFamily("tabled").get(bytes("t")));
            assertArrayEquals(bytes("in the log"), db.columnFamily("logged").get(bytes("l")));
        }
    }

    private static byte[] count(long value) {
        return java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    /**
     * RepairDB takes table and log files only: a repair that returned normally left a MANIFEST naming
     * no blob file, the first open deleted them, and every read of a value in one failed. It is
     * refused before anything changes, whatever options it is given.
     */
    @Test
    void repairOfADatabaseWithBlobFilesIsRefusedAndChangesNothing() throws IOException {
        Path path = dir.resolve("db");
        String blobFiles = "enable_blob_files=true;min_blob_size=64";
        DbOptions blobs = DbOptions.create().familyOptions(blobFiles);
        byte[] value = new byte[100];
        Arrays.fill(value, (byte) 'v');
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true).familyOptions(blobFiles))) {
            db.put(bytes("k"), value);
            db.flush();
        }
        List<String> before = listing(path);
        for (DbOptions options : new DbOptions[] {blobs, DbOptions.create()}) {
            var refused = assertThrows(RocksDbException.class, () -> RocksDb.repair(path, options));
            assertEquals(StatusCode.NOT_SUPPORTED, refused.code());
            assertTrue(refused.getMessage().contains("repair cannot keep blob files"), refused.getMessage());
            assertEquals(before, listing(path));
        }
        try (RocksDb db = RocksDb.open(path, blobs)) {
            assertArrayEquals(value, db.get(bytes("k")));
        }
    }

    /** The names and sizes of the files in directory, sorted. */
    private static List<String> listing(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            return files.map(file -> {
                try {
                    return file.getFileName() + " " + Files.size(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sorted().toList();
        }
    }

    @Test
    void repairOfAMissingDirectoryIsInvalidArgumentAndCreatesNothing() {
        Path missing = dir.resolve("missing");
        var e = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> RocksDb.repair(missing, DbOptions.create()));
        assertTrue(e.getMessage().contains("no database directory at " + missing), e.getMessage());
        assertFalse(Files.exists(missing));
    }

    @Test
    void everyWalRecoveryModeOpensAnIntactDatabase() {
        Path path = dir.resolve("db");
        RocksDb.open(path, CREATE).close();
        assertEquals(WalRecovery.POINT_IN_TIME, DbOptions.create().walRecovery());
        for (WalRecovery mode : WalRecovery.values()) {
            DbOptions options = DbOptions.create().walRecovery(mode);
            assertEquals(mode, options.walRecovery());
            assertTrue(options.toString().contains("walRecovery=" + mode), options.toString());
            try (RocksDb db = RocksDb.open(path, options)) {
                db.put(bytes(mode.name()), bytes("ok"));
            }
        }
        assertThrows(NullPointerException.class, () -> DbOptions.create().walRecovery(null));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
