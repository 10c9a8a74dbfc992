//===- Pipelines.cpp - pk pass pipeline and registration ------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#include "pk/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Path.h"

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

void mlir::pk::buildPipelineKernelPipeline(
    OpPassManager &pm, const PipelineKernelOptions &options) {
  // With artefacts, the report goes next to them unless told otherwise.
  std::string report = options.report;
  if (report.empty() && options.emit != "mlir") {
    SmallString<256> path(options.outDir.getValue());
    llvm::sys::path::append(path, "report.json");
    report = path.str().str();
  }
  auto analyze = withTargetOptions<PKAnalyzeKLoopsOptions>(options);
  analyze.skipHighRatio = options.skipHighRatio;
  pm.addPass(createPKAnalyzeKLoops(analyze));

  auto budget = withTargetOptions<PKCheckSmemBudgetOptions>(options);
  // ldg-register doubles the buffers whatever `stages` says.
  if (options.variant == "ldg-register")
    budget.stages = "2";
  // The budget check rejects explicit doubling variants that cross the
  // cliff; with variant=auto the pipeline pass falls back to register
  // prefetch instead.
  if (options.variant == "cp-async" || options.variant == "ldg-register")
    pm.addPass(createPKCheckSmemBudget(budget));

  auto pipeline = withTargetOptions<PKPipelineKLoopsOptions>(options);
  pipeline.variant = options.variant;
  pipeline.schedule = options.schedule;
  pipeline.skipHighRatio = options.skipHighRatio;
  pipeline.report = report;
  pipeline.remarkMismatches = false;
  pm.addPass(createPKPipelineKLoops(pipeline));

  // Cleanup: fold the prologue's constant indices, share common
  // subexpressions.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  if (options.emit == "mlir")
    return;
  PKEmitBinariesOptions emit;
  emit.arch = options.arch;
  emit.emit = options.emit;
  emit.outDir = options.outDir;
  emit.cudaPath = options.cudaPath;
  emit.barePtr = options.barePtr;
  emit.report = report == "-" ? std::string() : report;
  emit.minBlocksPerSM = options.minBlocksPerSM;
  pm.addPass(createPKEmitBinaries(emit));
}

void mlir::pk::registerPKDialects(DialectRegistry &registry) {
  registry
      .insert<arith::ArithDialect, gpu::GPUDialect, memref::MemRefDialect,
              nvgpu::NVGPUDialect, scf::SCFDialect, vector::VectorDialect>();
}

void mlir::pk::registerPKPassesAndPipelines() {
  registerPKPasses();
  PassPipelineRegistration<PipelineKernelOptions>(
      "pipeline-kernel",
      "pk's pipeline: analyze the K-loops of GPU kernels, check the "
      "shared-memory budget, software-pipeline them, clean up, and "
      "optionally emit LLVM IR / PTX / cubins",
      buildPipelineKernelPipeline);
}
