// GoogleTest tests of pinrock.h's transactions section: transactional
// opens, pessimistic locks and their timeouts and deadlocks, optimistic
// conflicts, snapshots, save points, and the calls a transaction refuses.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

using namespace pinrock_test;

namespace {

pr_transaction_db_options_t DbOptions(int64_t lock_timeout_ms) {
  return pr_transaction_db_options_t{lock_timeout_ms, lock_timeout_ms, 0, 50,
                                     PR_OPTIMISTIC_VALIDATE_SERIAL};
}

class TransactionTest : public ::testing::TestWithParam<int32_t> {
 protected:
  void SetUp() override {
    pr_options_set_create_if_missing(options.handle, 1);
    OpenTransactional();
  }
  // Opens db, of the kind under test, with lock timeouts of 20 ms.
  void OpenTransactional() {
    pr_transaction_db_options_t txn_options = DbOptions(20);
    ASSERT_EQ(PR_OK, pr_db_open_transactional(options.handle, dir.path().c_str(), GetParam(),
                                              &txn_options, &db, err, sizeof err))
        << err;
  }
  void TearDown() override { EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err; }

  pr_txn_t* Begin(uint32_t flags = 0, int64_t lock_timeout_ms = -1) {
    pr_txn_options_t txn_options{flags, lock_timeout_ms, -1};
    pr_txn_t* txn = nullptr;
    EXPECT_EQ(PR_OK, pr_txn_begin(db, 0, &txn_options, &txn, err, sizeof err)) << err;
    return txn;
  }
  int32_t Put(pr_txn_t* txn, const std::string& key, const std::string& value) {
    return pr_txn_put(txn, db, bytes(key), key.size(), bytes(value), value.size(), err, sizeof err);
  }
  // The transaction's read of key as "value", "absent" or "error N".
  std::string Read(pr_txn_t* txn, const std::string& key, int32_t lock = PR_TXN_READ) {
    uint8_t buf[64];
    pr_get_result_t result;
    int32_t s = pr_txn_get(txn, db, nullptr, 0, lock, bytes(key), key.size(), buf, sizeof buf, 0,
                           &result, err, sizeof err);
    if (s == PR_NOT_FOUND) return "absent";
    if (s != PR_OK) return "error " + std::to_string(s);
    return std::string(reinterpret_cast<const char*>(result.data), result.value_len);
  }
  // The database's read of key, outside any transaction.
  std::string ReadCommitted(const std::string& key) {
    uint8_t buf[64];
    pr_get_result_t result;
    int32_t s = pr_db_get(db, bytes(key), key.size(), buf, sizeof buf, 0, &result, err, sizeof err);
    if (s == PR_NOT_FOUND) return "absent";
    if (s != PR_OK) return "error " + std::to_string(s);
    return std::string(reinterpret_cast<const char*>(result.data), result.value_len);
  }
  bool Pessimistic() const { return GetParam() == PR_TRANSACTIONS_PESSIMISTIC; }

  TempDir dir;
  Options options;
  pr_db_t* db = nullptr;
  char err[256] = {0};
};

INSTANTIATE_TEST_SUITE_P(Kinds, TransactionTest,
                         ::testing::Values(PR_TRANSACTIONS_PESSIMISTIC, PR_TRANSACTIONS_OPTIMISTIC),
                         [](const ::testing::TestParamInfo<int32_t>& kind) {
                           return kind.param == PR_TRANSACTIONS_PESSIMISTIC ? "Pessimistic"
                                                                            : "Optimistic";
                         });

TEST_P(TransactionTest, ACommitAppliesTheWritesTheTransactionAloneSawBefore) {
  std::string old_value = "old";
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("b"), 1, bytes(old_value), old_value.size(), err, sizeof err));
  EXPECT_EQ(GetParam(), pr_db_transactions(db));
  pr_txn_t* txn = Begin();
  ASSERT_EQ(PR_OK, Put(txn, "a", "1")) << err;
  ASSERT_EQ(PR_OK, pr_txn_delete(txn, db, bytes("b"), 1, err, sizeof err)) << err;
  uint64_t count = 0, size = 0;
  pr_txn_size(txn, &count, &size);
  EXPECT_EQ(2u, count);
  EXPECT_GT(size, 12u);
  EXPECT_EQ("1", Read(txn, "a"));
  EXPECT_EQ("absent", Read(txn, "b"));
  EXPECT_EQ("absent", ReadCommitted("a"));
  EXPECT_EQ("old", ReadCommitted("b"));
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err)) << err;
  EXPECT_EQ("1", ReadCommitted("a"));
  EXPECT_EQ("absent", ReadCommitted("b"));
  // Done: every call but free is refused.
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, Put(txn, "c", "3"));
  EXPECT_EQ("error 4", Read(txn, "a"));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_commit(txn, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_rollback(txn, err, sizeof err));
  pr_txn_free(txn);
  EXPECT_EQ("absent", ReadCommitted("c"));
}

TEST_P(TransactionTest, RollbackAndFreeDiscardTheWrites) {
  pr_txn_t* rolled_back = Begin();
  ASSERT_EQ(PR_OK, Put(rolled_back, "a", "1"));
  ASSERT_EQ(PR_OK, pr_txn_rollback(rolled_back, err, sizeof err)) << err;
  pr_txn_free(rolled_back);
  pr_txn_t* freed = Begin();
  ASSERT_EQ(PR_OK, Put(freed, "b", "2"));
  pr_txn_free(freed);
  EXPECT_EQ("absent", ReadCommitted("a"));
  EXPECT_EQ("absent", ReadCommitted("b"));
  pr_txn_free(nullptr);
}

TEST_P(TransactionTest, SavePointsNestAndRollBackOnlyTheWritesSince) {
  pr_txn_t* txn = Begin();
  EXPECT_EQ(PR_NOT_FOUND, pr_txn_rollback_to_savepoint(txn, err, sizeof err));
  EXPECT_EQ(PR_NOT_FOUND, pr_txn_pop_savepoint(txn, err, sizeof err));
  ASSERT_EQ(PR_OK, Put(txn, "a", "1"));
  ASSERT_EQ(PR_OK, pr_txn_set_savepoint(txn, err, sizeof err));
  ASSERT_EQ(PR_OK, Put(txn, "b", "2"));
  ASSERT_EQ(PR_OK, pr_txn_set_savepoint(txn, err, sizeof err));
  ASSERT_EQ(PR_OK, Put(txn, "c", "3"));
  ASSERT_EQ(PR_OK, pr_txn_pop_savepoint(txn, err, sizeof err));  // keeps c
  ASSERT_EQ(PR_OK, pr_txn_rollback_to_savepoint(txn, err, sizeof err));  // drops b and c
  EXPECT_EQ("1", Read(txn, "a"));
  EXPECT_EQ("absent", Read(txn, "b"));
  EXPECT_EQ("absent", Read(txn, "c"));
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err));
  pr_txn_free(txn);
  EXPECT_EQ("1", ReadCommitted("a"));
  EXPECT_EQ("absent", ReadCommitted("b"));
}

