package dev.pinrock.tests;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.pinrock.AssociativeMergeOperator;
import dev.pinrock.CompactionFilter;
import dev.pinrock.CompactionFilterFactory;
import dev.pinrock.DbOptions;
import dev.pinrock.EventListener;
import dev.pinrock.KeyedCalls;
import dev.pinrock.Keyspace;
import dev.pinrock.MergeResult;
import dev.pinrock.RocksDb;
import dev.pinrock.Transaction;
import dev.pinrock.TransactionDbOptions;
import dev.pinrock.TransactionOptions;
import dev.pinrock.WriteBatch;
import dev.pinrock.WriteOptions;

/**
 * The child of {@link KillDurabilityTest}: {@link #WRITERS} threads write
 * batches at once (so that RocksDB commits them in groups), each its own
 * numbered batches from a first number on, forever, and report what the
 * database has acknowledged, until the process is killed.
 *
 * <p>Batch {@code s} of writer {@code w} ({@link #fill}) mixes every kind of
 * write over two column families: it puts its marker {@code b<w>-<s>}, merges
 * 1 into the writer's counter {@code c<w>} in the {@code uint64add} family
 * {@code counts}, puts {@code d<w>-<s>} and deletes the previous batch's
 * {@code d<w>-<s-1>}, puts one to three keys {@code r<w>-<s>-<i>} and deletes
 * the previous batch's with one range deletion. So after any kill the
 * database shows, for each writer, batches 0 to some {@code m} applied whole
 * and no other: markers 0 to m, the counter at m + 1, {@code d<w>-<m>} alone
 * and batch m's {@code r} keys alone ({@link KillDurabilityTest} checks this).
 *
 * <p>Arguments: directory, mode, then each writer's first batch number. In
 * mode {@code sync} every batch is written with {@code sync=true} and then
 * reported as {@code ack <w> <s>}; mode {@code no-sync} does the same with the
 * default write options (logged, not synced). In mode {@code no-wal} batches
 * skip the write-ahead log, are reported as {@code wrote <w> <s>} (not
 * durable) and the counters live in the default family (a flush without the
 * log is atomic within one family only); the main thread flushes again and
 * again and, after each flush returns, reports {@code flushed <s0> <s1> ...}:
 * the batch each writer had acknowledged when that flush began (-1 for none).
 * Mode {@code two-phase} opens the database pessimistic transactional and
 * writes each batch in a transaction named {@code <w>-<s>}, synced: it
 * prepares it, reports {@code prepared <w> <s>}, commits it and reports
 * {@code ack <w> <s>}. Mode {@code java-callbacks} writes as {@code no-sync}
 * does into a database whose counters are summed by a merge operator
 * written in Java and whose compactions, frequent under small memtables,
 * call a compaction filter written in Java that removes the junk key
 * {@code j<w>-<s>} every batch also puts (the other modes leave it); it
 * reports {@code compacting} and {@code compacted} as its event listener
 * hears of compactions.
 */
final class KillWorkload {
    static final int WRITERS = 4;
    static final String COUNTS = "counts";

    private KillWorkload() {
    }

    /** The options of the database: uint64add in every family ({@link #COUNTS} exists only once created). */
    static DbOptions options() {
        return DbOptions.create().createIfMissing(true).writeBufferBytes(4 << 20).mergeOperator("uint64add")
                .columnFamily(COUNTS, countsOptions(false));
    }

    /**
     * The options of mode {@code java-callbacks}: a uint64add written in Java
     * in every family, and a compaction filter written in Java that removes
     * the junk keys every batch writes, under small memtables and a level-0
     * trigger of 2, so that kills land during compactions that call both.
     */
    static DbOptions javaCallbacksOptions() {
        return DbOptions.create().createIfMissing(true).writeBufferBytes(256 << 10).mergeOperator(new JavaUint64Add())
                .compactionFilter(CompactionFilterFactory.of("kill-workload.junk", JUNK_FILTER))
                .familyOptions("level0_file_num_compaction_trigger=2")
                .columnFamily(COUNTS, countsOptions(true));
    }

    /** The options of the counters' family. */
    private static DbOptions countsOptions(boolean java) {
        return java ? DbOptions.create().mergeOperator(new JavaUint64Add())
                .familyOptions("level0_file_num_compaction_trigger=2") : DbOptions.create().mergeOperator("uint64add");
    }

    /** The options of mode. */
    static DbOptions options(String mode) {
        return mode.equals("java-callbacks") ? javaCallbacksOptions() : options();
    }

