// What the shim's source files share. The shim is the C-stub layer: every
// function of pinrock.h over the RocksDB C++ API, in one source file per
// section of the header (options.cc, database.cc, cursors.cc, ...; the status
// codes are made here). Each entry point converts C arguments, calls RocksDB,
// and turns the rocksdb::Status (or a caught C++ exception) into a status
// code through the helpers here; no logic is repeated per function. What one
// file alone uses stays in that file.
#ifndef PINROCK_INTERNAL_H
#define PINROCK_INTERNAL_H

#include "pinrock.h"
#include "tagged_queue.h"

#include <rocksdb/advanced_cache.h>
#include <rocksdb/cache.h>
#include <rocksdb/compaction_filter.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/iterator.h>
#include <rocksdb/listener.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/rate_limiter.h>
#include <rocksdb/slice.h>
#include <rocksdb/status.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/object_registry.h>
#include <rocksdb/utilities/optimistic_transaction_db.h>
#include <rocksdb/utilities/transaction_db.h>
#include <rocksdb/write_buffer_manager.h>
#include <sys/stat.h>
#include <zstd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
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
  // Whether its merges call back into the caller (pr_merge_operator_create).
  bool calls_back = false;
};

// The settings pr_db_open applies. RocksDB's own options live in RocksDB's
// own structs, which pinrock's defaults (set by the constructor, in
// options.cc), its typed setters and option strings (pr_options_set_string,
// through RocksDB's parsers) all write: one place for each option. The rest
// is what pinrock adds around RocksDB.
struct pr_options {
  pr_options();

  rocksdb::DBOptions db;
  rocksdb::ColumnFamilyOptions family;
  // The block-based table options; the block cache is pinrock's
  // (block_cache_bytes or memory_budget), set when the options are applied.
  rocksdb::BlockBasedTableOptions table;
  uint64_t block_cache_bytes = 32ull << 20;
  std::shared_ptr<pr_memory_budget> memory_budget;
  // The merge operator pinrock offers that family.merge_operator is, or null.
  const MergeOperatorKind* merge_operator_kind = nullptr;
  // The caller's comparator that family.comparator is (pr_options_set_comparator_object),
  // or null: RocksDB holds comparators by plain pointer, so what it is given must live on.
  std::shared_ptr<const rocksdb::Comparator> caller_comparator;
  int32_t statistics_level = 0;
  // Where the info log goes: the file LOG (null) or the info log queue,
  // with this destination's tag (pr_options_set_info_log).
  std::shared_ptr<const pinrock::internal::QueueDestination> info_log_destination;
  // Where the events of databases opened with these options go: nowhere
  // (null) or the event queue, with this destination's tag, and whether
  // RocksDB may recover from background errors by itself
  // (pr_options_set_event_listener).
  std::shared_ptr<const pinrock::internal::QueueDestination> event_destination;
  bool event_auto_recovery = true;
  // Options of existing column families opened by pr_db_open, by name.
  std::map<std::string, std::shared_ptr<pr_options>> family_options;
  // The options the option strings named, by scope (PR_OPTION_SCOPE_*) and
  // name, the last string's value for a name named twice: what
  // pr_db_set_options_from applies as given, whatever the defaults.
  std::map<int32_t, std::unordered_map<std::string, std::string>> string_options;
  // Tests only (testing.h): the Env the database's files go through.
  std::shared_ptr<rocksdb::Env> env;
};

struct pr_database;

namespace pinrock::internal {

// comparators.cc
// The Env a database or table file writer writes through: base's, except
// that its table files and MANIFESTs cannot be synced or closed once a
// caller's comparator it holds has failed a comparison (pinrock.h, section
// "comparators"), so that nothing ordered by a failed comparison is kept.
// The gate must outlive every user of env(). Thread-safe.
class ComparatorGate {
 public:
  explicit ComparatorGate(rocksdb::Env* base);
  ~ComparatorGate();
  ComparatorGate(const ComparatorGate&) = delete;
  ComparatorGate& operator=(const ComparatorGate&) = delete;

