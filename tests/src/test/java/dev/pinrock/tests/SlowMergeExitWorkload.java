package dev.pinrock.tests;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import dev.pinrock.DbOptions;
import dev.pinrock.MergeOperator;
import dev.pinrock.MergeResult;
import dev.pinrock.RocksDb;

/**
 * A child-JVM program for {@link SlowMergeExitTest}: opens the database at
 * args[0] with a merge operator written in Java that takes args[1] ms per
 * merge (operands joined after the value), writes {@link #KEYS} keys of a
 * put and {@link #OPERANDS} merges each into the memtable, flushes on a
 * thread of its own (the flush merges every key in RocksDB's background
 * thread, seconds in all), and once the first merge runs there, calls
 * {@code System.exit(0)} with the database open. Prints what it did last.
 */
public final class SlowMergeExitWorkload {
    static final int KEYS = 400;
    static final int OPERANDS = 3;
    static final String NAME = "test.SlowJoin";

    private SlowMergeExitWorkload() {
    }

    static byte[] key(int i) {
        return ("k" + i).getBytes(StandardCharsets.UTF_8);
    }

    /** The value key i holds once merged: its put, then its operands. */
    static String merged(int i) {
        StringBuilder value = new StringBuilder("v" + i);
        for (int j = 0; j < OPERANDS; j++) {
            value.append(",o").append(j);
        }
        return value.toString();
    }

    /** Joins operands after the value with commas, after sleeping millis. */
    static MergeOperator join(long millis, CountDownLatch merging) {
        return new MergeOperator() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public boolean fullMerge(MemorySegment key, MemorySegment existingValue, List<MemorySegment> operands,
                    MergeResult result) {
                merging.countDown();
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                StringBuilder joined = new StringBuilder(existingValue == null ? ""
                        : new String(existingValue.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                                StandardCharsets.UTF_8));
                for (MemorySegment operand : operands) {
                    joined.append(joined.isEmpty() ? "" : ",")
                            .append(new String(operand.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                                    StandardCharsets.UTF_8));
                }
                result.set(joined.toString().getBytes(StandardCharsets.UTF_8));
                return true;
            }
        };
    }

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch merging = new CountDownLatch(1);
        RocksDb db = RocksDb.open(Path.of(args[0]), DbOptions.create().createIfMissing(true)
                .mergeOperator(join(Long.parseLong(args[1]), merging)));
        for (int i = 0; i < KEYS; i++) {
            db.put(key(i), ("v" + i).getBytes(StandardCharsets.UTF_8));
            for (int j = 0; j < OPERANDS; j++) {
                db.merge(key(i), ("o" + j).getBytes(StandardCharsets.UTF_8));
            }
        }
        Thread.ofPlatform().daemon().start(() -> {
            try {
                db.flush();
            } catch (RuntimeException endedByTheExit) {
                // the exit came first
            }
        });
        merging.await();
        System.out.println("merging");
        System.out.println("exiting");
        System.exit(0);
    }
}
