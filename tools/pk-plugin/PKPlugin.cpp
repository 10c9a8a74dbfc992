//===- PKPlugin.cpp - pk as an mlir-opt pass plugin -----------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#include "pk/Passes.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

/// Registers pk's passes and the `pipeline-kernel` pipeline. mlir-opt-22
/// accepts plugin passes only inside --pass-pipeline=... .
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PKPlugin", LLVM_VERSION_STRING,
          []() { mlir::pk::registerPKPassesAndPipelines(); }};
}
