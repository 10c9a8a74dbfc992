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
#include "llvm/Support/Path.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::pk;

void mlir::pk::buildPipelineKernelPipeline(
    OpPassManager &pm, const PipelineKernelOptions &options) {
  // With artefacts, the report goes next to them unless told otherwise.
  std::string report = options.report;
  if (report.empty() && options.emit != "mlir") {
    SmallString<256> path(options.outDir.getValue());
    llvm::sys::path::append(path, "report.json");
    report = path.str().str();
  }
  PKAnalyzeKLoopsOptions analyze;
  analyze.arch = options.arch;
  analyze.stages = options.stages;
  analyze.minBlocksPerSM = options.minBlocksPerSM;
  analyze.blockSize = options.blockSize;
  analyze.regsPerThread = options.regsPerThread;
  analyze.skipHighRatio = options.skipHighRatio;
  pm.addPass(createPKAnalyzeKLoops(analyze));

  PKCheckSmemBudgetOptions budget;
  budget.arch = options.arch;
  budget.stages = options.stages;
  budget.minBlocksPerSM = options.minBlocksPerSM;
  budget.blockSize = options.blockSize;
  budget.regsPerThread = options.regsPerThread;
  // The budget check rejects explicit doubling variants that cross the
  // cliff; with variant=auto the pipeline pass falls back to register
  // prefetch instead.
  if (options.variant != "auto" && options.variant != "register-prefetch")
    pm.addPass(createPKCheckSmemBudget(budget));

  PKPipelineKLoopsOptions pipeline;
  pipeline.arch = options.arch;
  pipeline.stages = options.stages;
  pipeline.minBlocksPerSM = options.minBlocksPerSM;
  pipeline.blockSize = options.blockSize;
  pipeline.regsPerThread = options.regsPerThread;
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
  registry.insert<arith::ArithDialect, gpu::GPUDialect, memref::MemRefDialect,
                  nvgpu::NVGPUDialect, scf::SCFDialect,
                  vector::VectorDialect>();
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
