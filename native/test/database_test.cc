// GoogleTest tests of pinrock.h's database section: opening and closing,
// writes (one key, a batch) and the one-call read.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <chrono>
#include <cstring>
#include <future>
#include <string>
#include <utility>

using namespace pinrock_test;

namespace {

TEST(OpenTest, MissingDatabaseWithoutCreateIfMissingIsInvalidArgument) {
  TempDir dir;
  Options o;
  char err[256] = {0};
  pr_db_t* db = reinterpret_cast<pr_db_t*>(0x1);
  int32_t status = pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(status));
  EXPECT_EQ(nullptr, db);
  EXPECT_NE(nullptr, std::strstr(err, "does not exist")) << err;
}

TEST(OpenTest, ErrorIfExistsRejectsAnExistingDatabase) {
  TempDir dir;
  Options o;
  char err[256] = {0};
  pr_db_t* db = nullptr;
  pr_options_set_create_if_missing(o.handle, 1);
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  pr_options_set_error_if_exists(o.handle, 1);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err)));
  EXPECT_NE(nullptr, std::strstr(err, "exists")) << err;
}

TEST(OpenTest, SecondOpenOfTheSameDirectoryIsAnIoErrorAboutTheLock) {
  TempDir dir;
  Options o;
  char err[256] = {0};
  pr_db_t* first = nullptr;
  pr_db_t* second = nullptr;
  pr_options_set_create_if_missing(o.handle, 1);
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path().c_str(), &first, err, sizeof err)) << err;
  int32_t status = pr_db_open(o.handle, dir.path().c_str(), &second, err, sizeof err);
  EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(status));
  EXPECT_NE(nullptr, std::strstr(err, "lock")) << err;
  EXPECT_EQ(nullptr, second);
  EXPECT_EQ(PR_OK, pr_db_close(first, err, sizeof err));
}

TEST(OpenTest, PathUnderAFileIsAnIoError) {
  TempDir dir;
  std::string file = dir.path("file");
  FILE* f = fopen(file.c_str(), "w");
  ASSERT_NE(nullptr, f);
  fclose(f);
  Options o;
  char err[256] = {0};
  pr_db_t* db = nullptr;
  pr_options_set_create_if_missing(o.handle, 1);
  int32_t status = pr_db_open(o.handle, (file + "/db").c_str(), &db, err, sizeof err);
  EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(status)) << err;
  EXPECT_EQ(nullptr, db);
}

TEST(OpenTest, CloseAcceptsNull) { EXPECT_EQ(PR_OK, pr_db_close(nullptr, nullptr, 0)); }

TEST_F(DbTest, GetOfAnAbsentKeyIsNotFoundWithoutAMessage) {
  pr_get_result_t result;
  err[0] = '\0';
  EXPECT_EQ(PR_NOT_FOUND, Get("absent", 16, PR_GET_PIN_IF_LARGER, &result));
  EXPECT_EQ(0u, result.value_len);
  EXPECT_EQ(nullptr, result.pin);
  EXPECT_STREQ("", err);
}

TEST_F(DbTest, ValueThatFitsIsCopiedIntoTheBuffer) {
  Put("k", "value");
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, Get("k", 16, PR_GET_PIN_IF_LARGER, &result));
  EXPECT_EQ(5u, result.value_len);
  EXPECT_EQ(buffer.data(), result.data);
  EXPECT_EQ(nullptr, result.pin);
  EXPECT_EQ("value", std::string(reinterpret_cast<const char*>(buffer.data()), 5));
}

TEST_F(DbTest, ValueLargerThanTheBufferIsPinnedWhenAsked) {
  std::string value(64 << 10, 'v');
  Put("k", value);
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, Get("k", 100, PR_GET_PIN_IF_LARGER, &result));
  EXPECT_EQ(value.size(), result.value_len);
  ASSERT_NE(nullptr, result.pin);
  EXPECT_EQ(value, std::string(reinterpret_cast<const char*>(result.data), result.value_len));
  pr_pin_release(result.pin);
}

TEST_F(DbTest, ValueLargerThanTheBufferOnlyReportsItsLengthWithoutPinFlag) {
  Put("k", std::string(300, 'v'));
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, Get("k", 100, 0, &result));
  EXPECT_EQ(300u, result.value_len);
  EXPECT_EQ(nullptr, result.data);
  EXPECT_EQ(nullptr, result.pin);
  EXPECT_EQ(0, buffer[0]);  // nothing copied
}

