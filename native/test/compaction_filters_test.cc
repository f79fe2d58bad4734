// GoogleTest tests of pinrock.h's compaction filters section: filters that
// keep, remove, change and remove ranges of entries in compactions, the
// factory's context, failures, names, releases and reopens.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

// The factory states the tests give: how its create answers.
enum FactoryState : uint64_t { kMakesFilters = 1, kFailsToMake = 2 };
// The state of every filter the factory makes.
constexpr uint64_t kFilterState = 100;

std::mutex seen_mutex;
std::vector<pr_compaction_context_t> contexts;
std::vector<std::string> filtered;  // "<kind>:<key>=<value>", in the order asked

int32_t Create(uint64_t factory_state, const pr_compaction_context_t* context,
               uint64_t* filter_state) {
  std::lock_guard<std::mutex> lock(seen_mutex);
  contexts.push_back(*context);
  if (factory_state == kFailsToMake) return PR_CALLBACK_FAILED;
  *filter_state = kFilterState;
  return PR_CALLBACK_OK;
}

int32_t Write(pr_filter_output_t* output, const std::string& text, int32_t decision) {
  uint8_t* at = pr_filter_output_reserve(output, text.size());
  if (at == nullptr) return PR_FILTER_KEEP;
  std::memcpy(at, text.data(), text.size());
  return decision;
}

// Decides by the value: "remove", "change" (to "changed"), "until-<key>"
// (removes up to <key>), "garbage" (an answer that is no decision);
// anything else is kept.
int32_t Filter(uint64_t filter_state, const uint8_t* key, size_t key_len, int32_t kind,
               const uint8_t* value, size_t value_len, pr_filter_output_t* output) {
  if (filter_state != kFilterState) return PR_FILTER_REMOVE;  // would show as a lost entry
  const std::string k(reinterpret_cast<const char*>(key), key_len);
  const std::string v(reinterpret_cast<const char*>(value), value_len);
  {
    std::lock_guard<std::mutex> lock(seen_mutex);
    filtered.push_back(std::to_string(kind) + ":" + k + "=" + v);
  }
  if (v == "remove") return PR_FILTER_REMOVE;
  if (v == "change") return Write(output, "changed", PR_FILTER_CHANGE_VALUE);
  if (v.rfind("until-", 0) == 0) return Write(output, v.substr(6), PR_FILTER_REMOVE_UNTIL);
  if (v == "garbage") return 77;
  return PR_FILTER_KEEP;
}

class CompactionFiltersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TakeReleased();
    std::lock_guard<std::mutex> lock(seen_mutex);
    contexts.clear();
    filtered.clear();
  }
  void TearDown() override {
    if (db != nullptr) EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }

  // Opens the test's directory, with a factory named name of state when name is not null.
  void Open(const char* name, uint64_t state = kMakesFilters, const char* merge_operator = nullptr) {
    Options options;
    pr_options_set_create_if_missing(options.handle, 1);
    if (merge_operator != nullptr) {
      ASSERT_EQ(PR_OK, pr_options_set_merge_operator(options.handle, merge_operator, err, sizeof err));
    }
    if (name != nullptr) {
      pr_compaction_filter_factory_t* factory = nullptr;
      ASSERT_EQ(PR_OK, pr_compaction_filter_factory_create(name, state, Create, Filter, &factory, err,
                                                           sizeof err))
          << err;
      ASSERT_EQ(PR_OK, pr_options_set_compaction_filter_factory(options.handle, factory, err, sizeof err));
      pr_compaction_filter_factory_destroy(factory);
    }
    ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  }
  void Close() {
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    db = nullptr;
  }
  void Put(const std::string& key, const std::string& value) {
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err, sizeof err))
        << err;
  }
  void Compact() {
    ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err)) << err;
  }
  // The value of key, or "absent".
  std::string Read(const std::string& key) {
    uint8_t buf[256];
    pr_get_result_t result;
    int32_t s = pr_db_get(db, bytes(key), key.size(), buf, sizeof buf, 0, &result, err, sizeof err);
    if (s == PR_NOT_FOUND) return "absent";
    EXPECT_EQ(PR_OK, s) << err;
    return std::string(reinterpret_cast<const char*>(buf), result.value_len);
  }

  TempDir dir;
  pr_db_t* db = nullptr;
  char err[512] = {0};
};

