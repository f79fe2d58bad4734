package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.pinrock.internal.Binding;

/** Part of the contract, run with FFM only; see {@link BindingContract}. */
class IngestContract extends OpenDatabaseContract {
    IngestContract() {
        super(Binding.FFM);
    }

    private Path writeTable(String name, String... keysAndValues) {
        Path file = dir.resolve(name);
        try (SstFileWriter writer = SstFileWriter.open(file, DbOptions.create())) {
            for (int i = 0; i < keysAndValues.length; i += 2) {
                if (keysAndValues[i + 1] == null) {
                    writer.delete(bytes(keysAndValues[i]));
                } else {
                    writer.put(bytes(keysAndValues[i]), bytes(keysAndValues[i + 1]));
                }
            }
            assertTrue(writer.finish() > 0);
        }
        return file;
    }

    @Test
    void ingestWithMoveHandsTheFileOverWithoutCopying() throws Exception {
        db.put(bytes("gone"), bytes("old"));
        Path file = writeTable("bulk.sst", "a", "1", "b", "2", "gone", null);
        Object inode = Files.getAttribute(file, "unix:ino");
        db.ingest(List.of(file), true);
        assertArrayEquals(bytes("1"), db.get(bytes("a")));
        assertArrayEquals(bytes("2"), db.get(bytes("b")));
        assertNull(db.get(bytes("gone")));
        assertFalse(Files.exists(file), "moved, so the original name is gone");
        try (var files = Files.list(db.path())) {
            assertTrue(files.filter(p -> p.toString().endsWith(".sst")).anyMatch(p -> {
                try {
                    return Files.getAttribute(p, "unix:ino").equals(inode);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }), "the database holds the very same inode");
        }
    }

    @Test
    void ingestWithoutMoveLeavesTheFile() {
        Path file = writeTable("copy.sst", "k", "v");
        db.ingest(List.of(file), false);
        assertTrue(Files.exists(file));
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
    }

    @Test
    void outOfOrderKeysEmptyFilesAndMissingFilesAreErrors() {
        Path file = dir.resolve("bad.sst");
        try (SstFileWriter writer = SstFileWriter.open(file, DbOptions.create())) {
            writer.put(bytes("b"), bytes("1"));
            var e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> writer.put(bytes("a"), bytes("2")));
            assertTrue(e.getMessage().contains("order"), e.getMessage());
        }
        try (SstFileWriter empty = SstFileWriter.open(dir.resolve("empty.sst"), DbOptions.create())) {
            assertThrows(RocksDbException.class, empty::finish);
        }
        assertThrows(RocksDbException.class, () -> db.ingest(List.of(dir.resolve("missing.sst")), true));
        SstFileWriter closed = SstFileWriter.open(dir.resolve("closed.sst"), DbOptions.create());
        closed.close();
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.put(bytes("k"), bytes("v")));
        assertEquals(null, db.get(bytes("b")));
    }
}
