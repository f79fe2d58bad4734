package dev.pinrock.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads libpinrock.so once per class loader: from the path in the system
 * property {@value #PATH_PROPERTY} when set, otherwise from this jar's
 * resources. Every failure names its fix.
 */
public final class NativeLibrary {
    /** System property naming a libpinrock.so to load instead of the bundled one. */
    public static final String PATH_PROPERTY = "pinrock.library.path";

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
            Path extracted = null;
            try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the pinrock jar lacks " + resource
                            + ". Fix: use a pinrock-java-api jar built with native/ (mvn install), or set -D"
                            + PATH_PROPERTY);
                }
                extracted = Files.createTempFile("libpinrock-", ".so");
                Files.copy(in, extracted, StandardCopyOption.REPLACE_EXISTING);
                System.load(extracted.toString());
            } catch (IOException e) {
                throw new IllegalStateException("cannot extract libpinrock.so to "
                        + System.getProperty("java.io.tmpdir") + ": " + e.getMessage()
                        + ". Fix: make java.io.tmpdir writable, or set -D" + PATH_PROPERTY, e);
            } catch (UnsatisfiedLinkError e) {
                throw new IllegalStateException("cannot load the bundled libpinrock.so: " + e.getMessage(), e);
            } finally {
                deleteQuietly(extracted);
            }
        }

        /** A loaded library stays mapped after its file is deleted, so nothing is left behind. */
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
