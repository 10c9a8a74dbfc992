//===- PKPlugin.cpp - pk as an mlir-opt pass and dialect plugin -----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// One shared library, two entry points of upstream mlir-opt:
//
//   --load-pass-plugin=PKPlugin.so     pk's passes and pipeline-kernel
//   --load-dialect-plugin=PKPlugin.so  the transform.pk.* operations
//
// Tests: test/plugin.mlir, test/transform-plugin.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/Passes.h"
#include "pk/TransformOps.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
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

/// Adds the `transform.pk.*` operations (a transform dialect extension) and
/// the dialects pk's rewrites create to mlir-opt's registry.
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PKPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::pk::registerPKDialects(*registry);
            mlir::pk::registerTransformDialectExtension(*registry);
          }};
}
