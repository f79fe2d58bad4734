// GoogleTest tests of pinrock.h's shared I/O limits section: a rate limiter
// and an SST file manager shared by databases, and the values they refuse.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <memory>
#include <random>
#include <string>
#include <thread>

using namespace pinrock_test;

namespace {

// Writes count keys of 1 KiB values to db and flushes them to a table file.
void WriteAndFlush(pr_db_t* db, const std::string& prefix, int count) {
  char err[256] = {0};
  std::string value(1024, 'v');
  for (int i = 0; i < count; i++) {
    std::string key = prefix + std::to_string(i);
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err,
                               sizeof err))
        << err;
  }
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
}

bool Present(pr_db_t* db, const std::string& key) {
  char err[256] = {0};
  uint8_t buf[8];
  pr_get_result_t result;
  int32_t status = pr_db_get(db, bytes(key), key.size(), buf, sizeof buf, 0, &result, err,
                             sizeof err);
  EXPECT_TRUE(status == PR_OK || status == PR_NOT_FOUND) << err;
  return status == PR_OK;
}

TEST(RateLimiterTest, RefusesValuesRocksDbWouldDivideByOrNeverGrant) {
  char err[256] = {0};
  pr_rate_limiter_t* limiter = reinterpret_cast<pr_rate_limiter_t*>(1);
  // (rate, refill period, fairness, mode, auto-tuned): each refused.
  const struct {
    int64_t rate, period;
    int32_t fairness, mode, auto_tuned;
  } refused[] = {
      {0, 100000, 10, PR_RATE_LIMIT_WRITES, 0},           // divides by zero
      {-1, 100000, 10, PR_RATE_LIMIT_WRITES, 0},          // negative
      {9, 100000, 10, PR_RATE_LIMIT_WRITES, 0},           // 0.9 bytes a period
      {199, 100000, 10, PR_RATE_LIMIT_WRITES, 1},         // auto-tuned down to 0.9
      {1 << 20, 999, 10, PR_RATE_LIMIT_WRITES, 0},        // period too short
      {1 << 20, 10000001, 10, PR_RATE_LIMIT_WRITES, 0},   // period too long
      {1 << 20, 100000, 0, PR_RATE_LIMIT_WRITES, 0},      // fairness
      {1 << 20, 100000, 101, PR_RATE_LIMIT_WRITES, 0},
      {1 << 20, 100000, 10, -1, 0},                       // mode
      {1 << 20, 100000, 10, PR_RATE_LIMIT_ALL + 1, 0},
  };
  for (const auto& r : refused) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
              pr_rate_limiter_create(r.rate, r.period, r.fairness, r.mode, r.auto_tuned, &limiter,
                                     err, sizeof err))
        << r.rate << " " << r.period << " " << r.fairness << " " << r.mode;
    EXPECT_EQ(nullptr, limiter);
  }
  EXPECT_NE(std::string(err).find("mode must be 0..2, got 3"), std::string::npos) << err;

  // The smallest rates that refill a byte a period are accepted.
  ASSERT_EQ(PR_OK, pr_rate_limiter_create(10, 100000, 10, PR_RATE_LIMIT_WRITES, 0, &limiter, err,
                                          sizeof err))
      << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_rate_limiter_set_bytes_per_second(limiter, 0, err, sizeof err));
  EXPECT_NE(std::string(err).find("refills nothing"), std::string::npos) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_rate_limiter_set_bytes_per_second(limiter, 9, err, sizeof err));
  EXPECT_EQ(10, pr_rate_limiter_read(limiter, PR_RATE_LIMITER_BYTES_PER_SECOND));
  EXPECT_EQ(-1, pr_rate_limiter_read(limiter, 3));
  pr_rate_limiter_destroy(limiter);
  ASSERT_EQ(PR_OK, pr_rate_limiter_create(200, 100000, 10, PR_RATE_LIMIT_WRITES, 1, &limiter, err,
                                          sizeof err))
      << err;
  pr_rate_limiter_destroy(limiter);
  pr_rate_limiter_destroy(nullptr);
}

