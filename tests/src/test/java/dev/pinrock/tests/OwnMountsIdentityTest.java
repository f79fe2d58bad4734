package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * These tests' JVM runs in a mount namespace of its own
 * (native/platform/jdk-own-mounts), for an ordinary user inside a user
 * namespace where the user is uid 0, which the system names root. The JVMs
 * and Maven runs the tests start must still take the user's home and name
 * for theirs, as this JVM does: with root's, they would extract the library
 * into root's cache and look for root's Maven repository, and fail.
 */
class OwnMountsIdentityTest {
    @Test
    void aJvmTheTestsStartKeepsTheirUsersHomeAndName() throws Exception {
        var outcome = ChildJvm.run(List.of("-XshowSettings:properties", "-version"), Map.of(),
                Duration.ofMinutes(1));
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        for (String property : List.of("user.home", "user.name")) {
            String expected = property + " = " + System.getProperty(property) + System.lineSeparator();
            assertTrue(outcome.stderr().contains(expected),
                    "the child JVM should print '" + expected.strip() + "':\n" + outcome.stderr());
        }
    }
}
