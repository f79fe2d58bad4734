// The "column families" section of pinrock.h: a family's own options,
// listing, creating, dropping and releasing families, and repair, which
// rebuilds every family of a database.
#include "internal.h"

#include <rocksdb/convenience.h>
#include <rocksdb/metadata.h>
#include <rocksdb/table_properties.h>
#include <rocksdb/utilities/options_util.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

using namespace pinrock::internal;

namespace {

// The options of column family name: its own in families, or others.
const rocksdb::ColumnFamilyOptions& family_options(
    const std::vector<rocksdb::ColumnFamilyDescriptor>& families, const std::string& name,
    const rocksdb::ColumnFamilyOptions& others) {
  for (const rocksdb::ColumnFamilyDescriptor& family : families) {
    if (family.name == name) return family.options;
  }
  return others;
}

// A merge operator as an OPTIONS file names it.
std::string merge_operator_name(const rocksdb::MergeOperator* merge_operator) {
  return merge_operator != nullptr ? merge_operator->Name() : "nullptr";
}

// Whether file_name ends with suffix (a file kind's extension: ".sst").
bool has_suffix(const std::string& file_name, const std::string& suffix) {
  return file_name.size() > suffix.size() &&
         file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Whether the metadata (CURRENT and the MANIFEST it names) accounts for
// every table file in the directory, found by a read-only open, which
// changes nothing. A writable open deletes the table files its metadata does
// not name: with stale metadata (a CURRENT rewritten by a failed create, an
// old MANIFEST) that would destroy the data repair exists to save.
bool metadata_names_every_table(const std::string& path, const rocksdb::DBOptions& options,
                                const std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors) {
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* opened = nullptr;
  if (!rocksdb::DB::OpenForReadOnly(options, path, descriptors, &handles, &opened).ok()) {
    return false;
  }
  std::unique_ptr<rocksdb::DB> db(opened);
  std::vector<rocksdb::LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  for (rocksdb::ColumnFamilyHandle* handle : handles) db->DestroyColumnFamilyHandle(handle);
  std::set<std::string> named;
  for (const rocksdb::LiveFileMetaData& file : live) named.insert(file.relative_filename);
  std::vector<std::string> children;
  if (!options.env->GetChildren(path, &children).ok()) return false;
  for (const std::string& child : children) {
    if (has_suffix(child, ".sst") && named.count(child) == 0) return false;
  }
  return true;
}

// Rewrites every table file of the open database db that was ingested (and
// not compacted since), by compacting its family whole. RepairDB rebuilds the
// metadata from the table files alone and cannot take such a file: it names
// no column family, so RepairDB sets it aside as inconsistent, and its
// entries carry sequence number 0 (only the metadata makes them newer than
// the writes they overwrite). The compaction writes each entry into a table
// file of the family, with its own sequence number.
rocksdb::Status rewrite_ingested_tables(rocksdb::DB* db,
                                        const std::vector<rocksdb::ColumnFamilyHandle*>& handles) {
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    rocksdb::TablePropertiesCollection tables;
    rocksdb::Status s = db->GetPropertiesOfAllTables(handle, &tables);
    if (!s.ok()) return s;
    bool ingested = std::any_of(tables.begin(), tables.end(), [](const auto& table) {
      return table.second->user_collected_properties.count("rocksdb.external_sst_file.version") > 0;
    });
    if (!ingested) continue;
    rocksdb::CompactRangeOptions options;
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    s = db->CompactRange(options, handle, nullptr, nullptr);
    if (!s.ok()) return s;
  }
  return rocksdb::Status::OK();
}

// Every column family the metadata of the database at path names, each
// with its options from families (others if not named).
rocksdb::Status named_families(const std::string& path, const rocksdb::DBOptions& db_options,
                               const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                               const rocksdb::ColumnFamilyOptions& others,
                               std::vector<rocksdb::ColumnFamilyDescriptor>* descriptors) {
  std::vector<std::string> names;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(db_options, path, &names);
  if (!s.ok()) return s;
  for (const std::string& name : names) {
    descriptors->emplace_back(name, family_options(families, name, others));
  }
  return s;
}

// A database opened with every column family its metadata names
// (named_families); closed when destroyed.
class EveryFamily {
 public:
  rocksdb::Status Open(const std::string& path, const rocksdb::DBOptions& db_options,
                       const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                       const rocksdb::ColumnFamilyOptions& others) {
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    rocksdb::Status s = named_families(path, db_options, families, others, &descriptors);
    if (!s.ok()) return s;
    rocksdb::DB* opened = nullptr;
    s = rocksdb::DB::Open(db_options, path, descriptors, &handles_, &opened);
    db_.reset(opened);
    return s;
  }
  ~EveryFamily() {
    if (db_ == nullptr) return;
    for (rocksdb::ColumnFamilyHandle* handle : handles_) db_->DestroyColumnFamilyHandle(handle);
    db_->Close().PermitUncheckedError();
  }
  rocksdb::DB* db() const { return db_.get(); }
  const std::vector<rocksdb::ColumnFamilyHandle*>& handles() const { return handles_; }

