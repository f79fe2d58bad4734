package dev.pinrock.internal;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.OptionalLong;

import dev.pinrock.RocksDbException;
import dev.pinrock.bindings.PinrockNative;

/**
 * The seam between pinrock's Java code and the functions jextract generated
 * from pinrock.h: the only class that reaches {@code PinrockNative}. It
 * holds the downcall handles (each made on its first use, by its generated
 * holder or by the holders below), the constants of the C ABI that Java code
 * passes or tests, and the guarded call ({@link #call}, {@link #word})
 * through which the rarely used downcalls go. The struct classes jextract
 * generated ({@code pr_get_result}, {@code pr_cursor_entry},
 * {@code pr_histogram}, {@code pr_memory_usage}, {@code pr_compaction_context}
 * and the others) are layouts, not calls: the
 * classes that allocate and read those structs use them (docs/native.md
 * lists which).
 *
 * <p>The gets and the pin release, which every read makes, have handles of
 * their own below (plain-address arguments, a critical variant); every other
 * function's handle is the generated one, under its C name in camel case.
 * Callers invoke the handles themselves rather than the generated wrapper
 * methods, which turn argument errors such as a closed arena into
 * AssertionError: those errors reach the caller as the JDK throws them.
 */
final class Downcalls {
    private Downcalls() {
    }

    // Constants of pinrock.h

