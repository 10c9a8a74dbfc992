//===- TileLoopNest.cpp - A persistent kernel's tile loop
//------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// matchTileLoopNest (TileLoops.h): whether a tile loop and the TMA K-loop in
// it can become one loop over (tile, k-step). Test:
// test/pk-flatten-tile-loops.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/TileLoops.h"

#include "pk/MemoryAccess.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-tile-loops"

using namespace mlir;
using namespace mlir::pk;

/// K-loops up to this many k-steps: pk evaluates the wait's parity on each.
static constexpr int64_t kMaxEvaluatedKSteps = 1 << 16;

Attribute mlir::pk::foldForIteration(Value value, scf::ForOp forOp,
                                     Attribute iv,
                                     DenseMap<Value, Attribute> &known) {
  if (value == forOp.getInductionVar())
    return iv;
  if (Attribute attr = known.lookup(value))
    return attr;
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant)))
    return constant;
  Operation *def = value.getDefiningOp();
  if (!def || !forOp->isProperAncestor(def) || def->getNumRegions() ||
      !isMemoryEffectFree(def))
    return {};
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    Attribute attr = foldForIteration(operand, forOp, iv, known);
    if (!attr)
      return {};
    operands.push_back(attr);
  }
  SmallVector<OpFoldResult> results;
  if (failed(def->fold(operands, results)) ||
      results.size() != def->getNumResults())
    return {};
  for (auto [result, folded] : llvm::zip(def->getResults(), results)) {
    Attribute attr = dyn_cast<Attribute>(folded);
    if (!attr)
      attr = foldForIteration(cast<Value>(folded), forOp, iv, known);
    if (!attr)
      return {};
    known[result] = attr;
  }
  return known.lookup(value);
}

/// The `scf.for` ops directly in `loop`'s body that issue TMA loads
/// directly in theirs (K-loop candidates).
static SmallVector<scf::ForOp> getTmaLoops(scf::ForOp loop) {
  SmallVector<scf::ForOp> loops;
  for (auto nested : loop.getBody()->getOps<scf::ForOp>())
    if (!nested.getBody()->getOps<nvgpu::TmaAsyncLoadOp>().empty())
      loops.push_back(nested);
  return loops;
}

bool mlir::pk::isTileLoopCandidate(scf::ForOp loop) {
  return !getTmaLoops(loop).empty();
}

