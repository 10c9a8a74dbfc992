//===- OptionTypes.h - Typed values of pk's pass options --------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The `stages` option takes a number of buffers or `auto`, and
// `min-blocks-per-sm` a number, `kernel` or `auto`; this header gives them
// types and llvm::cl parsers so that Passes.td declares it like any
// other typed option. The enum options (variant, schedule, emit) use the
// enums of Decision.h and Emit.h with `llvm::cl::values`.
//
//===----------------------------------------------------------------------===//

#ifndef PK_OPTIONTYPES_H
#define PK_OPTIONTYPES_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace mlir {
namespace pk {

/// The `stages` option: a number of shared buffers, or auto (0). The parser
/// accepts `auto` and integers; the passes check the range and report it at
/// the module's location.
struct StageCount {
  int64_t value = 2;
  bool isAuto() const { return value == 0; }
  bool operator==(const StageCount &other) const {
    return value == other.value;
  }
  bool operator!=(const StageCount &other) const { return !(*this == other); }
};

/// Prints `auto` or the number.
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const StageCount &stages);

/// The `min-blocks-per-sm` option: a number of resident blocks per SM, the
/// kernel's own launch bounds (`kernel`: `nvvm.minctasm`, else 2), or `auto`
/// (pk chooses per tile, docs/stages.md). The sentinels are those of
/// PipelineRequest::minBlocksPerSM (Decision.h: kMinBlocksFromKernel,
/// kMinBlocksAuto); the passes check the range of a number.
struct BlocksPerSM {
  int64_t value = -1;
  bool operator==(const BlocksPerSM &other) const {
    return value == other.value;
  }
  bool operator!=(const BlocksPerSM &other) const { return !(*this == other); }
};

/// Prints `kernel`, `auto` or the number.
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const BlocksPerSM &blocks);

} // namespace pk
} // namespace mlir

namespace llvm {
namespace cl {
/// Parses `auto` or an integer into a StageCount.
template <>
class parser<mlir::pk::StageCount> : public basic_parser<mlir::pk::StageCount> {
public:
  parser(Option &option) : basic_parser(option) {}
  /// Returns true (with an error) on anything but `auto` or an integer.
  bool parse(Option &option, StringRef argName, StringRef arg,
             mlir::pk::StageCount &value);
  StringRef getValueName() const override { return "2..8|auto"; }
  /// Prints the value for --help and pass-pipeline printing.
  static void print(raw_ostream &os, const mlir::pk::StageCount &value) {
    os << value;
  }
  void printOptionDiff(const Option &option, const mlir::pk::StageCount &value,
                       const OptionValue<mlir::pk::StageCount> &defaultValue,
                       size_t globalWidth) const;
};

/// Parses `kernel`, `auto` or a non-negative integer into a BlocksPerSM.
template <>
class parser<mlir::pk::BlocksPerSM>
    : public basic_parser<mlir::pk::BlocksPerSM> {
public:
  parser(Option &option) : basic_parser(option) {}
  /// Returns true (with an error) on anything but `kernel`, `auto` or a
  /// non-negative integer.
  bool parse(Option &option, StringRef argName, StringRef arg,
             mlir::pk::BlocksPerSM &value);
  StringRef getValueName() const override { return "N|kernel|auto"; }
  /// Prints the value for --help and pass-pipeline printing.
  static void print(raw_ostream &os, const mlir::pk::BlocksPerSM &value) {
    os << value;
  }
  void printOptionDiff(const Option &option, const mlir::pk::BlocksPerSM &value,
                       const OptionValue<mlir::pk::BlocksPerSM> &defaultValue,
                       size_t globalWidth) const;
};
} // namespace cl
} // namespace llvm

#endif // PK_OPTIONTYPES_H
