package dev.pinrock.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;

/**
 * Loads libpinrock.so once per class loader: from the path in the system
 * property {@value #PATH_PROPERTY} when set; otherwise the library bundled in
 * this jar, extracted once per build of it into a cache directory
 * ({@value #CACHE_PROPERTY}, else {@code $XDG_CACHE_HOME/pinrock/lib}, else
 * {@code ~/.cache/pinrock/lib}) and checked against the jar's copy at every
 * load (size and CRC-32, see Holder.isIntact). Extraction writes a temporary file
 * beside the library, checks its SHA-256 and renames it into place, so JVMs
 * starting at once never see a half-written library. Every failure names
 * its fix, and is thrown again by every later call in that JVM (a new
 * exception each time, with the same message and cause).
 *
 * <p>No static initializer calls {@link #load}: a class whose initialization
 * failed is unusable for the rest of the JVM's life, and later calls would
 * get {@code NoClassDefFoundError} without the fix. Instead each public
 * method through which a caller first reaches native code (RocksDb.open,
 * MemoryBudget.create, ...) calls it before touching any class that needs
 * the library, the generated bindings included (their initialization
 * calls restricted methods, which {@code --illegal-native-access=deny}
 * refuses).
 */
public final class NativeLibrary {
    /** System property naming a libpinrock.so to load instead of the bundled one. */
    public static final String PATH_PROPERTY = "pinrock.library.path";
    /** System property naming the directory the bundled library is extracted into. */
    public static final String CACHE_PROPERTY = "pinrock.native.cache";

    private NativeLibrary() {
    }

    /**
     * Makes sure libpinrock.so is loaded; cheap after the first call. When
     * the load failed, every call throws a new exception with the first
     * failure's message and cause.
     *
     * @throws UnsupportedOperationException on a platform without a bundled library
     * @throws IllegalStateException when native access is denied or the library cannot load
     */
    public static void load() {
        RuntimeException failure = Holder.FAILURE;
        if (failure instanceof UnsupportedOperationException) {
            throw new UnsupportedOperationException(failure.getMessage(), failure.getCause());
        }
        if (failure != null) {
            throw new IllegalStateException(failure.getMessage(), failure.getCause());
        }
    }

    /** What the jar carries libraries for, as the loader's messages name it. */
    static final String SUPPORTED = "Linux on x86-64 and on aarch64 with glibc " + Platform.GLIBC_FLOOR + " or newer";

    /** The platforms the jar carries a library for: the resource directory of each. */
    private enum Platform {
        LINUX_X86_64("linux-x86_64", "amd64", "x86_64"),
        LINUX_AARCH64("linux-aarch64", "aarch64", "arm64");

        /** The oldest glibc the bundled libraries load on (their newest symbol version). */
        static final String GLIBC_FLOOR = "2.17";

        final String directory;
        final String[] archNames;

        Platform(String directory, String... archNames) {
            this.directory = directory;
            this.archNames = archNames;
        }
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
        if (os.startsWith("linux")) {
            for (Platform platform : Platform.values()) {
                for (String name : platform.archNames) {
                    if (arch.equals(name)) {
                        return "/dev/pinrock/native/" + platform.directory + "/libpinrock.so";
                    }
                }
            }
        }
        throw new UnsupportedOperationException("pinrock bundles libpinrock.so for " + SUPPORTED
                + ", and this JVM runs on " + osName + "/" + osArch + ". Fix: run on one of those, or build"
                + " native/ on this platform and start the JVM with -D" + PATH_PROPERTY + "=/path/to/libpinrock.so");
    }

