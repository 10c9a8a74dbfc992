//===- Enums.h - pk's enums -------------------------------------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The enums of Enums.td, generated with their `stringify*` / `symbolize*`
// functions: PipelineVariant, PipelineSchedule, EmitKind, PipelineOutcome,
// SharedBufferKind, OccupancyLimit.
//
//===----------------------------------------------------------------------===//

#ifndef PK_ENUMS_H
#define PK_ENUMS_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>

#include "pk/Enums.h.inc"

namespace mlir {
namespace pk {

/// The spellings of every value of an enum of Enums.td an option accepts,
/// joined by ", " (for diagnostics), e.g. `joinEnumSpellings<PipelineSchedule,
/// getMaxEnumValForPipelineSchedule()>()`.
template <typename EnumT, unsigned MaxValue>
std::string joinEnumSpellings(llvm::ArrayRef<EnumT> skip = {}) {
  std::string text;
  for (unsigned i = 0; i <= MaxValue; ++i) {
    auto value = static_cast<EnumT>(i);
    if (llvm::is_contained(skip, value))
      continue;
    if (!text.empty())
      text += ", ";
    text += stringifyEnum(value).str();
  }
  return text;
}

/// "auto, cp-async, ldg-register, register-prefetch, tma": the variants a
/// request may name.
std::string getVariantSpellings();

/// "auto, two-stage, multistage, mma-in-flight, warp-specialized".
std::string getScheduleSpellings();

} // namespace pk
} // namespace mlir

#endif // PK_ENUMS_H
