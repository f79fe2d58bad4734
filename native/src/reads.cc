// The "snapshots and read options" section of pinrock.h: snapshots, reads
// with read options (of one key, of many keys, pinned), and the calls the
// section ends with: flush, compaction, size estimates, checkpoints and
// properties.
#include "internal.h"

#include <rocksdb/utilities/checkpoint.h>

#include <cstring>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

using namespace pinrock::internal;

namespace pinrock::internal {

// The database's read options with a snapshot and PR_READ_* flags applied.
rocksdb::ReadOptions read_options(const pr_db& db, const pr_snapshot_t* snapshot,
                                  uint32_t read_flags) {
  rocksdb::ReadOptions options = db.read_options;
  options.snapshot = reinterpret_cast<const rocksdb::Snapshot*>(snapshot);
  options.fill_cache = (read_flags & PR_READ_SKIP_FILL_CACHE) == 0;
  options.verify_checksums = (read_flags & PR_READ_SKIP_CHECKSUMS) == 0;
  if ((read_flags & PR_READ_MEMORY_ONLY) != 0) options = memory_only(options);
  options.async_io = (read_flags & PR_READ_ASYNC_IO) != 0;
  if ((read_flags & PR_READ_TAILING) != 0) {
    // A tailing iterator knows no auto_prefix_mode: without a total order
    // its seeks would consult the prefix filters and skip keys of other
    // prefixes.
    options.tailing = true;
    options.auto_prefix_mode = false;
    options.total_order_seek = true;
  }
  return options;
}

void copy_values(size_t n, const rocksdb::PinnableSlice* values, const rocksdb::Status* key_statuses,
                 uint8_t* buf, size_t buf_cap, uint64_t* value_offsets, uint64_t* value_lens,
                 int32_t* statuses) {
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
}

void pin_values(size_t n, const std::function<const pr_db&(size_t)>& family_of,
                rocksdb::PinnableSlice* values, const rocksdb::Status* key_statuses,
                pr_get_result_t* results, int32_t* statuses) {
  // Allocate every pin first, so that a failed allocation hands out none.
  std::vector<std::unique_ptr<pr_pin>> pins(n);
  for (size_t i = 0; i < n; i++) {
    if (key_statuses[i].ok()) pins[i].reset(new pr_pin{family_of(i).block_cache, std::move(values[i])});
  }
  for (size_t i = 0; i < n; i++) {
    statuses[i] = to_status(key_statuses[i], nullptr, 0);
    if (!pins[i]) continue;
    results[i].value_len = pins[i]->slice.size();
    results[i].data = reinterpret_cast<const uint8_t*>(pins[i]->slice.data());
    results[i].pin = pins[i].release();
  }
}

}  // namespace pinrock::internal

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

// The batched read behind the multi-gets: key i from families[i] (or db's
// family when families is NULL) into values[i] and statuses[i]. Returns
// InvalidArgument, reading nothing, when a family is of another database.
// A memory-only read is made key by key: RocksDB's batched MultiGet with
// read_tier kBlockCacheTier answers a key whose block is not cached as
// found, with an empty value (its table reader marks the key "may exist"
// and MultiGet keeps no value_found to tell), where Get answers Incomplete.
rocksdb::Status multi_get(const pr_db& db, const pr_snapshot_t* snapshot, uint32_t read_flags,
                          pr_db_t* const* families, size_t n, const uint8_t* const* keys,
                          const size_t* key_lens, rocksdb::PinnableSlice* values,
                          rocksdb::Status* statuses) {
  std::vector<rocksdb::Slice> key_slices(n);
  for (size_t i = 0; i < n; i++) key_slices[i] = key_slice(keys[i], key_lens[i]);
  rocksdb::ReadOptions options = read_options(db, snapshot, read_flags);
  bool memory_only = (read_flags & PR_READ_MEMORY_ONLY) != 0;
  if (families == nullptr && !memory_only) {
    db.db->MultiGet(options, db.family, n, key_slices.data(), values, statuses);
    return rocksdb::Status::OK();
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles(n, db.family);
  for (size_t i = 0; families != nullptr && i < n; i++) {
    if (families[i]->database != db.database) {
      return rocksdb::Status::InvalidArgument("the family of key #" + std::to_string(i) +
                                              " belongs to another database");
    }
    handles[i] = families[i]->family;
  }
  if (memory_only) {
    for (size_t i = 0; i < n; i++) {
      statuses[i] = db.db->Get(options, handles[i], key_slices[i], &values[i]);
    }
  } else {
    db.db->MultiGet(options, n, handles.data(), key_slices.data(), values, statuses);
  }
  return rocksdb::Status::OK();
}

}  // namespace

