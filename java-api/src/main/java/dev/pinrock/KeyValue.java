package dev.pinrock;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A key and its value, copied out of the database (from {@link Cursor#stream()}
 * and {@link Cursor#iterator()}). The arrays belong to the caller, and
 * are not copied again: the record is as thread-safe as the caller's use
 * of them. Two entries are equal when their bytes are.
 *
 * @param key the key
 * @param value the value
 */
public record KeyValue(byte[] key, byte[] value) {
    /**
     * Creates an entry over the given arrays.
     *
     * @param key the key, not copied
     * @param value the value, not copied
     */
    public KeyValue {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof KeyValue that && Arrays.equals(key, that.key) && Arrays.equals(value, that.value);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    /**
     * Returns the key and value in hexadecimal.
     *
     * @return the key and value in hexadecimal
     */
    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "KeyValue[" + hex.formatHex(key) + "=" + hex.formatHex(value) + "]";
    }
}
