package dev.pinrock.kafka;

/**
 * The seed of a randomized test: {@code -Dpinrock.kafka.seed=S} replays one,
 * otherwise each run takes a new one and prints it with the command that
 * replays it.
 */
final class Seeds {
    private Seeds() {
    }

    static long next(String test) {
        long seed = Long.getLong("pinrock.kafka.seed", System.nanoTime());
        System.out.println(test + ": seed " + seed + " (replay with -Dpinrock.kafka.seed=" + seed + ")");
        return seed;
    }
}
