package dev.pinrock;

import java.util.Arrays;
import java.util.Objects;

/**
 * How a read is made. Immutable and thread-safe; each method returns a copy
 * with one setting changed.
 *
 * <pre>{@code
 * try (Snapshot snapshot = db.snapshot()) {
 *     byte[] old = db.get(ReadOptions.DEFAULT.snapshot(snapshot), key);
 * }
 * }</pre>
 *
 * <p>The key range ({@link #lowerBound(byte[])}, {@link #upperBound(byte[])},
 * {@link #prefix(byte[])}) and the read-ahead settings apply to cursors; point
 * reads ignore them.
 */
public final class ReadOptions {
    /** RocksDB's defaults: the latest state, blocks cached, checksums verified, I/O allowed, every key. */
    public static final ReadOptions DEFAULT = new ReadOptions(new Values());

    private static final int SKIP_FILL_CACHE = 1;
    private static final int SKIP_CHECKSUMS = 2;
    private static final int MEMORY_ONLY = 4;
    private static final int ASYNC_IO = 8;
    private static final int TAILING = 16;

    /** The settings; a copy is changed before it is published, never after. */
    private static final class Values implements Cloneable {
        Snapshot snapshot;
        boolean fillCache = true;
        boolean verifyChecksums = true;
        boolean memoryOnly;
        byte[] lowerBound;
        byte[] upperBound;
        /** Whether the bounds are a prefix's ({@link #prefix(byte[])}), which are bytewise. */
        boolean prefixBounds;
        long readaheadBytes;
        boolean asyncIo;
        boolean tailing;

        Values copy() {
            try {
                return (Values) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    private final Values values;

    private ReadOptions(Values values) {
        this.values = values;
    }

    /**
     * Returns a copy that reads as of a snapshot.
     *
     * @param value a snapshot of the database read, or null for the latest state (the default)
     * @return a copy with the setting changed
     */
    public ReadOptions snapshot(Snapshot value) {
        Values v = values.copy();
        v.snapshot = value;
        return new ReadOptions(v);
    }

    /**
     * Returns a copy that does or does not add the blocks it reads to the
     * block cache (turn it off for one-off reads and scans that should not
     * evict hot data).
     *
     * @param value whether to cache the blocks read (default true)
     * @return a copy with the setting changed
     */
    public ReadOptions fillCache(boolean value) {
        Values v = values.copy();
        v.fillCache = value;
        return new ReadOptions(v);
    }

    /**
     * Returns a copy that does or does not verify the checksums of the blocks it reads.
     *
     * @param value whether to verify (default true)
     * @return a copy with the setting changed
     */
    public ReadOptions verifyChecksums(boolean value) {
        Values v = values.copy();
        v.verifyChecksums = value;
        return new ReadOptions(v);
    }

    /**
     * Returns a copy that answers from memory only (memtables and block
     * cache): a read that would need I/O throws {@link RocksDbException}
     * with {@link StatusCode#INCOMPLETE} instead.
     *
     * @param value whether to avoid I/O (default false)
     * @return a copy with the setting changed
     */
    public ReadOptions memoryOnly(boolean value) {
        Values v = values.copy();
        v.memoryOnly = value;
        return new ReadOptions(v);
    }

    /**
     * Returns a copy whose cursors see no key below a bound.
     *
     * @param value the smallest key a cursor sees (copied), or null for no bound (the default)
     * @return a copy with the setting changed
     */
    public ReadOptions lowerBound(byte[] value) {
        Values v = values.copy();
        v.lowerBound = value == null ? null : value.clone();
        v.prefixBounds = false;
        return new ReadOptions(v);
    }

    /**
     * Returns a copy whose cursors see only keys below a bound (exclusive).
     *
     * @param value the first key past what a cursor sees (copied), or null for no bound (the default)
     * @return a copy with the setting changed
     */
    public ReadOptions upperBound(byte[] value) {
        Values v = values.copy();
        v.upperBound = value == null ? null : value.clone();
        v.prefixBounds = false;
        return new ReadOptions(v);
    }

    /**
     * Returns a copy whose cursors see only the keys that start with a
     * prefix: it sets the lower bound to the prefix and the upper bound to
     * the smallest key after every key with that prefix (none when the
     * prefix is all 0xff bytes). No prefix extractor is needed. These
     * bounds are bytewise: a cursor over a column family whose keys are in
     * another order ({@link KeyComparator}) refuses them with
     * {@link RocksDbException.InvalidArgumentException}, as they would not
     * bound the keys with the prefix there.
     *
     * @param prefix the prefix (copied); empty means every key (no bounds)
     * @return a copy with both bounds changed
     */
    public ReadOptions prefix(byte[] prefix) {
        boolean bounded = Objects.requireNonNull(prefix, "prefix").length > 0;
        Values v = values.copy();
        v.lowerBound = bounded ? prefix.clone() : null;
        v.upperBound = bounded ? prefixEnd(prefix) : null;
        v.prefixBounds = bounded;
        return new ReadOptions(v);
    }

    /** The smallest key greater than every key starting with prefix, or null when there is none. */
    static byte[] prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return null;
    }

    /**
     * Returns a copy whose cursors read table files ahead by a fixed size.
     *
     * @param bytes the read-ahead size; 0 (the default) lets RocksDB grow it automatically
     * @return a copy with the setting changed
     * @throws IllegalArgumentException when bytes is negative
     */
    public ReadOptions readaheadBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("readaheadBytes must be >= 0, got " + bytes);
        }
        Values v = values.copy();
        v.readaheadBytes = bytes;
        return new ReadOptions(v);
    }

