//===- pk-opt.cpp - pk's mlir-opt-style driver ----------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// All upstream dialects, passes, extensions and LLVM IR translations, plus
// pk's passes, the `pipeline-kernel` pipeline, the `transform.pk.*`
// operations and the -test-pk-* passes (test/lib).
//
//===----------------------------------------------------------------------===//

#include "pk/Passes.h"
#include "pk/TransformOps.h"

#include "TestPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::pk::registerPKPassesAndPipelines();
  mlir::pk::test::registerPKTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::pk::registerPKDialects(registry);
  mlir::pk::registerTransformDialectExtension(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "pk (Pipeline Kernel) optimizer driver\n", registry));
}
