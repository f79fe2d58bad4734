package dev.pinrock;

import dev.pinrock.internal.ResourceGuard;

/**
 * A consistent point-in-time view of a database, from {@link RocksDb#snapshot()}:
 * reads through {@link ReadOptions#snapshot(Snapshot)} see the database as it
 * was when the snapshot was taken. A snapshot keeps the data it sees from
 * being compacted away, so close it when done. Closing is idempotent and
 * thread-safe and waits for reads using the snapshot to return; closing the
 * database releases its snapshots. A read through a closed snapshot throws
 * {@link IllegalStateException}.
 */
public final class Snapshot implements AutoCloseable {
    final RocksDb owner;
    final long handle;
    final ResourceGuard guard = new ResourceGuard("Snapshot");
    /** How the database releases this snapshot natively, before it closes or when the snapshot does. */
    final RocksDb.Dependent dependent = this::closeNative;
    private final Runnable releaseNative;

    Snapshot(RocksDb owner, long handle, Runnable releaseNative) {
        this.owner = owner;
        this.handle = handle;
        this.releaseNative = releaseNative;
    }

    private void closeNative() {
        guard.close(() -> {
            releaseNative.run();
            // Only now: a database closing meanwhile must find this snapshot and wait for its release.
            owner.forget(dependent);
        });
    }

    /**
     * Returns whether the snapshot can still be read through.
     *
     * @return whether the snapshot can still be read through
     */
    public boolean isOpen() {
        return !guard.isClosed();
    }

    /** Releases the snapshot. */
    @Override
    public void close() {
        owner.release(dependent);
    }

    @Override
    public String toString() {
        return "Snapshot[" + owner.path() + (isOpen() ? "" : ", closed") + "]";
    }
}
