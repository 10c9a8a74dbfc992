//===- TestPipelineSteps.cpp - One pipelining step per test pass ----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Test passes that run one step of applyPipelinePlan (PipelineSteps.h) on
// the K-loops marked with a `test.*` attribute, as upstream's
// -test-scf-pipelining does: the plan alone (-test-pk-plan), the cp.async
// conversion (-test-pk-async-copy), multi-buffering (-test-pk-multi-buffer)
// and the TMA barrier ring (-test-pk-tma-ring). A step's precondition that
// fails is a remark at the op that caused it; the IR is then unchanged.
// Registered in pk-opt only (registerPKTestPasses); not installed.
// Tests: test/test-pk-*.mlir.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "pk/Enums.h"
#include "pk/KLoopMatcher.h"
#include "pk/PipelineSteps.h"
#include "pk/Plan.h"
#include "pk/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::pk;

namespace {
/// The dialects the steps create ops of.
static void addStepDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, gpu::GPUDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, nvgpu::NVGPUDialect, scf::SCFDialect,
                  vector::VectorDialect>();
}

/// The loops under `root` marked with `attrName`, in pre-order (collected
/// first: a step rewrites the loop it is given).
static SmallVector<scf::ForOp> getMarkedLoops(Operation *root,
                                              StringRef attrName) {
  SmallVector<scf::ForOp> loops;
  root->walk<WalkOrder::PreOrder>([&](scf::ForOp forOp) {
    if (forOp->hasAttr(attrName))
      loops.push_back(forOp);
  });
  return loops;
}

/// `test.stages` of `forOp` (2 when absent).
static int64_t getTestStages(scf::ForOp forOp) {
  if (auto stages = forOp->getAttrOfType<IntegerAttr>("test.stages"))
    return stages.getInt();
  return 2;
}

/// Whether `info` (matchKLoop's result, used in place: a KLoopInfo holds
/// pointers into itself) is a K-loop; remarks why not otherwise.
static bool isKLoopOrRemark(const DeclineOr<KLoopInfo> &info) {
  if (succeeded(info))
    return true;
  info.getDecline().emit(DiagnosticSeverity::Remark, "not a pk K-loop: ");
  return false;
}

/// Emits `decline` as a remark prefixed with the step's name.
static void remarkDecline(StringRef step, const Decline &decline) {
  decline.emit(DiagnosticSeverity::Remark, Twine(step) + " declined: ");
}

/// The runOnOperation of a step pass: `DerivedT::runOnLoop(rewriter, forOp,
/// info)` on each K-loop marked with `DerivedT::kMarker`.
template <typename DerivedT>
struct StepPass : public PassWrapper<DerivedT, OperationPass<>> {
  void getDependentDialects(DialectRegistry &registry) const final {
    addStepDialects(registry);
  }

  void runOnOperation() final {
    IRRewriter rewriter(&this->getContext());
    for (scf::ForOp forOp :
         getMarkedLoops(this->getOperation(), DerivedT::kMarker)) {
      DeclineOr<KLoopInfo> info = matchKLoop(forOp, /*blockSize=*/0);
      if (isKLoopOrRemark(info))
        static_cast<DerivedT *>(this)->runOnLoop(rewriter, forOp, *info);
    }
  }
};

/// -test-pk-plan: the plan of `test.variant` / `test.schedule` /
/// `test.stages` on `arch`, as a remark with every field.
struct TestPlanPass : public StepPass<TestPlanPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPlanPass)
  static constexpr StringLiteral kMarker = "test.variant";
  TestPlanPass() = default;
  TestPlanPass(const TestPlanPass &pass) : StepPass(pass) {}
  StringRef getArgument() const final { return "test-pk-plan"; }
  StringRef getDescription() const final {
    return "Remark on the PipelinePlan of each loop with test.variant";
  }
  Option<std::string> arch{*this, "arch", llvm::cl::init("sm_86"),
                           llvm::cl::desc("Target architecture")};

  void runOnLoop(RewriterBase &, scf::ForOp forOp, const KLoopInfo &info) {
    const TargetInfo *target = lookupTarget(arch);
    auto variant = forOp->getAttrOfType<StringAttr>("test.variant");
    auto schedule = forOp->getAttrOfType<StringAttr>("test.schedule");
    std::optional<PipelineVariant> v =
        variant ? symbolizePipelineVariant(variant) : std::nullopt;
    std::optional<PipelineSchedule> s = symbolizePipelineSchedule(
        schedule ? schedule.getValue() : "multistage");
    if (!target || !v || !s) {
      forOp.emitError("test-pk-plan: unknown arch, test.variant or "
                      "test.schedule");
      return signalPassFailure();
    }
    Candidate candidate;
    candidate.variant = *v;
    candidate.schedule = *s;
    candidate.stages = getTestStages(forOp);
    DeclineOr<PipelinePlan> plan = buildPipelinePlan(info, *target, candidate);
    if (failed(plan))
      return remarkDecline("plan", plan.getDecline());
    mlir::emitRemark(
        forOp.getLoc(),
        llvm::formatv(
            "plan: variant {0}, schedule {1}, {2} buffers, {3} cp.async "
            "copies, versioned on trips >= {4} and {5} run-time aligned "
            "buffer(s), dynamic shared memory {6}, {7} wgmma group(s) in "
            "flight, {8} added threads",
            stringifyPipelineVariant(plan->variant),
            stringifyPipelineSchedule(plan->schedule), plan->buffers,
            plan->asyncCopies.size(), plan->versionMinTrips,
            plan->runtimeAligned.size(),
            plan->dynamicSharedMemory ? "yes" : "no", plan->mmaGroupsInFlight,
            plan->addedThreads));
  }
};

