// Hooks for pinrock's own native tests and fuzz targets: C++ functions, not
// part of the C ABI and not exported from libpinrock.so.
#ifndef PINROCK_TESTING_H
#define PINROCK_TESTING_H

#include "pinrock.h"

#include <rocksdb/env.h>

#include <memory>

// Makes databases opened (and table files written) with options go through
// env instead of the default Env, e.g. an in-memory one or one over a file
// system that simulates power loss. options holds a reference to env, but a
// database opened with them does not: the caller keeps env alive until every
// such database is closed.
void pinrock_testing_set_env(pr_options_t* options, std::shared_ptr<rocksdb::Env> env);

#endif  // PINROCK_TESTING_H
