// GoogleTest tests of pinrock.h's options section: the setters' checks, and
// the compression settings as they reach the table files.
#include "pinrock.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <initializer_list>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

using namespace pinrock_test;

namespace {

TEST(OptionsTest, DestroyAcceptsNull) { pr_options_destroy(nullptr); }

TEST(OptionsTest, SettersRejectInvalidValuesWithAMessage) {
  Options o;
  char err[256] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_compression(o.handle, 6, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "compression type 6")) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_bottommost_compression(o.handle, 99, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_zstd_level(o.handle, 23, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "zstd level 23")) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_block_cache_bytes(o.handle, (1ull << 62) + 1, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_write_buffer_bytes(o.handle, 1024, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_max_open_files(o.handle, 5, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "max open files 5")) << err;
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_wal_recovery_mode(o.handle, 4, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "WAL recovery mode 4")) << err;
}

TEST(OptionsTest, SettersAcceptValidValues) {
  Options o;
  EXPECT_EQ(PR_OK, pr_options_set_compression(o.handle, PR_COMPRESSION_ZSTD, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_bottommost_compression(o.handle, PR_COMPRESSION_INHERIT,
                                                         nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_zstd_level(o.handle, -5, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_zstd_level(o.handle, 19, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_block_cache_bytes(o.handle, 0, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_write_buffer_bytes(o.handle, 1 << 20, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_max_open_files(o.handle, -1, nullptr, 0));
  EXPECT_EQ(PR_OK, pr_options_set_max_open_files(o.handle, 100, nullptr, 0));
  for (int32_t mode : {PR_WAL_RECOVERY_TOLERATE_CORRUPTED_TAIL, PR_WAL_RECOVERY_SKIP_ANY_CORRUPTED}) {
    EXPECT_EQ(PR_OK, pr_options_set_wal_recovery_mode(o.handle, mode, nullptr, 0));
  }
}

// RocksDB's own range: it would clip a larger memtable to 64 GiB unsaid.
TEST(OptionsTest, WriteBufferIsWithinRocksDBsRange) {
  Options o;
  char err[128];
  EXPECT_EQ(PR_OK, pr_options_set_write_buffer_bytes(o.handle, 64ull << 10, err, sizeof err));
  EXPECT_EQ(PR_OK, pr_options_set_write_buffer_bytes(o.handle, 64ull << 30, err, sizeof err));
  for (uint64_t bytes : {(64ull << 10) - 1, (64ull << 30) + 1, 1ull << 40}) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
              pr_options_set_write_buffer_bytes(o.handle, bytes, err, sizeof err));
    EXPECT_NE(nullptr, std::strstr(err, "outside [64 KiB, 64 GiB]")) << err;
  }
}

TEST(OptionsTest, MessageIsTruncatedToTheCallersBuffer) {
  Options o;
  char err[8];
  std::memset(err, 'x', sizeof err);
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_zstd_level(o.handle, 99, err, sizeof err));
  EXPECT_EQ(7u, std::strlen(err));
}

// The content of every file in dir whose name starts with prefix and ends
// with suffix.
std::vector<std::string> files_named(const std::string& dir, const std::string& prefix,
                                     const std::string& suffix) {
  std::vector<std::string> contents;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.size() < prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    contents.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return contents;
}

// Writes 1000 highly compressible 1000-byte values and flushes them.
void write_compressible(pr_db_t* db) {
  char err[256] = {0};
  std::string value(1000, 'z');
  for (int i = 0; i < 1000; i++) {
    std::string key = "key" + std::to_string(i);
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err,
                               sizeof err));
  }
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
}

TEST(CompressionTest, PerLevelDictionaryAndThreadsReachTheFiles) {
  TempDir dir;
  Options o;
  char err[256] = {0};
  pr_db_t* db = nullptr;
  pr_options_set_create_if_missing(o.handle, 1);
  // With RocksDB's dynamic level sizes, entry 0 is L0 and entry 1 the level
  // L0 compacts into (here the last one).
  int32_t levels[] = {PR_COMPRESSION_NONE, PR_COMPRESSION_ZSTD};
  ASSERT_EQ(PR_OK, pr_options_set_compression_per_level(o.handle, levels, 2, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_bottommost_compression(o.handle, PR_COMPRESSION_INHERIT, err,
                                                         sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_zstd_dictionary(o.handle, 4096, 0, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_compression_threads(o.handle, 3, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  write_compressible(db);
  auto level0 = files_named(dir.path(), "", ".sst");
  ASSERT_EQ(1u, level0.size());
  EXPECT_NE(std::string::npos, level0[0].find("NoCompression"));
  // Compaction moves the data to the last level: zstd with a dictionary.
  ASSERT_EQ(PR_OK, pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err));
  auto bottom = files_named(dir.path(), "", ".sst");
  ASSERT_EQ(1u, bottom.size());
  EXPECT_NE(std::string::npos, bottom[0].find("ZSTD"));
  EXPECT_NE(std::string::npos, bottom[0].find("max_dict_bytes=4096"));
  EXPECT_NE(std::string::npos, bottom[0].find("rocksdb.compression_dict"));
  // RocksDB records the thread count in the OPTIONS file, not in table files.
  bool threads_recorded = false;
  for (const auto& text : files_named(dir.path(), "OPTIONS-", "")) {
    threads_recorded = threads_recorded || text.find("parallel_threads=3") != std::string::npos;
  }
  EXPECT_TRUE(threads_recorded);
  EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
}

TEST(CompressionTest, InvalidCompressionOptionsAreRejected) {
  Options o;
  char err[256] = {0};
  int32_t bad[] = {PR_COMPRESSION_NONE, 42};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_compression_per_level(o.handle, bad, 2, err, sizeof err));
  int32_t many[8] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_compression_per_level(o.handle, many, 8, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_zstd_dictionary(o.handle, 4096, 100, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_compression_threads(o.handle, 0, err, sizeof err));
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_compression_threads(o.handle, 65, err, sizeof err));
}

TEST(CompressionTest, ZstdReachesTheTableFiles) {
  TempDir dir;
  Options o;
  char err[256] = {0};
  pr_db_t* db = nullptr;
  pr_options_set_create_if_missing(o.handle, 1);
  ASSERT_EQ(PR_OK, pr_options_set_compression(o.handle, PR_COMPRESSION_ZSTD, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_db_open(o.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  write_compressible(db);
  // A table file records its compression, uncompressed, in its properties
  // block; and 1000 highly compressible 1000-byte values must shrink.
  auto tables = files_named(dir.path(), "", ".sst");
  ASSERT_EQ(1u, tables.size());
  EXPECT_NE(std::string::npos, tables[0].find("ZSTD"));
  EXPECT_LT(tables[0].size(), 1000u * 1000u / 10u);
  EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err));
}

// The newest OPTIONS file RocksDB wrote in dir.
std::string latest_options_file(const std::string& dir) {
  std::string latest_name, latest;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("OPTIONS-", 0) == 0 && name > latest_name) {
      latest_name = name;
      std::ifstream in(entry.path(), std::ios::binary);
      latest.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }
  }
  return latest;
}

// Opens a database at dir with o, closes it, and returns its OPTIONS file.
std::string options_file_of(const std::string& dir, Options& o) {
  char err[256] = {0};
  pr_db_t* db = nullptr;
  pr_options_set_create_if_missing(o.handle, 1);
  EXPECT_EQ(PR_OK, pr_db_open(o.handle, dir.c_str(), &db, err, sizeof err)) << err;
  if (db != nullptr) {
    EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
  }
  return latest_options_file(dir);
}

// An option string and why it must be refused: what the message says after
// repeating the text.
struct Refusal {
  int32_t scope;
  const char* text;
  const char* why;
};

// Each string is refused with PR_CODE_INVALID_ARGUMENT, its message
// repeating the text and then saying why.
void expect_refused(std::initializer_list<Refusal> refusals) {
  Options o;
  char err[512] = {0};
  for (const Refusal& r : refusals) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_string(o.handle, r.scope, r.text, err, sizeof err))
        << r.text;
    std::string message = err;
    std::string echoed = std::string("\"") + r.text + "\": ";
    size_t after = message.find(echoed);
    ASSERT_NE(std::string::npos, after) << r.text << ": " << message;
    EXPECT_NE(std::string::npos, message.find(r.why, after + echoed.size())) << r.text << ": " << message;
  }
}

TEST(OptionStringTest, EachScopeReachesRocksDB) {
  TempDir dir;
  Options o;
  char err[512] = {0};
  ASSERT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_DB,
                                         "max_background_jobs=5;bytes_per_sync=1M", err, sizeof err))
      << err;
  ASSERT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_FAMILY,
                                         "max_write_buffer_number=3;"
                                         "compaction_style=kCompactionStyleUniversal;"
                                         "compaction_options_universal={size_ratio=7}",
                                         err, sizeof err))
      << err;
  ASSERT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_TABLE,
                                         "block_size=16K;filter_policy=bloomfilter:10:false;"
                                         "cache_index_and_filter_blocks=true",
                                         err, sizeof err))
      << err;
  std::string file = options_file_of(dir.path(), o);
  for (const char* expected :
       {"max_background_jobs=5", "bytes_per_sync=1048576", "max_write_buffer_number=3",
        "compaction_style=kCompactionStyleUniversal", "size_ratio=7", "block_size=16384",
        "bloomfilter", "cache_index_and_filter_blocks=true"}) {
    EXPECT_NE(std::string::npos, file.find(expected)) << expected << " not in\n" << file;
  }
}

