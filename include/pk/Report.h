//===- Report.h - Remarks and the JSON report of pk's decisions -*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The one-line summary pk-analyze-kloops remarks with, the JSON object of
// one loop (docs/report.md) and the writer of JSON Lines report files.
//
//===----------------------------------------------------------------------===//

#ifndef PK_REPORT_H
#define PK_REPORT_H

#include "pk/Decision.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace mlir {
namespace pk {

/// A one-line summary of the analysis and budget, for remarks.
std::string summarizeKLoop(const KLoopInfo &info,
                           const KLoopDecision &decision);

/// The JSON report object of one loop (docs/report.md): the analysis, the
/// budget and the ratio rule's variant and reasons. The pipelining pass adds
/// a `decision` object (decisionToJSON).
llvm::json::Object toJSON(const KLoopInfo &info, const KLoopDecision &decision);

/// The `decision` object: whether the loop was pipelined, the variant, the
/// buffers and the reasons.
llvm::json::Object decisionToJSON(const KLoopDecision &decision, bool pipelined,
                                  ArrayRef<std::string> reasons);

/// Writes JSON Lines to the report `path` ('-': standard error, so that the
/// IR on standard output stays valid):
/// truncates the file, or appends to it with `append` (e.g. to collect the
/// chunks of -split-input-file). Creates missing parent directories. Emits
/// an error at `loc` on failure.
LogicalResult writeReportLines(Location loc, llvm::StringRef path,
                               llvm::StringRef lines, bool append);

} // namespace pk
} // namespace mlir

#endif // PK_REPORT_H
