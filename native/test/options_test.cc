// GoogleTest tests of pinrock.h's options section: the setters' checks, and
// the compression settings as they reach the table files.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

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
