package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.internal.Binding;

/** Part of the contract, run once per binding; see {@link BindingContract}. */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class WriteBatchContract extends OpenDatabaseContract {
    WriteBatchContract(Binding binding) {
        super(binding);
    }

    private static byte[] uint64(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    @Test
    void everyKindOfOperationIsApplied() {
        for (String key : new String[] {"gone", "single", "range-1", "range-2", "after-range"}) {
            db.put(bytes(key), bytes("old"));
        }
        try (WriteBatch batch = new WriteBatch(); Arena arena = Arena.ofConfined()) {
            batch.put(bytes("array"), bytes("1"))
                    .put(ByteBuffer.wrap(bytes("buffer")), ByteBuffer.allocateDirect(1).put((byte) '2').flip())
                    .put(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("segment")), MemorySegment.ofArray(bytes("3")))
                    .delete(bytes("gone"))
                    .singleDelete(bytes("single"))
                    .deleteRange(bytes("range-"), bytes("range-~"));
            assertEquals(6, batch.count());
            db.write(batch);
        }
        assertArrayEquals(bytes("1"), db.get(bytes("array")));
        assertArrayEquals(bytes("2"), db.get(bytes("buffer")));
        assertArrayEquals(bytes("3"), db.get(bytes("segment")));
        assertNull(db.get(bytes("gone")));
        assertNull(db.get(bytes("single")));
        assertNull(db.get(bytes("range-1")));
        assertNull(db.get(bytes("range-2")));
        assertArrayEquals(bytes("old"), db.get(bytes("after-range")));
    }

    @Test
    void largeBatchesGrowAndLaterOperationsWin() {
        try (WriteBatch batch = new WriteBatch(16)) {
            for (int i = 0; i < 10_000; i++) {
                batch.put(bytes("key-" + (i % 100)), bytes("value-" + i));
            }
            batch.put(bytes("big"), new byte[1 << 20]);
            db.write(batch);
        }
        assertArrayEquals(bytes("value-9999"), db.get(bytes("key-99")));
        assertEquals(1 << 20, db.get(bytes("big")).length);
    }

    @Test
    void aBatchIsAllOrNothingAcrossAReopen() {
        try (WriteBatch batch = new WriteBatch()) {
            for (int i = 0; i < 1000; i++) {
                batch.put(bytes("k" + i), bytes("v" + i));
            }
            db.write(batch, WriteOptions.DEFAULT.sync(true));
        }
        db.close();
        db = open(dir.resolve("db"), DbOptions.create());
        for (int i = 0; i < 1000; i++) {
            assertArrayEquals(bytes("v" + i), db.get(bytes("k" + i)));
        }
    }

    @Test
    void aRefusedBatchAppliesNothing() {
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(bytes("first"), bytes("1")).merge(bytes("counter"), uint64(1)).put(bytes("last"), bytes("2"));
            var e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.write(batch));
            assertTrue(e.getMessage().contains("no merge operator"), e.getMessage());
        }
        assertNull(db.get(bytes("first")));
        assertNull(db.get(bytes("last")));
    }

    @Test
    void syncWithoutTheLogIsRejected() {
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(bytes("k"), bytes("v"));
            assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> db.write(batch, WriteOptions.DEFAULT.sync(true).disableWal(true)));
            db.write(batch, WriteOptions.DEFAULT.disableWal(true).noSlowdown(true));
        }
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
    }

    @Test
    void mergeUsesTheConfiguredOperator() {
        db.close();
        db = open(dir.resolve("merging"), DbOptions.create().createIfMissing(true).mergeOperator("uint64add"));
        try (WriteBatch batch = new WriteBatch()) {
            batch.merge(bytes("counter"), uint64(40)).merge(bytes("counter"), uint64(2));
            db.write(batch);
        }
        assertArrayEquals(uint64(42), db.get(bytes("counter")));
    }

    @Test
    void anUnknownMergeOperatorFailsTheOpen() {
        var e = assertThrows(RocksDbException.InvalidArgumentException.class,
                () -> open(dir.resolve("other"), DbOptions.create().createIfMissing(true).mergeOperator("nope")));
        assertTrue(e.getMessage().contains("unknown merge operator \"nope\""), e.getMessage());
    }

    @Test
    void writingAClosedBatchOrToAClosedDatabaseThrows() {
        WriteBatch batch = new WriteBatch().put(bytes("k"), bytes("v"));
        batch.close();
        batch.close();
        assertThrows(IllegalStateException.class, () -> db.write(batch));
        assertThrows(IllegalStateException.class, () -> batch.put(bytes("k"), bytes("v")));
        try (WriteBatch open = new WriteBatch().put(bytes("k"), bytes("v"))) {
            db.close();
            var e = assertThrows(IllegalStateException.class, () -> db.write(open));
            assertTrue(e.getMessage().endsWith("is closed"), e.getMessage());
        }
    }
}
