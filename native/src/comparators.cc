// The "comparators" section of pinrock.h: RocksDB's Comparator over the
// caller's compare function, and the gate that keeps a database from
// writing files in a mixed order once a comparison failed.
#include "internal.h"

#include <rocksdb/comparator.h>
#include <rocksdb/convenience.h>
#include <rocksdb/file_system.h>
#include <rocksdb/utilities/object_registry.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace pinrock::internal;

namespace {

// RocksDB's Comparator over the caller's function (pr_comparator_create).
// Options, databases and table file writers hold it by shared_ptr (RocksDB
// itself holds comparators by plain pointer); the last one to let go
// destroys it, which releases the caller's state (C1).
class CallerComparator final : public rocksdb::Comparator {
 public:
  CallerComparator(std::string name, uint64_t state, pr_compare_fn compare)
      : name_(std::move(name)), state_(state), compare_(compare) {}

  ~CallerComparator() override { queue_released(state_); }

  const char* Name() const override { return name_.c_str(); }

  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override {
    calling_back();
    int32_t order = compare_(state_, bytes(a), a.size(), bytes(b), b.size());
    if (order != PR_COMPARE_FAILED) return order;
    // RocksDB cannot fail a comparison: answer as the bytewise order would,
    // and let the gate keep whatever this answer orders out of every file.
    failed_.store(true);
    return a.compare(b);
  }

  // Keys stay as they are in index blocks: shortening them needs to know
  // the order's structure, which only the caller's function has.
  void FindShortestSeparator(std::string*, const rocksdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

  bool failed() const { return failed_.load(); }

 private:
  // The key's bytes, never null (an empty key's slice may hold a null pointer).
  static const uint8_t* bytes(const rocksdb::Slice& key) {
    static const uint8_t kEmpty = 0;
    return key.data() != nullptr ? reinterpret_cast<const uint8_t*>(key.data()) : &kEmpty;
  }

  const std::string name_;
  const uint64_t state_;
  const pr_compare_fn compare_;
  mutable std::atomic<bool> failed_{false};
};

// What RocksDB makes for a caller's comparator named in an OPTIONS file it
// reads: one that only carries the name, which the open compares with the
// comparator it is given (check_recorded_family_options). RocksDB holds
// comparators it makes by name as static objects: each lives as long as
// the process. It never orders keys of a database.
class RecordedComparator final : public rocksdb::Comparator {
 public:
  explicit RecordedComparator(std::string name) : name_(std::move(name)) {}
  const char* Name() const override { return name_.c_str(); }
  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override { return a.compare(b); }
  void FindShortestSeparator(std::string*, const rocksdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  const std::string name_;
};

// Makes name readable in OPTIONS files as a RecordedComparator.
void register_recorded_comparator(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<RecordedComparator>> recorded;
  std::lock_guard<std::mutex> lock(mutex);
  if (recorded.count(name) != 0) return;
  const RecordedComparator* made = recorded.emplace(name, std::make_unique<RecordedComparator>(name))
                                       .first->second.get();
  rocksdb::ObjectLibrary::Default()->AddFactory<const rocksdb::Comparator>(
      name, [made](const std::string&, std::unique_ptr<const rocksdb::Comparator>*, std::string*) {
        return made;
      });
}

// The caller's comparators a gate watches.
class WatchedComparators {
 public:
  void Hold(std::shared_ptr<const CallerComparator> comparator) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& held : held_) {
      if (held == comparator) return;
    }
    held_.push_back(std::move(comparator));
  }

  // Why a file may not be written any more, or OK.
  rocksdb::IOStatus Refusal() const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& held : held_) {
      if (held->failed()) {
        return rocksdb::IOStatus::IOError(
            std::string("comparator ") + held->Name() +
            " failed a comparison: no table file or MANIFEST record is written in a mixed "
            "order; close the database and open it with a comparator that answers");
      }
    }
    return rocksdb::IOStatus::OK();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const CallerComparator>> held_;
};

