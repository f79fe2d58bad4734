// The "memory budget" section of pinrock.h: one block cache and memtable cap
// shared by several databases.
#include "internal.h"

#include <rocksdb/cache.h>
#include <rocksdb/write_buffer_manager.h>

#include <memory>
#include <string>
#include <utility>

using namespace pinrock::internal;

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

}  // extern "C"
