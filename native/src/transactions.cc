// The transactions section of pinrock.h: transactional opens over
// database.cc's open, and transactions over RocksDB's TransactionDB
// (pessimistic, WRITE_COMMITTED) and OptimisticTransactionDB.
#include "internal.h"

#include <rocksdb/utilities/transaction.h>
#include <rocksdb/utilities/write_batch_with_index.h>

#include <algorithm>
#include <vector>

using namespace pinrock::internal;

// One transaction; the database's open_transactions counts it until freed.
struct pr_txn {
  pr_database* database = nullptr;
  std::unique_ptr<rocksdb::Transaction> txn;
  // Committed or rolled back: every call but pr_txn_free is refused.
  bool done = false;
  // Its name (pr_txn_set_name, or recovered), empty when it has none.
  std::string name;
  // Whether a snapshot asked for at the next operation (pr_txn_set_snapshot)
  // is still to be taken, and what it was at each save point, which RocksDB
  // restores with the save point (see take_pending_snapshot).
  bool snapshot_pending = false;
  std::vector<bool> snapshot_pending_at_save_points;
  // Cursors of pr_txn_cursor_open not yet closed: their iterators read the
  // transaction's write batch in place.
  std::atomic<int64_t> open_cursors{0};
  // Whether pr_txn_free lets go of RocksDB's transaction without deleting
  // it (see pr_txn_commit).
  bool unfreeable = false;
  // Whether pr_txn_free hands RocksDB's transaction to the database, to be
  // held until it closes (pr_database::failed_prepared_commits).
  bool held_until_close = false;
};

