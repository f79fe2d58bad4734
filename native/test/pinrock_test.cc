// GoogleTest tests of the C ABI in pinrock.h, through libpinrock.so exactly
// as a foreign caller sees it.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

TEST(EngineTest, VersionIsTheLinkedRocksDb) { EXPECT_EQ(91000, pr_engine_version()); }

TEST(StatusTest, CodeAndSubcodeAreFoldedIntoOneInt) {
  int32_t status = PR_CODE_IO_ERROR | (PR_SUBCODE_NO_SPACE << 8);
  EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(status));
  EXPECT_EQ(PR_SUBCODE_NO_SPACE, PR_STATUS_SUBCODE(status));
}

TEST(OptionsTest, DestroyAcceptsNull) { pr_options_destroy(nullptr); }

TEST(OptionsTest, SettersRejectInvalidValuesWithAMessage) {
  Options o;
  char err[256] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_compression(o.handle, 6, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "compression type 6")) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_bottommost_compression(o.handle, 99, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_zstd_level(o.handle, 23, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "zstd level 23")) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_block_cache_bytes(o.handle, (1ull << 62) + 1, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_write_buffer_bytes(o.handle, 1024, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_max_open_files(o.handle, 5, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "max open files 5")) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_wal_recovery_mode(o.handle, 4, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "WAL recovery mode 4")) << err;
}

