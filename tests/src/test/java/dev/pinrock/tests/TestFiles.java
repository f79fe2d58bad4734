package dev.pinrock.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File helpers shared by the tests. */
final class TestFiles {
    private TestFiles() {
    }

    /** Copies a source tree, leaving out build output (every {@code target} directory at its top). */
    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : walk.sorted(Comparator.naturalOrder()).toList()) {
                Path relative = from.relativize(source);
                if (relative.startsWith("target")) {
                    continue;
                }
                Path target = to.resolve(relative.toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }
}
