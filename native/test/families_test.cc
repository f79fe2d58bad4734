// GoogleTest tests of pinrock.h's column families section: families as
// separate key spaces, created, dropped and reopened with their own options;
// and repair.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

using namespace pinrock_test;

namespace {

// The NUL-separated names pr_db_family_names / pr_db_list_families write.
std::vector<std::string> Names(const std::vector<char>& buf, uint64_t length) {
  std::vector<std::string> names;
  for (size_t at = 0; at < length; at += names.back().size() + 1) {
    names.emplace_back(buf.data() + at);
  }
  return names;
}

std::string Value(pr_db_t* db, const std::string& key) {
  std::vector<uint8_t> buf(256);
  pr_get_result_t result;
  char err[256];
  int32_t status =
      pr_db_get(db, bytes(key), key.size(), buf.data(), buf.size(), 0, &result, err, sizeof err);
  if (status == PR_NOT_FOUND) return "absent";
  if (status != PR_OK) return "error " + std::to_string(PR_STATUS_CODE(status));
  return std::string(reinterpret_cast<const char*>(buf.data()), result.value_len);
}

TEST_F(DbTest, ColumnFamiliesAreSeparateKeySpacesWrittenTogetherByABatch) {
  pr_db_t* users = nullptr;
  ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "users", &users, err, sizeof err)) << err;
  pr_db_t* duplicate = users;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_create_family(db, nullptr, "users", &duplicate, err, sizeof err)));
  EXPECT_EQ(nullptr, duplicate);
  pr_db_t* found = nullptr;
  ASSERT_EQ(PR_OK, pr_db_family(db, "users", &found, err, sizeof err));
  EXPECT_EQ(users, found);
  EXPECT_EQ(PR_NOT_FOUND, pr_db_family(db, "nobody", &found, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_family(users, "default", &found, err, sizeof err));
  EXPECT_EQ(db, found);
  EXPECT_EQ(0u, pr_db_family_id(db));
  EXPECT_NE(0u, pr_db_family_id(users));

  Put("k", "in default");
  ASSERT_EQ(PR_OK, pr_db_put(users, bytes("k"), 1, bytes("in users"), 8, err, sizeof err));
  EXPECT_EQ("in default", Value(db, "k"));
  EXPECT_EQ("in users", Value(users, "k"));
  Batch batch;
  batch.PutInFamily(pr_db_family_id(users), "b", "batched").Put("b", "plain");
  ASSERT_EQ(PR_OK, pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)) << err;
  EXPECT_EQ("batched", Value(users, "b"));
  EXPECT_EQ("plain", Value(db, "b"));
  Batch merge;
  merge.MergeInFamily(pr_db_family_id(users), "m", "x");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_write(db, merge.data(), merge.size(), 0, err, sizeof err)));
  EXPECT_NE(nullptr, std::strstr(err, "'users'")) << err;

  pr_cursor_t* cursor = nullptr;
  ASSERT_EQ(PR_OK, pr_cursor_open(users, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0, &cursor, err,
                                  sizeof err));
  EXPECT_EQ("b=batched", Move(cursor, PR_CURSOR_FIRST));
  EXPECT_EQ("k=in users", Move(cursor, PR_CURSOR_NEXT));
  EXPECT_EQ("end", Move(cursor, PR_CURSOR_NEXT));
  pr_cursor_close(cursor);
  ASSERT_EQ(PR_OK, pr_db_flush(users, err, sizeof err));
  uint64_t keys = 0;
  ASSERT_EQ(PR_OK, pr_db_property_int(users, "rocksdb.estimate-num-keys", &keys, err, sizeof err));
  EXPECT_EQ(2u, keys);

  std::vector<char> names(64);
  uint64_t length = 0;
  ASSERT_EQ(PR_OK, pr_db_family_names(users, names.data(), names.size(), &length, err, sizeof err));
  EXPECT_EQ((std::vector<std::string>{"default", "users"}), Names(names, length));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(pr_db_close(users, err, sizeof err)));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(pr_db_drop_family(db, err, sizeof err)));
}

TEST_F(DbTest, DroppedFamiliesDisappearAndTheirHandlesStaySafe) {
  pr_db_t* temp = nullptr;
  ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "temp", &temp, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_put(temp, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  uint32_t id = pr_db_family_id(temp);
  ASSERT_EQ(PR_OK, pr_db_drop_family(temp, err, sizeof err)) << err;
  pr_db_t* found = nullptr;
  EXPECT_EQ(PR_NOT_FOUND, pr_db_family(db, "temp", &found, err, sizeof err));
  Batch batch;
  batch.PutInFamily(id, "k", "v");
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_write(db, batch.data(), batch.size(), 0, err, sizeof err)));
  // The handle stays valid: a write reports the drop instead of crashing.
  EXPECT_NE(PR_OK, pr_db_put(temp, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err));
  EXPECT_EQ(PR_NOT_FOUND, pr_db_family(db, "temp", &found, err, sizeof err));
}

