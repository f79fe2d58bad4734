package dev.pinrock;

import java.util.List;

/**
 * Learns what RocksDB does in the databases opened with
 * {@link DbOptions#eventListener(EventListener)}: flushes and compactions
 * begun and completed, table files created and deleted, memtables sealed,
 * external files ingested, write stalls, background errors and the
 * recoveries from them. Each method has a default that ignores the event:
 * implement the ones you need.
 *
 * <p><b>Delivery.</b> RocksDB's threads never wait for a listener: they put
 * each event on a native queue shared by the process, and one daemon thread,
 * {@code pinrock-events}, hands the events to their listeners, in the order
 * RocksDB raised them. A slow listener therefore delays the events after it
 * (of every database), never RocksDB; when the queue holds 4096 events not
 * yet delivered, the oldest are dropped and a WARNING on the
 * {@link System.Logger} {@value #LOGGER_NAME} says how many. Events are
 * told after the fact: a listener cannot change what RocksDB does. Whether
 * RocksDB recovers from a background error by itself is
 * {@link DbOptions#autoRecovery(boolean)}; {@link RocksDb#resume()} asks it
 * to. Events queued before a database closed may reach the listener after
 * {@link RocksDb#close()} returned.
 *
 * <p><b>Failures.</b> A method that throws loses that event only: the later
 * ones are still delivered, and {@link #failed(Throwable)} is told. Only an
 * error that means the JVM itself is failing ({@link OutOfMemoryError} and
 * the other {@link VirtualMachineError}s but a stack overflow) ends the
 * thread; the next database opened with a listener starts a new one, which
 * delivers the events still queued. A listener may call any of pinrock's
 * methods, on any database, that one included: it runs on pinrock's thread,
 * not on RocksDB's.
 */
public interface EventListener {
    /** The {@link System.Logger} of the default {@link #failed(Throwable)} and of dropped events. */
    String LOGGER_NAME = "dev.pinrock.EventListener";

    /**
     * A flush began; its file path, sequence numbers, entries and deletions
     * are not known yet (see {@link FlushInfo}).
     *
     * @param flush the flush
     */
    default void onFlushBegun(FlushInfo flush) {
    }

    /**
     * A flush wrote its table file.
     *
     * @param flush the flush
     */
    default void onFlushCompleted(FlushInfo flush) {
    }

    /**
     * A compaction began: its outputs, and figures, are not known yet (empty and 0).
     *
     * @param compaction the compaction
     */
    default void onCompactionBegun(CompactionInfo compaction) {
    }

    /**
     * A compaction ended, having succeeded or not ({@link CompactionInfo#error()}).
     *
     * @param compaction the compaction
     */
    default void onCompactionCompleted(CompactionInfo compaction) {
    }

    /**
     * A flush, compaction or recovery created a table file, or failed to.
     *
     * @param file the file
     */
    default void onTableFileCreated(TableFileCreated file) {
    }

    /**
     * A table file no longer needed was deleted, or failed to be.
     *
     * @param file the file
     */
    default void onTableFileDeleted(TableFileDeleted file) {
    }

    /**
     * A memtable stopped taking writes, to be flushed.
     *
     * @param memTable the memtable
     */
    default void onMemTableSealed(MemTableSealed memTable) {
    }

    /**
     * A table file was ingested ({@link Keyspace#ingest}).
     *
     * @param file the file
     */
    default void onExternalFileIngested(ExternalFileIngested file) {
    }

    /**
     * A family's writes began or stopped being slowed down or stopped.
     *
     * @param stall the conditions now and before
     */
    default void onWriteStallChanged(WriteStallChange stall) {
    }

    /**
     * A background error stopped the database's flushes (a soft error) or
     * its writes too (a hard one). RocksDB recovers by itself from the
     * errors it can unless {@link DbOptions#autoRecovery(boolean)} says
     * otherwise; {@link RocksDb#resume()} asks it to.
     *
     * @param error the error
     */
    default void onBackgroundError(BackgroundError error) {
    }

    /**
     * A recovery from a background error ended, having succeeded or not.
     *
     * @param recovery the errors before and after
     */
    default void onErrorRecoveryEnded(ErrorRecovery recovery) {
    }

    /**
     * Told when a method of this listener threw: that event is lost. The
     * default logs a WARNING on the {@link System.Logger} {@value #LOGGER_NAME};
     * what this method throws is dropped.
     *
     * @param failure what the listener threw
     */
    default void failed(Throwable failure) {
        System.getLogger(LOGGER_NAME).log(System.Logger.Level.WARNING,
                "an EventListener threw; that event is lost, later ones are still delivered", failure);
    }