TEST(OptionsTest, SettersAcceptValidValues) {
  Options o;
  EXPECT_EQ(PR_OK, pr_options_set_compression(o.handle, PR_COMPRESSION_ZSTD, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_bottommost_compression(o.handle, PR_COMPRESSION_INHERIT,
                                                         nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_zstd_level(o.handle, -5, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_zstd_level(o.handle, 19, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_block_cache_bytes(o.handle, 0, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_write_buffer_bytes(o.handle, 1 << 20, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_max_open_files(o.handle, -1, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_max_open_files(o.handle, 100, nullptr, 0));
  for (int32_t mode : {PR_WAL_RECOVERY_TOLERATE_CORRUPTED_TAIL, PR_WAL_RECOVERY_SKIP_ANY_CORRUPTED}) {
    EXPECT_EQ(PR_OK, pr_options_set_wal_recovery_mode(o.handle, mode, nullptr, 0));
  }
}

// RocksDB's own range: it would clip a larger memtable to 64 GiB unsaid.
TEST(OptionsTest, WriteBufferIsWithinRocksDBsRange) {
  Options o;
  char err[128];
  EXPECT_EQ(PR_OK, pr_options_set_write_buffer_bytes(o.handle, 64ull << 10, err, sizeof err));
  EXPECT_EQ(PR_OK, pr_options_set_write_buffer_bytes(o.handle, 64ull << 30, err, sizeof err));
  for (uint64_t bytes : {(64ull << 10) - 1, (64ull << 30) + 1, 1ull << 40}) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
              pr_options_set_write_buffer_bytes(o.handle, bytes, err, sizeof err));
    EXPECT_NE(nullptr, std::strstr(err, "outside [64 KiB, 64 GiB]")) << err;
  }
}

TEST(OptionsTest, MessageIsTruncatedToTheCallersBuffer) {
  Options o;
  char err[8];
  std::memset(err, 'x', sizeof err);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_zstd_level(o.handle, 99, err, sizeof err));
  EXPECT_EQ(7u, std::strlen(err));
}

// Takes every queued info-log message (waiting up to timeout_ms for the
// first), as "<level> <text>" lines; the queue is shared by the process.
std::vector<std::string> DrainLog(int64_t timeout_ms) {
  std::vector<std::string> messages;
  int32_t level = -1;
  uint64_t dropped = 0;
  char text[4096];
  while (pr_log_next(messages.empty() ? timeout_ms : 0, &level, text, sizeof text, &dropped) == 1) {
    messages.push_back(std::to_string(level) + " " + text);
  }
  return messages;
}

// Each test starts from an empty queue, with options that create the database.
class InfoLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DrainLog(0);
    pr_options_set_create_if_missing(options.handle, 1);
  }

  // Sends the info log to the queue from level up.
  void Queue(int32_t level) {
    ASSERT_EQ(PR_OK, pr_options_set_info_log(options.handle, level, 1, err, sizeof err)) << err;
  }

  // Opens the database, flushes it when asked, and closes it.
  void UseDatabase(bool flush) {
    pr_db_t* db = nullptr;
    ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
    if (flush) {
      EXPECT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
    }
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }

  TempDir dir;
  Options options;
  char err[256] = {0};
};

TEST_F(InfoLogTest, QueuedMessagesNameTheDatabaseAndNoLogFileIsWritten) {
  Queue(PR_LOG_INFO);
  UseDatabase(true);

  std::vector<std::string> messages = DrainLog(1000);
  ASSERT_FALSE(messages.empty());
  bool header = false;
  bool info = false;
  for (const std::string& message : messages) {
    EXPECT_NE(std::string::npos, message.find(" " + dir.path() + ": ")) << message;
    header |= message.rfind(std::to_string(PR_LOG_HEADER) + " ", 0) == 0 &&
              message.find("RocksDB version: 9.10.0") != std::string::npos;
    info |= message.rfind(std::to_string(PR_LOG_INFO) + " ", 0) == 0;
  }
  EXPECT_TRUE(header) << messages.front();
  EXPECT_TRUE(info);
  EXPECT_FALSE(fs::exists(dir.path() + "/LOG"));
}

TEST_F(InfoLogTest, MessagesBelowTheLevelAreNotQueued) {
  Queue(PR_LOG_WARN);
  UseDatabase(true);
  // Not even the header (version and options), which is informational.
  for (const std::string& message : DrainLog(100)) {
    int32_t level = std::stoi(message);
    EXPECT_TRUE(level >= PR_LOG_WARN && level <= PR_LOG_FATAL) << message;
  }
}

TEST_F(InfoLogTest, TheFileLogIsTheDefaultAndNothingIsQueued) {
  UseDatabase(false);
  EXPECT_TRUE(fs::exists(dir.path() + "/LOG"));
  EXPECT_EQ(std::vector<std::string>{}, DrainLog(0));
}

TEST_F(InfoLogTest, InvalidSettingsAreRejectedAndLongMessagesTruncated) {
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_info_log(options.handle, PR_LOG_HEADER, 1, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "info log level must be 0..4, got 5")) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_info_log(options.handle, -1, 0, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_info_log(options.handle, PR_LOG_INFO, 2, err, sizeof err));

  Queue(PR_LOG_DEBUG);
  UseDatabase(false);
  int32_t level = -1;
  uint64_t dropped = 99;
  char text[8];
  std::memset(text, 'x', sizeof text);
  ASSERT_EQ(1, pr_log_next(1000, &level, text, sizeof text, &dropped));
  EXPECT_EQ(7u, std::strlen(text));
  EXPECT_EQ(0u, dropped);
  EXPECT_EQ(1, pr_log_next(0, &level, nullptr, 0, &dropped));
  DrainLog(0);
  EXPECT_EQ(0, pr_log_next(0, &level, text, sizeof text, &dropped));
}

TEST_F(InfoLogTest, AFullQueueDropsTheOldestAndCountsThem) {
  Queue(PR_LOG_DEBUG);
  UseDatabase(false);
  size_t per_open = DrainLog(1000).size();
  ASSERT_GT(per_open, 0u);
  // Twice as many opens as fill the queue of 4096.
  for (size_t i = 0; i < 2 * (4096 / per_open + 1); i++) UseDatabase(false);

  int32_t level = -1;
  uint64_t dropped = 0;
  char text[256];
  ASSERT_EQ(1, pr_log_next(0, &level, text, sizeof text, &dropped));
  EXPECT_GT(dropped, 0u);
  size_t queued = 1;
  while (pr_log_next(0, &level, text, sizeof text, &dropped) == 1) {
    EXPECT_EQ(0u, dropped);
    queued++;
  }
  EXPECT_EQ(4096u, queued);
}

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

// The lengths are checked before anything is read from the pointers, so a
// short buffer stands in for the oversized arguments.
TEST_F(DbTest, KeysAndValuesBeyondRocksDbsLengthsAreRefusedBeforeRocksDbSeesThem) {
  const uint8_t* data = bytes("k");
  const size_t too_long_key = (size_t{1} << 32) - 8;
  const size_t too_long_value = size_t{1} << 32;
  auto expect_refused = [&](int32_t status, const char* what) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, status) << what;
    EXPECT_NE(nullptr, std::strstr(err, "exceeds the limit")) << what << ": " << err;
  };
  pr_get_result_t result;
  expect_refused(pr_db_put(db, data, too_long_key, data, 1, err, sizeof err), "put key");
  expect_refused(pr_db_put(db, data, 1, data, too_long_value, err, sizeof err), "put value");
  expect_refused(pr_db_delete(db, data, too_long_key, err, sizeof err), "delete");
  expect_refused(pr_db_get(db, data, too_long_key, nullptr, 0, 0, &result, err, sizeof err), "get");
  size_t key_len = too_long_key;
  uint64_t offset = 0, value_len = 0;
  int32_t key_status = PR_OK;
  expect_refused(pr_db_multi_get(db, 1, &data, &key_len, nullptr, 0, &offset, &value_len,
                                 &key_status, err, sizeof err),
                 "multi_get");
  uint64_t size = 0;
  expect_refused(pr_db_compact_range(db, data, too_long_key, nullptr, 0, PR_RANGE_HAS_BEGIN, err,
                                     sizeof err),
                 "compact_range");
  expect_refused(pr_db_approximate_size(db, data, 1, data, too_long_key, &size, err, sizeof err),
                 "approximate_size");
  pr_cursor_t* cursor = nullptr;
  expect_refused(pr_cursor_open(db, nullptr, 0, 0, data, too_long_key, nullptr, 0,
                                PR_RANGE_HAS_BEGIN, &cursor, err, sizeof err),
                 "cursor bound");
  EXPECT_EQ(nullptr, cursor);
  ASSERT_EQ(PR_OK, pr_cursor_open(db, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0, &cursor, err,
                                  sizeof err));
  pr_cursor_entry_t entry;
  expect_refused(
      pr_cursor_move(cursor, PR_CURSOR_SEEK, data, too_long_key, &entry, err, sizeof err), "seek");
  pr_cursor_close(cursor);
  // Nothing was written, and the database works on.
  EXPECT_EQ(PR_NOT_FOUND, Get("k", 16, 0, &result));
  Put("k", "v");
  EXPECT_EQ(PR_OK, Get("k", 16, 0, &result));
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

TEST_F(DbTest, PinReleaseAcceptsNull) { pr_pin_release(nullptr); }

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

TEST_F(DbTest, PropertyReturnsItsFullLengthAndTruncatesToTheBuffer) {
  Put("k", "v");
  char value[4];
  uint64_t length = 0;
  ASSERT_EQ(PR_OK, pr_db_property(db, "rocksdb.stats", value, sizeof value, &length, err,
                                  sizeof err));
  EXPECT_GT(length, sizeof value);
  std::vector<char> full(length);
  ASSERT_EQ(PR_OK, pr_db_property(db, "rocksdb.stats", full.data(), full.size(), &length, err,
                                  sizeof err));
  EXPECT_NE(std::string::npos, std::string(full.data(), length).find("DB Stats"));
}

TEST_F(DbTest, EstimateNumKeysCountsWrites) {
  for (int i = 0; i < 100; i++) Put("key" + std::to_string(i), "v");
  char value[32];
  uint64_t length = 0;
  ASSERT_EQ(PR_OK, pr_db_property(db, "rocksdb.estimate-num-keys", value, sizeof value, &length,
                                  err, sizeof err));
  EXPECT_EQ("100", std::string(value, length));
}

