// The "callbacks" section of pinrock.h: RocksDB's extension points whose
// code is the caller's, reached through function pointers (in pinrock's
// Java API, FFM upcall stubs): what every kind shares (the released states,
// the exit), and merge operators. compaction_filters.cc holds the filters.
#include "internal.h"

#include <unistd.h>

#include <rocksdb/convenience.h>
#include <rocksdb/env.h>
#include <rocksdb/merge_operator.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace pinrock::internal;

// What a merge writes its result through: the result string, and for a
// full merge the inputs it may name as the result instead (use_input).
struct pr_merge_output {
  std::string* value;
  rocksdb::Slice* input_as_result;  // null in a partial merge
  const rocksdb::Slice* existing;   // null when the key has no value
  const std::vector<rocksdb::Slice>* operands;
};

namespace {

// The states of callbacks RocksDB can no longer call, not yet handed out
// (pr_callbacks_take_released).
std::mutex released_mutex;
std::vector<uint64_t> released_states;

// Whether a caller's function was ever called (see exit_without_joining).
std::atomic<bool> called_back{false};

// Ends the process at its exit, with its status, before RocksDB's default
// Env joins its background threads, once a caller's function was called.
// A thread of RocksDB's that called back is attached to the caller's
// runtime (a JVM attaches it at its first upcall) and detaches as it ends;
// the exit ends the Env's threads only after the runtime has exited, and a
// JVM blocks every thread that detaches then, for good: the join, and so
// the exit, would never end. Ending here is what a kill at that moment
// does: RocksDB's background work stops where it is, and nothing it
// acknowledged is lost (its log writes are the kernel's already).
void exit_without_joining(int status, void*) {
  if (called_back.load()) _exit(status);
}

// The longest name of a caller's callback: RocksDB records it in OPTIONS
// files and table properties, where it is only ever compared.
constexpr size_t kMaxCallbackName = 255;

// Registers exit_without_joining once, after the default Env exists: exit
// handlers run in the reverse order of their registration, so it runs
// before the Env's destructor, which joins.
void end_exit_before_joins() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    rocksdb::Env::Default();
    on_exit(exit_without_joining, nullptr);
  });
}

// Whether name can be recorded in an OPTIONS file and read back as itself:
// RocksDB writes it unquoted, so option syntax in it would be parsed.
bool recordable_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxCallbackName) return false;
  for (char c : name) {
    bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '.' || c == '_' || c == '-' || c == '$';
    if (!allowed) return false;
  }
  return true;
}

}  // namespace

namespace pinrock::internal {

void queue_released(uint64_t state) noexcept {
  try {
    std::lock_guard<std::mutex> lock(released_mutex);
    released_states.push_back(state);
  } catch (...) {
  }
}

void calling_back() {
  if (!called_back.load(std::memory_order_relaxed)) called_back.store(true);
}

int32_t create_callback(
    const char* name, uint64_t state, const char* kind,
    const std::function<bool(const rocksdb::ConfigOptions&, const std::string&)>& names_rocksdbs,
    const std::function<void(const std::string&, bool*)>& create, char* err, size_t err_cap) {
  // Releases the state on every return before the callback owns it (C1).
  struct ReleaseUnlessOwned {
    uint64_t state;
    bool owned = false;
    ~ReleaseUnlessOwned() {
      if (!owned) queue_released(state);
    }
  } release_unless_owned{state};
  return guarded(err, err_cap, [&] {
    const std::string given(name);
    if (!recordable_name(given)) {
      return invalid_argument(std::string("a ") + kind + "'s name is 1 to " +
                                  std::to_string(kMaxCallbackName) +
                                  " letters, digits and . _ - $ (RocksDB records it in the "
                                  "OPTIONS file), not \"" + given + "\"",
                              err, err_cap);
    }
    rocksdb::ConfigOptions config;
    config.ignore_unsupported_options = false;
    if (names_rocksdbs(config, given)) {
      return invalid_argument("\"" + given + "\" names one of RocksDB's " + kind +
                                  "s: name yours otherwise",
                              err, err_cap);
    }
    end_exit_before_joins();
    create(given, &release_unless_owned.owned);
    return PR_OK;
  });
}

}  // namespace pinrock::internal

namespace {

// RocksDB's MergeOperator over the caller's functions (pr_merge_operator_create).
// Options, column families and databases hold it by shared_ptr; the last
// one to let go destroys it, which releases the caller's state (C1).
class CallerMergeOperator final : public rocksdb::MergeOperator {
 public:
  CallerMergeOperator(std::string name, uint64_t state, pr_full_merge_fn full,
                      pr_partial_merge_fn partial)
      : name_(std::move(name)), kind_{name_.c_str(), 0, true}, state_(state), full_(full), partial_(partial) {}

  ~CallerMergeOperator() override { queue_released(state_); }

  const char* Name() const override { return name_.c_str(); }

