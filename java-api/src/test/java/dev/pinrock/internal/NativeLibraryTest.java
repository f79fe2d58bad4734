package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NativeLibraryTest {
    @Test
    void linuxX8664UsesTheBundledLibrary() {
        assertEquals("/dev/pinrock/native/linux-x86_64/libpinrock.so", NativeLibrary.resourceFor("Linux", "amd64"));
        assertEquals("/dev/pinrock/native/linux-x86_64/libpinrock.so", NativeLibrary.resourceFor("Linux", "x86_64"));
    }

    @Test
    void otherPlatformsGetAMessageNamingTheFix() {
        for (String[] platform : new String[][] {{"Linux", "aarch64"}, {"Mac OS X", "x86_64"}, {"Windows 11", "amd64"}}) {
            var e = assertThrows(UnsupportedOperationException.class,
                    () -> NativeLibrary.resourceFor(platform[0], platform[1]));
            assertTrue(e.getMessage().contains(platform[0] + "/" + platform[1]), e.getMessage());
            assertTrue(e.getMessage().contains("-Dpinrock.library.path="), e.getMessage());
        }
    }

    @Test
    void theNativeAccessFlagNamesTheUnnamedModuleOnTheClassPath() {
        assertEquals("--enable-native-access=ALL-UNNAMED", NativeLibrary.nativeAccessFlag());
    }
}
