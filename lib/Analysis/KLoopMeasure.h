//===- KLoopMeasure.h - The numbers of a matched K-loop ---------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The measurement half of the analysis (KLoopMeasure.cpp): the matcher
// (KLoopMatcher.cpp) recognizes the structure and hands every compute op it
// walks to a ComputeCounter; `finish` turns the counts and the copies into
// KLoopInfo's numbers (shared memory, bytes and FLOPs per tile, the ratio).
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_ANALYSIS_KLOOPMEASURE_H
#define PK_LIB_ANALYSIS_KLOOPMEASURE_H

#include "pk/Decline.h"
#include "pk/KLoopInfo.h"
#include "pk/MemoryAccess.h"

#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace pk {
namespace detail {

/// The size of the shared buffer `what` of `type`, or a Decline at `at`:
/// a dynamic shape, elements that are not whole bytes, or a size above
/// kMaxSharedBufferBytes (or above int64_t).
DeclineOr<int64_t> getSharedBufferBytes(Operation *at, MemRefType type,
                                        const Twine &what);

/// Counts what the compute phase of one K-iteration executes.
class ComputeCounter {
public:
  explicit ComputeCounter(KLoopInfo &info) : info(info) {}

  /// Counts `op`, executed `executions` times per K-iteration, if it is a
  /// compute op (nvgpu.mma.sync, vector.contract, vector.fma / math.fma, a
  /// float or vector multiply feeding an add); returns whether it was one.
  bool count(Operation *op, int64_t executions);
  /// Counts the shared-memory loads of the compute-phase read `access` (by
  /// `op`; an ldmatrix counts none), executed `executions` times per
  /// K-iteration.
  void countSharedRead(Operation *op, const MemoryAccess &access,
                       int64_t executions);
  /// Counts a warpgroup MMA (its FLOPs once per warpgroup).
  void countWarpgroupMma(const WarpgroupMma &wgmma);
  /// Whether no compute op was counted.
  bool empty() const { return order.empty(); }
  /// When no compute op was counted, takes the float element-wise
  /// arithmetic `count` saw (arith.addf / subf / mulf / divf: a stencil's
  /// sums) as the compute, one FLOP per element; returns whether it did.
  bool adoptElementwise();

  /// Fills KLoopInfo's numbers: shared memory single-buffered and per
  /// stage, bytes loaded per tile, FLOPs per tile by pipe, the compute
  /// breakdown and the compute/load ratio.
  void finish() const;

private:
  void add(StringRef kind, int64_t flops, int64_t count, bool perWarp);

  KLoopInfo &info;
  /// FLOPs per K-iteration executed per warp (mma.sync) and per thread.
  int64_t flopsPerWarp = 0, flopsPerThread = 0;
  /// FLOPs per K-iteration executed per warpgroup (wgmma).
  int64_t flopsPerWarpgroup = 0;
  llvm::StringMap<int64_t> counts;
  SmallVector<std::string> order;
  /// Float element-wise FLOPs per thread and K-iteration, and their ops
  /// (adoptElementwise).
  int64_t elementwiseFlops = 0, elementwiseOps = 0;
};

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_LIB_ANALYSIS_KLOOPMEASURE_H