// Typed setters and strings write the same RocksDB options: the later wins,
// and what a string leaves unnamed keeps its value.
TEST(OptionStringTest, TypedSettersAndStringsShareOneSetOfOptions) {
  TempDir dir;
  Options o;
  char err[512] = {0};
  ASSERT_EQ(PR_OK, pr_options_set_write_buffer_bytes(o.handle, 8 << 20, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_FAMILY,
                                         "write_buffer_size=16M", err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_zstd_level(o.handle, 7, err, sizeof err));
  ASSERT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_FAMILY,
                                         "compression=kZSTD", err, sizeof err));
  std::string file = options_file_of(dir.path(), o);
  EXPECT_NE(std::string::npos, file.find("write_buffer_size=16777216")) << file;
  EXPECT_NE(std::string::npos, file.find("compression=kZSTD")) << file;
  EXPECT_NE(std::string::npos, file.find("level=7")) << file;
  // pinrock's default bottommost compression survives a string that does not name it.
  EXPECT_NE(std::string::npos, file.find("bottommost_compression=kZSTD")) << file;
}

// The message repeats the text, then says why, naming the option where RocksDB can.
TEST(OptionStringTest, BadTextNamesAndValuesAreInvalidArgumentsSayingWhy) {
  expect_refused({
      {PR_OPTION_SCOPE_DB, "no_such_option=1", "no_such_option"},
      {PR_OPTION_SCOPE_FAMILY, "write_buffer_size=lots", "write_buffer_size"},
      {PR_OPTION_SCOPE_TABLE, "block_size=16K;unknown_table_option=2", "unknown_table_option"},
      {PR_OPTION_SCOPE_FAMILY, "compaction_style=kNoSuchStyle", "compaction_style"},
      {PR_OPTION_SCOPE_FAMILY, "compaction_options_universal={size_ratio=x}", "size_ratio"},
      {PR_OPTION_SCOPE_DB, "write_buffer_size=1M", "write_buffer_size"},
      {PR_OPTION_SCOPE_DB, "max_background_jobs", "'=' expected"},
      {PR_OPTION_SCOPE_FAMILY, "compaction_options_universal={size_ratio=7", "curly braces"},
      {PR_OPTION_SCOPE_FAMILY, "prefix_extractor=capped:x", "capped:x"},
      {PR_OPTION_SCOPE_TABLE, "filter_policy=bloomfiltr:10:false", "no filter RocksDB knows"},
  });
  Options o;
  char err[512] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_string(o.handle, 3, "block_size=4K", err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "option scope 3")) << err;
  // A long text is repeated only in part: the reason still fits the message.
  std::string long_text = std::string(100000, 'x') + "=1";
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_string(o.handle, PR_OPTION_SCOPE_DB, long_text.c_str(), err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "...\": ")) << err;
  EXPECT_NE(nullptr, std::strstr(err, "Could not find option")) << err;
}

