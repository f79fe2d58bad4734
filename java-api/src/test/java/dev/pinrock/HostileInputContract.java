package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.pinrock.internal.Binding;

/**
 * Part of the contract, run once per binding; see {@link BindingContract}.
 * Input that RocksDB would crash on, or would parse or apply only after
 * logging it: each is refused (or answered as unknown) and changes nothing.
 */
@ParameterizedClass(name = "[{0}]")
@EnumSource(Binding.class)
class HostileInputContract extends OpenDatabaseContract {
    HostileInputContract(Binding binding) {
        super(binding);
    }

    private void reopen(DbOptions options) {
        db.close();
        db = open(dir.resolve("db"), options);
    }

    @Test
    void propertyNamesWithAnOutOfRangeLevelAreUnknown() {
        assertNotNull(db.property("rocksdb.num-files-at-level0"));
        assertTrue(db.propertyLong("rocksdb.estimate-num-keys").isPresent());
        for (String name : List.of("rocksdb.num-files-at-level2147483648",
                "rocksdb.num-files-at-level4294967295", "rocksdb.compression-ratio-at-level-1",
                "rocksdb.aggregated-table-properties-at-level99999999999999999999",
                "rocksdb.num-files-at-level 1", "rocksdb.estimate-num-keys2147483648", "")) {
            assertNull(db.property(name), name);
            assertEquals(OptionalLong.empty(), db.propertyLong(name), name);
        }
    }

    @Test
    void aBackwardRangeRefusesTheWholeBatchAndLaterWritesWork() {
        db.put(bytes("k"), bytes("before"));
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(bytes("a"), bytes("1")).deleteRange(bytes("z"), bytes("b")).put(bytes("k"), bytes("2"));
            var e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.write(batch));
            assertTrue(e.getMessage().contains("end key comes before"), e.getMessage());
        }
        assertNull(db.get(bytes("a")));
        db.put(bytes("later"), bytes("works"));
        reopen(DbOptions.create());
        assertNull(db.get(bytes("a")));
        assertArrayEquals(bytes("before"), db.get(bytes("k")));
        assertArrayEquals(bytes("works"), db.get(bytes("later")));
    }

    @Test
    void onlySafeBuiltInMergeOperatorsAreOffered() {
        db.close();
        for (String name : List.of("sortlist", "stringappendtest", "put_v1", "MergeSortOperator",
                "id=stringappend", "{id=uint64add}", "uint64add ", "")) {
            var e = assertThrows(RocksDbException.InvalidArgumentException.class,
                    () -> open(dir.resolve("db"), DbOptions.create().mergeOperator(name)), name);
            assertTrue(e.getMessage().contains("uint64add, stringappend, max, put, bytesxor"), e.getMessage());
        }
        for (String name : List.of("uint64add", "stringappend", "max", "put", "bytesxor")) {
            // A database of its own each: one written with an operator must be reopened with it.
            open(dir.resolve("db-" + name), DbOptions.create().createIfMissing(true).mergeOperator(name)).close();
        }
        db = open(dir.resolve("db"), DbOptions.create());
    }

    @Test
    void uint64addRefusesAnOperandThatIsNotEightBytes() {
        reopen(DbOptions.create().mergeOperator("uint64add"));
        byte[] one = {1, 0, 0, 0, 0, 0, 0, 0};
        try (WriteBatch batch = new WriteBatch()) {
            batch.merge(bytes("n"), one).merge(bytes("n"), new byte[] {1, 0, 0, 0});
            var e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.write(batch));
            assertTrue(e.getMessage().contains("8 bytes"), e.getMessage());
        }
        assertNull(db.get(bytes("n")), "nothing applied");
        try (WriteBatch batch = new WriteBatch()) {
            db.write(batch.merge(bytes("n"), one).merge(bytes("n"), one));
        }
        db.flush();
        assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 0, 0, 0}, db.get(bytes("n")));
    }

    @Test
    void aMisusedSingleDeleteLeavesTheDatabaseWorking() {
        db.put(bytes("a"), bytes("before"));
        db.put(bytes("k"), bytes("v"));
        db.delete(bytes("k"));
        try (WriteBatch batch = new WriteBatch()) {
            db.write(batch.singleDelete(bytes("k")));
        }
        db.put(bytes("z"), bytes("after"));
        db.flush();
        db.compactRange();
        db.put(bytes("later"), bytes("works"));
        reopen(DbOptions.create());
        assertArrayEquals(bytes("before"), db.get(bytes("a")));
        assertArrayEquals(bytes("after"), db.get(bytes("z")));
        assertArrayEquals(bytes("works"), db.get(bytes("later")));
    }

    private Path table(String name, String... keysAndValues) {
        Path file = dir.resolve(name);
        try (SstFileWriter writer = SstFileWriter.open(file, DbOptions.create())) {
            for (int i = 0; i < keysAndValues.length; i += 2) {
                writer.put(bytes(keysAndValues[i]), bytes(keysAndValues[i + 1]));
            }
            writer.finish();
        }
        return file;
    }

    @Test
    void ingestingNoFileIsRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> db.ingest(List.of(), false));
        assertTrue(e.getMessage().contains("no file"), e.getMessage());
        db.put(bytes("k"), bytes("v"));
        assertArrayEquals(bytes("v"), db.get(bytes("k")));
    }

    @Test
    void overlappingFilesAreIngestedAndTheLaterOneWins() {
        db.put(bytes("b"), bytes("own"));
        Path first = table("first.sst", "a", "first", "b", "first", "c", "first");
        Path second = table("second.sst", "b", "second", "d", "second");
        db.ingest(List.of(first, second), false);
        assertArrayEquals(bytes("first"), db.get(bytes("a")));
        assertArrayEquals(bytes("second"), db.get(bytes("b")));
        assertArrayEquals(bytes("first"), db.get(bytes("c")));
        assertArrayEquals(bytes("second"), db.get(bytes("d")));
        Path third = table("third.sst", "b", "third");
        db.ingest(List.of(third, first), false);
        assertArrayEquals(bytes("first"), db.get(bytes("b")), "the later file in the list wins");
    }

    @Test
    void keysAreBoundedAtEightMebibytesByEveryPath() {
        byte[] longest = new byte[8 << 20];
        byte[] tooLong = new byte[(8 << 20) + 1];
        longest[0] = 'L';
        db.put(longest, bytes("put"));
        db.flush();
        assertArrayEquals(bytes("put"), db.get(longest));
        var e = assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.put(tooLong, bytes("v")));
        assertTrue(e.getMessage().contains("exceeds the limit of 8388608 bytes"), e.getMessage());
        assertThrows(RocksDbException.InvalidArgumentException.class, () -> db.get(tooLong));
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(longest, bytes("batch"));
            var refused = assertThrows(IllegalArgumentException.class, () -> batch.put(tooLong, bytes("v")));
            assertTrue(refused.getMessage().contains("exceeds the limit of 8388608 bytes"), refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> batch.deleteRange(bytes("a"), tooLong));
            assertEquals(1, batch.count());
            db.write(batch);
        }
        assertArrayEquals(bytes("batch"), db.get(longest));
    }
}
