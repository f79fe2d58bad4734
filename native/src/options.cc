// The "options" section of pinrock.h: a pr_options_t and its setters, and
// the RocksDB options a database, a family or a table file is given for it;
// also pr_db_set_options (declared with the database calls), which reads
// option strings as pr_options_set_string does.
#include "internal.h"
#include "testing.h"

#include <rocksdb/comparator.h>
#include <rocksdb/convenience.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <unordered_map>
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

// The compression options of every level of a family: the bottommost level's and the others'.
template <typename Family>
auto compression_options(Family& family) {
  return std::array{&family.compression_opts, &family.bottommost_compression_opts};
}

// The comparator pinrock offers by name (pr_options_set_comparator), or null.
const rocksdb::Comparator* offered_comparator(const std::string& name) {
  for (const rocksdb::Comparator* offered :
       {rocksdb::BytewiseComparator(), rocksdb::ReverseBytewiseComparator()}) {
    if (name == offered->Name()) return offered;
  }
  return nullptr;
}

// The names of the comparators pinrock offers, for messages.
std::string offered_comparator_names() {
  return std::string(rocksdb::BytewiseComparator()->Name()) + ", " +
         rocksdb::ReverseBytewiseComparator()->Name();
}

// Why an option string may not set name in scope (the part of name before
// a '.', as RocksDB reads "table_factory.id"), or null when it may.
const char* refused_by_name(int32_t scope, const std::string& name) {
  struct Refusal {
    int32_t scope;
    const char* name;
    const char* reason;
  };
  static constexpr const char* kObject =
      "is an object RocksDB would make by name, which pinrock does not offer";
  static constexpr Refusal kRefusals[] = {
      {PR_OPTION_SCOPE_DB, "statistics", "is set with pr_options_set_statistics"},
      {PR_OPTION_SCOPE_DB, "info_log", "is set with pr_options_set_info_log"},
      {PR_OPTION_SCOPE_DB, "enforce_single_del_contracts",
       "stays off: enforcing it stops a database at the first misused SingleDelete"},
      {PR_OPTION_SCOPE_DB, "write_buffer_manager", "comes with a memory budget"},
      {PR_OPTION_SCOPE_DB, "env", kObject},
      {PR_OPTION_SCOPE_DB, "file_system", kObject},
      {PR_OPTION_SCOPE_DB, "rate_limiter", "is set with pr_options_set_rate_limiter"},
      {PR_OPTION_SCOPE_DB, "sst_file_manager", "is set with pr_options_set_sst_file_manager"},
      {PR_OPTION_SCOPE_DB, "wal_filter", kObject},
      {PR_OPTION_SCOPE_DB, "listeners", kObject},
      {PR_OPTION_SCOPE_FAMILY, "merge_operator", "is set with pr_options_set_merge_operator"},
      {PR_OPTION_SCOPE_FAMILY, "comparator", "is set with pr_options_set_comparator"},
      {PR_OPTION_SCOPE_FAMILY, "table_factory", "is block-based: set table options in the table scope"},
      {PR_OPTION_SCOPE_FAMILY, "block_based_table_factory",
       "is block-based: set table options in the table scope"},
      {PR_OPTION_SCOPE_FAMILY, "plain_table_factory", "is block-based: pinrock offers no other"},
      {PR_OPTION_SCOPE_FAMILY, "cuckoo_table_factory", "is block-based: pinrock offers no other"},
      {PR_OPTION_SCOPE_FAMILY, "compaction_filter", kObject},
      {PR_OPTION_SCOPE_FAMILY, "compaction_filter_factory", kObject},
      {PR_OPTION_SCOPE_FAMILY, "sst_partitioner_factory", kObject},
      {PR_OPTION_SCOPE_FAMILY, "blob_cache", kObject},
      {PR_OPTION_SCOPE_TABLE, "block_cache",
       "is set with pr_options_set_block_cache_bytes or a memory budget"},
      {PR_OPTION_SCOPE_TABLE, "no_block_cache", "is set with pr_options_set_block_cache_bytes (0)"},
      {PR_OPTION_SCOPE_TABLE, "block_cache_compressed", kObject},
      {PR_OPTION_SCOPE_TABLE, "persistent_cache", kObject},
      {PR_OPTION_SCOPE_TABLE, "flush_block_policy_factory", kObject},
  };
  const std::string base = name.substr(0, name.find('.'));
  for (const Refusal& refusal : kRefusals) {
    if (refusal.scope == scope && base == refusal.name) return refusal.reason;
  }
  return nullptr;
}

const char* scope_name(int32_t scope) {
  switch (scope) {
    case PR_OPTION_SCOPE_DB:
      return "database";
    case PR_OPTION_SCOPE_FAMILY:
      return "column family";
    default:
      return "table";
  }
}

