// What the fuzz targets share: a database kept in memory (an Env of its own
// per database, so one input cannot affect the next), and checks that abort,
// which libFuzzer reports as a crash with the input that caused it.
#ifndef PINROCK_FUZZ_COMMON_H
#define PINROCK_FUZZ_COMMON_H

#include "pinrock.h"
#include "testing.h"

#include <rocksdb/env.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

// Aborts (a finding) when cond is false; what names the broken expectation.
#define FUZZ_CHECK(cond, what)                                                \
  do {                                                                        \
    if (!(cond)) {                                                            \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s (%s)\n", __FILE__, \
                   __LINE__, what, #cond);                                    \
      std::abort();                                                           \
    }                                                                         \
  } while (0)

namespace pinrock_fuzz {

inline const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// Reads the input front to back; past its end every read yields zeros/empty.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // A string of up to max_len bytes, its length taken from one byte.
  std::string Short(size_t max_len) {
    size_t len = Byte() % (max_len + 1);
    return Take(len);
  }
  std::string Take(size_t len) {
    if (len > size_ - pos_) len = size_ - pos_;
    std::string s(reinterpret_cast<const char*>(data_ + pos_), len);
    pos_ += len;
    return s;
  }
  std::string Rest() { return Take(size_ - pos_); }
  bool Done() const { return pos_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Every entry of db (a database or a family), read by a cursor from first
// to last; the keys must ascend.
inline std::map<std::string, std::string> ScanAll(pr_db_t* db, char* err, size_t err_cap) {
  std::map<std::string, std::string> entries;
  pr_cursor_t* cursor = nullptr;
  FUZZ_CHECK(pr_cursor_open(db, nullptr, 0, 0, nullptr, 0, nullptr, 0, 0, &cursor, err, err_cap) == PR_OK,
             err);
  pr_cursor_entry_t entry;
  int32_t status = pr_cursor_move(cursor, PR_CURSOR_FIRST, nullptr, 0, &entry, err, err_cap);
  while (status == PR_OK) {
    std::string key(reinterpret_cast<const char*>(entry.key), entry.key_len);
    FUZZ_CHECK(entries.empty() || entries.rbegin()->first < key, "cursor keys ascend");
    entries[key].assign(reinterpret_cast<const char*>(entry.value), entry.value_len);
    status = pr_cursor_move(cursor, PR_CURSOR_NEXT, nullptr, 0, &entry, err, err_cap);
  }
  FUZZ_CHECK(status == PR_NOT_FOUND, err);
  pr_cursor_close(cursor);
  return entries;
}

// The value of key in db (a database or a family), or nothing (found ==
// false).
inline std::string GetValue(pr_db_t* db, const std::string& key, bool* found, char* err,
                            size_t err_cap) {
  pr_get_result_t result;
  int32_t status = pr_db_get(db, bytes(key), key.size(), nullptr, 0, PR_GET_PIN_IF_LARGER, &result,
                             err, err_cap);
  FUZZ_CHECK(status == PR_OK || status == PR_NOT_FOUND, err);
  *found = status == PR_OK;
  std::string value;
  if (*found && result.pin != nullptr) {
    value.assign(reinterpret_cast<const char*>(result.data), result.value_len);
    pr_pin_release(result.pin);
  }
  return value;
}

// A database in an in-memory Env, reopened over the same files as often as
// needed. Every call that must succeed is checked.
class MemDb {
 public:
  explicit MemDb(const char* merge_operator = nullptr)
      : env_(rocksdb::NewMemEnv(rocksdb::Env::Default())), options_(pr_options_create()) {
    pr_options_set_create_if_missing(options_, 1);
    pinrock_testing_set_env(options_, env_);
    if (merge_operator != nullptr) {
      FUZZ_CHECK(pr_options_set_merge_operator(options_, merge_operator, err, sizeof err) == PR_OK,
                 err);
    }
    Open();
  }
  ~MemDb() {
    Close();
    pr_options_destroy(options_);
  }
  MemDb(const MemDb&) = delete;
  MemDb& operator=(const MemDb&) = delete;

  void Open() {
    FUZZ_CHECK(pr_db_open(options_, "/db", &db_, err, sizeof err) == PR_OK, err);
  }
  void Close() {
    if (db_ != nullptr) FUZZ_CHECK(pr_db_close(db_, err, sizeof err) == PR_OK, err);
    db_ = nullptr;
  }
  void Reopen() {
    Close();
    Open();
  }
  void Flush(pr_db_t* family) {
    FUZZ_CHECK(pr_db_flush(family, err, sizeof err) == PR_OK, err);
  }
  void Put(pr_db_t* family, const std::string& key, const std::string& value) {
    FUZZ_CHECK(pr_db_put(family, bytes(key), key.size(), bytes(value), value.size(), err,
                         sizeof err) == PR_OK,
               err);
  }
  // Writes s as the file at path inside this database's Env.
  void WriteFile(const std::string& path, const std::string& s) {
    FUZZ_CHECK(rocksdb::WriteStringToFile(env_.get(), s, path, true).ok(), "write file");
  }
  // Every entry of the family, read by a cursor from first to last.
  std::map<std::string, std::string> Scan(pr_db_t* family) { return ScanAll(family, err, sizeof err); }
  // The value of key, or nothing (found == false).
  std::string Get(pr_db_t* family, const std::string& key, bool* found) {
    return GetValue(family, key, found, err, sizeof err);
  }

  pr_db_t* db() const { return db_; }
  pr_options_t* options() const { return options_; }
  std::shared_ptr<rocksdb::Env> env() const { return env_; }
  char err[512] = {0};

 private:
  std::shared_ptr<rocksdb::Env> env_;
  pr_options_t* options_;
  pr_db_t* db_ = nullptr;
};

}  // namespace pinrock_fuzz

#endif  // PINROCK_FUZZ_COMMON_H
