package dev.pinrock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * What the side comparisons ({@link KafkaStreamsComparison},
 * {@link TuningComparison}) share: one JMH run of a benchmark class (1 fork,
 * 2 × 3 s warm-up, 5 × 3 s measured, per second) and its results read back.
 */
final class JmhRuns {
    /** How the runs are made, as the reports state it. */
    static final String PROTOCOL = "one JMH run (1 fork, 2 × 3 s warm-up, 5 × 3 s measured)";

    private JmhRuns() {
    }

    /** One benchmark's result at one point of its parameters: JMH's score and 99.9 % error. */
    record Result(String benchmark, Map<String, String> params, double score, double error) {
        String param(String name) {
            return params.get(name);
        }
    }

    /** Runs every benchmark of benchmarkClass and returns their results. */
    static List<Result> run(Class<?> benchmarkClass) throws IOException, RunnerException {
        Path json = Files.createTempFile("pinrock-jmh", ".json");
        new Runner(new OptionsBuilder()
                .include(Pattern.quote(benchmarkClass.getName()) + "\\.")
                .forks(1)
                .warmupIterations(2)
                .warmupTime(TimeValue.seconds(3))
                .measurementIterations(5)
                .measurementTime(TimeValue.seconds(3))
                .timeUnit(TimeUnit.SECONDS)
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED")
                .resultFormat(ResultFormatType.JSON)
                .result(json.toString())
                .build()).run();
        return read(json);
    }

    /** A report's title and the rows of its table that every report has: command, date, machine, JDK. */
    static StringBuilder header(String title, String command, ZonedDateTime measured) {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n| | |\n|---|---|\n");
        md.append("| command | `").append(command).append("` |\n");
        md.append("| date | ").append(measured.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append(" |\n");
        md.append("| machine | ").append(Report.machine()).append(" |\n");
        md.append("| JDK | ").append(System.getProperty("java.vm.vendor")).append(' ').append(Runtime.version())
                .append(" |\n");
        return md;
    }

    static List<Result> read(Path json) throws IOException {
        List<Result> results = new ArrayList<>();
        for (JsonElement element : JsonParser.parseString(Files.readString(json)).getAsJsonArray()) {
            JsonObject result = element.getAsJsonObject();
            String benchmark = result.get("benchmark").getAsString();
            Map<String, String> params = new TreeMap<>();
            if (result.has("params")) {
                result.getAsJsonObject("params").entrySet()
                        .forEach(param -> params.put(param.getKey(), param.getValue().getAsString()));
            }
            JsonObject metric = result.getAsJsonObject("primaryMetric");
            results.add(new Result(benchmark.substring(benchmark.lastIndexOf('.') + 1), params,
                    metric.get("score").getAsDouble(), metric.get("scoreError").getAsDouble()));
        }
        return results;
    }
}