TEST_F(DbTest, EmptyKeyAndEmptyValueRoundTrip) {
  Put("", "");
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, pr_db_get(db, nullptr, 0, nullptr, 0, PR_GET_PIN_IF_LARGER, &result, err,
                             sizeof err));
  EXPECT_EQ(0u, result.value_len);
  EXPECT_EQ(nullptr, result.pin);
}

TEST_F(DbTest, DeleteRemovesTheKeyAndDeletingAnAbsentKeySucceeds) {
  Put("k", "v");
  ASSERT_EQ(PR_OK, pr_db_delete(db, bytes("k"), 1, err, sizeof err));
  pr_get_result_t result;
  EXPECT_EQ(PR_NOT_FOUND, Get("k", 16, 0, &result));
  EXPECT_EQ(PR_OK, pr_db_delete(db, bytes("never"), 5, err, sizeof err));
}

TEST_F(DbTest, PinnedValueFromATableFileOutlivesTheDatabase) {
  std::string value(64 << 10, 'p');
  Put("k", value);
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, Get("k", 0, PR_GET_PIN_IF_LARGER, &result));
  ASSERT_NE(nullptr, result.pin);
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  db = nullptr;
  EXPECT_EQ(value, std::string(reinterpret_cast<const char*>(result.data), result.value_len));
  pr_pin_release(result.pin);
}

TEST_F(DbTest, DataSurvivesFlushCloseAndReopen) {
  Put("a", "1");
  Put("b", "2");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  Put("c", "3");  // only in the WAL
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  for (const char* key : {"a", "b", "c"}) {
    pr_get_result_t result;
    EXPECT_EQ(PR_OK, Get(key, 8, 0, &result)) << key;
    EXPECT_EQ(1u, result.value_len);
  }
}

TEST_F(DbTest, WriteAppliesEveryKindOfRecord) {
  Put("gone", "x");
  Put("single", "x");
  Put("range-a", "x");
  Put("range-b", "x");
  Batch batch;
  batch.Put("new", "value").Delete("gone").SingleDelete("single").DeleteRange("range-a", "range-z");
  ASSERT_EQ(PR_OK, pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)) << err;
  pr_get_result_t result;
  EXPECT_EQ(PR_OK, Get("new", 16, 0, &result));
  EXPECT_EQ(5u, result.value_len);
  for (const char* key : {"gone", "single", "range-a", "range-b"}) {
    EXPECT_EQ(PR_NOT_FOUND, Get(key, 16, 0, &result)) << key;
  }
}

TEST_F(DbTest, WriteFlagsAreAccepted) {
  for (uint32_t flags : {0u, static_cast<uint32_t>(PR_WRITE_SYNC),
                         static_cast<uint32_t>(PR_WRITE_DISABLE_WAL),
                         static_cast<uint32_t>(PR_WRITE_NO_SLOWDOWN)}) {
    Batch batch;
    batch.Put("k" + std::to_string(flags), "v");
    EXPECT_EQ(PR_OK, pr_db_write(db, batch.data(), batch.size(), flags, err, sizeof err)) << err;
  }
  Batch both;
  both.Put("both", "v");
  // RocksDB refuses sync without a WAL.
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_write(db, both.data(), both.size(),
                                       PR_WRITE_SYNC | PR_WRITE_DISABLE_WAL, err, sizeof err)));
}

TEST_F(DbTest, MalformedBatchesAreCorruptionAndApplyNothing) {
  Batch wrong_count;
  wrong_count.Put("a", "1").SetCount(2);
  Batch truncated;
  truncated.Put("b", "1");
  truncated.rep().pop_back();
  Batch too_small;
  too_small.rep().resize(5);
  for (Batch* batch : {&wrong_count, &truncated, &too_small}) {
    EXPECT_EQ(PR_CODE_CORRUPTION,
              PR_STATUS_CODE(pr_db_write(db, batch->data(), batch->size(), 0, err, sizeof err)));
  }
  pr_get_result_t result;
  EXPECT_EQ(PR_NOT_FOUND, Get("a", 16, 0, &result));
  EXPECT_EQ(PR_NOT_FOUND, Get("b", 16, 0, &result));
}

