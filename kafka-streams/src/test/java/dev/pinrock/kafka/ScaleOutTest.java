package dev.pinrock.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scale-out: three word-count instances ({@link WordCountApp}, child JVMs)
 * share one input topic of six partitions, with one standby replica of each
 * task, against a real broker ({@link LoopbackCluster}). One instance is
 * killed with SIGKILL halfway through the second third of the input; the
 * other two take over its tasks, and it rejoins on its state directory before
 * the last third. The counts are exactly right all along under exactly-once
 * and never short under at-least-once (where a kill may count some words
 * twice), and interactive queries (IQv2) find each word on whichever instance
 * owns it, during the rebalance the kill causes and after each step. Kafka Streams' built-in store runs the same steps
 * as the control; each run prints how long the failover took and what each
 * instance restored.
 */
class ScaleOutTest {
    private static final int PARTITIONS = 6;
    private static final List<String> NAMES = List.of("a", "b", "c");

    @TempDir
    Path work;

    private LoopbackCluster cluster;
    private final Map<String, Integer> ports = new HashMap<>();
    /** The live instances by name, and the log each one writes. */
    private final Map<String, Process> live = new LinkedHashMap<>();
    private final Map<String, String> logs = new HashMap<>();
    private final Map<String, BufferedWriter> queries = new HashMap<>();
    private final AtomicInteger queryIds = new AtomicInteger();

