package dev.pinrock.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Objects;

import dev.pinrock.MergeResult;

/**
 * The merges of an {@link dev.pinrock.AssociativeMergeOperator}: its one
 * function folded over a full merge's operands, each intermediate value in
 * memory of the call and the last written to the merge's result, or
 * applied once to a partial merge's two operands. In each step the
 * function's {@link MergeResult#useExisting()} names the value it was given
 * and {@link MergeResult#useOperand(int)} (index 0) the operand.
 */
public final class MergeFolds {
    private MergeFolds() {
    }

    /** An associative merge function: operand onto value (null when none). */
    @FunctionalInterface
    public interface Merge {
        boolean merge(MemorySegment key, MemorySegment value, MemorySegment operand, MergeResult result);
    }

    /**
     * Folds merge over operands onto existing (null when none), writing the
     * last step into result.
     *
     * @return false when a step returned false
     */
    public static boolean fold(MemorySegment key, MemorySegment existing, List<MemorySegment> operands,
            MergeResult result, Merge merge) {
        int last = operands.size() - 1;
        try (Arena steps = Arena.ofConfined()) {
            MemorySegment value = existing;
            for (int i = 0; i < last; i++) {
                MemorySegment operand = operands.get(i);
                Step step = new Step(null, steps, value, operand, false, -1);
                if (!merge.merge(key, value, operand, step)) {
                    return false;
                }
                value = step.written;
            }
            return merge.merge(key, value, operands.get(last),
                    new Step(result, null, value, operands.get(last), value == existing, last));
        }
    }

    /** Applies merge to a partial merge's operands, writing into result. */
    public static boolean partial(MemorySegment key, MemorySegment left, MemorySegment right, MergeResult result,
            Merge merge) {
        return merge.merge(key, left, right, new Step(result, null, left, right, false, -1));
    }

    /**
     * One step's result: written into the merge's own result (target), or,
     * for an intermediate step, into memory of the fold (steps).
     */
    private static final class Step implements MergeResult {
        private final MergeResult target;
        private final Arena steps;
        private final MemorySegment value;
        private final MemorySegment operand;
        /** Whether value is the full merge's existing value, which target can use without a copy. */
        private final boolean valueIsExisting;
        /** The operand's index in the full merge that target belongs to, or -1. */
        private final int operandIndex;
        /** An intermediate step's value: empty until written. */
        private MemorySegment written = MemorySegment.NULL.reinterpret(0);
        private boolean done;

        Step(MergeResult target, Arena steps, MemorySegment value, MemorySegment operand, boolean valueIsExisting,
                int operandIndex) {
            this.target = target;
            this.steps = steps;
            this.value = value;
            this.operand = operand;
            this.valueIsExisting = valueIsExisting;
            this.operandIndex = operandIndex;
        }

        private void writeOnce() {
            if (done) {
                throw new IllegalStateException("a merge writes its result once");
            }
            done = true;
        }

        @Override
        public MemorySegment allocate(long bytes) {
            if (target != null) {
                return target.allocate(bytes);
            }
            if (bytes < 0) {
                throw new IllegalArgumentException("a merge result of " + bytes + " bytes");
            }
            writeOnce();
            written = steps.allocate(bytes);
            return written;
        }

        @Override
        public void set(byte[] bytes) {
            MemorySegment.copy(bytes, 0, allocate(bytes.length), ValueLayout.JAVA_BYTE, 0, bytes.length);
        }

        @Override
        public void set(MemorySegment bytes) {
            allocate(bytes.byteSize()).copyFrom(bytes);
        }

        @Override
        public void useExisting() {
            if (value == null) {
                throw new IllegalStateException("the key has no existing value");
            }
            if (target == null) {
                writeOnce();
                written = value;
            } else if (valueIsExisting) {
                target.useExisting();
            } else {
                target.set(value);
            }
        }

        @Override
        public void useOperand(int index) {
            Objects.checkIndex(index, 1);
            if (target == null) {
                writeOnce();
                written = operand;
            } else if (operandIndex >= 0) {
                target.useOperand(operandIndex);
            } else {
                target.set(operand);
            }
        }
    }
}
