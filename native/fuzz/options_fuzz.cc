// Option strings, as a user passes them and RocksDB's parsers read them,
// at open and while open. The input holds up to three NUL-separated texts,
// one per scope (database, column family, table), then up to seven
// name=value texts whose names are RocksDB's own (as it writes them for the
// scope) with a default, flipped, small or fuzzed value, then steps. A text pinrock
// refuses is fine (PR_CODE_INVALID_ARGUMENT, nothing changed). With what it
// accepts, the first open may fail with a status (RocksDB validates some
// combinations only then, and an in-memory file system has no direct I/O).
// Once a database opened, the steps write (through the log, synced or not,
// or without it), delete, flush, compact, change options while open
// (pr_db_set_options, such name=value texts of the database or column
// family scope), check reads, close and reopen it with the same options,
// kill the process (from then on nothing reaches the files) and cut the
// power. The files are in memory, under the power-cut file system of the
// native power-loss test (power_cut_file_system.h), which also cuts the
// power by itself after a number of changes the input may choose: also in
// the middle of a write, flush, compaction, close or open.
//
// What must hold (docs/reliability.md, section 2, says why for each):
//  - with the power on, a write (PR_WRITE_NO_SLOWDOWN) succeeds or fails
//    with PR_CODE_INCOMPLETE: a write stall the options make (without
//    PR_WRITE_NO_SLOWDOWN it would wait out a stall that may last for
//    good with these options); a flush, a compaction and a close succeed,
//    and so does a reopen with the same options (error_if_exists off);
//  - a change of options while open succeeds or is refused with
//    PR_CODE_INVALID_ARGUMENT;
//  - exact answers: a full scan, and a get of every key it finds or that
//    was written, agree (present with the same value, or absent);
//  - a close keeps every acknowledged write: after a reopen the scan is
//    exactly the acknowledged writes (also those without the log), and a
//    cursor's seeks (to keys, their prefixes, and prefixes no key has) land
//    on the first key at or after the target;
//  - a kill keeps every write through the log and every write before a
//    flush that returned; a power cut every durable write (a synced one,
//    with every logged write before it, and every write before a flush
//    that returned): after either the database opens, and holds each key
//    as its last such write left it or as a later write did, nothing
//    else. Only
//    wal_recovery_mode kTolerateCorruptedTailRecords and
//    kAbsoluteConsistency may refuse that open (PR_CODE_CORRUPTION), as
//    chosen.
// Entries may be missing only where the options ask RocksDB to drop data
// (FIFO compaction, time to live), which a user chooses; then what is found
// must still be what was written for its key.
// A close, flush, compaction or open that never returns is a finding too:
// libFuzzer's -timeout (run-target.sh) reports the input.
#include "fuzz_common.h"
#include "internal.h"
#include "../test/power_cut_file_system.h"

#include <rocksdb/convenience.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace pinrock_fuzz;

namespace {

constexpr int32_t kScopes[] = {PR_OPTION_SCOPE_DB, PR_OPTION_SCOPE_FAMILY, PR_OPTION_SCOPE_TABLE};

// RocksDB's option string of its defaults for a scope, "name=value;...",
// split into (name, value) at the top level (values may hold braces).
std::vector<std::pair<std::string, std::string>> DefaultsOf(int32_t scope) {
  rocksdb::ConfigOptions config;
  config.delimiter = ";";
  std::string text;
  rocksdb::Status s;
  if (scope == PR_OPTION_SCOPE_DB) {
    s = rocksdb::GetStringFromDBOptions(config, rocksdb::DBOptions(), &text);
  } else if (scope == PR_OPTION_SCOPE_FAMILY) {
    s = rocksdb::GetStringFromColumnFamilyOptions(config, rocksdb::ColumnFamilyOptions(), &text);
  } else {
    std::unique_ptr<rocksdb::TableFactory> table(rocksdb::NewBlockBasedTableFactory());
    s = table->GetOptionString(config, &text);
  }
  FUZZ_CHECK(s.ok(), "RocksDB writes its default options");
  std::vector<std::pair<std::string, std::string>> options;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i <= text.size(); i++) {
    if (i < text.size() && text[i] == '{') depth++;
    if (i < text.size() && text[i] == '}') depth--;
    if (i < text.size() && (text[i] != ';' || depth > 0)) continue;
    std::string option = text.substr(start, i - start);
    start = i + 1;
    size_t eq = option.find('=');
    if (eq != std::string::npos) options.emplace_back(option.substr(0, eq), option.substr(eq + 1));
  }
  return options;
}

