package dev.pinrock.internal;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Whether a data path's gets try memory first: a read from the memtables and
 * the block cache only, made cheaply (FFM: a critical downcall), and a normal
 * read only when that one needed I/O. A hit saves the cost of a normal call;
 * a miss wastes the memory-only lookup (memtables, filters and index up to
 * the block not in the cache), tens of times what a hit saves. So the policy
 * measures the data path's miss ratio and tries memory first only while it
 * stays under {@link #MAX_MISS_PERMILLE}: a database whose reads mostly need
 * I/O (data larger than the block cache, keys spread wide) reads normally,
 * trying memory first on one get in {@link #SAMPLE} to notice when its reads
 * come from memory again.
 *
 * <p>Both bindings use it, so FFM and the JNI variant read through the same
 * algorithm. Its fields are shared by every thread reading the data path and
 * read and written without synchronisation, on purpose: a lost update only
 * delays a switch, and a hit writes nothing shared but one time in SAMPLE,
 * so threads reading from memory do not contend for the fields' cache line.
 */
final class MemoryFirst {
    /** Off: every get reads normally. */
    static final MemoryFirst NEVER = new MemoryFirst(false);

    /** One outcome in SAMPLE is counted (with weight SAMPLE) where counting every one would cost. */
    static final int SAMPLE = 64;
    /** Outcomes (weighted) per decision. */
    static final int WINDOW = 4096;
    /**
     * The most misses per thousand memory-first attempts at which trying memory
     * first is kept: a miss wastes a memory-only lookup (memtables, filters,
     * index, up to the block not in the cache: on the order of a microsecond)
     * where a hit saves a thread-state transition (tens of nanoseconds), so
     * tries pay only while misses are rare. 1% is that estimate, not a
     * measured break-even: at the benchmarks' cache-smaller-than-data point
     * gets with and without memory-first reads were within the error.
     */
    static final int MAX_MISS_PERMILLE = 10;

    private final boolean enabled;
    private boolean preferred = true;
    private int outcomes;
    private int misses;

    private MemoryFirst(boolean enabled) {
        this.enabled = enabled;
    }

    /** @return a policy of its own for one data path, trying memory first until misses say otherwise */
    static MemoryFirst adaptive() {
        return new MemoryFirst(true);
    }

    /** @return whether the next get should try memory first */
    boolean tryNow() {
        return enabled && (preferred || ThreadLocalRandom.current().nextInt(SAMPLE) == 0);
    }

    /**
     * Records what a memory-first attempt found.
     *
     * @param inMemory whether it answered (false: the read needed I/O)
     */
    void answered(boolean inMemory) {
        if (!enabled) {
            return; // a virtual thread's attempt: nothing to learn
        }
        if (preferred) {
            if (inMemory) {
                if (ThreadLocalRandom.current().nextInt(SAMPLE) != 0) {
                    return;
                }
                outcomes += SAMPLE;
            } else {
                outcomes++;
                misses++;
            }
        } else {
            // Attempts are themselves one get in SAMPLE here.
            outcomes += SAMPLE;
            if (!inMemory) {
                misses += SAMPLE;
            }
        }
        if (outcomes >= WINDOW) {
            preferred = misses * 1000L <= (long) outcomes * MAX_MISS_PERMILLE;
            outcomes = 0;
            misses = 0;
        }
    }

    /** @return whether gets currently try memory first (every one), for tests */
    boolean preferred() {
        return enabled && preferred;
    }
}