 private:
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  std::unique_ptr<rocksdb::DB> db_;
};

// The options every open of repair's own uses: an existing database, its
// log replayed into table files (a torn last record tolerated).
rocksdb::DBOptions repair_open_options(const rocksdb::Options& options) {
  rocksdb::DBOptions db_options(options);
  db_options.create_if_missing = false;
  db_options.error_if_exists = false;
  db_options.avoid_flush_during_recovery = false;
  db_options.wal_recovery_mode = rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  return db_options;
}

// RepairDB rebuilds the metadata from the table files alone, each of which
// names its family. Three things it cannot know from them are settled here
// first, when the database's metadata is intact (it names every table file
// in the directory), by opening it once: its recovery writes the log into
// table files, each family's into its own (the log names families by number
// only, so RepairDB drops the log records of a family that has no table file
// yet, and with each its whole batch); and ingested table files, which
// RepairDB cannot take, are rewritten (rewrite_ingested_tables). A log
// damaged anywhere but in its torn last record fails this open, and RepairDB
// salvages what it can. The third, families without any table file, is
// recreate_lost_families, after RepairDB.
void settle_before_repair(const std::string& path, const rocksdb::Options& options,
                          const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                          const rocksdb::ColumnFamilyOptions& others) {
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  if (!named_families(path, rocksdb::DBOptions(options), families, others, &descriptors).ok()) return;
  if (!metadata_names_every_table(path, rocksdb::DBOptions(options), descriptors)) return;
  EveryFamily db;
  if (!db.Open(path, repair_open_options(options), families, others).ok()) return;
  // A failure leaves the files as they were: RepairDB still runs.
  rewrite_ingested_tables(db.db(), db.handles()).PermitUncheckedError();
}

// RepairDB places every table file in level 0, ordered by the largest
// sequence number each holds. A point read searches level 0 in that order
// and stops at the first file holding its key, while iterators and
// compactions merge entries by their own sequence numbers. The two disagree
// when a file holds an older version of a key under a larger largest
// sequence number than the file holding the newer version (a compaction
// that zeroed the sequence numbers of old entries beside newer ones, and a
// log that RepairDB replayed into a file of its own): a get then answered the
// older value while a cursor showed the newer. A full compaction of every
// family merges by sequence number, so that gets answer what cursors see.
rocksdb::Status compact_repaired(const std::string& path, const rocksdb::Options& options,
                                 const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                                 const rocksdb::ColumnFamilyOptions& others) {
  EveryFamily db;
  rocksdb::Status s = db.Open(path, repair_open_options(options), families, others);
  if (!s.ok()) return s;
  rocksdb::CompactRangeOptions full;
  full.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  for (rocksdb::ColumnFamilyHandle* handle : db.handles()) {
    s = db.db()->CompactRange(full, handle, nullptr, nullptr);
    if (!s.ok()) return s;
  }
  return rocksdb::Status::OK();
}

// The names of the column families the database at path has: from its
// metadata, or, when that is lost, from its newest OPTIONS file; none when
// neither can be read.
std::vector<std::string> known_family_names(const std::string& path,
                                            const rocksdb::Options& options) {
  std::vector<std::string> names;
  if (rocksdb::DB::ListColumnFamilies(options, path, &names).ok()) return names;
  names.clear();
  rocksdb::DBOptions recorded_db_options;
  RecordedFamilies recorded;
  if (load_recorded_families(path, &recorded_db_options, &recorded).ok()) {
    for (const rocksdb::ColumnFamilyDescriptor& family : recorded) names.push_back(family.name);
  }
  return names;
}

// Refuses to repair a database that keeps values in blob files. RepairDB
// (RocksDB 9.10, db/repair.cc) takes table and log files only: the MANIFEST
// it writes names no blob file, so the first open deletes every one as
// obsolete, and each read of a value that was in one fails ("Invalid blob
// file number"). A repair could keep them only by recording them in the
// MANIFEST, which RocksDB's public API cannot do. Refused, before anything
// is changed: a blob file in the directory, a family whose newest OPTIONS
// file records enable_blob_files (its values may be in blob files the
// metadata alone knows of), and options given for the repair that enable
// them (its opens would write blob files RepairDB then drops). Returns OK or
// NotSupported naming what was found.
rocksdb::Status check_no_blob_files(const std::string& path, rocksdb::Env* env,
                                    const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                                    const rocksdb::ColumnFamilyOptions& others) {
  const std::string refused = "repair cannot keep blob files (RocksDB's RepairDB drops them, and every value "
                              "in them with them): ";
  std::vector<std::string> children;
  rocksdb::Status s = env->GetChildren(path, &children);
  if (!s.ok()) return s;
  for (const std::string& child : children) {
    if (has_suffix(child, ".blob")) {
      return rocksdb::Status::NotSupported(refused + "the database has blob file " + child);
    }
  }
  rocksdb::DBOptions recorded_db_options;
  RecordedFamilies recorded;
  if (load_recorded_families(path, &recorded_db_options, &recorded).ok()) {
    for (const rocksdb::ColumnFamilyDescriptor& family : recorded) {
      if (family.options.enable_blob_files) {
        return rocksdb::Status::NotSupported(refused + "column family '" + family.name +
                                             "' was last opened with enable_blob_files=true");
      }
    }
  }
  for (const rocksdb::ColumnFamilyDescriptor& family : families) {
    if (family.options.enable_blob_files) {
      return rocksdb::Status::NotSupported(refused + "the options of column family '" +
                                           family.name + "' enable blob files");
    }
  }
  if (others.enable_blob_files) {
    return rocksdb::Status::NotSupported(refused + "the options enable blob files");
  }
  return rocksdb::Status::OK();
}

// RepairDB keeps only the families it finds table files of: one that has
// none (empty, or emptied) is gone afterwards. Creates, empty and with its
// options from families (others if not named), each family in known that the
// repaired database lacks.
rocksdb::Status recreate_lost_families(const std::string& path, const rocksdb::Options& options,
                                       const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                                       const rocksdb::ColumnFamilyOptions& others,
                                       const std::vector<std::string>& known) {
  std::vector<std::string> repaired;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(options, path, &repaired);
  if (!s.ok()) return s;
  std::set<std::string> names(repaired.begin(), repaired.end());
  if (std::all_of(known.begin(), known.end(),
                  [&](const std::string& name) { return names.count(name) > 0; })) {
    return rocksdb::Status::OK();
  }
  names.insert(known.begin(), known.end());
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    descriptors.emplace_back(name, family_options(families, name, others));
  }
  rocksdb::DBOptions db_options(options);
  db_options.create_if_missing = false;
  db_options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* opened = nullptr;
  s = rocksdb::DB::Open(db_options, path, descriptors, &handles, &opened);
  if (!s.ok()) return s;
  std::unique_ptr<rocksdb::DB> db(opened);
  for (rocksdb::ColumnFamilyHandle* handle : handles) db->DestroyColumnFamilyHandle(handle);
  return db->Close();
}

}  // namespace

