/*
 * pinrock.h: the whole C ABI of pinrock, a thin shim over the RocksDB C++ API.
 *
 * Conventions:
 *  1. Opaque handles are pr_<noun>_t; functions are pr_<noun>_<verb>.
 *  2. Keys and values cross as (const uint8_t* ptr, size_t len); paths and
 *     property names as NUL-terminated UTF-8. Only fixed-width integer types,
 *     double, size_t and pointers appear (char only behind a pointer: its
 *     signedness differs between CPUs), so one generated binding serves
 *     every 64-bit Linux, x86-64 and aarch64 alike. A key may be at most PR_MAX_KEY_BYTES (8 MiB) and
 *     a value 2^32 - 1 bytes (RocksDB stores 32-bit lengths); a longer one
 *     fails the call (or the batch holding it) with
 *     PR_CODE_INVALID_ARGUMENT before RocksDB sees it. RocksDB allows keys
 *     near 4 GiB, but a flush holds about 14 copies of the longest key in
 *     memory at once (a flush of one 128 MiB key peaks near 2 GB), so
 *     pinrock bounds keys well below that.
 *  3. Every create/open has a destroy/close. Memory the shim allocates is
 *     freed only by the shim. Destroy/close functions accept NULL; every
 *     other pointer argument must be valid unless its comment says it may
 *     be NULL (a (ptr, len) pair with len 0 may pass NULL).
 *  4. Nothing throws across the boundary: a `catch (...)` guards every entry
 *     point. Every fallible call returns an int32_t status: PR_OK (0) on
 *     success, otherwise RocksDB's Status::Code in bits 0-7 and its SubCode
 *     in bits 8-15 (read them with PR_STATUS_CODE / PR_STATUS_SUBCODE).
 *     Such calls take (char* err, size_t err_cap): on failure the status
 *     message is written there, truncated to err_cap - 1 bytes and
 *     NUL-terminated; err may be NULL when err_cap is 0. On success err is
 *     left untouched.
 *  5. Not-found is a return value (PR_NOT_FOUND), not an error: no message
 *     is written for it.
 *  6. No call blocks on a callback into the caller, and no call keeps a
 *     pointer to caller memory after it returns, unless its comment says so.
 *  7. Unless its comment says otherwise, a function on a pr_db_t may be
 *     called from many threads at once; pr_db_close must not race with any
 *     other call on the same handle (the caller serializes it).
 */
#ifndef PINROCK_H
#define PINROCK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest key pinrock accepts (convention 2). */
#define PR_MAX_KEY_BYTES 8388608

#if defined(PINROCK_BUILDING)
#define PR_API __attribute__((visibility("default")))
#else
#define PR_API
#endif

/* ---- status codes --------------------------------------------------------
 * Values of PR_STATUS_CODE(status). 0-15 are RocksDB's Status::Code values;
 * PR_CODE_INTERNAL is pinrock's own: a C++ exception (e.g. std::bad_alloc)
 * caught at the boundary. */
enum pr_code {
  PR_CODE_OK = 0,
  PR_CODE_NOT_FOUND = 1,
  PR_CODE_CORRUPTION = 2,
  PR_CODE_NOT_SUPPORTED = 3,
  PR_CODE_INVALID_ARGUMENT = 4,
  PR_CODE_IO_ERROR = 5,
  PR_CODE_MERGE_IN_PROGRESS = 6,
  PR_CODE_INCOMPLETE = 7,
  PR_CODE_SHUTDOWN_IN_PROGRESS = 8,
  PR_CODE_TIMED_OUT = 9,
  PR_CODE_ABORTED = 10,
  PR_CODE_BUSY = 11,
  PR_CODE_EXPIRED = 12,
  PR_CODE_TRY_AGAIN = 13,
  PR_CODE_COMPACTION_TOO_LARGE = 14,
  PR_CODE_COLUMN_FAMILY_DROPPED = 15,
  PR_CODE_INTERNAL = 100
};

/* Values of PR_STATUS_SUBCODE(status): RocksDB's Status::SubCode values. */
enum pr_subcode {
  PR_SUBCODE_NONE = 0,
  PR_SUBCODE_MUTEX_TIMEOUT = 1,
  PR_SUBCODE_LOCK_TIMEOUT = 2,
  PR_SUBCODE_LOCK_LIMIT = 3,
  PR_SUBCODE_NO_SPACE = 4,
  PR_SUBCODE_DEADLOCK = 5,
  PR_SUBCODE_STALE_FILE = 6,
  PR_SUBCODE_MEMORY_LIMIT = 7,
  PR_SUBCODE_SPACE_LIMIT = 8,
  PR_SUBCODE_PATH_NOT_FOUND = 9,
  PR_SUBCODE_MERGE_OPERANDS_INSUFFICIENT_CAPACITY = 10,
  PR_SUBCODE_MANUAL_COMPACTION_PAUSED = 11,
  PR_SUBCODE_OVERWRITTEN = 12,
  PR_SUBCODE_TXN_NOT_PREPARED = 13,
  PR_SUBCODE_IO_FENCED = 14,
  PR_SUBCODE_MERGE_OPERATOR_FAILED = 15,
  PR_SUBCODE_MERGE_OPERAND_THRESHOLD_EXCEEDED = 16
};

#define PR_OK 0
#define PR_NOT_FOUND 1
#define PR_STATUS_CODE(status) ((status) & 0xff)
#define PR_STATUS_SUBCODE(status) (((status) >> 8) & 0xff)

/* Compression types: RocksDB's CompressionType values. */
enum pr_compression {
  PR_COMPRESSION_NONE = 0,
  PR_COMPRESSION_SNAPPY = 1,
  PR_COMPRESSION_ZLIB = 2,
  PR_COMPRESSION_BZIP2 = 3,
  PR_COMPRESSION_LZ4 = 4,
  PR_COMPRESSION_LZ4HC = 5,
  PR_COMPRESSION_ZSTD = 7
};

/* Bottommost compression only: use the same type as the other levels. */
#define PR_COMPRESSION_INHERIT (-1)

/* ---- engine ---------------------------------------------------------------- */

/* Returns the RocksDB version linked into this library as
 * major * 10000 + minor * 100 + patch (e.g. 91000 for 9.10.0).
 * Never fails; thread-safe. */
PR_API int32_t pr_engine_version(void);

/* ---- options ------------------------------------------------------------
 * A pr_options_t gathers the settings pr_db_open applies. It is owned by the
 * caller, not thread-safe, and may be destroyed as soon as pr_db_open
 * returns. Defaults (those of a fresh handle):
 *   create_if_missing      0
 *   error_if_exists        0
 *   compression            PR_COMPRESSION_LZ4
 *   bottommost_compression PR_COMPRESSION_ZSTD
 *   zstd_level             3 (zstd's default)
 *   block_cache_bytes      32 MiB (0 disables the block cache)
 *   write_buffer_bytes     64 MiB
 *   max_open_files         -1 (keep every table file open)
 *   paranoid_checks        1
 *   wal_recovery_mode      PR_WAL_RECOVERY_POINT_IN_TIME
 *   merge_operator         none (a write with a merge fails)
 * and RocksDB's defaults for every other option (pr_options_set_string sets
 * those by name).
 */
typedef struct pr_options pr_options_t;

/* Returns a new options handle with the defaults above, or NULL when memory
 * is exhausted. The caller destroys it with pr_options_destroy. */
PR_API pr_options_t* pr_options_create(void);

/* Frees an options handle. NULL is accepted. */
PR_API void pr_options_destroy(pr_options_t* options);

/* Create the database directory and files when they do not exist (0 or 1). */
PR_API void pr_options_set_create_if_missing(pr_options_t* options, int32_t value);

/* Fail pr_db_open with PR_CODE_INVALID_ARGUMENT when the database exists. */
PR_API void pr_options_set_error_if_exists(pr_options_t* options, int32_t value);

/* Verify checksums and consistency aggressively at open and during reads of
 * metadata (0 or 1). */
PR_API void pr_options_set_paranoid_checks(pr_options_t* options, int32_t value);

/* What pr_db_open does with a write-ahead log whose records are damaged:
 * RocksDB's WALRecoveryMode values. */
enum pr_wal_recovery_mode {
  /* Ignore an incomplete record at the end of the log (a write cut short by
   * a crash); fail on damage anywhere else. */
  PR_WAL_RECOVERY_TOLERATE_CORRUPTED_TAIL = 0,
  /* Fail on any damaged or incomplete record. */
  PR_WAL_RECOVERY_ABSOLUTE_CONSISTENCY = 1,
  /* Recover up to the first damaged record and drop everything after it:
   * the database is consistent as of some point in time. */
  PR_WAL_RECOVERY_POINT_IN_TIME = 2,
  /* Recover every record that can be read, skipping damaged ones (salvage
   * mode: later writes may survive where earlier ones are lost). */
  PR_WAL_RECOVERY_SKIP_ANY_CORRUPTED = 3
};

/* Sets how pr_db_open replays a damaged write-ahead log. Returns PR_OK, or
 * PR_CODE_INVALID_ARGUMENT for a value outside enum pr_wal_recovery_mode. */
PR_API int32_t pr_options_set_wal_recovery_mode(pr_options_t* options, int32_t mode, char* err,
                                                size_t err_cap);

/* Sets the compression of every level but the bottommost.
 * Returns PR_OK, or PR_CODE_INVALID_ARGUMENT for a value outside
 * enum pr_compression. */
PR_API int32_t pr_options_set_compression(pr_options_t* options, int32_t type,
                                          char* err, size_t err_cap);

/* Sets the compression of the bottommost level: an enum pr_compression value
 * or PR_COMPRESSION_INHERIT. Returns PR_OK or PR_CODE_INVALID_ARGUMENT. */
PR_API int32_t pr_options_set_bottommost_compression(pr_options_t* options, int32_t type,
                                                     char* err, size_t err_cap);

/* Sets the zstd compression level of every level that uses zstd: 1..22, or
 * a negative "fast" level down to -131072. Returns PR_OK or
 * PR_CODE_INVALID_ARGUMENT when the level is outside that range. */
PR_API int32_t pr_options_set_zstd_level(pr_options_t* options, int32_t level, char* err,
                                         size_t err_cap);

/* Sets the compression of each level (enum pr_compression values; n at
 * most 7, RocksDB's number of levels). types[0] is level 0; as RocksDB sizes
 * levels dynamically, types[i] for i > 0 is the i-th level counted from the
 * one level 0 compacts into, and levels past n use types[n - 1].
 * It replaces pr_options_set_compression for those levels; the bottommost
 * level still uses the bottommost compression unless that is
 * PR_COMPRESSION_INHERIT. types is copied. Returns PR_OK or
 * PR_CODE_INVALID_ARGUMENT. */
PR_API int32_t pr_options_set_compression_per_level(pr_options_t* options, const int32_t* types,
                                                    size_t n, char* err, size_t err_cap);

/* zstd dictionary compression: each table file gets a dictionary of up to
 * max_dict_bytes (0 disables), trained with zstd's trainer on up to
 * train_bytes of sampled data (0: the samples are used as the dictionary).
 * Applies to every level. Returns PR_OK or PR_CODE_INVALID_ARGUMENT when
 * max_dict_bytes exceeds 1 GiB, train_bytes 2 GiB, or train_bytes is
 * non-zero but below max_dict_bytes. */
PR_API int32_t pr_options_set_zstd_dictionary(pr_options_t* options, uint32_t max_dict_bytes,
                                              uint32_t train_bytes, char* err, size_t err_cap);

/* Compresses each table file being written with this many threads (1..64,
 * default 1). Returns PR_OK or PR_CODE_INVALID_ARGUMENT. */
PR_API int32_t pr_options_set_compression_threads(pr_options_t* options, uint32_t threads,
                                                  char* err, size_t err_cap);

/* Sets the capacity of the database's LRU block cache in bytes; 0 disables
 * the block cache. Returns PR_OK or PR_CODE_INVALID_ARGUMENT when bytes
 * exceeds 2^62. */
PR_API int32_t pr_options_set_block_cache_bytes(pr_options_t* options, uint64_t bytes,
                                                char* err, size_t err_cap);

/* Sets the size of one memtable in bytes. Returns PR_OK or
 * PR_CODE_INVALID_ARGUMENT outside [64 KiB, 64 GiB] (RocksDB's own range).
 * RocksDB preallocates 1.1 times this on disk for each log file, so the
 * disk needs that much free beyond the data. */
PR_API int32_t pr_options_set_write_buffer_bytes(pr_options_t* options, uint64_t bytes,
                                                 char* err, size_t err_cap);

/* Sets how many table files RocksDB keeps open: -1 for all, or >= 20.
 * Returns PR_OK or PR_CODE_INVALID_ARGUMENT for other values. */
PR_API int32_t pr_options_set_max_open_files(pr_options_t* options, int32_t count,
                                             char* err, size_t err_cap);

/* What an option string sets: RocksDB's DBOptions, ColumnFamilyOptions or
 * BlockBasedTableOptions. */
enum pr_option_scope {
  PR_OPTION_SCOPE_DB = 0,
  PR_OPTION_SCOPE_FAMILY = 1,
  PR_OPTION_SCOPE_TABLE = 2
};

