// The "shared I/O limits" section of pinrock.h: a rate limiter and an SST
// file manager that several databases share.
#include "internal.h"

#include <rocksdb/env.h>
#include <rocksdb/rate_limiter.h>
#include <rocksdb/sst_file_manager.h>

#include <cstdlib>
#include <limits>
#include <memory>
#include <map>
#include <string>

using namespace pinrock::internal;

struct pr_rate_limiter {
  std::shared_ptr<LiftableRateLimiter> limiter;
  int64_t refill_period_us;
};

struct pr_sst_file_manager {
  std::shared_ptr<rocksdb::SstFileManager> manager;
};

namespace {

constexpr int64_t kMicrosPerSecond = 1000000;

// GenericRateLimiter grants rate * refill_period_us / 10^6 bytes a period:
// a rate that refills nothing never grants a request (flushes and
// compactions wait forever), and a rate of 0 divides by zero.
int32_t check_refill(int64_t lowest_rate, int64_t bytes_per_second, int64_t refill_period_us,
                     char* err, size_t err_cap) {
  // lowest_rate * refill_period_us >= 10^6, without overflow.
  if (lowest_rate <= 0 || lowest_rate < (kMicrosPerSecond + refill_period_us - 1) / refill_period_us) {
    return invalid_argument("a rate limit of " + std::to_string(bytes_per_second) +
                                " bytes per second refills nothing in a period of " +
                                std::to_string(refill_period_us) + " us (auto-tuned, 1/20 of it)",
                            err, err_cap);
  }
  return PR_OK;
}

// Every LiftableRateLimiter alive, for Of and for the process's exit.
// Never destroyed: a limiter may be freed while the process exits.
std::mutex& limiters_mutex() {
  static std::mutex* mutex = new std::mutex();
  return *mutex;
}
std::map<const rocksdb::RateLimiter*, LiftableRateLimiter*>& limiters() {
  static auto* live = new std::map<const rocksdb::RateLimiter*, LiftableRateLimiter*>();
  return *live;
}

// Lifts every limiter, never restored: the process is exiting, and its
// exit joins RocksDB's background threads (a static object of
// rocksdb::Env::Default), which would wait for a flush or compaction under
// the rate limit.
void lift_every_limiter_at_exit() {
  std::lock_guard<std::mutex> lock(limiters_mutex());
  for (const auto& [key, limiter] : limiters()) limiter->Lift();
}

}  // namespace

namespace pinrock::internal {

LiftableRateLimiter::LiftableRateLimiter(rocksdb::RateLimiter* generic, Mode mode)
    : rocksdb::RateLimiter(mode), generic_(generic) {
  // Registered after the default Env exists, so the handler runs before the
  // Env's static joiner of background threads (exit runs them in reverse).
  static const bool registered = [] {
    rocksdb::Env::Default();
    return std::atexit(lift_every_limiter_at_exit) == 0;
  }();
  (void)registered;
  std::lock_guard<std::mutex> lock(limiters_mutex());
  limiters()[this] = this;
}

LiftableRateLimiter::~LiftableRateLimiter() {
  std::lock_guard<std::mutex> lock(limiters_mutex());
  limiters().erase(this);
}

std::shared_ptr<LiftableRateLimiter> LiftableRateLimiter::Of(
    const std::shared_ptr<rocksdb::RateLimiter>& limiter) {
  std::lock_guard<std::mutex> lock(limiters_mutex());
  if (limiters().count(limiter.get()) == 0) return nullptr;
  return std::static_pointer_cast<LiftableRateLimiter>(limiter);
}

void LiftableRateLimiter::Lift() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (lifts_++ == 0) rate_ = generic_->GetBytesPerSecond();
  lifted_.store(true);
  // Grants what waits in the generic limiter at its next refill: each
  // request waits for one burst (a refill at rate_) at most, and a few may
  // slip in before lifted_ turns them away. No more: what a refill leaves
  // over stays available after Restore, unlimited (an unbounded lift rate
  // left the limiter granting everything for good).
  int64_t waiting = 0;
  generic_->GetTotalPendingRequests(&waiting, rocksdb::Env::IO_TOTAL).PermitUncheckedError();
  const int64_t bursts = waiting + 4;
  const int64_t max = std::numeric_limits<int64_t>::max();
  generic_->SetBytesPerSecond(rate_ > max / bursts ? max : rate_ * bursts);
}