namespace pinrock::internal {

// Gives up one hold on a family's handle (pr_db::holds); the last frees the
// handle, and so RocksDB's state of the family once it is dropped.
void drop_hold(pr_db* family) {
  if (--family->holds > 0) return;
  pr_database& database = *family->database;
  std::unique_lock<std::shared_mutex> lock(database.mutex);
  database.db->DestroyColumnFamilyHandle(family->family);
  database.families.erase(
      std::find_if(database.families.begin(), database.families.end(),
                   [family](const std::unique_ptr<pr_db>& held) { return held.get() == family; }));
}

rocksdb::Status load_recorded_families(const std::string& path, rocksdb::DBOptions* db_options,
                                       RecordedFamilies* recorded) {
  rocksdb::ConfigOptions config;
  config.env = rocksdb::Env::Default();
  config.ignore_unknown_options = true;
  config.ignore_unsupported_options = false;
  recorded->clear();
  rocksdb::Status strict = rocksdb::LoadLatestOptions(config, path, db_options, recorded->descriptors());
  if (strict.ok()) return strict;
  recorded->clear();
  // A file RocksDB reads only when it skips the objects it cannot make names
  // one: another program's own merge operator, comparator, compaction filter
  // or prefix extractor, which the lenient read takes as none (a family that merges would
  // pass as one that cannot, and its log be replayed without its operator).
  config.ignore_unsupported_options = true;
  rocksdb::Status lenient = rocksdb::LoadLatestOptions(config, path, db_options, recorded->descriptors());
  if (!lenient.ok()) return lenient;
  return rocksdb::Status::NotSupported(
      "the OPTIONS file of " + path + " names an object pinrock cannot make (" + strict.ToString() +
      "): the database was written by a program with its own (a merge operator, comparator, "
      "compaction filter, prefix extractor, ...), and only a program that has it can open the "
      "database as it was");
}

std::string unoffered_object_error(const std::string& where,
                                   const rocksdb::ColumnFamilyOptions& recorded) {
  if (recorded.compaction_filter != nullptr ||
      (recorded.compaction_filter_factory != nullptr &&
       !is_callers_compaction_filter_factory(recorded.compaction_filter_factory.get()))) {
    return where + " has a compaction filter pinrock cannot make";
  }
  if (recorded.table_factory == nullptr ||
      !recorded.table_factory->IsInstanceOf(rocksdb::TableFactory::kBlockBasedTableName())) {
    return where + " has table factory " +
           (recorded.table_factory ? recorded.table_factory->Name() : "none") +
           "; pinrock writes block-based tables only";
  }
  return "";
}

int32_t write_names(const std::vector<std::string>& names, char* buf, size_t buf_cap,
                    uint64_t* names_len) {
  std::string joined;
  for (const std::string& name : names) joined.append(name).push_back('\0');
  *names_len = joined.size();
  size_t copied = joined.size() < buf_cap ? joined.size() : buf_cap;
  if (copied > 0) std::memcpy(buf, joined.data(), copied);
  return PR_OK;
}

// Refuses to open or repair the database at path with column family options
// its log cannot be replayed with. RocksDB replays the log with the options
// it is given: a merge into a family given no merge operator (or another
// one) cannot be applied, point-in-time recovery stops there and deletes the
// log, and that write and every later one, in every family, is gone. Each
// family the database's latest OPTIONS file records (as it was last opened)
// is compared with its options in families (others for a family not there):
// the comparator must be the same, and so must the merge operator unless the
// file records none (RocksDB's own rule: a family without one cannot have
// merges in its log). A family recorded with what pinrock gives no family
// (unoffered_object_error) is refused too. Returns OK or InvalidArgument
// naming the family and both, or the object, or an object the file records
// that pinrock cannot make (see load_recorded_families); a database without
// a readable OPTIONS file (a new one) passes.
rocksdb::Status check_recorded_family_options(
    const std::string& path, const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
    const rocksdb::ColumnFamilyOptions& others) {
  rocksdb::DBOptions recorded_db_options;
  RecordedFamilies recorded;
  rocksdb::Status loaded = load_recorded_families(path, &recorded_db_options, &recorded);
  if (loaded.IsNotSupported()) return rocksdb::Status::InvalidArgument(loaded.getState());
  if (!loaded.ok()) return rocksdb::Status::OK();
  for (const rocksdb::ColumnFamilyDescriptor& family : recorded) {
    std::string unoffered =
        unoffered_object_error("column family '" + family.name + "' of " + path, family.options);
    if (!unoffered.empty()) return rocksdb::Status::InvalidArgument(unoffered);
    const rocksdb::ColumnFamilyOptions& given = family_options(families, family.name, others);
    const std::string was = merge_operator_name(family.options.merge_operator.get());
    const std::string now = merge_operator_name(given.merge_operator.get());
    if (family.options.merge_operator != nullptr && was != now) {
      return rocksdb::Status::InvalidArgument(
          "column family '" + family.name + "' was last opened with merge operator " + was +
          ", not " + now + ": its log may hold merges only " + was +
          " applies; give the family the merge operator it was written with");
    }
    if (family.options.comparator != nullptr &&
        std::string(family.options.comparator->Name()) != given.comparator->Name()) {
      return rocksdb::Status::InvalidArgument(
          "column family '" + family.name + "' was last opened with comparator " +
          family.options.comparator->Name() + ", not " + given.comparator->Name() +
          ": its keys are in that order; give the family the comparator it was created with");
    }
  }
  return rocksdb::Status::OK();
}

}  // namespace pinrock::internal

