package dev.pinrock;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A merge operator written in Java: what RocksDB calls to combine the
 * operands written with {@code merge} ({@link KeyedCalls#merge(byte[], byte[])},
 * {@link WriteBatch#merge(byte[], byte[])}, in transactions and batches with
 * index alike) with the value beneath them. Given to a database or a family
 * with {@link DbOptions#mergeOperator(MergeOperator)}.
 *
 * <p><b>Who calls it.</b> RocksDB calls {@link #fullMerge} in reads (on the
 * reading thread) and in flushes and compactions (on its own background
 * threads), often on several threads at once: an operator is thread-safe,
 * and it should be quick and allocate little, as it runs inside those
 * reads and background jobs. It must not call pinrock itself: a call into
 * any database from inside a merge is refused with
 * {@link IllegalStateException} (RocksDB may hold locks the call needs).
 *
 * <p><b>Memory.</b> The key, the existing value and the operands are
 * read-only views of RocksDB's memory, and {@link MergeResult#allocate(long)}
 * returns RocksDB's own result buffer: nothing is copied on the way in or
 * out. All of them are valid only during the call and on its thread;
 * afterwards any access throws {@link IllegalStateException} (a kept view
 * cannot read freed memory).
 *
 * <p><b>Failure.</b> Returning false, or throwing anything (an
 * {@link Error} included), fails the merge: the reads of that key throw
 * {@link RocksDbException.MergeFailedException}, whose cause is what was
 * thrown, while flushes and compactions keep the operands unmerged, so
 * nothing is lost and the database stays writable (RocksDB's
 * {@code OpFailureScope::kMustMerge}); a fixed operator of the same name
 * merges them later.
 *
 * <p><b>Name.</b> RocksDB records {@link #name()} in the database's
 * OPTIONS file: a database whose family merged with an operator opens only
 * with an operator of the same name (InvalidArgumentException otherwise,
 * before anything is read). Names are 1 to 255 letters, digits and
 * {@code . _ - $}, and not one of RocksDB's built-in operators'.
 *
 * <p>The operator object is held for as long as RocksDB may call it: until
 * every database and family opened with it is closed (or dropped). Once a
 * merge has run, the JVM's exit ends the process without waiting for
 * RocksDB's background work, as a kill would (nothing acknowledged is
 * lost): close databases first to let it finish.
 */
public interface MergeOperator {
    /**
     * Returns the operator's name, the same on every call.
     *
     * @return the name RocksDB records
     */
    String name();

    /**
     * Merges operands onto the key's existing value into one value, written
     * to result (a merge that writes none results in an empty value).
     *
     * @param key the key, read-only, valid during the call
     * @param existingValue the value beneath the operands, read-only, or null when the key has
     *     none (an empty value is an empty segment)
     * @param operands the operands, oldest first (at least one), read-only, valid during the call
     * @param result where the merged value goes
     * @return true when merged; false fails the merge
     */
    boolean fullMerge(MemorySegment key, MemorySegment existingValue, List<MemorySegment> operands,
            MergeResult result);

    /**
     * Merges two operands into one, where the result does not depend on the
     * value beneath them: RocksDB calls it in compactions to shorten a stack
     * of operands. An operator that does not override it is never called for
     * it. Returning false (or throwing) keeps both operands, to be merged in
     * full later: it is how a partial merge declines, and no failure.
     *
     * @param key the key, read-only, valid during the call
     * @param left the older operand, read-only, valid during the call
     * @param right the newer operand, read-only, valid during the call
     * @param result where the merged operand goes ({@link MergeResult#useExisting()} and
     *     {@link MergeResult#useOperand(int)} throw here)
     * @return true when merged
     */
    default boolean partialMerge(MemorySegment key, MemorySegment left, MemorySegment right, MergeResult result) {
        return false;
    }
}
