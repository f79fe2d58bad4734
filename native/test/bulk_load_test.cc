// GoogleTest tests of pinrock.h's bulk load section: table files written
// outside a database, then ingested.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <string>

using namespace pinrock_test;

namespace {

TEST_F(DbTest, IngestMovesAFinishedTableFileIn) {
  std::string path = dir.path("bulk.sst");
  pr_sst_writer_t* writer = nullptr;
  ASSERT_EQ(PR_OK, pr_sst_writer_open(options.handle, path.c_str(), &writer, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_sst_writer_put(writer, bytes("a"), 1, bytes("1"), 1, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_sst_writer_put(writer, bytes("b"), 1, bytes("2"), 1, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            PR_STATUS_CODE(pr_sst_writer_put(writer, bytes("a"), 1, bytes("x"), 1, err, sizeof err)));
  ASSERT_EQ(PR_OK, pr_sst_writer_delete(writer, bytes("c"), 1, err, sizeof err));
  uint64_t size = 0;
  ASSERT_EQ(PR_OK, pr_sst_writer_finish(writer, &size, err, sizeof err)) << err;
  EXPECT_GT(size, 0u);
  pr_sst_writer_destroy(writer);
  struct stat before;
  ASSERT_EQ(0, stat(path.c_str(), &before));
  Put("c", "old");
  const char* paths[] = {path.c_str()};
  ASSERT_EQ(PR_OK, pr_db_ingest(db, paths, 1, PR_INGEST_MOVE, err, sizeof err)) << err;
  pr_get_result_t result;
  ASSERT_EQ(PR_OK, Get("b", 8, 0, &result));
  EXPECT_EQ(PR_NOT_FOUND, Get("c", 8, 0, &result));  // the file's deletion is newer
  // Moved, not copied: the original name is gone, the inode lives on in the database.
  struct stat after;
  EXPECT_NE(0, stat(path.c_str(), &after));
  bool same_inode = false;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".sst" && stat(entry.path().c_str(), &after) == 0) {
      same_inode = same_inode || after.st_ino == before.st_ino;
    }
  }
  EXPECT_TRUE(same_inode);
  pr_sst_writer_destroy(nullptr);
}

TEST_F(DbTest, IngestOfAMissingFileIsAnError) {
  std::string missing = dir.path("missing.sst");
  const char* paths[] = {missing.c_str()};
  EXPECT_NE(PR_OK, pr_db_ingest(db, paths, 1, PR_INGEST_MOVE, err, sizeof err));
  pr_sst_writer_t* writer = nullptr;
  ASSERT_EQ(PR_OK, pr_sst_writer_open(nullptr, dir.path("empty.sst").c_str(), &writer, err,
                                      sizeof err));
  uint64_t size = 0;
  EXPECT_NE(PR_OK, pr_sst_writer_finish(writer, &size, err, sizeof err));
  pr_sst_writer_destroy(writer);
}

}  // namespace
