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
import java.util.function.BiConsumer;

import dev.pinrock.CompactionFilter;
import dev.pinrock.CompactionFilterFactory;
import dev.pinrock.KeyComparator;
import dev.pinrock.MergeOperator;
import dev.pinrock.MergeResult;
import dev.pinrock.bindings.pr_compaction_context;

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
 * of reading freed memory; a comparison's keys are copies in buffers of its
 * thread's instead ({@link CallbackThread}), which no arena need guard.
 *
 * <p><b>No re-entry.</b> While a thread runs a callback, every pinrock call
 * on it that holds a {@link ResourceGuard} is refused ({@link #refuseReentry()}):
 * RocksDB may hold locks such a call needs (pinrock.h's rule C4).
 */
public final class Callbacks {
    /** The Java objects RocksDB may call, by the state their native peers carry. */
    private static final Map<Long, Object> LIVE = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_STATE = new AtomicLong();
    /**
     * Callbacks other than comparisons running on any thread: while 0, and
     * while no comparator written in Java exists, no thread needs its own
     * count read.
     */
    private static volatile int running;
    private static final VarHandle RUNNING;
    /**
     * Whether a comparator written in Java was ever made: comparisons, far
     * more frequent than any other callback, do not count themselves in
     * {@link #running}, whose shared counter would cost each of them.
     */
    private static volatile boolean comparators;
    /** What each thread's callbacks keep: how many run on it, and what its comparisons reuse. */
    private static final ThreadLocal<CallbackThread> THREAD = ThreadLocal.withInitial(CallbackThread::new);
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

        static final MemorySegment CREATE_FILTER = stub("createFilter", FunctionDescriptor.of(JAVA_INT, JAVA_LONG,
                ADDRESS, ADDRESS));
        static final MemorySegment FILTER = stub("filter", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS,
                JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));

        static final MemorySegment COMPARE = stub("compare", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS,
                JAVA_LONG, ADDRESS, JAVA_LONG));

        static final MemorySegment PROBE = stub("probed", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));

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

    /**
     * Runs use with a native compaction filter factory
     * (pr_compaction_filter_factory_t) calling factory, then drops this hold
     * of it, as {@link #withMergeOperator} does.
     *
     * @throws dev.pinrock.RocksDbException.InvalidArgumentException when the shim refuses the
     *     factory's name
     */
    static void withCompactionFilterFactory(CompactionFilterFactory factory, Scratch scratch, Arena arena,
            NativeOptions.OptionsUse use) throws Throwable {
        forgetReleased();
        MemorySegment name = NativeStrings.allocate(arena,
                Objects.requireNonNull(factory.name(), "the compaction filter's name"), "compaction filter name");
        MemorySegment out = arena.allocate(ADDRESS);
        long state = NEXT_STATE.incrementAndGet();
        LIVE.put(state, factory);
        // From here the shim releases the state once, whether or not the creation succeeds.
        Downcalls.check((int) Downcalls.compactionFilterFactoryCreate().invokeExact(name, state,
                Stubs.CREATE_FILTER, Stubs.FILTER, out, scratch.err, Scratch.ERR_CAP), scratch);
        MemorySegment nativeFactory = out.get(ADDRESS, 0);
        try {
            use.accept(nativeFactory);
        } finally {
            Downcalls.compactionFilterFactoryDestroy().invokeExact(nativeFactory);
        }
    }

    /**
     * Runs use with a native comparator (pr_comparator_t) calling comparator,
     * watched by watch, then drops this hold of it, as
     * {@link #withMergeOperator} does.
     *
     * @throws dev.pinrock.RocksDbException.InvalidArgumentException when the shim refuses the
     *     comparator's name
     */
    static void withComparator(KeyComparator comparator, ComparatorWatch watch, Scratch scratch, Arena arena,
            NativeOptions.OptionsUse use) throws Throwable {
        forgetReleased();
        comparators = true;
        MemorySegment name = NativeStrings.allocate(arena, comparator.name(), "comparator name");
        MemorySegment out = arena.allocate(ADDRESS);
        long state = NEXT_STATE.incrementAndGet();
        LIVE.put(state, new WatchedComparator(comparator, watch));
        // From here the shim releases the state once, whether or not the creation succeeds.
        Downcalls.check((int) Downcalls.comparatorCreate().invokeExact(name, state, Stubs.COMPARE, out,
                scratch.err, Scratch.ERR_CAP), scratch);
        MemorySegment nativeComparator = out.get(ADDRESS, 0);
        try {
            use.accept(nativeComparator);
        } finally {
            Downcalls.comparatorDestroy().invokeExact(nativeComparator);
        }
    }

    /**
     * The comparators written in Java of one database (or of what else its
     * options were built for), which tell the database when one of them
     * failed a comparison (see {@link KeyComparator}): the database is then
     * out of order for those keys. Thread-safe.
     */
    public static final class ComparatorWatch {
        private volatile BiConsumer<String, Throwable> onFailure;
        private volatile Throwable failure;
        private volatile String failedName;

        /**
         * Calls onFailure with the failed comparator's name and what it threw
         * once a comparator watched here fails, at once if one has; perhaps
         * more than once, on any thread (it must be idempotent and must not
         * block).
         *
         * @param onFailure what the database does then
         */
        public void onFailure(BiConsumer<String, Throwable> onFailure) {
            this.onFailure = onFailure;
            tellIfFailed();
        }

        /** Records that comparator threw failure; the first failure is kept. */
        void failed(KeyComparator comparator, Throwable failure) {
            if (this.failure == null) {
                failedName = comparator.name();
                this.failure = failure;
            }
            tellIfFailed();
        }

        private void tellIfFailed() {
            BiConsumer<String, Throwable> told = onFailure;
            Throwable cause = failure;
            if (told != null && cause != null) {
                told.accept(failedName, cause);
            }
        }
    }

    /** A comparator, with the watch told of its failures. */
    private record WatchedComparator(KeyComparator comparator, ComparatorWatch watch) {
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
        if ((running != 0 || comparators) && THREAD.get().depth != 0) {
            throw new IllegalStateException("pinrock refuses calls from inside a merge operator, compaction"
                    + " filter or comparator: RocksDB may hold locks the call needs (see MergeOperator,"
                    + " CompactionFilter, KeyComparator)");
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

    /**
     * Makes times calls from native code into {@link #probed(long)}, which
     * does what every upcall of pinrock's does around the application's
     * code and nothing else: the cost of a callback, for the benchmarks.
     *
     * @param times how many calls
     * @return how many of them returned
     */
    public static long probe(long times) {
        NativeLibrary.load();
        try {
            return (long) Downcalls.callbacksProbe().invokeExact(Stubs.PROBE, 0L, times);
        } catch (Throwable t) {
            throw Downcalls.unchecked(t);
        }
    }

    // The upcalls. Each enters with enter(), leaves with leave(), and lets nothing escape.

    private static int probed(long state) {
        CallbackThread thread = null;
        try {
            thread = enter();
            return Downcalls.CALLBACK_OK;
        } catch (Throwable failure) {
            return Downcalls.CALLBACK_FAILED;
        } finally {
            if (thread != null) {
                leave(thread);
            }
        }
    }

    private static CallbackThread enter() {
        CallbackThread thread = THREAD.get();
        thread.depth++;
        RUNNING.getAndAdd(1);
        return thread;
    }

    private static void leave(CallbackThread thread) {
        RUNNING.getAndAdd(-1);
        thread.depth--;
    }

    private static int fullMerge(long state, MemorySegment key, long keyLength, MemorySegment existing,
            long existingLength, MemorySegment operands, MemorySegment operandLengths, long count,
            MemorySegment output) {
        CallbackThread thread = null;
        try (Arena call = Arena.ofConfined()) {
            thread = enter();
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
            if (thread != null) {
                leave(thread);
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
        CallbackThread thread = null;
        try (Arena call = Arena.ofConfined()) {
            thread = enter();
            MergeOperator operator = (MergeOperator) LIVE.get(state);
            return operator.partialMerge(view(key, keyLength, call), view(left, leftLength, call),
                    view(right, rightLength, call), new NativeMergeResult(output, call, false, -1))
                    ? Downcalls.CALLBACK_OK : Downcalls.CALLBACK_FAILED;
        } catch (Throwable declined) {
            return Downcalls.CALLBACK_FAILED; // a partial merge that fails keeps both operands: nothing to report
        } finally {
            if (thread != null) {
                leave(thread);
            }
        }
    }

    private static int compare(long state, MemorySegment a, long aLength, MemorySegment b, long bLength) {
        CallbackThread thread = null;
        try {
            thread = THREAD.get();
            thread.depth++;
            WatchedComparator live = thread.comparator(state);
            // Only the sign: the shim reads Integer.MIN_VALUE as a failure.
            return Integer.signum(live.comparator().compare(thread.viewA(a, aLength), thread.viewB(b, bLength)));
        } catch (Throwable failure) {
            try {
                WatchedComparator live = (WatchedComparator) LIVE.get(state);
                live.watch().failed(live.comparator(), failure);
            } catch (Throwable unrecorded) {
                // Out of memory or stack: the shim records the failure all the same.
            }
            return Downcalls.COMPARE_FAILED;
        } finally {
            if (thread != null) {
                thread.depth--;
            }
        }
    }

    /** A compaction's filter, with the factory that made it (told of its failures). */
    private record LiveFilter(CompactionFilter filter, CompactionFilterFactory factory) {
    }

    private static int createFilter(long state, MemorySegment context, MemorySegment filterState) {
        CallbackThread thread = null;
        CompactionFilterFactory factory = null;
        try {
            thread = enter();
            // Each compaction's filter is live until it ends: forget those ended, as compactions go on.
            forgetReleased();
            factory = (CompactionFilterFactory) LIVE.get(state);
            MemorySegment given = context.reinterpret(pr_compaction_context.sizeof());
            CompactionFilter filter = factory.newFilter(new CompactionFilter.Context(
                    pr_compaction_context.full(given) != 0, pr_compaction_context.manual(given) != 0,
                    pr_compaction_context.input_start_level(given)));
            if (filter == null) {
                return Downcalls.CALLBACK_FAILED; // the compaction runs unfiltered, as asked
            }
            long made = NEXT_STATE.incrementAndGet();
            LIVE.put(made, new LiveFilter(filter, factory));
            filterState.reinterpret(JAVA_LONG.byteSize()).set(JAVA_LONG, 0, made);
            return Downcalls.CALLBACK_OK;
        } catch (Throwable failure) {
            report(factory, failure);
            return Downcalls.CALLBACK_FAILED;
        } finally {
            if (thread != null) {
                leave(thread);
            }
        }
    }

    private static int filter(long state, MemorySegment key, long keyLength, int kind, MemorySegment value,
            long valueLength, MemorySegment output) {
        CallbackThread thread = null;
        LiveFilter live = null;
        try (Arena call = Arena.ofConfined()) {
            thread = enter();
            live = (LiveFilter) LIVE.get(state);
            NativeDecision decision = new NativeDecision(output, call);
            live.filter().filter(view(key, keyLength, call), kind == Downcalls.FILTERED_MERGE_OPERAND
                    ? CompactionFilter.EntryKind.MERGE_OPERAND : CompactionFilter.EntryKind.VALUE,
                    view(value, valueLength, call), decision);
            return decision.code;
        } catch (Throwable failure) {
            report(live == null ? null : live.factory(), failure);
            return Downcalls.FILTER_KEEP;
        } finally {
            if (thread != null) {
                leave(thread);
            }
        }
    }

    /** Tells factory what its filter threw; nothing it throws in turn escapes. */
    private static void report(CompactionFilterFactory factory, Throwable failure) {
        try {
            if (factory != null) {
                factory.failed(failure);
            }
        } catch (Throwable ignored) {
            // failed() is documented to be ignored when it throws.
        }
    }

    private static MemorySegment view(MemorySegment address, long length, Arena call) {
        return address.reinterpret(length, call, null).asReadOnly();
    }

    /**
     * What the callbacks on one thread keep: how many run on it (for
     * {@link #refuseReentry()}), and what its comparisons reuse, so that a
     * comparison allocates nothing and makes no arena: the comparator last
     * called, and the two keys, copied into buffers of the thread's, seen
     * through read-only views of their lengths (a view kept past its
     * comparison so shows the bytes of later keys, never freed memory).
     */
    private static final class CallbackThread {
        int depth;
        private long comparatorState;
        private WatchedComparator comparator;
        private final KeyCopy a = new KeyCopy();
        private final KeyCopy b = new KeyCopy();

        WatchedComparator comparator(long state) {
            if (comparator == null || comparatorState != state) {
                comparator = (WatchedComparator) LIVE.get(state);
                comparatorState = state;
            }
            return comparator;
        }

        MemorySegment viewA(MemorySegment key, long length) {
            return a.copy(key, length);
        }

        MemorySegment viewB(MemorySegment key, long length) {
            return b.copy(key, length);
        }
    }

    /** A key copied out of native memory, and a read-only view of it, reused while the length repeats. */
    private static final class KeyCopy {
        private byte[] bytes = new byte[0];
        private MemorySegment whole = MemorySegment.ofArray(bytes);
        private MemorySegment view = whole.asReadOnly();

        MemorySegment copy(MemorySegment key, long length) {
            if (length > bytes.length) {
                // Past the longest array: ArithmeticException, a failed comparison.
                bytes = new byte[Math.toIntExact(Math.max(length, Math.min(2L * bytes.length, Integer.MAX_VALUE - 8)))];
                whole = MemorySegment.ofArray(bytes);
                view = whole.asSlice(0, length).asReadOnly();
            } else if (view.byteSize() != length) {
                view = whole.asSlice(0, length).asReadOnly();
            }
            MemorySegment.copy(key.reinterpret(length), 0, whole, 0, length);
            return view;
        }
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

    /** RocksDB's longest value: its lengths are 32-bit. */
    private static final long LONGEST_VALUE = 0xFFFF_FFFFL;

    /** What a callback writes through once, on its thread, during its call: a merge's result, a filter's decision. */
    private abstract static class OncePerCall {
        final Arena call;
        private final Thread thread = Thread.currentThread();
        private boolean used;

        OncePerCall(Arena call) {
            this.call = call;
        }

        /** Refuses a use off the call's thread, after the call returned, or a second one, each with its message. */
        final void once(String offThread, String returned, String again) {
            if (Thread.currentThread() != thread) {
                throw new WrongThreadException(offThread);
            }
            if (!call.scope().isAlive()) {
                throw new IllegalStateException(returned);
            }
            if (used) {
                throw new IllegalStateException(again);
            }
            used = true;
        }
    }

    /** What a filter decides about an entry, the changed value or the range's end written into pr_filter_output_t. */
    private static final class NativeDecision extends OncePerCall implements CompactionFilter.Decision {
        private final MemorySegment output;
        /** The pr_filter_decision returned to the shim. */
        int code = Downcalls.FILTER_KEEP;

        NativeDecision(MemorySegment output, Arena call) {
            super(call);
            this.output = output;
        }

        private void decideOnce() {
            once("a filter decides on the filter's thread", "the filter has returned: it can no longer decide",
                    "a filter decides once per entry");
        }

        /** Reserves bytes of the output for decision, which takes effect once they are written. */
        private MemorySegment reserve(long bytes, String what) {
            if (bytes < 0 || bytes > LONGEST_VALUE) {
                throw new IllegalArgumentException(what + " of " + bytes + " bytes: RocksDB stores 0 to "
                        + LONGEST_VALUE);
            }
            decideOnce();
            MemorySegment at;
            try {
                at = (MemorySegment) Downcalls.filterOutputReserve().invokeExact(output, bytes);
            } catch (Throwable t) {
                throw Downcalls.unchecked(t);
            }
            if (at.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError(what + " of " + bytes + " bytes: native memory exhausted");
            }
            return at.reinterpret(bytes, call, null);
        }

        @Override
        public void remove() {
            decideOnce();
            code = Downcalls.FILTER_REMOVE;
        }

        @Override
        public void changeValue(byte[] value) {
            MemorySegment.copy(value, 0, allocateValue(value.length), JAVA_BYTE, 0, value.length);
        }

        @Override
        public void changeValue(MemorySegment value) {
            allocateValue(value.byteSize()).copyFrom(value);
        }

        @Override
        public MemorySegment allocateValue(long bytes) {
            MemorySegment at = reserve(bytes, "a changed value");
            code = Downcalls.FILTER_CHANGE_VALUE;
            return at;
        }

        @Override
        public void removeUntil(byte[] end) {
            MemorySegment.copy(end, 0, reserve(end.length, "a range's end"), JAVA_BYTE, 0, end.length);
            code = Downcalls.FILTER_REMOVE_UNTIL;
        }

        @Override
        public void removeUntil(MemorySegment end) {
            reserve(end.byteSize(), "a range's end").copyFrom(end);
            code = Downcalls.FILTER_REMOVE_UNTIL;
        }
    }

    /** A merge's result written into RocksDB's result (pr_merge_output_t). */
    private static final class NativeMergeResult extends OncePerCall implements MergeResult {
        private final MemorySegment output;
        private final boolean hasExisting;
        /** The full merge's operand count, or -1 in a partial merge. */
        private final int operands;

        NativeMergeResult(MemorySegment output, Arena call, boolean hasExisting, int operands) {
            super(call);
            this.output = output;
            this.hasExisting = hasExisting;
            this.operands = operands;
        }

        private void writeOnce() {
            once("a merge's result is written on the merge's thread",
                    "the merge has returned: its result can no longer be written", "a merge writes its result once");
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
