package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;

import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.internal.Binding;

/** Part of the contract, run with FFM only; see {@link BindingContract}. */
class OpenFailuresContract extends BindingContract {
    @TempDir
    Path dir;

    private static final DbOptions CREATE = DbOptions.create().createIfMissing(true);

    OpenFailuresContract() {
        super(Binding.FFM);
    }

    @Test
    void missingDatabaseWithoutCreateIfMissingIsInvalidArgument() {
        var e = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> open(dir.resolve("db"), DbOptions.create()));
        assertEquals(StatusCode.INVALID_ARGUMENT, e.code());
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("db").resolve("CURRENT")));
    }

    @Test
    void existingDatabaseWithErrorIfExistsIsInvalidArgument() {
        open(dir.resolve("db"), CREATE).close();
        var e = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> open(dir.resolve("db"), CREATE.errorIfExists(true)));
        assertTrue(e.getMessage().contains("exists"), e.getMessage());
    }

    @Test
    void nonExistentParentDirectoryIsAnIoError() {
        var e = assertThrows(RocksDbException.RocksIoException.class,
                () -> open(dir.resolve("no/such/parent/db"), CREATE));
        assertEquals(StatusCode.IO_ERROR, e.code());
        assertTrue(e.getMessage().contains("No such file or directory"), e.getMessage());
    }

    @Test
    void pathThatIsAFileIsAnIoError() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "not a database");
        var e = assertThrows(RocksDbException.RocksIoException.class, () -> open(file, CREATE));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertEquals("not a database", Files.readString(file));
    }

    @Test
    void readOnlyDirectoryIsAnIoError() throws Exception {
        Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        try (ReadOnlyDirectory unwritable = ReadOnlyDirectory.make(readOnly)) {
            assertTrue(unwritable.isReadOnly());
            var e = assertThrows(RocksDbException.RocksIoException.class,
                    () -> open(readOnly.resolve("db"), CREATE));
            assertTrue(e.getMessage().contains(readOnly.toString()), e.getMessage());
        }
    }

    @Test
    void databaseAlreadyOpenInThisProcessIsAnIoErrorAboutTheLock() {
        try (RocksDb first = open(dir.resolve("db"), CREATE)) {
            first.put(new byte[] {1}, new byte[] {2});
            var e = assertThrows(RocksDbException.RocksIoException.class,
                    () -> open(dir.resolve("db"), CREATE));
            assertTrue(e.getMessage().contains("lock"), e.getMessage());
            // The first handle is unaffected.
            assertArrayEquals(new byte[] {2}, first.get(new byte[] {1}));
        }
    }

    @Test
    void databaseOpenUnderAnotherSpellingOfItsPathIsRefusedAndKeepsItsSyncedWrites()
            throws IOException {
        Path path = dir.resolve("db");
        Path link = Files.createSymbolicLink(dir.resolve("link"), path.getFileName());
        Path[] spellings = {
            dir.resolve(".").resolve("db"),
            dir.resolve("..").resolve(dir.getFileName()).resolve("db"),
            link,
        };
        try (RocksDb first = open(path, CREATE)) {
            for (Path spelling : spellings) {
                var e = assertThrows(RocksDbException.RocksIoException.class,
                        () -> open(spelling, CREATE).close(), spelling.toString());
                assertTrue(e.getMessage().contains("already open"), e.getMessage());
                var repair = assertThrows(RocksDbException.RocksIoException.class,
                        () -> RocksDb.repair(spelling, DbOptions.create()), spelling.toString());
                assertTrue(repair.getMessage().contains("already open"), repair.getMessage());
                try (WriteBatch batch = new WriteBatch()) {
                    first.write(batch.put(bytes(spelling), bytes(spelling)),
                            WriteOptions.DEFAULT.sync(true));
                }
            }
        }
        for (Path spelling : spellings) {
            try (RocksDb reopened = open(spelling, DbOptions.create())) {
                for (Path written : spellings) {
                    assertArrayEquals(bytes(written), reopened.get(bytes(written)));
                }
            }
        }
    }

    private static byte[] bytes(Path path) {
        return path.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void reopenWithoutAFamilysMergeOperatorIsRefusedAndLosesNoSyncedWrite() {
        Path path = dir.resolve("db");
        DbOptions counting = DbOptions.create().mergeOperator("uint64add");
        byte[] one = {1, 0, 0, 0, 0, 0, 0, 0};
        try (RocksDb db = open(path, CREATE)) {
            ColumnFamily counters = db.createColumnFamily("counters", counting);
            try (WriteBatch merge = new WriteBatch(); WriteBatch put = new WriteBatch()) {
                db.write(merge.merge(counters, new byte[] {'n'}, one), WriteOptions.DEFAULT.sync(true));
                db.write(put.put(new byte[] {'k'}, new byte[] {'v'}), WriteOptions.DEFAULT.sync(true));
            }
        }
        for (DbOptions wrong : new DbOptions[] {
                DbOptions.create(),
                DbOptions.create().mergeOperator("stringappend"),
                DbOptions.create().columnFamily("counters", DbOptions.create())}) {
            var e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> open(path, wrong).close(), wrong.toString());
            assertTrue(e.getMessage().contains(
                    "column family 'counters' was last opened with merge operator UInt64AddOperator, not "),
                    e.getMessage());
        }
        try (RocksDb db = open(path, DbOptions.create().columnFamily("counters", counting))) {
            assertArrayEquals(one, db.columnFamily("counters").get(new byte[] {'n'}));
            assertArrayEquals(new byte[] {'v'}, db.get(new byte[] {'k'}));
        }
    }

    @Test
    void aLogDirectoryBelongsToOneDatabaseAndLosesNoSyncedWrite() {
        Path path = dir.resolve("db");
        Path logs = dir.resolve("logs");
        Path other = dir.resolve("other");
        Path checkpoint = dir.resolve("checkpoint");
        try (RocksDb db = open(path, CREATE.walDir(logs))) {
            putSynced(db, new byte[] {'a'}, new byte[] {1});
            // Another database may not share the log directory while it is open.
            var shared = assertThrows(RocksDbException.RocksIoException.class,
                    () -> open(other, CREATE.walDir(logs)).close());
            assertTrue(shared.getMessage().contains(path.toString()), shared.getMessage());
            db.checkpoint(checkpoint);
            putSynced(db, new byte[] {'b'}, new byte[] {2});
        }
        // Nor once it is closed; nor may the database open without its log directory.
        var later = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> open(other, CREATE.walDir(logs)).close());
        assertTrue(later.getMessage().contains("belongs to the database at " + path), later.getMessage());
        var without = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> open(path, DbOptions.create()).close());
        assertTrue(without.getMessage().contains(logs.toString()), without.getMessage());
        // The checkpoint opens with the options it was last opened with, as documented,
        // holding the checkpoint's data alone; with the source's log directory it is refused.
        assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> open(checkpoint, DbOptions.create().walDir(logs)).close());
        try (RocksDb copy = open(checkpoint, DbOptions.loadLatest(checkpoint))) {
            assertArrayEquals(new byte[] {1}, copy.get(new byte[] {'a'}));
            assertEquals(null, copy.get(new byte[] {'b'}));
            putSynced(copy, new byte[] {'c'}, new byte[] {3});
            copy.flush();
        }
        try (RocksDb db = open(path, DbOptions.loadLatest(path))) {
            assertArrayEquals(new byte[] {1}, db.get(new byte[] {'a'}));
            assertArrayEquals(new byte[] {2}, db.get(new byte[] {'b'}));
            assertEquals(null, db.get(new byte[] {'c'}));
        }
    }

    private static void putSynced(RocksDb db, byte[] key, byte[] value) {
        try (WriteBatch batch = new WriteBatch()) {
            db.write(batch.put(key, value), WriteOptions.DEFAULT.sync(true));
        }
    }

    @Test
    void invalidOptionValuesAreRejectedBeforeAnythingIsWritten() {
        DbOptions[] invalid = {
            CREATE.zstdLevel(23),
            CREATE.zstdLevel(-200_000),
            CREATE.writeBufferBytes(1024),
            CREATE.maxOpenFiles(5),
            CREATE.blockCacheBytes(-1),
            CREATE.compressionPerLevel(java.util.Collections.nCopies(8, Compression.NONE).toArray(new Compression[0])),
            CREATE.zstdDictionary(-1, 0),
            CREATE.zstdDictionary(4096, 100),
            CREATE.compressionThreads(0),
            CREATE.compressionThreads(65),
        };
        for (DbOptions options : invalid) {
            var e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> open(dir.resolve("db"), options), options.toString());
            assertTrue(e.getMessage().startsWith("Invalid argument: "), e.getMessage());
            assertFalse(Files.exists(dir.resolve("db")), options.toString());
        }
    }

    @Test
    void optionsAreImmutableValues() {
        DbOptions base = DbOptions.create();
        DbOptions changed = base.createIfMissing(true).zstdLevel(9).compression(Compression.ZSTD);
        assertFalse(base.createIfMissing());
        assertEquals(3, base.zstdLevel());
        assertEquals(Compression.LZ4, base.compression());
        assertEquals(Compression.ZSTD, base.bottommostCompression());
        assertTrue(changed.createIfMissing());
        assertEquals(9, changed.zstdLevel());
        assertEquals(Compression.ZSTD, changed.compression());
        assertEquals(Compression.NONE, changed.bottommostCompression(Compression.NONE).bottommostCompression());
    }

    /**
     * Makes a directory unwritable for this process: by permissions, or for
     * root (whom permissions do not stop) with the immutable attribute.
     */
    static final class ReadOnlyDirectory implements AutoCloseable {
        private final Path path;
        private final boolean immutable;

        private ReadOnlyDirectory(Path path, boolean immutable) {
            this.path = path;
            this.immutable = immutable;
        }

        static ReadOnlyDirectory make(Path path) throws IOException {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("r-xr-xr-x"));
            if (!canCreateIn(path)) {
                return new ReadOnlyDirectory(path, false);
            }
            run("chattr", "+i", path.toString());
            if (!canCreateIn(path)) {
                return new ReadOnlyDirectory(path, true);
            }
            throw new IllegalStateException("cannot make " + path + " read-only for this user"
                    + " (neither permissions nor chattr +i stop writes)");
        }

        boolean isReadOnly() {
            return !canCreateIn(path);
        }

        private static boolean canCreateIn(Path dir) {
            try {
                Files.delete(Files.createFile(dir.resolve("probe")));
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        private static void run(String... command) throws IOException {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            int exit;
            try {
                exit = process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while running " + String.join(" ", command), e);
            }
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        }

        @Override
        public void close() throws IOException {
            if (immutable) {
                run("chattr", "-i", path.toString());
            }
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }
}
