package dev.pinrock.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.utils.AppInfoParser;

import dev.pinrock.RocksDb;

/**
 * Runs {@link KafkaStreamsBenchmark} for pinrock's store and the built-in
 * one in one JMH run and records records/s and the ratio in
 * {@code kafka-streams.md} and {@code kafka-streams.csv}:
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp ... dev.pinrock.bench.KafkaStreamsComparison
 *        --report DIR --command TEXT
 * </pre>
 */
public final class KafkaStreamsComparison {
    private KafkaStreamsComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path report = Path.of("jmh-benchmarks/target/kafka-streams");
        String command = "scripts/bench.sh --kafka-streams";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--report" -> report = Path.of(args[++i]);
                case "--command" -> command = args[++i];
                default -> {
                    System.err.println("usage: KafkaStreamsComparison [--report DIR] [--command TEXT]");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(report);
        List<JmhRuns.Result> results = JmhRuns.run(KafkaStreamsBenchmark.class);
        String markdown = markdown(results, command, ZonedDateTime.now());
        Files.writeString(report.resolve("kafka-streams.md"), markdown);
        List<String> csv = new ArrayList<>(List.of("benchmark,store,records_per_s,error"));
        results.forEach(r -> csv.add(String.format(Locale.ROOT, "%s,%s,%.1f,%.1f", r.benchmark(), r.param("store"),
                r.score(), r.error())));
        Files.write(report.resolve("kafka-streams.csv"), csv);
        System.out.println(markdown);
    }

    static String markdown(List<JmhRuns.Result> results, String command, ZonedDateTime measured) {
        Map<String, Map<String, JmhRuns.Result>> byBenchmark = new TreeMap<>();
        results.forEach(r -> byBenchmark.computeIfAbsent(r.benchmark(), b -> new TreeMap<>()).put(r.param("store"), r));
        StringBuilder md = JmhRuns.header("Kafka Streams: pinrock's store against the built-in one", command, measured);
        md.append("| Kafka Streams | ").append(AppInfoParser.getVersion()).append(" |\n");
        md.append("| RocksDB | pinrock engine ").append(RocksDb.engineVersion())
                .append("; the built-in store on RocksJava org.rocksdb:rocksdbjni:").append(Report.rocksJavaVersion())
                .append(" |\n\n");
        md.append("The key-value store alone, records per second, ").append(JmhRuns.PROTOCOL).append("; ")
                .append("± is JMH's 99.9 % error. Compare the ratio, not absolute numbers: these 2-core machines ")
                .append("are noisy. `store` is word count's access pattern (get the count, put it plus one) over ")
                .append("100,000 words, committing every 10,000 updates; one record is one update. Both stores ")
                .append("run with their defaults, which are the same RocksDB options (the built-in store's: no ")
                .append("compression, universal compaction, a 10-bit Bloom filter, 16 MiB memtables up to 3, a ")
                .append("50 MiB block cache). Whole applications on a real broker: `scripts/bench.sh ")
                .append("--kafka-streams-e2e` ([kafka-streams-e2e.md](kafka-streams-e2e.md)).\n\n");
        md.append("| benchmark | pinrock records/s | built-in records/s | pinrock/built-in |\n|---|---|---|---|\n");
        byBenchmark.forEach((benchmark, stores) -> {
            JmhRuns.Result pinrock = stores.get("pinrock");
            JmhRuns.Result builtIn = stores.get("builtin");
            md.append(String.format(Locale.ROOT, "| %s | %,.0f ± %,.0f | %,.0f ± %,.0f | %.2f |%n", benchmark,
                    pinrock.score(), pinrock.error(), builtIn.score(), builtIn.error(),
                    pinrock.score() / builtIn.score()));
        });
        return md.toString();
    }
}
