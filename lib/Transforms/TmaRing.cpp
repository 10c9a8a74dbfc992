//===- TmaRing.cpp - The mbarrier ring of the tma variant -----------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// variant=tma (docs/hopper.md "TMA ring"): a K-loop whose tiles TMA copies
// on one mbarrier (KLoopInfo::tma) gets N stages of its tiles and a ring of
// N mbarriers. Tile t's loads complete on barrier t % N; barrier s then
// completes one phase per tile it carries, so the wait of tile t waits on
// parity (t / N) % 2. The CTA barrier at the end of each iteration, after
// every warp's wgmma of the tile retired, releases the stage: the copies of
// tile t + N - 1 - g (g: wgmma groups in flight) refill the stage of tile
// t - 1 - g. Multi-buffering (MultiBuffer.cpp) and upstream's pipeliner
// (Schedule.cpp, buildTmaSchedule) do the rest.
// Tests: test/e2e/pk-pipeline-kloops.test (TMA), test/e2e/pk-pipeline-kloops-
// invalid.test (TMA-*), test/test-pk-tma-ring.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/PipelineSteps.h"

#include "pk/Support.h"
#include "pk/TileLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-tma-ring"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

/// Tiles on which pk evaluates the wait's parity when it cannot evaluate
/// every tile (a dynamic or larger trip count); the parity must then also
/// have the canonical form (isCanonicalParity).
static constexpr int64_t kParityProbeTiles = 4;
/// Static trip counts up to this many tiles: pk evaluates every tile.
static constexpr int64_t kParityEveryTileLimit = 1 << 16;

/// Whether `value` is built from the induction variable only by `iv - lb`,
/// `/ step`, `% 2` or `& 1`, and casts: a function of the tile index whose
/// values on the first tiles decide it (t % 2, or a constant multiple).
static bool isCanonicalParity(Value value, scf::ForOp forOp) {
  if (value == forOp.getInductionVar())
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || !forOp->isProperAncestor(def))
    return false;
  auto isConstant = [](Value v, int64_t c) {
    std::optional<int64_t> got = getConstantIntValue(v);
    return got && *got == c;
  };
  auto same = [](Value v, Value bound) {
    std::optional<int64_t> a = getConstantIntValue(v);
    std::optional<int64_t> b = getConstantIntValue(bound);
    return v == bound || (a && b && *a == *b);
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::TruncIOp>(def))
    return isCanonicalParity(def->getOperand(0), forOp);
  Value lhs = def->getNumOperands() == 2 ? def->getOperand(0) : Value();
  Value rhs = def->getNumOperands() == 2 ? def->getOperand(1) : Value();
  if ((isa<arith::RemUIOp, arith::RemSIOp>(def) && isConstant(rhs, 2)) ||
      (isa<arith::AndIOp>(def) && isConstant(rhs, 1)) ||
      (isa<arith::DivUIOp, arith::DivSIOp>(def) &&
       same(rhs, forOp.getStep())) ||
      (isa<arith::SubIOp>(def) && same(rhs, forOp.getLowerBound())))
    return isCanonicalParity(lhs, forOp);
  return false;
}

DeclineOr<void> mlir::pk::detail::checkTmaRing(const KLoopInfo &info) {
  scf::ForOp forOp = info.forOp;
  nvgpu::MBarrierTryWaitParityOp wait = info.tma->wait;
  std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  if (!lb || !step)
    return Decline(forOp, "the TMA loop's lower bound and step must be "
                          "constants: pk checks that the wait's parity is the "
                          "tile index modulo 2 by evaluating it");
  // Every tile of a static trip count; otherwise the first tiles of a
  // parity of the canonical form, which they decide.
  int64_t tiles = kParityProbeTiles;
  if (info.tripCount && *info.tripCount <= kParityEveryTileLimit)
    tiles = *info.tripCount;
  else if (!isCanonicalParity(wait.getPhaseParity(), forOp))
    return Decline(wait, "the parity of this nvgpu.mbarrier.try_wait.parity "
                         "is not of the form ((iv - lb) / step) % 2, and the "
                         "trip count is dynamic or above " +
                             Twine(kParityEveryTileLimit) +
                             " tiles: pk cannot check it on every tile");
  Type ivType = forOp.getInductionVar().getType();
  for (int64_t tile = 0; tile < tiles; ++tile) {
    DenseMap<Value, Attribute> known;
    Attribute iv = IntegerAttr::get(ivType, *lb + tile * *step);
    auto parity = dyn_cast_or_null<IntegerAttr>(
        foldForIteration(wait.getPhaseParity(), forOp, iv, known));
    if (!parity || parity.getValue().getZExtValue() != uint64_t(tile % 2))
      return Decline(
          wait,
          "the parity of this nvgpu.mbarrier.try_wait.parity " +
              (parity
                   ? "is not the tile index modulo 2 (tile " +
                         std::to_string(tile) + " waits on parity " +
                         std::to_string(parity.getValue().getZExtValue()) + ")"
                   : "does not fold to a constant for tile " +
                         std::to_string(tile)) +
              "; pk pipelines the one-barrier protocol whose phase t "
              "completes with tile t");
  }
  return success();
}

