//===- Pipelining.cpp - Software pipelining of tiled GPU K-loops ----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// `applyPipelinePlan`, the driver of the transform (docs/pipelining.md):
//
//   scf.for %k ... {                       // prologue: tile 0 -> buf[0]
//     load tile k  -> buf                  // scf.for %k (n-1 iterations) {
//     gpu.barrier                          //   load tile k+1 -> buf[(t+1)%2]
//     compute buf                   ==>    //   compute buf[t%2]
//     gpu.barrier                          //   synchronize
//   }                                      // }
//                                          // epilogue: compute buf[(n-1)%2]
//
// (The sketch shows the two-stage order; the default multistage order
// waits and synchronizes at the top of the iteration, Schedule.cpp.)
//
// Steps: (1) check every precondition without touching the IR
// (checkPipelinePlan), (2) version the loop where the plan says: a dynamic
// trip count (`trip count >= stages`) and the alignment of global buffers
// the cp.async width assumes but pk cannot prove (dynamic offsets, strides),
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

#include "pk/PipelineSteps.h"

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
static void versionOnCondition(RewriterBase &rewriter, scf::ForOp forOp,
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

void mlir::pk::detail::versionLoop(RewriterBase &rewriter,
                                   const KLoopInfo &info, int64_t minTrips,
                                   ArrayRef<Value> runtimeAligned) {
  scf::ForOp forOp = info.forOp;
  rewriter.setInsertionPoint(forOp);
  Value condition;
  if (minTrips > 0)
    condition = createPipelineGuard(rewriter, forOp, minTrips);
  if (!runtimeAligned.empty()) {
    Value aligned =
        createAlignmentCondition(rewriter, forOp.getLoc(), runtimeAligned);
    condition = condition ? arith::AndIOp::create(rewriter, forOp.getLoc(),
                                                  condition, aligned)
                                .getResult()
                          : aligned;
  }
  versionOnCondition(rewriter, forOp, condition);
}

/// Declines when the arithmetic of the pipelined loop would wrap in the
/// type of `forOp`, whose bounds are constants: upstream's epilogue computes
/// the trip count as `(ub - lb + step - 1) / step` in that type (the
/// prologue, the steady-state loop and pk's stage index
/// `((iv - lb) / step) % stages` only compute iterations the loop runs, or
/// `ub - (stages - 1) * step`, which lies between lb and ub when the trip
/// count is at least the stages); and when a constant step is not positive
/// (the pipeliner's trip count and pk's stage index assume it is).
static DeclineOr<void> checkLoopArithmetic(scf::ForOp forOp) {
  std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(forOp.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  if (step && *step <= 0)
    return Decline(forOp, "the loop's step is the constant " + Twine(*step) +
                              ": pk pipelines loops with a positive step");
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
  LDBG() << "not pipelined: loop arithmetic overflows " << typeName;
  return Decline(forOp,
                 "the pipelined loop computes " +
                     Twine(bad == &rounded ? "ub - lb + step - 1" : "-lb") +
                     " = " + toString(*bad, 10, /*Signed=*/true) +
                     ", which overflows " + typeName +
                     ": loop bounds this close to the limits of the "
                     "type are not supported");
}

/// The variants that keep the shared stores in place (register variants)
/// move them after the compute: they must sit directly in the loop body.
static DeclineOr<void> checkStoresInBody(const KLoopInfo &info,
                                         PipelineVariant variant) {
  for (const TileCopy &copy : info.copies)
    for (Operation *store : copy.stores)
      if (store->getParentOp() != static_cast<Operation *>(info.forOp))
        return Decline(store, "the " + stringifyPipelineVariant(variant) +
                                  " variant moves the shared stores after "
                                  "the compute; this store is inside a "
                                  "nested region");
  return success();
}

/// The checks of one wgmma descriptor operand with `buffers` > 1: generated
/// in the compute phase (pk points it at the stage being computed), from a
/// buffer whose stages stay 1024-byte aligned.
static DeclineOr<void> checkDescriptor(const KLoopInfo &info, Value descriptor,
                                       unsigned bufferIndex) {
  // The matcher traced every descriptor to its generate.descriptor.
  auto gen = descriptor.getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>();
  const SharedBuffer &buffer = info.buffers[bufferIndex];
  if (!buffer.copied)
    return success();
  scf::ForOp forOp = info.forOp;
  Operation *top = forOp.getBody()->findAncestorOpInBlock(*gen);
  if (!top || top->isBeforeInBlock(info.getLoadPhaseEnd()))
    return Decline(gen, "this nvgpu.warpgroup.generate.descriptor of " +
                            buffer.name +
                            " is not in the compute phase; pk points the "
                            "descriptors of the compute phase at the stage "
                            "being computed");
  if (buffer.bytes % kWgmmaOperandAlignment != 0)
    return Decline(buffer.root.getLoc(),
                   "one stage of " + buffer.name + " is " +
                       Twine(buffer.bytes) +
                       " bytes, not a multiple of 1024: the stages of a "
                       "wgmma operand would not stay 1024-byte aligned for "
                       "the 128B swizzle");
  return success();
}

/// wgmma loops (docs/hopper.md). Pipelining them is safe when (a) every
/// wgmma's group retires in the iteration (it or a later wgmma of its
/// block waits with waitGroup = 0), so that the reads of a
/// stage are over before the barrier that precedes its refill, which is
/// where every schedule refills a stage, and (b) a proxy fence separates
/// each tile's stores from the wgmma that reads them (the schedules keep
/// it there, Schedule.cpp). With more than one buffer, every descriptor
/// must be pointed at the stage being computed.
static DeclineOr<void> checkWarpgroupMmas(const KLoopInfo &info,
                                          int64_t buffers) {
  for (const WarpgroupMma &wgmma : info.warpgroupMmas) {
    if (!wgmma.proxyFenced)
      return Decline(wgmma.op,
                     "this nvgpu.warpgroup.mma reads shared tiles with no "
                     "fence.proxy.async after their generic-proxy stores: the "
                     "kernel races, and pk does not pipeline a racing kernel");
    if (!wgmma.retiredInIteration)
      return Decline(wgmma.op,
                     "this nvgpu.warpgroup.mma leaves " +
                         Twine(wgmma.waitGroup) +
                         " wgmma group(s) in flight (waitGroup = " +
                         Twine(wgmma.waitGroup) +
                         ") and no later wgmma of its block waits for all "
                         "groups: its reads of a stage may outlast the "
                         "barrier before that stage's refill; pk pipelines "
                         "wgmma loops whose groups retire in the iteration "
                         "(waitGroup = 0 on the last wgmma)");
    if (buffers < 2)
      continue;
    auto mma = cast<nvgpu::WarpgroupMmaOp>(wgmma.op);
    for (auto [descriptor, buffer] :
         {std::pair(mma.getDescriptorA(), wgmma.bufferA),
          std::pair(mma.getDescriptorB(), wgmma.bufferB)})
      if (DeclineOr<void> checked = checkDescriptor(info, descriptor, buffer);
          failed(checked))
        return checked;
  }
  return success();
}

/// The loop-structure checks of the TMA ring (and of warp specialization).
static DeclineOr<void> checkTmaPlan(const KLoopInfo &info,
                                    const PipelinePlan &plan) {
  if (DeclineOr<void> uses = checkBufferUses(info); failed(uses))
    return uses;
  if (DeclineOr<void> ring = checkTmaRing(info); failed(ring))
    return ring;
  if (plan.schedule == PipelineSchedule::WarpSpecialized)
    return checkWarpSpecialization(info);
  return success();
}

DeclineOr<void> mlir::pk::checkPipelinePlan(const KLoopInfo &info,
                                            const PipelinePlan &plan) {
  PipelineVariant variant = plan.variant;
  if (DeclineOr<void> strategy =
          checkStrategyForLoop(info, variant, plan.schedule, plan.buffers);
      failed(strategy))
    return strategy;
  if (DeclineOr<void> arithmetic = checkLoopArithmetic(info.forOp);
      failed(arithmetic))
    return arithmetic;
  if (DeclineOr<void> wgmma = checkWarpgroupMmas(info, plan.buffers);
      failed(wgmma))
    return wgmma;
  if (variant == PipelineVariant::Tma)
    return checkTmaPlan(info, plan);
  if (variant != PipelineVariant::RegisterPrefetch)
    if (DeclineOr<void> uses = checkBufferUses(info); failed(uses))
      return uses;
  if (variant == PipelineVariant::CpAsync) {
    if (plan.asyncCopies.empty())
      return Decline(info.forOp, "the cp-async plan has no copies: build "
                                 "the plan with buildPipelinePlan");
    return success();
  }
  return checkStoresInBody(info, variant);
}

/// The schedule of `plan` for the loop after the copies were converted and
/// the buffers multi-buffered (`tokens`: the cp.async groups' tokens;
/// `waitStart`: the TMA ring's wait computation).
static Schedule buildSchedule(RewriterBase &rewriter, const KLoopInfo &info,
                              const PipelinePlan &plan, ArrayRef<Value> tokens,
                              Operation *waitStart) {
  switch (plan.variant) {
  case PipelineVariant::Tma:
    return buildTmaSchedule(rewriter, info.forOp, waitStart, plan.buffers,
                            plan.mmaGroupsInFlight);
  case PipelineVariant::CpAsync: {
    SmallVector<Operation *> registerStores;
    for (const AsyncCopyPlan *copy : getRegisterPathCopies(plan.asyncCopies))
      registerStores.push_back(copy->store);
    if (plan.schedule == PipelineSchedule::TwoStage)
      return buildTwoStageSchedule(rewriter, info.forOp, info.loadBarrier,
                                   info.computeBarrier, tokens, registerStores);
    return buildMultistageSchedule(
        rewriter, info.forOp, info.loadBarrier, info.computeBarrier,
        plan.buffers, plan.mmaGroupsInFlight, tokens, registerStores);
  }
  default:
    return buildRegisterSchedule(info.forOp, info.loadBarrier,
                                 info.computeBarrier);
  }
}

/// Steps 3-5 on a loop that passed checkPipelinePlan (after dropping the
/// barriers inside the load phase).
static DeclineOr<PipelinedKLoop> applySteps(RewriterBase &rewriter,
                                            const KLoopInfo &info,
                                            const PipelinePlan &plan,
                                            const ApplyPlanOptions &options) {
  PipelineVariant variant = plan.variant;
  // The matcher proved these order only copies to different buffers.
  for (gpu::BarrierOp barrier : info.innerLoadBarriers)
    rewriter.eraseOp(barrier);
  // The commits and waits of already-async copies: waits first, they use
  // the groups' tokens. The schedule creates its own.
  for (Operation *op : llvm::reverse(info.asyncGroupOps))
    rewriter.eraseOp(op);
  SmallVector<Value> tokens;
  if (variant == PipelineVariant::CpAsync)
    tokens = convertToAsyncCopies(rewriter, plan.asyncCopies, info.forOp);
  if (variant == PipelineVariant::Tma)
    sinkTmaDestinationViews(rewriter, info);
  Value loadStage;
  if (plan.buffers > 1)
    loadStage = multiBufferCopiedBuffers(rewriter, info, plan.buffers,
                                         plan.dynamicSharedMemory);
  Operation *waitStart = nullptr;
  if (variant == PipelineVariant::Tma)
    waitStart = buildTmaBarrierRing(rewriter, info, plan.buffers, loadStage);
  if (plan.schedule == PipelineSchedule::WarpSpecialized)
    return warpSpecialize(rewriter, info, plan.buffers, waitStart,
                          /*mmaInFlight=*/info.hasChainedWgmmas());
  Schedule schedule = buildSchedule(rewriter, info, plan, tokens, waitStart);
  return runPipeliner(rewriter, info.forOp, schedule,
                      /*insertFinalBarrier=*/isMultistageVariant(variant),
                      plan.versionMinTrips, options.testFailLate);
}

/// The launch change of the plan: the kernel's `nvvm.minctasm`.
static void applyLaunchBounds(RewriterBase &rewriter, const KLoopInfo &info,
                              const PipelinePlan &plan) {
  if (!plan.setMinBlocksPerSM)
    return;
  rewriter.modifyOpInPlace(info.kernel, [&] {
    info.kernel->setAttr(kMinCtasmAttrName,
                         rewriter.getI32IntegerAttr(
                             static_cast<int32_t>(*plan.setMinBlocksPerSM)));
  });
}

/// `gpu.barrier; L; gpu.barrier; C` per iteration is the cycle
/// `L; gpu.barrier; C; gpu.barrier` with one barrier before the loop (it
/// keeps the first tile's stores after whatever the block did before) and
/// one more after it: both are uniform (the loop's trip count is the
/// block's), so the rotated loop synchronizes at least where the original
/// did.
void mlir::pk::detail::rotateBarrierFirst(RewriterBase &rewriter,
                                          const KLoopInfo &info) {
  scf::ForOp forOp = info.forOp;
  gpu::BarrierOp barrier = info.computeBarrier;
  rewriter.setInsertionPoint(forOp);
  gpu::BarrierOp::create(rewriter, barrier.getLoc());
  rewriter.moveOpBefore(barrier, forOp.getBody()->getTerminator());
}

DeclineOr<PipelinedKLoop>
mlir::pk::applyPipelinePlan(RewriterBase &rewriter, const KLoopInfo &info,
                            const PipelinePlan &plan,
                            const ApplyPlanOptions &options, bool *modifiedIR) {
  if (modifiedIR)
    *modifiedIR = false;
  if (DeclineOr<void> checked = checkPipelinePlan(info, plan);
      failed(checked)) {
    LDBG() << "not pipelining " << locationToString(info.forOp->getLoc())
           << ": " << checked.getDecline().getMessage() << " -> BAIL";
    return checked.takeDecline();
  }

  // From here on the IR changes.
  if (modifiedIR)
    *modifiedIR = true;
  gpu::GPUFuncOp kernel = info.kernel;
  if (info.barrierFirst)
    rotateBarrierFirst(rewriter, info);
  // What pk cannot prove is checked at run time, the original loop (marked
  // as the fallback) running otherwise: a dynamic trip count below
  // `versionMinTrips`, the alignment of the global buffers the cp.async
  // widths assume.
  if (plan.isVersioned())
    versionLoop(rewriter, info, plan.versionMinTrips, plan.runtimeAligned);
  DeclineOr<PipelinedKLoop> pipelined =
      applySteps(rewriter, info, plan, options);
  if (failed(pipelined))
    return pipelined.takeDecline().prepend("internal error: ");
  scf::ForOp newLoop = pipelined->loop;
  rewriter.modifyOpInPlace(newLoop, [&] {
    newLoop->setAttr(kPipelinedAttrName, rewriter.getUnitAttr());
  });
  applyLaunchBounds(rewriter, info, plan);

  // The verifier's diagnostics become the decline.
  ThreadDiagnostics diagnostics(rewriter.getContext());
  if (failed(verify(kernel))) {
    LDBG() << "the kernel that does not verify:\n" << kernel;
    return Decline(info.forOp, "internal error: the pipelined kernel does not "
                               "verify (" +
                                   diagnostics.getText() + ")");
  }
  return pipelined;
}