TEST_F(DbTest, UnknownPropertyIsNotFound) {
  char value[8];
  uint64_t length = 7;
  EXPECT_EQ(PR_NOT_FOUND, pr_db_property(db, "rocksdb.no-such-property", value, sizeof value,
                                         &length, err, sizeof err));
  EXPECT_EQ(0u, length);
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

TEST_F(DbTest, MultiGetAnswersEveryKeyInOrder) {
  Put("a", "1");
  Put("c", std::string(100, 'c'));
  Put("d", "");
  std::vector<std::string> names = {"c", "a", "b", "d", "a"};
  std::vector<const uint8_t*> keys;
  std::vector<size_t> lens;
  for (const auto& name : names) {
    keys.push_back(bytes(name));
    lens.push_back(name.size());
  }
  std::vector<uint64_t> offsets(names.size()), value_lens(names.size());
  std::vector<int32_t> statuses(names.size());
  uint8_t buf[64];  // too small for "c"
  ASSERT_EQ(PR_OK, pr_db_multi_get(db, names.size(), keys.data(), lens.data(), buf, sizeof buf,
                                   offsets.data(), value_lens.data(), statuses.data(), err,
                                   sizeof err))
      << err;
  EXPECT_EQ(std::vector<int32_t>({PR_OK, PR_OK, PR_NOT_FOUND, PR_OK, PR_OK}), statuses);
  EXPECT_EQ(100u, value_lens[0]);
  EXPECT_EQ(PR_MULTI_GET_NOT_COPIED, offsets[0]);
  EXPECT_EQ('1', buf[offsets[1]]);
  EXPECT_EQ(0u, value_lens[3]);
  EXPECT_NE(PR_MULTI_GET_NOT_COPIED, offsets[3]);
  EXPECT_EQ('1', buf[offsets[4]]);
  EXPECT_EQ(PR_OK, pr_db_multi_get(db, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr, nullptr,
                                   err, sizeof err));
}

TEST_F(DbTest, MultiGetPinnedPinsEveryFoundValue) {
  Put("a", "first");
  Put("c", std::string(10000, 'c'));
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  Put("a", "memtable");
  std::vector<std::string> keys = {"a", "b", "c"};
  std::vector<const uint8_t*> pointers;
  std::vector<size_t> lengths;
  for (const auto& key : keys) {
    pointers.push_back(bytes(key));
    lengths.push_back(key.size());
  }
  std::vector<pr_get_result_t> results(keys.size());
  std::vector<int32_t> statuses(keys.size());
  ASSERT_EQ(PR_OK, pr_db_multi_get_pinned(db, keys.size(), pointers.data(), lengths.data(),
                                          results.data(), statuses.data(), err, sizeof err));
  EXPECT_EQ((std::vector<int32_t>{PR_OK, PR_NOT_FOUND, PR_OK}), statuses);
  EXPECT_EQ("memtable", std::string(reinterpret_cast<const char*>(results[0].data),
                                    results[0].value_len));
  EXPECT_EQ(nullptr, results[1].pin);
  EXPECT_EQ(10000u, results[2].value_len);
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  db = nullptr;
  // The pins outlive the database.
  EXPECT_EQ('c', results[2].data[9999]);
  for (auto& result : results) pr_pin_release(result.pin);
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err));
}

TEST_F(DbTest, SnapshotReadsSeeThePastAndFlagsAreApplied) {
  Put("k", "old");
  pr_snapshot_t* snapshot = nullptr;
  ASSERT_EQ(PR_OK, pr_db_snapshot_create(db, &snapshot, err, sizeof err));
  ASSERT_NE(nullptr, snapshot);
  Put("k", "new");
  Put("later", "x");
  uint8_t buf[16];
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, pr_db_get_at(db, snapshot, 0, bytes("k"), 1, buf, sizeof buf, 0, &result, err,
                                sizeof err));
  EXPECT_EQ("old", std::string(reinterpret_cast<const char*>(buf), result.value_len));
  EXPECT_EQ(PR_NOT_FOUND, pr_db_get_at(db, snapshot, 0, bytes("later"), 5, buf, sizeof buf, 0,
                                       &result, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_get_at(db, nullptr, PR_READ_SKIP_FILL_CACHE | PR_READ_SKIP_CHECKSUMS,
                                bytes("k"), 1, buf, sizeof buf, 0, &result, err, sizeof err));
  EXPECT_EQ("new", std::string(reinterpret_cast<const char*>(buf), result.value_len));
  pr_db_snapshot_release(db, snapshot);
  pr_db_snapshot_release(db, nullptr);
}

TEST_F(DbTest, MemoryOnlyReadOfAnUncachedTableFileIsIncomplete) {
  Put("k", "v");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err));
  uint8_t buf[16];
  pr_get_result_t result;
  EXPECT_EQ(PR_CODE_INCOMPLETE,
            PR_STATUS_CODE(pr_db_get_at(db, nullptr, PR_READ_MEMORY_ONLY, bytes("k"), 1, buf,
                                        sizeof buf, 0, &result, err, sizeof err)));
  ASSERT_EQ(PR_OK, Get("k", 16, 0, &result));  // a normal read fills the cache
  EXPECT_EQ(PR_OK, pr_db_get_at(db, nullptr, PR_READ_MEMORY_ONLY, bytes("k"), 1, buf, sizeof buf,
                                0, &result, err, sizeof err));
}

// A cursor's entry as (key, value) strings; empty optional-like marker when off.
std::string Entry(const pr_cursor_entry_t& entry) {
  return std::string(reinterpret_cast<const char*>(entry.key), entry.key_len) + "=" +
         std::string(reinterpret_cast<const char*>(entry.value), entry.value_len);
}

