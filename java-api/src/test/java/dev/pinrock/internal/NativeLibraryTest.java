package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class NativeLibraryTest {
    @Test
    void linuxX8664UsesTheBundledLibrary() {
        assertEquals("/dev/pinrock/native/linux-x86_64/libpinrock.so", NativeLibrary.resourceFor("Linux", "amd64"));
        assertEquals("/dev/pinrock/native/linux-x86_64/libpinrock.so", NativeLibrary.resourceFor("Linux", "x86_64"));
    }

    @Test
    void linuxAarch64UsesItsOwnBundledLibrary() {
        assertEquals("/dev/pinrock/native/linux-aarch64/libpinrock.so", NativeLibrary.resourceFor("Linux", "aarch64"));
        assertEquals("/dev/pinrock/native/linux-aarch64/libpinrock.so", NativeLibrary.resourceFor("Linux", "arm64"));
    }

    @Test
    void otherPlatformsGetAMessageNamingWhatIsSupportedAndTheFix() {
        for (String[] platform : new String[][] {{"Mac OS X", "aarch64"}, {"Mac OS X", "x86_64"},
                {"Windows 11", "amd64"}, {"Linux", "ppc64le"}, {"Linux", "s390x"}, {"Linux", "riscv64"}}) {
            var e = assertThrows(UnsupportedOperationException.class,
                    () -> NativeLibrary.resourceFor(platform[0], platform[1]));
            assertTrue(e.getMessage().contains(platform[0] + "/" + platform[1]), e.getMessage());
            assertTrue(e.getMessage().contains("Linux on x86-64 and on aarch64 with glibc 2.17 or newer"), e.getMessage());
            assertTrue(e.getMessage().contains("-Dpinrock.library.path="), e.getMessage());
        }
    }

    @Test
    void aLoadFailureOnMuslSaysThatTheLibrariesNeedGlibc() {
        String maps = "7f1c2a000000-7f1c2a014000 r--p 00000000 08:01 131 /lib/ld-musl-x86_64.so.1\n";
        String message = NativeLibrary.loadFailure(Path.of("/cache/libpinrock.so"),
                "Error relocating /cache/libpinrock.so: __sched_cpucount: symbol not found", maps, "", FIX);
        assertTrue(message.startsWith("cannot load /cache/libpinrock.so: Error relocating"), message);
        assertTrue(message.contains("musl libc (e.g. Alpine Linux)"), message);
        assertTrue(message.contains("Linux on x86-64 and on aarch64 with glibc 2.17 or newer"), message);
    }

    @Test
    void aLoadFailureOnAnOldGlibcNamesTheFloor() {
        String message = NativeLibrary.loadFailure(Path.of("/cache/libpinrock.so"),
                "/lib64/libc.so.6: version `GLIBC_2.17' not found", "/usr/lib64/libc-2.12.so\n", "", FIX);
        assertTrue(message.contains("glibc 2.17 or newer"), message);
        assertTrue(message.contains("Fix: run on a newer system"), message);
    }

    @Test
    void anyOtherLoadFailureKeepsTheLoadersReasonAlone() {
        String message = NativeLibrary.loadFailure(Path.of("/x/libpinrock.so"), "cannot open shared object file",
                "/usr/lib/x86_64-linux-gnu/libc.so.6\n", MOUNTS, FIX);
        assertEquals("cannot load /x/libpinrock.so: cannot open shared object file", message);
    }

    /** What the loader's caller says to do about a noexec mount. */
    private static final String FIX = "set -Dpinrock.native.cache=/a/directory/on/a/file/system/mounted/without/noexec";

    /** A /proc/self/mountinfo: /tmp and a directory with a space in its name noexec, /tmp/exec mounted over /tmp without it. */
    private static final String MOUNTS = """
            27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
            28 27 0:25 / /tmp rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw
            29 28 0:26 / /tmp/exec rw,relatime - tmpfs tmpfs rw
            30 27 0:27 / /srv/my\\040cache rw,noexec - tmpfs tmpfs rw
            31 27 0:28 / /tmpfoo rw - tmpfs tmpfs rw
            """;

    @Test
    void theNoexecMountHoldingAFileIsFound() {
        assertEquals("/tmp", NativeLibrary.noexecMountOf(Path.of("/tmp/cache/x/libpinrock.so"), MOUNTS));
        assertEquals("/srv/my cache", NativeLibrary.noexecMountOf(Path.of("/srv/my cache/libpinrock.so"), MOUNTS));
    }

    @Test
    void aFileOnAnExecMountIsNotReportedNoexec() {
        assertEquals(null, NativeLibrary.noexecMountOf(Path.of("/tmp/exec/libpinrock.so"), MOUNTS));
        assertEquals(null, NativeLibrary.noexecMountOf(Path.of("/tmpfoo/libpinrock.so"), MOUNTS));
        assertEquals(null, NativeLibrary.noexecMountOf(Path.of("/home/u/.cache/libpinrock.so"), MOUNTS));
        assertEquals(null, NativeLibrary.noexecMountOf(Path.of("/tmp/libpinrock.so"), ""));
    }

    @Test
    void aLoadFailureOnANoexecMountNamesTheMountAndTheFix() {
        String message = NativeLibrary.loadFailure(Path.of("/tmp/cache/0123/libpinrock.so"),
                "/tmp/cache/0123/libpinrock.so: failed to map segment from shared object", "", MOUNTS, FIX);
        assertEquals("cannot load /tmp/cache/0123/libpinrock.so: /tmp/cache/0123/libpinrock.so: failed to map segment"
                + " from shared object. /tmp/cache/0123 is on /tmp, which is mounted noexec: no library can be loaded"
                + " from there. Fix: " + FIX, message);
    }

    @Test
    void aMappingFailureWithoutReadableMountsStillNamesTheNoexecFix() {
        String message = NativeLibrary.loadFailure(Path.of("/c/libpinrock.so"),
                "/c/libpinrock.so: failed to map segment from shared object", "", "", FIX);
        assertTrue(message.startsWith("cannot load /c/libpinrock.so: /c/libpinrock.so: failed to map segment from"
                + " shared object. That is what a file system mounted noexec gives"), message);
        assertTrue(message.endsWith(", if this one is. Fix: " + FIX), message);
    }

    @Test
    void theNativeAccessFlagNamesTheUnnamedModuleOnTheClassPath() {
        assertEquals("--enable-native-access=ALL-UNNAMED", NativeLibrary.nativeAccessFlag());
    }
}
