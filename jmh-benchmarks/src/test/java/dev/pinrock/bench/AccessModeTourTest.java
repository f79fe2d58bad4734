package dev.pinrock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessModeTourTest {
    @TempDir
    Path dir;

    @Test
    void everyModeReadsAndVerifiesEveryKey() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<AccessModeTour.Result> results =
                AccessModeTour.run(dir.resolve("db"), 5000, new PrintStream(printed, true, StandardCharsets.UTF_8));
        List<String> modes = results.stream().map(AccessModeTour.Result::mode).toList();
        assertEquals(List.of("load (put byte[])", "new byte[]", "into byte[]", "direct ByteBuffer",
                "native MemorySegment", "pinned MemorySegment"), modes);
        for (AccessModeTour.Result result : results) {
            assertEquals(5000, result.operations(), result.mode());
            assertEquals(5000, result.verified(), result.mode());
            assertTrue(result.opsPerSecond() > 0, result.mode());
        }
        String table = printed.toString(StandardCharsets.UTF_8);
        for (String mode : modes) {
            assertTrue(table.contains(mode), table);
        }
        assertTrue(table.contains("RocksDB 9.10.0"), table);
    }

    @Test
    void keysAreSixteenBytesAndSortLikeTheirIndex() {
        byte[] key = new byte[AccessModeTour.KEY_BYTES];
        AccessModeTour.fillKey(key, 1234);
        assertEquals("key-000000001234", new String(key, StandardCharsets.US_ASCII));
    }
}