  rocksdb::Env* env() const;
  // Holds, and watches, the caller's comparators of options and of the
  // family options it carries; for as long as the gate lives.
  void Hold(const pr_options& options);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

// The rate limiter pr_rate_limiter_create makes: RocksDB's
// GenericRateLimiter, which closing a database lifts. A flush or compaction
// under a small rate waits in the limiter, for hours at 100 bytes per
// second, and RocksDB's close waits for it, as does the process's exit
// (which joins RocksDB's background threads); RocksDB's limiter cannot
// cancel a request. While lifted (Lift, counted, until as many Restore
// calls), requests pass at once, and those already waiting in the limiter
// are granted at its next refill (within one refill period); a rate set
// meanwhile applies from the last Restore, after which the limiter limits
// again (a few refills' worth of bytes at most pass early). Every database sharing the
// limiter goes unlimited while one of them closes. Thread-safe.
class LiftableRateLimiter final : public rocksdb::RateLimiter {
 public:
  LiftableRateLimiter(rocksdb::RateLimiter* generic, Mode mode);
  ~LiftableRateLimiter() override;

  // The limiter pinrock made that limiter is, or null (one set otherwise).
  static std::shared_ptr<LiftableRateLimiter> Of(const std::shared_ptr<rocksdb::RateLimiter>& limiter);

  void Lift();
  void Restore();

  void SetBytesPerSecond(int64_t bytes_per_second) override;
  rocksdb::Status SetSingleBurstBytes(int64_t single_burst_bytes) override;
  using rocksdb::RateLimiter::Request;
  void Request(int64_t bytes, rocksdb::Env::IOPriority pri, rocksdb::Statistics* stats) override;
  int64_t GetSingleBurstBytes() const override;
  int64_t GetTotalBytesThrough(rocksdb::Env::IOPriority pri = rocksdb::Env::IO_TOTAL) const override;
  int64_t GetTotalRequests(rocksdb::Env::IOPriority pri = rocksdb::Env::IO_TOTAL) const override;
  rocksdb::Status GetTotalPendingRequests(
      int64_t* total_pending_requests,
      rocksdb::Env::IOPriority pri = rocksdb::Env::IO_TOTAL) const override;
  int64_t GetBytesPerSecond() const override;

 private:
  const std::unique_ptr<rocksdb::RateLimiter> generic_;
  std::atomic<bool> lifted_{false};
  mutable std::mutex mutex_;  // guards what follows, and the generic limiter's rate
  int64_t lifts_ = 0;
  int64_t rate_ = 0;  // while lifted: the rate Restore sets again
};

// A lift of a database's rate limiter (null: none) for the object's life.
class RateLimitLift {
 public:
  explicit RateLimitLift(LiftableRateLimiter* limiter) : limiter_(limiter) {
    if (limiter_ != nullptr) limiter_->Lift();
  }
  ~RateLimitLift() {
    if (limiter_ != nullptr) limiter_->Restore();
  }
  RateLimitLift(const RateLimitLift&) = delete;
  RateLimitLift& operator=(const RateLimitLift&) = delete;

 private:
  LiftableRateLimiter* const limiter_;
};

// A directory as the kernel knows it, whatever path names it.
struct DirectoryIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const DirectoryIdentity& other) const {
    return device == other.device && inode == other.inode;
  }
  bool operator!=(const DirectoryIdentity& other) const { return !(*this == other); }
  bool operator<(const DirectoryIdentity& other) const {
    return device != other.device ? device < other.device : inode < other.inode;
  }
};

