package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.io.TempDir;

/** How the library loads in a fresh JVM, and what it says when it cannot. */
class NativeLoadingTest {
    @TempDir
    Path dir;

    private static final String ENABLE = "--enable-native-access=ALL-UNNAMED";

    @Test
    void loadsFromTheJarWithoutLibraryPathAndLeavesNoFileBehind() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        var outcome = ChildJvm.run(List.of(ENABLE, "-Djava.io.tmpdir=" + tmp), ChildJvm.testClassPath(),
                OpenPutGet.class.getName(), dir.resolve("db").toString());
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals("loaded", outcome.stdout().strip());
        assertEquals("", outcome.stderr());
        try (var left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void withoutNativeAccessTheWarningNamesTheFlag() throws Exception {
        var outcome = ChildJvm.run(List.of(), ChildJvm.testClassPath(), OpenPutGet.class.getName(),
                dir.resolve("db").toString());
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertTrue(outcome.stderr().contains("native access is not enabled"), outcome.stderr());
        assertTrue(outcome.stderr().contains("Fix: start java with " + ENABLE), outcome.stderr());
    }

    @Test
    @EnabledForJreRange(minVersion = 24, disabledReason = "--illegal-native-access=deny exists from JDK 24 on")
    void whenTheJvmDeniesNativeAccessTheErrorNamesTheFlag() throws Exception {
        var outcome = ChildJvm.run(List.of("--illegal-native-access=deny"), ChildJvm.testClassPath(),
                OpenPutGet.class.getName(), dir.resolve("db").toString());
        assertNotEquals(0, outcome.exitCode());
        assertTrue(outcome.stderr().contains("native access is denied. Fix: start java with " + ENABLE),
                outcome.stderr());
    }

    @Test
    void aLibraryPathPropertyNamingNoFileIsReportedWithTheFix() throws Exception {
        Path missing = dir.resolve("missing/libpinrock.so");
        var outcome = ChildJvm.run(List.of(ENABLE, "-Dpinrock.library.path=" + missing), ChildJvm.testClassPath(),
                OpenPutGet.class.getName(), dir.resolve("db").toString());
        assertNotEquals(0, outcome.exitCode());
        assertTrue(outcome.stderr().contains("-Dpinrock.library.path=" + missing + " names no file"),
                outcome.stderr());
    }
}
