// GoogleTest tests of pinrock.h's callbacks section: merge operators whose
// merges are the caller's functions, their failures, their results, their
// names and their release, and memory-only reads that must not call back.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

// What the test's merge functions do, chosen by the state they are given.
enum Behaviour : uint64_t { kConcatenate = 1, kFail = 2, kUseLastOperand = 3, kUseExisting = 4 };

std::atomic<int> partial_merges{0};

// Concatenates the existing value and the operands, "|" between them.
int32_t FullMerge(uint64_t state, const uint8_t*, size_t, const uint8_t* existing,
                  size_t existing_len, const uint8_t* const* operands, const size_t* operand_lens,
                  size_t count, pr_merge_output_t* output) {
  switch (state) {
    case kFail:
      return PR_CALLBACK_FAILED;
    case kUseLastOperand:
      return pr_merge_output_use_input(output, static_cast<int64_t>(count) - 1) == PR_OK
                 ? PR_CALLBACK_OK
                 : PR_CALLBACK_FAILED;
    case kUseExisting:
      return pr_merge_output_use_input(output, -1) == PR_OK ? PR_CALLBACK_OK : PR_CALLBACK_FAILED;
    default:
      break;
  }
  std::string joined = existing != nullptr
                           ? std::string(reinterpret_cast<const char*>(existing), existing_len)
                           : "";
  for (size_t i = 0; i < count; i++) {
    if (!joined.empty()) joined += "|";
    joined.append(reinterpret_cast<const char*>(operands[i]), operand_lens[i]);
  }
  uint8_t* at = pr_merge_output_reserve(output, joined.size());
  if (at == nullptr) return PR_CALLBACK_FAILED;
  std::memcpy(at, joined.data(), joined.size());
  return PR_CALLBACK_OK;
}

int32_t PartialMerge(uint64_t, const uint8_t*, size_t, const uint8_t* left, size_t left_len,
                     const uint8_t* right, size_t right_len, pr_merge_output_t* output) {
  partial_merges++;
  // A partial merge has no inputs to name as its result.
  if (pr_merge_output_use_input(output, 0) != PR_CODE_INVALID_ARGUMENT) return PR_CALLBACK_FAILED;
  uint8_t* at = pr_merge_output_reserve(output, left_len + 1 + right_len);
  if (at == nullptr) return PR_CALLBACK_FAILED;
  std::memcpy(at, left, left_len);
  at[left_len] = '|';
  std::memcpy(at + left_len + 1, right, right_len);
  return PR_CALLBACK_OK;
}

class CallbacksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TakeReleased();
    partial_merges = 0;
  }

  // Opens the test's directory with a merge operator of name behaving as state.
  void Open(const char* name, Behaviour state, bool partial = false) {
    Options options;
    pr_options_set_create_if_missing(options.handle, 1);
    TakeReleased();  // those of earlier opens
    pr_merge_operator_t* merge_operator = nullptr;
    ASSERT_EQ(PR_OK, pr_merge_operator_create(name, state, FullMerge, partial ? PartialMerge : nullptr,
                                              &merge_operator, err, sizeof err))
        << err;
    ASSERT_EQ(PR_OK, pr_options_set_merge_operator_object(options.handle, merge_operator, err,
                                                          sizeof err))
        << err;
    pr_merge_operator_destroy(merge_operator);
    EXPECT_EQ(std::vector<uint64_t>{}, TakeReleased()) << "the options hold the operator";
    ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  }
  void Close() {
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    db = nullptr;
  }
  void Merge(const std::string& key, const std::string& operand) {
    Batch batch;
    batch.Merge(key, operand);
    ASSERT_EQ(PR_OK, pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)) << err;
  }
  void Put(const std::string& key, const std::string& value) {
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err, sizeof err))
        << err;
  }
  // The value of key: "absent", or "error <code>/<subcode>".
  std::string Read(const std::string& key) {
    uint8_t buf[256];
    pr_get_result_t result;
    int32_t s = pr_db_get(db, bytes(key), key.size(), buf, sizeof buf, 0, &result, err, sizeof err);
    if (s == PR_NOT_FOUND) return "absent";
    if (s != PR_OK) {
      return "error " + std::to_string(PR_STATUS_CODE(s)) + "/" + std::to_string(PR_STATUS_SUBCODE(s));
    }
    return std::string(reinterpret_cast<const char*>(buf), result.value_len);
  }

  TempDir dir;
  pr_db_t* db = nullptr;
  char err[512] = {0};
};

TEST_F(CallbacksTest, MergesWithTheCallersFunctionsAndReleasesAtClose) {
  Open("test.Concatenate", kConcatenate);
  Put("based", "base");
  Merge("based", "a");
  Merge("based", "b");
  Merge("bare", "x");
  EXPECT_EQ("base|a|b", Read("based"));
  EXPECT_EQ("x", Read("bare"));
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err)) << err;
  EXPECT_EQ("base|a|b", Read("based"));
  EXPECT_EQ(std::vector<uint64_t>{}, TakeReleased());
  Close();
  EXPECT_EQ(std::vector<uint64_t>{kConcatenate}, TakeReleased());
  EXPECT_EQ(std::vector<uint64_t>{}, TakeReleased()) << "a state is handed out once";
}