/* Sets options of one scope by RocksDB's own names and values, through
 * RocksDB's parsers (GetDBOptionsFromMap, GetColumnFamilyOptionsFromMap,
 * GetBlockBasedTableOptionsFromMap), as RocksDB's option strings and
 * OPTIONS files write them: "name=value;name=value", nested values in braces
 * ("compaction_options_universal={size_ratio=10}"), sizes with K, M or G.
 * Options the text does not name keep their values; a later setter or
 * string overrides an earlier one. Returns PR_OK, or PR_CODE_INVALID_ARGUMENT
 * (nothing changed) naming the text and why: it does not parse, a name the
 * scope does not have, a value RocksDB refuses, an unknown scope, or an
 * option pinrock sets itself (statistics, info_log, merge_operator,
 * comparator, the block cache, a memory budget's write_buffer_manager),
 * keeps fixed (the block-based table factory;
 * enforce_single_del_contracts: off, since enforcing it stops a database's
 * flushes and compactions at the first misused SingleDelete) or does not offer (objects RocksDB would make by name: env,
 * file_system, rate_limiter, sst_file_manager, wal_filter, listeners,
 * compaction_filter, compaction_filter_factory, sst_partitioner_factory,
 * blob_cache, block_cache_compressed, persistent_cache,
 * flush_block_policy_factory). Refused by value, in whatever spelling
 * RocksDB parses: values that change what an acknowledged write means
 * (manual_wal_flush, avoid_flush_during_shutdown, best_efforts_recovery,
 * unordered_write, allow_mmap_writes: true), layouts that cannot answer a
 * get for a key shorter than the prefix (the hash memtables prefix_hash and
 * hash_linkedlist, index_type=kHashSearch), inplace_update_support=true,
 * level-0 triggers below 0, and values that would crash the process.
 * Values RocksDB accepts but sanitizes at open (a write buffer below 64 KiB,
 * fewer than 20 open files, a level-0 trigger of 0, max_write_buffer_number
 * below 2, ...) are sanitized as RocksDB does; the typed setters refuse some
 * of them instead, and pr_db_set_options refuses them all. text is not
 * kept. */
PR_API int32_t pr_options_set_string(pr_options_t* options, int32_t scope, const char* text,
                                     char* err, size_t err_cap);

/* Reads the options the database at path was last opened with, from the
 * newest OPTIONS file RocksDB wrote there (RocksDB's LoadLatestOptions:
 * written by pinrock, RocksJava or any RocksDB program; options this RocksDB
 * does not know are skipped), as texts pr_options_set_string takes. Writes
 * into buf, each NUL-terminated and back to back: the database options,
 * then for each column family (the default one first) its name, the merge
 * operator pinrock offers that it uses ("" for none; see
 * pr_options_set_merge_operator), its comparator (a name
 * pr_options_set_comparator takes), its column family options and its
 * table options. *length receives the full length; the first min(length, buf_cap)
 * bytes are copied, so a caller can retry with a larger buffer. The texts
 * leave out what belongs to an open rather than to the database
 * (create_if_missing, create_missing_column_families, error_if_exists), what
 * pinrock sets itself (the block cache, statistics, the info log, a memory
 * budget's write buffer manager) and the objects pinrock does not offer by
 * name, which it checks instead: a database it cannot open as it was is
 * PR_CODE_INVALID_ARGUMENT naming the family and the object (a comparator
 * pr_options_set_comparator does not take, a merge operator pinrock does not offer, a
 * compaction filter (a caller's too: its code is not in the file), a
 * table format other than block-based), or naming an
 * object of another program's own that RocksDB cannot make by the name the
 * file gives (a merge operator, comparator, compaction filter, prefix
 * extractor, ...), and a file
 * whose names or values hold a NUL byte is too. Returns PR_OK,
 * PR_CODE_NOT_FOUND with a message when path holds no OPTIONS file, or
 * another RocksDB status. wal_dir is the directory the database's log files
 * are in: the one recorded, except when that one's PINROCK-OWNER names
 * another database, or it has none and the database's own directory holds
 * log files (a checkpoint's OPTIONS file names its source's log directory;
 * its log files are in its own), then empty (the database's own; see
 * pr_db_open). Reads files only; thread-safe. */
PR_API int32_t pr_options_latest(const char* path, char* buf, size_t buf_cap, uint64_t* length,
                                 char* err, size_t err_cap);

/* Sets the merge operator by the name of one of the RocksDB built-ins
 * pinrock offers: "uint64add" (little-endian 64-bit sums), "stringappend"
 * (comma-joined), "max" (bytewise maximum), "put" (last value wins),
 * "bytesxor". Returns PR_OK, or PR_CODE_INVALID_ARGUMENT naming the allowed
 * ones for any other name (RocksDB's "sortlist", which throws on an operand
 * that is not a list of numbers, and option strings included). With
 * "uint64add", pr_db_write refuses a batch merging an operand that is not 8
 * bytes; an existing value that is not 8 bytes (one put, not merged)
 * counts as 0. name is not kept after the call. */
PR_API int32_t pr_options_set_merge_operator(pr_options_t* options, const char* name, char* err,
                                             size_t err_cap);

/* Sets the order of the keys of the column families opened or created
 * with options, by the name of one of RocksDB's built-in comparators:
 * "leveldb.BytewiseComparator" (the default: by their bytes, unsigned, a
 * key before every longer key it begins) or
 * "rocksdb.ReverseBytewiseComparator" (the reverse of that). RocksDB
 * records the comparator in the database; a family opens only with the one
 * it was created with (pr_db_open and pr_db_repair return
 * PR_CODE_INVALID_ARGUMENT naming both before reading the log). Cursors
 * walk keys in that order, bounds and ranges (pr_db_delete_range,
 * pr_db_compact_range) are in it, a table file writer made with options
 * takes keys in it, and pr_db_ingest refuses a file written in another.
 * Returns PR_OK, or PR_CODE_INVALID_ARGUMENT naming the two for any other
 * name (those with a timestamp included: they change every key's format;
 * pr_options_set_comparator_object sets a comparator of the caller's).
 * name is not kept after the call. */
PR_API int32_t pr_options_set_comparator(pr_options_t* options, const char* name, char* err,
                                         size_t err_cap);

/* Collects statistics (tickers and histograms, read with pr_db_statistics)
 * at a RocksDB StatsLevel: 0 collects none (the default), 1 tickers only
 * (kExceptHistogramOrTimers), 2 no timers (kExceptTimers), 3 all but
 * detailed timers (kExceptDetailedTimers), 4 also the per-IO-activity file
 * read timers (kExceptTimeForMutex), 5 everything (kAll) except the time
 * spent waiting for the database mutex: the engine is built without
 * RocksDB's perf context, which measures it, so rocksdb.db.mutex.wait.micros
 * stays 0. Returns PR_OK or PR_CODE_INVALID_ARGUMENT for another level. */
PR_API int32_t pr_options_set_statistics(pr_options_t* options, int32_t level, char* err,
                                         size_t err_cap);

/* ---- memory budget -------------------------------------------------------
 * One memory cap shared by several databases: an LRU block cache of the
 * budget's size, with a write-buffer manager charging every memtable to that
 * same cache (RocksDB's unified memory tracking). Thread-safe; databases
 * opened with it keep their own references, so it may be destroyed while
 * they are open. */
typedef struct pr_memory_budget pr_memory_budget_t;

/* Creates a budget of total_bytes, of which at most memtable_bytes go to
 * memtables (the rest caches blocks). Returns PR_OK, or
 * PR_CODE_INVALID_ARGUMENT when total_bytes is 0 or exceeds 2^62, or
 * memtable_bytes exceeds total_bytes (0 leaves memtables uncapped). The
 * caller destroys it with pr_memory_budget_destroy. */
PR_API int32_t pr_memory_budget_create(uint64_t total_bytes, uint64_t memtable_bytes,
                                       pr_memory_budget_t** budget_out, char* err,
                                       size_t err_cap);

/* Drops the caller's reference to a budget. NULL is accepted. */
PR_API void pr_memory_budget_destroy(pr_memory_budget_t* budget);

/* Makes databases opened with these options share the budget (replacing
 * their own block cache). The options take their own reference. Returns
 * PR_OK, or PR_CODE_INTERNAL when memory is exhausted. */
PR_API int32_t pr_options_set_memory_budget(pr_options_t* options, const pr_memory_budget_t* budget,
                                            char* err, size_t err_cap);

/* Reads the bytes the budget's cache holds now, blocks and memtable charges
 * together. Never fails. */
PR_API uint64_t pr_memory_budget_usage(const pr_memory_budget_t* budget);

/* ---- shared I/O limits --------------------------------------------------
 * Two objects several databases may share, as they share a memory budget:
 * a rate limiter (RocksDB's GenericRateLimiter) capping the bytes flushes
 * and compactions write (or read, or both) per second, and an SST file
 * manager (RocksDB's SstFileManager) tracking the table files of every
 * database opened with it, capping their total size and pacing their
 * deletion. Both are thread-safe; databases opened with them keep their own
 * references, so either may be destroyed while those databases are open. */
typedef struct pr_rate_limiter pr_rate_limiter_t;
typedef struct pr_sst_file_manager pr_sst_file_manager_t;

/* What a rate limiter counts: RocksDB's RateLimiter::Mode values. */
enum pr_rate_limiter_mode {
  PR_RATE_LIMIT_READS = 0,
  PR_RATE_LIMIT_WRITES = 1,
  PR_RATE_LIMIT_ALL = 2
};

/* Creates a rate limiter granting bytes_per_second, refilled every
 * refill_period_us microseconds, giving low-priority (compaction) requests
 * precedence once in fairness times, counting what mode says; auto_tuned
 * (non-zero) lets RocksDB move the rate within [bytes_per_second / 20,
 * bytes_per_second] by demand. Returns PR_OK, or PR_CODE_INVALID_ARGUMENT
 * when refill_period_us is outside [1000, 10^7], fairness outside [1, 100],
 * mode not an enum pr_rate_limiter_mode value, or the lowest rate (auto-tuned:
 * bytes_per_second / 20) would refill less than one byte a period (RocksDB
 * would never grant a request; 0 and negative rates divide by zero). The
 * caller destroys it with pr_rate_limiter_destroy.
 * Closing a database lifts the limit, from pr_db_set_closing(db, 1) (or
 * pr_db_close) until pr_db_close returns, for every database sharing the
 * limiter: RocksDB's close waits for its flushes and compactions, which
 * could take hours under a small rate and cannot be cancelled. Requests
 * already waiting are granted at the next refill (within refill_period_us);
 * the rate set or read meanwhile is the one restored after the last close,
 * and then the limiter limits again. pr_db_open (its recovery writes the
 * log into table files) and pr_db_repair lift it the same way while they
 * run. The process's exit lifts every limiter for good (it joins RocksDB's
 * background threads). */
PR_API int32_t pr_rate_limiter_create(int64_t bytes_per_second, int64_t refill_period_us,
                                      int32_t fairness, int32_t mode, int32_t auto_tuned,
                                      pr_rate_limiter_t** limiter_out, char* err, size_t err_cap);

/* Drops the caller's reference to a rate limiter. NULL is accepted. */
PR_API void pr_rate_limiter_destroy(pr_rate_limiter_t* limiter);

/* Changes the rate of every database sharing the limiter (auto-tuned: the
 * current rate, which tuning then moves within the range fixed at
 * creation). Returns PR_OK, or PR_CODE_INVALID_ARGUMENT for a rate that
 * would refill less than one byte a period. */
PR_API int32_t pr_rate_limiter_set_bytes_per_second(pr_rate_limiter_t* limiter,
                                                    int64_t bytes_per_second, char* err,
                                                    size_t err_cap);

/* What pr_rate_limiter_read reads. */
enum pr_rate_limiter_value {
  PR_RATE_LIMITER_BYTES_PER_SECOND = 0, /* the current rate */
  PR_RATE_LIMITER_TOTAL_BYTES = 1,      /* bytes granted so far */
  PR_RATE_LIMITER_TOTAL_REQUESTS = 2    /* requests granted so far */
};

/* Reads one value of the limiter (enum pr_rate_limiter_value); -1 for any
 * other value. Never fails. */
PR_API int64_t pr_rate_limiter_read(const pr_rate_limiter_t* limiter, int32_t value);

/* Makes databases opened with these options share the limiter. The options
 * take their own reference. Returns PR_OK, or PR_CODE_INTERNAL when memory
 * is exhausted. */
PR_API int32_t pr_options_set_rate_limiter(pr_options_t* options, const pr_rate_limiter_t* limiter,
                                           char* err, size_t err_cap);

/* Creates an SST file manager over the default file system, with no space
 * limit, no compaction buffer and deletions unpaced (set them with
 * pr_sst_file_manager_set). Returns PR_OK, or PR_CODE_INTERNAL when memory
 * is exhausted. The caller destroys it with pr_sst_file_manager_destroy. */
PR_API int32_t pr_sst_file_manager_create(pr_sst_file_manager_t** manager_out, char* err,
                                          size_t err_cap);

/* Drops the caller's reference to an SST file manager. NULL is accepted. */
PR_API void pr_sst_file_manager_destroy(pr_sst_file_manager_t* manager);

/* What pr_sst_file_manager_set sets and pr_sst_file_manager_read reads. */
enum pr_sst_file_manager_value {
  /* Settable: the total size of table files past which flushes and
   * compactions fail (writes then fail with IOError "Max allowed space was
   * reached" until the limit is raised or files shrink, when RocksDB
   * resumes by itself); 0 means no limit. */
  PR_SST_MAX_ALLOWED_SPACE = 0,
  /* Settable: space a compaction leaves free for flushes and logging. */
  PR_SST_COMPACTION_BUFFER = 1,
  /* Settable and readable: bytes of obsolete files deleted per second; 0
   * deletes at once. */
  PR_SST_DELETE_RATE = 2,
  /* Readable: the total size of the table files tracked now. */
  PR_SST_TOTAL_SIZE = 3,
  /* Readable: the size of files waiting for a paced deletion. */
  PR_SST_TRASH_SIZE = 4,
  /* Readable: 1 when the total size has reached the space limit, else 0. */
  PR_SST_SPACE_LIMIT_REACHED = 5
};

/* Sets one setting (a settable enum pr_sst_file_manager_value) for every
 * database sharing the manager. Returns PR_OK, or PR_CODE_INVALID_ARGUMENT
 * for a negative value or a value that is not settable. */
PR_API int32_t pr_sst_file_manager_set(pr_sst_file_manager_t* manager, int32_t setting,
                                       int64_t value, char* err, size_t err_cap);

/* Reads one value (a readable enum pr_sst_file_manager_value); -1 for any
 * other. Never fails. */
PR_API int64_t pr_sst_file_manager_read(const pr_sst_file_manager_t* manager, int32_t value);

/* Makes databases opened with these options share the manager. The options
 * take their own reference. Returns PR_OK, or PR_CODE_INTERNAL when memory
 * is exhausted. */
