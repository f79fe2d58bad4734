package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples in README.md and docs/*.md compile and run as printed there,
 * and the FAQ quotes what this JDK prints.
 *
 * <p>An example is a complete Java source file (imports and one public class
 * with a main method) in a {@code java} block between the lines
 * {@code <!-- example:start -->} and {@code <!-- example:end -->}. It is
 * compiled against the built java-api and run twice in one fresh working
 * directory, with {@code data} as its argument, so that a second run meets
 * what the first left behind; both runs must succeed. When the text right
 * after it says {@code It prints `X`} (or {@code It prints `X` on the first
 * run, `Y` on the next}), that is what its runs must print. Every other java block is a fragment of an
 * enclosing program and is not run; a block with a main method must be an
 * example.
 */
class DocExamplesTest {
    @TempDir
    Path dir;

    private static final Path ROOT = Path.of(System.getProperty("pinrock.repository.root"));

    private static final Pattern EXAMPLE = Pattern.compile("<!-- example:start -->\\s*```java\\n(.*?)```\\s*"
            + "<!-- example:end -->\\s*(?:It prints `([^`]*)`(?: on the first run, `([^`]*)` on the next)?)?",
            Pattern.DOTALL);
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PUBLIC_CLASS = Pattern.compile("public class (\\w+)");
    /** The FAQ's quotation of the JDK's output, a text block between these markers; "..." stands for any text. */
    private static final Pattern JDK_OUTPUT =
            Pattern.compile("<!-- jdk-output:start -->\\s*```text\\n(.*?)```\\s*<!-- jdk-output:end -->", Pattern.DOTALL);

    /** One example: where it is, its source, and what its first and later runs print (null: not said). */
    record Example(String where, String className, String source, String firstOutput, String laterOutput) {
        @Override
        public String toString() {
            return where + " " + className;
        }
    }

    /** The examples in a Markdown file, in order. */
    static List<Example> examples(Path markdown) throws Exception {
        String text = Files.readString(markdown);
        List<Example> found = new ArrayList<>();
        Matcher matcher = EXAMPLE.matcher(text);
        while (matcher.find()) {
            Matcher name = PUBLIC_CLASS.matcher(matcher.group(1));
            assertTrue(name.find(), "no public class in the example at " + markdown);
            String where = ROOT.relativize(markdown) + ":" + text.substring(0, matcher.start()).lines().count();
            String later = matcher.group(3) != null ? matcher.group(3) : matcher.group(2);
            found.add(new Example(where, name.group(1), matcher.group(1), matcher.group(2), later));
        }
        return found;
    }

    /** README.md and every docs/*.md. */
    private static List<Path> markdownFiles() throws Exception {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(file -> file.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        return files;
    }

    /** Compiles an example, runs it twice in one fresh directory, and checks both runs. */
    private void compileAndRunTwice(Example example, Path under) throws Exception {
        Path classes = Files.createDirectories(under.resolve("classes"));
        Path source = classes.resolve(example.className() + ".java");
        Files.writeString(source, example.source());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, diagnostics, diagnostics, "--release", "22", "-Xlint:all,-path", "-Werror",
                "-cp", ChildJvm.testClassPath(), "-d", classes.toString(), source.toString());
        assertEquals(0, status, example + " does not compile:\n" + diagnostics.toString(StandardCharsets.UTF_8));

        Path work = Files.createDirectories(under.resolve("work"));
        for (int run = 1; run <= 2; run++) {
            var outcome = ChildJvm.runIn(work, List.of("--enable-native-access=ALL-UNNAMED",
                    "-cp", classes + File.pathSeparator + ChildJvm.testClassPath(), example.className(), "data"),
                    Duration.ofMinutes(2));
            String what = example + ", run " + run;
            assertEquals(0, outcome.exitCode(), what + " failed:\n" + outcome.stderr());
            String expected = run == 1 ? example.firstOutput() : example.laterOutput();
            if (expected != null) {
                assertEquals(expected, outcome.stdout().strip(), what);
            }
        }
    }

    @Test
    void readmeExampleCompilesAndPrintsWhatTheReadmeSays() throws Exception {
        List<Example> readme = examples(ROOT.resolve("README.md"));
        assertEquals(1, readme.size(), "README.md's examples: " + readme);
        assertEquals("world world world", readme.get(0).firstOutput());
        compileAndRunTwice(readme.get(0), dir);
    }

    @TestFactory
    Stream<DynamicTest> everyExampleInDocsCompilesAndRunsTwiceAsPrinted() throws Exception {
        List<Example> all = new ArrayList<>();
        for (Path markdown : markdownFiles()) {
            if (markdown.startsWith(ROOT.resolve("docs"))) {
                all.addAll(examples(markdown));
            }
        }
        assertFalse(all.isEmpty(), "no examples in docs/");
        return all.stream().map(example -> DynamicTest.dynamicTest(example.toString(),
                () -> compileAndRunTwice(example, Files.createDirectory(dir.resolve(example.className())))));
    }

    @Test
    void everyJavaBlockWithAMainMethodIsAnExample() throws Exception {
        for (Path markdown : markdownFiles()) {
            String outsideExamples = EXAMPLE.matcher(Files.readString(markdown)).replaceAll("");
            Matcher block = JAVA_BLOCK.matcher(outsideExamples);
            while (block.find()) {
                assertFalse(block.group(1).contains("void main("), markdown + " has a program outside"
                        + " <!-- example:start --> and <!-- example:end -->, which no test runs:\n" + block.group(1));
            }
        }
    }

    @Test
    void theFaqQuotesWhatThisJdkPrintsWithoutNativeAccess() throws Exception {
        Matcher quoted = JDK_OUTPUT.matcher(Files.readString(ROOT.resolve("docs/faq.md")));
        assertTrue(quoted.find(), "docs/faq.md has no <!-- jdk-output:start --> block");
        var outcome = ChildJvm.run(List.of(), ChildJvm.testClassPath(), OpenPutGet.class.getName(),
                dir.resolve("db").toString());
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        List<String> printed = outcome.stderr().lines().toList();
        int next = 0;
        for (String line : quoted.group(1).lines().toList()) {
            Pattern expected = Pattern.compile(Stream.of(line.split("\\.\\.\\.", -1)).map(Pattern::quote)
                    .reduce((a, b) -> a + ".*" + b).orElseThrow());
            while (next < printed.size() && !expected.matcher(printed.get(next)).matches()) {
                next++;
            }
            assertTrue(next < printed.size(), "the FAQ quotes \"" + line + "\", which this JDK does not print"
                    + " (in that order):\n" + outcome.stderr());
            next++;
        }
    }
}
