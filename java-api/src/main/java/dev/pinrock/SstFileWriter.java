package dev.pinrock;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;

import dev.pinrock.internal.FfmSstWriter;
import dev.pinrock.internal.NativeLibrary;
import dev.pinrock.internal.ResourceGuard;

/**
 * Builds one sorted table file outside any database, for bulk loading with
 * {@link RocksDb#ingest(java.util.List, boolean)}: much faster than writing
 * the same keys one by one, since the file goes into the database whole.
 *
 * <pre>{@code
 * try (SstFileWriter writer = SstFileWriter.open(file, DbOptions.create())) {
 *     for (...) writer.put(key, value);   // keys in strictly ascending bytewise order
 *     writer.finish();
 * }
 * db.ingest(List.of(file), true);         // moved in, not copied
 * }</pre>
 *
 * <p>Not thread-safe: a call made while another thread's call is in flight is
 * refused with {@link IllegalStateException}. {@link #close()} is idempotent; an unfinished file is
 * left incomplete and must not be ingested.
 */
public final class SstFileWriter implements AutoCloseable {
    private final FfmSstWriter writer;
    private final ResourceGuard guard = ResourceGuard.exclusive("SstFileWriter");

    private SstFileWriter(FfmSstWriter writer) {
        this.writer = writer;
    }

    /**
     * Opens a writer of a new table file, compressed as options say (the
     * options' other settings do not matter here).
     *
     * @param file the file to create
     * @param options the compression settings to use
     * @return the writer; the caller closes it
     * @throws RocksDbException when the file cannot be created
     */
    public static SstFileWriter open(Path file, DbOptions options) {
        NativeLibrary.load(); // before any class that needs the library, see NativeLibrary
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        return new SstFileWriter(FfmSstWriter.open(file.toAbsolutePath(), options));
    }

    /**
     * Adds key -> value.
     *
     * @param key the key, after every key added before it in bytewise order
     * @param value the value
     * @throws RocksDbException.InvalidArgumentException when the key is out of order (nothing is added)
     * @throws IllegalStateException when the writer is closed
     */
    public void put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        guard.acquire();
        try {
            writer.put(MemorySegment.ofArray(key), MemorySegment.ofArray(value));
        } finally {
            guard.release();
        }
    }

    /**
     * Adds a deletion of key, which hides the key's older values once ingested.
     *
     * @param key the key, after every key added before it in bytewise order
     * @throws RocksDbException.InvalidArgumentException when the key is out of order
     * @throws IllegalStateException when the writer is closed
     */
    public void delete(byte[] key) {
        Objects.requireNonNull(key, "key");
        guard.acquire();
        try {
            writer.delete(MemorySegment.ofArray(key));
        } finally {
            guard.release();
        }
    }

    /**
     * Completes the file; nothing may be added afterwards.
     *
     * @return the file's size in bytes
     * @throws RocksDbException.InvalidArgumentException when nothing was added
     * @throws IllegalStateException when the writer is closed
     */
    public long finish() {
        guard.acquire();
        try {
            return writer.finish();
        } finally {
            guard.release();
        }
    }

    /** Frees the writer; idempotent. */
    @Override
    public void close() {
        guard.close(writer::destroy);
    }
}
