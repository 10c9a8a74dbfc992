//===- FlattenTileLoops.cpp - pk-flatten-tile-loops -----------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A thin wrapper over matchTileLoopNest / flattenTileLoopNest (TileLoops.h):
// each tile loop around a TMA K-loop of a kernel, with one remark that says
// what happened or why not. Test: test/pk-flatten-tile-loops.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/Passes.h"
#include "pk/TileLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKFLATTENTILELOOPS
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

namespace {
struct FlattenTileLoopsPass final
    : public pk::impl::PKFlattenTileLoopsBase<FlattenTileLoopsPass> {
  using Base::Base;

  void runOnOperation() final {
    SmallVector<scf::ForOp> candidates;
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      kernel.walk([&](scf::ForOp loop) {
        if (isTileLoopCandidate(loop))
          candidates.push_back(loop);
      });
    });
    IRRewriter rewriter(&getContext());
    bool changed = false;
    for (scf::ForOp tileLoop : candidates) {
      DeclineOr<TileLoopNest> nest = matchTileLoopNest(tileLoop);
      if (failed(nest)) {
        nest.getDecline().emit(DiagnosticSeverity::Remark,
                               "tile loop not flattened: ");
        continue;
      }
      Location loc = tileLoop.getLoc();
      int64_t steps = nest->kSteps;
      flattenTileLoopNest(rewriter, *nest);
      changed = true;
      emitRemark(loc) << "tile loop flattened: one loop over (tile, k-step), "
                      << steps
                      << " k-steps per tile, the tile's epilogue on its last "
                         "k-step; pipelining it runs the next tile's first "
                         "loads during this tile's last k-steps and epilogue";
    }
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
