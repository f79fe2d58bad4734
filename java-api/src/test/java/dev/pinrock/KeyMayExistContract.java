package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.internal.Binding;

/**
 * {@code keyMayExist}: answered from memory without I/O, false only for a
 * key that certainly does not exist, with the value when memory holds it.
 * Part of the contract, run once per binding; see {@link BindingContract}.
 */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class KeyMayExistContract extends OpenDatabaseContract {
    KeyMayExistContract(Binding binding) {
        super(binding);
    }

    /** What keyMayExist with a reader answered: whether the key may exist, and the value shown, if any. */
    private record Answer(boolean mayExist, byte[] value) {
    }

    private Answer ask(ReadOptions options, String key) {
        byte[][] shown = new byte[1][];
        boolean mayExist = db.keyMayExist(options, bytes(key), value -> shown[0] = value.toArray(ValueLayout.JAVA_BYTE));
        try (Arena arena = Arena.ofConfined()) {
            byte[][] shownForSegment = new byte[1][];
            MemorySegment segmentKey = arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes(key));
            assertEquals(mayExist, db.keyMayExist(options, segmentKey,
                    value -> shownForSegment[0] = value.toArray(ValueLayout.JAVA_BYTE)), "segment key " + key);
            assertArrayEquals(shown[0], shownForSegment[0], "segment key " + key);
            assertEquals(mayExist, db.keyMayExist(options, segmentKey));
        }
        assertEquals(mayExist, db.keyMayExist(options, bytes(key)));
        if (options == ReadOptions.DEFAULT) {
            assertEquals(mayExist, db.keyMayExist(bytes(key)));
            assertEquals(mayExist, db.keyMayExist(MemorySegment.ofArray(bytes(key))));
        }
        return new Answer(mayExist, shown[0]);
    }

    private Answer ask(String key) {
        return ask(ReadOptions.DEFAULT, key);
    }

    private void reopenCold(DbOptions options) {
        db.flush();
        db.close();
        db = open(dir.resolve("db"), options);
    }

    @Test
    void aKeyInTheMemtableExistsWithItsValueAndAnAbsentOneDoesNot() {
        assertFalse(ask("k").mayExist());
        db.put(bytes("k"), bytes("value"));
        db.put(bytes("empty"), new byte[0]);
        Answer found = ask("k");
        assertTrue(found.mayExist());
        assertArrayEquals(bytes("value"), found.value());
        assertArrayEquals(new byte[0], ask("empty").value());
        db.delete(bytes("k"));
        assertFalse(ask("k").mayExist(), "a deleted key");
    }

    @Test
    void aKeyWhoseBlockIsNotInMemoryMayExistWithoutItsValueUntilAGetReadsIt() {
        for (int i = 0; i < 100; i++) {
            db.put(bytes("k" + i * 2), bytes("v" + i));
        }
        reopenCold(DbOptions.create());
        Answer cold = ask("k10");
        assertTrue(cold.mayExist());
        assertNull(cold.value(), "a value shown that memory did not hold");
        // No filter: an absent key within the file's range needs its block too.
        assertTrue(ask("k11").mayExist());
        // Outside every file's key range: certainly absent.
        assertFalse(ask("z").mayExist());
        assertArrayEquals(bytes("v5"), db.get(bytes("k10")));
        assertArrayEquals(bytes("v5"), ask("k10").value());
    }

    @Test
    void aBloomFilterTellsAbsentKeysWithoutTheirBlocks() {
        db.close();
        db = open(dir.resolve("db"), DbOptions.create().bloomFilter(10));
        for (int i = 0; i < 1000; i++) {
            db.put(bytes("k" + i * 2), bytes("v"));
        }
        reopenCold(DbOptions.create().bloomFilter(10));
        int certainlyAbsent = 0;
        for (int i = 0; i < 1000; i++) {
            if (!ask("k" + (i * 2 + 1)).mayExist()) {
                certainlyAbsent++;
            }
            assertTrue(ask("k" + i * 2).mayExist(), "a key that exists was said not to");
        }
        // 10 bits per key: about 1 % false positives.
        assertTrue(certainlyAbsent > 950, certainlyAbsent + " of 1000 absent keys told apart");
    }

    @Test
    void aSnapshotAnswersAsOfItsState() {
        db.put(bytes("k"), bytes("then"));
        try (Snapshot snapshot = db.snapshot()) {
            db.delete(bytes("k"));
            db.put(bytes("later"), bytes("x"));
            ReadOptions then = ReadOptions.DEFAULT.snapshot(snapshot);
            assertArrayEquals(bytes("then"), ask(then, "k").value());
            assertFalse(ask(then, "later").mayExist());
            assertFalse(ask("k").mayExist());
        }
    }

    @Test
    void misuseIsRefusedAndAThrowingReaderReleasesThePin() {
        db.put(bytes("k"), bytes("v"));
        RuntimeException thrown = new RuntimeException("reader failed");
        assertSame(thrown, assertThrows(RuntimeException.class,
                () -> db.keyMayExist(ReadOptions.DEFAULT, bytes("k"), value -> {
                    throw thrown;
                })));
        // The reader may call the database again.
        assertTrue(db.keyMayExist(ReadOptions.DEFAULT, bytes("k"), value -> db.put(MemorySegment.ofArray(bytes("copy")), value)));
        assertArrayEquals(bytes("v"), db.get(bytes("copy")));
        try (RocksDb other = open(dir.resolve("other"), DbOptions.create().createIfMissing(true));
                Snapshot foreign = other.snapshot()) {
            assertThrows(IllegalArgumentException.class,
                    () -> db.keyMayExist(ReadOptions.DEFAULT.snapshot(foreign), bytes("k")));
        }
        Arena arena = Arena.ofConfined();
        MemorySegment closedKey = arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("k"));
        arena.close();
        assertThrows(IllegalStateException.class, () -> db.keyMayExist(closedKey));
        assertThrows(NullPointerException.class, () -> db.keyMayExist((byte[]) null));
        db.close();
        assertThrows(IllegalStateException.class, () -> db.keyMayExist(bytes("k")));
        // Nothing stayed pinned or held: the database reopens.
        db = open(dir.resolve("db"), DbOptions.create());
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
    }
}