extern "C" {

int32_t pr_options_set_family_options(pr_options_t* options, const char* name,
                                      const pr_options_t* family_options, char* err,
                                      size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->family_options[name] = std::make_shared<pr_options>(*family_options);
    return PR_OK;
  });
}

int32_t pr_db_list_families(const pr_options_t* options, const char* path, char* buf,
                            size_t buf_cap, uint64_t* names_len, char* err, size_t err_cap) {
  *names_len = 0;
  return guarded(err, err_cap, [&] {
    std::shared_ptr<rocksdb::Cache> unused_cache;
    pr_options defaults;
    rocksdb::Options rocks_options =
        to_rocksdb_options(options != nullptr ? *options : defaults, &unused_cache);
    std::vector<std::string> names;
    rocksdb::Status s = rocksdb::DB::ListColumnFamilies(rocks_options, path, &names);
    if (!s.ok()) return to_status(s.IsNotFound() ? rocksdb::Status::InvalidArgument(s.ToString()) : s,
                                  err, err_cap);
    return write_names(names, buf, buf_cap, names_len);
  });
}

int32_t pr_db_repair(const pr_options_t* options, const char* path, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::shared_ptr<rocksdb::Cache> unused_cache;
    pr_options defaults;
    const pr_options& repair_options = options != nullptr ? *options : defaults;
    rocksdb::Options rocks_options = to_rocksdb_options(repair_options, &unused_cache);
    ComparatorGate gate(rocks_options.env);
    gate.Hold(repair_options);
    rocks_options.env = gate.env();
    // RepairDB would create an empty database where there is none.
    DirectoryClaim directory;
    rocksdb::Status claimed = directory.Claim(path);
    if (claimed.IsNotFound()) {
      return invalid_argument(std::string("no database directory at ") + path, err, err_cap);
    }
    if (!claimed.ok()) return to_status(claimed, err, err_cap);
    // Every family named in the options is rebuilt with its own, the others
    // (found in table files) with the database's, as pr_db_open opens them.
    const rocksdb::ColumnFamilyOptions others(rocks_options);
    std::vector<rocksdb::ColumnFamilyDescriptor> families{{rocksdb::kDefaultColumnFamilyName, others}};
    for (const auto& [name, own] : repair_options.family_options) {
      rocksdb::ColumnFamilyOptions family(to_rocksdb_options(*own, &unused_cache));
      if (name == rocksdb::kDefaultColumnFamilyName) {
        families[0].options = family;
      } else {
        families.emplace_back(name, family);
      }
    }
    rocksdb::Status checked = claim_written_directories(path, &rocks_options, &directory);
    if (checked.ok()) checked = check_recorded_family_options(path, families, others);
    if (checked.ok()) checked = check_no_blob_files(path, rocks_options.env, families, others);
    if (checked.ok()) checked = check_no_prepared_log(path, rocks_options);
    if (!checked.ok()) return to_status(checked, err, err_cap);
    const std::vector<std::string> known = known_family_names(path, rocks_options);
    // Repair's opens, RepairDB and its compactions write through the rate
    // limiter: unlimited, so that the repair is bounded whatever the rate.
    RateLimitLift repairing(LiftableRateLimiter::Of(rocks_options.rate_limiter).get());
    settle_before_repair(path, rocks_options, families, others);
    rocksdb::Status repaired =
        rocksdb::RepairDB(path, rocksdb::DBOptions(rocks_options), families, others);
    if (!repaired.ok()) return to_status(repaired, err, err_cap);
    rocksdb::Status recreated = recreate_lost_families(path, rocks_options, families, others, known);
    if (!recreated.ok()) return to_status(recreated, err, err_cap);
    return to_status(compact_repaired(path, rocks_options, families, others), err, err_cap);
  });
}