    static final int CALLBACK_FAILED = PinrockNative.PR_CALLBACK_FAILED();
    static final int CALLBACK_OK = PinrockNative.PR_CALLBACK_OK();
    static final int EVENT_END = PinrockNative.PR_EVENT_END();
    static final int EVENT_FLUSH_BEGUN = PinrockNative.PR_EVENT_FLUSH_BEGUN();
    static final int EVENT_FLUSH_COMPLETED = PinrockNative.PR_EVENT_FLUSH_COMPLETED();
    static final int EVENT_COMPACTION_BEGUN = PinrockNative.PR_EVENT_COMPACTION_BEGUN();
    static final int EVENT_COMPACTION_COMPLETED = PinrockNative.PR_EVENT_COMPACTION_COMPLETED();
    static final int EVENT_BACKGROUND_ERROR = PinrockNative.PR_EVENT_BACKGROUND_ERROR();
    static final int EVENT_ERROR_RECOVERY_ENDED = PinrockNative.PR_EVENT_ERROR_RECOVERY_ENDED();
    static final int EVENT_WRITE_STALL_CHANGED = PinrockNative.PR_EVENT_WRITE_STALL_CHANGED();
    static final int EVENT_TABLE_FILE_CREATED = PinrockNative.PR_EVENT_TABLE_FILE_CREATED();
    static final int EVENT_TABLE_FILE_DELETED = PinrockNative.PR_EVENT_TABLE_FILE_DELETED();
    static final int EVENT_MEMTABLE_SEALED = PinrockNative.PR_EVENT_MEMTABLE_SEALED();
    static final int EVENT_EXTERNAL_FILE_INGESTED = PinrockNative.PR_EVENT_EXTERNAL_FILE_INGESTED();
    static final int CODE_INCOMPLETE = PinrockNative.PR_CODE_INCOMPLETE();
    static final int FILTER_KEEP = PinrockNative.PR_FILTER_KEEP();
    static final int COMPARE_FAILED = PinrockNative.PR_COMPARE_FAILED();
    static final int FILTER_REMOVE = PinrockNative.PR_FILTER_REMOVE();
    static final int FILTER_CHANGE_VALUE = PinrockNative.PR_FILTER_CHANGE_VALUE();
    static final int FILTER_REMOVE_UNTIL = PinrockNative.PR_FILTER_REMOVE_UNTIL();
    static final int FILTERED_MERGE_OPERAND = PinrockNative.PR_FILTERED_MERGE_OPERAND();
    static final int CURSOR_FIRST = PinrockNative.PR_CURSOR_FIRST();
    static final int CURSOR_LAST = PinrockNative.PR_CURSOR_LAST();
    static final int CURSOR_NEXT = PinrockNative.PR_CURSOR_NEXT();
    static final int CURSOR_PREV = PinrockNative.PR_CURSOR_PREV();
    static final int CURSOR_SEEK = PinrockNative.PR_CURSOR_SEEK();
    static final int CURSOR_SEEK_FOR_PREV = PinrockNative.PR_CURSOR_SEEK_FOR_PREV();
    static final int GET_PIN_IF_LARGER = PinrockNative.PR_GET_PIN_IF_LARGER();
    static final int INGEST_MOVE = PinrockNative.PR_INGEST_MOVE();
    static final int NOT_FOUND = PinrockNative.PR_NOT_FOUND();
    static final int OK = PinrockNative.PR_OK();
    static final int OPTION_SCOPE_DB = PinrockNative.PR_OPTION_SCOPE_DB();
    static final int OPTION_SCOPE_FAMILY = PinrockNative.PR_OPTION_SCOPE_FAMILY();
    static final int OPTION_SCOPE_TABLE = PinrockNative.PR_OPTION_SCOPE_TABLE();
    static final int RATE_LIMIT_ALL = PinrockNative.PR_RATE_LIMIT_ALL();
    static final int RATE_LIMIT_READS = PinrockNative.PR_RATE_LIMIT_READS();
    static final int RATE_LIMIT_WRITES = PinrockNative.PR_RATE_LIMIT_WRITES();
    static final int RATE_LIMITER_BYTES_PER_SECOND = PinrockNative.PR_RATE_LIMITER_BYTES_PER_SECOND();
    static final int RATE_LIMITER_TOTAL_BYTES = PinrockNative.PR_RATE_LIMITER_TOTAL_BYTES();
    static final int RATE_LIMITER_TOTAL_REQUESTS = PinrockNative.PR_RATE_LIMITER_TOTAL_REQUESTS();
    static final int RANGE_HAS_BEGIN = PinrockNative.PR_RANGE_HAS_BEGIN();
    static final int RANGE_HAS_END = PinrockNative.PR_RANGE_HAS_END();
    static final int RANGE_PREFIX = PinrockNative.PR_RANGE_PREFIX();
    static final int READ_MEMORY_ONLY = PinrockNative.PR_READ_MEMORY_ONLY();
    static final int SCAN_REVERSE = PinrockNative.PR_SCAN_REVERSE();
    static final int SST_COMPACTION_BUFFER = PinrockNative.PR_SST_COMPACTION_BUFFER();
    static final int SST_DELETE_RATE = PinrockNative.PR_SST_DELETE_RATE();
    static final int SST_MAX_ALLOWED_SPACE = PinrockNative.PR_SST_MAX_ALLOWED_SPACE();
    static final int SST_SPACE_LIMIT_REACHED = PinrockNative.PR_SST_SPACE_LIMIT_REACHED();
    static final int SST_TOTAL_SIZE = PinrockNative.PR_SST_TOTAL_SIZE();
    static final int SST_TRASH_SIZE = PinrockNative.PR_SST_TRASH_SIZE();
    static final int TRANSACTIONS_OPTIMISTIC = PinrockNative.PR_TRANSACTIONS_OPTIMISTIC();
    static final int TRANSACTIONS_PESSIMISTIC = PinrockNative.PR_TRANSACTIONS_PESSIMISTIC();
    static final int TXN_DETECT_DEADLOCKS = PinrockNative.PR_TXN_DETECT_DEADLOCKS();
    static final int TXN_READ = PinrockNative.PR_TXN_READ();
    static final int TXN_READ_FOR_UPDATE = PinrockNative.PR_TXN_READ_FOR_UPDATE();
    static final int TXN_READ_FOR_UPDATE_SHARED = PinrockNative.PR_TXN_READ_FOR_UPDATE_SHARED();
    static final int TXN_SET_SNAPSHOT = PinrockNative.PR_TXN_SET_SNAPSHOT();

    /*
     * Each downcall handle is made on its first use, not when this class is
     * initialised: the JDK generates a class for every distinct signature
     * (milliseconds each at start-up). The four handles made here have holder
     * classes of their own; their descriptors are written out below rather
     * than taken from the generated pr_<function>$descriptor() accessors,
     * which would make the generated handle as well (one more generated class
     * at the first get); DowncallsTest checks them against the
     * generated ones.
     */

