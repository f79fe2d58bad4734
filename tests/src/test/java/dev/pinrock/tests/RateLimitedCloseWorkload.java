package dev.pinrock.tests;

import java.nio.file.Path;
import java.util.Random;

import dev.pinrock.DbOptions;
import dev.pinrock.RateLimiter;
import dev.pinrock.RocksDb;

/**
 * A child-JVM program for {@link RateLimitedCloseTest}: opens the database at
 * args[0] with a rate limiter of 100 bytes per second, closes the limiter,
 * writes {@link #KEYS} keys of random 1 KiB values (filling a memtable, whose
 * flush starts in the background) and calls {@code flush()} on a thread of its own, so that
 * flushes wait in the limiter; then, by args[1], closes the database
 * ({@code close}) or calls {@code System.exit(0)} with it open ({@code exit}).
 * Prints what it did last.
 */
public final class RateLimitedCloseWorkload {
    static final int KEYS = 80;

    private RateLimitedCloseWorkload() {
    }

    static byte[] key(int i) {
        return ("k" + i).getBytes();
    }

    public static void main(String[] args) {
        RocksDb db;
        try (RateLimiter limiter = RateLimiter.create(100)) {
            db = RocksDb.open(Path.of(args[0]),
                    DbOptions.create().createIfMissing(true).rateLimiter(limiter).writeBufferBytes(64 << 10));
        }
        Random random = new Random(KEYS);
        byte[] value = new byte[1024];
        for (int i = 0; i < KEYS; i++) {
            random.nextBytes(value); // incompressible: 80 KiB take over ten minutes through the limiter
            db.put(key(i), value);
        }
        Thread.ofPlatform().daemon().start(() -> {
            try {
                db.flush();
            } catch (IllegalStateException closedBeforeTheFlush) {
                // the close came first: the flush is the close's own
            }
        });
        System.out.println("written");
        if (args[1].equals("exit")) {
            System.out.println("exiting");
            System.exit(0);
        }
        db.close();
        System.out.println("closed");
    }
}
