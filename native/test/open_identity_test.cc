// GoogleTest tests of what identifies a database when it is opened or
// repaired: its directory (one database per directory per process, whatever
// the path's spelling), and the log directory it writes (one database per
// log directory, in a process and across processes and time).
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace pinrock_test;

namespace {

// Options that create the database when it is missing.
struct CreatingOptions : Options {
  CreatingOptions() { pr_options_set_create_if_missing(handle, 1); }
};

class OpenIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "pinrock-identity-XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    ASSERT_NE(nullptr, mkdtemp(buf.data()));
    dir = buf.data();
    db_path = (dir / "db").string();
    fs::create_directory_symlink("db", dir / "link");
  }
  void TearDown() override { fs::remove_all(dir); }

  int32_t Open(const std::string& path, pr_db_t** db,
               const CreatingOptions& options = CreatingOptions()) {
    return pr_db_open(options.handle, path.c_str(), db, err, sizeof err);
  }

  // Writes key -> value into the family of handle db, synced.
  int32_t Put(pr_db_t* db, const std::string& key, const std::string& value) {
    Batch batch;
    uint32_t family = pr_db_family_id(db);
    if (family == 0) {
      batch.Put(key, value);
    } else {
      batch.PutInFamily(family, key, value);
    }
    return pr_db_write(db, batch.data(), batch.size(), PR_WRITE_SYNC, err, sizeof err);
  }

  // The value of key, "absent", or "error <code>".
  std::string Value(pr_db_t* db, const std::string& key) {
    std::vector<uint8_t> buf(64);
    pr_get_result_t result;
    int32_t status =
        pr_db_get(db, bytes(key), key.size(), buf.data(), buf.size(), 0, &result, err, sizeof err);
    if (status == PR_NOT_FOUND) return "absent";
    if (status != PR_OK) return "error " + std::to_string(PR_STATUS_CODE(status));
    return std::string(reinterpret_cast<const char*>(buf.data()), result.value_len);
  }

  // Other spellings of db_path: through ".", through "..", through a symlink.
  std::vector<std::string> OtherSpellings() const {
    return {(dir / "." / "db").string(),
            (dir / ".." / dir.filename() / "db").string(),
            (dir / "link").string()};
  }

  fs::path dir;
  std::string db_path;
  char err[512] = {0};
};

TEST_F(OpenIdentityTest, TheOpenDatabaseUnderAnotherSpellingOfItsPathIsRefused) {
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, Open(db_path, &db)) << err;
  for (const std::string& spelling : OtherSpellings()) {
    pr_db_t* second = reinterpret_cast<pr_db_t*>(0x1);
    EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(Open(spelling, &second))) << spelling;
    EXPECT_EQ(nullptr, second);
    EXPECT_NE(nullptr, std::strstr(err, "lock hold by current process")) << err;
    EXPECT_NE(nullptr, std::strstr(err, "already open")) << err;
    // The refused open touched nothing: the first instance writes on.
    ASSERT_EQ(PR_OK, Put(db, spelling, "synced")) << err;
  }
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;

  // Every write acknowledged with sync is there after reopening, under any spelling.
  for (const std::string& spelling : OtherSpellings()) {
    ASSERT_EQ(PR_OK, Open(spelling, &db)) << err;
    for (const std::string& written : OtherSpellings()) {
      EXPECT_EQ("synced", Value(db, written)) << written;
    }
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }
}

TEST_F(OpenIdentityTest, RepairOfAnOpenDatabaseIsRefusedUnderAnySpelling) {
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, Open(db_path, &db)) << err;
  ASSERT_EQ(PR_OK, Put(db, "k", "v")) << err;
  std::vector<std::string> spellings = OtherSpellings();
  spellings.push_back(db_path);
  for (const std::string& spelling : spellings) {
    EXPECT_EQ(PR_CODE_IO_ERROR, PR_STATUS_CODE(pr_db_repair(nullptr, spelling.c_str(), err,
                                                            sizeof err)))
        << spelling;
    EXPECT_NE(nullptr, std::strstr(err, "already open")) << err;
  }
  EXPECT_EQ("v", Value(db, "k"));
  ASSERT_EQ(PR_OK, Put(db, "after", "repair refused")) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  // Closed, it can be repaired and keeps its writes.
  ASSERT_EQ(PR_OK, pr_db_repair(nullptr, spellings[0].c_str(), err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, Open(db_path, &db)) << err;
  EXPECT_EQ("v", Value(db, "k"));
  EXPECT_EQ("repair refused", Value(db, "after"));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
}

