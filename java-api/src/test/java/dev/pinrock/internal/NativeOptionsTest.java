package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import dev.pinrock.DbOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NativeOptions sets only what differs from {@link DbOptions#create()}, which
 * is sound only while a fresh pr_options_t has exactly those defaults: the
 * OPTIONS file RocksDB writes (every database, column family and table
 * option it applied) and the block cache's capacity, which that file leaves
 * out, are the same whether every setter is called with the default values
 * or none is.
 */
class NativeOptionsTest {
    @TempDir
    Path dir;

    @Test
    void aFreshNativeOptionsHasTheDefaultsDbOptionsStates() throws IOException {
        DbOptions defaults = DbOptions.create().createIfMissing(true).columnFamily("family", DbOptions.create());
        String onlyDifferences = optionsFileOf(dir.resolve("only-differences"), defaults, DbOptions.create());
        String everySetter = optionsFileOf(dir.resolve("every-setter"), defaults, null);
        assertEquals(everySetter, onlyDifferences);
    }

    /** The comparison sees a setting: one value away from a default changes the file. */
    @Test
    void theOptionsFileShowsASettingThatDiffers() throws IOException {
        DbOptions defaults = DbOptions.create().createIfMissing(true);
        assertNotEquals(optionsFileOf(dir.resolve("defaults"), defaults, null),
                optionsFileOf(dir.resolve("larger-memtables"), defaults.writeBufferBytes(128L << 20), null));
    }

    /**
     * Opens and closes a database with options applied against base; returns
     * its block cache's capacity and its newest OPTIONS file.
     */
    private static String optionsFileOf(Path path, DbOptions options, DbOptions base) throws IOException {
        long blockCacheCapacity;
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            MemorySegment dbOut = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment nativePath = NativeStrings.allocate(arena, path.toString(), "path");
            NativeOptions.with(options, base, SharedHandles.NONE, new Callbacks.ComparatorWatch(), nativeOptions -> Downcalls.check(
                    (int) Downcalls.dbOpen().invokeExact(nativeOptions, nativePath, dbOut, scratch.err, Scratch.ERR_CAP),
                    scratch));
            MemorySegment db = dbOut.get(ValueLayout.ADDRESS, 0);
            Downcalls.check((int) Downcalls.dbPropertyInt().invokeExact(db,
                    arena.allocateFrom("rocksdb.block-cache-capacity"), scratch.word, scratch.err, Scratch.ERR_CAP),
                    scratch);
            blockCacheCapacity = scratch.word.get(ValueLayout.JAVA_LONG, 0);
            Downcalls.check((int) Downcalls.dbClose().invokeExact(db, scratch.err, Scratch.ERR_CAP), scratch);
        } catch (Throwable t) {
            throw Downcalls.unchecked(t);
        }
        try (Stream<Path> files = Files.list(path)) {
            Path newest = files.filter(file -> file.getFileName().toString().startsWith("OPTIONS-"))
                    .max(Comparator.comparing(file -> file.getFileName().toString()))
                    .orElseThrow();
            return "block cache capacity " + blockCacheCapacity + "\n" + Files.readString(newest);
        }
    }
}