TEST_F(CompactionFiltersTest, ACompactionKeepsRemovesAndChangesWhatTheFilterSaysAndFlushesFilterNothing) {
  Open("test.Filter");
  Put("a", "keep");
  Put("b", "remove");
  Put("c", "change");
  Put("d", "garbage");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  EXPECT_EQ(std::vector<std::string>{}, filtered) << "a flush is not filtered";
  EXPECT_EQ("remove", Read("b"));
  Compact();
  EXPECT_EQ("keep", Read("a"));
  EXPECT_EQ("absent", Read("b"));
  EXPECT_EQ("changed", Read("c"));
  EXPECT_EQ("garbage", Read("d")) << "an answer that is no decision keeps the entry";
  EXPECT_EQ((std::vector<std::string>{"0:a=keep", "0:b=remove", "0:c=change", "0:d=garbage"}), filtered);
  ASSERT_EQ(1u, contexts.size());
  EXPECT_EQ(1, contexts[0].manual);
  EXPECT_EQ(1, contexts[0].full);
  EXPECT_EQ(0, contexts[0].input_start_level);
  EXPECT_EQ(pr_db_family_id(db), contexts[0].family_id);
  EXPECT_EQ(std::vector<uint64_t>{kFilterState}, TakeReleased()) << "the filter ends with its compaction";
  Close();
  EXPECT_EQ(std::vector<uint64_t>{kMakesFilters}, TakeReleased()) << "the factory ends with the database";
}

TEST_F(CompactionFiltersTest, ARemovedRangeDropsTheEntriesBeforeItsEnd) {
  Open("test.Filter");
  Put("a", "keep");
  Put("b", "until-d");
  Put("c", "keep");
  Put("d", "keep");
  Put("e", "until-a");  // an end before the key keeps the entry
  Compact();
  EXPECT_EQ("keep", Read("a"));
  EXPECT_EQ("absent", Read("b"));
  EXPECT_EQ("absent", Read("c"));
  EXPECT_EQ("keep", Read("d"));
  EXPECT_EQ("until-a", Read("e"));
}

TEST_F(CompactionFiltersTest, MergeOperandsAreFilteredAsOperands) {
  Open("test.Filter", kMakesFilters, "stringappend");
  // Snapshots between the merges keep the operands apart through the flush.
  std::vector<pr_snapshot_t*> snapshots;
  for (const std::string operand : {"one", "remove", "change"}) {
    Batch batch;
    batch.Merge("k", operand);
    ASSERT_EQ(PR_OK, pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)) << err;
    pr_snapshot_t* snapshot = nullptr;
    ASSERT_EQ(PR_OK, pr_db_snapshot_create(db, &snapshot, err, sizeof err)) << err;
    snapshots.push_back(snapshot);
  }
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  for (pr_snapshot_t* snapshot : snapshots) pr_db_snapshot_release(db, snapshot);
  Compact();
  EXPECT_EQ("one,changed", Read("k"));
  EXPECT_EQ((std::vector<std::string>{"1:k=change", "1:k=remove", "1:k=one"}), filtered);
}

TEST_F(CompactionFiltersTest, AFactoryThatFailsToMakeAFilterLeavesTheCompactionUnfiltered) {
  Open("test.Filter", kFailsToMake);
  Put("b", "remove");
  Compact();
  EXPECT_EQ("remove", Read("b"));
  EXPECT_EQ(1u, contexts.size());
  EXPECT_EQ(std::vector<std::string>{}, filtered);
}

TEST_F(CompactionFiltersTest, ADatabaseFilteredOnceOpensWithOrWithoutItButItsOptionsLoadOnlyWithIt) {
  Open("test.Recorded");
  Put("b", "remove");
  Close();
  Open(nullptr);
  Compact();
  EXPECT_EQ("remove", Read("b")) << "opened without the filter";
  Close();
  std::vector<char> texts(1 << 16);
  uint64_t length = 0;
  EXPECT_EQ(PR_OK, pr_options_latest(dir.path().c_str(), texts.data(), texts.size(), &length, err, sizeof err))
      << "the last open had no filter: " << err;
  Open("test.Recorded");
  Compact();
  EXPECT_EQ("absent", Read("b"));
  Close();
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_latest(dir.path().c_str(), texts.data(), texts.size(), &length, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "test.Recorded")) << err;
}

TEST_F(CompactionFiltersTest, NamesOutOfRangeAreRefusedAndTheStateReleased) {
  for (const std::string& name : {std::string(""), std::string(256, 'a'), std::string("a b"),
                                  std::string("a;b=c"), std::string("{x}")}) {
    pr_compaction_filter_factory_t* factory = nullptr;
    int32_t s = pr_compaction_filter_factory_create(name.c_str(), kMakesFilters, Create, Filter, &factory,
                                                    err, sizeof err);
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(s)) << name;
    EXPECT_EQ(nullptr, factory) << name;
    EXPECT_EQ(std::vector<uint64_t>{kMakesFilters}, TakeReleased()) << name;
  }
}

}  // namespace
