package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/** The encoding of WriteBatch, without a database. */
class WriteBatchTest {
    @Test
    void recordsAreEncodedInRocksDbsFormat() {
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(new byte[] {'k'}, new byte[200]).delete(new byte[] {'d'});
            MemorySegment encoded = encoded(batch);
            // header: 8-byte sequence, 4-byte little-endian count
            assertEquals(2, encoded.get(ValueLayout.JAVA_INT_UNALIGNED, 8));
            // put: tag 1, varint 1, 'k', varint 200 (0xC8 0x01), 200 bytes
            assertEquals(1, encoded.get(ValueLayout.JAVA_BYTE, 12));
            assertEquals(1, encoded.get(ValueLayout.JAVA_BYTE, 13));
            assertEquals('k', encoded.get(ValueLayout.JAVA_BYTE, 14));
            assertEquals((byte) 0xC8, encoded.get(ValueLayout.JAVA_BYTE, 15));
            assertEquals(1, encoded.get(ValueLayout.JAVA_BYTE, 16));
            // delete: tag 0, varint 1, 'd'
            long delete = 17 + 200;
            assertEquals(0, encoded.get(ValueLayout.JAVA_BYTE, delete));
            assertEquals(1, encoded.get(ValueLayout.JAVA_BYTE, delete + 1));
            assertEquals('d', encoded.get(ValueLayout.JAVA_BYTE, delete + 2));
            assertEquals(delete + 3, batch.sizeBytes());
        }
    }

    @Test
    void arraysAndSegmentsEncodeTheSameRecords() {
        byte[] key = {'k', 'e', 'y'};
        byte[] value = new byte[300];
        value[299] = 7;
        try (WriteBatch fromArrays = new WriteBatch(); WriteBatch fromSegments = new WriteBatch();
                Arena arena = Arena.ofConfined()) {
            fromArrays.put(key, value).delete(key).put(new byte[0], new byte[0]);
            fromSegments.put(arena.allocateFrom(ValueLayout.JAVA_BYTE, key), MemorySegment.ofArray(value))
                    .delete(MemorySegment.ofArray(key))
                    .put(MemorySegment.ofArray(new byte[0]), arena.allocate(0));
            assertEquals(-1, encoded(fromArrays).mismatch(encoded(fromSegments)));
            assertEquals(3, fromArrays.count());
        }
    }

    @Test
    void clearEmptiesTheBatchForReuse() {
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(new byte[] {1}, new byte[] {2});
            batch.clear();
            assertEquals(0, batch.count());
            assertEquals(12, batch.sizeBytes());
            assertEquals(0, encoded(batch).get(ValueLayout.JAVA_INT_UNALIGNED, 8));
        }
    }

    @Test
    void aKeyFromAClosedArenaLeavesTheBatchAsItWas() {
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(new byte[] {1}, new byte[] {2});
            long size = batch.sizeBytes();
            Arena arena = Arena.ofConfined();
            MemorySegment key = arena.allocate(4);
            arena.close();
            assertThrows(IllegalStateException.class, () -> batch.put(key, MemorySegment.ofArray(new byte[1])));
            assertEquals(1, batch.count());
            assertEquals(size, batch.sizeBytes());
        }
    }

    @Test
    void negativeReservationAndNullsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new WriteBatch(-1));
        try (WriteBatch batch = new WriteBatch()) {
            assertThrows(NullPointerException.class, () -> batch.put((byte[]) null, new byte[0]));
            assertThrows(NullPointerException.class, () -> batch.deleteRange(new byte[0], null));
        }
    }

    @Test
    void aCallWhileAnotherThreadHoldsTheBatchIsRefusedAndCloseWaitsForIt() throws InterruptedException {
        WriteBatch batch = new WriteBatch();
        batch.put(new byte[] {1}, new byte[] {2});
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                batch.writeInto(null, encoded -> {
                    writing.countDown();
                    try {
                        done.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    // Still readable: the close waits for this call.
                    encoded.get(ValueLayout.JAVA_BYTE, encoded.byteSize() - 1);
                });
            } catch (Throwable t) {
                writerFailure.set(t);
            }
        });
        Thread closer;
        try {
            writing.await();
            var e = assertThrows(IllegalStateException.class, () -> batch.put(new byte[] {3}, new byte[] {4}));
            assertEquals("WriteBatch is in use by another thread: it is not thread-safe", e.getMessage());
            assertThrows(IllegalStateException.class, batch::clear);
            closer = Thread.ofPlatform().start(batch::close);
            // A close that did not wait for the write would be done long before this.
            closer.join(Duration.ofMillis(200));
            assertTrue(closer.isAlive(), "close returned while a write held the batch");
        } finally {
            done.countDown();
        }
        writer.join();
        closer.join();
        assertNull(writerFailure.get(), () -> "the write failed: " + writerFailure.get());
        var e = assertThrows(IllegalStateException.class, batch::count);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    /** A copy of the encoded batch, as a write would see it. */
    private static MemorySegment encoded(WriteBatch batch) {
        MemorySegment[] copy = new MemorySegment[1];
        batch.writeInto(null, encoded -> copy[0] = Arena.ofAuto().allocate(encoded.byteSize()).copyFrom(encoded));
        return copy[0];
    }
}
