package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pinrock.AssociativeMergeOperator;
import dev.pinrock.CompactionFilter;
import dev.pinrock.CompactionFilterFactory;
import dev.pinrock.Compression;
import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.KeyComparator;
import dev.pinrock.KeyedCalls;
import dev.pinrock.Keyspace;
import dev.pinrock.MergeResult;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.RocksDbException;
import dev.pinrock.Snapshot;
import dev.pinrock.SstFileWriter;
import dev.pinrock.StatusCode;
import dev.pinrock.Transaction;
import dev.pinrock.TransactionDbOptions;
import dev.pinrock.TransactionOptions;
import dev.pinrock.WriteBatch;
import dev.pinrock.WriteBatchWithIndex;
import dev.pinrock.WriteOptions;
import dev.pinrock.tests.ApiModel.MergeOperator;
import dev.pinrock.tests.ApiModel.Write;
import dev.pinrock.tests.ApiModel.Write.Kind;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Drives random sequences of public pinrock calls, with arguments the fuzzer
 * chooses, against one database, and checks each call against
 * {@link ApiModel}: only the exceptions documented for the call (an explicit
 * allow-list per operation, and a required one when the model knows the call
 * must fail), every read agrees with the acknowledged writes, a write that
 * threw changed nothing, and a reopen at the end (and after every close)
 * finds exactly the model. RocksDB's own options, by the names and values
 * its OPTIONS file records ({@link RecordedOptions}), are set at open and
 * while open; what pinrock must refuse is {@link OptionRefusals}. An input
 * runs on its own thread with a deadline, so a hang fails the test with
 * every thread's stack.
 *
 * <p>{@code mvn test} replays the inputs kept under
 * {@code src/test/resources/dev/pinrock/tests/ApiSequenceFuzzTestInputs/apiSequence/};
 * with the environment variable {@code JAZZER_FUZZ=1} Jazzer fuzzes for
 * {@code maxDuration} and keeps each failing input there (see
 * docs/reliability.md, "Long runs").
 */
