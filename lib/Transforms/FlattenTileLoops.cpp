//===- FlattenTileLoops.cpp - One loop over (tile, k-step)
//-----------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// flattenTileLoopNest (TileLoops.h). For a tile loop `for tile = lb to ub
// step s` around a K-loop of T k-steps (T even), the flat loop runs
//
//   for it = 0 to trips(lb, ub, s) * T iter_args(acc = init) {
//     tile = lb + (it / T) * s;  k = klb + (it % T) * kstep
//     <the tile loop's code before the K-loop>
//     <the K-loop's body up to its final barrier>      // acc -> acc'
//     acc'' = scf.if (it % T == T - 1) {               // pk.tile_epilogue
//       wgmma.wait_group 0; <the code after the K-loop on acc'>; yield init
//     } else { yield acc' }
//     <the K-loop's final barrier>
//     yield acc''
//   }
//
// The K-loop's wait parity was checked to be the k-step modulo 2 with T
// even, so it is `it % 2` in the flat loop, the form the TMA ring checks.
//
//===----------------------------------------------------------------------===//

#include "pk/TileLoops.h"

#include "pk/IRContract.h"
#include "pk/PipelineSteps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-tile-loops"

using namespace mlir;
using namespace mlir::pk;

/// `value` as index (a signed cast: pk flattens signed loops only).
static Value castToIndex(RewriterBase &rewriter, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                    value);
}

/// The number of iterations of `loop` as index: ceil((ub - lb) / step), 0
/// when ub <= lb; computed in index, so that a narrow induction variable's
/// span does not wrap.
static Value createTripCount(RewriterBase &rewriter, scf::ForOp loop) {
  Location loc = loop.getLoc();
  Value lb = castToIndex(rewriter, loc, loop.getLowerBound());
  Value ub = castToIndex(rewriter, loc, loop.getUpperBound());
  Value step = castToIndex(rewriter, loc, loop.getStep());
  Value span = arith::SubIOp::create(rewriter, loc, ub, lb);
  Value trips = arith::CeilDivUIOp::create(rewriter, loc, span, step);
  Value runs =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, lb, ub);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  return arith::SelectOp::create(rewriter, loc, runs, trips, zero);
}

/// `lb + index * step` in the type of `lb` (`index` is an index).
static Value createIterationValue(RewriterBase &rewriter, Location loc,
                                  Value lb, Value step, Value index) {
  Type type = lb.getType();
  if (!type.isIndex())
    index = arith::IndexCastOp::create(rewriter, loc, type, index);
  Value scaled = arith::MulIOp::create(rewriter, loc, index, step);
  return arith::AddIOp::create(rewriter, loc, lb, scaled);
}

/// Maps the tile loop's induction variable to `lb + (it / steps) * step`
/// and the K-loop's to `klb + (it % steps) * kstep`; returns `it % steps`,
/// the k-step within the tile. The K-loop's bounds are constants
/// (matchTileLoopNest), made again here: they may be defined in the tile
/// loop's body, which the flat loop replaces.
static Value mapInductionVariables(RewriterBase &rewriter, Location loc,
                                   const TileLoopNest &nest, Value it,
                                   Value steps, IRMapping &mapping) {
  scf::ForOp tileLoop = nest.tileLoop, kLoop = nest.kLoop;
  Value tileIndex = arith::DivUIOp::create(rewriter, loc, it, steps);
  Value kIndex = arith::RemUIOp::create(rewriter, loc, it, steps);
  mapping.map(tileLoop.getInductionVar(),
              createIterationValue(rewriter, loc, tileLoop.getLowerBound(),
                                   tileLoop.getStep(), tileIndex));
  Type kType = kLoop.getInductionVar().getType();
  auto constant = [&](Value v) -> Value {
    return arith::ConstantOp::create(
        rewriter, loc, rewriter.getIntegerAttr(kType, *getConstantIntValue(v)));
  };
  mapping.map(kLoop.getInductionVar(),
              createIterationValue(rewriter, loc,
                                   constant(kLoop.getLowerBound()),
                                   constant(kLoop.getStep()), kIndex));
  return kIndex;
}

