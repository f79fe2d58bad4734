// The "bulk load" section of pinrock.h: table files written outside a
// database, then ingested into one of its families.
#include "internal.h"

#include <rocksdb/sst_file_writer.h>

#include <memory>
#include <string>
#include <vector>

using namespace pinrock::internal;

struct pr_sst_writer {
  // What the writer writes through, holding its comparator: before writer,
  // so that it is released after it.
  std::unique_ptr<ComparatorGate> gate;
  std::unique_ptr<rocksdb::SstFileWriter> writer;
};

extern "C" {

int32_t pr_sst_writer_open(const pr_options_t* options, const char* path,
                           pr_sst_writer_t** writer_out, char* err, size_t err_cap) {
  *writer_out = nullptr;
  return guarded(err, err_cap, [&] {
    std::shared_ptr<rocksdb::Cache> unused_cache;
    pr_options defaults;
    rocksdb::Options rocks_options =
        to_rocksdb_options(options != nullptr ? *options : defaults, &unused_cache);
    auto handle = std::make_unique<pr_sst_writer>();
    handle->gate = std::make_unique<ComparatorGate>(rocks_options.env);
    handle->gate->Hold(options != nullptr ? *options : defaults);
    rocks_options.env = handle->gate->env();
    handle->writer = std::make_unique<rocksdb::SstFileWriter>(rocksdb::EnvOptions(), rocks_options);
    rocksdb::Status s = handle->writer->Open(path);
    if (!s.ok()) return to_status(s, err, err_cap);
    *writer_out = handle.release();
    return PR_OK;
  });
}

int32_t pr_sst_writer_put(pr_sst_writer_t* writer, const uint8_t* key, size_t key_len,
                          const uint8_t* value, size_t value_len, char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    return to_status(writer->writer->Put(key_slice(key, key_len), value_slice(value, value_len)), err,
                     err_cap);
  });
}

int32_t pr_sst_writer_delete(pr_sst_writer_t* writer, const uint8_t* key, size_t key_len,
                             char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    return to_status(writer->writer->Delete(key_slice(key, key_len)), err, err_cap);
  });
}

int32_t pr_sst_writer_finish(pr_sst_writer_t* writer, uint64_t* file_size, char* err,
                             size_t err_cap) {
  return guarded(err, err_cap, [&] {
    rocksdb::ExternalSstFileInfo info;
    rocksdb::Status s = writer->writer->Finish(&info);
    if (!s.ok()) return to_status(s, err, err_cap);
    *file_size = info.file_size;
    return PR_OK;
  });
}

void pr_sst_writer_destroy(pr_sst_writer_t* writer) {
  try {
    delete writer;
  } catch (...) {
    // An unfinished file's cleanup failed; nothing may cross the boundary.
  }
}

int32_t pr_db_ingest(pr_db_t* db, const char* const* paths, size_t n, uint32_t flags, char* err,
                     size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (n == 0) return invalid_argument("no file to ingest", err, err_cap);
    std::vector<std::string> files(paths, paths + n);
    rocksdb::IngestExternalFileOptions options;
    options.move_files = (flags & PR_INGEST_MOVE) != 0;
    return to_status(db->db->IngestExternalFile(db->family, files, options), err, err_cap);
  });
}

}  // extern "C"
