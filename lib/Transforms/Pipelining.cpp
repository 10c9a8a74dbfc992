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
// `trip count >= stages`, and on the alignment of global buffers the
// cp.async width assumes but pk cannot prove (dynamic offsets or strides),
// (3) for cp-async, replace the copies by
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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-pipelining"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

/// Creates the condition under which the pipelined copy of `forOp` runs:
/// `step > 0`, `ub > lb`, neither `span = ub - lb` nor `span + step - 1`
/// wraps in the loop's type (upstream's epilogue computes the trip count as
/// `(ub - lb + step - 1) / step` there), and the trip count is at least
/// `minTrips`. Each test is a signed comparison on wrapped values, so it
/// holds for any width of `index`.
static Value createPipelineGuard(RewriterBase &rewriter, scf::ForOp forOp,
                                 int64_t minTrips) {
  Location loc = forOp.getLoc();
  Value lb = forOp.getLowerBound(), ub = forOp.getUpperBound(),
        step = forOp.getStep();
  Type type = lb.getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getIntegerAttr(type, value));
  };
  auto cmp = [&](arith::CmpIPredicate pred, Value lhs, Value rhs) -> Value {
    return arith::CmpIOp::create(rewriter, loc, pred, lhs, rhs);
  };
  using Pred = arith::CmpIPredicate;
  Value span = arith::SubIOp::create(rewriter, loc, ub, lb);
  Value stepMinusOne = arith::SubIOp::create(rewriter, loc, step, constant(1));
  Value rounded = arith::AddIOp::create(rewriter, loc, span, stepMinusOne);
  Value trips = arith::DivUIOp::create(rewriter, loc, rounded, step);
  // With ub > lb the exact span is positive: it wrapped iff it reads
  // negative; with step > 0, the rounded span wrapped iff it reads less.
  SmallVector<Value> conditions{
      cmp(Pred::sgt, step, constant(0)), cmp(Pred::sgt, ub, lb),
      cmp(Pred::sgt, span, constant(0)), cmp(Pred::sge, rounded, span),
      cmp(Pred::sge, trips, constant(minTrips))};
  Value all = conditions.front();
  for (Value condition : ArrayRef<Value>(conditions).drop_front())
    all = arith::AndIOp::create(rewriter, loc, all, condition);
  return all;
}

/// Creates, before `forOp`, the check that each of `memrefs` (global
/// buffers with a dynamic offset or strides) starts at a 16-byte aligned
/// address and has strides that are multiples of 16 bytes: `(aligned
/// pointer + offset * element bytes) | stride * element bytes | ...` remui
/// 16 == 0 (the innermost stride is 1: the copies are contiguous).
static Value createAlignmentCondition(RewriterBase &rewriter, Location loc,
                                      ArrayRef<Value> memrefs) {
  Value bits = arith::ConstantIndexOp::create(rewriter, loc, 0);
  for (Value memref : memrefs) {
    auto type = cast<MemRefType>(memref.getType());
    Value elemBytes = arith::ConstantIndexOp::create(
        rewriter, loc, llvm::divideCeil(type.getElementTypeBitWidth(), 8));
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
    Value offsetBytes =
        arith::MulIOp::create(rewriter, loc, metadata.getOffset(), elemBytes);
    bits = arith::OrIOp::create(
        rewriter, loc, bits,
        arith::AddIOp::create(rewriter, loc, pointer, offsetBytes));
    for (Value stride : metadata.getStrides().drop_back())
      bits = arith::OrIOp::create(
          rewriter, loc, bits,
          arith::MulIOp::create(rewriter, loc, stride, elemBytes));
  }
  Value sixteen = arith::ConstantIndexOp::create(rewriter, loc, 16);
  Value rem = arith::RemUIOp::create(rewriter, loc, bits, sixteen);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, rem,
                               zero);
}

