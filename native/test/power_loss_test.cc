// Power loss through pinrock's C ABI. Killing the process keeps the page
// cache, so it cannot lose a write that was never synced; this test cuts the
// power instead, through PowerCutFileSystem (power_cut_file_system.h) over
// the real file system. At a random moment the power is cut: every later
// write, sync, rename or delete through it is dropped; the database is
// closed, every file is put back in its durable state, and the database is
// reopened with the real file system and checked.
//
// The random choices (when the power goes, what is written, the tails)
// come from a seed each test prints; PINROCK_POWER_LOSS_SEED=<seed> in the
// environment makes them again (the background flushes and compactions may
// still interleave otherwise).
#include "pinrock.h"
#include "power_cut_file_system.h"
#include "testing.h"

#include <gtest/gtest.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using pinrock_power_cut::kTails;
using pinrock_power_cut::NameOf;
using pinrock_power_cut::PowerCutFileSystem;
using pinrock_power_cut::PowerLoss;
using pinrock_power_cut::Tail;

// A power-cut file system over the real one that also checks the order of the
// logs' durability; what it cannot do fails the test.
std::shared_ptr<PowerCutFileSystem> NewPowerCutFileSystem(PowerLoss mode, const std::string& dir,
                                                          uint64_t cut_after_ops,
                                                          uint64_t tail_seed,
                                                          std::optional<Tail> only_tail = std::nullopt) {
  return std::make_shared<PowerCutFileSystem>(
      rocksdb::FileSystem::Default(), [](const std::string& problem) { ADD_FAILURE() << problem; },
      mode, dir, cut_after_ops, tail_seed, only_tail, /*logs_in_order=*/true);
}

