// The "options" section of pinrock.h: a pr_options_t and its setters, and
// the RocksDB options a database, a family or a table file is given for it.
#include "internal.h"
#include "testing.h"

#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <zstd.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace pinrock::internal;

void pinrock_testing_set_env(pr_options_t* options, std::shared_ptr<rocksdb::Env> env) {
  options->env = std::move(env);
}

namespace {

bool known_compression(int32_t type) {
  switch (type) {
    case PR_COMPRESSION_NONE:
    case PR_COMPRESSION_SNAPPY:
    case PR_COMPRESSION_ZLIB:
    case PR_COMPRESSION_BZIP2:
    case PR_COMPRESSION_LZ4:
    case PR_COMPRESSION_LZ4HC:
    case PR_COMPRESSION_ZSTD:
      return true;
    default:
      return false;
  }
}

}  // namespace

namespace pinrock::internal {

rocksdb::Options to_rocksdb_options(const pr_options& o, std::shared_ptr<rocksdb::Cache>* cache) {
  rocksdb::Options options;
  options.create_if_missing = o.create_if_missing;
  options.error_if_exists = o.error_if_exists;
  options.paranoid_checks = o.paranoid_checks;
  options.wal_recovery_mode = o.wal_recovery_mode;
  options.compression = o.compression;
  options.bottommost_compression = o.bottommost_compression;
  options.compression_per_level = o.compression_per_level;
  for (rocksdb::CompressionOptions* opts :
       {&options.compression_opts, &options.bottommost_compression_opts}) {
    opts->level = o.zstd_level;
    opts->max_dict_bytes = o.max_dict_bytes;
    opts->zstd_max_train_bytes = o.zstd_train_bytes;
    opts->parallel_threads = o.compression_threads;
  }
  options.bottommost_compression_opts.enabled = true;
  options.write_buffer_size = o.write_buffer_bytes;
  options.max_open_files = o.max_open_files;
  options.merge_operator = o.merge_operator;
  // A SingleDelete misused (after a Delete, a Merge, another SingleDelete,
  // or a key put twice) leaves that key's value undefined, as RocksDB
  // documents. Enforcing the contract instead fails every flush and
  // compaction that meets such a key, with Corruption: the database stops
  // taking writes and cannot be opened again. Without it RocksDB logs the
  // misuse and goes on, and only that key is affected.
  options.enforce_single_del_contracts = false;
  if (o.env) options.env = o.env.get();
  if (o.statistics_level > 0) {
    options.statistics = rocksdb::CreateDBStatistics();
    options.statistics->set_stats_level(static_cast<rocksdb::StatsLevel>(o.statistics_level));
  }

  rocksdb::BlockBasedTableOptions table;
  if (o.memory_budget) {
    *cache = o.memory_budget->cache;
    table.block_cache = *cache;
    options.write_buffer_manager = o.memory_budget->write_buffer_manager;
  } else if (o.block_cache_bytes == 0) {
    table.no_block_cache = true;
  } else {
    *cache = rocksdb::NewLRUCache(o.block_cache_bytes);
    table.block_cache = *cache;
  }
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

}  // namespace pinrock::internal

extern "C" {

pr_options_t* pr_options_create(void) {
  try {
    return new pr_options();
  } catch (...) {
    return nullptr;
  }
}

void pr_options_destroy(pr_options_t* options) { delete options; }

void pr_options_set_create_if_missing(pr_options_t* options, int32_t value) {
  options->create_if_missing = value != 0;
}

void pr_options_set_error_if_exists(pr_options_t* options, int32_t value) {
  options->error_if_exists = value != 0;
}

void pr_options_set_paranoid_checks(pr_options_t* options, int32_t value) {
  options->paranoid_checks = value != 0;
}

int32_t pr_options_set_wal_recovery_mode(pr_options_t* options, int32_t mode, char* err,
                                         size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (mode < PR_WAL_RECOVERY_TOLERATE_CORRUPTED_TAIL || mode > PR_WAL_RECOVERY_SKIP_ANY_CORRUPTED) {
      return invalid_argument("unknown WAL recovery mode " + std::to_string(mode), err, err_cap);
    }
    options->wal_recovery_mode = static_cast<rocksdb::WALRecoveryMode>(mode);
    return PR_OK;
  });
}