namespace {

// A timeout in ms as RocksDB takes it: -1 (forever) or from 0 on.
bool valid_timeout(int64_t ms) { return ms >= -1; }

// The longest timeout or expiration passed to RocksDB, 2^40 ms (about 35
// years): RocksDB turns milliseconds into microseconds and adds them to the
// clock's time (and its timed mutex into nanoseconds), unchecked, so that a
// larger one (Long.MAX_VALUE) wrapped around into the database's default or
// no wait at all. A longer timeout waits as long as this one.
constexpr int64_t kLongestTimeoutMs = int64_t{1} << 40;

int64_t rocksdb_timeout(int64_t ms) { return std::min(ms, kLongestTimeoutMs); }

int32_t finished(char* err, size_t err_cap) {
  return invalid_argument("the transaction is committed or rolled back", err, err_cap);
}

// Refuses what would free or rebuild the writes the transaction's open
// cursors read (RocksDB's iterators over a transaction are valid until its
// commit, rollback or rollback to a save point).
int32_t cursors_open(char* err, size_t err_cap) {
  return fail(PR_CODE_ABORTED, "Operation aborted: close the transaction's cursors first", err,
              err_cap);
}

// Refuses a call on a done transaction, or naming a family that is not one
// of the transaction's database or is dropped: InvalidArgument, else OK.
int32_t check_call(const pr_txn& txn, const pr_db* family, char* err, size_t err_cap) {
  if (txn.done) return finished(err, err_cap);
  if (family->database != txn.database) {
    return invalid_argument("column family '" + family->name +
                                "' belongs to another database than the transaction",
                            err, err_cap);
  }
  if (family->dropped) {
    return invalid_argument("column family '" + family->name + "' is dropped", err, err_cap);
  }
  return PR_OK;
}

// Read options for family in the transaction: as of snapshot, or of the
// transaction's own snapshot (when it has one) when snapshot is null.
rocksdb::ReadOptions transaction_read_options(const pr_txn& txn, const pr_db& family,
                                              const pr_snapshot_t* snapshot, uint32_t read_flags) {
  const pr_snapshot_t* own = reinterpret_cast<const pr_snapshot_t*>(txn.txn->GetSnapshot());
  return read_options(family, snapshot != nullptr ? snapshot : own, read_flags);
}

bool prepared(const pr_txn& txn) {
  return txn.txn->GetState() == rocksdb::Transaction::PREPARED;
}

// Refuses what would change a transaction whose writes are prepared (its
// prepared section in the log would no longer be what it commits), or a
// done one: InvalidArgument, else OK.
int32_t check_changeable(const pr_txn& txn, char* err, size_t err_cap) {
  if (txn.done) return finished(err, err_cap);
  if (prepared(txn)) {
    return invalid_argument("the transaction is prepared: commit or roll it back", err, err_cap);
  }
  return PR_OK;
}

// The transaction ids of ids, comma-separated.
std::string id_list(const std::vector<rocksdb::TransactionID>& ids) {
  std::string list;
  for (rocksdb::TransactionID id : ids) list += (list.empty() ? "" : ", ") + std::to_string(id);
  return list;
}

// What RocksDB tells of the other transactions involved in a failed lock of
// key in family by txn (a pessimistic transaction's write or read for
// update), as words to add to the failure's message: for a lock timeout,
// who holds the key now (GetLockStatusData: possibly none, when the holder
// let go meanwhile); for a deadlock, the cycle of waits RocksDB recorded
// for txn (GetDeadlockInfoBuffer, newest first). Empty when there is none.
std::string lock_holders(const pr_txn& txn, const pr_db& family, const rocksdb::Slice& key,
                         const rocksdb::Status& s) {
  rocksdb::TransactionDB* db = txn.database->pessimistic;
  if (db == nullptr) return "";
  if (s.IsTimedOut() && s.subcode() == rocksdb::Status::kLockTimeout) {
    for (const auto& [cf, info] : db->GetLockStatusData()) {
      if (cf == family.family->GetID() && rocksdb::Slice(info.key) == key) {
        return std::string("; the key is locked ") + (info.exclusive ? "exclusively" : "shared") +
               " by transaction " + id_list(info.ids);
      }
    }
  } else if (s.IsBusy() && s.subcode() == rocksdb::Status::kDeadlock) {
    for (const rocksdb::DeadlockPath& cycle : db->GetDeadlockInfoBuffer()) {
      bool ours = false;
      for (const rocksdb::DeadlockInfo& wait : cycle.path) ours |= wait.m_txn_id == txn.txn->GetID();
      if (!ours || cycle.limit_exceeded) continue;
      std::string words = "; the cycle of waits:";
      for (const rocksdb::DeadlockInfo& wait : cycle.path) {
        words += " transaction " + std::to_string(wait.m_txn_id) + " waits for key 0x" +
                 rocksdb::Slice(wait.m_waiting_key).ToString(true) + " of column family " +
                 std::to_string(wait.m_cf_id) + ",";
      }
      words.pop_back();
      return words;
    }
  }
  return "";
}

// The status of a lock of key in family by txn that failed with s, its
// message saying what lock_holders tells.
int32_t lock_failure(const pr_txn& txn, const pr_db& family, const rocksdb::Slice& key,
                     const rocksdb::Status& s, char* err, size_t err_cap) {
  int32_t status = to_status(s, err, err_cap);
  std::string holders = lock_holders(txn, family, key, s);
  return holders.empty() ? status : fail(status, s.ToString() + holders, err, err_cap);
}

// Takes the snapshot asked for at the next operation, if it is still to be
// taken, before an operation at which RocksDB would take it (a write, a
// read for update, a commit): the same moment. RocksDB 9.10 takes it inside
// GetForUpdate, after the caller made its read options, and releases the
// snapshot those name, so that the read then read through a freed snapshot
// (values from long before, found by the torture); and a commit with one
// still to be taken fails ("Must set transaction commit timestamp").
void take_pending_snapshot(pr_txn& txn) {
  if (!txn.snapshot_pending) return;
  txn.txn->SetSnapshot();
  txn.snapshot_pending = false;
}

// Runs one write of key by the transaction (write(key slice) -> Status)
// after check_call and check_changeable; a failed lock says who holds the
// key (lock_failure).
template <typename Write>
int32_t txn_write(pr_txn_t* txn, pr_db_t* family, const uint8_t* key, size_t key_len, char* err,
                  size_t err_cap, Write&& write) {
  return guarded(err, err_cap, [&] {
    int32_t refused = check_call(*txn, family, err, err_cap);
    if (refused == PR_OK) refused = check_changeable(*txn, err, err_cap);
    if (refused != PR_OK) return refused;
    rocksdb::Slice key_bytes = key_slice(key, key_len);
    take_pending_snapshot(*txn);
    rocksdb::Status s = write(key_bytes);
    return s.ok() ? PR_OK : lock_failure(*txn, *family, key_bytes, s, err, err_cap);
  });
}

// Refuses a read of family in the transaction with lock (a PR_TXN_READ*
// mode) as of snapshot: check_call's refusals, an unknown mode, and, for a
// read for update, a prepared transaction or another snapshot than the
// transaction's: InvalidArgument, else OK.
int32_t check_read(const pr_txn& txn, const pr_db* family, const pr_snapshot_t* snapshot, int32_t lock,
                   char* err, size_t err_cap) {
  int32_t refused = check_call(txn, family, err, err_cap);
  if (refused != PR_OK) return refused;
  if (lock != PR_TXN_READ && lock != PR_TXN_READ_FOR_UPDATE && lock != PR_TXN_READ_FOR_UPDATE_SHARED) {
    return invalid_argument("unknown lock mode " + std::to_string(lock), err, err_cap);
  }
  if (lock == PR_TXN_READ) return PR_OK;
  refused = check_changeable(txn, err, err_cap);
  if (refused != PR_OK) return refused;
  if (snapshot != nullptr && snapshot != reinterpret_cast<const pr_snapshot_t*>(txn.txn->GetSnapshot())) {
    return invalid_argument(
        "a read for update reads as of the transaction's snapshot or the latest state", err, err_cap);
  }
  return PR_OK;
}

// Reads n keys of family in the transaction, after check_read, and hands
// the values and their statuses to deliver(values, key_statuses): plain
// reads in one batched MultiGet (key by key when memory-only, as reads.cc's
// multi_get does and for the same reason), reads for update key by key
// (each locks its key; RocksDB has no batched one).
template <typename Deliver>
int32_t txn_multi_get(pr_txn& txn, pr_db* family, const pr_snapshot_t* snapshot, uint32_t read_flags,
                      int32_t lock, size_t n, const uint8_t* const* keys, const size_t* key_lens,
                      char* err, size_t err_cap, Deliver&& deliver) {
  int32_t refused = check_read(txn, family, snapshot, lock, err, err_cap);
  if (refused != PR_OK) return refused;
  std::vector<rocksdb::Slice> key_slices(n);
  for (size_t i = 0; i < n; i++) key_slices[i] = key_slice(keys[i], key_lens[i]);
  if (lock != PR_TXN_READ) take_pending_snapshot(txn);
  std::vector<rocksdb::PinnableSlice> values(n);
  std::vector<rocksdb::Status> key_statuses(n);
  rocksdb::ReadOptions options = transaction_read_options(txn, *family, snapshot, read_flags);
  if (lock == PR_TXN_READ && (read_flags & PR_READ_MEMORY_ONLY) == 0) {
    txn.txn->MultiGet(options, family->family, n, key_slices.data(), values.data(),
                      key_statuses.data());
  } else {
    for (size_t i = 0; i < n; i++) {
      key_statuses[i] = lock == PR_TXN_READ
                            ? txn.txn->Get(options, family->family, key_slices[i], &values[i])
                            : txn.txn->GetForUpdate(options, family->family, key_slices[i],
                                                    &values[i], lock == PR_TXN_READ_FOR_UPDATE);
    }
  }
  deliver(values.data(), key_statuses.data());
  return PR_OK;
}

// Wraps a transaction of database in a pr_txn the database counts.
pr_txn_t* adopt(pr_database& database, rocksdb::Transaction* transaction) {
  auto txn = std::make_unique<pr_txn>();
  txn->database = &database;
  txn->txn.reset(transaction);
  txn->name = transaction->GetName();
  database.open_transactions++;
  return txn.release();
}

}  // namespace

