package dev.pinrock.internal;

import java.nio.file.Path;

import dev.pinrock.DbOptions;

/** The two ways Java reaches libpinrock.so. FFM is the public one; JNI exists for comparison. */
public enum Binding {
    /** Downcalls through the Foreign Function and Memory API (jextract bindings). */
    FFM {
        @Override
        public NativeDb open(Path path, DbOptions options) {
            return FfmDb.open(path, options);
        }
    },
    /** JNI entry points in the same library, calling the same C functions. */
    JNI {
        @Override
        public NativeDb open(Path path, DbOptions options) {
            return JniDb.open(path, options);
        }
    };

    /**
     * Opens a database through this binding.
     *
     * @param path the absolute database directory
     * @param options the options
     * @return the open native database
     */
    public abstract NativeDb open(Path path, DbOptions options);
}
