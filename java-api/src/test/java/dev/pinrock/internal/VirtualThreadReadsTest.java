package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.DbOptions;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.Snapshot;

/**
 * A virtual thread's get that needs I/O, and every multiGet, runs on a
 * platform thread of {@link BlockingReads} (the carrier is not held while
 * RocksDB reads from disk) and answers what a platform thread's call answers,
 * in every access mode, into the caller's own (confined) memory too. Each read is made on a
 * freshly opened database, whose block cache is empty, so it needs I/O.
 */
class VirtualThreadReadsTest {
    private static final byte[] KEY = "key".getBytes(StandardCharsets.UTF_8);
    /** Larger than the scratch value buffer, so that it comes back pinned. */
    private static final byte[] LARGE = filled(20_000);
    private static final byte[] SMALL = filled(100);

    @TempDir
    Path dir;

    @Test
    void everyGetFormOnAVirtualThreadReadsFromDiskOffTheCarrier() throws Exception {
        for (byte[] value : new byte[][] {SMALL, LARGE}) {
            Path path = dir.resolve("db-" + value.length);
            try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true))) {
                db.put(KEY, value);
                db.put("other".getBytes(StandardCharsets.UTF_8), SMALL);
                db.flush();
            }
            assertReadsOffCarrier(path, value, db -> db.get(KEY));
            assertReadsOffCarrier(path, value, db -> {
                byte[] into = new byte[value.length];
                assertEquals(value.length, db.get(KEY, into));
                return into;
            });
            assertReadsOffCarrier(path, value, db -> {
                byte[] into = new byte[value.length + 1];
                assertEquals(value.length, db.get(KEY, into));
                return Arrays.copyOf(into, value.length);
            });
            assertReadsOffCarrier(path, value, db -> {
                ByteBuffer dst = ByteBuffer.allocateDirect(value.length);
                assertEquals(value.length, db.get(ByteBuffer.wrap(KEY), dst));
                byte[] read = new byte[value.length];
                dst.get(read);
                return read;
            });
            assertReadsOffCarrier(path, value, db -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment dst = arena.allocate(value.length);
                    assertEquals(value.length, db.get(arena.allocateFrom(ValueLayout.JAVA_BYTE, KEY), dst));
                    return dst.toArray(ValueLayout.JAVA_BYTE);
                }
            });
            assertReadsOffCarrier(path, value, db -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment small = arena.allocate(10);
                    // Too small: only measured, and the buffer is left alone.
                    assertEquals(value.length, db.get(MemorySegment.ofArray(KEY), small));
                    assertEquals(0, small.get(ValueLayout.JAVA_BYTE, 0));
                }
                return value;
            });
            assertReadsOffCarrier(path, value, db -> {
                try (Arena arena = Arena.ofConfined()) {
                    return db.getPinned(arena, KEY).toArray(ValueLayout.JAVA_BYTE);
                }
            });
            assertReadsOffCarrier(path, value, db -> {
                AtomicReference<byte[]> read = new AtomicReference<>();
                assertTrue(db.getPinned(KEY, segment -> read.set(segment.toArray(ValueLayout.JAVA_BYTE))));
                return read.get();
            });
            assertReadsOffCarrier(path, value, db -> {
                try (Snapshot snapshot = db.snapshot()) {
                    return db.get(ReadOptions.DEFAULT.snapshot(snapshot), KEY);
                }
            });
            assertReadsOffCarrier(path, null, db -> db.get("l-absent-between-two-keys".getBytes(StandardCharsets.UTF_8)));
            // A multiGet is handed over whole, whatever it finds in memory.
            assertReadsOffCarrier(path, value, db -> db.multiGet(List.of(KEY)).get(0));
            assertReadsOffCarrier(path, value, db -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment dst = arena.allocate(value.length);
                    long[] offsets = new long[1];
                    long[] lengths = new long[1];
                    assertEquals(value.length, db.multiGet(List.of(arena.allocateFrom(ValueLayout.JAVA_BYTE, KEY)),
                            dst, offsets, lengths));
                    assertEquals(0, offsets[0]);
                    assertEquals(value.length, lengths[0]);
                    return dst.toArray(ValueLayout.JAVA_BYTE);
                }
            });
            assertReadsOffCarrier(path, value, db -> {
                try (Arena arena = Arena.ofConfined()) {
                    return db.multiGetPinned(arena, List.of(MemorySegment.ofArray(KEY))).get(0)
                            .toArray(ValueLayout.JAVA_BYTE);
                }
            });
        }
    }

    @Test
    void aPlatformThreadsGetReadsFromDiskItself() throws Exception {
        Path path = dir.resolve("db");
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true))) {
            db.put(KEY, SMALL);
            db.flush();
        }
        try (RocksDb db = RocksDb.open(path, DbOptions.create())) {
            long before = BlockingReads.handedOver();
            assertArrayEquals(SMALL, db.get(KEY));
            assertEquals(before, BlockingReads.handedOver());
        }
    }

    /** Opens the database afresh and reads on a virtual thread, which must hand the read over. */
    private static void assertReadsOffCarrier(Path path, byte[] expected, Function<RocksDb, byte[]> read)
            throws Exception {
        try (RocksDb db = RocksDb.open(path, DbOptions.create())) {
            AtomicReference<Object> outcome = new AtomicReference<>();
            long before = BlockingReads.handedOver();
            Thread.ofVirtual().start(() -> {
                try {
                    outcome.set(read.apply(db));
                } catch (RuntimeException | Error e) {
                    outcome.set(e);
                }
            }).join();
            if (outcome.get() instanceof Throwable failure) {
                throw new AssertionError("the read failed", failure);
            }
            if (expected == null) {
                assertNull(outcome.get());
            } else {
                assertArrayEquals(expected, (byte[]) outcome.get());
            }
            // One per native read (a multiGet of arrays whose value outgrew its buffer makes two).
            assertTrue(BlockingReads.handedOver() > before, "no read was handed to a platform thread");
        }
    }

    private static byte[] filled(int length) {
        byte[] value = new byte[length];
        for (int i = 0; i < length; i++) {
            value[i] = (byte) (i * 31 + 7);
        }
        return value;
    }
}