// The message names the option right after the text, then says what to use instead.
TEST(OptionStringTest, OptionsPinrockOwnsOrDoesNotOfferAreRefusedByName) {
  expect_refused({
      {PR_OPTION_SCOPE_DB, "statistics=x", "statistics "},
      {PR_OPTION_SCOPE_DB, "env=MemEnv", "env "},
      {PR_OPTION_SCOPE_DB, "rate_limiter={id=GenericRateLimiter}", "rate_limiter "},
      {PR_OPTION_SCOPE_DB, "enforce_single_del_contracts=true", "enforce_single_del_contracts "},
      {PR_OPTION_SCOPE_FAMILY, "merge_operator=sortlist", "merge_operator "},
      {PR_OPTION_SCOPE_FAMILY, "comparator=rocksdb.ReverseBytewiseComparator", "comparator "},
      {PR_OPTION_SCOPE_FAMILY, "block_based_table_factory={block_size=8K}", "block_based_table_factory "},
      {PR_OPTION_SCOPE_FAMILY, "table_factory.id=PlainTable", "table_factory.id "},
      {PR_OPTION_SCOPE_FAMILY, "compaction_filter=RemoveEmptyValueCompactionFilter", "compaction_filter "},
      {PR_OPTION_SCOPE_TABLE, "block_cache=1G", "block_cache "},
      {PR_OPTION_SCOPE_TABLE, "no_block_cache=true", "no_block_cache "},
  });
}

// A refused string changes nothing, not even the options it names before the refused one.
TEST(OptionStringTest, ARefusedStringChangesNothing) {
  TempDir dir;
  Options o;
  char err[512] = {0};
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_options_set_string(o.handle, PR_OPTION_SCOPE_FAMILY,
                                  "max_write_buffer_number=9;no_such_option=1", err, sizeof err));
  EXPECT_EQ(std::string::npos, options_file_of(dir.path(), o).find("max_write_buffer_number=9"));
}