PR_API int32_t pr_options_set_sst_file_manager(pr_options_t* options,
                                               const pr_sst_file_manager_t* manager, char* err,
                                               size_t err_cap);

/* ---- info log ------------------------------------------------------------
 * RocksDB's info log records what the engine does (open and recovery,
 * flushes, compactions, background errors, periodic statistics). By default
 * it goes to the file LOG in the database directory; a database opened with
 * a destination instead puts each message, tagged with it, on one queue
 * shared by the whole process, which a caller drains with pr_log_next (the
 * Java library logs them through System.Logger, or to a logger of the
 * caller's per destination). */

/* Severities: RocksDB's InfoLogLevel values. */
enum pr_log_level {
  PR_LOG_DEBUG = 0,
  PR_LOG_INFO = 1,
  PR_LOG_WARN = 2,
  PR_LOG_ERROR = 3,
  PR_LOG_FATAL = 4,
  /* The options and version RocksDB writes when a database opens. */
  PR_LOG_HEADER = 5,
  /* No message: a destination's end (see pr_options_set_info_log). */
  PR_LOG_END = 6
};

/* Sets the lowest severity RocksDB logs (PR_LOG_DEBUG .. PR_LOG_FATAL; the
 * default is PR_LOG_INFO) and where: destination 0 writes the file LOG (the
 * default); any other value queues the messages for pr_log_next, tagged
 * with it (the header is queued only at PR_LOG_INFO and below). Once the
 * destination this call sets is held by nothing any more (these options
 * destroyed or set again, and every database opened with them closed), one
 * PR_LOG_END for it is queued after all its messages, and never dropped:
 * a reader can keep what it needs per destination until then. Returns PR_OK,
 * or PR_CODE_INVALID_ARGUMENT for another level (nothing is then queued for
 * destination). */
PR_API int32_t pr_options_set_info_log(pr_options_t* options, int32_t level, uint64_t destination,
                                       char* err, size_t err_cap);

/* Takes the oldest message from the process-wide queue, waiting up to
 * timeout_ms milliseconds (0 or less: do not wait; more than a day: a day)
 * for one. Returns 1 with a message and 0 when none came in time. With a
 * message, *level receives its enum pr_log_level severity (PR_LOG_END for
 * a destination's end, whose text is empty), *destination its destination;
 * text receives "<database path>: <message>", truncated to text_cap - 1
 * bytes and NUL-terminated (text may be NULL when text_cap is 0); *dropped
 * receives how many messages were discarded since the previous call
 * returned one, because the queue (which holds the newest 4096, ends
 * aside) was full. Blocks only the calling thread; thread-safe, and each
 * message goes to one caller. Never fails. */
PR_API int32_t pr_log_next(int64_t timeout_ms, int32_t* level, uint64_t* destination, char* text,
                           size_t text_cap, uint64_t* dropped);

/* ---- database -------------------------------------------------------------- */
typedef struct pr_db pr_db_t;

/* Opens (or with create_if_missing creates) the database at path; with
 * create_if_missing the directory is created first (its parent must exist).
 * A database is its directory: a process opens it once, under whatever path
 * names it (through ".", "..", a symlink, a bind mount).
 * On PR_OK *db_out receives a handle the caller closes with pr_db_close;
 * on failure *db_out is set to NULL and the RocksDB status is returned
 * (e.g. PR_CODE_IO_ERROR when the directory is locked by another process or
 * already open in this one, or being repaired in it: "lock hold by current
 * process ... already open"; PR_CODE_INVALID_ARGUMENT when it is missing
 * and create_if_missing is 0). Thread-safe. options and path are not kept
 * after the call.
 * Every column family must be opened with the merge operator and comparator
 * the database's OPTIONS file records for it (those it was last opened
 * with; pr_options_set_family_options gives a family its own): the log may
 * hold merges only that operator applies, and a recovery meeting one it
 * cannot apply would drop it and every later write. Otherwise the open
 * returns PR_CODE_INVALID_ARGUMENT naming the family and both, before
 * anything is recovered; so it does, naming it, when the file records an
 * object RocksDB cannot make by that name (another program's own merge
 * operator, comparator, compaction filter, prefix extractor, ...), a
 * compaction filter or a table format other than block-based. A merge
 * operator may be added
 * to a family recorded without one; a database without an OPTIONS file
 * opens unchecked.
 * The log directory (option wal_dir, when it is not the database's own
 * directory under any spelling) belongs to the database too: it is made one
 * level deep and claimed in the process like the directory (PR_CODE_IO_ERROR
 * naming the database using it), and pinrock writes a PINROCK-OWNER file
 * into it naming the database directory (device, inode and path). Before
 * anything is recovered the open returns PR_CODE_INVALID_ARGUMENT naming the
 * directories when the log directory is no directory; when it belongs to
 * another database (its PINROCK-OWNER names another, it holds a CURRENT
 * file, or it holds log files that no PINROCK-OWNER accounts for, unless
 * the database's OPTIONS file records it, or records another log directory
 * that holds no log files, the logs having been moved here); when the
 * directory holds a PINROCK-OWNER naming another database; or when the
 * database's log files are in another directory than the one given (the
 * one the OPTIONS file records, or its own directory when that one is
 * another database's, as a checkpoint's is: see pr_options_latest) still
 * holds log files. Moving a log directory is moving its *.log files and its
 * PINROCK-OWNER (if any) into the new one while the database is closed. */
PR_API int32_t pr_db_open(const pr_options_t* options, const char* path, pr_db_t** db_out,
                          char* err, size_t err_cap);

/* Closes the database: stops background work, syncs what RocksDB keeps on
 * close, releases the database's files, lock and directory (it may be
 * opened again), and frees the handle, which must not be used again.
 * The handle is freed and the directory released even when the returned
 * status is an error (the error
 * reports what RocksDB could not finish cleanly). NULL returns PR_OK.
 * Pins obtained from this database stay valid after close: each holds its
 * own reference to the memory it points into.
 * The one exception to freeing: with cursors still open, pr_db_close
 * returns PR_CODE_ABORTED and does nothing, the handle stays valid.
 * The database's rate limiter does not limit while it closes
 * (pr_rate_limiter_create): the close takes as long as its flush at disk
 * speed, whatever the rate. */
PR_API int32_t pr_db_close(pr_db_t* db, char* err, size_t err_cap);

/* Marks db's database as closing (closing != 0) or open again (0). While it
 * is closing, a write waiting out a write stall (pr_db_put, pr_db_delete,
 * pr_db_write) gives up: it returns PR_CODE_SHUTDOWN_IN_PROGRESS ("the
 * database is closing") without having been applied, so that a caller about
 * to close can end the writes in flight, however long RocksDB stalls writes,
 * before pr_db_close. Writes not stalled are not affected. While it is
 * closing, its rate limiter (shared or not) does not limit, so that flushes
 * in flight end soon (pr_rate_limiter_create). Thread-safe: may be called
 * during any call on the database but pr_db_close. */
PR_API void pr_db_set_closing(pr_db_t* db, int32_t closing);

/* Changes options of the open database (PR_OPTION_SCOPE_DB: RocksDB's
 * SetDBOptions) or of db's column family (PR_OPTION_SCOPE_FAMILY:
 * SetOptions) while it runs, by RocksDB's names and values as
 * pr_options_set_string reads them; RocksDB records them in a new OPTIONS
 * file. Only options RocksDB can change while open are accepted (e.g.
 * write_buffer_size, disable_auto_compactions, level0_file_num_compaction_trigger,
 * max_background_jobs, bytes_per_sync). Returns PR_OK, or
 * PR_CODE_INVALID_ARGUMENT (nothing changed) for what pr_options_set_string
 * refuses, an option RocksDB cannot change while open, a value an open would
 * have corrected (RocksDB's SanitizeOptions: it takes such a value as it is
 * while open, and a level-0 stop trigger of 0 or max_write_buffer_number=0
 * stops writes for good; the message says what an open would use), or the
 * table scope (table options are fixed while open); another RocksDB status when writing
 * the OPTIONS file fails. text is not kept. Thread-safe with any call on the
 * database but pr_db_close. Implemented in options.cc. */
PR_API int32_t pr_db_set_options(pr_db_t* db, int32_t scope, const char* text, char* err,
                                 size_t err_cap);

/* Changes, as pr_db_set_options does, every option of scope
 * (PR_OPTION_SCOPE_DB or PR_OPTION_SCOPE_FAMILY) that options sets: each
 * option its option strings of that scope name, with the last value given,
 * and each option a typed setter set to other than its default (what differs
 * from pr_options_create's options with those strings applied), the typed
 * value winning over a string's as at open. Setting nothing changes nothing
 * and returns PR_OK. Returns PR_CODE_INVALID_ARGUMENT, changing nothing and
 * naming them, when options also set options of another scope (the table
 * scope's are fixed while open), or what only an open takes (a block cache
 * size, memory budget, rate limiter, SST file manager, merge operator,
 * statistics, the info log's destination, named families' options), and as
 * pr_db_set_options for the options changed. options is not kept.
 * Thread-safe with any call on the database but pr_db_close; options must
 * not change meanwhile. Implemented in options.cc. */
PR_API int32_t pr_db_set_options_from(pr_db_t* db, int32_t scope, const pr_options_t* options,
                                      char* err, size_t err_cap);

/* Writes key -> value. Returns PR_OK or a RocksDB status. Like every write
 * (pr_db_delete, pr_db_write without PR_WRITE_NO_SLOWDOWN), it waits while
 * RocksDB stalls writes, polling every 10 ms at most, and returns the
 * background error once one stops writes (a full disk: PR_CODE_IO_ERROR),
 * or PR_CODE_SHUTDOWN_IN_PROGRESS unapplied once the database is closing
 * (pr_db_set_closing). */
PR_API int32_t pr_db_put(pr_db_t* db, const uint8_t* key, size_t key_len, const uint8_t* value,
                         size_t value_len, char* err, size_t err_cap);

/* Deletes key (deleting an absent key succeeds). Returns PR_OK or a RocksDB
 * status. */
PR_API int32_t pr_db_delete(pr_db_t* db, const uint8_t* key, size_t key_len, char* err,
                            size_t err_cap);

/* Write flags (bitwise or): */
/* wait until the write reaches stable storage (fsync of the WAL) */
#define PR_WRITE_SYNC 1
/* skip the write-ahead log: the write survives a crash only once flushed */
#define PR_WRITE_DISABLE_WAL 2
/* fail with PR_CODE_INCOMPLETE instead of waiting when writes are stalled */
#define PR_WRITE_NO_SLOWDOWN 4

/* Applies a write batch atomically: all of its operations or none.
 * batch is RocksDB's WriteBatch representation (a 12-byte header of
 * sequence number and count, then one record per operation), built by the
 * caller; put, delete, single delete, delete range and merge records are
 * accepted, for the default family or, in the column-family forms, for any
 * open family (pr_db_family_id), whichever handle of the database db is.
 * The whole batch is parsed before anything is written: a malformed batch
 * returns PR_CODE_CORRUPTION; a record for a family that is not open, a
 * delete range whose end key comes before its begin key (begin == end is
 * an empty range, accepted), a merge into a family without a merge
 * operator, or a merge operand of another length than 8 bytes into a
 * "uint64add" family returns PR_CODE_INVALID_ARGUMENT; either way nothing
 * is applied. A single delete of a key that was deleted, merged, put more
 * than once or single-deleted since its last put leaves that key's value
 * undefined (RocksDB's contract), and nothing else: other keys, flushes,
 * compactions and reopening are unaffected.
 * flags are PR_WRITE_* bits. The batch is copied; it is not kept. */
PR_API int32_t pr_db_write(pr_db_t* db, const uint8_t* batch, size_t batch_len, uint32_t flags,
                           char* err, size_t err_cap);

/* A pinned value: RocksDB memory kept alive until pr_pin_release. */
typedef struct pr_pin pr_pin_t;

/* What pr_db_get found. */
typedef struct pr_get_result {
  /* Length of the value in bytes, whether or not it was copied. */
  uint64_t value_len;
  /* The value's bytes: buf when it was copied, the pinned memory when pin is
   * set, NULL when it was neither copied nor pinned. */
  const uint8_t* data;
  /* Non-NULL when the value was pinned; the caller releases it with
   * pr_pin_release. */
  pr_pin_t* pin;
} pr_get_result_t;

/* pr_db_get flag: pin the value when it does not fit in buf. */
#define PR_GET_PIN_IF_LARGER 1

/* Reads key in one call. Returns PR_NOT_FOUND when the key is absent, PR_OK
 * when it is present, otherwise a RocksDB status. On PR_OK *result says
 * where the value went:
 *  - value_len <= buf_cap: copied into buf, data == buf, pin == NULL;
 *  - otherwise, with PR_GET_PIN_IF_LARGER in flags: pinned, data points at
 *    the value inside RocksDB's memory and pin must be released with
 *    pr_pin_release; the memory stays valid until then, even after the
 *    database is closed;
 *  - otherwise: nothing is copied, data == NULL and pin == NULL, so the
 *    caller can size a buffer from value_len and retry.
 * buf may be NULL when buf_cap is 0. */
PR_API int32_t pr_db_get(pr_db_t* db, const uint8_t* key, size_t key_len, uint8_t* buf,
                         size_t buf_cap, uint32_t flags, pr_get_result_t* result, char* err,
                         size_t err_cap);

/* ---- events and background errors -----------------------------------------
 * RocksDB tells its EventListeners what it does: flushes and compactions
 * begun and completed, table files created and deleted, memtables sealed,
 * files ingested, write stalls, background errors and the recoveries from
 * them. A database opened with an event destination puts each such event,
 * encoded and tagged with the destination, on one queue shared by the whole
 * process, which a caller drains with pr_event_next: RocksDB's threads never
 * wait for the reader, and no event calls back.
 *
 * An event's payload is its fields in the order its kind lists, each an
 * int64 in native byte order, a string (its length as an int64, then its
 * bytes, no NUL) or a list (its count as an int64, then its elements). A
 * status is an int64 pinrock status (PR_OK or a code with a sub-code, as
 * the functions return) followed by a string, the message (empty for
 * PR_OK). Every payload begins with the database's path, a string; the
 * kinds list what follows it. Reasons and conditions are RocksDB's enum
 * values (rocksdb/listener.h, rocksdb/types.h). Job ids link a flush's or
 * compaction's events to the files it creates. */
