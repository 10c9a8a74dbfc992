//===- main.cpp - embed pk's pipeline in another tool ---------------------===//
//
// Part of pk (Pipeline Kernel). Parses the MLIR file argv[1], runs pk's
// pipeline-kernel pipeline built through the C++ API (arch argv[2]), and
// prints the result. Exercises the installed headers and library.
//
//===----------------------------------------------------------------------===//

#include "pk/Passes.h"
#include "pk/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    llvm::errs() << "usage: pk-consumer <input.mlir> <arch>\n";
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

  mlir::PassManager pm(&context);
  mlir::pk::PipelineKernelOptions options;
  options.arch = argv[2];
  options.report = "-";
  mlir::pk::buildPipelineKernelPipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
