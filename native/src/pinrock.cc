// The C-stub shim: every function of pinrock.h over the RocksDB C++ API.
// Each entry point converts C arguments, calls RocksDB, and turns the
// rocksdb::Status (or a caught C++ exception) into a status code through
// the helpers below; no logic is repeated per function.
#include "pinrock.h"
#include "scan_copy.h"
#include "testing.h"

#include <rocksdb/advanced_cache.h>
#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/metadata.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/checkpoint.h>
#include <rocksdb/utilities/memory_util.h>
#include <rocksdb/utilities/options_util.h>
#include <rocksdb/version.h>
#include <rocksdb/write_buffer_manager.h>
#include <rocksdb/write_batch.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <deque>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <thread>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

struct pr_memory_budget {
  std::shared_ptr<rocksdb::Cache> cache;
  std::shared_ptr<rocksdb::WriteBufferManager> write_buffer_manager;
};

// A merge operator pinrock offers: one of RocksDB's built-ins that neither
// throws nor loses data on any input, by its name. operand_bytes, when not
// 0, is the one operand length it reads (uint64add counts any other operand
// as 0): a batch merging an operand of another length is refused.
struct MergeOperatorKind {
  const char* name;
  size_t operand_bytes;
};

struct pr_options {
  bool create_if_missing = false;
  bool error_if_exists = false;
  bool paranoid_checks = true;
  rocksdb::WALRecoveryMode wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  rocksdb::CompressionType compression = rocksdb::kLZ4Compression;
  rocksdb::CompressionType bottommost_compression = rocksdb::kZSTD;
  int zstd_level = ZSTD_CLEVEL_DEFAULT;
  uint64_t block_cache_bytes = 32ull << 20;
  uint64_t write_buffer_bytes = 64ull << 20;
  int max_open_files = -1;
  std::shared_ptr<rocksdb::MergeOperator> merge_operator;
  const MergeOperatorKind* merge_operator_kind = nullptr;
  std::shared_ptr<pr_memory_budget> memory_budget;
  std::vector<rocksdb::CompressionType> compression_per_level;
  uint32_t max_dict_bytes = 0;
  uint32_t zstd_train_bytes = 0;
  uint32_t compression_threads = 1;
  int32_t statistics_level = 0;
  rocksdb::InfoLogLevel info_log_level = rocksdb::InfoLogLevel::INFO_LEVEL;
  bool info_log_to_queue = false;
  // Options of existing column families opened by pr_db_open, by name.
  std::map<std::string, std::shared_ptr<pr_options>> family_options;
  // Tests only (testing.h): the Env the database's files go through.
  std::shared_ptr<rocksdb::Env> env;
};

void pinrock_testing_set_env(pr_options_t* options, std::shared_ptr<rocksdb::Env> env) {
  options->env = std::move(env);
}

struct pr_database;

namespace {

// One database per directory per process. RocksDB's lock on a database is
// keyed by the name of its LOCK file, so the same directory reached through
// another spelling of its path (dir/./db, dir/../dir/db, a symlink, a bind
// mount) would be opened twice in one process: two instances writing one
// database, the writes of one lost on reopen, and closing either dropping
// the lock the other relies on. Every open and repair therefore claims its
// directory, identified by device and inode, for as long as it uses it.
class DirectoryClaim {
 public:
  DirectoryClaim() = default;
  DirectoryClaim(const DirectoryClaim&) = delete;
  DirectoryClaim& operator=(const DirectoryClaim&) = delete;
  ~DirectoryClaim() {
    if (!claimed_) return;
    std::lock_guard<std::mutex> lock(mutex());
    claimed().erase(directory_);
  }

