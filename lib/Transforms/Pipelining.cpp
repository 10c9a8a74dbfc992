//===- Pipelining.cpp - Software pipelining of tiled GPU K-loops ----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The driver of the transform (docs/pipelining.md):
//
//   scf.for %k ... {                       // prologue: tile 0 -> buf[0]
//     load tile k  -> buf                  // scf.for %k (n-1 iterations) {
//     gpu.barrier                          //   load tile k+1 -> buf[(t+1)%2]
//     compute buf                   ==>    //   compute buf[t%2]
//     gpu.barrier                          //   synchronize
//   }                                      // }
//                                          // epilogue: compute buf[(n-1)%2]
//
// (The sketch shows the seed's two-stage order; the default multistage order
// waits and synchronizes at the top of the iteration, Schedule.cpp.)
//
// Steps: (1) check every precondition without touching the IR
// (checkPipelineKLoop), (2) with a dynamic trip count, version the loop on
// `trip count >= stages`, (3) for cp-async, replace the copies by
// nvgpu.device_async_copy (AsyncCopy.cpp), (4) multi-buffer the copied
// buffers (MultiBuffer.cpp), (5) order the body into the variant's schedule
// and let upstream scf::pipelineForLoop peel the prologue and epilogue
// (Schedule.cpp). Steps 2-5 cannot fail on a loop that passed step 1; a
// failure there, or a kernel that no longer verifies, is an internal error
// reported with `modifiedIR` set, like scf::pipelineForLoop's own.
//
// Tests: test/pk-pipeline-kloops.mlir, test/pk-pipeline-kloops-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "PipeliningInternal.h"

#include "pk/Support.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-pipelining"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

/// Replaces `forOp` by `scf.if (ceildiv(ub - lb, step) >= minTrips)` whose
/// then-branch holds `forOp` itself (to be pipelined; handles into it stay
/// valid) and whose else-branch a copy of it marked with kFallbackAttrName.
static void versionOnTripCount(RewriterBase &rewriter, scf::ForOp forOp,
                               int64_t minTrips) {
  Location loc = forOp.getLoc();
  rewriter.setInsertionPoint(forOp);
  Value span = arith::SubIOp::create(rewriter, loc, forOp.getUpperBound(),
                                     forOp.getLowerBound());
  Value trips =
      arith::CeilDivSIOp::create(rewriter, loc, span, forOp.getStep());
  Value min = arith::ConstantOp::create(
      rewriter, loc, rewriter.getIntegerAttr(trips.getType(), minTrips));
  Value enough = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                       trips, min);
  auto ifOp = scf::IfOp::create(rewriter, loc, forOp.getResultTypes(), enough,
                                /*withElseRegion=*/true);
  for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()})
    if (!block->empty())
      rewriter.eraseOp(block->getTerminator());

  rewriter.setInsertionPointToEnd(ifOp.elseBlock());
  auto fallback = cast<scf::ForOp>(rewriter.clone(*forOp));
  fallback->setAttr(kFallbackAttrName, rewriter.getUnitAttr());
  scf::YieldOp::create(rewriter, loc, fallback.getResults());

  rewriter.replaceAllUsesWith(forOp.getResults(), ifOp.getResults());
  rewriter.moveOpBefore(forOp, ifOp.thenBlock(), ifOp.thenBlock()->end());
  rewriter.setInsertionPointToEnd(ifOp.thenBlock());
  scf::YieldOp::create(rewriter, loc, forOp.getResults());
}

/// The variants that keep the shared stores in place (register variants)
/// move them after the compute: they must sit directly in the loop body.
static LogicalResult checkStoresInBody(const KLoopInfo &info,
                                       PipelineVariant variant,
                                       std::string &reason) {
  for (const TileCopy &copy : info.copies)
    for (Operation *store : copy.stores)
      if (store->getParentOp() != static_cast<Operation *>(info.forOp)) {
        reason =
            ("the " + stringifyPipelineVariant(variant) +
             " variant moves the shared stores after the compute; the "
             "store at " +
             locationToString(store->getLoc()) + " is inside a nested region")
                .str();
        return failure();
      }
  return success();
}