enum pr_event_kind {
  /* No event: a destination's end (see pr_options_set_event_listener). */
  PR_EVENT_END = 0,
  /* family (string), file path (string, empty when begun), job id,
   * triggered writes slowdown (0/1), triggered writes stop (0/1), smallest
   * and largest sequence numbers, reason (rocksdb::FlushReason), entries
   * and deletions written (0 when begun). */
  PR_EVENT_FLUSH_BEGUN = 1,
  PR_EVENT_FLUSH_COMPLETED = 2,
  /* family (string), status (PR_OK when begun), job id, base input level,
   * output level, reason (rocksdb::CompactionReason), input files and
   * output files (lists of: path (string), level, file number; outputs
   * empty when begun), elapsed microseconds, records read, records
   * written, bytes read, bytes written (0 when begun). */
  PR_EVENT_COMPACTION_BEGUN = 3,
  PR_EVENT_COMPACTION_COMPLETED = 4,
  /* reason (rocksdb::BackgroundErrorReason), status: the error that
   * stopped writes (with pr_options_set_auto_recovery's default, RocksDB
   * tries to recover from the errors it can by itself; otherwise
   * pr_db_resume). */
  PR_EVENT_BACKGROUND_ERROR = 5,
  /* the error recovered from (status), and the error after the attempt
   * (status: PR_OK when writes are accepted again). */
  PR_EVENT_ERROR_RECOVERY_ENDED = 6,
  /* family (string), the condition now and before
   * (rocksdb::WriteStallCondition: 0 delayed, 1 stopped, 2 normal). */
  PR_EVENT_WRITE_STALL_CHANGED = 7,
  /* family (string), file path (string), job id, reason
   * (rocksdb::TableFileCreationReason), status, file size in bytes,
   * entries, deletions. */
  PR_EVENT_TABLE_FILE_CREATED = 8,
  /* file path (string), job id, status. */
  PR_EVENT_TABLE_FILE_DELETED = 9,
  /* family (string), first sequence number, earliest sequence number,
   * entries, deletions. */
  PR_EVENT_MEMTABLE_SEALED = 10,
  /* family (string), the external file's path (string), its path in the
   * database (string), its global sequence number, entries. */
  PR_EVENT_EXTERNAL_FILE_INGESTED = 11
};

/* Makes databases opened with options queue their events for
 * pr_event_next, tagged with destination (not 0); 0 queues none (the
 * default). Once the destination this call sets is held by nothing any
 * more (these options destroyed or set again, and every database opened
 * with them closed), one PR_EVENT_END for it is queued after all its
 * events, and never dropped: a reader can keep what it needs per
 * destination until then. Returns PR_OK, or PR_CODE_INTERNAL when memory
 * is exhausted. */
PR_API int32_t pr_options_set_event_listener(pr_options_t* options, uint64_t destination,
                                             char* err, size_t err_cap);

/* Sets whether databases opened with options recover by themselves from
 * the background errors RocksDB can recover from (an out-of-space, a
 * retryable I/O error): non-zero (the default) lets RocksDB try; 0 leaves
 * such a database refusing writes until pr_db_resume (and overrides the
 * option max_bgerror_resume_count with 0). Returns PR_OK. */
PR_API int32_t pr_options_set_auto_recovery(pr_options_t* options, int32_t auto_recovery,
                                            char* err, size_t err_cap);

/* An event taken from the queue; the caller frees it with pr_event_free. */
typedef struct pr_event pr_event_t;

/* Takes the oldest event from the process-wide queue, waiting up to
 * timeout_ms milliseconds (0 or less: do not wait; more than a day: a day)
 * for one. Returns it, or NULL when none came in time. *kind receives its
 * enum pr_event_kind, *destination its destination, *payload and
 * *payload_len its encoded fields (valid until pr_event_free; empty for
 * PR_EVENT_END), *dropped how many events were discarded since the previous
 * call returned one, because the queue (which holds the newest 4096, ends
 * aside) was full. Blocks only the calling thread; thread-safe, and each
 * event goes to one caller. Never fails (out of memory: NULL). */
PR_API pr_event_t* pr_event_next(int64_t timeout_ms, int32_t* kind, uint64_t* destination,
                                 const uint8_t** payload, size_t* payload_len,
                                 uint64_t* dropped);

/* Frees an event. NULL is accepted. */
PR_API void pr_event_free(pr_event_t* event);

/* Asks RocksDB to recover from the background error that stopped the
 * database's writes (RocksDB's DB::Resume): flushes what it must, and
 * accepts writes again. Returns PR_OK when it recovered or had nothing to
 * recover from, otherwise RocksDB's status (the error persists: an
 * unrecoverable one, a full disk still full). Thread-safe. */
PR_API int32_t pr_db_resume(pr_db_t* db, char* err, size_t err_cap);

/* ---- bulk load: table files built outside a database, then ingested ---- */

/* A writer of one sorted table file (SST). Not thread-safe. */
typedef struct pr_sst_writer pr_sst_writer_t;

/* Opens a writer of a new table file at path, compressed as options say
 * (options may be NULL for the defaults). Returns PR_OK with *writer_out
 * set, or a status; the caller destroys the writer with
 * pr_sst_writer_destroy. options and path are not kept. */
PR_API int32_t pr_sst_writer_open(const pr_options_t* options, const char* path,
                                  pr_sst_writer_t** writer_out, char* err, size_t err_cap);

/* Adds key -> value. Keys must come in strictly ascending order, by the
 * comparator of the options the writer was opened with (bytewise by
 * default): otherwise PR_CODE_INVALID_ARGUMENT and nothing is added. */
PR_API int32_t pr_sst_writer_put(pr_sst_writer_t* writer, const uint8_t* key, size_t key_len,
                                 const uint8_t* value, size_t value_len, char* err,
                                 size_t err_cap);

/* Adds a deletion of key, under the same ordering rule as pr_sst_writer_put. */
PR_API int32_t pr_sst_writer_delete(pr_sst_writer_t* writer, const uint8_t* key, size_t key_len,
                                    char* err, size_t err_cap);

/* Completes the file and writes its size into *file_size. An empty writer
 * cannot finish (PR_CODE_INVALID_ARGUMENT). Nothing may be added afterwards. */
PR_API int32_t pr_sst_writer_finish(pr_sst_writer_t* writer, uint64_t* file_size, char* err,
                                    size_t err_cap);

/* Frees the writer; an unfinished file is left incomplete. NULL is accepted. */
PR_API void pr_sst_writer_destroy(pr_sst_writer_t* writer);

/* pr_db_ingest flag: move the files into the database (a hard link, then
 * the original name is removed) instead of copying them. */
#define PR_INGEST_MOVE 1

/* Adds finished table files (paths[0..n-1], n >= 1) to the database
 * atomically; for a key in several of them the file later in paths wins
 * (files whose key ranges overlap are accepted), and an ingested key wins
 * over the database's own. Returns PR_OK or a status
 * (PR_CODE_INVALID_ARGUMENT when n is 0). The paths are not kept. */
PR_API int32_t pr_db_ingest(pr_db_t* db, const char* const* paths, size_t n, uint32_t flags,
                            char* err, size_t err_cap);

/* ---- snapshots and read options ------------------------------------------ */

/* A consistent point-in-time view of a database. */
typedef struct pr_snapshot pr_snapshot_t;

/* Takes a snapshot of the database's current state into *snapshot_out.
 * Returns PR_OK or a status. The caller releases it with
 * pr_db_snapshot_release before closing the database (pr_db_close with a
 * snapshot outstanding reports PR_CODE_ABORTED and leaks it). */
PR_API int32_t pr_db_snapshot_create(pr_db_t* db, pr_snapshot_t** snapshot_out, char* err,
                                     size_t err_cap);

/* Releases a snapshot taken from the same database. It must not be in use
 * by a read running on another thread. NULL is accepted. */
PR_API void pr_db_snapshot_release(pr_db_t* db, pr_snapshot_t* snapshot);

/* Read flags (bitwise or) for pr_db_get_at and pr_cursor_open: */
/* do not add the blocks read to the block cache (e.g. for scans) */
#define PR_READ_SKIP_FILL_CACHE 1
/* do not verify block checksums (RocksDB verifies by default) */
#define PR_READ_SKIP_CHECKSUMS 2
/* answer from memory only: PR_CODE_INCOMPLETE when a read would need I/O */
#define PR_READ_MEMORY_ONLY 4
/* cursors only: prefetch the next blocks asynchronously while the caller
 * consumes the current ones (RocksDB's async_io) */
#define PR_READ_ASYNC_IO 8
/* cursors over a database or family only: RocksDB's tailing iterator,
 * which reads the latest state rather than the state at its opening (a
 * seek sees writes made since, with no refresh) and moves forward only:
 * PR_CURSOR_LAST, PR_CURSOR_SEEK_FOR_PREV, PR_CURSOR_PREV and a reverse
 * pr_cursor_scan return PR_CODE_NOT_SUPPORTED, the cursor where it was;
 * pr_cursor_refresh returns PR_CODE_NOT_SUPPORTED. Opening one as of a
 * snapshot, or over a transaction or batch with index, returns
 * PR_CODE_INVALID_ARGUMENT. Point reads ignore it. */
#define PR_READ_TAILING 16

/* pr_db_get with read options: reads as of snapshot (NULL: the latest
 * state) with PR_READ_* read_flags; everything else as pr_db_get.
 * With PR_READ_MEMORY_ONLY the call does no I/O and never calls back into
 * the caller's runtime (a family whose merge operator or comparator is the
 * caller's answers PR_CODE_INCOMPLETE at once), so a binding may make it without a
 * thread-state transition (a critical downcall) and fall back to a normal
 * call when it answers PR_CODE_INCOMPLETE. */
PR_API int32_t pr_db_get_at(pr_db_t* db, const pr_snapshot_t* snapshot, uint32_t read_flags,
                            const uint8_t* key, size_t key_len, uint8_t* buf, size_t buf_cap,
                            uint32_t flags, pr_get_result_t* result, char* err, size_t err_cap);

/* pr_db_multi_get: value_offsets[i] for a value that did not fit in buf. */
#define PR_MULTI_GET_NOT_COPIED UINT64_MAX

/* Reads n keys in one call over RocksDB's batched MultiGet. Key i is
 * (keys[i], key_lens[i]). For each i, statuses[i] is PR_OK, PR_NOT_FOUND or
 * the RocksDB status of that key (no message). Found values are copied into
 * buf one after another, in key order, while they fit: value_offsets[i] is
 * where value i starts in buf and value_lens[i] its length; a found value
 * that does not fit gets value_offsets[i] = PR_MULTI_GET_NOT_COPIED (and its
 * length, so the caller can size buf and retry). Returns PR_OK when the
 * call ran (even if some keys failed), otherwise a status for the whole
 * call. The arrays are the caller's, each of n elements; none is kept. */
PR_API int32_t pr_db_multi_get(pr_db_t* db, size_t n, const uint8_t* const* keys,
                               const size_t* key_lens, uint8_t* buf, size_t buf_cap,
                               uint64_t* value_offsets, uint64_t* value_lens, int32_t* statuses,
                               char* err, size_t err_cap);

/* Reads n keys in one call over RocksDB's batched MultiGet, pinning the
 * found values instead of copying them. For each i, statuses[i] is PR_OK,
 * PR_NOT_FOUND or the RocksDB status of key i (no message); on PR_OK,
 * results[i] holds the value's length, its data in RocksDB's memory and
 * its pin, which the caller releases with pr_pin_release (the data stays
 * valid until then, even after the database closes); otherwise results[i]
 * is all zero. Returns PR_OK when the call ran, otherwise a status for the
 * whole call (and no pins). The arrays are the caller's, each of n
 * elements; none is kept. */
PR_API int32_t pr_db_multi_get_pinned(pr_db_t* db, size_t n, const uint8_t* const* keys,
                                      const size_t* key_lens, pr_get_result_t* results,
                                      int32_t* statuses, char* err, size_t err_cap);

/* pr_db_multi_get with read options and, optionally, a column family per
 * key: it reads as of snapshot (NULL: the latest state) with PR_READ_*
 * read_flags, and key i from families[i] when families is not NULL (each a
 * family handle of db's database, db's own included), from db's family
 * otherwise; one batched RocksDB MultiGet either way. A family of another
 * database returns PR_CODE_INVALID_ARGUMENT and reads nothing. With
 * PR_READ_MEMORY_ONLY a key that needs I/O gets PR_CODE_INCOMPLETE (the
 * keys are then read one by one, not batched). Everything else as
 * pr_db_multi_get. families is not kept. Implemented in reads.cc. */
PR_API int32_t pr_db_multi_get_with(pr_db_t* db, const pr_snapshot_t* snapshot, uint32_t read_flags,
                                    pr_db_t* const* families, size_t n, const uint8_t* const* keys,
                                    const size_t* key_lens, uint8_t* buf, size_t buf_cap,
                                    uint64_t* value_offsets, uint64_t* value_lens,
                                    int32_t* statuses, char* err, size_t err_cap);

/* pr_db_multi_get_pinned with read options and, optionally, a column family
 * per key, as pr_db_multi_get_with takes them; each pin keeps its own
 * family's block cache alive. Implemented in reads.cc. */
PR_API int32_t pr_db_multi_get_pinned_with(pr_db_t* db, const pr_snapshot_t* snapshot,
                                           uint32_t read_flags, pr_db_t* const* families, size_t n,
                                           const uint8_t* const* keys, const size_t* key_lens,
                                           pr_get_result_t* results, int32_t* statuses, char* err,
                                           size_t err_cap);

/* Releases a pin from pr_db_get or pr_db_multi_get_pinned; its data must not be read afterwards.
 * NULL is accepted. Thread-safe with respect to other pins and databases. */
PR_API void pr_pin_release(pr_pin_t* pin);