// A file whose syncs and close fail once a watched comparator failed: a
// table file or MANIFEST is taken into the database only after both
// succeed, and every comparison that ordered its contents came before them.
class GatedFile final : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  GatedFile(std::unique_ptr<rocksdb::FSWritableFile> file,
            std::shared_ptr<const WatchedComparators> watched)
      : FSWritableFileOwnerWrapper(std::move(file)), watched_(std::move(watched)) {}

  rocksdb::IOStatus Sync(const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus refusal = watched_->Refusal();
    return refusal.ok() ? target()->Sync(options, dbg) : refusal;
  }
  rocksdb::IOStatus Fsync(const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus refusal = watched_->Refusal();
    return refusal.ok() ? target()->Fsync(options, dbg) : refusal;
  }
  rocksdb::IOStatus Close(const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus closed = target()->Close(options, dbg);
    rocksdb::IOStatus refusal = watched_->Refusal();
    return refusal.ok() ? closed : refusal;
  }

 private:
  const std::shared_ptr<const WatchedComparators> watched_;
};

// The file system of a database or table file writer: its table files and
// MANIFESTs are GatedFiles, everything else passes through.
class GatedFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  GatedFileSystem(const std::shared_ptr<rocksdb::FileSystem>& base,
                  std::shared_ptr<const WatchedComparators> watched)
      : FileSystemWrapper(base), watched_(std::move(watched)) {}

  static const char* kClassName() { return "PinrockGatedFileSystem"; }
  const char* Name() const override { return kClassName(); }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->NewWritableFile(name, options, result, dbg);
    if (s.ok() && ordered_by_keys(name)) {
      *result = std::make_unique<GatedFile>(std::move(*result), watched_);
    }
    return s;
  }

 private:
  // Whether the file named holds keys or decisions in the comparator's order.
  static bool ordered_by_keys(const std::string& name) {
    const std::string base = name.substr(name.rfind('/') + 1);
    return base.rfind("MANIFEST-", 0) == 0 ||
           (base.size() > 4 && base.compare(base.size() - 4, 4, ".sst") == 0);
  }

  const std::shared_ptr<const WatchedComparators> watched_;
};

}  // namespace

namespace pinrock::internal {

struct ComparatorGate::Parts {
  std::shared_ptr<WatchedComparators> watched = std::make_shared<WatchedComparators>();
  std::unique_ptr<rocksdb::Env> env;
};

ComparatorGate::ComparatorGate(rocksdb::Env* base) : parts_(std::make_unique<Parts>()) {
  parts_->env = rocksdb::NewCompositeEnv(
      std::make_shared<GatedFileSystem>(base->GetFileSystem(), parts_->watched));
}

ComparatorGate::~ComparatorGate() = default;

rocksdb::Env* ComparatorGate::env() const { return parts_->env.get(); }

void ComparatorGate::Hold(const pr_options& options) {
  if (options.caller_comparator) {
    parts_->watched->Hold(std::static_pointer_cast<const CallerComparator>(options.caller_comparator));
  }
  for (const auto& [name, family] : options.family_options) Hold(*family);
}

}  // namespace pinrock::internal

struct pr_comparator {
  std::shared_ptr<const CallerComparator> comparator;
};

extern "C" {

int32_t pr_comparator_create(const char* name, uint64_t state, pr_compare_fn compare,
                             pr_comparator_t** comparator_out, char* err, size_t err_cap) {
  *comparator_out = nullptr;
  return create_callback(
      name, state, "comparator",
      [](const rocksdb::ConfigOptions& config, const std::string& given) {
        const rocksdb::Comparator* made = nullptr;
        return rocksdb::Comparator::CreateFromString(config, given, &made).ok() && made != nullptr &&
               dynamic_cast<const RecordedComparator*>(made) == nullptr;
      },
      [&](const std::string& given, bool* owned) {
        auto made = std::make_shared<const CallerComparator>(given, state, compare);
        *owned = true;
        register_recorded_comparator(given);
        *comparator_out = new pr_comparator{std::move(made)};
      },
      err, err_cap);
}

void pr_comparator_destroy(pr_comparator_t* comparator) { delete comparator; }

int32_t pr_options_set_comparator_object(pr_options_t* options, const pr_comparator_t* comparator,
                                         char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->family.comparator = comparator->comparator.get();
    options->caller_comparator = comparator->comparator;
    return PR_OK;
  });
}

}  // extern "C"
