//===- OptionTypes.cpp - Typed values of pk's pass options ----------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Tests: test/pk-analyze-kloops-edge-cases.mlir (stages=many),
// test/pipeline-kernel.mlir (stages=auto), test/pipeline-kernel-decide.mlir
// (min-blocks-per-sm=auto, kernel).
//
//===----------------------------------------------------------------------===//

#include "pk/OptionTypes.h"

using namespace mlir::pk;

/// The part of printOptionDiff after the option's name: "= value (default:
/// d)".
template <typename T>
static void printValueAndDefault(const T &value,
                                 const llvm::cl::OptionValue<T> &defaultValue) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << value;
  llvm::outs() << "= " << str;
  llvm::outs().indent(2) << " (default: ";
  if (defaultValue.hasValue())
    llvm::outs() << defaultValue.getValue();
  else
    llvm::outs() << "*no default*";
  llvm::outs() << ")\n";
}

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
  printValueAndDefault(value, defaultValue);
}

llvm::raw_ostream &mlir::pk::operator<<(llvm::raw_ostream &os,
                                        const BlocksPerSM &blocks) {
  if (blocks.value == -1)
    return os << "kernel";
  if (blocks.value == -2)
    return os << "auto";
  return os << blocks.value;
}

bool llvm::cl::parser<BlocksPerSM>::parse(Option &option, StringRef,
                                          StringRef arg, BlocksPerSM &value) {
  if (arg == "kernel" || arg == "auto") {
    value.value = arg == "kernel" ? -1 : -2;
    return false;
  }
  int64_t number = 0;
  // A number's range (at least 1, at most the target's limit) is checked
  // with the target, at the module's location.
  if (arg.getAsInteger(10, number) || number < 0)
    return option.error(
        "min-blocks-per-sm must be a number of blocks, kernel or auto, got '" +
        arg + "'");
  value.value = number;
  return false;
}

void llvm::cl::parser<BlocksPerSM>::printOptionDiff(
    const Option &option, const BlocksPerSM &value,
    const OptionValue<BlocksPerSM> &defaultValue, size_t globalWidth) const {
  printOptionName(option, globalWidth);
  printValueAndDefault(value, defaultValue);
}