// Why a zstd dictionary of max_dict_bytes trained on train_bytes is refused
// (training allocates train_bytes on a flush's thread), or "" when it is not.
std::string zstd_dictionary_error(uint64_t max_dict_bytes, uint64_t train_bytes) {
  if (max_dict_bytes > (1u << 30) || train_bytes > (1u << 31)) {
    return "a zstd dictionary of " + std::to_string(max_dict_bytes) + " bytes trained on " +
           std::to_string(train_bytes) + " exceeds 1 GiB / 2 GiB";
  }
  if (train_bytes != 0 && train_bytes < max_dict_bytes) {
    return "zstd dictionary training on " + std::to_string(train_bytes) +
           " bytes is less than the dictionary's " + std::to_string(max_dict_bytes);
  }
  return "";
}

// Why threads compression threads per file are refused (0 leaves a table
// file writer without any; each is a thread a flush starts), or "".
std::string compression_threads_error(uint64_t threads) {
  if (threads < 1 || threads > 64) return std::to_string(threads) + " compression threads, not in 1..64";
  return "";
}

// The most threads an option string may ask for in one pool or one job:
// RocksDB starts them in the process's shared pools, which never shrink, or
// in a background job, where failing to start one ends the process.
constexpr int kMaxThreads = 256;

// Why options parsed from a string are refused, or "": values RocksDB
// accepts but that crash the process (a cache of 2^20 or more shards is
// null; a thread that cannot be started in a background job terminates
// it), checked as the typed setters check theirs.
std::string unsafe_value_error(const rocksdb::DBOptions& db) {
  if (db.table_cache_numshardbits >= 20) {
    return "table_cache_numshardbits=" + std::to_string(db.table_cache_numshardbits) +
           " is 20 or more (RocksDB makes no cache of that many shards)";
  }
  const std::pair<const char*, int64_t> thread_counts[] = {
      {"max_background_jobs", db.max_background_jobs},
      {"max_background_compactions", db.max_background_compactions},
      {"max_background_flushes", db.max_background_flushes},
      {"max_subcompactions", db.max_subcompactions},
      {"max_file_opening_threads", db.max_file_opening_threads}};
  for (const auto& [name, count] : thread_counts) {
    if (count > kMaxThreads) {
      return std::string(name) + "=" + std::to_string(count) + " asks for more than " +
             std::to_string(kMaxThreads) + " threads";
    }
  }
  // Options that change what an acknowledged write means (docs/reliability.md
  // lists the ones pinrock keeps).
  const std::pair<bool, const char*> weakened_writes[] = {
      {db.manual_wal_flush,
       "manual_wal_flush=true keeps acknowledged writes in a buffer until FlushWAL, which pinrock "
       "does not offer: a killed process loses them. Leave it false; for fewer log writes, batch "
       "the writes"},
      {db.avoid_flush_during_shutdown,
       "avoid_flush_during_shutdown=true makes a close drop the writes made without the log "
       "(disableWal) instead of flushing them. Leave it false"},
      {db.best_efforts_recovery,
       "best_efforts_recovery=true opens without replaying the log, losing every acknowledged "
       "write not yet flushed. Leave it false; repair a damaged database with pr_db_repair"},
      {db.unordered_write,
       "unordered_write=true lets writes older than a snapshot land after it is taken, so a "
       "snapshot, a cursor or a multiGet may see the database change. Leave it false"},
      {db.allow_mmap_writes,
       "allow_mmap_writes=true writes the log through memory maps, which RocksDB cannot sync "
       "as it syncs files (its SyncWAL refuses them). Leave it false"},
  };
  for (const auto& [set, why] : weakened_writes) {
    if (set) return why;
  }
  return "";
}

std::string unsafe_value_error(const rocksdb::ColumnFamilyOptions& family) {
  // RocksDB writes an empty list to the OPTIONS file as nothing, reads that
  // back as the default (seven 1s), and fails the open that wrote it, after
  // recovering the database, with an IO error.
  if (family.max_bytes_for_level_multiplier_additional.empty()) {
    return "max_bytes_for_level_multiplier_additional= (an empty list) does not survive RocksDB's "
           "OPTIONS file, and the open would fail: give a multiplier per level, or leave it out "
           "(every level's is then 1)";
  }
  for (const rocksdb::CompressionOptions* opts : compression_options(family)) {
    std::string error = compression_threads_error(opts->parallel_threads);
    if (error.empty()) error = zstd_dictionary_error(opts->max_dict_bytes, opts->zstd_max_train_bytes);
    if (!error.empty()) return error;
  }
  if (family.inplace_update_support) {
    return "inplace_update_support=true overwrites values in the memtable: a cursor's value "
           "changes under it without the cursor moving, and snapshots are not supported. Leave it "
           "false";
  }
  // A hash memtable finds a key by its prefix, and a key shorter than the
  // prefix extractor's prefix has none: a get answered null for keys that
  // cursors list. RocksDB names both factories so whatever the option's spelling.
  const std::string memtable = family.memtable_factory ? family.memtable_factory->Name() : "";
  if (memtable == "HashSkipListRepFactory" || memtable == "HashLinkListRepFactory") {
    return "memtable_factory " + memtable +
           " (prefix_hash, hash_linkedlist) cannot answer a get for a key shorter than the "
           "prefix: use the default skip list (skip_list)";
  }
  // Level-0 triggers below 0 leave more level-0 files than the stop trigger
  // at every moment: writes stop for good.
  const std::pair<const char*, int> level0_triggers[] = {
      {"level0_file_num_compaction_trigger", family.level0_file_num_compaction_trigger},
      {"level0_slowdown_writes_trigger", family.level0_slowdown_writes_trigger},
      {"level0_stop_writes_trigger", family.level0_stop_writes_trigger}};
  for (const auto& [name, files] : level0_triggers) {
    if (files < 0) {
      return std::string(name) + "=" + std::to_string(files) +
             " is below 0: writes would stop for good";
    }
  }
  return "";
}

