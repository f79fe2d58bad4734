package dev.pinrock.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A temporary file per thread that the get-to-file benchmarks write each
 * value to, at offset 0, so the page cache absorbs the writes (as the native
 * floor's get-to-file does with its own temporary file).
 */
@State(Scope.Thread)
public class FileSink {
    FileChannel channel;
    Path file;

    @Setup(Level.Trial)
    public void open() {
        try {
            file = Files.createTempFile("pinrock-bench-sink", ".bin");
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        channel.close();
        Files.delete(file);
    }
}