TEST_F(CallbacksTest, AMemoryOnlyReadOfAFamilyThatCallsBackIsIncompleteAtOnce) {
  Open("test.Concatenate", kConcatenate);
  Put("k", "base");
  Merge("k", "a");
  uint8_t buf[64];
  pr_get_result_t result;
  EXPECT_EQ(PR_CODE_INCOMPLETE, pr_db_get_at(db, nullptr, PR_READ_MEMORY_ONLY, bytes("k"), 1, buf,
                                             sizeof buf, 0, &result, err, sizeof err));
  EXPECT_EQ("base|a", Read("k"));
  Close();
}

TEST_F(CallbacksTest, PartialMergesShortenOperandsInFlushes) {
  Open("test.Concatenate", kConcatenate, true);
  Merge("k", "1");
  Merge("k", "2");
  Merge("k", "3");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  EXPECT_GT(partial_merges.load(), 0);
  EXPECT_EQ("1|2|3", Read("k"));
  Close();
}

TEST_F(CallbacksTest, AFailedMergeFailsOnlyItsReadsAndKeepsTheOperands) {
  Open("test.Flaky", kFail);
  Merge("k", "a");
  Put("other", "v");
  EXPECT_EQ("error " + std::to_string(PR_CODE_CORRUPTION) + "/" +
                std::to_string(PR_SUBCODE_MERGE_OPERATOR_FAILED),
            Read("k"));
  EXPECT_EQ("v", Read("other"));
  // The flush and the compaction keep the operand, and the database stays writable.
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err)) << err;
  Put("after", "w");
  Close();
  Open("test.Flaky", kConcatenate);
  EXPECT_EQ("a", Read("k"));
  EXPECT_EQ("w", Read("after"));
  Close();
}

TEST_F(CallbacksTest, AnInputCanBeTheResultWithoutACopy) {
  Open("test.Last", kUseLastOperand);
  Put("k", "base");
  Merge("k", "a");
  Merge("k", "b");
  EXPECT_EQ("b", Read("k"));
  Close();
  Open("test.Last", kUseExisting);
  EXPECT_EQ("base", Read("k"));
  Merge("bare", "a");
  // No existing value to name: the merge fails.
  EXPECT_EQ("error " + std::to_string(PR_CODE_CORRUPTION) + "/" +
                std::to_string(PR_SUBCODE_MERGE_OPERATOR_FAILED),
            Read("bare"));
  Close();
}

TEST_F(CallbacksTest, ADatabaseOpensOnlyWithTheOperatorItMergedWith) {
  Open("test.First", kConcatenate);
  Merge("k", "a");
  Close();
  Options other;
  pr_merge_operator_t* merge_operator = nullptr;
  ASSERT_EQ(PR_OK, pr_merge_operator_create("test.Second", kConcatenate, FullMerge, nullptr,
                                            &merge_operator, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_merge_operator_object(other.handle, merge_operator, err, sizeof err));
  pr_merge_operator_destroy(merge_operator);
  int32_t s = pr_db_open(other.handle, dir.path().c_str(), &db, err, sizeof err);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(s));
  EXPECT_NE(nullptr, std::strstr(err, "was last opened with merge operator test.First, not test.Second"))
      << err;
}

TEST_F(CallbacksTest, NamesOutOfRangeOrOfBuiltInsAreRefusedAndTheStateReleased) {
  for (const std::string& name :
       {std::string(""), std::string("two words"), std::string("a;b=c"), std::string("{x}"),
        std::string("a:b"), std::string(256, 'x'), std::string("uint64add"),
        std::string("StringAppendOperator"), std::string("max")}) {
    pr_merge_operator_t* merge_operator = nullptr;
    int32_t s = pr_merge_operator_create(name.c_str(), kConcatenate, FullMerge, nullptr,
                                         &merge_operator, err, sizeof err);
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(s)) << name;
    EXPECT_EQ(nullptr, merge_operator) << name;
    EXPECT_EQ(std::vector<uint64_t>{kConcatenate}, TakeReleased()) << name;
  }
}

// The exit's own status, once a callback was called (C6). The child is a
// fork, without RocksDB's threads (a re-executed binary cannot run under
// qemu-user): it opens a database of its own and reads from the memtable
// only, starting no background work.
TEST_F(CallbacksTest, TheExitEndsWithItsStatusOnceACallbackWasCalled) {
  EXPECT_EXIT(
      {
        Open("test.Concatenate", kConcatenate);
        Merge("k", "a");
        Merge("k", "b");
        std::exit(Read("k") == "a|b" ? 3 : 1);
      },
      ::testing::ExitedWithCode(3), "");
}

}  // namespace