TEST_F(DbTest, MergeWithoutAMergeOperatorIsRefusedBeforeAnythingIsWritten) {
  Batch batch;
  batch.Put("first", "1").Merge("counter", std::string(8, '\1'));
  int32_t status = pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(status));
  EXPECT_NE(nullptr, std::strstr(err, "no merge operator")) << err;
  pr_get_result_t result;
  EXPECT_EQ(PR_NOT_FOUND, Get("first", 16, 0, &result));
}

TEST_F(DbTest, OtherColumnFamiliesAreRefused) {
  Batch batch;
  batch.PutInFamily(3, "k", "v");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)));
  EXPECT_NE(nullptr, std::strstr(err, "column family 3")) << err;
}

TEST_F(DbTest, CloseWithACursorOpenIsRefusedAndLeavesTheDatabaseUsable) {
  Put("k", "v");
  pr_cursor_t* cursor = OpenCursor(db);
  EXPECT_EQ(PR_CODE_ABORTED, pr_db_close(db, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "cursors"));
  EXPECT_EQ("k=v", Move(cursor, PR_CURSOR_FIRST));
  pr_cursor_close(cursor);
  // TearDown closes it now.
}

// A database whose writes stop for good: no compaction ever runs
// (kCompactionStyleNone) and two level-0 files stop writes, so after two
// flushes every write stalls until the trigger is raised. (A compaction
// trigger of 2: with 1, the second flush would wait for a compaction that
// never comes, so as not to stop writes.)
class WriteStallTest : public DbTest {
 protected:
  void SetUp() override {
    ASSERT_EQ(PR_OK, pr_options_set_string(options.handle, PR_OPTION_SCOPE_FAMILY,
                                           "compaction_style=kCompactionStyleNone;"
                                           "level0_file_num_compaction_trigger=2;"
                                           "level0_slowdown_writes_trigger=2;"
                                           "level0_stop_writes_trigger=2",
                                           err, sizeof err))
        << err;
    DbTest::SetUp();
    for (const char* key : {"a", "b"}) {
      Put(key, "v");
      ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
    }
    ASSERT_TRUE(WritesStopped()) << "two level-0 files did not stop writes";
  }

  bool WritesStopped() {
    uint64_t stopped = 0;
    EXPECT_EQ(PR_OK, pr_db_property_int(db, "rocksdb.is-write-stopped", &stopped, err, sizeof err))
        << err;
    return stopped != 0;
  }

  // Ends the stop: RocksDB recomputes it when the trigger changes.
  void RaiseTheStopTrigger() {
    ASSERT_EQ(PR_OK, pr_db_set_options(db, PR_OPTION_SCOPE_FAMILY,
                                       "level0_slowdown_writes_trigger=100;"
                                       "level0_stop_writes_trigger=100",
                                       err, sizeof err))
        << err;
  }
};

TEST_F(WriteStallTest, AWriteStalledForGoodGivesUpOnceTheDatabaseIsClosing) {
  auto put = std::async(std::launch::async, [this] {
    char e[256] = {0};
    int32_t status = pr_db_put(db, bytes("k"), 1, bytes("v"), 1, e, sizeof e);
    return std::make_pair(status, std::string(e));
  });
  // Writes are stopped for good: the put cannot have returned.
  EXPECT_EQ(std::future_status::timeout, put.wait_for(std::chrono::milliseconds(200)))
      << "a put returned while writes were stopped";
  pr_db_set_closing(db, 1);
  if (put.wait_for(std::chrono::minutes(1)) == std::future_status::timeout) {
    ADD_FAILURE() << "a stalled put did not give up once the database was closing";
    RaiseTheStopTrigger();  // lets it end, so the test ends
  }
  auto [status, message] = put.get();
  EXPECT_EQ(PR_CODE_SHUTDOWN_IN_PROGRESS, status);
  EXPECT_EQ("Shutdown in progress: the database is closing", message);
  pr_get_result_t result;
  EXPECT_EQ(PR_NOT_FOUND, Get("k", 8, 0, &result)) << "the put that gave up was applied";
  // A write not stalled is not affected by closing.
  RaiseTheStopTrigger();
  EXPECT_FALSE(WritesStopped());
  Put("k", "v");
  EXPECT_EQ(PR_OK, Get("k", 8, 0, &result));
}

}  // namespace
