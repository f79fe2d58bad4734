package dev.pinrock;

import java.util.Objects;

import dev.pinrock.internal.NativeLibrary;
import dev.pinrock.internal.NativeShared;

/**
 * A cap on the bytes per second that flushes and compactions write (or
 * read, or both) in every database opened with
 * {@link DbOptions#rateLimiter(RateLimiter)}: RocksDB's GenericRateLimiter,
 * shared as RocksJava's {@code RateLimiter} is. Writes of the application
 * (to the memtable and the write-ahead log) are not limited; they slow down
 * or stall only when flushes and compactions fall behind.
 *
 * <p>A close is not held up by the limit: while any database using the
 * limiter closes ({@link RocksDb#close()} from its start until it returns),
 * the limiter does not limit, for every database sharing it, and requests
 * already waiting are granted at its next refill. RocksDB's close waits for
 * the flushes and compactions under way, and its limiter cannot cancel a
 * request: at a small rate the close would wait for hours. The rate comes
 * back when the last of the closes at once ends ({@link #bytesPerSecond()}
 * reports it, and {@link #setBytesPerSecond(long)} sets it, meanwhile too).
 * An open (whose recovery writes the log into table files) and
 * {@link RocksDb#repair(java.nio.file.Path, DbOptions)} lift it the same way
 * while they run; afterwards it limits again. The process's exit lifts the
 * limit for good, so that {@code System.exit} does not wait for a
 * rate-limited flush.
 *
 * <p>Thread-safe. Closing it drops this handle's reference only: databases
 * already open keep theirs, and new databases can no longer be opened with it.
 */
public final class RateLimiter extends SharedObject {
    /** RocksDB's default refill period: 100 ms. */
    public static final long DEFAULT_REFILL_PERIOD_MICROS = 100_000;
    /** RocksDB's default fairness: a compaction's request goes first once in 10 times. */
    public static final int DEFAULT_FAIRNESS = 10;

    /** What the limiter counts (RocksDB's {@code RateLimiter::Mode}). */
    public enum Mode {
        /** Reads of flushes and compactions. */
        READS_ONLY,
        /** Writes of flushes and compactions (RocksDB's default). */
        WRITES_ONLY,
        /** Both. */
        ALL_IO
    }

    private RateLimiter(long handle) {
        super("RateLimiter", handle, NativeShared::destroyRateLimiter);
    }

    /**
     * Creates a limiter of writes with RocksDB's defaults: refilled every
     * 100 ms, fairness 10, not auto-tuned.
     *
     * @param bytesPerSecond the rate
     * @return the limiter; the caller closes it
     * @throws RocksDbException.InvalidArgumentException when the rate refills less than a byte a period
     *     (below 10 bytes per second)
     */
    public static RateLimiter create(long bytesPerSecond) {
        return create(bytesPerSecond, DEFAULT_REFILL_PERIOD_MICROS, DEFAULT_FAIRNESS, Mode.WRITES_ONLY, false);
    }

    /**
     * Creates a limiter, as RocksJava's
     * {@code new RateLimiter(rate, refillPeriodMicros, fairness, mode, autoTune)}.
     *
     * @param bytesPerSecond the rate (auto-tuned: the highest)
     * @param refillPeriodMicros how often the granted bytes are refilled, 1,000 to 10,000,000
     * @param fairness once in how many times a compaction's request goes before a
     *     flush's, 1 to 100
     * @param mode what the limiter counts
     * @param autoTuned whether RocksDB moves the rate within
     *     [bytesPerSecond / 20, bytesPerSecond] by demand
     * @return the limiter; the caller closes it
     * @throws RocksDbException.InvalidArgumentException for a value outside its range, or a rate
     *     (auto-tuned: a twentieth of it) that refills less than a byte a period
     */
    public static RateLimiter create(long bytesPerSecond, long refillPeriodMicros, int fairness, Mode mode,
            boolean autoTuned) {
        Objects.requireNonNull(mode, "mode");
        NativeLibrary.load(); // before any class that needs the library, see NativeLibrary
        int nativeMode = switch (mode) {
            case READS_ONLY -> NativeShared.RATE_LIMIT_READS;
            case WRITES_ONLY -> NativeShared.RATE_LIMIT_WRITES;
            case ALL_IO -> NativeShared.RATE_LIMIT_ALL;
        };
        return new RateLimiter(NativeShared.createRateLimiter(bytesPerSecond, refillPeriodMicros, fairness,
                nativeMode, autoTuned));
    }

    /**
     * Changes the rate of every database sharing the limiter (auto-tuned: the
     * current rate, which tuning then moves within the range set at creation).
     *
     * @param bytesPerSecond the new rate
     * @throws RocksDbException.InvalidArgumentException when it refills less than a byte a period
     * @throws IllegalStateException when the limiter is closed
     */
    public void setBytesPerSecond(long bytesPerSecond) {
        use(handle -> {
            NativeShared.rateLimiterSetBytesPerSecond(handle, bytesPerSecond);
            return 0;
        });
    }

    /**
     * Returns the current rate.
     *
     * @return bytes per second
     * @throws IllegalStateException when the limiter is closed
     */
    public long bytesPerSecond() {
        return use(handle -> NativeShared.rateLimiterRead(handle, NativeShared.RATE_LIMITER_BYTES_PER_SECOND));
    }

    /**
     * Returns the bytes granted so far, to every database sharing the limiter.
     *
     * @return bytes
     * @throws IllegalStateException when the limiter is closed
     */
    public long totalBytesThrough() {
        return use(handle -> NativeShared.rateLimiterRead(handle, NativeShared.RATE_LIMITER_TOTAL_BYTES));
    }

    /**
     * Returns the requests granted so far.
     *
     * @return requests
     * @throws IllegalStateException when the limiter is closed
     */
    public long totalRequests() {
        return use(handle -> NativeShared.rateLimiterRead(handle, NativeShared.RATE_LIMITER_TOTAL_REQUESTS));
    }
}