    /** pr_db_get's generated descriptor. */
    static final FunctionDescriptor GET_DESCRIPTOR = FunctionDescriptor.of(PinrockNative.C_INT,
            PinrockNative.C_POINTER, PinrockNative.C_POINTER, PinrockNative.C_LONG, PinrockNative.C_POINTER,
            PinrockNative.C_LONG, PinrockNative.C_INT, PinrockNative.C_POINTER, PinrockNative.C_POINTER,
            PinrockNative.C_LONG);
    /** pr_db_get_at's generated descriptor. */
    static final FunctionDescriptor GET_AT_DESCRIPTOR = FunctionDescriptor.of(PinrockNative.C_INT,
            PinrockNative.C_POINTER, PinrockNative.C_POINTER, PinrockNative.C_INT, PinrockNative.C_POINTER,
            PinrockNative.C_LONG, PinrockNative.C_POINTER, PinrockNative.C_LONG, PinrockNative.C_INT,
            PinrockNative.C_POINTER, PinrockNative.C_POINTER, PinrockNative.C_LONG);
    /** pr_pin_release's generated descriptor. */
    static final FunctionDescriptor PIN_RELEASE_DESCRIPTOR = FunctionDescriptor.ofVoid(PinrockNative.C_POINTER);

    /**
     * The gets take the database handle, the snapshot and the scratch's
     * result and error buffers as plain addresses (rawAddresses); the key and
     * the value buffer, which may be the caller's memory, stay segments.
     */
    static final class Get {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                address("pr_db_get"), rawAddresses(GET_DESCRIPTOR, 0, 6, 7));
    }

    /** pr_db_get_at, with plain addresses as {@link Get}'s. */
    static final class GetAt {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                address("pr_db_get_at"), rawAddresses(GET_AT_DESCRIPTOR, 0, 1, 8, 9));
    }

    /**
     * Releasing a pin only drops a reference (no I/O, no callback), so it runs
     * as a critical downcall: no thread-state transition. jextract cannot
     * express the option; the descriptor and address are the generated ones.
     */
    static final class PinRelease {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                address("pr_pin_release"), PIN_RELEASE_DESCRIPTOR, Linker.Option.critical(false));
    }

    /**
     * pr_db_get_at as a critical downcall, for gets answered from memory
     * (PR_READ_MEMORY_ONLY): no thread-state transition. Heap access stays
     * off: passing heap segments made the JIT keep them (they allocated),
     * where copying through the scratch buffers allocates nothing. pinrock.h
     * promises that such a read does no I/O and never calls back; one that
     * would need I/O answers PR_CODE_INCOMPLETE and is made again as a normal
     * downcall.
     */
    static final class GetInMemory {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                address("pr_db_get_at"), rawAddresses(GET_AT_DESCRIPTOR, 0, 1, 8, 9), Linker.Option.critical(false));
    }

    // The engine, options, memory budgets and logging

    static MethodHandle engineVersion() {
        return PinrockNative.pr_engine_version$handle();
    }

    static MethodHandle optionsCreate() {
        return PinrockNative.pr_options_create$handle();
    }

    static MethodHandle optionsDestroy() {
        return PinrockNative.pr_options_destroy$handle();
    }

    static MethodHandle optionsSetCreateIfMissing() {
        return PinrockNative.pr_options_set_create_if_missing$handle();
    }

    static MethodHandle optionsSetErrorIfExists() {
        return PinrockNative.pr_options_set_error_if_exists$handle();
    }

    static MethodHandle optionsSetParanoidChecks() {
        return PinrockNative.pr_options_set_paranoid_checks$handle();
    }

    static MethodHandle optionsSetWalRecoveryMode() {
        return PinrockNative.pr_options_set_wal_recovery_mode$handle();
    }

    static MethodHandle optionsSetCompression() {
        return PinrockNative.pr_options_set_compression$handle();
    }

    static MethodHandle optionsSetBottommostCompression() {
        return PinrockNative.pr_options_set_bottommost_compression$handle();
    }

    static MethodHandle optionsSetZstdLevel() {
        return PinrockNative.pr_options_set_zstd_level$handle();
    }

    static MethodHandle optionsSetCompressionPerLevel() {
        return PinrockNative.pr_options_set_compression_per_level$handle();
    }

    static MethodHandle optionsSetZstdDictionary() {
        return PinrockNative.pr_options_set_zstd_dictionary$handle();
    }

    static MethodHandle optionsSetCompressionThreads() {
        return PinrockNative.pr_options_set_compression_threads$handle();
    }

    static MethodHandle optionsSetBlockCacheBytes() {
        return PinrockNative.pr_options_set_block_cache_bytes$handle();
    }

    static MethodHandle optionsSetWriteBufferBytes() {
        return PinrockNative.pr_options_set_write_buffer_bytes$handle();
    }

    static MethodHandle optionsSetMaxOpenFiles() {
        return PinrockNative.pr_options_set_max_open_files$handle();
    }

    static MethodHandle optionsSetString() {
        return PinrockNative.pr_options_set_string$handle();
    }

    static MethodHandle optionsLatest() {
        return PinrockNative.pr_options_latest$handle();
    }

    static MethodHandle memoryBudgetCreate() {
        return PinrockNative.pr_memory_budget_create$handle();
    }

    static MethodHandle memoryBudgetDestroy() {
        return PinrockNative.pr_memory_budget_destroy$handle();
    }

    static MethodHandle optionsSetMemoryBudget() {
        return PinrockNative.pr_options_set_memory_budget$handle();
    }

    static MethodHandle memoryBudgetUsage() {
        return PinrockNative.pr_memory_budget_usage$handle();
    }

    static MethodHandle rateLimiterCreate() {
        return PinrockNative.pr_rate_limiter_create$handle();
    }

    static MethodHandle rateLimiterDestroy() {
        return PinrockNative.pr_rate_limiter_destroy$handle();
    }

    static MethodHandle rateLimiterSetBytesPerSecond() {
        return PinrockNative.pr_rate_limiter_set_bytes_per_second$handle();
    }

    static MethodHandle rateLimiterRead() {
        return PinrockNative.pr_rate_limiter_read$handle();
    }

    static MethodHandle optionsSetRateLimiter() {
        return PinrockNative.pr_options_set_rate_limiter$handle();
    }

    static MethodHandle sstFileManagerCreate() {
        return PinrockNative.pr_sst_file_manager_create$handle();
    }

    static MethodHandle sstFileManagerDestroy() {
        return PinrockNative.pr_sst_file_manager_destroy$handle();
    }

    static MethodHandle sstFileManagerSet() {
        return PinrockNative.pr_sst_file_manager_set$handle();
    }

    static MethodHandle sstFileManagerRead() {
        return PinrockNative.pr_sst_file_manager_read$handle();
    }

    static MethodHandle optionsSetSstFileManager() {
        return PinrockNative.pr_options_set_sst_file_manager$handle();
    }

    static MethodHandle optionsSetMergeOperator() {
        return PinrockNative.pr_options_set_merge_operator$handle();
    }

    static MethodHandle optionsSetComparator() {
        return PinrockNative.pr_options_set_comparator$handle();
    }

    // Callbacks (the stubs they are given are Callbacks')

    static MethodHandle mergeOperatorCreate() {
        return PinrockNative.pr_merge_operator_create$handle();
    }

    static MethodHandle mergeOperatorDestroy() {
        return PinrockNative.pr_merge_operator_destroy$handle();
    }

    static MethodHandle optionsSetMergeOperatorObject() {
        return PinrockNative.pr_options_set_merge_operator_object$handle();
    }

    static MethodHandle mergeOutputReserve() {
        return PinrockNative.pr_merge_output_reserve$handle();
    }

    static MethodHandle callbacksTakeReleased() {
        return PinrockNative.pr_callbacks_take_released$handle();
    }

    static MethodHandle callbacksProbe() {
        return PinrockNative.pr_callbacks_probe$handle();
    }

    static MethodHandle mergeOutputUseInput() {
        return PinrockNative.pr_merge_output_use_input$handle();
    }

    static MethodHandle compactionFilterFactoryCreate() {
        return PinrockNative.pr_compaction_filter_factory_create$handle();
    }

    static MethodHandle compactionFilterFactoryDestroy() {
        return PinrockNative.pr_compaction_filter_factory_destroy$handle();
    }

    static MethodHandle optionsSetCompactionFilterFactory() {
        return PinrockNative.pr_options_set_compaction_filter_factory$handle();
    }

    static MethodHandle comparatorCreate() {
        return PinrockNative.pr_comparator_create$handle();
    }

    static MethodHandle comparatorDestroy() {
        return PinrockNative.pr_comparator_destroy$handle();
    }

    static MethodHandle optionsSetComparatorObject() {
        return PinrockNative.pr_options_set_comparator_object$handle();
    }

    static MethodHandle filterOutputReserve() {
        return PinrockNative.pr_filter_output_reserve$handle();
    }

    static MethodHandle optionsSetStatistics() {
        return PinrockNative.pr_options_set_statistics$handle();
    }

    static MethodHandle optionsSetInfoLog() {
        return PinrockNative.pr_options_set_info_log$handle();
    }

    static MethodHandle logNext() {
        return PinrockNative.pr_log_next$handle();
    }

    static MethodHandle optionsSetEventListener() {
        return PinrockNative.pr_options_set_event_listener$handle();
    }

    static MethodHandle optionsSetAutoRecovery() {
        return PinrockNative.pr_options_set_auto_recovery$handle();
    }

    static MethodHandle eventNext() {
        return PinrockNative.pr_event_next$handle();
    }

    static MethodHandle eventFree() {
        return PinrockNative.pr_event_free$handle();
    }

    static MethodHandle dbResume() {
        return PinrockNative.pr_db_resume$handle();
    }

    static MethodHandle optionsSetFamilyOptions() {
        return PinrockNative.pr_options_set_family_options$handle();
    }

    // Transactions

    static MethodHandle dbOpenTransactional() {
        return PinrockNative.pr_db_open_transactional$handle();
    }

    static MethodHandle dbTransactions() {
        return PinrockNative.pr_db_transactions$handle();
    }

    static MethodHandle txnBegin() {
        return PinrockNative.pr_txn_begin$handle();
    }

    static MethodHandle txnFree() {
        return PinrockNative.pr_txn_free$handle();
    }

    static MethodHandle txnPut() {
        return PinrockNative.pr_txn_put$handle();
    }

    static MethodHandle txnDelete() {
        return PinrockNative.pr_txn_delete$handle();
    }

    static MethodHandle txnSingleDelete() {
        return PinrockNative.pr_txn_single_delete$handle();
    }

    static MethodHandle txnMerge() {
        return PinrockNative.pr_txn_merge$handle();
    }

    static MethodHandle txnGet() {
        return PinrockNative.pr_txn_get$handle();
    }

    static MethodHandle txnMultiGet() {
        return PinrockNative.pr_txn_multi_get$handle();
    }

    static MethodHandle txnMultiGetPinned() {
        return PinrockNative.pr_txn_multi_get_pinned$handle();
    }

    static MethodHandle txnCursorOpen() {
        return PinrockNative.pr_txn_cursor_open$handle();
    }

    static MethodHandle txnCommit() {
        return PinrockNative.pr_txn_commit$handle();
    }

    static MethodHandle txnRollback() {
        return PinrockNative.pr_txn_rollback$handle();
    }

    static MethodHandle txnSetSavepoint() {
        return PinrockNative.pr_txn_set_savepoint$handle();
    }

    static MethodHandle txnRollbackToSavepoint() {
        return PinrockNative.pr_txn_rollback_to_savepoint$handle();
    }

    static MethodHandle txnPopSavepoint() {
        return PinrockNative.pr_txn_pop_savepoint$handle();
    }

    static MethodHandle txnSetSnapshot() {
        return PinrockNative.pr_txn_set_snapshot$handle();
    }

    static MethodHandle txnSize() {
        return PinrockNative.pr_txn_size$handle();
    }

    static MethodHandle txnId() {
        return PinrockNative.pr_txn_id$handle();
    }

    static MethodHandle indexedBatchCreate() {
        return PinrockNative.pr_indexed_batch_create$handle();
    }

    static MethodHandle indexedBatchFree() {
        return PinrockNative.pr_indexed_batch_free$handle();
    }

    static MethodHandle indexedBatchIndex() {
        return PinrockNative.pr_indexed_batch_index$handle();
    }

    static MethodHandle indexedBatchGet() {
        return PinrockNative.pr_indexed_batch_get$handle();
    }

    static MethodHandle indexedBatchMultiGet() {
        return PinrockNative.pr_indexed_batch_multi_get$handle();
    }

    static MethodHandle indexedBatchMultiGetPinned() {
        return PinrockNative.pr_indexed_batch_multi_get_pinned$handle();
    }

    static MethodHandle indexedBatchCursorOpen() {
        return PinrockNative.pr_indexed_batch_cursor_open$handle();
    }

    static MethodHandle txnSetName() {
        return PinrockNative.pr_txn_set_name$handle();
    }

    static MethodHandle txnName() {
        return PinrockNative.pr_txn_name$handle();
    }

    static MethodHandle txnPrepare() {
        return PinrockNative.pr_txn_prepare$handle();
    }

    static MethodHandle dbTakePrepared() {
        return PinrockNative.pr_db_take_prepared$handle();
    }

    // Databases, column families, snapshots and maintenance

    static MethodHandle dbOpen() {
        return PinrockNative.pr_db_open$handle();
    }

    static MethodHandle dbClose() {
        return PinrockNative.pr_db_close$handle();
    }

    static MethodHandle dbSetOptions() {
        return PinrockNative.pr_db_set_options$handle();
    }

    static MethodHandle dbSetOptionsFrom() {
        return PinrockNative.pr_db_set_options_from$handle();
    }

    static MethodHandle dbSetClosing() {
        return PinrockNative.pr_db_set_closing$handle();
    }

    static MethodHandle dbIngest() {
        return PinrockNative.pr_db_ingest$handle();
    }

    static MethodHandle dbSnapshotCreate() {
        return PinrockNative.pr_db_snapshot_create$handle();
    }

    static MethodHandle dbSnapshotRelease() {
        return PinrockNative.pr_db_snapshot_release$handle();
    }

    static MethodHandle dbFlush() {
        return PinrockNative.pr_db_flush$handle();
    }

    static MethodHandle dbCompactRange() {
        return PinrockNative.pr_db_compact_range$handle();
    }

    static MethodHandle dbApproximateSize() {
        return PinrockNative.pr_db_approximate_size$handle();
    }

    static MethodHandle dbCheckpoint() {
        return PinrockNative.pr_db_checkpoint$handle();
    }

    static MethodHandle dbPropertyInt() {
        return PinrockNative.pr_db_property_int$handle();
    }

    static MethodHandle dbProperty() {
        return PinrockNative.pr_db_property$handle();
    }

    static MethodHandle dbListFamilies() {
        return PinrockNative.pr_db_list_families$handle();
    }

    static MethodHandle dbRepair() {
        return PinrockNative.pr_db_repair$handle();
    }

    static MethodHandle dbFamilyNames() {
        return PinrockNative.pr_db_family_names$handle();
    }

    static MethodHandle dbFamily() {
        return PinrockNative.pr_db_family$handle();
    }

    static MethodHandle dbCreateFamily() {
        return PinrockNative.pr_db_create_family$handle();
    }

    static MethodHandle dbDropFamily() {
        return PinrockNative.pr_db_drop_family$handle();
    }

    static MethodHandle dbFamilyRelease() {
        return PinrockNative.pr_db_family_release$handle();
    }

    static MethodHandle dbFamilyId() {
        return PinrockNative.pr_db_family_id$handle();
    }

    // Writes, multiGets and cursors: the rest of the data path

    static MethodHandle dbPut() {
        return PinrockNative.pr_db_put$handle();
    }

    static MethodHandle dbDelete() {
        return PinrockNative.pr_db_delete$handle();
    }

    static MethodHandle dbWrite() {
        return PinrockNative.pr_db_write$handle();
    }

    static MethodHandle dbMultiGetWith() {
        return PinrockNative.pr_db_multi_get_with$handle();
    }

    static MethodHandle dbMultiGetPinnedWith() {
        return PinrockNative.pr_db_multi_get_pinned_with$handle();
    }

    static MethodHandle cursorOpen() {
        return PinrockNative.pr_cursor_open$handle();
    }

    static MethodHandle cursorClose() {
        return PinrockNative.pr_cursor_close$handle();
    }

    static MethodHandle cursorMove() {
        return PinrockNative.pr_cursor_move$handle();
    }

    static MethodHandle cursorRefresh() {
        return PinrockNative.pr_cursor_refresh$handle();
    }

    static MethodHandle cursorScan() {
        return PinrockNative.pr_cursor_scan$handle();
    }

    // Table file writers

    static MethodHandle sstWriterOpen() {
        return PinrockNative.pr_sst_writer_open$handle();
    }

    static MethodHandle sstWriterPut() {
        return PinrockNative.pr_sst_writer_put$handle();
    }

    static MethodHandle sstWriterDelete() {
        return PinrockNative.pr_sst_writer_delete$handle();
    }

    static MethodHandle sstWriterFinish() {
        return PinrockNative.pr_sst_writer_finish$handle();
    }

    static MethodHandle sstWriterDestroy() {
        return PinrockNative.pr_sst_writer_destroy$handle();
    }

    // Statistics and memory usage

    static MethodHandle tickerCount() {
        return PinrockNative.pr_ticker_count$handle();
    }

    static MethodHandle tickerName() {
        return PinrockNative.pr_ticker_name$handle();
    }

    static MethodHandle histogramCount() {
        return PinrockNative.pr_histogram_count$handle();
    }

    static MethodHandle histogramName() {
        return PinrockNative.pr_histogram_name$handle();
    }

    static MethodHandle dbStatistics() {
        return PinrockNative.pr_db_statistics$handle();
    }

    static MethodHandle dbStatisticsReset() {
        return PinrockNative.pr_db_statistics_reset$handle();
    }

    static MethodHandle dbMemoryUsage() {
        return PinrockNative.pr_db_memory_usage$handle();
    }

    /** A rarely used downcall, given a borrowed scratch and an arena for its arguments; returns its status. */
    @FunctionalInterface
    interface Downcall {
        int run(Scratch scratch, Arena arena) throws Throwable;
    }

    /**
     * Makes a rarely used downcall: its arguments live in an arena closed
     * after it, a failure status is thrown as a RocksDbException, and what the
     * method handle throws is passed on unchecked.
     */
    static void call(Downcall downcall) {
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            check(downcall.run(scratch, arena), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * {@link #call(Downcall)} for a downcall that answers a word (in scratch.word) or PR_NOT_FOUND.
     *
     * @return the word, or empty when the call answered PR_NOT_FOUND
     */
    static OptionalLong word(Downcall downcall) {
        try (Arena arena = Arena.ofConfined(); Scratch scratch = Scratch.borrow()) {
            int status = downcall.run(scratch, arena);
            if (status == NOT_FOUND) {
                return OptionalLong.empty();
            }
            check(status, scratch);
            return OptionalLong.of(scratch.word.get(ValueLayout.JAVA_LONG, 0));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    static void check(int status, Scratch scratch) {
        if (status != OK) {
            throw RocksDbException.of(status, scratch.message());
        }
    }

    /** Rethrows what a downcall threw: unchecked as it is, anything else wrapped. */
    static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("unexpected checked exception from a downcall", t);
    }

    /** The address of one of libpinrock.so's functions (loaded by this class's loader). */
    private static MemorySegment address(String function) {
        NativeLibrary.load();
        Optional<MemorySegment> found = SymbolLookup.loaderLookup().find(function);
        if (found.isEmpty()) {
            throw new UnsatisfiedLinkError("unresolved symbol: " + function);
        }
        return found.get();
    }

    /**
     * The generated descriptor of a pinrock function with the pointer
     * arguments at the given positions taken as plain addresses (JAVA_LONG,
     * passed as a pointer is on the 64-bit Linux ABI). The linker acquires,
     * checks and releases the memory session of every segment argument, a
     * few calls each that C2 did not inline into the gets; that guards
     * memory another thread could free during the call. Only what needs no
     * such guard goes as an address: handles, which were bare addresses
     * already (a database's ResourceGuard holds off its closing), and the
     * borrowed Scratch's buffers (reachable from the call that uses them).
     *
     * @throws IllegalStateException if an argument at those positions is not a pointer
     */
    private static FunctionDescriptor rawAddresses(FunctionDescriptor generated, int... positions) {
        MemoryLayout[] arguments = generated.argumentLayouts().toArray(new MemoryLayout[0]);
        for (int position : positions) {
            if (!(arguments[position] instanceof AddressLayout)) {
                throw new IllegalStateException("argument " + position + " of " + generated + " is not a pointer");
            }
            arguments[position] = ValueLayout.JAVA_LONG;
        }
        // Not Optional.map: a lambda is one more class generated at the first get.
        Optional<MemoryLayout> result = generated.returnLayout();
        return result.isPresent() ? FunctionDescriptor.of(result.get(), arguments) : FunctionDescriptor.ofVoid(arguments);
    }
}