/* Writes the memtables to table files and waits for it to finish.
 * Returns PR_OK or a RocksDB status. */
PR_API int32_t pr_db_flush(pr_db_t* db, char* err, size_t err_cap);

/* Key-range bounds for pr_db_compact_range (bitwise or): without
 * PR_RANGE_HAS_BEGIN the range starts before the first key, without
 * PR_RANGE_HAS_END it ends after the last one (an empty key is a key). */
#define PR_RANGE_HAS_BEGIN 1
#define PR_RANGE_HAS_END 2
/* For the opens of cursors: the bounds are a key prefix's, in bytewise
 * order (lower the prefix, upper the smallest key after every key it
 * begins, if any): refused with PR_CODE_INVALID_ARGUMENT over a family
 * whose keys are in another order, where they would not bound the keys
 * that begin with the prefix. */
#define PR_RANGE_PREFIX 4

/* Compacts the keys in [begin, end) (bounds per PR_RANGE_* flags) down the
 * LSM tree, rewriting the files of the last level too (so the data is
 * rewritten with the current options, not just moved), and waits until that
 * is done. Returns PR_OK or a RocksDB status. */
PR_API int32_t pr_db_compact_range(pr_db_t* db, const uint8_t* begin, size_t begin_len,
                                   const uint8_t* end, size_t end_len, uint32_t bounds, char* err,
                                   size_t err_cap);

/* Estimates the bytes that keys in [begin, end) occupy, in table files and
 * in memtables, into *size. Returns PR_OK or a RocksDB status. */
PR_API int32_t pr_db_approximate_size(pr_db_t* db, const uint8_t* begin, size_t begin_len,
                                      const uint8_t* end, size_t end_len, uint64_t* size,
                                      char* err, size_t err_cap);

/* Writes a consistent, openable copy of the open database into the new
 * directory path (its parent must exist; it must not). Table files are hard
 * links when path is on the same file system, so a checkpoint is cheap.
 * Returns PR_OK or a RocksDB status (PR_CODE_INVALID_ARGUMENT when path
 * exists). path is not kept after the call. The checkpoint's log files are
 * in its own directory, whatever the database's log directory: its OPTIONS
 * file names that one all the same, and pr_db_open refuses it (see
 * pr_db_open; pr_options_latest names the right one). */
PR_API int32_t pr_db_checkpoint(pr_db_t* db, const char* path, char* err, size_t err_cap);

/* Reads an integer property such as "rocksdb.estimate-num-keys" into
 * *value. Returns PR_NOT_FOUND when RocksDB knows no integer property of
 * that name. Names are RocksDB 9.10's (DB::Properties), spelled exactly;
 * the ones ending in a level or temperature (e.g.
 * "rocksdb.num-files-at-level<N>") take N as a decimal 0..255 without sign,
 * spaces or leading zeros, and answer PR_NOT_FOUND for a level the family
 * does not have. Any other name, malformed or unknown, answers PR_NOT_FOUND
 * without reaching RocksDB (which reads a level of 2^31 out of bounds). */
PR_API int32_t pr_db_property_int(pr_db_t* db, const char* name, uint64_t* value, char* err,
                                  size_t err_cap);

/* Reads a string property such as "rocksdb.stats" or
 * "rocksdb.estimate-num-keys". Returns PR_NOT_FOUND when RocksDB does not
 * know the name (names are checked as by pr_db_property_int), otherwise PR_OK with *value_len set to the value's full
 * length and its first min(value_len, buf_cap) bytes copied into buf (not
 * NUL-terminated), so a caller whose buffer was too small can retry. */
PR_API int32_t pr_db_property(pr_db_t* db, const char* name, char* buf, size_t buf_cap,
                              uint64_t* value_len, char* err, size_t err_cap);

/* ---- column families -------------------------------------------------------
 * A database holds one or more column families: separate key spaces with
 * their own options, written atomically together by one batch. pr_db_open
 * opens every family the database has. Each family is reached through its
 * own pr_db_t: the keyed calls (put, delete, get, get_at, multi_get, flush,
 * compact_range, approximate_size, the properties, ingest, cursor_open) act
 * on the family of the handle they are given; the database-wide ones
 * (write, snapshots, checkpoint, statistics, memory usage) act on the whole
 * database through any of its handles. The handle pr_db_open returns is the
 * default family ("default"); the others belong to the database and are
 * freed when it closes (pr_db_close refuses them), or a dropped family's by
 * pr_db_family_release. */

/* Opens the existing column family name with family_options instead of
 * these options (pr_db_open, pr_db_repair; the database-wide settings such
 * as create_if_missing, max_open_files and statistics come from these
 * options alone). A family created with a merge operator of its own must be
 * given it here on every open (pr_db_open refuses otherwise).
 * family_options is copied. Returns PR_OK or PR_CODE_INTERNAL. */
PR_API int32_t pr_options_set_family_options(pr_options_t* options, const char* name,
                                             const pr_options_t* family_options, char* err,
                                             size_t err_cap);

/* Lists the column families of the database at path, which need not be
 * open: their names, each NUL-terminated, back to back, into buf (as many
 * bytes as fit); *names_len receives the bytes all of them need. Returns
 * PR_OK or a RocksDB status (PR_CODE_IO_ERROR or PR_CODE_INVALID_ARGUMENT
 * when there is no database). options may be NULL. */
PR_API int32_t pr_db_list_families(const pr_options_t* options, const char* path, char* buf,
                                   size_t buf_cap, uint64_t* names_len, char* err,
                                   size_t err_cap);

/* Rebuilds the metadata of the closed database at path from the table and
 * log files it finds (RocksDB's RepairDB): for a database whose MANIFEST or
 * CURRENT file is lost or damaged. Data in damaged table files and what the
 * lost metadata alone knew (e.g. which files were obsolete) may not come
 * back; files it cannot use are moved to path/lost. Refuses a database
 * open anywhere: returns PR_CODE_IO_ERROR when another process holds its
 * lock or this process has it open (under any path naming the directory);
 * an open of it while the repair runs fails the same way. Returns PR_OK,
 * PR_CODE_INVALID_ARGUMENT when path is not a directory, or a RocksDB
 * status.
 * options may be NULL; they must be those the database is opened with:
 * each family named with pr_options_set_family_options is repaired with
 * its own options, the others with these, and a family whose merge
 * operator differs from the database's OPTIONS file, or a file recording
 * an object RocksDB cannot make by name, a compaction filter or a table
 * format other than block-based, is refused as pr_db_open refuses it
 * (PR_CODE_INVALID_ARGUMENT), and so is a log directory (wal_dir)
 * pr_db_open refuses. A database whose
 * metadata is intact (it names every table file in the directory, as a
 * read-only open finds) is first opened once, so that its own recovery
 * writes the log into table files: such a repair keeps every acknowledged
 * write. Stale metadata is never opened writable, which would delete the
 * table files it does not name. That opening also compacts each family
 * holding an ingested table file, which RepairDB cannot take (the file names
 * no family, and only the metadata places its entries among the writes).
 * Every family the database had (its metadata names, or else its newest
 * OPTIONS file) is there afterwards, an empty one recreated empty.
 * Without the metadata, a family is known by its table files alone: writes
 * only in the log of a family with no table file yet are lost, with the
 * batches that hold them, and an ingested file not compacted since is moved
 * to path/lost. A database that may keep values in blob files is refused
 * with PR_CODE_NOT_SUPPORTED before anything changes (RepairDB takes table
 * and log files only; the next open would delete the blob files, and every
 * value in them): a blob file in the directory, a family whose newest
 * OPTIONS file enables blob files, or options that enable them. */
PR_API int32_t pr_db_repair(const pr_options_t* options, const char* path, char* err,
                            size_t err_cap);

/* Names the open (not dropped) column families of db's database, as
 * pr_db_list_families does. Thread-safe. */
PR_API int32_t pr_db_family_names(pr_db_t* db, char* buf, size_t buf_cap, uint64_t* names_len,
                                  char* err, size_t err_cap);

/* Finds the open column family name of db's database: *family_out receives
 * its handle (owned by the database). Returns PR_OK or PR_NOT_FOUND. */
PR_API int32_t pr_db_family(pr_db_t* db, const char* name, pr_db_t** family_out, char* err,
                            size_t err_cap);

/* Creates column family name in db's database with family_options (NULL:
 * the options the default family was opened with) and returns its handle
 * (owned by the database) in *family_out. Returns PR_OK or a RocksDB
 * status (PR_CODE_INVALID_ARGUMENT when the name exists, or when a family
 * of that name dropped since the database opened had another comparator:
 * RocksDB's next open would check the new comparator against the dropped
 * family's creation, still in the MANIFEST, and refuse the database). */
PR_API int32_t pr_db_create_family(pr_db_t* db, const pr_options_t* family_options,
                                   const char* name, pr_db_t** family_out, char* err,
                                   size_t err_cap);

/* Drops the column family of the handle and its data. The handle stays
 * valid until pr_db_family_release or the database's close, but once the
 * drop has returned, writes through it (and batches naming the family) fail
 * with PR_CODE_INVALID_ARGUMENT. A write racing the drop is either applied
 * before it or discarded with the family, and never fails another thread's
 * write. The default family cannot be dropped (PR_CODE_INVALID_ARGUMENT),
 * nor any while prepared transactions may be undecided (see
 * pr_txn_prepare: PR_CODE_INVALID_ARGUMENT).
 * Thread-safe. Until released, a dropped family keeps its memtables, and
 * can keep a write stall it had, which stops the whole database's writes:
 * release it once no call uses it. */
PR_API int32_t pr_db_drop_family(pr_db_t* family, char* err, size_t err_cap);

/* Frees the handle of a dropped column family, and with it what RocksDB
 * keeps of the family (its memtables, its part in write stalls), at once or,
 * when cursors opened on the family are still open, once the last of them
 * closes (they stay usable until then). After the call the handle must not
 * be used: no call on it may be in flight or follow. Returns PR_OK, or
 * PR_CODE_INVALID_ARGUMENT (and frees nothing) for the default family or a
 * family not dropped. Thread-safe for distinct handles. */
PR_API int32_t pr_db_family_release(pr_db_t* family, char* err, size_t err_cap);

/* Returns the id of the handle's column family, as write batch records
 * name it (0 for the default family). Never fails. */
PR_API uint32_t pr_db_family_id(pr_db_t* family);

/* ---- statistics and memory usage ------------------------------------------ */

/* Number of tickers (counters) pr_db_statistics reports. Never fails. */
PR_API size_t pr_ticker_count(void);

/* Name of ticker i (< pr_ticker_count()), e.g. "rocksdb.block.cache.miss",
 * as a static string never freed; NULL when i is out of range. */
PR_API const char* pr_ticker_name(size_t i);

/* Number of histograms pr_db_statistics reports. Never fails. */
PR_API size_t pr_histogram_count(void);

/* Name of histogram i (< pr_histogram_count()), e.g.
 * "rocksdb.file.read.get.micros", as a static string never freed; NULL when
 * i is out of range. */
PR_API const char* pr_histogram_name(size_t i);

/* One histogram's summary since the database opened (or the last reset). */
typedef struct pr_histogram {
  uint64_t count;
  uint64_t sum;
  double min;
  double max;
  double average;
  double median;
  double p95;
  double p99;
  double std_dev;
} pr_histogram_t;

/* Reads every statistic in one call: tickers[i] receives ticker i for i <
 * min(n_tickers, pr_ticker_count()), histograms[i] histogram i likewise.
 * Returns PR_OK, or PR_CODE_NOT_SUPPORTED when the database was opened
 * without statistics (pr_options_set_statistics). The arrays are the
 * caller's; none is kept. */
PR_API int32_t pr_db_statistics(pr_db_t* db, uint64_t* tickers, size_t n_tickers,
                                pr_histogram_t* histograms, size_t n_histograms, char* err,
                                size_t err_cap);

/* Sets every ticker and histogram back to zero. Returns PR_OK, or
 * PR_CODE_NOT_SUPPORTED without statistics. */
PR_API int32_t pr_db_statistics_reset(pr_db_t* db, char* err, size_t err_cap);

/* Approximate memory the database uses now, in bytes. */
typedef struct pr_memory_usage {
  /* all memtables: the mutable one, immutable ones and those kept for history */
  uint64_t memtables;
  /* memtables not yet flushed */
  uint64_t memtables_unflushed;
  /* table readers: indexes and filters held outside the block cache */
  uint64_t table_readers;
  /* the block cache (shared with other databases of the same memory budget) */
  uint64_t block_cache;
  /* entries of the block cache pinned by readers (pins, cursors) */
  uint64_t block_cache_pinned;
} pr_memory_usage_t;

/* Fills *usage. Returns PR_OK or a RocksDB status. */
PR_API int32_t pr_db_memory_usage(pr_db_t* db, pr_memory_usage_t* usage, char* err,
                                  size_t err_cap);

/* ---- cursors ---------------------------------------------------------------
 * A cursor walks a family's keys in their order (pr_options_set_comparator:
 * bytewise unless the family was created with another), in both directions,
 * over a consistent view taken when it is opened. It is not thread-safe: one
 * thread at a time moves it. Every cursor must be closed before its
 * database: pr_db_close refuses to close a database with cursors open. */
typedef struct pr_cursor pr_cursor_t;

/* Opens a cursor over the state as of snapshot (NULL: the latest state),
 * read with PR_READ_* read_flags. It sees only keys in [lower, upper)
 * (bounds per PR_RANGE_HAS_BEGIN / PR_RANGE_HAS_END; the bound keys are
 * copied). readahead_bytes is the read-ahead size for table files (0:
 * RocksDB's automatic read-ahead). The cursor starts unpositioned; the
 * snapshot may be released while it is open. Returns PR_OK with
 * *cursor_out set, or a status with *cursor_out NULL; the caller closes it
 * with pr_cursor_close before closing the database. */
PR_API int32_t pr_cursor_open(pr_db_t* db, const pr_snapshot_t* snapshot, uint32_t read_flags,
                              uint64_t readahead_bytes, const uint8_t* lower, size_t lower_len,
                              const uint8_t* upper, size_t upper_len, uint32_t bounds,
                              pr_cursor_t** cursor_out, char* err, size_t err_cap);