    /** RocksDB's uint64add written in Java: little-endian 64-bit sums. */
    static final class JavaUint64Add extends AssociativeMergeOperator {
        JavaUint64Add() {
            super("kill-workload.uint64add");
        }

        @Override
        protected boolean merge(MemorySegment key, MemorySegment value, MemorySegment operand, MergeResult result) {
            long sum = (value == null ? 0 : value.get(LITTLE_ENDIAN_LONG, 0)) + operand.get(LITTLE_ENDIAN_LONG, 0);
            result.allocate(Long.BYTES).set(LITTLE_ENDIAN_LONG, 0, sum);
            return true;
        }
    }

    private static final ValueLayout.OfLong LITTLE_ENDIAN_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Removes the junk keys ({@link #junk}); keeps every other entry. */
    private static final CompactionFilter JUNK_FILTER = (key, kind, value, decision) -> {
        if (key.get(ValueLayout.JAVA_BYTE, 0) == 'j') {
            decision.remove();
        }
    };

    /** Reports {@code compacting} and {@code compacted} as compactions begin and end (told after the fact). */
    private static final EventListener COMPACTIONS_REPORTED = new EventListener() {
        @Override
        public void onCompactionBegun(CompactionInfo compaction) {
            report("compacting");
        }

        @Override
        public void onCompactionCompleted(CompactionInfo compaction) {
            report("compacted");
        }
    };

    private static void report(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** A key batch s of writer w puts in mode java-callbacks for the compaction filter to remove. */
    static byte[] junk(int writer, long batch) {
        return key("j" + writer + "-" + padded(batch));
    }

    static byte[] marker(int writer, long batch) {
        return key("b" + writer + "-" + padded(batch));
    }

    static byte[] counter(int writer) {
        return ("c" + writer).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] deleted(int writer, long batch) {
        return key("d" + writer + "-" + padded(batch));
    }

    static byte[] ranged(int writer, long batch, int i) {
        return key("r" + writer + "-" + padded(batch) + "-" + i);
    }

    /** How many {@code r} keys batch s puts: one to three. */
    static int rangedKeys(long batch) {
        return 1 + (int) (batch % 3);
    }

    private static byte[] key(String key) {
        return key.getBytes(StandardCharsets.US_ASCII);
    }

    /** A batch number in ten digits, so that keys sort in batch order. */
    private static String padded(long batch) {
        String digits = Long.toString(batch);
        return "0".repeat(Math.max(0, 10 - digits.length())) + digits;
    }

    /** The value of a key of batch s of writer w: 16 to 1015 bytes, a pattern that depends on both. */
    static byte[] value(int writer, long batch) {
        long n = batch * WRITERS + writer;
        byte[] value = new byte[16 + (int) (n * 7919 % 1000)];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (n * 31 + i);
        }
        return value;
    }

    /** A counter's value: uint64add's little-endian 64-bit number. */
    static long count(byte[] value) {
        return value == null ? 0 : ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** Where batch s of a writer goes: a write batch, or a transaction. */
    private interface Writes {
        void put(byte[] key, byte[] value);

        /** Merges into the counters' family. */
        void mergeCount(byte[] key, byte[] operand);

        void delete(byte[] key);

        /** Deletes the r keys of batch s - 1 of writer w, and no other. */
        void deleteRanged(int writer, long s);
    }

    /** Fills batch with batch s of writer w, its counter merged into counters. */
    static void fill(WriteBatch batch, Keyspace counters, int writer, long s) {
        fill(new Writes() {
            @Override
            public void put(byte[] key, byte[] value) {
                batch.put(key, value);
            }

            @Override
            public void mergeCount(byte[] key, byte[] operand) {
                batch.merge(counters, key, operand);
            }

            @Override
            public void delete(byte[] key) {
                batch.delete(key);
            }

            @Override
            public void deleteRanged(int writer, long s) {
                String previous = "r" + writer + "-" + padded(s - 1);
                // '.' follows '-': the range holds exactly the previous batch's r keys.
                batch.deleteRange((previous + "-").getBytes(StandardCharsets.US_ASCII),
                        (previous + ".").getBytes(StandardCharsets.US_ASCII));
            }
        }, writer, s);
    }

    /**
     * Writes batch s of writer w into transaction, its counter merged into
     * counters; the previous batch's r keys are deleted one by one
     * (transactions take no range deletes).
     */
    static void fill(Transaction transaction, Keyspace counters, int writer, long s) {
        KeyedCalls counts = transaction.in(counters);
        fill(new Writes() {
            @Override
            public void put(byte[] key, byte[] value) {
                transaction.put(key, value);
            }

            @Override
            public void mergeCount(byte[] key, byte[] operand) {
                counts.merge(key, operand);
            }

            @Override
            public void delete(byte[] key) {
                transaction.delete(key);
            }

            @Override
            public void deleteRanged(int writer, long s) {
                for (int i = 0; i < rangedKeys(s - 1); i++) {
                    transaction.delete(ranged(writer, s - 1, i));
                }
            }
        }, writer, s);
    }

    private static void fill(Writes writes, int writer, long s) {
        byte[] value = value(writer, s);
        writes.put(marker(writer, s), value);
        writes.put(junk(writer, s), value);
        writes.mergeCount(counter(writer), ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(1).array());
        writes.put(deleted(writer, s), value);
        for (int i = 0; i < rangedKeys(s); i++) {
            writes.put(ranged(writer, s, i), value);
        }
        if (s > 0) {
            writes.delete(deleted(writer, s - 1));
            writes.deleteRanged(writer, s);
        }
    }

    /** The name mode two-phase gives batch s of writer w's transaction. */
    static String transactionName(int writer, long s) {
        return writer + "-" + s;
    }

    /** The options mode two-phase opens with. */
    static TransactionDbOptions transactions() {
        return TransactionDbOptions.pessimistic().lockTimeoutMillis(10_000);
    }

    public static void main(String[] args) throws InterruptedException {
        Path dir = Path.of(args[0]);
        String mode = args[1];
        boolean logged = !mode.equals("no-wal");
        WriteOptions options = switch (mode) {
            case "sync" -> WriteOptions.DEFAULT.sync(true);
            case "no-sync", "java-callbacks" -> WriteOptions.DEFAULT;
            case "no-wal" -> WriteOptions.DEFAULT.disableWal(true);
            case "two-phase" -> WriteOptions.DEFAULT.sync(true);
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        };
        AtomicLongArray acknowledged = new AtomicLongArray(WRITERS);
        boolean twoPhase = mode.equals("two-phase");
        try (RocksDb db = twoPhase ? RocksDb.openTransactional(dir, options(), transactions())
                : RocksDb.open(dir, mode.equals("java-callbacks")
                        ? javaCallbacksOptions().eventListener(COMPACTIONS_REPORTED) : options())) {
            Keyspace counters = logged ? counts(db, mode.equals("java-callbacks")) : db;
            // "open" once every writer has filled its first batch, so that a kill timed from it meets writes.
            CountDownLatch ready = new CountDownLatch(WRITERS);
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                long first = Long.parseLong(args[2 + w]);
                acknowledged.set(w, first - 1);
                writers.add(Thread.ofPlatform().start(() -> {
                    try (WriteBatch batch = new WriteBatch()) {
                        fill(batch, counters, writer, first);
                        ready.countDown();
                        go.await();
                        for (long s = first; ; s++) {
                            if (twoPhase) {
                                commitInTwoPhases(db, counters, options, writer, s);
                            } else {
                                if (s > first) {
                                    batch.clear();
                                    fill(batch, counters, writer, s);
                                }
                                db.write(batch, options);
                            }
                            acknowledged.set(writer, s);
                            System.out.println((logged ? "ack " : "wrote ") + writer + " " + s);
                            System.out.flush();
                        }
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            ready.await();
            System.out.println("open");
            System.out.flush();
            go.countDown();
            while (!logged) {
                StringJoiner before = new StringJoiner(" ", "flushed ", "");
                for (int w = 0; w < WRITERS; w++) {
                    before.add(String.valueOf(acknowledged.get(w)));
                }
                db.flush();
                System.out.println(before);
                System.out.flush();
                Thread.sleep(20);
            }
            for (Thread writer : writers) {
                writer.join();
            }
        }
    }

    /**
     * Writes batch s of writer w in a named transaction, prepares it,
     * reports {@code prepared <w> <s>}, and commits it.
     */
    private static void commitInTwoPhases(RocksDb db, Keyspace counters, WriteOptions options, int writer, long s) {
        try (Transaction transaction = db.beginTransaction(TransactionOptions.DEFAULT.writeOptions(options))) {
            transaction.setName(transactionName(writer, s));
            fill(transaction, counters, writer, s);
            transaction.prepare();
            System.out.println("prepared " + writer + " " + s);
            System.out.flush();
            transaction.commit();
        }
    }

    /** The family {@link #COUNTS}, created by the first open. */
    private static Keyspace counts(RocksDb db, boolean java) {
        Keyspace counts = db.columnFamily(COUNTS);
        return counts != null ? counts : db.createColumnFamily(COUNTS, countsOptions(java));
    }
}
