// What the native tests share: a temporary directory, options, a fixture
// with an open database, a hand-built write batch, and cursor helpers. The
// tests of the C ABI, one file per section of pinrock.h, go through
// libpinrock.so exactly as a foreign caller sees it. A named namespace, not
// an anonymous one: GoogleTest requires the tests of one suite (DbTest's are
// in several files) to use one fixture class.
#ifndef PINROCK_TEST_SUPPORT_H
#define PINROCK_TEST_SUPPORT_H

#include "pinrock.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace pinrock_test {

namespace fs = std::filesystem;

inline const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// The callback states released since the last call (pr_callbacks_take_released).
inline std::vector<uint64_t> TakeReleased() {
  std::vector<uint64_t> states(8);
  states.resize(pr_callbacks_take_released(states.data(), states.size()));
  return states;
}

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "pinrock-test-XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    path_ = mkdtemp(buf.data());
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string path(const std::string& child = "db") const { return (path_ / child).string(); }

 private:
  fs::path path_;
};

struct Options {
  pr_options_t* handle = pr_options_create();
  ~Options() { pr_options_destroy(handle); }
};

class DbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pr_options_set_create_if_missing(options.handle, 1);
    ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  }
  void TearDown() override { EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err; }

  void Put(const std::string& key, const std::string& value) {
    ASSERT_EQ(PR_OK, pr_db_put(db, bytes(key), key.size(), bytes(value), value.size(), err,
                               sizeof err))
        << err;
  }

  // Reads key with a buffer of buf_cap bytes; returns the status.
  int32_t Get(const std::string& key, size_t buf_cap, uint32_t flags, pr_get_result_t* result) {
    buffer.assign(buf_cap, 0);
    return pr_db_get(db, bytes(key), key.size(), buffer.data(), buf_cap, flags, result, err,
                     sizeof err);
  }

  TempDir dir;
  Options options;
  pr_db_t* db = nullptr;
  char err[256] = {0};
  std::vector<uint8_t> buffer;
};

// Builds RocksDB's WriteBatch representation by hand: what a caller of
// pr_db_write encodes (the Java binding does the same in Java).
class Batch {
 public:
  Batch() : rep_(12, '\0') {}
  Batch& Put(const std::string& key, const std::string& value) {
    return Record(0x1).Bytes(key).Bytes(value).Counted();
  }
  Batch& Delete(const std::string& key) { return Record(0x0).Bytes(key).Counted(); }
  Batch& SingleDelete(const std::string& key) { return Record(0x7).Bytes(key).Counted(); }
  Batch& DeleteRange(const std::string& begin, const std::string& end) {
    return Record(0xF).Bytes(begin).Bytes(end).Counted();
  }
  Batch& Merge(const std::string& key, const std::string& value) {
    return Record(0x2).Bytes(key).Bytes(value).Counted();
  }
  Batch& PutInFamily(uint32_t family, const std::string& key, const std::string& value) {
    return Record(0x5).Varint(family).Bytes(key).Bytes(value).Counted();
  }
  Batch& MergeInFamily(uint32_t family, const std::string& key, const std::string& value) {
    return Record(0x6).Varint(family).Bytes(key).Bytes(value).Counted();
  }
  // Overwrites the record count in the header.
  Batch& SetCount(uint32_t count) {
    for (int i = 0; i < 4; i++) rep_[8 + i] = static_cast<char>(count >> (8 * i));
    return *this;
  }
  const uint8_t* data() const { return bytes(rep_); }
  size_t size() const { return rep_.size(); }
  std::string& rep() { return rep_; }

 private:
  Batch& Record(char tag) {
    rep_.push_back(tag);
    return *this;
  }
  Batch& Varint(uint32_t v) {
    while (v >= 0x80) {
      rep_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    rep_.push_back(static_cast<char>(v));
    return *this;
  }
  Batch& Bytes(const std::string& b) {
    Varint(static_cast<uint32_t>(b.size()));
    rep_ += b;
    return *this;
  }
  Batch& Counted() { return SetCount(++count_); }
  std::string rep_;
  uint32_t count_ = 0;
};

// A cursor's entry as (key, value) strings; empty optional-like marker when off.
inline std::string Entry(const pr_cursor_entry_t& entry) {
  return std::string(reinterpret_cast<const char*>(entry.key), entry.key_len) + "=" +
         std::string(reinterpret_cast<const char*>(entry.value), entry.value_len);
}

// Opens a cursor over the latest state with optional bounds.
inline pr_cursor_t* OpenCursor(pr_db_t* db, uint32_t bounds = 0, const std::string& lower = "",
                               const std::string& upper = "", uint32_t read_flags = 0) {
  pr_cursor_t* cursor = nullptr;
  char err[256];
  EXPECT_EQ(PR_OK, pr_cursor_open(db, nullptr, read_flags, 0, bytes(lower), lower.size(),
                                  bytes(upper), upper.size(), bounds, &cursor, err, sizeof err))
      << err;
  return cursor;
}

// Moves a cursor and returns its entry, or "end" / "error <status>".
inline std::string Move(pr_cursor_t* cursor, int32_t op, const std::string& key = "") {
  pr_cursor_entry_t entry;
  char err[256];
  int32_t status = pr_cursor_move(cursor, op, bytes(key), key.size(), &entry, err, sizeof err);
  if (status == PR_NOT_FOUND) return entry.key == nullptr && entry.key_len == 0 ? "end" : "bad";
  if (status != PR_OK) return "error " + std::to_string(PR_STATUS_CODE(status));
  return Entry(entry);
}

// ---- events (pr_event_next)

// One event, with a reader of its payload's fields in order.
struct Event {
  int32_t kind;
  uint64_t destination;
  std::string payload;
  size_t at = 0;