// Values RocksDB's parsers accept that would crash the process: a table cache
// of 2^20 or more shards is null (a segmentation fault at open); a thread a
// background job cannot start terminates the process; 0 compression threads
// leave a flush without a writer. Found by hand-written hostile programs.
TEST(OptionStringTest, ValuesThatWouldCrashTheProcessAreRefused) {
  expect_refused({
      {PR_OPTION_SCOPE_DB, "table_cache_numshardbits=20", "20 or more"},
      {PR_OPTION_SCOPE_DB, "max_background_jobs=257", "more than 256 threads"},
      {PR_OPTION_SCOPE_DB, "max_background_compactions=100000", "more than 256 threads"},
      {PR_OPTION_SCOPE_DB, "max_background_flushes=100000", "more than 256 threads"},
      {PR_OPTION_SCOPE_DB, "max_subcompactions=100000", "more than 256 threads"},
      {PR_OPTION_SCOPE_DB, "max_file_opening_threads=100000", "more than 256 threads"},
      {PR_OPTION_SCOPE_FAMILY, "compression_opts={parallel_threads=0}", "not in 1..64"},
      {PR_OPTION_SCOPE_FAMILY, "bottommost_compression_opts={parallel_threads=100000}", "not in 1..64"},
      {PR_OPTION_SCOPE_FAMILY, "compression_opts={max_dict_bytes=2147483647}", "exceeds 1 GiB"},
  });
  Options o;
  char err[512] = {0};
  // The limits themselves are accepted.
  for (const char* text : {"table_cache_numshardbits=19", "max_background_jobs=256"}) {
    EXPECT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_DB, text, err, sizeof err)) << err;
  }
  EXPECT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_FAMILY,
                                         "compression_opts={parallel_threads=64}", err, sizeof err))
      << err;
}

// Options that change what an acknowledged write means, in any spelling of
// their value RocksDB takes: manual_wal_flush=true lost every write a kill
// -9 came after (pinrock has no FlushWAL). Their safe values are accepted.
TEST(OptionStringTest, OptionsThatWeakenAcknowledgedWritesAreRefusedByValue) {
  expect_refused({
      {PR_OPTION_SCOPE_DB, "manual_wal_flush=true", "manual_wal_flush=true keeps acknowledged writes"},
      {PR_OPTION_SCOPE_DB, "manual_wal_flush=1", "FlushWAL"},
      {PR_OPTION_SCOPE_DB, "manual_wal_flush=false;manual_wal_flush=true", "manual_wal_flush=true"},
      {PR_OPTION_SCOPE_DB, "avoid_flush_during_shutdown=true", "avoid_flush_during_shutdown=true"},
      {PR_OPTION_SCOPE_DB, "best_efforts_recovery=true", "without replaying the log"},
      {PR_OPTION_SCOPE_DB, "unordered_write=true", "unordered_write=true"},
      {PR_OPTION_SCOPE_DB, "allow_mmap_writes=true", "allow_mmap_writes=true"},
  });
  Options o;
  char err[512] = {0};
  for (const char* text :
       {"manual_wal_flush=false", "manual_wal_flush=true;manual_wal_flush=false",
        "avoid_flush_during_shutdown=false;best_efforts_recovery=false;unordered_write=false;"
        "allow_mmap_writes=false",
        "avoid_flush_during_recovery=true;atomic_flush=true;use_fsync=true;two_write_queues=true"}) {
    EXPECT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_DB, text, err, sizeof err)) << err;
  }
}

// Layouts that find a key by its prefix cannot answer a get for a key
// shorter than the prefix (a get answered null for keys cursors listed),
// and in-place updates change a cursor's value under it: refused in each
// spelling RocksDB takes.
// RocksDB reads a negative number for an unsigned option as a huge one,
// with no error: refused in every scope, at open and while open; negative
// values of signed options stay accepted.
TEST(OptionStringTest, NegativeValuesOfUnsignedOptionsAreRefused) {
  expect_refused({
      {PR_OPTION_SCOPE_FAMILY, "max_sequential_skip_in_iterations=-1", "the option is unsigned"},
      {PR_OPTION_SCOPE_FAMILY, "write_buffer_size=-1", "write_buffer_size=-1 is negative"},
      {PR_OPTION_SCOPE_FAMILY, "arena_block_size= -4096", "RocksDB would read it as"},
      {PR_OPTION_SCOPE_DB, "max_total_wal_size=-1", "the option is unsigned"},
      {PR_OPTION_SCOPE_TABLE, "block_size=-1", "the option is unsigned"},
  });
  Options o;
  char err[512] = {0};
  EXPECT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_DB, "max_open_files=-1", err, sizeof err))
      << err;
  EXPECT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_FAMILY, "level0_slowdown_writes_trigger=20",
                                         err, sizeof err))
      << err;
}

// An empty list RocksDB reads back from its OPTIONS file as the default,
// failing the open that wrote it (after recovery) with an IO error.
TEST(OptionStringTest, ValuesThatDoNotSurviveTheOptionsFileAreRefused) {
  expect_refused({
      {PR_OPTION_SCOPE_FAMILY, "max_bytes_for_level_multiplier_additional=",
       "does not survive RocksDB's OPTIONS file"},
      {PR_OPTION_SCOPE_FAMILY,
       "max_bytes_for_level_multiplier_additional=1:2;max_bytes_for_level_multiplier_additional=",
       "an empty list"},
  });
  Options o;
  char err[512] = {0};
  EXPECT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_FAMILY,
                                         "max_bytes_for_level_multiplier_additional=1:2:1", err, sizeof err))
      << err;
}

