package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BuiltinComparator;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import dev.pinrock.Compression;
import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.KeyComparator;
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

    @Test
    void aDatabaseInReverseOrderIsTheSameToBoth() throws RocksDBException {
        Path path = dir.resolve("db");
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true)
                .comparator(KeyComparator.REVERSE_BYTEWISE))) {
            db.put(bytes("a"), bytes("pinrock"));
            db.flush();
            db.put(bytes("c"), bytes("pinrock"));
        }
        RocksDB.loadLibrary();
        try (Options rocksOptions = new Options().setComparator(BuiltinComparator.REVERSE_BYTEWISE_COMPARATOR);
                RocksDB db = RocksDB.open(rocksOptions, path.toString())) {
            db.put(bytes("b"), bytes("RocksJava"));
            List<String> keys = new ArrayList<>();
            try (RocksIterator iterator = db.newIterator()) {
                for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                    keys.add(new String(iterator.key(), StandardCharsets.UTF_8));
                }
            }
            assertEquals(List.of("c", "b", "a"), keys);
        }
        DbOptions latest = DbOptions.loadLatest(path);
        assertSame(KeyComparator.REVERSE_BYTEWISE, latest.comparator(), "recorded by RocksJava's open");
        try (RocksDb db = RocksDb.open(path, latest); Cursor cursor = db.cursor()) {
            List<String> keys = new ArrayList<>();
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                keys.add(new String(cursor.keyBytes(), StandardCharsets.UTF_8));
            }
            assertEquals(List.of("c", "b", "a"), keys);
            assertArrayEquals(bytes("RocksJava"), db.get(bytes("b")));
        }
    }
}
