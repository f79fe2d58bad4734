package dev.pinrock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * What one start-up run prints: milliseconds from the launch of the JVM to
 * the open database, milliseconds for the first put and get, and the
 * process's resident set at the end. scripts/startup.sh launches the JVM and
 * passes the launch time (microseconds since the epoch) as
 * {@value #LAUNCH_PROPERTY}. Kept free of both libraries, so each probe loads
 * only its own.
 */
final class StartupReport {
    static final String LAUNCH_PROPERTY = "pinrock.startup.launch";

    private StartupReport() {
    }

    /** Microseconds since the epoch, from the same clock as the script's launch time. */
    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** The calls a run makes after the open, on either library. */
    interface Store {
        void put(byte[] key, byte[] value) throws Exception;

        byte[] get(byte[] key) throws Exception;

        void close() throws Exception;
    }

    /**
     * Puts one key, gets it back, closes the store and prints one line:
     * {@code open_ms=... put_get_ms=... rss_kib=... peak_rss_kib=...}.
     *
     * @param openedMicros {@link #nowMicros()} when the open returned
     */
    static void putGetClose(long openedMicros, Store store) throws Exception {
        byte[] key = {'k', 'e', 'y'};
        byte[] value = {'v', 'a', 'l', 'u', 'e'};
        long start = System.nanoTime();
        store.put(key, value);
        byte[] read = store.get(key);
        long putGet = System.nanoTime() - start;
        if (read == null || read.length != value.length) {
            throw new AssertionError("the value read back differs from the value put");
        }
        store.close();
        long launch = Long.parseLong(System.getProperty(LAUNCH_PROPERTY));
        long rss = statusKib("self", "VmRSS:");
        long peak = statusKib("self", "VmHWM:");
        System.out.printf("open_ms=%.1f put_get_ms=%.2f rss_kib=%d peak_rss_kib=%d%n",
                (openedMicros - launch) / 1e3, putGet / 1e6, rss, peak);
    }

    /**
     * @param process a process id, or {@code self}
     * @param field a field of {@code /proc/<process>/status} given in KiB, with its colon ({@code VmHWM:})
     * @return the field's value in KiB, or -1 when the file has no such field
     */
    static long statusKib(String process, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", process, "status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
