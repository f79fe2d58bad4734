package dev.pinrock;

import java.lang.foreign.MemorySegment;

/**
 * A compaction filter written in Java: what RocksDB asks, in a compaction,
 * about each entry it rewrites, to keep it, remove it, change its value, or
 * remove it with the entries up to a key. Made per compaction by a
 * {@link CompactionFilterFactory}, given to a database or a family with
 * {@link DbOptions#compactionFilter(CompactionFilterFactory)}.
 *
 * <p><b>Who calls it.</b> RocksDB calls a filter on one of its background
 * threads, one entry at a time (each compaction, or part of one, has its
 * own filter, so a filter needs no locking of its own; the factory is
 * called on several threads at once). A filter runs inside the compaction:
 * one that blocks holds it up, and {@code close()} of the database waits
 * for it. Flushes are not filtered: an entry is
 * first asked about when a compaction rewrites it. A filter must not call
 * pinrock itself: a call into any database from inside a filter is refused
 * with {@link IllegalStateException} (RocksDB may hold locks the call needs).
 *
 * <p><b>Memory.</b> The key and the value are read-only views of RocksDB's
 * memory, and {@link Decision#allocateValue(long)} returns the buffer RocksDB
 * writes: nothing is copied on the way in. All of them are valid only during
 * the call and on its thread: any access from another thread throws
 * {@link WrongThreadException}, and one after the call
 * {@link IllegalStateException}.
 *
 * <p><b>What a decision does.</b> RocksDB 9.10 filters regardless of
 * snapshots: an entry removed or changed disappears from every
 * {@link Snapshot} and {@link Cursor} opened before, once the compaction
 * ends. Removing a value writes a deletion in its place, hiding the key's
 * older values; removing a merge operand drops it alone (in a transactional
 * database, removing operands can let a transaction that should have met a
 * conflict commit: RocksDB's advice is to filter inside the merge operator
 * instead). {@link Decision#removeUntil} drops entries without deletions, so
 * an older value of such a key, in a table file the compaction does not
 * read, shows again: use it where every key of the range was written once.
 *
 * <p><b>Failure.</b> A filter that throws anything (an {@link Error}
 * included) keeps the entry, as if it had decided nothing, and the factory's
 * {@link CompactionFilterFactory#failed(Throwable)} is told: a failing
 * filter never loses an entry and never stops the compaction.
 */
@FunctionalInterface
public interface CompactionFilter {
    /**
     * Decides about one entry: nothing (the entry is kept), or one call on
     * decision.
     *
     * @param key the entry's key, read-only, valid during the call
     * @param kind whether the entry is a value or a merge operand
     * @param value the value or operand, read-only, valid during the call
     * @param decision where the filter says what becomes of the entry
     */
    void filter(MemorySegment key, EntryKind kind, MemorySegment value, Decision decision);

    /** What an entry a filter is asked about is. */
    enum EntryKind {
        /** A value written with {@code put}. */
        VALUE,
        /** An operand written with {@code merge}, not yet merged. */
        MERGE_OPERAND
    }

    /**
     * The compaction a filter is made for.
     *
     * @param fullCompaction whether the compaction takes every table file of the family
     * @param manualCompaction whether a caller asked for it ({@link Keyspace#compactRange})
     * @param inputStartLevel the lowest level the compaction reads
     */
    record Context(boolean fullCompaction, boolean manualCompaction, int inputStartLevel) {
    }

    /**
     * What becomes of the entry a filter is asked about: at most one call
     * per entry (a second throws {@link IllegalStateException}); none keeps
     * it. Valid only during the call and on its thread.
     */
    interface Decision {
        /** Removes the entry: a value becomes a deletion, a merge operand is dropped. */
        void remove();

        /**
         * Changes the entry's value (a merge operand stays an operand) to a copy of value.
         *
         * @param value the new value
         */
        void changeValue(byte[] value);

        /**
         * Changes the entry's value to a copy of value (which may be the entry's own).
         *
         * @param value the new value
         */
        void changeValue(MemorySegment value);

        /**
         * Changes the entry's value to bytes written into the returned
         * segment: RocksDB's own buffer, valid during the call.
         *
         * @param bytes the new value's length
         * @return the new value's bytes (their content is unspecified until written)
         * @throws IllegalArgumentException when bytes is negative or above 2^32 - 1 (RocksDB's
         *     longest value)
         * @throws OutOfMemoryError when native memory is exhausted
         */
        MemorySegment allocateValue(long bytes);

        /**
         * Removes the entry and every entry of the compaction after it, up
         * to and not including end, without deletions (see the caveat in
         * {@link CompactionFilter}). An end not after the entry's key keeps
         * the entry.
         *
         * @param end the first key kept
         */
        void removeUntil(byte[] end);

        /**
         * Removes the entry and every entry of the compaction up to, not
         * including, end, as {@link #removeUntil(byte[])} does.
         *
         * @param end the first key kept
         */
        void removeUntil(MemorySegment end);
    }
}
