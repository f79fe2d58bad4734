// GoogleTest tests of pinrock.h's events and background errors section:
// RocksDB's events on the process's queue (background errors, which need
// testing.h's Env hook, are in background_errors_test.cc).
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace pinrock_test;

namespace {

// RocksDB's enum values the tests look for (rocksdb/listener.h, rocksdb/types.h).
constexpr int64_t kManualFlush = 0x0a;
constexpr int64_t kManualCompaction = 9;
constexpr int64_t kCreatedByFlush = 0;
constexpr int64_t kCreatedByCompaction = 1;
constexpr int64_t kStallDelayed = 0;
constexpr int64_t kStallNormal = 2;

using EventListenersTest = EventQueueTest;

TEST_F(EventListenersTest, FlushesCompactionsAndTheirFilesAreToldWithTheirFields) {
  Open();
  ASSERT_EQ(PR_OK, Put("a"));
  ASSERT_EQ(PR_OK, Put("b"));
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, Put("c"));
  ASSERT_EQ(PR_OK, pr_db_delete(db, bytes("a"), 1, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err)) << err;
  std::vector<Event> events = CloseAndDrain();

  for (Event event : events) {
    EXPECT_EQ(dir.path(), event.String()) << "kind " << event.kind;
  }

  std::vector<Event> sealed = OfKind(events, PR_EVENT_MEMTABLE_SEALED);
  ASSERT_EQ(2u, sealed.size());
  sealed[0].String();
  EXPECT_EQ("default", sealed[0].String());
  sealed[0].Number();
  sealed[0].Number();
  EXPECT_EQ(2, sealed[0].Number());  // entries
  EXPECT_EQ(0, sealed[0].Number());  // deletions
  EXPECT_TRUE(sealed[0].Done());

  ASSERT_EQ(2u, OfKind(events, PR_EVENT_FLUSH_BEGUN).size());
  std::vector<Event> flushed = OfKind(events, PR_EVENT_FLUSH_COMPLETED);
  ASSERT_EQ(2u, flushed.size());
  std::vector<std::string> flushed_files;
  for (size_t i = 0; i < flushed.size(); i++) {
    Event& flush = flushed[i];
    flush.String();
    EXPECT_EQ("default", flush.String());
    flushed_files.push_back(flush.String());
    EXPECT_NE(std::string::npos, flushed_files.back().find(".sst")) << flushed_files.back();
    flush.Number();                            // job id
    EXPECT_EQ(0, flush.Number());              // triggered a slowdown
    EXPECT_EQ(0, flush.Number());              // triggered a stop
    int64_t smallest = flush.Number();
    EXPECT_LE(smallest, flush.Number());       // largest
    EXPECT_EQ(kManualFlush, flush.Number());
    EXPECT_EQ(2, flush.Number());              // entries
    EXPECT_EQ(i == 0 ? 0 : 1, flush.Number()); // deletions
    EXPECT_TRUE(flush.Done());
  }

  std::vector<Event> created = OfKind(events, PR_EVENT_TABLE_FILE_CREATED);
  ASSERT_EQ(3u, created.size());
  std::vector<int64_t> reasons;
  for (Event& file : created) {
    file.String();
    EXPECT_EQ("default", file.String());
    EXPECT_NE(std::string::npos, file.String().find(".sst"));
    file.Number();
    reasons.push_back(file.Number());
    EXPECT_EQ("OK", file.Status());
    EXPECT_GT(file.Number(), 0);  // size
    file.Number();
    file.Number();
    EXPECT_TRUE(file.Done());
  }
  EXPECT_EQ((std::vector<int64_t>{kCreatedByFlush, kCreatedByFlush, kCreatedByCompaction}), reasons);

  ASSERT_EQ(1u, OfKind(events, PR_EVENT_COMPACTION_BEGUN).size());
  std::vector<Event> compacted = OfKind(events, PR_EVENT_COMPACTION_COMPLETED);
  ASSERT_EQ(1u, compacted.size());
  Event& compaction = compacted[0];
  compaction.String();
  EXPECT_EQ("default", compaction.String());
  EXPECT_EQ("OK", compaction.Status());
  compaction.Number();  // job id
  EXPECT_EQ(0, compaction.Number());  // base input level
  compaction.Number();  // output level
  EXPECT_EQ(kManualCompaction, compaction.Number());
  ASSERT_EQ(2, compaction.Number());  // inputs
  std::vector<std::string> inputs;
  for (int i = 0; i < 2; i++) {
    inputs.push_back(compaction.String());
    EXPECT_EQ(0, compaction.Number());  // level
    EXPECT_GT(compaction.Number(), 0);  // file number
  }
  EXPECT_EQ(1, compaction.Number());  // outputs
  EXPECT_NE(std::string::npos, compaction.String().find(".sst"));
  compaction.Number();
  compaction.Number();
  compaction.Number();  // elapsed
  EXPECT_EQ(4, compaction.Number());  // records read: a, b, c, a's deletion
  EXPECT_EQ(2, compaction.Number());  // records written: b, c (the bottommost level drops a)
  EXPECT_GT(compaction.Number(), 0);
  EXPECT_GT(compaction.Number(), 0);
  EXPECT_TRUE(compaction.Done());
  for (const std::string& input : inputs) {
    bool flushed_file = false;
    for (const std::string& file : flushed_files) flushed_file |= file == input;
    EXPECT_TRUE(flushed_file) << input;
  }

