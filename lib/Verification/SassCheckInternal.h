//===- SassCheckInternal.h - Shared by the SASS check files -----*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The helpers the loop checks (SassChecks.cpp) and the Hopper checks
// (SassHopperChecks.cpp) share: addresses and values of a CheckResult, the
// common failures and skips. Private to lib/Verification.
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_VERIFICATION_SASSCHECKINTERNAL_H
#define PK_LIB_VERIFICATION_SASSCHECKINTERNAL_H

#include "pk/Verification/SassCheck.h"

#include <optional>
#include <string>

namespace pk {
namespace sass {
namespace detail {

/// The cuobjdump-style address of instruction `index`: `/*08b0*/`.
std::string addressOf(const KernelAnalysis &analysis, size_t index);

/// Appends `key: value` to the check's values.
void addValue(CheckResult &check, llvm::StringRef key, llvm::json::Value value);

/// Appends `key:` the address of instruction `index` (null without one).
void addAddress(CheckResult &check, llvm::StringRef key,
                const KernelAnalysis &analysis, std::optional<size_t> index);

/// Fails `check` because the main loop has no global load.
void failNoLoad(CheckResult &check);

/// Skips `check`, which measures the main loop's own loads, in a
/// warp-specialized kernel: the producer's loop issues them
/// (checkWarpSpecialized checks the handshake); returns true when it did.
bool skipWarpSpecialized(CheckResult &check, const KernelAnalysis &analysis);

} // namespace detail
} // namespace sass
} // namespace pk

#endif // PK_LIB_VERIFICATION_SASSCHECKINTERNAL_H
