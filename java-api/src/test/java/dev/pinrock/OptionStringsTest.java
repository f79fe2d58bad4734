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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
        return newestOptionsFile(path);
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
        String newest = newestOptionsFile(path);
        String tunedSection = newest.substring(newest.indexOf("[CFOptions \"tuned\"]"));
        assertTrue(tunedSection.contains("max_write_buffer_number=7"), tunedSection);
        assertFalse(newest.substring(0, newest.indexOf("[CFOptions \"tuned\"]")).contains("max_write_buffer_number=7"));
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

    /**
     * The typed forms change what a DbOptions sets: its option strings as given (one naming a
     * default value too) and its typed settings that differ from the defaults.
     */
    @Test
    void typedOptionsChangedWhileOpenTakeEffectAndAreRecorded() throws IOException {
        Path path = dir.resolve("typed dynamic");
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true))) {
            db.setFamilyOptions(DbOptions.create().level0Triggers(2, 20, 36).familyOptions("disable_auto_compactions=true"));
            for (int i = 0; i < 4; i++) {
                db.put(bytes("key" + i), bytes("value"));
                db.flush();
            }
            assertEquals("4", db.property("rocksdb.num-files-at-level0"), "compactions ran while disabled");
            db.setFamilyOptions(DbOptions.create().familyOptions("disable_auto_compactions=false")
                    .writeBufferBytes(8 << 20).compression(Compression.ZSTD).zstdLevel(7));
            db.setDatabaseOptions(DbOptions.create().maxBackgroundJobs(3).bytesPerSync(64 << 10));
            ColumnFamily family = db.createColumnFamily("other");
            family.setFamilyOptions(DbOptions.create().familyOptions("write_buffer_size=4M").writeBufferBytes(2 << 20));
            family.setFamilyOptions(DbOptions.create());
        }
        String file = newestOptionsFile(path);
        for (String expected : List.of("level0_file_num_compaction_trigger=2", "level0_stop_writes_trigger=36",
                "disable_auto_compactions=false", "write_buffer_size=8388608", "compression=kZSTD",
                "max_background_jobs=3", "bytes_per_sync=65536", "write_buffer_size=2097152")) {
            assertTrue(file.contains(expected), expected + " is not in the OPTIONS file");
        }
        assertTrue(file.contains("level=7;"), "the zstd level is not in the OPTIONS file");
    }

    @Test
    void typedOptionsThatCannotChangeWhileOpenAreRefusedNamingThemAndChangeNothing() throws IOException {
        record Refused(boolean family, DbOptions options, String why) {
        }
        Path path = dir.resolve("typed fixed");
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true));
                MemoryBudget budget = MemoryBudget.create(64 << 20, 16 << 20);
                RateLimiter limiter = RateLimiter.create(1 << 20)) {
            String before = newestOptionsFile(path);
            DbOptions base = DbOptions.create().writeBufferBytes(8 << 20);
            for (Refused refused : List.of(
                    new Refused(true, base.maxBackgroundJobs(3), "database options max_background_jobs=3;"),
                    new Refused(true, base.bloomFilter(10), "table options filter_policy="),
                    new Refused(true, base.blockCacheBytes(1 << 20), "the block cache size"),
                    new Refused(true, base.mergeOperator("put"), "a merge operator"),
                    new Refused(true, base.statistics(StatsLevel.ALL), "statistics"),
                    new Refused(true, base.memoryBudget(budget), "a memory budget"),
                    new Refused(false, DbOptions.create().rateLimiter(limiter), "a rate limiter"),
                    new Refused(true, base.columnFamily("x", DbOptions.create()), "options of named column families"),
                    new Refused(true, base.memoryFirstReads(false), "memoryFirstReads"),
                    new Refused(true, base.familyOptions("num_levels=3"), "num_levels"),
                    new Refused(false, base, "column family options write_buffer_size=8388608;"),
                    new Refused(false, DbOptions.create().paranoidChecks(false), "paranoid_checks"),
                    new Refused(false, DbOptions.create().createIfMissing(true), "create_if_missing"))) {
                RocksDbException e = assertThrows(RocksDbException.InvalidArgumentException.class,
                        () -> {
                            if (refused.family()) {
                                db.setFamilyOptions(refused.options());
                            } else {
                                db.setDatabaseOptions(refused.options());
                            }
                        }, refused.why());
                assertTrue(e.getMessage().contains(refused.why()), e.getMessage());
            }
            assertEquals(before, newestOptionsFile(path), "a refused change was recorded");
            db.put(bytes("still"), bytes("writable"));
            assertThrows(NullPointerException.class, () -> db.setFamilyOptions((DbOptions) null));
            MemoryBudget closedBudget = MemoryBudget.create(64 << 20, 16 << 20);
            closedBudget.close();
            assertThrows(IllegalStateException.class,
                    () -> db.setFamilyOptions(DbOptions.create().memoryBudget(closedBudget)));
        }
        RocksDb closed = RocksDb.open(path, DbOptions.create());
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.setDatabaseOptions(DbOptions.create()));
    }

    /** Each shorthand setter reaches RocksDB as the option it names. */
    @Test
    void everyShorthandReachesRocksDB() throws IOException {
        record Shorthand(DbOptions options, List<String> recorded) {
        }
        DbOptions base = DbOptions.create();
        Path walDir = dir.resolve("wal dir; with {odd} characters");
        List<Shorthand> shorthands = List.of(
                new Shorthand(base.bloomFilter(10), List.of("filter_policy=bloomfilter:10:false")),
                new Shorthand(base.ribbonFilter(8.5), List.of("ribbonfilter:8.5")),
                new Shorthand(base.wholeKeyFiltering(false), List.of("whole_key_filtering=false")),
                new Shorthand(base.blockSize(16 << 10), List.of("block_size=16384")),
                new Shorthand(base.cacheIndexAndFilterBlocks(true), List.of("cache_index_and_filter_blocks=true")),
                new Shorthand(base.cacheIndexAndFilterBlocksWithHighPriority(false),
                        List.of("cache_index_and_filter_blocks_with_high_priority=false")),
                new Shorthand(base.pinL0FilterAndIndexBlocks(true),
                        List.of("pin_l0_filter_and_index_blocks_in_cache=true")),
                new Shorthand(base.partitionedIndexAndFilters(true),
                        List.of("index_type=kTwoLevelIndexSearch", "partition_filters=true")),
                new Shorthand(base.dataBlockHashIndex(true), List.of("data_block_index_type=kDataBlockBinaryAndHash")),
                new Shorthand(base.formatVersion(5), List.of("format_version=5")),
                new Shorthand(base.optimizeFiltersForHits(true), List.of("optimize_filters_for_hits=true")),
                new Shorthand(base.fixedPrefix(4), List.of("prefix_extractor=rocksdb.FixedPrefix.4")),
                new Shorthand(base.cappedPrefix(6), List.of("prefix_extractor=rocksdb.CappedPrefix.6")),
                new Shorthand(base.memtablePrefixBloomRatio(0.1), List.of("memtable_prefix_bloom_size_ratio=0.1")),
                new Shorthand(base.compactionStyle(CompactionStyle.UNIVERSAL),
                        List.of("compaction_style=kCompactionStyleUniversal")),
                new Shorthand(base.compactionStyle(CompactionStyle.FIFO), List.of("compaction_style=kCompactionStyleFIFO")),
                new Shorthand(base.maxWriteBufferNumber(3), List.of("max_write_buffer_number=3")),
                new Shorthand(base.maxWriteBufferNumber(4).minWriteBufferNumberToMerge(2),
                        List.of("min_write_buffer_number_to_merge=2")),
                new Shorthand(base.level0Triggers(3, 15, 30), List.of("level0_file_num_compaction_trigger=3",
                        "level0_slowdown_writes_trigger=15", "level0_stop_writes_trigger=30")),
                new Shorthand(base.targetFileSizeBase(32L << 20), List.of("target_file_size_base=33554432")),
                new Shorthand(base.maxBytesForLevelBase(512L << 20), List.of("max_bytes_for_level_base=536870912")),
                new Shorthand(base.levelCompactionDynamicLevelBytes(false),
                        List.of("level_compaction_dynamic_level_bytes=false")),
                new Shorthand(base.periodicCompactionSeconds(86_400), List.of("periodic_compaction_seconds=86400")),
                new Shorthand(base.ttlSeconds(3_600), List.of("ttl=3600")),
                new Shorthand(base.maxBackgroundJobs(4), List.of("max_background_jobs=4")),
                new Shorthand(base.maxSubcompactions(2), List.of("max_subcompactions=2")),
                new Shorthand(base.walDir(walDir), List.of("wal_dir=" + walDir.toAbsolutePath())),
                new Shorthand(base.maxTotalWalSize(1L << 30), List.of("max_total_wal_size=1073741824")),
                new Shorthand(base.walArchiveLimits(600, 100), List.of("WAL_ttl_seconds=600", "WAL_size_limit_MB=100")),
                new Shorthand(base.bytesPerSync(1 << 20), List.of("bytes_per_sync=1048576")),
                new Shorthand(base.atomicFlush(true), List.of("atomic_flush=true")));
        int i = 0;
        for (Shorthand shorthand : shorthands) {
            String file = optionsFileOf("shorthand-" + i++, shorthand.options());
            for (String expected : shorthand.recorded()) {
                assertTrue(file.contains(expected), expected + " is not in the OPTIONS file of " + shorthand.options());
            }
        }
        assertTrue(Files.isDirectory(walDir), "the log directory was not used");
        assertThrows(IllegalArgumentException.class, () -> base.bloomFilter(0));
        assertThrows(IllegalArgumentException.class, () -> base.bloomFilter(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> base.fixedPrefix(0));
        assertThrows(IllegalArgumentException.class, () -> base.blockSize(-1));
    }

    /** A shorthand is an option string: a later one, or a later string, wins. */
    @Test
    void shorthandsTakeEffectInCallOrder() throws IOException {
        String file = optionsFileOf("order", DbOptions.create().blockSize(8 << 10).tableOptions("block_size=32K")
                .maxBackgroundJobs(3).databaseOptions("max_background_jobs=5").maxBackgroundJobs(6));
        assertTrue(file.contains("block_size=32768"), file);
        assertTrue(file.contains("max_background_jobs=6"), file);
    }

    /**
     * A prefix extractor makes RocksDB's filters hold prefixes; cursors still
     * walk every key in order, across prefixes, from any seek, whether the
     * keys are in table files (with prefix filters) or memtables (with a
     * memtable prefix filter).
     */
    @Test
    void aPrefixExtractorDoesNotChangeWhatCursorsSee() {
        List<String> keys = new ArrayList<>();
        for (char first = 'a'; first <= 'f'; first++) {
            for (char second = 'a'; second <= 'f'; second += 2) {
                keys.add("" + first + second + "-key");
            }
        }
        try (RocksDb db = RocksDb.open(dir.resolve("prefixed"), DbOptions.create().createIfMissing(true)
                .fixedPrefix(2).memtablePrefixBloomRatio(0.2).bloomFilter(10))) {
            for (int i = 0; i < keys.size(); i++) {
                db.put(bytes(keys.get(i)), bytes("v"));
                if (i % 5 == 4) {
                    db.flush(); // several table files, each with its prefix filter
                }
            }
            for (String seek : List.of("", "a", "ab", "ac", "bz", "cb-key", "zz")) {
                List<String> expected = keys.stream().filter(key -> key.compareTo(seek) >= 0).sorted().toList();
                List<String> seen = new ArrayList<>();
                try (Cursor cursor = db.cursor()) {
                    for (boolean on = cursor.seek(bytes(seek)); on; on = cursor.next()) {
                        seen.add(new String(cursor.keyBytes(), StandardCharsets.UTF_8));
                    }
                }
                assertEquals(expected, seen, "from " + seek);
            }
            List<String> backwards = new ArrayList<>();
            try (Cursor cursor = db.cursor()) {
                for (boolean on = cursor.last(); on; on = cursor.prev()) {
                    backwards.add(new String(cursor.keyBytes(), StandardCharsets.UTF_8));
                }
            }
            assertEquals(keys.reversed(), backwards);
            for (String prefix : List.of("ab", "ac", "c", "")) {
                List<String> expected = keys.stream().filter(key -> key.startsWith(prefix)).toList();
                List<String> seen = new ArrayList<>();
                try (Cursor cursor = db.cursor(ReadOptions.DEFAULT.prefix(bytes(prefix)))) {
                    for (boolean on = cursor.first(); on; on = cursor.next()) {
                        seen.add(new String(cursor.keyBytes(), StandardCharsets.UTF_8));
                    }
                }
                assertEquals(expected, seen, "prefix " + prefix);
            }
        }
    }

    /**
     * Options that change what an acknowledged write means are refused by
     * value, in each spelling: {@code manual_wal_flush=true} lost every write a
     * kill -9 came after, since pinrock has no {@code flushWal}.
     */
    @Test
    void optionsThatWeakenAcknowledgedWritesAreRefusedAtOpenAndWhileOpen() {
        Path path = dir.resolve("acknowledged");
        for (String text : List.of("manual_wal_flush=true", "manual_wal_flush=1",
                "manual_wal_flush=false;manual_wal_flush=true", "avoid_flush_during_shutdown=true",
                "unordered_write=true", "best_efforts_recovery=true", "allow_mmap_writes=true")) {
            RocksDbException.InvalidArgumentException e = assertThrows(
                    RocksDbException.InvalidArgumentException.class,
                    () -> RocksDb.open(path, DbOptions.create().createIfMissing(true).databaseOptions(text)), text);
            String option = text.substring(text.lastIndexOf(';') + 1, text.indexOf('=', text.lastIndexOf(';') + 1));
            assertTrue(e.getMessage().contains(option + "=true"), e.getMessage());
            assertFalse(Files.exists(path.resolve("CURRENT")), "a refused open created " + path);
        }
        // The option names are RocksDB's: another spelling is an unknown option.
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> RocksDb.open(path,
                DbOptions.create().createIfMissing(true).databaseOptions("MANUAL_WAL_FLUSH=1")));
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true)
                .databaseOptions("manual_wal_flush=false;avoid_flush_during_shutdown=false"))) {
            RocksDbException.InvalidArgumentException e = assertThrows(
                    RocksDbException.InvalidArgumentException.class,
                    () -> db.setDatabaseOptions("avoid_flush_during_shutdown=true"));
            assertTrue(e.getMessage().contains("avoid_flush_during_shutdown=true"), e.getMessage());
            try (WriteBatch batch = new WriteBatch()) {
                db.write(batch.put(bytes("key"), bytes("value")), WriteOptions.DEFAULT.disableWal(true));
            }
        }
        try (RocksDb db = RocksDb.open(path, DbOptions.create())) {
            assertArrayEquals(bytes("value"), db.get(bytes("key")), "the close did not flush a write without the log");
        }
    }

    /**
     * Values RocksDB corrects at open but takes as they are while open are
     * refused while open: {@code max_write_buffer_number=0} stopped writes for
     * good, and level-0 triggers of 0 made {@code flush()} and then
     * {@code close()} never return. The timeout only turns such a hang into a
     * failure.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void changesThatWouldStopWritesForGoodAreRefusedAndWritesGoOn() {
        try (RocksDb db = RocksDb.open(dir.resolve("stopped"), DbOptions.create().createIfMissing(true))) {
            RocksDbException.InvalidArgumentException e = assertThrows(
                    RocksDbException.InvalidArgumentException.class,
                    () -> db.setFamilyOptions("max_write_buffer_number=0"));
            assertTrue(e.getMessage().contains("an open corrects it to 2"), e.getMessage());
            e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> db.setFamilyOptions(DbOptions.create().level0Triggers(0, 0, 0)));
            assertTrue(e.getMessage().contains("an open corrects it to 1, 1, 1"), e.getMessage());
            e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> db.setDatabaseOptions("delayed_write_rate=0"));
            assertTrue(e.getMessage().contains("delayed_write_rate=0"), e.getMessage());
            for (int i = 0; i < 3; i++) {
                db.put(bytes("key" + i), bytes("value"));
                db.flush();
            }
            assertArrayEquals(bytes("value"), db.get(bytes("key2")));
        }
    }

    /**
     * Hash memtables and the hash index find a key by its prefix: a get
     * answered null for keys shorter than the prefix while cursors listed
     * them. In-place updates changed a cursor's value without it moving.
     * Refused, in each spelling RocksDB takes.
     */
    @Test
    void layoutsThatCannotAnswerEveryKeyAreRefused() {
        Path path = dir.resolve("layouts");
        for (DbOptions options : List.of(
                DbOptions.create().fixedPrefix(4).familyOptions("memtable_factory=prefix_hash"),
                DbOptions.create().fixedPrefix(4).familyOptions("memtable_factory=hash_linkedlist")
                        .databaseOptions("allow_concurrent_memtable_write=false"),
                DbOptions.create().fixedPrefix(4).familyOptions("memtable={id=HashLinkListRepFactory}"),
                DbOptions.create().fixedPrefix(4).tableOptions("index_type=kHashSearch"),
                DbOptions.create().familyOptions("inplace_update_support=true"))) {
            RocksDbException.InvalidArgumentException e = assertThrows(
                    RocksDbException.InvalidArgumentException.class,
                    () -> RocksDb.open(path, options.createIfMissing(true)), options.toString());
            assertTrue(e.getMessage().contains("shorter than the prefix") || e.getMessage().contains("cursor's value"),
                    e.getMessage());
        }
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true).fixedPrefix(4))) {
            db.put(bytes("ab"), bytes("short"));
            assertArrayEquals(bytes("short"), db.get(bytes("ab")));
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> db.setFamilyOptions("inplace_update_support=true"));
        }
    }

    /**
     * A database another RocksDB program wrote with a merge operator of its
     * own: RocksDB read the operator's name as no merge operator, so
     * loadLatest answered none, an open passed the merge-operator check and
     * recovery lost the synced put after the merge. Both refuse, naming it.
     */
    @Test
    void aMergeOperatorPinrockCannotMakeIsRefusedByLoadLatestAndOpenAndLosesNothing() throws IOException {
        Path path = dir.resolve("foreign merge operator");
        DbOptions appending = DbOptions.create().mergeOperator("stringappend");
        try (RocksDb db = RocksDb.open(path, appending.createIfMissing(true));
                WriteBatch merge = new WriteBatch();
                WriteBatch put = new WriteBatch()) {
            db.write(merge.merge(bytes("m"), bytes("merged")), WriteOptions.DEFAULT.sync(true));
            db.write(put.put(bytes("after"), bytes("kept")), WriteOptions.DEFAULT.sync(true));
        }
        Path file = newestOptionsFilePath(path);
        String written = Files.readString(file);
        String foreign = written.replaceAll("(?m)^(\\s*merge_operator=).*$", "$1AnApplicationsOwnMergeOperator");
        assertTrue(foreign.contains("merge_operator=AnApplicationsOwnMergeOperator"), foreign);
        Files.writeString(file, foreign);
        RocksDbException.InvalidArgumentException e = assertThrows(
                RocksDbException.InvalidArgumentException.class, () -> DbOptions.loadLatest(path));
        assertTrue(e.getMessage().contains("AnApplicationsOwnMergeOperator"), e.getMessage());
        for (DbOptions options : List.of(DbOptions.create(), appending)) {
            e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> RocksDb.open(path, options));
            assertTrue(e.getMessage().contains("AnApplicationsOwnMergeOperator"), e.getMessage());
        }
        Files.writeString(file, written);
        try (RocksDb db = RocksDb.open(path, DbOptions.loadLatest(path))) {
            assertArrayEquals(bytes("merged"), db.get(bytes("m")));
            assertArrayEquals(bytes("kept"), db.get(bytes("after")));
        }
    }

    private static Path newestOptionsFilePath(Path path) throws IOException {
        try (Stream<Path> files = Files.list(path)) {
            return files.filter(file -> file.getFileName().toString().startsWith("OPTIONS-"))
                    .max(Comparator.comparing(file -> file.getFileName().toString())).orElseThrow();
        }
    }

    private static String newestOptionsFile(Path path) throws IOException {
        return Files.readString(newestOptionsFilePath(path));
    }
}
