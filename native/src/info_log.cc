// The "info log" section of pinrock.h: RocksDB's info log, to the file LOG
// or to the one queue of the process that pr_log_next reads, each message
// tagged with its destination.
#include "internal.h"

#include <rocksdb/env.h>

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

using namespace pinrock::internal;

namespace {

// The process-wide queue of info-log messages read by pr_log_next, which
// holds the newest 4096. Never destroyed: RocksDB's background threads and
// a reader blocked in pr_log_next may still use it while the process exits.
TaggedQueue& log_queue() {
  static TaggedQueue* queue = new TaggedQueue(PR_LOG_END, 4096);
  return *queue;
}

// An info log that formats each message and puts it on the log queue,
// prefixed with the database's path.
class QueueLogger : public rocksdb::Logger {
 public:
  QueueLogger(rocksdb::InfoLogLevel level, std::string path,
              std::shared_ptr<const QueueDestination> destination)
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
    destination_->queue().push(static_cast<int32_t>(level), destination_->tag(), std::move(text));
  }

  const std::string prefix_;
  const std::shared_ptr<const QueueDestination> destination_;
};

}  // namespace

namespace pinrock::internal {

std::shared_ptr<rocksdb::Logger> queue_logger(rocksdb::InfoLogLevel level, std::string path,
                                              std::shared_ptr<const QueueDestination> destination) {
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
        destination == 0 ? nullptr : std::make_shared<const QueueDestination>(log_queue(), destination);
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
    TaggedQueue::Message message;
    if (!log_queue().next(timeout_ms, &message, dropped)) return 0;
    *level = message.kind;
    *destination = message.tag;
    write_message(message.payload.data(), message.payload.size(), text, text_cap);
    return 1;
  } catch (...) {
    return 0;
  }
}

}  // extern "C"
