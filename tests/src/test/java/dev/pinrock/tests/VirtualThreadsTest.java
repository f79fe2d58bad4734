package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read keeps no native memory on the thread that made it: 20,000 live
 * virtual threads, each having read a key in every access mode, leave the
 * JVM's automatic arenas (where pinrock's call buffers live) holding no more
 * than the bounded pool of buffers that calls borrow from: at most four
 * pooled buffer sets of at most 160 KiB per processor (16 at least). A
 * buffer kept per thread would hold about 21 KiB for each of them: 420 MiB,
 * over a hundred times the bound. (The work is CPU-bound, about 4 s of CPU;
 * 100,000 threads took 20 s alone and past the five-minute limit beside the
 * other modules' tests on 2 cores.)
 */
class VirtualThreadsTest {
    private static final int THREADS = 20_000;
    private static final long POOL_BOUND =
            Math.max(16, 4L * Runtime.getRuntime().availableProcessors()) * 160 * 1024;
    /** What else may sit in automatic arenas: the cursor batch buffer, a direct buffer not yet collected. */
    private static final long SLACK = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void liveVirtualThreadsThatReadHoldNoNativeMemoryEach() throws Exception {
        ChildJvm.Outcome outcome = ChildJvm.run(List.of("--enable-native-access=ALL-UNNAMED", "-Xmx1g"),
                ChildJvm.testClassPath(), Duration.ofSeconds(300), VirtualThreadsWorkload.class.getName(),
                dir.resolve("db").toString(), Integer.toString(THREADS));
        assertEquals(0, outcome.exitCode(), outcome.stdout() + outcome.stderr());
        Matcher measured = Pattern.compile("alive=(\\d+) direct=(\\d+)").matcher(outcome.stdout());
        assertTrue(measured.find(), outcome.stdout());
        assertEquals(THREADS, Integer.parseInt(measured.group(1)), "threads alive while measured");
        long direct = Long.parseLong(measured.group(2));
        assertTrue(direct <= POOL_BOUND + SLACK, "native memory of automatic arenas with " + THREADS
                + " live virtual threads that read: " + direct + " bytes, bound " + (POOL_BOUND + SLACK) + "; "
                + outcome.stdout());
    }
}