// The seed of a test's random choices: PINROCK_POWER_LOSS_SEED, else a new
// one; printed either way.
uint64_t Seed() {
  const char* given = std::getenv("PINROCK_POWER_LOSS_SEED");
  uint64_t seed = given != nullptr ? std::strtoull(given, nullptr, 10) : std::random_device()();
  std::printf("[ power loss ] seed %llu (PINROCK_POWER_LOSS_SEED=%llu makes the same choices)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  return seed;
}

// The workload: batch b holds BatchSize(b) puts of keys "bNNNNNNNN.EE" (batch,
// entry), each with a value derived from its key, so what a database holds
// says which batches it has and whether each value is intact.
size_t BatchSize(uint64_t batch) { return 1 + (batch * 2654435761u >> 7) % 8; }

std::string KeyOf(uint64_t batch, size_t entry) {
  char key[32];
  std::snprintf(key, sizeof key, "b%08llu.%02zu", static_cast<unsigned long long>(batch), entry);
  return key;
}

std::string ValueOf(const std::string& key) {
  uint64_t h = std::hash<std::string>()(key);
  std::string value = key + ":";
  size_t len = 16 + h % 1500;
  while (value.size() < len) value += static_cast<char>('a' + (h = h * 6364136223846793005u + 1) % 26);
  return value;
}

void AppendVarint(std::string* out, uint64_t n) {
  while (n >= 0x80) {
    *out += static_cast<char>(n | 0x80);
    n >>= 7;
  }
  *out += static_cast<char>(n);
}

// RocksDB's write batch representation of batch b.
std::string BatchOf(uint64_t batch) {
  std::string rep(12, '\0');
  rep[8] = static_cast<char>(BatchSize(batch));
  for (size_t i = 0; i < BatchSize(batch); i++) {
    std::string key = KeyOf(batch, i), value = ValueOf(key);
    rep += '\x01';
    AppendVarint(&rep, key.size());
    rep += key;
    AppendVarint(&rep, value.size());
    rep += value;
  }
  return rep;
}

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

class PowerLossTest : public ::testing::TestWithParam<PowerLoss> {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "pinrock-power-XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    root_ = mkdtemp(buf.data());
    path_ = root_ + "/db";
  }
  void TearDown() override { fs::remove_all(root_); }

  pr_options_t* NewOptions() {
    pr_options_t* options = pr_options_create();
    pr_options_set_create_if_missing(options, 1);
    // Small memtables: flushes (and compactions) happen in the background too.
    EXPECT_EQ(PR_OK, pr_options_set_write_buffer_bytes(options, 64 << 10, err, sizeof err)) << err;
    return options;
  }

  // Opens the database with the real file system and checks that it holds
  // exactly batches 0 .. n-1 with intact values; returns n.
  uint64_t VerifiedBatches(uint64_t at_least, uint64_t at_most) {
    pr_options_t* options = NewOptions();
    pr_db_t* db = nullptr;
    EXPECT_EQ(PR_OK, pr_db_open(options, path_.c_str(), &db, err, sizeof err))
        << err << "\nthe files as the power cut left them:\n" << files_at_cut_;
    pr_options_destroy(options);
    if (db == nullptr) return at_least;
    pr_cursor_t* cursor = nullptr;
    EXPECT_EQ(PR_OK, pr_cursor_open(db, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0, &cursor, err,
                                    sizeof err))
        << err;
    uint64_t batch = 0;
    size_t entry_in_batch = 0;
    pr_cursor_entry_t entry;
    int32_t status = pr_cursor_move(cursor, PR_CURSOR_FIRST, nullptr, 0, &entry, err, sizeof err);
    for (; status == PR_OK;
         status = pr_cursor_move(cursor, PR_CURSOR_NEXT, nullptr, 0, &entry, err, sizeof err)) {
      std::string key(reinterpret_cast<const char*>(entry.key), entry.key_len);
      std::string value(reinterpret_cast<const char*>(entry.value), entry.value_len);
      std::string expected_key = KeyOf(batch, entry_in_batch);
      if (key != expected_key) {
        ADD_FAILURE() << "a gap: found " << key << " where " << expected_key << " comes next";
        break;
      }
      EXPECT_EQ(ValueOf(key), value) << "the value of " << key << " is damaged";
      verified_writes_++;
      if (++entry_in_batch == BatchSize(batch)) {
        batch++;
        entry_in_batch = 0;
      }
    }
    EXPECT_EQ(PR_NOT_FOUND, status) << err;
    EXPECT_EQ(0u, entry_in_batch) << "batch " << batch << " is only partly applied";
    EXPECT_GE(batch, at_least) << "a durable write (synced, or flushed) is lost";
    EXPECT_LE(batch, at_most) << "batches never written are present";
    pr_cursor_close(cursor);
    EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    return batch;
  }

  // Runs `rounds` rounds on one database that grows from round to round:
  // each opens it through a power-cut file system, writes batches (with the
  // log, some synced, or without it: PR_WRITE_DISABLE_WAL) and flushes at
  // random until the power goes, then checks what survived: every batch
  // acknowledged durable (written with PR_WRITE_SYNC, or before a flush that
  // returned) and a prefix of the rest.
  void RunRounds(int rounds, bool without_log) {
    std::mt19937_64 random(seed_);
    uint64_t batches = 0;  // batches 0 .. batches-1 are in the database
    uint64_t durable_rounds_checked = 0, acknowledged_lost = 0, cut_mid_run = 0;
    std::array<uint64_t, std::size(kTails)> tails{};
    for (int round = 0; round < rounds && !HasFailure(); round++) {
      SCOPED_TRACE("round " + std::to_string(round) + " of seed " + std::to_string(seed_));
      // Without the log fewer changes reach the disk: the power goes sooner.
      auto file_system = NewPowerCutFileSystem(
          GetParam(), path_, random() % (without_log ? 150 : 400), random());
      std::shared_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(file_system);
      pr_options_t* options = NewOptions();
      pinrock_testing_set_env(options, env);
      uint64_t acknowledged_durable = batches;  // every batch below it must survive
      uint64_t next = batches;
      pr_db_t* db = nullptr;
      if (pr_db_open(options, path_.c_str(), &db, err, sizeof err) == PR_OK) {
        for (int i = 0; i < 200; i++) {
          if (random() % 16 == 0) {
            if (pr_db_flush(db, err, sizeof err) != PR_OK) {
              ASSERT_TRUE(file_system->cut()) << "a flush failed with the power on: " << err;
              break;
            }
            acknowledged_durable = next;
          }
          bool sync = !without_log && random() % 4 == 0;
          uint32_t flags = without_log ? PR_WRITE_DISABLE_WAL : sync ? PR_WRITE_SYNC : 0;
          std::string batch = BatchOf(next);
          if (pr_db_write(db, bytes(batch), batch.size(), flags, err, sizeof err) != PR_OK) {
            ASSERT_TRUE(file_system->cut()) << "a write failed with the power on: " << err;
            break;
          }
          next++;
          if (sync) acknowledged_durable = next;
        }
        if (file_system->cut()) cut_mid_run++;
        file_system->Cut();
        pr_db_close(db, err, sizeof err);  // fails: the power is off
      } else {
        ASSERT_TRUE(file_system->cut()) << "open failed with the power on: " << err;
        cut_mid_run++;
      }
      file_system->Revert();
      files_at_cut_ = file_system->Describe();
      for (size_t t = 0; t < tails.size(); t++) tails[t] += file_system->tails()[t];
      pr_options_destroy(options);
      if (acknowledged_durable > batches) durable_rounds_checked++;
      // The batch being written when the power went may be there or not.
      batches = VerifiedBatches(acknowledged_durable, next + 1);
      if (next > batches) acknowledged_lost += next - batches;
    }
    std::printf("[ power loss ] %d rounds (%llu cut while opening or writing), %llu writes "
                "verified, %llu batches in the end, %llu rounds with durable writes to keep, "
                "%llu acknowledged batches not durable lost; files' unsynced data",
                rounds, static_cast<unsigned long long>(cut_mid_run),
                static_cast<unsigned long long>(verified_writes_),
                static_cast<unsigned long long>(batches),
                static_cast<unsigned long long>(durable_rounds_checked),
                static_cast<unsigned long long>(acknowledged_lost));
    for (size_t t = 0; t < tails.size(); t++) {
      std::printf("%s %s %llu", t == 0 ? "" : ",", NameOf(kTails[t]),
                  static_cast<unsigned long long>(tails[t]));
    }
    std::printf("\n");
  }

  const uint64_t seed_ = Seed();

  std::string root_, path_, files_at_cut_;
  char err[512] = {0};
  uint64_t verified_writes_ = 0;
};