  // Claims the directory at path. Returns OK, NotFound when path is no
  // directory (nothing is claimed), or IOError when this process already
  // uses the directory, under whatever path.
  rocksdb::Status Claim(const std::string& path) {
    struct stat status;
    if (::stat(path.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) {
      return rocksdb::Status::NotFound("no directory at " + path);
    }
    std::lock_guard<std::mutex> lock(mutex());
    if (!claimed().insert({status.st_dev, status.st_ino}).second) {
      return rocksdb::Status::IOError("lock hold by current process: the database at " + path +
                                      " is already open (or being repaired) in this process");
    }
    directory_ = {status.st_dev, status.st_ino};
    claimed_ = true;
    return rocksdb::Status::OK();
  }

 private:
  using Directory = std::pair<dev_t, ino_t>;
  // Never destroyed, like LogQueue: a database may close while the process exits.
  static std::mutex& mutex() {
    static std::mutex* mutex = new std::mutex();
    return *mutex;
  }
  static std::set<Directory>& claimed() {
    static std::set<Directory>* claimed = new std::set<Directory>();
    return *claimed;
  }
  Directory directory_{};
  bool claimed_ = false;
};

}  // namespace

// The write options every write starts from. RocksDB writes a group of
// concurrent writes to the log together and then applies them one by one;
// applying one that names a column family dropped meanwhile would fail, and
// with it every write of the group (applied ones included), and stop the
// database with a background error. Such a write can only be one that passed
// the shim's own check just before a drop: it is discarded with the family.
rocksdb::WriteOptions base_write_options() {
  rocksdb::WriteOptions options;
  options.ignore_missing_column_families = true;
  return options;
}

// options answering from the memtables and the block cache only: a read
// needing I/O fails with Incomplete instead.
rocksdb::ReadOptions memory_only(rocksdb::ReadOptions options) {
  options.read_tier = rocksdb::kBlockCacheTier;
  return options;
}

// A handle on one column family of an open database. The one pr_db_open
// returns (the default family) owns the database; the others belong to it.
struct pr_db {
  rocksdb::DB* db = nullptr;
  pr_database* database = nullptr;
  rocksdb::ColumnFamilyHandle* family = nullptr;
  std::string name;
  // Shared with every pin: a pinned block lives in this cache, so the cache
  // must outlive the pins even when the database closes first.
  std::shared_ptr<rocksdb::Cache> block_cache;
  rocksdb::ReadOptions read_options;
  // read_options answering from memory only (PR_READ_MEMORY_ONLY alone),
  // kept so the hot path of memory-only gets copies no ReadOptions.
  rocksdb::ReadOptions memory_only_read_options = memory_only(read_options);
  rocksdb::WriteOptions write_options = base_write_options();
  // The family's merge operator, null without one.
  const MergeOperatorKind* merge_operator = nullptr;
  // Set once the family is dropped: writes through the handle are refused.
  std::atomic<bool> dropped{false};
  // The handle's own hold, until pr_db_family_release, plus one per open
  // cursor on the family (RocksDB's iterators use the family's handle): the
  // last to go frees the handle, and with it the dropped family's memtables.
  std::atomic<int64_t> holds{1};
  // Set on the default family's handle only.
  std::unique_ptr<pr_database> owned;
};

// What every handle of one open database shares.
struct pr_database {
  // First, so that it is released last, once the database is closed.
  DirectoryClaim directory;
  std::unique_ptr<rocksdb::DB> db;
  // Cursors not yet closed: RocksDB's iterators must die before the DB.
  std::atomic<int64_t> open_cursors{0};
  // Set by pr_db_set_closing: writes waiting out a stall give up.
  std::atomic<bool> closing{false};
  // Null unless opened with statistics.
  std::shared_ptr<rocksdb::Statistics> statistics;
  // The default family's settings, for families created without options.
  rocksdb::ColumnFamilyOptions default_family_options;
  std::shared_ptr<rocksdb::Cache> default_block_cache;
  const MergeOperatorKind* default_merge_operator = nullptr;
  // Guards what follows: shared by readers (every batch write checks its
  // families), exclusive for creating and dropping families.
  std::shared_mutex mutex;
  // Every other family opened or created and not yet freed: a dropped
  // family's handle lives until pr_db_family_release and its cursors are
  // done with it, or until the database closes.
  std::vector<std::unique_ptr<pr_db>> families;
  // The families not dropped, the default one included, by name.
  std::map<std::string, pr_db*> open_families;
};

struct pr_cursor {
  pr_db* db;
  // The bounds live here: RocksDB keeps pointers to them in read_options.
  std::string lower;
  std::string upper;
  rocksdb::Slice lower_slice;
  rocksdb::Slice upper_slice;
  std::unique_ptr<rocksdb::Iterator> iterator;
};

struct pr_sst_writer {
  std::unique_ptr<rocksdb::SstFileWriter> writer;
};

struct pr_pin {
  // Declared first so that it is destroyed last: the slice's cleanup
  // releases its handle into this cache, which the pin may be the last to
  // hold once the database has closed.
  std::shared_ptr<rocksdb::Cache> block_cache;
  rocksdb::PinnableSlice slice;
};

namespace {

constexpr int32_t kStatusInternal = PR_CODE_INTERNAL;

void write_message(const char* message, size_t length, char* err, size_t err_cap) {
  if (err == nullptr || err_cap == 0) return;
  size_t n = length < err_cap - 1 ? length : err_cap - 1;
  std::memcpy(err, message, n);
  err[n] = '\0';
}

int32_t fail(int32_t status, const std::string& message, char* err, size_t err_cap) {
  write_message(message.data(), message.size(), err, err_cap);
  return status;
}

// The one place a rocksdb::Status becomes a pinrock status code.
int32_t to_status(const rocksdb::Status& s, char* err, size_t err_cap) {
  if (s.ok()) return PR_OK;
  int32_t status = static_cast<int32_t>(s.code()) | (static_cast<int32_t>(s.subcode()) << 8);
  if (s.IsNotFound()) return status;  // a return value, not an error
  return fail(status, s.ToString(), err, err_cap);
}

int32_t invalid_argument(const std::string& message, char* err, size_t err_cap) {
  return fail(PR_CODE_INVALID_ARGUMENT, "Invalid argument: " + message, err, err_cap);
}

// A write through the handle of a dropped column family.
int32_t dropped_family(const pr_db& family, char* err, size_t err_cap) {
  return invalid_argument("column family '" + family.name + "' is dropped", err, err_cap);
}

// Gives up one hold on a family's handle (pr_db::holds); the last frees the
// handle, and so RocksDB's state of the family once it is dropped.
void drop_hold(pr_db* family) {
  if (--family->holds > 0) return;
  pr_database& database = *family->database;
  std::unique_lock<std::shared_mutex> lock(database.mutex);
  database.db->DestroyColumnFamilyHandle(family->family);
  database.families.erase(
      std::find_if(database.families.begin(), database.families.end(),
                   [family](const std::unique_ptr<pr_db>& held) { return held.get() == family; }));
}

// A key or value longer than RocksDB can store; guarded() turns it into
// PR_CODE_INVALID_ARGUMENT before RocksDB sees the argument.
struct too_long : std::length_error {
  using std::length_error::length_error;
};

// Runs body and converts any C++ exception into a status (too_long into
// PR_CODE_INVALID_ARGUMENT, anything else into PR_CODE_INTERNAL), so that
// nothing throws across the C boundary.
template <typename Body>
int32_t guarded(char* err, size_t err_cap, Body&& body) noexcept {
  try {
    return body();
  } catch (const too_long& e) {
    return invalid_argument(e.what(), err, err_cap);
  } catch (const std::bad_alloc&) {
    return fail(kStatusInternal, "pinrock: out of memory", err, err_cap);
  } catch (const std::exception& e) {
    return fail(kStatusInternal, std::string("pinrock: ") + e.what(), err, err_cap);
  } catch (...) {
    return fail(kStatusInternal, "pinrock: unknown C++ exception", err, err_cap);
  }
}

bool known_compression(int32_t type) {
  switch (type) {
    case PR_COMPRESSION_NONE:
    case PR_COMPRESSION_SNAPPY:
    case PR_COMPRESSION_ZLIB:
    case PR_COMPRESSION_BZIP2:
    case PR_COMPRESSION_LZ4:
    case PR_COMPRESSION_LZ4HC:
    case PR_COMPRESSION_ZSTD:
      return true;
    default:
      return false;
  }
}

// RocksDB encodes lengths as 32-bit varints, and some paths (Delete,
// lookups, seeks) truncate a longer length silently instead of failing, so
// every key and value crossing the boundary is checked here; throws
// too_long. Keys are bounded far lower than RocksDB's 2^32 - 9: a flush
// holds about 14 copies of the longest key at once (measured: put and
// flush of one key of 8, 32, 64, 128 MiB raise the peak resident memory by
// 16, 14, 14, 14 times the key), so an 8 MiB key costs a flush ~130 MB.
constexpr size_t kMaxValueBytes = std::numeric_limits<uint32_t>::max();
constexpr size_t kMaxKeyBytes = PR_MAX_KEY_BYTES;

rocksdb::Slice checked_slice(const char* what, size_t max, const uint8_t* data, size_t len) {
  if (len > max) {
    throw too_long(std::string("a ") + what + " of " + std::to_string(len) +
                   " bytes exceeds the limit of " + std::to_string(max) + " bytes");
  }
  return rocksdb::Slice(reinterpret_cast<const char*>(data), len);
}

rocksdb::Slice key_slice(const uint8_t* data, size_t len) {
  return checked_slice("key", kMaxKeyBytes, data, len);
}

rocksdb::Slice value_slice(const uint8_t* data, size_t len) {
  return checked_slice("value", kMaxValueBytes, data, len);
}

rocksdb::Options to_rocksdb_options(const pr_options& o, std::shared_ptr<rocksdb::Cache>* cache) {
  rocksdb::Options options;
  options.create_if_missing = o.create_if_missing;
  options.error_if_exists = o.error_if_exists;
  options.paranoid_checks = o.paranoid_checks;
  options.wal_recovery_mode = o.wal_recovery_mode;
  options.compression = o.compression;
  options.bottommost_compression = o.bottommost_compression;
  options.compression_per_level = o.compression_per_level;
  for (rocksdb::CompressionOptions* opts :
       {&options.compression_opts, &options.bottommost_compression_opts}) {
    opts->level = o.zstd_level;
    opts->max_dict_bytes = o.max_dict_bytes;
    opts->zstd_max_train_bytes = o.zstd_train_bytes;
    opts->parallel_threads = o.compression_threads;
  }
  options.bottommost_compression_opts.enabled = true;
  options.write_buffer_size = o.write_buffer_bytes;
  options.max_open_files = o.max_open_files;
  options.merge_operator = o.merge_operator;
  // A SingleDelete misused (after a Delete, a Merge, another SingleDelete,
  // or a key put twice) leaves that key's value undefined, as RocksDB
  // documents. Enforcing the contract instead fails every flush and
  // compaction that meets such a key, with Corruption: the database stops
  // taking writes and cannot be opened again. Without it RocksDB logs the
  // misuse and goes on, and only that key is affected.
  options.enforce_single_del_contracts = false;
  if (o.env) options.env = o.env.get();
  if (o.statistics_level > 0) {
    options.statistics = rocksdb::CreateDBStatistics();
    options.statistics->set_stats_level(static_cast<rocksdb::StatsLevel>(o.statistics_level));
  }

  rocksdb::BlockBasedTableOptions table;
  if (o.memory_budget) {
    *cache = o.memory_budget->cache;
    table.block_cache = *cache;
    options.write_buffer_manager = o.memory_budget->write_buffer_manager;
  } else if (o.block_cache_bytes == 0) {
    table.no_block_cache = true;
  } else {
    *cache = rocksdb::NewLRUCache(o.block_cache_bytes);
    table.block_cache = *cache;
  }
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

// Parses a whole write batch before it is applied, so that a batch that
// RocksDB would reject part-way is refused before anything is written.
// RocksDB writes a batch to the log first and checks some records only when
// it applies them to the memtable (its MemTableInserter): a batch failing
// there is applied in part, and stays in the log, to be replayed on reopen.
// Every such check that can fail with pinrock's options is made here: a
// record kind pinrock does not write (the Handler's defaults refuse them), a
// family not open, a range delete whose end comes before its begin, a merge
// into a family without a merge operator. The memtable's other refusals
// (DeleteRange unsupported by the table format or with a row cache,
// user-defined timestamps, in-place updates, max_successive_merges, a key
// added twice with one sequence number) need options pinrock does not set.
class BatchCheck : public rocksdb::WriteBatch::Handler {
 public:
  // The caller holds the database's mutex (shared) while the batch is checked.
  explicit BatchCheck(const pr_database& database) : database_(database) {}

  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& key, const rocksdb::Slice&) override {
    return KnownFamilyAndKey(cf, key);
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    return KnownFamilyAndKey(cf, key);
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    return KnownFamilyAndKey(cf, key);
  }
  rocksdb::Status DeleteRangeCF(uint32_t cf, const rocksdb::Slice& begin,
                                const rocksdb::Slice& end) override {
    const pr_db* family = OpenFamily(cf);
    if (family == nullptr) return NotOpen(cf);
    if (begin.size() > kMaxKeyBytes || end.size() > kMaxKeyBytes) return TooLong();
    // begin == end is an empty range, which RocksDB skips.
    if (family->family->GetComparator()->Compare(begin, end) > 0) {
      return rocksdb::Status::InvalidArgument(
          "the batch deletes a range whose end key comes before its begin key");
    }
    return rocksdb::Status::OK();
  }
  rocksdb::Status MergeCF(uint32_t cf, const rocksdb::Slice& key,
                          const rocksdb::Slice& operand) override {
    const pr_db* family = OpenFamily(cf);
    if (family == nullptr) return NotOpen(cf);
    if (key.size() > kMaxKeyBytes) return TooLong();
    if (family->merge_operator == nullptr) {
      return rocksdb::Status::InvalidArgument("the batch has a merge into column family '" +
                                              family->name + "', which has no merge operator");
    }
    size_t operand_bytes = family->merge_operator->operand_bytes;
    if (operand_bytes != 0 && operand.size() != operand_bytes) {
      return rocksdb::Status::InvalidArgument(
          "the batch merges an operand of " + std::to_string(operand.size()) +
          " bytes into column family '" + family->name + "', whose merge operator " +
          family->merge_operator->name + " takes operands of " + std::to_string(operand_bytes) +
          " bytes");
    }
    return rocksdb::Status::OK();
  }

 private:
  const pr_db* OpenFamily(uint32_t cf) const {
    for (const auto& [name, family] : database_.open_families) {
      if (family->family->GetID() == cf) return family;
    }
    return nullptr;
  }
  rocksdb::Status KnownFamilyAndKey(uint32_t cf, const rocksdb::Slice& key) const {
    if (OpenFamily(cf) == nullptr) return NotOpen(cf);
    return key.size() > kMaxKeyBytes ? TooLong() : rocksdb::Status::OK();
  }
  static rocksdb::Status TooLong() {
    return rocksdb::Status::InvalidArgument("the batch holds a key longer than the limit of " +
                                            std::to_string(kMaxKeyBytes) + " bytes");
  }
  static rocksdb::Status NotOpen(uint32_t cf) {
    return rocksdb::Status::InvalidArgument("the batch writes to column family " +
                                            std::to_string(cf) + ", which is not open");
  }
  const pr_database& database_;
};

rocksdb::WriteOptions write_options(const pr_db& db, uint32_t flags) {
  rocksdb::WriteOptions options = db.write_options;
  options.sync = (flags & PR_WRITE_SYNC) != 0;
  options.disableWAL = (flags & PR_WRITE_DISABLE_WAL) != 0;
  options.no_slowdown = (flags & PR_WRITE_NO_SLOWDOWN) != 0;
  return options;
}

// Runs a write (write(options) -> Status) that waits out write stalls. RocksDB
// can leave a writer waiting in a stall for good: a flush that fails (a full
// disk) stops writes, and a writer that began waiting before the error was
// recorded is never woken. So unless the caller asked to fail on a stall,
// each attempt fails at once on one (no_slowdown) and is retried after a
// pause; an attempt after the failure returns the background error, and once
// the database is closing (pr_db_set_closing) the write gives up unapplied.
template <typename Write>
rocksdb::Status write_waiting_out_stalls(const pr_database& database, rocksdb::WriteOptions options,
                                         Write&& write) {
  if (options.no_slowdown) return write(options);
  options.no_slowdown = true;
  auto pause = std::chrono::microseconds(50);
  while (true) {
    rocksdb::Status s = write(options);
    if (!s.IsIncomplete()) return s;
    if (database.closing.load()) return rocksdb::Status::ShutdownInProgress("the database is closing");
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10000));
  }
}

