package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs a class in a fresh JVM on this test's class path and captures what it printed. */
final class ChildJvm {
    record Outcome(int exitCode, String stdout, String stderr) {
    }

    private ChildJvm() {
    }

    static Outcome run(List<String> jvmOptions, String classPath, String mainClass, String... args)
            throws IOException, InterruptedException {
        return run(jvmOptions, classPath, Duration.ofSeconds(120), mainClass, args);
    }

    /** Runs mainClass and waits for it at most timeout (then kills it and throws). */
    static Outcome run(List<String> jvmOptions, String classPath, Duration timeout, String mainClass,
            String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(List.of(args));
        return run(command, Map.of(), timeout);
    }

    /**
     * Runs mainClass with args on this test's class path, writing any crash
     * report ({@code hs_err}) under dir, and asserts that it exited with 0,
     * printed exactly stdout, and wrote no crash report: a JVM that neither
     * hung nor crashed.
     */
    static void assertEndsCleanly(Path dir, Duration timeout, String stdout, String mainClass, String... args)
            throws IOException, InterruptedException {
        Path crashReports = Files.createDirectories(dir.resolve("crash-reports"));
        Outcome outcome = run(List.of("--enable-native-access=ALL-UNNAMED",
                "-XX:ErrorFile=" + crashReports + "/hs_err_pid%p.log"), testClassPath(), timeout, mainClass, args);
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals(stdout, outcome.stdout(), outcome.stderr());
        try (Stream<Path> reports = Files.list(crashReports)) {
            assertEquals(List.of(), reports.toList());
        }
    }

    /**
     * Runs java with arguments (options, then what to run) and extra
     * environment variables, and waits for it at most timeout (then kills it
     * and throws). The java launcher is this JVM's own, or the one the system
     * property pinrock.test.java names (an emulated JVM's, whose own launcher
     * this machine cannot run directly).
     */
    static Outcome run(List<String> arguments, Map<String, String> environment, Duration timeout)
            throws IOException, InterruptedException {
        return run(List.of(), arguments, environment, timeout);
    }

    /**
     * Runs java as {@link #run(List, Map, Duration)} does, started by a
     * wrapper command (e.g. one that runs it in a mount namespace of its own)
     * that ends by executing the command it is given after its own arguments.
     */
    static Outcome run(List<String> wrapper, List<String> arguments, Map<String, String> environment,
            Duration timeout) throws IOException, InterruptedException {
        return run(wrapper, arguments, environment, null, timeout);
    }

    /** Runs java with arguments in a working directory (null: this JVM's), as {@link #run(List, Map, Duration)}. */
    static Outcome runIn(Path directory, List<String> arguments, Duration timeout)
            throws IOException, InterruptedException {
        return run(List.of(), arguments, Map.of(), directory, timeout);
    }

    private static Outcome run(List<String> wrapper, List<String> arguments, Map<String, String> environment,
            Path directory, Duration timeout) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(wrapper);
        command.add(System.getProperty("pinrock.test.java",
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        Process process = builder.start();
        process.getOutputStream().close();
        // Drain both streams on their own threads, so that a chatty child cannot
        // block and a hung one is caught by the timeout.
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        Thread outDrain = drain(process.getInputStream(), out);
        Thread errDrain = drain(process.getErrorStream(), err);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            // A JVM prints its threads' stacks on SIGQUIT: what the hung child was doing.
            new ProcessBuilder("kill", "-QUIT", Long.toString(process.pid())).start().waitFor();
            process.waitFor(5, TimeUnit.SECONDS);
            process.destroyForcibly();
            outDrain.join();
            errDrain.join();
            throw new IllegalStateException("child JVM did not finish in " + timeout + ": " + command
                    + "\nits output, ending with its threads' stacks:\n" + tail(out) + "\nits errors:\n" + tail(err));
        }
        outDrain.join();
        errDrain.join();
        return new Outcome(process.exitValue(), out.toString(), err.toString());
    }

    /** The last 64 KiB of a child's output, enough for a thread dump. */
    private static String tail(StringBuilder text) {
        return text.substring(Math.max(0, text.length() - 64 * 1024));
    }

    private static Thread drain(InputStream stream, StringBuilder into) {
        return Thread.ofPlatform().start(() -> {
            try {
                into.append(new String(stream.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                into.append("<unreadable: ").append(e).append('>');
            }
        });
    }

    static String testClassPath() {
        return System.getProperty("java.class.path");
    }

    /**
     * The JVM option that makes a child load the libpinrock.so this JVM was
     * told to load with {@code -Dpinrock.library.path} (e.g. the sanitized
     * build), or none when this JVM loads the bundled one. A child inherits
     * this JVM's environment (a preloaded sanitizer runtime and its options)
     * but not its system properties.
     */
    static List<String> sameLibrary() {
        String path = System.getProperty("pinrock.library.path");
        return path == null ? List.of() : List.of("-Dpinrock.library.path=" + path);
    }
}
