// GoogleTest tests of pinrock.h's cursors section: moves, bounds, snapshots
// and scans copying many entries per call.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

TEST_F(DbTest, CursorWalksKeysInOrderInBothDirections) {
  for (const char* key : {"b", "d", "a", "c"}) Put(key, std::string("v") + key);
  pr_cursor_t* cursor = OpenCursor(db);
  EXPECT_EQ("error 4", Move(cursor, PR_CURSOR_NEXT));  // unpositioned
  EXPECT_EQ("a=va", Move(cursor, PR_CURSOR_FIRST));
  EXPECT_EQ("b=vb", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("a=va", Move(cursor, PR_CURSOR_PREV));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_PREV));
  EXPECT_EQ("error 4", Move(cursor, PR_CURSOR_PREV));  // off the end stays refused
  EXPECT_EQ("d=vd", Move(cursor, PR_CURSOR_LAST));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("c=vc", Move(cursor, PR_CURSOR_SEEK, "bb"));
  EXPECT_EQ("b=vb", Move(cursor, PR_CURSOR_SEEK_FOR_PREV, "bb"));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_SEEK, "e"));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_SEEK_FOR_PREV, ""));
  EXPECT_EQ("error 4", Move(cursor, 42));
  pr_cursor_close(cursor);
  pr_cursor_close(nullptr);
}

TEST_F(DbTest, CursorBoundsHideKeysOutsideTheRange) {
  for (const char* key : {"a", "b", "c", "d"}) Put(key, "v");
  pr_cursor_t* both = OpenCursor(db, PR_RANGE_HAS_BEGIN | PR_RANGE_HAS_END, "b", "d");
  EXPECT_EQ("b=v", Move(both, PR_CURSOR_FIRST));
  EXPECT_EQ("c=v", Move(both, PR_CURSOR_LAST));
  EXPECT_EQ("end", Move(both, PR_CURSOR_NEXT));
  EXPECT_EQ("b=v", Move(both, PR_CURSOR_SEEK, "a"));
  pr_cursor_close(both);
  pr_cursor_t* upper_only = OpenCursor(db, PR_RANGE_HAS_END, "", "b");
  EXPECT_EQ("a=v", Move(upper_only, PR_CURSOR_LAST));
  pr_cursor_close(upper_only);
}

TEST_F(DbTest, CursorSeesTheStateWhenItWasOpenedOrItsSnapshot) {
  Put("a", "1");
  pr_snapshot_t* snapshot = nullptr;
  ASSERT_EQ(PR_OK, pr_db_snapshot_create(db, &snapshot, err, sizeof err));
  Put("a", "2");
  pr_cursor_t* latest = OpenCursor(db);
  pr_cursor_t* past = nullptr;
  ASSERT_EQ(PR_OK, pr_cursor_open(db, snapshot, PR_READ_SKIP_FILL_CACHE | PR_READ_ASYNC_IO,
                                  1 << 20, nullptr, 0, nullptr, 0, 0, &past, err, sizeof err));
  pr_db_snapshot_release(db, snapshot);  // the open cursor keeps its view
  Put("a", "3");
  Put("b", "3");
  EXPECT_EQ("a=2", Move(latest, PR_CURSOR_FIRST));
  EXPECT_EQ("end", Move(latest, PR_CURSOR_NEXT));
  EXPECT_EQ("a=1", Move(past, PR_CURSOR_FIRST));
  pr_cursor_close(latest);
  pr_cursor_close(past);
}

TEST_F(DbTest, RefreshMovesTheViewToTheLatestStateOrASnapshotKeepingTheBounds) {
  Put("a", "1");
  Put("c", "1");
  pr_cursor_t* cursor = OpenCursor(db, PR_RANGE_HAS_BEGIN | PR_RANGE_HAS_END, "b", "d");
  EXPECT_EQ("c=1", Move(cursor, PR_CURSOR_FIRST));
  Put("b", "2");
  Put("c", "2");
  Put("d", "2");
  pr_snapshot_t* snapshot = nullptr;
  ASSERT_EQ(PR_OK, pr_db_snapshot_create(db, &snapshot, err, sizeof err));
  Put("c", "3");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));  // a new version under the cursor too
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_NEXT));       // still the view it opened with
  ASSERT_EQ(PR_OK, pr_cursor_refresh(cursor, nullptr, err, sizeof err)) << err;
  EXPECT_EQ("error 4", Move(cursor, PR_CURSOR_NEXT));  // on no entry after a refresh
  EXPECT_EQ("b=2", Move(cursor, PR_CURSOR_FIRST));
  EXPECT_EQ("c=3", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_NEXT));       // the upper bound holds
  ASSERT_EQ(PR_OK, pr_cursor_refresh(cursor, snapshot, err, sizeof err)) << err;
  pr_db_snapshot_release(db, snapshot);
  EXPECT_EQ("c=2", Move(cursor, PR_CURSOR_LAST));
  ASSERT_EQ(PR_OK, pr_cursor_refresh(cursor, nullptr, err, sizeof err)) << err;
  EXPECT_EQ("c=3", Move(cursor, PR_CURSOR_LAST));
  pr_cursor_close(cursor);
}