// Opens a cursor over the latest state with optional bounds.
pr_cursor_t* OpenCursor(pr_db_t* db, uint32_t bounds = 0, const std::string& lower = "",
                        const std::string& upper = "", uint32_t read_flags = 0) {
  pr_cursor_t* cursor = nullptr;
  char err[256];
  EXPECT_EQ(PR_OK, pr_cursor_open(db, nullptr, read_flags, 0, bytes(lower), lower.size(),
                                  bytes(upper), upper.size(), bounds, &cursor, err, sizeof err))
      << err;
  return cursor;
}

// Moves a cursor and returns its entry, or "end" / "error <status>".
std::string Move(pr_cursor_t* cursor, int32_t op, const std::string& key = "") {
  pr_cursor_entry_t entry;
  char err[256];
  int32_t status = pr_cursor_move(cursor, op, bytes(key), key.size(), &entry, err, sizeof err);
  if (status == PR_NOT_FOUND) return entry.key == nullptr && entry.key_len == 0 ? "end" : "bad";
  if (status != PR_OK) return "error " + std::to_string(PR_STATUS_CODE(status));
  return Entry(entry);
}

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

TEST_F(DbTest, MemoryOnlyCursorOverAnUncachedTableFileIsIncomplete) {
  Put("k", "v");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err));
  pr_cursor_t* cursor = OpenCursor(db, 0, "", "", PR_READ_MEMORY_ONLY);
  EXPECT_EQ("error 7", Move(cursor, PR_CURSOR_FIRST));
  pr_cursor_close(cursor);
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

// Index of a statistic's name in pr_ticker_name / pr_histogram_name order.
size_t StatisticIndex(const char* (*name_of)(size_t), size_t count, const std::string& name) {
  for (size_t i = 0; i < count; i++) {
    if (name == name_of(i)) return i;
  }
  ADD_FAILURE() << "no statistic named " << name;
  return 0;
}

TEST(StatisticsTest, TickersAndPerActivityFileReadHistogramsCountTheWork) {
  TempDir dir;
  Options options;
  char err[256];
  pr_options_set_create_if_missing(options.handle, 1);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_statistics(options.handle, 6, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_statistics(options.handle, -1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_statistics(options.handle, 4, err, sizeof err)) << err;
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  for (int i = 0; i < 10; i++) {
    std::string key = "k" + std::to_string(i);
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes("v"), 1, err, sizeof err));
  }
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  uint8_t buf[8];
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, pr_db_get(db, bytes("k3"), 2, buf, sizeof buf, 0, &result, err, sizeof err));

  size_t n_tickers = pr_ticker_count();
  size_t n_histograms = pr_histogram_count();
  ASSERT_GT(n_tickers, 100u);
  EXPECT_EQ(nullptr, pr_ticker_name(n_tickers));
  EXPECT_EQ(nullptr, pr_histogram_name(n_histograms));
  std::vector<uint64_t> tickers(n_tickers);
  std::vector<pr_histogram_t> histograms(n_histograms);
  ASSERT_EQ(PR_OK, pr_db_statistics(db, tickers.data(), n_tickers, histograms.data(), n_histograms,
                                    err, sizeof err))
      << err;
  EXPECT_EQ(10u, tickers[StatisticIndex(pr_ticker_name, n_tickers, "rocksdb.number.keys.written")]);
  EXPECT_EQ(1u, tickers[StatisticIndex(pr_ticker_name, n_tickers, "rocksdb.number.keys.read")]);
  EXPECT_EQ(1u, histograms[StatisticIndex(pr_histogram_name, n_histograms, "rocksdb.db.get.micros")].count);
  const pr_histogram_t& file_reads =
      histograms[StatisticIndex(pr_histogram_name, n_histograms, "rocksdb.file.read.get.micros")];
  EXPECT_GE(file_reads.count, 1u);
  EXPECT_GE(file_reads.max, file_reads.min);
  EXPECT_GE(histograms[StatisticIndex(pr_histogram_name, n_histograms,
                                      "rocksdb.file.write.flush.micros")].count, 1u);

  ASSERT_EQ(PR_OK, pr_db_statistics_reset(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_statistics(db, tickers.data(), n_tickers, histograms.data(), n_histograms,
                                    err, sizeof err));
  EXPECT_EQ(0u, tickers[StatisticIndex(pr_ticker_name, n_tickers, "rocksdb.number.keys.written")]);
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
}

TEST_F(DbTest, StatisticsOfADatabaseOpenedWithoutThemAreNotSupported) {
  uint64_t ticker = 0;
  EXPECT_EQ(PR_CODE_NOT_SUPPORTED, pr_db_statistics(db, &ticker, 1, nullptr, 0, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "without statistics"));
  EXPECT_EQ(PR_CODE_NOT_SUPPORTED, pr_db_statistics_reset(db, err, sizeof err));
}

TEST_F(DbTest, MemoryUsageReportsMemtablesCacheAndPins) {
  pr_memory_usage_t empty;
  ASSERT_EQ(PR_OK, pr_db_memory_usage(db, &empty, err, sizeof err)) << err;
  for (int i = 0; i < 1000; i++) Put("key" + std::to_string(i), std::string(100, 'v'));
  pr_memory_usage_t written;
  ASSERT_EQ(PR_OK, pr_db_memory_usage(db, &written, err, sizeof err));
  EXPECT_GT(written.memtables, empty.memtables);
  EXPECT_GE(written.memtables, written.memtables_unflushed);
  EXPECT_GT(written.memtables_unflushed, 100u * 1000u);
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, Get("key1", 0, PR_GET_PIN_IF_LARGER, &result));  // pins a cached block
  pr_memory_usage_t read;
  ASSERT_EQ(PR_OK, pr_db_memory_usage(db, &read, err, sizeof err));
  EXPECT_GT(read.block_cache, 0u);
  EXPECT_GT(read.block_cache_pinned, 0u);
  EXPECT_GT(read.table_readers, 0u);
  pr_pin_release(result.pin);
}