// The database's read options with a snapshot and PR_READ_* flags applied.
rocksdb::ReadOptions read_options(const pr_db& db, const pr_snapshot_t* snapshot,
                                  uint32_t read_flags) {
  rocksdb::ReadOptions options = db.read_options;
  options.snapshot = reinterpret_cast<const rocksdb::Snapshot*>(snapshot);
  options.fill_cache = (read_flags & PR_READ_SKIP_FILL_CACHE) == 0;
  options.verify_checksums = (read_flags & PR_READ_SKIP_CHECKSUMS) == 0;
  if ((read_flags & PR_READ_MEMORY_ONLY) != 0) options = memory_only(options);
  options.async_io = (read_flags & PR_READ_ASYNC_IO) != 0;
  return options;
}

// Reports where a cursor is: PR_OK with *entry set when it is on an entry,
// PR_NOT_FOUND when it has run out, or the status of a failed read.
int32_t cursor_position(const rocksdb::Iterator& iterator, pr_cursor_entry_t* entry, char* err,
                        size_t err_cap) {
  *entry = pr_cursor_entry_t{nullptr, 0, nullptr, 0};
  if (!iterator.Valid()) {
    rocksdb::Status s = iterator.status();
    return s.ok() ? PR_NOT_FOUND : to_status(s, err, err_cap);
  }
  rocksdb::Slice key = iterator.key();
  rocksdb::Slice value = iterator.value();
  *entry = pr_cursor_entry_t{reinterpret_cast<const uint8_t*>(key.data()), key.size(),
                             reinterpret_cast<const uint8_t*>(value.data()), value.size()};
  return PR_OK;
}

// The one-call read behind pr_db_get and pr_db_get_at.
int32_t get(const pr_db& db, const rocksdb::ReadOptions& options, const uint8_t* key,
            size_t key_len, uint8_t* buf, size_t buf_cap, uint32_t flags,
            pr_get_result_t* result, char* err, size_t err_cap) {
  *result = pr_get_result_t{0, nullptr, nullptr};
  rocksdb::PinnableSlice value;
  rocksdb::Status s =
      db.db->Get(options, db.family, key_slice(key, key_len), &value);
  if (!s.ok()) return to_status(s, err, err_cap);
  result->value_len = value.size();
  if (value.size() <= buf_cap) {
    if (value.size() > 0) std::memcpy(buf, value.data(), value.size());
    result->data = buf;
  } else if ((flags & PR_GET_PIN_IF_LARGER) != 0) {
    auto* pin = new pr_pin{db.block_cache, std::move(value)};
    result->data = reinterpret_cast<const uint8_t*>(pin->slice.data());
    result->pin = pin;
  }
  return PR_OK;
}

// The process-wide queue of info-log messages read by pr_log_next. Never
// destroyed: RocksDB's background threads and a reader blocked in
// pr_log_next may still use it while the process exits.
class LogQueue {
 public:
  static LogQueue& instance() {
    static LogQueue* queue = new LogQueue();
    return *queue;
  }

  void push(rocksdb::InfoLogLevel level, std::string text) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (messages_.size() == kCapacity) {
        messages_.pop_front();
        dropped_++;
      }
      messages_.push_back({level, std::move(text)});
    }
    ready_.notify_one();
  }

  int32_t next(int64_t timeout_ms, int32_t* level, char* text, size_t text_cap,
               uint64_t* dropped) {
    std::unique_lock<std::mutex> lock(mutex_);
    // At most a day per call, so that the deadline cannot overflow the clock.
    int64_t wait_ms = timeout_ms < 0 ? 0 : timeout_ms > kDayMs ? kDayMs : timeout_ms;
    if (!ready_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                         [this] { return !messages_.empty(); })) {
      return 0;
    }
    Message message = std::move(messages_.front());
    messages_.pop_front();
    *dropped = dropped_;
    dropped_ = 0;
    lock.unlock();
    *level = static_cast<int32_t>(message.level);
    write_message(message.text.data(), message.text.size(), text, text_cap);
    return 1;
  }

 private:
  static constexpr size_t kCapacity = 4096;
  static constexpr int64_t kDayMs = 24 * 3600 * 1000;
  struct Message {
    rocksdb::InfoLogLevel level;
    std::string text;
  };
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Message> messages_;
  uint64_t dropped_ = 0;
};

// An info log that formats each message and puts it on the LogQueue,
// prefixed with the database's path.
class QueueLogger : public rocksdb::Logger {
 public:
  QueueLogger(rocksdb::InfoLogLevel level, std::string path)
      : rocksdb::Logger(level), prefix_(std::move(path) + ": ") {}

  using rocksdb::Logger::Logv;

  void Logv(const char* format, va_list ap) override {
    Push(rocksdb::InfoLogLevel::INFO_LEVEL, format, ap);
  }

  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override {
    if (level < GetInfoLogLevel()) return;
    Push(level, format, ap);
  }

  // The header (version, options) is informational: logged at INFO and below.
  void LogHeader(const char* format, va_list ap) override {
    if (GetInfoLogLevel() > rocksdb::InfoLogLevel::INFO_LEVEL) return;
    Push(rocksdb::InfoLogLevel::HEADER_LEVEL, format, ap);
  }

 private:
  void Push(rocksdb::InfoLogLevel level, const char* format, va_list ap) {
    va_list measure;
    va_copy(measure, ap);
    int length = std::vsnprintf(nullptr, 0, format, measure);
    va_end(measure);
    if (length < 0) return;
    std::string text = prefix_;
    size_t start = text.size();
    text.resize(start + static_cast<size_t>(length) + 1);
    std::vsnprintf(&text[start], static_cast<size_t>(length) + 1, format, ap);
    text.resize(start + static_cast<size_t>(length));
    LogQueue::instance().push(level, std::move(text));
  }

  const std::string prefix_;
};

}  // namespace

extern "C" {

int32_t pr_engine_version(void) {
  return ROCKSDB_MAJOR * 10000 + ROCKSDB_MINOR * 100 + ROCKSDB_PATCH;
}

pr_options_t* pr_options_create(void) {
  try {
    return new pr_options();
  } catch (...) {
    return nullptr;
  }
}

void pr_options_destroy(pr_options_t* options) { delete options; }

void pr_options_set_create_if_missing(pr_options_t* options, int32_t value) {
  options->create_if_missing = value != 0;
}

void pr_options_set_error_if_exists(pr_options_t* options, int32_t value) {
  options->error_if_exists = value != 0;
}

void pr_options_set_paranoid_checks(pr_options_t* options, int32_t value) {
  options->paranoid_checks = value != 0;
}

int32_t pr_options_set_wal_recovery_mode(pr_options_t* options, int32_t mode, char* err,
                                         size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (mode < PR_WAL_RECOVERY_TOLERATE_CORRUPTED_TAIL || mode > PR_WAL_RECOVERY_SKIP_ANY_CORRUPTED) {
      return invalid_argument("unknown WAL recovery mode " + std::to_string(mode), err, err_cap);
    }
    options->wal_recovery_mode = static_cast<rocksdb::WALRecoveryMode>(mode);
    return PR_OK;
  });
}

int32_t pr_options_set_compression(pr_options_t* options, int32_t type, char* err,
                                   size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (!known_compression(type)) {
      return invalid_argument("unknown compression type " + std::to_string(type), err, err_cap);
    }
    options->compression = static_cast<rocksdb::CompressionType>(type);
    return PR_OK;
  });
}

int32_t pr_options_set_bottommost_compression(pr_options_t* options, int32_t type, char* err,
                                              size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (type == PR_COMPRESSION_INHERIT) {
      options->bottommost_compression = rocksdb::kDisableCompressionOption;
      return PR_OK;
    }
    if (!known_compression(type)) {
      return invalid_argument("unknown bottommost compression type " + std::to_string(type), err,
                              err_cap);
    }
    options->bottommost_compression = static_cast<rocksdb::CompressionType>(type);
    return PR_OK;
  });
}

int32_t pr_options_set_zstd_level(pr_options_t* options, int32_t level, char* err,
                                  size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
      return invalid_argument("zstd level " + std::to_string(level) + " is outside [" +
                                  std::to_string(ZSTD_minCLevel()) + ", " +
                                  std::to_string(ZSTD_maxCLevel()) + "]",
                              err, err_cap);
    }
    options->zstd_level = level;
    return PR_OK;
  });
}

int32_t pr_options_set_compression_per_level(pr_options_t* options, const int32_t* types,
                                             size_t n, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (n > 7) {
      return invalid_argument(std::to_string(n) + " levels of compression, at most 7", err,
                              err_cap);
    }
    std::vector<rocksdb::CompressionType> levels;
    for (size_t i = 0; i < n; i++) {
      if (!known_compression(types[i])) {
        return invalid_argument("unknown compression type " + std::to_string(types[i]) +
                                    " for level " + std::to_string(i),
                                err, err_cap);
      }
      levels.push_back(static_cast<rocksdb::CompressionType>(types[i]));
    }
    options->compression_per_level = std::move(levels);
    return PR_OK;
  });
}