TEST(OptionStringTest, LayoutsThatCannotAnswerEveryKeyAreRefused) {
  expect_refused({
      {PR_OPTION_SCOPE_FAMILY, "memtable_factory=prefix_hash", "HashSkipListRepFactory"},
      {PR_OPTION_SCOPE_FAMILY, "memtable_factory=prefix_hash:1000", "shorter than the prefix"},
      {PR_OPTION_SCOPE_FAMILY, "memtable_factory={id=HashSkipListRepFactory}", "HashSkipListRepFactory"},
      {PR_OPTION_SCOPE_FAMILY, "memtable_factory=hash_linkedlist", "HashLinkListRepFactory"},
      {PR_OPTION_SCOPE_FAMILY, "memtable=hash_linkedlist:1000", "HashLinkListRepFactory"},
      {PR_OPTION_SCOPE_FAMILY, "inplace_update_support=true", "cursor's value changes"},
      {PR_OPTION_SCOPE_FAMILY, "inplace_update_support=1", "inplace_update_support=true"},
      {PR_OPTION_SCOPE_TABLE, "index_type=kHashSearch", "index_type=kHashSearch"},
      {PR_OPTION_SCOPE_FAMILY, "level0_stop_writes_trigger=-1", "writes would stop for good"},
  });
  Options o;
  char err[512] = {0};
  EXPECT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_FAMILY,
                                         "memtable_factory=skip_list;inplace_update_support=false", err,
                                         sizeof err))
      << err;
  EXPECT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_TABLE,
                                         "index_type=kTwoLevelIndexSearch", err, sizeof err))
      << err;
}

using SetOptionsTest = DbTest;

TEST_F(SetOptionsTest, ANegativeValueOfAnUnsignedOptionIsRefusedWhileOpen) {
  EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_set_options(db, PR_OPTION_SCOPE_FAMILY,
                                                        "max_sequential_skip_in_iterations=-1", err, sizeof err));
  EXPECT_NE(nullptr, strstr(err, "the option is unsigned")) << err;
}

// Runs call; a call that has not returned after a minute (it takes
// milliseconds otherwise) is taken for a hang, and the test program ends
// failing rather than waiting for it.
template <typename Call>
int32_t Bounded(const char* what, Call call) {
  auto done = std::async(std::launch::async, call);
  if (done.wait_for(std::chrono::minutes(1)) == std::future_status::timeout) {
    std::fprintf(stderr, "FAILED: %s hung\n", what);
    std::_Exit(1);
  }
  return done.get();
}

// RocksDB corrects these values when a database opens but takes them as
// they are while it is open: max_write_buffer_number=0 stopped writes for
// good, and level-0 triggers of 0 made a flush and then the close never
// return. Each is refused while open, saying what an open would use, and
// writes, a flush and the close still complete.
TEST_F(SetOptionsTest, ValuesAnOpenWouldCorrectAreRefusedWhileOpenAndWritesGoOn) {
  char message[512] = {0};
  struct Case {
    int32_t scope;
    const char* text;
    const char* why;
  } cases[] = {
      {PR_OPTION_SCOPE_FAMILY, "max_write_buffer_number=0", "an open corrects it to 2"},
      {PR_OPTION_SCOPE_FAMILY, "max_write_buffer_number=1", "an open corrects it to 2"},
      {PR_OPTION_SCOPE_FAMILY,
       "level0_file_num_compaction_trigger=0;level0_slowdown_writes_trigger=0;level0_stop_writes_trigger=0",
       "an open corrects it to 1, 1, 1"},
      {PR_OPTION_SCOPE_FAMILY, "level0_stop_writes_trigger=2", "level0_stop_writes_trigger=2"},
      {PR_OPTION_SCOPE_FAMILY, "write_buffer_size=1024", "write_buffer_size=1024"},
      {PR_OPTION_SCOPE_FAMILY, "arena_block_size=0", "arena_block_size=0"},
      {PR_OPTION_SCOPE_FAMILY, "memtable_prefix_bloom_size_ratio=0.5", "[0, 0.25]"},
      {PR_OPTION_SCOPE_FAMILY, "max_bytes_for_level_multiplier=0", "an open corrects it to 1"},
      {PR_OPTION_SCOPE_FAMILY, "soft_pending_compaction_bytes_limit=0", "hard_pending_compaction_bytes_limit"},
      {PR_OPTION_SCOPE_FAMILY, "max_compaction_bytes=0", "25 times target_file_size_base"},
      {PR_OPTION_SCOPE_FAMILY, "ttl=18446744073709551614", "RocksDB's default"},
      {PR_OPTION_SCOPE_DB, "max_open_files=5", "an open corrects it to 20"},
      {PR_OPTION_SCOPE_DB, "delayed_write_rate=0", "16 MiB a second"},
      {PR_OPTION_SCOPE_DB, "avoid_flush_during_shutdown=true", "avoid_flush_during_shutdown=true"},
  };
  for (const Case& c : cases) {
    ASSERT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_set_options(db, c.scope, c.text, message, sizeof message))
        << c.text;
    EXPECT_NE(nullptr, std::strstr(message, c.why)) << c.text << ": " << message;
  }
  // The typed form takes the same path.
  Options triggers;
  ASSERT_EQ(PR_OK, pr_options_set_string(triggers.handle, PR_OPTION_SCOPE_FAMILY,
                                         "level0_file_num_compaction_trigger=0;"
                                         "level0_slowdown_writes_trigger=0;level0_stop_writes_trigger=0",
                                         message, sizeof message))
      << message;
  ASSERT_EQ(PR_CODE_INVALID_ARGUMENT,
            pr_db_set_options_from(db, PR_OPTION_SCOPE_FAMILY, triggers.handle, message, sizeof message));
  EXPECT_NE(nullptr, std::strstr(message, "an open corrects it to 1, 1, 1")) << message;
  // Values an open keeps as they are are taken.
  ASSERT_EQ(PR_OK, pr_db_set_options(db, PR_OPTION_SCOPE_FAMILY,
                                     "max_write_buffer_number=3;level0_file_num_compaction_trigger=2;"
                                     "level0_slowdown_writes_trigger=4;level0_stop_writes_trigger=8",
                                     message, sizeof message))
      << message;
  ASSERT_EQ(PR_OK, pr_db_set_options(db, PR_OPTION_SCOPE_DB, "max_open_files=-1;delayed_write_rate=1M",
                                     message, sizeof message))
      << message;
  for (int i = 0; i < 3; i++) {
    std::string key = "key" + std::to_string(i);
    EXPECT_EQ(PR_OK, Bounded("a put", [&] {
                char e[256] = {0};
                return pr_db_put(db, bytes(key), key.size(), bytes("value"), 5, e, sizeof e);
              }));
    EXPECT_EQ(PR_OK, Bounded("a flush", [&] {
                char e[256] = {0};
                return pr_db_flush(db, e, sizeof e);
              }));
  }
  EXPECT_EQ(PR_OK, Bounded("the close", [&] {
              char e[256] = {0};
              return pr_db_close(db, e, sizeof e);
            }));
  ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
}

