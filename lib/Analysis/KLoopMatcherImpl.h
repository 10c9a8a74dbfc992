//===- KLoopMatcherImpl.h - The K-loop matcher's state ----------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The class behind matchKLoop (KLoopMatcher.h), shared by KLoopMatcher.cpp
// (structure, load phase, copies) and KLoopComputePhase.cpp (compute phase,
// warpgroup MMAs, proxy fences, accumulators in memory).
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_ANALYSIS_KLOOPMATCHERIMPL_H
#define PK_LIB_ANALYSIS_KLOOPMATCHERIMPL_H

#include "KLoopMeasure.h"

#include "pk/KLoopMatcher.h"
#include "pk/Support.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::pk::detail {

/// Adds to `loads` the memory reads inside `forOp` that `value` is computed
/// from (through any arithmetic).
void traceToLoads(Value value, scf::ForOp forOp,
                  llvm::SetVector<Operation *> &loads,
                  llvm::DenseSet<Value> &visited);
/// Matches one K-loop; keeps the state of the walk.
class KLoopMatcher {
public:
  KLoopMatcher(scf::ForOp forOp, KLoopInfo &info)
      : forOp(forOp), info(info), counter(info) {}

  LogicalResult match(int64_t threadsOverride);

  /// Why the loop does not match, after `match` failed.
  std::optional<Decline> decline;

private:
  /// Records why the loop does not match (at `at`, or at the loop).
  LogicalResult fail(Operation *at, const Twine &msg);
  LogicalResult fail(Decline why);

  LogicalResult splitAtBarriers();
  LogicalResult splitAtTmaWait(ArrayRef<gpu::BarrierOp> barriers);
  LogicalResult matchTmaOp(Operation *op);
  LogicalResult checkLoadSegments();
  LogicalResult collectBuffers();
  FailureOr<unsigned> findBuffer(Operation *user, Value memref);
  using PhaseWalker = LogicalResult (KLoopMatcher::*)(ArrayRef<Operation *>,
                                                      int64_t);
  LogicalResult walkNestedLoop(scf::ForOp nested, int64_t executions,
                               StringRef phase, PhaseWalker walk);
  LogicalResult walkLoadPhase(ArrayRef<Operation *> ops, int64_t executions);
  LogicalResult walkGuardedLoads(scf::IfOp ifOp, int64_t executions);
  LogicalResult walkComputePhase(ArrayRef<Operation *> ops, int64_t executions);
  LogicalResult walkTileEpilogue(scf::IfOp epilogue);
  LogicalResult pairCopies();
  LogicalResult addAsyncCopies();
  LogicalResult checkMemoryAccumulators();
  LogicalResult
  checkCopySources(ArrayRef<Value> written,
                   ArrayRef<std::pair<Operation *, Value>> movingWrites);
  LogicalResult checkNoLoopCarriedUse(Operation *op);
  FailureOr<bool> matchProxyFence(Operation *op, StringRef phase);
  void checkProxyFences();
  void markRetiredWgmmas();
  FailureOr<unsigned> findDescriptorBuffer(Operation *user, Value descriptor);
  LogicalResult matchWarpgroupMma(nvgpu::WarpgroupMmaOp mma,
                                  int64_t executions);

  scf::ForOp forOp;
  KLoopInfo &info;
  /// Global reads and shared writes of the load phase, with executions.
  SmallVector<std::pair<Operation *, int64_t>> globalLoads, sharedStores;
  /// Global memory accesses of the compute phase (accumulators in memory).
  SmallVector<Operation *> accumulatorAccesses;
  /// The stores of a tile epilogue that getMemoryAccess does not model
  /// (TMA stores, accumulator stores), with the global memory each writes.
  SmallVector<std::pair<Operation *, Value>> epilogueStores;
  /// Copies that are already nvgpu.device_async_copy, with executions.
  SmallVector<std::pair<nvgpu::DeviceAsyncCopyOp, int64_t>> asyncCopies;
  /// What the compute phase executes (KLoopMeasure.cpp).
  ComputeCounter counter;
};

} // namespace mlir::pk::detail

#endif // PK_LIB_ANALYSIS_KLOOPMATCHERIMPL_H
