// Option strings, as a user passes them and RocksDB's parsers read them: the
// input holds up to three NUL-separated texts, one per scope (database,
// column family, table), then bytes for keys and values. A text pinrock
// refuses is fine (PR_CODE_INVALID_ARGUMENT, nothing changed). With what it
// accepts, an open may fail with a status (RocksDB validates some
// combinations only then, and an in-memory Env has no direct I/O); an open
// database must take writes, answer reads and cursors, flush, compact and
// reopen without a crash or sanitizer report, never answer a value that was
// not written for its key, and its cursors must see every entry. Entries may be missing only where the options ask
// RocksDB to drop data (FIFO compaction, time to live, a WAL flushed by
// hand), which a user chooses.
#include "fuzz_common.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace pinrock_fuzz;

namespace {

constexpr int32_t kScopes[] = {PR_OPTION_SCOPE_DB, PR_OPTION_SCOPE_FAMILY, PR_OPTION_SCOPE_TABLE};

// Whether the accepted texts ask RocksDB to drop or hold back entries.
bool MayDropEntries(const std::string& texts) {
  for (const char* dropping : {"FIFO", "ttl", "periodic_compaction"}) {
    if (texts.find(dropping) != std::string::npos) return true;
  }
  return false;
}

// Every written entry that is found has the value last written for it.
void CheckReads(pr_db_t* db, const std::map<std::string, std::string>& written, bool may_drop,
                char* err, size_t err_cap) {
  for (const auto& [key, value] : written) {
    pr_get_result_t result{};
    int32_t status = pr_db_get(db, bytes(key), key.size(), nullptr, 0, PR_GET_PIN_IF_LARGER,
                               &result, err, err_cap);
    FUZZ_CHECK(status == PR_OK || status == PR_NOT_FOUND, err);
    FUZZ_CHECK(status == PR_OK || may_drop, "a written entry is missing");
    if (status == PR_OK && result.pin != nullptr) {
      std::string read(reinterpret_cast<const char*>(result.data), result.value_len);
      pr_pin_release(result.pin);
      FUZZ_CHECK(read == value, "a read answers a value not written for its key");
    }
  }
}

// A cursor sees every written entry in order, and a seek to a written key
// (or to a prefix of it) lands at or before it, whatever prefix extractor
// and filters the options set.
void CheckCursor(pr_db_t* db, const std::map<std::string, std::string>& written, bool may_drop,
                 char* err, size_t err_cap) {
  pr_cursor_t* cursor = nullptr;
  FUZZ_CHECK(pr_cursor_open(db, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0, &cursor, err, err_cap) == PR_OK,
             err);
  pr_cursor_entry_t entry;
  std::map<std::string, std::string> seen;
  for (int32_t status = pr_cursor_move(cursor, PR_CURSOR_FIRST, nullptr, 0, &entry, err, err_cap);
       status == PR_OK; status = pr_cursor_move(cursor, PR_CURSOR_NEXT, nullptr, 0, &entry, err, err_cap)) {
    seen[std::string(reinterpret_cast<const char*>(entry.key), entry.key_len)]
        .assign(reinterpret_cast<const char*>(entry.value), entry.value_len);
  }
  FUZZ_CHECK(may_drop ? seen.size() <= written.size() : seen == written, "a cursor misses written entries");
  // Seeks to each key, to its first two and three bytes, and to those with
  // the last one raised (prefixes no key may have): each lands on the first
  // written key at or after the target.
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
      if (may_drop) continue;
      FUZZ_CHECK((status == PR_OK) == (expected != written.end()), "a seek finds no key where one is");
      if (status == PR_OK) {
        FUZZ_CHECK(std::string(reinterpret_cast<const char*>(entry.key), entry.key_len) == expected->first,
                   "a seek lands on another key than the first at or after its target");
      }
    }
  }
  pr_cursor_close(cursor);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string all(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  pr_options_t* options = pr_options_create();
  pr_options_set_create_if_missing(options, 1);
  pinrock_testing_set_env(options, env);
  char err[1024];
  size_t pos = 0;
  std::string accepted;
  for (int32_t scope : kScopes) {
    if (pos > all.size()) break;
    std::string text = all.c_str() + pos;
    pos += text.size() + 1;
    int32_t status = pr_options_set_string(options, scope, text.c_str(), err, sizeof err);
    FUZZ_CHECK(status == PR_OK || status == PR_CODE_INVALID_ARGUMENT, err);
    if (status == PR_OK) accepted += text + ";";
  }
  Input rest(pos < size ? data + pos : data, pos < size ? size - pos : 0);

  pr_db_t* db = nullptr;
  if (pr_db_open(options, "/db", &db, err, sizeof err) != PR_OK) {
    FUZZ_CHECK(db == nullptr, "a failed open hands out no handle");
    pr_options_destroy(options);
    return 0;
  }
  bool may_drop = MayDropEntries(accepted);
  std::map<std::string, std::string> written;
  for (int i = 0; i < 64 && !rest.Done(); i++) {
    std::string key = "k" + rest.Short(12);
    std::string value = rest.Short(200);
    int32_t status = pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err, sizeof err);
    if (status != PR_OK) break;  // e.g. a write stall the options made, reported as a status
    written[key] = value;
    if (i % 16 == 15) pr_db_flush(db, err, sizeof err);
  }
  CheckReads(db, written, may_drop, err, sizeof err);
  CheckCursor(db, written, may_drop, err, sizeof err);
  pr_db_flush(db, err, sizeof err);
  pr_db_compact_range(db, nullptr, 0, nullptr, 0, 0, err, sizeof err);
  CheckReads(db, written, may_drop, err, sizeof err);
  FUZZ_CHECK(pr_db_close(db, err, sizeof err) == PR_OK, err);
  db = nullptr;
  if (pr_db_open(options, "/db", &db, err, sizeof err) == PR_OK) {
    CheckReads(db, written, may_drop, err, sizeof err);
    CheckCursor(db, written, may_drop, err, sizeof err);
    FUZZ_CHECK(pr_db_close(db, err, sizeof err) == PR_OK, err);
  }
  pr_options_destroy(options);
  return 0;
}
