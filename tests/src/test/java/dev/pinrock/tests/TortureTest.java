package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link TortureWorkload} in a child JVM: at least a million random
 * public API operations on four threads, with databases, cursors, snapshots,
 * batches and arenas closed under other threads' feet, used after close and
 * from the wrong thread. The child must exit normally, leave no {@code hs_err}
 * crash report, read only whole values written for the key read (and, for a
 * thread's own keys, exactly what its model holds for the state read: the
 * latest, or a pooled cursor's or snapshot's, on every read path), hold
 * exactly every thread's model after the last reopen, end each step only
 * in an exception the API documents for it, and have met every kind of misuse
 * it is meant to (each counted by the exception it got). The child loads the
 * library this JVM was told to ({@link ChildJvm#sameLibrary}): against the
 * sanitized one, a sanitizer's report, a leak found at the child's exit
 * included, ends it abnormally and fails the test with the report.
 *
 * <p>{@code -Dpinrock.torture.seed=S} replays a seed (each thread's choices;
 * what they do depends on the interleaving, which is the scheduler's), and
 * {@code -Dpinrock.torture.operations=N} sets the count: the long run in
 * docs/reliability.md uses 20 million.
 */
class TortureTest {
    @TempDir
    Path dir;

    @Test
    void aMillionRandomOperationsOnFourThreadsNeitherCrashNorLoseAWrite() throws Exception {
        long seed = Long.getLong("pinrock.torture.seed", System.nanoTime());
        long operations = Long.getLong("pinrock.torture.operations", 1_000_000);
        Path crashReports = Files.createDirectory(dir.resolve("crash-reports"));
        Path databases = Files.createDirectory(dir.resolve("databases"));
        System.out.println("torture seed " + seed + " (replay with -Dpinrock.torture.seed=" + seed + ")");

        List<String> jvmOptions = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-Xmx512m",
                "-XX:ErrorFile=" + crashReports + "/hs_err_pid%p.log"));
        jvmOptions.addAll(ChildJvm.sameLibrary());
        ChildJvm.Outcome outcome = ChildJvm.run(jvmOptions, ChildJvm.testClassPath(),
                Duration.ofMinutes(30), TortureWorkload.class.getName(), String.valueOf(seed),
                String.valueOf(operations), "4", databases.toString());

        String replay = "seed " + seed + " (replay with -Dpinrock.torture.seed=" + seed + ")";
        try (Stream<Path> reports = Files.list(crashReports)) {
            List<Path> found = reports.toList();
            // The report's head (the signal, the frame, the thread's stack) goes into the failure:
            // the report itself goes with this test's temporary directory.
            String head = found.isEmpty() ? ""
                    : String.join("\n", Files.readAllLines(found.get(0), StandardCharsets.ISO_8859_1).stream()
                            .limit(80).toList());
            assertEquals(List.of(), found, "the JVM crashed with " + replay + "\n" + head + "\n" + outcome.stderr());
        }
        assertEquals(0, outcome.exitCode(), "the torture failed with " + replay + "\n" + outcome.stdout()
                + outcome.stderr());
        Map<String, Long> counts = outcome.stdout().lines().filter(line -> line.contains("="))
                .map(line -> line.split("=", 2))
                .collect(Collectors.toMap(kv -> kv[0], kv -> Long.parseLong(kv[1].trim())));
        System.out.println("torture counts: " + counts);
        assertTrue(counts.getOrDefault("operations", 0L) >= operations - 3, counts.toString());
        assertTrue(counts.getOrDefault("java merges", 0L) > 0, "no merge reached the Java merge operator: " + counts);
        // Each kind of misuse happened and was answered with its documented exception.
        for (String kind : List.of("IllegalStateException", "WrongThreadException",
                "RocksIoException.IO_ERROR", "IllegalArgumentException")) {
            assertTrue(counts.getOrDefault(kind, 0L) > 0, kind + " never happened: " + counts);
        }
    }
}
