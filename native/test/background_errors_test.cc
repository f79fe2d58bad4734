// GoogleTest tests of pinrock.h's background errors: a flush that cannot
// write its table file stops writes, and RocksDB recovers by itself or
// pr_db_resume does. Built with the shim's sources (testing.h's Env hook).
#include "pinrock.h"
#include "test_support.h"
#include "testing.h"

#include <gtest/gtest.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace pinrock_test;

namespace {

// RocksDB's BackgroundErrorReason::kFlushNoWAL: a flush's table file, whatever the log.
constexpr int64_t kBackgroundErrorInFlush = 5;

// A file system whose table files cannot be created while failing is set:
// a retryable I/O error, as a full or flaky disk gives.
class FailingTableFiles : public rocksdb::FileSystemWrapper {
 public:
  FailingTableFiles() : rocksdb::FileSystemWrapper(rocksdb::FileSystem::Default()) {}
  const char* Name() const override { return "FailingTableFiles"; }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* debug) override {
    if (failing.load() && name.size() > 4 && name.compare(name.size() - 4, 4, ".sst") == 0) {
      rocksdb::IOStatus error = rocksdb::IOStatus::IOError("the disk refuses table files");
      error.SetRetryable(true);
      return error;
    }
    return target()->NewWritableFile(name, options, result, debug);
  }

  std::atomic<bool> failing{false};
};

// A flush that cannot write its table file stops writes with a background
// error; options say whether RocksDB recovers by itself once the disk
// takes files again.
class BackgroundErrorTest : public EventQueueTest {
 protected:
  void SetUp() override {
    EventQueueTest::SetUp();
    // RocksDB retries every 50 ms instead of every second.
    ASSERT_EQ(PR_OK, pr_options_set_string(options.handle, PR_OPTION_SCOPE_DB,
                                           "bgerror_resume_retry_interval=50000", err, sizeof err))
        << err;
    pinrock_testing_set_env(options.handle, env);
  }

  // Makes a flush fail: the background error (soft: writes go on into the
  // memtable, flushes are refused).
  void FailAFlush(std::vector<Event>* events) {
    Open();
    ASSERT_EQ(PR_OK, Put("a"));
    disk->failing = true;
    EXPECT_NE(PR_OK, pr_db_flush(db, err, sizeof err));
    ASSERT_TRUE(AwaitEvent(PR_EVENT_BACKGROUND_ERROR, events));
    Event error = events->back();
    EXPECT_EQ(dir.path(), error.String());
    EXPECT_EQ(kBackgroundErrorInFlush, error.Number());
    EXPECT_NE(std::string::npos, error.Status().find("the disk refuses table files"));
    EXPECT_TRUE(error.Done());
    EXPECT_EQ(PR_OK, Put("b")) << err;
  }

  std::shared_ptr<FailingTableFiles> disk = std::make_shared<FailingTableFiles>();
  std::shared_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(disk);
};

TEST_F(BackgroundErrorTest, RocksDbRecoversByItselfOnceTheDiskTakesFilesAgain) {
  std::vector<Event> events;
  FailAFlush(&events);
  disk->failing = false;
  ASSERT_TRUE(AwaitEvent(PR_EVENT_ERROR_RECOVERY_ENDED, &events));
  Event recovery = events.back();
  EXPECT_EQ(dir.path(), recovery.String());
  EXPECT_NE(std::string::npos, recovery.Status().find("the disk refuses table files"));
  EXPECT_EQ("OK", recovery.Status());
  EXPECT_TRUE(recovery.Done());
  EXPECT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  CloseAndDrain();
}

TEST_F(BackgroundErrorTest, WithoutAutoRecoveryFlushesStayRefusedUntilResume) {
  ASSERT_EQ(PR_OK, pr_options_set_auto_recovery(options.handle, 0, err, sizeof err)) << err;
  std::vector<Event> events;
  FailAFlush(&events);
  disk->failing = false;
  // Ten of the retries RocksDB would have made by itself.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_NE(PR_OK, pr_db_flush(db, err, sizeof err));
  EXPECT_NE(std::string::npos, std::string(err).find("the disk refuses table files")) << err;
  EXPECT_EQ(PR_OK, pr_db_resume(db, err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, Put("c")) << err;
  EXPECT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  std::vector<Event> rest = CloseAndDrain();
  EXPECT_TRUE(OfKind(events, PR_EVENT_ERROR_RECOVERY_ENDED).empty());
  std::vector<Event> recoveries = OfKind(rest, PR_EVENT_ERROR_RECOVERY_ENDED);
  ASSERT_EQ(1u, recoveries.size());
  recoveries[0].String();
  recoveries[0].Status();
  EXPECT_EQ("OK", recoveries[0].Status());
}

}  // namespace
