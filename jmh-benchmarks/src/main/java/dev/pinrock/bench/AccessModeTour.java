package dev.pinrock.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import dev.pinrock.Compression;
import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * The main job until the JMH comparison exists: loads N keys (16-byte keys,
 * 100-byte values) with zstd, flushes them to a table file, then reads every
 * key back in random order through each access mode, verifies each value and
 * prints reads, verified reads and ops/s per mode. Rough single-run figures,
 * not a benchmark: see the JMH suites for measurements.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp ... dev.pinrock.bench.AccessModeTour [--keys N] [--dir PATH]
 * </pre>
 */
public final class AccessModeTour {
    static final int KEY_BYTES = 16;
    static final int VALUE_BYTES = 100;

    /** One line of the report. */
    public record Result(String mode, long operations, long verified, double opsPerSecond) {
    }

    private interface Reader {
        /** Reads key number index into whatever the mode uses; returns whether the value was right. */
        boolean readAndVerify(RocksDb db, int index);
    }

    private AccessModeTour() {
    }

    public static void main(String[] args) throws IOException {
        int keys = 1_000_000;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: AccessModeTour [--keys N] [--dir PATH]");
                    System.exit(2);
                }
            }
        }
        boolean temporary = dir == null;
        Path path = temporary ? Files.createTempDirectory("pinrock-tour") : dir;
        try {
            List<Result> results = run(path.resolve("db"), keys, System.out);
            boolean allVerified = results.stream().allMatch(r -> r.verified() == r.operations());
            if (!allVerified) {
                System.err.println("FAILED: some values did not match");
                System.exit(1);
            }
        } finally {
            if (temporary) {
                deleteRecursively(path);
            }
        }
    }

    /**
     * Loads, reads back and verifies; prints the table to out.
     *
     * @param dbPath where the database is created (must not exist)
     * @param keys how many keys to load and read per mode
     * @param out where the table goes
     * @return the load line followed by one line per access mode
     */
    public static List<Result> run(Path dbPath, int keys, PrintStream out) {
        List<Result> results = new ArrayList<>();
        DbOptions options = DbOptions.create().createIfMissing(true).errorIfExists(true)
                .compression(Compression.ZSTD);
        try (RocksDb db = RocksDb.open(dbPath, options)) {
            out.printf("pinrock main job: %,d keys (%d B keys, %d B values), zstd, RocksDB %s, JDK %s%n",
                    keys, KEY_BYTES, VALUE_BYTES, RocksDb.engineVersion(), Runtime.version());
            results.add(load(db, keys));
            db.flush();
            int[] order = shuffled(keys, 42);
            results.add(measure("new byte[]", db, order, newArrayReader()));
            results.add(measure("into byte[]", db, order, intoArrayReader()));
            results.add(measure("direct ByteBuffer", db, order, directBufferReader()));
            try (Arena arena = Arena.ofConfined()) {
                results.add(measure("native MemorySegment", db, order, nativeSegmentReader(arena)));
            }
            results.add(measure("pinned MemorySegment", db, order, pinnedReader()));
        }
        out.printf("%-22s %12s %12s %14s%n", "mode", "operations", "verified", "ops/s");
        for (Result r : results) {
            out.printf("%-22s %,12d %,12d %,14.0f%n", r.mode(), r.operations(), r.verified(), r.opsPerSecond());
        }
        return results;
    }

    private static Result load(RocksDb db, int keys) {
        byte[] key = new byte[KEY_BYTES];
        byte[] value = new byte[VALUE_BYTES];
        long start = System.nanoTime();
        for (int i = 0; i < keys; i++) {
            fillKey(key, i);
            fillValue(value, i);
            db.put(key, value);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result("load (put byte[])", keys, keys, keys / seconds);
    }

    private static Result measure(String mode, RocksDb db, int[] order, Reader reader) {
        long verified = 0;
        long start = System.nanoTime();
        for (int index : order) {
            if (reader.readAndVerify(db, index)) {
                verified++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result(mode, order.length, verified, order.length / seconds);
    }

    private static Reader newArrayReader() {
        byte[] key = new byte[KEY_BYTES];
        return (db, index) -> {
            fillKey(key, index);
            byte[] value = db.get(key);
            return value != null && matches(MemorySegment.ofArray(value), value.length, index);
        };
    }

    private static Reader intoArrayReader() {
        byte[] key = new byte[KEY_BYTES];
        byte[] value = new byte[VALUE_BYTES];
        return (db, index) -> {
            fillKey(key, index);
            int length = db.get(key, value);
            return matches(MemorySegment.ofArray(value), length, index);
        };
    }

    private static Reader directBufferReader() {
        byte[] keyBytes = new byte[KEY_BYTES];
        ByteBuffer key = ByteBuffer.allocateDirect(KEY_BYTES);
        ByteBuffer value = ByteBuffer.allocateDirect(VALUE_BYTES);
        return (db, index) -> {
            fillKey(keyBytes, index);
            key.clear();
            key.put(keyBytes).flip();
            value.clear();
            int length = db.get(key, value);
            return matches(MemorySegment.ofBuffer(value), length, index);
        };
    }

    private static Reader nativeSegmentReader(Arena arena) {
        byte[] keyBytes = new byte[KEY_BYTES];
        MemorySegment key = arena.allocate(KEY_BYTES);
        MemorySegment value = arena.allocate(VALUE_BYTES);
        return (db, index) -> {
            fillKey(keyBytes, index);
            MemorySegment.copy(keyBytes, 0, key, ValueLayout.JAVA_BYTE, 0, KEY_BYTES);
            long length = db.get(key, value);
            return matches(value, length, index);
        };
    }

    private static Reader pinnedReader() {
        byte[] key = new byte[KEY_BYTES];
        return (db, index) -> {
            fillKey(key, index);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment value = db.getPinned(arena, key);
                return value != null && matches(value, value.byteSize(), index);
            }
        };
    }

    /** Key number i: "key-" and i as 12 decimal digits (16 bytes, sorted like i). */
    static void fillKey(byte[] key, int i) {
        key[0] = 'k';
        key[1] = 'e';
        key[2] = 'y';
        key[3] = '-';
        int rest = i;
        for (int pos = KEY_BYTES - 1; pos >= 4; pos--) {
            key[pos] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
    }

    static void fillValue(byte[] value, int i) {
        for (int j = 0; j < value.length; j++) {
            value[j] = valueByte(i, j);
        }
    }

    /** Byte j of value number i: repetitive enough for zstd to compress, distinct per key. */
    private static byte valueByte(int i, int j) {
        return (byte) (i * 31 + (j % 10));
    }

    private static boolean matches(MemorySegment value, long length, int index) {
        if (length != VALUE_BYTES) {
            return false;
        }
        for (int j = 0; j < VALUE_BYTES; j++) {
            if (value.get(ValueLayout.JAVA_BYTE, j) != valueByte(index, j)) {
                return false;
            }
        }
        return true;
    }

    private static int[] shuffled(int count, long seed) {
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Random random = new Random(seed);
        for (int i = count - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    private static void deleteRecursively(Path path) throws IOException {
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
