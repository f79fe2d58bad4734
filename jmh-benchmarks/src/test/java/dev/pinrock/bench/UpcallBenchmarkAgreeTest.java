package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Both sides of {@link UpcallBenchmark} make every call they count, into Java and back. */
class UpcallBenchmarkAgreeTest {
    @Test
    void bothBindingsCallJavaEveryTime() {
        for (String library : new String[] {"ffm", "jni"}) {
            UpcallBenchmark benchmark = new UpcallBenchmark();
            benchmark.library = library;
            assertEquals(UpcallBenchmark.CALLS, benchmark.callBack(), library);
        }
    }
}
