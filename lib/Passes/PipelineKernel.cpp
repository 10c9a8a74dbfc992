//===- PipelineKernel.cpp - pipeline-kernel and registration --------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// pk's one-flag entry point: the `pipeline-kernel` pass runs three stages
// on its module: (1) outline and normalize the kernels, (2) ldmatrix ->
// analyze -> budget check -> pipeline, (3) canonicalize, cse -> (emit);
// between 2 and 3 a kernel the ldmatrix rewrite changed but whose loops
// were not pipelined goes back to its form after stage 1 (rule
// ldmatrix-with-pipelining). `buildPipelineKernelPipeline` adds that pass
// to a pass manager, with the same typed options (Passes.td). Tests:
// test/pipeline-kernel*.mlir.
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

/// The JSON report's path: the option, else next to the artefacts.
static std::string getReportPath(const PipelineKernelOptions &options) {
  std::string report = options.report;
  if (report.empty() && options.emit != EmitKind::MLIR) {
    SmallString<256> path(options.outDir);
    llvm::sys::path::append(path, "report.json");
    report = path.str().str();
  }
  return report;
}

/// Stage 1: every kernel a gpu.func whose workgroup allocations are
/// attributions.
static void addPreparation(OpPassManager &pm) {
  // Kernels still in the gpu.launch form are outlined first (upstream's
  // sink + outlining, as the linalg -> GPU path does), so that every kernel
  // is a gpu.func; then workgroup allocations become attributions.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createPKNormalizeWorkgroupStorage());
}

/// Stage 2: ldmatrix, the analysis, the budget check, pipelining.
static void addTransforms(OpPassManager &pm,
                          const PipelineKernelOptions &options) {
  // IREE-style operand reads (2- and 4-byte shared loads per mma.sync)
  // become ldmatrix before the analysis measures the compute phase.
  if (options.ldmatrix)
    pm.addPass(createPKUseLdmatrix());
  // A persistent kernel's tile loop and TMA K-loop become one loop, which
  // the analysis then sees as the K-loop (pipelined across tiles).
  pm.addPass(createPKFlattenTileLoops());
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
  pipeline.report = getReportPath(options);
  pipeline.remarkMismatches = false;
  pipeline.requireAnalysis = true;
  pm.addPass(createPKPipelineKLoops(pipeline));
}

/// Stage 3: cleanup and (emit != mlir) the artefacts.
static void addCleanupAndEmission(OpPassManager &pm,
                                  const PipelineKernelOptions &options) {
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
  emit.report = getReportPath(options);
  emit.reportAppend = true;
  // An explicit target is the warning's threshold; otherwise each kernel's
  // nvvm.minctasm (which min-blocks-per-sm=auto sets), else 2.
  emit.minBlocksPerSM = std::max<int64_t>(options.minBlocksPerSM.value, 0);
  pm.addPass(createPKEmitBinaries(emit));
}

void mlir::pk::buildPipelineKernelPipeline(
    OpPassManager &pm, const PipelineKernelOptions &options) {
  // One pass: it keeps each kernel as it was before the ldmatrix rewrite
  // when none of its loops is pipelined (restoreUnpipelinedKernels), which
  // needs the kernels from before stage 2.
  pm.addPass(createPKPipelineKernel(options));
}

namespace {
/// The kernels as stage 1 left them, by symbol, detached: what a kernel
/// reverts to when the ldmatrix rewrite is all pk changed in it.
struct KernelStash {
  llvm::StringMap<gpu::GPUFuncOp> kernels;
  ~KernelStash() {
    for (auto &entry : kernels)
      entry.second->destroy();
  }
};
} // namespace

/// The `nvgpu.ldmatrix` ops of `kernel`.
static int64_t countLdmatrix(gpu::GPUFuncOp kernel) {
  int64_t count = 0;
  kernel.walk([&](nvgpu::LdMatrixOp) { ++count; });
  return count;
}

