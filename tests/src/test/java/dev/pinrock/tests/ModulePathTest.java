package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.RocksDb;

/**
 * The pinrock-java-api jar as an application uses it: as the named module
 * {@code dev.pinrock} on the module path (exporting only {@code dev.pinrock})
 * and as a plain jar on the class path. A small application, compiled here
 * against the jar alone, opens a database, writes and reads a key; with
 * native access granted the way the docs say, the JVM prints no warning.
 */
class ModulePathTest {
    private static final String MODULE_INFO = """
            module app {
                requires dev.pinrock;
            }
            """;
    private static final String MAIN = """
            package app;

            import java.nio.charset.StandardCharsets;
            import java.nio.file.Path;

            import dev.pinrock.DbOptions;
            import dev.pinrock.RocksDb;

            public final class Main {
                public static void main(String[] args) {
                    try (RocksDb db = RocksDb.open(Path.of(args[0]), DbOptions.create().createIfMissing(true))) {
                        db.put("k".getBytes(StandardCharsets.UTF_8), "loaded".getBytes(StandardCharsets.UTF_8));
                        System.out.println(new String(db.get("k".getBytes(StandardCharsets.UTF_8)),
                                StandardCharsets.UTF_8) + " " + RocksDb.class.getModule().getName());
                    }
                }
            }
            """;

    @TempDir
    Path dir;
    private Path api;
    private Path app;

    @BeforeEach
    void compileTheApplicationAgainstTheJar() throws Exception {
        api = Path.of(RocksDb.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path sources = Files.createDirectories(dir.resolve("src/app/app"));
        Files.writeString(sources.getParent().resolve("module-info.java"), MODULE_INFO);
        Files.writeString(sources.resolve("Main.java"), MAIN);
        app = dir.resolve("classes");
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "22",
                "--module-path", api.toString(), "-d", app.toString(),
                sources.getParent().resolve("module-info.java").toString(), sources.resolve("Main.java").toString());
        assertEquals(0, status, "the application did not compile against " + api);
    }

    @Test
    void theJarIsTheModuleDevPinrockExportingOnlyItsApi() {
        ModuleDescriptor module = ModuleFinder.of(api).find("dev.pinrock").orElseThrow().descriptor();
        assertTrue(!module.isAutomatic() && !module.isOpen(), module.toString());
        Set<String> exports = module.exports().stream().map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
        assertEquals(Set.of("dev.pinrock"), exports);
        assertTrue(module.exports().stream().noneMatch(ModuleDescriptor.Exports::isQualified));
        assertTrue(module.packages().containsAll(Set.of("dev.pinrock.internal", "dev.pinrock.bindings")),
                module.packages().toString());
    }

    @Test
    void onTheModulePathItRunsAsTheNamedModule() throws Exception {
        var outcome = ChildJvm.run(List.of("--enable-native-access=dev.pinrock",
                "--module-path", api + File.pathSeparator + app, "--module", "app/app.Main",
                dir.resolve("db").toString()), Map.of(), Duration.ofMinutes(2));
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals("loaded dev.pinrock", outcome.stdout().strip());
        assertEquals("", outcome.stderr());
    }

    @Test
    void onTheClassPathItRunsInTheUnnamedModule() throws Exception {
        var outcome = ChildJvm.run(List.of("--enable-native-access=ALL-UNNAMED",
                "-cp", api + File.pathSeparator + app, "app.Main", dir.resolve("db").toString()),
                Map.of(), Duration.ofMinutes(2));
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertEquals("loaded null", outcome.stdout().strip());
        assertEquals("", outcome.stderr());
    }

    @Test
    void onTheModulePathWithoutTheGrantTheWarningNamesTheModule() throws Exception {
        var outcome = ChildJvm.run(List.of("--module-path", api + File.pathSeparator + app,
                "--module", "app/app.Main", dir.resolve("db").toString()), Map.of(), Duration.ofMinutes(2));
        assertEquals(0, outcome.exitCode(), outcome.stderr());
        assertTrue(outcome.stderr().contains("Fix: start java with --enable-native-access=dev.pinrock"),
                outcome.stderr());
    }
}