int32_t pr_db_family_names(pr_db_t* db, char* buf, size_t buf_cap, uint64_t* names_len,
                           char* err, size_t err_cap) {
  *names_len = 0;
  return guarded(err, err_cap, [&] {
    std::vector<std::string> names;
    std::shared_lock<std::shared_mutex> lock(db->database->mutex);
    for (const auto& [name, family] : db->database->open_families) names.push_back(name);
    return write_names(names, buf, buf_cap, names_len);
  });
}

int32_t pr_db_family(pr_db_t* db, const char* name, pr_db_t** family_out, char* err,
                     size_t err_cap) {
  *family_out = nullptr;
  return guarded(err, err_cap, [&] {
    std::shared_lock<std::shared_mutex> lock(db->database->mutex);
    auto found = db->database->open_families.find(name);
    if (found == db->database->open_families.end()) return PR_NOT_FOUND;
    *family_out = found->second;
    return PR_OK;
  });
}

int32_t pr_db_create_family(pr_db_t* db, const pr_options_t* family_options, const char* name,
                            pr_db_t** family_out, char* err, size_t err_cap) {
  *family_out = nullptr;
  return guarded(err, err_cap, [&] {
    pr_database& database = *db->database;
    auto family = std::make_unique<pr_db>();
    family->db = db->db;
    family->database = &database;
    family->name = name;
    rocksdb::ColumnFamilyOptions options = database.default_family_options;
    family->block_cache = database.default_block_cache;
    family->merge_operator = database.default_merge_operator;
    family->ordered_by_caller = database.default_ordered_by_caller;
    if (family_options != nullptr) {
      options = rocksdb::ColumnFamilyOptions(to_rocksdb_options(*family_options, &family->block_cache));
      family->merge_operator = family_options->merge_operator_kind;
      family->ordered_by_caller = family_options->caller_comparator != nullptr;
      database.gate->Hold(*family_options);
    }
    std::unique_lock<std::shared_mutex> lock(database.mutex);
    auto dropped = database.dropped_comparators.find(name);
    if (dropped != database.dropped_comparators.end()) {
      for (const std::string& comparator : dropped->second) {
        if (comparator != options.comparator->Name()) {
          return invalid_argument(
              std::string("column family '") + name + "' was dropped since the database opened, when "
              "its keys were in the order of " + comparator + ", not " + options.comparator->Name() +
              ": RocksDB would refuse to open the database until it forgets the dropped family, "
              "which its next open does. Reopen the database first, or give the family another name",
              err, err_cap);
        }
      }
    }
    rocksdb::Status s = db->db->CreateColumnFamily(options, name, &family->family);
    if (!s.ok()) return to_status(s, err, err_cap);
    *family_out = family.get();
    database.open_families[name] = family.get();
    database.families.push_back(std::move(family));
    return PR_OK;
  });
}

