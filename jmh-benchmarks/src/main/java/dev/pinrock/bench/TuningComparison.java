package dev.pinrock.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.pinrock.RocksDb;

/**
 * Runs {@link TuningBenchmark} for pinrock and RocksJava in one JMH run and
 * records operations/s and the ratios in {@code tuning.md} and
 * {@code tuning.csv}:
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp ... dev.pinrock.bench.TuningComparison
 *        --report DIR --command TEXT
 * </pre>
 */
public final class TuningComparison {
    private TuningComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path report = Path.of("jmh-benchmarks/target/tuning");
        String command = "scripts/bench.sh --tuning";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--report" -> report = Path.of(args[++i]);
                case "--command" -> command = args[++i];
                default -> {
                    System.err.println("usage: TuningComparison [--report DIR] [--command TEXT]");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(report);
        List<JmhRuns.Result> results = JmhRuns.run(TuningBenchmark.class);
        String markdown = markdown(results, command, ZonedDateTime.now());
        Files.writeString(report.resolve("tuning.md"), markdown);
        List<String> csv = new ArrayList<>(List.of("benchmark,library,filter,ops_per_s,error"));
        results.forEach(r -> csv.add(String.format(Locale.ROOT, "%s,%s,%s,%.1f,%.1f", r.benchmark(),
                r.param("library"), r.param("filter"), r.score(), r.error())));
        Files.write(report.resolve("tuning.csv"), csv);
        System.out.println(markdown);
    }

    private static JmhRuns.Result find(List<JmhRuns.Result> results, String benchmark, String library, String filter) {
        return results.stream()
                .filter(r -> r.benchmark().equals(benchmark) && r.param("library").equals(library)
                        && r.param("filter").equals(filter))
                .findFirst().orElseThrow(() -> new IllegalStateException("no result for " + benchmark + " "
                        + library + " " + filter));
    }

    static String markdown(List<JmhRuns.Result> results, String command, ZonedDateTime measured) {
        StringBuilder md = JmhRuns.header("Tuned reads: filters and prefix extractors, pinrock against RocksJava",
                command, measured);
        md.append("| RocksDB | pinrock engine ").append(RocksDb.engineVersion())
                .append("; RocksJava org.rocksdb:rocksdbjni:").append(Report.rocksJavaVersion()).append(" |\n\n");
        md.append("Operations per second, ").append(JmhRuns.PROTOCOL).append("; ± is JMH's 99.9 % error. ")
                .append("Compare the ratios, not absolute numbers: these 2-core machines are noisy. Both libraries ")
                .append("open a database they wrote themselves with the same RocksDB options: ")
                .append(TuningBenchmark.PREFIXES).append(" prefixes of ").append(TuningBenchmark.KEYS_PER_PREFIX)
                .append(" keys (16-byte keys: an 8-byte prefix, an 8-byte suffix), ")
                .append(TuningBenchmark.VALUE_BYTES).append("-byte values, no compression, a 1 GiB block cache, ")
                .append("a fixed 8-byte prefix extractor, ").append(TuningBenchmark.FILES)
                .append(" table files each spanning the whole key range, automatic compactions off; `bloom` adds ")
                .append("a 10-bit whole-key Bloom filter (pinrock `bloomFilter(10)`, RocksJava ")
                .append("`new BloomFilter(10, false)`). `getAbsent` looks up a key absent from a present prefix ")
                .append("(pinrock `get(key, dst)`, RocksJava `get(key, dst)`); `prefixScan` reads the ")
                .append(TuningBenchmark.KEYS_PER_PREFIX).append(" entries of one prefix (pinrock: a cursor with ")
                .append("`ReadOptions.prefix(p)` and the batched `scan`; RocksJava: an iterator with ")
                .append("`setPrefixSameAsStart(true)`, `seek` and `key(byte[])`/`value(byte[])` into reused arrays).\n\n");
        md.append("| benchmark | filter | pinrock ops/s | RocksJava ops/s | pinrock/RocksJava |\n|---|---|---|---|---|\n");
        for (String benchmark : List.of("getAbsent", "prefixScan")) {
            for (String filter : List.of("bloom", "none")) {
                JmhRuns.Result pinrock = find(results, benchmark, "pinrock", filter);
                JmhRuns.Result rocksJava = find(results, benchmark, "rocksjava", filter);
                md.append(String.format(Locale.ROOT, "| %s | %s | %,.0f ± %,.0f | %,.0f ± %,.0f | %.2f |%n", benchmark,
                        filter, pinrock.score(), pinrock.error(), rocksJava.score(), rocksJava.error(),
                        pinrock.score() / rocksJava.score()));
            }
        }
        md.append("\nWhat the Bloom filter gives an absent-key lookup (`getAbsent`, bloom/none): ");
        for (String library : List.of("pinrock", "rocksjava")) {
            md.append(String.format(Locale.ROOT, "%s %.2f×%s", library.equals("pinrock") ? "pinrock" : "RocksJava",
                    find(results, "getAbsent", library, "bloom").score()
                            / find(results, "getAbsent", library, "none").score(),
                    library.equals("pinrock") ? ", " : ".\n"));
        }
        return md.toString();
    }
}
