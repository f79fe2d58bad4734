// The "compaction filters" section of pinrock.h: RocksDB's
// CompactionFilterFactory and CompactionFilter over the caller's functions.
#include "internal.h"

#include <rocksdb/compaction_filter.h>
#include <rocksdb/convenience.h>

#include <memory>
#include <string>

using namespace pinrock::internal;

// What a filter writes: a changed value or the end of a removed range,
// which its decision tells apart.
struct pr_filter_output {
  std::string written;
};

namespace {

using Decision = rocksdb::CompactionFilter::Decision;
using ValueType = rocksdb::CompactionFilter::ValueType;

// The filter of one compaction (or subcompaction): RocksDB calls it on one
// thread, and destroys it as the compaction ends, which releases the
// caller's filter state (C1).
class CallerCompactionFilter final : public rocksdb::CompactionFilter {
 public:
  CallerCompactionFilter(const char* name, uint64_t state, pr_compaction_filter_fn filter)
      : name_(name), state_(state), filter_(filter) {}

  ~CallerCompactionFilter() override { queue_released(state_); }

  const char* Name() const override { return name_; }

  Decision FilterV3(int, const rocksdb::Slice& key, ValueType value_type,
                    const rocksdb::Slice* existing_value, const rocksdb::WideColumns*,
                    std::string* new_value, std::vector<std::pair<std::string, std::string>>*,
                    std::string* skip_until) const override {
    int32_t kind;
    switch (value_type) {
      case ValueType::kValue:
        kind = PR_FILTERED_VALUE;
        break;
      case ValueType::kMergeOperand:
        kind = PR_FILTERED_MERGE_OPERAND;
        break;
      default:
        // Wide-column entities (which pinrock never writes) and the old
        // BlobDB's indexes are kept as they are.
        return Decision::kKeep;
    }
    // RocksDB passes a value as a slice whose data may be null when empty.
    static const uint8_t kEmpty = 0;
    const uint8_t* value = existing_value->data() != nullptr
                               ? reinterpret_cast<const uint8_t*>(existing_value->data())
                               : &kEmpty;
    pr_filter_output output;
    calling_back();
    int32_t decision = filter_(state_, reinterpret_cast<const uint8_t*>(key.data()), key.size(),
                               kind, value, existing_value->size(), &output);
    switch (decision) {
      case PR_FILTER_REMOVE:
        return Decision::kRemove;
      case PR_FILTER_CHANGE_VALUE:
        new_value->swap(output.written);
        return Decision::kChangeValue;
      case PR_FILTER_REMOVE_UNTIL:
        skip_until->swap(output.written);
        return Decision::kRemoveAndSkipUntil;
      default:
        return Decision::kKeep;
    }
  }

 private:
  const char* const name_;  // the factory's, which outlives the filters it made
  const uint64_t state_;
  const pr_compaction_filter_fn filter_;
};

// RocksDB's CompactionFilterFactory over the caller's functions
// (pr_compaction_filter_factory_create). Options, column families and
// databases hold it by shared_ptr; the last one to let go destroys it, which
// releases the caller's state (C1). Compactions hold their column family,
// so the factory outlives the filters it made.
class CallerCompactionFilterFactory final : public rocksdb::CompactionFilterFactory {
 public:
  CallerCompactionFilterFactory(std::string name, uint64_t state,
                                pr_compaction_filter_create_fn create,
                                pr_compaction_filter_fn filter)
      : name_(std::move(name)), state_(state), create_(create), filter_(filter) {}

  ~CallerCompactionFilterFactory() override { queue_released(state_); }

  const char* Name() const override { return name_.c_str(); }

  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& context) override {
    pr_compaction_context_t given{context.is_full_compaction ? 1 : 0,
                                  context.is_manual_compaction ? 1 : 0,
                                  context.input_start_level, context.column_family_id};
    uint64_t filter_state = 0;
    calling_back();
    if (create_(state_, &given, &filter_state) != PR_CALLBACK_OK) return nullptr;
    try {
      return std::make_unique<CallerCompactionFilter>(name_.c_str(), filter_state, filter_);
    } catch (...) {
      queue_released(filter_state);
      return nullptr;  // out of memory: the compaction runs unfiltered
    }
  }

 private:
  const std::string name_;
  const uint64_t state_;
  const pr_compaction_filter_create_fn create_;
  const pr_compaction_filter_fn filter_;
};

// What RocksDB makes for a caller's factory named in an OPTIONS file it
// reads: one that carries the name and makes no filter.
class RecordedCompactionFilterFactory final : public rocksdb::CompactionFilterFactory {
 public:
  explicit RecordedCompactionFilterFactory(std::string name) : name_(std::move(name)) {}
  const char* Name() const override { return name_.c_str(); }
  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context&) override {
    return nullptr;
  }

 private:
  const std::string name_;
};

}  // namespace

struct pr_compaction_filter_factory {
  std::shared_ptr<CallerCompactionFilterFactory> factory;
};

namespace pinrock::internal {

bool is_callers_compaction_filter_factory(const rocksdb::CompactionFilterFactory* factory) {
  return dynamic_cast<const CallerCompactionFilterFactory*>(factory) != nullptr ||
         dynamic_cast<const RecordedCompactionFilterFactory*>(factory) != nullptr;
}

}  // namespace pinrock::internal

extern "C" {

int32_t pr_compaction_filter_factory_create(const char* name, uint64_t state,
                                            pr_compaction_filter_create_fn create,
                                            pr_compaction_filter_fn filter,
                                            pr_compaction_filter_factory_t** factory_out,
                                            char* err, size_t err_cap) {
  *factory_out = nullptr;
  return create_callback(
      name, state, "compaction filter",
      [](const rocksdb::ConfigOptions& config, const std::string& given) {
        std::shared_ptr<rocksdb::CompactionFilterFactory> made;
        return rocksdb::CompactionFilterFactory::CreateFromString(config, given, &made).ok() &&
               made != nullptr &&
               dynamic_cast<const RecordedCompactionFilterFactory*>(made.get()) == nullptr;
      },
      [&](const std::string& given, bool* owned) {
        auto made = std::make_shared<CallerCompactionFilterFactory>(given, state, create, filter);
        *owned = true;
        register_recorded_name<rocksdb::CompactionFilterFactory, RecordedCompactionFilterFactory>(given);
        *factory_out = new pr_compaction_filter_factory{std::move(made)};
      },
      err, err_cap);
}

void pr_compaction_filter_factory_destroy(pr_compaction_filter_factory_t* factory) {
  delete factory;
}

int32_t pr_options_set_compaction_filter_factory(pr_options_t* options,
                                                 const pr_compaction_filter_factory_t* factory,
                                                 char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->family.compaction_filter_factory = factory->factory;
    return PR_OK;
  });
}

uint8_t* pr_filter_output_reserve(pr_filter_output_t* output, size_t len) {
  try {
    output->written.resize(len);
    return reinterpret_cast<uint8_t*>(output->written.data());
  } catch (...) {
    return nullptr;
  }
}

}  // extern "C"