TEST(RateLimiterTest, CountsTheFlushesOfEveryDatabaseSharingIt) {
  TempDir dir;
  char err[256] = {0};
  pr_rate_limiter_t* limiter = nullptr;
  ASSERT_EQ(PR_OK, pr_rate_limiter_create(64 << 20, 100000, 10, PR_RATE_LIMIT_WRITES, 0, &limiter,
                                          err, sizeof err))
      << err;
  Options o;
  pr_options_set_create_if_missing(o.handle, 1);
  ASSERT_EQ(PR_OK, pr_options_set_rate_limiter(o.handle, limiter, err, sizeof err)) << err;
  pr_db_t* a = nullptr;
  pr_db_t* b = nullptr;
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path("a").c_str(), &a, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path("b").c_str(), &b, err, sizeof err)) << err;
  EXPECT_EQ(0, pr_rate_limiter_read(limiter, PR_RATE_LIMITER_TOTAL_BYTES));
  WriteAndFlush(a, "a", 512);
  int64_t after_a = pr_rate_limiter_read(limiter, PR_RATE_LIMITER_TOTAL_BYTES);
  uint64_t live = 0;
  ASSERT_EQ(PR_OK, pr_db_property_int(a, "rocksdb.live-sst-files-size", &live, err, sizeof err));
  // The table file went through the limiter (all but a few bytes of it).
  EXPECT_GT(after_a, static_cast<int64_t>(live) * 9 / 10);
  WriteAndFlush(b, "b", 512);
  ASSERT_EQ(PR_OK, pr_db_property_int(b, "rocksdb.live-sst-files-size", &live, err, sizeof err));
  EXPECT_GT(pr_rate_limiter_read(limiter, PR_RATE_LIMITER_TOTAL_BYTES),
            after_a + static_cast<int64_t>(live) * 9 / 10);
  EXPECT_GT(pr_rate_limiter_read(limiter, PR_RATE_LIMITER_TOTAL_REQUESTS), 0);
  ASSERT_EQ(PR_OK, pr_rate_limiter_set_bytes_per_second(limiter, 32 << 20, err, sizeof err));
  EXPECT_EQ(32 << 20, pr_rate_limiter_read(limiter, PR_RATE_LIMITER_BYTES_PER_SECOND));

  pr_rate_limiter_destroy(limiter);  // the databases keep it alive
  WriteAndFlush(a, "c", 512);
  EXPECT_TRUE(Present(a, "c7"));
  EXPECT_EQ(PR_OK, pr_db_close(a, err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, pr_db_close(b, err, sizeof err)) << err;
}

// Runs body on a thread of its own and waits for it at most limit. A body
// still running then fails the test and ends the test program, which would
// otherwise wait for it forever.
void FinishesWithin(std::chrono::seconds limit, const std::string& what,
                    const std::function<void()>& body) {
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  std::thread([body, done] {
    body();
    done->set_value();
  }).detach();
  if (finished.wait_for(limit) != std::future_status::ready) {
    ADD_FAILURE() << what << " did not finish within " << limit.count() << " s";
    std::fprintf(stderr, "%s did not finish within %lld s: ending the test program\n",
                 what.c_str(), static_cast<long long>(limit.count()));
    std::_Exit(1);
  }
}

// A database with a rate limiter of 100 bytes per second (10 a refill) and
// 64 KiB memtables.
struct TinyRateDatabase {
  TempDir dir;
  char err[256] = {0};
  pr_rate_limiter_t* limiter = nullptr;
  Options options;
  pr_db_t* db = nullptr;

