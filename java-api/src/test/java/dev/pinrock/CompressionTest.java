package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompressionTest {
    @TempDir
    Path dir;

    /** Writes 2000 compressible 1000-byte values, flushes, and returns the table files. */
    private List<Path> writeTables(String name, DbOptions options) throws IOException {
        Path path = dir.resolve(name);
        try (RocksDb db = RocksDb.open(path, options.createIfMissing(true))) {
            for (int i = 0; i < 2000; i++) {
                String value = ("value-" + i + "-").repeat(200).substring(0, 1000);
                db.put(("key-" + i).getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
            }
            db.flush();
        }
        try (var files = Files.list(path)) {
            return files.filter(p -> p.toString().endsWith(".sst")).toList();
        }
    }

    private static long totalSize(List<Path> files) throws IOException {
        long total = 0;
        for (Path file : files) {
            total += Files.size(file);
        }
        return total;
    }

    /**
     * A table file names its compression, uncompressed, in its properties
     * block (whose keys are prefix-encoded, so only the name is searched).
     */
    private static boolean namesCompression(Path table, String name) throws IOException {
        return new String(Files.readAllBytes(table), StandardCharsets.ISO_8859_1).contains(name);
    }

    @Test
    void zstdIsAppliedToTheFilesWritten() throws IOException {
        List<Path> zstd = writeTables("zstd", DbOptions.create().compression(Compression.ZSTD));
        List<Path> none = writeTables("none", DbOptions.create().compression(Compression.NONE));
        assertEquals(1, zstd.size());
        assertEquals(1, none.size());
        assertTrue(namesCompression(zstd.get(0), "ZSTD"));
        assertTrue(namesCompression(none.get(0), "NoCompression"));
        assertFalse(namesCompression(none.get(0), "ZSTD"));
        long zstdBytes = totalSize(zstd);
        long plainBytes = totalSize(none);
        assertTrue(zstdBytes * 5 < plainBytes, "zstd " + zstdBytes + " bytes vs uncompressed " + plainBytes);
    }

    @Test
    void everyCompressionTypeIsCompiledIn() throws IOException {
        for (Compression type : Compression.values()) {
            List<Path> tables = writeTables(type.name(), DbOptions.create().compression(type).zstdLevel(19));
            assertEquals(1, tables.size(), type.name());
        }
    }

    @Test
    void perLevelCompressionAndTheZstdDictionaryReachTheFiles() throws IOException {
        Path path = dir.resolve("levels");
        DbOptions options = DbOptions.create().createIfMissing(true)
                .compressionPerLevel(Compression.NONE, Compression.ZSTD)
                .zstdDictionary(4096, 0).compressionThreads(2);
        try (RocksDb db = RocksDb.open(path, options)) {
            for (int i = 0; i < 2000; i++) {
                db.put(("key-" + i).getBytes(StandardCharsets.UTF_8), ("value-" + i).repeat(50).getBytes(StandardCharsets.UTF_8));
            }
            db.flush();
            assertTrue(namesCompression(tables(path).get(0), "NoCompression"));
            // A second, overlapping level-0 file: compaction must rewrite, not move, the data.
            db.put("key-0".getBytes(StandardCharsets.UTF_8), "again".getBytes(StandardCharsets.UTF_8));
            db.flush();
            db.compactRange();
            Path bottom = tables(path).get(0);
            assertTrue(namesCompression(bottom, "ZSTD"));
            assertTrue(namesCompression(bottom, "max_dict_bytes=4096"));
            assertTrue(namesCompression(bottom, "rocksdb.compression_dict"));
        }
    }

    private static List<Path> tables(Path db) throws IOException {
        try (var files = Files.list(db)) {
            List<Path> tables = files.filter(p -> p.toString().endsWith(".sst")).toList();
            assertEquals(1, tables.size(), tables.toString());
            return tables;
        }
    }

    @Test
    void zstdLevelChangesTheOutput() throws IOException {
        long fast = totalSize(writeTables("fast", DbOptions.create().compression(Compression.ZSTD).zstdLevel(-50)));
        long strong = totalSize(writeTables("strong", DbOptions.create().compression(Compression.ZSTD).zstdLevel(19)));
        assertTrue(strong < fast, "level 19 gave " + strong + " bytes, level -50 gave " + fast);
    }
}
