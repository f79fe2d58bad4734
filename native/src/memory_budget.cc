// The "memory budget" section of pinrock.h: one block cache and memtable cap
// shared by several databases; and the two options the section ends with,
// the merge operator and statistics.
#include "internal.h"

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/statistics.h>
#include <rocksdb/write_buffer_manager.h>

#include <cstring>
#include <memory>
#include <string>
#include <utility>

using namespace pinrock::internal;

namespace pinrock::internal {

const std::vector<MergeOperatorKind>& offered_merge_operators() {
  // RocksDB's other built-ins are left out: sortlist throws on an operand
  // that is not a list of numbers (std::terminate in a compaction), and the
  // test operators and option strings reach RocksDB's object registry.
  static const std::vector<MergeOperatorKind> kinds = {
      {"uint64add", 8}, {"stringappend", 0}, {"max", 0}, {"put", 0}, {"bytesxor", 0}};
  return kinds;
}

}  // namespace pinrock::internal

extern "C" {

int32_t pr_memory_budget_create(uint64_t total_bytes, uint64_t memtable_bytes,
                                pr_memory_budget_t** budget_out, char* err, size_t err_cap) {
  *budget_out = nullptr;
  return guarded(err, err_cap, [&] {
    if (total_bytes == 0 || total_bytes > (1ull << 62) || memtable_bytes > total_bytes) {
      return invalid_argument("a memory budget of " + std::to_string(total_bytes) +
                                  " bytes with " + std::to_string(memtable_bytes) +
                                  " for memtables breaks 0 < total <= 2^62, memtables <= total",
                              err, err_cap);
    }
    auto budget = std::make_unique<pr_memory_budget>();
    budget->cache = rocksdb::NewLRUCache(total_bytes);
    budget->write_buffer_manager =
        std::make_shared<rocksdb::WriteBufferManager>(memtable_bytes, budget->cache);
    *budget_out = budget.release();
    return PR_OK;
  });
}

void pr_memory_budget_destroy(pr_memory_budget_t* budget) { delete budget; }

int32_t pr_options_set_memory_budget(pr_options_t* options, const pr_memory_budget_t* budget,
                                     char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->memory_budget = std::make_shared<pr_memory_budget>(*budget);
    return PR_OK;
  });
}

uint64_t pr_memory_budget_usage(const pr_memory_budget_t* budget) {
  return budget->cache->GetUsage();
}

int32_t pr_options_set_merge_operator(pr_options_t* options, const char* name, char* err,
                                      size_t err_cap) {
  return guarded(err, err_cap, [&] {
    const MergeOperatorKind* kind = nullptr;
    std::string allowed;
    for (const MergeOperatorKind& candidate : offered_merge_operators()) {
      if (std::strcmp(candidate.name, name) == 0) kind = &candidate;
      allowed += (allowed.empty() ? "" : ", ") + std::string(candidate.name);
    }
    if (kind == nullptr) {
      return invalid_argument(std::string("unknown merge operator \"") + name +
                                  "\": pinrock offers " + allowed,
                              err, err_cap);
    }
    std::shared_ptr<rocksdb::MergeOperator> merge_operator;
    rocksdb::Status s = rocksdb::MergeOperator::CreateFromString(rocksdb::ConfigOptions(),
                                                                 kind->name, &merge_operator);
    if (!s.ok()) return to_status(s, err, err_cap);
    options->family.merge_operator = std::move(merge_operator);
    options->merge_operator_kind = kind;
    return PR_OK;
  });
}

int32_t pr_options_set_statistics(pr_options_t* options, int32_t level, char* err,
                                  size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (level < 0 || level > rocksdb::StatsLevel::kAll) {
      return invalid_argument("statistics level must be 0..5, got " + std::to_string(level), err,
                              err_cap);
    }
    options->statistics_level = level;
    return PR_OK;
  });
}

}  // extern "C"