// RocksDB writes a group of concurrent writes to the log together, then
// applies them one by one; one that fails there (a write to a family dropped
// since the shim checked it) used to fail every write of its group, applied
// ones included. A drop racing writes to its family must fail no other write.
TEST_F(DbTest, ADropRacingWritesToItsFamilyFailsNoOtherWrite) {
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::string failure;
  std::mutex failure_mutex;
  std::thread default_writer([&] {
    char e[256] = {0};
    for (int i = 0; !stop; i++) {
      std::string key = "d" + std::to_string(i % 1000);
      if (pr_db_put(db, bytes(key), key.size(), bytes(key), key.size(), e, sizeof e) != PR_OK) {
        failures++;
        std::lock_guard<std::mutex> lock(failure_mutex);
        failure = e;
      }
    }
  });
  for (int round = 0; round < 20; round++) {
    pr_db_t* family = nullptr;
    std::string name = "f" + std::to_string(round);
    ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, name.c_str(), &family, err, sizeof err));
    std::atomic<bool> dropped{false};
    std::vector<std::thread> family_writers;
    for (int t = 0; t < 2; t++) {
      family_writers.emplace_back([&dropped, family] {
        char e[256] = {0};
        // Writes until after the drop: those under way as it happens reach RocksDB after it.
        while (!dropped) pr_db_put(family, bytes("k"), 1, bytes("v"), 1, e, sizeof e);
        for (int i = 0; i < 100; i++) pr_db_put(family, bytes("k"), 1, bytes("v"), 1, e, sizeof e);
      });
    }
    usleep(2000);
    ASSERT_EQ(PR_OK, pr_db_drop_family(family, err, sizeof err)) << err;
    dropped = true;
    for (std::thread& writer : family_writers) writer.join();
  }
  stop = true;
  default_writer.join();
  EXPECT_EQ(0, failures.load()) << failure;
}

