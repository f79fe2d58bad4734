package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Part of the contract every binding must pass; see {@link BindingContract}. */
abstract class MultiGetContract extends OpenDatabaseContract {
    @Test
    void valuesComeBackInKeyOrderWithNullForAbsentKeys() {
        db.put(bytes("a"), bytes("1"));
        db.put(bytes("c"), bytes("3"));
        db.put(bytes("empty"), new byte[0]);
        List<byte[]> values = db.multiGet(List.of(bytes("c"), bytes("b"), bytes("a"), bytes("empty"), bytes("a")));
        assertEquals(5, values.size());
        assertArrayEquals(bytes("3"), values.get(0));
        assertNull(values.get(1));
        assertArrayEquals(bytes("1"), values.get(2));
        assertArrayEquals(new byte[0], values.get(3));
        assertArrayEquals(bytes("1"), values.get(4));
    }

    @Test
    void valuesLargerThanOneCallsBufferAreReadWhole() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            byte[] value = new byte[10_000 + i];
            Arrays.fill(value, (byte) i);
            db.put(bytes("k" + i), value);
            keys.add(bytes("k" + i));
        }
        db.flush();
        List<byte[]> values = db.multiGet(keys);
        for (int i = 0; i < 20; i++) {
            assertEquals(10_000 + i, values.get(i).length);
            assertEquals((byte) i, values.get(i)[9_999]);
        }
    }

    @Test
    void noKeysGiveNoValuesAndNullKeysAreRejected() {
        assertEquals(List.of(), db.multiGet(List.of()));
        assertThrows(NullPointerException.class, () -> db.multiGet(null));
        assertThrows(NullPointerException.class, () -> db.multiGet(Arrays.asList(bytes("a"), null)));
    }
}