std::string unsafe_value_error(const rocksdb::BlockBasedTableOptions& table) {
  if (table.index_type == rocksdb::BlockBasedTableOptions::kHashSearch) {
    return "index_type=kHashSearch finds a key by its prefix and cannot answer a get for a key "
           "shorter than the prefix: use kBinarySearch (the default) or kTwoLevelIndexSearch";
  }
  return "";
}

// Why option, which an open would correct to value, is refused while the
// database is open.
std::string corrected(const std::string& option, const std::string& value) {
  return option + " is refused while the database is open, where RocksDB would take it as it is; "
                  "an open corrects it to " + value;
}

// Why a value RocksDB would correct at open (its SanitizeOptions) is
// refused while the database is open, where RocksDB takes it as it is (a
// stop trigger of 0 stops writes for good), or "": the message says the
// value an open would use.
std::string corrected_at_open_error(const rocksdb::DBOptions& db) {
  if (db.max_open_files != -1 && db.max_open_files < 20) {
    return corrected("max_open_files=" + std::to_string(db.max_open_files), "20");
  }
  if (db.delayed_write_rate == 0) {
    return corrected("delayed_write_rate=0", "the rate limiter's rate or 16 MiB a second");
  }
  if (db.rate_limiter != nullptr && db.bytes_per_sync == 0) {
    return corrected("bytes_per_sync=0 with a rate limiter", "1 MiB");
  }
  return "";
}

std::string corrected_at_open_error(const rocksdb::ColumnFamilyOptions& family) {
  if (family.write_buffer_size < (64u << 10) || family.write_buffer_size > (64ull << 30)) {
    return corrected("write_buffer_size=" + std::to_string(family.write_buffer_size),
                     "a size in [64 KiB, 64 GiB]");
  }
  if (family.arena_block_size == 0) {
    return corrected("arena_block_size=0", "min(1 MiB, write_buffer_size / 8)");
  }
  if (family.max_write_buffer_number < 2) {
    return corrected("max_write_buffer_number=" + std::to_string(family.max_write_buffer_number),
                     "2");
  }
  const double bloom_ratio = family.memtable_prefix_bloom_size_ratio;
  if (bloom_ratio < 0 || bloom_ratio > 0.25) {
    return corrected("memtable_prefix_bloom_size_ratio=" + std::to_string(bloom_ratio),
                     "a ratio in [0, 0.25]");
  }
  if (family.max_bytes_for_level_multiplier <= 0) {
    return corrected("max_bytes_for_level_multiplier=" +
                         std::to_string(family.max_bytes_for_level_multiplier),
                     "1");
  }
  const int compaction = std::max(family.level0_file_num_compaction_trigger, 1);
  const int slowdown = std::max(family.level0_slowdown_writes_trigger, compaction);
  const int stop = std::max(family.level0_stop_writes_trigger, slowdown);
  if (compaction != family.level0_file_num_compaction_trigger ||
      slowdown != family.level0_slowdown_writes_trigger ||
      stop != family.level0_stop_writes_trigger) {
    return corrected("level0_file_num_compaction_trigger=" +
                         std::to_string(family.level0_file_num_compaction_trigger) +
                         ", level0_slowdown_writes_trigger=" +
                         std::to_string(family.level0_slowdown_writes_trigger) +
                         ", level0_stop_writes_trigger=" +
                         std::to_string(family.level0_stop_writes_trigger),
                     std::to_string(compaction) + ", " + std::to_string(slowdown) + ", " +
                         std::to_string(stop) + " (stop >= slowdown >= compaction >= 1)");
  }
  if (family.max_compaction_bytes == 0) {
    return corrected("max_compaction_bytes=0", "25 times target_file_size_base");
  }
  // RocksDB's mark for "its default", which only an open resolves.
  constexpr uint64_t kDefaultAtOpen = 0xfffffffffffffffe;
  if (family.ttl == kDefaultAtOpen || family.periodic_compaction_seconds == kDefaultAtOpen) {
    return corrected("ttl or periodic_compaction_seconds=" + std::to_string(kDefaultAtOpen),
                     "RocksDB's default (30 days or 0)");
  }
  const uint64_t periodic = family.periodic_compaction_seconds;
  if (family.compaction_style == rocksdb::kCompactionStyleUniversal && family.ttl != 0 &&
      (periodic == 0 || periodic > family.ttl)) {
    return corrected("periodic_compaction_seconds=" + std::to_string(periodic) + " with ttl=" +
                         std::to_string(family.ttl) + " and universal compaction",
                     std::to_string(family.ttl));
  }
  const uint64_t hard = family.hard_pending_compaction_bytes_limit;
  const uint64_t soft = family.soft_pending_compaction_bytes_limit;
  if (soft == 0 ? hard != 0 : hard > 0 && soft > hard) {
    return corrected("soft_pending_compaction_bytes_limit=" + std::to_string(soft),
                     std::to_string(hard) + " (hard_pending_compaction_bytes_limit)");
  }
  return "";
}