TEST_F(DbTest, ReopeningOpensEveryFamilyWithItsOwnOptions) {
  pr_db_t* counters = nullptr;
  Options counter_options;
  ASSERT_EQ(PR_OK, pr_options_set_merge_operator(counter_options.handle, "uint64add", err,
                                                 sizeof err));
  ASSERT_EQ(PR_OK, pr_db_create_family(db, counter_options.handle, "counters", &counters, err,
                                       sizeof err));
  ASSERT_EQ(PR_OK, pr_db_put(counters, bytes("k"), 1, bytes("v"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err));

  std::vector<char> names(64);
  uint64_t length = 0;
  ASSERT_EQ(PR_OK, pr_db_list_families(nullptr, dir.path().c_str(), names.data(), names.size(),
                                       &length, err, sizeof err));
  EXPECT_EQ((std::vector<std::string>{"default", "counters"}), Names(names, length));
  EXPECT_EQ(PR_CODE_IO_ERROR,
            PR_STATUS_CODE(pr_db_list_families(nullptr, dir.path("none").c_str(), names.data(),
                                               names.size(), &length, err, sizeof err)));

  ASSERT_EQ(PR_OK, pr_options_set_family_options(options.handle, "counters",
                                                 counter_options.handle, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_family(db, "counters", &counters, err, sizeof err));
  EXPECT_EQ("v", Value(counters, "k"));
  Batch merge;
  uint64_t one = 1;
  merge.MergeInFamily(pr_db_family_id(counters), "n", std::string(reinterpret_cast<char*>(&one), 8))
      .MergeInFamily(pr_db_family_id(counters), "n", std::string(reinterpret_cast<char*>(&one), 8));
  ASSERT_EQ(PR_OK, pr_db_write(db, merge.data(), merge.size(), 0, err, sizeof err)) << err;
  std::string sum = Value(counters, "n");
  ASSERT_EQ(8u, sum.size());
  uint64_t total = 0;
  std::memcpy(&total, sum.data(), 8);
  EXPECT_EQ(2u, total);
}

TEST_F(DbTest, RepairRebuildsADatabaseWhoseManifestAndCurrentAreLost) {
  Put("k1", "v1");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  Put("k2", "v2");  // only in the write-ahead log
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  db = nullptr;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    std::string name = entry.path().filename().string();
    if (name == "CURRENT" || name.rfind("MANIFEST-", 0) == 0) fs::remove(entry.path());
  }
  pr_options_set_create_if_missing(options.handle, 0);
  EXPECT_NE(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err));
  EXPECT_EQ(nullptr, db);

  ASSERT_EQ(PR_OK, pr_db_repair(options.handle, dir.path().c_str(), err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  pr_get_result_t result;
  for (const char* key : {"k1", "k2"}) {
    ASSERT_EQ(PR_OK, Get(key, 16, 0, &result)) << key << ": " << err;
    EXPECT_EQ(std::string(key[1] == '1' ? "v1" : "v2"),
              std::string(reinterpret_cast<char*>(buffer.data()), result.value_len));
  }
}

// The newest OPTIONS file RocksDB wrote in db_dir.
fs::path NewestOptionsFile(const std::string& db_dir) {
  fs::path newest;
  for (const auto& entry : fs::directory_iterator(db_dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("OPTIONS-", 0) == 0 && (newest.empty() || name > newest.filename().string())) {
      newest = entry.path();
    }
  }
  return newest;
}

// Replaces the value of every line of the database's newest OPTIONS file
// that sets option with value; returns the file's text before.
std::string RewriteRecordedOption(const std::string& db_dir, const std::string& option,
                                  const std::string& value) {
  const fs::path newest = NewestOptionsFile(db_dir);
  std::ifstream in(newest, std::ios::binary);
  std::string before((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::string after = std::regex_replace(before, std::regex("\\n(\\s*" + option + "=)[^\\n]*"),
                                         "\n$1" + value);
  EXPECT_NE(before, after) << option << " is not in\n" << before;
  std::ofstream(newest, std::ios::binary | std::ios::trunc) << after;
  return before;
}

// A database written by another RocksDB program with a merge operator of its
// own: its OPTIONS file names an operator RocksDB cannot make by that name.
// RocksDB read such a name as no merge operator, so pr_options_latest
// answered "none" and an open without one passed the merge-operator check,
// replayed the log without it and lost the merge and the synced put after
// it. Both refuse, naming the operator, and the files stay as they were.
TEST_F(DbTest, AnOptionsFileNamingAMergeOperatorPinrockCannotMakeIsRefusedAndLosesNothing) {
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  Options appending;
  ASSERT_EQ(PR_OK, pr_options_set_merge_operator(appending.handle, "stringappend", err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(appending.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  Batch merge;
  merge.Merge("m", "merged");
  ASSERT_EQ(PR_OK, pr_db_write(db, merge.data(), merge.size(), PR_WRITE_SYNC, err, sizeof err)) << err;
  Batch put;
  put.Put("after", "kept");
  ASSERT_EQ(PR_OK, pr_db_write(db, put.data(), put.size(), PR_WRITE_SYNC, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  db = nullptr;
  const std::string written =
      RewriteRecordedOption(dir.path(), "merge_operator", "AnApplicationsOwnMergeOperator");

  char message[1024] = {0};
  std::vector<char> texts(1 << 16);
  uint64_t length = 0;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_latest(dir.path().c_str(), texts.data(), texts.size(),
                                                        &length, message, sizeof message));
  EXPECT_NE(nullptr, std::strstr(message, "AnApplicationsOwnMergeOperator")) << message;
  for (pr_options_t* given : {options.handle, appending.handle}) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
              pr_db_open(given, dir.path().c_str(), &db, message, sizeof message));
    EXPECT_EQ(nullptr, db);
    EXPECT_NE(nullptr, std::strstr(message, "AnApplicationsOwnMergeOperator")) << message;
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_repair(given, dir.path().c_str(), message, sizeof message));
    EXPECT_NE(nullptr, std::strstr(message, "AnApplicationsOwnMergeOperator")) << message;
  }

  // With the operator it was written with, everything acknowledged is there.
  std::ofstream(NewestOptionsFile(dir.path()), std::ios::binary | std::ios::trunc) << written;
  ASSERT_EQ(PR_OK, pr_db_open(appending.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  EXPECT_EQ("merged", Value(db, "m"));
  EXPECT_EQ("kept", Value(db, "after"));
}

// A family recorded with what pinrock cannot make (a compaction filter not
// the caller's, even one RocksDB makes; a table format other than block-based) was opened
// without it, and only pr_options_latest refused it. Open and repair refuse
// it too, naming it.
TEST_F(DbTest, AFamilyRecordedWithWhatPinrockDoesNotOfferIsRefusedByOpenAndRepair) {
  Put("k", "v");
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  db = nullptr;
  const std::string written =
      RewriteRecordedOption(dir.path(), "compaction_filter", "RemoveEmptyValueCompactionFilter");
  char message[1024] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_open(options.handle, dir.path().c_str(), &db, message, sizeof message));
  EXPECT_NE(nullptr, std::strstr(message, "compaction filter")) << message;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_repair(options.handle, dir.path().c_str(), message, sizeof message));
  EXPECT_NE(nullptr, std::strstr(message, "compaction filter")) << message;

  std::string foreign_table = written;
  foreign_table.replace(foreign_table.find("TableOptions/BlockBasedTable"), 28, "TableOptions/AnApplicationsOwnTable");
  std::ofstream(NewestOptionsFile(dir.path()), std::ios::binary | std::ios::trunc) << foreign_table;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_open(options.handle, dir.path().c_str(), &db, message, sizeof message));
  EXPECT_NE(nullptr, std::strstr(message, "block-based")) << message;

  std::ofstream(NewestOptionsFile(dir.path()), std::ios::binary | std::ios::trunc) << written;
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  EXPECT_EQ("v", Value(db, "k"));
}

TEST(RepairTest, RepairOfAMissingDirectoryIsAnError) {
  TempDir dir;
  char err[256] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_db_repair(nullptr, dir.path("absent").c_str(), err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "no database directory")) << err;
  EXPECT_FALSE(fs::exists(dir.path("absent")));
}

// The names and sizes of the files in directory.
std::map<std::string, uintmax_t> Files(const std::string& directory) {
  std::map<std::string, uintmax_t> files;
  for (const auto& entry : fs::directory_iterator(directory)) {
    files[entry.path().filename().string()] = entry.is_regular_file() ? entry.file_size() : 0;
  }
  return files;
}

// RepairDB takes table and log files only: the MANIFEST it wrote named no
// blob file, the first open deleted every one, and each read of a value in
// one failed ("Invalid blob file number") after a repair that returned OK.
// A repair is refused, before anything changes, whenever values may be in
// blob files: a blob file in the directory (the metadata lost too, or blob
// files since disabled), a family last opened with blob files, or repair
// options that enable them.
TEST(RepairTest, RepairOfADatabaseThatUsesBlobFilesIsRefusedAndChangesNothing) {
  const std::string blobs = "enable_blob_files=true;min_blob_size=64";
  struct Case {
    const char* name;
    bool written_with_blobs;
    size_t value_size;          // 64 or more goes to a blob file when they are enabled
    const char* after_writing;  // family options then set on the open database, or ""
    bool metadata_lost;
    bool repaired_with_blobs;
    const char* refusal;
  };
  const Case cases[] = {
      {"the options it was written with", true, 100, "", false, true, "has blob file"},
      {"default options", true, 100, "", false, false, "has blob file"},
      {"the metadata lost", true, 100, "", true, false, "has blob file"},
      {"blob files disabled after writing", true, 100, "enable_blob_files=false", false, false,
       "has blob file"},
      {"blob files enabled, none written yet", true, 10, "", false, false,
       "column family 'default' was last opened with enable_blob_files=true"},
      {"repair options that enable them", false, 100, "", false, true,
       "the options of column family 'default' enable blob files"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    TempDir dir;
    char err[256] = {0};
    Options written;
    pr_options_set_create_if_missing(written.handle, 1);
    if (c.written_with_blobs) {
      ASSERT_EQ(PR_OK, pr_options_set_string(written.handle, PR_OPTION_SCOPE_FAMILY, blobs.c_str(),
                                             err, sizeof err))
          << err;
    }
    const std::string value(c.value_size, 'v');
    pr_db_t* db = nullptr;
    ASSERT_EQ(PR_OK, pr_db_open(written.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes("k"), 1, bytes(value), value.size(), err, sizeof err))
        << err;
    ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
    if (*c.after_writing != '\0') {
      ASSERT_EQ(PR_OK,
                pr_db_set_options(db, PR_OPTION_SCOPE_FAMILY, c.after_writing, err, sizeof err))
          << err;
    }
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    if (c.metadata_lost) fs::remove(fs::path(dir.path()) / "CURRENT");
    const std::map<std::string, uintmax_t> before = Files(dir.path());

    Options repair_options;
    if (c.repaired_with_blobs) {
      ASSERT_EQ(PR_OK, pr_options_set_string(repair_options.handle, PR_OPTION_SCOPE_FAMILY,
                                             blobs.c_str(), err, sizeof err))
          << err;
    }
    EXPECT_EQ(PR_CODE_NOT_SUPPORTED,
              PR_STATUS_CODE(pr_db_repair(repair_options.handle, dir.path().c_str(), err,
                                          sizeof err)))
        << err;
    EXPECT_NE(nullptr, std::strstr(err, "repair cannot keep blob files")) << err;
    EXPECT_NE(nullptr, std::strstr(err, c.refusal)) << err;
    EXPECT_EQ(before, Files(dir.path()));
    if (c.metadata_lost) continue;
    ASSERT_EQ(PR_OK, pr_db_open(written.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
    EXPECT_EQ(value, Value(db, "k"));
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }
}

}  // namespace
