package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * The one check of every string pinrock hands to native code (column family
 * names, property names, merge operator names, paths), which takes it as
 * NUL-terminated UTF-8: a NUL would end it early (another name reaches
 * RocksDB), and an unpaired surrogate has no UTF-8 form (the JDK's encoder
 * puts '?' in its place, so two names would reach one family).
 */
public final class NativeStrings {
    private NativeStrings() {
    }

    /**
     * Checks that string reaches native code as it is.
     *
     * @param string the string
     * @param parameter what it is, for the exception's message
     * @return string
     * @throws IllegalArgumentException when string contains a NUL character or an unpaired
     *     surrogate (is not well-formed UTF-16)
     */
    public static String require(String string, String parameter) {
        for (int i = 0; i < string.length(); i++) {
            char c = string.charAt(i);
            if (c == '\0') {
                throw new IllegalArgumentException(parameter + " contains a NUL character at index " + i
                        + ", which would end it in native code: " + string.replace("\0", "\\0"));
            }
            if (Character.isHighSurrogate(c) && i + 1 < string.length()
                    && Character.isLowSurrogate(string.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(parameter + " has an unpaired surrogate at index " + i
                        + ": it is not well-formed UTF-16 and has no UTF-8 form");
            }
        }
        return string;
    }

    /**
     * Copies a checked string into arena as NUL-terminated UTF-8.
     *
     * @param arena where the copy goes
     * @param string the string
     * @param parameter what it is, for the exception's message
     * @return the copy
     * @throws IllegalArgumentException as {@link #require(String, String)}
     */
    public static MemorySegment allocate(Arena arena, String string, String parameter) {
        return arena.allocateFrom(require(string, parameter), StandardCharsets.UTF_8);
    }
}
