package dev.pinrock.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

import dev.pinrock.Compression;
import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * The databases benchmarks read: built once per (key size, value size, key
 * count) with pinrock, flushed to table files, kept under the cache
 * directory and reopened read-only by every benchmark and binding that uses
 * them. Every binding and the native floor open them with the same options.
 */
public final class Datasets {
    /** Large enough to hold every dataset: reads are served from the block cache. */
    public static final long BLOCK_CACHE_BYTES = 1L << 30;
    /**
     * Large enough that no memtable fills during a trial: a batch put writes
     * up to about 70 MB of memtable a second, 1 GB over a trial's 14 s, and
     * a memtable that filled and switched partway through made the fast
     * iterations of the fresh one land in a binding's last iterations or not.
     */
    public static final long WRITE_BUFFER_BYTES = 2L << 30;
    /**
     * RocksDB's (and pinrock's) default memtable size, for writes that are to
     * flush and compact while they run (location "flushing").
     */
    public static final long FLUSHING_WRITE_BUFFER_BYTES = 64L << 20;
    private static final String FORMAT = "v1";

    private Datasets() {
    }

    /** The options datasets are built with, and every grid point's by default. */
    public static DbOptions options() {
        return DbOptions.create().compression(Compression.NONE).blockCacheBytes(BLOCK_CACHE_BYTES)
                .writeBufferBytes(WRITE_BUFFER_BYTES);
    }

    /**
     * The options every pinrock benchmark opens with at a grid point: the
     * defaults, with the point's block cache, compression and memtable size
     * (RocksJava and the floor mirror them).
     */
    public static DbOptions options(Grid grid) {
        return options().blockCacheBytes(grid.blockCacheBytes).compression(grid.compressionType())
                .writeBufferBytes(grid.writeBufferBytes());
    }

    /** @return where datasets live: -Dpinrock.bench.data, else the pinrock cache directory */
    public static Path root() {
        String configured = System.getProperty("pinrock.bench.data");
        if (configured != null) {
            return Path.of(configured);
        }
        String cache = System.getenv("PINROCK_CACHE_DIR");
        if (cache == null) {
            String xdg = System.getenv("XDG_CACHE_HOME");
            cache = (xdg != null ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache"))
                    .resolve("pinrock").toString();
        }
        return Path.of(cache, "bench-data");
    }

    /**
     * Returns the flushed dataset for a grid point, building it on first use,
     * with its table files read into the OS page cache.
     *
     * @return the database directory
     */
    public static synchronized Path sst(int keyBytes, int valueBytes, int keyCount) {
        Path dir = root().resolve(FORMAT + "-k" + keyBytes + "-v" + valueBytes + "-n" + keyCount);
        Path complete = dir.resolve("pinrock-dataset-complete");
        if (Files.exists(complete)) {
            return readIntoPageCache(dir);
        }
        deleteRecursively(dir);
        try {
            Files.createDirectories(root());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (RocksDb db = RocksDb.open(dir, options().createIfMissing(true))) {
            load(db::put, keyBytes, valueBytes, keyCount);
            db.flush();
        }
        try {
            Files.createFile(complete);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return readIntoPageCache(dir);
    }

    /**
     * Reads every table file of a dataset once. Benchmarks warm RocksDB's
     * block cache, not the OS page cache: on a machine that has just started,
     * whichever binding ran first at a grid point read the files from disk
     * during its measurement (4 KiB gets at 1,000 to 4,000 ops/s against
     * 200,000 for the bindings after it).
     */
    private static Path readIntoPageCache(Path dir) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".sst"))::iterator) {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                    while (channel.read(buffer.clear()) > 0) {
                        // Only the reading matters.
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    /** Receives the entries of a dataset. */
    @FunctionalInterface
    public interface Writer {
        void put(byte[] key, byte[] value) throws Exception;
    }

    /** Writes keys 0..keyCount-1 with their values, in key order, through any binding's put. */
    public static void load(Writer writer, int keyBytes, int valueBytes, int keyCount) {
        byte[] key = new byte[keyBytes];
        byte[] value = new byte[valueBytes];
        try {
            for (int i = 0; i < keyCount; i++) {
                Keys.fill(key, i);
                Keys.fillValue(value, i);
                writer.put(key, value);
            }
        } catch (Exception e) {
            throw new IllegalStateException("loading the dataset failed", e);
        }
    }

    /** @return a new empty directory for a database that lives for one trial */
    public static Path scratch() {
        try {
            Files.createDirectories(root());
            return Files.createTempDirectory(root(), "scratch-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a directory tree, if it exists. */
    public static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