int32_t pr_options_set_zstd_dictionary(pr_options_t* options, uint32_t max_dict_bytes,
                                       uint32_t train_bytes, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (max_dict_bytes > (1u << 30) || train_bytes > (1u << 31)) {
      return invalid_argument("a zstd dictionary of " + std::to_string(max_dict_bytes) +
                                  " bytes trained on " + std::to_string(train_bytes) +
                                  " exceeds 1 GiB / 2 GiB",
                              err, err_cap);
    }
    if (train_bytes != 0 && train_bytes < max_dict_bytes) {
      return invalid_argument("zstd dictionary training on " + std::to_string(train_bytes) +
                                  " bytes is less than the dictionary's " +
                                  std::to_string(max_dict_bytes),
                              err, err_cap);
    }
    options->max_dict_bytes = max_dict_bytes;
    options->zstd_train_bytes = train_bytes;
    return PR_OK;
  });
}

int32_t pr_options_set_compression_threads(pr_options_t* options, uint32_t threads, char* err,
                                           size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (threads < 1 || threads > 64) {
      return invalid_argument(std::to_string(threads) + " compression threads, not in 1..64",
                              err, err_cap);
    }
    options->compression_threads = threads;
    return PR_OK;
  });
}

int32_t pr_options_set_block_cache_bytes(pr_options_t* options, uint64_t bytes, char* err,
                                         size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (bytes > (1ull << 62)) {
      return invalid_argument("block cache of " + std::to_string(bytes) + " bytes exceeds 2^62",
                              err, err_cap);
    }
    options->block_cache_bytes = bytes;
    return PR_OK;
  });
}

int32_t pr_options_set_write_buffer_bytes(pr_options_t* options, uint64_t bytes, char* err,
                                          size_t err_cap) {
  return guarded(err, err_cap, [&] {
    // RocksDB clips larger sizes to 64 GiB; refused instead, as told.
    if (bytes < (64ull << 10) || bytes > (64ull << 30)) {
      return invalid_argument("write buffer of " + std::to_string(bytes) +
                                  " bytes is outside [64 KiB, 64 GiB]",
                              err, err_cap);
    }
    options->write_buffer_bytes = bytes;
    return PR_OK;
  });
}

int32_t pr_options_set_max_open_files(pr_options_t* options, int32_t count, char* err,
                                      size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (count != -1 && count < 20) {
      return invalid_argument("max open files " + std::to_string(count) +
                                  " must be -1 (unlimited) or at least 20",
                              err, err_cap);
    }
    options->max_open_files = count;
    return PR_OK;
  });
}

int32_t pr_memory_budget_create(uint64_t total_bytes, uint64_t memtable_bytes,
                                pr_memory_budget_t** budget_out, char* err, size_t err_cap) {
  *budget_out = nullptr;
  return guarded(err, err_cap, [&] {
    if (total_bytes == 0 || total_bytes > (1ull << 62) || memtable_bytes > total_bytes) {
      return invalid_argument("a memory budget of " + std::to_string(total_bytes) +
                                  " bytes with " + std::to_string(memtable_bytes) +
                                  " for memtables breaks 0 < total <= 2^62, memtables <= total",
                              err, err_cap);
    }
    auto budget = std::make_unique<pr_memory_budget>();
    budget->cache = rocksdb::NewLRUCache(total_bytes);
    budget->write_buffer_manager =
        std::make_shared<rocksdb::WriteBufferManager>(memtable_bytes, budget->cache);
    *budget_out = budget.release();
    return PR_OK;
  });
}

void pr_memory_budget_destroy(pr_memory_budget_t* budget) { delete budget; }

int32_t pr_options_set_memory_budget(pr_options_t* options, const pr_memory_budget_t* budget,
                                     char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->memory_budget = std::make_shared<pr_memory_budget>(*budget);
    return PR_OK;
  });
}

uint64_t pr_memory_budget_usage(const pr_memory_budget_t* budget) {
  return budget->cache->GetUsage();
}

int32_t pr_options_set_merge_operator(pr_options_t* options, const char* name, char* err,
                                      size_t err_cap) {
  // RocksDB's other built-ins are left out: sortlist throws on an operand
  // that is not a list of numbers (std::terminate in a compaction), and the
  // test operators and option strings reach RocksDB's object registry.
  static constexpr MergeOperatorKind kKinds[] = {
      {"uint64add", 8}, {"stringappend", 0}, {"max", 0}, {"put", 0}, {"bytesxor", 0}};
  return guarded(err, err_cap, [&] {
    const MergeOperatorKind* kind = nullptr;
    std::string allowed;
    for (const MergeOperatorKind& candidate : kKinds) {
      if (std::strcmp(candidate.name, name) == 0) kind = &candidate;
      allowed += (allowed.empty() ? "" : ", ") + std::string(candidate.name);
    }
    if (kind == nullptr) {
      return invalid_argument(std::string("unknown merge operator \"") + name +
                                  "\": pinrock offers " + allowed,
                              err, err_cap);
    }
    std::shared_ptr<rocksdb::MergeOperator> merge_operator;
    rocksdb::Status s = rocksdb::MergeOperator::CreateFromString(rocksdb::ConfigOptions(),
                                                                 kind->name, &merge_operator);
    if (!s.ok()) return to_status(s, err, err_cap);
    options->merge_operator = std::move(merge_operator);
    options->merge_operator_kind = kind;
    return PR_OK;
  });
}

namespace {

// The options of column family name: its own in families, or others.
const rocksdb::ColumnFamilyOptions& family_options(
    const std::vector<rocksdb::ColumnFamilyDescriptor>& families, const std::string& name,
    const rocksdb::ColumnFamilyOptions& others) {
  for (const rocksdb::ColumnFamilyDescriptor& family : families) {
    if (family.name == name) return family.options;
  }
  return others;
}

// A merge operator as an OPTIONS file names it.
std::string merge_operator_name(const rocksdb::MergeOperator* merge_operator) {
  return merge_operator != nullptr ? merge_operator->Name() : "nullptr";
}

// The families, with their options, that the database's newest OPTIONS file
// records (RocksDB rewrites it at every open and family change).
rocksdb::Status load_recorded_families(const std::string& path,
                                       std::vector<rocksdb::ColumnFamilyDescriptor>* recorded) {
  rocksdb::ConfigOptions config;
  config.env = rocksdb::Env::Default();
  config.ignore_unknown_options = true;
  config.ignore_unsupported_options = true;
  rocksdb::DBOptions recorded_db_options;
  return rocksdb::LoadLatestOptions(config, path, &recorded_db_options, recorded);
}

// Refuses to open or repair the database at path with column family options
// its log cannot be replayed with. RocksDB replays the log with the options
// it is given: a merge into a family given no merge operator (or another
// one) cannot be applied, point-in-time recovery stops there and deletes the
// log, and that write and every later one, in every family, is gone. Each
// family the database's latest OPTIONS file records (as it was last opened)
// is compared with its options in families (others for a family not there):
// the comparator must be the same, and so must the merge operator unless the
// file records none (RocksDB's own rule: a family without one cannot have
// merges in its log). Returns OK or InvalidArgument naming the family and
// both; a database without a readable OPTIONS file (a new one) passes.
rocksdb::Status check_recorded_family_options(
    const std::string& path, const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
    const rocksdb::ColumnFamilyOptions& others) {
  std::vector<rocksdb::ColumnFamilyDescriptor> recorded;
  if (!load_recorded_families(path, &recorded).ok()) return rocksdb::Status::OK();
  for (const rocksdb::ColumnFamilyDescriptor& family : recorded) {
    const rocksdb::ColumnFamilyOptions& given = family_options(families, family.name, others);
    const std::string was = merge_operator_name(family.options.merge_operator.get());
    const std::string now = merge_operator_name(given.merge_operator.get());
    if (family.options.merge_operator != nullptr && was != now) {
      return rocksdb::Status::InvalidArgument(
          "column family '" + family.name + "' was last opened with merge operator " + was +
          ", not " + now + ": its log may hold merges only " + was +
          " applies; give the family the merge operator it was written with");
    }
    if (family.options.comparator != nullptr &&
        std::string(family.options.comparator->Name()) != given.comparator->Name()) {
      return rocksdb::Status::InvalidArgument(
          "column family '" + family.name + "' was last opened with comparator " +
          family.options.comparator->Name() + ", not " + given.comparator->Name());
    }
  }
  return rocksdb::Status::OK();
}

}  // namespace

