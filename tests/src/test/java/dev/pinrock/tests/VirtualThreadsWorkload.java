package dev.pinrock.tests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import dev.pinrock.DbOptions;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.Snapshot;

/**
 * A child JVM for {@link VirtualThreadsTest}: starts {@code threads} virtual
 * threads that each read one key in every access mode and then stay alive,
 * waiting; with all of them alive, prints the native memory the JVM's
 * automatic arenas hold ({@code direct=<bytes>}, the "direct" buffer pool,
 * where segments of automatic arenas are counted; once it stops falling
 * from one collection to the next, with each reading), then lets them end.
 * Exits 1 when a read answered a wrong value.
 */
public final class VirtualThreadsWorkload {
    private static final int KEYS = 1000;

    private VirtualThreadsWorkload() {
    }

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        try (RocksDb db = RocksDb.open(path, DbOptions.create().createIfMissing(true))) {
            for (int i = 0; i < KEYS; i++) {
                db.put(key(i), value(i));
            }
            db.flush();
            CountDownLatch read = new CountDownLatch(threads);
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<String> wrong = new AtomicReference<>();
            List<Thread> started = new ArrayList<>(threads);
            for (int t = 0; t < threads; t++) {
                int n = t % KEYS;
                started.add(Thread.ofVirtual().start(() -> {
                    try {
                        String problem = readEveryWay(db, n);
                        if (problem != null) {
                            wrong.compareAndSet(null, problem);
                        }
                    } catch (RuntimeException e) {
                        wrong.compareAndSet(null, e.toString());
                    } finally {
                        read.countDown();
                    }
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            read.await();
            // Garbage scratches (a pool slot was full) are freed once collected, by the JVM's
            // cleaner thread, which lags on a loaded machine: collect until what the arenas hold
            // stops falling (at most 30 s).
            List<Long> readings = new ArrayList<>(List.of(directBytes()));
            for (int round = 0; round < 150; round++) {
                System.gc();
                Thread.sleep(200);
                readings.add(directBytes());
                if (round >= 2 && readings.getLast() >= readings.get(readings.size() - 2)) {
                    break;
                }
            }
            System.out.println("alive=" + started.stream().filter(Thread::isAlive).count() + " direct="
                    + readings.getLast() + " (after each collection: " + readings + ")");
            release.countDown();
            for (Thread thread : started) {
                thread.join();
            }
            if (wrong.get() != null) {
                System.out.println("wrong: " + wrong.get());
                System.exit(1);
            }
        }
    }

    /** Reads key n in each access mode; returns what was wrong, or null. */
    private static String readEveryWay(RocksDb db, int n) {
        byte[] key = key(n);
        byte[] expected = value(n);
        List<byte[]> reads = new ArrayList<>();
        reads.add(db.get(key));
        byte[] into = new byte[expected.length];
        db.get(key, into);
        reads.add(into);
        ByteBuffer direct = ByteBuffer.allocateDirect(expected.length);
        db.get(ByteBuffer.wrap(key), direct);
        byte[] fromBuffer = new byte[expected.length];
        direct.get(fromBuffer);
        reads.add(fromBuffer);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(expected.length);
            db.get(arena.allocateFrom(ValueLayout.JAVA_BYTE, key), dst);
            reads.add(dst.toArray(ValueLayout.JAVA_BYTE));
            reads.add(db.getPinned(arena, key).toArray(ValueLayout.JAVA_BYTE));
        }
        db.getPinned(key, value -> reads.add(value.toArray(ValueLayout.JAVA_BYTE)));
        try (Snapshot snapshot = db.snapshot()) {
            reads.add(db.get(ReadOptions.DEFAULT.snapshot(snapshot), key));
        }
        reads.add(db.multiGet(List.of(key)).get(0));
        for (int mode = 0; mode < reads.size(); mode++) {
            if (!Arrays.equals(expected, reads.get(mode))) {
                return "key " + n + " read in mode " + mode + ": " + Arrays.toString(reads.get(mode));
            }
        }
        return null;
    }

    private static long directBytes() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct"))
                .mapToLong(BufferPoolMXBean::getMemoryUsed)
                .sum();
    }

    private static byte[] key(int n) {
        return ("key-" + n).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int n) {
        byte[] value = new byte[100];
        Arrays.fill(value, (byte) n);
        return value;
    }
}
