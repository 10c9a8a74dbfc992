//===- SassCheck.h - Load/compute overlap checks on SASS --------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The PKVerification library: verifies on the SASS of a compiled kernel that
// the global loads of the next tile are issued before, and overlap, the
// tensor-core (HMMA/IMMA/...) or FFMA compute of the current tile in the
// kernel's main loop. pk-sass-check is a command line around it.
//
// The stages, one file each under lib/Verification/:
//
//   SassParser.cpp   SASS text (`cuobjdump -sass`) and resource usage
//                    (`cuobjdump -res-usage`) into Kernels; finding and
//                    running cuobjdump (loadKernels).
//
// The library depends on LLVM Support only.
//
//===----------------------------------------------------------------------===//

#ifndef PK_VERIFICATION_SASSCHECK_H
#define PK_VERIFICATION_SASSCHECK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pk {
namespace sass {

//===----------------------------------------------------------------------===//
// SASS model
//===----------------------------------------------------------------------===//

/// One SASS instruction: `/*0750*/ @!P0 BRA 0x750 ;`.
struct Instruction {
  /// The address in the `/*0750*/` comment.
  uint64_t address = 0;
  /// The guard predicate with its `@`, e.g. `@!P0`; empty when unguarded.
  std::string predicate;
  /// The full opcode with modifiers, e.g. `LDGSTS.E.BYPASS.128`.
  std::string opcode;
  /// The opcode up to the first `.`, e.g. `LDGSTS`.
  std::string baseOpcode;
  /// The operands as disassembled, e.g. `[R123], [R8.64]`.
  std::string operands;
  /// The branch target of a BRA, when it names an address.
  std::optional<uint64_t> branchTarget;

  /// The instruction as disassembled, without the trailing `;`.
  std::string text() const;
};

/// Resource usage of one function from `cuobjdump -res-usage`; -1 when the
/// field is missing.
struct Resources {
  /// Registers per thread (`REG`).
  int64_t reg = -1;
  /// Stack frame bytes (`STACK`).
  int64_t stack = -1;
  /// Static shared memory bytes (`SHARED`).
  int64_t shared = -1;
  /// Local memory bytes per thread (`LOCAL`).
  int64_t local = -1;
};

/// One kernel of the disassembly (one `Function :` section).
struct Kernel {
  /// The name after `Function :`.
  std::string name;
  /// The `code for sm_XX` section the kernel came from (`sm_86`).
  std::string arch;
  /// The instructions in address order.
  std::vector<Instruction> insts;
  /// The kernel's entry of `cuobjdump -res-usage`, when there is one.
  std::optional<Resources> resources;
  /// True when `cuobjdump -res-usage` was read for the kernel's input (a
  /// cubin), even if it had no entry for the kernel; false for SASS text.
  bool resourceUsageRead = false;
};

//===----------------------------------------------------------------------===//
// Parsing and cuobjdump (SassParser.cpp)
//===----------------------------------------------------------------------===//

/// Parses one instruction line, `/*0750*/ @!P0 BRA 0x750 ;  /* 0x... */`.
/// Returns std::nullopt for any other line (headers, encoding-only lines).
std::optional<Instruction> parseInstructionLine(llvm::StringRef line);

/// Parses the output of `cuobjdump -sass`: `code for sm_XX` sections holding
/// `Function : name` kernels. Lines before the first `Function :` and lines
/// that are not instructions are ignored.
std::vector<Kernel> parseSass(llvm::StringRef text);

/// Parses `cuobjdump -res-usage`: ` Function NAME:` followed by
/// `  REG:126 STACK:0 SHARED:40960 LOCAL:0 ...`. Maps each function name to
/// its resources.
llvm::StringMap<Resources> parseResourceUsage(llvm::StringRef text);

/// Finds cuobjdump: `explicitPath` (the --cuobjdump option) when it is not
/// empty, else $CUOBJDUMP, else PATH, else the PyPI package
/// nvidia-cuda-cuobjdump located with python3. The error names every place
/// that was tried.
llvm::Expected<std::string> findCuobjdump(llvm::StringRef explicitPath);

/// Lets `cuobjdump -sass` find nvdisasm: sets NVDISASM_PATH to the directory
/// of `cuobjdump` when that directory holds nvdisasm and the variable is
/// unset.
void exportNvdisasmPath(llvm::StringRef cuobjdump);

/// How loadKernels reads its inputs.
struct LoadOptions {
  /// The inputs are SASS text (the output of `cuobjdump -sass`), not cubins:
  /// cuobjdump is not run and no resource usage is read.
  bool sassInput = false;
  /// The cuobjdump to run; empty to search for one (see findCuobjdump).
  std::string cuobjdumpPath;
};

/// Reads the kernels of the file at `path`: SASS text with
/// `options.sassInput`, else a cubin (ELF or fatbin) disassembled with
/// `cuobjdump -sass` and annotated with `cuobjdump -res-usage`.
///
/// `cuobjdump` caches the cuobjdump found by the first call that needs one
/// (findCuobjdump, then exportNvdisasmPath); pass the same variable for
/// every input. Fails, with a message naming what is missing, when the file
/// cannot be read, is not a cubin, cuobjdump is not found or fails, or the
/// SASS holds no kernel.
llvm::Expected<std::vector<Kernel>>
loadKernels(llvm::StringRef path, const LoadOptions &options,
            std::optional<std::string> &cuobjdump);

} // namespace sass
} // namespace pk

#endif // PK_VERIFICATION_SASSCHECK_H