/* Closes a cursor; the memory of its entries must not be read afterwards.
 * The last cursor on a released family (pr_db_family_release) frees the
 * family's handle. NULL is accepted. */
PR_API void pr_cursor_close(pr_cursor_t* cursor);

/* The entry a cursor is on: views of RocksDB's memory, valid until the
 * cursor next moves or closes. All zero when the cursor is on no entry. */
typedef struct pr_cursor_entry {
  const uint8_t* key;
  uint64_t key_len;
  const uint8_t* value;
  uint64_t value_len;
} pr_cursor_entry_t;

/* Moves for pr_cursor_move. */
enum pr_cursor_op {
  PR_CURSOR_FIRST = 0,         /* the first key */
  PR_CURSOR_LAST = 1,          /* the last key */
  PR_CURSOR_SEEK = 2,          /* the first key >= key */
  PR_CURSOR_SEEK_FOR_PREV = 3, /* the last key <= key */
  PR_CURSOR_NEXT = 4,          /* the key after the current one */
  PR_CURSOR_PREV = 5           /* the key before the current one */
};

/* Moves the cursor (key is used by the seeks only; it is not kept) and
 * writes the entry it lands on into *entry. Returns PR_OK when the cursor
 * is on an entry, PR_NOT_FOUND when it moved past either end (entry all
 * zero), PR_CODE_INVALID_ARGUMENT for an unknown op or for NEXT/PREV on a
 * cursor that is on no entry, or the RocksDB status of a failed read. */
PR_API int32_t pr_cursor_move(pr_cursor_t* cursor, int32_t op, const uint8_t* key,
                              size_t key_len, pr_cursor_entry_t* entry, char* err,
                              size_t err_cap);

/* Moves the cursor's view to the database's latest state (snapshot NULL)
 * or to the state as of snapshot (a snapshot of the cursor's database),
 * keeping its bounds, read flags and read-ahead: RocksDB's
 * Iterator::Refresh. The cursor is then on no entry (the memory of the
 * entry it was on must not be read afterwards), whatever it returns: PR_OK,
 * or the RocksDB status of a failed refresh. snapshot may be released once
 * the call returns. Not thread-safe with other calls on the cursor.
 * Implemented in cursors.cc. */
PR_API int32_t pr_cursor_refresh(pr_cursor_t* cursor, const pr_snapshot_t* snapshot, char* err,
                                 size_t err_cap);

/* pr_cursor_scan flag: walk towards smaller keys. */
#define PR_SCAN_REVERSE 1

/* Copies many entries in one call, starting with the one the cursor is on
 * and moving forward (backward with PR_SCAN_REVERSE) past each entry
 * copied. Entries are laid out one after another in buf: a uint32_t key
 * length and a uint32_t value length (native byte order, unaligned), then
 * the key bytes, then the value bytes. Stops after max_entries entries, at
 * the first entry that does not fit in what is left of buf, or when the
 * cursor runs out. *entries_out receives the number of entries copied and
 * *bytes_out the bytes used; when not even the first entry fits,
 * *entries_out is 0 and *bytes_out the bytes that entry needs. *entry
 * receives the entry the cursor is on afterwards, as pr_cursor_move does.
 * Returns PR_OK when the cursor is still on an entry, PR_NOT_FOUND when it
 * has run out (a cursor on no entry copies nothing), or the RocksDB status
 * of a failed read. */
PR_API int32_t pr_cursor_scan(pr_cursor_t* cursor, uint32_t flags, size_t max_entries,
                              uint8_t* buf, size_t buf_cap, uint64_t* entries_out,
                              uint64_t* bytes_out, pr_cursor_entry_t* entry, char* err,
                              size_t err_cap);

/* ---- transactions ----------------------------------------------------------
 * A transactional database is opened by pr_db_open_transactional and is
 * otherwise an ordinary one: every pr_db_ and pr_cursor_ call works on it
 * (a pessimistic one's own writes, pr_db_put, pr_db_delete and pr_db_write,
 * take the keys' locks for their duration, waiting up to the default lock
 * timeout); a batch deleting a range returns PR_CODE_INVALID_ARGUMENT,
 * nothing written, in either kind: RocksDB's transactions track keys, not
 * ranges; so does a batch with a single delete in a pessimistic one, whose
 * lock RocksDB 9.10 does not take (a transaction's own single deletes are
 * locked). A transaction's writes stay its own, read back by its reads,
 * until pr_txn_commit applies them atomically. Pessimistic transactions
 * lock each key they write or read for update until they end (a key locked
 * by another waits up to the lock timeout: PR_CODE_TIMED_OUT with
 * PR_SUBCODE_LOCK_TIMEOUT; a wait that would close a cycle of waits, when
 * deadlock detection is on: PR_CODE_BUSY with PR_SUBCODE_DEADLOCK). The
 * message of a write's or a read for update's timeout names the
 * transactions holding the key then (pr_txn_id), that of a deadlock the
 * cycle of waits RocksDB found: each transaction and the key it waited for.
 * Optimistic transactions take no locks: pr_txn_commit fails with
 * PR_CODE_BUSY when a key the transaction wrote or read for update was
 * written by another since (PR_CODE_TRY_AGAIN when the memtables no longer
 * hold enough history to tell). A transaction with a snapshot also fails,
 * pessimistic or not, when a key it writes or reads for update was written
 * by another after its snapshot (PR_CODE_BUSY). A write or read that fails
 * so leaves the transaction open without it; a commit that fails so ends
 * it, unapplied. The caller may retry in a new transaction. Implemented in
 * transactions.cc. */

/* Kinds of transactional database for pr_db_open_transactional. */
enum pr_transactions {
  PR_TRANSACTIONS_PESSIMISTIC = 1,
  PR_TRANSACTIONS_OPTIMISTIC = 2
};

/* How an optimistic database validates commits: RocksDB's
 * OccValidationPolicy values. */
enum pr_optimistic_validation {
  /* after the commit's write group forms, one commit at a time */
  PR_OPTIMISTIC_VALIDATE_SERIAL = 0,
  /* before the write group, under per-key-bucket locks */
  PR_OPTIMISTIC_VALIDATE_PARALLEL = 1
};

/* What a transactional database is opened with. The lock fields apply to
 * pessimistic databases, validation to optimistic ones; a timeout of -1
 * waits forever, 0 does not wait, one over 2^40 ms (about 35 years) waits
 * 2^40 ms (as does a transaction's timeout or expiration over it). */
typedef struct pr_transaction_db_options {
  /* how long a transaction waits for a key's lock by default, in ms */
  int64_t lock_timeout_ms;
  /* how long pr_db_put, pr_db_delete and pr_db_write wait for locks, in ms */
  int64_t default_lock_timeout_ms;
  /* the most keys locked at once per family, 0 or less for no limit (more:
   * PR_CODE_BUSY with PR_SUBCODE_LOCK_LIMIT) */
  int64_t max_num_locks;
  /* how many transactions deep a deadlock search goes */
  int64_t deadlock_detect_depth;
  /* an enum pr_optimistic_validation value */
  int32_t optimistic_validation;
} pr_transaction_db_options_t;

/* Opens a transactional database as pr_db_open opens a database, of kind
 * (enum pr_transactions) with txn_options. Pessimistic databases write
 * committed data only (RocksDB's WRITE_COMMITTED policy). Returns PR_OK
 * with *db_out set, or a status as pr_db_open (PR_CODE_INVALID_ARGUMENT for
 * an unknown kind or validation, a negative lock timeout other than -1, or
 * a deadlock depth below 0), nothing open then. Neither options, path nor
 * txn_options is kept. */
PR_API int32_t pr_db_open_transactional(const pr_options_t* options, const char* path, int32_t kind,
                                        const pr_transaction_db_options_t* txn_options,
                                        pr_db_t** db_out, char* err, size_t err_cap);

/* Which kind of database db belongs to: 0 for one pr_db_open opened, else
 * an enum pr_transactions value. Never fails. */
PR_API int32_t pr_db_transactions(const pr_db_t* db);

/* An open transaction. Not thread-safe: one call on it at a time. */
typedef struct pr_txn pr_txn_t;

/* pr_txn_options flags (bitwise or): */
/* take a snapshot at begin (see pr_txn_set_snapshot) */
#define PR_TXN_SET_SNAPSHOT 1
/* pessimistic: detect deadlocks while waiting for a lock */
#define PR_TXN_DETECT_DEADLOCKS 2

/* What a transaction begins with. Timeouts as pr_transaction_db_options;
 * -1 for lock_timeout_ms takes the database's. */
typedef struct pr_txn_options {
  uint32_t flags;
  /* pessimistic: how long this transaction waits for a lock, in ms */
  int64_t lock_timeout_ms;
  /* pessimistic: after how many ms another transaction may take this
   * one's locks (it then fails to commit, PR_CODE_EXPIRED); -1 never */
  int64_t expiration_ms;
} pr_txn_options_t;

/* Begins a transaction on db's database (db is any of its family handles)
 * with txn_options; write_flags (PR_WRITE_*) apply to its commit. Returns
 * PR_OK with *txn_out set, PR_CODE_NOT_SUPPORTED when the database is not
 * transactional, PR_CODE_INVALID_ARGUMENT for PR_WRITE_SYNC with
 * PR_WRITE_DISABLE_WAL, unknown flags or a negative timeout other than -1.
 * The caller frees the transaction with pr_txn_free before closing the
 * database (pr_db_close with a transaction open returns PR_CODE_ABORTED).
 * txn_options is not kept. Thread-safe. */
PR_API int32_t pr_txn_begin(pr_db_t* db, uint32_t write_flags, const pr_txn_options_t* txn_options,
                            pr_txn_t** txn_out, char* err, size_t err_cap);

/* Frees a transaction; one neither committed nor prepared is rolled back,
 * its writes discarded and its locks released. A prepared one (see
 * pr_txn_prepare) stays prepared, with its locks: the database keeps it
 * and pr_db_take_prepared hands it out again (and, once the database is
 * closed, the next open recovers it). NULL is accepted; a transaction with
 * cursors open (pr_txn_cursor_open) is left as it is. */
PR_API void pr_txn_free(pr_txn_t* txn);

/* Writes of a transaction into family (a family handle of the
 * transaction's database; PR_CODE_INVALID_ARGUMENT for another database's
 * or a dropped family): key -> value, a delete, a single delete (RocksDB's
 * contract as for pr_db_write) and a merge (refused as pr_db_write refuses
 * it: no merge operator, or an operand of the wrong length). Each waits for
 * the key's lock in a pessimistic database. Returns PR_OK or a status (see
 * the section's comment); a failed write is not part of the transaction. */
PR_API int32_t pr_txn_put(pr_txn_t* txn, pr_db_t* family, const uint8_t* key, size_t key_len,
                          const uint8_t* value, size_t value_len, char* err, size_t err_cap);
PR_API int32_t pr_txn_delete(pr_txn_t* txn, pr_db_t* family, const uint8_t* key, size_t key_len,
                             char* err, size_t err_cap);
PR_API int32_t pr_txn_single_delete(pr_txn_t* txn, pr_db_t* family, const uint8_t* key,
                                    size_t key_len, char* err, size_t err_cap);
PR_API int32_t pr_txn_merge(pr_txn_t* txn, pr_db_t* family, const uint8_t* key, size_t key_len,
                            const uint8_t* operand, size_t operand_len, char* err,
                            size_t err_cap);

/* pr_txn_get lock modes: */
/* read only */
#define PR_TXN_READ 0
/* read for update: lock the key exclusively (pessimistic) and make a later
 * write of it by another a conflict of this transaction */
#define PR_TXN_READ_FOR_UPDATE 1
/* read for update with a shared lock: others may read it for update
 * shared too, none may write it */
#define PR_TXN_READ_FOR_UPDATE_SHARED 2

/* Reads key of family in the transaction: its own writes merged over the
 * database as of snapshot (NULL: the transaction's snapshot when it has
 * one, else the latest state) with PR_READ_* read_flags, lock (a
 * PR_TXN_READ* mode) deciding what it locks. A read for update reads as
 * of the transaction's snapshot or the latest state, what it locks and
 * validates: another snapshot returns PR_CODE_INVALID_ARGUMENT.
 * Returns and fills *result as pr_db_get with flags (PR_GET_PIN_IF_LARGER):
 * a pinned value stays valid until pr_pin_release, after the transaction
 * ends too. */
PR_API int32_t pr_txn_get(pr_txn_t* txn, pr_db_t* family, const pr_snapshot_t* snapshot,
                          uint32_t read_flags, int32_t lock, const uint8_t* key, size_t key_len,
                          uint8_t* buf, size_t buf_cap, uint32_t flags, pr_get_result_t* result,
                          char* err, size_t err_cap);

/* Reads n keys of family in the transaction, as pr_txn_get reads one (its
 * own writes merged over the database, as of snapshot, with read_flags and
 * lock), into buf as pr_db_multi_get does: statuses[i] PR_OK, PR_NOT_FOUND
 * or the status of key i (a lock timeout, a conflict), value_offsets and
 * value_lens as there. Plain reads are one batched RocksDB MultiGet; reads
 * for update lock key after key, and the locks taken stay when a later key
 * fails. Returns PR_OK when the call ran, else a refusal as pr_txn_get's
 * for the whole call. The arrays are the caller's, of n elements each; none
 * is kept. Not thread-safe with other calls on the transaction. */
PR_API int32_t pr_txn_multi_get(pr_txn_t* txn, pr_db_t* family, const pr_snapshot_t* snapshot,
                                uint32_t read_flags, int32_t lock, size_t n,
                                const uint8_t* const* keys, const size_t* key_lens, uint8_t* buf,
                                size_t buf_cap, uint64_t* value_offsets, uint64_t* value_lens,
                                int32_t* statuses, char* err, size_t err_cap);

/* pr_txn_multi_get pinning the found values as pr_db_multi_get_pinned does
 * (each pin valid until pr_pin_release, after the transaction ends too). */
