package dev.pinrock.internal;

import java.nio.file.Path;

import dev.pinrock.DbOptions;

/** The two ways Java reaches libpinrock.so. FFM is the public one; JNI exists for comparison. */
public enum Binding {
    /** Downcalls through the Foreign Function and Memory API (jextract bindings). */
    FFM {
        @Override
        public NativeDb open(Path path, DbOptions options, long memoryBudget) {
            return FfmDb.open(path, options, memoryBudget);
        }
    },
    /** JNI entry points in the same library, calling the same C functions. */
    JNI {
        @Override
        public NativeDb open(Path path, DbOptions options, long memoryBudget) {
            return JniDb.open(path, options, memoryBudget);
        }
    };

    /**
     * Opens a database through this binding.
     *
     * @param path the absolute database directory
     * @param options the options
     * @param memoryBudget the native handle of the options' memory budget, held valid by the
     *     caller, or 0 for none
     * @return the open native database
     */
    public abstract NativeDb open(Path path, DbOptions options, long memoryBudget);
}
