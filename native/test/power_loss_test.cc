// Power loss through pinrock's C ABI. Killing the process keeps the page
// cache, so it cannot lose a write that was never synced; this test cuts the
// power instead. A file system wrapper records what is durable: a file's data
// up to its last Sync/Fsync, and (in the second mode) a directory's entries
// as of its last fsync. At a random moment the power is cut: every later
// write, sync, rename or delete through it is dropped; the database is
// closed, every file is put back in its durable state, and the database is
// reopened with the real file system and checked.
//
// What became of a file's data written since its last sync is drawn for
// each file at the cut (Tail): cut off at the last sync, or that much of it
// (any length) read back as zeros (the size reached the disk, the data did
// not) or as garbage, or torn: each 512-byte sector of it written or left
// zero, the file ending anywhere in it.
//
// The random choices (when the power goes, what is written, the tails)
// come from a seed each test prints; PINROCK_POWER_LOSS_SEED=<seed> in the
// environment makes them again (the background flushes and compactions may
// still interleave otherwise).
#include "pinrock.h"
#include "testing.h"

#include <gtest/gtest.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

enum class PowerLoss {
  // Data written since a file's last sync is lost; names stay as they are.
  kUnsyncedData,
  // Also: files created or renamed since their directory's last fsync lose
  // that name (a rename is undone; a deleted file comes back).
  kUnsyncedDataAndNames,
};

// What a file's data written since its last sync reads back as after the power
// cut (the synced data before it is intact).
enum class Tail { kCut, kZeros, kGarbage, kTornSectors };
constexpr Tail kTails[] = {Tail::kCut, Tail::kZeros, Tail::kGarbage, Tail::kTornSectors};

const char* NameOf(Tail tail) {
  switch (tail) {
    case Tail::kCut:
      return "cut off";
    case Tail::kZeros:
      return "zeros";
    case Tail::kGarbage:
      return "garbage";
    default:
      return "torn sectors";
  }
}

