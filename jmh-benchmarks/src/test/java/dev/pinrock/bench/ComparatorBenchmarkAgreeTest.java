package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Every side of {@link ComparatorBenchmark} holds the same data in the same
 * order: the comparators written in Java order keys as RocksDB's bytewise
 * one does, and each library reads back what it wrote and walks as far.
 */
class ComparatorBenchmarkAgreeTest {
    @Test
    void theJavaComparatorsAreBytewise() {
        Random random = new Random(3);
        ComparatorBenchmark.JavaBytewise pinrock = new ComparatorBenchmark.JavaBytewise();
        for (int i = 0; i < 10_000; i++) {
            byte[] a = new byte[random.nextInt(20)];
            byte[] b = new byte[random.nextInt(3) == 0 ? a.length : random.nextInt(20)];
            random.nextBytes(a);
            random.nextBytes(b);
            if (random.nextBoolean() && b.length >= a.length) {
                System.arraycopy(a, 0, b, 0, a.length); // a begins b
            }
            int bytewise = Integer.signum(Arrays.compareUnsigned(a, b));
            assertEquals(bytewise, Integer.signum(pinrock.compare(a, b)), Arrays.toString(a) + " " + Arrays.toString(b));
            assertEquals(bytewise, Integer.signum(ComparatorBenchmark.RocksJavaBytewise.compareBuffers(
                    ByteBuffer.wrap(a), ByteBuffer.wrap(b))), Arrays.toString(a) + " " + Arrays.toString(b));
        }
    }

    @Test
    void everyLibraryReadsAndWalksTheSame() {
        List<List<Integer>> walks = new ArrayList<>();
        for (String library : new String[] {"pinrock-java", "pinrock", "rocksjava-java", "rocksjava"}) {
            ComparatorBenchmark benchmark = new ComparatorBenchmark();
            benchmark.library = library;
            benchmark.setUp();
            try {
                ComparatorBenchmark.Ordered db = benchmark.ordered();
                byte[] key = new byte[Keys.MIN_KEY_BYTES];
                byte[] value = new byte[ComparatorBenchmark.VALUE_BYTES];
                for (int i = 0; i < ComparatorBenchmark.KEYS; i += 997) {
                    Keys.fill(key, i);
                    Keys.fillValue(value, i);
                    assertArrayEquals(value, db.get(key), library + " key " + i);
                }
                List<Integer> walked = new ArrayList<>();
                for (int i = 0; i < ComparatorBenchmark.KEYS; i += 4999) {
                    Keys.fill(key, i);
                    walked.add(db.scan(key, ComparatorBenchmark.KEYS));
                }
                walks.add(walked);
                benchmark.fill();
                assertTrue(benchmark.scan() > 0, library);
                assertTrue(benchmark.randomGet() != null, library);
            } finally {
                benchmark.tearDown();
            }
        }
        assertEquals(1, walks.stream().distinct().count(), "keys walked from each seek, by library: " + walks);
        assertTrue(walks.get(0).stream().distinct().count() > 1, "seeks land at different places: " + walks.get(0));
    }
}