void mlir::pk::detail::sinkTmaDestinationViews(RewriterBase &rewriter,
                                               const KLoopInfo &info) {
  for (nvgpu::TmaAsyncLoadOp load : info.tma->loads) {
    // The chain of views outside the loop, innermost first.
    SmallVector<memref::SubViewOp> chain;
    Value dst = load.getDst();
    while (auto subview = dst.getDefiningOp<memref::SubViewOp>()) {
      if (info.forOp->isAncestor(subview))
        break;
      chain.push_back(subview);
      dst = subview.getSource();
    }
    if (chain.empty())
      continue;
    rewriter.setInsertionPoint(load);
    IRMapping mapping;
    for (memref::SubViewOp subview : llvm::reverse(chain))
      rewriter.clone(*subview, mapping);
    rewriter.modifyOpInPlace(load, [&] {
      load.getDstMutable().assign(mapping.lookup(load.getDst()));
    });
    for (memref::SubViewOp subview : chain)
      if (subview->use_empty())
        rewriter.eraseOp(subview);
  }
}

void mlir::pk::detail::eraseUnusedChain(RewriterBase &rewriter, Value value,
                                        Operation *scope) {
  SmallVector<Operation *> worklist;
  llvm::SmallPtrSet<Operation *, 8> erased;
  if (Operation *def = value.getDefiningOp())
    worklist.push_back(def);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (erased.contains(op) || !scope->isProperAncestor(op) ||
        !op->use_empty() || !isMemoryEffectFree(op))
      continue;
    SetVector<Operation *> defs;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        defs.insert(def);
    erased.insert(op);
    rewriter.eraseOp(op);
    worklist.append(defs.begin(), defs.end());
  }
}

/// The group gets `stages` barriers; every init of barrier 0 initialises
/// the others the same way, right after it.
static void growBarrierGroup(RewriterBase &rewriter, const TmaLoadPhase &tma,
                             int64_t stages) {
  nvgpu::MBarrierCreateOp create = tma.create;
  auto oldType = create.getBarriers().getType();
  auto newType = nvgpu::MBarrierGroupType::get(
      rewriter.getContext(), oldType.getMemorySpace(), stages);
  rewriter.modifyOpInPlace(create,
                           [&] { create.getBarriers().setType(newType); });
  for (nvgpu::MBarrierInitOp init : tma.inits) {
    rewriter.setInsertionPointAfter(init);
    for (int64_t i = 1; i < stages; ++i) {
      Value index = arith::ConstantIndexOp::create(rewriter, init.getLoc(), i);
      auto clone = cast<nvgpu::MBarrierInitOp>(rewriter.clone(*init));
      rewriter.modifyOpInPlace(clone,
                               [&] { clone.getMbarIdMutable().assign(index); });
    }
  }
}

Operation *mlir::pk::detail::buildTmaBarrierRing(RewriterBase &rewriter,
                                                 const KLoopInfo &info,
                                                 int64_t stages,
                                                 Value loadStage) {
  // The ops are handles; the analysis result stays const.
  TmaLoadPhase tma = *info.tma;
  scf::ForOp forOp = info.forOp;
  Location loc = forOp.getLoc();
  growBarrierGroup(rewriter, tma, stages);
  // The loads of the tile being issued: its barrier, the stage
  // multi-buffering gave their destinations.
  rewriter.modifyOpInPlace(
      tma.expectTx, [&] { tma.expectTx.getMbarIdMutable().assign(loadStage); });
  for (nvgpu::TmaAsyncLoadOp load : tma.loads)
    rewriter.modifyOpInPlace(
        load, [&] { load.getMbarIdMutable().assign(loadStage); });
  // The wait of the tile being computed: its barrier, phase (t / N) % 2.
  Operation *beforeWait = tma.wait->getPrevNode();
  rewriter.setInsertionPoint(tma.wait);
  Value tile = createTileIndex(rewriter, loc, forOp);
  Value count = arith::ConstantIndexOp::create(rewriter, loc, stages);
  Value stage = arith::RemUIOp::create(rewriter, loc, tile, count);
  Value phase = arith::DivUIOp::create(rewriter, loc, tile, count);
  Value two = arith::ConstantIndexOp::create(rewriter, loc, 2);
  Value parity = arith::IndexCastOp::create(
      rewriter, loc, tma.wait.getPhaseParity().getType(),
      arith::RemUIOp::create(rewriter, loc, phase, two));
  Value oldParity = tma.wait.getPhaseParity();
  rewriter.modifyOpInPlace(tma.wait, [&] {
    tma.wait.getMbarIdMutable().assign(stage);
    tma.wait.getPhaseParityMutable().assign(parity);
  });
  // The first op created above (the loop's tile index may be its induction
  // variable, but the stage count is a new constant).
  Operation *waitStart =
      beforeWait ? beforeWait->getNextNode() : &forOp.getBody()->front();
  eraseUnusedChain(rewriter, oldParity, forOp);
  LDBG() << "TMA ring of " << stages << " barriers at "
         << locationToString(loc);
  return waitStart;
}
