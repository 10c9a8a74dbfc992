//===- TileLoops.h - Persistent kernels: tile loop around a K-loop -*- C++ -*-//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A persistent kernel runs a loop over output tiles (the tile loop) around
// its K-loop and the tile's epilogue. Pipelining the K-loop alone drains the
// pipeline at every tile boundary. pk flattens the nest into one loop over
// (tile, k-step) whose last k-step of each tile runs the epilogue in an
// `scf.if` (kTileEpilogueAttrName); pipelining that loop issues the next
// tile's first loads while the current tile's last k-steps and its epilogue
// run, and the TMA ring's mbarrier phases run on across tiles
// (docs/hopper.md "Persistent kernels"). Tests:
// test/pk-flatten-tile-loops.mlir, test/e2e/pk-pipeline-kloops.test
// (PERSISTENT*).
//
//===----------------------------------------------------------------------===//

#ifndef PK_TILELOOPS_H
#define PK_TILELOOPS_H

#include "pk/Decline.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace pk {

/// A tile loop and the TMA K-loop directly in its body, as
/// matchTileLoopNest checked them.
struct TileLoopNest {
  scf::ForOp tileLoop;
  scf::ForOp kLoop;
  /// The K-loop's static, even number of k-steps.
  int64_t kSteps = 0;
  /// The K-loop's one mbarrier wait, whose parity is the k-step modulo 2.
  nvgpu::MBarrierTryWaitParityOp wait;
};

/// Whether `loop` has the shape of a tile loop around a TMA K-loop: exactly
/// one `scf.for` directly in its body, with an `nvgpu.tma.async.load`
/// directly in that loop's body. Only such loops get a remark from
/// pk-flatten-tile-loops.
bool isTileLoopCandidate(scf::ForOp loop);

/// Checks what flattening `tileLoop` needs: no values carried across tiles,
/// side-effect-free code before the K-loop, a K-loop with a static, even
/// number of k-steps whose accumulators start from values defined outside
/// the tile loop and whose one mbarrier wait's parity is the k-step modulo
/// 2 (so that the phase of k-step t of every tile is t % 2), and code after
/// it that checkTileEpilogue accepts. The decline
/// names the op that breaks it.
DeclineOr<TileLoopNest> matchTileLoopNest(scf::ForOp tileLoop);

/// Checks a tile's epilogue: the ops `epilogue` (and those they hold),
/// whose enclosing op is `container`, beside the K-loop's ops `kLoopOps`.
/// Besides computing and accessing global memory, it may stage results in
/// shared memory that the K-loop does not reach and store them with TMA
/// (`nvgpu.tma.async.store` through a map whose argument carries
/// kTensorMapOfAttrName, bulk async-group commits and waits, async-proxy
/// fences), with gpu.barriers directly in `container`; nothing else that
/// synchronizes (mbarriers, TMA loads, named barriers). Returns the
/// epilogue's stores that getMemoryAccess does not model, each with the
/// global memory it writes: TMA stores (getTensorMapTarget) and accumulator
/// stores (`nvgpu.warpgroup.mma.store`, the root of their memref). The
/// decline names the op that breaks it.
DeclineOr<SmallVector<std::pair<Operation *, Value>>>
checkTileEpilogue(ArrayRef<Operation *> epilogue, Operation *container,
                  ArrayRef<Operation *> kLoopOps);

/// The global memref argument a tensor map `map` (used by `user`, a TMA
/// load or store) describes: the one the kTensorMapOfAttrName of the kernel
/// argument the map comes from names. Declined (at `user`) when the map
/// comes from no kernel argument, or the attribute is missing or names no
/// global memref argument of the map's element type.
DeclineOr<Value> getTensorMapTarget(Operation *user, Value map);

/// Rewrites `nest` into one loop over (tile, k-step) with the K-loop's
/// accumulators as iter_args: the tile loop's code before the K-loop and
/// the K-loop's body run every iteration; the code after the K-loop runs in
/// an `scf.if` on the tile's last k-step (after a `wgmma.wait_group 0` when
/// the K-loop computes with wgmma), which yields the accumulators' initial
/// values for the next tile. The wait's parity becomes the flat index
/// modulo 2. Returns the new loop (kFlattenedTileLoopAttrName).
scf::ForOp flattenTileLoopNest(RewriterBase &rewriter,
                               const TileLoopNest &nest);

/// Folds `value` for the iteration of `forOp` whose induction variable is
/// `iv`: the side-effect-free ops of the loop body it depends on, each
/// folded on constant operands (`known` caches the values). A null
/// attribute when some op does not fold.
Attribute foldForIteration(Value value, scf::ForOp forOp, Attribute iv,
                           llvm::DenseMap<Value, Attribute> &known);

} // namespace pk
} // namespace mlir

#endif // PK_TILELOOPS_H
