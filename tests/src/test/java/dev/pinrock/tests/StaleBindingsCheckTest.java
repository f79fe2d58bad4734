package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jextract-bindings/check-bindings.sh, which every build runs, catches a stale binding. */
class StaleBindingsCheckTest {
    @TempDir
    Path copy;

    private Path header;
    private Path generated;

    @BeforeEach
    void copyHeaderAndBindings() throws IOException {
        Path root = Path.of(System.getProperty("pinrock.repository.root"));
        TestFiles.copyTree(root.resolve("jextract-bindings"), copy.resolve("jextract-bindings"));
        header = copy.resolve("native/include/pinrock.h");
        Files.createDirectories(header.getParent());
        Files.copy(root.resolve("native/include/pinrock.h"), header);
        generated = copy.resolve("jextract-bindings/src/main/java/dev/pinrock/bindings/PinrockNative.java");
    }

    private ChildJvm.Outcome check() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", copy.resolve("jextract-bindings/check-bindings.sh").toString())
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new ChildJvm.Outcome(process.waitFor(), out, err);
    }

    @Test
    void committedBindingsMatchTheHeader() throws Exception {
        var outcome = check();
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertTrue(outcome.stdout().contains("match"), outcome.stdout());
    }

    @Test
    void aChangedHeaderFailsWithTheRegenerateCommand() throws Exception {
        Files.writeString(header, "\nint32_t pr_new_function(void);\n", StandardOpenOption.APPEND);
        var outcome = check();
        assertEquals(1, outcome.exitCode());
        assertTrue(outcome.stderr().contains("the jextract bindings are stale"), outcome.stderr());
        assertTrue(outcome.stderr().contains("jextract-bindings/regenerate.sh"), outcome.stderr());
    }

    @Test
    void aHandEditedBindingFails() throws Exception {
        Files.writeString(generated, "\n// edited by hand\n", StandardOpenOption.APPEND);
        var outcome = check();
        assertEquals(1, outcome.exitCode());
        assertTrue(outcome.stderr().contains("never edit the generated sources by hand"), outcome.stderr());
    }
}
