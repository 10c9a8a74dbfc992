//===- main.cpp - embed pk in another tool --------------------------------===//
//
// Part of pk (Pipeline Kernel). Parses the MLIR file argv[1] and, for the
// target argv[2], either
//
//   pipeline  runs pk's pipeline-kernel pipeline built through the C++ API,
//   loop      calls pipelineKernelLoop on every K-loop and prints its result
//             object (outcome, decision, numbers, reasons, the new loop),
//
// then prints the module. Exercises the installed headers and libraries.
//
//===----------------------------------------------------------------------===//

#include "pk/KLoopMatcher.h"
#include "pk/Passes.h"
#include "pk/PipelineKernelLoop.h"
#include "pk/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

/// Pipelines every K-loop of `module` through the one-loop entry point and
/// prints what pk did with each.
static mlir::LogicalResult pipelineLoops(mlir::ModuleOp module,
                                         llvm::StringRef arch) {
  llvm::SmallVector<mlir::scf::ForOp> loops;
  module.walk([&](mlir::scf::ForOp forOp) {
    if (mlir::pk::isKLoopCandidate(forOp))
      loops.push_back(forOp);
  });
  mlir::pk::PipelineRequest request;
  request.arch = arch.str();
  mlir::IRRewriter rewriter(module.getContext());
  for (mlir::scf::ForOp forOp : loops) {
    mlir::FailureOr<mlir::pk::PipelineResult> result =
        mlir::pk::pipelineKernelLoop(rewriter, forOp, request);
    if (mlir::failed(result))
      return mlir::failure(); // pk emitted the error
    llvm::outs() << "outcome: "
                 << mlir::pk::stringifyPipelineOutcome(result->outcome) << "\n";
    if (!result->decision) {
      llvm::outs() << "reason: " << mlir::pk::describePipelineResult(*result)
                   << "\n";
      continue;
    }
    const mlir::pk::KLoopDecision &decision = *result->decision;
    const mlir::pk::KLoopNumbers &numbers = *result->numbers;
    llvm::outs() << "kernel " << numbers.kernel << ": variant "
                 << mlir::pk::stringifyPipelineVariant(decision.getVariant())
                 << ", " << decision.getBuffers() << " buffer(s), "
                 << decision.budget.smemMultiBytes << " bytes of shared memory"
                 << " (cliff " << decision.budget.cliffBytes << "), ratio "
                 << llvm::formatv("{0:F1}", numbers.ratio) << " FLOP/B\n";
    for (const std::string &reason : result->reasons)
      llvm::outs() << "reason: " << reason << "\n";
    if (result->isPipelined()) {
      llvm::outs() << "steady-state loop has pk.pipelined: "
                   << result->loop->hasAttr("pk.pipelined") << "\n";
      // The ops upstream's pipeliner peeled before and after the loop.
      for (mlir::Operation *op : result->prologue)
        llvm::outs() << "prologue: " << op->getName() << "\n";
      for (mlir::Operation *op : result->epilogue)
        llvm::outs() << "epilogue: " << op->getName() << "\n";
      // pk leaves its own output alone: the new loop is declined.
      mlir::FailureOr<mlir::pk::PipelineResult> again =
          mlir::pk::pipelineKernelLoop(rewriter, result->loop, request);
      if (mlir::succeeded(again))
        llvm::outs() << "again: "
                     << mlir::pk::stringifyPipelineOutcome(again->outcome)
                     << ": " << mlir::pk::describePipelineResult(*again)
                     << "\n";
    }
    llvm::outs() << "report: " << llvm::json::Value(std::move(result->report))
                 << "\n";
  }
  return mlir::success();
}

int main(int argc, char **argv) {
  if (argc < 4 || (std::strcmp(argv[3], "pipeline") != 0 &&
                   std::strcmp(argv[3], "loop") != 0)) {
    llvm::errs() << "usage: pk-consumer <input.mlir> <arch> pipeline|loop\n";
    return 2;
  }
  const mlir::pk::TargetInfo *target = mlir::pk::lookupTarget(argv[2]);
  if (!target) {
    llvm::errs() << "unknown arch " << argv[2]
                 << "; known: " << mlir::pk::getKnownTargetNames() << "\n";
    return 2;
  }
  llvm::outs() << "target " << target->arch << ": " << target->smemPerSM
               << " bytes of shared memory per SM\n";

  mlir::DialectRegistry registry;
  mlir::pk::registerPKDialects(registry);
  mlir::MLIRContext context(registry);
  // Print pk's remarks (decisions) and errors with their source lines.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sourceMgr, &context);
  if (!module)
    return 1;

  if (std::strcmp(argv[3], "loop") == 0) {
    if (mlir::failed(pipelineLoops(*module, argv[2])))
      return 1;
  } else {
    mlir::PassManager pm(&context);
    mlir::pk::PipelineKernelOptions options;
    options.arch = argv[2];
    options.report = "-";
    mlir::pk::buildPipelineKernelPipeline(pm, options);
    if (mlir::failed(pm.run(*module)))
      return 1;
  }
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
