package dev.pinrock.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.pinrock.RocksDb;

/**
 * Runs {@link MergeOperatorBenchmark} (a merge operator written in Java on
 * pinrock, RocksDB's built-in one on pinrock and on RocksJava) and
 * {@link CompactionFilterBenchmark} (a compaction filter written in Java on
 * pinrock, none, and RocksDB's built-in one on RocksJava),
 * {@link ComparatorBenchmark} (a comparator written in Java on pinrock and on
 * RocksJava, and RocksDB's built-in one on both) and
 * {@link UpcallBenchmark} (one call from C++ into Java: FFM beside JNI) and records
 * operations/s and the ratios in {@code callbacks.md} and
 * {@code callbacks.csv}:
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp ... dev.pinrock.bench.CallbackComparison
 *        --report DIR --command TEXT
 * </pre>
 */
public final class CallbackComparison {
    private CallbackComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path report = Path.of("jmh-benchmarks/target/callbacks");
        String command = "scripts/bench.sh --callbacks";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--report" -> report = Path.of(args[++i]);
                case "--command" -> command = args[++i];
                default -> {
                    System.err.println("usage: CallbackComparison [--report DIR] [--command TEXT]");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(report);
        List<JmhRuns.Result> results = new ArrayList<>(JmhRuns.run(MergeOperatorBenchmark.class));
        results.addAll(JmhRuns.run(CompactionFilterBenchmark.class));
        results.addAll(JmhRuns.run(ComparatorBenchmark.class));
        results.addAll(JmhRuns.run(UpcallBenchmark.class));
        String markdown = markdown(results, command, ZonedDateTime.now());
        Files.writeString(report.resolve("callbacks.md"), markdown);
        List<String> csv = new ArrayList<>(List.of("benchmark,library,ops_per_s,error"));
        results.forEach(r -> csv.add(String.format(Locale.ROOT, "%s,%s,%.1f,%.1f", r.benchmark(), r.param("library"),
                r.score(), r.error())));
        Files.write(report.resolve("callbacks.csv"), csv);
        System.out.println(markdown);
    }

    private static JmhRuns.Result find(List<JmhRuns.Result> results, String benchmark, String library) {
        return results.stream().filter(r -> r.benchmark().equals(benchmark) && r.param("library").equals(library))
                .findFirst().orElseThrow(() -> new IllegalStateException("no result for " + benchmark + " "
                        + library));
    }