TEST_F(DbTest, TailingCursorSeesLaterWritesAndMovesForwardOnly) {
  Put("a", "1");
  pr_cursor_t* cursor =
      OpenCursor(db, PR_RANGE_HAS_BEGIN | PR_RANGE_HAS_END, "a", "y", PR_READ_TAILING);
  EXPECT_EQ("a=1", Move(cursor, PR_CURSOR_FIRST));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_NEXT));
  Put("b", "2");
  Put("z", "2");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  Put("c", "3");
  // A seek reads the latest state, memtable and table files, within the bounds.
  EXPECT_EQ("b=2", Move(cursor, PR_CURSOR_SEEK, "b"));
  EXPECT_EQ("c=3", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_NEXT));
  // Backward moves are refused before RocksDB, the cursor where it was.
  EXPECT_EQ("b=2", Move(cursor, PR_CURSOR_SEEK, "b"));
  for (int32_t op : {PR_CURSOR_LAST, PR_CURSOR_SEEK_FOR_PREV, PR_CURSOR_PREV}) {
    EXPECT_EQ("error " + std::to_string(PR_CODE_NOT_SUPPORTED), Move(cursor, op, "c")) << op;
  }
  uint8_t buf[64];
  uint64_t entries = 0, used = 0;
  pr_cursor_entry_t entry;
  EXPECT_EQ(PR_CODE_NOT_SUPPORTED, PR_STATUS_CODE(pr_cursor_scan(cursor, PR_SCAN_REVERSE, 4, buf, sizeof buf,
                                                                 &entries, &used, &entry, err, sizeof err)));
  EXPECT_EQ("c=3", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ(PR_CODE_NOT_SUPPORTED, PR_STATUS_CODE(pr_cursor_refresh(cursor, nullptr, err, sizeof err)));
  pr_cursor_close(cursor);
  // Tailing reads the latest state: no snapshot.
  pr_snapshot_t* snapshot = nullptr;
  ASSERT_EQ(PR_OK, pr_db_snapshot_create(db, &snapshot, err, sizeof err));
  cursor = nullptr;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_cursor_open(db, snapshot, PR_READ_TAILING, 0, nullptr, 0, nullptr, 0, 0,
                                          &cursor, err, sizeof err)));
  EXPECT_EQ(nullptr, cursor);
  pr_db_snapshot_release(db, snapshot);
}

TEST_F(DbTest, MemoryOnlyCursorOverAnUncachedTableFileIsIncomplete) {
  Put("k", "v");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err));
  pr_cursor_t* cursor = OpenCursor(db, 0, "", "", PR_READ_MEMORY_ONLY);
  EXPECT_EQ("error 7", Move(cursor, PR_CURSOR_FIRST));
  pr_cursor_close(cursor);
}

// A random key of min_length to 3 bytes over 0x00, 'a', 'b' and 0xff: keys
// shorter than a prefix of 2, and prefixes whose successor carries
// ("a\xff" -> "b\0").
std::string RandomKey(std::mt19937& random, size_t min_length) {
  static const char kBytes[] = {'\0', 'a', 'b', '\xff'};
  std::string key(min_length + random() % (4 - min_length), '\0');
  for (char& byte : key) byte = kBytes[random() % 4];
  return key;
}