TEST_P(TransactionTest, ASnapshotMakesReadsRepeatableAndALaterWriteByAnotherAConflict) {
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("1"), 1, err, sizeof err));
  pr_txn_t* txn = Begin(PR_TXN_SET_SNAPSHOT);
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("2"), 1, err, sizeof err)) << err;
  EXPECT_EQ("1", Read(txn, "k"));  // as of the snapshot
  if (Pessimistic()) {
    // The write after the snapshot is found when the key is locked.
    EXPECT_EQ("error " + std::to_string(PR_CODE_BUSY), Read(txn, "k", PR_TXN_READ_FOR_UPDATE));
    ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err));
  } else {
    EXPECT_EQ("1", Read(txn, "k", PR_TXN_READ_FOR_UPDATE));
    EXPECT_EQ(PR_CODE_BUSY, pr_txn_commit(txn, err, sizeof err));
    EXPECT_EQ("error 4", Read(txn, "k"));  // a failed commit ends it
  }
  pr_txn_free(txn);
  // A snapshot taken on the next operation, and another snapshot than the
  // transaction's refused for a read for update.
  pr_txn_t* later = Begin();
  ASSERT_EQ(PR_OK, pr_txn_set_snapshot(later, 1, err, sizeof err));
  ASSERT_EQ(PR_OK, Put(later, "other", "x"));
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("3"), 1, err, sizeof err)) << err;
  EXPECT_EQ("2", Read(later, "k"));
  pr_snapshot_t* snapshot = nullptr;
  ASSERT_EQ(PR_OK, pr_db_snapshot_create(db, &snapshot, err, sizeof err));
  uint8_t buf[8];
  pr_get_result_t result;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_txn_get(later, db, snapshot, 0, PR_TXN_READ_FOR_UPDATE, bytes("k"), 1, buf,
                       sizeof buf, 0, &result, err, sizeof err));
  EXPECT_EQ(PR_OK, pr_txn_get(later, db, snapshot, 0, PR_TXN_READ, bytes("k"), 1, buf, sizeof buf,
                              0, &result, err, sizeof err));
  EXPECT_EQ('3', buf[0]);
  pr_db_snapshot_release(db, snapshot);
  pr_txn_free(later);
}

// RocksDB 9.10's pessimistic commit refused a transaction whose snapshot
// on the next operation was still pending ("Must set transaction commit
// timestamp"), and the transaction ended with nothing applied.
TEST_P(TransactionTest, ACommitWithASnapshotStillPendingCommits) {
  pr_txn_t* pending_before_any_write = Begin();
  ASSERT_EQ(PR_OK, pr_txn_set_snapshot(pending_before_any_write, 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_commit(pending_before_any_write, err, sizeof err)) << err;
  pr_txn_free(pending_before_any_write);
  pr_txn_t* pending_after_a_write = Begin();
  ASSERT_EQ(PR_OK, Put(pending_after_a_write, "k", "v"));
  ASSERT_EQ(PR_OK, pr_txn_set_snapshot(pending_after_a_write, 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_commit(pending_after_a_write, err, sizeof err)) << err;
  pr_txn_free(pending_after_a_write);
  EXPECT_EQ("v", ReadCommitted("k"));
  if (!Pessimistic()) return;  // two-phase commit is pessimistic only
  pr_txn_t* prepared = Begin();
  ASSERT_EQ(PR_OK, pr_txn_set_name(prepared, bytes("pending"), 7, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, Put(prepared, "k", "prepared"));
  ASSERT_EQ(PR_OK, pr_txn_set_snapshot(prepared, 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_prepare(prepared, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_commit(prepared, err, sizeof err)) << err;
  pr_txn_free(prepared);
  EXPECT_EQ("prepared", ReadCommitted("k"));
}

// RocksDB 9.10 takes a snapshot asked for at the next operation inside
// GetForUpdate, after the read options naming the transaction's former
// snapshot were made, and releases that one: the read went through a freed
// snapshot (an older value here; a heap-use-after-free under ASan).
TEST_P(TransactionTest, AReadForUpdateReadsAsOfTheSnapshotItsOperationTakes) {
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("1"), 1, err, sizeof err));
  pr_txn_t* txn = Begin();
  ASSERT_EQ(PR_OK, pr_txn_set_savepoint(txn, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_set_snapshot(txn, 0, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_set_snapshot(txn, 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("2"), 1, err, sizeof err));
  EXPECT_EQ("2", Read(txn, "k", PR_TXN_READ_FOR_UPDATE));
  // Rolled back to the save point, the snapshot is again to be taken at the next operation.
  ASSERT_EQ(PR_OK, pr_txn_rollback_to_savepoint(txn, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_set_snapshot(txn, 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_set_savepoint(txn, err, sizeof err));
  ASSERT_EQ(PR_OK, Put(txn, "other", "x"));
  ASSERT_EQ(PR_OK, pr_txn_rollback_to_savepoint(txn, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("3"), 1, err, sizeof err));
  EXPECT_EQ("3", Read(txn, "k", PR_TXN_READ_FOR_UPDATE));
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err)) << err;
  pr_txn_free(txn);
}

TEST_P(TransactionTest, AMultiGetReadsTheTransactionsWritesOverTheDatabaseAndMayLockEveryKey) {
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("a"), 1, bytes("db-a"), 4, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("b"), 1, bytes("db-b"), 4, err, sizeof err));
  pr_txn_t* txn = Begin();
  ASSERT_EQ(0, Put(txn, "b", "tx-b"));
  ASSERT_EQ(0, Put(txn, "c", "tx-c"));
  ASSERT_EQ(PR_OK, pr_txn_delete(txn, db, bytes("a"), 1, err, sizeof err));
  const std::string names = "abcd";
  const uint8_t* keys[] = {bytes(names), bytes(names) + 1, bytes(names) + 2, bytes(names) + 3};
  size_t key_lens[] = {1, 1, 1, 1};
  for (int32_t lock : {PR_TXN_READ, PR_TXN_READ_FOR_UPDATE}) {
    uint8_t buf[16];
    uint64_t offsets[4], lens[4];
    int32_t statuses[4];
    ASSERT_EQ(PR_OK, pr_txn_multi_get(txn, db, nullptr, 0, lock, 4, keys, key_lens, buf, sizeof buf,
                                      offsets, lens, statuses, err, sizeof err))
        << err;
    EXPECT_EQ(PR_NOT_FOUND, statuses[0]);
    EXPECT_EQ(PR_OK, statuses[1]);
    EXPECT_EQ("tx-b", std::string(reinterpret_cast<const char*>(buf + offsets[1]), lens[1]));
    EXPECT_EQ(PR_OK, statuses[2]);
    EXPECT_EQ("tx-c", std::string(reinterpret_cast<const char*>(buf + offsets[2]), lens[2]));
    EXPECT_EQ(PR_NOT_FOUND, statuses[3]);
    pr_get_result_t results[4];
    ASSERT_EQ(PR_OK, pr_txn_multi_get_pinned(txn, db, nullptr, 0, lock, 4, keys, key_lens, results,
                                             statuses, err, sizeof err))
        << err;
    EXPECT_EQ(nullptr, results[0].pin);
    EXPECT_EQ("tx-c", std::string(reinterpret_cast<const char*>(results[2].data), results[2].value_len));
    for (pr_get_result_t& result : results) pr_pin_release(result.pin);
  }
  // Read for update, "d" (absent) is locked too: another's write of it waits.
  pr_txn_t* other = Begin();
  if (Pessimistic()) {
    EXPECT_EQ(PR_CODE_TIMED_OUT | (PR_SUBCODE_LOCK_TIMEOUT << 8), Put(other, "d", "other"));
  }
  pr_txn_free(other);
  uint8_t buf[4];
  uint64_t offsets[4], lens[4];
  int32_t statuses[4];
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_multi_get(txn, db, nullptr, 0, 7, 4, keys, key_lens, buf,
                                                       sizeof buf, offsets, lens, statuses, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err)) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_txn_multi_get(txn, db, nullptr, 0, PR_TXN_READ, 4, keys, key_lens, buf, sizeof buf, offsets,
                             lens, statuses, err, sizeof err));
  pr_txn_free(txn);
}

TEST_P(TransactionTest, ALargeValueIsPinnedAndOutlivesItsTransaction) {
  std::string large(1000, 'v');
  pr_txn_t* txn = Begin();
  ASSERT_EQ(PR_OK, Put(txn, "own", large));
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("db"), 2, bytes(large), large.size(), err, sizeof err));
  pr_get_result_t own, stored;
  ASSERT_EQ(PR_OK, pr_txn_get(txn, db, nullptr, 0, PR_TXN_READ, bytes("own"), 3, nullptr, 0,
                              PR_GET_PIN_IF_LARGER, &own, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_get(txn, db, nullptr, 0, PR_TXN_READ, bytes("db"), 2, nullptr, 0,
                              PR_GET_PIN_IF_LARGER, &stored, err, sizeof err));
  pr_txn_free(txn);
  ASSERT_NE(nullptr, own.pin);
  ASSERT_NE(nullptr, stored.pin);
  EXPECT_EQ(large, std::string(reinterpret_cast<const char*>(own.data), own.value_len));
  EXPECT_EQ(large, std::string(reinterpret_cast<const char*>(stored.data), stored.value_len));
  pr_pin_release(own.pin);
  pr_pin_release(stored.pin);
}

