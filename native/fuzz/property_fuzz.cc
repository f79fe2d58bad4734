// Property names: the name read with pr_db_property_int and pr_db_property
// is either the input (up to its first NUL) or, when the first byte picks
// one, a name RocksDB knows with the rest of the input as its suffix (the
// engine is not instrumented, so libFuzzer cannot find these names by
// itself); it is read from a small database with table
// files on two levels, entries in the memtable and a second column family.
// Any answer is fine (PR_NOT_FOUND above all); a crash or a sanitizer report
// is a finding. Properties only read, so one database serves every input.
#include "fuzz_common.h"

#include <cstring>
#include <string>
#include <vector>

using namespace pinrock_fuzz;

namespace {

// RocksDB's property names and prefixes ("...-at-level" takes a number).
const char* const kKnownNames[] = {
    "rocksdb.num-files-at-level", "rocksdb.compression-ratio-at-level",
    "rocksdb.aggregated-table-properties-at-level", "rocksdb.live-sst-files-size-at-temperature",
    "rocksdb.aggregated-table-properties", "rocksdb.stats", "rocksdb.sstables", "rocksdb.cfstats",
    "rocksdb.cfstats-no-file-histogram", "rocksdb.cf-file-histogram",
    "rocksdb.cf-write-stall-stats", "rocksdb.dbstats", "rocksdb.db-write-stall-stats",
    "rocksdb.levelstats", "rocksdb.block-cache-entry-stats",
    "rocksdb.fast-block-cache-entry-stats", "rocksdb.num-immutable-mem-table",
    "rocksdb.estimate-num-keys", "rocksdb.estimate-oldest-key-time", "rocksdb.options-statistics",
    "rocksdb.blob-stats", "rocksdb.num-blob-files", "rocksdb.block-cache-usage",
    "rocksdb.size-all-mem-tables", "rocksdb.base-level", "rocksdb.total-sst-files-size",
    "rocksdb.min-log-number-to-keep", "rocksdb.oldest-snapshot-time",
    "rocksdb.estimate-table-readers-mem", "rocksdb.is-write-stopped",
};
constexpr size_t kKnown = sizeof kKnownNames / sizeof kKnownNames[0];

MemDb* SmallDatabase() {
  static MemDb* db = [] {
    auto* small = new MemDb();
    for (int i = 0; i < 100; i++) small->Put(small->db(), "key" + std::to_string(i), "value");
    small->Flush(small->db());
    FUZZ_CHECK(pr_db_compact_range(small->db(), nullptr, 0, nullptr, 0, 0, small->err,
                                   sizeof small->err) == PR_OK,
               small->err);
    small->Put(small->db(), "key5", "newer");
    small->Flush(small->db());
    small->Put(small->db(), "in-memtable", "value");
    pr_db_t* family = nullptr;
    FUZZ_CHECK(pr_db_create_family(small->db(), nullptr, "second", &family, small->err,
                                   sizeof small->err) == PR_OK,
               small->err);
    return small;
  }();
  return db;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string name(reinterpret_cast<const char*>(data), size);
  if (size > 0 && data[0] < kKnown) name = kKnownNames[data[0]] + name.substr(1);
  name.resize(std::strlen(name.c_str()));
  MemDb* db = SmallDatabase();
  uint64_t value = 0;
  pr_db_property_int(db->db(), name.c_str(), &value, db->err, sizeof db->err);
  uint64_t value_len = 0;
  char small[8];
  int32_t status =
      pr_db_property(db->db(), name.c_str(), small, sizeof small, &value_len, db->err, sizeof db->err);
  if (status == PR_OK && value_len > sizeof small) {
    std::vector<char> whole(value_len);
    uint64_t again = 0;
    pr_db_property(db->db(), name.c_str(), whole.data(), whole.size(), &again, db->err,
                   sizeof db->err);
  }
  return 0;
}
