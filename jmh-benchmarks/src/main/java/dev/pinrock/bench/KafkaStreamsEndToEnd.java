package dev.pinrock.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.streams.StreamsConfig;

import dev.pinrock.RocksDb;
import dev.pinrock.kafka.LocalKafka;

/**
 * The end-to-end Kafka Streams benchmark: a real broker ({@link LocalKafka},
 * one KRaft node in a child JVM), one input topic filled once, and each
 * application of {@link EndToEndApp} (word count, a windowed and a session
 * aggregation) run with each processing guarantee on each kind of stores, one
 * application instance (a child JVM) at a time, in one run:
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp ... dev.pinrock.bench.KafkaStreamsEndToEnd
 *        --report DIR --command TEXT [--events N] [--rate R] [--live-seconds S]
 *        [--apps A,..] [--guarantees G,..] [--stores S,..] [--rounds N] [--profile DIR]
 * </pre>
 * For each run it records: records/s (the backlog's input records over the
 * time from the first one's processing to the stateful processor taking the
 * last), end-to-end latency (p50 and p99, from an input record's timestamp to
 * the consumption of the aggregate it produced, for records written at a
 * steady rate once the backlog is done, read committed), the heap after a full
 * collection and the peak resident set size of the application's JVM, and
 * the size of its state directory, and the CPU time of the application's
 * process per 1,000 backlog records. With {@code --profile DIR} each
 * application runs with a flight recording (kept in DIR), and the report adds
 * its stream thread's CPU time over the backlog's length and the share of it
 * in store code ({@link StoreTime}).
 */
public final class KafkaStreamsEndToEnd {
    static final int PARTITIONS = 4;
    static final int USERS = 10_000;
    static final int VOCABULARY = 50_000;
    static final Duration BACKLOG_SPAN = Duration.ofHours(2);
    private static final String BACKLOG_TOPIC = "events";
    private static final List<String> APP_JVM = List.of("-Xms1g", "-Xmx1g", "--enable-native-access=ALL-UNNAMED");
    private static final Duration BACKLOG_PATIENCE = Duration.ofMinutes(20);

    private final LocalKafka kafka;
    private final Path work;
    private final int rate;
    private final Duration live;
    /** Where each application's flight recording goes, or null for none. */
    private final Path profiles;

    /** What one run measured. */
    record Run(int round, String app, String guarantee, String stores, long backlogRecords, long backlogMillis,
            long backlogCpuMillis, long p50Millis, long p99Millis, int latencySamples, long heapBytes,
            long peakRssBytes, long diskBytes, StoreTime.Shares profile) {
        double recordsPerSecond() {
            return backlogRecords * 1000.0 / backlogMillis;
        }

        /** @return the CPU milliseconds the application's process spent per 1,000 backlog records */
        double cpuMillisPerThousand() {
            return backlogCpuMillis * 1000.0 / backlogRecords;
        }
    }

    private KafkaStreamsEndToEnd(LocalKafka kafka, Path work, int rate, Duration live, Path profiles) {
        this.kafka = kafka;
        this.work = work;
        this.rate = rate;
        this.live = live;
        this.profiles = profiles;
    }

