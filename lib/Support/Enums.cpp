//===- Enums.cpp - pk's enums ---------------------------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The generated `stringify*` / `symbolize*` of Enums.td.
//
//===----------------------------------------------------------------------===//

#include "pk/Enums.h"

#include "llvm/ADT/StringSwitch.h"

#include "pk/Enums.cpp.inc"

std::string mlir::pk::getVariantSpellings() {
  return joinEnumSpellings<PipelineVariant, getMaxEnumValForPipelineVariant()>(
      {PipelineVariant::None});
}

std::string mlir::pk::getScheduleSpellings() {
  return joinEnumSpellings<PipelineSchedule,
                           getMaxEnumValForPipelineSchedule()>();
}