    @AfterEach
    void killChildren() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0} stores, {1}")
    @CsvSource({"pinrock, exactly_once_v2", "pinrock, at_least_once", "builtin, exactly_once_v2"})
    void threeInstancesShareTheTasksAndSurviveTheKillOfOne(String stores, String guarantee) throws Exception {
        boolean exactlyOnce = guarantee.equals(StreamsConfig.EXACTLY_ONCE_V2);
        cluster = new LoopbackCluster(work);
        cluster.startBroker(PARTITIONS);
        List<String> lines = LoopbackCluster.lines(6000, 11);
        int third = lines.size() / 3;
        int half = third + third / 2;
        for (String name : NAMES) {
            ports.put(name, LoopbackCluster.freePort());
            start(name, name, stores, guarantee);
        }
        for (String name : NAMES) {
            cluster.awaitLine(name, "RUNNING");
        }
        String[] everyLog = {"a", "b", "c", "b-rejoined"};
        long failoverMillis;
        try (KafkaConsumer<String, Long> output = cluster.outputConsumer()) {
            Map<String, Long> latest = new HashMap<>();
            Map<String, Long> firstThird = LoopbackCluster.count(lines.subList(0, third));
            cluster.produce(lines.subList(0, third), 0);
            cluster.awaitCounts(output, latest, firstThird, exactlyOnce, everyLog);
            assertQueriesFind(firstThird, firstThird, exactlyOnce);

            cluster.produce(lines.subList(third, half), third);
            long killed = System.nanoTime();
            Process victim = live.remove("b");
            victim.destroyForcibly();
            assertTrue(victim.waitFor(1, TimeUnit.MINUTES));
            assertEquals(137, victim.exitValue(), "killed by SIGKILL");
            cluster.produce(lines.subList(half, 2 * third), half);
            Map<String, Long> twoThirds = LoopbackCluster.count(lines.subList(0, 2 * third));
            // During the rebalance: each word is found as soon as an instance owns it again.
            assertQueriesFind(firstThird, twoThirds, exactlyOnce);
            cluster.awaitCounts(output, latest, twoThirds, exactlyOnce, everyLog);
            failoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            assertQueriesFind(twoThirds, twoThirds, exactlyOnce);

            start("b", "b-rejoined", stores, guarantee);
            cluster.awaitLine("b-rejoined", "RUNNING");
            cluster.produce(lines.subList(2 * third, lines.size()), 2 * third);
            Map<String, Long> all = LoopbackCluster.count(lines);
            cluster.awaitCounts(output, latest, all, exactlyOnce, everyLog);
            assertQueriesFind(all, all, exactlyOnce);
        }
        Path store = Path.of(stores.equals("pinrock") ? "pinrock" : "rocksdb", WordCountApp.STORE);
        try (var files = Files.walk(work.resolve("state-b"))) {
            assertTrue(files.anyMatch(path -> path.endsWith(store)), "the stores are " + store);
        }
        System.out.printf("scale-out, %s stores, %s: counts right again %d ms after the kill; restored by the"
                + " others: %s; by the rejoined instance: %s%n", stores, guarantee, failoverMillis,
                restorations("a") + " + " + restorations("c"), restorations("b-rejoined"));
    }

    /** Starts instance name (its state directory state-name), logging to log. */
    private void start(String name, String log, String stores, String guarantee) throws IOException {
        Process process = cluster.startApp(log, work.resolve("state-" + name).toString(), "scale-out-" + stores
                + "-" + guarantee, guarantee, stores, "1", String.valueOf(ports.get(name)));
        live.put(name, process);
        logs.put(name, log);
        queries.put(name, process.outputWriter());
    }

    /**
     * Asks for a sample of the words, each from one live instance and then from
     * the one that names itself the owner: the owner answers a count of at least
     * the word's count in atLeast and, exactly once, at most its count in atMost
     * (at least once, a kill may count words twice).
     */
    private void assertQueriesFind(Map<String, Long> atLeast, Map<String, Long> atMost, boolean exactlyOnce)
            throws Exception {
        List<String> words = new ArrayList<>(new TreeSet<>(atMost.keySet()));
        for (int i = 0; i < words.size(); i += Math.max(1, words.size() / 25)) {
            String word = words.get(i);
            long found = ownerAnswer(word);
            long low = atLeast.getOrDefault(word, 0L);
            long high = exactlyOnce ? atMost.get(word) : Long.MAX_VALUE;
            assertTrue(found >= low && found <= high, word + ": the owner answered " + found + ", expected "
                    + low + ".." + (exactlyOnce ? high : "") + cluster.logs(logs.values().toArray(String[]::new)));
        }
    }

    /** @return the count of word the instance owning it answers, asked until one does */
    private long ownerAnswer(String word) throws Exception {
        long deadline = System.nanoTime() + LoopbackCluster.PATIENCE.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            for (String asked : live.keySet()) {
                last = ask(asked, word);
                String owner = field(last, "owner");
                if (owner.equals("none")) {
                    continue;
                }
                String ownerName = liveNameOf(Integer.parseInt(owner));
                if (ownerName == null) {
                    continue; // the killed instance, until the group notices it is gone
                }
                String answer = ownerName.equals(asked) ? last : ask(ownerName, word);
                String value = field(answer, "value");
                if (!value.equals("-") && !value.startsWith("failed:")) {
                    return Long.parseLong(value);
                }
                last = answer;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no instance answered for " + word + ": " + last
                + cluster.logs(logs.values().toArray(String[]::new)));
    }

    /** @return the live instance named by port, or null when none is */
    private String liveNameOf(int port) {
        return live.keySet().stream().filter(name -> ports.get(name) == port).findFirst().orElse(null);
    }

    /** @return the answer line instance name gives for word */
    private String ask(String name, String word) throws Exception {
        String id = "q" + queryIds.incrementAndGet();
        BufferedWriter writer = queries.get(name);
        writer.write("GET " + id + " " + word + "\n");
        writer.flush();
        return cluster.awaitLine(logs.get(name), "ANSWER " + id + " ");
    }

    private static String field(String answer, String name) {
        for (String part : answer.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        assertNotNull(null, answer + " has no " + name);
        return "";
    }

    /**
     * @return the records and milliseconds of an instance's restorations and the records its standby
     *     replicas loaded, e.g. "1200 records in 340 ms (standbys loaded 800)"
     */
    private String restorations(String log) {
        long records = 0;
        long millis = 0;
        long standby = 0;
        for (String line : cluster.log(log).lines().toList()) {
            String[] parts = line.split(" ");
            if (parts[0].equals("RESTORED")) {
                records += Long.parseLong(parts[3]);
                millis += Long.parseLong(parts[4]);
            } else if (parts[0].equals("STANDBY")) {
                standby += Long.parseLong(parts[2]);
            }
        }
        return records + " records in " + millis + " ms (standbys loaded " + standby + ")";
    }
}
