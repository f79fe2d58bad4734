package dev.pinrock.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.pinrock.RocksDb;

/**
 * Runs {@link TransactionBenchmark} and {@link IndexedBatchBenchmark} for
 * pinrock and RocksJava, one JMH run each, and records operations/s and the
 * ratios in {@code transactions.md} and {@code transactions.csv}:
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp ... dev.pinrock.bench.TransactionComparison
 *        --report DIR --command TEXT
 * </pre>
 */
public final class TransactionComparison {
    private TransactionComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path report = Path.of("jmh-benchmarks/target/transactions");
        String command = "scripts/bench.sh --transactions";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--report" -> report = Path.of(args[++i]);
                case "--command" -> command = args[++i];
                default -> {
                    System.err.println("usage: TransactionComparison [--report DIR] [--command TEXT]");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(report);
        List<JmhRuns.Result> results = JmhRuns.run(TransactionBenchmark.class);
        List<JmhRuns.Result> batches = JmhRuns.run(IndexedBatchBenchmark.class);
        String markdown = markdown(results, batches, command, ZonedDateTime.now());
        Files.writeString(report.resolve("transactions.md"), markdown);
        List<String> csv = new ArrayList<>(List.of("benchmark,library,kind,ops_per_s,error"));
        results.forEach(r -> csv.add(String.format(Locale.ROOT, "%s,%s,%s,%.1f,%.1f", r.benchmark(),
                r.param("library"), r.param("kind"), r.score(), r.error())));
        batches.forEach(r -> csv.add(String.format(Locale.ROOT, "%s,%s,%s,%.1f,%.1f", r.benchmark(),
                r.param("library"), "batch-with-index", r.score(), r.error())));
        Files.write(report.resolve("transactions.csv"), csv);
        System.out.println(markdown);
    }

    /** The result of benchmark for library and, when kind is not null, of that kind. */
    private static JmhRuns.Result find(List<JmhRuns.Result> results, String benchmark, String library, String kind) {
        return results.stream()
                .filter(r -> r.benchmark().equals(benchmark) && r.param("library").equals(library)
                        && (kind == null || r.param("kind").equals(kind)))
                .findFirst().orElseThrow(() -> new IllegalStateException("no result for " + benchmark + " "
                        + library + " " + kind));
    }

    static String markdown(List<JmhRuns.Result> results, List<JmhRuns.Result> batches, String command,
            ZonedDateTime measured) {
        StringBuilder md = JmhRuns.header("Transactions and batches with index, pinrock against RocksJava", command,
                measured);
        md.append("| RocksDB | pinrock engine ").append(RocksDb.engineVersion())
                .append("; RocksJava org.rocksdb:rocksdbjni:").append(Report.rocksJavaVersion()).append(" |\n\n");
        md.append("Operations per second, ").append(JmhRuns.PROTOCOL).append("; ± is JMH's 99.9 % error. ")
                .append("Compare the ratios, not absolute numbers: these 2-core machines are noisy. Each library ")
                .append("opens its own database with the same RocksDB options (no compression, a 64 MiB write ")
                .append("buffer), `pessimistic` for `TransactionDB` (WRITE_COMMITTED, default lock settings) and ")
                .append("`optimistic` for `OptimisticTransactionDB`, holding ").append(TransactionBenchmark.KEYS)
                .append(" keys of 16 bytes with ").append(TransactionBenchmark.VALUE_BYTES)
                .append("-byte values. Each operation begins a transaction, works on keys picked at random, ")
                .append("commits (logged, not synced) and closes it: `putCommit1` puts one key, `putCommit").append(
                        TransactionBenchmark.KEYS_PER_TRANSACTION).append("` puts ")
                .append(TransactionBenchmark.KEYS_PER_TRANSACTION).append(" keys, `readModifyWrite` reads a key ")
                .append("for update (pinrock `forUpdate().get(key)`, RocksJava `getForUpdate(readOptions, key, ")
                .append("true)`), puts it back with a counter incremented, and commits. pinrock has no JNI ")
                .append("variant of transactions.\n\n");
        md.append("| benchmark | kind | pinrock ops/s | RocksJava ops/s | pinrock/RocksJava |\n")
                .append("|---|---|---|---|---|\n");
        for (String benchmark : List.of("putCommit1", "putCommit4", "readModifyWrite")) {
            for (String kind : List.of("pessimistic", "optimistic")) {
                JmhRuns.Result pinrock = find(results, benchmark, "pinrock", kind);
                JmhRuns.Result rocksJava = find(results, benchmark, "rocksjava", kind);
                md.append(String.format(Locale.ROOT, "| %s | %s | %,.0f ± %,.0f | %,.0f ± %,.0f | %.2f |%n",
                        benchmark, kind, pinrock.score(), pinrock.error(), rocksJava.score(), rocksJava.error(),
                        pinrock.score() / rocksJava.score()));
            }
        }
        md.append("\n## Batches with index\n\n")
                .append("Reads through a `WriteBatchWithIndex` holding a put of every ")
                .append(IndexedBatchBenchmark.BATCH_EVERY).append("th key (overwrite-key mode) over a database of ")
                .append(IndexedBatchBenchmark.KEYS).append(" keys, same options as above, in a run of their own: ")
                .append("`getFromBatchAndDb` reads a random key (pinrock `batch.get(key)`, RocksJava ")
                .append("`getFromBatchAndDB(db, readOptions, key)`), `cursorOverBatchAndDb` opens a cursor over the ")
                .append("batch and the database, seeks a random key and reads ").append(IndexedBatchBenchmark.SCAN_ENTRIES)
                .append(" entries (pinrock `batch.cursor()`, `seek` and `scan`, which copies the entries into a ")
                .append("native buffer in one call and shows each to a visitor as views; RocksJava ")
                .append("`newIteratorWithBase`, `seek`, and `next`, `key` and `value` per entry, which copy each key ")
                .append("and value into arrays); `openCursorOverBatchAndDb` reads the same way through one cursor ")
                .append("opened at the first operation and kept open.\n\n");
        md.append("| benchmark | pinrock ops/s | RocksJava ops/s | pinrock/RocksJava |\n")
                .append("|---|---|---|---|\n");
        for (String benchmark : List.of("getFromBatchAndDb", "cursorOverBatchAndDb", "openCursorOverBatchAndDb")) {
            JmhRuns.Result pinrock = find(batches, benchmark, "pinrock", null);
            JmhRuns.Result rocksJava = find(batches, benchmark, "rocksjava", null);
            md.append(String.format(Locale.ROOT, "| %s | %,.0f ± %,.0f | %,.0f ± %,.0f | %.2f |%n", benchmark,
                    pinrock.score(), pinrock.error(), rocksJava.score(), rocksJava.error(),
                    pinrock.score() / rocksJava.score()));
        }
        return md.toString();
    }
}