TEST_P(TransactionTest, WhatATransactionCannotDoIsRefusedAndChangesNothing) {
  pr_txn_t* txn = Begin();
  // No merge operator in this database.
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_txn_merge(txn, db, bytes("m"), 1, bytes("12345678"), 8, err, sizeof err));
  EXPECT_NE(nullptr, strstr(err, "no merge operator")) << err;
  EXPECT_EQ("error 4", Read(txn, "k", 7));  // no such lock mode
  // A key over the limit.
  std::string long_key(PR_MAX_KEY_BYTES + 1, 'k');
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, Put(txn, long_key, "v"));
  // A family of another database.
  TempDir other_dir;
  Options other_options;
  pr_options_set_create_if_missing(other_options.handle, 1);
  pr_db_t* other = nullptr;
  ASSERT_EQ(PR_OK, pr_db_open(other_options.handle, other_dir.path().c_str(), &other, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_txn_put(txn, other, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  // A database not opened for transactions.
  pr_txn_options_t txn_options{0, -1, -1};
  pr_txn_t* refused = reinterpret_cast<pr_txn_t*>(0x1);
  EXPECT_EQ(PR_CODE_NOT_SUPPORTED, pr_txn_begin(other, 0, &txn_options, &refused, err, sizeof err));
  EXPECT_EQ(nullptr, refused);
  EXPECT_EQ(0, pr_db_transactions(other));
  EXPECT_EQ(PR_OK, pr_db_close(other, err, sizeof err));
  // Options out of range.
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_txn_begin(db, PR_WRITE_SYNC | PR_WRITE_DISABLE_WAL, &txn_options, &refused, err, sizeof err));
  pr_txn_options_t bad_timeout{0, -2, -1};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_begin(db, 0, &bad_timeout, &refused, err, sizeof err));
  pr_txn_options_t bad_flags{64, -1, -1};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_begin(db, 0, &bad_flags, &refused, err, sizeof err));
  // Closing with a transaction open is refused and changes nothing.
  EXPECT_EQ(PR_CODE_ABORTED, pr_db_close(db, err, sizeof err));
  ASSERT_EQ(PR_OK, Put(txn, "k", "v"));
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err));
  pr_txn_free(txn);
  EXPECT_EQ("v", ReadCommitted("k"));
}

TEST_P(TransactionTest, WritesOfFamiliesCommitTogetherAndADroppedFamilyIsRefused) {
  pr_db_t* family = nullptr;
  ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "f", &family, err, sizeof err)) << err;
  pr_txn_t* txn = Begin();
  ASSERT_EQ(PR_OK, Put(txn, "k", "default"));
  ASSERT_EQ(PR_OK, pr_txn_put(txn, family, bytes("k"), 1, bytes("f"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err));
  pr_txn_free(txn);
  uint8_t buf[8];
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, pr_db_get(family, bytes("k"), 1, buf, sizeof buf, 0, &result, err, sizeof err));
  EXPECT_EQ('f', buf[0]);
  EXPECT_EQ("default", ReadCommitted("k"));
  ASSERT_EQ(PR_OK, pr_db_drop_family(family, err, sizeof err));
  pr_txn_t* after = Begin();
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_txn_put(after, family, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  pr_txn_free(after);
  ASSERT_EQ(PR_OK, pr_db_family_release(family, err, sizeof err));
}