TEST_P(PowerLossTest, SyncedWritesSurviveAndTheRestIsAPrefix) { RunRounds(30, false); }

// The "disableWal + flush" promise: writes without the log survive once a
// flush after them returned; the rest is a prefix.
TEST_P(PowerLossTest, WritesWithoutTheLogSurviveOnceFlushed) { RunRounds(10, true); }

// The simulated power loss bites: a write acknowledged but not synced, with
// no flush after it, is gone when the cut left none of the log's unsynced
// data (the tail cut off) or left zeros or garbage in its place.
TEST_P(PowerLossTest, AnUnsyncedWriteIsLost) {
  std::mt19937_64 random(seed_);
  for (int round = 0; round < 8 && !HasFailure(); round++) {
    SCOPED_TRACE("round " + std::to_string(round) + " of seed " + std::to_string(seed_));
    fs::remove_all(path_);
    Tail tail = kTails[round % 3];  // cut off, zeros, garbage: not torn, which may keep it
    auto file_system = NewPowerCutFileSystem(GetParam(), path_, UINT64_MAX, random(), tail);
    std::shared_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(file_system);
    pr_options_t* options = NewOptions();
    pinrock_testing_set_env(options, env);
    pr_db_t* db = nullptr;
    ASSERT_EQ(PR_OK, pr_db_open(options, path_.c_str(), &db, err, sizeof err)) << err;
    pr_options_destroy(options);
    std::string synced = BatchOf(0), unsynced = BatchOf(1);
    ASSERT_EQ(PR_OK, pr_db_write(db, bytes(synced), synced.size(), PR_WRITE_SYNC, err, sizeof err))
        << err;
    ASSERT_EQ(PR_OK, pr_db_write(db, bytes(unsynced), unsynced.size(), 0, err, sizeof err)) << err;
    file_system->Cut();
    pr_db_close(db, err, sizeof err);  // fails: the power is off
    file_system->Revert();
    files_at_cut_ = file_system->Describe();
    ASSERT_LE(1u, file_system->tails()[static_cast<size_t>(tail)])
        << "the log had no unsynced data\n" << files_at_cut_;
    EXPECT_EQ(1u, VerifiedBatches(1, 2)) << "the unsynced write survived the power cut, the "
                                            "log's unsynced data " << NameOf(tail) << "\n"
                                         << files_at_cut_;
  }
}


INSTANTIATE_TEST_SUITE_P(Modes, PowerLossTest,
                         ::testing::Values(PowerLoss::kUnsyncedData,
                                           PowerLoss::kUnsyncedDataAndNames),
                         [](const ::testing::TestParamInfo<PowerLoss>& info) {
                           return info.param == PowerLoss::kUnsyncedData
                                      ? std::string("UnsyncedDataLost")
                                      : std::string("UnsyncedDataAndNamesLost");
                         });

}  // namespace