class ApiSequenceFuzzTest {
    /** Whether pinrock refuses a string before native code sees it: a NUL, or an unpaired surrogate. */
    static boolean refusedByNativeCode(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\0') {
                return true;
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** The longest one input may run: far above any real sequence, so only a hang reaches it. */
    private static final long INPUT_DEADLINE_SECONDS = 120;
    /** The most calls one input makes. */
    private static final int MAX_CALLS = 60;

    /** The other thread: closes from it, and owns the arena whose segments are confined to it. */
    private static final ExecutorService OTHER_THREAD = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "fuzz-other-thread");
        thread.setDaemon(true);
        return thread;
    });

    @FuzzTest(maxDuration = "3m")
    void apiSequence(FuzzedDataProvider data) throws Exception {
        Path root = Files.createTempDirectory("pinrock-fuzz");
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            Future<?> run = runner.submit(() -> {
                ApiSequence sequence = new ApiSequence(data, root);
                try {
                    sequence.run();
                } finally {
                    sequence.release();
                }
                return null;
            });
            try {
                run.get(INPUT_DEADLINE_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                fail("an input ran over " + INPUT_DEADLINE_SECONDS + " s: a call hangs\n" + allStacks());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw (Exception) e.getCause();
            }
        } finally {
            runner.shutdown();
            if (runner.awaitTermination(1, TimeUnit.SECONDS)) {
                deleteTree(root);
            } // else a call hangs in it: the directory stays, for a look at what it holds
        }
    }

    private static String allStacks() {
        StringBuilder stacks = new StringBuilder();
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            stacks.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState()).append('\n');
            for (StackTraceElement frame : info.getStackTrace()) {
                stacks.append("    at ").append(frame).append('\n');
            }
        }
        return stacks.toString();
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** RocksDB's stringappend (with ',') written in Java: what {@link MergeOperator#STRING_APPEND} models. */
    static final class JavaAppend extends AssociativeMergeOperator {
        JavaAppend() {
            super("fuzz.javaappend");
        }

        @Override
        protected boolean merge(MemorySegment key, MemorySegment value, MemorySegment operand, MergeResult result) {
            if (value == null) {
                result.set(operand);
                return true;
            }
            MemorySegment merged = result.allocate(value.byteSize() + 1 + operand.byteSize());
            MemorySegment.copy(value, 0, merged, 0, value.byteSize());
            merged.set(ValueLayout.JAVA_BYTE, value.byteSize(), (byte) ',');
            MemorySegment.copy(operand, 0, merged, value.byteSize() + 1, operand.byteSize());
            return true;
        }
    }

    /**
     * A compaction filter written in Java that keeps every entry (the model
     * knows nothing of filters) but throws on some, an exception or an error:
     * a throwing filter keeps the entry, and compactions go on.
     */
    static final CompactionFilterFactory THROWING_FILTER = new CompactionFilterFactory() {
        private final CompactionFilter filter = (key, kind, value, decision) -> {
            long last = key.byteSize() == 0 ? 0 : key.get(ValueLayout.JAVA_BYTE, key.byteSize() - 1) & 0xff;
            if (last % 3 == 1) {
                throw new IllegalStateException("the filter's own bug");
            }
            if (last % 3 == 2 && value.byteSize() % 2 == 0) {
                throw new StackOverflowError("deep");
            }
        };

        @Override
        public String name() {
            return "fuzz.throwingfilter";
        }

        @Override
        public CompactionFilter newFilter(CompactionFilter.Context context) {
            return filter;
        }

        @Override
        public void failed(Throwable failure) {
            // Expected: the entry is kept, which the model checks.
        }
    };

    /** Where a segment's memory comes from. */
    enum SegmentKind { CONFINED, SHARED, AUTO, GLOBAL, HEAP, CLOSED, OTHER_THREAD }

    /** What a call may end in: success, or one of the allowed exceptions; with mustFail, only the latter. */
    static final class Expect {
        final Set<Class<? extends Throwable>> allowed = new HashSet<>();
        final Set<StatusCode> codes = EnumSet.noneOf(StatusCode.class);
        final List<String> whyItMustFail = new ArrayList<>();

        /** The call may fail with one of codes (its documented RocksDB failures). */
        Expect may(StatusCode... codes) {
            this.codes.addAll(List.of(codes));
            return this;
        }

        /** The call may throw this exception. */
        Expect may(Class<? extends Throwable> type) {
            allowed.add(type);
            return this;
        }

        /** The model knows the call must fail, with one of the exceptions allowed for the reasons given. */
        Expect mustFail(String why, Class<? extends Throwable> type) {
            addReasonToFail(why);
            allowed.add(type);
            return this;
        }

        Expect mustFail(String why, StatusCode code) {
            addReasonToFail(why);
            codes.add(code);
            return this;
        }

        /** The first reason to fail replaces the documented failures: only the reasons' exceptions remain allowed. */
        private void addReasonToFail(String why) {
            if (whyItMustFail.isEmpty()) {
                allowed.clear();
                codes.clear();
            }
            whyItMustFail.add(why);
        }

        /** Adds a documented failure only when no reason to fail is known (which alone would then be allowed). */
        Expect mayUnlessMustFail(StatusCode... codes) {
            return whyItMustFail.isEmpty() ? may(codes) : this;
        }

        boolean allows(Throwable thrown) {
            if (thrown instanceof RocksDbException rocks && codes.contains(rocks.code())) {
                return true;
            }
            return allowed.stream().anyMatch(type -> type.isInstance(thrown));
        }
    }

    /** A call the fuzzer makes, which may throw anything. */
    interface Call<T> {
        T run() throws Exception;
    }

    /** One input: a sequence of calls on one database, checked against the model. */
    static final class ApiSequence {
        private final FuzzedDataProvider data;
        private final Path root;
        private final Path path;
        private final ApiModel model;
        private final List<String> log = new ArrayList<>();
        private final Arena confined = Arena.ofConfined();
        private final Arena shared = Arena.ofShared();
        private final Arena otherThread;
        private final Map<String, Keyspace> families = new HashMap<>();
        private final List<Keyspace> droppedFamilies = new ArrayList<>();
        private final List<Snapshot> snapshots = new ArrayList<>();
        private final Map<Snapshot, Map<String, NavigableMap<byte[], byte[]>>> snapshotViews = new HashMap<>();
        private DbOptions options;
        private RocksDb db;
        private int fileNumber;
        /** How the database is opened for transactions, or null when it is not. */
        private TransactionDbOptions transactions;
        /** Whether a pessimistic open wrote the directory (which keeps RocksDB's allow_2pc from then on). */
        private boolean pessimisticWrote;
        /** Whether the database was opened with FIFO compaction since the last check, which drops table files by design. */
        private boolean entriesMayBeDropped;
        /** Whether the append merges in Java ({@link JavaAppend}) and compactions call {@link #THROWING_FILTER}. */
        private final boolean javaCallbacks;

        ApiSequence(FuzzedDataProvider data, Path root) throws Exception {
            this.data = data;
            this.root = root;
            this.path = root.resolve("db");
            this.otherThread = OTHER_THREAD.submit(Arena::ofConfined).get();
            GlobalSegments.startInput();
            // Half the inputs (told apart by the second bit of the input's length, which no call
            // consumes, so that kept inputs still make the calls they made) order every family's keys
            // in reverse.
            KeyComparator order = data.remainingBytes() % 4 >= 2 ? KeyComparator.REVERSE_BYTEWISE : KeyComparator.BYTEWISE;
            this.model = new ApiModel(data.pickValue(MergeOperator.values()), order);
            // Half the inputs that append (told apart by the first bit of that length) do it in Java,
            // with a compaction filter in Java that throws, and those in reverse order have it from
            // a comparator in Java.
            this.javaCallbacks = model.operator() == MergeOperator.STRING_APPEND && data.remainingBytes() % 2 == 1;
            this.options = withFamilySettings(DbOptions.create().createIfMissing(true).writeBufferBytes(64 << 10));
            log("open " + options);
            db = RocksDb.open(path, options);
            families.put("default", db);
        }

        void run() throws Exception {
            int calls = data.consumeInt(1, MAX_CALLS);
            for (int i = 0; i < calls && data.remainingBytes() > 0; i++) {
                // One byte picks the call: its value modulo 20 as before the option string calls
                // (38 and 39) were added, so that kept inputs still make the calls they made; 37,
                // once a second value for reopen, is a transaction (which may reopen too); 19, once
                // a check against the model (which every reopen and the end still make), a batch
                // with index.
                int pick = data.consumeInt(0, 39);
                if (pick == 37) {
                    transaction();
                    continue;
                }
                if (pick == 38) {
                    reopenWithOptionStrings();
                    continue;
                }
                if (pick == 39) {
                    changeOptionsWhileOpen();
                    continue;
                }
                switch (pick % 20) {
                    case 0, 1, 2 -> put();
                    case 3, 4 -> get();
                    case 5 -> delete();
                    case 6, 7 -> batch();
                    case 8 -> multiGet();
                    case 9 -> cursor();
                    case 10 -> snapshot();
                    case 11 -> createFamily();
                    case 12 -> dropFamily();
                    case 13 -> property();
                    case 14 -> flushOrCompact();
                    case 15 -> checkpoint();
                    case 16 -> ingest();
                    case 17 -> reopen(data.consumeBoolean());
                    case 18 -> closeFromOtherThread();
                    default -> batchWithIndex();
                }
            }
            reopen(false);
        }

        /**
         * Options with the input's key order and merge operator (and, with Java
         * callbacks, its compaction filter).
         */
        private DbOptions withFamilySettings(DbOptions options) {
            // With Java callbacks, the reverse order is written in Java too.
            DbOptions ordered = options.comparator(javaCallbacks && model.order() == KeyComparator.REVERSE_BYTEWISE
                    ? JavaReverseBytewise.INSTANCE : model.order());
            return javaCallbacks ? ordered.mergeOperator(new JavaAppend()).compactionFilter(THROWING_FILTER)
                    : ordered.mergeOperator(model.operator().optionName);
        }

        // ---- arguments ----

        private void log(String line) {
            log.add(line);
        }

        /** The keys key() picks without fuzzed bytes: "a" to "h" and the empty key. */
        private static final List<byte[]> FIXED_KEYS = List.of(new byte[] {'a'}, new byte[] {'b'}, new byte[] {'c'},
                new byte[] {'d'}, new byte[] {'e'}, new byte[] {'f'}, new byte[] {'g'}, new byte[] {'h'}, new byte[0]);

        private byte[] key() {
            int pick = data.consumeInt(0, 9);
            return pick < FIXED_KEYS.size() ? FIXED_KEYS.get(pick).clone() : data.consumeBytes(data.consumeInt(1, 6));
        }

        private byte[] value() {
            return switch (data.consumeInt(0, 3)) {
                case 0 -> new byte[0];
                case 1 -> padTo8(data.consumeBytes(8));
                case 2 -> data.consumeBytes(data.consumeInt(0, 24));
                default -> {
                    byte[] large = new byte[data.consumeInt(1000, 9000)];
                    Arrays.fill(large, data.consumeByte());
                    yield large;
                }
            };
        }

        private static byte[] padTo8(byte[] bytes) {
            return bytes.length == 8 ? bytes : Arrays.copyOf(bytes, 8);
        }

        /** A live family's name, or null for a dropped family's handle. */
        private String familyName() {
            if (!droppedFamilies.isEmpty() && data.consumeInt(0, 9) == 0) {
                return null;
            }
            List<String> names = new ArrayList<>(new TreeSet<>(families.keySet()));
            return names.get(data.consumeInt(0, names.size() - 1));
        }

        private Keyspace family(String name) {
            return name == null ? droppedFamilies.get(data.consumeInt(0, droppedFamilies.size() - 1)) : families.get(name);
        }

        /** The expectation common to every call on the database (through family, when not null). */
        private Expect onDatabase(String family) {
            Expect expect = new Expect();
            if (db == null || !db.isOpen()) {
                expect.mustFail("the database is closed", IllegalStateException.class);
            }
            if (family == null) {
                expect.mustFail("the family was dropped", IllegalStateException.class);
            }
            return expect;
        }

        /** What a read through family with snapshot implies for expect, beyond {@link #onDatabase}. */
        private void onSnapshot(Expect expect, Keyspace family, Snapshot snapshot) {
            if (!snapshot.isOpen()) {
                expect.mustFail("the snapshot is closed", IllegalStateException.class);
            }
            // Snapshots do not outlive a reopen here, dropped families do.
            if (family.database() != db) {
                expect.mustFail("the dropped family belongs to the database before a reopen, the snapshot to this one",
                        IllegalArgumentException.class);
            }
        }

        private SegmentKind segmentKind() {
            return data.pickValue(SegmentKind.values());
        }

        /** A segment of kind holding bytes, and what using it implies for expect. */
        private MemorySegment segment(byte[] bytes, SegmentKind kind, Expect expect) throws Exception {
            MemorySegment segment = switch (kind) {
                case CONFINED -> confined.allocate(Math.max(bytes.length, 1)).asSlice(0, bytes.length);
                case SHARED -> shared.allocate(Math.max(bytes.length, 1)).asSlice(0, bytes.length);
                case AUTO -> Arena.ofAuto().allocate(Math.max(bytes.length, 1)).asSlice(0, bytes.length);
                case GLOBAL -> GlobalSegments.take(bytes.length);
                case HEAP -> MemorySegment.ofArray(bytes.clone());
                case CLOSED -> {
                    Arena arena = Arena.ofConfined();
                    MemorySegment closed = arena.allocate(Math.max(bytes.length, 1)).asSlice(0, bytes.length);
                    closed.copyFrom(MemorySegment.ofArray(bytes));
                    arena.close();
                    expect.mustFail("a segment's arena is closed", IllegalStateException.class);
                    yield closed;
                }
                case OTHER_THREAD -> {
                    expect.mustFail("a segment is confined to another thread", WrongThreadException.class);
                    yield OTHER_THREAD.submit(() -> {
                        MemorySegment theirs = otherThread.allocate(Math.max(bytes.length, 1)).asSlice(0, bytes.length);
                        theirs.copyFrom(MemorySegment.ofArray(bytes));
                        return theirs;
                    }).get();
                }
            };
            if (kind != SegmentKind.CLOSED && kind != SegmentKind.OTHER_THREAD && kind != SegmentKind.HEAP) {
                segment.copyFrom(MemorySegment.ofArray(bytes));
            }
            return segment;
        }

        /** An arena to read pinned values into (never the global one, whose pins would never be released). */
        private Arena readArena(Expect expect) {
            return switch (data.consumeInt(0, 4)) {
                case 0 -> confined;
                case 1 -> shared;
                case 2 -> Arena.ofAuto();
                case 3 -> {
                    Arena closed = Arena.ofConfined();
                    closed.close();
                    expect.mustFail("the arena is closed", IllegalStateException.class);
                    yield closed;
                }
                default -> {
                    expect.mustFail("the arena is confined to another thread", WrongThreadException.class);
                    yield otherThread;
                }
            };
        }

        /**
         * Makes a call: returns true when it returned, false when it threw an exception
         * expect allows, and fails on any other exception or on a success expect rules out.
         */
        private <T> boolean call(String what, Expect expect, Call<T> call) {
            log(what);
            try {
                call.run();
            } catch (Throwable thrown) {
                if (thrown instanceof AssertionError assertion) {
                    throw assertion;
                }
                if (!expect.allows(thrown)) {
                    throw failure(what + " threw an exception not documented for it (allowed: "
                            + expect.allowed + " " + expect.codes + ")", thrown);
                }
                log("  -> " + thrown);
                return false;
            }
            if (!expect.whyItMustFail.isEmpty()) {
                throw failure(what + " returned although it must fail: " + expect.whyItMustFail, null);
            }
            return true;
        }

        private AssertionError failure(String message, Throwable cause) {
            StringBuilder text = new StringBuilder(message).append("\nmerge operator ").append(model.operator())
                    .append(javaCallbacks ? " (in Java, with a throwing compaction filter in Java)" : "")
                    .append(", keys in the order of ").append(model.order()).append("; the calls of this input:\n");
            for (String line : log.subList(Math.max(0, log.size() - 200), log.size())) {
                text.append("  ").append(line).append('\n');
            }
            return new AssertionError(text.toString(), cause);
        }

        private void check(boolean ok, String what) {
            if (!ok) {
                throw failure(what, null);
            }
        }

        private void checkValue(byte[] expected, byte[] actual, String what) {
            // Jazzer's hook of Arrays.equals crashes the JVM on a null argument: compare nulls first.
            boolean same = expected == null || actual == null ? expected == actual : Arrays.equals(expected, actual);
            check(same, what + ": read " + ApiModel.hex(actual) + ", the model holds "
                    + ApiModel.hex(expected));
        }

        // ---- operations ----

        private void put() throws Exception {
            String name = familyName();
            Keyspace family = family(name);
            byte[] key = key();
            byte[] value = value();
            Expect expect = onDatabase(name);
            String what = "put(" + family.name() + ", " + ApiModel.hex(key) + ", " + value.length + " bytes)";
            boolean done = switch (data.consumeInt(0, 2)) {
                case 0 -> call(what, expect, () -> {
                    family.put(key, value);
                    return null;
                });
                case 1 -> {
                    ByteBuffer keyBuffer = buffer(key);
                    ByteBuffer valueBuffer = buffer(value);
                    yield call(what + " buffers", expect, () -> {
                        family.put(keyBuffer, valueBuffer);
                        return null;
                    });
                }
                default -> {
                    SegmentKind keyKind = segmentKind();
                    SegmentKind valueKind = segmentKind();
                    MemorySegment keySegment = segment(key, keyKind, expect);
                    MemorySegment valueSegment = segment(value, valueKind, expect);
                    yield call(what + " segments " + keyKind + "/" + valueKind, expect, () -> {
                        family.put(keySegment, valueSegment);
                        return null;
                    });
                }
            };
            if (done) {
                model.apply(new Write(Kind.PUT, name, key, value));
            }
            readBack(name, key);
        }

        private ByteBuffer buffer(byte[] bytes) {
            ByteBuffer buffer = data.consumeBoolean() ? ByteBuffer.allocateDirect(bytes.length + 2) : ByteBuffer.allocate(bytes.length + 2);
            buffer.position(1);
            buffer.put(bytes);
            return buffer.flip().position(1);
        }

        /** After a write, the key reads as the model says (when the family is still readable). */
        private void readBack(String name, byte[] key) {
            if (name != null && db.isOpen()) {
                checkValue(model.get(name, key), families.get(name).get(key), "get(" + name + ", " + ApiModel.hex(key) + ")");
            }
        }

        private void get() throws Exception {
            String name = familyName();
            Keyspace family = family(name);
            byte[] key = key();
            byte[] expected = name == null ? null : model.get(name, key);
            Expect expect = onDatabase(name);
            String what = "get(" + family.name() + ", " + ApiModel.hex(key) + ")";
            switch (data.consumeInt(0, 6)) {
                case 0 -> call(what, expect, () -> {
                    checkValue(expected, family.get(key), what);
                    return null;
                });
                case 1 -> {
                    byte[] dst = new byte[data.consumeInt(0, 1) == 0 ? data.consumeInt(0, 16) : 10_000];
                    call(what + " into byte[" + dst.length + "]", expect, () -> {
                        checkLength(expected, family.get(key, dst), dst.length, what);
                        if (expected != null && expected.length <= dst.length) {
                            checkValue(expected, Arrays.copyOf(dst, expected.length), what);
                        }
                        return null;
                    });
                }
                case 2 -> {
                    boolean memoryOnly = data.consumeBoolean();
                    ReadOptions read = ReadOptions.DEFAULT.fillCache(data.consumeBoolean())
                            .verifyChecksums(data.consumeBoolean()).memoryOnly(memoryOnly);
                    expect.mayUnlessMustFail(memoryOnly ? new StatusCode[] {StatusCode.INCOMPLETE} : new StatusCode[0]);
                    call(what + " " + read, expect, () -> {
                        checkValue(expected, family.get(read, key), what);
                        return null;
                    });
                }
                case 3 -> {
                    ByteBuffer keyBuffer = buffer(key);
                    int room = data.consumeInt(0, 1) == 0 ? data.consumeInt(0, 16) : 10_000;
                    ByteBuffer dst = data.consumeBoolean() ? ByteBuffer.allocateDirect(room) : ByteBuffer.allocate(room);
                    ByteBuffer target = data.consumeInt(0, 5) == 0 ? dst.asReadOnlyBuffer() : dst;
                    if (target.isReadOnly()) {
                        expect.may(ReadOnlyBufferException.class);
                    }
                    call(what + " into a buffer of " + room + (target.isReadOnly() ? ", read-only" : ""), expect, () -> {
                        int length = family.get(keyBuffer, target);
                        checkLength(expected, length, room, what);
                        if (expected != null && expected.length <= room) {
                            byte[] read = new byte[expected.length];
                            target.get(target.position(), read);
                            checkValue(expected, read, what);
                        }
                        return null;
                    });
                }
                case 4 -> {
                    SegmentKind keyKind = segmentKind();
                    SegmentKind dstKind = segmentKind();
                    MemorySegment keySegment = segment(key, keyKind, expect);
                    int room = data.consumeInt(0, 1) == 0 ? data.consumeInt(0, 16) : 10_000;
                    MemorySegment dstSegment = segment(new byte[room], dstKind, expect);
                    MemorySegment target = data.consumeInt(0, 5) == 0 ? dstSegment.asReadOnly() : dstSegment;
                    if (target.isReadOnly()) {
                        expect.mustFail("dst is read-only", IllegalArgumentException.class);
                    }
                    call(what + " segments " + keyKind + "/" + dstKind + " room " + room, expect, () -> {
                        long length = family.get(keySegment, target);
                        checkLength(expected, length, room, what);
                        if (expected != null && expected.length <= room) {
                            checkValue(expected, target.asSlice(0, expected.length).toArray(ValueLayout.JAVA_BYTE), what);
                        }
                        return null;
                    });
                }
                case 5 -> {
                    Arena arena = readArena(expect);
                    boolean segmentKey = data.consumeBoolean();
                    SegmentKind keyKind = segmentKind();
                    MemorySegment keySegment = segmentKey ? segment(key, keyKind, expect) : null;
                    call(what + " pinned" + (segmentKey ? " key " + keyKind : ""), expect, () -> {
                        MemorySegment pinned = segmentKey ? family.getPinned(arena, keySegment) : family.getPinned(arena, key);
                        checkValue(expected, pinned == null ? null : pinned.toArray(ValueLayout.JAVA_BYTE), what);
                        return null;
                    });
                }
                default -> call(what + " pinned reader", expect, () -> {
                    byte[][] seen = new byte[1][];
                    boolean found = family.getPinned(key, value -> seen[0] = value.toArray(ValueLayout.JAVA_BYTE));
                    check(found == (expected != null), what + ": found " + found);
                    checkValue(expected, seen[0], what);
                    return null;
                });
            }
        }

        private void checkLength(byte[] expected, long length, long room, String what) {
            check(length == (expected == null ? Keyspace.NOT_FOUND : expected.length),
                    what + ": length " + length + ", the model holds " + ApiModel.hex(expected) + " (room " + room + ")");
        }

        private void delete() throws Exception {
            String name = familyName();
            Keyspace family = family(name);
            byte[] key = key();
            Expect expect = onDatabase(name);
            String what = "delete(" + family.name() + ", " + ApiModel.hex(key) + ")";
            boolean done = switch (data.consumeInt(0, 2)) {
                case 0 -> call(what, expect, () -> {
                    family.delete(key);
                    return null;
                });
                case 1 -> {
                    ByteBuffer keyBuffer = buffer(key);
                    yield call(what + " buffer", expect, () -> {
                        family.delete(keyBuffer);
                        return null;
                    });
                }
                default -> {
                    SegmentKind kind = segmentKind();
                    MemorySegment keySegment = segment(key, kind, expect);
                    yield call(what + " segment " + kind, expect, () -> {
                        family.delete(keySegment);
                        return null;
                    });
                }
            };
            if (done) {
                model.apply(new Write(Kind.DELETE, name, key, null));
            }
            readBack(name, key);
        }

        private void batch() {
            List<Write> writes = new ArrayList<>();
            Expect expect = onDatabase("default");
            WriteBatch batch = new WriteBatch();
            try {
                int records = data.consumeInt(0, 8);
                boolean holdsDropped = false;
                for (int i = 0; i < records; i++) {
                    String name = familyName();
                    if (name == null) {
                        Keyspace dropped = family(null);
                        // A dropped family's handle is refused when it is recorded or when the batch is written;
                        // one of the database before a reopen is another database's.
                        boolean recorded = call("batch.put(dropped " + dropped.name() + ")",
                                new Expect().may(IllegalStateException.class).may(IllegalArgumentException.class),
                                () -> batch.put(dropped, key(), value()));
                        holdsDropped |= recorded;
                        if (recorded) {
                            expect.mustFail("the batch names a dropped family", IllegalStateException.class)
                                    .mustFail("the family may belong to the database before a reopen", IllegalArgumentException.class);
                        }
                        continue;
                    }
                    Keyspace family = families.get(name);
                    byte[] key = key();
                    Write write = switch (data.consumeInt(0, 4)) {
                        case 0 -> new Write(Kind.PUT, name, key, value());
                        case 1 -> new Write(Kind.DELETE, name, key, null);
                        // RocksDB leaves a key single-deleted after a Delete undefined: not asked.
                        case 2 -> model.singleDeleteDefined(name, key, writes, true)
                                ? new Write(Kind.SINGLE_DELETE, name, key, null) : new Write(Kind.DELETE, name, key, null);
                        case 3 -> new Write(Kind.MERGE, name, key, value());
                        default -> {
                            byte[] end = key();
                            yield new Write(Kind.DELETE_RANGE, name, key, end);
                        }
                    };
                    // After a dropped family of the database before a reopen, this one is another database's.
                    Expect recording = holdsDropped ? new Expect().may(IllegalArgumentException.class) : new Expect();
                    if (!db.isOpen()) {
                        // A keyspace of a closed database is refused when it is recorded.
                        recording.mustFail("the database is closed", IllegalStateException.class);
                    }
                    if (!call("batch." + write, recording, () -> record(batch, family, write))) {
                        continue;
                    }
                    writes.add(write);
                    if (write.kind() == Kind.MERGE && model.operator() == MergeOperator.NONE) {
                        expect.mustFail("a merge without a merge operator", StatusCode.INVALID_ARGUMENT);
                    }
                    if (write.kind() == Kind.MERGE && model.operator() == MergeOperator.UINT64_ADD
                            && write.valueOrEnd().length != Long.BYTES) {
                        expect.mustFail("a uint64add operand of other than 8 bytes", StatusCode.INVALID_ARGUMENT);
                    }
                    if (write.kind() == Kind.DELETE_RANGE && model.order().compare(write.key(), write.valueOrEnd()) > 0) {
                        expect.mustFail("a reversed deleteRange", StatusCode.INVALID_ARGUMENT);
                    }
                    if (write.kind() == Kind.DELETE_RANGE && transactions != null) {
                        expect.mustFail("a transactional database deletes no ranges", StatusCode.INVALID_ARGUMENT);
                    }
                    if (write.kind() == Kind.SINGLE_DELETE && transactions != null && !transactions.isOptimistic()) {
                        expect.mustFail("a pessimistic database's batches single-delete nothing (RocksDB would not"
                                + " lock it)", StatusCode.INVALID_ARGUMENT);
                    }
                }
                boolean sync = data.consumeBoolean();
                boolean disableWal = data.consumeBoolean();
                boolean noSlowdown = data.consumeBoolean();
                WriteOptions writeOptions = WriteOptions.DEFAULT.sync(sync).disableWal(disableWal).noSlowdown(noSlowdown);
                if (sync && disableWal) {
                    expect.mustFail("sync with disableWal", StatusCode.INVALID_ARGUMENT);
                }
                if (noSlowdown) {
                    expect.mayUnlessMustFail(StatusCode.INCOMPLETE);
                }
                if (data.consumeInt(0, 9) == 0) {
                    batch.close();
                    expect.mustFail("the batch is closed", IllegalStateException.class);
                }
                if (call("write(" + writes + ", " + writeOptions + ")", expect, () -> {
                    db.write(batch, writeOptions);
                    return null;
                })) {
                    model.apply(writes);
                }
            } finally {
                batch.close();
            }
            for (Write write : writes) {
                readBack(write.family(), write.key());
            }
        }

        /**
         * A transaction (reopening the database for transactions first, unless it is
         * open so): fuzzed writes and reads of the families through plain and
         * for-update views, each read checked against the model with the
         * transaction's own writes over it, save points, then a commit (which
         * applies the writes to the model), a rollback or a close.
         */
        private void transaction() throws Exception {
            if (transactions == null || !db.isOpen()) {
                closeForReopen();
                transactions = data.consumeBoolean() ? TransactionDbOptions.optimistic()
                        : TransactionDbOptions.pessimistic().lockTimeoutMillis(0).defaultLockTimeoutMillis(0);
                openAndVerify();
            }
            TransactionOptions begin = TransactionOptions.DEFAULT.setSnapshot(data.consumeBoolean());
            Transaction[] opened = new Transaction[1];
            if (!call("beginTransaction(" + begin + ")", onDatabase("default"),
                    () -> opened[0] = db.beginTransaction(begin))) {
                return;
            }
            List<Write> writes = new ArrayList<>();
            List<Integer> savePoints = new ArrayList<>();
            try (Transaction tx = opened[0]) {
                int steps = data.consumeInt(0, 10);
                for (int i = 0; i < steps; i++) {
                    String name = familyName();
                    if (name == null) {
                        continue;
                    }
                    KeyedCalls view = switch (data.consumeInt(0, 2)) {
                        case 0 -> tx.in(families.get(name));
                        case 1 -> tx.forUpdate(families.get(name), true);
                        default -> tx.forUpdate(families.get(name), false);
                    };
                    byte[] key = key();
                    int choice = data.consumeInt(0, 8);
                    if (choice != 4) {
                        pendingStep(choice, view, name, key, writes, false);
                    } else if (data.consumeBoolean()) {
                        tx.setSavePoint();
                        savePoints.add(writes.size());
                    } else if (tx.rollbackToSavePoint() != !savePoints.isEmpty()) {
                        throw failure("rollbackToSavePoint answered against the save points made", null);
                    } else if (!savePoints.isEmpty()) {
                        writes.subList(savePoints.remove(savePoints.size() - 1), writes.size()).clear();
                    }
                }
                switch (data.consumeInt(0, 3)) {
                    case 0 -> {
                        if (call("commit(" + writes + ")", new Expect(), () -> {
                            tx.commit();
                            return null;
                        })) {
                            model.apply(writes);
                        }
                    }
                    case 1 -> tx.rollback();
                    case 2 -> twoPhase(tx, writes);
                    default -> {
                        // closed unfinished: rolled back
                    }
                }
            }
            for (Write write : writes) {
                readBack(write.family(), write.key());
            }
        }

        /**
         * A batch with index over the database as it is open: fuzzed writes
         * and reads of the families through it, each read checked against the
         * model with the batch's writes over it, clears, then a write of the
         * batch (which applies its writes to the model) or a close.
         */
        private void batchWithIndex() throws Exception {
            boolean overwriteKey = data.consumeBoolean();
            WriteBatchWithIndex[] made = new WriteBatchWithIndex[1];
            if (!call("new WriteBatchWithIndex(overwriteKey=" + overwriteKey + ")", onDatabase("default"),
                    () -> made[0] = new WriteBatchWithIndex(db, overwriteKey))) {
                return;
            }
            boolean singleDeletesRefused = transactions != null && !transactions.isOptimistic();
            List<Write> writes = new ArrayList<>();
            try (WriteBatchWithIndex batch = made[0]) {
                int steps = data.consumeInt(0, 10);
                for (int i = 0; i < steps; i++) {
                    String name = familyName();
                    if (name == null) {
                        continue;
                    }
                    byte[] key = key();
                    int choice = data.consumeInt(0, 8);
                    if (choice != 4) {
                        pendingStep(choice, batch.in(families.get(name)), name, key, writes, singleDeletesRefused);
                    } else {
                        log("clear()");
                        batch.clear();
                        writes.clear();
                    }
                }
                if (data.consumeBoolean() && call("write(" + batch + ": " + writes + ")", onDatabase("default"), () -> {
                    db.write(batch);
                    return null;
                })) {
                    model.apply(writes);
                }
            }
            for (Write write : writes) {
                readBack(write.family(), write.key());
            }
        }

        /**
         * One step of pending writes, a transaction's or a batch with index's,
         * through view (a family of them), picked by choice (not 4, which each
         * kind uses for its own calls): a write, which joins writes when it
         * returns, or a read (get, getPinned, multiGet, a cursor's seek)
         * checked against the model with writes over it. A single delete is
         * refused when singleDeletesRefused.
         */
        private void pendingStep(int choice, KeyedCalls view, String name, byte[] key, List<Write> writes,
                boolean singleDeletesRefused) {
            String what = view + " ";
            Expect expect = new Expect();
            switch (choice) {
                case 0 -> {
                    byte[] value = value();
                    if (call(what + "put(" + ApiModel.hex(key) + ")", expect, () -> {
                        view.put(key, value);
                        return null;
                    })) {
                        writes.add(new Write(Kind.PUT, name, key, value));
                    }
                }
                case 1 -> {
                    if (call(what + "delete(" + ApiModel.hex(key) + ")", expect, () -> {
                        view.delete(key);
                        return null;
                    })) {
                        writes.add(new Write(Kind.DELETE, name, key, null));
                    }
                }
                case 2 -> {
                    if (singleDeletesRefused) {
                        expect.mustFail("a pessimistic database's batch single-deletes nothing",
                                StatusCode.INVALID_ARGUMENT);
                    }
                    // RocksDB leaves a key single-deleted after a Delete undefined: not asked.
                    if (model.singleDeleteDefined(name, key, writes, true) && call(what + "singleDelete("
                            + ApiModel.hex(key) + ")", expect, () -> {
                                view.singleDelete(key);
                                return null;
                            })) {
                        writes.add(new Write(Kind.SINGLE_DELETE, name, key, null));
                    }
                }
                case 3 -> {
                    byte[] operand = value();
                    if (model.operator() == MergeOperator.NONE) {
                        expect.mustFail("a merge without a merge operator", StatusCode.INVALID_ARGUMENT);
                    } else if (model.operator() == MergeOperator.UINT64_ADD && operand.length != Long.BYTES) {
                        expect.mustFail("a uint64add operand of other than 8 bytes", StatusCode.INVALID_ARGUMENT);
                    }
                    if (call(what + "merge(" + ApiModel.hex(key) + ", " + ApiModel.hex(operand) + ")", expect,
                            () -> {
                                view.merge(key, operand);
                                return null;
                            })) {
                        writes.add(new Write(Kind.MERGE, name, key, operand));
                    }
                }
                case 5 -> call(what + "getPinned(" + ApiModel.hex(key) + ")", expect, () -> {
                    byte[][] seen = {null};
                    view.getPinned(key, value -> seen[0] = value.toArray(ValueLayout.JAVA_BYTE));
                    checkValue(model.entriesWith(name, writes).get(key), seen[0], what + "getPinned");
                    return null;
                });
                case 6 -> call(what + "get(" + ApiModel.hex(key) + ")", expect, () -> {
                    checkValue(model.entriesWith(name, writes).get(key), view.get(key), what + "get");
                    return null;
                });
                case 7 -> call(what + "multiGet(" + ApiModel.hex(key) + ", its successor)", expect, () -> {
                    byte[] successor = Arrays.copyOf(key, key.length + 1);
                    List<byte[]> values = view.multiGet(List.of(key, successor));
                    checkValue(model.entriesWith(name, writes).get(key), values.get(0), what + "multiGet");
                    checkValue(model.entriesWith(name, writes).get(successor), values.get(1),
                            what + "multiGet");
                    return null;
                });
                default -> call(what + "cursor().seek(" + ApiModel.hex(key) + ")", expect, () -> {
                    try (Cursor cursor = view.cursor()) {
                        Map.Entry<byte[], byte[]> next = model.entriesWith(name, writes).ceilingEntry(key);
                        check(cursor.seek(key) == (next != null), what + "cursor seek found an entry: "
                                + cursor.isValid() + ", the model's next entry: " + next);
                        if (next != null) {
                            checkValue(next.getKey(), cursor.keyBytes(), what + "cursor key");
                            checkValue(next.getValue(), cursor.valueBytes(), what + "cursor value");
                        }
                    }
                    return null;
                });
            }
        }

        /**
         * Names and prepares tx (refused in an optimistic database), then
         * commits it, rolls it back, or closes it and the database undecided:
         * the reopen (checked against the model without its writes) recovers it
         * by name, and it is committed or rolled back then.
         */
        private void twoPhase(Transaction tx, List<Write> writes) throws Exception {
            String name = "t" + data.consumeInt(0, 3);
            if (transactions.isOptimistic()) {
                call("setName(" + name + ")", new Expect().mustFail("the database is optimistic",
                        StatusCode.INVALID_ARGUMENT), () -> {
                            tx.setName(name);
                            return null;
                        });
                return;
            }
            if (!call("setName(" + name + "), prepare()", new Expect(), () -> {
                tx.setName(name);
                tx.prepare();
                return null;
            })) {
                return;
            }
            Transaction decided = tx;
            if (data.consumeBoolean()) {
                tx.close();
                closeForReopen();
                openAndVerify();
                List<Transaction> recovered = db.preparedTransactions();
                check(recovered.size() == 1 && recovered.get(0).name().equals(Optional.of(name)),
                        "the reopen recovered " + recovered + " rather than the prepared transaction " + name);
                decided = recovered.get(0);
            }
            try (Transaction last = decided) {
                if (data.consumeBoolean()) {
                    last.commit();
                    model.apply(writes);
                } else {
                    last.rollback();
                }
            }
        }

        private static WriteBatch record(WriteBatch batch, Keyspace family, Write write) {
            return switch (write.kind()) {
                case PUT -> batch.put(family, write.key(), write.valueOrEnd());
                case DELETE -> batch.delete(family, write.key());
                case SINGLE_DELETE -> batch.singleDelete(family, write.key());
                case MERGE -> batch.merge(family, write.key(), write.valueOrEnd());
                case DELETE_RANGE -> batch.deleteRange(family, write.key(), write.valueOrEnd());
            };
        }

        private void multiGet() throws Exception {
            String name = familyName();
            Keyspace family = family(name);
            List<byte[]> keys = new ArrayList<>();
            int count = data.consumeInt(0, 6);
            for (int i = 0; i < count; i++) {
                keys.add(key());
            }
            Expect expect = onDatabase(name);
            String what = "multiGet(" + family.name() + ", " + keys.stream().map(ApiModel::hex).toList() + ")";
            switch (data.consumeInt(0, 2)) {
                case 0 -> call(what, expect, () -> {
                    List<byte[]> values = family.multiGet(keys);
                    for (int i = 0; i < keys.size(); i++) {
                        checkValue(model.get(name, keys.get(i)), values.get(i), what + " key " + i);
                    }
                    return null;
                });
                case 1 -> {
                    List<MemorySegment> segments = keySegments(keys, expect);
                    int room = data.consumeInt(0, 1) == 0 ? data.consumeInt(0, 40) : 60_000;
                    SegmentKind dstKind = segmentKind();
                    MemorySegment dst = segment(new byte[room], dstKind, expect);
                    long[] offsets = new long[Math.max(0, keys.size() + data.consumeInt(-1, 1))];
                    long[] lengths = new long[offsets.length];
                    if (offsets.length < keys.size()) {
                        expect.mustFail("offsets is shorter than keys", IllegalArgumentException.class);
                    }
                    call(what + " into " + dstKind + " of " + room, expect, () -> {
                        family.multiGet(segments, dst, offsets, lengths);
                        for (int i = 0; i < keys.size(); i++) {
                            byte[] expected = model.get(name, keys.get(i));
                            checkLength(expected, lengths[i], room, what + " key " + i);
                            if (offsets[i] >= 0) {
                                checkValue(expected, dst.asSlice(offsets[i], lengths[i]).toArray(ValueLayout.JAVA_BYTE), what);
                            }
                        }
                        return null;
                    });
                }
                default -> {
                    List<MemorySegment> segments = keySegments(keys, expect);
                    Arena arena = readArena(expect);
                    call(what + " pinned", expect, () -> {
                        List<MemorySegment> values = family.multiGetPinned(arena, segments);
                        for (int i = 0; i < keys.size(); i++) {
                            MemorySegment value = values.get(i);
                            checkValue(model.get(name, keys.get(i)), value == null ? null : value.toArray(ValueLayout.JAVA_BYTE), what);
                        }
                        return null;
                    });
                }
            }
        }

        private List<MemorySegment> keySegments(List<byte[]> keys, Expect expect) throws Exception {
            List<MemorySegment> segments = new ArrayList<>();
            for (byte[] key : keys) {
                segments.add(segment(key, segmentKind(), expect));
            }
            return segments;
        }

        private void cursor() {
            String name = familyName();
            Keyspace family = family(name);
            Expect expect = onDatabase(name);
            byte[] lower = data.consumeBoolean() ? key() : null;
            byte[] upper = data.consumeBoolean() ? key() : null;
            Snapshot snapshot = snapshots.isEmpty() || data.consumeBoolean() ? null
                    : snapshots.get(data.consumeInt(0, snapshots.size() - 1));
            ReadOptions read = ReadOptions.DEFAULT.lowerBound(lower).upperBound(upper).snapshot(snapshot);
            if (snapshot != null) {
                onSnapshot(expect, family, snapshot);
            }
            Map<String, NavigableMap<byte[], byte[]>> view = snapshot == null ? null : snapshotViews.get(snapshot);
            boolean reverse = data.consumeBoolean();
            String what = "cursor(" + family.name() + ", [" + ApiModel.hex(lower) + ", " + ApiModel.hex(upper) + ")"
                    + (snapshot == null ? "" : ", " + snapshot) + (reverse ? ", reverse" : "") + ")";
            call(what, expect, () -> {
                try (Cursor cursor = family.cursor(read)) {
                    List<byte[]> keys = new ArrayList<>();
                    List<byte[]> values = new ArrayList<>();
                    for (boolean valid = reverse ? cursor.last() : cursor.first(); valid; valid = reverse ? cursor.prev() : cursor.next()) {
                        keys.add(cursor.keyBytes());
                        values.add(cursor.valueBytes());
                    }
                    NavigableMap<byte[], byte[]> expected = expectedEntries(name, view, lower, upper);
                    if (reverse) {
                        expected = expected.descendingMap();
                    }
                    check(keys.size() == expected.size(), what + ": " + keys.size() + " entries, the model holds " + expected.size()
                            + ": " + keys.stream().map(ApiModel::hex).toList() + " vs "
                            + expected.keySet().stream().map(ApiModel::hex).toList());
                    int i = 0;
                    for (Map.Entry<byte[], byte[]> entry : expected.entrySet()) {
                        checkValue(entry.getKey(), keys.get(i), what + " key " + i);
                        checkValue(entry.getValue(), values.get(i), what + " value " + i);
                        i++;
                    }
                }
                return null;
            });
        }

        private NavigableMap<byte[], byte[]> expectedEntries(String name, Map<String, NavigableMap<byte[], byte[]>> view,
                byte[] lower, byte[] upper) {
            if (view == null) {
                return model.entries(name, lower, upper);
            }
            // A family created after the snapshot was empty then.
            return model.range(view.getOrDefault(name, model.emptyMap()), lower, upper);
        }

        private void snapshot() {
            switch (data.consumeInt(0, 2)) {
                case 0 -> {
                    Expect expect = onDatabase("default");
                    Snapshot[] taken = new Snapshot[1];
                    if (call("snapshot()", expect, () -> taken[0] = db.snapshot())) {
                        snapshots.add(taken[0]);
                        snapshotViews.put(taken[0], model.copy());
                    }
                }
                case 1 -> {
                    if (!snapshots.isEmpty()) {
                        Snapshot snapshot = snapshots.get(data.consumeInt(0, snapshots.size() - 1));
                        call("close " + snapshot, new Expect(), () -> {
                            snapshot.close();
                            return null;
                        });
                    }
                }
                default -> {
                    if (snapshots.isEmpty()) {
                        return;
                    }
                    Snapshot snapshot = snapshots.get(data.consumeInt(0, snapshots.size() - 1));
                    String name = familyName();
                    Keyspace family = family(name);
                    byte[] key = key();
                    Expect expect = onDatabase(name);
                    onSnapshot(expect, family, snapshot);
                    NavigableMap<byte[], byte[]> view = name == null ? null : snapshotViews.get(snapshot).get(name);
                    String what = "get(" + family.name() + ", " + snapshot + ", " + ApiModel.hex(key) + ")";
                    call(what, expect, () -> {
                        checkValue(view == null ? null : view.get(key), family.get(ReadOptions.DEFAULT.snapshot(snapshot), key), what);
                        return null;
                    });
                }
            }
        }

        private void createFamily() {
            String name = switch (data.consumeInt(0, 3)) {
                case 0 -> "default";
                case 1, 2 -> "cf" + data.consumeInt(0, 3);
                default -> data.consumeString(12);
            };
            Expect expect = onDatabase("default");
            if (refusedByNativeCode(name)) {
                expect.mustFail("a NUL or an unpaired surrogate in the name", IllegalArgumentException.class);
            }
            if (model.hasFamily(name)) {
                expect.mustFail("the family exists", StatusCode.INVALID_ARGUMENT);
            }
            // RocksDB refuses some names (e.g. the empty one) with InvalidArgument.
            expect.mayUnlessMustFail(StatusCode.INVALID_ARGUMENT);
            Keyspace[] created = new Keyspace[1];
            DbOptions familyOptions = data.consumeBoolean() ? null
                    : withFamilySettings(DbOptions.create()).writeBufferBytes(64 << 10)
                            .compression(data.pickValue(new Compression[] {Compression.NONE, Compression.LZ4, Compression.ZSTD}));
            if (call("createColumnFamily(\"" + name + "\", " + familyOptions + ")", expect,
                    () -> created[0] = db.createColumnFamily(name, familyOptions))) {
                model.createFamily(name);
                families.put(name, created[0]);
            }
        }

        private void dropFamily() {
            String name = familyName();
            Keyspace family = family(name);
            Expect expect = onDatabase(name);
            if (name == null) {
                expect.mustFail("the family may belong to the database before a reopen", IllegalArgumentException.class);
            }
            if ("default".equals(name)) {
                expect.mustFail("the default family cannot be dropped", StatusCode.INVALID_ARGUMENT);
            }
            if (pessimisticWrote && (transactions == null || transactions.isOptimistic())) {
                expect.mustFail("a pessimistic open wrote the directory: only such an open sees its prepared"
                        + " transactions", StatusCode.INVALID_ARGUMENT);
            }
            if (call("dropColumnFamily(" + family.name() + ")", expect, () -> {
                db.dropColumnFamily(family);
                return null;
            })) {
                model.dropFamily(name);
                droppedFamilies.add(families.remove(name));
                // A family created later under the name holds nothing a snapshot taken now sees.
                snapshotViews.values().forEach(view -> view.remove(name));
            }
        }

        /** Property names RocksDB documents, and some it does not know. */
        private static final String[] PROPERTY_NAMES = {
            "rocksdb.stats", "rocksdb.estimate-num-keys", "rocksdb.cur-size-all-mem-tables", "rocksdb.num-files-at-level0",
            "rocksdb.levelstats", "rocksdb.sstables", "rocksdb.cfstats", "rocksdb.num-snapshots", "rocksdb.block-cache-usage",
            "rocksdb.aggregated-table-properties", "rocksdb.num-running-compactions", "rocksdb.is-write-stopped",
            "rocksdb.no-such-property", "", "stats",
        };

        private void property() {
            String name = familyName();
            Keyspace family = family(name);
            String property = data.consumeBoolean() ? data.pickValue(PROPERTY_NAMES) : data.consumeString(40);
            Expect expect = onDatabase(name);
            if (refusedByNativeCode(property)) {
                expect.mustFail("a NUL or an unpaired surrogate in the name", IllegalArgumentException.class);
            }
            if (data.consumeBoolean()) {
                call("property(" + family.name() + ", \"" + property + "\")", expect, () -> family.property(property));
            } else {
                call("propertyLong(" + family.name() + ", \"" + property + "\")", expect, () -> family.propertyLong(property));
            }
        }

        private void flushOrCompact() {
            String name = familyName();
            Keyspace family = family(name);
            Expect expect = onDatabase(name);
            if (data.consumeBoolean()) {
                call("flush(" + family.name() + ")", expect, () -> {
                    family.flush();
                    return null;
                });
                return;
            }
            byte[] begin = data.consumeBoolean() ? key() : null;
            byte[] end = data.consumeBoolean() ? key() : null;
            if (begin != null && end != null && model.order().compare(begin, end) > 0) {
                expect.mayUnlessMustFail(StatusCode.INVALID_ARGUMENT);
            }
            call("compactRange(" + family.name() + ", " + ApiModel.hex(begin) + ", " + ApiModel.hex(end) + ")", expect, () -> {
                family.compactRange(begin, end);
                return null;
            });
        }

        private void checkpoint() throws Exception {
            Path directory = root.resolve("checkpoint-" + fileNumber++);
            Expect expect = onDatabase("default");
            if (data.consumeInt(0, 4) == 0) {
                Files.createDirectories(directory);
                expect.mustFail("the directory exists", StatusCode.INVALID_ARGUMENT);
            }
            if (call("checkpoint(" + directory.getFileName() + ")", expect, () -> {
                db.checkpoint(directory);
                return null;
            })) {
                try (RocksDb copy = RocksDb.open(directory, options.createIfMissing(false))) {
                    verify(copy, "in the checkpoint");
                }
            }
        }

        private void ingest() throws Exception {
            String name = familyName();
            Keyspace family = family(name);
            Expect expect = onDatabase(name);
            Path file = root.resolve("ingest-" + fileNumber++ + ".sst");
            List<Write> writes = new ArrayList<>();
            boolean finished;
            try (SstFileWriter writer = SstFileWriter.open(file, options)) {
                int entries = data.consumeInt(0, 6);
                byte[] last = null;
                for (int i = 0; i < entries; i++) {
                    byte[] key = key();
                    boolean inOrder = last == null || model.order().compare(last, key) < 0;
                    Expect order = inOrder ? new Expect() : new Expect().mustFail("the key is out of order", StatusCode.INVALID_ARGUMENT);
                    boolean put = data.consumeBoolean();
                    byte[] value = put ? value() : null;
                    if (call((put ? "sst.put(" : "sst.delete(") + ApiModel.hex(key) + ")", order, () -> {
                        if (put) {
                            writer.put(key, value);
                        } else {
                            writer.delete(key);
                        }
                        return null;
                    })) {
                        writes.add(new Write(put ? Kind.PUT : Kind.DELETE, name, key, value));
                        last = key;
                    }
                }
                Expect finish = writes.isEmpty() ? new Expect().mustFail("nothing was added", StatusCode.INVALID_ARGUMENT) : new Expect();
                finished = call("sst.finish()", finish, writer::finish);
            }
            if (!finished) {
                expect.mustFail("the file is not a finished table file", StatusCode.INVALID_ARGUMENT)
                        .mustFail("the file is not a finished table file", StatusCode.IO_ERROR)
                        .mustFail("the file is not a finished table file", StatusCode.CORRUPTION);
            }
            boolean move = data.consumeBoolean();
            if (call("ingest(" + family.name() + ", " + file.getFileName() + ", move " + move + ")", expect, () -> {
                family.ingest(List.of(file), move);
                return null;
            })) {
                model.apply(writes);
            }
            Files.deleteIfExists(file);
            for (Write write : writes) {
                readBack(write.family(), write.key());
            }
        }

        /** Closes the database (from another thread, or racing a put), then checks calls on it fail. */
        private void closeFromOtherThread() throws Exception {
            if (db == null || !db.isOpen()) {
                return;
            }
            if (data.consumeBoolean()) {
                log("close from the other thread");
                OTHER_THREAD.submit(() -> {
                    db.close();
                    return null;
                }).get();
            } else {
                byte[] key = key();
                byte[] value = value();
                log("close from the other thread, racing put(default, " + ApiModel.hex(key) + ")");
                Future<?> closing = OTHER_THREAD.submit(() -> {
                    db.close();
                    return null;
                });
                if (call("put(default, " + ApiModel.hex(key) + ") racing close", new Expect().may(IllegalStateException.class), () -> {
                    db.put(key, value);
                    return null;
                })) {
                    model.apply(new Write(Kind.PUT, "default", key, value));
                }
                closing.get();
            }
            check(!db.isOpen(), "the database is open after close()");
        }

        /** Closes (unless closed) and reopens, with fuzzer-chosen options when chooseOptions, and checks every entry. */
        private void reopen(boolean chooseOptions) throws Exception {
            closeForReopen();
            transactions = null;
            if (chooseOptions && data.consumeBoolean()) {
                repair();
            }
            if (chooseOptions) {
                openOnceWith(chooseOptions());
            }
            openAndVerify();
        }

        /**
         * Closes (unless closed), opens once with option strings of RocksDB's own option
         * names (those its OPTIONS file records) and values, then reopens and checks
         * every entry.
         */
        private void reopenWithOptionStrings() throws Exception {
            closeForReopen();
            openOnceWith(chooseOptionStrings());
            openAndVerify();
        }

        /** Closes the database unless closed, after (sometimes) a second open of it that must be refused. */
        private void closeForReopen() {
            if (db != null && db.isOpen()) {
                if (data.consumeInt(0, 4) == 0) {
                    Expect twice = new Expect().mustFail("the database is open", StatusCode.IO_ERROR);
                    Path spelling = root.resolve(".").resolve("db");
                    call("open(" + spelling + ") while open", twice, () -> {
                        RocksDb.open(spelling, options).close();
                        return null;
                    });
                }
                call("close()", new Expect(), () -> {
                    db.close();
                    return null;
                });
            }
        }

        /** Repairs the closed database with the options of its families. */
        private void repair() {
            DbOptions repairOptions = options;
            for (String name : model.familyNames()) {
                if (!name.equals("default")) {
                    repairOptions = repairOptions.columnFamily(name, withFamilySettings(DbOptions.create()));
                }
            }
            DbOptions withFamilies = repairOptions;
            // A pessimistic open wrote the directory: its log files may hold prepared transactions,
            // which RocksDB's repair would apply whatever became of them.
            Expect expect = pessimisticWrote ? new Expect().may(StatusCode.NOT_SUPPORTED) : new Expect();
            call("repair(" + model.familyNames() + ")", expect, () -> {
                RocksDb.repair(path, withFamilies);
                return null;
            });
        }

        /**
         * Opens the closed database once with choice, which must succeed unless the
         * choice says why it must or may fail; the calls after use it when it opened,
         * unless it drops entries by design.
         */
        private void openOnceWith(OptionsChoice choice) {
            Expect expect = new Expect();
            if (choice.mayBeRefused()) {
                // NOT_SUPPORTED: a combination RocksDB does not implement, such as FIFO
                // compaction with a limit on open files.
                expect.may(StatusCode.INVALID_ARGUMENT, StatusCode.NOT_SUPPORTED);
            }
            for (String why : choice.invalid()) {
                expect.mustFail(why, StatusCode.INVALID_ARGUMENT);
            }
            RocksDb[] opened = new RocksDb[1];
            if (call("open(" + choice.described() + ")", expect, () -> opened[0] = RocksDb.open(path, choice.options()))) {
                opened[0].close();
                if (choice.dropsEntries()) {
                    entriesMayBeDropped = true;
                } else {
                    options = choice.options();
                }
            }
        }

        /** Opens the closed database with the options in use, and checks it holds exactly the model. */
        private void openAndVerify() throws Exception {
            log("open(" + options + (transactions == null ? ")" : ", " + transactions + ")"));
            db = transactions == null ? RocksDb.open(path, options) : RocksDb.openTransactional(path, options, transactions);
            pessimisticWrote |= transactions != null && !transactions.isOptimistic();
            families.clear();
            for (String name : model.familyNames()) {
                Keyspace family = db.columnFamily(name);
                check(family != null, "family " + name + " is missing after the reopen");
                families.put(name, family);
            }
            snapshots.clear();
            snapshotViews.clear();
            if (entriesMayBeDropped) {
                keepWhatFifoCompactionKept();
                entriesMayBeDropped = false;
            }
            verify(db, "after the reopen");
        }

        /**
         * Options the fuzzer chose: why the open must fail with them (empty: it may
         * succeed), whether RocksDB may refuse them (values the fuzzer changed, which
         * RocksDB validates; otherwise an open without a reason to fail must succeed),
         * and whether they drop entries by design (FIFO compaction).
         */
        private record OptionsChoice(DbOptions options, String described, List<String> invalid, boolean mayBeRefused,
                boolean dropsEntries) {
        }

        private OptionsChoice chooseOptions() {
            List<String> invalid = new ArrayList<>();
            DbOptions chosen = options;
            // Valid sizes stay small: RocksDB preallocates 1.1 times the memtable size on disk for each log.
            long writeBuffer = switch (data.consumeInt(0, 3)) {
                case 0 -> 64 << 10;
                case 1 -> data.consumeLong(64 << 10, 16 << 20);
                case 2 -> data.consumeLong(Long.MIN_VALUE, (64 << 10) - 1);
                default -> data.consumeLong((64L << 30) + 1, Long.MAX_VALUE);
            };
            chosen = chosen.writeBufferBytes(writeBuffer);
            if (writeBuffer < 64 << 10 || writeBuffer > 64L << 30) {
                invalid.add("writeBufferBytes " + writeBuffer);
            }
            if (data.consumeBoolean()) {
                int openFiles = data.consumeInt(-2, 40);
                chosen = chosen.maxOpenFiles(openFiles);
                if (openFiles != DbOptions.UNLIMITED_OPEN_FILES && openFiles < 20) {
                    invalid.add("maxOpenFiles " + openFiles);
                }
            }
            if (data.consumeBoolean()) {
                int level = data.consumeInt(-140_000, 30);
                chosen = chosen.zstdLevel(level);
                if (level == 0 || level > 22 || level < -131072) {
                    invalid.add("zstdLevel " + level);
                }
            }
            if (data.consumeBoolean()) {
                chosen = chosen.compression(data.pickValue(Compression.values()));
            }
            if (data.consumeBoolean()) {
                chosen = chosen.blockCacheBytes(data.consumeLong(0, 1L << 30));
            }
            if (data.consumeBoolean()) {
                chosen = chosen.paranoidChecks(data.consumeBoolean());
            }
            if (data.consumeInt(0, 9) == 0) {
                chosen = chosen.errorIfExists(true);
                invalid.add("errorIfExists on an existing database");
            }
            if (data.consumeInt(0, 9) == 0) {
                chosen = chosen.mergeOperator("no-such-operator");
                invalid.add("an unknown merge operator");
            }
            return new OptionsChoice(chosen, chosen.toString(), invalid, false, false);
        }

        /**
         * Option strings for an open: database options, family options (which every
         * family takes) or both, of RocksDB's own names and values as the database's
         * OPTIONS file records them, some changed.
         */
        private OptionsChoice chooseOptionStrings() {
            RecordedOptions recorded = RecordedOptions.newest(path);
            DbOptions chosen = options;
            List<String> invalid = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            boolean changed = false;
            boolean fifo = false;
            boolean databaseScope = data.consumeBoolean();
            if (databaseScope) {
                OptionString database = chooseOptionString(recorded.database(), false, true);
                chosen = chosen.databaseOptions(database.text());
                texts.add("database \"" + database.text() + "\"");
                invalid.addAll(database.refusals());
                changed = database.changed();
            }
            if (!databaseScope || data.consumeBoolean()) {
                OptionString family = chooseOptionString(recorded.families().get("default"), true, true);
                chosen = chosen.familyOptions(family.text());
                texts.add("family \"" + family.text() + "\"");
                invalid.addAll(family.refusals());
                changed |= family.changed();
                fifo = "kCompactionStyleFIFO".equals(family.values().get("compaction_style"));
            }
            return new OptionsChoice(chosen, String.join(", ", texts), invalid, changed, fifo);
        }

        /**
         * An option string the fuzzer chose (name=value;...), the last value of each name
         * in it, why pinrock refuses it (each reason requires the refusal), and whether a
         * value differs from the one recorded.
         */
        private record OptionString(String text, Map<String, String> values, List<String> refusals, boolean changed) {
        }

        /** Enumerators an OPTIONS file of the default options does not show, beside those it does. */
        private static final List<String> ENUMERATORS = List.of("kCompactionStyleLevel", "kCompactionStyleUniversal",
                "kCompactionStyleFIFO", "kPointInTimeRecovery", "kTolerateCorruptedTailRecords", "kAbsoluteConsistency",
                "kSkipAnyCorruptedRecords", "kNoCompression", "kSnappyCompression", "kLZ4Compression", "kZSTD",
                "kByCompensatedSize", "kOldestLargestSeqFirst", "kOldestSmallestSeqFirst", "kRoundRobin", "kHot", "kCold");

        /**
         * One to three options of recorded (the names RocksDB wrote in the OPTIONS file,
         * with their values), each with its recorded value, another value of its kind,
         * or a fuzzed token.
         */
        private OptionString chooseOptionString(NavigableMap<String, String> recorded, boolean familyScope, boolean atOpen) {
            List<String> names = new ArrayList<>(recorded.keySet());
            Map<String, String> values = new HashMap<>();
            List<String> assignments = new ArrayList<>();
            boolean changed = false;
            int count = data.consumeInt(1, 3);
            for (int i = 0; i < count; i++) {
                String name = names.get(data.consumeInt(0, names.size() - 1));
                String recordedValue = recorded.get(name);
                String value = switch (data.consumeInt(0, 3)) {
                    case 0, 1 -> recordedValue;
                    case 2 -> otherValue(recordedValue, recorded.values());
                    default -> token();
                };
                changed |= !value.equals(recordedValue);
                values.put(name, value);
                assignments.add(name + "=" + value);
            }
            return new OptionString(String.join(";", assignments), values,
                    OptionRefusals.reasons(values, familyScope, atOpen), changed);
        }

        /** Another value of recorded's kind: a boolean flipped, another number or enumerator, or no object. */
        private String otherValue(String recorded, Collection<String> allRecorded) {
            if (recorded.equals("true") || recorded.equals("false")) {
                return String.valueOf(!Boolean.parseBoolean(recorded));
            }
            Long number = OptionRefusals.asLong(recorded);
            if (number != null) {
                // Small numbers only: RocksDB allocates by some sizes and counts (levels, shards).
                return String.valueOf(switch (data.consumeInt(0, 4)) {
                    case 0 -> 0;
                    case 1 -> -1;
                    case 2 -> number * 2;
                    case 3 -> number / 2;
                    default -> data.consumeLong(0, 4096);
                });
            }
            if (recorded.matches("-?\\d+\\.\\d+")) {
                return data.pickValue(new String[] {"0", "0.5", "-1.5", String.valueOf(Double.parseDouble(recorded) * 2)});
            }
            if (recorded.matches("k[A-Z]\\w*")) {
                List<String> enumerators = new ArrayList<>(ENUMERATORS);
                allRecorded.stream().filter(value -> value.matches("k[A-Z]\\w*")).sorted().forEach(enumerators::add);
                return data.pickValue(enumerators);
            }
            return data.consumeBoolean() ? "nullptr" : recorded;
        }

        /** A fuzzed value that stays one value: without the separators of option strings, NULs or unpaired surrogates. */
        private String token() {
            StringBuilder token = new StringBuilder();
            data.consumeString(16).codePoints()
                    .filter(c -> c != 0 && ";={}".indexOf(c) < 0 && !Character.isSurrogate((char) c))
                    .forEach(token::appendCodePoint);
            return token.toString();
        }

        /**
         * Changes options while the database is open, through the database or a family
         * (setDatabaseOptions, setFamilyOptions, as strings or in a DbOptions), and checks
         * that what changed is what RocksDB records in its next OPTIONS file.
         */
        private void changeOptionsWhileOpen() {
            boolean familyScope = data.consumeBoolean();
            String name = familyScope ? familyName() : "default";
            Keyspace family = family(name);
            Expect expect = onDatabase(name);
            RecordedOptions recorded = RecordedOptions.newest(path);
            if (familyScope && data.consumeInt(0, 3) == 0) {
                long bytes = data.consumeLong(-1, 16 << 20);
                if (expect.whyItMustFail.isEmpty() && bytes < 64 << 10) {
                    expect.mustFail("a write buffer below 64 KiB, which an open would correct", StatusCode.INVALID_ARGUMENT);
                }
                if (call("setFamilyOptions(" + family.name() + ", writeBufferBytes " + bytes + ")", expect, () -> {
                    family.setFamilyOptions(DbOptions.create().writeBufferBytes(bytes));
                    return null;
                }) && bytes != DbOptions.create().writeBufferBytes()) {
                    checkRecorded(name, Map.of("write_buffer_size", String.valueOf(bytes)));
                }
                return;
            }
            NavigableMap<String, String> catalog = familyScope
                    ? recorded.families().getOrDefault(name, recorded.families().get("default")) : recorded.database();
            OptionString chosen = chooseOptionString(catalog, familyScope, false);
            if (expect.whyItMustFail.isEmpty()) {
                chosen.refusals().forEach(why -> expect.mustFail(why, StatusCode.INVALID_ARGUMENT));
            }
            // RocksDB changes only some options while open, and validates what it changes.
            expect.mayUnlessMustFail(StatusCode.INVALID_ARGUMENT);
            boolean typed = data.consumeBoolean();
            String what = (familyScope ? "setFamilyOptions(" + family.name() + ", " : "setDatabaseOptions(")
                    + (typed ? "DbOptions with " : "") + "\"" + chosen.text() + "\")";
            if (call(what, expect, () -> {
                if (familyScope && typed) {
                    family.setFamilyOptions(DbOptions.create().familyOptions(chosen.text()));
                } else if (familyScope) {
                    family.setFamilyOptions(chosen.text());
                } else if (typed) {
                    db.setDatabaseOptions(DbOptions.create().databaseOptions(chosen.text()));
                } else {
                    db.setDatabaseOptions(chosen.text());
                }
                return null;
            })) {
                checkRecorded(familyScope ? name : null, chosen.values());
            }
        }

        /**
         * Checks that the newest OPTIONS file records values (of the database's options when
         * family is null), where a value is as RocksDB writes it (a boolean, a plain number).
         */
        private void checkRecorded(String family, Map<String, String> values) {
            RecordedOptions recorded = RecordedOptions.newest(path);
            Map<String, String> section = family == null ? recorded.database() : recorded.families().get(family);
            if (section == null) {
                return; // a family name the OPTIONS file writes escaped
            }
            values.forEach((name, given) -> {
                // RocksDB's SetDBOptions takes bytes_per_sync=0 as 1 MiB (an open does so only
                // with a rate limiter); RocksDb.setDatabaseOptions says so.
                String value = family == null && name.equals("bytes_per_sync") && "0".equals(given)
                        ? String.valueOf(1 << 20) : given;
                Long number = OptionRefusals.asLong(value);
                boolean asWritten = value.equals("true") || value.equals("false") || number != null && value.equals(number.toString());
                if (asWritten) {
                    check(value.equals(section.get(name)), "after the change, the OPTIONS file records " + name + "="
                            + section.get(name) + ", not " + value);
                }
            });
        }

        /**
         * After an open with FIFO compaction, which deletes the oldest table files by
         * design: every entry left must be one the model holds, with its value (a merged
         * key's may lack the operands of a deleted file), and the model forgets what is gone.
         */
        private void keepWhatFifoCompactionKept() {
            log("keep what FIFO compaction kept");
            for (String name : model.familyNames()) {
                NavigableMap<byte[], byte[]> kept = model.emptyMap();
                try (Cursor cursor = db.columnFamily(name).cursor()) {
                    for (boolean valid = cursor.first(); valid; valid = cursor.next()) {
                        kept.put(cursor.keyBytes(), cursor.valueBytes());
                    }
                }
                for (Map.Entry<byte[], byte[]> entry : kept.entrySet()) {
                    byte[] held = model.get(name, entry.getKey());
                    check(held != null, name + " holds " + ApiModel.hex(entry.getKey()) + " after FIFO compaction, the model does not");
                    if (!model.mergedSinceDelete(name, entry.getKey())) {
                        checkValue(held, entry.getValue(), name + " after FIFO compaction, value of " + ApiModel.hex(entry.getKey()));
                    } else if (!Arrays.equals(held, entry.getValue())) {
                        model.apply(new Write(Kind.PUT, name, entry.getKey(), entry.getValue()));
                    }
                }
                for (byte[] key : new ArrayList<>(model.entries(name, null, null).keySet())) {
                    if (!kept.containsKey(key)) {
                        model.apply(new Write(Kind.DELETE, name, key, null));
                    }
                }
            }
        }

        /** Checks that database holds exactly the model: its families, and each family's entries by scan and get. */
        private void verify(RocksDb database, String when) {
            if (database == null || !database.isOpen()) {
                return;
            }
            log("verify " + when);
            check(new TreeSet<>(database.columnFamilyNames()).equals(new TreeSet<>(model.familyNames())),
                    "families " + when + ": " + database.columnFamilyNames() + ", the model holds " + model.familyNames());
            for (String name : model.familyNames()) {
                Keyspace family = database.columnFamily(name);
                NavigableMap<byte[], byte[]> expected = model.entries(name, null, null);
                List<Map.Entry<byte[], byte[]>> actual = new ArrayList<>();
                try (Cursor cursor = family.cursor()) {
                    for (boolean valid = cursor.first(); valid; valid = cursor.next()) {
                        actual.add(Map.entry(cursor.keyBytes(), cursor.valueBytes()));
                    }
                }
                check(actual.size() == expected.size(), name + " " + when + " holds " + actual.size()
                        + " entries " + actual.stream().map(e -> ApiModel.hex(e.getKey())).toList()
                        + ", the model " + expected.size() + " " + expected.keySet().stream().map(ApiModel::hex).toList());
                int i = 0;
                for (Map.Entry<byte[], byte[]> entry : expected.entrySet()) {
                    checkValue(entry.getKey(), actual.get(i).getKey(), name + " " + when + " key " + i);
                    checkValue(entry.getValue(), actual.get(i).getValue(), name + " " + when + " value of " + ApiModel.hex(entry.getKey()));
                    checkValue(entry.getValue(), family.get(entry.getKey()), name + " " + when + " get " + ApiModel.hex(entry.getKey()));
                    i++;
                }
                for (byte[] key : FIXED_KEYS) {
                    if (!expected.containsKey(key)) {
                        checkValue(null, family.get(key), name + " " + when + " get " + ApiModel.hex(key) + ", which the scan did not list");
                    }
                }
            }
        }

        /** Closes the database and the arenas. */
        void release() throws Exception {
            try {
                if (db != null) {
                    db.close();
                }
            } finally {
                confined.close();
                shared.close();
                OTHER_THREAD.submit(() -> {
                    otherThread.close();
                    return null;
                }).get();
            }
        }
    }

    /**
     * Segments of the global arena, carved from one block (the global arena
     * never frees) that each input starts over: segments an input takes never
     * overlap, so filling one cannot change another the input still uses (a
     * destination overwriting the keys of the same call). An input that takes
     * more than the block gets fresh global memory.
     */
    private static final class GlobalSegments {
        /** Above what one input can take: MAX_CALLS calls of at most a 60,000-byte destination and small keys. */
        private static final long SIZE = 8L << 20;
        private static final MemorySegment BLOCK = Arena.global().allocate(SIZE);
        private static long next;

        /** Starts a new input: the previous input's segments are no longer used. */
        static synchronized void startInput() {
            next = 0;
        }

        static synchronized MemorySegment take(long length) {
            if (next + length > SIZE) {
                return Arena.global().allocate(Math.max(1, length)).asSlice(0, length);
            }
            MemorySegment slice = BLOCK.asSlice(next, length);
            next += length;
            return slice;
        }
    }
}
