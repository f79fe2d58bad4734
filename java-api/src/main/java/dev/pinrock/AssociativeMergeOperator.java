package dev.pinrock;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

import dev.pinrock.internal.MergeFolds;

/**
 * A {@link MergeOperator} whose one function merges an operand onto a value
 * where the grouping does not matter ({@code merge(merge(a, b), c)} equals
 * {@code merge(a, merge(b, c))}): counters, sums, maxima, list appends. A
 * full merge folds the operands onto the existing value one by one (each
 * intermediate result in scratch memory of the call, the last one written
 * to RocksDB's result), and a partial merge is the same function on two
 * operands. In each call of {@link #merge}, {@link MergeResult#useExisting()}
 * makes the result the value it was given and
 * {@link MergeResult#useOperand(int) useOperand(0)} the operand (without a
 * copy where RocksDB can take the input as it is).
 */
public abstract class AssociativeMergeOperator implements MergeOperator {
    private final String name;

    /**
     * Creates the operator.
     *
     * @param name its name (see {@link MergeOperator#name()})
     */
    protected AssociativeMergeOperator(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public final String name() {
        return name;
    }

    /**
     * Merges operand onto value.
     *
     * @param key the key, read-only, valid during the call
     * @param value the value beneath, or null when there is none; read-only, valid during the call
     * @param operand the operand, read-only, valid during the call
     * @param result where the merged value goes
     * @return true when merged; false fails the merge
     */
    protected abstract boolean merge(MemorySegment key, MemorySegment value, MemorySegment operand,
            MergeResult result);

    @Override
    public final boolean fullMerge(MemorySegment key, MemorySegment existingValue, List<MemorySegment> operands,
            MergeResult result) {
        return MergeFolds.fold(key, existingValue, operands, result, this::merge);
    }

    @Override
    public final boolean partialMerge(MemorySegment key, MemorySegment left, MemorySegment right,
            MergeResult result) {
        return MergeFolds.partial(key, left, right, result, this::merge);
    }
}