/// Replaces `forOp` by `scf.if (condition)` whose then-branch holds `forOp`
/// itself (to be pipelined; handles into it stay valid) and whose
/// else-branch a copy of it marked with kFallbackAttrName.
static void versionLoop(RewriterBase &rewriter, scf::ForOp forOp,
                        Value condition) {
  Location loc = forOp.getLoc();
  rewriter.setInsertionPoint(forOp);
  auto ifOp = scf::IfOp::create(rewriter, loc, forOp.getResultTypes(),
                                condition, /*withElseRegion=*/true);
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

/// Versions `forOp` at run time where pipelining it needs what pk cannot
/// prove: a dynamic trip count at least the stages (`minTrips`) whose
/// arithmetic does not wrap (createPipelineGuard), and the
/// alignment of the global buffers `runtimeAligned` that the cp.async width
/// assumes. The original loop is the fallback.
static void versionIfNeeded(RewriterBase &rewriter, const KLoopInfo &info,
                            int64_t minTrips, ArrayRef<Value> runtimeAligned) {
  scf::ForOp forOp = info.forOp;
  if (info.tripCount && runtimeAligned.empty())
    return;
  rewriter.setInsertionPoint(forOp);
  Value condition;
  if (!info.tripCount)
    condition = createPipelineGuard(rewriter, forOp, minTrips);
  if (!runtimeAligned.empty()) {
    Value aligned =
        createAlignmentCondition(rewriter, forOp.getLoc(), runtimeAligned);
    condition = condition ? arith::AndIOp::create(rewriter, forOp.getLoc(),
                                                  condition, aligned)
                                .getResult()
                          : aligned;
  }
  versionLoop(rewriter, forOp, condition);
}

/// Fails when the arithmetic of the pipelined loop would wrap in the type of
/// `forOp`, whose bounds are constants: upstream's epilogue computes the trip
/// count as `(ub - lb + step - 1) / step` in that type (the prologue, the
/// steady-state loop and pk's stage index `((iv - lb) / step) % stages` only
/// compute iterations the loop runs, or `ub - (stages - 1) * step`, which
/// lies between lb and ub when the trip count is at least the stages).
static LogicalResult checkStaticLoopArithmetic(scf::ForOp forOp,
                                               std::string &reason) {
  std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(forOp.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  if (!lb || !ub || !step || *ub <= *lb)
    return success();
  Type type = forOp.getLowerBound().getType();
  unsigned width = type.isIndex() ? IndexType::kInternalStorageBitWidth
                                  : type.getIntOrFloatBitWidth();
  APInt rounded = APInt(128, *ub, /*isSigned=*/true) -
                  APInt(128, *lb, /*isSigned=*/true) +
                  APInt(128, *step, /*isSigned=*/true) - 1;
  // The stage indices subtract lb: -lb must fit too (the canonicalizer folds
  // it into affine maps, whose printed form cannot hold -(-2^63)).
  APInt negatedLb = -APInt(128, *lb, /*isSigned=*/true);
  const APInt *bad = rounded.getSignificantBits() > width     ? &rounded
                     : negatedLb.getSignificantBits() > width ? &negatedLb
                                                              : nullptr;
  if (!bad)
    return success();
  std::string typeName;
  llvm::raw_string_ostream os(typeName);
  os << type;
  reason = ("the pipelined loop computes " +
            Twine(bad == &rounded ? "ub - lb + step - 1" : "-lb") + " = " +
            Twine(toString(*bad, 10, /*Signed=*/true)) + ", which overflows " +
            typeName + ": loop bounds this close to the limits of the type " +
            "are not supported")
               .str();
  LDBG() << "not pipelined: " << reason;
  return failure();
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

/// The checks of one wgmma descriptor operand with `stages` > 1 buffers:
/// generated in the compute phase (pk points it at the stage being
/// computed), from a buffer whose stages stay 1024-byte aligned.
static LogicalResult checkDescriptor(const KLoopInfo &info, Value descriptor,
                                     unsigned bufferIndex,
                                     std::string &reason) {
  // The matcher traced every descriptor to its generate.descriptor.
  auto gen = descriptor.getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>();
  const SharedBuffer &buffer = info.buffers[bufferIndex];
  if (!buffer.copied)
    return success();
  scf::ForOp forOp = info.forOp;
  Operation *top = forOp.getBody()->findAncestorOpInBlock(*gen);
  if (!top || top->isBeforeInBlock(info.getLoadPhaseEnd())) {
    reason = "the nvgpu.warpgroup.generate.descriptor of " + buffer.name +
             " at " + locationToString(gen->getLoc()) +
             " is not in the compute phase; pk points the descriptors of the "
             "compute phase at the stage being computed";
    return failure();
  }
  if (buffer.bytes % kWgmmaOperandAlignment != 0) {
    reason = "one stage of " + buffer.name + " is " +
             std::to_string(buffer.bytes) +
             " bytes, not a multiple of 1024: the stages of a wgmma operand "
             "would not stay 1024-byte aligned for the 128B swizzle";
    return failure();
  }
  return success();
}

/// wgmma loops (docs/hopper.md). Pipelining them is safe when (a) every
/// wgmma waits for its own group (waitGroup = 0), so that the reads of a
/// stage are over before the barrier that precedes its refill, which is
/// where every schedule refills a stage, and (b) a proxy fence separates
/// each tile's stores from the wgmma that reads them (the schedules keep
/// it there, Schedule.cpp). With more than one stage, every descriptor must
/// be pointed at the stage being computed.
static LogicalResult checkWarpgroupMmas(const KLoopInfo &info, int64_t stages,
                                        std::string &reason) {
  for (const WarpgroupMma &wgmma : info.warpgroupMmas) {
    std::string where = locationToString(wgmma.op->getLoc());
    if (!wgmma.proxyFenced) {
      reason = "the nvgpu.warpgroup.mma at " + where +
               " reads shared tiles with no fence.proxy.async after their "
               "generic-proxy stores: the kernel races, and pk does not "
               "pipeline a racing kernel";
      return failure();
    }
    if (wgmma.waitGroup != 0) {
      reason = "the nvgpu.warpgroup.mma at " + where + " leaves " +
               std::to_string(wgmma.waitGroup) +
               " wgmma group(s) in flight (waitGroup = " +
               std::to_string(wgmma.waitGroup) +
               "): its reads of a stage may outlast the barrier before that "
               "stage's refill; pk pipelines wgmma loops with waitGroup = 0 "
               "only";
      return failure();
    }
    if (stages < 2)
      continue;
    auto mma = cast<nvgpu::WarpgroupMmaOp>(wgmma.op);
    if (failed(checkDescriptor(info, mma.getDescriptorA(), wgmma.bufferA,
                               reason)) ||
        failed(
            checkDescriptor(info, mma.getDescriptorB(), wgmma.bufferB, reason)))
      return failure();
  }
  return success();
}

/// schedule=mma-in-flight leaves each wgmma group in flight while the loop
/// goes on to the next tile, so nothing but the next wgmma may touch its
/// accumulator (the hardware orders accumulations into the same registers by
/// wgmma ops of one shape): WarpgroupMma::accumulatorChained. After the loop
/// pk waits for every group.
static LogicalResult checkAccumulatorChain(const WarpgroupMma &wgmma,
                                           std::string &reason) {
  if (wgmma.accumulatorChained)
    return success();
  reason = "schedule=mma-in-flight leaves the group of the "
           "nvgpu.warpgroup.mma at " +
           locationToString(wgmma.op->getLoc()) +
           " in flight into the next iteration, so its accumulator must be "
           "a loop-carried value that only this wgmma reads and only the "
           "yield uses; it is not";
  return failure();
}

/// The preconditions of schedule=mma-in-flight: cp-async, at least 3
/// buffers (one for the tile whose wgmma is in flight, one being computed,
/// one being copied), a wgmma loop whose accumulators form chains.
static LogicalResult checkMmaInFlight(const KLoopInfo &info,
                                      PipelineVariant variant, int64_t stages,
                                      std::string &reason) {
  if (info.warpgroupMmas.empty()) {
    reason = "schedule=mma-in-flight keeps wgmma groups in flight; the loop "
             "has no nvgpu.warpgroup.mma";
    return failure();
  }
  if (!isMultistageVariant(variant) || stages < 3) {
    reason = ("schedule=mma-in-flight is a cp-async or tma order with at "
              "least 3 "
              "stages (the tile whose wgmma is in flight, the tile being "
              "computed, the copies); got " +
              stringifyPipelineVariant(variant) + " with " + Twine(stages) +
              " buffer(s)")
                 .str();
    return failure();
  }
  for (const WarpgroupMma &wgmma : info.warpgroupMmas)
    if (failed(checkAccumulatorChain(wgmma, reason)))
      return failure();
  return success();
}

/// The checks of variant=tma after the common ones: the loop is in the TMA
/// form (and the other variants do not apply to one), in a TMA order.
static LogicalResult checkTmaVariant(const KLoopInfo &info,
                                     const PipelineKLoopOptions &options,
                                     std::string &reason) {
  if (!info.tma) {
    reason = "variant=tma pipelines loops whose load phase is TMA "
             "(nvgpu.tma.async.load on an mbarrier, docs/hopper.md); this "
             "loop copies with threads";
    return failure();
  }
  if (options.variant != PipelineVariant::Tma) {
    reason = ("the copies are TMA loads (nvgpu.tma.async.load), which only "
              "the tma variant keeps; got variant=" +
              stringifyPipelineVariant(options.variant))
                 .str();
    return failure();
  }
  if (options.schedule == PipelineSchedule::Seed) {
    reason = "schedule=seed is a cp-async order; the tma variant takes "
             "multistage, mma-in-flight or warp-specialized";
    return failure();
  }
  if (failed(checkBufferUses(info, reason)) ||
      failed(checkTmaRing(info, reason)))
    return failure();
  if (options.schedule == PipelineSchedule::WarpSpecialized)
    return checkWarpSpecialization(info, reason);
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
  if (failed(checkStaticLoopArithmetic(info.forOp, reason)))
    return failure();
  if (options.stages < kMinStages || options.stages > kMaxStages)
    return fail("stages=" + Twine(options.stages) + ": pk supports 2 to 8");
  int64_t stages = getEffectiveStages(info, variant, options.stages);
  if (failed(checkWarpgroupMmas(info, stages, reason)))
    return failure();
  if (options.schedule == PipelineSchedule::MmaInFlight &&
      failed(checkMmaInFlight(info, variant, stages, reason)))
    return failure();
  if (info.tma || variant == PipelineVariant::Tma)
    return checkTmaVariant(info, options, reason);
  if (options.schedule == PipelineSchedule::WarpSpecialized)
    return fail("schedule=warp-specialized hands TMA loads to a producer "
                "warpgroup; this loop copies with threads (variant " +
                stringifyPipelineVariant(variant) + ")");
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
  if (variant == PipelineVariant::Tma)
    sinkTmaDestinationViews(rewriter, info);
  Value loadStage;
  if (stages > 1)
    loadStage = multiBufferCopiedBuffers(rewriter, info, stages,
                                         info.smemMultiBytes(stages) >
                                             options.staticSharedMemoryLimit);
  int64_t mmaGroupsInFlight =
      options.schedule == PipelineSchedule::MmaInFlight ? 1 : 0;
  Operation *waitStart = nullptr;
  if (variant == PipelineVariant::Tma)
    waitStart = buildTmaBarrierRing(rewriter, info, stages, loadStage);
  if (options.schedule == PipelineSchedule::WarpSpecialized)
    return warpSpecialize(rewriter, info, stages, waitStart,
                          /*mmaInFlight=*/info.hasChainedWgmmas());
  Schedule schedule;
  if (variant == PipelineVariant::Tma)
    schedule = buildTmaSchedule(rewriter, info.forOp, waitStart, stages,
                                mmaGroupsInFlight);
  else if (variant != PipelineVariant::CpAsync)
    schedule = buildRegisterSchedule(info.forOp, info.loadBarrier,
                                     info.computeBarrier);
  else if (options.schedule == PipelineSchedule::Seed)
    schedule = buildSeedSchedule(rewriter, info.forOp, info.loadBarrier,
                                 info.computeBarrier, tokens);
  else
    schedule = buildMultistageSchedule(rewriter, info.forOp, info.loadBarrier,
                                       info.computeBarrier, stages,
                                       mmaGroupsInFlight, tokens);
  return runPipeliner(rewriter, info.forOp, schedule,
                      /*insertFinalBarrier=*/isMultistageVariant(variant),
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
  // stages` (and the buffers whose alignment the cp.async width assumes are
  // aligned), a copy of the original loop (marked as the fallback)
  // otherwise.
  // Warp specialization peels no tile: its two loops run any trip count, and
  // the split needs the loop directly in the kernel body.
  SmallVector<Value> runtimeAligned;
  getRuntimeAlignedMemRefs(plans, runtimeAligned);
  if (options.schedule != PipelineSchedule::WarpSpecialized)
    versionIfNeeded(
        rewriter, info,
        std::max<int64_t>(
            getEffectiveStages(info, options.variant, options.stages), 2),
        runtimeAligned);
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
    LDBG() << "the kernel that does not verify:\n" << kernel;

    reason = "internal error: the pipelined kernel does not verify (" +
             diagnostics + ")";
    return failure();
  }
  return pipelined;
}
