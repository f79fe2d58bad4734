// Table files to ingest: the input's first byte picks the pr_db_ingest flags
// (copy or move) and whether the database already holds entries overlapping
// the file's likely keys; the rest is written as a file and ingested. A
// rejected file is fine. An accepted one must then read back without error:
// every entry by cursor and by get, after a flush, a full compaction and a
// reopen.
#include "fuzz_common.h"

#include <string>

using namespace pinrock_fuzz;

namespace {

void ReadEverything(MemDb& db) {
  for (const auto& [key, value] : db.Scan(db.db())) {
    bool found = false;
    FUZZ_CHECK(db.Get(db.db(), key, &found) == value && found, "get agrees with the cursor");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input input(data, size);
  uint8_t choice = input.Byte();
  MemDb db;
  if (choice & 2) {
    for (char c = 'a'; c <= 'z'; c++) db.Put(db.db(), std::string(1, c), "existing");
  }
  if (choice & 4) db.Flush(db.db());
  db.WriteFile("/input.sst", input.Rest());
  const char* paths[] = {"/input.sst"};
  uint32_t flags = (choice & 1) ? PR_INGEST_MOVE : 0;
  if (pr_db_ingest(db.db(), paths, 1, flags, db.err, sizeof db.err) != PR_OK) return 0;
  ReadEverything(db);
  db.Flush(db.db());
  FUZZ_CHECK(pr_db_compact_range(db.db(), nullptr, 0, nullptr, 0, 0, db.err, sizeof db.err) ==
                 PR_OK,
             db.err);
  ReadEverything(db);
  db.Reopen();
  ReadEverything(db);
  return 0;
}
