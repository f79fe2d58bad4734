/**
 * pinrock: RocksDB for Java 22+ through the Foreign Function &amp; Memory API,
 * with zero-copy reads of pinned values. The API is the package
 * {@code dev.pinrock}; the bindings and internals are not exported.
 *
 * <p>The module calls native code: grant it with
 * {@code --enable-native-access=dev.pinrock} (on the class path,
 * {@code --enable-native-access=ALL-UNNAMED}).
 */
module dev.pinrock {
    exports dev.pinrock;
}