// The NUL-separated names pr_db_family_names / pr_db_list_families write.
std::vector<std::string> Names(const std::vector<char>& buf, uint64_t length) {
  std::vector<std::string> names;
  for (size_t at = 0; at < length; at += names.back().size() + 1) {
    names.emplace_back(buf.data() + at);
  }
  return names;
}

std::string Value(pr_db_t* db, const std::string& key) {
  std::vector<uint8_t> buf(64);
  pr_get_result_t result;
  char err[256];
  int32_t status =
      pr_db_get(db, bytes(key), key.size(), buf.data(), buf.size(), 0, &result, err, sizeof err);
  if (status == PR_NOT_FOUND) return "absent";
  if (status != PR_OK) return "error " + std::to_string(PR_STATUS_CODE(status));
  return std::string(reinterpret_cast<const char*>(buf.data()), result.value_len);
}

TEST_F(DbTest, ColumnFamiliesAreSeparateKeySpacesWrittenTogetherByABatch) {
  pr_db_t* users = nullptr;
  ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "users", &users, err, sizeof err)) << err;
  pr_db_t* duplicate = users;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_create_family(db, nullptr, "users", &duplicate, err, sizeof err)));
  EXPECT_EQ(nullptr, duplicate);
  pr_db_t* found = nullptr;
  ASSERT_EQ(PR_OK, pr_db_family(db, "users", &found, err, sizeof err));
  EXPECT_EQ(users, found);
  EXPECT_EQ(PR_NOT_FOUND, pr_db_family(db, "nobody", &found, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_family(users, "default", &found, err, sizeof err));
  EXPECT_EQ(db, found);
  EXPECT_EQ(0u, pr_db_family_id(db));
  EXPECT_NE(0u, pr_db_family_id(users));

  Put("k", "in default");
  ASSERT_EQ(PR_OK, pr_db_put(users, bytes("k"), 1, bytes("in users"), 8, err, sizeof err));
  EXPECT_EQ("in default", Value(db, "k"));
  EXPECT_EQ("in users", Value(users, "k"));
  Batch batch;
  batch.PutInFamily(pr_db_family_id(users), "b", "batched").Put("b", "plain");
  ASSERT_EQ(PR_OK, pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)) << err;
  EXPECT_EQ("batched", Value(users, "b"));
  EXPECT_EQ("plain", Value(db, "b"));
  Batch merge;
  merge.MergeInFamily(pr_db_family_id(users), "m", "x");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_write(db, merge.data(), merge.size(), 0, err, sizeof err)));
  EXPECT_NE(nullptr, std::strstr(err, "'users'")) << err;

  pr_cursor_t* cursor = nullptr;
  ASSERT_EQ(PR_OK, pr_cursor_open(users, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0, &cursor, err,
                                  sizeof err));
  EXPECT_EQ("b=batched", Move(cursor, PR_CURSOR_FIRST));
  EXPECT_EQ("k=in users", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_NEXT));
  pr_cursor_close(cursor);
  ASSERT_EQ(PR_OK, pr_db_flush(users, err, sizeof err));
  uint64_t keys = 0;
  ASSERT_EQ(PR_OK, pr_db_property_int(users, "rocksdb.estimate-num-keys", &keys, err, sizeof err));
  EXPECT_EQ(2u, keys);

  std::vector<char> names(64);
  uint64_t length = 0;
  ASSERT_EQ(PR_OK, pr_db_family_names(users, names.data(), names.size(), &length, err, sizeof err));
  EXPECT_EQ((std::vector<std::string>{"default", "users"}), Names(names, length));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(pr_db_close(users, err, sizeof err)));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(pr_db_drop_family(db, err, sizeof err)));
}

TEST_F(DbTest, DroppedFamiliesDisappearAndTheirHandlesStaySafe) {
  pr_db_t* temp = nullptr;
  ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "temp", &temp, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_put(temp, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  uint32_t id = pr_db_family_id(temp);
  ASSERT_EQ(PR_OK, pr_db_drop_family(temp, err, sizeof err)) << err;
  pr_db_t* found = nullptr;
  EXPECT_EQ(PR_NOT_FOUND, pr_db_family(db, "temp", &found, err, sizeof err));
  Batch batch;
  batch.PutInFamily(id, "k", "v");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)));
  // The handle stays valid: a write reports the drop instead of crashing.
  EXPECT_NE(PR_OK, pr_db_put(temp, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err));
  EXPECT_EQ(PR_NOT_FOUND, pr_db_family(db, "temp", &found, err, sizeof err));
}

// RocksDB writes a group of concurrent writes to the log together, then
// applies them one by one; one that fails there (a write to a family dropped
// since the shim checked it) used to fail every write of its group, applied
// ones included. A drop racing writes to its family must fail no other write.
TEST_F(DbTest, ADropRacingWritesToItsFamilyFailsNoOtherWrite) {
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::string failure;
  std::mutex failure_mutex;
  std::thread default_writer([&] {
    char e[256] = {0};
    for (int i = 0; !stop; i++) {
      std::string key = "d" + std::to_string(i % 1000);
      if (pr_db_put(db, bytes(key), key.size(), bytes(key), key.size(), e, sizeof e) != PR_OK) {
        failures++;
        std::lock_guard<std::mutex> lock(failure_mutex);
        failure = e;
      }
    }
  });
  for (int round = 0; round < 20; round++) {
    pr_db_t* family = nullptr;
    std::string name = "f" + std::to_string(round);
    ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, name.c_str(), &family, err, sizeof err));
    std::atomic<bool> dropped{false};
    std::vector<std::thread> family_writers;
    for (int t = 0; t < 2; t++) {
      family_writers.emplace_back([&dropped, family] {
        char e[256] = {0};
        // Writes until after the drop: those under way as it happens reach RocksDB after it.
        while (!dropped) pr_db_put(family, bytes("k"), 1, bytes("v"), 1, e, sizeof e);
        for (int i = 0; i < 100; i++) pr_db_put(family, bytes("k"), 1, bytes("v"), 1, e, sizeof e);
      });
    }
    usleep(2000);
    ASSERT_EQ(PR_OK, pr_db_drop_family(family, err, sizeof err)) << err;
    dropped = true;
    for (std::thread& writer : family_writers) writer.join();
  }
  stop = true;
  default_writer.join();
  EXPECT_EQ(0, failures.load()) << failure;
}

