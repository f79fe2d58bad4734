// The "batches with index" section of pinrock.h: RocksDB's
// WriteBatchWithIndex over records the caller encodes, read merged over a
// database.
#include "internal.h"

#include <rocksdb/comparator.h>
#include <rocksdb/utilities/write_batch_with_index.h>
#include <rocksdb/write_batch.h>

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

using namespace pinrock::internal;

struct pr_indexed_batch {
  explicit pr_indexed_batch(bool overwrite_key)
      : index(rocksdb::BytewiseComparator(), 0, overwrite_key) {}
  rocksdb::WriteBatchWithIndex index;
  // Cursors of pr_indexed_batch_cursor_open not yet closed: their iterators
  // read the index in place.
  std::atomic<int64_t> open_cursors{0};
};

namespace {

// Adds each record of a checked batch to the index, through the handles of
// the database's open families (the caller holds the database's mutex, so
// none is dropped meanwhile).
class IndexRecords : public rocksdb::WriteBatch::Handler {
 public:
  IndexRecords(rocksdb::WriteBatchWithIndex& index, const pr_database& database)
      : index_(index), database_(database) {}

  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& key, const rocksdb::Slice& value) override {
    return index_.Put(Family(cf), key, value);
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    return index_.Delete(Family(cf), key);
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    return index_.SingleDelete(Family(cf), key);
  }
  rocksdb::Status MergeCF(uint32_t cf, const rocksdb::Slice& key, const rocksdb::Slice& operand) override {
    return index_.Merge(Family(cf), key, operand);
  }
  rocksdb::Status DeleteRangeCF(uint32_t, const rocksdb::Slice&, const rocksdb::Slice&) override {
    return rocksdb::Status::NotSupported("a batch with index holds no range deletes (RocksDB's index has none)");
  }

 private:
  // check_batch has found every record's family open.
  rocksdb::ColumnFamilyHandle* Family(uint32_t cf) const { return open_family(database_, cf)->family; }
  rocksdb::WriteBatchWithIndex& index_;
  const pr_database& database_;
};

// The header pr_db_write's encoding starts with: sequence number 0 and count.
std::string batch_header(uint32_t count) {
  std::string header(12, '\0');
  for (int i = 0; i < 4; i++) header[8 + i] = static_cast<char>((count >> (8 * i)) & 0xff);
  return header;
}

// Reads n keys of family from the batch merged over the database and hands
// the values and their statuses to deliver(values, key_statuses): one
// batched MultiGetFromBatchAndDB, or key by key when memory-only (as
// reads.cc's multi_get, for the same reason).
template <typename Deliver>
int32_t multi_get(pr_indexed_batch& batch, pr_db& family, const pr_snapshot_t* snapshot,
                  uint32_t read_flags, size_t n, const uint8_t* const* keys, const size_t* key_lens,
                  Deliver&& deliver) {
  std::vector<rocksdb::Slice> key_slices(n);
  for (size_t i = 0; i < n; i++) key_slices[i] = key_slice(keys[i], key_lens[i]);
  std::vector<rocksdb::PinnableSlice> values(n);
  std::vector<rocksdb::Status> key_statuses(n);
  rocksdb::ReadOptions options = read_options(family, snapshot, read_flags);
  if ((read_flags & PR_READ_MEMORY_ONLY) == 0) {
    batch.index.MultiGetFromBatchAndDB(family.db, options, family.family, n, key_slices.data(),
                                       values.data(), key_statuses.data(), false);
  } else {
    for (size_t i = 0; i < n; i++) {
      key_statuses[i] =
          batch.index.GetFromBatchAndDB(family.db, options, family.family, key_slices[i], &values[i]);
    }
  }
  deliver(values.data(), key_statuses.data());
  return PR_OK;
}

}  // namespace

