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
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/checkpoint.h>
#include <rocksdb/utilities/memory_util.h>
#include <rocksdb/version.h>
#include <rocksdb/write_buffer_manager.h>
#include <rocksdb/write_batch.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <deque>
#include <mutex>
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
  bool has_merge_operator = false;
  // Set once the family is dropped: writes through the handle are refused.
  std::atomic<bool> dropped{false};
  // Set on the default family's handle only.
  std::unique_ptr<pr_database> owned;
};

// What every handle of one open database shares.
struct pr_database {
  std::unique_ptr<rocksdb::DB> db;
  // Cursors not yet closed: RocksDB's iterators must die before the DB.
  std::atomic<int64_t> open_cursors{0};
  // Null unless opened with statistics.
  std::shared_ptr<rocksdb::Statistics> statistics;
  // The default family's settings, for families created without options.
  rocksdb::ColumnFamilyOptions default_family_options;
  std::shared_ptr<rocksdb::Cache> default_block_cache;
  bool default_merge_operator = false;
  // Guards what follows: shared by readers (every batch write checks its
  // families), exclusive for creating and dropping families.
  std::shared_mutex mutex;
  // Every other family opened or created, dropped ones too: handles live
  // until the database closes, so a dropped family's handle stays valid.
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

// RocksDB encodes lengths as 32-bit varints, and a key carries 8 bytes of
// sequence number and type inside the engine. Some paths (Delete, lookups,
// seeks) truncate a longer length silently instead of failing, so every key
// and value crossing the boundary is checked here; throws too_long.
constexpr size_t kMaxValueBytes = std::numeric_limits<uint32_t>::max();
constexpr size_t kMaxKeyBytes = kMaxValueBytes - 8;

rocksdb::Slice checked_slice(const char* what, size_t max, const uint8_t* data, size_t len) {
  if (len > max) {
    throw too_long(std::string("a ") + what + " of " + std::to_string(len) +
                   " bytes exceeds RocksDB's limit of " + std::to_string(max) + " bytes");
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
// RocksDB would reject part-way (a malformed record, a merge without a merge
// operator, another column family) is refused before anything is written.
class BatchCheck : public rocksdb::WriteBatch::Handler {
 public:
  // The caller holds the database's mutex (shared) while the batch is checked.
  explicit BatchCheck(const pr_database& database) : database_(database) {}

  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice&, const rocksdb::Slice&) override {
    return KnownFamily(cf);
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice&) override {
    return KnownFamily(cf);
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice&) override {
    return KnownFamily(cf);
  }
  rocksdb::Status DeleteRangeCF(uint32_t cf, const rocksdb::Slice&,
                                const rocksdb::Slice&) override {
    return KnownFamily(cf);
  }
  rocksdb::Status MergeCF(uint32_t cf, const rocksdb::Slice&, const rocksdb::Slice&) override {
    const pr_db* family = OpenFamily(cf);
    if (family == nullptr) return NotOpen(cf);
    if (!family->has_merge_operator) {
      return rocksdb::Status::InvalidArgument("the batch has a merge into column family '" +
                                              family->name + "', which has no merge operator");
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
  rocksdb::Status KnownFamily(uint32_t cf) const {
    return OpenFamily(cf) != nullptr ? rocksdb::Status::OK() : NotOpen(cf);
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
// pause; an attempt after the failure returns the background error.
template <typename Write>
rocksdb::Status write_waiting_out_stalls(rocksdb::WriteOptions options, Write&& write) {
  if (options.no_slowdown) return write(options);
  options.no_slowdown = true;
  auto pause = std::chrono::microseconds(50);
  while (true) {
    rocksdb::Status s = write(options);
    if (!s.IsIncomplete()) return s;
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
    if (bytes < (64ull << 10) || bytes > (1ull << 40)) {
      return invalid_argument("write buffer of " + std::to_string(bytes) +
                                  " bytes is outside [64 KiB, 2^40]",
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
  return guarded(err, err_cap, [&] {
    std::shared_ptr<rocksdb::MergeOperator> merge_operator;
    rocksdb::Status s =
        rocksdb::MergeOperator::CreateFromString(rocksdb::ConfigOptions(), name, &merge_operator);
    if (!s.ok() || !merge_operator) {
      return invalid_argument(std::string("unknown merge operator \"") + name + "\"", err, err_cap);
    }
    options->merge_operator = std::move(merge_operator);
    return PR_OK;
  });
}

int32_t pr_db_open(const pr_options_t* options, const char* path, pr_db_t** db_out, char* err,
                   size_t err_cap) {
  *db_out = nullptr;
  return guarded(err, err_cap, [&] {
    auto handle = std::make_unique<pr_db>();
    handle->owned = std::make_unique<pr_database>();
    pr_database& database = *handle->owned;
    rocksdb::Options rocks_options = to_rocksdb_options(*options, &database.default_block_cache);
    rocks_options.info_log_level = options->info_log_level;
    if (options->info_log_to_queue) {
      rocks_options.info_log = std::make_shared<QueueLogger>(options->info_log_level, path);
    }
    database.default_family_options = rocksdb::ColumnFamilyOptions(rocks_options);
    database.default_merge_operator = options->merge_operator != nullptr;
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
        family->has_merge_operator = database.default_merge_operator;
      } else {
        descriptors.emplace_back(
            name, rocksdb::ColumnFamilyOptions(to_rocksdb_options(*own->second, &family->block_cache)));
        family->has_merge_operator = own->second->merge_operator != nullptr;
      }
      families.push_back(std::move(family));
    }
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
        handle->has_merge_operator = family->has_merge_operator;
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
    return to_status(write_waiting_out_stalls(db->write_options,
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
    return to_status(write_waiting_out_stalls(db->write_options,
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
    return to_status(write_waiting_out_stalls(write_options(*db, flags),
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

int32_t pr_db_property_int(pr_db_t* db, const char* name, uint64_t* value, char* err,
                           size_t err_cap) {
  return guarded(err, err_cap, [&] {
    *value = 0;
    return db->db->GetIntProperty(db->family, name, value) ? PR_OK : PR_NOT_FOUND;
  });
}

int32_t pr_db_property(pr_db_t* db, const char* name, char* buf, size_t buf_cap,
                       uint64_t* value_len, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    *value_len = 0;
    std::string value;
    if (!db->db->GetProperty(db->family, name, &value)) return PR_NOT_FOUND;
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

int32_t pr_db_repair(const pr_options_t* options, const char* path, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::shared_ptr<rocksdb::Cache> unused_cache;
    pr_options defaults;
    rocksdb::Options rocks_options =
        to_rocksdb_options(options != nullptr ? *options : defaults, &unused_cache);
    // RepairDB would create an empty database where there is none.
    bool is_directory = false;
    if (!rocksdb::Env::Default()->IsDirectory(path, &is_directory).ok() || !is_directory) {
      return invalid_argument(std::string("no database directory at ") + path, err, err_cap);
    }
    return to_status(rocksdb::RepairDB(path, rocks_options), err, err_cap);
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
    family->has_merge_operator = database.default_merge_operator;
    if (family_options != nullptr) {
      options = rocksdb::ColumnFamilyOptions(to_rocksdb_options(*family_options, &family->block_cache));
      family->has_merge_operator = family_options->merge_operator != nullptr;
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

uint32_t pr_db_family_id(pr_db_t* family) { return family->family->GetID(); }

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
    db->database->open_cursors++;
    *cursor_out = cursor.release();
    return PR_OK;
  });
}

void pr_cursor_close(pr_cursor_t* cursor) {
  if (cursor == nullptr) return;
  pr_db* db = cursor->db;
  try {
    delete cursor;
  } catch (...) {
    // Iterator cleanup does not throw; nothing may cross the boundary anyway.
  }
  db->database->open_cursors--;
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