int32_t pr_options_set_compression(pr_options_t* options, int32_t type, char* err,
                                   size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (!known_compression(type)) {
      return invalid_argument("unknown compression type " + std::to_string(type), err, err_cap);
    }
    options->compression = static_cast<rocksdb::CompressionType>(type);
    return PR_OK;
  });
}

int32_t pr_options_set_bottommost_compression(pr_options_t* options, int32_t type, char* err,
                                              size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (type == PR_COMPRESSION_INHERIT) {
      options->bottommost_compression = rocksdb::kDisableCompressionOption;
      return PR_OK;
    }
    if (!known_compression(type)) {
      return invalid_argument("unknown bottommost compression type " + std::to_string(type), err,
                              err_cap);
    }
    options->bottommost_compression = static_cast<rocksdb::CompressionType>(type);
    return PR_OK;
  });
}

int32_t pr_options_set_zstd_level(pr_options_t* options, int32_t level, char* err,
                                  size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
      return invalid_argument("zstd level " + std::to_string(level) + " is outside [" +
                                  std::to_string(ZSTD_minCLevel()) + ", " +
                                  std::to_string(ZSTD_maxCLevel()) + "]",
                              err, err_cap);
    }
    options->zstd_level = level;
    return PR_OK;
  });
}

int32_t pr_options_set_compression_per_level(pr_options_t* options, const int32_t* types,
                                             size_t n, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (n > 7) {
      return invalid_argument(std::to_string(n) + " levels of compression, at most 7", err,
                              err_cap);
    }
    std::vector<rocksdb::CompressionType> levels;
    for (size_t i = 0; i < n; i++) {
      if (!known_compression(types[i])) {
        return invalid_argument("unknown compression type " + std::to_string(types[i]) +
                                    " for level " + std::to_string(i),
                                err, err_cap);
      }
      levels.push_back(static_cast<rocksdb::CompressionType>(types[i]));
    }
    options->compression_per_level = std::move(levels);
    return PR_OK;
  });
}

int32_t pr_options_set_zstd_dictionary(pr_options_t* options, uint32_t max_dict_bytes,
                                       uint32_t train_bytes, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (max_dict_bytes > (1u << 30) || train_bytes > (1u << 31)) {
      return invalid_argument("a zstd dictionary of " + std::to_string(max_dict_bytes) +
                                  " bytes trained on " + std::to_string(train_bytes) +
                                  " exceeds 1 GiB / 2 GiB",
                              err, err_cap);
    }
    if (train_bytes != 0 && train_bytes < max_dict_bytes) {
      return invalid_argument("zstd dictionary training on " + std::to_string(train_bytes) +
                                  " bytes is less than the dictionary's " +
                                  std::to_string(max_dict_bytes),
                              err, err_cap);
    }
    options->max_dict_bytes = max_dict_bytes;
    options->zstd_train_bytes = train_bytes;
    return PR_OK;
  });
}

int32_t pr_options_set_compression_threads(pr_options_t* options, uint32_t threads, char* err,
                                           size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (threads < 1 || threads > 64) {
      return invalid_argument(std::to_string(threads) + " compression threads, not in 1..64",
                              err, err_cap);
    }
    options->compression_threads = threads;
    return PR_OK;
  });
}

int32_t pr_options_set_block_cache_bytes(pr_options_t* options, uint64_t bytes, char* err,
                                         size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (bytes > (1ull << 62)) {
      return invalid_argument("block cache of " + std::to_string(bytes) + " bytes exceeds 2^62",
                              err, err_cap);
    }
    options->block_cache_bytes = bytes;
    return PR_OK;
  });
}

int32_t pr_options_set_write_buffer_bytes(pr_options_t* options, uint64_t bytes, char* err,
                                          size_t err_cap) {
  return guarded(err, err_cap, [&] {
    // RocksDB clips larger sizes to 64 GiB; refused instead, as told.
    if (bytes < (64ull << 10) || bytes > (64ull << 30)) {
      return invalid_argument("write buffer of " + std::to_string(bytes) +
                                  " bytes is outside [64 KiB, 64 GiB]",
                              err, err_cap);
    }
    options->write_buffer_bytes = bytes;
    return PR_OK;
  });
}

int32_t pr_options_set_max_open_files(pr_options_t* options, int32_t count, char* err,
                                      size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (count != -1 && count < 20) {
      return invalid_argument("max open files " + std::to_string(count) +
                                  " must be -1 (unlimited) or at least 20",
                              err, err_cap);
    }
    options->max_open_files = count;
    return PR_OK;
  });
}

}  // extern "C"
