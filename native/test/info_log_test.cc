// GoogleTest tests of pinrock.h's info log section: RocksDB's info log in
// its file or on the process's queue.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

// The destination the tests queue to, unless they say otherwise.
constexpr uint64_t kQueued = 7;

// Takes every queued info-log message (waiting up to timeout_ms for the
// first), as "<level> <text>" lines, with the destinations' ends as
// "end <destination>"; the queue is shared by the process.
std::vector<std::string> DrainLog(int64_t timeout_ms) {
  std::vector<std::string> messages;
  int32_t level = -1;
  uint64_t destination = 0;
  uint64_t dropped = 0;
  char text[4096];
  while (pr_log_next(messages.empty() ? timeout_ms : 0, &level, &destination, text, sizeof text,
                     &dropped) == 1) {
    messages.push_back(level == PR_LOG_END ? "end " + std::to_string(destination)
                                           : std::to_string(level) + " " + text);
    EXPECT_TRUE(level == PR_LOG_END || destination == kQueued) << messages.back();
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
    ASSERT_EQ(PR_OK, pr_options_set_info_log(options.handle, level, kQueued, err, sizeof err)) << err;
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
    if (message.rfind("end ", 0) == 0) continue;
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
    if (message.rfind("end ", 0) == 0) continue;
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
            pr_options_set_info_log(options.handle, PR_LOG_HEADER, kQueued, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "info log level must be 0..4, got 5")) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_info_log(options.handle, -1, 0, err, sizeof err));
  EXPECT_EQ(std::vector<std::string>{}, DrainLog(0)) << "a refused destination has no end";

  Queue(PR_LOG_DEBUG);
  UseDatabase(false);
  int32_t level = -1;
  uint64_t destination = 0;
  uint64_t dropped = 99;
  char text[8];
  std::memset(text, 'x', sizeof text);
  ASSERT_EQ(1, pr_log_next(1000, &level, &destination, text, sizeof text, &dropped));
  EXPECT_EQ(7u, std::strlen(text));
  EXPECT_EQ(0u, dropped);
  EXPECT_EQ(1, pr_log_next(0, &level, &destination, nullptr, 0, &dropped));
  DrainLog(0);
  EXPECT_EQ(0, pr_log_next(0, &level, &destination, text, sizeof text, &dropped));
}

TEST_F(InfoLogTest, AFullQueueDropsTheOldestAndCountsThem) {
  Queue(PR_LOG_DEBUG);
  UseDatabase(false);  // creates the database
  DrainLog(1000);
  UseDatabase(false);  // opens it as the loop below does
  size_t per_open = DrainLog(1000).size();
  ASSERT_GT(per_open, 0u);
  // Two opens more than fill the queue of 4096.
  for (size_t i = 0; i < 4096 / per_open + 2; i++) UseDatabase(false);

  // The options' destination ends now, after every message, and its end is never dropped.
  pr_options_destroy(options.handle);
  options.handle = nullptr;
  int32_t level = -1;
  uint64_t destination = 0;
  uint64_t dropped = 0;
  char text[256];
  ASSERT_EQ(1, pr_log_next(0, &level, &destination, text, sizeof text, &dropped));
  EXPECT_GT(dropped, 0u);
  size_t queued = 1;
  while (pr_log_next(0, &level, &destination, text, sizeof text, &dropped) == 1 && level != PR_LOG_END) {
    EXPECT_EQ(0u, dropped);
    queued++;
  }
  EXPECT_EQ(4096u, queued);
  EXPECT_EQ(PR_LOG_END, level);
  EXPECT_EQ(kQueued, destination);
}

TEST_F(InfoLogTest, ADestinationEndsAfterItsLastMessageOnceNothingHoldsIt) {
  Queue(PR_LOG_INFO);
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  // Setting the options again lets go of their hold; the open database holds on.
  ASSERT_EQ(PR_OK, pr_options_set_info_log(options.handle, PR_LOG_INFO, 0, err, sizeof err)) << err;
  std::vector<std::string> open = DrainLog(1000);
  ASSERT_FALSE(open.empty());
  EXPECT_EQ(0, std::count(open.begin(), open.end(), "end " + std::to_string(kQueued)));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  std::vector<std::string> closed = DrainLog(1000);
  ASSERT_FALSE(closed.empty());
  EXPECT_EQ("end " + std::to_string(kQueued), closed.back());
  EXPECT_EQ(1, std::count(closed.begin(), closed.end(), closed.back()));
}

}  // namespace
