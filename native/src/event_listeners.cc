// The "events and background errors" section of pinrock.h: RocksDB's
// events, encoded onto the one event queue of the process that
// pr_event_next reads, each tagged with its destination; a database's
// choice of recovering from background errors by itself; pr_db_resume.
#include "internal.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace pinrock::internal;

struct pr_event {
  TaggedQueue::Message message;
};

namespace {

// The process-wide queue of events read by pr_event_next, which holds the
// newest 4096. Never destroyed: RocksDB's background threads and a reader
// blocked in pr_event_next may still use it while the process exits.
TaggedQueue& event_queue() {
  static TaggedQueue* queue = new TaggedQueue(PR_EVENT_END, 4096);
  return *queue;
}

// Encodes an event's fields as pinrock.h's section describes them.
class EventPayload {
 public:
  explicit EventPayload(const std::string& database) { string(database); }

  EventPayload& number(int64_t value) {
    char bytes[sizeof value];
    std::memcpy(bytes, &value, sizeof value);
    payload_.append(bytes, sizeof value);
    return *this;
  }

  EventPayload& string(const std::string& value) {
    number(static_cast<int64_t>(value.size()));
    payload_.append(value);
    return *this;
  }

  EventPayload& status(const rocksdb::Status& value) {
    number(to_status(value, nullptr, 0));
    return string(value.ok() ? std::string() : value.ToString());
  }

  // Files: each's path, level and number; paths and infos are of one
  // compaction, in the same order.
  EventPayload& files(const std::vector<std::string>& paths,
                      const std::vector<rocksdb::CompactionFileInfo>& infos) {
    number(static_cast<int64_t>(paths.size()));
    for (size_t i = 0; i < paths.size(); i++) {
      string(paths[i]);
      number(i < infos.size() ? infos[i].level : -1);
      number(i < infos.size() ? static_cast<int64_t>(infos[i].file_number) : 0);
    }
    return *this;
  }

  std::string take() { return std::move(payload_); }

 private:
  std::string payload_;
};

// The listener of one database: queues its events for its destination
// (when it has one), and vetoes RocksDB's own recoveries when the options
// said so. Every callback returns at once: RocksDB calls some of them with
// its mutex held, and on the threads of writes.
class QueueEventListener : public rocksdb::EventListener {
 public:
  QueueEventListener(std::string path, std::shared_ptr<const QueueDestination> destination,
                     bool auto_recovery)
      : path_(std::move(path)), destination_(std::move(destination)), auto_recovery_(auto_recovery) {}

  const char* Name() const override { return "pinrock.QueueEventListener"; }

  void OnFlushBegin(rocksdb::DB*, const rocksdb::FlushJobInfo& info) override {
    Flush(PR_EVENT_FLUSH_BEGUN, info);
  }

  void OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo& info) override {
    Flush(PR_EVENT_FLUSH_COMPLETED, info);
  }

  void OnCompactionBegin(rocksdb::DB*, const rocksdb::CompactionJobInfo& info) override {
    Compaction(PR_EVENT_COMPACTION_BEGUN, info);
  }

  void OnCompactionCompleted(rocksdb::DB*, const rocksdb::CompactionJobInfo& info) override {
    Compaction(PR_EVENT_COMPACTION_COMPLETED, info);
  }

  void OnBackgroundError(rocksdb::BackgroundErrorReason reason, rocksdb::Status* error) override {
    Queue(PR_EVENT_BACKGROUND_ERROR, [&](EventPayload& event) {
      event.number(static_cast<int64_t>(reason)).status(*error);
    });
  }

