// GoogleTest tests of pinrock.h's batches-with-index section: reads and
// cursors over a batch merged with the database, indexing in steps and
// rebuilt, and what indexing refuses.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

class IndexedBatchTest : public DbTest {
 protected:
  void SetUp() override {
    DbTest::SetUp();
    ASSERT_EQ(PR_OK, pr_indexed_batch_create(0, &batch, err, sizeof err)) << err;
  }
  void TearDown() override {
    pr_indexed_batch_free(batch);
    DbTest::TearDown();
  }
  // Indexes the records of encoded added since the last call (all of them with rebuild).
  int32_t Index(const Batch& encoded, bool rebuild = false) {
    size_t from = rebuild ? 12 : indexed_bytes;
    uint32_t count = rebuild ? RecordCount(encoded) : RecordCount(encoded) - indexed_count;
    int32_t status = pr_indexed_batch_index(batch, db, encoded.data() + from, encoded.size() - from,
                                            count, rebuild ? 1 : 0, err, sizeof err);
    if (status == PR_OK) {
      indexed_bytes = encoded.size();
      indexed_count = RecordCount(encoded);
    }
    return status;
  }
  static uint32_t RecordCount(const Batch& encoded) {
    uint32_t count = 0;
    for (int i = 0; i < 4; i++) count |= static_cast<uint32_t>(encoded.data()[8 + i]) << (8 * i);
    return count;
  }
  // The batch's read of key merged over the database: "value", "absent" or "error N".
  std::string Read(const std::string& key, pr_db_t* family = nullptr) {
    uint8_t buf[64];
    pr_get_result_t result;
    int32_t s = pr_indexed_batch_get(batch, family != nullptr ? family : db, nullptr, 0, bytes(key),
                                     key.size(), buf, sizeof buf, 0, &result, err, sizeof err);
    if (s == PR_NOT_FOUND) return "absent";
    if (s != PR_OK) return "error " + std::to_string(PR_STATUS_CODE(s));
    return std::string(reinterpret_cast<const char*>(result.data), result.value_len);
  }
  pr_cursor_t* Cursor() {
    pr_cursor_t* cursor = nullptr;
    EXPECT_EQ(PR_OK, pr_indexed_batch_cursor_open(batch, db, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0,
                                                  &cursor, err, sizeof err))
        << err;
    return cursor;
  }

  pr_indexed_batch_t* batch = nullptr;
  size_t indexed_bytes = 12;
  uint32_t indexed_count = 0;
};

TEST_F(IndexedBatchTest, ReadsTheBatchOverTheDatabase) {
  Put("kept", "db");
  Put("replaced", "db");
  Put("deleted", "db");
  Batch encoded;
  encoded.Put("replaced", "batch").Delete("deleted").Put("new", "batch");
  ASSERT_EQ(PR_OK, Index(encoded)) << err;
  EXPECT_EQ("db", Read("kept"));
  EXPECT_EQ("batch", Read("replaced"));
  EXPECT_EQ("absent", Read("deleted"));
  EXPECT_EQ("batch", Read("new"));
  EXPECT_EQ("absent", Read("never"));
  // Nothing reached the database.
  pr_get_result_t result;
  EXPECT_EQ(PR_NOT_FOUND, Get("new", 16, 0, &result));
  // Written as the same encoding, the database reads what the batch read.
  ASSERT_EQ(PR_OK, pr_db_write(db, encoded.data(), encoded.size(), 0, err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, Get("replaced", 16, 0, &result));
  EXPECT_EQ(PR_NOT_FOUND, Get("deleted", 16, 0, &result));
}

TEST_F(IndexedBatchTest, IndexesInStepsAndRebuilds) {
  Batch encoded;
  encoded.Put("a", "1");
  ASSERT_EQ(PR_OK, Index(encoded)) << err;
  encoded.Put("a", "2").Put("b", "1");
  ASSERT_EQ(PR_OK, Index(encoded)) << err;
  EXPECT_EQ("2", Read("a"));
  EXPECT_EQ("1", Read("b"));
  Batch other;
  other.Put("c", "1");
  ASSERT_EQ(PR_OK, Index(other, true)) << err;
  EXPECT_EQ("absent", Read("a"));
  EXPECT_EQ("1", Read("c"));
}

TEST_F(IndexedBatchTest, MergesWithTheFamilysOperator) {
  pr_db_t* counters = nullptr;
  Options family_options;
  ASSERT_EQ(PR_OK, pr_options_set_merge_operator(family_options.handle, "uint64add", err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_create_family(db, family_options.handle, "counters", &counters, err, sizeof err))
      << err;
  std::string one(8, '\0');
  one[0] = 1;
  Batch first;
  first.MergeInFamily(pr_db_family_id(counters), "n", one);
  ASSERT_EQ(PR_OK, pr_db_write(db, first.data(), first.size(), 0, err, sizeof err)) << err;
  Batch encoded;
  encoded.MergeInFamily(pr_db_family_id(counters), "n", one).MergeInFamily(pr_db_family_id(counters), "n", one);
  ASSERT_EQ(PR_OK, Index(encoded)) << err;
  std::string three(8, '\0');
  three[0] = 3;
  EXPECT_EQ(three, Read("n", counters));
}

TEST_F(IndexedBatchTest, RefusedRecordsLeaveTheIndexAsItWas) {
  Batch encoded;
  encoded.Put("a", "1");
  ASSERT_EQ(PR_OK, Index(encoded)) << err;
  Batch unknown_family = encoded;
  unknown_family.PutInFamily(7, "b", "1");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(Index(unknown_family)));
  Batch merge_without_operator = encoded;
  merge_without_operator.Merge("m", "x");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(Index(merge_without_operator)));
  Batch truncated = encoded;
  truncated.Put("c", "1");
  truncated.rep().pop_back();
  EXPECT_EQ(PR_CODE_CORRUPTION, PR_STATUS_CODE(Index(truncated)));
  EXPECT_EQ("1", Read("a"));
  EXPECT_EQ("absent", Read("b"));
  // A range delete, which the index cannot hold, empties it.
  Batch range = encoded;
  range.DeleteRange("a", "b");
  EXPECT_EQ(PR_CODE_NOT_SUPPORTED, PR_STATUS_CODE(Index(range)));
  EXPECT_EQ("absent", Read("a"));
}

