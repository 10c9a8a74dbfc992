//===- TripCount.cpp - Exact static trip counts of K-loops ----------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The trip count of a loop whose bounds are constants, or whose upper bound
// is its lower bound plus a constant that provably does not wrap. A static
// trip count spares the pipelined loop its run-time version (the original
// loop as a fallback, which costs registers).
//
//===----------------------------------------------------------------------===//

#include "pk/KLoopMatcher.h"

#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-trip-count"

using namespace mlir;
using namespace mlir::pk;

/// `(ub - lb + step - 1) / step` in 128 bits, 0 when ub <= lb.
static APInt tripsOf(int64_t lb, int64_t ub, int64_t step) {
  APInt wideLb(128, lb, /*isSigned=*/true);
  APInt wideUb(128, ub, /*isSigned=*/true);
  APInt wideStep(128, step, /*isSigned=*/true);
  if (wideUb.sle(wideLb))
    return APInt(128, 0);
  return (wideUb - wideLb + wideStep - 1).udiv(wideStep);
}

/// The constant c of `ub = lb + c` (`arith.addi` either way round, or an
/// `affine.apply` of `d0 + c` / `s0 + c` on lb); std::nullopt otherwise.
static std::optional<int64_t> getConstantOffset(Value ub, Value lb) {
  if (auto add = ub.getDefiningOp<arith::AddIOp>()) {
    if (add.getLhs() == lb)
      return getConstantIntValue(add.getRhs());
    if (add.getRhs() == lb)
      return getConstantIntValue(add.getLhs());
    return std::nullopt;
  }
  auto apply = ub.getDefiningOp<affine::AffineApplyOp>();
  if (!apply || apply.getMapOperands().size() != 1 ||
      apply.getMapOperands()[0] != lb)
    return std::nullopt;
  AffineExpr expr = apply.getAffineMap().getResult(0);
  AffineExpr operand = apply.getAffineMap().getNumDims() == 1
                           ? getAffineDimExpr(0, apply.getContext())
                           : getAffineSymbolExpr(0, apply.getContext());
  auto offset = dyn_cast<AffineConstantExpr>(expr - operand);
  if (!offset)
    return std::nullopt;
  return offset.getValue();
}

/// True when the integer range analysis bounds `lb` (signed) so that
/// `lb + offset` stays within the loop type: the loop then runs exactly
/// `offset` worth of iterations.
static bool provesNoWrap(scf::ForOp forOp, Value lb, int64_t offset) {
  auto kernel = forOp->getParentOfType<gpu::GPUFuncOp>();
  if (!kernel)
    return false;
  DataFlowSolver solver;
  dataflow::loadBaselineAnalyses(solver);
  solver.load<dataflow::IntegerRangeAnalysis>();
  if (failed(solver.initializeAndRun(kernel))) {
    LDBG() << "integer range analysis failed -> trip count dynamic";
    return false;
  }
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(lb);
  if (!lattice || lattice->getValue().isUninitialized()) {
    LDBG() << "no range for the lower bound -> trip count dynamic";
    return false;
  }
  const ConstantIntRanges &range = lattice->getValue().getValue();
  unsigned width = range.smax().getBitWidth();
  bool overflow = false;
  APInt offsetBits(width, offset, /*isSigned=*/true);
  (void)range.smax().sadd_ov(offsetBits, overflow);
  if (!overflow)
    (void)range.smin().sadd_ov(offsetBits, overflow);
  LDBG_OS([&](raw_ostream &os) {
    os << "lower bound in [" << range.smin() << ", " << range.smax() << "] + "
       << offset << (overflow ? " may wrap" : " does not wrap");
  });
  return !overflow;
}

std::optional<APInt> mlir::pk::getExactStaticTripCount(scf::ForOp forOp) {
  Value lbValue = forOp.getLowerBound(), ubValue = forOp.getUpperBound();
  std::optional<int64_t> lb = getConstantIntValue(lbValue);
  std::optional<int64_t> ub = getConstantIntValue(ubValue);
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  if (!step || *step <= 0)
    return std::nullopt;
  if (lb && ub)
    return tripsOf(*lb, *ub, *step);
  std::optional<int64_t> offset = getConstantOffset(ubValue, lbValue);
  if (!offset || !provesNoWrap(forOp, lbValue, *offset))
    return std::nullopt;
  return tripsOf(0, *offset, *step);
}