namespace pinrock::internal {

bool two_phase_recorded(const std::string& path) {
  rocksdb::DBOptions recorded;
  RecordedFamilies families;
  return load_recorded_families(path, &recorded, &families).ok() && recorded.allow_2pc;
}

void free_undecided_transactions(pr_database& database) {
  std::lock_guard<std::mutex> lock(database.undecided_mutex);
  for (rocksdb::Transaction* transaction : database.undecided_prepared) delete transaction;
  database.undecided_prepared.clear();
  for (rocksdb::Transaction* transaction : database.failed_prepared_commits) delete transaction;
  database.failed_prepared_commits.clear();
}

rocksdb::Status check_no_prepared_log(const std::string& path, const rocksdb::Options& options) {
  if (!two_phase_recorded(path)) return rocksdb::Status::OK();
  for (const std::string& directory : {path, options.wal_dir.empty() ? path : options.wal_dir}) {
    std::vector<std::string> children;
    if (!options.env->GetChildren(directory, &children).ok()) continue;
    for (const std::string& child : children) {
      if (child.size() > 4 && child.compare(child.size() - 4, 4, ".log") == 0) {
        return rocksdb::Status::NotSupported(
            "repair cannot keep prepared transactions: a transactional database's log file " + child +
            " may hold some, and RocksDB's RepairDB would apply them all, undecided and rolled back "
            "ones too; open it with openTransactional instead");
      }
    }
  }
  return rocksdb::Status::OK();
}

rocksdb::Status check_no_prepared_transactions(const pr_database& database) {
  if (database.pessimistic != nullptr) {
    std::vector<rocksdb::Transaction*> prepared;
    database.pessimistic->GetAllPreparedTransactions(&prepared);
    bool failed_commits = false;
    {
      std::lock_guard<std::mutex> lock(database.undecided_mutex);
      failed_commits = !database.failed_prepared_commits.empty();
    }
    if (prepared.empty() && !failed_commits) return rocksdb::Status::OK();
    return rocksdb::Status::InvalidArgument(
        "a column family cannot be dropped while prepared transactions are undecided: commit or "
        "roll them back first");
  }
  if (!database.two_phase_recorded) return rocksdb::Status::OK();
  return rocksdb::Status::InvalidArgument(
      "a column family cannot be dropped here: the log may hold prepared transactions, which only "
      "a pessimistic transactional open recovers and decides; drop it in one");
}

}  // namespace pinrock::internal