void LiftableRateLimiter::Restore() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (--lifts_ > 0) return;
  generic_->SetBytesPerSecond(rate_);
  lifted_.store(false);
}

void LiftableRateLimiter::SetBytesPerSecond(int64_t bytes_per_second) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (lifts_ > 0) {
    rate_ = bytes_per_second;
  } else {
    generic_->SetBytesPerSecond(bytes_per_second);
  }
}

int64_t LiftableRateLimiter::GetBytesPerSecond() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lifts_ > 0 ? rate_ : generic_->GetBytesPerSecond();
}

rocksdb::Status LiftableRateLimiter::SetSingleBurstBytes(int64_t single_burst_bytes) {
  return generic_->SetSingleBurstBytes(single_burst_bytes);
}

void LiftableRateLimiter::Request(int64_t bytes, rocksdb::Env::IOPriority pri,
                                  rocksdb::Statistics* stats) {
  if (lifted_.load()) return;
  generic_->Request(bytes, pri, stats);
}

int64_t LiftableRateLimiter::GetSingleBurstBytes() const { return generic_->GetSingleBurstBytes(); }

int64_t LiftableRateLimiter::GetTotalBytesThrough(rocksdb::Env::IOPriority pri) const {
  return generic_->GetTotalBytesThrough(pri);
}

int64_t LiftableRateLimiter::GetTotalRequests(rocksdb::Env::IOPriority pri) const {
  return generic_->GetTotalRequests(pri);
}

rocksdb::Status LiftableRateLimiter::GetTotalPendingRequests(int64_t* total_pending_requests,
                                                            rocksdb::Env::IOPriority pri) const {
  return generic_->GetTotalPendingRequests(total_pending_requests, pri);
}

}  // namespace pinrock::internal

extern "C" {

int32_t pr_rate_limiter_create(int64_t bytes_per_second, int64_t refill_period_us,
                               int32_t fairness, int32_t mode, int32_t auto_tuned,
                               pr_rate_limiter_t** limiter_out, char* err, size_t err_cap) {
  *limiter_out = nullptr;
  return guarded(err, err_cap, [&] {
    if (refill_period_us < 1000 || refill_period_us > 10 * kMicrosPerSecond) {
      return invalid_argument("a refill period of " + std::to_string(refill_period_us) +
                                  " us is outside [1000, 10000000]",
                              err, err_cap);
    }
    if (fairness < 1 || fairness > 100) {
      return invalid_argument("fairness " + std::to_string(fairness) + " is outside [1, 100]",
                              err, err_cap);
    }
    if (mode < PR_RATE_LIMIT_READS || mode > PR_RATE_LIMIT_ALL) {
      return invalid_argument("rate limiter mode must be 0..2, got " + std::to_string(mode), err,
                              err_cap);
    }
    // Auto-tuning starts at half the rate and may go down to a twentieth.
    int32_t status = check_refill(auto_tuned ? bytes_per_second / 20 : bytes_per_second,
                                  bytes_per_second, refill_period_us, err, err_cap);
    if (status != PR_OK) return status;
    auto limiter = std::make_unique<pr_rate_limiter>();
    const auto rocks_mode = static_cast<rocksdb::RateLimiter::Mode>(mode);
    limiter->limiter = std::make_shared<LiftableRateLimiter>(
        rocksdb::NewGenericRateLimiter(bytes_per_second, refill_period_us, fairness, rocks_mode,
                                       auto_tuned != 0),
        rocks_mode);
    limiter->refill_period_us = refill_period_us;
    *limiter_out = limiter.release();
    return PR_OK;
  });
}

void pr_rate_limiter_destroy(pr_rate_limiter_t* limiter) { delete limiter; }

int32_t pr_rate_limiter_set_bytes_per_second(pr_rate_limiter_t* limiter, int64_t bytes_per_second,
                                             char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    int32_t status = check_refill(bytes_per_second, bytes_per_second, limiter->refill_period_us,
                                  err, err_cap);
    if (status != PR_OK) return status;
    limiter->limiter->SetBytesPerSecond(bytes_per_second);
    return PR_OK;
  });
}

