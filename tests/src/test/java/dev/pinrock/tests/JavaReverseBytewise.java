package dev.pinrock.tests;

import java.lang.foreign.MemorySegment;

import dev.pinrock.KeyComparator;

/**
 * RocksDB's reverse bytewise order written in Java: keys ordered as
 * {@link KeyComparator#REVERSE_BYTEWISE} orders them, through an FFM upcall
 * per comparison. Stateless; one instance serves every database.
 */
final class JavaReverseBytewise extends KeyComparator {
    static final JavaReverseBytewise INSTANCE = new JavaReverseBytewise();

    private JavaReverseBytewise() {
        super("tests.JavaReverseBytewise");
    }

    @Override
    public int compare(MemorySegment a, MemorySegment b) {
        return KeyComparator.BYTEWISE.compare(b, a);
    }
}