    /**
     * The message for a library that would not load: the loader's own
     * reason, and what it means when the C library of this process is musl
     * (Alpine Linux) or a glibc older than the floor, which pinrock's
     * libraries cannot run on, or when the library lies on a file system
     * mounted noexec (hardened servers often mount /tmp or home directories
     * so), from which no library can be mapped.
     *
     * @param library the file that would not load
     * @param reason the {@link UnsatisfiedLinkError}'s message
     * @param processMaps the text of {@code /proc/self/maps}, empty when unreadable
     * @param mountInfo the text of {@code /proc/self/mountinfo}, empty when unreadable
     * @param noexecFix how to load from a file system that allows it
     */
    static String loadFailure(Path library, String reason, String processMaps, String mountInfo,
            String noexecFix) {
        String message = "cannot load " + library + ": " + reason;
        if (processMaps.contains("/ld-musl-") || processMaps.contains("/libc.musl-")) {
            return message + ". This JVM runs on musl libc (e.g. Alpine Linux); pinrock bundles libraries for "
                    + SUPPORTED + ". Fix: run on a glibc-based system or image (Debian, Ubuntu, RHEL, Amazon"
                    + " Linux, ...), or build native/ against musl and set -D" + PATH_PROPERTY;
        }
        if (reason != null && reason.contains("GLIBC_")) {
            return message + ". pinrock bundles libraries for " + SUPPORTED + ". Fix: run on a newer system";
        }
        String noexecMount = noexecMountOf(library, mountInfo);
        if (noexecMount != null) {
            return message + ". " + library.getParent() + " is on " + noexecMount
                    + ", which is mounted noexec: no library can be loaded from there. Fix: " + noexecFix;
        }
        if (reason != null && reason.contains("failed to map segment from shared object")) {
            return message + ". That is what a file system mounted noexec gives (as hardened servers often"
                    + " mount /tmp or home directories), if this one is. Fix: " + noexecFix;
        }
        return message;
    }

    /**
     * The mount point of the file system holding file when the mount
     * options in mountInfo (the format of {@code /proc/self/mountinfo})
     * include noexec; null otherwise. The mount is the one with the longest
     * mount point that contains file, the last listed among equal ones
     * (mounted over the others). Symbolic links in file's path are followed
     * when it exists.
     */
    static String noexecMountOf(Path file, String mountInfo) {
        String path;
        try {
            path = file.toRealPath().toString();
        } catch (IOException e) {
            path = file.toAbsolutePath().normalize().toString();
        }
        String best = null;
        boolean noexec = false;
        for (String line : mountInfo.split("\n")) {
            // id parent major:minor root mount-point options [optional fields] - type source super-options
            String[] fields = line.split(" ");
            if (fields.length < 6) {
                continue;
            }
            String mountPoint = unescapeMountField(fields[4]);
            boolean contains = mountPoint.equals("/") || path.equals(mountPoint) || path.startsWith(mountPoint + "/");
            if (contains && (best == null || mountPoint.length() >= best.length())) {
                best = mountPoint;
                noexec = List.of(fields[5].split(",")).contains("noexec");
            }
        }
        return noexec ? best : null;
    }