/// Whether a loop of `kernel` carries the attribute `name` (a pipelined
/// loop, a flattened tile loop).
static bool hasLoopWithAttr(gpu::GPUFuncOp kernel, StringRef name) {
  return kernel
      .walk([&](scf::ForOp loop) {
        return loop->hasAttr(name) ? WalkResult::interrupt()
                                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Clones every kernel of `module` into `stash`.
static void stashKernels(ModuleOp module, KernelStash &stash) {
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel())
      return;
    auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
    std::string key = (gpuModule.getName() + "::" + kernel.getName()).str();
    stash.kernels[key] = cast<gpu::GPUFuncOp>(kernel->clone());
  });
}

/// Rule `ldmatrix-with-pipelining`: a kernel that pk-use-ldmatrix rewrote
/// (it has more nvgpu.ldmatrix than before) but none of whose loops was
/// pipelined reverts to its stashed form. The rewrite alone, without the
/// pipelining it enables, measured slower than IREE's own kernel on a
/// batch matmul (0.63x on an H100, integration/results/
/// 2026-12-06-h100-iree-per-dispatch), and pk never hands back a kernel
/// slower than the one it was given.
static void restoreUnpipelinedKernels(ModuleOp module, KernelStash &stash) {
  SmallVector<gpu::GPUFuncOp> kernels;
  module.walk([&](gpu::GPUFuncOp kernel) { kernels.push_back(kernel); });
  for (gpu::GPUFuncOp kernel : kernels) {
    auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
    auto it = stash.kernels.find(
        (gpuModule.getName() + "::" + kernel.getName()).str());
    if (it == stash.kernels.end() ||
        hasLoopWithAttr(kernel, kPipelinedAttrName))
      continue;
    bool ldmatrix = countLdmatrix(kernel) > countLdmatrix(it->second);
    bool flattened = hasLoopWithAttr(kernel, kFlattenedTileLoopAttrName);
    if (!ldmatrix && !flattened)
      continue;
    if (ldmatrix)
      emitRemark(kernel.getLoc())
          << "kernel @" << kernel.getName()
          << ": the ldmatrix rewrite is undone: no K-loop of the kernel was "
             "pipelined, and the rewrite alone can be slower than the kernel "
             "it came from (rule ldmatrix-with-pipelining)";
    if (flattened)
      emitRemark(kernel.getLoc())
          << "kernel @" << kernel.getName()
          << ": its tile loop is restored: the flattened loop was not "
             "pipelined, and flattening alone gains nothing";
    gpu::GPUFuncOp original = it->second;
    stash.kernels.erase(it);
    kernel->getBlock()->getOperations().insert(kernel->getIterator(),
                                               original.getOperation());
    kernel->erase();
  }
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
    PipelineKernelOptions options = getOptions();
    addPreparation(pm);
    addTransforms(pm, options);
    addCleanupAndEmission(pm, options);
    pm.getDependentDialects(registry);
  }

  /// Stage 1, the kernels stashed, stage 2, the kernels the ldmatrix
  /// rewrite or the tile-loop flattening alone changed restored, stage 3.
  void runOnOperation() final {
    ModuleOp module = getOperation();
    if (failed(checkLaunchNesting(module)))
      return signalPassFailure();
    PipelineKernelOptions options = getOptions();
    OpPassManager prepare(ModuleOp::getOperationName());
    addPreparation(prepare);
    if (failed(runPipeline(prepare, module)))
      return signalPassFailure();
    KernelStash stash;
    stashKernels(module, stash);
    OpPassManager transform(ModuleOp::getOperationName());
    addTransforms(transform, options);
    if (failed(runPipeline(transform, module)))
      return signalPassFailure();
    restoreUnpipelinedKernels(module, stash);
    OpPassManager finish(ModuleOp::getOperationName());
    addCleanupAndEmission(finish, options);
    if (failed(runPipeline(finish, module)))
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