extern "C" {

int32_t pr_db_open_transactional(const pr_options_t* options, const char* path, int32_t kind,
                                 const pr_transaction_db_options_t* txn_options, pr_db_t** db_out,
                                 char* err, size_t err_cap) {
  *db_out = nullptr;
  if (kind != PR_TRANSACTIONS_PESSIMISTIC && kind != PR_TRANSACTIONS_OPTIMISTIC) {
    return invalid_argument("unknown kind of transactional database " + std::to_string(kind), err,
                            err_cap);
  }
  if (!valid_timeout(txn_options->lock_timeout_ms) ||
      !valid_timeout(txn_options->default_lock_timeout_ms)) {
    return invalid_argument("a lock timeout is -1 (forever) or at least 0 ms", err, err_cap);
  }
  if (txn_options->deadlock_detect_depth < 0) {
    return invalid_argument("the deadlock detection depth is at least 0", err, err_cap);
  }
  if (txn_options->optimistic_validation != PR_OPTIMISTIC_VALIDATE_SERIAL &&
      txn_options->optimistic_validation != PR_OPTIMISTIC_VALIDATE_PARALLEL) {
    return invalid_argument("unknown optimistic validation " +
                                std::to_string(txn_options->optimistic_validation),
                            err, err_cap);
  }
  if (kind == PR_TRANSACTIONS_PESSIMISTIC) {
    rocksdb::TransactionDBOptions txn_db_options;
    txn_db_options.transaction_lock_timeout = rocksdb_timeout(txn_options->lock_timeout_ms);
    txn_db_options.default_lock_timeout = rocksdb_timeout(txn_options->default_lock_timeout_ms);
    txn_db_options.max_num_locks = txn_options->max_num_locks > 0 ? txn_options->max_num_locks : -1;
    txn_db_options.max_num_deadlocks = 5;
    txn_db_options.write_policy = rocksdb::WRITE_COMMITTED;
    int64_t depth = txn_options->deadlock_detect_depth;
    return open_database(
        options, path,
        [&](const rocksdb::DBOptions& db_options, const std::string& directory,
            const std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors,
            std::vector<rocksdb::ColumnFamilyHandle*>* handles, rocksdb::DB** opened,
            pr_database* database) {
          rocksdb::TransactionDB* txn_db = nullptr;
          rocksdb::Status s = rocksdb::TransactionDB::Open(db_options, txn_db_options, directory,
                                                           descriptors, handles, &txn_db);
          *opened = txn_db;
          database->pessimistic = txn_db;
          database->deadlock_detect_depth = depth;
          if (s.ok()) txn_db->GetAllPreparedTransactions(&database->undecided_prepared);
          return s;
        },
        db_out, err, err_cap);
  }
  rocksdb::OptimisticTransactionDBOptions optimistic_options;
  optimistic_options.validate_policy =
      static_cast<rocksdb::OccValidationPolicy>(txn_options->optimistic_validation);
  return open_database(
      options, path,
      [&](const rocksdb::DBOptions& db_options, const std::string& directory,
          const std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors,
          std::vector<rocksdb::ColumnFamilyHandle*>* handles, rocksdb::DB** opened,
          pr_database* database) {
        rocksdb::OptimisticTransactionDB* txn_db = nullptr;
        rocksdb::Status s = rocksdb::OptimisticTransactionDB::Open(
            db_options, optimistic_options, directory, descriptors, handles, &txn_db);
        *opened = txn_db;
        database->optimistic = txn_db;
        return s;
      },
      db_out, err, err_cap);
}

int32_t pr_db_transactions(const pr_db_t* db) {
  if (db->database->pessimistic != nullptr) return PR_TRANSACTIONS_PESSIMISTIC;
  if (db->database->optimistic != nullptr) return PR_TRANSACTIONS_OPTIMISTIC;
  return 0;
}

int32_t pr_txn_begin(pr_db_t* db, uint32_t write_flags, const pr_txn_options_t* txn_options,
                     pr_txn_t** txn_out, char* err, size_t err_cap) {
  *txn_out = nullptr;
  return guarded(err, err_cap, [&] {
    pr_database& database = *db->database;
    if (database.pessimistic == nullptr && database.optimistic == nullptr) {
      return fail(PR_CODE_NOT_SUPPORTED,
                  "Not implemented: the database was not opened for transactions", err, err_cap);
    }
    if ((write_flags & PR_WRITE_SYNC) != 0 && (write_flags & PR_WRITE_DISABLE_WAL) != 0) {
      return invalid_argument("a commit cannot be synced without the write-ahead log", err,
                              err_cap);
    }
    if ((write_flags & ~uint32_t{PR_WRITE_SYNC | PR_WRITE_DISABLE_WAL | PR_WRITE_NO_SLOWDOWN}) != 0 ||
        (txn_options->flags & ~uint32_t{PR_TXN_SET_SNAPSHOT | PR_TXN_DETECT_DEADLOCKS}) != 0) {
      return invalid_argument("unknown flags", err, err_cap);
    }
    if (!valid_timeout(txn_options->lock_timeout_ms) || !valid_timeout(txn_options->expiration_ms)) {
      return invalid_argument("a lock timeout or expiration is -1 or at least 0 ms", err, err_cap);
    }
    rocksdb::WriteOptions write = write_options(db->write_options, write_flags);
    bool snapshot = (txn_options->flags & PR_TXN_SET_SNAPSHOT) != 0;
    if (database.pessimistic != nullptr) {
      rocksdb::TransactionOptions options;
      options.set_snapshot = snapshot;
      options.deadlock_detect = (txn_options->flags & PR_TXN_DETECT_DEADLOCKS) != 0;
      options.deadlock_detect_depth = database.deadlock_detect_depth;
      options.lock_timeout = rocksdb_timeout(txn_options->lock_timeout_ms);
      options.expiration = rocksdb_timeout(txn_options->expiration_ms);
      *txn_out = adopt(database, database.pessimistic->BeginTransaction(write, options));
    } else {
      rocksdb::OptimisticTransactionOptions options;
      options.set_snapshot = snapshot;
      *txn_out = adopt(database, database.optimistic->BeginTransaction(write, options));
    }
    return PR_OK;
  });
}

void pr_txn_free(pr_txn_t* txn) {
  if (txn == nullptr || txn->open_cursors.load() > 0) return;
  pr_database& database = *txn->database;
  if (prepared(*txn)) {
    // Undecided: the database keeps it, with its locks, to hand out again.
    std::lock_guard<std::mutex> lock(database.undecided_mutex);
    database.undecided_prepared.push_back(txn->txn.release());
  }
  if (txn->unfreeable) static_cast<void>(txn->txn.release());
  if (txn->held_until_close) {
    std::lock_guard<std::mutex> lock(database.undecided_mutex);
    database.failed_prepared_commits.push_back(txn->txn.release());
  }
  // RocksDB's transaction rolls back what it holds when deleted.
  delete txn;
  database.open_transactions--;
}

int32_t pr_txn_put(pr_txn_t* txn, pr_db_t* family, const uint8_t* key, size_t key_len,
                   const uint8_t* value, size_t value_len, char* err, size_t err_cap) {
  return txn_write(txn, family, key, key_len, err, err_cap, [&](const rocksdb::Slice& key_bytes) {
    return txn->txn->Put(family->family, key_bytes, value_slice(value, value_len));
  });
}

int32_t pr_txn_delete(pr_txn_t* txn, pr_db_t* family, const uint8_t* key, size_t key_len,
                      char* err, size_t err_cap) {
  return txn_write(txn, family, key, key_len, err, err_cap, [&](const rocksdb::Slice& key_bytes) {
    return txn->txn->Delete(family->family, key_bytes);
  });
}

int32_t pr_txn_single_delete(pr_txn_t* txn, pr_db_t* family, const uint8_t* key, size_t key_len,
                             char* err, size_t err_cap) {
  return txn_write(txn, family, key, key_len, err, err_cap, [&](const rocksdb::Slice& key_bytes) {
    return txn->txn->SingleDelete(family->family, key_bytes);
  });
}

int32_t pr_txn_merge(pr_txn_t* txn, pr_db_t* family, const uint8_t* key, size_t key_len,
                     const uint8_t* operand, size_t operand_len, char* err, size_t err_cap) {
  return txn_write(txn, family, key, key_len, err, err_cap, [&](const rocksdb::Slice& key_bytes) {
    rocksdb::Slice operand_slice = value_slice(operand, operand_len);
    rocksdb::Status mergeable = check_merge(*family, operand_slice);
    if (!mergeable.ok()) return mergeable;
    return txn->txn->Merge(family->family, key_bytes, operand_slice);
  });
}

int32_t pr_txn_get(pr_txn_t* txn, pr_db_t* family, const pr_snapshot_t* snapshot,
                   uint32_t read_flags, int32_t lock, const uint8_t* key, size_t key_len,
                   uint8_t* buf, size_t buf_cap, uint32_t flags, pr_get_result_t* result,
                   char* err, size_t err_cap) {
  *result = pr_get_result_t{0, nullptr, nullptr};
  return guarded(err, err_cap, [&] {
    int32_t refused = check_read(*txn, family, snapshot, lock, err, err_cap);
    if (refused != PR_OK) return refused;
    rocksdb::Slice key_bytes = key_slice(key, key_len);
    if (lock != PR_TXN_READ) take_pending_snapshot(*txn);
    rocksdb::ReadOptions options = transaction_read_options(*txn, *family, snapshot, read_flags);
    rocksdb::PinnableSlice value;
    rocksdb::Status s =
        lock == PR_TXN_READ
            ? txn->txn->Get(options, family->family, key_bytes, &value)
            : txn->txn->GetForUpdate(options, family->family, key_bytes, &value,
                                     lock == PR_TXN_READ_FOR_UPDATE);
    if (s.IsNotFound()) return to_status(s, err, err_cap);
    if (!s.ok()) return lock_failure(*txn, *family, key_bytes, s, err, err_cap);
    return deliver_value(*family, std::move(value), buf, buf_cap, flags, result);
  });
}

int32_t pr_txn_multi_get(pr_txn_t* txn, pr_db_t* family, const pr_snapshot_t* snapshot,
                         uint32_t read_flags, int32_t lock, size_t n, const uint8_t* const* keys,
                         const size_t* key_lens, uint8_t* buf, size_t buf_cap,
                         uint64_t* value_offsets, uint64_t* value_lens, int32_t* statuses,
                         char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    return txn_multi_get(
        *txn, family, snapshot, read_flags, lock, n, keys, key_lens, err, err_cap,
        [&](const rocksdb::PinnableSlice* values, const rocksdb::Status* key_statuses) {
          copy_values(n, values, key_statuses, buf, buf_cap, value_offsets, value_lens, statuses);
        });
  });
}

