package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** CHANGELOG.md describes the version being built, as a semantic version. */
class ChangelogTest {
    private static final Pattern ENTRY = Pattern.compile("^## (\\S+)( \\(unreleased\\))?$", Pattern.MULTILINE);

    @Test
    void theNewestEntryIsTheVersionBuiltAndUnreleasedWhileItIsASnapshot() throws IOException {
        String version = System.getProperty("pinrock.version");
        String changelog = Files.readString(Path.of(System.getProperty("pinrock.repository.root"), "CHANGELOG.md"));
        Matcher newest = ENTRY.matcher(changelog);
        assertTrue(newest.find(), "CHANGELOG.md has no '## <version>' entry");

        boolean snapshot = version.endsWith("-SNAPSHOT");
        assertEquals(version.replace("-SNAPSHOT", ""), newest.group(1));
        assertEquals(snapshot, newest.group(2) != null, "a snapshot's entry, and only it, is marked (unreleased)");
        assertTrue(newest.group(1).matches("(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"),
                newest.group(1) + " is not MAJOR.MINOR.PATCH");
    }
}