// A name=value text of scope: one of RocksDB's own names for it, with its
// default value, the default's opposite (a flag) or 0, 1, or fuzzed bytes.
std::string OptionText(int32_t scope, Input& in) {
  static const auto kDatabase = DefaultsOf(PR_OPTION_SCOPE_DB);
  static const auto kFamily = DefaultsOf(PR_OPTION_SCOPE_FAMILY);
  static const auto kTable = DefaultsOf(PR_OPTION_SCOPE_TABLE);
  const auto& options = scope == PR_OPTION_SCOPE_DB       ? kDatabase
                        : scope == PR_OPTION_SCOPE_FAMILY ? kFamily
                                                          : kTable;
  uint16_t pick = static_cast<uint16_t>(in.Byte() | in.Byte() << 8);
  const auto& [name, value] = options[pick % options.size()];
  switch (pick >> 14) {
    case 0:
      return name + "=" + value;
    case 1:
      return name + "=" + (value == "false" ? "true" : value == "true" ? "false" : "0");
    case 2:
      return name + "=1";
    default:
      return name + "=" + in.Short(24);
  }
}

// Whether the accepted texts ask RocksDB to drop or hold back entries.
bool MayDropEntries(const std::string& texts) {
  for (const char* dropping : {"FIFO", "ttl", "periodic_compaction"}) {
    if (texts.find(dropping) != std::string::npos) return true;
  }
  return false;
}

// A seek to a written key (or to a prefix of it) lands on the first key at
// or after it, whatever prefix extractor and filters the options set.
void CheckSeeks(pr_db_t* db, const std::map<std::string, std::string>& written, char* err,
                size_t err_cap) {
  pr_cursor_t* cursor = nullptr;
  FUZZ_CHECK(pr_cursor_open(db, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0, &cursor, err, err_cap) == PR_OK,
             err);
  pr_cursor_entry_t entry;
  for (const auto& [key, value] : written) {
    std::vector<std::string> targets = {key};
    for (size_t length : {2, 3}) {
      std::string prefix = key.substr(0, length);
      targets.push_back(prefix);
      if (static_cast<uint8_t>(prefix.back()) != 0xFF) prefix.back()++;
      targets.push_back(prefix);
    }
    for (const std::string& target : targets) {
      auto expected = written.lower_bound(target);
      int32_t status = pr_cursor_move(cursor, PR_CURSOR_SEEK, bytes(target), target.size(), &entry, err,
                                      err_cap);
      FUZZ_CHECK(status == PR_OK || status == PR_NOT_FOUND, err);
      FUZZ_CHECK((status == PR_OK) == (expected != written.end()), "a seek finds no key where one is");
      if (status == PR_OK) {
        FUZZ_CHECK(std::string(reinterpret_cast<const char*>(entry.key), entry.key_len) == expected->first,
                   "a seek lands on another key than the first at or after its target");
      }
    }
  }
  pr_cursor_close(cursor);
}

// One version of a key since the last power cut: the value a write left
// (none: deleted), whether it went through the log, and whether it is
// durable: a flush returned after it, or (logged) a synced write did.
struct Version {
  std::optional<std::string> value;
  bool logged;
  bool durable;
};

// What the database must hold: the acknowledged writes (each key's last
// value), for a close and reopen, which keeps them all; and each key's
// versions since the last power cut, for the next one, which keeps a key's
// last durable version or a later one.
class Model {
 public:
  // A write of key (value, or none for a delete); acknowledged false: the
  // power went during it, so it may or may not have been applied.
  void Wrote(const std::string& key, const std::optional<std::string>& value, bool logged,
             bool acknowledged) {
    versions_[key].push_back({value, logged, false});
    if (!acknowledged) return;
    if (value) {
      written_[key] = *value;
    } else {
      written_.erase(key);
    }
  }
  // Every logged write so far is durable: a synced write returned (the log
  // is synced, with every logged write before it), or the process dies
  // (what reached the log's file stays, in the page cache).
  void LogDurable() { MarkDurable(true); }
  // A flush returned: every write before it is in a synced table file.
  void Flushed() { MarkDurable(false); }