extern "C" {

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

int32_t pr_db_get_at(pr_db_t* db, const pr_snapshot_t* snapshot, uint32_t read_flags,
                     const uint8_t* key, size_t key_len, uint8_t* buf, size_t buf_cap,
                     uint32_t flags, pr_get_result_t* result, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if ((read_flags & PR_READ_MEMORY_ONLY) != 0 &&
        (db->ordered_by_caller ||
         (db->merge_operator != nullptr && db->merge_operator->calls_back))) {
      // A merge or comparison would call back, which a memory-only read must not do.
      return fail(PR_CODE_INCOMPLETE, "Result incomplete: reads of this family call back", err,
                  err_cap);
    }
    if (snapshot == nullptr && read_flags == PR_READ_MEMORY_ONLY) {
      return get(*db, db->memory_only_read_options, key, key_len, buf, buf_cap, flags, result, err,
                 err_cap);
    }
    return get(*db, read_options(*db, snapshot, read_flags), key, key_len, buf, buf_cap, flags,
               result, err, err_cap);
  });
}

int32_t pr_db_multi_get(pr_db_t* db, size_t n, const uint8_t* const* keys, const size_t* key_lens,
                        uint8_t* buf, size_t buf_cap, uint64_t* value_offsets,
                        uint64_t* value_lens, int32_t* statuses, char* err, size_t err_cap) {
  return pr_db_multi_get_with(db, nullptr, 0, nullptr, n, keys, key_lens, buf, buf_cap,
                              value_offsets, value_lens, statuses, err, err_cap);
}

int32_t pr_db_multi_get_with(pr_db_t* db, const pr_snapshot_t* snapshot, uint32_t read_flags,
                             pr_db_t* const* families, size_t n, const uint8_t* const* keys,
                             const size_t* key_lens, uint8_t* buf, size_t buf_cap,
                             uint64_t* value_offsets, uint64_t* value_lens, int32_t* statuses,
                             char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::vector<rocksdb::PinnableSlice> values(n);
    std::vector<rocksdb::Status> key_statuses(n);
    rocksdb::Status s = multi_get(*db, snapshot, read_flags, families, n, keys, key_lens,
                                  values.data(), key_statuses.data());
    if (!s.ok()) return to_status(s, err, err_cap);
    copy_values(n, values.data(), key_statuses.data(), buf, buf_cap, value_offsets, value_lens,
                statuses);
    return PR_OK;
  });
}

int32_t pr_db_multi_get_pinned(pr_db_t* db, size_t n, const uint8_t* const* keys,
                               const size_t* key_lens, pr_get_result_t* results,
                               int32_t* statuses, char* err, size_t err_cap) {
  return pr_db_multi_get_pinned_with(db, nullptr, 0, nullptr, n, keys, key_lens, results, statuses,
                                     err, err_cap);
}

int32_t pr_db_multi_get_pinned_with(pr_db_t* db, const pr_snapshot_t* snapshot,
                                    uint32_t read_flags, pr_db_t* const* families, size_t n,
                                    const uint8_t* const* keys, const size_t* key_lens,
                                    pr_get_result_t* results, int32_t* statuses, char* err,
                                    size_t err_cap) {
  for (size_t i = 0; i < n; i++) results[i] = pr_get_result_t{0, nullptr, nullptr};
  return guarded(err, err_cap, [&] {
    std::vector<rocksdb::PinnableSlice> values(n);
    std::vector<rocksdb::Status> key_statuses(n);
    rocksdb::Status s = multi_get(*db, snapshot, read_flags, families, n, keys, key_lens,
                                  values.data(), key_statuses.data());
    if (!s.ok()) return to_status(s, err, err_cap);
    pin_values(n, [&](size_t i) -> const pr_db& { return families == nullptr ? *db : *families[i]; },
               values.data(), key_statuses.data(), results, statuses);
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

}  // extern "C"