// Level-0 table files of db's family now (a string property).
uint64_t level0_files(pr_db_t* db) {
  char value[32] = {0};
  uint64_t length = 0;
  char err[256] = {0};
  EXPECT_EQ(PR_OK, pr_db_property(db, "rocksdb.num-files-at-level0", value, sizeof value - 1, &length,
                                  err, sizeof err))
      << err;
  return std::stoull(std::string(value, std::min<uint64_t>(length, sizeof value - 1)));
}

TEST_F(SetOptionsTest, ChangedOptionsTakeEffectAndAreRecorded) {
  char message[512] = {0};
  ASSERT_EQ(PR_OK, pr_db_set_options(db, PR_OPTION_SCOPE_FAMILY,
                                     "disable_auto_compactions=true;level0_file_num_compaction_trigger=2",
                                     message, sizeof message))
      << message;
  for (int i = 0; i < 4; i++) {
    Put("key" + std::to_string(i), "value");
    ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  }
  EXPECT_EQ(4u, level0_files(db)) << "compactions ran while disabled";
  ASSERT_EQ(PR_OK, pr_db_set_options(db, PR_OPTION_SCOPE_FAMILY, "disable_auto_compactions=false",
                                     message, sizeof message))
      << message;
  ASSERT_EQ(PR_OK, pr_db_set_options(db, PR_OPTION_SCOPE_DB, "max_background_jobs=3;bytes_per_sync=64K",
                                     message, sizeof message))
      << message;
  // Enabled again, the four files (twice the trigger) are compacted away.
  Put("trigger", "value");
  ASSERT_EQ(PR_OK, pr_db_flush(db, err, sizeof err)) << err;
  for (int waited = 0; waited < 200 && level0_files(db) >= 2; waited++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_LT(level0_files(db), 2u);
  std::string file = latest_options_file(dir.path());
  for (const char* expected : {"level0_file_num_compaction_trigger=2", "disable_auto_compactions=false",
                               "max_background_jobs=3", "bytes_per_sync=65536"}) {
    EXPECT_NE(std::string::npos, file.find(expected)) << expected << " not in\n" << file;
  }
}

TEST_F(SetOptionsTest, WhatCannotChangeWhileOpenIsRefusedAndChangesNothing) {
  char message[512] = {0};
  struct Case {
    int32_t scope;
    const char* text;
    const char* why;
  } cases[] = {
      {PR_OPTION_SCOPE_FAMILY, "write_buffer_size=8M;num_levels=3", "num_levels"},
      {PR_OPTION_SCOPE_DB, "create_if_missing=false", "create_if_missing"},
      {PR_OPTION_SCOPE_FAMILY, "merge_operator=put", "pr_options_set_merge_operator"},
      {PR_OPTION_SCOPE_DB, "max_background_jobs=100000", "more than 256 threads"},
      {PR_OPTION_SCOPE_FAMILY, "no_such_option=1", "no_such_option"},
      {PR_OPTION_SCOPE_TABLE, "block_size=8K", "fixed while the database is open"},
      {7, "write_buffer_size=8M", "option scope 7"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_db_set_options(db, c.scope, c.text, message, sizeof message)) << c.text;
    EXPECT_NE(nullptr, std::strstr(message, c.why)) << c.text << ": " << message;
  }
  EXPECT_EQ(std::string::npos, latest_options_file(dir.path()).find("write_buffer_size=8388608"));
  Put("still", "writable");
}

// Options set typed and by strings, changed on the running database: the
// strings' options as given (one naming a default value too), the typed ones
// that differ from their defaults, the typed value winning over a string's.
TEST_F(SetOptionsTest, OptionsFromAHandleChangeWhatTheyNameAndWhatTheTypedSettersChanged) {
  char message[512] = {0};
  Options family;
  ASSERT_EQ(PR_OK, pr_options_set_string(family.handle, PR_OPTION_SCOPE_FAMILY,
                                         "disable_auto_compactions=false;write_buffer_size=8M;"
                                         "level0_file_num_compaction_trigger=7",
                                         message, sizeof message))
      << message;
  pr_options_t* typed = family.handle;
  ASSERT_EQ(PR_OK, pr_options_set_write_buffer_bytes(typed, 16ull << 20, message, sizeof message));
  ASSERT_EQ(PR_OK, pr_options_set_compression(typed, PR_COMPRESSION_ZSTD, message, sizeof message));
  ASSERT_EQ(PR_OK, pr_options_set_zstd_level(family.handle, 7, message, sizeof message));
  ASSERT_EQ(PR_OK, pr_db_set_options(db, PR_OPTION_SCOPE_FAMILY, "disable_auto_compactions=true",
                                     message, sizeof message))
      << message;
  ASSERT_EQ(PR_OK, pr_db_set_options_from(db, PR_OPTION_SCOPE_FAMILY, typed, message, sizeof message))
      << message;
  Options database;
  ASSERT_EQ(PR_OK, pr_options_set_string(database.handle, PR_OPTION_SCOPE_DB,
                                         "max_background_jobs=3", message, sizeof message));
  ASSERT_EQ(PR_OK,
            pr_db_set_options_from(db, PR_OPTION_SCOPE_DB, database.handle, message, sizeof message))
      << message;
  std::string file = latest_options_file(dir.path());
  for (const char* expected :
       {"disable_auto_compactions=false", "write_buffer_size=16777216",
        "level0_file_num_compaction_trigger=7", "compression=kZSTD", "max_background_jobs=3"}) {
    EXPECT_NE(std::string::npos, file.find(expected)) << expected << " not in\n" << file;
  }
  EXPECT_NE(std::string::npos, file.find("level=7;")) << "the zstd level is not in\n" << file;
  // Nothing set: nothing to change.
  Options defaults;
  EXPECT_EQ(PR_OK, pr_db_set_options_from(db, PR_OPTION_SCOPE_FAMILY, defaults.handle, message,
                                          sizeof message))
      << message;
}

TEST_F(SetOptionsTest, OptionsFromAHandleOfAnotherScopeOrOnlyForAnOpenAreRefusedAndChangeNothing) {
  char message[512] = {0};
  struct Case {
    int32_t scope;
    std::function<void(pr_options_t*)> set;
    const char* why;
  } cases[] = {
      {PR_OPTION_SCOPE_FAMILY,
       [](pr_options_t* o) {
         pr_options_set_string(o, PR_OPTION_SCOPE_DB, "max_background_jobs=3", nullptr, 0);
       },
       "database options max_background_jobs=3; are not column family options"},
      {PR_OPTION_SCOPE_DB,
       [](pr_options_t* o) { pr_options_set_write_buffer_bytes(o, 8ull << 20, nullptr, 0); },
       "column family options write_buffer_size=8388608; are not database options"},
      {PR_OPTION_SCOPE_FAMILY,
       [](pr_options_t* o) {
         pr_options_set_string(o, PR_OPTION_SCOPE_TABLE, "block_size=8K", nullptr, 0);
       },
       "table options block_size=8K; are fixed while the database is open"},
      {PR_OPTION_SCOPE_FAMILY,
       [](pr_options_t* o) { pr_options_set_block_cache_bytes(o, 1 << 20, nullptr, 0); },
       "the block cache size can only be set when the database opens"},
      {PR_OPTION_SCOPE_DB, [](pr_options_t* o) { pr_options_set_statistics(o, 1, nullptr, 0); },
       "statistics can only be set"},
      {PR_OPTION_SCOPE_FAMILY,
       [](pr_options_t* o) { pr_options_set_merge_operator(o, "put", nullptr, 0); },
       "a merge operator can only be set"},
      {PR_OPTION_SCOPE_FAMILY,
       [](pr_options_t* o) {
         pr_options_set_string(o, PR_OPTION_SCOPE_FAMILY, "write_buffer_size=8M;num_levels=3",
                               nullptr, 0);
       },
       "num_levels"},
      {PR_OPTION_SCOPE_DB, [](pr_options_t* o) { pr_options_set_create_if_missing(o, 1); },
       "create_if_missing=true;\": RocksDB cannot change it while the database is open"},
      {PR_OPTION_SCOPE_TABLE, [](pr_options_t*) {},
       "scope 2 cannot change while the database is open"},
  };
  for (const Case& c : cases) {
    Options o;
    c.set(o.handle);
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT,
              pr_db_set_options_from(db, c.scope, o.handle, message, sizeof message))
        << c.why;
    EXPECT_NE(nullptr, std::strstr(message, c.why)) << c.why << ": " << message;
  }
  EXPECT_EQ(std::string::npos, latest_options_file(dir.path()).find("write_buffer_size=8388608"));
  Put("still", "writable");
}

