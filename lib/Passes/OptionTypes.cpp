//===- OptionTypes.cpp - Typed values of pk's pass options ----------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Tests: test/pk-analyze-kloops-edge-cases.mlir (stages=many),
// test/pipeline-kernel.mlir (stages=auto).
//
//===----------------------------------------------------------------------===//

#include "pk/OptionTypes.h"

using namespace mlir::pk;

llvm::raw_ostream &mlir::pk::operator<<(llvm::raw_ostream &os,
                                        const StageCount &stages) {
  if (stages.isAuto())
    return os << "auto";
  return os << stages.value;
}

bool llvm::cl::parser<StageCount>::parse(Option &option, StringRef,
                                         StringRef arg, StageCount &value) {
  if (arg == "auto") {
    value.value = 0;
    return false;
  }
  int64_t number = 0;
  // 0 means auto internally; spell it `auto`.
  if (arg.getAsInteger(10, number) || number == 0)
    return option.error("stages must be 2 to 8 or auto, got '" + arg + "'");
  value.value = number;
  return false;
}

void llvm::cl::parser<StageCount>::printOptionDiff(
    const Option &option, const StageCount &value,
    const OptionValue<StageCount> &defaultValue, size_t globalWidth) const {
  printOptionName(option, globalWidth);
  std::string str;
  llvm::raw_string_ostream os(str);
  os << value;
  outs() << "= " << str;
  outs().indent(2) << " (default: ";
  if (defaultValue.hasValue())
    outs() << defaultValue.getValue();
  else
    outs() << "*no default*";
  outs() << ")\n";
}
