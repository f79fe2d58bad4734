package dev.pinrock;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.Consumer;

import dev.pinrock.internal.BatchEncoding.Operation;
import dev.pinrock.internal.FfmIndexedBatch;
import dev.pinrock.internal.KeyPath;

/**
 * Writes kept together, as a {@link WriteBatch} keeps them, that reads see
 * before they are written (RocksDB's {@code WriteBatchWithIndex}): every
 * read of {@link KeyedCalls} on the batch, or on a family of it
 * ({@link #in(Keyspace)}), in every access mode, sees the batch's writes
 * merged over the database, and {@code cursor()} walks them merged over the
 * database's keys. {@link RocksDb#write(WriteBatchWithIndex, WriteOptions)}
 * then applies them all at once, as a {@link WriteBatch} is applied; the
 * batch keeps them until {@link #clear()}.
 *
 * <p>The keyed writes ({@code put}, {@code delete}, {@code singleDelete},
 * {@code merge}) add records to the batch, the database unchanged. Puts and
 * deletes cost no native call: they are encoded in Java, in RocksDB's own
 * format, and indexed by the next read that needs them. A merge or single
 * delete is checked as it is added, and refused as writing it would be (a
 * family without a merge operator, an operand of the wrong length, a
 * single delete in a pessimistic transactional database:
 * {@link RocksDbException.InvalidArgumentException}, nothing added). A batch
 * holds no range deletes: RocksDB's index has none. A record for a family
 * dropped after it was added makes the write fail with
 * {@link RocksDbException.InvalidArgumentException}, nothing applied, as a
 * {@link WriteBatch}'s would, and so the reads that would index it, until
 * {@link #clear()}.
 *
 * <p>Reads see the batch's latest record of a key: a put's value, a
 * delete's absence, merges combined with the database's value by the
 * family's merge operator. {@link ReadOptions} with a snapshot read the
 * database as of it, the batch as it is. With {@code overwriteKey}
 * (RocksDB's option of that name) the index keeps only a key's latest
 * record, which costs less memory and time for keys written again;
 * reads see the same either way.
 *
 * <p><b>Cursors.</b> A cursor over the batch sees writes added while it is
 * open at its next move; each such write invalidates the entry it is on
 * (its views close, and reading it throws {@link IllegalStateException}
 * until the cursor moves; {@code next} and {@code prev} step from it). The
 * write is refused, with {@link IllegalStateException}, while such views are
 * open on another live thread or a call of such a cursor is in flight
 * there. A cursor's calls hold the batch, so
 * the batch refuses calls from inside its cursors' scan visitors and
 * readers. {@code refresh} is not supported on them. {@link #clear()} and
 * {@link #close()} close the batch's cursors first.
 *
 * <p><b>Threads and lifetime.</b> Not thread-safe: a call made while
 * another thread's call on the batch is in flight is refused with
 * {@link IllegalStateException}. The batch reads over one database, given
 * when it is made; its reads, its write and its cursors fail with
 * {@link IllegalStateException} once that database is closed.
 * {@link #close()} frees the batch; it may come from any thread, waits for
 * a call in flight, and is idempotent. Values read pinned stay valid after
 * the batch changes or closes, as those of the database do.
 */
public final class WriteBatchWithIndex extends PendingWrites implements AutoCloseable {
    private final FfmIndexedBatch batch;

    /**
     * Creates an empty batch over a database, indexing every record.
     *
     * @param database the database the batch's reads read over, and its write writes to
     * @throws IllegalStateException when the database is closed
     */
    public WriteBatchWithIndex(RocksDb database) {
        this(database, false);
    }

    /**
     * Creates an empty batch over a database.
     *
     * @param database the database the batch's reads read over, and its write writes to
     * @param overwriteKey whether the index keeps only each key's latest record
     * @throws IllegalStateException when the database is closed
     */
    public WriteBatchWithIndex(RocksDb database, boolean overwriteKey) {
        this(requireOpen(database), FfmIndexedBatch.create("WriteBatchWithIndex", overwriteKey));
    }

    private WriteBatchWithIndex(RocksDb database, FfmIndexedBatch batch) {
        super(batch.path(database.db, database.familyId()), database, "WriteBatchWithIndex");
        this.batch = batch;
    }

    private static RocksDb requireOpen(RocksDb database) {
        Objects.requireNonNull(database, "database").requireUsable();
        return database;
    }

    /**
     * Returns the keyed calls of a column family of the database through
     * this batch: its writes go into the batch, its reads see them.
     *
     * @param family the database itself (its default family) or one of its column families
     * @return the family as this batch sees it
     * @throws IllegalArgumentException when the family belongs to another database
     */
    public KeyedCalls in(Keyspace family) {
        return new Scope(this, requireOwn(family), batch.path(family.db, family.familyId()));
    }

    /**
     * Returns the number of records (puts, deletes, single deletes, merges) in the batch.
     *
     * @return the number of records
     * @throws IllegalStateException when the batch is closed or in use by another thread
     */
    public int count() {
        return call(batch::count);
    }

    /**
     * Returns the batch's encoded size in bytes, as written.
     *
     * @return the encoded size in bytes
     * @throws IllegalStateException when the batch is closed or in use by another thread
     */
    public long sizeBytes() {
        return call(batch::sizeBytes);
    }

    /**
     * Removes every record, closing the batch's cursors first; the memory is kept for reuse.
     *
     * @throws IllegalStateException when the batch is closed or in use by another thread
     */
    public void clear() {
        run(() -> {
            closeCursors();
            batch.clear();
        });
    }

    /**
     * Closes the batch's cursors and frees the batch. Idempotent; may be
     * called from any thread, and waits for a call in flight on another.
     */
    @Override
    public void close() {
        guard.close(() -> {
            closeCursors();
            batch.free();
        });
    }

    /**
     * Hands the encoded records to a write into database, holding the
     * batch (and checking it is database's) meanwhile.
     *
     * @throws IllegalArgumentException when the batch reads over another database
     * @throws IllegalStateException when the batch is closed or in use by another thread
     */
    void writeInto(RocksDb database, Consumer<MemorySegment> write) {
        if (database != owner) {
            throw new IllegalArgumentException("the batch reads over " + owner + ", not " + database);
        }
        run(() -> batch.writeInto(write));
    }

    /** A write indexes at once while cursors are open, so that they see it, and invalidates their views. */
    @Override
    void beforeWrite() {
        super.beforeWrite();
        batch.indexEachWrite(hasCursors());
    }

    /** Checked at once: a record the database would refuse is refused now, not kept. */
    @Override
    void writeRecord(KeyPath keys, Operation operation, Object first, Object second) {
        FfmIndexedBatch.write(keys, operation, first, second);
    }

    @Override
    public String toString() {
        return "WriteBatchWithIndex[" + owner + (guard.isClosed() ? ", closed]" : "]");
    }
}