LogicalResult mlir::pk::checkPipelineKLoop(const KLoopInfo &info,
                                           const PipelineKLoopOptions &options,
                                           std::string &reason) {
  PipelineVariant variant = options.variant;
  auto fail = [&](const Twine &msg) {
    reason = msg.str();
    return failure();
  };
  if (variant == PipelineVariant::None || variant == PipelineVariant::Auto)
    return fail("no variant selected");
  if (info.tripCount && *info.tripCount < 2)
    return fail("trip count " + Twine(*info.tripCount) +
                " < 2: no next tile to overlap");
  if (options.stages < kMinStages || options.stages > kMaxStages)
    return fail("stages=" + Twine(options.stages) + ": pk supports 2 to 8");
  int64_t stages = getEffectiveStages(info, variant, options.stages);
  if (variant == PipelineVariant::CpAsync &&
      options.schedule == PipelineSchedule::Seed && stages != 2)
    return fail("schedule=seed is the seed's two-stage order; stages=" +
                Twine(stages) + " needs schedule=multistage");
  if (variant != PipelineVariant::RegisterPrefetch &&
      failed(checkBufferUses(info, reason)))
    return failure();
  if (variant == PipelineVariant::CpAsync)
    return failure(failed(planAsyncCopies(info, reason)));
  if (info.hasAsyncCopies())
    return fail("the copies are already nvgpu.device_async_copy: only the "
                "cp-async variant applies");
  return checkStoresInBody(info, variant, reason);
}

/// Steps 3-5 on a loop that passed checkPipelineKLoop (after dropping the
/// barriers inside the load phase).
static FailureOr<PipelinedKLoop>
applyPipelining(RewriterBase &rewriter, const KLoopInfo &info,
                const PipelineKLoopOptions &options,
                ArrayRef<AsyncCopyPlan> plans, std::string &reason) {
  PipelineVariant variant = options.variant;
  int64_t stages = getEffectiveStages(info, variant, options.stages);
  // The matcher proved these order only copies to different buffers.
  for (gpu::BarrierOp barrier : info.innerLoadBarriers)
    rewriter.eraseOp(barrier);
  // The commits and waits of already-async copies: waits first, they use
  // the groups' tokens. The schedule creates its own.
  for (Operation *op : llvm::reverse(info.asyncGroupOps))
    rewriter.eraseOp(op);
  SmallVector<Value> tokens;
  if (variant == PipelineVariant::CpAsync)
    tokens = convertToAsyncCopies(rewriter, plans, info.forOp);
  if (stages > 1)
    multiBufferCopiedBuffers(rewriter, info, stages,
                             info.smemMultiBytes(stages) >
                                 options.staticSharedMemoryLimit);
  Schedule schedule;
  if (variant != PipelineVariant::CpAsync)
    schedule = buildRegisterSchedule(info.forOp, info.loadBarrier,
                                     info.computeBarrier);
  else if (options.schedule == PipelineSchedule::Seed)
    schedule = buildSeedSchedule(rewriter, info.forOp, info.loadBarrier,
                                 info.computeBarrier, tokens);
  else
    schedule = buildMultistageSchedule(rewriter, info.forOp, info.loadBarrier,
                                       info.computeBarrier, stages, tokens);
  return runPipeliner(rewriter, info.forOp, schedule, stages,
                      /*insertFinalBarrier=*/variant ==
                          PipelineVariant::CpAsync,
                      options.testFailLate, reason);
}

FailureOr<PipelinedKLoop>
mlir::pk::pipelineKLoop(RewriterBase &rewriter, const KLoopInfo &info,
                        const PipelineKLoopOptions &options,
                        std::string &reason, bool *modifiedIR) {
  if (modifiedIR)
    *modifiedIR = false;
  if (failed(checkPipelineKLoop(info, options, reason))) {
    LDBG() << "not pipelining " << locationToString(info.forOp->getLoc())
           << ": " << reason << " -> BAIL";
    return failure();
  }
  SmallVector<AsyncCopyPlan> plans;
  if (options.variant == PipelineVariant::CpAsync)
    plans = *planAsyncCopies(info, reason);

  // From here on the IR changes.
  if (modifiedIR)
    *modifiedIR = true;
  gpu::GPUFuncOp kernel = info.kernel;
  // A dynamic trip count: the pipelined loop runs when `trip count >=
  // stages`, a copy of the original loop (marked as the fallback) otherwise.
  if (!info.tripCount)
    versionOnTripCount(
        rewriter, info.forOp,
        std::max<int64_t>(
            getEffectiveStages(info, options.variant, options.stages), 2));
  FailureOr<PipelinedKLoop> pipelined =
      applyPipelining(rewriter, info, options, plans, reason);
  if (failed(pipelined)) {
    reason = "internal error: " + reason;
    return failure();
  }
  scf::ForOp newLoop = pipelined->loop;
  rewriter.modifyOpInPlace(newLoop, [&] {
    newLoop->setAttr(kPipelinedAttrName, rewriter.getUnitAttr());
  });

  std::string diagnostics;
  ScopedDiagnosticHandler handler(rewriter.getContext(), [&](Diagnostic &diag) {
    diagnostics += diag.str();
    return success();
  });
  if (failed(verify(kernel))) {
    reason = "internal error: the pipelined kernel does not verify (" +
             diagnostics + ")";
    return failure();
  }
  return pipelined;
}
