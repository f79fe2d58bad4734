package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.ColumnFamily;
import dev.pinrock.Compression;
import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.Keyspace;
import dev.pinrock.MemoryBudget;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.Snapshot;
import dev.pinrock.SstFileWriter;
import dev.pinrock.StatsLevel;
import dev.pinrock.StatusCode;
import dev.pinrock.Transaction;
import dev.pinrock.TransactionDbOptions;
import dev.pinrock.TransactionOptions;
import dev.pinrock.WalRecovery;
import dev.pinrock.WriteBatch;
import dev.pinrock.WriteBatchWithIndex;
import dev.pinrock.WriteOptions;

/**
 * Bad input through the public API: null arguments (every reference
 * parameter of every public method, found by reflection), keys and values
 * longer than RocksDB or a Java array can hold, invalid options and option
 * combinations, a database locked by another process, a path that is a
 * file, and a full disk. Each must give a clear exception, and leave the
 * database usable and holding exactly what it held.
 */
class BadInputTest {
    private static final int KEYS = 100;
    private static final long GIB = 1L << 30;
    private static final String UNUSED_NAME = "unused-name";

    @TempDir
    Path dir;

    /** Opens the database at dir/db, writing {@link #KEYS} keys the first time. */
    private RocksDb open() {
        Path path = dir.resolve("db");
        boolean fresh = !Files.exists(path);
        RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true));
        if (fresh) {
            for (int n = 0; n < KEYS; n++) {
                db.put(key(n), value(n));
            }
        }
        return db;
    }

    /** Checks the database holds exactly the {@link #KEYS} keys and takes a new write. */
    private static void assertIntactAndUsable(RocksDb db) {
        List<String> keys = new ArrayList<>();
        try (Cursor cursor = db.cursor()) {
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                String key = new String(cursor.keyBytes(), StandardCharsets.US_ASCII);
                keys.add(key);
                assertArrayEquals(value(Integer.parseInt(key.substring(1))), cursor.valueBytes(), key);
            }
        }
        assertEquals(KEYS, keys.size(), "keys now: " + keys);
        db.put(new byte[] {'z'}, new byte[] {1});
        assertArrayEquals(new byte[] {1}, db.get(new byte[] {'z'}));
        db.delete(new byte[] {'z'});
    }

    // ---- null -------------------------------------------------------------

    /** The parameters documented to take null ("or null for ..."). */
    private static final Set<String> NULL_ALLOWED = Set.of(
            "ReadOptions.snapshot(Snapshot)#0",
            "ReadOptions.lowerBound(byte[])#0",
            "ReadOptions.upperBound(byte[])#0",
            "DbOptions.memoryBudget(MemoryBudget)#0",
            "DbOptions.rateLimiter(RateLimiter)#0",
            "DbOptions.sstFileManager(SstFileManager)#0",
            "DbOptions.mergeOperator(String)#0",
            "DbOptions.mergeOperator(MergeOperator)#0",
            "DbOptions.compactionFilter(CompactionFilterFactory)#0",
            "DbOptions.infoLogger(InfoLogger)#0",
            "DbOptions.eventListener(EventListener)#0",
            "RocksDb.compactRange(byte[], byte[])#0",
            "RocksDb.compactRange(byte[], byte[])#1",
            "ColumnFamily.compactRange(byte[], byte[])#0",
            "ColumnFamily.compactRange(byte[], byte[])#1",
            "RocksDb.createColumnFamily(String, DbOptions)#1");

    @Test
    void nullForEveryReferenceParameterOfThePublicApiIsANullPointerExceptionAndChangesNothing()
            throws Exception {
        int calls = 0;
        List<String> wrong = new ArrayList<>();
        try (RocksDb db = open();
                Arena arena = Arena.ofConfined();
                WriteBatch batch = new WriteBatch();
                Snapshot snapshot = db.snapshot();
                Cursor cursor = db.cursor();
                MemoryBudget budget = MemoryBudget.create(64L << 20, 16L << 20);
                SstFileWriter writer = SstFileWriter.open(dir.resolve("file.sst"), DbOptions.create());
                RocksDb transactional = RocksDb.openTransactional(dir.resolve("transactional"),
                        DbOptions.create().createIfMissing(true), TransactionDbOptions.pessimistic());
                Transaction transaction = transactional.beginTransaction();
                WriteBatchWithIndex indexed = new WriteBatchWithIndex(db)) {
            ColumnFamily family = db.createColumnFamily("family");
            List<String> familiesBefore = db.columnFamilyNames();
            Map<Class<?>, Object> receivers = Map.ofEntries(
                    Map.entry(RocksDb.class, db), Map.entry(ColumnFamily.class, family),
                    Map.entry(WriteBatch.class, batch), Map.entry(Cursor.class, cursor),
                    Map.entry(Snapshot.class, snapshot), Map.entry(SstFileWriter.class, writer),
                    Map.entry(MemoryBudget.class, budget), Map.entry(DbOptions.class, DbOptions.create()),
                    Map.entry(ReadOptions.class, ReadOptions.DEFAULT), Map.entry(WriteOptions.class, WriteOptions.DEFAULT),
                    Map.entry(Transaction.class, transaction), Map.entry(WriteBatchWithIndex.class, indexed),
                    Map.entry(TransactionOptions.class, TransactionOptions.DEFAULT),
                    Map.entry(TransactionDbOptions.class, TransactionDbOptions.pessimistic()));
            Map<Type, Supplier<Object>> valid = validArguments(db, arena, batch, snapshot, budget);
            valid.put(WriteBatchWithIndex.class, () -> indexed);
            for (Class<?> type : receivers.keySet()) {
                for (Method method : type.getMethods()) {
                    if (!method.getDeclaringClass().getPackageName().equals("dev.pinrock")) {
                        continue;
                    }
                    Type[] parameters = method.getGenericParameterTypes();
                    for (int i = 0; i < parameters.length; i++) {
                        if (method.getParameterTypes()[i].isPrimitive()) {
                            continue;
                        }
                        Object[] args = new Object[parameters.length];
                        for (int j = 0; j < parameters.length; j++) {
                            if (j != i) {
                                Supplier<Object> supplier = valid.get(parameters[j]);
                                assertNotNull(supplier, "no valid argument of type " + parameters[j] + " for " + method);
                                args[j] = supplier.get();
                            }
                        }
                        String name = type.getSimpleName() + "." + method.getName() + "("
                                + String.join(", ", List.of(method.getParameterTypes()).stream()
                                        .map(Class::getSimpleName).toList())
                                + ")#" + i;
                        Object receiver = Modifier.isStatic(method.getModifiers()) ? null : receivers.get(type);
                        calls++;
                        Throwable thrown = null;
                        try {
                            method.invoke(receiver, args);
                        } catch (InvocationTargetException e) {
                            thrown = e.getCause();
                        }
                        boolean allowed = NULL_ALLOWED.contains(name);
                        if (allowed ? thrown != null : !isNamedNullCheck(thrown)) {
                            wrong.add(name + " -> " + (thrown == null ? "returned" : thrown));
                        }
                    }
                }
            }
            assertEquals(List.of(), wrong);
            // The one call above that may change the database: a family with the default options.
            db.dropColumnFamily(db.columnFamily(UNUSED_NAME));
            assertEquals(familiesBefore, db.columnFamilyNames());
            assertEquals(0, batch.count());
            assertEquals(0, transaction.writeCount());
            assertEquals(0, indexed.count());
            assertIntactAndUsable(db);
        }
        System.out.println(calls + " calls with a null argument, each refused");
        assertTrue(calls > 100, "only " + calls + " calls");
    }

    /**
     * Whether thrown is the NullPointerException of a check that names what
     * was null (Objects.requireNonNull with a message), not one the JVM threw
     * from inside pinrock.
     */
    private static boolean isNamedNullCheck(Throwable thrown) {
        return thrown instanceof NullPointerException
                && thrown.getStackTrace().length > 0
                && thrown.getStackTrace()[0].getClassName().equals("java.util.Objects")
                && thrown.getMessage() != null;
    }

    private Map<Type, Supplier<Object>> validArguments(RocksDb db, Arena arena, WriteBatch batch,
            Snapshot snapshot, MemoryBudget budget) {
        Map<Type, Supplier<Object>> valid = new TreeMap<>((a, b) -> a.getTypeName().compareTo(b.getTypeName()));
        valid.put(boolean.class, () -> false);
        valid.put(int.class, () -> 1);
        valid.put(long.class, () -> 1L);
        valid.put(byte[].class, () -> new byte[] {'k'});
        valid.put(long[].class, () -> new long[1]);
        valid.put(ByteBuffer.class, () -> ByteBuffer.allocateDirect(16));
        valid.put(MemorySegment.class, () -> arena.allocate(16));
        valid.put(Arena.class, () -> arena);
        valid.put(String.class, () -> UNUSED_NAME);
        valid.put(Path.class, () -> dir.resolve("unused-path"));
        valid.put(Keyspace.class, () -> db);
        valid.put(WriteBatch.class, () -> batch);
        valid.put(Snapshot.class, () -> snapshot);
        valid.put(MemoryBudget.class, () -> budget);
        valid.put(DbOptions.class, DbOptions::create);
        valid.put(ReadOptions.class, () -> ReadOptions.DEFAULT);
        valid.put(WriteOptions.class, () -> WriteOptions.DEFAULT);
        valid.put(Compression.class, () -> Compression.ZSTD);
        valid.put(Compression[].class, () -> new Compression[] {Compression.ZSTD});
        valid.put(WalRecovery.class, () -> WalRecovery.POINT_IN_TIME);
        valid.put(StatsLevel.class, () -> StatsLevel.ALL);
        valid.put(TransactionDbOptions.class, TransactionDbOptions::pessimistic);
        valid.put(TransactionOptions.class, () -> TransactionOptions.DEFAULT);
        List<Method> methods = new ArrayList<>(List.of(RocksDb.class.getMethods()));
        methods.addAll(List.of(Cursor.class.getMethods()));
        for (Method method : methods) {
            for (Type type : method.getGenericParameterTypes()) {
                if (type instanceof ParameterizedType generic) {
                    Type element = generic.getActualTypeArguments()[0];
                    if (generic.getRawType() == List.class && element == byte[].class) {
                        valid.put(type, () -> List.of(new byte[] {'k'}));
                    } else if (generic.getRawType() == List.class && element == MemorySegment.class) {
                        valid.put(type, () -> List.of(arena.allocate(1)));
                    } else if (generic.getRawType() == List.class && element == Path.class) {
                        valid.put(type, () -> List.of(dir.resolve("unused.sst")));
                    } else if (generic.getRawType() == List.class && element instanceof WildcardType wildcard
                            && wildcard.getUpperBounds()[0] == Keyspace.class) {
                        // The families of a cross-family multiGet: one per key of the lists above.
                        valid.put(type, () -> List.of(db));
                    } else if (generic.getRawType() == BiConsumer.class) {
                        valid.put(type, () -> (BiConsumer<?, ?>) (k, v) -> { });
                    } else if (generic.getRawType() == Consumer.class) {
                        valid.put(type, () -> (Consumer<?>) value -> { });
                    }
                }
            }
        }
        return valid;
    }

    // ---- too long ---------------------------------------------------------

    /**
     * A segment of the given size over a sparse file: it costs no memory or
     * disk unless read, and the limits are checked before it is read.
     */
    private MemorySegment sparse(Arena arena, String name, long size) throws IOException {
        Path file = dir.resolve(name);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
        }
    }

    @Test
    void keysAndValuesLongerThanRocksDbsLengthsAreRefusedBeforeAnythingIsWritten() throws IOException {
        try (RocksDb db = open(); Arena arena = Arena.ofConfined()) {
            MemorySegment key = sparse(arena, "key", 4 * GIB);
            MemorySegment value = sparse(arena, "value", 4 * GIB + 1);
            MemorySegment small = arena.allocate(8);
            List<Runnable> calls = List.of(
                    () -> db.put(key, small),
                    () -> db.put(small, value),
                    () -> db.delete(key),
                    () -> db.get(key, small),
                    () -> db.getPinned(arena, key),
                    () -> db.multiGetPinned(arena, List.of(small, key)),
                    () -> db.multiGet(List.of(small, key), small, new long[2], new long[2]));
            for (Runnable call : calls) {
                var e = assertThrows(RocksDbException.InvalidArgumentException.class, call::run);
                assertTrue(e.getMessage().contains("exceeds the limit"), e.getMessage());
            }
            try (Cursor cursor = db.cursor()) {
                var e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> cursor.seek(key));
                assertTrue(e.getMessage().contains("exceeds the limit"), e.getMessage());
                assertTrue(cursor.first());
            }
            try (WriteBatch batch = new WriteBatch()) {
                var e = assertThrows(IllegalArgumentException.class, () -> batch.put(key, small));
                assertTrue(e.getMessage().contains("exceeds the limit"), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> batch.put(small, value));
                assertThrows(IllegalArgumentException.class, () -> batch.delete(key));
                assertEquals(0, batch.count());
            }
            assertIntactAndUsable(db);
        }
    }

    /**
     * A value of 2 GiB + 1 byte, in a column family of its own with a
     * memtable large enough never to be flushed, dropped at the end, and
     * kept out of the log, to spare the disk: the calls that return a long length or
     * a segment read it; those that would need a larger Java array refuse it
     * with a clear exception; those that report an int length report
     * {@link Integer#MAX_VALUE}, more than any array or buffer can hold.
     */
    @Test
    void aValueLargerThanAJavaArrayIsReadThroughSegmentsAndRefusedByArrayCalls() throws IOException {
        long size = 2 * GIB + 1;
        byte[] big = {'b', 'i', 'g'};
        try (RocksDb db = open(); Arena arena = Arena.ofConfined()) {
            ColumnFamily family = db.createColumnFamily("big", DbOptions.create().writeBufferBytes(4 * GIB));
            try (Arena source = Arena.ofConfined(); WriteBatch batch = new WriteBatch()) {
                batch.put(family, MemorySegment.ofArray(big), sparse(source, "big", size));
                db.write(batch, WriteOptions.DEFAULT.disableWal(true));
            }
            var e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> family.get(big));
            assertTrue(e.getMessage().contains("more than a Java array holds"), e.getMessage());
            assertThrows(RocksDbException.InvalidArgumentException.class, () -> family.multiGet(List.of(big)));
            assertEquals(Integer.MAX_VALUE, family.get(big, new byte[8]));
            assertEquals(Integer.MAX_VALUE, family.get(ByteBuffer.wrap(big), ByteBuffer.allocate(8)));
            assertEquals(size, family.get(MemorySegment.ofArray(big), arena.allocate(8)));
            MemorySegment pinned = family.getPinned(arena, big);
            assertEquals(size, pinned.byteSize());
            assertEquals(0, pinned.get(ValueLayout.JAVA_BYTE, size - 1));
            try (Cursor cursor = family.cursor()) {
                assertTrue(cursor.first());
                assertEquals(size, cursor.value().byteSize());
                assertThrows(RocksDbException.InvalidArgumentException.class, cursor::valueBytes);
                assertEquals(Integer.MAX_VALUE, cursor.value(ByteBuffer.allocate(8)));
                assertThrows(RocksDbException.InvalidArgumentException.class, () -> cursor.stream().count());
            }
            db.dropColumnFamily(family);
            assertIntactAndUsable(db);
        }
    }

    // ---- options ----------------------------------------------------------

    @Test
    void invalidOptionsAreRefusedAtTheSetterOrTheOpenAndLeaveTheDatabaseAlone() {
        Path path = dir.resolve("db");
        open().close();
        Map<String, Supplier<DbOptions>> invalid = Map.of(
                "writeBufferBytes(1)", () -> DbOptions.create().writeBufferBytes(1),
                "writeBufferBytes(-1)", () -> DbOptions.create().writeBufferBytes(-1),
                "writeBufferBytes(64 GiB + 1)", () -> DbOptions.create().writeBufferBytes((64L << 30) + 1),
                "blockCacheBytes(-1)", () -> DbOptions.create().blockCacheBytes(-1),
                "maxOpenFiles(5)", () -> DbOptions.create().maxOpenFiles(5),
                "zstdLevel(99)", () -> DbOptions.create().zstdLevel(99),
                "compressionThreads(0)", () -> DbOptions.create().compressionThreads(0),
                "zstdDictionary(-1, 0)", () -> DbOptions.create().zstdDictionary(-1, 0),
                "mergeOperator(no-such-operator)", () -> DbOptions.create().mergeOperator("no-such-operator"),
                "errorIfExists(true) on an existing database", () -> DbOptions.create().errorIfExists(true));
        List<String> accepted = new ArrayList<>();
        for (var entry : invalid.entrySet()) {
            try {
                RocksDb.open(path, entry.getValue().get()).close();
                accepted.add(entry.getKey());
            } catch (IllegalArgumentException e) {
                assertFalse(e.getMessage() == null || e.getMessage().isBlank(), e.toString());
            } catch (RocksDbException e) {
                assertEquals(StatusCode.INVALID_ARGUMENT, e.code(), entry.getKey() + ": " + e);
            }
        }
        assertEquals(List.of(), accepted);
        int refused = invalid.size();
        assertThrows(IllegalArgumentException.class, () -> new WriteBatch(-1));
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> MemoryBudget.create(1 << 20, 2 << 20));
        try (RocksDb db = open(); WriteBatch batch = new WriteBatch()) {
            batch.put(key(0), value(1));
            var e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> db.write(batch, WriteOptions.DEFAULT.sync(true).disableWal(true)));
            assertTrue(e.getMessage().contains("WAL"), e.getMessage());
            try (Cursor cursor = db.cursor()) {
                assertThrows(IllegalArgumentException.class, () -> cursor.scan(-1, (k, v) -> { }));
            }
            assertIntactAndUsable(db);
        }
        System.out.println(refused + " invalid option sets refused");
    }

    // ---- locks and paths --------------------------------------------------

    @Test
    void aDatabaseLockedByAnotherProcessIsAnIoErrorAndStaysWithThatProcess() throws Exception {
        Path path = dir.resolve("locked");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", ChildJvm.testClassPath(),
                KillWorkload.class.getName(), path.toString(), "sync", "0", "0", "0", "0")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String ack;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.US_ASCII))) {
            assertEquals("open", out.readLine());
            // The workload's own options: only the lock stands in the way.
            var e = assertThrows(RocksDbException.RocksIoException.class,
                    () -> RocksDb.open(path, KillWorkload.options()));
            assertTrue(e.getMessage().contains("lock"), e.getMessage());
            ack = out.readLine();
            assertTrue(ack != null && ack.startsWith("ack "), "the other process still writes: " + ack);
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        int writer = Integer.parseInt(ack.split(" ")[1]);
        long batch = Long.parseLong(ack.split(" ")[2]);
        try (RocksDb db = RocksDb.open(path, KillWorkload.options())) {
            assertArrayEquals(KillWorkload.value(writer, batch), db.get(KillWorkload.marker(writer, batch)));
        }
    }

    @Test
    void aPathThatIsAFileIsRefusedAndTheFileIsUntouched() throws IOException {
        Path file = dir.resolve("a-file");
        Files.writeString(file, "not a database");
        for (DbOptions options : List.of(DbOptions.create(), DbOptions.create().createIfMissing(true))) {
            var e = assertThrows(RocksDbException.class, () -> RocksDb.open(file, options));
            assertTrue(e.code() == StatusCode.IO_ERROR || e.code() == StatusCode.INVALID_ARGUMENT, e.toString());
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        }
        assertThrows(RocksDbException.class, () -> RocksDb.repair(file, DbOptions.create()));
        assertEquals("not a database", Files.readString(file));
    }

    // ---- full disk --------------------------------------------------------

    /**
     * Fills a small tmpfs: the failing write is a clear I/O error, every
     * write acknowledged before it reads back exactly (no read may fail), every
     * later write fails too while the disk is full, and once there is room
     * again the database opens with every acknowledged write and takes new
     * ones. The test JVM may mount: it runs in a mount namespace of its own
     * (native/platform/jdk-own-mounts), inside a user namespace when not run by
     * root; where mounting is refused the test fails with that reason (a skip
     * would hide that the case did not run). A hang (a writer
     * never woken) fails the test after the timeout.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFullDiskIsAnIoErrorThatLosesNoAcknowledgedWrite() throws Exception {
        Path mount = Files.createDirectory(dir.resolve("tmpfs"));
        assertEquals(0, run("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString()),
                "cannot mount a small tmpfs here (it needs root or CAP_SYS_ADMIN in the JVM's namespace:"
                        + " run it through native/platform/jdk-own-mounts/bin/java): the full-disk case cannot run");
        try {
            Path path = mount.resolve("db");
            DbOptions options = DbOptions.create().createIfMissing(true).writeBufferBytes(1 << 20);
            int acknowledged = 0;
            RocksDb db = RocksDb.open(path, options);
            try {
                RocksDbException full = null;
                for (int n = 0; full == null; n++) {
                    try {
                        db.put(key(n), bigValue(n));
                        acknowledged++;
                    } catch (RocksDbException e) {
                        full = e;
                    }
                    assertTrue(n < 1_000_000, "8 MiB never filled");
                }
                assertInstanceOf(RocksDbException.RocksIoException.class, full, full.toString());
                assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
                for (int n = 0; n < acknowledged; n++) {
                    assertArrayEquals(bigValue(n), db.get(key(n)), "key " + n + " read after the error");
                }
                for (int n = 0; n < 100; n++) {
                    int later = n;
                    RocksDbException refused = assertThrows(RocksDbException.class,
                            () -> db.put(key(1_000_000 + later), value(later)),
                            "write " + n + " after the disk filled was acknowledged");
                    assertEquals(StatusCode.IO_ERROR, refused.code(), refused.toString());
                }
                assertEquals(null, db.get(key(1_000_000)), "a refused write became visible");
            } finally {
                try {
                    db.close();
                } catch (RocksDbException closing) {
                    // Closing may report the same error; the files are checked below.
                    assertEquals(StatusCode.IO_ERROR, closing.code(), closing.toString());
                }
            }
            assertTrue(acknowledged > 10, acknowledged + " writes before the disk filled");
            assertEquals(0, run("mount", "-t", "tmpfs", "-o", "remount,size=64m", "tmpfs", mount.toString()));
            try (RocksDb reopened = RocksDb.open(path, options)) {
                for (int n = 0; n < acknowledged; n++) {
                    assertArrayEquals(bigValue(n), reopened.get(key(n)), "key " + n + " after reopening");
                }
                reopened.put(key(-1), value(1));
                reopened.flush();
                assertArrayEquals(value(1), reopened.get(key(-1)));
            }
            System.out.println(acknowledged + " writes acknowledged before the disk filled; all present after");
        } finally {
            run("umount", mount.toString());
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        return process.waitFor();
    }

    private static byte[] bigValue(int n) {
        byte[] value = new byte[16 << 10];
        new java.util.Random(n).nextBytes(value);
        return value;
    }

    static byte[] key(int n) {
        return String.format("k%06d", n).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] value(int n) {
        return ("value-" + n).getBytes(StandardCharsets.US_ASCII);
    }
}
