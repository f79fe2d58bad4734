package dev.pinrock.bench;

/**
 * YCSB's scrambled zipfian key choice ({@code ScrambledZipfianGenerator}
 * with the zipfian constant 0.99, YCSB's default for its workloads), made
 * from a uniform 64-bit random number so that every binding and the native
 * floor (native/bench/floor.cc, which must agree with this class) draw the
 * same keys from the same random sequence.
 *
 * <p>YCSB draws an item from a zipfian distribution over 10^10 items with
 * Gray et al.'s method ({@code ZipfianGenerator}: item 0 is the most popular,
 * item i about 1 / (i + 1)^0.99 as popular), then scrambles it: the key is
 * the item's 64-bit FNV-1a hash modulo the key count. The hot keys are
 * thereby spread over the key space instead of being the first few keys in
 * key order (which would sit in a few blocks, all cached), and a key gets the
 * popularity of every item that hashes to it: a zipfian head (the most
 * popular key is drawn on about 1 get in 26) over a nearly uniform tail.
 *
 * <p>The constants are YCSB's: its precomputed zeta(10^10, 0.99), and alpha,
 * eta and the second item's threshold as its formulas give them, computed
 * once with {@link StrictMath} (bit-reproducible) and written as exact
 * literals, so that Java and C++ use the very same doubles. The one power per
 * draw is {@link Math#pow}: every binding runs the same JVM, so they draw
 * identical keys, and over 20 million draws it agreed bit for bit with
 * glibc's {@code pow}, which the floor uses. Where YCSB takes
 * {@code Math.abs} of the hash and a signed remainder (negative for the one
 * hash whose absolute value overflows), this takes the unsigned remainder of
 * the absolute value, equal everywhere else.
 */
final class Zipfian {
    /** YCSB's zipfian constant. */
    static final double THETA = 0.99;
    /** The items YCSB's generator draws from: its ITEM_COUNT of 10^10, plus one (it passes max, not a count). */
    static final double ITEMS = 10_000_000_001.0;
    /** zeta(10^10, 0.99), YCSB's ScrambledZipfianGenerator.ZETAN: 26.46902820178302. */
    static final double ZETAN = 0x1.a78123b738f4cp4;
    /** 1 / (1 - theta). */
    static final double ALPHA = 0x1.8fffffffffffap6;
    /** (1 - (2 / ITEMS)^(1 - theta)) / (1 - zeta(2, theta) / ZETAN). */
    static final double ETA = 0x1.b295ee6b6193ap-3;
    /** 1 + 0.5^theta: below it (times ZETAN), item 1. */
    static final double SECOND_ITEM = 0x1.80e3eb6202786p0;

    private static final long FNV_OFFSET_BASIS = 0xCBF29CE484222325L;
    private static final long FNV_PRIME = 1099511628211L;

    private Zipfian() {
    }

    /**
     * Returns the key index a 64-bit uniform random number draws.
     *
     * @param random a uniform random number; its top 53 bits make YCSB's uniform double
     * @param keyCount the number of keys
     * @return an index in [0, keyCount)
     */
    static int index(long random, int keyCount) {
        return (int) Long.remainderUnsigned(Math.abs(fnvHash64(item((random >>> 11) * 0x1.0p-53))), keyCount);
    }

    /** YCSB's ZipfianGenerator.nextLong for a uniform u in [0, 1): an item of the 10^10. */
    static long item(double u) {
        double uz = u * ZETAN;
        if (uz < 1.0) {
            return 0;
        }
        if (uz < SECOND_ITEM) {
            return 1;
        }
        return (long) (ITEMS * Math.pow(ETA * u - ETA + 1, ALPHA));
    }

    /** YCSB's Utils.fnvhash64 before its Math.abs: FNV-1a over the value's 8 bytes, low byte first. */
    static long fnvHash64(long value) {
        long hash = FNV_OFFSET_BASIS;
        long rest = value;
        for (int i = 0; i < 8; i++) {
            hash ^= rest & 0xFF;
            hash *= FNV_PRIME;
            rest >>= 8;
        }
        return hash;
    }
}