TEST_F(DbTest, ReopeningOpensEveryFamilyWithItsOwnOptions) {
  pr_db_t* counters = nullptr;
  Options counter_options;
  ASSERT_EQ(PR_OK, pr_options_set_merge_operator(counter_options.handle, "uint64add", err,
                                                 sizeof err));
  ASSERT_EQ(PR_OK, pr_db_create_family(db, counter_options.handle, "counters", &counters, err,
                                       sizeof err));
  ASSERT_EQ(PR_OK, pr_db_put(counters, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));

  std::vector<char> names(64);
  uint64_t length = 0;
  ASSERT_EQ(PR_OK, pr_db_list_families(nullptr, dir.path().c_str(), names.data(), names.size(),
                                       &length, err, sizeof err));
  EXPECT_EQ((std::vector<std::string>{"default", "counters"}), Names(names, length));
  EXPECT_EQ(PR_CODE_IO_ERROR,
            PR_STATUS_CODE(pr_db_list_families(nullptr, dir.path("none").c_str(), names.data(),
                                               names.size(), &length, err, sizeof err)));

  ASSERT_EQ(PR_OK, pr_options_set_family_options(options.handle, "counters",
                                                 counter_options.handle, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_family(db, "counters", &counters, err, sizeof err));
  EXPECT_EQ("v", Value(counters, "k"));
  Batch merge;
  uint64_t one = 1;
  merge.MergeInFamily(pr_db_family_id(counters), "n", std::string(reinterpret_cast<char*>(&one), 8))
      .MergeInFamily(pr_db_family_id(counters), "n", std::string(reinterpret_cast<char*>(&one), 8));
  ASSERT_EQ(PR_OK, pr_db_write(db, merge.data(), merge.size(), 0, err, sizeof err)) << err;
  std::string sum = Value(counters, "n");
  ASSERT_EQ(8u, sum.size());
  uint64_t total = 0;
  std::memcpy(&total, sum.data(), 8);
  EXPECT_EQ(2u, total);
}

TEST_F(DbTest, CompactRangeMergesTableFilesIntoOne) {
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 100; i++) Put("key" + std::to_string(i), "round" + std::to_string(round));
    ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  }
  char files[16];
  uint64_t length = 0;
  ASSERT_EQ(PR_OK, pr_db_property(db, "rocksdb.num-files-at-level0", files, sizeof files, &length,
                                  err, sizeof err));
  EXPECT_EQ("3", std::string(files, length));
  ASSERT_EQ(PR_OK, pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_property(db, "rocksdb.num-files-at-level0", files, sizeof files, &length,
                                  err, sizeof err));
  EXPECT_EQ("0", std::string(files, length));
  // Bounded on both sides also works; the data is intact.
  ASSERT_EQ(PR_OK, pr_db_compact_range(db, bytes("key1"), 4, bytes("key5"), 4,
                                       PR_RANGE_HAS_BEGIN | PR_RANGE_HAS_END, err, sizeof err));
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, Get("key42", 16, 0, &result));
  EXPECT_EQ("round2", std::string(reinterpret_cast<const char*>(buffer.data()), result.value_len));
}

TEST_F(DbTest, ApproximateSizeGrowsWithTheData) {
  uint64_t empty = 1;
  ASSERT_EQ(PR_OK, pr_db_approximate_size(db, bytes("a"), 1, bytes("z"), 1, &empty, err, sizeof err));
  EXPECT_EQ(0u, empty);
  for (int i = 0; i < 1000; i++) Put("k" + std::to_string(i), std::string(1000, 'v'));
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  uint64_t size = 0;
  ASSERT_EQ(PR_OK, pr_db_approximate_size(db, bytes("a"), 1, bytes("z"), 1, &size, err, sizeof err));
  EXPECT_GT(size, 10u * 1000u);  // 1 MB of very compressible values, LZ4-compressed
}

TEST_F(DbTest, CheckpointIsAnOpenableCopy) {
  Put("k", "v");
  std::string copy = dir.path("checkpoint");
  ASSERT_EQ(PR_OK, pr_db_checkpoint(db, copy.c_str(), err, sizeof err)) << err;
  Put("after", "v");
  EXPECT_NE(PR_OK, pr_db_checkpoint(db, copy.c_str(), err, sizeof err));  // exists
  pr_db_t* copied = nullptr;
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, copy.c_str(), &copied, err, sizeof err)) << err;
  uint8_t buf[8];
  pr_get_result_t result;
  EXPECT_EQ(PR_OK, pr_db_get(copied, bytes("k"), 1, buf, sizeof buf, 0, &result, err, sizeof err));
  EXPECT_EQ(PR_NOT_FOUND,
            pr_db_get(copied, bytes("after"), 5, buf, sizeof buf, 0, &result, err, sizeof err));
  EXPECT_EQ(PR_OK, pr_db_close(copied, err, sizeof err));
}

TEST_F(DbTest, RepairRebuildsADatabaseWhoseManifestAndCurrentAreLost) {
  Put("k1", "v1");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  Put("k2", "v2");  // only in the write-ahead log
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  db = nullptr;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    std::string name = entry.path().filename().string();
    if (name == "CURRENT" || name.rfind("MANIFEST-", 0) == 0) fs::remove(entry.path());
  }
  pr_options_set_create_if_missing(options.handle, 0);
  EXPECT_NE(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err));
  EXPECT_EQ(nullptr, db);

  ASSERT_EQ(PR_OK, pr_db_repair(options.handle, dir.path().c_str(), err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  pr_get_result_t result;
  for (const char* key : {"k1", "k2"}) {
    ASSERT_EQ(PR_OK, Get(key, 16, 0, &result)) << key << ": " << err;
    EXPECT_EQ(std::string(key[1] == '1' ? "v1" : "v2"),
              std::string(reinterpret_cast<char*>(buffer.data()), result.value_len));
  }
}

TEST(RepairTest, RepairOfAMissingDirectoryIsAnError) {
  TempDir dir;
  char err[256] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_db_repair(nullptr, dir.path("absent").c_str(), err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "no database directory")) << err;
  EXPECT_FALSE(fs::exists(dir.path("absent")));
}