TEST_F(OpenIdentityTest, AFailedOpenReleasesTheDirectory) {
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, Open(db_path, &db)) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  CreatingOptions exclusive;
  pr_options_set_error_if_exists(exclusive.handle, 1);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(Open(db_path, &db, exclusive))) << err;
  // The failed open claimed the directory only while it ran.
  ASSERT_EQ(PR_OK, Open((dir / "." / "db").string(), &db)) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
}

// ---- the column family options a database was written with --------------

class FamilyOptionsTest : public OpenIdentityTest {
 protected:
  // Creates the database with family "counters" (merge operator uint64add),
  // a synced merge of 1 into counters/n and a synced put of default/k.
  void SetUp() override {
    OpenIdentityTest::SetUp();
    ASSERT_EQ(PR_OK, pr_options_set_merge_operator(counting.handle, "uint64add", err, sizeof err));
    ASSERT_EQ(PR_OK, pr_options_set_family_options(with_counters.handle, "counters",
                                                   counting.handle, err, sizeof err));
    pr_db_t* db = nullptr;
    ASSERT_EQ(PR_OK, Open(db_path, &db)) << err;
    pr_db_t* counters = nullptr;
    ASSERT_EQ(PR_OK, pr_db_create_family(db, counting.handle, "counters", &counters, err,
                                         sizeof err))
        << err;
    counters_id = pr_db_family_id(counters);
    ASSERT_EQ(PR_OK, Merge(db, 1)) << err;
    ASSERT_EQ(PR_OK, Put(db, "k", "v")) << err;
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }

  // Merges amount into counters/n, synced.
  int32_t Merge(pr_db_t* db, uint64_t amount) {
    Batch batch;
    batch.MergeInFamily(counters_id, "n", std::string(reinterpret_cast<char*>(&amount), 8));
    return pr_db_write(db, batch.data(), batch.size(), PR_WRITE_SYNC, err, sizeof err);
  }

  // counters/n as a number, or UINT64_MAX when it is not 8 bytes.
  uint64_t Count(pr_db_t* db) {
    pr_db_t* counters = nullptr;
    if (pr_db_family(db, "counters", &counters, err, sizeof err) != PR_OK) return UINT64_MAX;
    std::string value = Value(counters, "n");
    uint64_t count = UINT64_MAX;
    if (value.size() == 8) std::memcpy(&count, value.data(), 8);
    return count;
  }

  CreatingOptions counting;
  CreatingOptions with_counters;
  uint32_t counters_id = 0;
};

TEST_F(FamilyOptionsTest, AReopenWithoutAFamilysMergeOperatorIsRefusedAndLosesNothing) {
  CreatingOptions appending;
  ASSERT_EQ(PR_OK, pr_options_set_merge_operator(appending.handle, "stringappend", err,
                                                 sizeof err));
  CreatingOptions with_other_operator;
  ASSERT_EQ(PR_OK, pr_options_set_family_options(with_other_operator.handle, "counters",
                                                 appending.handle, err, sizeof err));
  // None; another; the database's merge operator, which applies to families
  // without options of their own.
  CreatingOptions none;
  const std::pair<const CreatingOptions*, const char*> wrong[] = {
      {&none, "not nullptr"},
      {&with_other_operator, "not StringAppend"},
      {&appending, "not StringAppend"},
  };
  for (const auto& [options, given] : wrong) {
    pr_db_t* db = reinterpret_cast<pr_db_t*>(0x1);
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(Open(db_path, &db, *options))) << err;
    EXPECT_EQ(nullptr, db);
    EXPECT_NE(nullptr, std::strstr(err, "column family 'counters'")) << err;
    EXPECT_NE(nullptr, std::strstr(err, "merge operator UInt64AddOperator")) << err;
    EXPECT_NE(nullptr, std::strstr(err, given)) << err;
  }
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, Open(db_path, &db, with_counters)) << err;
  EXPECT_EQ(1u, Count(db));
  EXPECT_EQ("v", Value(db, "k"));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
}