int32_t pr_db_open(const pr_options_t* options, const char* path, pr_db_t** db_out, char* err,
                   size_t err_cap) {
  *db_out = nullptr;
  return guarded(err, err_cap, [&] {
    // The directory must exist to be claimed: made here as RocksDB would
    // make it (one level deep); if that fails, so does RocksDB's open.
    if (options->create_if_missing) ::mkdir(path, 0755);
    auto handle = std::make_unique<pr_db>();
    handle->owned = std::make_unique<pr_database>();
    pr_database& database = *handle->owned;
    // No directory: RocksDB's open fails and says why.
    rocksdb::Status claimed = database.directory.Claim(path);
    if (!claimed.ok() && !claimed.IsNotFound()) return to_status(claimed, err, err_cap);
    rocksdb::Options rocks_options = to_rocksdb_options(*options, &database.default_block_cache);
    rocks_options.info_log_level = options->info_log_level;
    if (options->info_log_to_queue) {
      rocks_options.info_log = std::make_shared<QueueLogger>(options->info_log_level, path);
    }
    database.default_family_options = rocksdb::ColumnFamilyOptions(rocks_options);
    database.default_merge_operator = options->merge_operator_kind;
    database.statistics = rocks_options.statistics;
    // Every existing family must be opened; a new database has the default one.
    std::vector<std::string> names;
    if (!rocksdb::DB::ListColumnFamilies(rocks_options, path, &names).ok() || names.empty()) {
      names = {rocksdb::kDefaultColumnFamilyName};
    }
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    std::vector<std::unique_ptr<pr_db>> families;
    for (const std::string& name : names) {
      auto family = std::make_unique<pr_db>();
      family->name = name;
      auto own = options->family_options.find(name);
      if (own == options->family_options.end()) {
        descriptors.emplace_back(name, database.default_family_options);
        family->block_cache = database.default_block_cache;
        family->merge_operator = database.default_merge_operator;
      } else {
        descriptors.emplace_back(
            name, rocksdb::ColumnFamilyOptions(to_rocksdb_options(*own->second, &family->block_cache)));
        family->merge_operator = own->second->merge_operator_kind;
      }
      families.push_back(std::move(family));
    }
    rocksdb::Status checked =
        check_recorded_family_options(path, descriptors, database.default_family_options);
    if (!checked.ok()) return to_status(checked, err, err_cap);
    std::vector<rocksdb::ColumnFamilyHandle*> opened_families;
    rocksdb::DB* opened = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(rocksdb::DBOptions(rocks_options), path, descriptors,
                                          &opened_families, &opened);
    database.db.reset(opened);
    if (!s.ok()) {
      // A missing database is an error of open, not a "not found" answer.
      if (s.IsNotFound()) return fail(PR_CODE_INVALID_ARGUMENT, s.ToString(), err, err_cap);
      return to_status(s, err, err_cap);
    }
    for (size_t i = 0; i < families.size(); i++) {
      pr_db* family = families[i].get();
      family->db = opened;
      family->database = &database;
      family->family = opened_families[i];
      if (family->name == rocksdb::kDefaultColumnFamilyName) {
        // Use the database's own default handle; the one Open made is not needed.
        opened->DestroyColumnFamilyHandle(opened_families[i]);
        handle->db = opened;
        handle->database = &database;
        handle->family = opened->DefaultColumnFamily();
        handle->name = family->name;
        handle->block_cache = family->block_cache;
        handle->merge_operator = family->merge_operator;
        database.open_families[family->name] = handle.get();
      } else {
        database.open_families[family->name] = family;
        database.families.push_back(std::move(families[i]));
      }
    }
    *db_out = handle.release();
    return PR_OK;
  });
}

int32_t pr_db_close(pr_db_t* db, char* err, size_t err_cap) {
  if (db == nullptr) return PR_OK;
  if (!db->owned) {
    return invalid_argument("a column family handle cannot be closed: close its database", err,
                            err_cap);
  }
  if (db->database->open_cursors.load() > 0) {
    return fail(PR_CODE_ABORTED, "Operation aborted: close the database's cursors first", err,
                err_cap);
  }
  std::unique_ptr<pr_db> owned(db);
  return guarded(err, err_cap, [&] {
    pr_database& database = *owned->database;
    for (const auto& family : database.families) {
      database.db->DestroyColumnFamilyHandle(family->family);
    }
    return to_status(database.db->Close(), err, err_cap);
  });
}

int32_t pr_db_put(pr_db_t* db, const uint8_t* key, size_t key_len, const uint8_t* value,
                  size_t value_len, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (db->dropped) return dropped_family(*db, err, err_cap);
    return to_status(write_waiting_out_stalls(*db->database, db->write_options,
                                              [&](const rocksdb::WriteOptions& options) {
                                                return db->db->Put(options, db->family,
                                                                   key_slice(key, key_len),
                                                                   value_slice(value, value_len));
                                              }),
                     err, err_cap);
  });
}

int32_t pr_db_delete(pr_db_t* db, const uint8_t* key, size_t key_len, char* err,
                     size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (db->dropped) return dropped_family(*db, err, err_cap);
    return to_status(write_waiting_out_stalls(*db->database, db->write_options,
                                              [&](const rocksdb::WriteOptions& options) {
                                                return db->db->Delete(options, db->family,
                                                                      key_slice(key, key_len));
                                              }),
                     err, err_cap);
  });
}

int32_t pr_db_write(pr_db_t* db, const uint8_t* batch, size_t batch_len, uint32_t flags, char* err,
                    size_t err_cap) {
  return guarded(err, err_cap, [&] {
    rocksdb::WriteBatch write_batch(std::string(reinterpret_cast<const char*>(batch), batch_len));
    {
      std::shared_lock<std::shared_mutex> lock(db->database->mutex);
      BatchCheck check(*db->database);
      rocksdb::Status s = write_batch.Iterate(&check);
      if (!s.ok()) return to_status(s, err, err_cap);
    }
    return to_status(write_waiting_out_stalls(*db->database, write_options(*db, flags),
                                              [&](const rocksdb::WriteOptions& options) {
                                                return db->db->Write(options, &write_batch);
                                              }),
                     err, err_cap);
  });
}

int32_t pr_db_get(pr_db_t* db, const uint8_t* key, size_t key_len, uint8_t* buf, size_t buf_cap,
                  uint32_t flags, pr_get_result_t* result, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    return get(*db, db->read_options, key, key_len, buf, buf_cap, flags, result, err, err_cap);
  });
}

int32_t pr_db_get_at(pr_db_t* db, const pr_snapshot_t* snapshot, uint32_t read_flags,
                     const uint8_t* key, size_t key_len, uint8_t* buf, size_t buf_cap,
                     uint32_t flags, pr_get_result_t* result, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (snapshot == nullptr && read_flags == PR_READ_MEMORY_ONLY) {
      return get(*db, db->memory_only_read_options, key, key_len, buf, buf_cap, flags, result, err,
                 err_cap);
    }
    return get(*db, read_options(*db, snapshot, read_flags), key, key_len, buf, buf_cap, flags,
               result, err, err_cap);
  });
}

int32_t pr_sst_writer_open(const pr_options_t* options, const char* path,
                           pr_sst_writer_t** writer_out, char* err, size_t err_cap) {
  *writer_out = nullptr;
  return guarded(err, err_cap, [&] {
    std::shared_ptr<rocksdb::Cache> unused_cache;
    pr_options defaults;
    rocksdb::Options rocks_options =
        to_rocksdb_options(options != nullptr ? *options : defaults, &unused_cache);
    auto handle = std::make_unique<pr_sst_writer>();
    handle->writer = std::make_unique<rocksdb::SstFileWriter>(rocksdb::EnvOptions(), rocks_options);
    rocksdb::Status s = handle->writer->Open(path);
    if (!s.ok()) return to_status(s, err, err_cap);
    *writer_out = handle.release();
    return PR_OK;
  });
}

int32_t pr_sst_writer_put(pr_sst_writer_t* writer, const uint8_t* key, size_t key_len,
                          const uint8_t* value, size_t value_len, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    return to_status(writer->writer->Put(key_slice(key, key_len), value_slice(value, value_len)), err,
                     err_cap);
  });
}

int32_t pr_sst_writer_delete(pr_sst_writer_t* writer, const uint8_t* key, size_t key_len,
                             char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    return to_status(writer->writer->Delete(key_slice(key, key_len)), err, err_cap);
  });
}

int32_t pr_sst_writer_finish(pr_sst_writer_t* writer, uint64_t* file_size, char* err,
                             size_t err_cap) {
  return guarded(err, err_cap, [&] {
    rocksdb::ExternalSstFileInfo info;
    rocksdb::Status s = writer->writer->Finish(&info);
    if (!s.ok()) return to_status(s, err, err_cap);
    *file_size = info.file_size;
    return PR_OK;
  });
}

void pr_sst_writer_destroy(pr_sst_writer_t* writer) {
  try {
    delete writer;
  } catch (...) {
    // An unfinished file's cleanup failed; nothing may cross the boundary.
  }
}

int32_t pr_db_ingest(pr_db_t* db, const char* const* paths, size_t n, uint32_t flags, char* err,
                     size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (n == 0) return invalid_argument("no file to ingest", err, err_cap);
    std::vector<std::string> files(paths, paths + n);
    rocksdb::IngestExternalFileOptions options;
    options.move_files = (flags & PR_INGEST_MOVE) != 0;
    return to_status(db->db->IngestExternalFile(db->family, files, options), err, err_cap);
  });
}

int32_t pr_db_snapshot_create(pr_db_t* db, pr_snapshot_t** snapshot_out, char* err,
                              size_t err_cap) {
  *snapshot_out = nullptr;
  return guarded(err, err_cap, [&] {
    const rocksdb::Snapshot* snapshot = db->db->GetSnapshot();
    if (snapshot == nullptr) {
      return fail(PR_CODE_NOT_SUPPORTED, "Not implemented: snapshots are not supported", err,
                  err_cap);
    }
    *snapshot_out = reinterpret_cast<pr_snapshot_t*>(const_cast<rocksdb::Snapshot*>(snapshot));
    return PR_OK;
  });
}

void pr_db_snapshot_release(pr_db_t* db, pr_snapshot_t* snapshot) {
  if (snapshot == nullptr) return;
  try {
    db->db->ReleaseSnapshot(reinterpret_cast<const rocksdb::Snapshot*>(snapshot));
  } catch (...) {
    // ReleaseSnapshot does not throw; nothing may cross the boundary anyway.
  }
}

int32_t pr_db_multi_get(pr_db_t* db, size_t n, const uint8_t* const* keys, const size_t* key_lens,
                        uint8_t* buf, size_t buf_cap, uint64_t* value_offsets,
                        uint64_t* value_lens, int32_t* statuses, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::vector<rocksdb::Slice> key_slices(n);
    for (size_t i = 0; i < n; i++) key_slices[i] = key_slice(keys[i], key_lens[i]);
    std::vector<rocksdb::PinnableSlice> values(n);
    std::vector<rocksdb::Status> key_statuses(n);
    db->db->MultiGet(db->read_options, db->family, n, key_slices.data(),
                     values.data(), key_statuses.data());
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
      value_offsets[i] = PR_MULTI_GET_NOT_COPIED;
      value_lens[i] = 0;
      statuses[i] = to_status(key_statuses[i], nullptr, 0);
      if (!key_statuses[i].ok()) continue;
      size_t length = values[i].size();
      value_lens[i] = length;
      if (length <= buf_cap - used) {
        if (length > 0) std::memcpy(buf + used, values[i].data(), length);
        value_offsets[i] = used;
        used += length;
      }
    }
    return PR_OK;
  });
}