    /**
     * A flush.
     *
     * @param database the database's path, as it was opened
     * @param family the column family's name
     * @param filePath the table file written (empty when begun)
     * @param jobId the flush's job: the table file's creation has it too
     * @param triggeredWritesSlowdown whether writes were slowed down when it began
     * @param triggeredWritesStop whether writes were stopped when it began
     * @param smallestSequence the oldest sequence number it holds (when begun, not known yet:
     *     RocksDB's largest sequence number, 2<sup>56</sup> - 1)
     * @param largestSequence the newest sequence number it holds (0 when begun)
     * @param reason why it ran
     * @param entries the entries written (0 when begun)
     * @param deletions the deletions among them (0 when begun)
     */
    record FlushInfo(String database, String family, String filePath, int jobId, boolean triggeredWritesSlowdown,
            boolean triggeredWritesStop, long smallestSequence, long largestSequence, FlushReason reason,
            long entries, long deletions) {
    }

    /**
     * A compaction.
     *
     * @param database the database's path, as it was opened
     * @param family the column family's name
     * @param error why it failed, or null when it succeeded (or began)
     * @param jobId the compaction's job: its table files' creations have it too
     * @param baseInputLevel the lowest level it reads
     * @param outputLevel the level it writes
     * @param reason why it ran
     * @param inputs the table files it reads
     * @param outputs the table files it wrote (empty when begun)
     * @param elapsedMicros how long it took, in microseconds (0 when begun)
     * @param recordsRead the entries it read (0 when begun)
     * @param recordsWritten the entries it wrote (0 when begun)
     * @param bytesRead the bytes of table files it read (0 when begun)
     * @param bytesWritten the bytes of table files it wrote (0 when begun)
     */
    record CompactionInfo(String database, String family, RocksDbException error, int jobId, int baseInputLevel,
            int outputLevel, CompactionReason reason, List<CompactionFile> inputs, List<CompactionFile> outputs,
            long elapsedMicros, long recordsRead, long recordsWritten, long bytesRead, long bytesWritten) {
        /**
         * Makes the record with unmodifiable copies of the lists.
         *
         * @param database the database's path
         * @param family the family's name
         * @param error the error, or null
         * @param jobId the job
         * @param baseInputLevel the lowest level read
         * @param outputLevel the level written
         * @param reason why it ran
         * @param inputs the files read
         * @param outputs the files written
         * @param elapsedMicros its microseconds
         * @param recordsRead the entries read
         * @param recordsWritten the entries written
         * @param bytesRead the bytes read
         * @param bytesWritten the bytes written
         */
        public CompactionInfo {
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
        }
    }

    /**
     * A table file a compaction reads or wrote.
     *
     * @param path the file's path
     * @param level its level
     * @param fileNumber its number, which names it
     */
    record CompactionFile(String path, int level, long fileNumber) {
    }

    /**
     * A table file's creation.
     *
     * @param database the database's path, as it was opened
     * @param family the column family's name
     * @param filePath the file's path
     * @param jobId the flush's or compaction's job that wrote it
     * @param reason what wrote it
     * @param error why it failed, or null when the file was created
     * @param fileSize its size in bytes
     * @param entries the entries it holds
     * @param deletions the deletions among them
     */
    record TableFileCreated(String database, String family, String filePath, int jobId, TableFileReason reason,
            RocksDbException error, long fileSize, long entries, long deletions) {
    }

    /**
     * A table file's deletion.
     *
     * @param database the database's path, as it was opened
     * @param filePath the file's path
     * @param jobId the job that made it obsolete
     * @param error why the deletion failed, or null when the file was deleted
     */
    record TableFileDeleted(String database, String filePath, int jobId, RocksDbException error) {
    }

    /**
     * A memtable sealed for a flush.
     *
     * @param database the database's path, as it was opened
     * @param family the column family's name
     * @param firstSequence the sequence number of its first entry
     * @param earliestSequence a sequence number no entry of it is older than
     * @param entries its entries
     * @param deletions the deletions among them
     */
    record MemTableSealed(String database, String family, long firstSequence, long earliestSequence, long entries,
            long deletions) {
    }

    /**
     * An ingested table file.
     *
     * @param database the database's path, as it was opened
     * @param family the column family's name
     * @param externalPath the path it was ingested from
     * @param internalPath its path in the database
     * @param globalSequence the sequence number its entries took (0 when they kept their own)
     * @param entries the entries it holds
     */
    record ExternalFileIngested(String database, String family, String externalPath, String internalPath,
            long globalSequence, long entries) {
    }

    /**
     * A change of a family's write stall condition.
     *
     * @param database the database's path, as it was opened
     * @param family the column family's name
     * @param current the condition now
     * @param previous the condition before
     */
    record WriteStallChange(String database, String family, WriteStallCondition current,
            WriteStallCondition previous) {
    }

    /**
     * A background error.
     *
     * @param database the database's path, as it was opened
     * @param reason what was running
     * @param error the error
     */
    record BackgroundError(String database, BackgroundErrorReason reason, RocksDbException error) {
    }

