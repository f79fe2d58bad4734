package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.io.TempDir;

/** How the library loads in a fresh JVM (extracted into a cache directory), and what it says when it cannot. */
class NativeLoadingTest {
    @TempDir
    Path dir;

    private static final String ENABLE = "--enable-native-access=ALL-UNNAMED";

    private ChildJvm.Outcome openPutGet(List<String> options, Map<String, String> environment) throws Exception {
        List<String> arguments = new ArrayList<>(options);
        arguments.addAll(List.of(ENABLE, "-cp", ChildJvm.testClassPath(), OpenPutGet.class.getName(),
                dir.resolve("db").toString()));
        return ChildJvm.run(arguments, environment, Duration.ofMinutes(2));
    }

    /** The one file the cache directory holds after a load, checked to be the only one. */
    private static Path cachedLibrary(Path cache) throws IOException {
        try (Stream<Path> files = Files.walk(cache)) {
            List<Path> regular = files.filter(Files::isRegularFile).toList();
            assertEquals(1, regular.size(), "files in the cache: " + regular);
            assertEquals("libpinrock.so", regular.get(0).getFileName().toString());
            return regular.get(0);
        }
    }

    @Test
    void extractsOnceIntoTheCacheDirectoryAndLeavesNothingElseBehind() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path cache = dir.resolve("cache");
        List<String> options = List.of("-Djava.io.tmpdir=" + tmp, "-Dpinrock.native.cache=" + cache);
        var outcome = openPutGet(options, Map.of());
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals("loaded", outcome.stdout().strip());
        assertEquals("", outcome.stderr());
        try (var left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList());
        }
        Path library = cachedLibrary(cache);
        FileTime extracted = Files.getLastModifiedTime(library);

        outcome = openPutGet(options, Map.of());
        assertEquals("loaded", outcome.stdout().strip(), outcome.stderr());
        assertEquals(library, cachedLibrary(cache));
        assertEquals(extracted, Files.getLastModifiedTime(library), "a second JVM extracted it again");
    }

    @Test
    void aDamagedCachedLibraryIsReplacedBeforeItIsLoaded() throws Exception {
        assertDamageIsRepaired(good -> Arrays.copyOf(good, good.length / 2));
    }

    @Test
    void aCachedLibraryDamagedInPlaceIsReplacedBeforeItIsLoaded() throws Exception {
        assertDamageIsRepaired(good -> {
            byte[] damaged = good.clone();
            damaged[damaged.length / 2] ^= 1; // the same size: only the checksum can tell
            return damaged;
        });
    }

    /** Loads once, damages the cached library, and checks that the next load puts the jar's copy back. */
    private void assertDamageIsRepaired(UnaryOperator<byte[]> damage) throws Exception {
        Path cache = dir.resolve("cache");
        List<String> options = List.of("-Dpinrock.native.cache=" + cache);
        assertEquals(0, openPutGet(options, Map.of()).exitCode());
        Path library = cachedLibrary(cache);
        byte[] good = Files.readAllBytes(library);
        Files.write(library, damage.apply(good));

        var outcome = openPutGet(options, Map.of());
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals("loaded", outcome.stdout().strip());
        assertArrayEquals(good, Files.readAllBytes(cachedLibrary(cache)));
    }

    @Test
    void aCachedLibraryOthersCanWriteIsReplacedByOneTheyCannot() throws Exception {
        Path cache = dir.resolve("cache");
        List<String> options = List.of("-Dpinrock.native.cache=" + cache);
        assertEquals(0, openPutGet(options, Map.of()).exitCode());
        Path library = cachedLibrary(cache);
        Files.setPosixFilePermissions(library, PosixFilePermissions.fromString("rw-rw-rw-"));

        var outcome = openPutGet(options, Map.of());
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals("loaded", outcome.stdout().strip());
        var permissions = Files.getPosixFilePermissions(cachedLibrary(cache));
        assertTrue(!permissions.contains(PosixFilePermission.GROUP_WRITE)
                && !permissions.contains(PosixFilePermission.OTHERS_WRITE), permissions.toString());
    }

    @Test
    void aCacheDirectoryOthersCanWriteIsRefusedWithTheFix() throws Exception {
        Path cache = dir.resolve("cache");
        List<String> options = List.of("-Dpinrock.native.cache=" + cache);
        assertEquals(0, openPutGet(options, Map.of()).exitCode());
        Path directory = cachedLibrary(cache).getParent();
        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(directory));
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));

        var outcome = openPutGet(options, Map.of());
        assertNotEquals(0, outcome.exitCode());
        assertTrue(outcome.stderr().contains("pinrock will not load a library from " + directory
                + ": another user owns it or can write to it. Fix: remove that directory"), outcome.stderr());
    }

    @Test
    void jvmsStartingAtOnceAllLoadFromOneExtraction() throws Exception {
        Path cache = dir.resolve("cache");
        List<Process> processes = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            processes.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    ENABLE, "-Dpinrock.native.cache=" + cache, "-cp", ChildJvm.testClassPath(),
                    OpenPutGet.class.getName(), dir.resolve("db" + i).toString())
                    .redirectErrorStream(true).start());
        }
        for (Process process : processes) {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(2, TimeUnit.MINUTES));
            assertEquals(0, process.exitValue(), output);
            assertEquals("loaded", output.strip());
        }
        cachedLibrary(cache);
    }

    @Test
    void withoutTheCachePropertyTheLibraryGoesUnderXdgCacheHome() throws Exception {
        Path xdg = dir.resolve("xdg");
        var outcome = openPutGet(List.of(), Map.of("XDG_CACHE_HOME", xdg.toString()));
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertTrue(cachedLibrary(xdg).startsWith(xdg.resolve("pinrock/lib")), cachedLibrary(xdg).toString());
    }

    /**
     * Runs {@link EveryEntryPointTwice} in a child JVM and checks that every
     * call failed with an IllegalStateException whose message holds each of
     * the expected texts: the first call and the later ones alike.
     */
    private void assertEveryCallFailsNamingTheFix(List<String> wrapper, List<String> options, String... expected)
            throws Exception {
        List<String> arguments = new ArrayList<>(options);
        arguments.addAll(List.of("-cp", ChildJvm.testClassPath(), EveryEntryPointTwice.class.getName(),
                dir.toString()));
        var outcome = ChildJvm.run(wrapper, arguments, Map.of(), Duration.ofMinutes(2));
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        List<String> calls = outcome.stdout().lines().toList();
        assertEquals(18, calls.size(), outcome.stdout() + outcome.stderr());
        for (String call : calls) {
            assertTrue(call.contains(": java.lang.IllegalStateException: "), call);
            for (String text : expected) {
                assertTrue(call.contains(text), call);
            }
        }
    }

    @Test
    void anUnusableCacheDirectoryIsReportedWithTheFixAtEveryCall() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        assertEveryCallFailsNamingTheFix(List.of(), List.of(ENABLE, "-Dpinrock.native.cache=" + file.resolve("cache")),
                "cannot extract libpinrock.so into " + file.resolve("cache"),
                "Fix: make that directory writable, or set -Dpinrock.native.cache=");
    }

    @Test
    void aCacheDirectoryOnANoexecMountIsReportedWithTheFixAtEveryCall() throws Exception {
        // A tmpfs mounted noexec in a mount namespace of the child's own (this JVM may mount: it runs as
        // root or in a user namespace of its own, native/platform/jdk-own-mounts).
        Path mount = Files.createDirectory(dir.resolve("noexec"));
        List<String> unshare = List.of("unshare", "--mount", "sh", "-c",
                "mount -t tmpfs -o noexec pinrock-test \"$0\" && exec \"$@\"", mount.toString());
        assertEveryCallFailsNamingTheFix(unshare, List.of(ENABLE, "-Dpinrock.native.cache=" + mount.resolve("cache")),
                "failed to map segment from shared object", " is on " + mount + ", which is mounted noexec",
                "Fix: set -Dpinrock.native.cache=/a/directory/on/a/file/system/mounted/without/noexec");
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
    void whenTheJvmDeniesNativeAccessEveryCallNamesTheFlag() throws Exception {
        assertEveryCallFailsNamingTheFix(List.of(), List.of("--illegal-native-access=deny"),
                "native access is denied. Fix: start java with " + ENABLE);
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