PR_API int32_t pr_txn_multi_get_pinned(pr_txn_t* txn, pr_db_t* family,
                                       const pr_snapshot_t* snapshot, uint32_t read_flags,
                                       int32_t lock, size_t n, const uint8_t* const* keys,
                                       const size_t* key_lens, pr_get_result_t* results,
                                       int32_t* statuses, char* err, size_t err_cap);

/* Opens a cursor over family as the transaction sees it: its own writes
 * merged over the database as of snapshot (NULL: the transaction's
 * snapshot when it has one, else the latest state), with read_flags,
 * readahead_bytes and bounds as pr_cursor_open takes them. Writes the
 * transaction makes while the cursor is open show through it; the memory of
 * an entry the cursor reported must not be read after such a write. The
 * cursor is moved and closed with the pr_cursor_ calls (pr_cursor_refresh
 * answers PR_CODE_NOT_SUPPORTED), and closed before the transaction is
 * committed, rolled back (also to a save point) or freed: those return
 * PR_CODE_ABORTED, and pr_txn_free does nothing, while any is open. Returns
 * PR_OK with *cursor_out set, or a status as pr_txn_put's refusals. Not
 * thread-safe with other calls on the transaction or its cursors. */
PR_API int32_t pr_txn_cursor_open(pr_txn_t* txn, pr_db_t* family, const pr_snapshot_t* snapshot,
                                  uint32_t read_flags, uint64_t readahead_bytes,
                                  const uint8_t* lower, size_t lower_len, const uint8_t* upper,
                                  size_t upper_len, uint32_t bounds, pr_cursor_t** cursor_out,
                                  char* err, size_t err_cap);

/* Applies the transaction's writes atomically and releases its locks; the
 * transaction is then done (any later call on it but pr_txn_free returns
 * PR_CODE_INVALID_ARGUMENT). Returns PR_OK, or a status with nothing
 * applied (a conflict, see the section's comment, PR_CODE_EXPIRED past its
 * expiration, or the write's failure): a failed commit is rolled back,
 * except a prepared transaction's: RocksDB 9.10 can neither commit nor
 * roll it back then, so the database holds it, with its locks, until it
 * closes, and the next open recovers it prepared, to be decided
 * (pr_db_take_prepared); until then no family can be dropped.
 * Writes into a family dropped since they were made go with the family in
 * a pessimistic commit (the others are applied); an optimistic commit fails
 * with PR_CODE_INVALID_ARGUMENT. A commit waits out write stalls as RocksDB
 * does (pr_db_set_closing does not end the wait). */
PR_API int32_t pr_txn_commit(pr_txn_t* txn, char* err, size_t err_cap);

/* Discards the transaction's writes and releases its locks; the
 * transaction is then done. Returns PR_OK or a status. */
PR_API int32_t pr_txn_rollback(pr_txn_t* txn, char* err, size_t err_cap);

/* Two-phase commit (pessimistic databases): a named transaction is
 * prepared, its writes logged as a prepared section of the write-ahead
 * log, before the decision to commit or roll it back. A prepared
 * transaction survives a crash or a close: the next open recovers it
 * (pr_db_take_prepared), and it is committed or rolled back then. */

/* Names the transaction: name is name_len bytes, 1 to 512, not the name of
 * another named transaction of the database that is open or prepared.
 * Returns PR_OK, or PR_CODE_INVALID_ARGUMENT (named already, a length out
 * of range, a name in use, a done or prepared transaction, an optimistic
 * one). name is not kept. */
PR_API int32_t pr_txn_set_name(pr_txn_t* txn, const uint8_t* name, size_t name_len, char* err,
                               size_t err_cap);

/* The transaction's name: *name_len bytes at the returned address, valid
 * while the transaction is; 0 bytes when it has none. Never fails. */
PR_API const uint8_t* pr_txn_name(const pr_txn_t* txn, size_t* name_len);

/* Prepares a named transaction: writes its writes to the write-ahead log
 * as a prepared section (synced when its commit's write flags sync), which
 * a crash or close keeps. From then on it takes no writes, reads for
 * update, save point or snapshot calls (PR_CODE_INVALID_ARGUMENT); it
 * reads, and pr_txn_commit or pr_txn_rollback decides it. Returns PR_OK;
 * PR_CODE_INVALID_ARGUMENT for a transaction without a name, one prepared
 * or done, one of an optimistic database, or one whose commit would skip
 * the write-ahead log (PR_WRITE_DISABLE_WAL: its commit could be lost while
 * its prepared section stays, and be recovered and applied again);
 * or one that wrote into a family dropped since; PR_CODE_EXPIRED past its
 * expiration; PR_CODE_ABORTED while its cursors are open (the prepare
 * rewrites the batch they read); or the write's failure, the transaction
 * left as it was. While a pessimistic database holds prepared transactions
 * no family of it can be dropped (pr_db_drop_family), nor in any other open
 * of a directory a pessimistic open wrote: RocksDB 9.10 cannot recover a
 * prepared transaction into a family dropped since. */
PR_API int32_t pr_txn_prepare(pr_txn_t* txn, char* err, size_t err_cap);

/* Hands out one undecided prepared transaction no pr_txn_t holds (db is
 * any of its family handles): one the database recovered at its open,
 * named and prepared as before and holding no locks (RocksDB recovers them
 * without: decide them before writing their keys otherwise), or one freed
 * undecided since, with its locks. Returns PR_OK with *txn_out set, which
 * the caller commits or rolls back and frees as any transaction;
 * PR_NOT_FOUND with *txn_out NULL when there is none, or the database is
 * not pessimistic; a status when out of memory. Thread-safe. */
PR_API int32_t pr_db_take_prepared(pr_db_t* db, pr_txn_t** txn_out, char* err, size_t err_cap);

/* Marks a save point: pr_txn_rollback_to_savepoint discards the writes
 * since (and restores the snapshot then). Save points nest. Returns PR_OK,
 * or PR_CODE_INVALID_ARGUMENT for a done transaction. */
PR_API int32_t pr_txn_set_savepoint(pr_txn_t* txn, char* err, size_t err_cap);

/* Discards the writes since the latest save point and removes it (the
 * keys' locks are kept). Returns PR_OK, or PR_NOT_FOUND when there is no
 * save point. */
PR_API int32_t pr_txn_rollback_to_savepoint(pr_txn_t* txn, char* err, size_t err_cap);

/* Removes the latest save point, keeping the writes since. Returns PR_OK,
 * or PR_NOT_FOUND when there is no save point. */
PR_API int32_t pr_txn_pop_savepoint(pr_txn_t* txn, char* err, size_t err_cap);

/* Takes the transaction's snapshot now (replacing any it had), or, with
 * on_next_operation, at its next write or read for update. From then on
 * its reads read as of it and a key written by another after it conflicts.
 * Returns PR_OK or PR_CODE_INVALID_ARGUMENT for a done transaction. */
PR_API int32_t pr_txn_set_snapshot(pr_txn_t* txn, int32_t on_next_operation, char* err,
                                   size_t err_cap);

/* Which writes the transaction holds: *count the records, *bytes the size
 * of its batch. Never fails. */
PR_API void pr_txn_size(const pr_txn_t* txn, uint64_t* count, uint64_t* bytes);

/* The transaction's id (RocksDB's TransactionID): unique among the
 * database's transactions since its open, and what the messages of lock
 * timeouts and deadlocks name transactions by. Never fails. */
PR_API uint64_t pr_txn_id(const pr_txn_t* txn);

/* ---- batches with index ------------------------------------------------------
 * A batch with index is RocksDB's WriteBatchWithIndex: write records indexed
 * by key, which reads see merged over a database (reading one's own writes)
 * before the records are written. The caller keeps the records themselves,
 * encoded as pr_db_write takes them, and hands the index each record once,
 * in order (pr_indexed_batch_index); writing them is pr_db_write of that
 * same encoding. A batch belongs to no database: its records name families
 * by id (pr_db_family_id), and the caller reads and indexes it with handles
 * of the one database those ids are of. Not thread-safe: one call on a
 * batch or its cursors at a time. Values read pinned stay valid after the
 * batch changes or is freed. Implemented in batches_with_index.cc. */

/* A batch with index. */
typedef struct pr_indexed_batch pr_indexed_batch_t;

/* Creates an empty batch with index. With overwrite_key a key's latest
 * record replaces its earlier ones in the index; without it every record
 * is indexed (RocksDB's default). Reads see the same either way; a cursor
 * shows one entry per key either way. Returns PR_OK with *batch_out set,
 * which the caller frees with pr_indexed_batch_free, or PR_CODE_INTERNAL
 * when out of memory. Thread-safe. */
PR_API int32_t pr_indexed_batch_create(int32_t overwrite_key, pr_indexed_batch_t** batch_out,
                                       char* err, size_t err_cap);

/* Frees a batch. NULL is accepted; a batch with cursors open
 * (pr_indexed_batch_cursor_open) is left as it is. */
PR_API void pr_indexed_batch_free(pr_indexed_batch_t* batch);

/* Indexes count records, encoded as pr_db_write's batch but without its
 * 12-byte header (records, records_len), of the database of db (any of its
 * family handles). With rebuild the index is emptied first (refused with
 * PR_CODE_ABORTED while cursors of the batch are open). The records are
 * parsed and checked as pr_db_write checks a batch, whole, before any is
 * indexed: a malformed one returns PR_CODE_CORRUPTION, one pr_db_write
 * refuses (a family not open, a merge its family cannot take, a single
 * delete in a pessimistic database) PR_CODE_INVALID_ARGUMENT saying why;
 * the index is then as it was. Any other failure (a range delete, which
 * RocksDB's index does not hold: PR_CODE_NOT_SUPPORTED; out of memory)
 * leaves the index empty: index every record again with rebuild.
 * Open cursors of the batch see the records at their next move; the
 * entry they are on may no longer be read. records is not kept. */
PR_API int32_t pr_indexed_batch_index(pr_indexed_batch_t* batch, pr_db_t* db,
                                      const uint8_t* records, size_t records_len, uint32_t count,
                                      int32_t rebuild, char* err, size_t err_cap);

/* Reads key of family from the batch merged over family's database as of
 * snapshot (NULL: the latest state) with PR_READ_* read_flags (RocksDB's
 * GetFromBatchAndDB): the batch's records of the key decide over the
 * database's value, merges combined with it by the family's merge operator.
 * Returns and fills *result as pr_db_get with flags (PR_GET_PIN_IF_LARGER). */
PR_API int32_t pr_indexed_batch_get(pr_indexed_batch_t* batch, pr_db_t* family,
                                    const pr_snapshot_t* snapshot, uint32_t read_flags,
                                    const uint8_t* key, size_t key_len, uint8_t* buf,
                                    size_t buf_cap, uint32_t flags, pr_get_result_t* result,
                                    char* err, size_t err_cap);

/* Reads n keys of family as pr_indexed_batch_get reads one, in one batched
 * RocksDB MultiGetFromBatchAndDB (key by key when memory-only, as
 * pr_db_multi_get_with does), into buf with value_offsets, value_lens and
 * statuses as pr_db_multi_get fills them. Returns PR_OK when the call ran,
 * else a status with nothing filled. */
PR_API int32_t pr_indexed_batch_multi_get(pr_indexed_batch_t* batch, pr_db_t* family,
                                          const pr_snapshot_t* snapshot, uint32_t read_flags,
                                          size_t n, const uint8_t* const* keys,
                                          const size_t* key_lens, uint8_t* buf, size_t buf_cap,
                                          uint64_t* value_offsets, uint64_t* value_lens,
                                          int32_t* statuses, char* err, size_t err_cap);

/* The pinned form of pr_indexed_batch_multi_get: results and statuses as
 * pr_db_multi_get_pinned fills them. */
PR_API int32_t pr_indexed_batch_multi_get_pinned(pr_indexed_batch_t* batch, pr_db_t* family,
                                                 const pr_snapshot_t* snapshot,
                                                 uint32_t read_flags, size_t n,
                                                 const uint8_t* const* keys,
                                                 const size_t* key_lens, pr_get_result_t* results,
                                                 int32_t* statuses, char* err, size_t err_cap);

/* Opens a cursor over family's keys in the batch merged over the database,
 * as pr_cursor_open opens one over the database (snapshot, read flags,
 * read-ahead, bounds): RocksDB's NewIteratorWithBase. The cursor reads the
 * batch's index in place: free the batch, or index it with rebuild, only
 * once its cursors are closed; records indexed meanwhile show at the
 * cursor's next move. pr_cursor_refresh returns PR_CODE_NOT_SUPPORTED. */
PR_API int32_t pr_indexed_batch_cursor_open(pr_indexed_batch_t* batch, pr_db_t* family,
                                            const pr_snapshot_t* snapshot, uint32_t read_flags,
                                            uint64_t readahead_bytes, const uint8_t* lower,
                                            size_t lower_len, const uint8_t* upper,
                                            size_t upper_len, uint32_t bounds,
                                            pr_cursor_t** cursor_out, char* err, size_t err_cap);

/* ---- callbacks ---------------------------------------------------------------
 * Code of the caller's that RocksDB calls back: merge operators, and the
 * compaction filters and comparators of the next sections. This section amends conventions
 * 4 and 6 for them:
 *  C1. A callback is an opaque state (a uint64_t the caller chooses) and
 *      the function pointers RocksDB calls with it. Once RocksDB can no
 *      longer call it (the last of the options, databases and column
 *      families holding it let go of it: an options' destroy, a database's
 *      close, a family's drop, or a read releasing the last reference to a
 *      dropped family), the shim queues its state as released, exactly
 *      once, and pr_callbacks_take_released hands it out. Until then the
 *      functions and the state must stay valid. Nothing is called back for
 *      a release: it may happen inside a call that must not call back
 *      (PR_READ_MEMORY_ONLY, pr_pin_release).
 *  C2. RocksDB calls back on any thread: the caller's own, inside a read of
 *      the database, or one of RocksDB's background threads (flushes,
 *      compactions), often on several at once: callbacks are thread-safe.
 *  C3. A callback returns PR_CALLBACK_OK or PR_CALLBACK_FAILED, and never
 *      unwinds into the shim (no C++ exception, no longjmp). Each kind says
 *      what a failure does.
 *  C4. A callback must not call into the database that called it (reads,
 *      writes, flushes, compactions, closes): RocksDB may hold locks such
 *      a call needs, or be closing. It may call the functions on the
 *      handles the shim passes it (pr_merge_output_*), and only during the
 *      call.
 *  C5. Memory the shim passes a callback (keys, values, operands) is valid
 *      only during the call.
 *  C6. Once any callback has been called, the process's exit ends the
 *      process (_exit, with the exit's status) before RocksDB's default Env
 *      joins its background threads: a thread of RocksDB's that called back
 *      is attached to the caller's runtime, and a JVM blocks for good a
 *      thread that detaches after the JVM has exited, so the join would
 *      never end. Background work then stops where it is, as at a kill:
 *      nothing RocksDB acknowledged is lost. Exit handlers registered
 *      before the first callback's creation (pr_merge_operator_create,
 *      pr_compaction_filter_factory_create, pr_comparator_create) do not
 *      run then. */
