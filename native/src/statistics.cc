// The "statistics and memory usage" section of pinrock.h: RocksDB's tickers
// and histograms, and the memory a database uses.
#include "internal.h"

#include <rocksdb/statistics.h>
#include <rocksdb/utilities/memory_util.h>

#include <map>
#include <mutex>
#include <shared_mutex>
#include <unordered_set>

using namespace pinrock::internal;

namespace {

int32_t no_statistics(char* err, size_t err_cap) {
  return fail(PR_CODE_NOT_SUPPORTED,
              "Not implemented: the database was opened without statistics", err, err_cap);
}

}  // namespace

extern "C" {

size_t pr_ticker_count(void) { return rocksdb::TickersNameMap.size(); }

const char* pr_ticker_name(size_t i) {
  return i < rocksdb::TickersNameMap.size() ? rocksdb::TickersNameMap[i].second.c_str() : nullptr;
}

size_t pr_histogram_count(void) { return rocksdb::HistogramsNameMap.size(); }

const char* pr_histogram_name(size_t i) {
  return i < rocksdb::HistogramsNameMap.size() ? rocksdb::HistogramsNameMap[i].second.c_str()
                                                : nullptr;
}

int32_t pr_db_statistics(pr_db_t* db, uint64_t* tickers, size_t n_tickers,
                         pr_histogram_t* histograms, size_t n_histograms, char* err,
                         size_t err_cap) {
  return guarded(err, err_cap, [&] {
    const rocksdb::Statistics* statistics = db->database->statistics.get();
    if (statistics == nullptr) return no_statistics(err, err_cap);
    for (size_t i = 0; i < n_tickers && i < rocksdb::TickersNameMap.size(); i++) {
      tickers[i] = statistics->getTickerCount(rocksdb::TickersNameMap[i].first);
    }
    for (size_t i = 0; i < n_histograms && i < rocksdb::HistogramsNameMap.size(); i++) {
      rocksdb::HistogramData data;
      statistics->histogramData(rocksdb::HistogramsNameMap[i].first, &data);
      histograms[i] = pr_histogram_t{data.count,   data.sum,          data.min,
                                     data.max,     data.average,      data.median,
                                     data.percentile95, data.percentile99, data.standard_deviation};
    }
    return PR_OK;
  });
}

int32_t pr_db_statistics_reset(pr_db_t* db, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (db->database->statistics == nullptr) return no_statistics(err, err_cap);
    return to_status(db->database->statistics->Reset(), err, err_cap);
  });
}

int32_t pr_db_memory_usage(pr_db_t* db, pr_memory_usage_t* usage, char* err, size_t err_cap) {
  *usage = pr_memory_usage_t{0, 0, 0, 0, 0};
  return guarded(err, err_cap, [&] {
    std::unordered_set<const rocksdb::Cache*> caches;
    {
      std::shared_lock<std::shared_mutex> lock(db->database->mutex);
      for (const auto& [name, family] : db->database->open_families) {
        if (family->block_cache) caches.insert(family->block_cache.get());
      }
    }
    std::map<rocksdb::MemoryUtil::UsageType, uint64_t> by_type;
    rocksdb::Status s =
        rocksdb::MemoryUtil::GetApproximateMemoryUsageByType({db->db}, caches, &by_type);
    if (!s.ok()) return to_status(s, err, err_cap);
    usage->memtables = by_type[rocksdb::MemoryUtil::kMemTableTotal];
    usage->memtables_unflushed = by_type[rocksdb::MemoryUtil::kMemTableUnFlushed];
    usage->table_readers = by_type[rocksdb::MemoryUtil::kTableReadersTotal];
    usage->block_cache = by_type[rocksdb::MemoryUtil::kCacheTotal];
    for (const rocksdb::Cache* cache : caches) usage->block_cache_pinned += cache->GetPinnedUsage();
    return PR_OK;
  });
}

}  // extern "C"
