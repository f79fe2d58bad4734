package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Options set by RocksDB's own names and values reach RocksDB (read back from
 * the OPTIONS file it writes), and what it or pinrock refuses is an
 * InvalidArgumentException naming the option that leaves no database behind.
 */
class OptionStringsTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Opens a new database with options, writes and reads a key, and returns its newest OPTIONS file. */
    private String optionsFileOf(String name, DbOptions options) throws IOException {
        Path path = dir.resolve(name);
        try (RocksDb db = RocksDb.open(path, options.createIfMissing(true))) {
            db.put(bytes("key"), bytes("value"));
            db.flush();
            assertArrayEquals(bytes("value"), db.get(bytes("key")));
        }
        try (Stream<Path> files = Files.list(path)) {
            Path newest = files.filter(file -> file.getFileName().toString().startsWith("OPTIONS-"))
                    .max(Comparator.comparing(file -> file.getFileName().toString()))
                    .orElseThrow();
            return Files.readString(newest);
        }
    }

    @Test
    void everyScopeReachesRocksDB() throws IOException {
        String file = optionsFileOf("tuned", DbOptions.create()
                .databaseOptions("max_background_jobs=5;bytes_per_sync=1M")
                .familyOptions("compaction_style=kCompactionStyleUniversal;max_write_buffer_number=3")
                .familyOptions("prefix_extractor=rocksdb.FixedPrefix.3")
                .tableOptions("block_size=16K;filter_policy=bloomfilter:10:false;cache_index_and_filter_blocks=true"));
        for (String expected : List.of("max_background_jobs=5", "bytes_per_sync=1048576",
                "compaction_style=kCompactionStyleUniversal", "max_write_buffer_number=3", "rocksdb.FixedPrefix.3",
                "block_size=16384", "filter_policy=bloomfilter:10:false", "cache_index_and_filter_blocks=true")) {
            assertTrue(file.contains(expected), expected + " is not in the OPTIONS file");
        }
    }

    /**
     * Strings are applied first: a typed setting that differs from its
     * default wins, one left at its default leaves the string's value (as
     * after {@link DbOptions#loadLatest}).
     */
    @Test
    void aTypedSettingOverridesAStringUnlessLeftAtItsDefault() throws IOException {
        String file = optionsFileOf("both", DbOptions.create()
                .familyOptions("write_buffer_size=16M;max_write_buffer_number=3;compression=kZSTD")
                .writeBufferBytes(8L << 20)
                .zstdLevel(7));
        assertTrue(file.contains("write_buffer_size=8388608"), file);
        assertTrue(file.contains("max_write_buffer_number=3"), file);
        assertTrue(file.contains("compression=kZSTD"), file);
        assertTrue(file.contains("level=7"), file);
    }

    @Test
    void aColumnFamilyTakesItsOwnStrings() throws IOException {
        Path path = dir.resolve("families");
        DbOptions family = DbOptions.create().familyOptions("max_write_buffer_number=7");
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true))) {
            db.createColumnFamily("tuned", family).put(bytes("k"), bytes("v"));
        }
        try (RocksDb db = RocksDb.open(path, DbOptions.create().columnFamily("tuned", family))) {
            assertArrayEquals(bytes("v"), db.columnFamily("tuned").get(bytes("k")));
        }
        try (Stream<Path> files = Files.list(path)) {
            String newest = Files.readString(files
                    .filter(file -> file.getFileName().toString().startsWith("OPTIONS-"))
                    .max(Comparator.comparing(file -> file.getFileName().toString())).orElseThrow());
            String tunedSection = newest.substring(newest.indexOf("[CFOptions \"tuned\"]"));
            assertTrue(tunedSection.contains("max_write_buffer_number=7"), tunedSection);
            assertFalse(newest.substring(0, newest.indexOf("[CFOptions \"tuned\"]")).contains("max_write_buffer_number=7"));
        }
    }

    @Test
    void refusedNamesAndValuesAreInvalidArgumentsThatCreateNothing() {
        record Refused(DbOptions options, String why) {
        }
        for (Refused refused : List.of(
                new Refused(DbOptions.create().databaseOptions("no_such_option=1"), "no_such_option"),
                new Refused(DbOptions.create().familyOptions("write_buffer_size=lots"), "write_buffer_size"),
                new Refused(DbOptions.create().tableOptions("filter_policy=bloomfiltr:10"), "no filter RocksDB knows"),
                new Refused(DbOptions.create().tableOptions("block_cache=1G"), "block_cache"),
                new Refused(DbOptions.create().familyOptions("merge_operator=sortlist"), "merge_operator"),
                new Refused(DbOptions.create().familyOptions("comparator=rocksdb.ReverseBytewiseComparator"),
                        "comparator"),
                new Refused(DbOptions.create().databaseOptions("env=MemEnv"), "env"),
                new Refused(DbOptions.create().databaseOptions("table_cache_numshardbits=20"), "20 or more"),
                new Refused(DbOptions.create().databaseOptions("max_background_jobs=100000"), "256 threads"),
                new Refused(DbOptions.create().familyOptions("compression_opts={parallel_threads=0}"), "1..64"))) {
            Path path = dir.resolve("refused");
            RocksDbException.InvalidArgumentException e = assertThrows(
                    RocksDbException.InvalidArgumentException.class,
                    () -> RocksDb.open(path, refused.options().createIfMissing(true)), refused.toString());
            assertTrue(e.getMessage().contains(refused.why()), e.getMessage());
            assertFalse(Files.exists(path.resolve("CURRENT")), "a refused open created " + path);
        }
    }

    @Test
    void theStringsAreKeptInOrderAndNulIsRefusedAtOnce() {
        DbOptions options = DbOptions.create().tableOptions("block_size=8K").tableOptions("block_size=16K");
        assertEquals(List.of("block_size=8K", "block_size=16K"), options.tableOptions());
        assertEquals(List.of(), options.databaseOptions());
        assertThrows(IllegalArgumentException.class, () -> DbOptions.create().databaseOptions("a=1\0b=2"));
        assertThrows(NullPointerException.class, () -> DbOptions.create().familyOptions(null));
    }
    @Test
    void optionsChangedWhileOpenTakeEffectAndAreRecorded() throws IOException {
        Path path = dir.resolve("dynamic");
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true))) {
            db.setFamilyOptions("disable_auto_compactions=true;level0_file_num_compaction_trigger=2");
            for (int i = 0; i < 4; i++) {
                db.put(bytes("key" + i), bytes("value"));
                db.flush();
            }
            assertEquals("4", db.property("rocksdb.num-files-at-level0"), "compactions ran while disabled");
            db.setFamilyOptions("disable_auto_compactions=false");
            db.setDatabaseOptions("max_background_jobs=3");
            ColumnFamily family = db.createColumnFamily("other");
            family.setFamilyOptions("write_buffer_size=8M");
        }
        String file = newestOptionsFile(path);
        for (String expected : List.of("level0_file_num_compaction_trigger=2", "disable_auto_compactions=false",
                "max_background_jobs=3", "write_buffer_size=8388608")) {
            assertTrue(file.contains(expected), expected + " is not in the OPTIONS file");
        }
    }

    @Test
    void whatCannotChangeWhileOpenIsAnInvalidArgument() {
        try (RocksDb db = RocksDb.open(dir.resolve("fixed"), DbOptions.create().createIfMissing(true))) {
            for (Runnable change : List.<Runnable>of(() -> db.setFamilyOptions("num_levels=3"),
                    () -> db.setDatabaseOptions("create_if_missing=false"),
                    () -> db.setFamilyOptions("merge_operator=put"),
                    () -> db.setDatabaseOptions("max_background_jobs=100000"))) {
                assertThrows(RocksDbException.InvalidArgumentException.class, change::run);
            }
            db.put(bytes("still"), bytes("writable"));
            assertThrows(IllegalArgumentException.class, () -> db.setDatabaseOptions("a=1\0"));
        }
        RocksDb closed = RocksDb.open(dir.resolve("fixed"), DbOptions.create());
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.setFamilyOptions("write_buffer_size=8M"));
    }

    private static String newestOptionsFile(Path path) throws IOException {
        try (Stream<Path> files = Files.list(path)) {
            return Files.readString(files.filter(file -> file.getFileName().toString().startsWith("OPTIONS-"))
                    .max(Comparator.comparing(file -> file.getFileName().toString())).orElseThrow());
        }
    }
}