enum pr_callback_result { PR_CALLBACK_OK = 0, PR_CALLBACK_FAILED = 1 };

/* Writes up to cap states of callbacks released since the last call (C1)
 * into states and returns how many it wrote; each state is handed out
 * once. Thread-safe; never calls back. */
PR_API size_t pr_callbacks_take_released(uint64_t* states, size_t cap);

/* A callback that only returns (PR_CALLBACK_OK): what pr_callbacks_probe calls. */
typedef int32_t (*pr_probe_fn)(uint64_t state);

/* Calls probe(state) times times on the calling thread, one call after
 * another, and returns how many calls returned PR_CALLBACK_OK: the cost of
 * one call from the shim into the caller and back, which every callback
 * pays, measured without RocksDB (the benchmarks'). Thread-safe; calls
 * nothing else back, and releases nothing (C1 does not apply). */
PR_API uint64_t pr_callbacks_probe(pr_probe_fn probe, uint64_t state, uint64_t times);

/* A merge operator of the caller's: RocksDB's MergeOperator, whose merges
 * the caller's functions compute. */
typedef struct pr_merge_operator pr_merge_operator_t;

/* Where a merge writes its result; valid only during the call it is passed
 * to (C4, C5). */
typedef struct pr_merge_output pr_merge_output_t;

/* A full merge: the key's existing value (existing is NULL when the key has
 * none, which differs from an empty value) with count operands, oldest
 * first, into one value written through output (pr_merge_output_reserve or
 * pr_merge_output_use_input; a merge that writes neither results in an
 * empty value). RocksDB calls it in reads (get, multi-get, cursors) and in
 * flushes and compactions. PR_CALLBACK_FAILED fails only the reads of the
 * key, with PR_CODE_CORRUPTION and PR_SUBCODE_MERGE_OPERATOR_FAILED
 * (RocksDB's OpFailureScope::kMustMerge): flushes and compactions keep the
 * operands as they are, so a merge that fails loses nothing and the
 * database stays writable. */
typedef int32_t (*pr_full_merge_fn)(uint64_t state, const uint8_t* key, size_t key_len,
                                    const uint8_t* existing, size_t existing_len,
                                    const uint8_t* const* operands, const size_t* operand_lens,
                                    size_t count, pr_merge_output_t* output);

/* A partial merge: two operands, older first, into one operand written
 * through output (pr_merge_output_reserve only), where the result does not
 * depend on the value underneath. PR_CALLBACK_FAILED keeps both operands,
 * to be merged in full later: it is how a partial merge declines. */
typedef int32_t (*pr_partial_merge_fn)(uint64_t state, const uint8_t* key, size_t key_len,
                                       const uint8_t* left, size_t left_len,
                                       const uint8_t* right, size_t right_len,
                                       pr_merge_output_t* output);

/* Creates a merge operator named name (1 to 255 ASCII letters, digits and
 * . _ - $: RocksDB records it in the OPTIONS file unquoted, and a database
 * whose families merge with it opens only with a merge operator of that
 * name; an OPTIONS file naming it is readable from then on in the process)
 * that merges with full and, when partial is not NULL, partial merges
 * first. Returns PR_OK, or PR_CODE_INVALID_ARGUMENT for a name out of range
 * or one of RocksDB's built-ins (pr_options_set_merge_operator offers
 * those). state is released once (C1), also when this call fails. name is
 * not kept. The caller destroys the handle with pr_merge_operator_destroy;
 * options and databases hold the operator on their own. A family merging
 * with it answers pr_db_get_at with PR_READ_MEMORY_ONLY with
 * PR_CODE_INCOMPLETE at once: that read must not call back. */
PR_API int32_t pr_merge_operator_create(const char* name, uint64_t state, pr_full_merge_fn full,
                                        pr_partial_merge_fn partial,
                                        pr_merge_operator_t** merge_operator_out, char* err,
                                        size_t err_cap);

/* Drops the caller's hold of a merge operator. NULL is accepted. */
PR_API void pr_merge_operator_destroy(pr_merge_operator_t* merge_operator);

/* Sets options' merge operator (replacing one set before, by name or not);
 * the options, and the databases and families opened with them, hold it.
 * Returns PR_OK, or PR_CODE_INTERNAL when memory is exhausted. */
PR_API int32_t pr_options_set_merge_operator_object(pr_options_t* options,
                                                    const pr_merge_operator_t* merge_operator,
                                                    char* err, size_t err_cap);

/* Makes the merge's result len bytes long and returns where the callback
 * writes them, valid until the call it was passed to returns (a later
 * reserve in the same call may move them; bytes written before it are
 * kept up to the shorter length). Returns NULL when memory is exhausted,
 * and the merge then fails. */
PR_API uint8_t* pr_merge_output_reserve(pr_merge_output_t* output, size_t len);

/* Makes a full merge's result one of its inputs, without a copy: the
 * existing value when index is -1, otherwise operand index. Returns PR_OK,
 * or PR_CODE_INVALID_ARGUMENT when there is no such input (or in a partial
 * merge), writing no message. */
PR_API int32_t pr_merge_output_use_input(pr_merge_output_t* output, int64_t index);

/* ---- compaction filters ------------------------------------------------------
 * A compaction filter of the caller's (a callback: the rules C1 to C6 of
 * the section "callbacks" hold): in each compaction of a family whose
 * options hold it, RocksDB asks it about every entry, which it keeps,
 * removes, changes, or removes with the entries up to a key. A factory
 * makes one filter per compaction, with what the compaction is. Flushes
 * are not filtered. RocksDB 9.10 filters regardless of snapshots: an entry
 * removed or changed disappears from every snapshot and cursor opened
 * before, once the compaction ends. A family recorded with a filter opens
 * with or without it (the filter changes what compactions keep, not how
 * the log replays). */

/* The compaction a factory makes a filter for. */
typedef struct pr_compaction_context {
  int32_t full;              /* 1 when the compaction takes every table file of the family */
  int32_t manual;            /* 1 when a caller asked for it (pr_db_compact_range) */
  int32_t input_start_level; /* the lowest level it reads */
  uint32_t family_id;        /* the family (pr_db_family_id) */
} pr_compaction_context_t;

/* What an entry a filter is asked about is. */
enum pr_filtered_kind { PR_FILTERED_VALUE = 0, PR_FILTERED_MERGE_OPERAND = 1 };

/* What a filter decides about an entry. Any other answer keeps it. */
enum pr_filter_decision {
  PR_FILTER_KEEP = 0,
  /* A value becomes a deletion (hiding older values of the key); a merge
   * operand is dropped. */
  PR_FILTER_REMOVE = 1,
  /* The entry keeps its kind with the value written through the output
   * (pr_filter_output_reserve; none written: empty). */
  PR_FILTER_CHANGE_VALUE = 2,
  /* Drops every entry of the compaction from this key up to, not
   * including, the key written through the output, of any kind and
   * without deletions: an older value of such a key, in a table file the
   * compaction does not read, shows again. An end not after the key keeps
   * the entry. */
  PR_FILTER_REMOVE_UNTIL = 3
};

/* A compaction filter factory of the caller's. */
typedef struct pr_compaction_filter_factory pr_compaction_filter_factory_t;

/* Where a filter writes a changed value or the end of a removed range;
 * valid only during the call it is passed to (C4, C5). */
typedef struct pr_filter_output pr_filter_output_t;

/* Makes the filter for one compaction: writes its state to *filter_state
 * and returns PR_CALLBACK_OK, or returns PR_CALLBACK_FAILED, and the
 * compaction then runs unfiltered, keeping every entry. A filter's state
 * is released (C1) when its compaction ends. */
typedef int32_t (*pr_compaction_filter_create_fn)(uint64_t factory_state,
                                                   const pr_compaction_context_t* context,
                                                   uint64_t* filter_state);

/* Decides about one entry of kind (a pr_filtered_kind) and returns a
 * pr_filter_decision. A filter is called on one thread at a time (each
 * subcompaction has its own). */
typedef int32_t (*pr_compaction_filter_fn)(uint64_t filter_state, const uint8_t* key,
                                           size_t key_len, int32_t kind,
                                           const uint8_t* value, size_t value_len,
                                           pr_filter_output_t* output);

/* Creates a compaction filter factory named name (the rules of
 * pr_merge_operator_create's names: RocksDB records it in the OPTIONS
 * file, and an OPTIONS file naming it is readable from then on in the
 * process) whose create makes the filters that filter calls. Returns PR_OK,
 * or PR_CODE_INVALID_ARGUMENT for a name out of range. state is released
 * once (C1), also when this call fails. name is not kept. The caller
 * destroys the handle with pr_compaction_filter_factory_destroy; options
 * and databases hold the factory on their own. */
PR_API int32_t pr_compaction_filter_factory_create(const char* name, uint64_t state,
                                                   pr_compaction_filter_create_fn create,
                                                   pr_compaction_filter_fn filter,
                                                   pr_compaction_filter_factory_t** factory_out,
                                                   char* err, size_t err_cap);

/* Drops the caller's hold of a factory. NULL is accepted. */
PR_API void pr_compaction_filter_factory_destroy(pr_compaction_filter_factory_t* factory);

/* Sets options' compaction filter factory (replacing one set before); the
 * options, and the databases and families opened with them, hold it.
 * Returns PR_OK, or PR_CODE_INTERNAL when memory is exhausted. */
PR_API int32_t pr_options_set_compaction_filter_factory(
    pr_options_t* options, const pr_compaction_filter_factory_t* factory, char* err,
    size_t err_cap);

/* Makes what the filter writes (the changed value, or the end of the
 * removed range) len bytes long and returns where it writes them, valid
 * until the call it was passed to returns (a later reserve in the same call
 * may move them; bytes written before it are kept up to the shorter
 * length). Returns NULL when memory is exhausted, and the entry is then
 * kept. */
PR_API uint8_t* pr_filter_output_reserve(pr_filter_output_t* output, size_t len);

/* ---- comparators -------------------------------------------------------------
 * A comparator of the caller's (a callback: the rules C1 to C6 of the
 * section "callbacks" hold): the order of a family's keys, which RocksDB
 * asks on every thread that touches the family (writes into the memtable,
 * reads, cursors, flushes, compactions), far more often than any other
 * callback. RocksDB records its name: a family created with it opens only
 * with a comparator of that name (RocksDB checks the MANIFEST, pinrock the
 * OPTIONS file first), and an OPTIONS file naming it is readable from then
 * on in the process.
 *
 * A comparison has no way to fail in RocksDB: a compare that returns
 * PR_COMPARE_FAILED is answered as RocksDB's bytewise comparator would, and
 * the database is then out of order for that pair. From that moment the
 * database writes no table file and no MANIFEST record (each fails with
 * PR_CODE_IO_ERROR naming the comparator, which stops the database's
 * flushes, compactions and writes as a background error does), so nothing
 * written in a mixed order is kept; its log still takes the writes in
 * flight, and an open with a comparator that answers replays them. The
 * caller must stop using the database (pinrock's Java API refuses every
 * later call on it) and close it, whose status then reports the stop. A
 * table file writer (pr_sst_writer_open) and a repair (pr_db_repair) made
 * with such a comparator write through the same gate. */

/* Compares key a with key b: returns a negative number when a comes first,
 * 0 when they are the same key, a positive one when b comes first, or
 * PR_COMPARE_FAILED. The answers must be a total order that never changes
 * for the life of the data. */
typedef int32_t (*pr_compare_fn)(uint64_t state, const uint8_t* a, size_t a_len,
                                 const uint8_t* b, size_t b_len);

/* What a compare returns when it cannot answer. */
#define PR_COMPARE_FAILED INT32_MIN

/* A comparator of the caller's. */
typedef struct pr_comparator pr_comparator_t;

/* Creates a comparator named name (the rules of pr_merge_operator_create's
 * names; none of RocksDB's built-in comparators' names) whose comparisons
 * compare makes. Returns PR_OK, or PR_CODE_INVALID_ARGUMENT for a name out
 * of range or RocksDB's. state is released once (C1), also when this call
 * fails. name is not kept. The caller destroys the handle with
 * pr_comparator_destroy; options, databases and table file writers hold
 * the comparator on their own. A family ordered by it answers pr_db_get_at
 * with PR_READ_MEMORY_ONLY with PR_CODE_INCOMPLETE at once: that read must
 * not call back. */
PR_API int32_t pr_comparator_create(const char* name, uint64_t state, pr_compare_fn compare,
                                    pr_comparator_t** comparator_out, char* err, size_t err_cap);

/* Drops the caller's hold of a comparator. NULL is accepted. */
PR_API void pr_comparator_destroy(pr_comparator_t* comparator);

/* Sets options' comparator (replacing one set before, by name or not); the
 * options, and the databases, families and table file writers made with
 * them, hold it. Returns PR_OK, or PR_CODE_INTERNAL when memory is
 * exhausted. */
PR_API int32_t pr_options_set_comparator_object(pr_options_t* options,
                                                const pr_comparator_t* comparator, char* err,
                                                size_t err_cap);

#ifdef __cplusplus
}
#endif

#endif /* PINROCK_H */