TEST_F(DbTest, IntegerPropertiesAnswerAndOthersAreNotFound) {
  Put("k", "v");
  uint64_t value = 0;
  ASSERT_EQ(PR_OK, pr_db_property_int(db, "rocksdb.num-entries-active-mem-table", &value, err,
                                      sizeof err));
  EXPECT_EQ(1u, value);
  EXPECT_EQ(PR_NOT_FOUND, pr_db_property_int(db, "rocksdb.stats", &value, err, sizeof err));
  EXPECT_EQ(PR_NOT_FOUND, pr_db_property_int(db, "rocksdb.nope", &value, err, sizeof err));
}

TEST_F(DbTest, IngestMovesAFinishedTableFileIn) {
  std::string path = dir.path("bulk.sst");
  pr_sst_writer_t* writer = nullptr;
  ASSERT_EQ(PR_OK, pr_sst_writer_open(options.handle, path.c_str(), &writer, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_sst_writer_put(writer, bytes("a"), 1, bytes("1"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_sst_writer_put(writer, bytes("b"), 1, bytes("2"), 1, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_sst_writer_put(writer, bytes("a"), 1, bytes("x"), 1, err, sizeof err)));
  ASSERT_EQ(PR_OK, pr_sst_writer_delete(writer, bytes("c"), 1, err, sizeof err));
  uint64_t size = 0;
  ASSERT_EQ(PR_OK, pr_sst_writer_finish(writer, &size, err, sizeof err)) << err;
  EXPECT_GT(size, 0u);
  pr_sst_writer_destroy(writer);
  struct stat before;
  ASSERT_EQ(0, stat(path.c_str(), &before));
  Put("c", "old");
  const char* paths[] = {path.c_str()};
  ASSERT_EQ(PR_OK, pr_db_ingest(db, paths, 1, PR_INGEST_MOVE, err, sizeof err)) << err;
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, Get("b", 8, 0, &result));
  EXPECT_EQ(PR_NOT_FOUND, Get("c", 8, 0, &result));  // the file's deletion is newer
  // Moved, not copied: the original name is gone, the inode lives on in the database.
  struct stat after;
  EXPECT_NE(0, stat(path.c_str(), &after));
  bool same_inode = false;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".sst" && stat(entry.path().c_str(), &after) == 0) {
      same_inode = same_inode || after.st_ino == before.st_ino;
    }
  }
  EXPECT_TRUE(same_inode);
  pr_sst_writer_destroy(nullptr);
}

TEST_F(DbTest, IngestOfAMissingFileIsAnError) {
  std::string missing = dir.path("missing.sst");
  const char* paths[] = {missing.c_str()};
  EXPECT_NE(PR_OK, pr_db_ingest(db, paths, 1, PR_INGEST_MOVE, err, sizeof err));
  pr_sst_writer_t* writer = nullptr;
  ASSERT_EQ(PR_OK, pr_sst_writer_open(nullptr, dir.path("empty.sst").c_str(), &writer, err,
                                      sizeof err));
  uint64_t size = 0;
  EXPECT_NE(PR_OK, pr_sst_writer_finish(writer, &size, err, sizeof err));
  pr_sst_writer_destroy(writer);
}

// Whether either database has a memtable awaiting or undergoing a flush.
bool Pending(pr_db_t* const (&dbs)[2]) {
  char err[256] = {0};
  for (pr_db_t* db : dbs) {
    for (const char* name : {"rocksdb.mem-table-flush-pending", "rocksdb.num-running-flushes",
                             "rocksdb.num-immutable-mem-table"}) {
      uint64_t value = 0;
      EXPECT_EQ(PR_OK, pr_db_property_int(db, name, &value, err, sizeof err)) << err;
      if (value > 0) return true;
    }
  }
  return false;
}

TEST(MemoryBudgetTest, TwoDatabasesStayWithinOneCap) {
  TempDir dir;
  char err[256] = {0};
  constexpr uint64_t kTotal = 8ull << 20;
  constexpr uint64_t kMemtables = 4ull << 20;
  pr_memory_budget_t* budget = nullptr;
  ASSERT_EQ(PR_OK, pr_memory_budget_create(kTotal, kMemtables, &budget, err, sizeof err)) << err;
  Options o;
  pr_options_set_create_if_missing(o.handle, 1);
  ASSERT_EQ(PR_OK, pr_options_set_memory_budget(o.handle, budget, err, sizeof err));
  pr_memory_budget_destroy(budget);  // the options keep the budget alive
  pr_db_t* dbs[2] = {nullptr, nullptr};
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path("a").c_str(), &dbs[0], err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path("b").c_str(), &dbs[1], err, sizeof err)) << err;
  // 2 x 32 MiB written, far beyond the cap, with no explicit flush.
  std::string value(1024, 'v');
  for (int i = 0; i < 32 * 1024; i++) {
    std::string key = "key" + std::to_string(i);
    for (pr_db_t* db : dbs) {
      ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err,
                                 sizeof err));
    }
  }
  // Flushes run in the background, and the write-buffer manager acts on writes
  // only: a memtable that grew while its database's previous flush was still
  // running is flushed by that database's next write. Write one more key to
  // each until they settle.
  uint64_t memtables = 0;
  for (int extra = 0;; extra++) {
    for (int wait = 0; wait < 6000 && Pending(dbs); wait++) usleep(10000);
    memtables = 0;
    for (pr_db_t* db : dbs) {
      uint64_t size = 0;
      ASSERT_EQ(PR_OK, pr_db_property_int(db, "rocksdb.cur-size-all-mem-tables", &size, err,
                                          sizeof err));
      memtables += size;
    }
    if (memtables <= kMemtables * 3 / 2 || extra == 100) break;
    std::string key = "extra" + std::to_string(extra);
    for (pr_db_t* db : dbs) {
      ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err,
                                 sizeof err));
    }
  }
  // The write-buffer manager flushes once memtables pass the memtable share
  // (a memtable being flushed may still count, hence the slack).
  EXPECT_LE(memtables, kMemtables * 3 / 2);
  for (pr_db_t* db : dbs) EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
}