TEST_P(TransactionTest, ARangeDeleteIsRefusedBeforeAnythingIsWritten) {
  Batch batch;
  batch.Put("k", "v").DeleteRange("a", "z");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err));
  EXPECT_NE(nullptr, strstr(err, "track keys, not ranges")) << err;
  EXPECT_EQ("absent", ReadCommitted("k"));
}

TEST_P(TransactionTest, ACursorSeesTheTransactionsWritesOverTheDatabaseWithinItsBounds) {
  for (const char* key : {"a", "b", "c", "e"}) {
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), 1, bytes("db"), 2, err, sizeof err));
  }
  pr_txn_t* txn = Begin();
  ASSERT_EQ(PR_OK, Put(txn, "d", "tx"));
  ASSERT_EQ(PR_OK, pr_txn_delete(txn, db, bytes("b"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, Put(txn, "c", "tx"));
  pr_cursor_t* cursor = nullptr;
  ASSERT_EQ(PR_OK, pr_txn_cursor_open(txn, db, nullptr, 0, 0, bytes("b"), 1, bytes("e"), 1,
                                      PR_RANGE_HAS_BEGIN | PR_RANGE_HAS_END, &cursor, err, sizeof err))
      << err;
  EXPECT_EQ("c=tx", Move(cursor, PR_CURSOR_FIRST));
  EXPECT_EQ("d=tx", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("d=tx", Move(cursor, PR_CURSOR_LAST));
  // A write made while the cursor is open shows through it.
  ASSERT_EQ(PR_OK, Put(txn, "bb", "new"));
  EXPECT_EQ("bb=new", Move(cursor, PR_CURSOR_SEEK, "b"));
  EXPECT_EQ(PR_CODE_NOT_SUPPORTED, pr_cursor_refresh(cursor, nullptr, err, sizeof err));
  // Nothing may free what the cursor reads while it is open.
  EXPECT_EQ(PR_CODE_ABORTED, pr_txn_commit(txn, err, sizeof err));
  EXPECT_EQ(PR_CODE_ABORTED, pr_txn_rollback(txn, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_set_savepoint(txn, err, sizeof err));
  EXPECT_EQ(PR_CODE_ABORTED, pr_txn_rollback_to_savepoint(txn, err, sizeof err));
  pr_txn_free(txn);  // left as it is
  EXPECT_EQ("bb=new", Move(cursor, PR_CURSOR_FIRST));
  EXPECT_EQ(PR_CODE_ABORTED, pr_db_close(db, err, sizeof err));
  pr_cursor_close(cursor);
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err)) << err;
  pr_txn_free(txn);
  EXPECT_EQ("tx", ReadCommitted("d"));
  EXPECT_EQ("absent", ReadCommitted("b"));
}

TEST(TransactionOpenTest, AnUnknownKindOrOptionOutOfRangeIsRefusedBeforeAnythingIsCreated) {
  TempDir dir;
  Options options;
  pr_options_set_create_if_missing(options.handle, 1);
  char err[256] = {0};
  pr_db_t* db = reinterpret_cast<pr_db_t*>(0x1);
  pr_transaction_db_options_t good = DbOptions(10);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_db_open_transactional(options.handle, dir.path().c_str(), 3, &good, &db, err, sizeof err));
  EXPECT_EQ(nullptr, db);
  for (pr_transaction_db_options_t bad : {DbOptions(-2), pr_transaction_db_options_t{1, 1, 0, -1, 0},
                                          pr_transaction_db_options_t{1, 1, 0, 1, 2}}) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
              pr_db_open_transactional(options.handle, dir.path().c_str(), PR_TRANSACTIONS_OPTIMISTIC,
                                       &bad, &db, err, sizeof err));
  }
  EXPECT_FALSE(fs::exists(dir.path()));
  // An existing database opens transactional, and what it holds stays.
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open_transactional(options.handle, dir.path().c_str(),
                                            PR_TRANSACTIONS_PESSIMISTIC, &good, &db, err, sizeof err))
      << err;
  uint8_t buf[8];
  pr_get_result_t result;
  EXPECT_EQ(PR_OK, pr_db_get(db, bytes("k"), 1, buf, sizeof buf, 0, &result, err, sizeof err));
  // The database's directory is claimed as by pr_db_open.
  pr_db_t* twice = nullptr;
  EXPECT_EQ(PR_CODE_IO_ERROR, pr_db_open(options.handle, dir.path().c_str(), &twice, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
}

class PessimisticTest : public TransactionTest {};

INSTANTIATE_TEST_SUITE_P(Kinds, PessimisticTest, ::testing::Values(PR_TRANSACTIONS_PESSIMISTIC));

TEST_P(PessimisticTest, ABatchSingleDeleteIsRefusedForItWouldNotBeLocked) {
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  Batch batch;
  batch.Put("other", "v").SingleDelete("k");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err));
  EXPECT_NE(nullptr, strstr(err, "does not lock")) << err;
  EXPECT_EQ("v", ReadCommitted("k"));
  EXPECT_EQ("absent", ReadCommitted("other"));
  // In a transaction it is locked, and allowed.
  pr_txn_t* txn = Begin();
  ASSERT_EQ(PR_OK, pr_txn_single_delete(txn, db, bytes("k"), 1, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err));
  pr_txn_free(txn);
  EXPECT_EQ("absent", ReadCommitted("k"));
}

// RocksDB 9.10's drop of a pessimistic database's family deleted every
// thread's cache of lock maps, also one another thread was reading while it
// locked a key: writers crashed while families were dropped.
TEST_P(PessimisticTest, FamiliesDropWhileOtherThreadsLockKeys) {
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 2; t++) {
    writers.emplace_back([&, t] {
      char thread_err[256];
      for (int i = 0; !stop.load(); i++) {
        std::string key = std::to_string(t) + "-" + std::to_string(i % 100);
        if (pr_db_put(db, bytes(key), key.size(), bytes("v"), 1, thread_err, sizeof thread_err) != PR_OK) {
          failures++;
        }
      }
    });
  }
  for (int i = 0; i < 300; i++) {
    pr_db_t* family = nullptr;
    std::string name = "f" + std::to_string(i);
    ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, name.c_str(), &family, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_db_put(family, bytes("k"), 1, bytes("v"), 1, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_db_drop_family(family, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_db_family_release(family, err, sizeof err)) << err;
  }
  stop = true;
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(0, failures.load());
}

