# The shim's sources, one per section of include/pinrock.h, and directories.cc
# (the directories a database writes; internal.h holds what they share):
# libpinrock.so, the tests built with the shim and the instrumented build
# (native/CMakeLists.txt) all compile this one list.
set(PINROCK_SHIM_SOURCES engine.cc options.cc memory_budget.cc io_limits.cc info_log.cc database.cc event_listeners.cc
  bulk_load.cc reads.cc families.cc statistics.cc cursors.cc transactions.cc
  batches_with_index.cc callbacks.cc compaction_filters.cc comparators.cc
  directories.cc)
list(TRANSFORM PINROCK_SHIM_SOURCES PREPEND "${CMAKE_CURRENT_LIST_DIR}/")
