package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.StatusCode;
import dev.pinrock.WalRecovery;

/**
 * Damages the files of a closed database (table files, MANIFEST, CURRENT,
 * write-ahead log: truncated, bit-flipped, deleted) and checks that opening
 * and reading it gives a clear {@link RocksDbException} (corruption or I/O
 * error, with RocksDB's message) or the right value, never a wrong value and
 * never a crash; and that the documented ways back ({@link WalRecovery}
 * modes, {@link RocksDb#repair}) recover what they promise.
 *
 * <p>The database: keys 0..{@value #FLUSHED}-1 in a table file, keys
 * {@value #FLUSHED}..{@value #TOTAL}-1 only in the write-ahead log, each
 * written alone so that the log holds one record per key.
 */
class DamagedFilesTest {
    private static final int FLUSHED = 2000;
    private static final int TOTAL = 3000;
    private static final Set<StatusCode> DAMAGE_CODES = Set.of(StatusCode.CORRUPTION, StatusCode.IO_ERROR);

    @TempDir
    Path dir;
    private Path db;

    @BeforeEach
    void writeTheDatabase() {
        db = dir.resolve("db");
        try (RocksDb database = RocksDb.open(db, DbOptions.create().createIfMissing(true))) {
            for (int n = 0; n < TOTAL; n++) {
                if (n == FLUSHED) {
                    database.flush();
                }
                database.put(key(n), value(n));
            }
        }
    }

    @Test
    void aBitFlipInATableFileIsACorruptionOnRead() throws IOException {
        Path table = only("*.sst");
        flipBit(table, Files.size(table) / 3);
        int corrupt = 0;
        try (RocksDb database = RocksDb.open(db, DbOptions.create())) {
            for (int n = 0; n < TOTAL; n++) {
                try {
                    assertArrayEquals(value(n), database.get(key(n)), "key " + n);
                } catch (RocksDbException e) {
                    assertDamage(e);
                    corrupt++;
                }
            }
            var scan = assertThrows(RocksDbException.class, () -> readAll(database, ReadOptions.DEFAULT));
            assertEquals(StatusCode.CORRUPTION, scan.code(), scan.getMessage());
        }
        // One data block (4 KiB of about 35 entries) is lost to reads; the rest read right.
        assertTrue(corrupt > 0 && corrupt < 100, corrupt + " keys unreadable");
    }

    /**
     * Where a bit is flipped in the table file, as an offset from its start
     * (positive) or its end (negative): the data blocks at the front, the
     * index, properties and metaindex blocks before the footer, the footer
     * (its magic number and block handles). The default table has no filter
     * block to damage.
     */
    enum Region {
        FIRST_DATA_BLOCK(100, false), MIDDLE_DATA_BLOCK(Long.MIN_VALUE, false), BEFORE_FOOTER_2000(-2000, false),
        BEFORE_FOOTER_1200(-1200, false), BEFORE_FOOTER_600(-600, false), BEFORE_FOOTER_200(-200, false),
        FOOTER_HANDLES(-45, true), FOOTER_MAGIC(-4, true);

        final long offset;
        /** Whether the damage must fail the open: RocksDB reads the footer when it opens the file. */
        final boolean failsTheOpen;

        Region(long offset, boolean failsTheOpen) {
            this.offset = offset;
            this.failsTheOpen = failsTheOpen;
        }

        long in(long size) {
            return offset == Long.MIN_VALUE ? size / 3 : offset >= 0 ? offset : size + offset;
        }
    }

    /**
     * A bit flipped anywhere in the table file never gives a wrong value, nor
     * a key silently missing, in any access mode: the open fails, or each
     * read returns the right value or throws a corruption or I/O error.
     */
    @ParameterizedTest
    @EnumSource(Region.class)
    void aBitFlipAnywhereInATableFileIsNeverAWrongOrMissingValue(Region region) throws IOException {
        Path table = only("*.sst");
        flipBit(table, region.in(Files.size(table)));
        RocksDb database;
        try {
            database = RocksDb.open(db, DbOptions.create());
        } catch (RocksDbException e) {
            assertDamage(e);
            return;
        }
        try (database) {
            assertFalse(region.failsTheOpen, "a damaged footer opened");
            for (int n = 0; n < TOTAL; n++) {
                for (AccessMode mode : AccessMode.values()) {
                    try {
                        assertArrayEquals(value(n), mode.read(database, key(n)), mode + ": key " + n);
                    } catch (RocksDbException e) {
                        assertDamage(e);
                    }
                }
            }
            for (Scan scan : Scan.values()) {
                try {
                    assertEquals(TOTAL, scan.read(database), scan + ": entries");
                } catch (RocksDbException e) {
                    assertDamage(e);
                }
            }
        }
    }

