//===- UniformGuards.cpp - Fold the guards every thread passes ------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// IREE's VectorDistribute pipeline guards the shared stores of its load
// phase with `scf.if (gpu.thread_id y == 0)` under a known_block_size of
// (C, 1, 1): a condition every thread of the block meets. Upstream's integer
// range analysis proves it (gpu.thread_id's range comes from
// known_block_size); pk inlines such a guard's body, which puts the stores
// back in the load phase pk matches. Guards that some thread may fail are
// left alone. Tests: test/pk-normalize-workgroup-storage.mlir,
// test/iree/pipeline.test.
//
//===----------------------------------------------------------------------===//

#include "pk/Pipelining.h"

#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-uniform-guards"

using namespace mlir;

/// Whether the analysis proves `condition` (an i1) true for every thread.
static bool isProvenTrue(DataFlowSolver &solver, Value condition) {
  auto *lattice =
      solver.lookupState<dataflow::IntegerValueRangeLattice>(condition);
  if (!lattice || lattice->getValue().isUninitialized())
    return false;
  std::optional<APInt> constant =
      lattice->getValue().getValue().getConstantValue();
  return constant && constant->isOne();
}

int64_t mlir::pk::foldUniformGuards(RewriterBase &rewriter,
                                    gpu::GPUFuncOp kernel) {
  if (!kernel.isKernel())
    return 0;
  DataFlowSolver solver;
  dataflow::loadBaselineAnalyses(solver);
  solver.load<dataflow::IntegerRangeAnalysis>();
  if (failed(solver.initializeAndRun(kernel))) {
    LDBG() << "integer range analysis failed -> no guard folded";
    return 0;
  }
  // Guards inside loops only (the K-loop's phases), without results or an
  // else branch: the body runs for every thread, so it replaces the guard.
  SmallVector<scf::IfOp> guards;
  kernel.walk([&](scf::IfOp guard) {
    if (guard->getParentOfType<scf::ForOp>() && guard.getNumResults() == 0 &&
        guard.getElseRegion().empty() &&
        isProvenTrue(solver, guard.getCondition()))
      guards.push_back(guard);
  });
  for (scf::IfOp guard : guards) {
    Block *body = guard.thenBlock();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, guard);
    rewriter.eraseOp(guard);
  }
  return guards.size();
}
