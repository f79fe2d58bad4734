// OPTIONS files, as a database directory may hold them (written by any
// RocksDB program, damaged, or hostile): the input is written as the
// directory's only OPTIONS file and read with pr_options_latest. A file
// RocksDB or pinrock refuses is fine (a status with a message). What it
// returns must be texts pr_options_set_string, pr_options_set_merge_operator
// and pr_options_set_comparator take back or refuse with
// PR_CODE_INVALID_ARGUMENT, and an open with what
// they accept may fail with a status, but must not crash; a database that
// opened takes a write (a refused or failed one is a finding: one put cannot
// meet a write stall), reads it back, closes, and reopens with the same
// options (error_if_exists off) to read it back again.
#include "fuzz_common.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace pinrock_fuzz;

namespace {

// A directory of its own for the OPTIONS file, made once per process.
const std::string& Directory() {
  static const std::string directory = [] {
    char name[] = "/tmp/pinrock-options-file-fuzz-XXXXXX";
    FUZZ_CHECK(mkdtemp(name) != nullptr, "mkdtemp");
    return std::string(name);
  }();
  return directory;
}

// key reads back as value.
void ReadsBack(pr_db_t* db, const std::string& key, const std::string& value, char* err, size_t err_cap) {
  bool found = false;
  FUZZ_CHECK(GetValue(db, key, &found, err, err_cap) == value && found, "a written key reads back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = Directory() + "/OPTIONS-000005";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  char err[1024];
  std::vector<char> buf(1 << 16);
  uint64_t length = 0;
  int32_t status = pr_options_latest(Directory().c_str(), buf.data(), buf.size(), &length, err, sizeof err);
  if (status == PR_OK && length > buf.size()) {
    buf.resize(length);
    status = pr_options_latest(Directory().c_str(), buf.data(), buf.size(), &length, err, sizeof err);
  }
  if (status != PR_OK) {
    FUZZ_CHECK(err[0] != '\0', "a refused OPTIONS file gets a message");
    return 0;
  }
  FUZZ_CHECK(length <= buf.size(), "the texts fit the buffer they were measured for");
  std::vector<std::string> texts;
  for (size_t pos = 0; pos < length; pos += texts.back().size() + 1) texts.emplace_back(buf.data() + pos);
  FUZZ_CHECK(texts.size() % 5 == 1, "the database's text, then five texts per family");

  std::shared_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  pr_options_t* options = pr_options_create();
  pinrock_testing_set_env(options, env);
  pr_options_set_create_if_missing(options, 1);
  auto accepted = [&](int32_t result) {
    FUZZ_CHECK(result == PR_OK || result == PR_CODE_INVALID_ARGUMENT, err);
  };
  accepted(pr_options_set_string(options, PR_OPTION_SCOPE_DB, texts[0].c_str(), err, sizeof err));
  // The default family's texts: the first family the file names.
  if (texts.size() >= 6) {
    if (!texts[2].empty()) accepted(pr_options_set_merge_operator(options, texts[2].c_str(), err, sizeof err));
    accepted(pr_options_set_comparator(options, texts[3].c_str(), err, sizeof err));
    accepted(pr_options_set_string(options, PR_OPTION_SCOPE_FAMILY, texts[4].c_str(), err, sizeof err));
    accepted(pr_options_set_string(options, PR_OPTION_SCOPE_TABLE, texts[5].c_str(), err, sizeof err));
  }
  pr_db_t* db = nullptr;
  if (pr_db_open(options, "/db", &db, err, sizeof err) == PR_OK) {
    const std::string key = "key", value = "value";
    FUZZ_CHECK(pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err, sizeof err) == PR_OK,
               err);
    ReadsBack(db, key, value, err, sizeof err);
    FUZZ_CHECK(pr_db_close(db, err, sizeof err) == PR_OK, err);
    // The database exists now: a reopen must not refuse it for that.
    pr_options_set_error_if_exists(options, 0);
    FUZZ_CHECK(pr_db_open(options, "/db", &db, err, sizeof err) == PR_OK, err);
    ReadsBack(db, key, value, err, sizeof err);
    FUZZ_CHECK(pr_db_close(db, err, sizeof err) == PR_OK, err);
  }
  pr_options_destroy(options);
  return 0;
}
