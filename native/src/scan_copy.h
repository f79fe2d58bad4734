// The copy loop of pr_cursor_scan, shared with the native floor
// (bench/floor.cc) so that the floor can time exactly the copy pinrock makes
// of each entry, without the boundary into Java.
#ifndef PINROCK_SCAN_COPY_H_
#define PINROCK_SCAN_COPY_H_

#include <rocksdb/iterator.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pinrock {

// What copy_entries copied: entries, and the bytes they use in buf (when
// not even the first entry fits: 0 entries and the bytes it needs).
struct CopiedEntries {
  uint64_t entries;
  uint64_t bytes;
};

// Copies entries from the one iterator is on, moving it forward (backward
// when reverse) past each entry copied, into buf in pr_cursor_scan's layout:
// a uint32_t key length and a uint32_t value length (native byte order,
// unaligned), then the key bytes, then the value bytes. Stops after
// max_entries entries, at the first entry that does not fit in what is left
// of buf, or when the iterator is no longer valid. Does not check the
// iterator's status.
inline CopiedEntries copy_entries(rocksdb::Iterator& iterator, bool reverse, size_t max_entries,
                                  uint8_t* buf, size_t buf_cap) {
  size_t used = 0;
  uint64_t copied = 0;
  for (; copied < max_entries && iterator.Valid(); copied++) {
    rocksdb::Slice key = iterator.key();
    rocksdb::Slice value = iterator.value();
    size_t size = 2 * sizeof(uint32_t) + key.size() + value.size();
    if (size > buf_cap - used) {
      if (copied == 0) return CopiedEntries{0, size};
      break;
    }
    uint32_t lengths[2] = {static_cast<uint32_t>(key.size()), static_cast<uint32_t>(value.size())};
    std::memcpy(buf + used, lengths, sizeof lengths);
    if (key.size() > 0) std::memcpy(buf + used + sizeof lengths, key.data(), key.size());
    if (value.size() > 0) {
      std::memcpy(buf + used + sizeof lengths + key.size(), value.data(), value.size());
    }
    used += size;
    if (reverse) {
      iterator.Prev();
    } else {
      iterator.Next();
    }
  }
  return CopiedEntries{copied, used};
}

}  // namespace pinrock

#endif  // PINROCK_SCAN_COPY_H_
