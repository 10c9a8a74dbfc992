//===- Budget.h - Shared memory and occupancy budget ------------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The second stage of pk's data flow (docs/architecture.md): what
// multi-buffering a matched K-loop costs on a target, in numbers only.
// Shared memory single- and multi-buffered, the occupancy cliff, resident
// blocks per SM before and after, and whether the per-block maximum or the
// cliff is crossed. Which variant and stage count to use is decided from
// these numbers in Decision.h.
//
//===----------------------------------------------------------------------===//

#ifndef PK_BUDGET_H
#define PK_BUDGET_H

#include "pk/KLoopInfo.h"
#include "pk/Target.h"

#include <string>

namespace mlir {
namespace pk {

/// Registers per thread assumed when neither the option nor the kernel's
/// `pk.regs_per_thread` attribute gives a count.
constexpr int64_t kDefaultRegsPerThread = 128;

/// The inputs of the budget besides the loop and the target.
struct BudgetOptions {
  /// Number of shared buffers multi-buffering creates (>= 1).
  int64_t stages = 2;
  /// Resident blocks per SM the multi-buffered kernel must keep.
  int64_t minBlocksPerSM = 2;
  /// Registers per thread; 0: the kernel's `pk.regs_per_thread`, else
  /// kDefaultRegsPerThread.
  int64_t regsPerThread = 0;
  /// Threads per block; 0: the loop's (KLoopInfo::threadsPerBlock). More
  /// when the transform grows the block (warp specialization).
  int64_t threadsPerBlock = 0;
};

/// The target-dependent numbers of a matched K-loop with `stages` buffers.
struct KLoopBudget {
  const TargetInfo *target = nullptr;
  int64_t stages = 2;
  int64_t minBlocksPerSM = 2;
  int64_t regsPerThread = 0;
  /// Threads of the block budgeted.
  int64_t threadsPerBlock = 0;
  /// Where the register count came from ("option", "attribute", "default").
  std::string regsSource;
  int64_t smemSingleBytes = 0, smemMultiBytes = 0;
  /// Largest shared memory per block that keeps minBlocksPerSM blocks/SM.
  int64_t cliffBytes = 0;
  Occupancy single, multi;
  /// Whether multi-buffering exceeds the per-block maximum.
  bool exceedsPerBlockMax = false;
  /// Whether multi-buffering drops blocks/SM below minBlocksPerSM (and below
  /// the single-buffered kernel's).
  bool crossesCliff = false;

  /// Whether `stages` buffers fit: neither limit is crossed.
  bool fits() const { return !exceedsPerBlockMax && !crossesCliff; }
};

/// The registers per thread the budget assumes for `info` and where the
/// count comes from: "option", "attribute" (pk.regs_per_thread), "kernel
/// nvvm.maxnreg" (the launch bound, when below the default) or "default".
std::pair<int64_t, llvm::StringRef> getRegsPerThread(const KLoopInfo &info,
                                                     int64_t option);

/// Computes the budget of `info` on `target` with `options.stages` buffers.
KLoopBudget computeBudget(const KLoopInfo &info, const TargetInfo &target,
                          const BudgetOptions &options);

/// The pipelining procedure's remedies for a budget that is crossed, sized:
/// halve BK, halve the tile copied from one source (BM or BN), or register
/// prefetch without doubling, each with the bytes and blocks/SM it gives.
std::string describeRemedies(const KLoopInfo &info, const KLoopBudget &budget);

} // namespace pk
} // namespace mlir

#endif // PK_BUDGET_H
