// GoogleTest tests of what a dropped column family leaves behind: a family
// dropped and re-created while other threads write and flush it must not
// stop the database's writes once its handle is released
// (pr_db_family_release). (A write stalled for good gives up once the
// database is closing: WriteStallTest in database_test.cc.)
#include "pinrock.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

const uint8_t* bytes_of(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

class FamilyDropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "pinrock-family-drop-XXXXXX").string();
    dir = mkdtemp(pattern.data());
    pr_options_t* options = pr_options_create();
    pr_options_set_create_if_missing(options, 1);
    ASSERT_EQ(PR_OK, pr_options_set_write_buffer_bytes(options, 64 << 10, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_db_open(options, (dir / "db").c_str(), &db, err, sizeof err)) << err;
    pr_options_destroy(options);
    ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "f", &family, err, sizeof err)) << err;
  }

  void TearDown() override {
    if (db != nullptr) {
      EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    }
    std::filesystem::remove_all(dir);
  }

  // Four threads write and flush family "f" while it is dropped and
  // re-created `drops` times, 20 ms apart. With release, a drop waits for the writes and flushes in flight and
  // releases the dropped handle (the writers hold `handles` shared), as the
  // Java API does; without, a drop races them and the dropped handles are
  // kept in `dropped`. Writes stalled for good are ended by marking the
  // database closing, which is unmarked before returning.
  void Churn(int drops, bool release) {
    std::atomic<bool> stop{false};
    std::atomic<pr_db_t*> current{family};
    std::vector<std::thread> writers;
    for (int w = 0; w < 4; w++) {
      writers.emplace_back([&, w] {
        char e[256] = {0};
        std::string value(1024, 'v');
        for (int n = 0; !stop; n++) {
          while (dropping) std::this_thread::yield();  // the readers' lock would starve the dropper
          std::shared_lock<std::shared_mutex> lock(handles);
          pr_db_t* family = current;
          for (int i = 0; i < 50; i++) {
            std::string key = std::to_string(w) + "-" + std::to_string(n) + "-" + std::to_string(i);
            pr_db_put(family, bytes_of(key), key.size(), bytes_of(value), value.size(), e, sizeof e);
          }
          pr_db_flush(family, e, sizeof e);
        }
      });
    }
    for (int i = 0; i < drops; i++) {
      {
        dropping = release;
        std::unique_lock<std::shared_mutex> lock(handles, std::defer_lock);
        if (release) lock.lock();
        dropping = false;
        ASSERT_EQ(PR_OK, pr_db_drop_family(family, err, sizeof err)) << err;
        if (release) {
          ASSERT_EQ(PR_OK, pr_db_family_release(family, err, sizeof err)) << err;
        } else {
          dropped.push_back(family);
        }
        ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "f", &family, err, sizeof err)) << err;
        current = family;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    stop = true;
    pr_db_set_closing(db, 1);
    for (std::thread& writer : writers) writer.join();
    pr_db_set_closing(db, 0);
    ASSERT_EQ(PR_OK, pr_db_flush(family, err, sizeof err)) << err;
  }

  // Churns without release, 50 drops at a time, until the database's writes
  // stop for good (they mostly do within a few hundred drops, not always);
  // returns whether they did.
  bool ChurnUntilWritesStop() {
    for (int i = 0; i < 20 && !WritesStopped(); i++) Churn(50, false);
    return WritesStopped();
  }

  bool WritesStopped() {
    uint64_t stopped = 0;
    EXPECT_EQ(PR_OK, pr_db_property_int(db, "rocksdb.is-write-stopped", &stopped, err, sizeof err));
    return stopped != 0;
  }

  // Puts to the default family; a put that has not returned after a minute
  // (it takes microseconds otherwise) is taken for a hang and ended by
  // marking the database closing. Returns the put's status.
  int32_t PutToDefault() {
    auto put = std::async(std::launch::async, [this] {
      char e[256] = {0};
      return pr_db_put(db, bytes_of("k"), 1, bytes_of("v"), 1, e, sizeof e);
    });
    if (put.wait_for(std::chrono::minutes(1)) == std::future_status::timeout) {
      ADD_FAILURE() << "a put to the default family hung";
      pr_db_set_closing(db, 1);
    }
    return put.get();
  }

  std::filesystem::path dir;
  pr_db_t* db = nullptr;
  pr_db_t* family = nullptr;
  std::shared_mutex handles;
  std::atomic<bool> dropping{false};
  std::vector<pr_db_t*> dropped;
  char err[256] = {0};
};

TEST_F(FamilyDropTest, ChurnReleasedDroppedFamiliesNeverStopTheDatabasesWrites) {
  Churn(150, true);
  EXPECT_EQ(PR_OK, PutToDefault());
  EXPECT_FALSE(WritesStopped());
}

TEST_F(FamilyDropTest, ChurnReleasingTheDroppedFamiliesEndsTheStopTheyKept) {
  if (!ChurnUntilWritesStop()) {
    GTEST_SKIP() << "the churn did not stop the database's writes in 1,000 drops: nothing to check";
  }
  for (pr_db_t* old : dropped) ASSERT_EQ(PR_OK, pr_db_family_release(old, err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, PutToDefault());
  EXPECT_FALSE(WritesStopped());
}

TEST_F(FamilyDropTest, ACursorOnAReleasedFamilyStaysUsableUntilItCloses) {
  ASSERT_EQ(PR_OK, pr_db_put(family, bytes_of("k"), 1, bytes_of("v"), 1, err, sizeof err)) << err;
  pr_cursor_t* cursor = nullptr;
  ASSERT_EQ(PR_OK, pr_cursor_open(family, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0, &cursor, err,
                                  sizeof err))
      << err;
  ASSERT_EQ(PR_OK, pr_db_drop_family(family, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_family_release(family, err, sizeof err)) << err;
  pr_cursor_entry_t entry;
  ASSERT_EQ(PR_OK, pr_cursor_move(cursor, PR_CURSOR_FIRST, nullptr, 0, &entry, err, sizeof err));
  EXPECT_EQ("k", std::string(reinterpret_cast<const char*>(entry.key), entry.key_len));
  ASSERT_EQ(PR_OK, pr_cursor_move(cursor, PR_CURSOR_SEEK, bytes_of("k"), 1, &entry, err, sizeof err));
  pr_cursor_close(cursor);
}

TEST_F(FamilyDropTest, OnlyADroppedFamilyCanBeReleased) {
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_family_release(db, err, sizeof err));
  EXPECT_STREQ("Invalid argument: the default family cannot be released", err);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_family_release(family, err, sizeof err));
  EXPECT_STREQ("Invalid argument: column family 'f' is not dropped", err);
  EXPECT_EQ(PR_OK, pr_db_put(family, bytes_of("k"), 1, bytes_of("v"), 1, err, sizeof err)) << err;
}

}  // namespace