TEST_F(FamilyOptionsTest, AMergeOperatorMayBeAddedWhereNoneWasButNotRemoved) {
  // The default family was written without one: no merge can be in its log.
  CreatingOptions adding;
  ASSERT_EQ(PR_OK, pr_options_set_merge_operator(adding.handle, "uint64add", err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_family_options(adding.handle, "counters", counting.handle, err,
                                                 sizeof err));
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, Open(db_path, &db, adding)) << err;
  EXPECT_EQ(1u, Count(db));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, PR_STATUS_CODE(Open(db_path, &db, with_counters))) << err;
  EXPECT_NE(nullptr, std::strstr(err, "column family 'default'")) << err;
  EXPECT_NE(nullptr, std::strstr(err, "UInt64AddOperator, not nullptr")) << err;
}

TEST_F(FamilyOptionsTest, ADatabaseWithoutAnOptionsFileOpensAsBefore) {
  for (const auto& file : fs::directory_iterator(db_path)) {
    if (file.path().filename().string().rfind("OPTIONS-", 0) == 0) fs::remove(file.path());
  }
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, Open(db_path, &db, with_counters)) << err;
  EXPECT_EQ(1u, Count(db));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
}

// ---- repair keeps every acknowledged write ----------------------------------

class FamilyRepairTest : public FamilyOptionsTest {
 protected:
  // Adds to what FamilyOptionsTest wrote: family "tabled" with a key in a
  // table file, family "logged" with a key only in the log, counters/n in a
  // table file (1) and, in the log, a batch merging 2 into counters/n and
  // putting default/batched; default/flushed in a table file.
  void SetUp() override {
    FamilyOptionsTest::SetUp();
    pr_db_t* db = nullptr;
    ASSERT_EQ(PR_OK, Open(db_path, &db, with_counters)) << err;
    pr_db_t* tabled = nullptr;
    pr_db_t* logged = nullptr;
    ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "tabled", &tabled, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "logged", &logged, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, Put(tabled, "t", "in a table file")) << err;
    ASSERT_EQ(PR_OK, Put(db, "flushed", "in a table file")) << err;
    pr_db_t* counters = nullptr;
    ASSERT_EQ(PR_OK, pr_db_family(db, "counters", &counters, err, sizeof err)) << err;
    for (pr_db_t* family : {db, tabled, counters}) {
      ASSERT_EQ(PR_OK, pr_db_flush(family, err, sizeof err)) << err;
    }
    ASSERT_EQ(PR_OK, Put(logged, "l", "in the log")) << err;
    uint64_t two = 2;
    Batch spanning;
    spanning.MergeInFamily(counters_id, "n", std::string(reinterpret_cast<char*>(&two), 8))
        .Put("batched", "with the merge");
    ASSERT_EQ(PR_OK, pr_db_write(db, spanning.data(), spanning.size(), PR_WRITE_SYNC, err,
                                 sizeof err))
        << err;
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }

  // Reopens the database and checks every write acknowledged in SetUp;
  // logged_family: whether family "logged" must be there.
  void ExpectEveryWrite(bool logged_family) {
    pr_db_t* db = nullptr;
    ASSERT_EQ(PR_OK, Open(db_path, &db, with_counters)) << err;
    EXPECT_EQ(3u, Count(db));
    EXPECT_EQ("v", Value(db, "k"));
    EXPECT_EQ("in a table file", Value(db, "flushed"));
    EXPECT_EQ("with the merge", Value(db, "batched"));
    pr_db_t* family = nullptr;
    ASSERT_EQ(PR_OK, pr_db_family(db, "tabled", &family, err, sizeof err)) << err;
    EXPECT_EQ("in a table file", Value(family, "t"));
    if (logged_family) {
      ASSERT_EQ(PR_OK, pr_db_family(db, "logged", &family, err, sizeof err)) << err;
      EXPECT_EQ("in the log", Value(family, "l"));
    }
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }
};

TEST_F(FamilyRepairTest, RepairKeepsEveryAcknowledgedWriteOfAHealthyDatabase) {
  ASSERT_EQ(PR_OK, pr_db_repair(with_counters.handle, db_path.c_str(), err, sizeof err)) << err;
  ExpectEveryWrite(true);
}

