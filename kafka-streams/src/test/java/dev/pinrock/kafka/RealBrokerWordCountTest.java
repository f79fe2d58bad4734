package dev.pinrock.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Word count on pinrock stores against a real Kafka broker ({@link LoopbackCluster}).
 * The application, in a child JVM, is killed with
 * SIGKILL after the first third of the input, its state directory removed,
 * and started again, so that its store is restored from the changelog; after
 * the second third it is stopped cleanly and started on its state directory,
 * whose checkpoint spares it the restoration. The counts must always equal
 * the counts of the input so far.
 */
class RealBrokerWordCountTest {
    @TempDir
    Path work;

    private LoopbackCluster cluster;

    @AfterEach
    void killChildren() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Process startApp(Path stateDir, String name) throws Exception {
        return cluster.startApp(name, stateDir.toString(), "pinrock-word-count");
    }

    @Test
    void wordCountSurvivesAKillAndARestart() throws Exception {
        cluster = new LoopbackCluster(work);
        cluster.startBroker(2);
        List<String> lines = LoopbackCluster.lines(4000, 5);
        int third = lines.size() / 3;

        Path stateDir = work.resolve("app-state");
        try (KafkaConsumer<String, Long> output = cluster.outputConsumer()) {
            Map<String, Long> latest = new HashMap<>();

            Process first = startApp(stateDir, "app-1");
            cluster.produce(lines.subList(0, third), 0);
            cluster.awaitCounts(output, latest, LoopbackCluster.count(lines.subList(0, third)), true, "app-1");
            assertTrue(Files.isDirectory(stateDir.resolve("pinrock-word-count")), "the app kept state");
            first.destroyForcibly();
            assertTrue(first.waitFor(1, TimeUnit.MINUTES));
            assertEquals(137, first.exitValue(), "killed by SIGKILL");

            Utils.delete(stateDir.toFile());
            assertFalse(Files.exists(stateDir));
            Process second = startApp(stateDir, "app-2");
            cluster.awaitLine("app-2", "RUNNING");
            cluster.produce(lines.subList(third, 2 * third), third);
            cluster.awaitCounts(output, latest, LoopbackCluster.count(lines.subList(0, 2 * third)), true, "app-2");
            second.destroy();
            assertTrue(second.waitFor(2, TimeUnit.MINUTES), "a clean close:\n" + cluster.log("app-2"));

            startApp(stateDir, "app-3");
            cluster.awaitLine("app-3", "RUNNING");
            cluster.produce(lines.subList(2 * third, lines.size()), 2 * third);
            cluster.awaitCounts(output, latest, LoopbackCluster.count(lines), true, "app-3");
        }
        assertTrue(restored("app-2") > 0, "the second instance restored its store from the changelog:\n"
                + cluster.log("app-2"));
        assertTrue(restored("app-3") < restored("app-2") / 10, "the third instance started from its checkpoint: "
                + restored("app-3") + " records restored\n" + cluster.log("app-3"));
        try (var files = Files.walk(stateDir)) {
            assertTrue(files.anyMatch(path -> path.endsWith(Path.of("pinrock", "counts"))), "pinrock's store");
        }
    }

    /** @return the records an application instance reported restoring (0 when it restored nothing) */
    private long restored(String app) {
        return cluster.log(app).lines().filter(line -> line.startsWith("RESTORED "))
                .mapToLong(line -> Long.parseLong(line.split(" ")[1])).max().orElse(0);
    }
}
