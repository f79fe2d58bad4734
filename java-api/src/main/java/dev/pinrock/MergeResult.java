package dev.pinrock;

import java.lang.foreign.MemorySegment;

/**
 * Where a {@link MergeOperator} writes a merge's result, once per call:
 * into RocksDB's own result buffer ({@link #allocate(long)}, or a copy with
 * {@link #set(byte[])} / {@link #set(MemorySegment)}), or by naming one of
 * the merge's inputs as the result. A second write in the same call throws
 * {@link IllegalStateException}. Valid only during the call and on its
 * thread.
 */
public interface MergeResult {
    /**
     * Makes the result bytes long and returns it to be written: RocksDB's
     * result buffer itself, valid during the call.
     *
     * @param bytes the result's length
     * @return the result's bytes (their content is unspecified until written)
     * @throws IllegalArgumentException when bytes is negative or above 2^32 - 1 (RocksDB's
     *     longest value)
     * @throws IllegalStateException when the result was already written in this call
     * @throws OutOfMemoryError when native memory is exhausted
     */
    MemorySegment allocate(long bytes);

    /**
     * Makes the result a copy of value.
     *
     * @param value the result
     * @throws IllegalStateException when the result was already written in this call
     */
    void set(byte[] value);

    /**
     * Makes the result a copy of value (which may be one of the merge's inputs).
     *
     * @param value the result
     * @throws IllegalStateException when the result was already written in this call
     */
    void set(MemorySegment value);

    /**
     * Makes the result the existing value, without a copy (full merges only).
     *
     * @throws IllegalStateException when there is no existing value, in a partial merge, or when
     *     the result was already written in this call
     */
    void useExisting();

    /**
     * Makes the result one of the operands, without a copy (full merges only).
     *
     * @param index the operand's index in the operands list
     * @throws IndexOutOfBoundsException when there is no such operand
     * @throws IllegalStateException in a partial merge, or when the result was already written
     *     in this call
     */
    void useOperand(int index);
}
