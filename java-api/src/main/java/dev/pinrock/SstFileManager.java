package dev.pinrock;

import dev.pinrock.internal.NativeLibrary;
import dev.pinrock.internal.NativeShared;

/**
 * Tracks the table files of every database opened with
 * {@link DbOptions#sstFileManager(SstFileManager)}: their total size, a cap
 * on it, and the pace at which obsolete files are deleted (RocksDB's
 * SstFileManager, shared as RocksJava's is). Without limits set it only
 * counts.
 *
 * <p>When the tracked files reach the space limit, flushes and compactions
 * fail and RocksDB stops the databases' writes: a write then fails with
 * {@link RocksDbException} (status IOError, "Max allowed space was
 * reached"), nothing written before is lost, and RocksDB resumes writing by
 * itself once the limit is raised or files are freed (it retries in the
 * background). Reads go on meanwhile.
 *
 * <p>Thread-safe. Closing it drops this handle's reference only: databases
 * already open keep theirs, and new databases can no longer be opened with it.
 */
public final class SstFileManager extends SharedObject {
    private SstFileManager(long handle) {
        super("SstFileManager", handle, NativeShared::destroySstFileManager);
    }

    /**
     * Creates a manager with no space limit and deletions at once.
     *
     * @return the manager; the caller closes it
     */
    public static SstFileManager create() {
        NativeLibrary.load(); // before any class that needs the library, see NativeLibrary
        return new SstFileManager(NativeShared.createSstFileManager());
    }

    /**
     * Sets the total size of table files past which flushes and compactions fail.
     *
     * @param bytes the limit, or 0 for none (the default)
     * @throws RocksDbException.InvalidArgumentException when bytes is negative
     * @throws IllegalStateException when the manager is closed
     */
    public void setMaxAllowedSpaceUsage(long bytes) {
        set(NativeShared.SST_MAX_ALLOWED_SPACE, bytes);
    }

    /**
     * Sets the space a compaction leaves free for flushes and logging under the limit.
     *
     * @param bytes the buffer (0 by default)
     * @throws RocksDbException.InvalidArgumentException when bytes is negative
     * @throws IllegalStateException when the manager is closed
     */
    public void setCompactionBufferSize(long bytes) {
        set(NativeShared.SST_COMPACTION_BUFFER, bytes);
    }

    /**
     * Paces the deletion of obsolete table and log files, so that deleting a
     * large compaction's inputs does not stall the disk.
     *
     * @param bytesPerSecond the pace, or 0 to delete at once (the default)
     * @throws RocksDbException.InvalidArgumentException when bytesPerSecond is negative
     * @throws IllegalStateException when the manager is closed
     */
    public void setDeleteRateBytesPerSecond(long bytesPerSecond) {
        set(NativeShared.SST_DELETE_RATE, bytesPerSecond);
    }

    /**
     * Returns the deletion pace.
     *
     * @return bytes per second, 0 when deletions are not paced
     * @throws IllegalStateException when the manager is closed
     */
    public long deleteRateBytesPerSecond() {
        return read(NativeShared.SST_DELETE_RATE);
    }

    /**
     * Returns the total size of the table files tracked now.
     *
     * @return bytes
     * @throws IllegalStateException when the manager is closed
     */
    public long totalSize() {
        return read(NativeShared.SST_TOTAL_SIZE);
    }

    /**
     * Returns the size of obsolete files waiting for a paced deletion.
     *
     * @return bytes
     * @throws IllegalStateException when the manager is closed
     */
    public long totalTrashSize() {
        return read(NativeShared.SST_TRASH_SIZE);
    }

    /**
     * Returns whether the tracked files have reached the space limit.
     *
     * @return true when a limit is set and reached
     * @throws IllegalStateException when the manager is closed
     */
    public boolean isMaxAllowedSpaceReached() {
        return read(NativeShared.SST_SPACE_LIMIT_REACHED) != 0;
    }

    private void set(int setting, long value) {
        use(handle -> {
            NativeShared.sstFileManagerSet(handle, setting, value);
            return 0;
        });
    }

    private long read(int value) {
        return use(handle -> NativeShared.sstFileManagerRead(handle, value));
    }
}