/// -test-pk-async-copy: convertToAsyncCopies on the loops marked
/// `test.async_copy`, with their planAsyncCopies plans.
struct TestAsyncCopyPass : public StepPass<TestAsyncCopyPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAsyncCopyPass)
  static constexpr StringLiteral kMarker = "test.async_copy";
  StringRef getArgument() const final { return "test-pk-async-copy"; }
  StringRef getDescription() const final {
    return "Convert the copies of each loop with test.async_copy to "
           "nvgpu.device_async_copy (pk's cp.async step alone)";
  }

  void runOnLoop(RewriterBase &rewriter, scf::ForOp forOp,
                 const KLoopInfo &info) {
    DeclineOr<SmallVector<AsyncCopyPlan>> plans = planAsyncCopies(info);
    if (failed(plans))
      return remarkDecline("async-copy", plans.getDecline());
    SmallVector<Value> tokens =
        pk::detail::convertToAsyncCopies(rewriter, *plans, forOp);
    mlir::emitRemark(forOp.getLoc())
        << "async-copy: " << plans->size() << " copies, " << tokens.size()
        << " token(s) in the loop body";
  }
};

/// -test-pk-multi-buffer: multiBufferCopiedBuffers on the loops marked
/// `test.stages = N` (`test.dynamic`: into dynamic shared memory).
struct TestMultiBufferPass : public StepPass<TestMultiBufferPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestMultiBufferPass)
  static constexpr StringLiteral kMarker = "test.stages";
  StringRef getArgument() const final { return "test-pk-multi-buffer"; }
  StringRef getDescription() const final {
    return "Multi-buffer the copied shared buffers of each loop with "
           "test.stages (pk's multi-buffering step alone)";
  }

  void runOnLoop(RewriterBase &rewriter, scf::ForOp forOp,
                 const KLoopInfo &info) {
    if (DeclineOr<void> uses = pk::detail::checkBufferUses(info); failed(uses))
      return remarkDecline("multi-buffer", uses.getDecline());
    pk::detail::multiBufferCopiedBuffers(rewriter, info, getTestStages(forOp),
                                         forOp->hasAttr("test.dynamic"));
  }
};

/// -test-pk-tma-ring: on the TMA loops marked `test.stages = N`, the ring's
/// steps: destination views sunk, multi-buffering, the barrier ring.
struct TestTmaRingPass : public StepPass<TestTmaRingPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTmaRingPass)
  static constexpr StringLiteral kMarker = "test.stages";
  StringRef getArgument() const final { return "test-pk-tma-ring"; }
  StringRef getDescription() const final {
    return "Build the TMA barrier ring of each TMA loop with test.stages "
           "(multi-buffering included, no schedule)";
  }

  void runOnLoop(RewriterBase &rewriter, scf::ForOp forOp,
                 const KLoopInfo &info) {
    if (!info.tma) {
      mlir::emitRemark(forOp.getLoc(), "tma-ring declined: not a TMA K-loop");
      return;
    }
    DeclineOr<void> ring = pk::detail::checkTmaRing(info);
    if (succeeded(ring))
      ring = pk::detail::checkBufferUses(info);
    if (failed(ring))
      return remarkDecline("tma-ring", ring.getDecline());
    int64_t stages = getTestStages(forOp);
    pk::detail::sinkTmaDestinationViews(rewriter, info);
    Value loadStage = pk::detail::multiBufferCopiedBuffers(
        rewriter, info, stages, /*useDynamic=*/false);
    pk::detail::buildTmaBarrierRing(rewriter, info, stages, loadStage);
  }
};
} // namespace

void mlir::pk::test::registerPKTestPasses() {
  PassRegistration<TestPlanPass>();
  PassRegistration<TestAsyncCopyPass>();
  PassRegistration<TestMultiBufferPass>();
  PassRegistration<TestTmaRingPass>();
}
