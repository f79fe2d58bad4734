// The "info log" section of pinrock.h: RocksDB's info log, to the file LOG
// or to the one queue of the process that pr_log_next reads, each message
// tagged with its destination.
#include "internal.h"

#include <rocksdb/env.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

using namespace pinrock::internal;

namespace {

// The process-wide queue of info-log messages read by pr_log_next. Never
// destroyed: RocksDB's background threads and a reader blocked in
// pr_log_next may still use it while the process exits.
class LogQueue {
 public:
  static LogQueue& instance() {
    static LogQueue* queue = new LogQueue();
    return *queue;
  }

  // Queues a message for destination tag. A full queue drops its oldest
  // message, never an end (see end).
  void push(int32_t level, uint64_t tag, std::string text) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (messages_.size() - ends_ >= kCapacity) {
        auto oldest = std::find_if(messages_.begin(), messages_.end(),
                                   [](const Message& m) { return m.level != PR_LOG_END; });
        messages_.erase(oldest);
        dropped_++;
      }
      messages_.push_back({level, tag, std::move(text)});
    }
    ready_.notify_one();
  }

  // Queues the end of destination tag, after all its messages. Ends are
  // never dropped, and not counted against the capacity: a reader that
  // keeps something per destination learns each end.
  void end(uint64_t tag) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      messages_.push_back({PR_LOG_END, tag, std::string()});
      ends_++;
    }
    ready_.notify_one();
  }

  int32_t next(int64_t timeout_ms, int32_t* level, uint64_t* tag, char* text, size_t text_cap,
               uint64_t* dropped) {
    std::unique_lock<std::mutex> lock(mutex_);
    // At most a day per call, so that the deadline cannot overflow the clock.
    int64_t wait_ms = timeout_ms < 0 ? 0 : timeout_ms > kDayMs ? kDayMs : timeout_ms;
    if (!ready_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                         [this] { return !messages_.empty(); })) {
      return 0;
    }
    Message message = std::move(messages_.front());
    messages_.pop_front();
    if (message.level == PR_LOG_END) ends_--;
    *dropped = dropped_;
    dropped_ = 0;
    lock.unlock();
    *level = message.level;
    *tag = message.tag;
    write_message(message.text.data(), message.text.size(), text, text_cap);
    return 1;
  }

 private:
  static constexpr size_t kCapacity = 4096;
  static constexpr int64_t kDayMs = 24 * 3600 * 1000;
  struct Message {
    int32_t level;  // an enum pr_log_level
    uint64_t tag;
    std::string text;
  };
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Message> messages_;
  size_t ends_ = 0;  // the PR_LOG_END messages in messages_
  uint64_t dropped_ = 0;
};

}  // namespace

struct LogDestination {
  explicit LogDestination(uint64_t tag) : tag(tag) {}
  ~LogDestination() {
    try {
      LogQueue::instance().end(tag);
    } catch (...) {
      // Out of memory: the end is not queued, and what the reader keeps for
      // the destination stays (a leak, never a wrong delivery).
    }
  }
  const uint64_t tag;
};

namespace {

// An info log that formats each message and puts it on the LogQueue,
// prefixed with the database's path.
class QueueLogger : public rocksdb::Logger {
 public:
  QueueLogger(rocksdb::InfoLogLevel level, std::string path,
              std::shared_ptr<const LogDestination> destination)
      : rocksdb::Logger(level), prefix_(std::move(path) + ": "), destination_(std::move(destination)) {}

  using rocksdb::Logger::Logv;

  void Logv(const char* format, va_list ap) override {
    Push(rocksdb::InfoLogLevel::INFO_LEVEL, format, ap);
  }

  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override {
    if (level < GetInfoLogLevel()) return;
    Push(level, format, ap);
  }

  // The header (version, options) is informational: logged at INFO and below.
  void LogHeader(const char* format, va_list ap) override {
    if (GetInfoLogLevel() > rocksdb::InfoLogLevel::INFO_LEVEL) return;
    Push(rocksdb::InfoLogLevel::HEADER_LEVEL, format, ap);
  }

 private:
  void Push(rocksdb::InfoLogLevel level, const char* format, va_list ap) {
    va_list measure;
    va_copy(measure, ap);
    int length = std::vsnprintf(nullptr, 0, format, measure);
    va_end(measure);
    if (length < 0) return;
    std::string text = prefix_;
    size_t start = text.size();
    text.resize(start + static_cast<size_t>(length) + 1);
    std::vsnprintf(&text[start], static_cast<size_t>(length) + 1, format, ap);
    text.resize(start + static_cast<size_t>(length));
    LogQueue::instance().push(static_cast<int32_t>(level), destination_->tag, std::move(text));
  }

  const std::string prefix_;
  const std::shared_ptr<const LogDestination> destination_;
};

}  // namespace

namespace pinrock::internal {

std::shared_ptr<rocksdb::Logger> queue_logger(rocksdb::InfoLogLevel level, std::string path,
                                              std::shared_ptr<const LogDestination> destination) {
  return std::make_shared<QueueLogger>(level, std::move(path), std::move(destination));
}

}  // namespace pinrock::internal

extern "C" {

int32_t pr_options_set_info_log(pr_options_t* options, int32_t level, uint64_t destination,
                                char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (level < PR_LOG_DEBUG || level > PR_LOG_FATAL) {
      return invalid_argument("info log level must be 0..4, got " + std::to_string(level), err,
                              err_cap);
    }
    options->db.info_log_level = static_cast<rocksdb::InfoLogLevel>(level);
    options->info_log_destination =
        destination == 0 ? nullptr : std::make_shared<const LogDestination>(destination);
    return PR_OK;
  });
}

static_assert(static_cast<int>(PR_LOG_DEBUG) == rocksdb::InfoLogLevel::DEBUG_LEVEL &&
                  static_cast<int>(PR_LOG_FATAL) == rocksdb::InfoLogLevel::FATAL_LEVEL &&
                  static_cast<int>(PR_LOG_HEADER) == rocksdb::InfoLogLevel::HEADER_LEVEL,
              "enum pr_log_level must match rocksdb::InfoLogLevel");

int32_t pr_log_next(int64_t timeout_ms, int32_t* level, uint64_t* destination, char* text,
                    size_t text_cap, uint64_t* dropped) {
  try {
    return LogQueue::instance().next(timeout_ms, level, destination, text, text_cap, dropped);
  } catch (...) {
    return 0;
  }
}

}  // extern "C"