    public static void main(String[] args) throws Exception {
        Path report = Path.of("jmh-benchmarks/target/kafka-streams-e2e");
        String command = "scripts/bench.sh --kafka-streams-e2e";
        int events = 600_000;
        int rate = 1000;
        int liveSeconds = 20;
        int rounds = 3;
        Path profiles = null;
        List<EndToEndApp.Kind> kinds = List.of(EndToEndApp.Kind.values());
        List<String> guarantees = List.of(StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2);
        List<EndToEndApp.Stores> storeKinds = List.of(EndToEndApp.Stores.values());
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--report" -> report = Path.of(args[++i]);
                    case "--command" -> command = args[++i];
                    case "--events" -> events = positive(args[i], args[++i]);
                    case "--rate" -> rate = positive(args[i], args[++i]);
                    case "--live-seconds" -> liveSeconds = positive(args[i], args[++i]);
                    case "--rounds" -> rounds = positive(args[i], args[++i]);
                    case "--profile" -> profiles = Files.createDirectories(Path.of(args[++i]).toAbsolutePath());
                    case "--apps" -> kinds = Arrays.stream(args[++i].split(",")).map(EndToEndApp.Kind::of).toList();
                    case "--guarantees" -> guarantees = Arrays.stream(args[++i].split(","))
                            .map(KafkaStreamsEndToEnd::guarantee).toList();
                    case "--stores" -> storeKinds = Arrays.stream(args[++i].split(",")).map(EndToEndApp.Stores::of)
                            .toList();
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            System.err.println("KafkaStreamsEndToEnd: " + (e instanceof ArrayIndexOutOfBoundsException
                    ? args[args.length - 1] + " needs a value" : e.getMessage()));
            System.err.println("usage: KafkaStreamsEndToEnd [--report DIR] [--command TEXT] [--events N]"
                    + " [--rate RECORDS_PER_S] [--live-seconds S] [--apps word-count,windowed,session]"
                    + " [--guarantees at_least_once,exactly_once_v2] [--stores builtin,pinrock,pinrock-tuned]"
                    + " [--rounds N] [--profile DIR]");
            System.exit(2);
        }
        Files.createDirectories(report);
        Path work = Files.createTempDirectory("pinrock-e2e");
        List<Run> runs = new ArrayList<>();
        try (LocalKafka kafka = new LocalKafka(work)) {
            kafka.startBroker();
            kafka.createTopics(PARTITIONS, BACKLOG_TOPIC);
            long words = fillBacklog(kafka.bootstrap(), events);
            KafkaStreamsEndToEnd benchmark = new KafkaStreamsEndToEnd(kafka, work, rate,
                    Duration.ofSeconds(liveSeconds), profiles);
            for (int round = 1; round <= rounds; round++) {
                for (EndToEndApp.Kind kind : kinds) {
                    for (String guarantee : guarantees) {
                        for (EndToEndApp.Stores stores : storeKinds) {
                            Run run = benchmark.run(round, kind, guarantee, stores, events,
                                    kind == EndToEndApp.Kind.WORD_COUNT ? words : events);
                            System.out.println(run);
                            runs.add(run);
                        }
                    }
                }
            }
        } finally {
            Datasets.deleteRecursively(work);
        }
        String markdown = markdown(runs, events, rate, liveSeconds, rounds, command, ZonedDateTime.now());
        String name = profiles == null ? "kafka-streams-e2e" : "kafka-streams-e2e-profile";
        Files.writeString(report.resolve(name + ".md"), markdown);
        List<String> csv = new ArrayList<>(List.of("round,app,guarantee,stores,records_per_s,"
                + "cpu_ms_per_1000,p50_ms,p99_ms,latency_samples,heap_bytes,peak_rss_bytes,disk_bytes,"
                + "stream_thread_cpu_share,store_share_of_stream_thread_cpu"));
        runs.forEach(r -> csv.add(String.format(Locale.ROOT, "%d,%s,%s,%s,%.0f,%.1f,%d,%d,%d,%d,%d,%d,%s,%s",
                r.round(), r.app(),
                r.guarantee(), r.stores(), r.recordsPerSecond(), r.cpuMillisPerThousand(), r.p50Millis(),
                r.p99Millis(), r.latencySamples(), r.heapBytes(), r.peakRssBytes(), r.diskBytes(),
                r.profile() == null ? "" : String.format(Locale.ROOT, "%.3f", r.profile().cpuShare()),
                r.profile() == null ? "" : String.format(Locale.ROOT, "%.3f", r.profile().storeShare()))));
        Files.write(report.resolve(name + ".csv"), csv);
        System.out.println(markdown);
    }

    /** @return value as a number of at least 1 */
    private static int positive(String option, String value) {
        try {
            int number = Integer.parseInt(value);
            if (number >= 1) {
                return number;
            }
        } catch (NumberFormatException notANumber) {
            // named below
        }
        throw new IllegalArgumentException(option + " takes a whole number of at least 1, not " + value);
    }

    /** @return the processing guarantee named, when the benchmark runs it */
    private static String guarantee(String name) {
        if (name.equals(StreamsConfig.AT_LEAST_ONCE) || name.equals(StreamsConfig.EXACTLY_ONCE_V2)) {
            return name;
        }
        throw new IllegalArgumentException("no guarantee called " + name + " (at_least_once, exactly_once_v2)");
    }

    /** @return a line of 1 to 8 words of the vocabulary */
    static String line(Random random) {
        StringBuilder line = new StringBuilder();
        for (int w = 1 + random.nextInt(8); w > 0; w--) {
            line.append(line.isEmpty() ? "" : " ").append('w').append(random.nextInt(VOCABULARY));
        }
        return line.toString();
    }

    /** @return a random user's key */
    static String user(Random random) {
        return "user" + random.nextInt(USERS);
    }

    /**
     * Writes the backlog once: events records of random users and lines, their
     * timestamps spread evenly over the {@link #BACKLOG_SPAN} before now.
     *
     * @return the words in all lines (the records word count's counting processor takes)
     */
    private static long fillBacklog(String bootstrap, int events) {
        Random random = new Random(42);
        long start = System.currentTimeMillis() - BACKLOG_SPAN.toMillis();
        long words = 0;
        try (KafkaProducer<String, String> producer = producer(bootstrap)) {
            for (int i = 0; i < events; i++) {
                String line = line(random);
                words += line.chars().filter(c -> c == ' ').count() + 1;
                producer.send(new ProducerRecord<>(BACKLOG_TOPIC, null, start + i * BACKLOG_SPAN.toMillis() / events,
                        user(random), line));
            }
            producer.flush();
        }
        return words;
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    /**
     * Runs one application on one kind of stores: its backlog, then the live
     * records, then the measurements of its JVM and state directory.
     *
     * @param statefulRecords the records its stateful processor takes from the backlog
     */
    private Run run(int round, EndToEndApp.Kind kind, String guarantee, EndToEndApp.Stores stores, long backlogRecords,
            long statefulRecords) throws Exception {
        String id = kind.label() + "-" + guarantee.replace('_', '-') + "-" + stores.label() + "-" + round;
        String liveTopic = "live-" + id;
        String output = "out-" + id;
        kafka.createTopics(PARTITIONS, liveTopic, output);
        Path state = work.resolve("state-" + id);
        System.out.println("running " + id);
        List<String> jvm = new ArrayList<>(APP_JVM);
        Path recording = profiles == null ? null : profiles.resolve(id + ".jfr");
        if (recording != null) {
            jvm.add(StoreTime.RECORDING_OPTION + recording);
        }
        Process app = kafka.java(id, jvm, EndToEndApp.class.getName(), kafka.bootstrap(), state.toString(), id,
                kind.label(), guarantee, stores.label(), String.valueOf(statefulRecords), BACKLOG_TOPIC, liveTopic,
                output);
        long[] backlog;
        long[] latencies;
        long peakRss;
        long disk;
        long heap;
        try {
            backlog = Arrays.stream(value(kafka.awaitLine(id, "BACKLOG ", BACKLOG_PATIENCE)).split(" "))
                    .mapToLong(Long::parseLong).toArray();
            latencies = liveLatencies(liveTopic, output, guarantee, app, id);
            peakRss = StartupReport.statusKib(String.valueOf(app.pid()), "VmHWM:") * 1024;
            disk = size(state);
            BufferedWriter commands = app.outputWriter();
            commands.write("STATS\n");
            commands.flush();
            heap = Long.parseLong(value(kafka.awaitLine(id, "STATS ")));
        } finally {
            app.destroy();
            if (!app.waitFor(2, TimeUnit.MINUTES)) {
                app.destroyForcibly().waitFor();
            }
            Datasets.deleteRecursively(state);
        }
        StoreTime.Shares profile = recording == null ? null : StoreTime.shares(recording, backlog[2], backlog[3]);
        return new Run(round, kind.label(), guarantee, stores.label(), backlogRecords, backlog[0], backlog[1],
                percentile(latencies, 50), percentile(latencies, 99), latencies.length, heap, peakRss, disk,
                profile);
    }

    /**
     * Writes live records at the rate for the live period, each stamped with the
     * time it is sent, and consumes the output until the aggregate of the last
     * one arrived (or the commit interval and a margin passed).
     *
     * @return the latencies in milliseconds of the aggregates of live records, sorted
     */
    private long[] liveLatencies(String liveTopic, String output, String guarantee, Process app, String id)
            throws Exception {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<Long> latencies = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(output).stream()
                    .map(p -> new TopicPartition(output, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            long liveStart = System.currentTimeMillis();
            LivePhase phase = new LivePhase(kafka.bootstrap(), liveTopic, rate, live);
            phase.start();
            long commitInterval = guarantee.equals(StreamsConfig.AT_LEAST_ONCE) ? 30_000 : 100;
            long lastSeenAt = 0;
            while (true) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.currentTimeMillis();
                    // A null value deletes a session merged into a longer one: its timestamp is the old
                    // session's end, not the time of a record that caused it.
                    if (record.timestamp() >= liveStart && record.value() != null) {
                        latencies.add(now - record.timestamp());
                        if (phase.isAlive() || record.timestamp() < phase.lastTimestamp()) {
                            continue;
                        }
                        lastSeenAt = lastSeenAt == 0 ? now : lastSeenAt;
                    }
                }
                long now = System.currentTimeMillis();
                if (!app.isAlive()) {
                    throw new IllegalStateException(id + " ended:\n" + kafka.log(id));
                }
                if (!phase.isAlive() && (lastSeenAt != 0 && now - lastSeenAt > 2000
                        || now - phase.endedAt() > commitInterval + 15_000)) {
                    break;
                }
            }
            phase.join();
        }
        return latencies.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    /** The live records' producer: records at a steady rate for a while, each stamped with its send time. */
    private static final class LivePhase extends Thread {
        private final String bootstrap;
        private final String topic;
        private final int rate;
        private final Duration length;
        private volatile long lastTimestamp;
        private volatile long endedAt;

        LivePhase(String bootstrap, String topic, int rate, Duration length) {
            super("live-records");
            this.bootstrap = bootstrap;
            this.topic = topic;
            this.rate = rate;
            this.length = length;
        }

        @Override
        public void run() {
            Random random = new Random(7);
            long start = System.nanoTime();
            long records = (long) rate * length.toSeconds();
            try (KafkaProducer<String, String> producer = producer(bootstrap)) {
                for (long sent = 0; sent < records; sent++) {
                    long due = start + sent * 1_000_000_000L / rate;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    long timestamp = System.currentTimeMillis();
                    producer.send(new ProducerRecord<>(topic, null, timestamp, user(random), line(random)));
                    lastTimestamp = timestamp;
                }
                producer.flush();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            endedAt = System.currentTimeMillis();
        }

        long lastTimestamp() {
            return lastTimestamp;
        }

        long endedAt() {
            return endedAt;
        }
    }

    /** @return what follows the first word of a line */
    private static String value(String line) {
        return line.substring(line.indexOf(' ') + 1).trim();
    }

    static long percentile(long[] sorted, int percent) {
        if (sorted.length == 0) {
            return -1;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * percent / 100.0) - 1)];
    }

    /** @return the bytes of the regular files under dir */
    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                } catch (IOException gone) {
                    return 0; // removed by a compaction while walking
                }
            }).sum();
        }
    }

    /** @return the median of the values (the mean of the middle two for an even count) */
    static double median(List<Run> runs, ToDoubleFunction<Run> value) {
        double[] sorted = runs.stream().mapToDouble(value).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    static String markdown(List<Run> runs, int events, int rate, int liveSeconds, int rounds, String command,
            ZonedDateTime measured) {
        StringBuilder md = JmhRuns.header("Kafka Streams end to end: pinrock's stores against the built-in ones on a"
                + " real broker", command, measured);
        md.append("| Kafka Streams | ").append(AppInfoParser.getVersion()).append(" (broker and clients) |\n");
        md.append("| RocksDB | pinrock engine ").append(RocksDb.engineVersion())
                .append("; the built-in stores on RocksJava org.rocksdb:rocksdbjni:").append(Report.rocksJavaVersion())
                .append(" |\n\n");
        md.append(String.format(Locale.ROOT, """
                One KRaft broker (a child JVM, `-Xmx512m`) on loopback; an input topic of %d partitions filled once \
                with %,d events (key: one of %,d users; value: a line of 1 to 8 words of %,d; timestamps spread over \
                the %d hours before the fill). Each application runs in its own JVM (`-Xmx1g`) with Kafka Streams' \
                defaults: one stream thread, the 10 MB record cache, a commit every 30 s at least once and every \
                100 ms exactly once (v2). `word count` repartitions the words and counts them (a key-value store), \
                `windowed` counts each user's events in %d-minute tumbling windows (a window store), `session` in \
                sessions closed by %d minutes of inactivity (a session store), both with %d minute of grace.

                - **records/s**: the %,d input records over the time from the first one's processing to the \
                stateful processor taking the last (start-up and the final commit excluded).
                - **p50/p99 ms**: after the backlog, %,d records/s for %d s, each stamped with its send time, go to \
                a second input topic; latency is the time from that stamp until a consumer (read committed) \
                receives the aggregate it updated. At least once, the record cache holds aggregates until the \
                next commit (30 s), so latency there is mostly the commit interval.
                - **CPU ms per 1k**: the CPU time of the application's process (every thread, RocksDB's \
                included) over the backlog, per 1,000 input records.
                - **heap**: the application's heap after a full collection at the end; **RSS**: its JVM's peak \
                resident set size (RocksDB's memory included); **disk**: its state directory at the end.
                - **stores**: `builtin` is Kafka Streams' RocksDB stores; `pinrock` is pinrock's with its defaults, \
                which are the built-in stores' RocksDB options (no compression, universal compaction, a 10-bit \
                Bloom filter, 16 MiB memtables up to 3, a 50 MiB block cache per store or segment); \
                `pinrock-tuned` adds LZ4 compression and one %d MiB memory bound shared by all the application's \
                stores and segments (`pinrock.bounded.memory.bytes`).

                Each figure is the median of %d rounds (records/s: the range in parentheses), each round running \
                every application on every kind of stores in turn, all in one run on a 2-core machine shared by \
                the broker, the application and the load; compare ratios, not absolute numbers. \
                `kafka-streams-e2e.csv` has every round's figures.

                """, PARTITIONS, events, USERS, VOCABULARY, BACKLOG_SPAN.toHours(), EndToEndApp.WINDOW.toMinutes(),
                EndToEndApp.SESSION_GAP.toMinutes(), EndToEndApp.GRACE.toMinutes(), events, rate, liveSeconds,
                EndToEndApp.TUNED_MEMORY_BYTES >> 20, rounds));
        boolean profiled = runs.stream().anyMatch(run -> run.profile() != null);
        md.append("| application | guarantee | stores | records/s | ×built-in | CPU ms per 1k | p50 ms | p99 ms "
                + "| heap MiB | RSS MiB | disk MiB |")
                .append(profiled ? " stream thread CPU | store share of it |" : "")
                .append("\n|---|---|---|---|---|---|---|---|---|---|---|")
                .append(profiled ? "---|---|" : "").append('\n');
        Map<List<String>, List<Run>> configurations = new LinkedHashMap<>();
        runs.forEach(run -> configurations.computeIfAbsent(List.of(run.app(), run.guarantee(), run.stores()),
                c -> new ArrayList<>()).add(run));
        configurations.forEach((configuration, same) -> {
            List<Run> builtIn = configurations.getOrDefault(List.of(configuration.get(0), configuration.get(1),
                    EndToEndApp.Stores.BUILTIN.label()), same);
            double recordsPerSecond = median(same, Run::recordsPerSecond);
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %,.0f (%,.0f–%,.0f) | %.2f | %.0f | %,.0f | %,.0f "
                    + "| %.0f | %.0f | %.1f |", configuration.get(0), configuration.get(1), configuration.get(2),
                    recordsPerSecond, same.stream().mapToDouble(Run::recordsPerSecond).min().orElseThrow(),
                    same.stream().mapToDouble(Run::recordsPerSecond).max().orElseThrow(),
                    recordsPerSecond / median(builtIn, Run::recordsPerSecond), median(same, Run::cpuMillisPerThousand),
                    median(same, Run::p50Millis), median(same, Run::p99Millis),
                    median(same, Run::heapBytes) / 1048576.0, median(same, Run::peakRssBytes) / 1048576.0,
                    median(same, Run::diskBytes) / 1048576.0));
            if (profiled) {
                md.append(String.format(Locale.ROOT, " %.0f %% | %.0f %% |",
                        100 * median(same, run -> run.profile().cpuShare()),
                        100 * median(same, run -> run.profile().storeShare())));
            }
            md.append('\n');
        });
        return md.toString();
    }
}