// A pessimistic database whose writes stall (no_slowdown writes fail with
// PR_CODE_INCOMPLETE) once Stall fills its memtables: its flushes crawl
// under a rate limiter of 1 KB/s.
class StallingDatabase {
 public:
  StallingDatabase(const std::string& path, int32_t kind) {
    EXPECT_EQ(PR_OK, pr_rate_limiter_create(1024, 100000, 10, PR_RATE_LIMIT_WRITES, 0, &limiter_, err_,
                                            sizeof err_))
        << err_;
    pr_options_set_create_if_missing(options.handle, 1);
    EXPECT_EQ(PR_OK, pr_options_set_rate_limiter(options.handle, limiter_, err_, sizeof err_)) << err_;
    EXPECT_EQ(PR_OK, pr_options_set_string(options.handle, PR_OPTION_SCOPE_FAMILY,
                                           "write_buffer_size=65536;max_write_buffer_number=2", err_,
                                           sizeof err_))
        << err_;
    pr_transaction_db_options_t txn_db_options = DbOptions(20);
    EXPECT_EQ(PR_OK, pr_db_open_transactional(options.handle, path.c_str(), kind, &txn_db_options, &db, err_,
                                              sizeof err_))
        << err_;
  }
  ~StallingDatabase() {
    if (db != nullptr) EXPECT_EQ(PR_OK, pr_db_close(db, err_, sizeof err_)) << err_;
    pr_rate_limiter_destroy(limiter_);
  }
  // Writes until a write stalls; returns that write's status.
  int32_t Stall() {
    const std::string value(4096, 'v');
    int32_t s = PR_OK;
    for (int i = 0; s == PR_OK && i < 100000; i++) {
      Batch batch;
      batch.Put("fill" + std::to_string(i), value);
      s = pr_db_write(db, batch.data(), batch.size(), PR_WRITE_NO_SLOWDOWN, err_, sizeof err_);
    }
    return s;
  }

  Options options;
  pr_db_t* db = nullptr;

 private:
  pr_rate_limiter_t* limiter_ = nullptr;
  char err_[256] = {0};
};

