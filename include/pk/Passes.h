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
//   options.variant = mlir::pk::PipelineVariant::CpAsync;
//   mlir::pk::buildPipelineKernelPipeline(pm, options);
//
// or add the one pass `mlir::pk::createPKPipelineKernel(options)`.
//
//===----------------------------------------------------------------------===//

#ifndef PK_PASSES_H
#define PK_PASSES_H

#include "pk/Decision.h"
#include "pk/Emit.h"
#include "pk/OptionTypes.h"

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

/// Options of `pipeline-kernel` and `buildPipelineKernelPipeline`: the
/// options of the PKPipelineKernel pass (Passes.td), which share their
/// target, decision and emission option sets with the individual passes.
using PipelineKernelOptions = PKPipelineKernelOptions;

/// Adds pk's pipeline to `pm` (the `pipeline-kernel` pass): kernel
/// outlining and workgroup-storage normalization, ldmatrix, K-loop analysis
/// (remarks), the shared-memory budget check (explicit doubling variants),
/// pipelining (decision remarks and the JSON report), the kernels whose
/// loops were not pipelined restored from before the ldmatrix rewrite,
/// canonicalize and CSE, then (emit != mlir) the emission of LLVM IR / PTX /
/// cubins with ptxas' resource usage.
void buildPipelineKernelPipeline(OpPassManager &pm,
                                 const PipelineKernelOptions &options);

/// Registers the dialects pk's passes may create (for tools that build
/// their own registry).
void registerPKDialects(DialectRegistry &registry);

/// Registers every pk pass (registerPKPasses, generated; `pipeline-kernel`
/// is one of them) with the global registry (for mlir-opt-style tools and
/// the plugin).
void registerPKPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "pk/Passes.h.inc"

} // namespace pk
} // namespace mlir

#endif // PK_PASSES_H