int32_t pr_txn_multi_get_pinned(pr_txn_t* txn, pr_db_t* family, const pr_snapshot_t* snapshot,
                                uint32_t read_flags, int32_t lock, size_t n,
                                const uint8_t* const* keys, const size_t* key_lens,
                                pr_get_result_t* results, int32_t* statuses, char* err,
                                size_t err_cap) {
  for (size_t i = 0; i < n; i++) results[i] = pr_get_result_t{0, nullptr, nullptr};
  return guarded(err, err_cap, [&] {
    return txn_multi_get(
        *txn, family, snapshot, read_flags, lock, n, keys, key_lens, err, err_cap,
        [&](rocksdb::PinnableSlice* values, const rocksdb::Status* key_statuses) {
          pin_values(n, [&](size_t) -> const pr_db& { return *family; }, values, key_statuses,
                     results, statuses);
        });
  });
}

int32_t pr_txn_cursor_open(pr_txn_t* txn, pr_db_t* family, const pr_snapshot_t* snapshot,
                           uint32_t read_flags, uint64_t readahead_bytes, const uint8_t* lower,
                           size_t lower_len, const uint8_t* upper, size_t upper_len,
                           uint32_t bounds, pr_cursor_t** cursor_out, char* err, size_t err_cap) {
  *cursor_out = nullptr;
  return guarded(err, err_cap, [&] {
    int32_t refused = check_call(*txn, family, err, err_cap);
    if (refused != PR_OK) return refused;
    *cursor_out = open_cursor(
        family, transaction_read_options(*txn, *family, snapshot, read_flags),
        readahead_bytes, lower, lower_len, upper, upper_len, bounds, &txn->open_cursors,
        [&](const rocksdb::ReadOptions& options) {
          return txn->txn->GetIterator(options, family->family);
        });
    return PR_OK;
  });
}