// The texts of the options a database was last opened with: the database's,
// then name, merge operator, comparator, family and table options of each
// family; each text the setters take back.
TEST(OptionsLatestTest, TheTextsReadBackAndOpenTheDatabaseAsItWas) {
  TempDir dir;
  char err[512] = {0};
  {
    Options o;
    ASSERT_EQ(PR_OK, pr_options_set_merge_operator(o.handle, "max", err, sizeof err)) << err;
    ASSERT_EQ(PR_OK, pr_options_set_comparator(o.handle, "rocksdb.ReverseBytewiseComparator", err, sizeof err))
        << err;
    ASSERT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_TABLE,
                                           "filter_policy=bloomfilter:10:false", err, sizeof err));
    ASSERT_EQ(PR_OK, pr_options_set_string(o.handle, PR_OPTION_SCOPE_DB, "max_background_jobs=3", err,
                                           sizeof err));
    options_file_of(dir.path(), o);
  }
  std::vector<char> buf(4);
  uint64_t length = 0;
  ASSERT_EQ(PR_OK, pr_options_latest(dir.path().c_str(), buf.data(), buf.size(), &length, err, sizeof err))
      << err;
  ASSERT_GT(length, buf.size());
  buf.resize(length);
  ASSERT_EQ(PR_OK, pr_options_latest(dir.path().c_str(), buf.data(), buf.size(), &length, err, sizeof err));
  std::vector<std::string> texts;
  for (size_t pos = 0; pos < length; pos += texts.back().size() + 1) texts.emplace_back(buf.data() + pos);
  ASSERT_EQ(6u, texts.size());
  EXPECT_NE(std::string::npos, texts[0].find("max_background_jobs=3;")) << texts[0];
  EXPECT_EQ(std::string::npos, texts[0].find("create_if_missing")) << texts[0];
  EXPECT_EQ("default", texts[1]);
  EXPECT_EQ("max", texts[2]);
  EXPECT_EQ("rocksdb.ReverseBytewiseComparator", texts[3]);
  EXPECT_EQ(std::string::npos, texts[4].find("comparator")) << texts[4];
  EXPECT_NE(std::string::npos, texts[5].find("filter_policy=bloomfilter:10:false;")) << texts[5];
  Options again;
  EXPECT_EQ(PR_OK, pr_options_set_string(again.handle, PR_OPTION_SCOPE_DB, texts[0].c_str(), err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, pr_options_set_merge_operator(again.handle, texts[2].c_str(), err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, pr_options_set_comparator(again.handle, texts[3].c_str(), err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, pr_options_set_string(again.handle, PR_OPTION_SCOPE_FAMILY, texts[4].c_str(), err, sizeof err)) << err;
  EXPECT_EQ(PR_OK, pr_options_set_string(again.handle, PR_OPTION_SCOPE_TABLE, texts[5].c_str(), err, sizeof err)) << err;
  std::string reopened = options_file_of(dir.path(), again);
  EXPECT_NE(std::string::npos, reopened.find("filter_policy=bloomfilter:10:false")) << reopened;
  EXPECT_NE(std::string::npos, reopened.find("max_background_jobs=3")) << reopened;
  EXPECT_NE(std::string::npos, reopened.find("comparator=rocksdb.ReverseBytewiseComparator")) << reopened;
}

// Only RocksDB's bytewise comparators are offered: not those with a
// timestamp (they change every key's format).
TEST(OptionsTest, OnlyTheBytewiseComparatorsAreOffered) {
  Options o;
  char err[512] = {0};
  for (const char* name : {"leveldb.BytewiseComparator", "rocksdb.ReverseBytewiseComparator"}) {
    EXPECT_EQ(PR_OK, pr_options_set_comparator(o.handle, name, err, sizeof err)) << name << ": " << err;
  }
  for (const char* name : {"", "leveldb.BytewiseComparator.u64ts", "rocksdb.ReverseBytewiseComparator.u64ts",
                           "bytewise", "comparator=rocksdb.ReverseBytewiseComparator"}) {
    EXPECT_EQ(PR_CODE_INVALID_ARGUMENT, pr_options_set_comparator(o.handle, name, err, sizeof err)) << name;
    EXPECT_NE(nullptr, std::strstr(err, "rocksdb.ReverseBytewiseComparator")) << err;
  }
}

TEST(OptionsLatestTest, ADirectoryWithoutOptionsIsNotFound) {
  TempDir dir;
  char err[512] = {0};
  char buf[16];
  uint64_t length = 99;
  EXPECT_EQ(PR_CODE_NOT_FOUND, pr_options_latest(dir.path().c_str(), buf, sizeof buf, &length, err, sizeof err));
  EXPECT_NE(nullptr, std::strstr(err, "No options files")) << err;
  EXPECT_EQ(0u, length);
}

}  // namespace
