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
        List<String> csv = new ArrayList<>(List.of("benchmark,library,layout,filter,ops_per_s,error"));
        results.forEach(r -> csv.add(String.format(Locale.ROOT, "%s,%s,%s,%s,%.1f,%.1f", r.benchmark(),
                r.param("library"), r.param("layout"), r.param("filter"), r.score(), r.error())));
        Files.write(report.resolve("tuning.csv"), csv);
        System.out.println(markdown);
    }

    private static final List<String> LAYOUTS = List.of("overlapping", "compacted");
    private static final List<String> FILTERS = List.of("bloom", "none");

    private static JmhRuns.Result find(List<JmhRuns.Result> results, String benchmark, String library, String layout,
            String filter) {
        return results.stream()
                .filter(r -> r.benchmark().equals(benchmark) && r.param("library").equals(library)
                        && r.param("layout").equals(layout) && r.param("filter").equals(filter))
                .findFirst().orElseThrow(() -> new IllegalStateException("no result for " + benchmark + " "
                        + library + " " + layout + " " + filter));
    }

    /** The faster of a library's two ways of scanning a prefix, as the main grid compares each library's best. */
    private static double bestPrefixScan(List<JmhRuns.Result> results, String library, String layout,
            String filter) {
        return Math.max(find(results, "prefixScan", library, layout, filter).score(),
                find(results, "prefixScanFlat", library, layout, filter).score());
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
                .append("a fixed 8-byte prefix extractor, written in ").append(TuningBenchmark.FILES)
                .append(" passes flushed to ").append(TuningBenchmark.FILES)
                .append(" table files each spanning the whole key range, automatic compactions off. Layout ")
                .append("`overlapping` reads those files as they are (every read consults each); `compacted` ")
                .append("after a full compaction into one sorted run. `bloom` adds a 10-bit whole-key Bloom ")
                .append("filter (pinrock `bloomFilter(10)`, RocksJava `new BloomFilter(10, false)`). ")
                .append("`getAbsent` looks up a key absent from a present prefix (pinrock `get(key, dst)`, ")
                .append("RocksJava `get(key, dst)`). The scans read the ").append(TuningBenchmark.KEYS_PER_PREFIX)
                .append(" entries of one prefix through a cursor with `ReadOptions.prefix(p)` (pinrock) or an ")
                .append("iterator with `setPrefixSameAsStart(true)` and `seek` (RocksJava): `prefixScan` in each ")
                .append("library's convenient way (pinrock: `scan` with a view of each key and value; RocksJava: ")
                .append("`key(byte[])`/`value(byte[])` into reused arrays), `prefixScanFlat` in its other way ")
                .append("(pinrock: `scanBatches`, stepping through each batch by offset; RocksJava: ")
                .append("`key(ByteBuffer)`/`value(ByteBuffer)` into reused direct buffers).\n\n");
        md.append("| benchmark | layout | filter | pinrock ops/s | RocksJava ops/s | pinrock/RocksJava |\n")
                .append("|---|---|---|---|---|---|\n");
        for (String benchmark : List.of("getAbsent", "prefixScan", "prefixScanFlat")) {
            for (String layout : LAYOUTS) {
                for (String filter : FILTERS) {
                    JmhRuns.Result pinrock = find(results, benchmark, "pinrock", layout, filter);
                    JmhRuns.Result rocksJava = find(results, benchmark, "rocksjava", layout, filter);
                    md.append(String.format(Locale.ROOT, "| %s | %s | %s | %,.0f ± %,.0f | %,.0f ± %,.0f | %.2f |%n",
                            benchmark, layout, filter, pinrock.score(), pinrock.error(), rocksJava.score(),
                            rocksJava.error(), pinrock.score() / rocksJava.score()));
                }
            }
        }
        md.append("\nA prefix scan, each library's faster way against the other's (pinrock/RocksJava): ");
        List<String> scans = new ArrayList<>();
        for (String layout : LAYOUTS) {
            for (String filter : FILTERS) {
                scans.add(String.format(Locale.ROOT, "%s %s %.2f", layout, filter,
                        bestPrefixScan(results, "pinrock", layout, filter)
                                / bestPrefixScan(results, "rocksjava", layout, filter)));
            }
        }
        md.append(String.join(", ", scans)).append(".\n");
        md.append("\nWhat the Bloom filter gives an absent-key lookup (`getAbsent`, bloom/none): ");
        List<String> gains = new ArrayList<>();
        for (String layout : LAYOUTS) {
            for (String library : List.of("pinrock", "rocksjava")) {
                gains.add(String.format(Locale.ROOT, "%s %s %.2f×", layout,
                        library.equals("pinrock") ? "pinrock" : "RocksJava",
                        find(results, "getAbsent", library, layout, "bloom").score()
                                / find(results, "getAbsent", library, layout, "none").score()));
            }
        }
        md.append(String.join(", ", gains)).append(".\n");
        return md.toString();
    }
}
