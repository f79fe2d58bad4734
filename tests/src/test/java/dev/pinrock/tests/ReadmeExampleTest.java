package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The usage example in README.md compiles and runs as printed there. */
class ReadmeExampleTest {
    @TempDir
    Path dir;

    private static final Pattern EXAMPLE =
            Pattern.compile("<!-- example:start -->\\s*```java\\n(.*?)```\\s*<!-- example:end -->", Pattern.DOTALL);

    @Test
    void readmeExampleCompilesAndPrintsWhatTheReadmeSays() throws Exception {
        Path readme = Path.of(System.getProperty("pinrock.repository.root"), "README.md");
        Matcher matcher = EXAMPLE.matcher(Files.readString(readme));
        assertTrue(matcher.find(), "README.md has no <!-- example:start --> java block");
        Path source = dir.resolve("Example.java");
        Files.writeString(source, matcher.group(1));

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, diagnostics, diagnostics, "--release", "22", "-Xlint:all,-path", "-Werror",
                "-cp", ChildJvm.testClassPath(), "-d", dir.toString(), source.toString());
        assertEquals(0, status, diagnostics.toString(StandardCharsets.UTF_8));

        var outcome = ChildJvm.run(List.of("--enable-native-access=ALL-UNNAMED"),
                dir + java.io.File.pathSeparator + ChildJvm.testClassPath(), "Example", dir.resolve("db").toString());
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals("world world world", outcome.stdout().strip());
    }
}
