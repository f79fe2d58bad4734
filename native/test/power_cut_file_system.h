// A file system that knows what would survive a power cut, for pinrock's
// native tests (power_loss_test.cc) and fuzz targets (options_fuzz.cc). It
// wraps another file system (the real one, or an in-memory one) and records
// what is durable: a file's data up to its last Sync/Fsync, and (in the
// second mode) a directory's entries as of its last fsync. At a moment the
// caller chooses (Cut, or after a number of changes) the power goes: every
// later write, sync, rename or delete through it is dropped. With the
// database closed, Revert puts every file back in its durable state.
//
// What became of a file's data written since its last sync is drawn for
// each file at the cut (Tail): cut off at the last sync, or that much of it
// (any length) read back as zeros (the size reached the disk, the data did
// not) or as garbage, or torn: each 512-byte sector of it written or left
// zero, the file ending anywhere in it. A MANIFEST's is never garbage (see
// Revert).
#ifndef PINROCK_POWER_CUT_FILE_SYSTEM_H
#define PINROCK_POWER_CUT_FILE_SYSTEM_H

#include <rocksdb/file_system.h>

#include <algorithm>
#include <array>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace pinrock_power_cut {

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

inline const char* NameOf(Tail tail) {
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
inline std::string AfterPowerLoss(Tail tail, const std::string& written, uint64_t offset,
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

inline std::string ParentOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

inline std::string Normalized(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

// Not data: the info log (written by RocksDB's own logger, which bypasses the
// file system's writable files) and the lock file.
inline bool Untracked(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  return name.rfind("LOG", 0) == 0 || name == "LOCK";
}

// A file system over another (base) that knows what would survive a power
// cut. What it cannot do as asked (a file it lost track of, a file it cannot
// read back or put back) it tells report_problem, which fails the caller's
// test.
class PowerCutFileSystem : public rocksdb::FileSystemWrapper {
 public:
  using ProblemReporter = std::function<void(const std::string& problem)>;

  // The power goes after cut_after_ops changes (UINT64_MAX: only at Cut).
  // Each file's tail follows only_tail when given, else a model drawn from
  // tail_seed. The files in dir (not below it) are durable at the start.
  // With logs_in_order, a write reaching a log (NNNNNN.log) while an older
  // log in its directory holds unsynced data is a problem: RocksDB replays
  // logs in order and takes a log that ends cleanly for all it wrote, so a
  // power cut could then keep the later write and lose the earlier ones.
  // (RocksDB writes a record of its own to a new log with wal_compression:
  // leave it off for that check.)
  PowerCutFileSystem(std::shared_ptr<rocksdb::FileSystem> base, ProblemReporter report_problem,
                     PowerLoss mode, const std::string& dir, uint64_t cut_after_ops,
                     uint64_t tail_seed, std::optional<Tail> only_tail = std::nullopt,
                     bool logs_in_order = false)
      : FileSystemWrapper(std::move(base)),
        report_problem_(std::move(report_problem)),
        mode_(mode),
        logs_in_order_(logs_in_order),
        ops_left_(cut_after_ops),
        random_(tail_seed),
        only_tail_(only_tail) {
    std::vector<std::string> children;
    // A directory that does not exist yet holds nothing.
    target()->GetChildren(dir, rocksdb::IOOptions(), &children, nullptr).PermitUncheckedError();
    for (const std::string& name : children) {
      std::string path = Normalized(dir) + "/" + name;
      bool is_directory = false;
      uint64_t size = 0;
      bool known_directory =
          target()->IsDirectory(path, rocksdb::IOOptions(), &is_directory, nullptr).ok() &&
          is_directory;
      if (Untracked(path) || known_directory ||
          !target()->GetFileSize(path, rocksdb::IOOptions(), &size, nullptr).ok()) {
        continue;
      }
      auto file = std::make_shared<File>();
      file->size = file->durable_size = size;
      file->history = "on disk at the start (" + std::to_string(file->size) + " B)";
      names_[Normalized(dir)][name] = file;
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
        if (file->saved == nullptr && path.empty()) report_problem_("lost track of " + name);
        if (file->saved != nullptr) {
          durable_content[name] = *file->saved;
          continue;
        }
        std::string content = ReadPrefix(path, file->size);
        Tail tail = only_tail_.value_or(kTails[random_() % std::size(kTails)]);
        // A MANIFEST's unsynced edit read back as garbage is the one case
        // RocksDB 9.10 cannot open after (docs/reliability.md, section 2:
        // not handled yet); its tail is cut instead, as a file system that
        // commits a file's size after its data leaves it.
        if (tail == Tail::kGarbage && name.rfind("MANIFEST-", 0) == 0) tail = Tail::kCut;
        std::string left = AfterPowerLoss(tail, content.substr(file->durable_size),
                                          file->durable_size, random_);
        if (file->size > file->durable_size) {
          file->history += std::string(", unsynced data ") + NameOf(tail) + " (" +
                           std::to_string(left.size()) + " B left)";
          tails_[static_cast<size_t>(tail)]++;
        }
        durable_content[name] = content.substr(0, file->durable_size) + left;
      }
      for (const auto& [name, file] : names) {
        target()->DeleteFile(dir + "/" + name, rocksdb::IOOptions(), nullptr).PermitUncheckedError();
      }
      for (const auto& [name, content] : durable_content) {
        std::string path = dir + "/" + name;
        uint64_t size = 0;
        if (!rocksdb::WriteStringToFile(target(), content, path).ok() ||
            !target()->GetFileSize(path, rocksdb::IOOptions(), &size, nullptr).ok() ||
            size != content.size()) {
          report_problem_("could not put back " + path + " (" + std::to_string(content.size()) +
                          " B)");
        }
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
    if (file == nullptr) {
      report_problem_("renaming a file not tracked: " + from);
      return target()->RenameFile(from, to, options, dbg);
    }
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
    // A write reached it, a log, while an older log held unsynced data (reported once).
    bool written_before_older_logs_durable = false;
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
      if (owner_->logs_in_order_ && !data.empty()) owner_->CheckOlderLogsDurable(*file_);
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

  // The number of a log file's name (NNNNNN.log), or 0 for any other file.
  static uint64_t LogNumber(const std::string& name) {
    size_t dot = name.size() - std::min<size_t>(name.size(), 4);
    if (name.compare(dot, std::string::npos, ".log") != 0 || dot == 0) return 0;
    uint64_t number = 0;
    for (size_t i = 0; i < dot; i++) {
      if (name[i] < '0' || name[i] > '9') return 0;
      number = number * 10 + static_cast<uint64_t>(name[i] - '0');
    }
    return number;
  }

  // Reports (once per file) a write reaching log file while an older log in
  // its directory holds unsynced data. Caller holds mutex_.
  void CheckOlderLogsDurable(File& file) {
    if (file.written_before_older_logs_durable) return;
    std::string path = PathOf(file);
    std::string name = path.substr(path.find_last_of('/') + 1);
    uint64_t number = LogNumber(name);
    if (number == 0) return;
    for (const auto& [other_name, other] : names_[ParentOf(path)]) {
      uint64_t other_number = LogNumber(other_name);
      if (other_number != 0 && other_number < number && other->durable_size < other->size) {
        file.written_before_older_logs_durable = true;
        report_problem_("a write reached log " + name + " while the older log " + other_name +
                        " held " + std::to_string(other->size - other->durable_size) +
                        " B unsynced: a power cut could keep the later write without the "
                        "earlier ones");
        return;
      }
    }
  }

  // The first size bytes of the file at path.
  std::string ReadPrefix(const std::string& path, uint64_t size) {
    std::string content;
    if (!rocksdb::ReadFileToString(target(), path, &content).ok() || content.size() < size) {
      report_problem_("could not read " + std::to_string(size) + " B of " + path);
    }
    content.resize(size);
    return content;
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

  const ProblemReporter report_problem_;
  const PowerLoss mode_;
  const bool logs_in_order_;
  std::mutex mutex_;
  bool cut_ = false;
  uint64_t ops_left_;
  std::mt19937_64 random_;
  const std::optional<Tail> only_tail_;
  std::array<uint64_t, std::size(kTails)> tails_{};
  Names names_;
  Names durable_names_;
};


}  // namespace pinrock_power_cut

#endif  // PINROCK_POWER_CUT_FILE_SYSTEM_H