// Options text as messages repeat it: its start, when long, so that the
// reason after it still fits.
std::string abbreviated(const std::string& text) {
  return text.size() > 200 ? text.substr(0, 200) + "..." : text;
}

// How messages name the options text of scope.
std::string described(int32_t scope, const std::string& text) {
  return std::string(scope_name(scope)) + " options \"" + abbreviated(text) + "\": ";
}

// The options text names in scope, as RocksDB's StringToMap reads them,
// into *named, and how messages name the text (*where). Returns PR_OK, or
// PR_CODE_INVALID_ARGUMENT for an unknown scope, text that does not parse,
// or an option pinrock refuses by name.
int32_t named_options(int32_t scope, const char* text, std::string* where,
                      std::unordered_map<std::string, std::string>* named, char* err,
                      size_t err_cap) {
  if (scope < PR_OPTION_SCOPE_DB || scope > PR_OPTION_SCOPE_TABLE) {
    return invalid_argument("unknown option scope " + std::to_string(scope), err, err_cap);
  }
  *where = described(scope, text);
  rocksdb::Status s = rocksdb::StringToMap(text, named);
  if (!s.ok()) return invalid_argument(*where + s.ToString(), err, err_cap);
  for (const auto& [name, value] : *named) {
    if (const char* reason = refused_by_name(scope, name)) {
      return invalid_argument(*where + name + " " + reason, err, err_cap);
    }
  }
  return PR_OK;
}

// Parses one scope's option names over a base with RocksDB's parser for it.
rocksdb::Status parse_options(const rocksdb::ConfigOptions& config, const rocksdb::DBOptions& base,
                              const std::unordered_map<std::string, std::string>& named,
                              rocksdb::DBOptions* parsed) {
  return rocksdb::GetDBOptionsFromMap(config, base, named, parsed);
}

rocksdb::Status parse_options(const rocksdb::ConfigOptions& config,
                              const rocksdb::ColumnFamilyOptions& base,
                              const std::unordered_map<std::string, std::string>& named,
                              rocksdb::ColumnFamilyOptions* parsed) {
  return rocksdb::GetColumnFamilyOptionsFromMap(config, base, named, parsed);
}

rocksdb::Status parse_options(const rocksdb::ConfigOptions& config,
                              const rocksdb::BlockBasedTableOptions& base,
                              const std::unordered_map<std::string, std::string>& named,
                              rocksdb::BlockBasedTableOptions* parsed) {
  rocksdb::Status s = rocksdb::GetBlockBasedTableOptionsFromMap(config, base, named, parsed);
  // RocksDB reads a filter it does not know as no filter, unsaid.
  auto filter = named.find("filter_policy");
  if (s.ok() && filter != named.end() && parsed->filter_policy == nullptr && !filter->second.empty() &&
      filter->second != "nullptr") {
    return rocksdb::Status::InvalidArgument(
        "filter_policy \"" + filter->second +
        "\" is no filter RocksDB knows (bloomfilter:<bits per key>:false, ribbonfilter:<bits per key>)");
  }
  return s;
}

// One scope's options by name as RocksDB serializes them (below).
std::unordered_map<std::string, std::string> serialized_options(const rocksdb::DBOptions& db);
std::unordered_map<std::string, std::string> serialized_options(
    const rocksdb::ColumnFamilyOptions& family);
std::unordered_map<std::string, std::string> serialized_options(
    const rocksdb::BlockBasedTableOptions& table);

// Why a value named holds is refused for what RocksDB parsed it into, or
// "": RocksDB reads a negative number for an unsigned option as that number
// plus 2^64 (or 2^32), with no error (write_buffer_size=-1 is a 16 EiB
// memtable), so a value written with a minus sign that RocksDB serializes
// without one is refused.
template <typename Options>
std::string wrapped_value_error(const Options& parsed,
                                const std::unordered_map<std::string, std::string>& named) {
  std::unordered_map<std::string, std::string> serialized;
  for (const auto& [name, value] : named) {
    size_t first = value.find_first_not_of(" \t");
    if (first == std::string::npos || value[first] != '-') continue;
    if (serialized.empty()) serialized = serialized_options(parsed);
    auto read = serialized.find(name);
    if (read != serialized.end() && (read->second.empty() || read->second[0] != '-')) {
      return name + "=" + value + " is negative, and the option is unsigned: RocksDB would read it as " +
             read->second;
    }
  }
  return "";
}