// With a prefix extractor and a Bloom filter on the prefixes, RocksDB's
// auto_prefix_mode probes a table file's filter for the seek key's prefix
// when the upper bound is the prefix's same-length immediate successor; when
// reaching it carries, keys shorter than the prefix lie in the range too
// ("b" in ["a\xff", "b\0")) and were skipped with every file lacking the
// prefix. Each cursor, over many random bounds and seeks, sees exactly the
// keys a filter-free scan sees within its bounds.
TEST(CursorPrefixTest, PrefixFilteredCursorsSeeEveryKeyWithinAnyBounds) {
  for (const char* extractor : {"rocksdb.FixedPrefix.2", "rocksdb.CappedPrefix.2"}) {
    SCOPED_TRACE(extractor);
    TempDir dir;
    char err[256] = {0};
    Options options;
    pr_options_set_create_if_missing(options.handle, 1);
    const std::string family =
        std::string("disable_auto_compactions=true;prefix_extractor=") + extractor;
    ASSERT_EQ(PR_OK, pr_options_set_string(options.handle, PR_OPTION_SCOPE_FAMILY, family.c_str(),
                                           err, sizeof err))
        << err;
    ASSERT_EQ(PR_OK, pr_options_set_string(options.handle, PR_OPTION_SCOPE_TABLE,
                                           "filter_policy=bloomfilter:10:false", err, sizeof err))
        << err;
    pr_db_t* db = nullptr;
    ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
    std::mt19937 random(42);
    std::set<std::string> keys;
    // Each file alone, so that a filter can skip a file lacking a prefix; the
    // first the example: "b" alone, the bounds ["a\xff", "b\0").
    std::vector<std::vector<std::string>> files = {{"b"}};
    for (int i = 0; i < 24; i++) {
      files.emplace_back();
      for (int n = random() % 2 + 1; n > 0; n--) files.back().push_back(RandomKey(random, 1));
    }
    for (const std::vector<std::string>& file : files) {
      for (const std::string& key : file) {
        ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes("v"), 1, err, sizeof err));
        keys.insert(key);
      }
      ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
    }
    struct Bounds {
      uint32_t flags;
      std::string lower, upper, seek;
    };
    std::vector<Bounds> cases = {
        {PR_RANGE_HAS_BEGIN | PR_RANGE_HAS_END, std::string("a\xff", 2), std::string("b\0", 2), ""}};
    for (int i = 0; i < 3000; i++) {
      uint32_t flags = random() % 4;  // PR_RANGE_HAS_BEGIN, PR_RANGE_HAS_END, both or neither
      cases.push_back({flags, RandomKey(random, 0), RandomKey(random, 0), RandomKey(random, 0)});
    }
    for (const Bounds& b : cases) {
      const bool has_lower = (b.flags & PR_RANGE_HAS_BEGIN) != 0;
      const bool has_upper = (b.flags & PR_RANGE_HAS_END) != 0;
      pr_cursor_t* cursor = OpenCursor(db, b.flags, b.lower, b.upper);
      // From the first key, then from a seek.
      for (bool seek : {false, true}) {
        std::vector<std::string> expected;
        for (const std::string& key : keys) {
          if ((!has_lower || key >= b.lower) && (!has_upper || key < b.upper) &&
              (!seek || key >= b.seek)) {
            expected.push_back(key + "=v");
          }
        }
        std::vector<std::string> seen;
        for (std::string at = seek ? Move(cursor, PR_CURSOR_SEEK, b.seek) : Move(cursor, PR_CURSOR_FIRST);
             at != "end" && seen.size() <= keys.size(); at = Move(cursor, PR_CURSOR_NEXT)) {
          seen.push_back(at);
        }
        ASSERT_EQ(expected, seen) << "bounds " << b.flags << " [" << testing::PrintToString(b.lower)
                                  << ", " << testing::PrintToString(b.upper) << ")"
                                  << (seek ? " seek " + testing::PrintToString(b.seek) : "");
      }
      pr_cursor_close(cursor);
    }
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }
}

// Decodes a scan buffer into "key=value" strings.
std::vector<std::string> Decode(const std::vector<uint8_t>& buf, uint64_t entries) {
  std::vector<std::string> out;
  size_t at = 0;
  for (uint64_t i = 0; i < entries; i++) {
    uint32_t lengths[2];
    std::memcpy(lengths, buf.data() + at, sizeof lengths);
    const char* key = reinterpret_cast<const char*>(buf.data() + at + sizeof lengths);
    out.push_back(std::string(key, lengths[0]) + "=" + std::string(key + lengths[0], lengths[1]));
    at += sizeof lengths + lengths[0] + lengths[1];
  }
  return out;
}

