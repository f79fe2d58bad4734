package dev.pinrock.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Loads libpinrock.so once per class loader: from the path in the system
 * property {@value #PATH_PROPERTY} when set; otherwise the library bundled in
 * this jar, extracted once per build of it into a cache directory
 * ({@value #CACHE_PROPERTY}, else {@code $XDG_CACHE_HOME/pinrock/lib}, else
 * {@code ~/.cache/pinrock/lib}) and checked against its SHA-256 at every
 * load. Extraction writes a temporary file beside the library and renames it
 * into place, so JVMs starting at once never see a half-written library.
 * Every failure names its fix.
 */
public final class NativeLibrary {
    /** System property naming a libpinrock.so to load instead of the bundled one. */
    public static final String PATH_PROPERTY = "pinrock.library.path";
    /** System property naming the directory the bundled library is extracted into. */
    public static final String CACHE_PROPERTY = "pinrock.native.cache";

    private static final System.Logger LOG = System.getLogger("dev.pinrock");

    private NativeLibrary() {
    }

    /**
     * Makes sure libpinrock.so is loaded; cheap after the first call.
     *
     * @throws UnsupportedOperationException on a platform without a bundled library
     * @throws IllegalStateException when native access is denied or the library cannot load
     */
    public static void load() {
        Holder.ensureLoaded();
    }

    /**
     * Returns the resource holding the library for a platform.
     *
     * @param osName the value of {@code os.name}
     * @param osArch the value of {@code os.arch}
     * @return the resource path inside the jar
     * @throws UnsupportedOperationException when pinrock ships no library for the platform
     */
    static String resourceFor(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        if (os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
            return "/dev/pinrock/native/linux-x86_64/libpinrock.so";
        }
        throw new UnsupportedOperationException("pinrock bundles libpinrock.so for linux-x86_64 only,"
                + " and this JVM runs on " + osName + "/" + osArch + ". Fix: build native/ on this"
                + " platform and start the JVM with -D" + PATH_PROPERTY + "=/path/to/libpinrock.so");
    }

    /** The flag that grants native access to the module holding this class. */
    static String nativeAccessFlag() {
        Module module = NativeLibrary.class.getModule();
        return "--enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED");
    }

    private static final class Holder {
        static {
            loadOnce();
        }

        static void ensureLoaded() {
            // Class initialization already ran loadOnce(), exactly once.
        }

        private static void loadOnce() {
            if (!NativeLibrary.class.getModule().isNativeAccessEnabled()) {
                LOG.log(Level.WARNING, "pinrock calls native code, but native access is not enabled"
                        + " for its module; the JVM warns or refuses. Fix: start java with "
                        + nativeAccessFlag() + " (or Enable-Native-Access in an executable jar's manifest)");
            }
            String override = System.getProperty(PATH_PROPERTY);
            try {
                if (override != null && !override.isEmpty()) {
                    loadFile(Path.of(override).toAbsolutePath());
                } else {
                    loadBundled(resourceFor(System.getProperty("os.name"), System.getProperty("os.arch")));
                }
            } catch (IllegalCallerException e) {
                throw new IllegalStateException("pinrock cannot load its native library: native access"
                        + " is denied. Fix: start java with " + nativeAccessFlag(), e);
            }
        }

        private static void loadFile(Path library) {
            if (!Files.isRegularFile(library)) {
                throw new IllegalStateException("-D" + PATH_PROPERTY + "=" + library
                        + " names no file. Fix: point it at a built libpinrock.so");
            }
            try {
                System.load(library.toString());
            } catch (UnsatisfiedLinkError e) {
                throw new IllegalStateException("cannot load " + library + ": " + e.getMessage(), e);
            }
        }

        private static void loadBundled(String resource) {
            String expected = bundledHash(resource);
            // Named by its content: each build of the library gets its own directory.
            Path directory = cacheDirectory().resolve(expected.substring(0, 16));
            Path library = directory.resolve("libpinrock.so");
            if (!expected.equals(sha256(library))) {
                extract(resource, expected, directory, library);
            }
            try {
                System.load(library.toString());
            } catch (UnsatisfiedLinkError e) {
                throw new IllegalStateException("cannot load " + library + ": " + e.getMessage(), e);
            }
        }

        /** The SHA-256 the build recorded beside the bundled library. */
        private static String bundledHash(String resource) {
            try (InputStream in = NativeLibrary.class.getResourceAsStream(resource + ".sha256")) {
                if (in == null) {
                    throw new IllegalStateException("the pinrock jar lacks " + resource + ".sha256. Fix: use a"
                            + " pinrock-java-api jar built with native/ (mvn install), or set -D" + PATH_PROPERTY);
                }
                return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + resource + ".sha256 from the pinrock jar", e);
            }
        }

        private static Path cacheDirectory() {
            String configured = System.getProperty(CACHE_PROPERTY);
            if (configured != null && !configured.isEmpty()) {
                return Path.of(configured).toAbsolutePath();
            }
            String xdg = System.getenv("XDG_CACHE_HOME");
            Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
            return base.resolve("pinrock").resolve("lib");
        }

        /**
         * Writes the bundled library to a temporary file in directory, checks
         * its hash, and renames it to library: atomic, so a concurrent JVM
         * loads either the old complete file or the new one.
         */
        private static void extract(String resource, String expected, Path directory, Path library) {
            Path temporary = null;
            try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the pinrock jar lacks " + resource
                            + ". Fix: use a pinrock-java-api jar built with native/ (mvn install), or set -D"
                            + PATH_PROPERTY);
                }
                Files.createDirectories(directory);
                temporary = Files.createTempFile(directory, "libpinrock-", ".tmp");
                Files.copy(in, temporary, StandardCopyOption.REPLACE_EXISTING);
                String written = sha256(temporary);
                if (!expected.equals(written)) {
                    throw new IllegalStateException("the libpinrock.so in the pinrock jar has SHA-256 " + written
                            + ", not " + expected + " as recorded: the jar is damaged. Fix: download it again");
                }
                Files.move(temporary, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new IllegalStateException("cannot extract libpinrock.so into " + directory + ": " + e
                        + ". Fix: make that directory writable, or set -D" + CACHE_PROPERTY
                        + "=/a/writable/directory, or -D" + PATH_PROPERTY + "=/path/to/libpinrock.so", e);
            } finally {
                deleteQuietly(temporary);
            }
        }

        /** The file's SHA-256 in hex, or null when it cannot be read (e.g. it does not exist). */
        private static String sha256(Path file) {
            try (InputStream in = Files.newInputStream(file)) {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    digest.update(buffer, 0, n);
                }
                return HexFormat.of().formatHex(digest.digest());
            } catch (IOException e) {
                return null;
            } catch (NoSuchAlgorithmException e) {
                throw new AssertionError("every JDK has SHA-256", e);
            }
        }

        private static void deleteQuietly(Path file) {
            if (file == null) {
                return;
            }
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "could not delete " + file, e);
            }
        }
    }
}