TEST_F(IndexedBatchTest, CursorsMergeTheBatchOverTheDatabase) {
  Put("a", "db");
  Put("b", "db");
  Put("c", "db");
  Batch encoded;
  encoded.Put("b", "1").Put("b", "2").Delete("c").Put("d", "1");
  ASSERT_EQ(PR_OK, Index(encoded)) << err;
  pr_cursor_t* cursor = Cursor();
  EXPECT_EQ("a=db", Move(cursor, PR_CURSOR_FIRST));
  EXPECT_EQ("b=2", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("d=1", Move(cursor, PR_CURSOR_NEXT));
  // Records indexed while the cursor is open show at its next move.
  encoded.Put("e", "1");
  ASSERT_EQ(PR_OK, Index(encoded)) << err;
  EXPECT_EQ("e=1", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_NEXT));
  // A rebuild and a free wait for the cursors.
  EXPECT_EQ(PR_CODE_ABORTED, PR_STATUS_CODE(Index(encoded, true)));
  pr_indexed_batch_free(batch);
  EXPECT_EQ("a=db", Move(cursor, PR_CURSOR_FIRST));
  EXPECT_EQ(PR_CODE_NOT_SUPPORTED, PR_STATUS_CODE(pr_cursor_refresh(cursor, nullptr, err, sizeof err)));
  pr_cursor_close(cursor);
  // A batch's cursor reads the batch in place: it cannot be tailing.
  cursor = nullptr;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_indexed_batch_cursor_open(batch, db, nullptr, PR_READ_TAILING, 0, nullptr, 0,
                                                        nullptr, 0, 0, &cursor, err, sizeof err)));
  EXPECT_EQ(nullptr, cursor);
}

TEST_F(IndexedBatchTest, MultiGetReadsEveryKeyOverTheDatabase) {
  Put("a", "db");
  Put("b", "db");
  Batch encoded;
  encoded.Put("b", "batch").Put("c", "batch");
  ASSERT_EQ(PR_OK, Index(encoded)) << err;
  std::vector<std::string> keys{"a", "b", "c", "d"};
  std::vector<const uint8_t*> pointers;
  std::vector<size_t> lengths;
  for (const std::string& key : keys) {
    pointers.push_back(bytes(key));
    lengths.push_back(key.size());
  }
  for (uint32_t read_flags : {0u, static_cast<uint32_t>(PR_READ_MEMORY_ONLY)}) {
    uint8_t buf[64];
    uint64_t offsets[4], value_lens[4];
    int32_t statuses[4];
    ASSERT_EQ(PR_OK, pr_indexed_batch_multi_get(batch, db, nullptr, read_flags, 4, pointers.data(),
                                                lengths.data(), buf, sizeof buf, offsets, value_lens,
                                                statuses, err, sizeof err))
        << err;
    std::vector<std::string> read;
    for (int i = 0; i < 4; i++) {
      read.push_back(statuses[i] == PR_NOT_FOUND
                         ? "absent"
                         : std::string(reinterpret_cast<const char*>(buf + offsets[i]), value_lens[i]));
    }
    EXPECT_EQ((std::vector<std::string>{"db", "batch", "batch", "absent"}), read) << read_flags;
    pr_get_result_t results[4];
    ASSERT_EQ(PR_OK, pr_indexed_batch_multi_get_pinned(batch, db, nullptr, read_flags, 4, pointers.data(),
                                                       lengths.data(), results, statuses, err, sizeof err))
        << err;
    EXPECT_EQ("batch", std::string(reinterpret_cast<const char*>(results[2].data), results[2].value_len));
    EXPECT_EQ(PR_NOT_FOUND, statuses[3]);
    for (pr_get_result_t& result : results) pr_pin_release(result.pin);
  }
}

}  // namespace