int32_t pr_db_drop_family(pr_db_t* family, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    std::unique_lock<std::shared_mutex> lock(family->database->mutex);
    rocksdb::Status s = check_no_prepared_transactions(*family->database);
    // A pessimistic database's family is dropped through its base database,
    // skipping RocksDB 9.10's PessimisticTransactionDB::DropColumnFamily:
    // after the drop it runs PointLockManager::RemoveColumnFamily, which
    // deletes every thread's cache of lock maps, also one another thread is
    // reading in GetLockMap at that moment (any write, read for update,
    // commit or rollback of the database: a use-after-free that crashed a
    // program dropping families while others wrote). So the family's lock
    // map stays with the lock manager until the database closes (a few KB
    // per dropped family), and the locks transactions hold on its keys are
    // released as usual.
    rocksdb::DB* dropping = family->database->pessimistic != nullptr
                                ? family->database->pessimistic->GetBaseDB()
                                : family->db;
    if (s.ok()) s = dropping->DropColumnFamily(family->family);
    if (!s.ok()) return to_status(s, err, err_cap);
    family->database->open_families.erase(family->name);
    family->database->dropped_comparators[family->name].insert(
        family->family->GetComparator()->Name());
    family->dropped = true;
    return PR_OK;
  });
}

int32_t pr_db_family_release(pr_db_t* family, char* err, size_t err_cap) {
  if (family->owned) return invalid_argument("the default family cannot be released", err, err_cap);
  if (!family->dropped) {
    return invalid_argument("column family '" + family->name + "' is not dropped", err, err_cap);
  }
  return guarded(err, err_cap, [&] {
    drop_hold(family);
    return PR_OK;
  });
}

uint32_t pr_db_family_id(pr_db_t* family) { return family->family->GetID(); }

}  // extern "C"