int32_t pr_txn_commit(pr_txn_t* txn, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (txn->done) return finished(err, err_cap);
    if (txn->open_cursors.load() > 0) return cursors_open(err, err_cap);
    // RocksDB 9.10's pessimistic commit takes one with a snapshot still
    // to be taken for a CommitAndTryCreateSnapshot and fails. Taking it
    // changes nothing the commit does.
    take_pending_snapshot(*txn);
    const bool was_prepared = prepared(*txn);
    rocksdb::Status s = txn->txn->Commit();
    // A failed commit of a prepared transaction leaves it prepared, to be
    // decided again; any other ends the transaction, nothing of it applied.
    if (!s.ok() && was_prepared) {
      // Not prepared any more (RocksDB leaves it awaiting commit) yet not
      // committed: see pr_database::failed_prepared_commits.
      txn->held_until_close = true;
    } else if (!s.ok() && !was_prepared && !txn->name.empty() &&
        txn->txn->GetState() == rocksdb::Transaction::AWAITING_COMMIT) {
      // RocksDB 9.10's failed commit without prepare of a named transaction
      // has released its locks and writes and unregistered its name, but
      // leaves it awaiting commit, which its destructor takes for a name to
      // unregister again: an erase of a map entry that is gone (a crash
      // found by a program whose named transaction's commit met a write
      // stall). Nothing of it is left but the object, which pr_txn_free
      // lets go of unfreed (a few hundred bytes per such failure).
      txn->unfreeable = true;
    } else if (!s.ok()) {
      txn->txn->Rollback().PermitUncheckedError();
    }
    txn->done = true;
    return to_status(s, err, err_cap);
  });
}