// With the metadata lost, the families are known from their table files
// alone, and each is rebuilt with its own options: a batch in the log
// merging into a family with its own merge operator is kept whole. (A family
// with no table file cannot be named then: the log knows it by number only.)
TEST_F(FamilyRepairTest, RepairWithTheMetadataLostKeepsABatchSpanningAFamilyWithItsOwnMergeOperator) {
  fs::remove(dir / "db" / "CURRENT");
  ASSERT_EQ(PR_OK, pr_db_repair(with_counters.handle, db_path.c_str(), err, sizeof err)) << err;
  ExpectEveryWrite(false);
}

TEST_F(FamilyRepairTest, RepairWithoutAFamilysMergeOperatorIsRefusedAndChangesNothing) {
  CreatingOptions none;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_repair(none.handle, db_path.c_str(), err, sizeof err)))
      << err;
  EXPECT_NE(nullptr, std::strstr(err, "column family 'counters'")) << err;
  EXPECT_NE(nullptr, std::strstr(err, "UInt64AddOperator, not nullptr")) << err;
  ExpectEveryWrite(true);
}

// RepairDB keeps only the families it finds table files of; an empty family
// is known from the metadata, or, with that lost, from the OPTIONS file.
TEST_F(OpenIdentityTest, RepairKeepsAnEmptyColumnFamily) {
  for (bool metadata_lost : {false, true}) {
    fs::remove_all(db_path);
    pr_db_t* db = nullptr;
    ASSERT_EQ(PR_OK, Open(db_path, &db)) << err;
    pr_db_t* empty = nullptr;
    ASSERT_EQ(PR_OK, pr_db_create_family(db, nullptr, "empty", &empty, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, Put(db, "k", "v")) << err;
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    if (metadata_lost) fs::remove(dir / "db" / "CURRENT");
    CreatingOptions options;
    ASSERT_EQ(PR_OK, pr_db_repair(options.handle, db_path.c_str(), err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, Open(db_path, &db)) << err;
    EXPECT_EQ(PR_OK, pr_db_family(db, "empty", &empty, err, sizeof err))
        << "metadata lost: " << metadata_lost << ": " << err;
    EXPECT_EQ("v", Value(db, "k")) << "metadata lost: " << metadata_lost;
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }
}

// An ingested file names no column family, so RepairDB sets it aside, and its
// entries carry sequence number 0: only the metadata makes them newer than
// what they overwrite. A file ingested over older writes (given a sequence
// number of its own) and one ingested below everything (number 0) both keep
// their puts and deletions, as the newest.
TEST_F(OpenIdentityTest, RepairKeepsIngestedWritesNewerThanTheOnesTheyReplaced) {
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, Open(db_path, &db)) << err;
  ASSERT_EQ(PR_OK, Put(db, "k", "old")) << err;
  ASSERT_EQ(PR_OK, Put(db, "gone", "old")) << err;
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  CreatingOptions options;
  // name -> its entries, a missing value meaning a deletion
  const std::vector<std::pair<std::string, std::vector<std::pair<std::string, const char*>>>>
      files = {{"over.sst", {{"gone", nullptr}, {"k", "ingested"}}},
               {"below.sst", {{"z", "alone"}}}};
  for (const auto& [name, entries] : files) {
    std::string sst = (dir / name).string();
    pr_sst_writer_t* writer = nullptr;
    ASSERT_EQ(PR_OK, pr_sst_writer_open(options.handle, sst.c_str(), &writer, err, sizeof err));
    for (const auto& [key, value] : entries) {
      ASSERT_EQ(PR_OK, value == nullptr
                           ? pr_sst_writer_delete(writer, bytes(key), key.size(), err, sizeof err)
                           : pr_sst_writer_put(writer, bytes(key), key.size(),
                                               reinterpret_cast<const uint8_t*>(value),
                                               std::strlen(value), err, sizeof err))
          << err;
    }
    uint64_t size = 0;
    ASSERT_EQ(PR_OK, pr_sst_writer_finish(writer, &size, err, sizeof err)) << err;
    pr_sst_writer_destroy(writer);
    const char* paths[] = {sst.c_str()};
    ASSERT_EQ(PR_OK, pr_db_ingest(db, paths, 1, PR_INGEST_MOVE, err, sizeof err)) << err;
  }
  ASSERT_EQ(PR_OK, Put(db, "after", "in the log")) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;

  ASSERT_EQ(PR_OK, pr_db_repair(options.handle, db_path.c_str(), err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, Open(db_path, &db)) << err;
  EXPECT_EQ("ingested", Value(db, "k"));
  EXPECT_EQ("absent", Value(db, "gone"));
  EXPECT_EQ("alone", Value(db, "z"));
  EXPECT_EQ("in the log", Value(db, "after"));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
}

// ---- the log directory a database writes ---------------------------------

class LogDirectoryTest : public OpenIdentityTest {
 protected:
  // Sets the log directory of options to logs ("" leaves the database's own).
  void SetLogs(const Options& options, const std::string& logs) {
    if (logs.empty()) return;
    std::string text = "wal_dir={" + logs + "}";
    EXPECT_EQ(PR_OK, pr_options_set_string(options.handle, PR_OPTION_SCOPE_DB, text.c_str(), err,
                                           sizeof err))
        << err;
  }

  int32_t OpenWithLogs(const std::string& path, const std::string& logs, pr_db_t** db) {
    CreatingOptions options;
    SetLogs(options, logs);
    return Open(path, db, options);
  }

  // Opens the database at path with log directory logs, writes key -> value
  // synced, and closes it.
  void WriteAndClose(const std::string& path, const std::string& logs, const std::string& key,
                     const std::string& value) {
    pr_db_t* db = nullptr;
    ASSERT_EQ(PR_OK, OpenWithLogs(path, logs, &db)) << err;
    ASSERT_EQ(PR_OK, Put(db, key, value)) << err;
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }

  // The value of key in the database at path opened with log directory
  // logs, or "open failed".
  std::string Read(const std::string& path, const std::string& logs, const std::string& key) {
    pr_db_t* db = nullptr;
    if (OpenWithLogs(path, logs, &db) != PR_OK) return "open failed";
    std::string value = Value(db, key);
    EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    return value;
  }

  // Expects an open of path with log directory logs to be refused with code,
  // naming each of named.
  void ExpectRefused(const std::string& path, const std::string& logs, int32_t code,
                     const std::vector<std::string>& named) {
    pr_db_t* db = reinterpret_cast<pr_db_t*>(0x1);
    EXPECT_EQ(code, PR_STATUS_CODE(OpenWithLogs(path, logs, &db))) << path << " " << logs;
    EXPECT_EQ(nullptr, db);
    for (const std::string& name : named) {
      EXPECT_NE(nullptr, std::strstr(err, name.c_str())) << name << " in " << err;
    }
  }

  // Opens the database with its log in logs into *db, writes "before",
  // makes a checkpoint at checkpoint, then writes "after", all synced.
  void OpenWithACheckpoint(const std::string& checkpoint, pr_db_t** db) {
    ASSERT_EQ(PR_OK, OpenWithLogs(db_path, logs, db)) << err;
    ASSERT_EQ(PR_OK, Put(*db, "before", "in both")) << err;
    ASSERT_EQ(PR_OK, pr_db_checkpoint(*db, checkpoint.c_str(), err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, Put(*db, "after", "in the source only")) << err;
  }

  // Moves every file of from whose name ends in one of suffixes into to.
  static void MoveFiles(const fs::path& from, const fs::path& to,
                        const std::vector<std::string>& names) {
    fs::create_directories(to);
    for (const auto& file : fs::directory_iterator(from)) {
      std::string name = file.path().filename().string();
      for (const std::string& suffix : names) {
        if (name.size() >= suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
          fs::rename(file.path(), to / name);
        }
      }
    }
  }

  void SetUp() override {
    OpenIdentityTest::SetUp();
    logs = (dir / "logs").string();
  }

  std::string logs;
};

TEST_F(LogDirectoryTest, AReopenWithoutItsLogDirectoryIsRefusedAndLosesNothing) {
  WriteAndClose(db_path, logs, "k", "synced");
  ExpectRefused(db_path, "", PR_CODE_INVALID_ARGUMENT, {logs, "holds log files"});
  ExpectRefused(db_path, (dir / "elsewhere").string(), PR_CODE_INVALID_ARGUMENT, {logs});
  // Nothing was recovered by a refused open: the write is there with its log.
  EXPECT_EQ("synced", Read(db_path, logs, "k"));
  // Its own directory under another spelling is no other log directory.
  WriteAndClose(db_path, logs, "k2", "synced too");
  EXPECT_EQ("synced too", Read(db_path, (dir / "." / "logs").string(), "k2"));
}

TEST_F(LogDirectoryTest, ADatabaseWrittenWithItsOwnDirectoryIsRefusedAnotherLogDirectory) {
  WriteAndClose(db_path, "", "k", "synced");
  ExpectRefused(db_path, logs, PR_CODE_INVALID_ARGUMENT, {db_path, logs});
  EXPECT_EQ("synced", Read(db_path, "", "k"));
  // Under another spelling of the database's own directory it opens.
  EXPECT_EQ("synced", Read(db_path, (dir / "link").string(), "k"));
}

TEST_F(LogDirectoryTest, TwoDatabasesCannotShareALogDirectoryInOneProcess) {
  std::string other = (dir / "other").string();
  pr_db_t* db = nullptr;
  ASSERT_EQ(PR_OK, OpenWithLogs(db_path, logs, &db)) << err;
  ASSERT_EQ(PR_OK, Put(db, "k", "first")) << err;
  // A new database, and under another spelling of the log directory.
  ExpectRefused(other, logs, PR_CODE_IO_ERROR, {"lock hold by current process", logs, db_path});
  ExpectRefused(other, (dir / "." / "logs").string(), PR_CODE_IO_ERROR, {db_path});
  // Nor may a database use another's directory as its log directory, or the reverse.
  ExpectRefused(other, db_path, PR_CODE_IO_ERROR, {db_path});
  ExpectRefused(logs, "", PR_CODE_IO_ERROR, {"already open"});
  ASSERT_EQ(PR_OK, Put(db, "k2", "first")) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  EXPECT_EQ("first", Read(db_path, logs, "k"));
  EXPECT_EQ("first", Read(db_path, logs, "k2"));
}

TEST_F(LogDirectoryTest, TwoDatabasesCannotShareALogDirectoryOneAfterTheOther) {
  std::string other = (dir / "other").string();
  WriteAndClose(db_path, logs, "k", "first");
  WriteAndClose(other, "", "k", "second");
  // An existing database and a new one: the log directory is the first's.
  ExpectRefused(other, logs, PR_CODE_INVALID_ARGUMENT, {logs, other});
  ExpectRefused((dir / "new").string(), logs, PR_CODE_INVALID_ARGUMENT,
                {"belongs to the database at " + db_path, "PINROCK-OWNER"});
  // A database whose log directory is another database's directory.
  ExpectRefused((dir / "new").string(), other, PR_CODE_INVALID_ARGUMENT,
                {"another database's directory"});
  // A log directory is no database of its own.
  ExpectRefused(logs, "", PR_CODE_INVALID_ARGUMENT, {"holds files of the database at " + db_path});
  EXPECT_EQ("first", Read(db_path, logs, "k"));
  EXPECT_EQ("second", Read(other, "", "k"));
}

TEST_F(LogDirectoryTest, ALogDirectoryWithLogFilesNoMarkerAttributesIsRefused) {
  // As a database written before the markers, or by another program, leaves it.
  WriteAndClose(db_path, logs, "k", "first");
  fs::remove(fs::path(logs) / "PINROCK-OWNER");
  ExpectRefused((dir / "new").string(), logs, PR_CODE_INVALID_ARGUMENT,
                {"holds log files of another database"});
  // Its OPTIONS file records the directory: the database itself opens, and marks it.
  EXPECT_EQ("first", Read(db_path, logs, "k"));
  EXPECT_TRUE(fs::exists(fs::path(logs) / "PINROCK-OWNER"));
}

TEST_F(LogDirectoryTest, ACheckpointOpensWithItsOwnDirectoryAndNotWithTheSourcesLog) {
  std::string checkpoint = (dir / "checkpoint").string();
  pr_db_t* db = nullptr;
  ASSERT_NO_FATAL_FAILURE(OpenWithACheckpoint(checkpoint, &db));
  // While the source is open, and after it closed.
  ExpectRefused(checkpoint, logs, PR_CODE_IO_ERROR, {db_path});
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  ExpectRefused(checkpoint, logs, PR_CODE_INVALID_ARGUMENT, {"belongs to the database at " + db_path});

  // The options the checkpoint was last opened with name the log directory
  // its logs are in: its own.
  std::vector<char> texts(1 << 16);
  uint64_t length = 0;
  ASSERT_EQ(PR_OK, pr_options_latest(checkpoint.c_str(), texts.data(), texts.size(), &length, err,
                                     sizeof err))
      << err;
  std::string database_options(texts.data());
  EXPECT_EQ(std::string::npos, database_options.find(logs)) << database_options;
  Options latest;
  ASSERT_EQ(PR_OK, pr_options_set_string(latest.handle, PR_OPTION_SCOPE_DB,
                                         database_options.c_str(), err, sizeof err))
      << err;
  for (int round = 0; round < 2; round++) {
    ASSERT_EQ(PR_OK, pr_db_open(latest.handle, checkpoint.c_str(), &db, err, sizeof err)) << err;
    EXPECT_EQ("in both", Value(db, "before"));
    EXPECT_EQ("absent", Value(db, "after"));
    ASSERT_EQ(PR_OK, Put(db, "checkpoint", "own")) << err;
    ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }
  EXPECT_EQ("own", Read(checkpoint, "", "checkpoint"));
  // The source keeps every synced write.
  EXPECT_EQ("in both", Read(db_path, logs, "before"));
  EXPECT_EQ("in the source only", Read(db_path, logs, "after"));
  EXPECT_EQ("absent", Read(db_path, logs, "checkpoint"));
}

// As a checkpoint made before the markers leaves it: the source's log
// directory unmarked, the checkpoint's own log files in its directory.
TEST_F(LogDirectoryTest, ACheckpointOfADatabaseWithAnUnmarkedLogDirectoryUsesItsOwnLogs) {
  std::string checkpoint = (dir / "checkpoint").string();
  pr_db_t* db = nullptr;
  ASSERT_NO_FATAL_FAILURE(OpenWithACheckpoint(checkpoint, &db));
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  fs::remove(fs::path(logs) / "PINROCK-OWNER");
  ExpectRefused(checkpoint, logs, PR_CODE_INVALID_ARGUMENT, {"written with its log in " + checkpoint});
  EXPECT_EQ("in both", Read(checkpoint, "", "before"));
  EXPECT_EQ("absent", Read(checkpoint, "", "after"));
  EXPECT_EQ("in the source only", Read(db_path, logs, "after"));
}

TEST_F(LogDirectoryTest, ALogDirectoryMovesByMovingItsFiles) {
  WriteAndClose(db_path, logs, "k", "synced");
  // To another directory: the log files and the marker.
  std::string moved = (dir / "moved").string();
  MoveFiles(logs, moved, {".log", "PINROCK-OWNER"});
  EXPECT_EQ("synced", Read(db_path, moved, "k"));
  WriteAndClose(db_path, moved, "k2", "synced there");
  // Into the database's own directory: the log files alone.
  MoveFiles(moved, db_path, {".log"});
  EXPECT_EQ("synced", Read(db_path, "", "k"));
  EXPECT_EQ("synced there", Read(db_path, "", "k2"));
  WriteAndClose(db_path, "", "k3", "synced here");
  // Out of it again, into a fresh directory.
  MoveFiles(db_path, logs + "2", {".log"});
  EXPECT_EQ("synced there", Read(db_path, logs + "2", "k2"));
  EXPECT_EQ("synced here", Read(db_path, logs + "2", "k3"));
}

TEST_F(LogDirectoryTest, ALogDirectoryThatIsAFileIsRefused) {
  std::ofstream(dir / "file") << "not a directory";
  ExpectRefused(db_path, (dir / "file").string(), PR_CODE_INVALID_ARGUMENT, {"no directory"});
  // A log directory inside the database's directory is its own.
  std::string inside = (fs::path(db_path) / "logs").string();
  WriteAndClose(db_path, inside, "k", "synced");
  EXPECT_EQ("synced", Read(db_path, inside, "k"));
  ExpectRefused(db_path, "", PR_CODE_INVALID_ARGUMENT, {inside});
}

TEST_F(LogDirectoryTest, RepairWithAnotherLogDirectoryIsRefused) {
  WriteAndClose(db_path, logs, "k", "synced");
  CreatingOptions none;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_db_repair(none.handle, db_path.c_str(), err, sizeof err)))
      << err;
  EXPECT_NE(nullptr, std::strstr(err, logs.c_str())) << err;
  CreatingOptions with_logs;
  SetLogs(with_logs, logs);
  ASSERT_EQ(PR_OK, pr_db_repair(with_logs.handle, db_path.c_str(), err, sizeof err)) << err;
  EXPECT_EQ("synced", Read(db_path, logs, "k"));
}

}  // namespace
