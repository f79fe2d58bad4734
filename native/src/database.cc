// The "database" section of pinrock.h: opening and closing a database, and
// the writes and the one-call read of a family's handle.
#include "internal.h"

#include <rocksdb/write_batch.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace pinrock::internal;

namespace {

// A write through the handle of a dropped column family.
int32_t dropped_family(const pr_db& family, char* err, size_t err_cap) {
  return invalid_argument("column family '" + family.name + "' is dropped", err, err_cap);
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
  BatchCheck(const pr_database& database, bool of_transaction)
      : database_(database), of_transaction_(of_transaction) {}

  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& key, const rocksdb::Slice&) override {
    return KnownFamilyAndKey(cf, key);
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    return KnownFamilyAndKey(cf, key);
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    if (database_.pessimistic != nullptr && !of_transaction_) {
      // RocksDB 9.10 locks no single delete of a batch: of the default
      // family it would write the key unlocked, of another it fails (a
      // transaction's own are locked).
      return rocksdb::Status::InvalidArgument(
          "a pessimistic transactional database single-deletes no key outside a transaction: "
          "RocksDB does not lock such a write (use delete)");
    }
    return KnownFamilyAndKey(cf, key);
  }
  rocksdb::Status DeleteRangeCF(uint32_t cf, const rocksdb::Slice& begin,
                                const rocksdb::Slice& end) override {
    const pr_db* family = OpenFamily(cf);
    if (family == nullptr) return NotOpen(cf);
    if (begin.size() > kMaxKeyBytes || end.size() > kMaxKeyBytes) return TooLong();
    if (database_.pessimistic != nullptr || database_.optimistic != nullptr) {
      // RocksDB's transactions lock, or check for conflicts, key by key: its
      // transactional databases refuse range deletes (the optimistic one
      // with NotSupported, the pessimistic one while locking the batch).
      return rocksdb::Status::InvalidArgument(
          "a transactional database deletes no ranges: its transactions track keys, not ranges");
    }
    // begin == end is an empty range, which RocksDB skips.
    if (family->family->GetComparator()->Compare(begin, end) > 0) {
      return rocksdb::Status::InvalidArgument(
          "the write deletes a range whose end key comes before its begin key");
    }
    return rocksdb::Status::OK();
  }
  rocksdb::Status MergeCF(uint32_t cf, const rocksdb::Slice& key,
                          const rocksdb::Slice& operand) override {
    const pr_db* family = OpenFamily(cf);
    if (family == nullptr) return NotOpen(cf);
    if (key.size() > kMaxKeyBytes) return TooLong();
    return check_merge(*family, operand);
  }
  // The marker a two-phase transaction's batch starts with, which its
  // prepare turns into the prepared section's beginning.
  rocksdb::Status MarkNoop(bool) override {
    return of_transaction_ ? rocksdb::Status::OK() : Handler::MarkNoop(false);
  }

 private:
  const pr_db* OpenFamily(uint32_t cf) const { return open_family(database_, cf); }
  rocksdb::Status KnownFamilyAndKey(uint32_t cf, const rocksdb::Slice& key) const {
    if (OpenFamily(cf) == nullptr) return NotOpen(cf);
    return key.size() > kMaxKeyBytes ? TooLong() : rocksdb::Status::OK();
  }
  static rocksdb::Status TooLong() {
    return rocksdb::Status::InvalidArgument("the write holds a key longer than the limit of " +
                                            std::to_string(kMaxKeyBytes) + " bytes");
  }
  static rocksdb::Status NotOpen(uint32_t cf) {
    return rocksdb::Status::InvalidArgument("the write names column family " +
                                            std::to_string(cf) + ", which is not open");
  }
  const pr_database& database_;
  const bool of_transaction_;
};

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

}  // namespace