/// The K-loop's static, even number of k-steps.
static DeclineOr<int64_t> getKSteps(scf::ForOp kLoop) {
  std::optional<int64_t> lb = getConstantIntValue(kLoop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(kLoop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(kLoop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return Decline(kLoop, "tile loop: the K-loop's bounds and step must be "
                          "constants: pk flattens a nest whose tiles all have "
                          "the same number of k-steps");
  if (kLoop.getUnsignedCmp())
    return Decline(kLoop, "tile loop: the K-loop compares its bounds "
                          "unsigned; pk flattens signed loops");
  if (kLoop.getNumRegionIterArgs() == 0)
    return Decline(kLoop, "tile loop: the K-loop carries no accumulators "
                          "(iter_args)");
  int64_t steps = *ub > *lb ? llvm::divideCeil(*ub - *lb, *step) : 0;
  if (steps == 0 || steps % 2 != 0 || steps > kMaxEvaluatedKSteps)
    return Decline(kLoop, "tile loop: the K-loop has " + Twine(steps) +
                              " k-steps; pk flattens a nest whose K-loop has "
                              "an even number of them (at most " +
                              Twine(kMaxEvaluatedKSteps) +
                              "), so that the one mbarrier's phase of "
                              "k-step t is t % 2 in every tile");
  return steps;
}

/// The K-loop's one mbarrier wait, whose parity is the k-step modulo 2 on
/// each of its `steps` k-steps.
static DeclineOr<nvgpu::MBarrierTryWaitParityOp> getParityWait(scf::ForOp kLoop,
                                                               int64_t steps) {
  auto waits = kLoop.getBody()->getOps<nvgpu::MBarrierTryWaitParityOp>();
  if (waits.empty() || std::next(waits.begin()) != waits.end())
    return Decline(kLoop, "tile loop: the K-loop must wait on its mbarrier "
                          "exactly once per k-step "
                          "(nvgpu.mbarrier.try_wait.parity)");
  nvgpu::MBarrierTryWaitParityOp wait = *waits.begin();
  int64_t lb = *getConstantIntValue(kLoop.getLowerBound());
  int64_t step = *getConstantIntValue(kLoop.getStep());
  Type ivType = kLoop.getInductionVar().getType();
  for (int64_t t = 0; t < steps; ++t) {
    DenseMap<Value, Attribute> known;
    auto parity = dyn_cast_or_null<IntegerAttr>(
        foldForIteration(wait.getPhaseParity(), kLoop,
                         IntegerAttr::get(ivType, lb + t * step), known));
    if (!parity || parity.getValue().getZExtValue() != uint64_t(t % 2))
      return Decline(wait, "tile loop: the parity of this "
                           "nvgpu.mbarrier.try_wait.parity is not the k-step "
                           "modulo 2 (k-step " +
                               Twine(t) +
                               "); pk flattens the one-barrier protocol "
                               "whose phase t completes with k-step t");
  }
  return wait;
}

/// The code before the K-loop: side-effect-free ops without regions.
static DeclineOr<void> checkBeforeKLoop(scf::ForOp tileLoop, scf::ForOp kLoop) {
  for (Operation &op : tileLoop.getBody()->getOperations()) {
    if (&op == kLoop.getOperation())
      return success();
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return Decline(&op, "tile loop: the code before the K-loop must be "
                          "side-effect-free ops without regions (the "
                          "tile's indices); '" +
                              op.getName().getStringRef() + "' is not");
  }
  return success();
}

/// The code after the K-loop (the tile's epilogue), which flattening runs
/// while the next tile's loads fill the shared stages: checkTileEpilogue.
static DeclineOr<void> checkAfterKLoop(scf::ForOp tileLoop, scf::ForOp kLoop) {
  SmallVector<Operation *> epilogue;
  for (Operation *op = kLoop->getNextNode();
       op && op != tileLoop.getBody()->getTerminator(); op = op->getNextNode())
    epilogue.push_back(op);
  if (auto checked =
          checkTileEpilogue(epilogue, tileLoop, {kLoop.getOperation()});
      failed(checked))
    return checked.takeDecline();
  return success();
}

/// The K-loop writes no global memory: its final barrier orders such writes
/// before the tile's epilogue, which flattening moves above that barrier.
static DeclineOr<void> checkKLoopWrites(scf::ForOp kLoop) {
  Operation *culprit = nullptr;
  kLoop.getBody()->walk([&](Operation *op) {
    std::optional<MemoryAccess> access = getMemoryAccess(op);
    if (access && access->isWrite &&
        !isSharedMemory(cast<MemRefType>(access->memref.getType()))) {
      culprit = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (culprit)
    return Decline(culprit, "tile loop: the K-loop writes global memory, "
                            "which its final barrier orders before the "
                            "tile's epilogue; pk runs the epilogue before "
                            "that barrier");
  return success();
}

DeclineOr<TileLoopNest> mlir::pk::matchTileLoopNest(scf::ForOp tileLoop) {
  TileLoopNest nest;
  nest.tileLoop = tileLoop;
  SmallVector<scf::ForOp> kLoops = getTmaLoops(tileLoop);
  if (kLoops.size() != 1)
    return Decline(tileLoop, "tile loop: pk flattens a loop with exactly "
                             "one TMA K-loop directly in its body, not " +
                                 Twine(kLoops.size()));
  nest.kLoop = kLoops.front();
  if (tileLoop.getUnsignedCmp())
    return Decline(tileLoop, "tile loop: it compares its bounds unsigned; "
                             "pk flattens signed loops");
  if (tileLoop.getNumRegionIterArgs() != 0)
    return Decline(tileLoop, "tile loop: it carries values across tiles "
                             "(iter_args); pk flattens a tile loop whose "
                             "tiles are independent");
  for (Value init : nest.kLoop.getInitArgs())
    if (tileLoop.getRegion().isAncestor(init.getParentRegion()))
      return Decline(nest.kLoop,
                     "tile loop: the K-loop's accumulators must start from "
                     "values defined outside the tile loop (each tile's "
                     "epilogue hands them to the next tile)");
  DeclineOr<int64_t> steps = getKSteps(nest.kLoop);
  if (failed(steps))
    return steps.takeDecline();
  nest.kSteps = *steps;
  DeclineOr<nvgpu::MBarrierTryWaitParityOp> wait =
      getParityWait(nest.kLoop, nest.kSteps);
  if (failed(wait))
    return wait.takeDecline();
  nest.wait = *wait;
  if (DeclineOr<void> before = checkBeforeKLoop(tileLoop, nest.kLoop);
      failed(before))
    return before.takeDecline();
  if (DeclineOr<void> after = checkAfterKLoop(tileLoop, nest.kLoop);
      failed(after))
    return after.takeDecline();
  if (DeclineOr<void> writes = checkKLoopWrites(nest.kLoop); failed(writes))
    return writes.takeDecline();
  LDBG() << "tile loop nest with " << nest.kSteps << " k-steps per tile";
  return nest;
}