  void OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason, rocksdb::Status,
                            bool* auto_recovery) override {
    if (!auto_recovery_) *auto_recovery = false;
  }

  void OnErrorRecoveryEnd(const rocksdb::BackgroundErrorRecoveryInfo& info) override {
    Queue(PR_EVENT_ERROR_RECOVERY_ENDED, [&](EventPayload& event) {
      event.status(info.old_bg_error).status(info.new_bg_error);
    });
  }

  void OnStallConditionsChanged(const rocksdb::WriteStallInfo& info) override {
    Queue(PR_EVENT_WRITE_STALL_CHANGED, [&](EventPayload& event) {
      event.string(info.cf_name)
          .number(static_cast<int64_t>(info.condition.cur))
          .number(static_cast<int64_t>(info.condition.prev));
    });
  }

  void OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) override {
    Queue(PR_EVENT_TABLE_FILE_CREATED, [&](EventPayload& event) {
      event.string(info.cf_name)
          .string(info.file_path)
          .number(info.job_id)
          .number(static_cast<int64_t>(info.reason))
          .status(info.status)
          .number(static_cast<int64_t>(info.file_size))
          .number(static_cast<int64_t>(info.table_properties.num_entries))
          .number(static_cast<int64_t>(info.table_properties.num_deletions));
    });
  }

  void OnTableFileDeleted(const rocksdb::TableFileDeletionInfo& info) override {
    Queue(PR_EVENT_TABLE_FILE_DELETED, [&](EventPayload& event) {
      event.string(info.file_path).number(info.job_id).status(info.status);
    });
  }

  void OnMemTableSealed(const rocksdb::MemTableInfo& info) override {
    Queue(PR_EVENT_MEMTABLE_SEALED, [&](EventPayload& event) {
      event.string(info.cf_name)
          .number(static_cast<int64_t>(info.first_seqno))
          .number(static_cast<int64_t>(info.earliest_seqno))
          .number(static_cast<int64_t>(info.num_entries))
          .number(static_cast<int64_t>(info.num_deletes));
    });
  }

  void OnExternalFileIngested(rocksdb::DB*, const rocksdb::ExternalFileIngestionInfo& info) override {
    Queue(PR_EVENT_EXTERNAL_FILE_INGESTED, [&](EventPayload& event) {
      event.string(info.cf_name)
          .string(info.external_file_path)
          .string(info.internal_file_path)
          .number(static_cast<int64_t>(info.global_seqno))
          .number(static_cast<int64_t>(info.table_properties.num_entries));
    });
  }

 private:
  void Flush(int32_t kind, const rocksdb::FlushJobInfo& info) {
    Queue(kind, [&](EventPayload& event) {
      event.string(info.cf_name)
          .string(kind == PR_EVENT_FLUSH_BEGUN ? std::string() : info.file_path)
          .number(info.job_id)
          .number(info.triggered_writes_slowdown ? 1 : 0)
          .number(info.triggered_writes_stop ? 1 : 0)
          .number(static_cast<int64_t>(info.smallest_seqno))
          .number(static_cast<int64_t>(info.largest_seqno))
          .number(static_cast<int64_t>(info.flush_reason))
          .number(static_cast<int64_t>(info.table_properties.num_entries))
          .number(static_cast<int64_t>(info.table_properties.num_deletions));
    });
  }

  void Compaction(int32_t kind, const rocksdb::CompactionJobInfo& info) {
    Queue(kind, [&](EventPayload& event) {
      event.string(info.cf_name)
          .status(info.status)
          .number(info.job_id)
          .number(info.base_input_level)
          .number(info.output_level)
          .number(static_cast<int64_t>(info.compaction_reason))
          .files(info.input_files, info.input_file_infos)
          .files(info.output_files, info.output_file_infos)
          .number(static_cast<int64_t>(info.stats.elapsed_micros))
          .number(static_cast<int64_t>(info.stats.num_input_records))
          .number(static_cast<int64_t>(info.stats.num_output_records))
          .number(static_cast<int64_t>(info.stats.total_input_bytes))
          .number(static_cast<int64_t>(info.stats.total_output_bytes));
    });
  }

  // Queues the event encode writes after the database's path; an event
  // that cannot be encoded or queued (memory exhausted) is lost, never
  // thrown into RocksDB.
  template <typename Encode>
  void Queue(int32_t kind, Encode&& encode) noexcept {
    if (!destination_) return;
    try {
      EventPayload event(path_);
      encode(event);
      destination_->queue().push(kind, destination_->tag(), event.take());
    } catch (...) {
    }
  }

  const std::string path_;
  const std::shared_ptr<const QueueDestination> destination_;
  const bool auto_recovery_;
};

}  // namespace

namespace pinrock::internal {

std::shared_ptr<rocksdb::EventListener> queue_event_listener(const pr_options& options,
                                                             std::string path) {
  if (!options.event_destination && options.event_auto_recovery) return nullptr;
  return std::make_shared<QueueEventListener>(std::move(path), options.event_destination,
                                              options.event_auto_recovery);
}

}  // namespace pinrock::internal

extern "C" {

int32_t pr_options_set_event_listener(pr_options_t* options, uint64_t destination, char* err,
                                      size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->event_destination =
        destination == 0 ? nullptr
                         : std::make_shared<const QueueDestination>(event_queue(), destination);
    return PR_OK;
  });
}

int32_t pr_options_set_auto_recovery(pr_options_t* options, int32_t auto_recovery, char*, size_t) {
  options->event_auto_recovery = auto_recovery != 0;
  return PR_OK;
}

pr_event_t* pr_event_next(int64_t timeout_ms, int32_t* kind, uint64_t* destination,
                          const uint8_t** payload, size_t* payload_len, uint64_t* dropped) {
  try {
    auto event = std::make_unique<pr_event>();
    if (!event_queue().next(timeout_ms, &event->message, dropped)) return nullptr;
    *kind = event->message.kind;
    *destination = event->message.tag;
    *payload = reinterpret_cast<const uint8_t*>(event->message.payload.data());
    *payload_len = event->message.payload.size();
    return event.release();
  } catch (...) {
    return nullptr;
  }
}

void pr_event_free(pr_event_t* event) { delete event; }

int32_t pr_db_resume(pr_db_t* db, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] { return to_status(db->db->Resume(), err, err_cap); });
}

}  // extern "C"
