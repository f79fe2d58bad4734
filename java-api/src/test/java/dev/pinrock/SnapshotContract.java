package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.internal.Binding;

/** Part of the contract, run once per binding; see {@link BindingContract}. */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class SnapshotContract extends OpenDatabaseContract {
    SnapshotContract(Binding binding) {
        super(binding);
    }

    @Test
    void aSnapshotSeesTheDatabaseAsItWas() {
        db.put(bytes("k"), bytes("old"));
        db.put(bytes("deleted"), bytes("here"));
        try (Snapshot snapshot = db.snapshot()) {
            db.put(bytes("k"), bytes("new"));
            db.delete(bytes("deleted"));
            db.put(bytes("later"), bytes("x"));
            db.flush();
            ReadOptions then = ReadOptions.DEFAULT.snapshot(snapshot);
            assertArrayEquals(bytes("old"), db.get(then, bytes("k")));
            assertArrayEquals(bytes("here"), db.get(then, bytes("deleted")));
            assertNull(db.get(then, bytes("later")));
            byte[] dst = new byte[8];
            assertEquals(3, db.get(then, bytes("k"), dst));
            assertEquals(RocksDb.NOT_FOUND, db.get(then, bytes("later"), dst));
            assertArrayEquals(bytes("new"), db.get(ReadOptions.DEFAULT, bytes("k")));
        }
    }

    @Test
    void aClosedSnapshotCannotBeReadThrough() {
        Snapshot snapshot = db.snapshot();
        snapshot.close();
        snapshot.close();
        assertFalse(snapshot.isOpen());
        var e = assertThrows(IllegalStateException.class,
                () -> db.get(ReadOptions.DEFAULT.snapshot(snapshot), bytes("k")));
        assertEquals("Snapshot is closed", e.getMessage());
    }

    @Test
    void closingTheDatabaseReleasesItsSnapshots() {
        Snapshot snapshot = db.snapshot();
        db.put(bytes("k"), bytes("v"));
        db.close();
        assertFalse(snapshot.isOpen());
        snapshot.close();
        assertThrows(IllegalStateException.class, () -> db.get(ReadOptions.DEFAULT.snapshot(snapshot), bytes("k")));
        // The database closed cleanly and reopens.
        db = open(dir.resolve("db"), DbOptions.create());
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
    }

    @Test
    void aSnapshotOfAnotherDatabaseIsRejected() {
        try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true));
                Snapshot foreign = other.snapshot()) {
            assertThrows(IllegalArgumentException.class,
                    () -> db.get(ReadOptions.DEFAULT.snapshot(foreign), bytes("k")));
        }
    }

    @Test
    void memoryOnlyReadsReportIncompleteInsteadOfReadingFiles() {
        db.put(bytes("k"), bytes("v"));
        db.flush();
        db.close();
        db = open(dir.resolve("db"), DbOptions.create());
        ReadOptions memoryOnly = ReadOptions.DEFAULT.memoryOnly(true);
        var e = assertThrows(RocksDbException.class, () -> db.get(memoryOnly, bytes("k")));
        assertEquals(StatusCode.INCOMPLETE, e.code());
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
        assertArrayEquals(bytes("v"), db.get(memoryOnly, bytes("k")));
    }

    @Test
    void readsWithoutCachingOrChecksumsStillAnswer() {
        db.put(bytes("k"), bytes("v"));
        db.flush();
        ReadOptions light = ReadOptions.DEFAULT.fillCache(false).verifyChecksums(false);
        assertArrayEquals(bytes("v"), db.get(light, bytes("k")));
        assertTrue(light.toString().contains("fillCache=false"));
    }
}
