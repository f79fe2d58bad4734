package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import dev.pinrock.bindings.PinrockNative;
import org.junit.jupiter.api.Test;

/** Downcalls is the seam to the generated bindings, and its written-out descriptors are the generated ones. */
class DowncallsTest {
    /** The classes that read the structs jextract generated (layouts, not calls); see Downcalls. */
    private static final Set<String> STRUCT_READERS = Set.of("Callbacks.java", "FfmDb.java", "FfmTransaction.java",
            "MultiGet.java", "NativeCursor.java", "NativeStatistics.java", "Scratch.java");

    @Test
    void theWrittenOutDescriptorsAreTheGeneratedOnes() {
        NativeLibrary.load();
        assertEquals(PinrockNative.pr_db_get$descriptor(), Downcalls.GET_DESCRIPTOR);
        assertEquals(PinrockNative.pr_db_get_at$descriptor(), Downcalls.GET_AT_DESCRIPTOR);
        assertEquals(PinrockNative.pr_pin_release$descriptor(), Downcalls.PIN_RELEASE_DESCRIPTOR);
    }

    /**
     * Reads the main sources (the test runs in the java-api module's
     * directory, as surefire starts it): only Downcalls names PinrockNative,
     * and only it and the struct readers import the generated package.
     */
    @Test
    void onlyDowncallsReachesTheGeneratedFunctions() throws IOException {
        Path sources = Path.of("src/main/java");
        List<String> offenders;
        try (Stream<Path> files = Files.walk(sources)) {
            offenders = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !file.getFileName().toString().equals("Downcalls.java"))
                    .filter(file -> {
                        String text = read(file);
                        return text.contains("PinrockNative") || text.contains("dev.pinrock.bindings.")
                                && !STRUCT_READERS.contains(file.getFileName().toString());
                    })
                    .map(file -> sources.relativize(file).toString())
                    .sorted()
                    .toList();
        }
        assertEquals(List.of(), offenders);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