namespace pinrock::internal {

const pr_db* open_family(const pr_database& database, uint32_t id) {
  for (const auto& [name, family] : database.open_families) {
    if (family->family->GetID() == id) return family;
  }
  return nullptr;
}

rocksdb::Status check_merge(const pr_db& family, const rocksdb::Slice& operand) {
  if (family.merge_operator == nullptr) {
    return rocksdb::Status::InvalidArgument("the write merges into column family '" + family.name +
                                            "', which has no merge operator");
  }
  size_t operand_bytes = family.merge_operator->operand_bytes;
  if (operand_bytes != 0 && operand.size() != operand_bytes) {
    return rocksdb::Status::InvalidArgument(
        "the write merges an operand of " + std::to_string(operand.size()) +
        " bytes into column family '" + family.name + "', whose merge operator " +
        family.merge_operator->name + " takes operands of " + std::to_string(operand_bytes) +
        " bytes");
  }
  return rocksdb::Status::OK();
}

int32_t deliver_value(const pr_db& family, rocksdb::PinnableSlice&& value, uint8_t* buf,
                      size_t buf_cap, uint32_t flags, pr_get_result_t* result) {
  result->value_len = value.size();
  if (value.size() <= buf_cap) {
    if (value.size() > 0) std::memcpy(buf, value.data(), value.size());
    result->data = buf;
  } else if ((flags & PR_GET_PIN_IF_LARGER) != 0) {
    auto* pin = new pr_pin{family.block_cache, std::move(value)};
    result->data = reinterpret_cast<const uint8_t*>(pin->slice.data());
    result->pin = pin;
  }
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
  return deliver_value(db, std::move(value), buf, buf_cap, flags, result);
}

int32_t open_database(const pr_options_t* options, const char* path, const DatabaseOpener& open,
                      pr_db_t** db_out, char* err, size_t err_cap) {
  *db_out = nullptr;
  return guarded(err, err_cap, [&] {
    // The directory must exist to be claimed: made here as RocksDB would
    // make it (one level deep); if that fails, so does RocksDB's open.
    if (options->db.create_if_missing) ::mkdir(path, 0755);
    auto handle = std::make_unique<pr_db>();
    handle->owned = std::make_unique<pr_database>();
    pr_database& database = *handle->owned;
    // No directory: RocksDB's open fails and says why.
    rocksdb::Status claimed = database.directory.Claim(path);
    if (!claimed.ok() && !claimed.IsNotFound()) return to_status(claimed, err, err_cap);
    rocksdb::Options rocks_options = to_rocksdb_options(*options, &database.default_block_cache);
    database.gate = std::make_unique<ComparatorGate>(rocks_options.env);
    database.gate->Hold(*options);
    rocks_options.env = database.gate->env();
    if (options->info_log_destination) {
      rocks_options.info_log =
          queue_logger(rocks_options.info_log_level, path, options->info_log_destination);
    }
    database.default_family_options = rocksdb::ColumnFamilyOptions(rocks_options);
    database.default_merge_operator = options->merge_operator_kind;
    database.default_ordered_by_caller = options->caller_comparator != nullptr;
    database.statistics = rocks_options.statistics;
    database.rate_limiter = LiftableRateLimiter::Of(rocks_options.rate_limiter);
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
        family->ordered_by_caller = database.default_ordered_by_caller;
      } else {
        descriptors.emplace_back(
            name, rocksdb::ColumnFamilyOptions(to_rocksdb_options(*own->second, &family->block_cache)));
        family->merge_operator = own->second->merge_operator_kind;
        family->ordered_by_caller = own->second->caller_comparator != nullptr;
      }
      families.push_back(std::move(family));
    }
    rocksdb::DBOptions db_options(rocks_options);
    if (auto listener = queue_event_listener(*options, path)) {
      db_options.listeners.push_back(std::move(listener));
    }
    // RocksDB retries retryable I/O errors without asking its listeners.
    if (!options->event_auto_recovery) db_options.max_bgerror_resume_count = 0;
    database.two_phase_recorded = two_phase_recorded(path);
    if (database.two_phase_recorded) db_options.allow_2pc = true;
    rocksdb::Status checked =
        claim_written_directories(path, &db_options, &database.directory);
    if (checked.ok()) {
      checked = check_recorded_family_options(path, descriptors, database.default_family_options);
    }
    if (!checked.ok()) return to_status(checked, err, err_cap);
    std::vector<rocksdb::ColumnFamilyHandle*> opened_families;
    rocksdb::DB* opened = nullptr;
    // The recovery writes the log's memtables into table files through the
    // rate limiter: unlimited, so that the open is bounded whatever the rate.
    RateLimitLift recovering(database.rate_limiter.get());
    rocksdb::Status s = open(db_options, path, descriptors, &opened_families, &opened, &database);
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
        handle->ordered_by_caller = family->ordered_by_caller;
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

rocksdb::Status check_batch(const pr_database& database, const rocksdb::WriteBatch& batch,
                            bool of_transaction) {
  BatchCheck check(database, of_transaction);
  return batch.Iterate(&check);
}

}  // namespace pinrock::internal

extern "C" {

int32_t pr_db_open(const pr_options_t* options, const char* path, pr_db_t** db_out, char* err,
                   size_t err_cap) {
  return open_database(
      options, path,
      [](const rocksdb::DBOptions& db_options, const std::string& directory,
         const std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors,
         std::vector<rocksdb::ColumnFamilyHandle*>* handles, rocksdb::DB** opened, pr_database*) {
        return rocksdb::DB::Open(db_options, directory, descriptors, handles, opened);
      },
      db_out, err, err_cap);
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
  if (db->database->open_transactions.load() > 0) {
    return fail(PR_CODE_ABORTED, "Operation aborted: free the database's transactions first", err,
                err_cap);
  }
  std::unique_ptr<pr_db> owned(db);
  return guarded(err, err_cap, [&] {
    pr_database& database = *owned->database;
    // RocksDB's close waits for the flushes and compactions under way, and
    // for the flush of what only the memtables hold: unlimited, so that the
    // close is bounded whatever the rate (the lift pr_db_set_closing took
    // ends with this one).
    RateLimitLift lift(database.rate_limiter.get());
    pr_db_set_closing(owned.get(), 0);
    free_undecided_transactions(database);
    for (const auto& family : database.families) {
      database.db->DestroyColumnFamilyHandle(family->family);
    }
    return to_status(database.db->Close(), err, err_cap);
  });
}

void pr_db_set_closing(pr_db_t* db, int32_t closing) {
  pr_database& database = *db->database;
  std::lock_guard<std::mutex> lock(database.closing_mutex);
  // A change takes or gives back a lift of the rate limiter: the calls in
  // flight (a flush waiting for its flush) end at disk speed.
  if (database.closing.exchange(closing != 0) == (closing != 0)) return;
  if (database.rate_limiter == nullptr) return;
  if (closing != 0) {
    database.rate_limiter->Lift();
  } else {
    database.rate_limiter->Restore();
  }
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
      rocksdb::Status s = check_batch(*db->database, write_batch, false);
      if (!s.ok()) return to_status(s, err, err_cap);
    }
    return to_status(write_waiting_out_stalls(*db->database, write_options(db->write_options, flags),
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

}  // extern "C"