// Applies the options RocksDB parses from named over current, unless it
// refuses them or they hold an unsafe value; returns its status.
template <typename Options>
int32_t parse_into(Options* current, const std::unordered_map<std::string, std::string>& named,
                   const std::string& where, char* err, size_t err_cap) {
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = false;
  config.ignore_unsupported_options = false;
  Options parsed;
  rocksdb::Status s = parse_options(config, *current, named, &parsed);
  if (!s.ok()) return invalid_argument(where + s.ToString(), err, err_cap);
  std::string unsafe = unsafe_value_error(parsed);
  if (unsafe.empty()) unsafe = wrapped_value_error(parsed, named);
  if (!unsafe.empty()) return invalid_argument(where + unsafe, err, err_cap);
  *current = std::move(parsed);
  return PR_OK;
}

// Whether named may change the options in_use of an open database (as an
// open sanitized them): refused as parse_into refuses, and also the values
// an open would have corrected. Changes nothing; returns its status.
template <typename Options>
int32_t check_change_while_open(Options in_use,
                                const std::unordered_map<std::string, std::string>& named,
                                const std::string& where, char* err, size_t err_cap) {
  int32_t status = parse_into(&in_use, named, where, err, err_cap);
  if (status != PR_OK) return status;
  std::string correction = corrected_at_open_error(in_use);
  if (!correction.empty()) return invalid_argument(where + correction, err, err_cap);
  return PR_OK;
}

// parse_into for the options of scope in options.
int32_t parse_scope_into(pr_options* options, int32_t scope,
                         const std::unordered_map<std::string, std::string>& named,
                         const std::string& where, char* err, size_t err_cap) {
  if (scope == PR_OPTION_SCOPE_DB) return parse_into(&options->db, named, where, err, err_cap);
  if (scope == PR_OPTION_SCOPE_FAMILY) {
    return parse_into(&options->family, named, where, err, err_cap);
  }
  return parse_into(&options->table, named, where, err, err_cap);
}

// Option text that names what named does, in name order, the values that
// hold text RocksDB's parser would otherwise split wrapped in braces.
std::string option_text(const std::unordered_map<std::string, std::string>& named) {
  std::string text;
  for (const auto& [name, value] : std::map<std::string, std::string>(named.begin(), named.end())) {
    bool nested = value.find_first_of(";={}") != std::string::npos;
    text += name + "=" + (nested ? "{" + value + "}" : value) + ";";
  }
  return text;
}

// Option text from RocksDB's serialization of one scope's options, without
// the names in dropped and, wrapped in braces, the values that hold text
// RocksDB's parser would otherwise split.
std::string option_text(const std::string& serialized, const std::set<std::string>& dropped) {
  std::unordered_map<std::string, std::string> named;
  if (!rocksdb::StringToMap(serialized, &named).ok()) return "";
  for (const std::string& name : dropped) named.erase(name);
  return option_text(named);
}

// The options text RocksDB serialized names, by name (an option struct's
// value without its braces), or none when serializing failed.
std::unordered_map<std::string, std::string> named_in(const rocksdb::Status& serialized,
                                                      const std::string& text) {
  std::unordered_map<std::string, std::string> named;
  if (serialized.ok()) rocksdb::StringToMap(text, &named).PermitUncheckedError();
  return named;
}

std::unordered_map<std::string, std::string> serialized_options(const rocksdb::DBOptions& db) {
  std::string text;
  return named_in(rocksdb::GetStringFromDBOptions(rocksdb::ConfigOptions(), db, &text), text);
}

std::unordered_map<std::string, std::string> serialized_options(
    const rocksdb::ColumnFamilyOptions& family) {
  std::string text;
  return named_in(rocksdb::GetStringFromColumnFamilyOptions(rocksdb::ConfigOptions(), family, &text),
                  text);
}

std::unordered_map<std::string, std::string> serialized_options(
    const rocksdb::BlockBasedTableOptions& table) {
  std::string text;
  std::unique_ptr<rocksdb::TableFactory> factory(rocksdb::NewBlockBasedTableFactory(table));
  return named_in(factory->GetOptionString(rocksdb::ConfigOptions(), &text), text);
}

// Adds to *changes each option of these whose serialized value differs from
// base's, with its value in these.
template <typename Options>
void add_changed(const Options& these, const Options& base,
                 std::unordered_map<std::string, std::string>* changes) {
  std::unordered_map<std::string, std::string> before = serialized_options(base);
  for (auto& [name, value] : serialized_options(these)) {
    auto old = before.find(name);
    if (old == before.end() || old->second != value) (*changes)[name] = std::move(value);
  }
}

