//===- Passes.h - pk passes and pipelines -----------------------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The public entry points for tools and compilers that embed pk:
//
//   mlir::DialectRegistry registry;
//   mlir::pk::registerPKDialects(registry);   // dialects pk's passes create
//   mlir::pk::registerPKPassesAndPipelines(); // pk-* passes + pipelines
//
//   mlir::PassManager pm(&context);
//   mlir::pk::PipelineKernelOptions options;
//   options.arch = "sm_90";
//   mlir::pk::buildPipelineKernelPipeline(pm, options);
//
//===----------------------------------------------------------------------===//

#ifndef PK_PASSES_H
#define PK_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <string>

namespace mlir {
namespace pk {

#define GEN_PASS_DECL
#include "pk/Passes.h.inc"

/// Options of the `pipeline-kernel` pass pipeline.
struct PipelineKernelOptions
    : public PassPipelineOptions<PipelineKernelOptions> {
  PassOptions::Option<std::string> arch{
      *this, "arch", llvm::cl::desc("Target architecture (sm_75 ... sm_90)"),
      llvm::cl::init("sm_86")};
  PassOptions::Option<std::string> stages{
      *this, "stages",
      llvm::cl::desc("Number of shared-memory buffers: 2 to 8, or auto"),
      llvm::cl::init("2")};
  PassOptions::Option<int64_t> minBlocksPerSM{
      *this, "min-blocks-per-sm",
      llvm::cl::desc("Resident blocks per SM to keep"), llvm::cl::init(2)};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block (0: from the kernel's attributes)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> regsPerThread{
      *this, "regs-per-thread",
      llvm::cl::desc("Registers per thread (0: pk.regs_per_thread or 128)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> variant{
      *this, "variant",
      llvm::cl::desc("auto, cp-async, ldg-register or register-prefetch"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("JSON report path, one object per loop ('-': stdout)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> schedule{
      *this, "schedule",
      llvm::cl::desc("cp-async order: auto, seed (2 stages) or multistage"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> emit{
      *this, "emit",
      llvm::cl::desc("mlir (default), llvm, ptx or cubin: also write "
                     "<out-dir>/<module>.<arch>.{ll,ptx,cubin}"),
      llvm::cl::init("mlir")};
  PassOptions::Option<std::string> outDir{
      *this, "out-dir", llvm::cl::desc("Directory for emitted artefacts"),
      llvm::cl::init(".")};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit root for ptxas (default: $CUDA_HOME, "
                     "then /usr/local/cuda)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> barePtr{
      *this, "bare-ptr",
      llvm::cl::desc("Static-shape memref arguments become bare pointers"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> skipHighRatio{
      *this, "skip-high-ratio",
      llvm::cl::desc("Do not pipeline loops with a ratio above 20"),
      llvm::cl::init(false)};
};

/// Adds pk's pipeline to `pm`: K-loop analysis (remarks), the shared-memory
/// budget check (explicit doubling variants), pipelining (decision remarks
/// and the JSON report), canonicalize and CSE, then (emit != mlir) the
/// emission of LLVM IR / PTX / cubins with ptxas' resource usage.
void buildPipelineKernelPipeline(OpPassManager &pm,
                                 const PipelineKernelOptions &options);

/// Registers the dialects pk's passes may create (for tools that build
/// their own registry).
void registerPKDialects(DialectRegistry &registry);

/// Registers every pk pass (registerPKPasses, generated) and the
/// `pipeline-kernel` pipeline with the
/// global registry (for mlir-opt-style tools and the plugin).
void registerPKPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "pk/Passes.h.inc"

} // namespace pk
} // namespace mlir

#endif // PK_PASSES_H