int32_t pr_txn_rollback(pr_txn_t* txn, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (txn->done) return finished(err, err_cap);
    if (txn->open_cursors.load() > 0) return cursors_open(err, err_cap);
    txn->done = true;
    return to_status(txn->txn->Rollback(), err, err_cap);
  });
}

int32_t pr_txn_set_name(pr_txn_t* txn, const uint8_t* name, size_t name_len, char* err,
                        size_t err_cap) {
  return guarded(err, err_cap, [&] {
    int32_t refused = check_changeable(*txn, err, err_cap);
    if (refused != PR_OK) return refused;
    // RocksDB checks the length, the state and that the name is free.
    std::string text(reinterpret_cast<const char*>(name), name_len);
    rocksdb::Status s = txn->txn->SetName(text);
    if (s.ok()) txn->name = std::move(text);
    return to_status(s, err, err_cap);
  });
}

const uint8_t* pr_txn_name(const pr_txn_t* txn, size_t* name_len) {
  *name_len = txn->name.size();
  return reinterpret_cast<const uint8_t*>(txn->name.data());
}

int32_t pr_txn_prepare(pr_txn_t* txn, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    int32_t refused = check_changeable(*txn, err, err_cap);
    if (refused != PR_OK) return refused;
    if (txn->open_cursors.load() > 0) return cursors_open(err, err_cap);
    if (txn->database->pessimistic != nullptr && txn->txn->GetWriteOptions()->disableWAL) {
      return invalid_argument(
          "a transaction whose commit skips the write-ahead log cannot be prepared", err, err_cap);
    }
    // Its writes must name open families only (see
    // check_no_prepared_transactions): each was checked when made, so a
    // refusal here is of a family dropped since. Held shared, no family is
    // dropped between the check and the prepare.
    std::shared_lock<std::shared_mutex> lock(txn->database->mutex);
    rocksdb::Status checked =
        check_batch(*txn->database, *txn->txn->GetWriteBatch()->GetWriteBatch(), true);
    if (!checked.ok()) {
      return invalid_argument("the transaction wrote into a column family dropped since (" +
                                  checked.ToString() + "): roll it back",
                              err, err_cap);
    }
    // RocksDB refuses one without a name and an optimistic one.
    return to_status(txn->txn->Prepare(), err, err_cap);
  });
}