// What of options a running database cannot take whatever the option: the
// settings pinrock makes when it opens, not RocksDB options, named; empty
// when options hold none but the defaults.
std::vector<std::string> open_only_settings(const pr_options& options) {
  const pr_options defaults;
  std::vector<std::string> fixed;
  if (options.block_cache_bytes != defaults.block_cache_bytes) {
    fixed.push_back("the block cache size");
  }
  if (options.memory_budget) fixed.push_back("a memory budget");
  if (options.db.rate_limiter) fixed.push_back("a rate limiter");
  if (options.db.sst_file_manager) fixed.push_back("an SST file manager");
  if (options.merge_operator_kind != nullptr) fixed.push_back("a merge operator");
  if (options.caller_comparator) fixed.push_back("a comparator");
  if (options.statistics_level != defaults.statistics_level) fixed.push_back("statistics");
  if (options.info_log_destination != defaults.info_log_destination) {
    fixed.push_back("the info log's destination");
  }
  if (options.event_destination) fixed.push_back("an event listener");
  if (options.event_auto_recovery != defaults.event_auto_recovery) {
    fixed.push_back("the choice of recovering from background errors");
  }
  if (!options.family_options.empty()) fixed.push_back("options of named column families");
  if (options.env) fixed.push_back("an Env");
  return fixed;
}

// Changes the options named in scope (DB or FAMILY) of the running database
// (SetDBOptions or SetOptions of db's family), after parsing them over the
// options in use as pr_options_set_string would; where says in messages
// what they came from.
int32_t change_options(pr_db_t* db, int32_t scope,
                       const std::unordered_map<std::string, std::string>& named,
                       const std::string& where, char* err, size_t err_cap) {
  // Parsed over the options in use first: refused as pr_options_set_string
  // refuses (unknown names, unsafe values), and values an open would have
  // corrected, before RocksDB changes anything.
  rocksdb::Status s;
  int32_t status;
  if (scope == PR_OPTION_SCOPE_DB) {
    status = check_change_while_open(db->db->GetDBOptions(), named, where, err, err_cap);
    if (status != PR_OK) return status;
    s = db->db->SetDBOptions(named);
  } else {
    status = check_change_while_open(rocksdb::ColumnFamilyOptions(db->db->GetOptions(db->family)),
                                     named, where, err, err_cap);
    if (status != PR_OK) return status;
    s = db->db->SetOptions(db->family, named);
  }
  // RocksDB refuses an option it cannot change while open: InvalidArgument
  // for a family's ("Option not changeable"), NotFound for the database's,
  // saying "Unrecognized option" of one its parser has just read.
  if (s.IsNotFound()) {
    return invalid_argument(
        where + "RocksDB cannot change it while the database is open (" + s.ToString() + ")", err,
        err_cap);
  }
  if (s.IsInvalidArgument() || s.IsNotSupported()) {
    return invalid_argument(where + s.ToString(), err, err_cap);
  }
  return to_status(s, err, err_cap);
}

}  // namespace

pr_options::pr_options() {
  // pinrock's defaults where they differ from RocksDB's (pinrock.h lists them all).
  db.create_if_missing = false;
  db.paranoid_checks = true;
  db.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  db.max_open_files = -1;
  db.info_log_level = rocksdb::InfoLogLevel::INFO_LEVEL;
  // A SingleDelete misused (after a Delete, a Merge, another SingleDelete,
  // or a key put twice) leaves that key's value undefined, as RocksDB
  // documents. Enforcing the contract instead fails every flush and
  // compaction that meets such a key, with Corruption: the database stops
  // taking writes and cannot be opened again. Without it RocksDB logs the
  // misuse and goes on, and only that key is affected. Option strings
  // cannot turn it back on.
  db.enforce_single_del_contracts = false;
  family.compression = rocksdb::kLZ4Compression;
  family.bottommost_compression = rocksdb::kZSTD;
  family.write_buffer_size = 64ull << 20;
  for (rocksdb::CompressionOptions* opts : compression_options(family)) opts->level = ZSTD_CLEVEL_DEFAULT;
  family.bottommost_compression_opts.enabled = true;
}

namespace pinrock::internal {

const std::vector<MergeOperatorKind>& offered_merge_operators() {
  // RocksDB's other built-ins are left out: sortlist throws on an operand
  // that is not a list of numbers (std::terminate in a compaction), and the
  // test operators and option strings reach RocksDB's object registry.
  static const std::vector<MergeOperatorKind> kinds = {
      {"uint64add", 8}, {"stringappend", 0}, {"max", 0}, {"put", 0}, {"bytesxor", 0}};
  return kinds;
}


rocksdb::Options to_rocksdb_options(const pr_options& o, std::shared_ptr<rocksdb::Cache>* cache) {
  rocksdb::Options options(o.db, o.family);
  if (o.env) options.env = o.env.get();
  if (o.statistics_level > 0) {
    options.statistics = rocksdb::CreateDBStatistics();
    options.statistics->set_stats_level(static_cast<rocksdb::StatsLevel>(o.statistics_level));
  }
  rocksdb::BlockBasedTableOptions table = o.table;
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
  options->db.create_if_missing = value != 0;
}

void pr_options_set_error_if_exists(pr_options_t* options, int32_t value) {
  options->db.error_if_exists = value != 0;
}

void pr_options_set_paranoid_checks(pr_options_t* options, int32_t value) {
  options->db.paranoid_checks = value != 0;
}

int32_t pr_options_set_wal_recovery_mode(pr_options_t* options, int32_t mode, char* err,
                                         size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (mode < PR_WAL_RECOVERY_TOLERATE_CORRUPTED_TAIL || mode > PR_WAL_RECOVERY_SKIP_ANY_CORRUPTED) {
      return invalid_argument("unknown WAL recovery mode " + std::to_string(mode), err, err_cap);
    }
    options->db.wal_recovery_mode = static_cast<rocksdb::WALRecoveryMode>(mode);
    return PR_OK;
  });
}

