//===- CandidateCompiler.cpp - Compile a candidate on a clone -------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The register-aware decision's compiler (docs/stages.md): a clone of the
// loop's gpu.module, the candidate's plan built and applied on the clone's
// loop, the kernel's `nvvm.minctasm` set, pk's lowering and ptxas
// (compileForResources). The decision calls it through
// DecisionOptions::compiler and does not depend on Emission.
// Tests: test/pipeline-kernel-decide-ptxas.mlir,
// test/e2e/pipeline-kernel-decide-ptxas.test.
//
//===----------------------------------------------------------------------===//

#include "DriverInternal.h"

#include "pk/Emit.h"
#include "pk/KLoopMatcher.h"
#include "pk/Pipelining.h"
#include "pk/Support.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-candidate-compiler"

using namespace mlir;
using namespace mlir::pk;

/// The position of `forOp` among the scf.for of its kernel, in pre-order.
static int64_t getLoopIndex(gpu::GPUFuncOp kernel, scf::ForOp forOp) {
  int64_t index = 0, found = -1;
  kernel.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    if (loop == forOp)
      found = index;
    ++index;
  });
  return found;
}

/// The scf.for at `index` (pre-order) of `kernel`, or null.
static scf::ForOp getLoopAt(gpu::GPUFuncOp kernel, int64_t index) {
  scf::ForOp result;
  int64_t i = 0;
  kernel.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    if (i++ == index)
      result = loop;
  });
  return result;
}

/// An llvm::Error with `message`.
static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// `error` with the first error `diagnostics` held, if any: a candidate is a
/// trial on a clone, its lowering's diagnostics are not the user's (the
/// final emission reports its own), but its first error says why it failed.
static llvm::Error explain(llvm::Error error,
                           const ThreadDiagnostics &diagnostics) {
  if (diagnostics.getFirstError().empty())
    return error;
  return makeError(llvm::toString(std::move(error)) + " (" +
                   diagnostics.getFirstError() + ")");
}

namespace {
/// Compiles candidates of one loop.
struct CandidateCompilerImpl {
  scf::ForOp forOp;
  const TargetInfo *target;
  PipelineRequest request;

  llvm::Expected<CompiledResources>
  operator()(const Candidate &candidate) const;

private:
  /// Pipelines `candidate` on `loop`, the clone of `forOp`.
  llvm::Error pipelineClone(scf::ForOp loop, const Candidate &candidate) const;
};
} // namespace

llvm::Error
CandidateCompilerImpl::pipelineClone(scf::ForOp loop,
                                     const Candidate &candidate) const {
  DeclineOr<KLoopInfo> info = matchKLoop(loop, request.blockSize);
  if (failed(info))
    return makeError("the clone does not match: " +
                     info.getDecline().getMessage());
  DeclineOr<PipelinePlan> plan = buildPipelinePlan(*info, *target, candidate);
  if (failed(plan))
    return makeError(plan.getDecline().getMessage());
  IRRewriter rewriter(loop.getContext());
  DeclineOr<PipelinedKLoop> pipelined =
      applyPipelinePlan(rewriter, *info, *plan);
  if (failed(pipelined))
    return makeError(pipelined.getDecline().getMessage());
  return llvm::Error::success();
}

llvm::Expected<CompiledResources>
CandidateCompilerImpl::operator()(const Candidate &candidate) const {
  scf::ForOp forOp = this->forOp;
  auto kernel = forOp->getParentOfType<gpu::GPUFuncOp>();
  auto gpuModule =
      kernel ? kernel->getParentOfType<gpu::GPUModuleOp>() : gpu::GPUModuleOp();
  if (!gpuModule)
    return makeError("the kernel is not in a gpu.module");
  OpBuilder builder(forOp.getContext());
  OwningOpRef<ModuleOp> wrapper = ModuleOp::create(forOp.getLoc());
  (*wrapper)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      builder.getUnitAttr());
  builder.setInsertionPointToStart(wrapper->getBody());
  auto clone = cast<gpu::GPUModuleOp>(builder.clone(*gpuModule));
  auto cloneKernel = clone.lookupSymbol<gpu::GPUFuncOp>(kernel.getName());
  scf::ForOp loop = getLoopAt(cloneKernel, getLoopIndex(kernel, forOp));
  ThreadDiagnostics diagnostics(forOp.getContext());
  if (candidate.variant != PipelineVariant::None)
    if (llvm::Error error = pipelineClone(loop, candidate))
      return explain(std::move(error), diagnostics);
  cloneKernel->setAttr(kMinCtasmAttrName,
                       builder.getI32IntegerAttr(candidate.blocksPerSM));
  int64_t dynamicBytes = 0;
  if (auto attr =
          cloneKernel->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttrName))
    dynamicBytes = attr.getInt();
  llvm::Expected<PtxasKernelInfo> ptxas = compileForResources(
      *wrapper, kernel.getName(), *target, resolveCudaPath(request.cudaPath));
  if (!ptxas)
    return explain(ptxas.takeError(), diagnostics);
  LDBG() << describeCandidate(candidate) << ": " << ptxas->registers
         << " registers, " << ptxas->spillStores << " bytes spill stores";
  return CompiledResources{ptxas->registers,
                           ptxas->spillStores + ptxas->spillLoads,
                           ptxas->sharedBytes + dynamicBytes};
}

void mlir::pk::detail::setCandidateCompiler(scf::ForOp forOp,
                                            const TargetInfo &target,
                                            const PipelineRequest &request,
                                            DecisionOptions &options) {
  if (!request.compileCandidates || !request.searchesCandidates())
    return;
  if (llvm::Error missing = checkPtxas(resolveCudaPath(request.cudaPath))) {
    options.noCompilerReason =
        "the model alone: " + llvm::toString(std::move(missing)) +
        ", so registers and spills are unknown";
    return;
  }
  options.compiler = CandidateCompilerImpl{forOp, &target, request};
}
