// GoogleTest tests of pinrock.h's memory budget section: one cap shared by
// databases, and the merge operators the section's options offer.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <string>

using namespace pinrock_test;

namespace {

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
  // 2 x 8 MiB written, four times the memtables' share, with no explicit flush
  // (each database's own write buffer, 64 MiB, would hold it all).
  std::string value(1024, 'v');
  for (int i = 0; i < 8 * 1024; i++) {
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

}  // namespace