  // Whether, after a power cut or a kill, key may be found as found (none:
  // absent): as its last durable version left it, or as a later one did; absent
  // also when nothing durable wrote it (and, with options that drop
  // entries, always).
  bool MayHoldAfterPowerCut(const std::string& key, const std::optional<std::string>& found,
                            bool may_drop) const {
    auto versions = versions_.find(key);
    if (versions == versions_.end()) return !found;
    const std::vector<Version>& all = versions->second;
    size_t first = all.size();
    while (first > 0 && !all[first - 1].durable) first--;
    if (first > 0) first--;  // the last durable version, else the first
    bool durable_before = first < all.size() && all[first].durable;
    if (!found && (!durable_before || may_drop)) return true;
    for (size_t i = first; i < all.size(); i++) {
      if (all[i].value == found) return true;
    }
    return false;
  }

  // After a power cut: entries, as found, are what the database holds, and
  // durable (the files the cut left are on disk).
  void Restart(const std::map<std::string, std::string>& entries) {
    written_ = entries;
    versions_.clear();
    for (const auto& [key, value] : entries) versions_[key].push_back({value, true, true});
  }

  const std::map<std::string, std::string>& written() const { return written_; }
  // Every key written since the last power cut, or found after it.
  std::vector<std::string> keys() const {
    std::vector<std::string> keys;
    for (const auto& [key, unused] : versions_) keys.push_back(key);
    return keys;
  }

 private:
  void MarkDurable(bool logged_only) {
    for (auto& [key, versions] : versions_) {
      for (Version& version : versions) version.durable |= version.logged || !logged_only;
    }
  }

  std::map<std::string, std::string> written_;
  std::map<std::string, std::vector<Version>> versions_;
};

// Exact answers: a full scan, and a get of each key it finds or keys
// names, agree (present with the same value, or absent; with options that
// drop entries a key may also go between the two). Returns the scan.
std::map<std::string, std::string> ScanAgreeingWithGets(pr_db_t* db,
                                                       const std::vector<std::string>& keys,
                                                       bool may_drop, char* err, size_t err_cap) {
  std::map<std::string, std::string> seen = ScanAll(db, err, err_cap);
  std::vector<std::string> all = keys;
  for (const auto& [key, unused] : seen) all.push_back(key);
  for (const std::string& key : all) {
    bool found = false;
    std::string read = GetValue(db, key, &found, err, err_cap);
    auto scanned = seen.find(key);
    if (may_drop && found != (scanned != seen.end())) continue;  // dropped between
    FUZZ_CHECK(found == (scanned != seen.end()), "a get and a full scan disagree on a key");
    FUZZ_CHECK(!found || read == scanned->second, "a get and a full scan disagree on a value");
  }
  return seen;
}

// With the power on all along: the answers are exact and hold every
// acknowledged write (with options that drop entries, only such writes).
void CheckReads(pr_db_t* db, const Model& model, bool may_drop, char* err, size_t err_cap) {
  const std::map<std::string, std::string>& written = model.written();
  std::vector<std::string> keys;
  for (const auto& [key, unused] : written) keys.push_back(key);
  std::map<std::string, std::string> seen = ScanAgreeingWithGets(db, keys, may_drop, err, err_cap);
  for (const auto& [key, value] : seen) {
    auto last = written.find(key);
    FUZZ_CHECK(last != written.end() && last->second == value,
               "a scan answers an entry not written (or not last written) for its key");
  }
  FUZZ_CHECK(may_drop || seen.size() == written.size(), "an acknowledged write is missing");
  if (!may_drop) CheckSeeks(db, written, err, err_cap);
}

// The database's files: an in-memory file system, seen through a power-cut
// file system (power_cut_file_system.h) that a power cut replaces: the
// files the cut left are on disk, durable, for the next.
class Power {
 public:
  Power() : memory_(rocksdb::NewMemEnv(rocksdb::Env::Default())) {}

  // Turns the power on, for databases options open from now on: the power
  // goes after a number of changes the input chooses (most often never, only
  // at Cut), or never when cut_may_come is false.
  void TurnOn(pr_options_t* options, Input& in, bool cut_may_come) {
    uint8_t when = in.Byte();
    uint64_t cut_after_ops = cut_may_come && when < 64 ? uint64_t{when} * 8 : UINT64_MAX;
    auto mode = in.Byte() & 1 ? pinrock_power_cut::PowerLoss::kUnsyncedDataAndNames
                              : pinrock_power_cut::PowerLoss::kUnsyncedData;
    file_system_ = std::make_shared<pinrock_power_cut::PowerCutFileSystem>(
        memory_->GetFileSystem(),
        [](const std::string& problem) { FUZZ_CHECK(false, problem.c_str()); }, mode, "/db",
        cut_after_ops, in.Byte());
    env_ = rocksdb::NewCompositeEnv(file_system_);
    pinrock_testing_set_env(options, env_);
  }
  bool cut() const { return file_system_->cut(); }
  void Cut() { file_system_->Cut(); }
  // Puts the files back as the cut left them; the database is closed.
  void Revert() { file_system_->Revert(); }

