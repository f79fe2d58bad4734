// GoogleTest tests of pinrock.h's comparators section: a caller's order in
// writes, reads, cursors, flushes, compactions, table file writers, ingest
// and reopens; its name recorded; and a failed comparison, after which
// nothing in a mixed order is written and the log keeps every write.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

// The comparator states the tests give: how a key that is not a number compares.
enum ComparatorState : uint64_t { kFailsOnWords = 1, kWordsLast = 2 };

// Whether key is a decimal number (digits only, at most 18).
bool Number(const uint8_t* key, size_t len, uint64_t* value) {
  if (len == 0 || len > 18) return false;
  *value = 0;
  for (size_t i = 0; i < len; i++) {
    if (key[i] < '0' || key[i] > '9') return false;
    *value = *value * 10 + (key[i] - '0');
  }
  return true;
}

// Decimal numbers, the greatest first; a key that is not a number fails
// (kFailsOnWords) or comes after every number, bytewise (kWordsLast).
int32_t Compare(uint64_t state, const uint8_t* a, size_t a_len, const uint8_t* b, size_t b_len) {
  uint64_t x = 0;
  uint64_t y = 0;
  bool a_number = Number(a, a_len, &x);
  bool b_number = Number(b, b_len, &y);
  if (a_number && b_number) return x > y ? -1 : x < y ? 1 : 0;
  if (state == kFailsOnWords) return PR_COMPARE_FAILED;
  if (a_number != b_number) return a_number ? -1 : 1;
  int order = std::string(reinterpret_cast<const char*>(a), a_len)
                  .compare(std::string(reinterpret_cast<const char*>(b), b_len));
  return order < 0 ? -1 : order > 0 ? 1 : 0;
}

class ComparatorsTest : public ::testing::Test {
 protected:
  void SetUp() override { TakeReleased(); }
  void TearDown() override {
    if (db != nullptr) pr_db_close(db, err, sizeof err);
  }

  // Sets options' comparator: the caller's of state named name, or RocksDB's named name.
  void SetComparator(pr_options_t* options, const char* name, uint64_t state) {
    if (state == 0) {
      ASSERT_EQ(PR_OK, pr_options_set_comparator(options, name, err, sizeof err)) << err;
      return;
    }
    pr_comparator_t* comparator = nullptr;
    ASSERT_EQ(PR_OK, pr_comparator_create(name, state, Compare, &comparator, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_options_set_comparator_object(options, comparator, err, sizeof err)) << err;
    pr_comparator_destroy(comparator);
  }

  // Opens the test's database with the comparator; returns the status.
  int32_t Open(const char* name = "test.Descending", uint64_t state = kWordsLast) {
    Options options;
    pr_options_set_create_if_missing(options.handle, 1);
    SetComparator(options.handle, name, state);
    return pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err);
  }
  void Close() {
    EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    db = nullptr;
  }
  int32_t Put(const std::string& key) {
    return pr_db_put(db, bytes(key), key.size(), bytes(key), key.size(), err, sizeof err);
  }
  // The keys a cursor walks, forwards or backwards.
  std::vector<std::string> Keys(bool backwards = false) {
    std::vector<std::string> keys;
    pr_cursor_t* cursor = OpenCursor(db);
    for (std::string entry = Move(cursor, backwards ? PR_CURSOR_LAST : PR_CURSOR_FIRST);
         entry.find('=') != std::string::npos;
         entry = Move(cursor, backwards ? PR_CURSOR_PREV : PR_CURSOR_NEXT)) {
      keys.push_back(entry.substr(0, entry.find('=')));
    }
    pr_cursor_close(cursor);
    return keys;
  }
  bool Found(const std::string& key) {
    uint8_t buf[64];
    pr_get_result_t result;
    return pr_db_get(db, bytes(key), key.size(), buf, sizeof buf, 0, &result, err, sizeof err) == PR_OK;
  }

  TempDir dir;
  pr_db_t* db = nullptr;
  char err[512] = {0};
};

TEST_F(ComparatorsTest, KeysAreInTheCallersOrderInMemtablesTableFilesAndAfterAReopen) {
  ASSERT_EQ(PR_OK, Open()) << err;
  for (const char* key : {"2", "33", "10", "word"}) ASSERT_EQ(PR_OK, Put(key)) << err;
  const std::vector<std::string> expected{"33", "10", "2", "word"};
  EXPECT_EQ(expected, Keys());
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, Put("7")) << err;
  ASSERT_EQ(PR_OK, pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err)) << err;
  EXPECT_EQ((std::vector<std::string>{"word", "2", "7", "10", "33"}), Keys(true));
  EXPECT_TRUE(Found("10"));
  Close();
  EXPECT_EQ(std::vector<uint64_t>{kWordsLast}, TakeReleased()) << "released with the database";
  ASSERT_EQ(PR_OK, Open()) << err;
  EXPECT_EQ((std::vector<std::string>{"33", "10", "7", "2", "word"}), Keys());
}

