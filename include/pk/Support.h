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
#include "llvm/Support/CheckedArithmetic.h"

#include <cstdint>
#include <limits>

#include <string>

namespace mlir {
namespace pk {

/// Prints `loc` as "file:line:col" (through name, fused and call-site
/// locations), or in its textual form when it has no file position.
std::string locationToString(Location loc);

/// `a * b` for non-negative sizes and counts, saturating at INT64_MAX instead
/// of wrapping (a saturated number is above every limit pk compares it with).
inline int64_t saturatingMul(int64_t a, int64_t b) {
  return llvm::checkedMul(a, b).value_or(std::numeric_limits<int64_t>::max());
}

/// `a + b` for non-negative sizes and counts, saturating at INT64_MAX.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  return llvm::checkedAdd(a, b).value_or(std::numeric_limits<int64_t>::max());
}

} // namespace pk
} // namespace mlir

#endif // PK_SUPPORT_H
