package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import dev.pinrock.internal.Binding;

/** Part of the contract, run with FFM only; see {@link BindingContract}. */
class MaintenanceContract extends OpenDatabaseContract {
    MaintenanceContract() {
        super(Binding.FFM);
    }

    private void writeRounds(int rounds) {
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < 100; i++) {
                db.put(bytes("key" + i), bytes("round" + round));
            }
            db.flush();
        }
    }

    @Test
    void compactRangeMergesTheTableFilesOfLevelZero() {
        writeRounds(3);
        assertEquals("3", db.property("rocksdb.num-files-at-level0"));
        db.compactRange();
        assertEquals("0", db.property("rocksdb.num-files-at-level0"));
        db.compactRange(bytes("key1"), bytes("key5"));
        db.compactRange(null, bytes("key5"));
        db.compactRange(bytes("key5"), null);
        assertArrayEquals(bytes("round2"), db.get(bytes("key42")));
    }

    @Test
    void approximateSizeGrowsWithTheData() {
        assertEquals(0, db.approximateSize(bytes("a"), bytes("z")));
        writeRounds(1);
        long size = db.approximateSize(bytes("a"), bytes("z"));
        assertTrue(size > 0, "size " + size);
        assertEquals(0, db.approximateSize(bytes("x"), bytes("z")));
    }

    @Test
    void checkpointIsAConsistentOpenableCopy() throws Exception {
        db.put(bytes("before"), bytes("1"));
        Path copy = dir.resolve("checkpoint");
        db.checkpoint(copy);
        db.put(bytes("after"), bytes("2"));
        try (RocksDb checkpoint = open(copy, DbOptions.create())) {
            assertArrayEquals(bytes("1"), checkpoint.get(bytes("before")));
            assertEquals(null, checkpoint.get(bytes("after")));
        }
        var e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.checkpoint(copy));
        assertTrue(e.getMessage().contains("exists"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("no/parent/checkpoint")));
        assertThrows(RocksDbException.class, () -> db.checkpoint(dir.resolve("no/parent/checkpoint")));
    }

    @Test
    void integerPropertiesAnswerAndOthersAreEmpty() {
        db.put(bytes("k"), bytes("v"));
        assertEquals(OptionalLong.of(1), db.propertyLong("rocksdb.num-entries-active-mem-table"));
        assertTrue(db.propertyLong("rocksdb.cur-size-all-mem-tables").getAsLong() > 0);
        assertEquals(OptionalLong.empty(), db.propertyLong("rocksdb.stats"));
        assertEquals(OptionalLong.empty(), db.propertyLong("rocksdb.no-such-property"));
    }

    @Test
    void propertyNamesThatNativeCodeWouldChangeAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> db.property("rocksdb.stats\0ignored"));
        assertTrue(e.getMessage().startsWith("name "), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> db.propertyLong("rocksdb.num-entries-active-mem-table\0"));
        assertThrows(IllegalArgumentException.class, () -> db.property("rocksdb.\uDC00"));
    }
}