extern "C" {

int32_t pr_indexed_batch_create(int32_t overwrite_key, pr_indexed_batch_t** batch_out, char* err,
                                size_t err_cap) {
  *batch_out = nullptr;
  return guarded(err, err_cap, [&] {
    *batch_out = new pr_indexed_batch(overwrite_key != 0);
    return PR_OK;
  });
}

void pr_indexed_batch_free(pr_indexed_batch_t* batch) {
  if (batch == nullptr || batch->open_cursors.load() > 0) return;
  delete batch;
}

int32_t pr_indexed_batch_index(pr_indexed_batch_t* batch, pr_db_t* db, const uint8_t* records,
                               size_t records_len, uint32_t count, int32_t rebuild, char* err,
                               size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (rebuild != 0 && batch->open_cursors.load() > 0) {
      return fail(PR_CODE_ABORTED, "Operation aborted: close the batch's cursors first", err, err_cap);
    }
    std::string encoding = batch_header(count);
    encoding.append(reinterpret_cast<const char*>(records), records_len);
    rocksdb::WriteBatch added(std::move(encoding));
    std::shared_lock<std::shared_mutex> lock(db->database->mutex);
    rocksdb::Status s = check_batch(*db->database, added, false);
    if (!s.ok()) return to_status(s, err, err_cap);
    if (rebuild != 0) batch->index.Clear();
    IndexRecords index_records(batch->index, *db->database);
    try {
      s = added.Iterate(&index_records);
    } catch (...) {
      batch->index.Clear();
      throw;
    }
    if (!s.ok()) batch->index.Clear();
    return to_status(s, err, err_cap);
  });
}

int32_t pr_indexed_batch_get(pr_indexed_batch_t* batch, pr_db_t* family, const pr_snapshot_t* snapshot,
                             uint32_t read_flags, const uint8_t* key, size_t key_len, uint8_t* buf,
                             size_t buf_cap, uint32_t flags, pr_get_result_t* result, char* err,
                             size_t err_cap) {
  *result = pr_get_result_t{0, nullptr, nullptr};
  return guarded(err, err_cap, [&] {
    rocksdb::PinnableSlice value;
    rocksdb::Status s = batch->index.GetFromBatchAndDB(
        family->db, read_options(*family, snapshot, read_flags), family->family, key_slice(key, key_len), &value);
    if (!s.ok()) return to_status(s, err, err_cap);
    return deliver_value(*family, std::move(value), buf, buf_cap, flags, result);
  });
}

int32_t pr_indexed_batch_multi_get(pr_indexed_batch_t* batch, pr_db_t* family, const pr_snapshot_t* snapshot,
                                   uint32_t read_flags, size_t n, const uint8_t* const* keys,
                                   const size_t* key_lens, uint8_t* buf, size_t buf_cap,
                                   uint64_t* value_offsets, uint64_t* value_lens, int32_t* statuses,
                                   char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    return multi_get(*batch, *family, snapshot, read_flags, n, keys, key_lens,
                     [&](const rocksdb::PinnableSlice* values, const rocksdb::Status* key_statuses) {
                       copy_values(n, values, key_statuses, buf, buf_cap, value_offsets, value_lens,
                                   statuses);
                     });
  });
}

int32_t pr_indexed_batch_multi_get_pinned(pr_indexed_batch_t* batch, pr_db_t* family,
                                          const pr_snapshot_t* snapshot, uint32_t read_flags, size_t n,
                                          const uint8_t* const* keys, const size_t* key_lens,
                                          pr_get_result_t* results, int32_t* statuses, char* err,
                                          size_t err_cap) {
  for (size_t i = 0; i < n; i++) results[i] = pr_get_result_t{0, nullptr, nullptr};
  return guarded(err, err_cap, [&] {
    return multi_get(*batch, *family, snapshot, read_flags, n, keys, key_lens,
                     [&](rocksdb::PinnableSlice* values, const rocksdb::Status* key_statuses) {
                       pin_values(n, [&](size_t) -> const pr_db& { return *family; }, values,
                                  key_statuses, results, statuses);
                     });
  });
}

int32_t pr_indexed_batch_cursor_open(pr_indexed_batch_t* batch, pr_db_t* family,
                                     const pr_snapshot_t* snapshot, uint32_t read_flags,
                                     uint64_t readahead_bytes, const uint8_t* lower, size_t lower_len,
                                     const uint8_t* upper, size_t upper_len, uint32_t bounds,
                                     pr_cursor_t** cursor_out, char* err, size_t err_cap) {
  *cursor_out = nullptr;
  return guarded(err, err_cap, [&] {
    *cursor_out = open_cursor(
        family, read_options(*family, snapshot, read_flags), readahead_bytes, lower, lower_len,
        upper, upper_len, bounds, &batch->open_cursors, [&](const rocksdb::ReadOptions& options) {
          return batch->index.NewIteratorWithBase(family->family,
                                                  family->db->NewIterator(options, family->family), &options);
        });
    return PR_OK;
  });
}

}  // extern "C"
