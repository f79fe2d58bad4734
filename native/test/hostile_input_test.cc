// GoogleTest tests of hostile input through the C ABI: arguments RocksDB
// would crash on, or would parse or apply only after logging them.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

class HostileInputTest : public DbTest {
 protected:
  void Reopen() {
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    db = nullptr;
    ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  }
  // The value of key, or "<none>" when it is absent.
  std::string Read(const std::string& key) {
    pr_get_result_t result;
    buffer.assign(64, 0);
    int32_t status = pr_db_get(db, bytes(key), key.size(), buffer.data(), buffer.size(), 0,
                               &result, err, sizeof err);
    if (status == PR_NOT_FOUND) return "<none>";
    EXPECT_EQ(PR_OK, status) << err;
    return std::string(reinterpret_cast<const char*>(buffer.data()), result.value_len);
  }
  int32_t StringProperty(const std::string& name) {
    char value[4096];
    uint64_t length = 0;
    return pr_db_property(db, name.c_str(), value, sizeof value, &length, err, sizeof err);
  }
  int32_t IntProperty(const std::string& name) {
    uint64_t value = 0;
    return pr_db_property_int(db, name.c_str(), &value, err, sizeof err);
  }
};

TEST_F(HostileInputTest, LevelPropertiesAcceptOnlyASmallDecimalLevel) {
  EXPECT_EQ(PR_OK, StringProperty("rocksdb.num-files-at-level0"));
  EXPECT_EQ(PR_OK, StringProperty("rocksdb.num-files-at-level6"));
  EXPECT_EQ(PR_OK, StringProperty("rocksdb.compression-ratio-at-level1"));
  EXPECT_EQ(PR_OK, StringProperty("rocksdb.aggregated-table-properties-at-level2"));
  // A level beyond the database's levels: RocksDB answers it is unknown.
  EXPECT_EQ(PR_NOT_FOUND, StringProperty("rocksdb.num-files-at-level7"));
  for (const char* suffix : {"2147483648", "4294967295", "4294967296", "18446744073709551615",
                             "99999999999999999999999", "256", "-1", "+1", " 1", "01", "",
                             "1 ", "1x"}) {
    for (const char* prefix :
         {"rocksdb.num-files-at-level", "rocksdb.compression-ratio-at-level",
          "rocksdb.aggregated-table-properties-at-level",
          "rocksdb.live-sst-files-size-at-temperature"}) {
      std::string name = std::string(prefix) + suffix;
      EXPECT_EQ(PR_NOT_FOUND, StringProperty(name)) << name;
      EXPECT_EQ(PR_NOT_FOUND, IntProperty(name)) << name;
    }
  }
}

TEST_F(HostileInputTest, PropertyNamesAreMatchedExactly) {
  EXPECT_EQ(PR_OK, IntProperty("rocksdb.estimate-num-keys"));
  EXPECT_EQ(PR_OK, StringProperty("rocksdb.stats"));
  EXPECT_EQ(PR_OK, StringProperty("rocksdb.live-sst-files-size-at-temperature0"));
  // RocksDB strips trailing digits from any name; pinrock does not.
  for (const char* name : {"rocksdb.estimate-num-keys7", "rocksdb.stats2147483648",
                           "rocksdb.cfstats.periodic", "rocksdb.", "", "ROCKSDB.STATS",
                           "rocksdb.stats ", "rocksdb.no-such-property"}) {
    EXPECT_EQ(PR_NOT_FOUND, StringProperty(name)) << name;
    EXPECT_EQ(PR_NOT_FOUND, IntProperty(name)) << name;
  }
}

// RocksDB logs a batch before its memtable rejects a range whose end comes
// before its begin: the records before it were applied (and replayed on
// reopen) and every later write failed. The check now comes first.
TEST_F(HostileInputTest, BackwardRangeDeleteRefusesTheWholeBatch) {
  Put("k", "before");
  Batch batch;
  batch.Put("a", "applied?").DeleteRange("z", "b").Put("k", "after");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)));
  EXPECT_NE(nullptr, std::strstr(err, "end key comes before its begin key")) << err;
  EXPECT_EQ("<none>", Read("a"));
  EXPECT_EQ("before", Read("k"));
  Put("later", "works");
  EXPECT_EQ("works", Read("later"));
  Reopen();
  EXPECT_EQ("<none>", Read("a"));
  EXPECT_EQ("before", Read("k"));
  EXPECT_EQ("works", Read("later"));
}

TEST_F(HostileInputTest, EmptyRangeDeleteIsAccepted) {
  Put("b", "kept");
  Batch batch;
  batch.DeleteRange("b", "b").Put("c", "written");
  ASSERT_EQ(PR_OK, pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)) << err;
  EXPECT_EQ("kept", Read("b"));
  EXPECT_EQ("written", Read("c"));
}

}  // namespace
