package dev.pinrock;

import java.nio.file.Path;

import dev.pinrock.internal.Binding;

/**
 * Lets the benchmarks open a database through either binding. The JNI
 * variant is not public API (see {@code JniDb}); this bridge lives with the
 * benchmarks, not in the published jar.
 */
public final class BenchmarkAccess {
    private BenchmarkAccess() {
    }

    /**
     * Opens a database through the named binding.
     *
     * @param binding "ffm" or "jni"
     * @param path the database directory
     * @param options the options
     * @return the open database
     */
    public static RocksDb open(String binding, Path path, DbOptions options) {
        return RocksDb.open(path, options, switch (binding) {
            case "ffm" -> Binding.FFM;
            case "jni" -> Binding.JNI;
            default -> throw new IllegalArgumentException("binding must be ffm or jni: " + binding);
        });
    }
}
