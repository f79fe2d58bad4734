// The "cursors" section of pinrock.h: iterators over a family, moved one
// entry at a time or copying many entries per call.
#include "internal.h"
#include "scan_copy.h"

#include <rocksdb/comparator.h>
#include <rocksdb/iterator.h>

#include <memory>
#include <string>

using namespace pinrock::internal;

struct pr_cursor {
  pr_db* db;
  // The count of open cursors of the transaction or batch with index the
  // cursor reads through (pr_txn_cursor_open, pr_indexed_batch_cursor_open),
  // or null.
  std::atomic<int64_t>* owner_cursors = nullptr;
  // The bounds live here: RocksDB keeps pointers to them in read_options.
  std::string lower;
  std::string upper;
  rocksdb::Slice lower_slice;
  rocksdb::Slice upper_slice;
  std::unique_ptr<rocksdb::Iterator> iterator;
  // A tailing cursor (PR_READ_TAILING): RocksDB's tailing iterator moves
  // forward only, and a backward move would leave it where it was but
  // valid, which RocksDB's own backward scans loop on.
  bool forward_only = false;
};

namespace {

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

// Whether RocksDB's auto_prefix_mode reads exactly what a total-order seek
// reads below the upper bound upper. On a forward seek to t, it probes a
// table file's prefix filter for t's prefix when upper has that prefix too
// (exact: every key in the range has it), or when upper is the prefix's
// same-length immediate successor at the extractor's full length
// (Comparator::IsSameLengthImmediateSuccessor). That is exact when the two
// differ in their last byte only ("ab", "ac"), but not when reaching the
// successor carries ("a\xff", "b\0"): keys shorter than the prefix then lie
// in the range ("b"), outside the filter's prefix, and a file holding none
// of the prefix was skipped with them (the flaw RocksDB's options.h
// documents at auto_prefix_mode). A carry leaves upper ending in a 0 byte,
// whatever the prefix length (a table file's own too, written under
// another extractor); any other upper bound is exact.
bool auto_prefix_mode_is_exact(const std::string& upper) {
  return upper.empty() || upper.back() != '\0';
}

int32_t backward_on_tailing_cursor(char* err, size_t err_cap) {
  return fail(PR_CODE_NOT_SUPPORTED, "Not implemented: a tailing cursor moves forward only", err,
              err_cap);
}

}  // namespace

namespace pinrock::internal {

pr_cursor_t* open_cursor(pr_db* family, rocksdb::ReadOptions options, uint64_t readahead_bytes,
                         const uint8_t* lower, size_t lower_len, const uint8_t* upper,
                         size_t upper_len, uint32_t bounds,
                         std::atomic<int64_t>* owner_cursors,
                         const std::function<rocksdb::Iterator*(const rocksdb::ReadOptions&)>& open) {
  if (options.tailing && owner_cursors != nullptr) {
    throw refused_argument("a cursor over a transaction or a batch with index cannot be tailing");
  }
  if (options.tailing && options.snapshot != nullptr) {
    throw refused_argument("a tailing cursor reads the latest state: it takes no snapshot");
  }
  if ((bounds & PR_RANGE_PREFIX) != 0 &&
      std::string(family->family->GetComparator()->Name()) != rocksdb::BytewiseComparator()->Name()) {
    throw refused_argument(std::string("bounds of a prefix are bytewise, and column family '") +
                           family->family->GetName() + "' orders its keys with " +
                           family->family->GetComparator()->Name() +
                           ": give the bounds in its order instead");
  }
  auto cursor = std::make_unique<pr_cursor>();
  cursor->db = family;
  cursor->forward_only = options.tailing;
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
    if (!auto_prefix_mode_is_exact(cursor->upper)) {
      options.auto_prefix_mode = false;
      options.total_order_seek = true;
    }
  }
  cursor->iterator.reset(open(options));
  family->holds++;
  family->database->open_cursors++;
  cursor->owner_cursors = owner_cursors;
  if (owner_cursors != nullptr) (*owner_cursors)++;
  return cursor.release();
}

}  // namespace pinrock::internal

extern "C" {

int32_t pr_cursor_open(pr_db_t* db, const pr_snapshot_t* snapshot, uint32_t read_flags,
                       uint64_t readahead_bytes, const uint8_t* lower, size_t lower_len,
                       const uint8_t* upper, size_t upper_len, uint32_t bounds,
                       pr_cursor_t** cursor_out, char* err, size_t err_cap) {
  *cursor_out = nullptr;
  return guarded(err, err_cap, [&] {
    *cursor_out = open_cursor(
        db, read_options(*db, snapshot, read_flags), readahead_bytes, lower, lower_len, upper,
        upper_len, bounds, nullptr,
        [&](const rocksdb::ReadOptions& options) { return db->db->NewIterator(options, db->family); });
    return PR_OK;
  });
}

void pr_cursor_close(pr_cursor_t* cursor) {
  if (cursor == nullptr) return;
  pr_db* db = cursor->db;
  pr_database& database = *db->database;
  try {
    std::atomic<int64_t>* owner_cursors = cursor->owner_cursors;
    delete cursor;
    drop_hold(db);
    if (owner_cursors != nullptr) (*owner_cursors)--;
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
    if (cursor->forward_only &&
        (op == PR_CURSOR_LAST || op == PR_CURSOR_SEEK_FOR_PREV || op == PR_CURSOR_PREV)) {
      return backward_on_tailing_cursor(err, err_cap);
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

int32_t pr_cursor_refresh(pr_cursor_t* cursor, const pr_snapshot_t* snapshot, char* err,
                          size_t err_cap) {
  return guarded(err, err_cap, [&] {
    // Both of RocksDB's refresh paths leave the iterator on no entry.
    return to_status(cursor->iterator->Refresh(reinterpret_cast<const rocksdb::Snapshot*>(snapshot)),
                     err, err_cap);
  });
}

int32_t pr_cursor_scan(pr_cursor_t* cursor, uint32_t flags, size_t max_entries, uint8_t* buf,
                       size_t buf_cap, uint64_t* entries_out, uint64_t* bytes_out,
                       pr_cursor_entry_t* entry, char* err, size_t err_cap) {
  *entries_out = 0;
  *bytes_out = 0;
  return guarded(err, err_cap, [&] {
    if (cursor->forward_only && (flags & PR_SCAN_REVERSE) != 0) {
      return backward_on_tailing_cursor(err, err_cap);
    }
    rocksdb::Iterator& iterator = *cursor->iterator;
    pinrock::CopiedEntries copied = pinrock::copy_entries(
        iterator, (flags & PR_SCAN_REVERSE) != 0, max_entries, buf, buf_cap);
    *entries_out = copied.entries;
    *bytes_out = copied.bytes;
    return cursor_position(iterator, entry, err, err_cap);
  });
}

}  // extern "C"