  void Open() {
    ASSERT_EQ(PR_OK, pr_rate_limiter_create(100, 100000, 10, PR_RATE_LIMIT_WRITES, 0, &limiter,
                                            err, sizeof err))
        << err;
    pr_options_set_create_if_missing(options.handle, 1);
    ASSERT_EQ(PR_OK, pr_options_set_rate_limiter(options.handle, limiter, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_options_set_write_buffer_bytes(options.handle, 64 << 10, err, sizeof err))
        << err;
    ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  }

  // Writes count keys of 1 KiB random (incompressible) values, without
  // flushing: 20 KiB take more than three minutes through the limiter.
  void Write(int count) {
    std::mt19937 random(count);
    std::string value(1024, '\0');
    for (int i = 0; i < count; i++) {
      for (char& byte : value) byte = static_cast<char>(random());
      std::string key = "k" + std::to_string(i);
      ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err,
                                 sizeof err))
          << err;
    }
  }

  // Waits until a flush runs (one scheduled but not started when the close
  // begins is dropped, the close then waiting for nothing).
  void AwaitRunningFlush() {
    uint64_t running = 0;
    while (running == 0) {
      ASSERT_EQ(PR_OK, pr_db_property_int(db, "rocksdb.num-running-flushes", &running, err,
                                          sizeof err))
          << err;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  // Reopens the closed database without the limiter: every key is there.
  void ExpectEveryKey(int count) {
    Options plain;
    ASSERT_EQ(PR_OK, pr_db_open(plain.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
    for (int i = 0; i < count; i++) EXPECT_TRUE(Present(db, "k" + std::to_string(i))) << i;
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }
};

// RocksDB's close waits for the flush under way, which waited in the limiter
// for 10 bytes a refill: hours for 64 KiB. A close lifts the limit.
TEST(RateLimiterTest, CloseIsBoundedWhileABackgroundFlushWaitsForTheLimiter) {
  TinyRateDatabase t;
  t.Open();
  t.Write(80);  // fills a memtable: its flush starts in the background
  t.AwaitRunningFlush();
  pr_rate_limiter_destroy(t.limiter);  // the database keeps it
  FinishesWithin(std::chrono::seconds(60), "pr_db_close", [&] {
    EXPECT_EQ(PR_OK, pr_db_close(t.db, t.err, sizeof t.err)) << t.err;
  });
  t.ExpectEveryKey(80);
}

// A flush in flight waits for the limiter as well; marking the database
// closing lifts the limit, so that the call ends and the close can go on.
// The rate comes back once the close is over.
TEST(RateLimiterTest, CloseIsBoundedWithAFlushCallInFlight) {
  TinyRateDatabase t;
  t.Open();
  t.Write(20);
  std::thread flush([&] { EXPECT_EQ(PR_OK, pr_db_flush(t.db, t.err, sizeof t.err)) << t.err; });
  FinishesWithin(std::chrono::seconds(60), "the flush in flight", [&] {
    pr_db_set_closing(t.db, 1);
    EXPECT_EQ(100, pr_rate_limiter_read(t.limiter, PR_RATE_LIMITER_BYTES_PER_SECOND));
    flush.join();
    EXPECT_EQ(PR_OK, pr_db_close(t.db, t.err, sizeof t.err)) << t.err;
  });
  EXPECT_EQ(100, pr_rate_limiter_read(t.limiter, PR_RATE_LIMITER_BYTES_PER_SECOND));
  pr_rate_limiter_destroy(t.limiter);
  t.ExpectEveryKey(20);
}

// After the close, the limiter limits again: the lift once left a refill of
// an unbounded rate behind, and every later request passed unlimited. And
// an open replaying a log under the limit is bounded too.
TEST(RateLimiterTest, TheLimiterLimitsAgainAfterACloseAndAnOpenIsBounded) {
  TinyRateDatabase t;
  t.Open();
  t.Write(80);
  t.AwaitRunningFlush();
  FinishesWithin(std::chrono::seconds(60), "pr_db_close", [&] {
    EXPECT_EQ(PR_OK, pr_db_close(t.db, t.err, sizeof t.err)) << t.err;
  });
  // The open replays the log, whose memtable's flush went through the
  // limiter too: the open lifts it as well.
  FinishesWithin(std::chrono::seconds(60), "pr_db_open", [&] {
    ASSERT_EQ(PR_OK,
              pr_db_open(t.options.handle, t.dir.path().c_str(), &t.db, t.err, sizeof t.err))
        << t.err;
  });
  t.Write(20);
  std::thread flush([&] { EXPECT_EQ(PR_OK, pr_db_flush(t.db, t.err, sizeof t.err)) << t.err; });
  t.AwaitRunningFlush();
  // 20 KiB at 100 bytes per second take minutes: a limiter that limits has
  // not let the flush through 2 s later, however fast the machine.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  uint64_t running = 0;
  ASSERT_EQ(PR_OK, pr_db_property_int(t.db, "rocksdb.num-running-flushes", &running, t.err,
                                      sizeof t.err));
  EXPECT_EQ(1u, running);
  FinishesWithin(std::chrono::seconds(60), "the flush in flight", [&] {
    pr_db_set_closing(t.db, 1);
    flush.join();
    EXPECT_EQ(PR_OK, pr_db_close(t.db, t.err, sizeof t.err)) << t.err;
  });
  pr_rate_limiter_destroy(t.limiter);
  t.ExpectEveryKey(80);
}

TEST(SstFileManagerTest, RefusesNegativeAndUnknownSettings) {
  char err[256] = {0};
  pr_sst_file_manager_t* manager = nullptr;
  ASSERT_EQ(PR_OK, pr_sst_file_manager_create(&manager, err, sizeof err)) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_sst_file_manager_set(manager, PR_SST_MAX_ALLOWED_SPACE, -1, err, sizeof err));
  EXPECT_NE(std::string(err).find("cannot be negative"), std::string::npos) << err;
  for (int32_t unsettable : {-1, int32_t{PR_SST_TOTAL_SIZE}, int32_t{PR_SST_TRASH_SIZE},
                             int32_t{PR_SST_SPACE_LIMIT_REACHED}, 99}) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
              pr_sst_file_manager_set(manager, unsettable, 1, err, sizeof err))
        << unsettable;
  }
  EXPECT_EQ(PR_OK, pr_sst_file_manager_set(manager, PR_SST_DELETE_RATE, 1 << 20, err, sizeof err));
  EXPECT_EQ(1 << 20, pr_sst_file_manager_read(manager, PR_SST_DELETE_RATE));
  EXPECT_EQ(0, pr_sst_file_manager_read(manager, PR_SST_TOTAL_SIZE));
  EXPECT_EQ(0, pr_sst_file_manager_read(manager, PR_SST_SPACE_LIMIT_REACHED));
  EXPECT_EQ(-1, pr_sst_file_manager_read(manager, PR_SST_MAX_ALLOWED_SPACE));  // not readable
  EXPECT_EQ(-1, pr_sst_file_manager_read(manager, 99));
  pr_sst_file_manager_destroy(manager);
  pr_sst_file_manager_destroy(nullptr);
}