  std::vector<std::string> deleted;
  for (Event file : OfKind(events, PR_EVENT_TABLE_FILE_DELETED)) {
    file.String();
    deleted.push_back(file.String());
    file.Number();
    EXPECT_EQ("OK", file.Status());
    EXPECT_TRUE(file.Done());
  }
  std::sort(deleted.begin(), deleted.end());
  std::sort(flushed_files.begin(), flushed_files.end());
  EXPECT_EQ(flushed_files, deleted);
}

TEST_F(EventListenersTest, IngestedFilesAndWriteStallsAreTold) {
  ASSERT_EQ(PR_OK, pr_options_set_string(options.handle, PR_OPTION_SCOPE_FAMILY,
                                         "level0_file_num_compaction_trigger=2;"
                                         "level0_slowdown_writes_trigger=2;level0_stop_writes_trigger=8",
                                         err, sizeof err))
      << err;
  Open();
  std::string file = dir.path("ingested.sst");
  pr_sst_writer_t* writer = nullptr;
  ASSERT_EQ(PR_OK, pr_sst_writer_open(nullptr, file.c_str(), &writer, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_sst_writer_put(writer, bytes("k"), 1, bytes("v"), 1, err, sizeof err)) << err;
  uint64_t size = 0;
  ASSERT_EQ(PR_OK, pr_sst_writer_finish(writer, &size, err, sizeof err)) << err;
  pr_sst_writer_destroy(writer);
  const char* paths[] = {file.c_str()};
  ASSERT_EQ(PR_OK, pr_db_ingest(db, paths, 1, 0, err, sizeof err)) << err;
  for (int i = 0; i < 2; i++) {
    ASSERT_EQ(PR_OK, Put("x" + std::to_string(i)));
    ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  }
  std::vector<Event> events = CloseAndDrain();

  std::vector<Event> ingested = OfKind(events, PR_EVENT_EXTERNAL_FILE_INGESTED);
  ASSERT_EQ(1u, ingested.size());
  Event& ingest = ingested[0];
  EXPECT_EQ(dir.path(), ingest.String());
  EXPECT_EQ("default", ingest.String());
  EXPECT_EQ(file, ingest.String());
  EXPECT_NE(std::string::npos, ingest.String().find(dir.path()));
  ingest.Number();                  // global sequence number
  EXPECT_EQ(1, ingest.Number());    // entries
  EXPECT_TRUE(ingest.Done());

  // Level 0 holds two files, the slowdown trigger: delayed (until the
  // compaction that starts at two ends).
  std::vector<Event> stalls = OfKind(events, PR_EVENT_WRITE_STALL_CHANGED);
  ASSERT_FALSE(stalls.empty());
  Event& stall = stalls[0];
  EXPECT_EQ(dir.path(), stall.String());
  EXPECT_EQ("default", stall.String());
  EXPECT_EQ(kStallDelayed, stall.Number());
  EXPECT_EQ(kStallNormal, stall.Number());
  EXPECT_TRUE(stall.Done());
}

TEST_F(EventListenersTest, ResumeWithoutAnErrorIsOk) {
  Open();
  EXPECT_EQ(PR_OK, pr_db_resume(db, err, sizeof err)) << err;
  EXPECT_TRUE(OfKind(CloseAndDrain(), PR_EVENT_BACKGROUND_ERROR).empty());
}

TEST_F(EventListenersTest, TheEndComesOnceEveryHolderLetsGoAndOnlyThen) {
  Open();
  // The options let go first; the open database still holds the destination.
  ASSERT_EQ(PR_OK, pr_options_set_event_listener(options.handle, 0, err, sizeof err)) << err;
  Event event{};
  uint64_t dropped = 0;
  while (TakeEvent(0, &event, &dropped)) EXPECT_NE(PR_EVENT_END, event.kind);
  ASSERT_EQ(PR_OK, Put("a"));
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  ASSERT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  std::vector<Event> events = DrainUntilEnd();
  EXPECT_EQ(1u, OfKind(events, PR_EVENT_FLUSH_COMPLETED).size());
  EXPECT_FALSE(TakeEvent(0, &event, &dropped));
}

}  // namespace