int32_t pr_db_multi_get_pinned(pr_db_t* db, size_t n, const uint8_t* const* keys,
                               const size_t* key_lens, pr_get_result_t* results,
                               int32_t* statuses, char* err, size_t err_cap) {
  for (size_t i = 0; i < n; i++) results[i] = pr_get_result_t{0, nullptr, nullptr};
  return guarded(err, err_cap, [&] {
    std::vector<rocksdb::Slice> key_slices(n);
    for (size_t i = 0; i < n; i++) key_slices[i] = key_slice(keys[i], key_lens[i]);
    std::vector<rocksdb::PinnableSlice> values(n);
    std::vector<rocksdb::Status> key_statuses(n);
    db->db->MultiGet(db->read_options, db->family, n, key_slices.data(), values.data(),
                     key_statuses.data());
    // Allocate every pin first, so that a failed allocation hands out none.
    std::vector<std::unique_ptr<pr_pin>> pins(n);
    for (size_t i = 0; i < n; i++) {
      if (key_statuses[i].ok()) pins[i].reset(new pr_pin{db->block_cache, std::move(values[i])});
    }
    for (size_t i = 0; i < n; i++) {
      statuses[i] = to_status(key_statuses[i], nullptr, 0);
      if (!pins[i]) continue;
      results[i].value_len = pins[i]->slice.size();
      results[i].data = reinterpret_cast<const uint8_t*>(pins[i]->slice.data());
      results[i].pin = pins[i].release();
    }
    return PR_OK;
  });
}

void pr_pin_release(pr_pin_t* pin) { delete pin; }

int32_t pr_db_flush(pr_db_t* db, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    rocksdb::FlushOptions options;
    options.wait = true;
    return to_status(db->db->Flush(options, db->family), err, err_cap);
  });
}

int32_t pr_db_compact_range(pr_db_t* db, const uint8_t* begin, size_t begin_len,
                            const uint8_t* end, size_t end_len, uint32_t bounds, char* err,
                            size_t err_cap) {
  return guarded(err, err_cap, [&] {
    rocksdb::Slice begin_key = key_slice(begin, begin_len);
    rocksdb::Slice end_key = key_slice(end, end_len);
    rocksdb::CompactRangeOptions options;
    // Rewrite the last level too, so the range really is recompacted (with
    // the current compression) rather than trivially moved.
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForceOptimized;
    return to_status(db->db->CompactRange(options, db->family, (bounds & PR_RANGE_HAS_BEGIN) ? &begin_key : nullptr,
                                          (bounds & PR_RANGE_HAS_END) ? &end_key : nullptr),
                     err, err_cap);
  });
}

int32_t pr_db_approximate_size(pr_db_t* db, const uint8_t* begin, size_t begin_len,
                               const uint8_t* end, size_t end_len, uint64_t* size, char* err,
                               size_t err_cap) {
  return guarded(err, err_cap, [&] {
    rocksdb::Range range(key_slice(begin, begin_len), key_slice(end, end_len));
    rocksdb::SizeApproximationOptions options;
    options.include_files = true;
    options.include_memtables = true;
    return to_status(
        db->db->GetApproximateSizes(options, db->family, &range, 1, size), err,
        err_cap);
  });
}

int32_t pr_db_checkpoint(pr_db_t* db, const char* path, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    rocksdb::Checkpoint* raw = nullptr;
    rocksdb::Status s = rocksdb::Checkpoint::Create(db->db, &raw);
    std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
    if (s.ok()) s = checkpoint->CreateCheckpoint(path);
    return to_status(s, err, err_cap);
  });
}

namespace {

// Whether name is a property RocksDB 9.10 defines (DB::Properties), in its
// exact spelling. RocksDB itself strips any trailing digits from a name and
// hands them to the property as its argument, where the level properties
// cast them to int unchecked (a level of 2^31 reads out of bounds). So the
// properties that take a number (a level, a temperature) accept only a
// decimal suffix 0..kMaxPropertySuffix with no sign, space or leading zero,
// and every other name only exactly as RocksDB spells it.
constexpr uint64_t kMaxPropertySuffix = 255;

bool bounded_decimal(const std::string& digits) {
  if (digits.empty() || digits.size() > 3) return false;
  if (digits.size() > 1 && digits[0] == '0') return false;
  uint64_t number = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    number = number * 10 + static_cast<uint64_t>(c - '0');
  }
  return number <= kMaxPropertySuffix;
}

bool known_property(const char* name) {
  using P = rocksdb::DB::Properties;
  static const std::unordered_set<std::string> exact = {
      P::kStats, P::kSSTables, P::kCFStats, P::kCFStatsNoFileHistogram, P::kCFFileHistogram,
      P::kCFWriteStallStats, P::kDBWriteStallStats, P::kDBStats, P::kLevelStats,
      P::kBlockCacheEntryStats, P::kFastBlockCacheEntryStats, P::kNumImmutableMemTable,
      P::kNumImmutableMemTableFlushed, P::kMemTableFlushPending, P::kNumRunningFlushes,
      P::kCompactionPending, P::kNumRunningCompactions, P::kBackgroundErrors,
      P::kCurSizeActiveMemTable, P::kCurSizeAllMemTables, P::kSizeAllMemTables,
      P::kNumEntriesActiveMemTable, P::kNumEntriesImmMemTables, P::kNumDeletesActiveMemTable,
      P::kNumDeletesImmMemTables, P::kEstimateNumKeys, P::kEstimateTableReadersMem,
      P::kIsFileDeletionsEnabled, P::kNumSnapshots, P::kOldestSnapshotTime,
      P::kOldestSnapshotSequence, P::kNumLiveVersions, P::kCurrentSuperVersionNumber,
      P::kEstimateLiveDataSize, P::kMinLogNumberToKeep, P::kMinObsoleteSstNumberToKeep,
      P::kTotalSstFilesSize, P::kLiveSstFilesSize, P::kObsoleteSstFilesSize, P::kBaseLevel,
      P::kEstimatePendingCompactionBytes, P::kAggregatedTableProperties,
      P::kActualDelayedWriteRate, P::kIsWriteStopped, P::kEstimateOldestKeyTime,
      P::kBlockCacheCapacity, P::kBlockCacheUsage, P::kBlockCachePinnedUsage,
      P::kOptionsStatistics, P::kNumBlobFiles, P::kBlobStats, P::kTotalBlobFileSize,
      P::kLiveBlobFileSize, P::kLiveBlobFileGarbageSize, P::kBlobCacheCapacity,
      P::kBlobCacheUsage, P::kBlobCachePinnedUsage};
  static const std::vector<std::string> numbered = {
      P::kNumFilesAtLevelPrefix, P::kCompressionRatioAtLevelPrefix,
      P::kAggregatedTablePropertiesAtLevel, P::kLiveSstFilesSizeAtTemperature};
  const std::string property(name);
  if (exact.count(property) != 0) return true;
  for (const std::string& prefix : numbered) {
    if (property.compare(0, prefix.size(), prefix) == 0 &&
        bounded_decimal(property.substr(prefix.size()))) {
      return true;
    }
  }
  return false;
}

}  // namespace

int32_t pr_db_property_int(pr_db_t* db, const char* name, uint64_t* value, char* err,
                           size_t err_cap) {
  return guarded(err, err_cap, [&] {
    *value = 0;
    if (!known_property(name)) return PR_NOT_FOUND;
    return db->db->GetIntProperty(db->family, name, value) ? PR_OK : PR_NOT_FOUND;
  });
}

int32_t pr_db_property(pr_db_t* db, const char* name, char* buf, size_t buf_cap,
                       uint64_t* value_len, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    *value_len = 0;
    std::string value;
    if (!known_property(name) || !db->db->GetProperty(db->family, name, &value)) {
      return PR_NOT_FOUND;
    }
    *value_len = value.size();
    size_t copied = value.size() < buf_cap ? value.size() : buf_cap;
    if (copied > 0) std::memcpy(buf, value.data(), copied);
    return PR_OK;
  });
}

int32_t pr_options_set_info_log(pr_options_t* options, int32_t level, int32_t to_queue, char* err,
                                size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (level < PR_LOG_DEBUG || level > PR_LOG_FATAL) {
      return invalid_argument("info log level must be 0..4, got " + std::to_string(level), err,
                              err_cap);
    }
    if (to_queue != 0 && to_queue != 1) {
      return invalid_argument("to_queue must be 0 or 1, got " + std::to_string(to_queue), err,
                              err_cap);
    }
    options->info_log_level = static_cast<rocksdb::InfoLogLevel>(level);
    options->info_log_to_queue = to_queue == 1;
    return PR_OK;
  });
}

static_assert(static_cast<int>(PR_LOG_DEBUG) == rocksdb::InfoLogLevel::DEBUG_LEVEL &&
                  static_cast<int>(PR_LOG_FATAL) == rocksdb::InfoLogLevel::FATAL_LEVEL &&
                  static_cast<int>(PR_LOG_HEADER) == rocksdb::InfoLogLevel::HEADER_LEVEL,
              "enum pr_log_level must match rocksdb::InfoLogLevel");

int32_t pr_log_next(int64_t timeout_ms, int32_t* level, char* text, size_t text_cap,
                    uint64_t* dropped) {
  try {
    return LogQueue::instance().next(timeout_ms, level, text, text_cap, dropped);
  } catch (...) {
    return 0;
  }
}

int32_t pr_options_set_statistics(pr_options_t* options, int32_t level, char* err,
                                  size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (level < 0 || level > rocksdb::StatsLevel::kAll) {
      return invalid_argument("statistics level must be 0..5, got " + std::to_string(level), err,
                              err_cap);
    }
    options->statistics_level = level;
    return PR_OK;
  });
}