  // What pinrock checks of a merge into a family with this operator: any operand.
  const MergeOperatorKind* kind() const { return &kind_; }

  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    const size_t count = in.operand_list.size();
    // Most merges have a few operands: their addresses on the stack.
    std::array<const uint8_t*, 16> few_pointers;
    std::array<size_t, 16> few_lengths;
    std::vector<const uint8_t*> many_pointers;
    std::vector<size_t> many_lengths;
    const uint8_t** pointers = few_pointers.data();
    size_t* lengths = few_lengths.data();
    if (count > few_pointers.size()) {
      many_pointers.resize(count);
      many_lengths.resize(count);
      pointers = many_pointers.data();
      lengths = many_lengths.data();
    }
    for (size_t i = 0; i < count; i++) {
      pointers[i] = reinterpret_cast<const uint8_t*>(in.operand_list[i].data());
      lengths[i] = in.operand_list[i].size();
    }
    pr_merge_output output{&out->new_value, &out->existing_operand, in.existing_value,
                           &in.operand_list};
    const rocksdb::Slice* existing = in.existing_value;
    // An existing value is never passed as NULL, which means none, even when empty.
    static const uint8_t kEmpty = 0;
    const uint8_t* existing_data =
        existing == nullptr ? nullptr
        : existing->data() != nullptr ? reinterpret_cast<const uint8_t*>(existing->data())
                                      : &kEmpty;
    calling_back();
    int32_t result = full_(state_, reinterpret_cast<const uint8_t*>(in.key.data()), in.key.size(),
                           existing_data, existing != nullptr ? existing->size() : 0, pointers,
                           lengths, count, &output);
    if (result == PR_CALLBACK_OK) return true;
    // Only the reads of the key fail; flushes and compactions keep the operands.
    out->op_failure_scope = OpFailureScope::kMustMerge;
    return false;
  }

  bool PartialMerge(const rocksdb::Slice& key, const rocksdb::Slice& left,
                    const rocksdb::Slice& right, std::string* new_value,
                    rocksdb::Logger*) const override {
    if (partial_ == nullptr) return false;
    calling_back();
    pr_merge_output output{new_value, nullptr, nullptr, nullptr};
    return partial_(state_, reinterpret_cast<const uint8_t*>(key.data()), key.size(),
                    reinterpret_cast<const uint8_t*>(left.data()), left.size(),
                    reinterpret_cast<const uint8_t*>(right.data()), right.size(),
                    &output) == PR_CALLBACK_OK;
  }

 private:
  const std::string name_;
  const MergeOperatorKind kind_;
  const uint64_t state_;
  const pr_full_merge_fn full_;
  const pr_partial_merge_fn partial_;
};

// What RocksDB makes for a caller's merge operator named in an OPTIONS file
// it reads: one that only carries the name, which pinrock compares with the
// operator the open gives (check_recorded_family_options). It never merges.
class RecordedMergeOperator final : public rocksdb::MergeOperator {
 public:
  explicit RecordedMergeOperator(std::string name) : name_(std::move(name)) {}
  const char* Name() const override { return name_.c_str(); }
  bool FullMergeV2(const MergeOperationInput&, MergeOperationOutput* out) const override {
    out->op_failure_scope = OpFailureScope::kMustMerge;
    return false;
  }

 private:
  const std::string name_;
};

}  // namespace

struct pr_merge_operator {
  std::shared_ptr<CallerMergeOperator> merge_operator;
};

extern "C" {

uint64_t pr_callbacks_probe(pr_probe_fn probe, uint64_t state, uint64_t times) {
  uint64_t ok = 0;
  for (uint64_t i = 0; i < times; i++) {
    if (probe(state) == PR_CALLBACK_OK) ok++;
  }
  return ok;
}

size_t pr_callbacks_take_released(uint64_t* states, size_t cap) {
  std::lock_guard<std::mutex> lock(released_mutex);
  size_t taken = std::min(cap, released_states.size());
  std::copy(released_states.end() - static_cast<std::ptrdiff_t>(taken), released_states.end(), states);
  released_states.resize(released_states.size() - taken);
  return taken;
}

int32_t pr_merge_operator_create(const char* name, uint64_t state, pr_full_merge_fn full,
                                 pr_partial_merge_fn partial,
                                 pr_merge_operator_t** merge_operator_out, char* err,
                                 size_t err_cap) {
  *merge_operator_out = nullptr;
  return create_callback(
      name, state, "merge operator",
      [](const rocksdb::ConfigOptions& config, const std::string& given) {
        std::shared_ptr<rocksdb::MergeOperator> made;
        return rocksdb::MergeOperator::CreateFromString(config, given, &made).ok() &&
               made != nullptr && dynamic_cast<const RecordedMergeOperator*>(made.get()) == nullptr;
      },
      [&](const std::string& given, bool* owned) {
        auto made = std::make_shared<CallerMergeOperator>(given, state, full, partial);
        *owned = true;
        register_recorded_name<rocksdb::MergeOperator, RecordedMergeOperator>(given);
        *merge_operator_out = new pr_merge_operator{std::move(made)};
      },
      err, err_cap);
}

void pr_merge_operator_destroy(pr_merge_operator_t* merge_operator) { delete merge_operator; }

int32_t pr_options_set_merge_operator_object(pr_options_t* options,
                                             const pr_merge_operator_t* merge_operator, char* err,
                                             size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->family.merge_operator = merge_operator->merge_operator;
    options->merge_operator_kind = merge_operator->merge_operator->kind();
    return PR_OK;
  });
}

uint8_t* pr_merge_output_reserve(pr_merge_output_t* output, size_t len) {
  try {
    if (output->input_as_result != nullptr) *output->input_as_result = rocksdb::Slice(nullptr, 0);
    output->value->resize(len);
    return reinterpret_cast<uint8_t*>(output->value->data());
  } catch (...) {
    return nullptr;
  }
}

int32_t pr_merge_output_use_input(pr_merge_output_t* output, int64_t index) {
  if (output->input_as_result == nullptr) return PR_CODE_INVALID_ARGUMENT;
  const rocksdb::Slice* input = nullptr;
  if (index == -1) {
    input = output->existing;
  } else if (index >= 0 && static_cast<uint64_t>(index) < output->operands->size()) {
    input = &(*output->operands)[static_cast<size_t>(index)];
  }
  if (input == nullptr) return PR_CODE_INVALID_ARGUMENT;
  output->value->clear();
  *output->input_as_result = *input;
  return PR_OK;
}

}  // extern "C"
