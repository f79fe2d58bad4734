// GoogleTest tests of pinrock.h's status codes and of the conventions every
// call shares (src/internal.h): the code and subcode folded into one int,
// keys and values beyond their limits refused before RocksDB sees them.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace pinrock_test;

namespace {

TEST(StatusTest, CodeAndSubcodeAreFoldedIntoOneInt) {
  int32_t status = PR_CODE_IO_ERROR | (PR_SUBCODE_NO_SPACE << 8);
  EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(status));
  EXPECT_EQ(PR_SUBCODE_NO_SPACE, PR_STATUS_SUBCODE(status));
}

// The lengths are checked before anything is read from the pointers, so a
// short buffer stands in for the oversized arguments.
TEST_F(DbTest, KeysAndValuesBeyondRocksDbsLengthsAreRefusedBeforeRocksDbSeesThem) {
  const uint8_t* data = bytes("k");
  const size_t too_long_key = (size_t{1} << 32) - 8;
  const size_t too_long_value = size_t{1} << 32;
  auto expect_refused = [&](int32_t status, const char* what) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, status) << what;
    EXPECT_NE(nullptr, std::strstr(err, "exceeds the limit")) << what << ": " << err;
  };
  pr_get_result_t result;
  expect_refused(pr_db_put(db, data, too_long_key, data, 1, err, sizeof err), "put key");
  expect_refused(pr_db_put(db, data, 1, data, too_long_value, err, sizeof err), "put value");
  expect_refused(pr_db_delete(db, data, too_long_key, err, sizeof err), "delete");
  expect_refused(pr_db_get(db, data, too_long_key, nullptr, 0, 0, &result, err, sizeof err), "get");
  size_t key_len = too_long_key;
  uint64_t offset = 0, value_len = 0;
  int32_t key_status = PR_OK;
  expect_refused(pr_db_multi_get(db, 1, &data, &key_len, nullptr, 0, &offset, &value_len,
                                 &key_status, err, sizeof err),
                 "multi_get");
  uint64_t size = 0;
  expect_refused(pr_db_compact_range(db, data, too_long_key, nullptr, 0, PR_RANGE_HAS_BEGIN, err,
                                     sizeof err),
                 "compact_range");
  expect_refused(pr_db_approximate_size(db, data, 1, data, too_long_key, &size, err, sizeof err),
                 "approximate_size");
  pr_cursor_t* cursor = nullptr;
  expect_refused(pr_cursor_open(db, nullptr, 0, 0, data, too_long_key, nullptr, 0,
                                PR_RANGE_HAS_BEGIN, &cursor, err, sizeof err),
                 "cursor bound");
  EXPECT_EQ(nullptr, cursor);
  ASSERT_EQ(PR_OK, pr_cursor_open(db, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0, &cursor, err,
                                  sizeof err));
  pr_cursor_entry_t entry;
  expect_refused(
      pr_cursor_move(cursor, PR_CURSOR_SEEK, data, too_long_key, &entry, err, sizeof err), "seek");
  pr_cursor_close(cursor);
  // Nothing was written, and the database works on.
  EXPECT_EQ(PR_NOT_FOUND, Get("k", 16, 0, &result));
  Put("k", "v");
  EXPECT_EQ(PR_OK, Get("k", 16, 0, &result));
}

}  // namespace