    /**
     * The end of a recovery from a background error.
     *
     * @param database the database's path, as it was opened
     * @param recoveredFrom the error the recovery was from
     * @param remaining the error after it, or null when the database recovered
     */
    record ErrorRecovery(String database, RocksDbException recoveredFrom, RocksDbException remaining) {
    }

    /** Why a flush ran: RocksDB's {@code FlushReason}, in its order. */
    enum FlushReason {
        /** Another reason, or one this version does not know. */
        OTHERS,
        /** The live files were asked for (a checkpoint). */
        GET_LIVE_FILES,
        /** The database closed. */
        SHUTDOWN,
        /** A file was ingested over the memtable's keys. */
        EXTERNAL_FILE_INGESTION,
        /** A manual compaction. */
        MANUAL_COMPACTION,
        /** The memory budget's memtable share was exceeded. */
        WRITE_BUFFER_MANAGER,
        /** The memtable was full. */
        WRITE_BUFFER_FULL,
        /** RocksDB's tests. */
        TEST,
        /** Files were deleted. */
        DELETE_FILES,
        /** An automatic compaction. */
        AUTO_COMPACTION,
        /** {@link Keyspace#flush()}. */
        MANUAL_FLUSH,
        /** A recovery from a background error. */
        ERROR_RECOVERY,
        /** A recovery's retry. */
        ERROR_RECOVERY_RETRY_FLUSH,
        /** The write-ahead log reached its size limit. */
        WAL_FULL,
        /** Catching up after a recovery. */
        CATCH_UP_AFTER_ERROR_RECOVERY
    }

    /** Why a compaction ran: RocksDB's {@code CompactionReason}, in its order. */
    enum CompactionReason {
        /** A reason this version does not know. */
        UNKNOWN,
        /** Level 0 held as many files as its compaction trigger. */
        LEVEL_L0_FILES_NUM,
        /** A level outgrew its target size. */
        LEVEL_MAX_LEVEL_SIZE,
        /** Universal compaction: the space amplification. */
        UNIVERSAL_SIZE_AMPLIFICATION,
        /** Universal compaction: the size ratio. */
        UNIVERSAL_SIZE_RATIO,
        /** Universal compaction: the number of sorted runs. */
        UNIVERSAL_SORTED_RUN_NUM,
        /** FIFO compaction: the total size. */
        FIFO_MAX_SIZE,
        /** FIFO compaction: fewer files. */
        FIFO_REDUCE_NUM_FILES,
        /** FIFO compaction: files past their TTL. */
        FIFO_TTL,
        /** {@link Keyspace#compactRange()}. */
        MANUAL_COMPACTION,
        /** Files marked for compaction. */
        FILES_MARKED_FOR_COMPACTION,
        /** The bottommost level, to drop versions no snapshot needs. */
        BOTTOMMOST_FILES,
        /** The TTL option. */
        TTL,
        /** A flush, counted as a compaction to level 0. */
        FLUSH,
        /** An ingestion, counted as a compaction. */
        EXTERNAL_SST_INGESTION,
        /** Files older than the periodic compaction seconds. */
        PERIODIC_COMPACTION,
        /** Files moved to another temperature. */
        CHANGE_TEMPERATURE,
        /** Blob garbage collection. */
        FORCED_BLOB_GC,
        /** Round-robin TTL. */
        ROUND_ROBIN_TTL,
        /** A level refitted. */
        REFIT_LEVEL
    }

    /** What was running when a background error happened: RocksDB's {@code BackgroundErrorReason}, in its order. */
    enum BackgroundErrorReason {
        /** A flush, writing the log too. */
        FLUSH,
        /** A compaction. */
        COMPACTION,
        /** A write's callback. */
        WRITE_CALLBACK,
        /** A memtable insert. */
        MEMTABLE,
        /** A write of the MANIFEST. */
        MANIFEST_WRITE,
        /** A flush's table file (RocksDB's name says "no WAL" whatever the log). */
        FLUSH_NO_WAL,
        /** A write of the MANIFEST, the log aside. */
        MANIFEST_WRITE_NO_WAL
    }

    /** What wrote a table file: RocksDB's {@code TableFileCreationReason}, in its order. */
    enum TableFileReason {
        /** A flush. */
        FLUSH,
        /** A compaction. */
        COMPACTION,
        /** The log's replay at open. */
        RECOVERY,
        /** Anything else. */
        MISC
    }

    /** Whether a family's writes are held back: RocksDB's {@code WriteStallCondition}, in its order. */
    enum WriteStallCondition {
        /** Slowed down. */
        DELAYED,
        /** Stopped until flushes or compactions catch up. */
        STOPPED,
        /** Not held back. */
        NORMAL
    }
}