 private:
  std::unique_ptr<rocksdb::Env> memory_;
  std::shared_ptr<pinrock_power_cut::PowerCutFileSystem> file_system_;
  std::shared_ptr<rocksdb::Env> env_;
};

// One input's database: its options, files and model, and the input's
// steps still to come.
struct Run {
  Run(pr_options_t* options, Input in) : options(options), in(in) {}

  pr_options_t* options;
  Input in;
  Power power;
  Model model;
  pr_db_t* db = nullptr;
  bool may_drop = false;
  char err[1024] = {0};

  // status is PR_OK, unless the power is cut (then the call may fail).
  void Require(int32_t status) { FUZZ_CHECK(status == PR_OK || power.cut(), err); }

  // Opens the database; when the power goes while it opens, puts the files
  // back as the cut left them and opens once more with the power on.
  // Returns the open's status (db is set on PR_OK).
  int32_t Open() {
    int32_t status = pr_db_open(options, "/db", &db, err, sizeof err);
    if (status != PR_OK && power.cut()) {
      power.Revert();
      power.TurnOn(options, in, false);
      status = pr_db_open(options, "/db", &db, err, sizeof err);
    }
    if (status != PR_OK) FUZZ_CHECK(db == nullptr, "a failed open hands out no handle");
    return status;
  }

  // Closes the database and opens it again with the same options: with the
  // power on, both succeed, and the close kept every acknowledged write.
  void Reopen() {
    Require(pr_db_close(db, err, sizeof err));
    db = nullptr;
    if (power.cut()) return;
    Require(pr_db_open(options, "/db", &db, err, sizeof err));
    if (db != nullptr) CheckReads(db, model, may_drop, err, sizeof err);
  }

  // Cuts the power (unless it is already), or kills the process (kill:
  // from now on nothing reaches the files, but what did stays, as the page
  // cache keeps it), closes the database (what the close could not write is
  // lost), puts the files back as the cut left them (not after a kill),
  // and opens the database: every durable write survived, and nothing else
  // than the model allows is there. Returns false when the open is refused
  // as the options allow (a wal_recovery_mode that refuses a damaged log
  // tail); db is then null.
  bool SurviveCrash(bool kill) {
    power.Cut();
    if (db != nullptr) pr_db_close(db, err, sizeof err);  // fails: nothing reaches the files
    db = nullptr;
    if (kill) {
      model.LogDurable();
    } else {
      power.Revert();
    }
    power.TurnOn(options, in, true);
    int32_t status = Open();
    if (status != PR_OK) {
      FUZZ_CHECK(PR_STATUS_CODE(status) == PR_CODE_CORRUPTION && TailDamageFailsOpen(), err);
      return false;
    }
    std::vector<std::string> keys = model.keys();
    std::map<std::string, std::string> seen = ScanAgreeingWithGets(db, keys, may_drop, err, sizeof err);
    for (const auto& [key, value] : seen) keys.push_back(key);
    for (const std::string& key : keys) {
      auto found = seen.find(key);
      FUZZ_CHECK(model.MayHoldAfterPowerCut(
                     key, found == seen.end() ? std::nullopt : std::optional<std::string>(found->second),
                     may_drop),
                 kill ? "after a kill a key holds neither its last logged or flushed write nor a later one"
                      : "after a power cut a key holds neither its last durable write nor a later one");
    }
    model.Restart(seen);
    return true;
  }

  // Whether the options' wal_recovery_mode refuses an open over a log whose
  // tail a power cut damaged (kTolerateCorruptedTailRecords,
  // kAbsoluteConsistency), as docs/reliability.md says they may.
  bool TailDamageFailsOpen() const {
    return options->db.wal_recovery_mode == rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords ||
           options->db.wal_recovery_mode == rocksdb::WALRecoveryMode::kAbsoluteConsistency;
  }