TEST(SstFileManagerTest, TracksTheTableFilesOfEveryDatabaseSharingIt) {
  TempDir dir;
  char err[256] = {0};
  pr_sst_file_manager_t* manager = nullptr;
  ASSERT_EQ(PR_OK, pr_sst_file_manager_create(&manager, err, sizeof err)) << err;
  Options o;
  pr_options_set_create_if_missing(o.handle, 1);
  ASSERT_EQ(PR_OK, pr_options_set_sst_file_manager(o.handle, manager, err, sizeof err)) << err;
  pr_db_t* a = nullptr;
  pr_db_t* b = nullptr;
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path("a").c_str(), &a, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path("b").c_str(), &b, err, sizeof err)) << err;
  EXPECT_EQ(0, pr_sst_file_manager_read(manager, PR_SST_TOTAL_SIZE));
  WriteAndFlush(a, "a", 256);
  int64_t one = pr_sst_file_manager_read(manager, PR_SST_TOTAL_SIZE);
  uint64_t live = 0;
  ASSERT_EQ(PR_OK, pr_db_property_int(a, "rocksdb.live-sst-files-size", &live, err, sizeof err));
  EXPECT_GT(one, 0);
  EXPECT_EQ(static_cast<int64_t>(live), one);
  WriteAndFlush(b, "b", 256);
  ASSERT_EQ(PR_OK, pr_db_property_int(b, "rocksdb.live-sst-files-size", &live, err, sizeof err));
  EXPECT_EQ(one + static_cast<int64_t>(live), pr_sst_file_manager_read(manager, PR_SST_TOTAL_SIZE));
  EXPECT_EQ(PR_OK, pr_db_close(a, err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, pr_db_close(b, err, sizeof err)) << err;
  pr_sst_file_manager_destroy(manager);
}

TEST(SstFileManagerTest, SpaceLimitStopsWritesUntilRaisedAndLosesNothing) {
  TempDir dir;
  char err[256] = {0};
  pr_sst_file_manager_t* manager = nullptr;
  ASSERT_EQ(PR_OK, pr_sst_file_manager_create(&manager, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_sst_file_manager_set(manager, PR_SST_MAX_ALLOWED_SPACE, 1, err, sizeof err));
  Options o;
  pr_options_set_create_if_missing(o.handle, 1);
  ASSERT_EQ(PR_OK, pr_options_set_sst_file_manager(o.handle, manager, err, sizeof err)) << err;
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  std::string value(1024, 'v');
  for (int i = 0; i < 64; i++) {
    std::string key = "before" + std::to_string(i);
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err,
                               sizeof err))
        << err;
  }
  // The flush writes its table file, finds the limit passed and stops the
  // database's writes with a background error.
  pr_db_flush(db, err, sizeof err);
  EXPECT_EQ(1, pr_sst_file_manager_read(manager, PR_SST_SPACE_LIMIT_REACHED));
  std::string key = "refused";
  int32_t status = pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err, sizeof err);
  EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(status)) << err;
  EXPECT_EQ(PR_SUBCODE_SPACE_LIMIT, PR_STATUS_SUBCODE(status)) << err;
  EXPECT_NE(std::string(err).find("Max allowed space was reached"), std::string::npos) << err;
  EXPECT_TRUE(Present(db, "before63"));  // reads go on

  // Raised, RocksDB resumes by itself: the manager retries every few seconds.
  ASSERT_EQ(PR_OK, pr_sst_file_manager_set(manager, PR_SST_MAX_ALLOWED_SPACE, 0, err, sizeof err));
  key = "after";
  for (int wait = 0; wait < 600; wait++) {
    status = pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err, sizeof err);
    if (status == PR_OK) break;
    usleep(100000);
  }
  ASSERT_EQ(PR_OK, status) << err;
  EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;

  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  for (int i = 0; i < 64; i++) EXPECT_TRUE(Present(db, "before" + std::to_string(i))) << i;
  EXPECT_TRUE(Present(db, "after"));
  EXPECT_FALSE(Present(db, "refused"));
  EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  pr_sst_file_manager_destroy(manager);
}

}  // namespace
