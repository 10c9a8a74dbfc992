//===- Support.h - Small helpers shared by every stage of pk ----*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Printing helpers that diagnostics, remarks and the JSON report share.
//
//===----------------------------------------------------------------------===//

#ifndef PK_SUPPORT_H
#define PK_SUPPORT_H

#include "mlir/IR/Location.h"

#include <string>

namespace mlir {
namespace pk {

/// Prints `loc` as "file:line:col" (through name, fused and call-site
/// locations), or in its textual form when it has no file position.
std::string locationToString(Location loc);

} // namespace pk
} // namespace mlir

#endif // PK_SUPPORT_H