int32_t pr_options_set_family_options(pr_options_t* options, const char* name,
                                      const pr_options_t* family_options, char* err,
                                      size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->family_options[name] = std::make_shared<pr_options>(*family_options);
    return PR_OK;
  });
}

namespace {

// Writes names NUL-terminated, back to back, as far as they fit.
int32_t write_names(const std::vector<std::string>& names, char* buf, size_t buf_cap,
                    uint64_t* names_len) {
  std::string joined;
  for (const std::string& name : names) joined.append(name).push_back('\0');
  *names_len = joined.size();
  size_t copied = joined.size() < buf_cap ? joined.size() : buf_cap;
  if (copied > 0) std::memcpy(buf, joined.data(), copied);
  return PR_OK;
}

}  // namespace

int32_t pr_db_list_families(const pr_options_t* options, const char* path, char* buf,
                            size_t buf_cap, uint64_t* names_len, char* err, size_t err_cap) {
  *names_len = 0;
  return guarded(err, err_cap, [&] {
    std::shared_ptr<rocksdb::Cache> unused_cache;
    pr_options defaults;
    rocksdb::Options rocks_options =
        to_rocksdb_options(options != nullptr ? *options : defaults, &unused_cache);
    std::vector<std::string> names;
    rocksdb::Status s = rocksdb::DB::ListColumnFamilies(rocks_options, path, &names);
    if (!s.ok()) return to_status(s.IsNotFound() ? rocksdb::Status::InvalidArgument(s.ToString()) : s,
                                  err, err_cap);
    return write_names(names, buf, buf_cap, names_len);
  });
}

namespace {

// Whether the metadata (CURRENT and the MANIFEST it names) accounts for
// every table file in the directory, found by a read-only open, which
// changes nothing. A writable open deletes the table files its metadata does
// not name: with stale metadata (a CURRENT rewritten by a failed create, an
// old MANIFEST) that would destroy the data repair exists to save.
bool metadata_names_every_table(const std::string& path, const rocksdb::DBOptions& options,
                                const std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors) {
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* opened = nullptr;
  if (!rocksdb::DB::OpenForReadOnly(options, path, descriptors, &handles, &opened).ok()) {
    return false;
  }
  std::unique_ptr<rocksdb::DB> db(opened);
  std::vector<rocksdb::LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  for (rocksdb::ColumnFamilyHandle* handle : handles) db->DestroyColumnFamilyHandle(handle);
  std::set<std::string> named;
  for (const rocksdb::LiveFileMetaData& file : live) named.insert(file.relative_filename);
  std::vector<std::string> children;
  if (!options.env->GetChildren(path, &children).ok()) return false;
  for (const std::string& child : children) {
    bool table = child.size() > 4 && child.compare(child.size() - 4, 4, ".sst") == 0;
    if (table && named.count(child) == 0) return false;
  }
  return true;
}

// Rewrites every table file of the open database db that was ingested (and
// not compacted since), by compacting its family whole. RepairDB rebuilds the
// metadata from the table files alone and cannot take such a file: it names
// no column family, so RepairDB sets it aside as inconsistent, and its
// entries carry sequence number 0 (only the metadata makes them newer than
// the writes they overwrite). The compaction writes each entry into a table
// file of the family, with its own sequence number.
rocksdb::Status rewrite_ingested_tables(rocksdb::DB* db,
                                        const std::vector<rocksdb::ColumnFamilyHandle*>& handles) {
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    rocksdb::TablePropertiesCollection tables;
    rocksdb::Status s = db->GetPropertiesOfAllTables(handle, &tables);
    if (!s.ok()) return s;
    bool ingested = std::any_of(tables.begin(), tables.end(), [](const auto& table) {
      return table.second->user_collected_properties.count("rocksdb.external_sst_file.version") > 0;
    });
    if (!ingested) continue;
    rocksdb::CompactRangeOptions options;
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    s = db->CompactRange(options, handle, nullptr, nullptr);
    if (!s.ok()) return s;
  }
  return rocksdb::Status::OK();
}

// RepairDB rebuilds the metadata from the table files alone, each of which
// names its family. Three things it cannot know from them are settled here
// first, when the database's metadata is intact (it names every table file
// in the directory), by opening it once: its recovery writes the log into
// table files, each family's into its own (the log names families by number
// only, so RepairDB drops the log records of a family that has no table file
// yet, and with each its whole batch); and ingested table files, which
// RepairDB cannot take, are rewritten (rewrite_ingested_tables). A log
// damaged anywhere but in its torn last record fails this open, and RepairDB
// salvages what it can. The third, families without any table file, is
// recreate_lost_families, after RepairDB.
void settle_before_repair(const std::string& path, const rocksdb::Options& options,
                          const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                          const rocksdb::ColumnFamilyOptions& others) {
  std::vector<std::string> names;
  if (!rocksdb::DB::ListColumnFamilies(options, path, &names).ok()) return;
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    descriptors.emplace_back(name, family_options(families, name, others));
  }
  if (!metadata_names_every_table(path, rocksdb::DBOptions(options), descriptors)) return;
  rocksdb::DBOptions db_options(options);
  db_options.create_if_missing = false;
  db_options.error_if_exists = false;
  db_options.avoid_flush_during_recovery = false;
  db_options.wal_recovery_mode = rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* opened = nullptr;
  if (!rocksdb::DB::Open(db_options, path, descriptors, &handles, &opened).ok()) return;
  std::unique_ptr<rocksdb::DB> db(opened);
  // A failure leaves the files as they were: RepairDB still runs.
  rewrite_ingested_tables(db.get(), handles).PermitUncheckedError();
  for (rocksdb::ColumnFamilyHandle* handle : handles) db->DestroyColumnFamilyHandle(handle);
  db->Close().PermitUncheckedError();
}

// The names of the column families the database at path has: from its
// metadata, or, when that is lost, from its newest OPTIONS file; none when
// neither can be read.
std::vector<std::string> known_family_names(const std::string& path,
                                            const rocksdb::Options& options) {
  std::vector<std::string> names;
  if (rocksdb::DB::ListColumnFamilies(options, path, &names).ok()) return names;
  names.clear();
  std::vector<rocksdb::ColumnFamilyDescriptor> recorded;
  if (load_recorded_families(path, &recorded).ok()) {
    for (const rocksdb::ColumnFamilyDescriptor& family : recorded) names.push_back(family.name);
  }
  return names;
}

// RepairDB keeps only the families it finds table files of: one that has
// none (empty, or emptied) is gone afterwards. Creates, empty and with its
// options from families (others if not named), each family in known that the
// repaired database lacks.
rocksdb::Status recreate_lost_families(const std::string& path, const rocksdb::Options& options,
                                       const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                                       const rocksdb::ColumnFamilyOptions& others,
                                       const std::vector<std::string>& known) {
  std::vector<std::string> repaired;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(options, path, &repaired);
  if (!s.ok()) return s;
  std::set<std::string> names(repaired.begin(), repaired.end());
  if (std::all_of(known.begin(), known.end(),
                  [&](const std::string& name) { return names.count(name) > 0; })) {
    return rocksdb::Status::OK();
  }
  names.insert(known.begin(), known.end());
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    descriptors.emplace_back(name, family_options(families, name, others));
  }
  rocksdb::DBOptions db_options(options);
  db_options.create_if_missing = false;
  db_options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* opened = nullptr;
  s = rocksdb::DB::Open(db_options, path, descriptors, &handles, &opened);
  if (!s.ok()) return s;
  std::unique_ptr<rocksdb::DB> db(opened);
  for (rocksdb::ColumnFamilyHandle* handle : handles) db->DestroyColumnFamilyHandle(handle);
  return db->Close();
}

}  // namespace

int32_t pr_db_repair(const pr_options_t* options, const char* path, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::shared_ptr<rocksdb::Cache> unused_cache;
    pr_options defaults;
    const pr_options& repair_options = options != nullptr ? *options : defaults;
    rocksdb::Options rocks_options = to_rocksdb_options(repair_options, &unused_cache);
    // RepairDB would create an empty database where there is none.
    DirectoryClaim directory;
    rocksdb::Status claimed = directory.Claim(path);
    if (claimed.IsNotFound()) {
      return invalid_argument(std::string("no database directory at ") + path, err, err_cap);
    }
    if (!claimed.ok()) return to_status(claimed, err, err_cap);
    // Every family named in the options is rebuilt with its own, the others
    // (found in table files) with the database's, as pr_db_open opens them.
    const rocksdb::ColumnFamilyOptions others(rocks_options);
    std::vector<rocksdb::ColumnFamilyDescriptor> families{{rocksdb::kDefaultColumnFamilyName, others}};
    for (const auto& [name, own] : repair_options.family_options) {
      rocksdb::ColumnFamilyOptions family(to_rocksdb_options(*own, &unused_cache));
      if (name == rocksdb::kDefaultColumnFamilyName) {
        families[0].options = family;
      } else {
        families.emplace_back(name, family);
      }
    }
    rocksdb::Status checked = check_recorded_family_options(path, families, others);
    if (!checked.ok()) return to_status(checked, err, err_cap);
    const std::vector<std::string> known = known_family_names(path, rocks_options);
    settle_before_repair(path, rocks_options, families, others);
    rocksdb::Status repaired =
        rocksdb::RepairDB(path, rocksdb::DBOptions(rocks_options), families, others);
    if (!repaired.ok()) return to_status(repaired, err, err_cap);
    return to_status(recreate_lost_families(path, rocks_options, families, others, known), err,
                     err_cap);
  });
}

int32_t pr_db_family_names(pr_db_t* db, char* buf, size_t buf_cap, uint64_t* names_len,
                           char* err, size_t err_cap) {
  *names_len = 0;
  return guarded(err, err_cap, [&] {
    std::vector<std::string> names;
    std::shared_lock<std::shared_mutex> lock(db->database->mutex);
    for (const auto& [name, family] : db->database->open_families) names.push_back(name);
    return write_names(names, buf, buf_cap, names_len);
  });
}