int32_t pr_db_take_prepared(pr_db_t* db, pr_txn_t** txn_out, char* err, size_t err_cap) {
  *txn_out = nullptr;
  return guarded(err, err_cap, [&] {
    pr_database& database = *db->database;
    std::lock_guard<std::mutex> lock(database.undecided_mutex);
    if (database.undecided_prepared.empty()) return PR_NOT_FOUND;
    *txn_out = adopt(database, database.undecided_prepared.back());
    database.undecided_prepared.pop_back();
    return PR_OK;
  });
}

int32_t pr_txn_set_savepoint(pr_txn_t* txn, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    int32_t refused = check_changeable(*txn, err, err_cap);
    if (refused != PR_OK) return refused;
    txn->txn->SetSavePoint();
    txn->snapshot_pending_at_save_points.push_back(txn->snapshot_pending);
    return PR_OK;
  });
}

int32_t pr_txn_rollback_to_savepoint(pr_txn_t* txn, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    int32_t refused = check_changeable(*txn, err, err_cap);
    if (refused != PR_OK) return refused;
    if (txn->open_cursors.load() > 0) return cursors_open(err, err_cap);
    rocksdb::Status s = txn->txn->RollbackToSavePoint();
    if (s.ok()) {
      txn->snapshot_pending = txn->snapshot_pending_at_save_points.back();
      txn->snapshot_pending_at_save_points.pop_back();
    }
    return to_status(s, err, err_cap);
  });
}

int32_t pr_txn_pop_savepoint(pr_txn_t* txn, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    int32_t refused = check_changeable(*txn, err, err_cap);
    if (refused != PR_OK) return refused;
    rocksdb::Status s = txn->txn->PopSavePoint();
    if (s.ok()) txn->snapshot_pending_at_save_points.pop_back();
    return to_status(s, err, err_cap);
  });
}

int32_t pr_txn_set_snapshot(pr_txn_t* txn, int32_t on_next_operation, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    int32_t refused = check_changeable(*txn, err, err_cap);
    if (refused != PR_OK) return refused;
    if (on_next_operation != 0) {
      txn->txn->SetSnapshotOnNextOperation();
    } else {
      txn->txn->SetSnapshot();
    }
    txn->snapshot_pending = on_next_operation != 0;
    return PR_OK;
  });
}

uint64_t pr_txn_id(const pr_txn_t* txn) { return txn->txn->GetID(); }

void pr_txn_size(const pr_txn_t* txn, uint64_t* count, uint64_t* bytes) {
  const rocksdb::WriteBatch& batch = *txn->txn->GetWriteBatch()->GetWriteBatch();
  *count = batch.Count();
  *bytes = batch.GetDataSize();
}

}  // extern "C"
