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

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cstdint>
#include <limits>

#include <string>
#include <thread>

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

/// Holds the diagnostics this thread reports while it lives (a trial on a
/// clone, a verifier run pk turns into a decline): kernels of other
/// gpu.modules may be pipelined in parallel on the same context, and their
/// diagnostics pass through.
class ThreadDiagnostics : public ScopedDiagnosticHandler {
public:
  explicit ThreadDiagnostics(MLIRContext *context);

  /// Every message held, in order, concatenated.
  const std::string &getText() const { return text; }
  /// The first error's message, or empty.
  const std::string &getFirstError() const { return firstError; }

private:
  std::thread::id thread;
  std::string text, firstError;
};

} // namespace pk
} // namespace mlir

#endif // PK_SUPPORT_H
