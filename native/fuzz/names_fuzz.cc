// Option-like names: the input holds a merge operator name (up to the first
// NUL), a column family name (up to the next NUL) and then merge operands.
// A name pinrock refuses is fine. A merge operator it accepts must then
// work on a database: merges of the operands, read back before and after a
// flush and a full compaction (which run the operator on RocksDB's threads).
// A family it creates must take a write, be listed, and be opened again,
// with its entry, when the database is reopened.
#include "fuzz_common.h"

#include <rocksdb/convenience.h>
#include <rocksdb/merge_operator.h>

#include <algorithm>
#include <string>

using namespace pinrock_fuzz;

namespace {

void MergeAndRead(MemDb& db, const std::string& merge_operator, Input& input) {
  const std::string key = "merged";
  for (int i = 0; i < 4 && !input.Done(); i++) {
    std::string operand = input.Short(16);
    std::string batch(12, '\0');  // sequence (ignored) and count, then one merge record
    batch[8] = 1;
    batch += '\x02';
    batch += static_cast<char>(key.size()) + key;
    batch += static_cast<char>(operand.size()) + operand;
    // The operator may refuse an operand (PR_CODE_CORRUPTION from the read);
    // the write itself must be taken, but for a uint64add operand of other
    // than 8 bytes, which pinrock refuses whole (PR_CODE_INVALID_ARGUMENT).
    int32_t status = pr_db_write(db.db(), bytes(batch), batch.size(), 0, db.err, sizeof db.err);
    bool refused_operand = merge_operator == "uint64add" && operand.size() != 8 &&
                           PR_STATUS_CODE(status) == PR_CODE_INVALID_ARGUMENT;
    FUZZ_CHECK(status == PR_OK || refused_operand, db.err);
  }
  pr_get_result_t result{};
  if (pr_db_get(db.db(), bytes(key), key.size(), nullptr, 0, PR_GET_PIN_IF_LARGER, &result, db.err,
                sizeof db.err) == PR_OK &&
      result.pin != nullptr) {
    pr_pin_release(result.pin);
  }
  pr_db_flush(db.db(), db.err, sizeof db.err);
  pr_db_compact_range(db.db(), nullptr, 0, nullptr, 0, 0, db.err, sizeof db.err);
}

}  // namespace

// Whether pinrock accepts name as a merge operator.
bool Accepted(const std::string& merge_operator) {
  pr_options_t* options = pr_options_create();
  char err[256];
  bool accepted =
      pr_options_set_merge_operator(options, merge_operator.c_str(), err, sizeof err) == PR_OK;
  pr_options_destroy(options);
  return accepted;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string all(reinterpret_cast<const char*>(data), size);
  std::string merge_operator = all.c_str();
  std::string rest = all.substr(std::min(all.size(), merge_operator.size() + 1));
  std::string family_name = rest.c_str();
  rest = rest.substr(std::min(rest.size(), family_name.size() + 1));
  Input operands(bytes(rest), rest.size());

  bool with_operator = Accepted(merge_operator);
  MemDb db(with_operator ? merge_operator.c_str() : nullptr);
  if (with_operator) MergeAndRead(db, merge_operator, operands);

  pr_db_t* family = nullptr;
  if (pr_db_create_family(db.db(), nullptr, family_name.c_str(), &family, db.err,
                          sizeof db.err) == PR_OK) {
    db.Put(family, "k", "v");
    db.Reopen();
    FUZZ_CHECK(pr_db_family(db.db(), family_name.c_str(), &family, db.err, sizeof db.err) == PR_OK,
               db.err);
    bool found = false;
    FUZZ_CHECK(db.Get(family, "k", &found) == "v" && found, "the family's entry survives reopen");
  }
  return 0;
}