TEST_F(DbTest, ScanCopiesManyEntriesPerCallAndStopsWhereTheBufferEnds) {
  for (const char* key : {"a", "b", "c", "d", "e"}) Put(key, std::string("v") + key);
  pr_cursor_t* cursor = OpenCursor(db);
  std::vector<uint8_t> buf(3 * 10);  // each entry takes 8 + 1 + 2 bytes: two fit
  uint64_t entries = 0;
  uint64_t used = 0;
  pr_cursor_entry_t entry;
  // Unpositioned: nothing to copy.
  EXPECT_EQ(PR_NOT_FOUND, pr_cursor_scan(cursor, 0, 100, buf.data(), buf.size(), &entries, &used,
                                         &entry, err, sizeof err));
  EXPECT_EQ(0u, entries);
  ASSERT_EQ("a=va", Move(cursor, PR_CURSOR_FIRST));
  ASSERT_EQ(PR_OK, pr_cursor_scan(cursor, 0, 100, buf.data(), buf.size(), &entries, &used, &entry,
                                  err, sizeof err));
  EXPECT_EQ(2u, entries);
  EXPECT_EQ(22u, used);
  EXPECT_EQ((std::vector<std::string>{"a=va", "b=vb"}), Decode(buf, entries));
  EXPECT_EQ("c=vc", Entry(entry));  // the cursor waits on the entry that did not fit
  ASSERT_EQ(PR_OK, pr_cursor_scan(cursor, 0, 1, buf.data(), buf.size(), &entries, &used, &entry,
                                  err, sizeof err));
  EXPECT_EQ((std::vector<std::string>{"c=vc"}), Decode(buf, entries));
  // Too small for one entry: nothing moves, the size needed is reported.
  ASSERT_EQ(PR_OK, pr_cursor_scan(cursor, 0, 100, buf.data(), 5, &entries, &used, &entry, err,
                                  sizeof err));
  EXPECT_EQ(0u, entries);
  EXPECT_EQ(11u, used);
  EXPECT_EQ("d=vd", Entry(entry));
  ASSERT_EQ(PR_NOT_FOUND, pr_cursor_scan(cursor, 0, 100, buf.data(), buf.size(), &entries, &used,
                                         &entry, err, sizeof err));
  EXPECT_EQ((std::vector<std::string>{"d=vd", "e=ve"}), Decode(buf, entries));
  EXPECT_EQ(nullptr, entry.key);
  // Reverse from the last key.
  ASSERT_EQ("e=ve", Move(cursor, PR_CURSOR_LAST));
  std::vector<uint8_t> large(1024);
  ASSERT_EQ(PR_NOT_FOUND, pr_cursor_scan(cursor, PR_SCAN_REVERSE, 100, large.data(), large.size(),
                                         &entries, &used, &entry, err, sizeof err));
  EXPECT_EQ((std::vector<std::string>{"e=ve", "d=vd", "c=vc", "b=vb", "a=va"}),
            Decode(large, entries));
  pr_cursor_close(cursor);
}

// The scan copies short keys and values with inlined fixed-size copies and
// long ones with memcpy: every length on either side of each size class
// arrives whole, and (under the sanitizers) nothing outside an entry is
// read or written.
TEST_F(DbTest, ScanCopiesKeysAndValuesOfEveryLengthExactly) {
  constexpr size_t kLongest = 300;
  std::vector<std::string> expected;
  for (size_t length = 0; length <= kLongest; length++) {
    std::string key(length, 'k');  // "", "k", "kk", ...: sorted by length
    std::string value(length, '\0');
    for (size_t i = 0; i < length; i++) value[i] = static_cast<char>(length * 31 + i);
    Put(key, value);
    expected.push_back(key + "=" + value);
  }
  pr_cursor_t* cursor = OpenCursor(db);
  ASSERT_EQ(expected.front(), Move(cursor, PR_CURSOR_FIRST));
  // Exactly the bytes the entries need, so a copy past the last one is caught.
  size_t needed = 0;
  for (size_t length = 0; length <= kLongest; length++) needed += 2 * sizeof(uint32_t) + 2 * length;
  std::vector<uint8_t> buf(needed);
  uint64_t entries = 0;
  uint64_t used = 0;
  pr_cursor_entry_t entry;
  ASSERT_EQ(PR_NOT_FOUND, pr_cursor_scan(cursor, 0, SIZE_MAX, buf.data(), buf.size(), &entries,
                                         &used, &entry, err, sizeof err));
  EXPECT_EQ(needed, used);
  EXPECT_EQ(expected, Decode(buf, entries));
  pr_cursor_close(cursor);
}

}  // namespace
