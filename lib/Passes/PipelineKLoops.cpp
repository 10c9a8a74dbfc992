//===- PipelineKLoops.cpp - pk-pipeline-kloops ----------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A thin wrapper: every K-loop candidate goes through `pipelineKernelLoop`
// (PipelineKernelLoop.h: matchKLoop, decide, pipelineKLoop). Every decision
// is a remark and, with report=<path>, a JSON line. A loop pk declines is
// left untouched; an internal error after the IR changed fails the pass.
// Tests: test/pk-pipeline-kloops*.mlir.
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/Coverage.h"
#include "pk/Emit.h"
#include "pk/KLoopMatcher.h"
#include "pk/Passes.h"
#include "pk/PipelineKernelLoop.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-pipeline-kloops"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKPIPELINEKLOOPS
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

namespace {
struct PipelineKLoopsPass final
    : public pk::impl::PKPipelineKLoopsBase<PipelineKLoopsPass> {
  using Base::Base;
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) final {
    return pk::detail::initializeOptionsNamingPass(*this, options,
                                                   errorHandler);
  }
  friend PipelineRequest
  pk::detail::makeTargetRequest<PipelineKLoopsPass>(const PipelineKLoopsPass &);

  /// The register-aware decision lowers candidates with a dynamic pass
  /// pipeline: load the dialects its passes create up front.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    OpPassManager pm(ModuleOp::getOperationName());
    buildLoweringPipeline(pm, *lookupTarget("sm_86"), /*barePtr=*/true,
                          LoweringFormat::PTX);
    pm.getDependentDialects(registry);
  }

  void runOnOperation() final {
    Operation *root = getOperation();
    PipelineRequest request = pk::detail::makeTargetRequest(*this);
    request.variant = variant;
    request.schedule = schedule;
    request.testFailLate = testFailLate;
    request.compileCandidates = compileCandidates;
    request.cudaPath = cudaPath;
    // Anchored below the gpu.module (e.g. on a gpu.func), pk may change only
    // the operation it runs on.
    if (!isa<ModuleOp, gpu::GPUModuleOp>(root))
      request.scope = root;
    if (failed(verifyPipelineRequest(
            request, [&] { return mlir::emitError(root->getLoc()); })))
      return signalPassFailure();

    pk::detail::normalizeStorageWithRemarks(root);
    if (remarkMismatches) {
      remarkOnUnreachableLoops(root);
      remarkOnUnconsideredCode(root, verbose);
    }
    // Pipelining a loop replaces it but leaves the other candidates in
    // place: collect them first (loops pipelining creates, e.g. an outer
    // loop that now holds the epilogue's barrier, are not candidates).
    SmallVector<scf::ForOp> candidates;
    root->walk<WalkOrder::PreOrder>([&](scf::ForOp forOp) {
      if (isKLoopCandidate(forOp))
        candidates.push_back(forOp);
    });
    IRRewriter rewriter(root->getContext());
    std::string lines;
    // Kernels a loop of this run was pipelined in: pk-analyze-kloops saw
    // them before that change.
    DenseSet<Operation *> changedKernels;
    for (scf::ForOp forOp : candidates) {
      Operation *kernel = forOp->getParentOfType<gpu::GPUFuncOp>();
      // Fails only on an internal error after the IR changed (emitted).
      FailureOr<PipelineResult> result =
          pipelineKernelLoop(rewriter, forOp, request);
      if (failed(result))
        return signalPassFailure();
      if (result->outcome == PipelineOutcome::Pipelined)
        changedKernels.insert(kernel);
      if (result->outcome == PipelineOutcome::NotAKLoop && !remarkMismatches &&
          !changedKernels.contains(kernel))
        continue;
      // Inside pipeline-kernel (remarkMismatches off) pk-analyze-kloops
      // already warned.
      if (remarkMismatches)
        for (const auto &[where, warning] : result->warnings)
          mlir::emitWarning(where) << warning;
      emitPipelineRemark(*result);
      if (result->outcome == PipelineOutcome::NotAKLoop)
        continue;
      lines +=
          llvm::formatv("{0}\n", llvm::json::Value(std::move(result->report)));
    }
    if (report.empty())
      return;
    if (failed(reportFile->write(root->getLoc(), report, lines, reportAppend)))
      return signalPassFailure();
  }

  /// The report file, shared with the clones of this pass.
  std::shared_ptr<pk::detail::SharedReport> reportFile =
      std::make_shared<pk::detail::SharedReport>();
};
} // namespace
