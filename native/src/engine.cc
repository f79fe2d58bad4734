// The "engine" section of pinrock.h: the RocksDB version linked in.
#include "pinrock.h"

#include <rocksdb/version.h>

extern "C" {

int32_t pr_engine_version(void) {
  return ROCKSDB_MAJOR * 10000 + ROCKSDB_MINOR * 100 + ROCKSDB_PATCH;
}

}  // extern "C"
