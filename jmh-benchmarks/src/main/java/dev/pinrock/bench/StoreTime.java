package dev.pinrock.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Pattern;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * How much of a Kafka Streams application's stream thread CPU time went to
 * its stores, from a Java Flight Recorder recording with JDK 25's CPU-time
 * sampler (a sample every {@value #SAMPLE_PERIOD_MILLIS} ms of each thread's
 * CPU time, in Java code or native): a sample counts for the store when its
 * stack holds a frame of the store itself, beneath Kafka Streams' metered,
 * caching and change-logging layers (pinrock's classes, or the built-in
 * store's RocksDB classes, segments and RocksJava).
 */
final class StoreTime {
    /** The CPU time between two samples of a thread. */
    static final int SAMPLE_PERIOD_MILLIS = 10;
    /** The JVM option that makes such a recording, written at exit (the file name follows). */
    static final String RECORDING_OPTION = "-XX:StartFlightRecording:jdk.CPUTimeSample#enabled=true,"
            + "jdk.CPUTimeSample#throttle=" + SAMPLE_PERIOD_MILLIS + "ms,filename=";

    /**
     * The stream threads' CPU time over a period, and its share in store code.
     *
     * @param cpuShare the stream threads' CPU time over the period's length
     * @param storeShare the share of that CPU time in store code
     */
    record Shares(double cpuShare, double storeShare) {
    }

    private static final Pattern BUILT_IN_STORE = Pattern.compile(
            "org\\.apache\\.kafka\\.streams\\.state\\.internals\\."
                    + "((Abstract)?RocksD[Bb].*|.*Segments?|.*Segment.*Iterator|.*SegmentedBytesStore.*)");

    private StoreTime() {
    }

    /** @return the stream threads' CPU time from fromMillis to toMillis (epoch), and its share in store code */
    static Shares shares(Path recording, long fromMillis, long toMillis) throws IOException {
        long samples = 0;
        long storeSamples = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals("jdk.CPUTimeSample")) {
                    continue;
                }
                long at = event.getStartTime().toEpochMilli();
                RecordedThread thread = event.getThread("eventThread");
                if (at < fromMillis || at > toMillis || thread == null || thread.getJavaName() == null
                        || !thread.getJavaName().contains("-StreamThread-")) {
                    continue;
                }
                samples++;
                if (event.getStackTrace() != null && event.getStackTrace().getFrames().stream()
                        .anyMatch(StoreTime::isStore)) {
                    storeSamples++;
                }
            }
        }
        return new Shares(samples * (double) SAMPLE_PERIOD_MILLIS / (toMillis - fromMillis),
                samples == 0 ? Double.NaN : storeSamples / (double) samples);
    }

    private static boolean isStore(RecordedFrame frame) {
        if (frame.getMethod() == null || frame.getMethod().getType() == null) {
            return false;
        }
        String type = frame.getMethod().getType().getName();
        return type.startsWith("org.rocksdb.")
                || type.startsWith("dev.pinrock.") && !type.startsWith("dev.pinrock.bench.")
                || BUILT_IN_STORE.matcher(type).matches();
    }
}