// The identity of the directory at path, if it is one.
inline std::optional<DirectoryIdentity> directory_identity(const std::string& path) {
  struct stat status;
  if (::stat(path.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) return std::nullopt;
  return DirectoryIdentity{status.st_dev, status.st_ino};
}

// One database per directory per process, and one database per directory it
// writes. RocksDB's lock on a database is keyed by the name of its LOCK
// file, so the same directory reached through another spelling of its path
// (dir/./db, dir/../dir/db, a symlink, a bind mount) would be opened twice in
// one process: two instances writing one database, the writes of one lost on
// reopen, and closing either dropping the lock the other relies on. And
// RocksDB takes no lock at all on the other directories a database writes
// (its log directory, db_paths, cf_paths): two databases sharing one write
// and delete each other's files. Every open and repair therefore claims its
// directory, and every other directory it writes, each identified by device
// and inode, for as long as it uses them.
class DirectoryClaim {
 public:
  DirectoryClaim() = default;
  DirectoryClaim(const DirectoryClaim&) = delete;
  DirectoryClaim& operator=(const DirectoryClaim&) = delete;
  ~DirectoryClaim() {
    std::lock_guard<std::mutex> lock(mutex());
    for (const DirectoryIdentity& directory : directories_) claimed().erase(directory);
  }

  // Claims the database directory at path, first. Returns OK, NotFound when
  // path is no directory (nothing is claimed), or IOError when this process
  // already uses the directory, under whatever path.
  rocksdb::Status Claim(const std::string& path) {
    std::optional<DirectoryIdentity> id = directory_identity(path);
    if (!id) return rocksdb::Status::NotFound("no directory at " + path);
    database_ = path;
    return Add(*id, [&](const std::string& holder) {
      return "the database at " + path + " is already open (or being repaired) in this process" +
             (holder == path ? "" : ", as the directory or the log directory of the database at " + holder);
    });
  }

  // Claims directory, another directory (what it is to the database: "log
  // directory", ...) that the database claimed by Claim writes: OK when no
  // other database of this process uses it, else IOError naming both.
  rocksdb::Status ClaimAlso(const std::string& directory, const std::string& what) {
    std::optional<DirectoryIdentity> id = directory_identity(directory);
    if (!id) return rocksdb::Status::InvalidArgument("the " + what + " " + directory + " is no directory");
    for (const DirectoryIdentity& own : directories_) {
      if (own == *id) return rocksdb::Status::OK();
    }
    return Add(*id, [&](const std::string& holder) {
      return "the " + what + " " + directory + " of the database at " + database_ +
             " is a directory that the database at " + holder + ", open (or being repaired) in this process, writes";
    });
  }

 private:
  // Claims directory, or returns IOError with refusal(the path of the
  // database holding it), named under the same lock as the claim.
  template <typename Refusal>
  rocksdb::Status Add(const DirectoryIdentity& directory, Refusal&& refusal) {
    std::lock_guard<std::mutex> lock(mutex());
    auto [held, claimed_now] = claimed().emplace(directory, database_);
    if (!claimed_now) return rocksdb::Status::IOError("lock hold by current process: " + refusal(held->second));
    directories_.push_back(directory);
    return rocksdb::Status::OK();
  }
  // Never destroyed, like the info log queue: a database may close while the process exits.
  static std::mutex& mutex() {
    static std::mutex* mutex = new std::mutex();
    return *mutex;
  }
  // Every claimed directory, with the path of the database claiming it.
  static std::map<DirectoryIdentity, std::string>& claimed() {
    static std::map<DirectoryIdentity, std::string>* claimed =
        new std::map<DirectoryIdentity, std::string>();
    return *claimed;
  }
  std::string database_;
  std::vector<DirectoryIdentity> directories_;
};

// The write options every write starts from. RocksDB writes a group of
// concurrent writes to the log together and then applies them one by one;
// applying one that names a column family dropped meanwhile would fail, and
// with it every write of the group (applied ones included), and stop the
// database with a background error. Such a write can only be one that passed
// the shim's own check just before a drop: it is discarded with the family.
inline rocksdb::WriteOptions base_write_options() {
  rocksdb::WriteOptions options;
  options.ignore_missing_column_families = true;
  return options;
}

// options answering from the memtables and the block cache only: a read
// needing I/O fails with Incomplete instead.
inline rocksdb::ReadOptions total_order_read_options() {
  rocksdb::ReadOptions options;
  options.auto_prefix_mode = true;
  return options;
}

// base with PR_WRITE_* flags applied.
inline rocksdb::WriteOptions write_options(rocksdb::WriteOptions base, uint32_t flags) {
  base.sync = (flags & PR_WRITE_SYNC) != 0;
  base.disableWAL = (flags & PR_WRITE_DISABLE_WAL) != 0;
  base.no_slowdown = (flags & PR_WRITE_NO_SLOWDOWN) != 0;
  return base;
}

inline rocksdb::ReadOptions memory_only(rocksdb::ReadOptions options) {
  options.read_tier = rocksdb::kBlockCacheTier;
  return options;
}

}  // namespace pinrock::internal

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
  // Cursors walk every key in bytewise order whatever prefix extractor the
  // family has: RocksDB's default seek with a prefix extractor consults the
  // prefix filters and may skip keys of other prefixes (a seek to a prefix no
  // key has then finds nothing). auto_prefix_mode uses those filters only
  // where that cannot change the result, as when the upper bound shares the
  // seek key's prefix; a cursor whose upper bound ends in a 0 byte, where
  // it could (cursors.cc), seeks in total order.
  rocksdb::ReadOptions read_options = pinrock::internal::total_order_read_options();
  // read_options answering from memory only (PR_READ_MEMORY_ONLY alone),
  // kept so the hot path of memory-only gets copies no ReadOptions.
  rocksdb::ReadOptions memory_only_read_options =
      pinrock::internal::memory_only(read_options);
  rocksdb::WriteOptions write_options = pinrock::internal::base_write_options();
  // The family's merge operator, null without one.
  const MergeOperatorKind* merge_operator = nullptr;
  // Whether the family's keys are in the order of a caller's comparator,
  // which every read calls back.
  bool ordered_by_caller = false;
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
  pinrock::internal::DirectoryClaim directory;
  // What the database writes through, holding its families' comparators:
  // before db, so that it is released after it.
  std::unique_ptr<pinrock::internal::ComparatorGate> gate;
  std::unique_ptr<rocksdb::DB> db;
  // Cursors not yet closed: RocksDB's iterators must die before the DB.
  std::atomic<int64_t> open_cursors{0};
  // Transactions not yet freed, which must die before the DB too.
  std::atomic<int64_t> open_transactions{0};
  // What db is when opened transactional (transactions.cc), else null.
  rocksdb::TransactionDB* pessimistic = nullptr;
  rocksdb::OptimisticTransactionDB* optimistic = nullptr;
  // The deadlock detection depth of the pessimistic database's transactions.
  int64_t deadlock_detect_depth = 0;
  // The prepared transactions of the pessimistic database that no pr_txn
  // holds: recovered at open, or freed undecided; pr_db_take_prepared hands
  // them out (the TransactionDB owns them until then, and deletes those
  // left at close, which the log keeps for the next open).
  mutable std::mutex undecided_mutex;
  std::vector<rocksdb::Transaction*> undecided_prepared;
  // Prepared transactions whose commit failed: RocksDB 9.10 leaves them
  // awaiting commit, which it neither commits nor rolls back. Held, with
  // their locks (so that no write lands under a transaction the next open
  // recovers and may commit), until the database closes; their prepared
  // sections stay in the log for the next open. Guarded by undecided_mutex.
  std::vector<rocksdb::Transaction*> failed_prepared_commits;
  // Whether the directory's OPTIONS file recorded allow_2pc at open (see
  // two_phase_recorded): its log may hold prepared transactions.
  bool two_phase_recorded = false;
  // Set by pr_db_set_closing: writes waiting out a stall give up, and the
  // rate limiter is lifted (so that calls in flight end and close is bounded).
  std::atomic<bool> closing{false};
  std::mutex closing_mutex;  // serializes pr_db_set_closing
  // The rate limiter the database was opened with, or null.
  std::shared_ptr<pinrock::internal::LiftableRateLimiter> rate_limiter;
  // Null unless opened with statistics.
  std::shared_ptr<rocksdb::Statistics> statistics;
  // The default family's settings, for families created without options.
  rocksdb::ColumnFamilyOptions default_family_options;
  std::shared_ptr<rocksdb::Cache> default_block_cache;
  const MergeOperatorKind* default_merge_operator = nullptr;
  bool default_ordered_by_caller = false;
  // Guards what follows: shared by readers (every batch write checks its
  // families), exclusive for creating and dropping families.
  std::shared_mutex mutex;
  // Every other family opened or created and not yet freed: a dropped
  // family's handle lives until pr_db_family_release and its cursors are
  // done with it, or until the database closes.
  std::vector<std::unique_ptr<pr_db>> families;
  // The families not dropped, the default one included, by name.
  std::map<std::string, pr_db*> open_families;
  // The comparators of the families dropped since the open, by name. The
  // MANIFEST keeps a dropped family's creation record until the next open
  // writes a new MANIFEST, and RocksDB's recovery checks the comparator
  // given for a name against every creation record of it, a dropped
  // family's too: a name created again in another order would make the
  // database refuse every open (pr_db_create_family refuses that).
  std::map<std::string, std::set<std::string>> dropped_comparators;
};