TEST(MemoryBudgetTest, InvalidBudgetsAreRejected) {
  char err[256] = {0};
  pr_memory_budget_t* budget = reinterpret_cast<pr_memory_budget_t*>(0x1);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_memory_budget_create(0, 0, &budget, err, sizeof err));
  EXPECT_EQ(nullptr, budget);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_memory_budget_create(10, 11, &budget, err, sizeof err));
  pr_memory_budget_destroy(nullptr);
}

TEST(MergeTest, Uint64AddSumsMergedValues) {
  TempDir dir;
  Options o;
  char err[256] = {0};
  pr_db_t* db = nullptr;
  pr_options_set_create_if_missing(o.handle, 1);
  ASSERT_EQ(PR_OK, pr_options_set_merge_operator(o.handle, "uint64add", err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  std::string one("\x01\0\0\0\0\0\0\0", 8);
  Batch batch;
  batch.Merge("counter", one).Merge("counter", one).Merge("counter", one);
  ASSERT_EQ(PR_OK, pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)) << err;
  uint8_t buf[8];
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, pr_db_get(db, bytes("counter"), 7, buf, sizeof buf, 0, &result, err, sizeof err));
  EXPECT_EQ(8u, result.value_len);
  EXPECT_EQ(3, buf[0]);
  EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
}

TEST(MergeTest, UnknownMergeOperatorIsInvalidArgument) {
  Options o;
  char err[256] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_merge_operator(o.handle, "no-such-operator", err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "no-such-operator")) << err;
}

// The content of every file in dir whose name starts with prefix and ends
// with suffix.
std::vector<std::string> files_named(const std::string& dir, const std::string& prefix,
                                     const std::string& suffix) {
  std::vector<std::string> contents;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.size() < prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    contents.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return contents;
}

// Writes 1000 highly compressible 1000-byte values and flushes them.
void write_compressible(pr_db_t* db) {
  char err[256] = {0};
  std::string value(1000, 'z');
  for (int i = 0; i < 1000; i++) {
    std::string key = "key" + std::to_string(i);
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err,
                               sizeof err));
  }
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
}

TEST(CompressionTest, PerLevelDictionaryAndThreadsReachTheFiles) {
  TempDir dir;
  Options o;
  char err[256] = {0};
  pr_db_t* db = nullptr;
  pr_options_set_create_if_missing(o.handle, 1);
  // With RocksDB's dynamic level sizes, entry 0 is L0 and entry 1 the level
  // L0 compacts into (here the last one).
  int32_t levels[] = {PR_COMPRESSION_NONE, PR_COMPRESSION_ZSTD};
  ASSERT_EQ(PR_OK, pr_options_set_compression_per_level(o.handle, levels, 2, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_bottommost_compression(o.handle, PR_COMPRESSION_INHERIT, err,
                                                         sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_zstd_dictionary(o.handle, 4096, 0, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_compression_threads(o.handle, 3, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  write_compressible(db);
  auto level0 = files_named(dir.path(), "", ".sst");
  ASSERT_EQ(1u, level0.size());
  EXPECT_NE(std::string::npos, level0[0].find("NoCompression"));
  // Compaction moves the data to the last level: zstd with a dictionary.
  ASSERT_EQ(PR_OK, pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err));
  auto bottom = files_named(dir.path(), "", ".sst");
  ASSERT_EQ(1u, bottom.size());
  EXPECT_NE(std::string::npos, bottom[0].find("ZSTD"));
  EXPECT_NE(std::string::npos, bottom[0].find("max_dict_bytes=4096"));
  EXPECT_NE(std::string::npos, bottom[0].find("rocksdb.compression_dict"));
  // RocksDB records the thread count in the OPTIONS file, not in table files.
  bool threads_recorded = false;
  for (const auto& text : files_named(dir.path(), "OPTIONS-", "")) {
    threads_recorded = threads_recorded || text.find("parallel_threads=3") != std::string::npos;
  }
  EXPECT_TRUE(threads_recorded);
  EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
}

TEST(CompressionTest, InvalidCompressionOptionsAreRejected) {
  Options o;
  char err[256] = {0};
  int32_t bad[] = {PR_COMPRESSION_NONE, 42};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_compression_per_level(o.handle, bad, 2, err, sizeof err));
  int32_t many[8] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_compression_per_level(o.handle, many, 8, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_zstd_dictionary(o.handle, 4096, 100, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_compression_threads(o.handle, 0, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_compression_threads(o.handle, 65, err, sizeof err));
}

TEST(CompressionTest, ZstdReachesTheTableFiles) {
  TempDir dir;
  Options o;
  char err[256] = {0};
  pr_db_t* db = nullptr;
  pr_options_set_create_if_missing(o.handle, 1);
  ASSERT_EQ(PR_OK, pr_options_set_compression(o.handle, PR_COMPRESSION_ZSTD, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  write_compressible(db);
  // A table file records its compression, uncompressed, in its properties
  // block; and 1000 highly compressible 1000-byte values must shrink.
  auto tables = files_named(dir.path(), "", ".sst");
  ASSERT_EQ(1u, tables.size());
  EXPECT_NE(std::string::npos, tables[0].find("ZSTD"));
  EXPECT_LT(tables[0].size(), 1000u * 1000u / 10u);
  EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
}

}  // namespace
