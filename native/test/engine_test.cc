// GoogleTest tests of pinrock.h's engine section.
#include "pinrock.h"

#include <gtest/gtest.h>

namespace {

TEST(EngineTest, VersionIsTheLinkedRocksDb) { EXPECT_EQ(91000, pr_engine_version()); }

}  // namespace
