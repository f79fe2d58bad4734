package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import dev.pinrock.Compression;
import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * pinrock and RocksJava live in one JVM (each with its own RocksDB), and each
 * opens and reads a database the other wrote, table files and log alike: a
 * pinrock database is a plain RocksDB database.
 */
class RocksJavaInteroperabilityTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void rocksJavaReadsWhatPinrockWrote() throws RocksDBException {
        Path path = dir.resolve("db");
        DbOptions options = DbOptions.create().createIfMissing(true).compression(Compression.LZ4)
                .bottommostCompression(Compression.ZSTD);
        try (RocksDb db = RocksDb.open(path, options)) {
            db.put(bytes("flushed"), bytes("into a table file"));
            db.flush();
            db.put(bytes("logged"), bytes("only in the write-ahead log"));
            db.put(bytes("gone"), bytes("x"));
            db.delete(bytes("gone"));
        }
        RocksDB.loadLibrary();
        try (Options rocksOptions = new Options(); RocksDB db = RocksDB.open(rocksOptions, path.toString())) {
            assertArrayEquals(bytes("into a table file"), db.get(bytes("flushed")));
            assertArrayEquals(bytes("only in the write-ahead log"), db.get(bytes("logged")));
            assertNull(db.get(bytes("gone")));
        }
    }

    @Test
    void pinrockReadsWhatRocksJavaWrote() throws RocksDBException {
        Path path = dir.resolve("db");
        RocksDB.loadLibrary();
        try (Options rocksOptions = new Options().setCreateIfMissing(true);
                FlushOptions flush = new FlushOptions().setWaitForFlush(true);
                RocksDB db = RocksDB.open(rocksOptions, path.toString())) {
            db.put(bytes("flushed"), bytes("into a table file"));
            db.flush(flush);
            db.put(bytes("logged"), bytes("only in the write-ahead log"));
        }
        try (RocksDb db = RocksDb.open(path, DbOptions.create())) {
            assertArrayEquals(bytes("into a table file"), db.get(bytes("flushed")));
            assertArrayEquals(bytes("only in the write-ahead log"), db.get(bytes("logged")));
        }
    }
}
