package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.RocksDb;

/**
 * Builds and runs {@code examples/consumer}, a separate Maven project that
 * depends on the installed pinrock-java-api exactly as a user's would, with
 * the command its pom names ({@code mvn -q package exec:exec}). It needs this
 * build's artifacts installed first, as {@code scripts/test.sh} does
 * ({@code mvn install}); the test checks that the installed jar is this
 * build's.
 */
class ConsumerExampleTest {
    @TempDir
    Path dir;

    @Test
    void theConsumerExampleBuildsAgainstTheInstalledArtifactAndRuns() throws Exception {
        Path root = Path.of(System.getProperty("pinrock.repository.root"));
        String version = RocksDb.class.getPackage().getImplementationVersion();
        Path built = Path.of(RocksDb.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path repository = Path.of(System.getProperty("maven.repo.local",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
        Path installed = repository.resolve("dev/pinrock/pinrock-java-api/" + version + "/pinrock-java-api-"
                + version + ".jar");
        assertTrue(Files.isRegularFile(built) && version != null, "run after `mvn package`: " + built);
        assertTrue(Files.isRegularFile(installed), "no " + installed + ": run `mvn install` first (scripts/test.sh does)");
        assertEquals(sha256(built), sha256(installed),
                installed + " is not this build's jar: run `mvn install` first (scripts/test.sh does)");

        Path example = dir.resolve("consumer");
        TestFiles.copyTree(root.resolve("examples/consumer"), example);
        String pom = Files.readString(example.resolve("pom.xml"));
        assertTrue(pom.contains("<version>" + version + "</version>"), "examples/consumer/pom.xml must depend on "
                + version);

        ProcessBuilder maven = new ProcessBuilder("mvn", "-B", "-q", "package", "exec:exec").directory(example.toFile())
                .redirectErrorStream(true);
        maven.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = maven.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(10, TimeUnit.MINUTES), "mvn did not finish");
        assertEquals(0, process.exitValue(), output);

        // What Maven itself prints (colour codes, its JDK's warnings) is not the example's.
        List<String> lines = output.lines().map(line -> line.replaceAll("\u001B\\[[0-9;]*m", ""))
                .filter(line -> !line.isBlank() && !line.startsWith("WARNING:")).toList();
        assertTrue(lines.get(0).startsWith("zstd compression ratio: "), output);
        assertTrue(Double.parseDouble(lines.get(0).substring("zstd compression ratio: ".length())) > 1, output);
        assertEquals(List.of("byte[]:        value 42", "into byte[]:   value 42", "ByteBuffer:    value 42",
                "MemorySegment: value 42", "pinned:        value 42", "range:         fruit:010 = value 10",
                "range:         fruit:011 = value 11", "range:         fruit:012 = value 12"),
                lines.subList(1, lines.size()), output);
    }

    private static String sha256(Path file) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(file)) {
            digest.update(in.readAllBytes());
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
