// GoogleTest tests of pinrock.h's statistics and memory usage section.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

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

}  // namespace