    /**
     * Returns a copy whose cursors prefetch the next blocks asynchronously
     * while the current ones are consumed (RocksDB's async_io). pinrock's
     * engine is built without io_uring, so RocksDB issues those prefetch
     * reads synchronously: the option takes RocksDB's prefetching path but
     * brings no parallel I/O.
     *
     * @param value whether to prefetch asynchronously (default false)
     * @return a copy with the setting changed
     */
    public ReadOptions asyncIo(boolean value) {
        Values v = values.copy();
        v.asyncIo = value;
        return new ReadOptions(v);
    }

    /**
     * Returns a copy whose cursors are tailing (RocksDB's tailing
     * iterator): a cursor over a database or family that reads the latest
     * state rather than the state it opened on, so that a seek sees the
     * writes made since without a {@link Cursor#refresh()}, and moves forward
     * only ({@link Cursor#last()}, {@link Cursor#seekForPrev(byte[])},
     * {@link Cursor#prev()} and reverse scans throw {@link RocksDbException}
     * with {@link StatusCode#NOT_SUPPORTED}, the cursor staying where it
     * was; so does {@code refresh}, which leaves it on no entry as every
     * refresh does). Opening one with a snapshot, or over a
     * transaction or batch with index, throws
     * {@link RocksDbException.InvalidArgumentException}. Point reads ignore it.
     *
     * @param value whether cursors are tailing (default false)
     * @return a copy with the setting changed
     */
    public ReadOptions tailing(boolean value) {
        Values v = values.copy();
        v.tailing = value;
        return new ReadOptions(v);
    }

    /**
     * Returns the snapshot read, or null for the latest state.
     *
     * @return the snapshot read, or null for the latest state
     */
    public Snapshot snapshot() {
        return values.snapshot;
    }

    /**
     * Returns whether blocks read are cached.
     *
     * @return whether blocks read are cached
     */
    public boolean fillCache() {
        return values.fillCache;
    }

    /**
     * Returns whether checksums are verified.
     *
     * @return whether checksums are verified
     */
    public boolean verifyChecksums() {
        return values.verifyChecksums;
    }

    /**
     * Returns whether reads avoid I/O.
     *
     * @return whether reads avoid I/O
     */
    public boolean memoryOnly() {
        return values.memoryOnly;
    }

    /**
     * Returns a copy of the lower bound of cursors, or null.
     *
     * @return a copy of the lower bound of cursors, or null
     */
    public byte[] lowerBound() {
        return values.lowerBound == null ? null : values.lowerBound.clone();
    }

    /**
     * Returns a copy of the (exclusive) upper bound of cursors, or null.
     *
     * @return a copy of the (exclusive) upper bound of cursors, or null
     */
    public byte[] upperBound() {
        return values.upperBound == null ? null : values.upperBound.clone();
    }

    /**
     * Returns the read-ahead size of cursors, 0 for automatic.
     *
     * @return the read-ahead size of cursors, 0 for automatic
     */
    public long readaheadBytes() {
        return values.readaheadBytes;
    }

    /**
     * Returns whether cursors prefetch asynchronously.
     *
     * @return whether cursors prefetch asynchronously
     */
    public boolean asyncIo() {
        return values.asyncIo;
    }

    /**
     * Returns whether cursors are tailing.
     *
     * @return whether cursors are tailing
     */
    public boolean tailing() {
        return values.tailing;
    }

    /**
     * Returns the PR_READ_* flags of the C ABI.
     *
     * @return the PR_READ_* flags of the C ABI
     */
    int flags() {
        return (values.fillCache ? 0 : SKIP_FILL_CACHE) | (values.verifyChecksums ? 0 : SKIP_CHECKSUMS)
                | (values.memoryOnly ? MEMORY_ONLY : 0) | (values.asyncIo ? ASYNC_IO : 0)
                | (values.tailing ? TAILING : 0);
    }

    /** Whether the bounds are a prefix's, for the native call. */
    boolean prefixBounds() {
        return values.prefixBounds;
    }

    /** The bounds without copying, for the native call. */
    byte[] lowerBoundNoCopy() {
        return values.lowerBound;
    }

    byte[] upperBoundNoCopy() {
        return values.upperBound;
    }

    @Override
    public String toString() {
        return "ReadOptions[snapshot=" + values.snapshot + ", fillCache=" + values.fillCache + ", verifyChecksums="
                + values.verifyChecksums + ", memoryOnly=" + values.memoryOnly + ", lowerBound="
                + Arrays.toString(values.lowerBound) + ", upperBound=" + Arrays.toString(values.upperBound)
                + ", readaheadBytes=" + values.readaheadBytes + ", asyncIo=" + values.asyncIo + ", tailing="
                + values.tailing + "]";
    }
}