struct pr_pin {
  // Declared first so that it is destroyed last: the slice's cleanup
  // releases its handle into this cache, which the pin may be the last to
  // hold once the database has closed.
  std::shared_ptr<rocksdb::Cache> block_cache;
  rocksdb::PinnableSlice slice;
};

namespace pinrock::internal {

inline constexpr int32_t kStatusInternal = PR_CODE_INTERNAL;

inline void write_message(const char* message, size_t length, char* err, size_t err_cap) {
  if (err == nullptr || err_cap == 0) return;
  size_t n = length < err_cap - 1 ? length : err_cap - 1;
  std::memcpy(err, message, n);
  err[n] = '\0';
}

inline int32_t fail(int32_t status, const std::string& message, char* err, size_t err_cap) {
  write_message(message.data(), message.size(), err, err_cap);
  return status;
}

// The one place a rocksdb::Status becomes a pinrock status code.
inline int32_t to_status(const rocksdb::Status& s, char* err, size_t err_cap) {
  if (s.ok()) return PR_OK;
  int32_t status = static_cast<int32_t>(s.code()) | (static_cast<int32_t>(s.subcode()) << 8);
  if (s.IsNotFound()) return status;  // a return value, not an error
  return fail(status, s.ToString(), err, err_cap);
}

inline int32_t invalid_argument(const std::string& message, char* err, size_t err_cap) {
  return fail(PR_CODE_INVALID_ARGUMENT, "Invalid argument: " + message, err, err_cap);
}

// A key or value longer than RocksDB can store; guarded() turns it into
// PR_CODE_INVALID_ARGUMENT before RocksDB sees the argument.
struct too_long : std::length_error {
  using std::length_error::length_error;
};

// An argument a helper refuses where it cannot return a status; guarded()
// turns it into PR_CODE_INVALID_ARGUMENT with its message.
struct refused_argument : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Runs body and converts any C++ exception into a status (too_long and
// refused_argument into PR_CODE_INVALID_ARGUMENT, anything else into
// PR_CODE_INTERNAL), so that nothing throws across the C boundary.
template <typename Body>
int32_t guarded(char* err, size_t err_cap, Body&& body) noexcept {
  try {
    return body();
  } catch (const too_long& e) {
    return invalid_argument(e.what(), err, err_cap);
  } catch (const refused_argument& e) {
    return invalid_argument(e.what(), err, err_cap);
  } catch (const std::bad_alloc&) {
    return fail(kStatusInternal, "pinrock: out of memory", err, err_cap);
  } catch (const std::exception& e) {
    return fail(kStatusInternal, std::string("pinrock: ") + e.what(), err, err_cap);
  } catch (...) {
    return fail(kStatusInternal, "pinrock: unknown C++ exception", err, err_cap);
  }
}

// RocksDB encodes lengths as 32-bit varints, and some paths (Delete,
// lookups, seeks) truncate a longer length silently instead of failing, so
// every key and value crossing the boundary is checked here; throws
// too_long. Keys are bounded far lower than RocksDB's 2^32 - 9: a flush
// holds about 14 copies of the longest key at once (measured: put and
// flush of one key of 8, 32, 64, 128 MiB raise the peak resident memory by
// 16, 14, 14, 14 times the key), so an 8 MiB key costs a flush ~130 MB.
inline constexpr size_t kMaxValueBytes = std::numeric_limits<uint32_t>::max();
inline constexpr size_t kMaxKeyBytes = PR_MAX_KEY_BYTES;

inline rocksdb::Slice checked_slice(const char* what, size_t max, const uint8_t* data,
                                    size_t len) {
  if (len > max) {
    throw too_long(std::string("a ") + what + " of " + std::to_string(len) +
                   " bytes exceeds the limit of " + std::to_string(max) + " bytes");
  }
  return rocksdb::Slice(reinterpret_cast<const char*>(data), len);
}

inline rocksdb::Slice key_slice(const uint8_t* data, size_t len) {
  return checked_slice("key", kMaxKeyBytes, data, len);
}

inline rocksdb::Slice value_slice(const uint8_t* data, size_t len) {
  return checked_slice("value", kMaxValueBytes, data, len);
}

// Defined, and described, in the source file named.

// options.cc
rocksdb::Options to_rocksdb_options(const pr_options& o, std::shared_ptr<rocksdb::Cache>* cache);
// The merge operators pinrock offers (pr_options_set_merge_operator).
const std::vector<MergeOperatorKind>& offered_merge_operators();

// info_log.cc
// The info log of a database whose messages go to the queue (from level
// up, prefixed with path, tagged with destination's tag).
std::shared_ptr<rocksdb::Logger> queue_logger(rocksdb::InfoLogLevel level, std::string path,
                                              std::shared_ptr<const QueueDestination> destination);

// event_listeners.cc
// The listener of a database opened with options that have an event
// destination: queues its events, tagged with it, each naming path.
std::shared_ptr<rocksdb::EventListener> queue_event_listener(const pr_options& options,
                                                             std::string path);

// database.cc
int32_t get(const pr_db& db, const rocksdb::ReadOptions& options, const uint8_t* key,
            size_t key_len, uint8_t* buf, size_t buf_cap, uint32_t flags,
            pr_get_result_t* result, char* err, size_t err_cap);

// Fills *result with value read from family as pr_db_get does (copied into
// buf when it fits, else pinned with PR_GET_PIN_IF_LARGER in flags, else
// only its length). Returns PR_OK.
int32_t deliver_value(const pr_db& family, rocksdb::PinnableSlice&& value, uint8_t* buf,
                      size_t buf_cap, uint32_t flags, pr_get_result_t* result);

// OK when operand may be merged into family (it has a merge operator, and
// the operand is of the length the operator reads), else InvalidArgument
// saying why.
rocksdb::Status check_merge(const pr_db& family, const rocksdb::Slice& operand);

// Opens the database at path with the family descriptors given, into
// *handles (one per descriptor) and *db, and records on *database what
// kind of database it opened.
using DatabaseOpener = std::function<rocksdb::Status(
    const rocksdb::DBOptions&, const std::string&, const std::vector<rocksdb::ColumnFamilyDescriptor>&,
    std::vector<rocksdb::ColumnFamilyHandle*>*, rocksdb::DB**, pr_database*)>;

// pr_db_open with open making the RocksDB database: claims the directories,
// checks the recorded family options, opens every family.
int32_t open_database(const pr_options_t* options, const char* path, const DatabaseOpener& open,
                      pr_db_t** db_out, char* err, size_t err_cap);

// reads.cc
rocksdb::ReadOptions read_options(const pr_db& db, const pr_snapshot_t* snapshot,
                                  uint32_t read_flags);

// What the multi-gets hand back, from n values read with key_statuses:
// copy_values copies the found ones into buf, as pr_db_multi_get does
// (value_offsets, value_lens, statuses); pin_values pins each found one,
// with the block cache of family_of(i), as pr_db_multi_get_pinned does
// (results, statuses), and throws std::bad_alloc having pinned none.
void copy_values(size_t n, const rocksdb::PinnableSlice* values, const rocksdb::Status* key_statuses,
                 uint8_t* buf, size_t buf_cap, uint64_t* value_offsets, uint64_t* value_lens,
                 int32_t* statuses);
void pin_values(size_t n, const std::function<const pr_db&(size_t)>& family_of,
                rocksdb::PinnableSlice* values, const rocksdb::Status* key_statuses,
                pr_get_result_t* results, int32_t* statuses);

// The database options and the families, with their options, that the
// database's newest OPTIONS file records (RocksDB rewrites it at every open,
// family change and option change); options this RocksDB does not know are
// skipped. NotSupported, naming it, when the file names an object (a merge
// operator, comparator, compaction filter, prefix extractor, ...) that
// RocksDB cannot make by that name.
//
// The families come in a RecordedFamilies: RocksDB's parser makes a recorded
// compaction filter (one of its built-ins, by name) with new and hands it over
// as a raw pointer that nothing else frees; RecordedFamilies frees it, so the
// options it holds must not be used after it is gone.
class RecordedFamilies {
 public:
  RecordedFamilies() = default;
  RecordedFamilies(const RecordedFamilies&) = delete;
  RecordedFamilies& operator=(const RecordedFamilies&) = delete;
  ~RecordedFamilies() { clear(); }
  // Frees what the parser made and forgets the families.
  void clear() {
    for (rocksdb::ColumnFamilyDescriptor& family : families_) delete family.options.compaction_filter;
    families_.clear();
  }
  std::vector<rocksdb::ColumnFamilyDescriptor>* descriptors() { return &families_; }
  std::vector<rocksdb::ColumnFamilyDescriptor>::const_iterator begin() const { return families_.begin(); }
  std::vector<rocksdb::ColumnFamilyDescriptor>::const_iterator end() const { return families_.end(); }

 private:
  std::vector<rocksdb::ColumnFamilyDescriptor> families_;
};
rocksdb::Status load_recorded_families(const std::string& path, rocksdb::DBOptions* db_options,
                                       RecordedFamilies* recorded);

// Why no family can have the options recorded for the family where names:
// a compaction filter other than a caller's (pr_compaction_filter_factory_create),
// or a table format other than block-based; or "".
std::string unoffered_object_error(const std::string& where,
                                   const rocksdb::ColumnFamilyOptions& recorded);

// Writes names NUL-terminated, back to back, into buf as far as they fit;
// *names_len receives their whole length. Returns PR_OK.
int32_t write_names(const std::vector<std::string>& names, char* buf, size_t buf_cap,
                    uint64_t* names_len);

// directories.cc
rocksdb::Status claim_written_directories(const std::string& path, rocksdb::DBOptions* options,
                                          DirectoryClaim* claim);
std::string recorded_log_directory(const std::string& path, const rocksdb::DBOptions& recorded);

// cursors.cc
// Makes a cursor on family over the iterator open returns for options (with
// the read-ahead and the bounds, which the cursor keeps, applied), holding
// the family and counting the cursor in its database's open cursors and, when
// not null, in owner_cursors (those of the transaction or batch with index it
// reads). Throws what key_slice throws, and refused_argument for a tailing
// cursor as of a snapshot or over a transaction or batch with index.
pr_cursor_t* open_cursor(pr_db* family, rocksdb::ReadOptions options, uint64_t readahead_bytes,
                         const uint8_t* lower, size_t lower_len, const uint8_t* upper,
                         size_t upper_len, uint32_t bounds,
                         std::atomic<int64_t>* owner_cursors,
                         const std::function<rocksdb::Iterator*(const rocksdb::ReadOptions&)>& open);

// database.cc
// Checks a whole write batch of database before it is applied (see
// BatchCheck in database.cc): records of families not open, too long keys,
// merges into families without a merge operator, and what a transactional
// database refuses outside a transaction (of_transaction false). Call with
// database.mutex held shared. Returns OK or InvalidArgument.
rocksdb::Status check_batch(const pr_database& database, const rocksdb::WriteBatch& batch,
                            bool of_transaction);

// The family of database whose id (pr_db_family_id) is id and that is not
// dropped, or null. Call with database.mutex held.
const pr_db* open_family(const pr_database& database, uint32_t id);

// transactions.cc
// Whether the directory's newest OPTIONS file records allow_2pc (a
// pessimistic transactional open wrote it): its log may hold prepared
// sections, of undecided transactions and of committed ones whose values
// no table file holds yet. Only a recovery with allow_2pc keeps them; one
// without skips those logs as flushed and deletes them, and with them those
// transactions and commits. So every later open of such a directory, plain
// or transactional, opens with allow_2pc.
bool two_phase_recorded(const std::string& path);

// Refuses to drop a column family of database while a prepared
// transaction may write into it: RocksDB 9.10's TransactionDB open rebuilds
// each recovered prepared transaction through the handles of the families
// it wrote, and dereferences a null one for a family dropped since (a
// crash at every later open). Refused in a pessimistic database while it
// holds a prepared transaction, and in any other open of a directory whose
// log may hold some (two_phase_recorded). Call with database.mutex held.
// Returns OK or InvalidArgument.
rocksdb::Status check_no_prepared_transactions(const pr_database& database);

// Frees the undecided prepared transactions no pr_txn holds (see
// pr_database::undecided_prepared) before the database closes: RocksDB's
// close refuses while their snapshots live. Their prepared sections stay in
// the log, for the next open to recover.
void free_undecided_transactions(pr_database& database);

// Refuses to repair a directory whose OPTIONS file records allow_2pc while
// log files remain (in it or in options.wal_dir): RocksDB 9.10's RepairDB
// replays each log without recovering transactions, so it applies every
// prepared section (undecided and rolled back ones too) and ignores
// rollbacks. Returns OK or NotSupported.
rocksdb::Status check_no_prepared_log(const std::string& path, const rocksdb::Options& options);

// callbacks.cc: what every kind of callback (pinrock.h's section
// "callbacks") shares.
// Queues state as released (rule C1). Runs in destructors, on any thread,
// also inside calls that must not call back: it only queues. Out of memory,
// the state stays unreleased (its object held for good), which is safe.
void queue_released(uint64_t state) noexcept;

// Notes that a caller's function is about to be called (rule C6).
void calling_back();

// What a pr_*_create of a callback does around create, which makes it:
// refuses a name not recordable in an OPTIONS file (1 to 255 ASCII letters,
// digits and . _ - $: RocksDB writes it unquoted) or one names_rocksdbs
// says RocksDB makes an object of its own for, each with kind ("merge
// operator") in the message, and makes the exit end the process before
// RocksDB's threads are joined (rule C6). create sets *owned once the
// object it makes owns state; until then every return releases state
// (C1). Returns PR_OK or the refusal.
int32_t create_callback(
    const char* name, uint64_t state, const char* kind,
    const std::function<bool(const rocksdb::ConfigOptions&, const std::string&)>& names_rocksdbs,
    const std::function<void(const std::string&, bool*)>& create, char* err, size_t err_cap);

// Lets RocksDB read OPTIONS files naming name, a caller's callback of
// RocksDB's type T (MergeOperator, CompactionFilterFactory), making a
// Recorded(name) for it: once per name and type in the process (RocksDB's
// object library keeps its factories).
template <typename T, typename Recorded>
void register_recorded_name(const std::string& name) {
  static std::mutex mutex;
  static std::set<std::string> registered;
  std::lock_guard<std::mutex> lock(mutex);
  if (!registered.insert(name).second) return;
  rocksdb::ObjectLibrary::Default()->AddFactory<T>(
      name, [](const std::string& uri, std::unique_ptr<T>* guard, std::string*) {
        guard->reset(new Recorded(uri));
        return guard->get();
      });
}

// compaction_filters.cc
// Whether factory is a caller's compaction filter factory, or one RocksDB
// made reading an OPTIONS file that names one.
bool is_callers_compaction_filter_factory(const rocksdb::CompactionFilterFactory* factory);

// families.cc
void drop_hold(pr_db* family);
rocksdb::Status check_recorded_family_options(
    const std::string& path, const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
    const rocksdb::ColumnFamilyOptions& others);

}  // namespace pinrock::internal

#endif  // PINROCK_INTERNAL_H
