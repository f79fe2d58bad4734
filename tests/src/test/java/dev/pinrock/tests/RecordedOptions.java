package dev.pinrock.tests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The options RocksDB recorded in the newest OPTIONS file of a database
 * directory: every database option (section {@code [DBOptions]}) and every
 * column family's options ({@code [CFOptions "<name>"]}), each name with
 * its value as RocksDB writes it. The names follow the engine: RocksDB
 * writes every option it has.
 *
 * @param database the database options, by name in name order
 * @param families each family's options, by family name, each by option name in name order
 */
record RecordedOptions(TreeMap<String, String> database, Map<String, TreeMap<String, String>> families) {
    private static final String OPTIONS_FILE_PREFIX = "OPTIONS-";

    /** Reads the newest OPTIONS file in directory (the one with the highest number). */
    static RecordedOptions newest(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            Path newest = files.filter(file -> file.getFileName().toString().matches(OPTIONS_FILE_PREFIX + "\\d+"))
                    .max(Comparator.comparingLong(file -> Long.parseLong(file.getFileName().toString()
                            .substring(OPTIONS_FILE_PREFIX.length()))))
                    .orElseThrow(() -> new IllegalStateException("no OPTIONS file in " + directory));
            return parse(Files.readAllLines(newest));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The options of an OPTIONS file's lines: "[section]" headers, then "  name=value" lines. */
    static RecordedOptions parse(Iterable<String> lines) {
        TreeMap<String, String> database = new TreeMap<>();
        Map<String, TreeMap<String, String>> families = new HashMap<>();
        TreeMap<String, String> section = null;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[")) {
                section = line.equals("[DBOptions]") ? database
                        : line.startsWith("[CFOptions \"") ? families.computeIfAbsent(quoted(line), name -> new TreeMap<>())
                        : null; // [Version], table options: not set through database or family strings
                continue;
            }
            int equals = line.indexOf('=');
            if (section != null && equals > 0) {
                section.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return new RecordedOptions(database, families);
    }

    /** The quoted name in a section header such as {@code [CFOptions "default"]}. */
    private static String quoted(String header) {
        return header.substring(header.indexOf('"') + 1, header.lastIndexOf('"'));
    }
}
