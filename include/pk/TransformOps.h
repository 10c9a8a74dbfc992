//===- TransformOps.h - pk's transform dialect extension --------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// `transform.pk.pipeline_kloop` and `transform.pk.analyze_kloop`
// (TransformOps.td). A tool registers them with
//
//   mlir::DialectRegistry registry;
//   mlir::pk::registerTransformDialectExtension(registry);
//
// and runs a transform script with `-transform-interpreter`; upstream
// mlir-opt loads them from the plugin (`--load-dialect-plugin=PKPlugin.so`).
//
//===----------------------------------------------------------------------===//

#ifndef PK_TRANSFORMOPS_H
#define PK_TRANSFORMOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "pk/TransformOps.h.inc"

namespace mlir {
class DialectRegistry;

namespace pk {

/// The loop attribute `transform.pk.analyze_kloop` attaches: the loop's JSON
/// report object (docs/report.md) as a dictionary (whole numbers as i64,
/// others as f64, null as a unit attribute).
constexpr llvm::StringLiteral kAnalysisAttrName = "pk.analysis";

/// Registers the `transform.pk.*` operations as an extension of the
/// transform dialect.
void registerTransformDialectExtension(DialectRegistry &registry);

} // namespace pk
} // namespace mlir

#endif // PK_TRANSFORMOPS_H