int64_t pr_rate_limiter_read(const pr_rate_limiter_t* limiter, int32_t value) {
  switch (value) {
    case PR_RATE_LIMITER_BYTES_PER_SECOND:
      return limiter->limiter->GetBytesPerSecond();
    case PR_RATE_LIMITER_TOTAL_BYTES:
      return limiter->limiter->GetTotalBytesThrough();
    case PR_RATE_LIMITER_TOTAL_REQUESTS:
      return limiter->limiter->GetTotalRequests();
    default:
      return -1;
  }
}

int32_t pr_options_set_rate_limiter(pr_options_t* options, const pr_rate_limiter_t* limiter,
                                    char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->db.rate_limiter = limiter->limiter;
    return PR_OK;
  });
}

int32_t pr_sst_file_manager_create(pr_sst_file_manager_t** manager_out, char* err,
                                   size_t err_cap) {
  *manager_out = nullptr;
  return guarded(err, err_cap, [&] {
    auto manager = std::make_unique<pr_sst_file_manager>();
    manager->manager.reset(rocksdb::NewSstFileManager(rocksdb::Env::Default()));
    *manager_out = manager.release();
    return PR_OK;
  });
}

void pr_sst_file_manager_destroy(pr_sst_file_manager_t* manager) { delete manager; }

int32_t pr_sst_file_manager_set(pr_sst_file_manager_t* manager, int32_t setting, int64_t value,
                                char* err, size_t err_cap) {
  return guarded(err, err_cap, [&] {
    if (value < 0) {
      return invalid_argument("an SST file manager setting cannot be negative, got " +
                                  std::to_string(value),
                              err, err_cap);
    }
    rocksdb::SstFileManager& m = *manager->manager;
    switch (setting) {
      case PR_SST_MAX_ALLOWED_SPACE:
        m.SetMaxAllowedSpaceUsage(static_cast<uint64_t>(value));
        return PR_OK;
      case PR_SST_COMPACTION_BUFFER:
        m.SetCompactionBufferSize(static_cast<uint64_t>(value));
        return PR_OK;
      case PR_SST_DELETE_RATE:
        m.SetDeleteRateBytesPerSecond(value);
        return PR_OK;
      default:
        return invalid_argument("SST file manager setting " + std::to_string(setting) +
                                    " is not settable (0..2 are)",
                                err, err_cap);
    }
  });
}

int64_t pr_sst_file_manager_read(const pr_sst_file_manager_t* manager, int32_t value) {
  rocksdb::SstFileManager& m = *manager->manager;
  switch (value) {
    case PR_SST_DELETE_RATE:
      return m.GetDeleteRateBytesPerSecond();
    case PR_SST_TOTAL_SIZE:
      return static_cast<int64_t>(m.GetTotalSize());
    case PR_SST_TRASH_SIZE:
      return static_cast<int64_t>(m.GetTotalTrashSize());
    case PR_SST_SPACE_LIMIT_REACHED:
      return m.IsMaxAllowedSpaceReached() ? 1 : 0;
    default:
      return -1;
  }
}

int32_t pr_options_set_sst_file_manager(pr_options_t* options,
                                        const pr_sst_file_manager_t* manager, char* err,
                                        size_t err_cap) {
  return guarded(err, err_cap, [&] {
    options->db.sst_file_manager = manager->manager;
    return PR_OK;
  });
}

}  // extern "C"
