package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.DbOptions;
import dev.pinrock.Keyspace;
import dev.pinrock.RocksDb;

/**
 * Dropping and re-creating a column family while other threads write and
 * flush it must not stop the database's writes: a dropped family's memtables
 * and write-stall state must go with it.
 *
 * <p>Each round writes and flushes family {@code f} on four threads while
 * another drops and re-creates it every 20 ms, then checks that a put to the
 * default family and the database's close return. A call that has not
 * returned after {@link #HANG_SECONDS} is taken for a hang (they take
 * milliseconds otherwise) and fails the round instead of the build hanging:
 * the hung threads are daemons left behind. {@code -Dpinrock.familydrop.rounds}
 * runs more rounds, each on a new database, and reports how many hung.
 */
class FamilyDropTest {
    private static final int ROUNDS = Integer.getInteger("pinrock.familydrop.rounds", 1);
    private static final int DROPS = 150;
    private static final int WRITERS = 4;
    private static final long HANG_SECONDS = 30;
    private static final byte[] VALUE = new byte[1024];

    @TempDir
    Path dir;

    @Test
    void droppingAFamilyUnderWritesAndFlushesNeverStopsTheDatabase() throws InterruptedException {
        List<String> hung = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            ConcurrentLinkedQueue<Throwable> roundFailures = new ConcurrentLinkedQueue<>();
            String hang = churnAndCheck(dir.resolve("db" + round), roundFailures);
            if (hang != null) {
                hung.add("round " + round + ": " + hang);
            }
            failures.addAll(roundFailures);
        }
        System.out.println("FamilyDropTest: hung in " + hung.size() + " of " + ROUNDS + " rounds " + hung
                + "; " + failures.size() + " unexpected exceptions");
        assertEquals(List.of(), hung);
        if (!failures.isEmpty()) {
            failures.forEach(Throwable::printStackTrace);
            fail("unexpected exceptions, the first: " + failures.getFirst());
        }
    }

    /**
     * Runs one round, adding the unexpected exceptions of the calls on the family to
     * failures; returns what hung, or null.
     */
    private static String churnAndCheck(Path path, Collection<Throwable> failures) throws InterruptedException {
        RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true));
        db.createColumnFamily("f");
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            threads.add(daemon("writer " + w, () -> {
                for (long n = 0; !stop.get(); n++) {
                    Keyspace family = db.columnFamily("f"); // null while the family is being re-created
                    if (family == null) {
                        continue;
                    }
                    try {
                        for (int i = 0; i < 50; i++) {
                            family.put(("w" + writer + "-" + n + "-" + i).getBytes(StandardCharsets.UTF_8), VALUE);
                        }
                        family.flush();
                    } catch (IllegalStateException e) {
                        if (!e.getMessage().equals("column family f was dropped")) {
                            failures.add(e);
                        }
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }
            }));
        }
        threads.add(daemon("dropper", () -> {
            try {
                for (int i = 0; i < DROPS; i++) {
                    db.dropColumnFamily(db.columnFamily("f"));
                    db.createColumnFamily("f");
                    Thread.sleep(20);
                }
            } catch (InterruptedException | RuntimeException e) {
                failures.add(e);
            } finally {
                stop.set(true);
            }
        }));
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_SECONDS * 4);
        for (Thread thread : threads.reversed()) { // the dropper first: the writers stop after it
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                stop.set(true);
                return thread.getName() + " never returned, is-write-stopped="
                        + db.propertyLong("rocksdb.is-write-stopped");
            }
        }
        if (!returnsInTime("put to the default family", () -> db.put(new byte[] {'k'}, VALUE))) {
            return "a put to the default family never returned, is-write-stopped="
                    + db.propertyLong("rocksdb.is-write-stopped");
        }
        assertEquals(0L, db.propertyLong("rocksdb.is-write-stopped").orElseThrow());
        if (!returnsInTime("close", db::close)) {
            return "close never returned";
        }
        assertTrue(!db.isOpen());
        return null;
    }

    /** Runs call on a daemon thread; returns whether it returned within the hang bound. */
    private static boolean returnsInTime(String name, Runnable call) throws InterruptedException {
        CountDownLatch returned = new CountDownLatch(1);
        daemon(name, () -> {
            call.run();
            returned.countDown();
        }).start();
        return returned.await(HANG_SECONDS, TimeUnit.SECONDS);
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