// The unsynced data `written` as the tail model leaves it on disk; offset
// is where it starts in its file (sectors are aligned to the file).
std::string AfterPowerLoss(Tail tail, const std::string& written, uint64_t offset,
                           std::mt19937_64& random) {
  if (tail == Tail::kCut || written.empty()) return "";
  std::string left(1 + random() % written.size(), '\0');
  switch (tail) {
    case Tail::kZeros:
      break;
    case Tail::kGarbage:
      for (char& c : left) c = static_cast<char>(random());
      break;
    default:
      for (uint64_t at = 0; at < left.size();) {
        uint64_t sector_end = std::min<uint64_t>(left.size(), (offset + at) / 512 * 512 + 512 - offset);
        if (random() % 2 == 0) left.replace(at, sector_end - at, written, at, sector_end - at);
        at = sector_end;
      }
  }
  return left;
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

std::string ParentOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string Normalized(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

// Not data: the info log (written by RocksDB's own logger, which bypasses the
// file system's writable files) and the lock file.
bool Untracked(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  return name.rfind("LOG", 0) == 0 || name == "LOCK";
}

std::string ReadPrefix(const std::string& path, uint64_t size) {
  std::ifstream in(path, std::ios::binary);
  std::string content(size, '\0');
  in.read(content.data(), static_cast<std::streamsize>(size));
  EXPECT_EQ(static_cast<std::streamsize>(size), in.gcount()) << path;
  return content;
}

// A file system over the real one that knows what would survive a power cut.
class PowerCutFileSystem : public rocksdb::FileSystemWrapper {
 public:
  // The power goes after cut_after_ops changes. Each file's tail follows
  // only_tail when given, else a model drawn from tail_seed.
  PowerCutFileSystem(PowerLoss mode, const std::string& dir, uint64_t cut_after_ops,
                     uint64_t tail_seed, std::optional<Tail> only_tail = std::nullopt)
      : FileSystemWrapper(rocksdb::FileSystem::Default()),
        mode_(mode),
        ops_left_(cut_after_ops),
        random_(tail_seed),
        only_tail_(only_tail) {
    // What is on disk before the database is opened is durable.
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      std::string path = entry.path().string();
      if (!entry.is_regular_file() || Untracked(path)) continue;
      auto file = std::make_shared<File>();
      file->size = file->durable_size = entry.file_size();
      file->history = "on disk at the start (" + std::to_string(file->size) + " B)";
      names_[Normalized(dir)][entry.path().filename().string()] = file;
    }
    durable_names_ = names_;
  }

  const char* Name() const override { return "PowerCutFileSystem"; }

  bool cut() {
    std::lock_guard<std::mutex> lock(mutex_);
    return cut_;
  }

  // Cuts the power now (unless it already is).
  void Cut() {
    std::lock_guard<std::mutex> lock(mutex_);
    cut_ = true;
  }

  // Puts every tracked file back in its durable state, its unsynced data
  // left as a tail model drawn for it says. Call after Cut, with the
  // database closed.
  void Revert() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [dir, names] : names_) {
      std::map<std::string, std::string> durable_content;
      for (const auto& [name, file] : durable_names_[dir]) {
        std::string path = PathOf(*file);
        EXPECT_TRUE(file->saved != nullptr || !path.empty()) << "lost track of " << name;
        if (file->saved != nullptr) {
          durable_content[name] = *file->saved;
          continue;
        }
        std::string content = ReadPrefix(path, file->size);
        Tail tail = only_tail_.value_or(kTails[random_() % std::size(kTails)]);
        std::string left = AfterPowerLoss(tail, content.substr(file->durable_size),
                                          file->durable_size, random_);
        if (file->size > file->durable_size) {
          file->history += std::string(", unsynced data ") + NameOf(tail) + " (" +
                           std::to_string(left.size()) + " B left)";
          tails_[static_cast<size_t>(tail)]++;
        }
        durable_content[name] = content.substr(0, file->durable_size) + left;
      }
      for (const auto& [name, file] : names) fs::remove(dir + "/" + name);
      for (const auto& [name, content] : durable_content) {
        std::ofstream(dir + "/" + name, std::ios::binary | std::ios::trunc) << content;
        EXPECT_EQ(content.size(), fs::file_size(dir + "/" + name)) << "reverting " << name;
      }
    }
  }

  // How many files' unsynced data each tail model (in kTails' order) left.
  const std::array<uint64_t, std::size(kTails)>& tails() const { return tails_; }

  rocksdb::IOStatus NewWritableFile(const std::string& path, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    if (Untracked(path)) return target()->NewWritableFile(path, options, result, dbg);
    std::lock_guard<std::mutex> lock(mutex_);
    if (Dropped()) return PowerIsOff();
    Unname(path);
    rocksdb::IOStatus s = target()->NewWritableFile(path, options, result, dbg);
    if (!s.ok()) return s;
    auto file = std::make_shared<File>();
    file->history = "created";
    Name(path, file);
    *result = std::make_unique<WritableFile>(std::move(*result), this, file);
    return s;
  }

  // The durable state of every file, and its history.
  std::string Describe() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string out;
    for (const auto& [dir, names] : durable_names_) {
      for (const auto& [name, file] : names) {
        out += name + ": " + std::to_string(file->durable_size) + " of " +
               std::to_string(file->size) + " B durable; " + file->history + "\n";
      }
    }
    return out;
  }

  rocksdb::IOStatus ReopenWritableFile(const std::string& path,
                                       const rocksdb::FileOptions& options,
                                       std::unique_ptr<rocksdb::FSWritableFile>* result,
                                       rocksdb::IODebugContext* dbg) override {
    if (Untracked(path)) return target()->ReopenWritableFile(path, options, result, dbg);
    std::lock_guard<std::mutex> lock(mutex_);
    if (Dropped()) return PowerIsOff();
    std::shared_ptr<File> file = Find(path);
    rocksdb::IOStatus s = target()->ReopenWritableFile(path, options, result, dbg);
    if (!s.ok()) return s;
    if (file == nullptr) {
      file = std::make_shared<File>();
      Name(path, file);
    }
    *result = std::make_unique<WritableFile>(std::move(*result), this, file);
    return s;
  }

  rocksdb::IOStatus ReuseWritableFile(const std::string&, const std::string&,
                                      const rocksdb::FileOptions&,
                                      std::unique_ptr<rocksdb::FSWritableFile>*,
                                      rocksdb::IODebugContext*) override {
    return rocksdb::IOStatus::NotSupported("recycled log files are not simulated");
  }

  rocksdb::IOStatus NewRandomRWFile(const std::string&, const rocksdb::FileOptions&,
                                    std::unique_ptr<rocksdb::FSRandomRWFile>*,
                                    rocksdb::IODebugContext*) override {
    return rocksdb::IOStatus::NotSupported("files written in place are not simulated");
  }

  rocksdb::IOStatus NewDirectory(const std::string& dir, const rocksdb::IOOptions& options,
                                 std::unique_ptr<rocksdb::FSDirectory>* result,
                                 rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->NewDirectory(dir, options, result, dbg);
    if (s.ok()) *result = std::make_unique<Directory>(std::move(*result), this, Normalized(dir));
    return s;
  }

  rocksdb::IOStatus DeleteFile(const std::string& path, const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* dbg) override {
    if (Untracked(path)) return target()->DeleteFile(path, options, dbg);
    std::lock_guard<std::mutex> lock(mutex_);
    if (Dropped()) return PowerIsOff();
    Unname(path);
    return target()->DeleteFile(path, options, dbg);
  }

  rocksdb::IOStatus RenameFile(const std::string& from, const std::string& to,
                               const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* dbg) override {
    if (Untracked(from) && Untracked(to)) return target()->RenameFile(from, to, options, dbg);
    std::lock_guard<std::mutex> lock(mutex_);
    if (Dropped()) return PowerIsOff();
    std::shared_ptr<File> file = Find(from);
    EXPECT_NE(nullptr, file) << "renaming a file not tracked: " << from;
    if (file == nullptr) return target()->RenameFile(from, to, options, dbg);
    Unname(to);
    rocksdb::IOStatus s = target()->RenameFile(from, to, options, dbg);
    if (!s.ok()) return s;
    Forget(from);
    Name(to, file);
    file->history += ", renamed " + from + " -> " + to;
    return s;
  }

  rocksdb::IOStatus LinkFile(const std::string& from, const std::string& to,
                             const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Dropped()) return PowerIsOff();
    std::shared_ptr<File> file = Find(from);
    rocksdb::IOStatus s = target()->LinkFile(from, to, options, dbg);
    if (s.ok() && file != nullptr) Name(to, file);
    return s;
  }

  rocksdb::IOStatus Truncate(const std::string&, size_t, const rocksdb::IOOptions&,
                             rocksdb::IODebugContext*) override {
    return rocksdb::IOStatus::NotSupported("truncation by name is not simulated");
  }

 private:
  // One file's data (an inode): it may have several names, or none.
  struct File {
    uint64_t size = 0;
    // The bytes up to here are durable.
    uint64_t durable_size = 0;
    // The durable content of a file no longer on disk under any name.
    std::unique_ptr<std::string> saved;
    // What happened to it, for the message of a failure.
    std::string history;
  };
  using Names = std::map<std::string, std::map<std::string, std::shared_ptr<File>>>;

  class WritableFile : public rocksdb::FSWritableFileOwnerWrapper {
   public:
    WritableFile(std::unique_ptr<rocksdb::FSWritableFile>&& target, PowerCutFileSystem* owner,
                 std::shared_ptr<File> file)
        : FSWritableFileOwnerWrapper(std::move(target)), owner_(owner), file_(std::move(file)) {}

    rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override {
      std::lock_guard<std::mutex> lock(owner_->mutex_);
      if (owner_->Dropped()) return PowerIsOff();
      file_->size += data.size();
      return target()->Append(data, options, dbg);
    }
    rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                             const rocksdb::DataVerificationInfo&,
                             rocksdb::IODebugContext* dbg) override {
      return Append(data, options, dbg);
    }
    rocksdb::IOStatus PositionedAppend(const rocksdb::Slice&, uint64_t, const rocksdb::IOOptions&,
                                       rocksdb::IODebugContext*) override {
      return rocksdb::IOStatus::NotSupported("direct writes are not simulated");
    }
    rocksdb::IOStatus PositionedAppend(const rocksdb::Slice&, uint64_t, const rocksdb::IOOptions&,
                                       const rocksdb::DataVerificationInfo&,
                                       rocksdb::IODebugContext*) override {
      return rocksdb::IOStatus::NotSupported("direct writes are not simulated");
    }
    rocksdb::IOStatus Truncate(uint64_t size, const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* dbg) override {
      std::lock_guard<std::mutex> lock(owner_->mutex_);
      if (owner_->Dropped()) return PowerIsOff();
      file_->size = size;
      file_->durable_size = std::min(file_->durable_size, size);
      file_->history += ", truncated to " + std::to_string(size);
      return target()->Truncate(size, options, dbg);
    }
    // The real sync is skipped: durability is what this file system records.
    rocksdb::IOStatus Sync(const rocksdb::IOOptions&, rocksdb::IODebugContext*) override {
      std::lock_guard<std::mutex> lock(owner_->mutex_);
      if (owner_->Dropped()) return PowerIsOff();
      file_->durable_size = file_->size;
      file_->history += ", synced at " + std::to_string(file_->size);
      return rocksdb::IOStatus::OK();
    }
    rocksdb::IOStatus Fsync(const rocksdb::IOOptions& options,
                            rocksdb::IODebugContext* dbg) override {
      return Sync(options, dbg);
    }
    // sync_file_range starts write-back but promises nothing durable.
    rocksdb::IOStatus RangeSync(uint64_t, uint64_t, const rocksdb::IOOptions&,
                                rocksdb::IODebugContext*) override {
      std::lock_guard<std::mutex> lock(owner_->mutex_);
      return owner_->Dropped() ? PowerIsOff() : rocksdb::IOStatus::OK();
    }
    bool IsSyncThreadSafe() const override { return true; }

   private:
    PowerCutFileSystem* owner_;
    std::shared_ptr<File> file_;
  };

  class Directory : public rocksdb::FSDirectoryWrapper {
   public:
    Directory(std::unique_ptr<rocksdb::FSDirectory>&& target, PowerCutFileSystem* owner,
              std::string dir)
        : FSDirectoryWrapper(std::move(target)), owner_(owner), dir_(std::move(dir)) {}
    rocksdb::IOStatus Fsync(const rocksdb::IOOptions&, rocksdb::IODebugContext*) override {
      std::lock_guard<std::mutex> lock(owner_->mutex_);
      if (owner_->Dropped()) return PowerIsOff();
      owner_->durable_names_[dir_] = owner_->names_[dir_];
      return rocksdb::IOStatus::OK();
    }
    rocksdb::IOStatus FsyncWithDirOptions(const rocksdb::IOOptions& options,
                                          rocksdb::IODebugContext* dbg,
                                          const rocksdb::DirFsyncOptions&) override {
      return Fsync(options, dbg);
    }

   private:
    PowerCutFileSystem* owner_;
    std::string dir_;
  };

  static rocksdb::IOStatus PowerIsOff() { return rocksdb::IOStatus::IOError("the power is cut"); }

  // Counts one operation that changes the disk; true when it is dropped
  // because the power is (or now goes) off. Caller holds mutex_.
  bool Dropped() {
    if (!cut_ && ops_left_-- == 0) cut_ = true;
    return cut_;
  }

  // A current name of file, or "" when it has none.
  std::string PathOf(const File& file) const {
    for (const auto& [dir, names] : names_) {
      for (const auto& [name, named] : names) {
        if (named.get() == &file) return dir + "/" + name;
      }
    }
    return "";
  }

  bool DurablyNamed(const File& file) const {
    for (const auto& [dir, names] : durable_names_) {
      for (const auto& [name, named] : names) {
        if (named.get() == &file) return true;
      }
    }
    return false;
  }

  std::shared_ptr<File> Find(const std::string& path) {
    auto& names = names_[ParentOf(path)];
    auto found = names.find(path.substr(path.find_last_of('/') + 1));
    return found == names.end() ? nullptr : found->second;
  }

  void Name(const std::string& path, std::shared_ptr<File> file) {
    std::string dir = ParentOf(path), name = path.substr(path.find_last_of('/') + 1);
    names_[dir][name] = file;
    if (mode_ == PowerLoss::kUnsyncedData) durable_names_[dir][name] = file;
  }

  // Removes the name path (the file itself stays, under its new name).
  void Forget(const std::string& path) {
    std::string dir = ParentOf(path), name = path.substr(path.find_last_of('/') + 1);
    names_[dir].erase(name);
    if (mode_ == PowerLoss::kUnsyncedData) durable_names_[dir].erase(name);
  }

  // Removes the name path of a file about to be deleted or replaced; when it
  // was the file's last name, the file's durable content is kept in memory
  // for a power cut that brings a durable name back.
  void Unname(const std::string& path) {
    std::shared_ptr<File> file = Find(path);
    if (file == nullptr) return;
    Forget(path);
    file->history += ", name " + path + " removed";
    if (file->saved == nullptr && PathOf(*file).empty() && DurablyNamed(*file)) {
      file->saved = std::make_unique<std::string>(ReadPrefix(path, file->durable_size));
      file->history += " (durable content kept)";
    }
  }

  const PowerLoss mode_;
  std::mutex mutex_;
  bool cut_ = false;
  uint64_t ops_left_;
  std::mt19937_64 random_;
  const std::optional<Tail> only_tail_;
  std::array<uint64_t, std::size(kTails)> tails_{};
  Names names_;
  Names durable_names_;
};

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
      auto file_system = std::make_shared<PowerCutFileSystem>(
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
    auto file_system = std::make_shared<PowerCutFileSystem>(GetParam(), path_, UINT64_MAX,
                                                            random(), tail);
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
