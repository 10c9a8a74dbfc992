//===- Budget.cpp - Shared-memory and occupancy budget of a K-loop --------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Multi-buffering a K-loop replicates the shared buffers its load phase
// writes. This file computes what that costs on a target: shared memory
// single- and multi-buffered, the occupancy before and after, the cliff
// (the most shared memory per block that keeps the blocks/SM target) and
// whether a limit is crossed. Numbers only: Decision.cpp decides from them.
// Tests: test/pk-analyze-kloops*.mlir, test/pk-check-smem-budget*.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/Budget.h"

using namespace mlir;
using namespace mlir::pk;

std::pair<int64_t, StringRef> mlir::pk::getRegsPerThread(const KLoopInfo &info,
                                                         int64_t option) {
  if (option > 0)
    return {option, "option"};
  if (auto attr =
          info.kernel->getAttrOfType<IntegerAttr>(kRegsPerThreadAttrName))
    return {attr.getInt(), "attribute"};
  // The kernel's launch bound: ptxas keeps the registers at or below it.
  if (auto attr = info.kernel->getAttrOfType<IntegerAttr>("nvvm.maxnreg"))
    if (attr.getInt() >= 1)
      return {std::min(attr.getInt(), kDefaultRegsPerThread),
              "kernel nvvm.maxnreg"};
  return {kDefaultRegsPerThread, "default"};
}

KLoopBudget mlir::pk::computeBudget(const KLoopInfo &info,
                                    const TargetInfo &target,
                                    const BudgetOptions &options) {
  KLoopBudget budget;
  budget.target = &target;
  budget.stages = options.stages;
  budget.minBlocksPerSM = options.minBlocksPerSM;
  auto [regs, source] = getRegsPerThread(info, options.regsPerThread);
  budget.regsPerThread = regs;
  budget.regsSource = source.str();
  budget.smemSingleBytes = info.smemSingleBytes;
  budget.smemMultiBytes = info.smemMultiBytes(options.stages);
  budget.cliffBytes = computeSmemCliff(target, options.minBlocksPerSM);
  budget.threadsPerBlock = options.threadsPerBlock > 0 ? options.threadsPerBlock
                                                       : info.threadsPerBlock;
  budget.single = computeOccupancy(target, budget.threadsPerBlock,
                                   budget.regsPerThread, info.smemSingleBytes);
  budget.multi = computeOccupancy(target, budget.threadsPerBlock,
                                  budget.regsPerThread, budget.smemMultiBytes);
  budget.exceedsPerBlockMax = budget.smemMultiBytes > target.smemPerBlockOptIn;
  budget.crossesCliff = budget.multi.blocksPerSM < options.minBlocksPerSM &&
                        budget.multi.blocksPerSM < budget.single.blocksPerSM;
  return budget;
}
