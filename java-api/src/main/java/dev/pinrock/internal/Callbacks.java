package dev.pinrock.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.AbstractList;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.pinrock.MergeOperator;
import dev.pinrock.MergeResult;

/**
 * The seam between RocksDB's calls back into Java and the Java objects that
 * answer them, mirroring {@link Downcalls}: the only class that makes upcall
 * stubs ({@link Linker#upcallStub}), and the section "callbacks" of
 * pinrock.h on the Java side.
 *
 * <p><b>Stubs.</b> One stub per function of the C ABI, made once for the
 * life of the JVM (in the global arena), so no stub is ever freed while
 * RocksDB may call it. (jextract also generated classes for the function
 * pointer types, whose {@code allocate} methods make stubs: pinrock never
 * calls them.) The state each callback carries is a number that names its
 * Java object in {@link #LIVE}, which holds the object strongly until the
 * shim hands the state out as released (pinrock.h's rule C1): RocksDB can
 * no longer call it then. An object collected while RocksDB can call it is
 * so impossible by construction.
 *
 * <p><b>Nothing escapes.</b> Every upcall catches every {@link Throwable}
 * ({@link StackOverflowError} and {@link OutOfMemoryError} included) and
 * returns a failure status: an exception reaching native code would end the
 * JVM. The views it hands the Java object belong to an arena confined to the
 * call, closed when it returns, so a view kept past the call throws instead
 * of reading freed memory.
 *
 * <p><b>No re-entry.</b> While a thread runs a callback, every pinrock call
 * on it that holds a {@link ResourceGuard} is refused ({@link #refuseReentry()}):
 * RocksDB may hold locks such a call needs (pinrock.h's rule C4).
 */
