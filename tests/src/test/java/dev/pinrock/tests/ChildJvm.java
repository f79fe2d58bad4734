package dev.pinrock.tests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
     * Runs java with arguments (options, then what to run) and extra
     * environment variables, and waits for it at most timeout (then kills it
     * and throws).
     */
    static Outcome run(List<String> arguments, Map<String, String> environment, Duration timeout)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        var stdout = process.getInputStream();
        var stderr = process.getErrorStream();
        // Drain stderr on another thread so a chatty child cannot block.
        StringBuilder err = new StringBuilder();
        Thread drain = Thread.ofPlatform().start(() -> {
            try {
                err.append(new String(stderr.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                err.append("<stderr unreadable: ").append(e).append('>');
            }
        });
        String out = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("child JVM did not finish: " + command);
        }
        drain.join();
        return new Outcome(process.exitValue(), out, err.toString());
    }

    static String testClassPath() {
        return System.getProperty("java.class.path");
    }
}
