package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/options.md against the code. Its table of shorthand setters is
 * generated from {@link DbOptions}: each public setter is called with a
 * sample argument, and the option strings it adds name its RocksDB options
 * and their scope; the test fails when the file differs and prints the table
 * it expects ({@code -Dpinrock.docs.write=true} writes it into the file). A
 * setter that adds none is a typed setter, which the table of typed settings
 * must list with the RocksDB options it changes, as the OPTIONS file of a
 * database opened with a value other than the default shows them.
 */
class OptionsReferenceTest {
    @TempDir
    Path dir;

    private static final Path DOC = Path.of("..", "docs", "options.md");
    private static final String BEGIN = "<!-- shorthands: generated from DbOptions by OptionsReferenceTest -->\n";
    private static final String END = "<!-- end of the generated shorthands -->\n";
    /** The setters that take option strings themselves, or options of other things. */
    private static final Set<String> NOT_SETTINGS = Set.of("databaseOptions", "familyOptions", "tableOptions",
            "columnFamily");
    private static final List<String> SCOPES = List.of("table", "family", "database");
    private static final Map<String, Function<DbOptions, List<String>>> STRINGS_BY_SCOPE = Map.of(
            "table", DbOptions::tableOptions, "family", DbOptions::familyOptions, "database", DbOptions::databaseOptions);

    /** A shorthand: the setter as the table names it, the RocksDB options it sets, their scope. */
    private record Shorthand(String setter, List<String> rocksDbNames, String scope) {
        String row() {
            return "| `" + setter + "` | " + rocksDbNames.stream().map(name -> "`" + name + "`")
                    .collect(Collectors.joining(", ")) + " | " + scope + " |\n";
        }
    }

    private static Object sample(Class<?> type) {
        if (type == double.class) {
            return 0.1;
        }
        if (type == boolean.class) {
            return true;
        }
        if (type == long.class) {
            return 4096L;
        }
        if (type == int.class) {
            return 8;
        }
        if (type == Path.class) {
            return Path.of("wal");
        }
        if (type.isEnum()) {
            return type.getEnumConstants()[type.getEnumConstants().length - 1];
        }
        return null;
    }

    private static List<Method> setters() {
        return Arrays.stream(DbOptions.class.getMethods())
                .filter(m -> m.getDeclaringClass() == DbOptions.class && !Modifier.isStatic(m.getModifiers())
                        && m.getReturnType() == DbOptions.class && !NOT_SETTINGS.contains(m.getName()))
                .sorted(Comparator.comparing(Method::getName))
                .toList();
    }

    /** The option strings a setter adds, by scope; empty for a typed setter. */
    private static Shorthand shorthand(Method setter) throws IllegalAccessException, InvocationTargetException {
        Object[] arguments = Arrays.stream(setter.getParameterTypes()).map(OptionsReferenceTest::sample).toArray();
        if (Arrays.asList(arguments).contains(null)) {
            return null;
        }
        DbOptions set = (DbOptions) setter.invoke(DbOptions.create(), arguments);
        for (String scope : SCOPES) {
            List<String> strings = STRINGS_BY_SCOPE.get(scope).apply(set);
            if (!strings.isEmpty()) {
                Set<String> names = new LinkedHashSet<>();
                for (String string : strings) {
                    for (String option : string.split(";")) {
                        names.add(option.substring(0, option.indexOf('=')));
                    }
                }
                String types = Arrays.stream(setter.getParameterTypes()).map(Class::getSimpleName)
                        .collect(Collectors.joining(", "));
                return new Shorthand(setter.getName() + "(" + types + ")", List.copyOf(names), scope);
            }
        }
        return null;
    }

    private static String generatedTable() throws ReflectiveOperationException {
        List<Shorthand> shorthands = new ArrayList<>();
        for (Method setter : setters()) {
            Shorthand shorthand = shorthand(setter);
            if (shorthand != null) {
                shorthands.add(shorthand);
            }
        }
        shorthands.sort(Comparator.comparing((Shorthand s) -> SCOPES.indexOf(s.scope())).thenComparing(Shorthand::setter));
        StringBuilder table = new StringBuilder("| setter | RocksDB options | scope |\n|---|---|---|\n");
        shorthands.forEach(s -> table.append(s.row()));
        return table.toString();
    }

    @Test
    void theShorthandTableIsTheOneTheCodeGenerates() throws IOException, ReflectiveOperationException {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertTrue(begin >= 0 && end > begin, DOC + " lacks the markers " + BEGIN.strip() + " and " + END.strip());
        String expected = generatedTable();
        String actual = doc.substring(begin + BEGIN.length(), end);
        if (!expected.equals(actual) && Boolean.getBoolean("pinrock.docs.write")) {
            Files.writeString(DOC, doc.substring(0, begin + BEGIN.length()) + expected + doc.substring(end));
            return;
        }
        assertEquals(expected, actual, DOC + ": its shorthand table differs from the code's; the table above is the"
                + " code's (write it with -Dpinrock.docs.write=true)");
    }

    /** The setters whose value no new database can be opened with both ways. */
    private static final Set<String> OPEN_FLAGS = Set.of("createIfMissing");