int32_t pr_db_family(pr_db_t* db, const char* name, pr_db_t** family_out, char* err,
                     size_t err_cap) {
  *family_out = nullptr;
  return guarded(err, err_cap, [&] {
    std::shared_lock<std::shared_mutex> lock(db->database->mutex);
    auto found = db->database->open_families.find(name);
    if (found == db->database->open_families.end()) return PR_NOT_FOUND;
    *family_out = found->second;
    return PR_OK;
  });
}

int32_t pr_db_create_family(pr_db_t* db, const pr_options_t* family_options, const char* name,
                            pr_db_t** family_out, char* err, size_t err_cap) {
  *family_out = nullptr;
  return guarded(err, err_cap, [&] {
    pr_database& database = *db->database;
    auto family = std::make_unique<pr_db>();
    family->db = db->db;
    family->database = &database;
    family->name = name;
    rocksdb::ColumnFamilyOptions options = database.default_family_options;
    family->block_cache = database.default_block_cache;
    family->merge_operator = database.default_merge_operator;
    if (family_options != nullptr) {
      options = rocksdb::ColumnFamilyOptions(to_rocksdb_options(*family_options, &family->block_cache));
      family->merge_operator = family_options->merge_operator_kind;
    }
    std::unique_lock<std::shared_mutex> lock(database.mutex);
    rocksdb::Status s = db->db->CreateColumnFamily(options, name, &family->family);
    if (!s.ok()) return to_status(s, err, err_cap);
    *family_out = family.get();
    database.open_families[name] = family.get();
    database.families.push_back(std::move(family));
    return PR_OK;
  });
}

int32_t pr_db_drop_family(pr_db_t* family, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::unique_lock<std::shared_mutex> lock(family->database->mutex);
    rocksdb::Status s = family->db->DropColumnFamily(family->family);
    if (!s.ok()) return to_status(s, err, err_cap);
    family->database->open_families.erase(family->name);
    family->dropped = true;
    return PR_OK;
  });
}

int32_t pr_db_family_release(pr_db_t* family, char* err, size_t err_cap) {
  if (family->owned) return invalid_argument("the default family cannot be released", err, err_cap);
  if (!family->dropped) {
    return invalid_argument("column family '" + family->name + "' is not dropped", err, err_cap);
  }
  return guarded(err, err_cap, [&] {
    drop_hold(family);
    return PR_OK;
  });
}

uint32_t pr_db_family_id(pr_db_t* family) { return family->family->GetID(); }

void pr_db_set_closing(pr_db_t* db, int32_t closing) { db->database->closing = closing != 0; }

size_t pr_ticker_count(void) { return rocksdb::TickersNameMap.size(); }

const char* pr_ticker_name(size_t i) {
  return i < rocksdb::TickersNameMap.size() ? rocksdb::TickersNameMap[i].second.c_str() : nullptr;
}

size_t pr_histogram_count(void) { return rocksdb::HistogramsNameMap.size(); }

const char* pr_histogram_name(size_t i) {
  return i < rocksdb::HistogramsNameMap.size() ? rocksdb::HistogramsNameMap[i].second.c_str()
                                                : nullptr;
}

namespace {

int32_t no_statistics(char* err, size_t err_cap) {
  return fail(PR_CODE_NOT_SUPPORTED,
              "Not implemented: the database was opened without statistics", err, err_cap);
}

}  // namespace

int32_t pr_db_statistics(pr_db_t* db, uint64_t* tickers, size_t n_tickers,
                         pr_histogram_t* histograms, size_t n_histograms, char* err,
                         size_t err_cap) {
  return guarded(err, err_cap, [&] {
    const rocksdb::Statistics* statistics = db->database->statistics.get();
    if (statistics == nullptr) return no_statistics(err, err_cap);
    for (size_t i = 0; i < n_tickers && i < rocksdb::TickersNameMap.size(); i++) {
      tickers[i] = statistics->getTickerCount(rocksdb::TickersNameMap[i].first);
    }
    for (size_t i = 0; i < n_histograms && i < rocksdb::HistogramsNameMap.size(); i++) {
      rocksdb::HistogramData data;
      statistics->histogramData(rocksdb::HistogramsNameMap[i].first, &data);
      histograms[i] = pr_histogram_t{data.count,   data.sum,          data.min,
                                     data.max,     data.average,      data.median,
                                     data.percentile95, data.percentile99, data.standard_deviation};
    }
    return PR_OK;
  });
}

int32_t pr_db_statistics_reset(pr_db_t* db, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (db->database->statistics == nullptr) return no_statistics(err, err_cap);
    return to_status(db->database->statistics->Reset(), err, err_cap);
  });
}

int32_t pr_db_memory_usage(pr_db_t* db, pr_memory_usage_t* usage, char* err, size_t err_cap) {
  *usage = pr_memory_usage_t{0, 0, 0, 0, 0};
  return guarded(err, err_cap, [&] {
    std::unordered_set<const rocksdb::Cache*> caches;
    {
      std::shared_lock<std::shared_mutex> lock(db->database->mutex);
      for (const auto& [name, family] : db->database->open_families) {
        if (family->block_cache) caches.insert(family->block_cache.get());
      }
    }
    std::map<rocksdb::MemoryUtil::UsageType, uint64_t> by_type;
    rocksdb::Status s =
        rocksdb::MemoryUtil::GetApproximateMemoryUsageByType({db->db}, caches, &by_type);
    if (!s.ok()) return to_status(s, err, err_cap);
    usage->memtables = by_type[rocksdb::MemoryUtil::kMemTableTotal];
    usage->memtables_unflushed = by_type[rocksdb::MemoryUtil::kMemTableUnFlushed];
    usage->table_readers = by_type[rocksdb::MemoryUtil::kTableReadersTotal];
    usage->block_cache = by_type[rocksdb::MemoryUtil::kCacheTotal];
    for (const rocksdb::Cache* cache : caches) usage->block_cache_pinned += cache->GetPinnedUsage();
    return PR_OK;
  });
}

int32_t pr_cursor_open(pr_db_t* db, const pr_snapshot_t* snapshot, uint32_t read_flags,
                       uint64_t readahead_bytes, const uint8_t* lower, size_t lower_len,
                       const uint8_t* upper, size_t upper_len, uint32_t bounds,
                       pr_cursor_t** cursor_out, char* err, size_t err_cap) {
  *cursor_out = nullptr;
  return guarded(err, err_cap, [&] {
    auto cursor = std::make_unique<pr_cursor>();
    cursor->db = db;
    rocksdb::ReadOptions options = read_options(*db, snapshot, read_flags);
    options.readahead_size = readahead_bytes;
    if ((bounds & PR_RANGE_HAS_BEGIN) != 0) {
      cursor->lower = key_slice(lower, lower_len).ToString();
      cursor->lower_slice = cursor->lower;
      options.iterate_lower_bound = &cursor->lower_slice;
    }
    if ((bounds & PR_RANGE_HAS_END) != 0) {
      cursor->upper = key_slice(upper, upper_len).ToString();
      cursor->upper_slice = cursor->upper;
      options.iterate_upper_bound = &cursor->upper_slice;
    }
    cursor->iterator.reset(db->db->NewIterator(options, db->family));
    db->holds++;
    db->database->open_cursors++;
    *cursor_out = cursor.release();
    return PR_OK;
  });
}

void pr_cursor_close(pr_cursor_t* cursor) {
  if (cursor == nullptr) return;
  pr_db* db = cursor->db;
  pr_database& database = *db->database;
  try {
    delete cursor;
    drop_hold(db);
  } catch (...) {
    // Iterator cleanup does not throw; nothing may cross the boundary anyway.
  }
  database.open_cursors--;
}

int32_t pr_cursor_move(pr_cursor_t* cursor, int32_t op, const uint8_t* key, size_t key_len,
                       pr_cursor_entry_t* entry, char* err, size_t err_cap) {
  *entry = pr_cursor_entry_t{nullptr, 0, nullptr, 0};
  return guarded(err, err_cap, [&] {
    rocksdb::Iterator& iterator = *cursor->iterator;
    if ((op == PR_CURSOR_NEXT || op == PR_CURSOR_PREV) && !iterator.Valid()) {
      return invalid_argument("the cursor is on no entry; seek first", err, err_cap);
    }
    switch (op) {
      case PR_CURSOR_FIRST: iterator.SeekToFirst(); break;
      case PR_CURSOR_LAST: iterator.SeekToLast(); break;
      case PR_CURSOR_SEEK: iterator.Seek(key_slice(key, key_len)); break;
      case PR_CURSOR_SEEK_FOR_PREV: iterator.SeekForPrev(key_slice(key, key_len)); break;
      case PR_CURSOR_NEXT: iterator.Next(); break;
      case PR_CURSOR_PREV: iterator.Prev(); break;
      default: return invalid_argument("unknown cursor move " + std::to_string(op), err, err_cap);
    }
    return cursor_position(iterator, entry, err, err_cap);
  });
}

int32_t pr_cursor_scan(pr_cursor_t* cursor, uint32_t flags, size_t max_entries, uint8_t* buf,
                       size_t buf_cap, uint64_t* entries_out, uint64_t* bytes_out,
                       pr_cursor_entry_t* entry, char* err, size_t err_cap) {
  *entries_out = 0;
  *bytes_out = 0;
  return guarded(err, err_cap, [&] {
    rocksdb::Iterator& iterator = *cursor->iterator;
    pinrock::CopiedEntries copied = pinrock::copy_entries(
        iterator, (flags & PR_SCAN_REVERSE) != 0, max_entries, buf, buf_cap);
    *entries_out = copied.entries;
    *bytes_out = copied.bytes;
    return cursor_position(iterator, entry, err, err_cap);
  });
}

}  // extern "C"