// RocksDB 9.10's failed commit without prepare of a named transaction
// unregisters its name but leaves it awaiting commit, and deleting it then
// unregistered the name again: a crash. The commit fails here on a write
// stall (no_slowdown) while flushes crawl under a rate limiter.
TEST_P(PessimisticTest, ANamedTransactionWhoseCommitFailsIsFreedAndLeavesNothing) {
  StallingDatabase stalling(dir.path("stalled"), GetParam());
  pr_db_t* stalled = stalling.db;
  ASSERT_EQ(PR_CODE_INCOMPLETE, PR_STATUS_CODE(stalling.Stall()));
  pr_txn_options_t txn_options{0, -1, -1};
  pr_txn_t* txn = nullptr;
  ASSERT_EQ(PR_OK, pr_txn_begin(stalled, PR_WRITE_NO_SLOWDOWN, &txn_options, &txn, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_set_name(txn, bytes("named"), 5, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_put(txn, stalled, bytes("k"), 1, bytes("v"), 1, err, sizeof err)) << err;
  EXPECT_EQ(PR_CODE_INCOMPLETE, PR_STATUS_CODE(pr_txn_commit(txn, err, sizeof err)));
  pr_txn_free(txn);
  // The name is free again, and the key was never written nor is it locked.
  ASSERT_EQ(PR_OK, pr_txn_begin(stalled, 0, &txn_options, &txn, err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, pr_txn_set_name(txn, bytes("named"), 5, err, sizeof err)) << err;
  uint8_t buf[8];
  pr_get_result_t result;
  EXPECT_EQ(PR_NOT_FOUND, pr_txn_get(txn, stalled, nullptr, 0, PR_TXN_READ_FOR_UPDATE, bytes("k"), 1, buf,
                                     sizeof buf, 0, &result, err, sizeof err));
  pr_txn_free(txn);
}

// A prepared transaction whose commit fails is neither committable nor
// rollbackable in RocksDB 9.10: the database holds it, with its locks, and
// the next open recovers it prepared.
TEST_P(PessimisticTest, APreparedTransactionWhoseCommitFailsIsHeldAndRecoveredAtTheNextOpen) {
  const std::string path = dir.path("stalled");
  {
    StallingDatabase stalling(path, GetParam());
    pr_txn_options_t txn_options{0, -1, -1};
    pr_txn_t* txn = nullptr;
    ASSERT_EQ(PR_OK, pr_txn_begin(stalling.db, PR_WRITE_NO_SLOWDOWN, &txn_options, &txn, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_txn_set_name(txn, bytes("held"), 4, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_txn_put(txn, stalling.db, bytes("k"), 1, bytes("v"), 1, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_txn_prepare(txn, err, sizeof err)) << err;
    ASSERT_EQ(PR_CODE_INCOMPLETE, PR_STATUS_CODE(stalling.Stall()));
    EXPECT_EQ(PR_CODE_INCOMPLETE, PR_STATUS_CODE(pr_txn_commit(txn, err, sizeof err)));
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_rollback(txn, err, sizeof err)) << "done";
    pr_txn_free(txn);
    // Its lock is held: another transaction's read for update times out.
    pr_txn_t* other = nullptr;
    txn_options.lock_timeout_ms = 20;
    ASSERT_EQ(PR_OK, pr_txn_begin(stalling.db, 0, &txn_options, &other, err, sizeof err)) << err;
    uint8_t buf[8];
    pr_get_result_t result;
    EXPECT_EQ(PR_CODE_TIMED_OUT, PR_STATUS_CODE(pr_txn_get(other, stalling.db, nullptr, 0, PR_TXN_READ_FOR_UPDATE,
                                                           bytes("k"), 1, buf, sizeof buf, 0, &result, err,
                                                           sizeof err)));
    pr_txn_free(other);
    pr_db_t* family = nullptr;
    ASSERT_EQ(PR_OK, pr_db_create_family(stalling.db, nullptr, "f", &family, err, sizeof err)) << err;
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_drop_family(family, err, sizeof err));
  }
  pr_transaction_db_options_t txn_db_options = DbOptions(20);
  pr_db_t* reopened = nullptr;
  ASSERT_EQ(PR_OK, pr_db_open_transactional(options.handle, path.c_str(), GetParam(), &txn_db_options,
                                            &reopened, err, sizeof err))
      << err;
  pr_txn_t* recovered = nullptr;
  ASSERT_EQ(PR_OK, pr_db_take_prepared(reopened, &recovered, err, sizeof err)) << err;
  size_t name_len = 0;
  const uint8_t* name = pr_txn_name(recovered, &name_len);
  EXPECT_EQ("held", std::string(reinterpret_cast<const char*>(name), name_len));
  ASSERT_EQ(PR_OK, pr_txn_commit(recovered, err, sizeof err)) << err;
  pr_txn_free(recovered);
  uint8_t buf[8];
  pr_get_result_t result;
  EXPECT_EQ(PR_OK, pr_db_get(reopened, bytes("k"), 1, buf, sizeof buf, 0, &result, err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, pr_db_close(reopened, err, sizeof err)) << err;
}

// Two-phase commit: a prepared transaction survives a close (as it does a
// crash: the kill test in the Java suite), is recovered by name at the next
// open, and is decided then; one decided before the close is not recovered.
TEST_P(PessimisticTest, APreparedTransactionIsRecoveredAtTheNextOpenAndDecidedThen) {
  pr_txn_t* kept = Begin();
  ASSERT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_prepare(kept, err, sizeof err));  // no name
  ASSERT_EQ(PR_OK, pr_txn_set_name(kept, bytes("kept"), 4, err, sizeof err)) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_set_name(kept, bytes("again"), 5, err, sizeof err));
  ASSERT_EQ(0, Put(kept, "a", "1"));
  ASSERT_EQ(PR_OK, pr_txn_set_snapshot(kept, 0, err, sizeof err)) << err;  // kept past the free below
  ASSERT_EQ(PR_OK, pr_txn_prepare(kept, err, sizeof err)) << err;
  // Prepared: it reads, but changes nothing more.
  EXPECT_EQ("1", Read(kept, "a"));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, Put(kept, "b", "2"));
  EXPECT_EQ("error " + std::to_string(PR_CODE_INVALID_ARGUMENT), Read(kept, "a", PR_TXN_READ_FOR_UPDATE));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_set_savepoint(kept, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_prepare(kept, err, sizeof err));
  EXPECT_EQ("absent", ReadCommitted("a"));
  pr_txn_t* rolled_back = Begin();
  ASSERT_EQ(PR_OK, pr_txn_set_name(rolled_back, bytes("gone"), 4, err, sizeof err));
  ASSERT_EQ(0, Put(rolled_back, "c", "3"));
  ASSERT_EQ(PR_OK, pr_txn_prepare(rolled_back, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_rollback(rolled_back, err, sizeof err));
  pr_txn_free(rolled_back);
  // Another transaction may not take a name in use.
  pr_txn_t* same_name = Begin();
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_set_name(same_name, bytes("kept"), 4, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_set_name(same_name, bytes(""), 0, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_txn_set_name(same_name, bytes(std::string(513, 'n')), 513, err, sizeof err));
  pr_txn_free(same_name);
  // Freed undecided, it stays prepared with its lock (and snapshot), and is
  // handed out again.
  pr_txn_free(kept);
  pr_txn_t* other = Begin();
  EXPECT_EQ(PR_CODE_TIMED_OUT | (PR_SUBCODE_LOCK_TIMEOUT << 8), Put(other, "a", "2"));
  pr_txn_free(other);
  kept = nullptr;
  ASSERT_EQ(PR_OK, pr_db_take_prepared(db, &kept, err, sizeof err)) << err;
  size_t kept_len = 0;
  EXPECT_EQ("kept", std::string(reinterpret_cast<const char*>(pr_txn_name(kept, &kept_len)), 4));
  EXPECT_EQ(4u, kept_len);
  pr_txn_t* none = reinterpret_cast<pr_txn_t*>(0x1);
  EXPECT_EQ(PR_NOT_FOUND, pr_db_take_prepared(db, &none, err, sizeof err));
  EXPECT_EQ(nullptr, none);
  pr_txn_free(kept);
  // The close leaves it in the log.
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;

  // A plain open keeps the prepared transaction for a transactional one.
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  EXPECT_EQ("absent", ReadCommitted("a"));
  EXPECT_EQ(PR_NOT_FOUND, pr_db_take_prepared(db, &none, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  OpenTransactional();
  pr_txn_t* recovered = nullptr;
  ASSERT_EQ(PR_OK, pr_db_take_prepared(db, &recovered, err, sizeof err)) << err;
  EXPECT_EQ(PR_NOT_FOUND, pr_db_take_prepared(db, &none, err, sizeof err));
  size_t name_len = 0;
  const uint8_t* name = pr_txn_name(recovered, &name_len);
  EXPECT_EQ("kept", std::string(reinterpret_cast<const char*>(name), name_len));
  EXPECT_EQ("absent", ReadCommitted("a"));
  EXPECT_EQ("absent", ReadCommitted("c"));
  EXPECT_EQ("1", Read(recovered, "a"));
  ASSERT_EQ(PR_OK, pr_txn_commit(recovered, err, sizeof err)) << err;
  pr_txn_free(recovered);
  EXPECT_EQ("1", ReadCommitted("a"));
  // Decided, it is not recovered again; its values are in the log's
  // prepared section only, which a plain open keeps too.
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  EXPECT_EQ("1", ReadCommitted("a"));
  EXPECT_EQ("absent", ReadCommitted("c"));
  EXPECT_EQ(PR_NOT_FOUND, pr_db_take_prepared(db, &none, err, sizeof err));
}

namespace {

// The newest log file of the database in directory path.
std::filesystem::path NewestLog(const std::string& path) {
  std::filesystem::path newest;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    if (entry.path().extension() == ".log" && entry.path() > newest) newest = entry.path();
  }
  return newest;
}

}

// A recovery with allow_2pc (which a pessimistic open sets) used to keep the
// log files it recovered, so a log whose end a crash damaged was read again
// at every later open: its damage stopped the replay there, and every later
// log was dropped, with the synced writes acknowledged since. The engine's
// patch two-phase-recovery-drops-recovered-logs.patch (docs/native.md).
TEST_P(PessimisticTest, AWriteAcknowledgedAfterARecoveryFromADamagedLogSurvivesTheNextOpen) {
  std::string torn = Batch().Put("torn", "1").rep();
  ASSERT_EQ(PR_OK, pr_db_write(db, bytes(torn), torn.size(), 0, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  // The crash: the log keeps no whole record.
  std::filesystem::resize_file(NewestLog(dir.path()), 5);

  OpenTransactional();
  EXPECT_EQ("absent", ReadCommitted("torn"));
  std::string synced = Batch().Put("synced", "2").rep();
  ASSERT_EQ(PR_OK, pr_db_write(db, bytes(synced), synced.size(), PR_WRITE_SYNC, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  OpenTransactional();
  EXPECT_EQ("2", ReadCommitted("synced"));
}

// The recovery still keeps a damaged log that holds an undecided prepared
// transaction, before the damage: it is recovered at every open until it is
// decided, and the writes after it survive as well.
TEST_P(PessimisticTest, APreparedTransactionBeforeALogsDamageIsRecoveredUntilItIsDecided) {
  pr_txn_t* prepared = Begin();
  ASSERT_EQ(PR_OK, pr_txn_set_name(prepared, bytes("p"), 1, err, sizeof err)) << err;
  ASSERT_EQ(0, Put(prepared, "a", "1"));
  ASSERT_EQ(PR_OK, pr_txn_prepare(prepared, err, sizeof err)) << err;
  pr_txn_free(prepared);
  std::string after = Batch().Put("after", std::string(200, 'x')).rep();
  ASSERT_EQ(PR_OK, pr_db_write(db, bytes(after), after.size(), 0, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  // The crash: the log's second record is cut short.
  std::filesystem::path log = NewestLog(dir.path());
  std::filesystem::resize_file(log, std::filesystem::file_size(log) - 100);

  for (int open = 0; open < 2; open++) {
    OpenTransactional();
    EXPECT_EQ("absent", ReadCommitted("after"));
    EXPECT_EQ("absent", ReadCommitted("a"));
    pr_txn_t* recovered = nullptr;
    ASSERT_EQ(PR_OK, pr_db_take_prepared(db, &recovered, err, sizeof err)) << "open " << open << ": " << err;
    pr_txn_free(recovered);
    std::string synced = Batch().Put("synced" + std::to_string(open), "2").rep();
    ASSERT_EQ(PR_OK, pr_db_write(db, bytes(synced), synced.size(), PR_WRITE_SYNC, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }
  OpenTransactional();
  EXPECT_EQ("2", ReadCommitted("synced0"));
  EXPECT_EQ("2", ReadCommitted("synced1"));
  pr_txn_t* recovered = nullptr;
  ASSERT_EQ(PR_OK, pr_db_take_prepared(db, &recovered, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_commit(recovered, err, sizeof err)) << err;
  pr_txn_free(recovered);
  EXPECT_EQ("1", ReadCommitted("a"));
}

// RocksDB 9.10's open crashes on a prepared transaction that wrote into a
// family dropped since: no such transaction can be prepared, and no family
// dropped while one is undecided, in this open or another of the directory.
TEST_P(PessimisticTest, NoFamilyAPreparedTransactionWroteIntoCanBeDroppedBeforeItIsDecided) {
  pr_db_t* family = nullptr;
  ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "f", &family, err, sizeof err)) << err;
  pr_db_t* gone = nullptr;
  ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "gone", &gone, err, sizeof err)) << err;
  pr_txn_t* late = Begin();
  ASSERT_EQ(PR_OK, pr_txn_set_name(late, bytes("late"), 4, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_put(late, gone, bytes("g"), 1, bytes("1"), 1, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_drop_family(gone, err, sizeof err)) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_prepare(late, err, sizeof err));
  EXPECT_NE(nullptr, strstr(err, "dropped since")) << err;
  pr_txn_free(late);

  pr_txn_t* txn = Begin();
  ASSERT_EQ(PR_OK, pr_txn_set_name(txn, bytes("t"), 1, err, sizeof err)) << err;
  ASSERT_EQ(0, Put(txn, "a", "1"));
  ASSERT_EQ(PR_OK, pr_txn_put(txn, family, bytes("b"), 1, bytes("2"), 1, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_prepare(txn, err, sizeof err)) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_drop_family(family, err, sizeof err));
  pr_txn_free(txn);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_drop_family(family, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  // Nor in a plain open, which cannot see the prepared transactions.
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_family(db, "f", &family, err, sizeof err)) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_drop_family(family, err, sizeof err));
  EXPECT_NE(nullptr, strstr(err, "pessimistic")) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  OpenTransactional();
  pr_txn_t* recovered = nullptr;
  ASSERT_EQ(PR_OK, pr_db_take_prepared(db, &recovered, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_commit(recovered, err, sizeof err)) << err;
  pr_txn_free(recovered);
  EXPECT_EQ("1", ReadCommitted("a"));
  // Decided: the family may go.
  ASSERT_EQ(PR_OK, pr_db_family(db, "f", &family, err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, pr_db_drop_family(family, err, sizeof err)) << err;
}

// RocksDB's RepairDB applies every prepared section of the log, rolled
// back or not: a repair is refused while a pessimistic database's log files
// remain.
TEST_P(PessimisticTest, ARepairThatWouldApplyARolledBackTransactionIsRefused) {
  pr_txn_t* txn = Begin();
  ASSERT_EQ(PR_OK, pr_txn_set_name(txn, bytes("t"), 1, err, sizeof err)) << err;
  ASSERT_EQ(0, Put(txn, "a", "1"));
  ASSERT_EQ(PR_OK, pr_txn_prepare(txn, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_rollback(txn, err, sizeof err)) << err;
  pr_txn_free(txn);
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  EXPECT_EQ(PR_CODE_NOT_SUPPORTED, pr_db_repair(options.handle, dir.path().c_str(), err, sizeof err));
  EXPECT_NE(nullptr, strstr(err, "prepared transactions")) << err;
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  EXPECT_EQ("absent", ReadCommitted("a"));
}

TEST_P(PessimisticTest, ATransactionCommittingWithoutTheLogCannotBePrepared) {
  pr_txn_options_t txn_options{0, -1, -1};
  pr_txn_t* txn = nullptr;
  ASSERT_EQ(PR_OK, pr_txn_begin(db, PR_WRITE_DISABLE_WAL, &txn_options, &txn, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_txn_set_name(txn, bytes("t"), 1, err, sizeof err)) << err;
  ASSERT_EQ(0, Put(txn, "k", "v"));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_prepare(txn, err, sizeof err));
  EXPECT_NE(nullptr, strstr(err, "write-ahead log")) << err;
  // Still unprepared: it commits as an ordinary transaction.
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err)) << err;
  pr_txn_free(txn);
  EXPECT_EQ("v", ReadCommitted("k"));
}

TEST_P(PessimisticTest, AKeyLockedByAnotherTimesOutForTransactionsAndPlainWrites) {
  pr_txn_t* holder = Begin();
  ASSERT_EQ(PR_OK, Put(holder, "k", "held"));
  pr_txn_t* waiter = Begin(0, 0);
  EXPECT_EQ(PR_CODE_TIMED_OUT | (PR_SUBCODE_LOCK_TIMEOUT << 8), Put(waiter, "k", "w"));
  EXPECT_EQ(PR_CODE_TIMED_OUT | (PR_SUBCODE_LOCK_TIMEOUT << 8),
            pr_db_put(db, bytes("k"), 1, bytes("plain"), 5, err, sizeof err));
  EXPECT_EQ("error " + std::to_string(PR_CODE_TIMED_OUT | (PR_SUBCODE_LOCK_TIMEOUT << 8)),
            Read(waiter, "k", PR_TXN_READ_FOR_UPDATE_SHARED));
  // A plain read does not lock.
  EXPECT_EQ("absent", Read(waiter, "k"));
  // The failed write is not part of the waiter, which goes on.
  ASSERT_EQ(PR_OK, Put(waiter, "other", "w"));
  ASSERT_EQ(PR_OK, pr_txn_commit(holder, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_commit(waiter, err, sizeof err));
  pr_txn_free(holder);
  pr_txn_free(waiter);
  EXPECT_EQ("held", ReadCommitted("k"));
  EXPECT_EQ("w", ReadCommitted("other"));
}

TEST_P(PessimisticTest, SharedLocksAdmitEachOtherAndAWaitClosingACycleIsADeadlock) {
  pr_txn_t* first = Begin(PR_TXN_DETECT_DEADLOCKS, 5000);
  pr_txn_t* second = Begin(PR_TXN_DETECT_DEADLOCKS, 5000);
  EXPECT_EQ("absent", Read(first, "shared", PR_TXN_READ_FOR_UPDATE_SHARED));
  EXPECT_EQ("absent", Read(second, "shared", PR_TXN_READ_FOR_UPDATE_SHARED));
  ASSERT_EQ(PR_OK, Put(first, "a", "1"));
  ASSERT_EQ(PR_OK, Put(second, "b", "2"));
  // Each then wants the other's key: whichever waits second closes the
  // cycle and fails at once; rolling it back lets the other go on.
  auto want = [&](pr_txn_t* txn, const char* key) {
    char thread_err[256];
    int32_t status = pr_txn_put(txn, db, bytes(key), 1, bytes("x"), 1, thread_err, sizeof thread_err);
    if (status == (PR_CODE_BUSY | (PR_SUBCODE_DEADLOCK << 8))) {
      EXPECT_EQ(PR_OK, pr_txn_rollback(txn, thread_err, sizeof thread_err));
    }
    return status;
  };
  std::atomic<int32_t> first_status{-1};
  std::thread first_waits([&] { first_status = want(first, "b"); });
  int32_t second_status = want(second, "a");
  first_waits.join();
  const int32_t deadlock = PR_CODE_BUSY | (PR_SUBCODE_DEADLOCK << 8);
  EXPECT_TRUE((first_status == deadlock && second_status == PR_OK) ||
              (first_status == PR_OK && second_status == deadlock))
      << first_status << " " << second_status;
  pr_txn_t* winner = first_status == PR_OK ? first : second;
  ASSERT_EQ(PR_OK, pr_txn_commit(winner, err, sizeof err));
  pr_txn_free(first);
  pr_txn_free(second);
  // The winner's own key and the one it waited for; nothing of the other.
  EXPECT_EQ(winner == first ? "1" : "x", ReadCommitted("a"));
  EXPECT_EQ(winner == first ? "x" : "2", ReadCommitted("b"));
}

class OptimisticTest : public TransactionTest {};

INSTANTIATE_TEST_SUITE_P(Kinds, OptimisticTest, ::testing::Values(PR_TRANSACTIONS_OPTIMISTIC));

TEST_P(OptimisticTest, TwoPhaseCommitIsRefused) {
  pr_txn_t* txn = Begin();
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_set_name(txn, bytes("t"), 1, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_txn_prepare(txn, err, sizeof err));
  ASSERT_EQ(0, Put(txn, "k", "v"));
  ASSERT_EQ(PR_OK, pr_txn_commit(txn, err, sizeof err)) << err;
  pr_txn_free(txn);
  pr_txn_t* none = nullptr;
  EXPECT_EQ(PR_NOT_FOUND, pr_db_take_prepared(db, &none, err, sizeof err));
}

TEST_P(OptimisticTest, ACommitAfterAnotherWroteAKeyItWroteOrReadForUpdateConflictsAndAppliesNothing) {
  for (bool read_for_update : {false, true}) {
    pr_txn_t* txn = Begin();
    if (read_for_update) {
      EXPECT_EQ("plain", Read(txn, "k", PR_TXN_READ_FOR_UPDATE));
    } else {
      ASSERT_EQ(PR_OK, Put(txn, "k", "txn"));
    }
    ASSERT_EQ(PR_OK, Put(txn, "unrelated", "txn"));
    // No lock: the plain write goes ahead at once.
    std::string value = read_for_update ? "again" : "plain";
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes(value), value.size(), err, sizeof err));
    EXPECT_EQ(PR_CODE_BUSY, pr_txn_commit(txn, err, sizeof err));
    pr_txn_free(txn);
    EXPECT_EQ(value, ReadCommitted("k"));
    EXPECT_EQ("absent", ReadCommitted("unrelated"));
  }
  // A read alone is no conflict.
  pr_txn_t* reader = Begin();
  EXPECT_EQ("again", Read(reader, "k"));
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("new"), 3, err, sizeof err));
  ASSERT_EQ(PR_OK, Put(reader, "unrelated", "r"));
  EXPECT_EQ(PR_OK, pr_txn_commit(reader, err, sizeof err)) << err;
  pr_txn_free(reader);
  EXPECT_EQ("r", ReadCommitted("unrelated"));
}

TEST(OptimisticValidationTest, ParallelValidationFindsTheSameConflicts) {
  TempDir dir;
  Options options;
  pr_options_set_create_if_missing(options.handle, 1);
  char err[256] = {0};
  pr_db_t* db = nullptr;
  pr_transaction_db_options_t parallel{-1, -1, 0, 0, PR_OPTIMISTIC_VALIDATE_PARALLEL};
  ASSERT_EQ(PR_OK, pr_db_open_transactional(options.handle, dir.path().c_str(),
                                            PR_TRANSACTIONS_OPTIMISTIC, &parallel, &db, err, sizeof err));
  pr_txn_options_t txn_options{0, -1, -1};
  pr_txn_t* txn = nullptr;
  ASSERT_EQ(PR_OK, pr_txn_begin(db, PR_WRITE_SYNC, &txn_options, &txn, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_txn_put(txn, db, bytes("k"), 1, bytes("t"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes("p"), 1, err, sizeof err));
  EXPECT_EQ(PR_CODE_BUSY, pr_txn_commit(txn, err, sizeof err));
  pr_txn_free(txn);
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
}

}  // namespace