    /** Opens a new database with options and returns its newest OPTIONS file as section/name to value. */
    private Map<String, String> recordedOptions(String name, DbOptions options) throws IOException {
        Path path = dir.resolve(name);
        RocksDb.open(path, options.createIfMissing(true)).close();
        Path newest;
        try (Stream<Path> files = Files.list(path)) {
            newest = files.filter(file -> file.getFileName().toString().startsWith("OPTIONS-"))
                    .max(Comparator.comparing(file -> file.getFileName().toString())).orElseThrow();
        }
        Map<String, String> recorded = new LinkedHashMap<>();
        String section = "";
        for (String line : Files.readAllLines(newest)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("[")) {
                section = trimmed;
            } else if (trimmed.contains("=") && !trimmed.startsWith("#")) {
                int equals = trimmed.indexOf('=');
                recorded.put(section + " " + trimmed.substring(0, equals), trimmed.substring(equals + 1));
            }
        }
        return recorded;
    }

    /** Arguments for a typed setter that differ from its default, most likely valid first. */
    private static List<Object[]> differingArguments(Method setter) throws ReflectiveOperationException {
        Class<?>[] types = setter.getParameterTypes();
        if (setter.getName().equals("zstdDictionary")) {
            return List.<Object[]>of(new Object[] {16384, 0});
        }
        if (types.length != 1) {
            return List.of();
        }
        Class<?> type = types[0];
        Object current = DbOptions.class.getMethod(setter.getName()).invoke(DbOptions.create());
        List<Object> values = new ArrayList<>();
        if (type == boolean.class) {
            values.add(!(Boolean) current);
        } else if (type == int.class) {
            values.addAll(List.of((Integer) current + 1, 100));
        } else if (type == long.class) {
            values.addAll(List.of((Long) current + (1L << 20), 1L << 20));
        } else if (type.isEnum()) {
            Arrays.stream(type.getEnumConstants()).filter(constant -> constant != current).forEach(values::add);
        } else if (type == String.class) {
            values.add("max");
        } else if (type == Compression[].class) {
            values.add(new Compression[] {Compression.NONE, Compression.ZSTD});
        } else if (type == KeyComparator.class) {
            values.add(KeyComparator.REVERSE_BYTEWISE);
        }
        return values.stream().map(value -> new Object[] {value}).toList();
    }

    /**
     * The RocksDB options a typed setter changes: those whose recorded value
     * differs from a default database's when it is given a value other than
     * its default.
     */
    private List<String> changedRocksDbOptions(Method setter, Map<String, String> defaults)
            throws IOException, ReflectiveOperationException {
        for (Object[] arguments : differingArguments(setter)) {
            DbOptions options = (DbOptions) setter.invoke(DbOptions.create(), arguments);
            Map<String, String> recorded;
            try {
                recorded = recordedOptions(setter.getName() + "-" + Arrays.deepHashCode(arguments), options);
            } catch (RocksDbException.InvalidArgumentException e) {
                continue;
            }
            // In name order: RocksDB writes an OPTIONS file from a hash map, whose
            // order differs between C++ standard libraries.
            Set<String> names = new TreeSet<>();
            recorded.forEach((key, value) -> {
                if (!value.equals(defaults.get(key))) {
                    names.add(key.substring(key.lastIndexOf(' ') + 1));
                }
            });
            return List.copyOf(names);
        }
        return null;
    }

    /**
     * Each row of the typed table names, in its "RocksDB options" column, the
     * options its setter changes in the OPTIONS file RocksDB writes; a setter
     * that changes none there (pinrock's own settings, shared objects,
     * settings RocksDB does not record) says why in parentheses.
     */
    @Test
    void theTypedTableNamesTheRocksDbOptionsEachSetterChanges() throws IOException, ReflectiveOperationException {
        String doc = Files.readString(DOC);
        Map<String, String> defaults = recordedOptions("defaults", DbOptions.create());
        List<String> wrong = new ArrayList<>();
        for (Method setter : setters()) {
            if (shorthand(setter) != null || OPEN_FLAGS.contains(setter.getName())) {
                continue;
            }
            // The row of this overload where its parameter types name it, else the setter's first.
            String types = Arrays.stream(setter.getParameterTypes()).map(Class::getSimpleName)
                    .collect(Collectors.joining(", "));
            int row = doc.indexOf("| `" + setter.getName() + "(" + types + ")`");
            if (row < 0) {
                row = doc.indexOf("| `" + setter.getName() + "(");
            }
            if (row < 0) {
                continue; // everyTypedSetterIsDocumented reports it
            }
            String[] cells = doc.substring(row, doc.indexOf('\n', row)).split(" \\| ");
            String documented = cells[2].strip();
            List<String> changed = changedRocksDbOptions(setter, defaults);
            if (changed == null) {
                if (!documented.startsWith("(")) {
                    wrong.add(setter.getName() + ": no sample value opens a database; document it in parentheses");
                }
                continue;
            }
            String expected = changed.stream().map(name -> "`" + name + "`").collect(Collectors.joining(", "));
            if (changed.isEmpty() ? !documented.startsWith("(") : !documented.equals(expected)) {
                wrong.add(setter.getName() + ": documented " + documented + ", RocksDB records "
                        + (changed.isEmpty() ? "nothing (explain it in parentheses)" : expected));
            }
        }
        assertEquals(List.of(), wrong, "the RocksDB options column of " + DOC);
    }

    @Test
    void everyTypedSetterIsDocumented() throws IOException, ReflectiveOperationException {
        String doc = Files.readString(DOC);
        List<String> missing = new ArrayList<>();
        for (Method setter : setters()) {
            if (shorthand(setter) == null && !doc.contains("| `" + setter.getName() + "(")) {
                missing.add(setter.getName());
            }
        }
        assertEquals(List.of(), missing, "public DbOptions setters missing from the tables of " + DOC);
    }
}