TEST_F(ComparatorsTest, ADatabaseOpensOnlyWithAComparatorOfTheNameItWasCreatedWith) {
  ASSERT_EQ(PR_OK, Open()) << err;
  ASSERT_EQ(PR_OK, Put("1")) << err;
  Close();
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(Open("leveldb.BytewiseComparator", 0)));
  EXPECT_NE(std::string::npos, std::string(err).find("test.Descending")) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(Open("test.Other")));
  EXPECT_NE(std::string::npos, std::string(err).find("test.Other")) << err;
  ASSERT_EQ(PR_OK, Open()) << err;
  EXPECT_TRUE(Found("1"));
}

TEST_F(ComparatorsTest, RocksDbsNamesAndNamesOptionsCannotHoldAreRefused) {
  pr_comparator_t* comparator = nullptr;
  for (const char* name : {"leveldb.BytewiseComparator", "rocksdb.ReverseBytewiseComparator", "",
                           "a=b", "a;b", "a{b}"}) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
              PR_STATUS_CODE(pr_comparator_create(name, 5, Compare, &comparator, err, sizeof err)))
        << name;
    EXPECT_EQ(nullptr, comparator);
  }
  EXPECT_EQ(std::vector<uint64_t>(6, 5), TakeReleased()) << "each refused state is released";
}

TEST_F(ComparatorsTest, AFailedComparisonStopsTableFilesAndTheLogKeepsEveryWrite) {
  ASSERT_EQ(PR_OK, Open("test.Descending", kFailsOnWords)) << err;
  for (const char* key : {"1", "2"}) ASSERT_EQ(PR_OK, Put(key)) << err;
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, Put("3")) << err;
  ASSERT_EQ(PR_OK, Put("word")) << err << ": the write is logged; its comparisons in the memtable fail";
  int32_t flushed = pr_db_flush(db, err, sizeof err);
  EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(flushed));
  EXPECT_NE(std::string::npos, std::string(err).find("comparator test.Descending failed")) << err;
  EXPECT_NE(PR_OK, Put("4")) << "the database stops taking writes";
  EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(pr_db_close(db, err, sizeof err))) << "close reports it";
  db = nullptr;
  // The log replays "word" into a memtable that the failing order cannot flush.
  EXPECT_NE(PR_OK, Open("test.Descending", kFailsOnWords));
  db = nullptr;
  ASSERT_EQ(PR_OK, Open("test.Descending", kWordsLast)) << err;
  EXPECT_EQ((std::vector<std::string>{"3", "2", "1", "word"}), Keys()) << "nothing acknowledged is lost";
  ASSERT_EQ(PR_OK, pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err)) << err;
  EXPECT_EQ((std::vector<std::string>{"3", "2", "1", "word"}), Keys());
}

TEST_F(ComparatorsTest, TableFileWritersTakeKeysInTheOrderAndIngestKeepsIt) {
  const std::string file = dir.path("ordered.sst");
  {
    Options options;
    SetComparator(options.handle, "test.Descending", kWordsLast);
    pr_sst_writer_t* writer = nullptr;
    ASSERT_EQ(PR_OK, pr_sst_writer_open(options.handle, file.c_str(), &writer, err, sizeof err)) << err;
    for (const std::string key : {"30", "4"}) {
      ASSERT_EQ(PR_OK, pr_sst_writer_put(writer, bytes(key), key.size(), bytes(key), key.size(), err,
                                         sizeof err))
          << err;
    }
    const std::string late = "5";
    EXPECT_NE(PR_OK, pr_sst_writer_put(writer, bytes(late), late.size(), bytes(late), late.size(), err,
                                       sizeof err))
        << "5 comes before 4";
    uint64_t size = 0;
    ASSERT_EQ(PR_OK, pr_sst_writer_finish(writer, &size, err, sizeof err)) << err;
    pr_sst_writer_destroy(writer);
  }
  ASSERT_EQ(PR_OK, Open()) << err;
  ASSERT_EQ(PR_OK, Put("9")) << err;
  const char* paths[] = {file.c_str()};
  ASSERT_EQ(PR_OK, pr_db_ingest(db, paths, 1, 0, err, sizeof err)) << err;
  EXPECT_EQ((std::vector<std::string>{"30", "9", "4"}), Keys());
}

TEST_F(ComparatorsTest, ATableFileWriterWhoseComparisonFailedFinishesNothing) {
  const std::string file = dir.path("mixed.sst");
  Options options;
  SetComparator(options.handle, "test.Descending", kFailsOnWords);
  pr_sst_writer_t* writer = nullptr;
  ASSERT_EQ(PR_OK, pr_sst_writer_open(options.handle, file.c_str(), &writer, err, sizeof err)) << err;
  for (const std::string key : {"3", "word"}) {
    ASSERT_EQ(PR_OK, pr_sst_writer_put(writer, bytes(key), key.size(), bytes(key), key.size(), err,
                                       sizeof err))
        << err;
  }
  uint64_t size = 0;
  EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(pr_sst_writer_finish(writer, &size, err, sizeof err)));
  EXPECT_NE(std::string::npos, std::string(err).find("failed a comparison")) << err;
  pr_sst_writer_destroy(writer);
}

}  // namespace