  int64_t Number() {
    int64_t value = 0;
    EXPECT_LE(at + sizeof value, payload.size());
    if (at + sizeof value <= payload.size()) std::memcpy(&value, payload.data() + at, sizeof value);
    at += sizeof value;
    return value;
  }

  std::string String() {
    int64_t length = Number();
    EXPECT_LE(at + static_cast<size_t>(length), payload.size());
    std::string value = payload.substr(at, static_cast<size_t>(length));
    at += static_cast<size_t>(length);
    return value;
  }

  // A status: "OK", or its message.
  std::string Status() {
    int64_t status = Number();
    std::string message = String();
    return status == PR_OK ? "OK" : message;
  }

  bool Done() const { return at == payload.size(); }
};

// Takes the next event (waiting up to timeout_ms) into *event; false when none came.
inline bool TakeEvent(int64_t timeout_ms, Event* event, uint64_t* dropped) {
  const uint8_t* payload = nullptr;
  size_t length = 0;
  pr_event_t* taken =
      pr_event_next(timeout_ms, &event->kind, &event->destination, &payload, &length, dropped);
  if (taken == nullptr) return false;
  event->payload.assign(reinterpret_cast<const char*>(payload), length);
  event->at = 0;
  pr_event_free(taken);
  return true;
}

// The destination the event tests queue to.
constexpr uint64_t kEventDestination = 11;

// Takes events until the end of kEventDestination, the only destination
// queued to (waiting up to 10 s for each), the end not included.
inline std::vector<Event> DrainUntilEnd() {
  std::vector<Event> events;
  Event event{};
  uint64_t dropped = 0;
  while (TakeEvent(10000, &event, &dropped)) {
    EXPECT_EQ(0u, dropped);
    EXPECT_EQ(kEventDestination, event.destination);
    if (event.kind == PR_EVENT_END) {
      EXPECT_TRUE(event.payload.empty());
      return events;
    }
    events.push_back(event);
  }
  ADD_FAILURE() << "no end of the destination came";
  return events;
}

// Waits up to 10 s for an event of kind, keeping those taken before it.
inline bool AwaitEvent(int32_t kind, std::vector<Event>* taken) {
  Event event{};
  uint64_t dropped = 0;
  while (TakeEvent(10000, &event, &dropped)) {
    taken->push_back(event);
    if (event.kind == kind) return true;
  }
  return false;
}

inline std::vector<Event> OfKind(const std::vector<Event>& events, int32_t kind) {
  std::vector<Event> found;
  for (const Event& event : events) {
    if (event.kind == kind) found.push_back(event);
  }
  return found;
}

// A database whose events are queued to kEventDestination.
class EventQueueTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pr_options_set_create_if_missing(options.handle, 1);
    ASSERT_EQ(PR_OK, pr_options_set_event_listener(options.handle, kEventDestination, err, sizeof err))
        << err;
  }

  void Open() {
    ASSERT_EQ(PR_OK, pr_db_open(options.handle, dir.path().c_str(), &db, err, sizeof err)) << err;
  }

  int32_t Put(const std::string& key) {
    return pr_db_put(db, bytes(key), key.size(), bytes("v"), 1, err, sizeof err);
  }

  // Closes the database and lets go of the options: the destination ends.
  std::vector<Event> CloseAndDrain() {
    EXPECT_EQ(PR_OK, pr_db_close(db, err, sizeof err)) << err;
    EXPECT_EQ(PR_OK, pr_options_set_event_listener(options.handle, 0, err, sizeof err)) << err;
    return DrainUntilEnd();
  }

  TempDir dir;
  Options options;
  pr_db_t* db = nullptr;
  char err[512] = {0};
};

}  // namespace pinrock_test

#endif  // PINROCK_TEST_SUPPORT_H
