// Write batch representations: the input is the batch given to pr_db_write
// (flags from nothing: a plain write) on a fresh database with a second
// column family (id 1) and the "put" merge operator (a merge sets the value)
// on both. Whatever the outcome:
//  - a later write still succeeds (a rejected batch leaves no damage);
//  - what the database holds equals a model of the accepted batch, read by
//    cursor and by get, before and after reopening (the log replayed), and
//    after a flush (the table files read back);
//  - a rejected batch changes nothing, also after the log is replayed.
// The model is built from the same batch by RocksDB's own parser; keys a
// single delete touches are left out of the comparison (RocksDB leaves a
// single delete over more than one put undefined).
#include "fuzz_common.h"

#include <rocksdb/write_batch.h>

#include <set>
#include <string>
#include <utility>

using namespace pinrock_fuzz;

namespace {

constexpr uint32_t kFamilies = 2;
const std::string kSentinel = "\xff\xff sentinel";

// The expected contents of each family after the batch.
struct Model : public rocksdb::WriteBatch::Handler {
  std::map<std::string, std::string> entries[kFamilies];
  std::set<std::string> undefined[kFamilies];

  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& key,
                        const rocksdb::Slice& value) override {
    if (cf >= kFamilies) return rocksdb::Status::InvalidArgument("family");
    entries[cf][key.ToString()] = value.ToString();
    return rocksdb::Status::OK();
  }
  rocksdb::Status MergeCF(uint32_t cf, const rocksdb::Slice& key,
                          const rocksdb::Slice& value) override {
    return PutCF(cf, key, value);
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    if (cf >= kFamilies) return rocksdb::Status::InvalidArgument("family");
    entries[cf].erase(key.ToString());
    return rocksdb::Status::OK();
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    if (cf >= kFamilies) return rocksdb::Status::InvalidArgument("family");
    undefined[cf].insert(key.ToString());
    return DeleteCF(cf, key);
  }
  rocksdb::Status DeleteRangeCF(uint32_t cf, const rocksdb::Slice& begin,
                                const rocksdb::Slice& end) override {
    if (cf >= kFamilies) return rocksdb::Status::InvalidArgument("family");
    auto& family = entries[cf];
    if (begin.compare(end) < 0) {
      family.erase(family.lower_bound(begin.ToString()), family.lower_bound(end.ToString()));
    }
    return rocksdb::Status::OK();
  }
};

// The family's entries, with the keys whose outcome is undefined removed.
std::map<std::string, std::string> Defined(std::map<std::string, std::string> entries,
                                           const std::set<std::string>& undefined) {
  for (const std::string& key : undefined) entries.erase(key);
  return entries;
}

void CheckContents(MemDb& db, const Model& model, const char* when) {
  pr_db_t* families[kFamilies] = {db.db(), nullptr};
  FUZZ_CHECK(pr_db_family(db.db(), "one", &families[1], db.err, sizeof db.err) == PR_OK, db.err);
  for (uint32_t cf = 0; cf < kFamilies; cf++) {
    std::map<std::string, std::string> expected = model.entries[cf];
    if (cf == 0) expected[kSentinel] = "after";
    auto scanned = db.Scan(families[cf]);
    FUZZ_CHECK(Defined(scanned, model.undefined[cf]) == Defined(expected, model.undefined[cf]),
               when);
    for (const auto& [key, value] : expected) {
      if (model.undefined[cf].count(key)) continue;
      bool found = false;
      FUZZ_CHECK(db.Get(families[cf], key, &found) == value && found, when);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  MemDb db("put");
  pr_db_t* family = nullptr;
  FUZZ_CHECK(pr_db_create_family(db.db(), nullptr, "one", &family, db.err, sizeof db.err) == PR_OK,
             db.err);
  FUZZ_CHECK(pr_db_family_id(family) == 1, "the second family has id 1");

  bool accepted = pr_db_write(db.db(), data, size, 0, db.err, sizeof db.err) == PR_OK;
  Model model;
  if (accepted) {
    rocksdb::WriteBatch batch(std::string(reinterpret_cast<const char*>(data), size));
    FUZZ_CHECK(batch.Iterate(&model).ok(), "an accepted batch holds only modelled records");
  }
  db.Put(db.db(), kSentinel, "after");
  CheckContents(db, model, "after the write");
  db.Reopen();
  CheckContents(db, model, "after the log is replayed");
  pr_db_t* families[kFamilies] = {db.db(), nullptr};
  FUZZ_CHECK(pr_db_family(db.db(), "one", &families[1], db.err, sizeof db.err) == PR_OK, db.err);
  for (pr_db_t* f : families) db.Flush(f);
  CheckContents(db, model, "after a flush");
  return 0;
}
