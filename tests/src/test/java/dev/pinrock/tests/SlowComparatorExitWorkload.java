package dev.pinrock.tests;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import dev.pinrock.DbOptions;
import dev.pinrock.KeyComparator;
import dev.pinrock.RocksDb;

/**
 * A child-JVM program for {@link SlowComparatorExitTest}: opens the
 * database at args[0] with {@link SlowReverse}, writes {@link #KEYS} keys in
 * {@link #FILES} table files, makes each comparison take args[1] ms from
 * then on, compacts on a thread of its own (RocksDB's compaction thread
 * compares every key, minutes in all), and once the first slow comparison
 * runs, calls {@code System.exit(0)} with the database open. Prints what it
 * did last.
 */
public final class SlowComparatorExitWorkload {
    static final int KEYS = 400;
    static final int FILES = 4;

    private SlowComparatorExitWorkload() {
    }

    static byte[] key(int i) {
        return String.format("k%04d", i).getBytes(StandardCharsets.UTF_8);
    }

    /** RocksDB's reverse bytewise order written in Java, each comparison slowed by {@link #millis} once set. */
    static final class SlowReverse extends KeyComparator {
        final CountDownLatch comparing = new CountDownLatch(1);
        volatile long millis;

        SlowReverse() {
            super("test.SlowReverse");
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            if (millis > 0) {
                comparing.countDown();
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return KeyComparator.BYTEWISE.compare(b, a);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        SlowReverse order = new SlowReverse();
        RocksDb db = RocksDb.open(Path.of(args[0]), DbOptions.create().createIfMissing(true).comparator(order));
        for (int file = 0; file < FILES; file++) {
            for (int i = file; i < KEYS; i += FILES) {
                db.put(key(i), key(i));
            }
            db.flush();
        }
        order.millis = Long.parseLong(args[1]);
        Thread.ofPlatform().daemon().start(() -> {
            try {
                db.compactRange();
            } catch (RuntimeException endedByTheExit) {
                // the exit came first
            }
        });
        order.comparing.await();
        System.out.println("comparing");
        System.out.println("exiting");
        System.exit(0);
    }
}
