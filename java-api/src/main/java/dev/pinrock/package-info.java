/**
 * pinrock: RocksDB for Java 22+ through the Foreign Function and Memory API.
 *
 * <p>Priorities, in order:
 * <ol>
 *   <li>Safety: no sequence of calls through this package crashes the JVM;
 *       use after close throws {@link java.lang.IllegalStateException}, failures
 *       throw {@link dev.pinrock.RocksDbException} with RocksDB's status.</li>
 *   <li>Latency: one native call per operation, no per-call allocation on the
 *       into-buffer paths, zero-copy reads where the caller asks for them.</li>
 *   <li>RocksDB's model kept visible (options, properties, status codes), with
 *       Java idioms (AutoCloseable, null for absent) where they do not conflict.</li>
 * </ol>
 *
 * <p>Start with {@link dev.pinrock.RocksDb#open(java.nio.file.Path, dev.pinrock.DbOptions)}.
 * The JVM must grant native access: {@code --enable-native-access=ALL-UNNAMED}
 * on the class path.
 */
package dev.pinrock;