    /** Every way pinrock reads one key: each returns a copy of the value, or null when absent. */
    enum AccessMode {
        ARRAY {
            byte[] read(RocksDb db, byte[] key) {
                return db.get(key);
            }
        },
        INTO_ARRAY {
            byte[] read(RocksDb db, byte[] key) {
                byte[] dst = new byte[256];
                int length = db.get(key, dst);
                return length == RocksDb.NOT_FOUND ? null : Arrays.copyOf(dst, length);
            }
        },
        DIRECT_BUFFER {
            byte[] read(RocksDb db, byte[] key) {
                ByteBuffer dst = ByteBuffer.allocateDirect(256);
                int length = db.get(ByteBuffer.wrap(key), dst);
                if (length == RocksDb.NOT_FOUND) {
                    return null;
                }
                byte[] value = new byte[length];
                dst.get(value);
                return value;
            }
        },
        NATIVE_SEGMENT {
            byte[] read(RocksDb db, byte[] key) {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment dst = arena.allocate(256);
                    long length = db.get(arena.allocateFrom(ValueLayout.JAVA_BYTE, key), dst);
                    return length == RocksDb.NOT_FOUND ? null : dst.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
                }
            }
        },
        PINNED {
            byte[] read(RocksDb db, byte[] key) {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment value = db.getPinned(arena, key);
                    return value == null ? null : value.toArray(ValueLayout.JAVA_BYTE);
                }
            }
        },
        PINNED_READER {
            byte[] read(RocksDb db, byte[] key) {
                byte[][] value = new byte[1][];
                db.getPinned(key, segment -> value[0] = segment.toArray(ValueLayout.JAVA_BYTE));
                return value[0];
            }
        },
        WITHOUT_CACHE_FILL {
            byte[] read(RocksDb db, byte[] key) {
                return db.get(ReadOptions.DEFAULT.fillCache(false), key);
            }
        },
        MULTI_GET {
            byte[] read(RocksDb db, byte[] key) {
                return db.multiGet(List.of(key, key)).get(1);
            }
        },
        MULTI_GET_PINNED {
            byte[] read(RocksDb db, byte[] key) {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment value = db.multiGetPinned(arena, List.of(MemorySegment.ofArray(key))).get(0);
                    return value == null ? null : value.toArray(ValueLayout.JAVA_BYTE);
                }
            }
        };

        abstract byte[] read(RocksDb db, byte[] key);
    }

    /** Every way pinrock scans: each checks every entry's value and returns the count. */
    enum Scan {
        CURSOR_FORWARD {
            int read(RocksDb db) {
                return readAll(db, ReadOptions.DEFAULT);
            }
        },
        CURSOR_BACKWARD {
            int read(RocksDb db) {
                int count = 0;
                try (Cursor cursor = db.cursor()) {
                    for (boolean on = cursor.last(); on; on = cursor.prev()) {
                        assertEntry(cursor.keyBytes(), cursor.valueBytes(), TOTAL - 1 - count++);
                    }
                }
                return count;
            }
        },
        BATCHED_SCAN {
            int read(RocksDb db) {
                int[] count = {0};
                try (Cursor cursor = db.cursor()) {
                    cursor.scan(Long.MAX_VALUE, (key, value) -> assertEntry(key.toArray(ValueLayout.JAVA_BYTE),
                            value.toArray(ValueLayout.JAVA_BYTE), count[0]++));
                }
                return count[0];
            }
        },
        STREAM {
            int read(RocksDb db) {
                int[] count = {0};
                try (Cursor cursor = db.cursor()) {
                    cursor.stream().forEach(entry -> assertEntry(entry.key(), entry.value(), count[0]++));
                }
                return count[0];
            }
        };

        abstract int read(RocksDb db);
    }

    /** Checks that the entry at position n of a scan is key n with its value. */
    private static void assertEntry(byte[] key, byte[] value, int n) {
        assertArrayEquals(key(n), key, "entry " + n + " of the scan");
        assertArrayEquals(value(n), value, "value of key " + n);
    }

    @Test
    void aTruncatedTableFileFailsTheOpen() throws IOException {
        Path table = only("*.sst");
        truncate(table, Files.size(table) / 2);
        assertDamage(assertThrows(RocksDbException.class, () -> RocksDb.open(db, DbOptions.create())));
    }

    @Test
    void aMissingTableFileFailsTheOpen() throws IOException {
        Files.delete(only("*.sst"));
        var e = assertThrows(RocksDbException.class, () -> RocksDb.open(db, DbOptions.create()));
        assertDamage(e);
        assertTrue(e.getMessage().contains(".sst"), e.getMessage());
    }

    @Test
    void aDamagedManifestFailsTheOpenAndRepairRecoversEveryKey() throws IOException {
        Path manifest = only("MANIFEST-*");
        truncate(manifest, Files.size(manifest) / 2);
        flipBit(manifest, 20);
        assertDamage(assertThrows(RocksDbException.class, () -> RocksDb.open(db, DbOptions.create())));

        RocksDb.repair(db, DbOptions.create());
        try (RocksDb database = RocksDb.open(db, DbOptions.create())) {
            assertEquals(TOTAL, readAll(database, ReadOptions.DEFAULT));
        }
    }

    @Test
    void aMissingCurrentFileFailsTheOpenEvenWithCreateIfMissing() throws IOException {
        Files.delete(db.resolve("CURRENT"));
        var e = assertThrows(RocksDbException.class, () -> RocksDb.open(db, DbOptions.create()));
        assertTrue(e.getMessage().contains("CURRENT") || e.getMessage().contains("does not exist"), e.getMessage());
        // createIfMissing must not make a new, empty database over the old files.
        assertThrows(RocksDbException.class, () -> RocksDb.open(db, DbOptions.create().createIfMissing(true)));
        assertTrue(Files.exists(only("*.sst")));

        RocksDb.repair(db, DbOptions.create());
        try (RocksDb database = RocksDb.open(db, DbOptions.create())) {
            assertEquals(TOTAL, readAll(database, ReadOptions.DEFAULT));
        }
    }

    @Test
    void aGarbledCurrentFileFailsTheOpenAndRepairRecoversEveryKey() throws IOException {
        Files.writeString(db.resolve("CURRENT"), "MANIFEST-999999\n");
        assertDamage(assertThrows(RocksDbException.class, () -> RocksDb.open(db, DbOptions.create())));
        Files.writeString(db.resolve("CURRENT"), "\u0000\u0001garbage");
        assertDamage(assertThrows(RocksDbException.class, () -> RocksDb.open(db, DbOptions.create())));

        RocksDb.repair(db, DbOptions.create());
        try (RocksDb database = RocksDb.open(db, DbOptions.create())) {
            assertEquals(TOTAL, readAll(database, ReadOptions.DEFAULT));
        }
    }

    @Test
    void aTornLogTailLosesOnlyTheLastWritesUnlessAbsoluteConsistencyIsAsked() throws IOException {
        Path log = only("*.log");
        truncate(log, Files.size(log) - 50);
        assertDamage(assertThrows(RocksDbException.class,
                () -> RocksDb.open(db, DbOptions.create().walRecovery(WalRecovery.ABSOLUTE_CONSISTENCY))));
        for (WalRecovery mode : List.of(WalRecovery.TOLERATE_CORRUPTED_TAIL, WalRecovery.POINT_IN_TIME)) {
            int present = recoveredPrefix(mode);
            assertTrue(present >= TOTAL - 2 && present < TOTAL, mode + " recovered " + present);
        }
    }

    @Test
    void aBitFlipInTheLogStopsPointInTimeRecoveryThereAndIsSkippedWhenAsked() throws IOException {
        Path log = only("*.log");
        flipBit(log, Files.size(log) / 2);
        assertDamage(assertThrows(RocksDbException.class,
                () -> RocksDb.open(db, DbOptions.create().walRecovery(WalRecovery.ABSOLUTE_CONSISTENCY))));
        assertDamage(assertThrows(RocksDbException.class,
                () -> RocksDb.open(db, DbOptions.create().walRecovery(WalRecovery.TOLERATE_CORRUPTED_TAIL))));
        Path pristine = copy(db, dir.resolve("copy"));

        int pointInTime = recoveredPrefix(WalRecovery.POINT_IN_TIME);
        assertTrue(pointInTime > FLUSHED && pointInTime < TOTAL, "point in time recovered " + pointInTime);

        db = pristine;
        try (RocksDb database = RocksDb.open(db, DbOptions.create().walRecovery(WalRecovery.SKIP_ANY_CORRUPTED))) {
            int present = 0;
            for (int n = 0; n < TOTAL; n++) {
                byte[] value = database.get(key(n));
                if (value != null) {
                    assertArrayEquals(value(n), value, "key " + n);
                    present++;
                }
            }
            // Only the records in the damaged log block are skipped; later ones come back.
            assertTrue(present > pointInTime && present < TOTAL, "salvaged " + present);
            assertNotNull(database.get(key(TOTAL - 1)));
        }
    }

    /**
     * Garbage at the log's end whose first bytes read as the header of a
     * recycled log's record (types 5-8 and 11) in a log that did not start as
     * one, as a power loss can leave it: RocksDB 9.10 read that header again
     * forever and the open never returned (pinrock's engine carries the fix,
     * native/engine/patches/). Every recovery mode now ends the open: point in
     * time and skip-any with every key, the stricter ones with every key or a
     * corruption.
     */
    @Test
    void garbageAfterTheLogThatLooksLikeARecycledRecordEndsTheOpen() throws IOException {
        Path pristine = copy(db, dir.resolve("pristine"));
        int round = 0;
        for (int type : new int[] {5, 6, 7, 8, 11}) {
            for (WalRecovery mode : WalRecovery.values()) {
                String what = "record type " + type + ", " + mode;
                db = copy(pristine, dir.resolve("round" + round++));
                byte[] garbage = new byte[7 + 200];
                Arrays.fill(garbage, (byte) 0x5a);
                garbage[4] = 100; // the length, then the type
                garbage[5] = 0;
                garbage[6] = (byte) type;
                Files.write(only("*.log"), garbage, StandardOpenOption.APPEND);
                RocksDb opened = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                    try {
                        return RocksDb.open(db, DbOptions.create().walRecovery(mode));
                    } catch (RocksDbException e) {
                        assertFalse(mode == WalRecovery.POINT_IN_TIME || mode == WalRecovery.SKIP_ANY_CORRUPTED,
                                what + ": " + e);
                        assertEquals(StatusCode.CORRUPTION, e.code(), what + ": " + e);
                        return null;
                    }
                }, what + ": the open did not return");
                if (opened != null) {
                    try (opened) {
                        assertEquals(TOTAL, readAll(opened, ReadOptions.DEFAULT), what);
                    }
                }
            }
        }
    }

    @Test
    void aMissingLogLosesOnlyTheWritesItHeld() throws IOException {
        Files.delete(only("*.log"));
        try (RocksDb database = RocksDb.open(db, DbOptions.create())) {
            assertEquals(FLUSHED, readAll(database, ReadOptions.DEFAULT));
        }
    }

    /**
     * Opens with mode and checks what came back is keys 0..k-1 with their
     * values and nothing else; returns k.
     */
    private int recoveredPrefix(WalRecovery mode) {
        try (RocksDb database = RocksDb.open(db, DbOptions.create().walRecovery(mode))) {
            int present = readAll(database, ReadOptions.DEFAULT);
            for (int n = 0; n < TOTAL; n++) {
                byte[] value = database.get(key(n));
                if (n < present) {
                    assertArrayEquals(value(n), value, mode + ": key " + n);
                } else {
                    assertEquals(null, value, mode + ": key " + n + " after a gap");
                }
            }
            return present;
        }
    }

    /** Reads every entry, checking each value; returns the count. */
    private static int readAll(RocksDb database, ReadOptions options) {
        int count = 0;
        try (Cursor cursor = database.cursor(options.verifyChecksums(true))) {
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                int n = Integer.parseInt(new String(cursor.keyBytes(), StandardCharsets.US_ASCII).substring(1));
                assertArrayEquals(value(n), cursor.valueBytes(), "key " + n);
                count++;
            }
        }
        return count;
    }

    private static void assertDamage(RocksDbException e) {
        assertTrue(DAMAGE_CODES.contains(e.code()), "not a corruption or I/O error: " + e);
        assertFalse(e.getMessage().isBlank());
    }

    private Path only(String glob) throws IOException {
        List<Path> matches = new ArrayList<>();
        try (var files = Files.newDirectoryStream(db, glob)) {
            files.forEach(matches::add);
        }
        assertEquals(1, matches.size(), glob + " in " + matches);
        return matches.get(0);
    }

    private static void flipBit(Path file, long offset) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            int b = raf.read();
            raf.seek(offset);
            raf.write(b ^ 0x10);
        }
    }

    private static void truncate(Path file, long size) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
        }
    }

    private static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
        return to;
    }

    static byte[] key(int n) {
        return String.format("k%06d", n).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] value(int n) {
        byte[] value = new byte[100];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (n * 13 + i);
        }
        return value;
    }
}
