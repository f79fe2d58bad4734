// Cursor bounds and seeks: over a fixed database (entries in table files on
// two levels, newer ones and a range deletion in the memtable), the input
// gives the bounds (flags, lower, upper), then moves (an op byte and, for
// seeks, a key) and scans (flags, entry limit, buffer size). Every entry a
// cursor lands on must be one of the database's, inside the bounds, with
// its value; NEXT must land on the following entry and PREV on the
// preceding one, as the expected contents say.
#include "fuzz_common.h"

#include <cstring>
#include <iterator>
#include <string>
#include <vector>

using namespace pinrock_fuzz;

namespace {

struct Fixture {
  MemDb db;
  std::map<std::string, std::string> expected;
};

Fixture* Fixed() {
  static Fixture* fixture = [] {
    auto* f = new Fixture();
    auto put = [f](const std::string& key, const std::string& value) {
      f->db.Put(f->db.db(), key, value);
      f->expected[key] = value;
    };
    for (int i = 0; i < 64; i++) put(std::string(1, static_cast<char>(i * 4)), "old" + std::to_string(i));
    f->db.Flush(f->db.db());
    FUZZ_CHECK(pr_db_compact_range(f->db.db(), nullptr, 0, nullptr, 0, 0, f->db.err,
                                   sizeof f->db.err) == PR_OK,
               f->db.err);
    for (int i = 0; i < 64; i += 3) put(std::string(1, static_cast<char>(i * 4)) + "x", "mid");
    f->db.Flush(f->db.db());
    for (int i = 0; i < 64; i += 5) put(std::string(1, static_cast<char>(i * 4)), "new");
    put("", "empty key");
    // A range deletion of [0x40, 0x80) in the memtable.
    std::string batch(12, '\0');
    batch[8] = 1;
    batch += std::string("\x0f\x01\x40\x01\x80", 5);
    FUZZ_CHECK(pr_db_write(f->db.db(), bytes(batch), batch.size(), 0, f->db.err,
                           sizeof f->db.err) == PR_OK,
               f->db.err);
    f->expected.erase(f->expected.lower_bound("\x40"), f->expected.lower_bound("\x80"));
    return f;
  }();
  return fixture;
}

// Where the cursor must be: an entry of expected inside the bounds, or none.
class Bounded {
 public:
  Bounded(const std::map<std::string, std::string>& all, uint32_t bounds, const std::string& lower,
          const std::string& upper) {
    for (const auto& entry : all) {
      if ((bounds & PR_RANGE_HAS_BEGIN) && entry.first < lower) continue;
      if ((bounds & PR_RANGE_HAS_END) && entry.first >= upper) continue;
      entries_.insert(entry);
    }
  }
  using Position = std::map<std::string, std::string>::const_iterator;
  Position First() const { return entries_.begin(); }
  Position Last() const { return entries_.empty() ? end() : std::prev(entries_.end()); }
  Position Seek(const std::string& key) const { return entries_.lower_bound(key); }
  Position SeekForPrev(const std::string& key) const {
    auto after = entries_.upper_bound(key);
    return after == entries_.begin() ? end() : std::prev(after);
  }
  Position Next(Position p) const { return std::next(p); }
  Position Prev(Position p) const { return p == entries_.begin() ? end() : std::prev(p); }
  Position end() const { return entries_.end(); }

 private:
  std::map<std::string, std::string> entries_;
};

void CheckEntry(const Bounded& bounded, Bounded::Position expected, int32_t status,
                const pr_cursor_entry_t& entry, const char* err) {
  if (expected == bounded.end()) {
    FUZZ_CHECK(status == PR_NOT_FOUND, err);
    FUZZ_CHECK(entry.key == nullptr && entry.key_len == 0, "no entry past the end");
    return;
  }
  FUZZ_CHECK(status == PR_OK, err);
  FUZZ_CHECK(std::string(reinterpret_cast<const char*>(entry.key), entry.key_len) == expected->first,
             "the cursor lands on the expected key");
  FUZZ_CHECK(std::string(reinterpret_cast<const char*>(entry.value), entry.value_len) ==
                 expected->second,
             "the cursor's value is the key's");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Fixture* fixture = Fixed();
  MemDb& db = fixture->db;
  Input input(data, size);
  uint32_t bounds = input.Byte() & 3;
  std::string lower = input.Short(8), upper = input.Short(8);
  pr_cursor_t* cursor = nullptr;
  int32_t opened = pr_cursor_open(db.db(), nullptr, 0, input.Byte(), bytes(lower), lower.size(),
                                  bytes(upper), upper.size(), bounds, &cursor, db.err,
                                  sizeof db.err);
  if (opened != PR_OK) {
    FUZZ_CHECK(cursor == nullptr, "a cursor not opened is NULL");
    return 0;
  }
  Bounded bounded(fixture->expected, bounds, lower, upper);
  Bounded::Position at = bounded.end();
  bool positioned = false;
  for (int steps = 0; steps < 32 && !input.Done(); steps++) {
    uint8_t op = input.Byte();
    pr_cursor_entry_t entry;
    if (op >= 0xf0) {
      // A scan into a buffer of fuzzer-chosen size.
      uint32_t scan_flags = op & PR_SCAN_REVERSE;
      size_t max_entries = input.Byte() % 8;
      std::vector<uint8_t> buf(input.Byte());
      uint64_t entries = 0, used = 0;
      int32_t status = pr_cursor_scan(cursor, scan_flags, max_entries, buf.data(), buf.size(),
                                      &entries, &used, &entry, db.err, sizeof db.err);
      for (uint64_t i = 0; i < entries && at != bounded.end(); i++) {
        at = scan_flags ? bounded.Prev(at) : bounded.Next(at);
      }
      FUZZ_CHECK(entries <= max_entries, "a scan copies at most max_entries");
      FUZZ_CHECK(entries == 0 || used <= buf.size(), "a scan stays inside its buffer");
      if (positioned) CheckEntry(bounded, at, status, entry, db.err);
      positioned = at != bounded.end();
      continue;
    }
    int32_t move = op % 6;
    std::string key = (move == PR_CURSOR_SEEK || move == PR_CURSOR_SEEK_FOR_PREV) ? input.Short(8)
                                                                                   : std::string();
    int32_t status = pr_cursor_move(cursor, move, bytes(key), key.size(), &entry, db.err,
                                    sizeof db.err);
    if ((move == PR_CURSOR_NEXT || move == PR_CURSOR_PREV) && !positioned) {
      FUZZ_CHECK(status == PR_CODE_INVALID_ARGUMENT, "NEXT/PREV on no entry is refused");
      continue;
    }
    switch (move) {
      case PR_CURSOR_FIRST: at = bounded.First(); break;
      case PR_CURSOR_LAST: at = bounded.Last(); break;
      case PR_CURSOR_SEEK: at = bounded.Seek(key); break;
      case PR_CURSOR_SEEK_FOR_PREV: at = bounded.SeekForPrev(key); break;
      case PR_CURSOR_NEXT: at = bounded.Next(at); break;
      case PR_CURSOR_PREV: at = bounded.Prev(at); break;
    }
    CheckEntry(bounded, at, status, entry, db.err);
    positioned = at != bounded.end();
  }
  pr_cursor_close(cursor);
  return 0;
}