    /** A mountinfo field with its octal escapes (\040 for a space, ...) decoded. */
    private static String unescapeMountField(String field) {
        StringBuilder decoded = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                decoded.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                decoded.append(c);
            }
        }
        return decoded.toString();
    }

    /** The text of a file under /proc/self (e.g. maps, mountinfo), or "" when unreadable. */
    private static String procSelf(String name) {
        try {
            return Files.readString(Path.of("/proc/self", name), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * The logger, looked up only when there is something to log: setting up
     * System.Logger costs tens of milliseconds at start-up.
     */
    private static System.Logger log() {
        return System.getLogger("dev.pinrock");
    }

    /** The flag that grants native access to the module holding this class. */
    static String nativeAccessFlag() {
        Module module = NativeLibrary.class.getModule();
        return "--enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED");
    }

    private static final class Holder {
        /** Why the library did not load (thrown again by every load()), or null once it has. */
        static final RuntimeException FAILURE = loadOnce();

        private static RuntimeException loadOnce() {
            try {
                loadLibrary();
                return null;
            } catch (IllegalStateException | UnsupportedOperationException e) {
                return e;
            } catch (RuntimeException e) {
                return new IllegalStateException("pinrock cannot load its native library: " + e, e);
            }
        }

        private static void loadLibrary() {
            if (!NativeLibrary.class.getModule().isNativeAccessEnabled()) {
                log().log(Level.WARNING, "pinrock calls native code, but native access is not enabled"
                        + " for its module; the JVM warns or refuses. Fix: start java with "
                        + nativeAccessFlag() + " (or, for java -jar, Enable-Native-Access: ALL-UNNAMED in the manifest"
                        + " of the application's jar)");
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
            load(library, "copy it to a file system mounted without noexec and point -D" + PATH_PROPERTY
                    + " at the copy");
        }

        private static void load(Path library, String noexecFix) {
            try {
                System.load(library.toString());
            } catch (UnsatisfiedLinkError e) {
                throw new IllegalStateException(loadFailure(library, e.getMessage(), procSelf("maps"),
                        procSelf("mountinfo"), noexecFix), e);
            }
        }

        private static void loadBundled(String resource) {
            String expected = bundledHash(resource);
            // Named by its content: each build of the library gets its own directory.
            Path directory = cacheDirectory().resolve(expected.substring(0, 16));
            Path library = directory.resolve("libpinrock.so");
            requireOnlyOwnerWritable(directory);
            if (!isIntact(resource, expected, library)) {
                extract(resource, expected, directory, library);
            }
            load(library, "set -D" + CACHE_PROPERTY + "=/a/directory/on/a/file/system/mounted/without/noexec");
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

        /**
         * Whether the cached library is the jar's copy: a regular file that
         * only this user (or root) can have written, of the size and CRC-32
         * that the jar's directory records for the bundled library. Reading
         * and checksumming 13 MB this way takes milliseconds, where SHA-256
         * took 150 ms or more (the JDK's digest runs interpreted at
         * start-up). A truncated, damaged or foreign file fails the size or
         * the CRC-32 and is extracted again. CRC-32 guards against accidents,
         * not against forgery; forgery is kept out by the owner and mode
         * checks here and in {@link #requireOnlyOwnerWritable}: only the user
         * or root can write the file or replace it in its directory, and they
         * can replace the jar as well, which no check of the cache could
         * catch (neither could the former SHA-256, which was computed before
         * the library was loaded, so a file replaced in between went unseen).
         * When the library is not read from a jar (an exploded class path),
         * its SHA-256 is compared instead.
         */
        private static boolean isIntact(String resource, String expectedSha256, Path library) {
            try {
                Map<String, Object> attributes = Files.readAttributes(library, "unix:size,uid,mode",
                        LinkOption.NOFOLLOW_LINKS);
                if (!Files.isRegularFile(library, LinkOption.NOFOLLOW_LINKS) || !onlyOwnerWritable(attributes)) {
                    return false;
                }
                JarEntry bundled = jarEntry(resource);
                if (bundled == null) {
                    return expectedSha256.equals(sha256(library));
                }
                return (Long) attributes.get("size") == bundled.getSize() && crc32(library) == bundled.getCrc();
            } catch (IOException e) {
                return false; // e.g. not extracted yet
            }
        }

        /**
         * Refuses a cache directory that someone other than this user (or
         * root) owns or can write: they could put their own library in it.
         * One that does not exist yet is created by {@link #extract} for
         * the user alone.
         */
        private static void requireOnlyOwnerWritable(Path directory) {
            boolean refused;
            try {
                refused = !onlyOwnerWritable(Files.readAttributes(directory, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS));
            } catch (IOException e) {
                return; // not created yet
            }
            if (refused) {
                throw new IllegalStateException("pinrock will not load a library from " + directory
                        + ": another user owns it or can write to it. Fix: remove that directory (pinrock"
                        + " creates it again for you alone), or set -D" + CACHE_PROPERTY + "=/a/private/directory");
            }
        }

        /** Whether unix attributes (uid, mode) say that only this process's user or root can write. */
        private static boolean onlyOwnerWritable(Map<String, Object> attributes) throws IOException {
            int owner = (Integer) attributes.get("uid");
            int mode = (Integer) attributes.get("mode");
            return (owner == processUid() || owner == 0) && (mode & 0022) == 0;
        }

        /** The effective user id of this process: /proc/self belongs to it. */
        private static int processUid() throws IOException {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        }

        /**
         * The bundled library's entry in the jar it comes from, with the size
         * and CRC-32 that the jar's directory records; null when it does not
         * come from a jar or the jar records neither.
         */
        private static JarEntry jarEntry(String resource) {
            URL url = NativeLibrary.class.getResource(resource);
            if (url == null) {
                return null;
            }
            try {
                URLConnection connection = url.openConnection();
                if (!(connection instanceof JarURLConnection jar)) {
                    return null;
                }
                jar.setUseCaches(false); // a JarFile of its own, closed here
                JarEntry entry = jar.getJarEntry();
                jar.getJarFile().close();
                return entry.getSize() >= 0 && entry.getCrc() >= 0 ? entry : null;
            } catch (IOException e) {
                return null;
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
                // For the user alone, as requireOnlyOwnerWritable and isIntact expect.
                Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
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

        /** The file's CRC-32, or -1 when it cannot be read. */
        private static long crc32(Path file) {
            try (InputStream in = Files.newInputStream(file)) {
                CRC32 crc = new CRC32();
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    crc.update(buffer, 0, n);
                }
                return crc.getValue();
            } catch (IOException e) {
                return -1;
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
                log().log(Level.DEBUG, "could not delete " + file, e);
            }
        }
    }
}
