// A process-wide queue of messages tagged with their destination, which a
// caller drains: the info log's (info_log.cc) and the event listeners'
// (event_listeners.cc). RocksDB's threads only push; the reader decides
// where each message goes by its tag, and learns from a destination's end
// marker, queued after its last message, that it may forget the destination.
#ifndef PINROCK_TAGGED_QUEUE_H
#define PINROCK_TAGGED_QUEUE_H

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <utility>

namespace pinrock::internal {

class TaggedQueue {
 public:
  struct Message {
    int32_t kind;  // the queue's own kinds; end_kind for a destination's end
    uint64_t tag;
    std::string payload;
  };

  // A queue that holds up to capacity messages besides ends, whose ends
  // are messages of end_kind.
  TaggedQueue(int32_t end_kind, size_t capacity) : end_kind_(end_kind), capacity_(capacity) {}

  TaggedQueue(const TaggedQueue&) = delete;
  TaggedQueue& operator=(const TaggedQueue&) = delete;

  // Queues a message for destination tag. A full queue drops its oldest
  // message, never an end (see end).
  void push(int32_t kind, uint64_t tag, std::string payload) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (messages_.size() - ends_ >= capacity_) {
        auto oldest = std::find_if(messages_.begin(), messages_.end(),
                                   [this](const Message& m) { return m.kind != end_kind_; });
        messages_.erase(oldest);
        dropped_++;
      }
      messages_.push_back({kind, tag, std::move(payload)});
    }
    ready_.notify_one();
  }

  // Queues the end of destination tag, after all its messages. Ends are
  // never dropped, and not counted against the capacity: a reader that
  // keeps something per destination learns each end.
  void end(uint64_t tag) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      messages_.push_back({end_kind_, tag, std::string()});
      ends_++;
    }
    ready_.notify_one();
  }

  // Takes the oldest message into *message, waiting up to timeout_ms
  // milliseconds (0 or less: not at all; more than a day: a day). Returns
  // false when none came in time; otherwise *dropped receives how many
  // messages were dropped since the previous message was taken.
  bool next(int64_t timeout_ms, Message* message, uint64_t* dropped) {
    std::unique_lock<std::mutex> lock(mutex_);
    // At most a day per call, so that the deadline cannot overflow the clock.
    int64_t wait_ms = timeout_ms < 0 ? 0 : timeout_ms > kDayMs ? kDayMs : timeout_ms;
    if (!ready_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                         [this] { return !messages_.empty(); })) {
      return false;
    }
    *message = std::move(messages_.front());
    messages_.pop_front();
    if (message->kind == end_kind_) ends_--;
    *dropped = dropped_;
    dropped_ = 0;
    return true;
  }

 private:
  static constexpr int64_t kDayMs = 24 * 3600 * 1000;
  const int32_t end_kind_;
  const size_t capacity_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Message> messages_;
  size_t ends_ = 0;  // the end messages in messages_
  uint64_t dropped_ = 0;
};

// A destination's tag, held by everything that may still queue messages
// for it; the last holder's release queues its end.
class QueueDestination {
 public:
  QueueDestination(TaggedQueue& queue, uint64_t tag) : queue_(queue), tag_(tag) {}
  QueueDestination(const QueueDestination&) = delete;
  QueueDestination& operator=(const QueueDestination&) = delete;

  ~QueueDestination() {
    try {
      queue_.end(tag_);
    } catch (...) {
      // Out of memory: the end is not queued, and what the reader keeps for
      // the destination stays (a leak, never a wrong delivery).
    }
  }

  TaggedQueue& queue() const { return queue_; }
  uint64_t tag() const { return tag_; }

 private:
  TaggedQueue& queue_;
  const uint64_t tag_;
};

}  // namespace pinrock::internal

#endif  // PINROCK_TAGGED_QUEUE_H
