// GoogleTest tests of pinrock.h's snapshots and read options section:
// snapshots, reads with read options, of many keys, pinned; flush,
// compaction, size estimates, checkpoints and properties.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

TEST_F(DbTest, PinReleaseAcceptsNull) { pr_pin_release(nullptr); }

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

TEST_F(DbTest, MultiGetWithReadsAsOfASnapshotAndAcrossFamilies) {
  pr_db_t* users = nullptr;
  ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "users", &users, err, sizeof err)) << err;
  Put("k", "old");
  ASSERT_EQ(PR_OK, pr_db_put(users, bytes("k"), 1, bytes("user"), 4, err, sizeof err)) << err;
  pr_snapshot_t* snapshot = nullptr;
  ASSERT_EQ(PR_OK, pr_db_snapshot_create(db, &snapshot, err, sizeof err));
  Put("k", "new");
  const std::string k = "k", absent = "absent";
  const uint8_t* keys[] = {bytes(k), bytes(k), bytes(absent)};
  size_t lens[] = {1, 1, 6};
  pr_db_t* families[] = {db, users, users};
  uint64_t offsets[3], value_lens[3];
  int32_t statuses[3];
  uint8_t buf[64];
  auto value = [&](int i) {
    return std::string(reinterpret_cast<const char*>(buf + offsets[i]), value_lens[i]);
  };
  ASSERT_EQ(PR_OK, pr_db_multi_get_with(db, snapshot, PR_READ_SKIP_FILL_CACHE, families, 3, keys,
                                        lens, buf, sizeof buf, offsets, value_lens, statuses, err,
                                        sizeof err))
      << err;
  EXPECT_EQ(std::vector<int32_t>({PR_OK, PR_OK, PR_NOT_FOUND}),
            std::vector<int32_t>(statuses, statuses + 3));
  EXPECT_EQ("old", value(0));
  EXPECT_EQ("user", value(1));
  pr_get_result_t results[3];
  ASSERT_EQ(PR_OK, pr_db_multi_get_pinned_with(users, nullptr, 0, families, 3, keys, lens, results,
                                               statuses, err, sizeof err))
      << err;
  EXPECT_EQ("new", std::string(reinterpret_cast<const char*>(results[0].data), results[0].value_len));
  EXPECT_EQ("user", std::string(reinterpret_cast<const char*>(results[1].data), results[1].value_len));
  EXPECT_EQ(nullptr, results[2].pin);
  pr_pin_release(results[0].pin);
  pr_pin_release(results[1].pin);
  // Without families, every key is read from the handle's own family.
  ASSERT_EQ(PR_OK, pr_db_multi_get_with(users, nullptr, 0, nullptr, 2, keys, lens, buf, sizeof buf,
                                        offsets, value_lens, statuses, err, sizeof err));
  EXPECT_EQ("user", value(0));
  pr_db_snapshot_release(db, snapshot);
  // Memory only, once the values are in a table file that is not cached: each key is incomplete.
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_flush(users, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_family(db, "users", &users, err, sizeof err));
  families[0] = db;
  families[1] = users;
  families[2] = users;
  ASSERT_EQ(PR_OK, pr_db_multi_get_with(db, nullptr, PR_READ_MEMORY_ONLY, families, 3, keys, lens,
                                        buf, sizeof buf, offsets, value_lens, statuses, err,
                                        sizeof err));
  EXPECT_EQ(PR_CODE_INCOMPLETE, PR_STATUS_CODE(statuses[0]));
  EXPECT_EQ(PR_CODE_INCOMPLETE, PR_STATUS_CODE(statuses[1]));
  ASSERT_EQ(PR_OK, pr_db_multi_get_pinned_with(db, nullptr, PR_READ_MEMORY_ONLY, nullptr, 1, keys,
                                               lens, results, statuses, err, sizeof err));
  EXPECT_EQ(PR_CODE_INCOMPLETE, PR_STATUS_CODE(statuses[0]));
  EXPECT_EQ(nullptr, results[0].pin);
  // A family of another database is refused, and nothing is read.
  TempDir other_dir;
  pr_db_t* other = nullptr;
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, other_dir.path().c_str(), &other, err, sizeof err));
  pr_db_t* foreign[] = {db, other, users};
  statuses[0] = 42;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_multi_get_with(db, nullptr, 0, foreign, 3, keys, lens, buf,
                                                sizeof buf, offsets, value_lens, statuses, err,
                                                sizeof err)));
  EXPECT_NE(nullptr, std::strstr(err, "key #1 belongs to another database")) << err;
  EXPECT_EQ(42, statuses[0]);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_multi_get_pinned_with(db, nullptr, 0, foreign, 3, keys, lens,
                                                       results, statuses, err, sizeof err)));
  EXPECT_EQ(nullptr, results[0].pin);
  ASSERT_EQ(PR_OK, pr_db_close(other, err, sizeof err));
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

TEST_F(DbTest, IntegerPropertiesAnswerAndOthersAreNotFound) {
  Put("k", "v");
  uint64_t value = 0;
  ASSERT_EQ(PR_OK, pr_db_property_int(db, "rocksdb.num-entries-active-mem-table", &value, err,
                                      sizeof err));
  EXPECT_EQ(1u, value);
  EXPECT_EQ(PR_NOT_FOUND, pr_db_property_int(db, "rocksdb.stats", &value, err, sizeof err));
  EXPECT_EQ(PR_NOT_FOUND, pr_db_property_int(db, "rocksdb.nope", &value, err, sizeof err));
}

}  // namespace
