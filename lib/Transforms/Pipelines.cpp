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

using namespace mlir;
using namespace mlir::pk;

void mlir::pk::buildPipelineKernelPipeline(
    OpPassManager &pm, const PipelineKernelOptions &options) {
  PKAnalyzeKLoopsOptions analyze;
  analyze.arch = options.arch;
  analyze.stages = options.stages;
  analyze.minBlocksPerSM = options.minBlocksPerSM;
  analyze.blockSize = options.blockSize;
  analyze.regsPerThread = options.regsPerThread;
  analyze.report = options.report;
  analyze.skipHighRatio = options.skipHighRatio;
  pm.addPass(createPKAnalyzeKLoops(analyze));

  PKCheckSmemBudgetOptions budget;
  budget.arch = options.arch;
  budget.stages = options.stages;
  budget.minBlocksPerSM = options.minBlocksPerSM;
  budget.blockSize = options.blockSize;
  budget.regsPerThread = options.regsPerThread;
  pm.addPass(createPKCheckSmemBudget(budget));
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
      "shared-memory budget of multi-buffering",
      buildPipelineKernelPipeline);
}