public final class Callbacks {
    /** The Java objects RocksDB may call, by the state their native peers carry. */
    private static final Map<Long, Object> LIVE = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_STATE = new AtomicLong();
    /** Callbacks running on any thread: while 0, no thread needs its own count read. */
    private static volatile int running;
    private static final VarHandle RUNNING;
    /** Callbacks running on this thread (more than one when a callback's read merges). */
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);
    /**
     * What the latest failed merge on this thread threw, for the exception of
     * the read it failed ({@link #takeMergeFailure()}).
     */
    private static final ThreadLocal<Throwable> MERGE_FAILURE = new ThreadLocal<>();

    static {
        try {
            RUNNING = MethodHandles.lookup().findStaticVarHandle(Callbacks.class, "running", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Callbacks() {
    }

    /** The stubs, made at the first callback's creation. */
    private static final class Stubs {
        static final MemorySegment FULL_MERGE = stub("fullMerge", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS,
                JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        static final MemorySegment PARTIAL_MERGE = stub("partialMerge", FunctionDescriptor.of(JAVA_INT, JAVA_LONG,
                ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));

        private static MemorySegment stub(String method, FunctionDescriptor descriptor) {
            try {
                MethodType type = descriptor.toMethodType();
                MethodHandle target = MethodHandles.lookup().findStatic(Callbacks.class, method, type);
                return Linker.nativeLinker().upcallStub(target, descriptor, Arena.global());
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * Runs use with a native merge operator (pr_merge_operator_t) calling
     * operator, then drops this hold of it: whatever use gave it to (options,
     * and through them databases) holds it on, and the operator stays live
     * until the last of those lets go.
     *
     * @throws dev.pinrock.RocksDbException.InvalidArgumentException when the shim refuses the
     *     operator's name
     */
    static void withMergeOperator(MergeOperator operator, Scratch scratch, Arena arena,
            NativeOptions.OptionsUse use) throws Throwable {
        forgetReleased();
        MemorySegment name = NativeStrings.allocate(arena,
                Objects.requireNonNull(operator.name(), "the merge operator's name"), "merge operator name");
        MemorySegment partial = overridesPartialMerge(operator) ? Stubs.PARTIAL_MERGE : MemorySegment.NULL;
        MemorySegment out = arena.allocate(ADDRESS);
        long state = NEXT_STATE.incrementAndGet();
        LIVE.put(state, operator);
        // From here the shim releases the state once, whether or not the creation succeeds.
        Downcalls.check((int) Downcalls.mergeOperatorCreate().invokeExact(name, state, Stubs.FULL_MERGE, partial,
                out, scratch.err, Scratch.ERR_CAP), scratch);
        MemorySegment mergeOperator = out.get(ADDRESS, 0);
        try {
            use.accept(mergeOperator);
        } finally {
            Downcalls.mergeOperatorDestroy().invokeExact(mergeOperator);
        }
    }

    private static boolean overridesPartialMerge(MergeOperator operator) {
        try {
            return operator.getClass().getMethod("partialMerge", MemorySegment.class, MemorySegment.class,
                    MemorySegment.class, MergeResult.class).getDeclaringClass() != MergeOperator.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** How many Java objects RocksDB may still call; for tests. */
    static int live() {
        forgetReleased();
        return LIVE.size();
    }

    /**
     * Forgets the Java objects whose native peers the shim released (pinrock.h's
     * rule C1: pr_callbacks_take_released): RocksDB can no longer call them.
     * Called at each creation of a callback and after each database's close.
     */
    public static void forgetReleased() {
        if (LIVE.isEmpty()) {
            return; // nothing to forget: no downcall
        }
        try (Arena arena = Arena.ofConfined()) {
            long cap = 64;
            MemorySegment states = arena.allocate(JAVA_LONG, cap);
            long taken;
            do {
                taken = (long) Downcalls.callbacksTakeReleased().invokeExact(states, cap);
                for (long i = 0; i < taken; i++) {
                    LIVE.remove(states.getAtIndex(JAVA_LONG, i));
                }
            } while (taken == cap);
        } catch (Throwable t) {
            throw Downcalls.unchecked(t);
        }
    }

    /**
     * Throws when the current thread runs a callback: the guard of every
     * pinrock call asks, before the call reaches native code.
     *
     * @throws IllegalStateException inside a callback
     */
    static void refuseReentry() {
        if (running != 0 && DEPTH.get()[0] != 0) {
            throw new IllegalStateException("pinrock refuses calls from inside a merge operator: RocksDB may hold"
                    + " locks the call needs (see MergeOperator)");
        }
    }

    /**
     * Returns, and forgets, what the latest failed merge on this thread
     * threw, or null: the cause of the exception of the read it failed.
     */
    public static Throwable takeMergeFailure() {
        Throwable failure = MERGE_FAILURE.get();
        if (failure != null) {
            MERGE_FAILURE.remove();
        }
        return failure;
    }

    // The upcalls. Each enters with enter(), leaves with leave(), and lets nothing escape.

    private static int[] enter() {
        int[] depth = DEPTH.get();
        depth[0]++;
        RUNNING.getAndAdd(1);
        return depth;
    }

    private static void leave(int[] depth) {
        RUNNING.getAndAdd(-1);
        depth[0]--;
    }

    private static int fullMerge(long state, MemorySegment key, long keyLength, MemorySegment existing,
            long existingLength, MemorySegment operands, MemorySegment operandLengths, long count,
            MemorySegment output) {
        int[] depth = null;
        try (Arena call = Arena.ofConfined()) {
            depth = enter();
            MergeOperator operator = (MergeOperator) LIVE.get(state);
            MemorySegment existingView = existing.equals(MemorySegment.NULL) ? null
                    : view(existing, existingLength, call);
            // The arrays too belong to the call: a list kept past it throws rather than read them.
            Operands operandViews = new Operands(operands.reinterpret(count * ADDRESS.byteSize(), call, null),
                    operandLengths.reinterpret(count * JAVA_LONG.byteSize(), call, null), (int) count, call);
            boolean merged = operator.fullMerge(view(key, keyLength, call), existingView, operandViews,
                    new NativeMergeResult(output, call, existingView != null, (int) count));
            return merged ? Downcalls.CALLBACK_OK : failedMerge(new IllegalStateException(
                    "merge operator " + operator.name() + " returned false"));
        } catch (Throwable failure) {
            return failedMerge(failure);
        } finally {
            if (depth != null) {
                leave(depth);
            }
        }
    }

    private static int failedMerge(Throwable failure) {
        try {
            MERGE_FAILURE.set(failure);
        } catch (Throwable unrecorded) {
            // Out of memory or stack: the read's exception goes without its cause.
        }
        return Downcalls.CALLBACK_FAILED;
    }

    private static int partialMerge(long state, MemorySegment key, long keyLength, MemorySegment left,
            long leftLength, MemorySegment right, long rightLength, MemorySegment output) {
        int[] depth = null;
        try (Arena call = Arena.ofConfined()) {
            depth = enter();
            MergeOperator operator = (MergeOperator) LIVE.get(state);
            return operator.partialMerge(view(key, keyLength, call), view(left, leftLength, call),
                    view(right, rightLength, call), new NativeMergeResult(output, call, false, -1))
                    ? Downcalls.CALLBACK_OK : Downcalls.CALLBACK_FAILED;
        } catch (Throwable declined) {
            return Downcalls.CALLBACK_FAILED; // a partial merge that fails keeps both operands: nothing to report
        } finally {
            if (depth != null) {
                leave(depth);
            }
        }
    }

    private static MemorySegment view(MemorySegment address, long length, Arena call) {
        return address.reinterpret(length, call, null).asReadOnly();
    }

    /** The operands of a full merge, each viewed when first asked for. */
    private static final class Operands extends AbstractList<MemorySegment> implements RandomAccess {
        private final MemorySegment addresses;
        private final MemorySegment lengths;
        private final int size;
        private final Arena call;

        Operands(MemorySegment addresses, MemorySegment lengths, int size, Arena call) {
            this.addresses = addresses;
            this.lengths = lengths;
            this.size = size;
            this.call = call;
        }

        @Override
        public MemorySegment get(int index) {
            Objects.checkIndex(index, size);
            return view(addresses.getAtIndex(ADDRESS, index), lengths.getAtIndex(JAVA_LONG, index), call);
        }

        @Override
        public int size() {
            return size;
        }
    }

    /** A merge's result written into RocksDB's result (pr_merge_output_t). */
    private static final class NativeMergeResult implements MergeResult {
        /** RocksDB's longest value: its lengths are 32-bit. */
        private static final long LONGEST_VALUE = 0xFFFF_FFFFL;
        private final MemorySegment output;
        private final Arena call;
        private final boolean hasExisting;
        /** The full merge's operand count, or -1 in a partial merge. */
        private final int operands;
        private final Thread thread = Thread.currentThread();
        private boolean written;

        NativeMergeResult(MemorySegment output, Arena call, boolean hasExisting, int operands) {
            this.output = output;
            this.call = call;
            this.hasExisting = hasExisting;
            this.operands = operands;
        }

        /** Refuses a second write, and any write off the merge's thread or after it returned. */
        private void writeOnce() {
            if (Thread.currentThread() != thread) {
                throw new WrongThreadException("a merge's result is written on the merge's thread");
            }
            if (!call.scope().isAlive()) {
                throw new IllegalStateException("the merge has returned: its result can no longer be written");
            }
            if (written) {
                throw new IllegalStateException("a merge writes its result once");
            }
            written = true;
        }

        @Override
        public MemorySegment allocate(long bytes) {
            if (bytes < 0 || bytes > LONGEST_VALUE) {
                throw new IllegalArgumentException("a merge result of " + bytes + " bytes: RocksDB stores 0 to "
                        + LONGEST_VALUE);
            }
            writeOnce();
            MemorySegment at;
            try {
                at = (MemorySegment) Downcalls.mergeOutputReserve().invokeExact(output, bytes);
            } catch (Throwable t) {
                throw Downcalls.unchecked(t);
            }
            if (at.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("a merge result of " + bytes + " bytes: native memory exhausted");
            }
            return at.reinterpret(bytes, call, null);
        }

        @Override
        public void set(byte[] value) {
            MemorySegment.copy(value, 0, allocate(value.length), JAVA_BYTE, 0,
                    value.length);
        }

        @Override
        public void set(MemorySegment value) {
            allocate(value.byteSize()).copyFrom(value);
        }

        @Override
        public void useExisting() {
            if (operands < 0 || !hasExisting) {
                throw new IllegalStateException(operands < 0 ? "a partial merge has no existing value"
                        : "the key has no existing value");
            }
            useInput(-1);
        }

        @Override
        public void useOperand(int index) {
            if (operands < 0) {
                throw new IllegalStateException("a partial merge writes its result with allocate or set");
            }
            Objects.checkIndex(index, operands);
            useInput(index);
        }

        private void useInput(long index) {
            writeOnce();
            try {
                int status = (int) Downcalls.mergeOutputUseInput().invokeExact(output, index);
                if (status != Downcalls.OK) {
                    throw new AssertionError("pr_merge_output_use_input refused input " + index);
                }
            } catch (Throwable t) {
                throw Downcalls.unchecked(t);
            }
        }
    }
}