int32_t pr_options_set_compression(pr_options_t* options, int32_t type, char* err,
                                   size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (!known_compression(type)) {
      return invalid_argument("unknown compression type " + std::to_string(type), err, err_cap);
    }
    options->family.compression = static_cast<rocksdb::CompressionType>(type);
    return PR_OK;
  });
}

int32_t pr_options_set_bottommost_compression(pr_options_t* options, int32_t type, char* err,
                                              size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (type == PR_COMPRESSION_INHERIT) {
      options->family.bottommost_compression = rocksdb::kDisableCompressionOption;
      return PR_OK;
    }
    if (!known_compression(type)) {
      return invalid_argument("unknown bottommost compression type " + std::to_string(type), err,
                              err_cap);
    }
    options->family.bottommost_compression = static_cast<rocksdb::CompressionType>(type);
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
    for (rocksdb::CompressionOptions* opts : compression_options(options->family)) opts->level = level;
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
    options->family.compression_per_level = std::move(levels);
    return PR_OK;
  });
}

int32_t pr_options_set_zstd_dictionary(pr_options_t* options, uint32_t max_dict_bytes,
                                       uint32_t train_bytes, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::string error = zstd_dictionary_error(max_dict_bytes, train_bytes);
    if (!error.empty()) return invalid_argument(error, err, err_cap);
    for (rocksdb::CompressionOptions* opts : compression_options(options->family)) {
      opts->max_dict_bytes = max_dict_bytes;
      opts->zstd_max_train_bytes = train_bytes;
    }
    return PR_OK;
  });
}

int32_t pr_options_set_compression_threads(pr_options_t* options, uint32_t threads, char* err,
                                           size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::string error = compression_threads_error(threads);
    if (!error.empty()) return invalid_argument(error, err, err_cap);
    for (rocksdb::CompressionOptions* opts : compression_options(options->family)) opts->parallel_threads = threads;
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
    options->family.write_buffer_size = bytes;
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
    options->db.max_open_files = count;
    return PR_OK;
  });
}

int32_t pr_options_set_string(pr_options_t* options, int32_t scope, const char* text, char* err,
                              size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::string where;
    std::unordered_map<std::string, std::string> named;
    int32_t status = named_options(scope, text, &where, &named, err, err_cap);
    if (status != PR_OK) return status;
    status = parse_scope_into(options, scope, named, where, err, err_cap);
    if (status != PR_OK) return status;
    for (auto& [name, value] : named) options->string_options[scope][name] = std::move(value);
    return PR_OK;
  });
}

int32_t pr_options_set_comparator(pr_options_t* options, const char* name, char* err,
                                  size_t err_cap) {
  return guarded(err, err_cap, [&] {
    const rocksdb::Comparator* comparator = offered_comparator(name);
    if (comparator == nullptr) {
      return invalid_argument(std::string("unknown comparator \"") + name + "\": pinrock offers " +
                                  offered_comparator_names(),
                              err, err_cap);
    }
    options->family.comparator = comparator;
    options->caller_comparator = nullptr;
    return PR_OK;
  });
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

int32_t pr_db_set_options(pr_db_t* db, int32_t scope, const char* text, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (scope == PR_OPTION_SCOPE_TABLE) {
      return invalid_argument(
          "table options are fixed while the database is open: set them with "
          "pr_options_set_string and reopen",
          err, err_cap);
    }
    std::string where;
    std::unordered_map<std::string, std::string> named;
    int32_t status = named_options(scope, text, &where, &named, err, err_cap);
    if (status != PR_OK) return status;
    return change_options(db, scope, named, where, err, err_cap);
  });
}

int32_t pr_db_set_options_from(pr_db_t* db, int32_t scope, const pr_options_t* options, char* err,
                               size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (scope != PR_OPTION_SCOPE_DB && scope != PR_OPTION_SCOPE_FAMILY) {
      return invalid_argument("options of scope " + std::to_string(scope) +
                                  " cannot change while the database is open",
                              err, err_cap);
    }
    std::vector<std::string> fixed = open_only_settings(*options);
    if (!fixed.empty()) {
      std::string named;
      for (const std::string& setting : fixed) named += (named.empty() ? "" : ", ") + setting;
      return invalid_argument(named + " can only be set when the database opens", err, err_cap);
    }
    // Every scope's changes: the names option strings set, as given, and the
    // typed settings: what differs from the defaults with those strings applied.
    pr_options base;
    std::map<int32_t, std::unordered_map<std::string, std::string>> changes =
        options->string_options;
    for (const auto& [string_scope, named] : options->string_options) {
      int32_t status = parse_scope_into(&base, string_scope, named,
                                        described(string_scope, option_text(named)), err, err_cap);
      if (status != PR_OK) return status;
    }
    add_changed(options->db, base.db, &changes[PR_OPTION_SCOPE_DB]);
    add_changed(options->family, base.family, &changes[PR_OPTION_SCOPE_FAMILY]);
    add_changed(options->table, base.table, &changes[PR_OPTION_SCOPE_TABLE]);
    for (const auto& [other_scope, named] : changes) {
      if (other_scope == scope || named.empty()) continue;
      return invalid_argument(
          std::string(scope_name(other_scope)) + " options " + abbreviated(option_text(named)) +
              (other_scope == PR_OPTION_SCOPE_TABLE
                   ? " are fixed while the database is open: set them when it opens"
                   : " are not " + std::string(scope_name(scope)) +
                         " options: change them in their own scope"),
          err, err_cap);
    }
    const std::unordered_map<std::string, std::string>& named = changes[scope];
    if (named.empty()) return PR_OK;
    return change_options(db, scope, named, described(scope, option_text(named)), err, err_cap);
  });
}

