//===- Describe.cpp - The remark of one loop's result ---------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// What the passes and the transform ops say about a loop: one sentence
// (describePipelineResult), emitted at the loop when pk pipelined or
// analyzed it and at the operation that caused a decline otherwise
// (emitPipelineRemark). Tests: test/pk-pipeline-kloops*-invalid.mlir
// (expected-remark at the culprit ops).
//
//===----------------------------------------------------------------------===//

#include "pk/PipelineKernelLoop.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::pk;

/// `reasons` joined by "; ".
static std::string joinReasons(ArrayRef<std::string> reasons) {
  return llvm::join(reasons, "; ");
}

/// "pipelined: variant V, N shared buffer(s)[, schedule S]; <reasons>".
static std::string describeApplied(const PipelineResult &result) {
  const KLoopDecision &decision = *result.decision;
  std::string text = llvm::formatv(
      "{0}: variant {1}, {2} shared buffer(s)",
      result.isPipelined() ? "pipelined" : "analyzed",
      stringifyPipelineVariant(decision.getVariant()), decision.getBuffers());
  // The default orders go without saying; a wgmma group in flight does not.
  if (decision.plan && isMultistageVariant(decision.plan->variant) &&
      (decision.plan->schedule == PipelineSchedule::MmaInFlight ||
       decision.plan->schedule == PipelineSchedule::WarpSpecialized))
    text += (", schedule " + stringifyPipelineSchedule(decision.plan->schedule))
                .str();
  if (!result.reasons.empty())
    text += "; " + joinReasons(result.reasons);
  return text;
}

std::string mlir::pk::describePipelineResult(const PipelineResult &result) {
  StringRef decline =
      result.decline ? result.decline->getMessage() : StringRef();
  switch (result.outcome) {
  case PipelineOutcome::NotAKLoop:
    return ("not pipelined: not a pk K-loop: " + decline).str();
  case PipelineOutcome::Pipelined:
  case PipelineOutcome::Analyzed:
    return describeApplied(result);
  case PipelineOutcome::NotSelected: {
    // The decline says why; the decision's other reasons (the budget, the
    // ratio) come after it as context, unless the decline is the last one.
    std::string text = ("not pipelined: " + decline).str();
    ArrayRef<std::string> reasons = result.decision->reasons;
    if (!reasons.empty() && reasons.back() == decline)
      reasons = reasons.drop_back();
    if (!reasons.empty())
      text += "; " + joinReasons(reasons);
    return text;
  }
  case PipelineOutcome::PreconditionFailed: {
    // The decision's reasons say what was selected, not what happened.
    const KLoopDecision &decision = *result.decision;
    std::string text =
        llvm::formatv("not pipelined: {0}; the decision was variant {1} with "
                      "{2} buffer(s)",
                      decline, stringifyPipelineVariant(decision.getVariant()),
                      decision.getBuffers());
    if (!decision.reasons.empty())
      text += ": " + joinReasons(decision.reasons);
    return text;
  }
  }
  llvm_unreachable("unknown pipeline outcome");
}

/// Notes at the copy that kept the loop from cp.async, when the decision fell
/// back to another variant (its message is among the remark's reasons).
static void noteAsyncCopyFallback(InFlightDiagnostic &diag,
                                  const PipelineResult &result) {
  if (!result.decision || !result.decision->asyncCopyDecline)
    return;
  const Decline &fallback = *result.decision->asyncCopyDecline;
  if (fallback.getLoc() != result.loop->getLoc())
    diag.attachNote(fallback.getLoc()) << "this copy cannot be cp.async";
  for (const DeclineNote &note : fallback.getNotes())
    diag.attachNote(note.loc) << note.message;
}

InFlightDiagnostic mlir::pk::emitPipelineRemark(const PipelineResult &result) {
  Location loopLoc = result.loop->getLoc();
  std::string text = describePipelineResult(result);
  if (!result.decline) {
    InFlightDiagnostic diag = mlir::emitRemark(loopLoc) << text;
    noteAsyncCopyFallback(diag, result);
    return diag;
  }
  // The decline's own message is in `text`; its notes follow it.
  Decline located(result.decline->getLoc(), text);
  for (const DeclineNote &note : result.decline->getNotes())
    located.attachNote(note.loc, note.message);
  InFlightDiagnostic diag = located.emit(DiagnosticSeverity::Remark);
  if (result.decline->getLoc() != loopLoc)
    diag.attachNote(loopLoc) << "in this K-loop";
  noteAsyncCopyFallback(diag, result);
  return diag;
}