/// The tile epilogue: on the tile's last k-step, the code after the K-loop
/// on the accumulators `accs` (after every wgmma group retired), then the
/// initial accumulators for the next tile; otherwise `accs`.
static scf::IfOp createTileEpilogue(RewriterBase &rewriter, Location loc,
                                    const TileLoopNest &nest, Value isLast,
                                    ValueRange accs, IRMapping &mapping) {
  scf::ForOp kLoop = nest.kLoop;
  scf::ForOp tileLoop = nest.tileLoop;
  auto ifOp = scf::IfOp::create(rewriter, loc, kLoop.getResultTypes(), isLast,
                                /*withElseRegion=*/true);
  ifOp->setAttr(kTileEpilogueAttrName, rewriter.getUnitAttr());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  if (!kLoop.getBody()->getOps<nvgpu::WarpgroupMmaOp>().empty())
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
  mapping.map(kLoop.getResults(), accs);
  for (Operation *op = kLoop->getNextNode();
       op != tileLoop.getBody()->getTerminator(); op = op->getNextNode())
    rewriter.clone(*op, mapping);
  // An initial value made by an op without operands (a zero accumulator) is
  // made again here, marked so that CSE does not merge it with the one above:
  // an scf.if whose branches yield values defined above it folds into an
  // arith.select, which ptxas gives registers of its own (a wgmma
  // accumulator twice: spills), where the branch reuses the accumulator's.
  SmallVector<Value> inits =
      llvm::map_to_vector(kLoop.getInitArgs(), [&](Value init) -> Value {
        Operation *def = init.getDefiningOp();
        if (!def || def->getNumOperands() != 0 || def->getNumRegions() != 0 ||
            def->getNumResults() != 1 ||
            !(isMemoryEffectFree(def) ||
              isa<nvgpu::WarpgroupMmaInitAccumulatorOp>(def)))
          return init;
        Operation *clone = rewriter.clone(*def);
        clone->setAttr(kTileEpilogueAttrName, rewriter.getUnitAttr());
        return clone->getResult(0);
      });
  scf::YieldOp::create(rewriter, loc, inits);
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(rewriter, loc, accs);
  return ifOp;
}

scf::ForOp mlir::pk::flattenTileLoopNest(RewriterBase &rewriter,
                                         const TileLoopNest &nest) {
  scf::ForOp tileLoop = nest.tileLoop, kLoop = nest.kLoop;
  Location loc = tileLoop.getLoc();
  rewriter.setInsertionPoint(tileLoop);
  Value steps = arith::ConstantIndexOp::create(rewriter, loc, nest.kSteps);
  Value tiles = createTripCount(rewriter, tileLoop);
  Value total = arith::MulIOp::create(rewriter, loc, tiles, steps);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto flat =
      scf::ForOp::create(rewriter, loc, zero, total, one, kLoop.getInitArgs());
  flat->setDiscardableAttrs(kLoop->getDiscardableAttrDictionary());
  flat->setAttr(kFlattenedTileLoopAttrName, rewriter.getUnitAttr());

  rewriter.setInsertionPointToStart(flat.getBody());
  Value it = flat.getInductionVar();
  IRMapping mapping;
  Value kIndex = mapInductionVariables(rewriter, loc, nest, it, steps, mapping);
  mapping.map(kLoop.getRegionIterArgs(), flat.getRegionIterArgs());
  for (Operation &op : tileLoop.getBody()->getOperations()) {
    if (&op == kLoop.getOperation())
      break;
    rewriter.clone(op, mapping);
  }
  // The K-loop's body; the epilogue goes before its final barrier.
  Operation *kYield = kLoop.getBody()->getTerminator();
  Operation *finalBarrier = kYield->getPrevNode();
  if (!isa_and_nonnull<gpu::BarrierOp>(finalBarrier))
    finalBarrier = nullptr;
  for (Operation &op : kLoop.getBody()->without_terminator())
    if (&op != finalBarrier)
      rewriter.clone(op, mapping);
  SmallVector<Value> accs =
      llvm::map_to_vector(kYield->getOperands(),
                          [&](Value v) { return mapping.lookupOrDefault(v); });
  Value last = arith::ConstantIndexOp::create(rewriter, loc, nest.kSteps - 1);
  Value isLast = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       kIndex, last);
  scf::IfOp epilogue =
      createTileEpilogue(rewriter, loc, nest, isLast, accs, mapping);
  if (finalBarrier)
    rewriter.clone(*finalBarrier, mapping);
  scf::YieldOp::create(rewriter, loc, epilogue.getResults());

  // The wait of k-step it % T on parity (it % T) % 2 = it % 2 (T even).
  auto wait = cast<nvgpu::MBarrierTryWaitParityOp>(mapping.lookup(nest.wait));
  rewriter.setInsertionPoint(wait);
  Value two = arith::ConstantIndexOp::create(rewriter, loc, 2);
  Value parity = arith::IndexCastOp::create(
      rewriter, loc, wait.getPhaseParity().getType(),
      arith::RemUIOp::create(rewriter, loc, it, two));
  Value oldParity = wait.getPhaseParity();
  rewriter.modifyOpInPlace(
      wait, [&] { wait.getPhaseParityMutable().assign(parity); });
  detail::eraseUnusedChain(rewriter, oldParity, flat);
  rewriter.eraseOp(tileLoop);
  LDBG() << "flattened the tile loop at " << loc << " (" << nest.kSteps
         << " k-steps per tile)";
  return flat;
}