int32_t pr_options_latest(const char* path, char* buf, size_t buf_cap, uint64_t* length, char* err,
                          size_t err_cap) {
  *length = 0;
  return guarded(err, err_cap, [&] {
    rocksdb::DBOptions db;
    RecordedFamilies families;
    rocksdb::Status s = load_recorded_families(path, &db, &families);
    if (s.IsNotSupported()) return invalid_argument(s.getState(), err, err_cap);
    if (!s.ok()) return fail(static_cast<int32_t>(s.code()), s.ToString(), err, err_cap);
    // Where the logs are, which is not what a checkpoint's OPTIONS file says.
    db.wal_dir = recorded_log_directory(path, db);
    rocksdb::ConfigOptions config;
    std::string serialized;
    s = rocksdb::GetStringFromDBOptions(config, db, &serialized);
    if (!s.ok()) return to_status(s, err, err_cap);
    // What belongs to an open rather than to the database, and what pinrock sets itself.
    std::vector<std::string> texts = {option_text(
        serialized, {"create_if_missing", "create_missing_column_families", "error_if_exists",
                     "env", "file_system", "statistics", "info_log", "rate_limiter",
                     "sst_file_manager", "wal_filter", "listeners", "write_buffer_manager",
                     "enforce_single_del_contracts"})};
    for (const rocksdb::ColumnFamilyDescriptor& family : families) {
      const rocksdb::ColumnFamilyOptions& options = family.options;
      const std::string where = "column family '" + family.name + "' of " + path;
      const std::string comparator = options.comparator != nullptr ? options.comparator->Name() : "";
      if (offered_comparator(comparator) == nullptr) {
        return invalid_argument(where + " orders its keys with comparator " + comparator +
                                    ", which pinrock does not offer (" + offered_comparator_names() + ")",
                                err, err_cap);
      }
      std::string unoffered = unoffered_object_error(where, options);
      if (!unoffered.empty()) return invalid_argument(unoffered, err, err_cap);
      if (options.compaction_filter_factory != nullptr) {
        return invalid_argument(where + " filters its compactions with " +
                                    options.compaction_filter_factory->Name() +
                                    ", whose code is not in the OPTIONS file: give the options "
                                    "again, with the filter",
                                err, err_cap);
      }
      std::string merge_operator;
      if (options.merge_operator != nullptr) {
        for (const MergeOperatorKind& kind : offered_merge_operators()) {
          std::shared_ptr<rocksdb::MergeOperator> offered;
          if (rocksdb::MergeOperator::CreateFromString(config, kind.name, &offered).ok() &&
              std::string(offered->Name()) == options.merge_operator->Name()) {
            merge_operator = kind.name;
          }
        }
        if (merge_operator.empty()) {
          return invalid_argument(where + " merges with " + options.merge_operator->Name() +
                                      ", which pinrock does not offer",
                                  err, err_cap);
        }
      }
      s = rocksdb::GetStringFromColumnFamilyOptions(config, options, &serialized);
      if (!s.ok()) return to_status(s, err, err_cap);
      std::string family_text = option_text(
          serialized, {"comparator", "merge_operator", "compaction_filter", "compaction_filter_factory",
                       "table_factory", "block_based_table_factory", "sst_partitioner_factory",
                       "blob_cache", "table_properties_collectors"});
      s = options.table_factory->GetOptionString(config, &serialized);
      if (!s.ok()) return to_status(s, err, err_cap);
      std::string table_text = option_text(
          serialized, {"block_cache", "no_block_cache", "block_cache_compressed", "persistent_cache",
                       "flush_block_policy_factory", "id"});
      texts.insert(texts.end(), {family.name, merge_operator, comparator, family_text, table_text});
    }
    // Texts are NUL-terminated: a name or value holding a NUL byte (a
    // hostile or damaged file) would shift every text after it.
    for (const std::string& text : texts) {
      if (text.find('\0') != std::string::npos) {
        return invalid_argument(std::string("the OPTIONS file of ") + path +
                                    " holds a NUL byte in an option or family name or value",
                                err, err_cap);
      }
    }
    return write_names(texts, buf, buf_cap, length);
  });
}

}  // extern "C"