  // A put (value) or delete (none) of key with flags; the model learns
  // what it did.
  void Write(const std::string& key, const std::optional<std::string>& value, uint32_t flags) {
    rocksdb::WriteBatch batch;
    FUZZ_CHECK((value ? batch.Put(key, *value) : batch.Delete(key)).ok(), "a batch takes a write");
    const std::string& rep = batch.Data();
    int32_t status = pr_db_write(db, bytes(rep), rep.size(), flags | PR_WRITE_NO_SLOWDOWN, err, sizeof err);
    bool stalled = PR_STATUS_CODE(status) == PR_CODE_INCOMPLETE;
    FUZZ_CHECK(status == PR_OK || stalled || power.cut(), err);
    if (stalled) return;
    bool logged = (flags & PR_WRITE_DISABLE_WAL) == 0;
    model.Wrote(key, value, logged, status == PR_OK);
    if (status == PR_OK && (flags & PR_WRITE_SYNC) != 0) model.LogDurable();
  }
};

// How a step writes: through the log, synced or not, or without it.
constexpr uint32_t kWriteFlags[] = {0, PR_WRITE_SYNC, PR_WRITE_DISABLE_WAL};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string all(reinterpret_cast<const char*>(data), size);
  pr_options_t* options = pr_options_create();
  pr_options_set_create_if_missing(options, 1);
  char err[1024];
  std::string accepted;  // the texts pinrock took
  auto apply = [&](int32_t scope, const std::string& text) {
    int32_t status = pr_options_set_string(options, scope, text.c_str(), err, sizeof err);
    FUZZ_CHECK(status == PR_OK || status == PR_CODE_INVALID_ARGUMENT, err);
    if (status == PR_OK) accepted += text + ";";
  };
  size_t pos = 0;
  for (int32_t scope : kScopes) {
    if (pos > all.size()) break;
    std::string text = all.c_str() + pos;
    pos += text.size() + 1;
    apply(scope, text);
  }
  Run run(options, Input(pos < size ? data + pos : data, pos < size ? size - pos : 0));
  // Then up to 7 texts of RocksDB's own names.
  for (int picks = run.in.Byte() % 8; picks > 0; picks--) {
    int32_t scope = kScopes[run.in.Byte() % std::size(kScopes)];
    apply(scope, OptionText(scope, run.in));
  }
  run.power.TurnOn(options, run.in, true);
  if (run.Open() != PR_OK) {
    pr_options_destroy(options);
    return 0;
  }
  // The database exists now: a reopen must not refuse it for that.
  pr_options_set_error_if_exists(options, 0);
  bool opened = true;
  for (int step = 0; step < 96 && opened && !run.in.Done(); step++) {
    run.may_drop = MayDropEntries(accepted);
    uint8_t choice = run.in.Byte();
    bool killed = false;  // a cut this step is a kill of the process
    uint32_t flags = kWriteFlags[choice / 12 % std::size(kWriteFlags)];
    switch (choice % 12) {
      case 0:
      case 1:
      case 2:
      case 3: {
        std::string key = "k" + run.in.Short(12);
        run.Write(key, run.in.Short(200), flags);
        break;
      }
      case 4:
        run.Write("k" + run.in.Short(12), std::nullopt, flags);
        break;
      case 5: {
        int32_t status = pr_db_flush(run.db, run.err, sizeof run.err);
        run.Require(status);
        if (status == PR_OK) run.model.Flushed();
        break;
      }
      case 6:
        run.Require(pr_db_compact_range(run.db, nullptr, 0, nullptr, 0, 0, run.err, sizeof run.err));
        break;
      case 7: {
        int32_t scope = choice & 0x10 ? PR_OPTION_SCOPE_DB : PR_OPTION_SCOPE_FAMILY;
        std::string text = OptionText(scope, run.in);
        int32_t status = pr_db_set_options(run.db, scope, text.c_str(), run.err, sizeof run.err);
        FUZZ_CHECK(status == PR_OK || PR_STATUS_CODE(status) == PR_CODE_INVALID_ARGUMENT || run.power.cut(),
                   run.err);
        if (status == PR_OK) accepted += text + ";";
        break;
      }
      case 8:
        CheckReads(run.db, run.model, run.may_drop, run.err, sizeof run.err);
        break;
      case 9:
        run.Reopen();
        break;
      case 10:
        killed = choice & 0x10;
        run.power.Cut();
        break;
      default:
        run.Write("k" + run.in.Short(12), run.in.Short(200), flags);
    }
    if (run.power.cut()) opened = run.SurviveCrash(killed);
  }
  if (opened) {
    run.may_drop = MayDropEntries(accepted);
    run.Reopen();
    if (run.power.cut()) opened = run.SurviveCrash(false);
  }
  if (opened) run.Require(pr_db_close(run.db, run.err, sizeof run.err));
  pr_options_destroy(options);
  return 0;
}