    static String markdown(List<JmhRuns.Result> results, String command, ZonedDateTime measured) {
        StringBuilder md = JmhRuns.header("Callbacks: merge operators, compaction filters and comparators in Java"
                + " against RocksDB's own, and the cost of one call into Java",
                command,
                measured);
        md.append("| RocksDB | pinrock engine ").append(RocksDb.engineVersion())
                .append("; RocksJava org.rocksdb:rocksdbjni:").append(Report.rocksJavaVersion()).append(" |\n\n");
        md.append("Operations per second, ").append(JmhRuns.PROTOCOL).append("; ± is JMH's 99.9 % error. ")
                .append("Compare the ratios, not absolute numbers: these 2-core machines are noisy. Each of ")
                .append(MergeOperatorBenchmark.KEYS).append(" keys holds a put of an 8-byte counter and ")
                .append(MergeOperatorBenchmark.OPERANDS).append(" merge operands adding 1, all in the memtable ")
                .append("(no compression, a 64 MiB write buffer): `getMerged` reads a random key, merging its ")
                .append("operands; `mergeThenGet` merges 1 into a random key and reads another (the operands ")
                .append("written during the trial are merged too). `pinrock-java` merges with little-endian ")
                .append("64-bit sums written in Java (`MergeOperator`, FFM upcalls), `pinrock` and `rocksjava` with ")
                .append("RocksDB's built-in `uint64add`: RocksJava cannot run a merge operator written in Java, so ")
                .append("its built-in one is the comparison.\n\n");
        md.append("| benchmark | pinrock, Java operator | pinrock, built-in | RocksJava, built-in | Java/built-in "
                + "(pinrock) | pinrock Java/RocksJava built-in |\n|---|---|---|---|---|---|\n");
        for (String benchmark : List.of("getMerged", "mergeThenGet")) {
            JmhRuns.Result java = find(results, benchmark, "pinrock-java");
            JmhRuns.Result builtIn = find(results, benchmark, "pinrock");
            JmhRuns.Result rocksJava = find(results, benchmark, "rocksjava");
            md.append(String.format(Locale.ROOT,
                    "| %s | %,.0f ± %,.0f | %,.0f ± %,.0f | %,.0f ± %,.0f | %.2f | %.2f |%n", benchmark,
                    java.score(), java.error(), builtIn.score(), builtIn.error(), rocksJava.score(),
                    rocksJava.error(), java.score() / builtIn.score(), java.score() / rocksJava.score()));
        }
        JmhRuns.Result java = find(results, "compactAll", "pinrock-java");
        JmhRuns.Result none = find(results, "compactAll", "pinrock");
        JmhRuns.Result rocksJava = find(results, "compactAll", "rocksjava");
        md.append("\nCompactions per second: each compacts a database of ")
                .append(String.format(Locale.ROOT, "%,d", CompactionFilterBenchmark.ENTRIES)).append(" keys with ")
                .append(CompactionFilterBenchmark.VALUE_BYTES).append("-byte values (").append(CompactionFilterBenchmark.EMPTY)
                .append(" of them empty) in one table file, whole, rewriting the last level, so every entry passes ")
                .append("the filter. The filter removes empty values: written in Java on pinrock (`CompactionFilter`, ")
                .append("an FFM upcall per entry), none on pinrock, and RocksDB's built-in ")
                .append("`RemoveEmptyValueCompactionFilter` (C++) on RocksJava, which cannot run a compaction filter ")
                .append("written in Java. The cost of the filter per entry is the difference between the first two ")
                .append("columns' times per compaction, over the entries.\n\n");
        md.append("| benchmark | pinrock, Java filter | pinrock, no filter | RocksJava, built-in filter | Java/none "
                + "(pinrock) | pinrock Java/RocksJava built-in | Java filter per entry |\n|---|---|---|---|---|---|---|\n");
        double perEntryNanos = (1e9 / java.score() - 1e9 / none.score()) / CompactionFilterBenchmark.ENTRIES;
        md.append(String.format(Locale.ROOT, "| compactAll | %,.2f ± %,.2f | %,.2f ± %,.2f | %,.2f ± %,.2f | %.2f | %.2f "
                + "| %,.0f ns |%n", java.score(), java.error(), none.score(), none.error(), rocksJava.score(),
                rocksJava.error(), java.score() / none.score(), java.score() / rocksJava.score(), perEntryNanos));
        md.append("\nA comparator written in Java: each database holds ")
                .append(String.format(Locale.ROOT, "%,d", ComparatorBenchmark.KEYS)).append(" keys of ")
                .append(Keys.MIN_KEY_BYTES).append(" bytes with ").append(ComparatorBenchmark.VALUE_BYTES)
                .append("-byte values in one table file (no compression); `fill` puts a key at random among ")
                .append(String.format(Locale.ROOT, "%,d", ComparatorBenchmark.FILL_KEYS))
                .append(" into the memtable, `randomGet` reads a key at random, `scan` seeks to a key at random and ")
                .append("walks the next ").append(ComparatorBenchmark.SCAN_LENGTH).append(". The order is bytewise ")
                .append("everywhere: written in Java on pinrock (`KeyComparator`, an FFM upcall per comparison) and ")
                .append("on RocksJava (`AbstractComparator`, a JNI callback per comparison, with thread-local reused ")
                .append("direct buffers, its fastest setting), the same code on both; and RocksDB's built-in one on ")
                .append("both. The last column divides the time the Java comparator adds to an operation on ")
                .append("RocksJava (its time minus the built-in's) by the time it adds on pinrock: what a comparison ")
                .append("in Java costs there against here. The total ratio is bounded by RocksDB's own work, which ")
                .append("the built-in columns show.\n\n");
        md.append("| benchmark | pinrock, Java | pinrock, built-in | RocksJava, Java | RocksJava, built-in | Java/built-in "
                + "(pinrock) | pinrock Java/RocksJava Java | added time, RocksJava/pinrock |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (String benchmark : List.of("fill", "randomGet", "scan")) {
            JmhRuns.Result pinrockJava = find(results, benchmark, "pinrock-java");
            JmhRuns.Result pinrock = find(results, benchmark, "pinrock");
            JmhRuns.Result rocksJavaJava = find(results, benchmark, "rocksjava-java");
            JmhRuns.Result rocksJavaBuiltIn = find(results, benchmark, "rocksjava");
            double addedHere = 1 / pinrockJava.score() - 1 / pinrock.score();
            double addedThere = 1 / rocksJavaJava.score() - 1 / rocksJavaBuiltIn.score();
            md.append(String.format(Locale.ROOT,
                    "| %s | %,.0f ± %,.0f | %,.0f ± %,.0f | %,.0f ± %,.0f | %,.0f ± %,.0f | %.2f | %.2f | %.1f |%n",
                    benchmark, pinrockJava.score(), pinrockJava.error(), pinrock.score(), pinrock.error(),
                    rocksJavaJava.score(), rocksJavaJava.error(), rocksJavaBuiltIn.score(), rocksJavaBuiltIn.error(),
                    pinrockJava.score() / pinrock.score(), pinrockJava.score() / rocksJavaJava.score(),
                    addedThere / addedHere));
        }
        JmhRuns.Result ffm = find(results, "callBack", "ffm");
        JmhRuns.Result jni = find(results, "callBack", "jni");
        md.append("\nOne call from C++ into Java and back, without RocksDB: a loop in libpinrock.so calls a Java ")
                .append("method that only returns, ").append(UpcallBenchmark.CALLS).append(" times per operation, ")
                .append("on the benchmark's thread. `ffm` goes through pinrock's upcall stub with what every ")
                .append("callback of pinrock's does around the application's code (its re-entry count, catching ")
                .append("every `Throwable`); `jni` calls a static method through JNI and checks for an exception ")
                .append("after each call, as a JNI callback (RocksJava's comparators) must. Nanoseconds per call ")
                .append("from calls per second.\n\n");
        md.append("| callback | calls/s | ns per call | JNI/FFM time |\n|---|---|---|---|\n");
        md.append(String.format(Locale.ROOT, "| FFM upcall | %,.0f ± %,.0f | %.1f | |%n", ffm.score(), ffm.error(),
                1e9 / ffm.score()));
        md.append(String.format(Locale.ROOT, "| JNI callback | %,.0f ± %,.0f | %.1f | %.2f |%n", jni.score(),
                jni.error(), 1e9 / jni.score(), ffm.score() / jni.score()));
        return md.toString();
    }
}
