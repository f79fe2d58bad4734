package dev.pinrock.internal;

/**
 * The two ways Java reaches libpinrock.so on the data path (gets, puts,
 * deletes, batches, multiGets, cursors). FFM is the public one; JNI exists for
 * comparison. Every other call goes through the handle's owner,
 * {@link FfmDb}, whichever the binding.
 */
public enum Binding {
    /** Downcalls through the Foreign Function and Memory API (jextract bindings). */
    FFM {
        @Override
        public DataPath dataPath(FfmDb owner) {
            return new FfmDataPath(owner);
        }
    },
    /** JNI entry points in the same library, calling the same C functions. */
    JNI {
        @Override
        public DataPath dataPath(FfmDb owner) {
            return new JniDb(owner);
        }
    };

    /**
     * Returns the data path of a database's or column family's handle through this binding.
     *
     * @param owner the handle's owner, which outlives the data path
     * @return the data path
     */
    public abstract DataPath dataPath(FfmDb owner);
}
