//===- PipelineKernel.cpp - pipeline-kernel and registration --------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// pk's one-flag entry point: `buildPipelineKernelPipeline` adds analyze ->
// budget check -> pipeline -> canonicalize, cse -> (emit) to a pass manager,
// and the `pipeline-kernel` pass runs that pipeline on its module, so both
// take the same typed options (Passes.td). Tests: test/pipeline-kernel*.mlir.
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Path.h"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKPIPELINEKERNEL
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

/// Copies the target options every analysis-based pass shares.
template <typename PassOptionsT>
static PassOptionsT withTargetOptions(const PipelineKernelOptions &options) {
  PassOptionsT passOptions;
  passOptions.arch = options.arch;
  passOptions.stages = options.stages;
  passOptions.minBlocksPerSM = options.minBlocksPerSM;
  passOptions.blockSize = options.blockSize;
  passOptions.regsPerThread = options.regsPerThread;
  return passOptions;
}

/// The budget check rejects explicit doubling variants that cross the
/// cliff; with variant=auto the decision falls back to register prefetch
/// instead, and register-prefetch does not double.
static void addBudgetCheck(OpPassManager &pm,
                           const PipelineKernelOptions &options) {
  if (options.variant != PipelineVariant::CpAsync &&
      options.variant != PipelineVariant::Tma &&
      options.variant != PipelineVariant::LdgRegister)
    return;
  auto budget = withTargetOptions<PKCheckSmemBudgetOptions>(options);
  // ldg-register doubles the buffers whatever `stages` says.
  if (options.variant == PipelineVariant::LdgRegister)
    budget.stages = StageCount{2};
  pm.addPass(createPKCheckSmemBudget(budget));
}

void mlir::pk::buildPipelineKernelPipeline(
    OpPassManager &pm, const PipelineKernelOptions &options) {
  // With artefacts, the report goes next to them unless told otherwise.
  std::string report = options.report;
  if (report.empty() && options.emit != EmitKind::MLIR) {
    SmallString<256> path(options.outDir);
    llvm::sys::path::append(path, "report.json");
    report = path.str().str();
  }
  // Kernels still in the gpu.launch form are outlined first (upstream's
  // sink + outlining, as the linalg -> GPU path does), so that every kernel
  // is a gpu.func; then workgroup allocations become attributions.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createPKNormalizeWorkgroupStorage());
  // IREE-style operand reads (2- and 4-byte shared loads per mma.sync)
  // become ldmatrix before the analysis measures the compute phase.
  if (options.ldmatrix)
    pm.addPass(createPKUseLdmatrix());
  auto analyze = withTargetOptions<PKAnalyzeKLoopsOptions>(options);
  // The analysis decides each loop as pk-pipeline-kloops will, which then
  // applies those decisions (KLoopAnalysisCache): one match and one
  // decision per loop.
  analyze.skipHighRatio = options.skipHighRatio;
  analyze.variant = options.variant;
  analyze.schedule = options.schedule;
  analyze.compileCandidates = options.compileCandidates;
  analyze.cudaPath = options.cudaPath;
  analyze.verbose = options.verbose;
  pm.addPass(createPKAnalyzeKLoops(analyze));
  addBudgetCheck(pm, options);

  auto pipeline = withTargetOptions<PKPipelineKLoopsOptions>(options);
  pipeline.variant = options.variant;
  pipeline.schedule = options.schedule;
  pipeline.skipHighRatio = options.skipHighRatio;
  pipeline.compileCandidates = options.compileCandidates;
  pipeline.cudaPath = options.cudaPath;
  pipeline.report = report;
  pipeline.remarkMismatches = false;
  pipeline.requireAnalysis = true;
  pm.addPass(createPKPipelineKLoops(pipeline));

  // Cleanup: fold the prologue's constant indices, share common
  // subexpressions.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  if (options.emit == EmitKind::MLIR)
    return;
  PKEmitBinariesOptions emit;
  emit.arch = options.arch;
  emit.emit = options.emit;
  emit.outDir = options.outDir;
  emit.cudaPath = options.cudaPath;
  emit.barePtr = options.barePtr;
  emit.report = report;
  emit.reportAppend = true;
  // An explicit target is the warning's threshold; otherwise each kernel's
  // nvvm.minctasm (which min-blocks-per-sm=auto sets), else 2.
  emit.minBlocksPerSM = std::max<int64_t>(options.minBlocksPerSM.value, 0);
  pm.addPass(createPKEmitBinaries(emit));
}

/// Kernel outlining takes gpu.launch ops of host code: one nested in a
/// kernel (host code inside device code, which upstream's outlining does
/// not expect) or in another launch is a located error before any pass
/// runs.
static LogicalResult checkLaunchNesting(Operation *root) {
  WalkResult result = root->walk([](gpu::LaunchOp launch) {
    Operation *parent = launch->getParentOp();
    while (parent &&
           !isa<gpu::GPUFuncOp, gpu::GPUModuleOp, gpu::LaunchOp>(parent))
      parent = parent->getParentOp();
    if (!parent)
      return WalkResult::advance();
    launch.emitError("gpu.launch nested in a '")
        .append(parent->getName().getStringRef(),
                "': a kernel cannot launch a kernel; pipeline-kernel outlines "
                "gpu.launch ops of host code only")
        .attachNote(parent->getLoc())
        .append("the enclosing '", parent->getName().getStringRef(), "'");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

namespace {
/// Runs buildPipelineKernelPipeline's passes on the module.
struct PipelineKernelPass final
    : public pk::impl::PKPipelineKernelBase<PipelineKernelPass> {
  using Base::Base;
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) final {
    return pk::detail::initializeOptionsNamingPass(*this, options,
                                                   errorHandler);
  }

  /// The options as the struct buildPipelineKernelPipeline takes.
  PipelineKernelOptions getOptions() const {
    PipelineKernelOptions options;
    options.arch = arch;
    options.stages = stages;
    options.minBlocksPerSM = minBlocksPerSM;
    options.blockSize = blockSize;
    options.regsPerThread = regsPerThread;
    options.variant = variant;
    options.schedule = schedule;
    options.skipHighRatio = skipHighRatio;
    options.compileCandidates = compileCandidates;
    options.report = report;
    options.emit = emit;
    options.outDir = outDir;
    options.cudaPath = cudaPath;
    options.barePtr = barePtr;
    options.verbose = verbose;
    options.ldmatrix = ldmatrix;
    return options;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm(ModuleOp::getOperationName());
    buildPipelineKernelPipeline(pm, getOptions());
    pm.getDependentDialects(registry);
  }

  void runOnOperation() final {
    if (failed(checkLaunchNesting(getOperation())))
      return signalPassFailure();
    OpPassManager pm(ModuleOp::getOperationName());
    buildPipelineKernelPipeline(pm, getOptions());
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};
} // namespace

void mlir::pk::registerPKDialects(DialectRegistry &registry) {
  registry
      .insert<arith::ArithDialect, gpu::GPUDialect, memref::MemRefDialect,
              nvgpu::NVGPUDialect, scf::SCFDialect, vector::VectorDialect>();
}

void mlir::pk::registerPKPassesAndPipelines() {
  registerPKPasses();
  registerLoweringPasses();
}
