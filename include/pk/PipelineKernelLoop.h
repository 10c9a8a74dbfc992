//===- PipelineKernelLoop.h - pk's entry point for one K-loop ---*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The entry point a compiler that embeds pk calls on one loop: match the
// K-loop (KLoopMatcher.h), decide (Decision.h) and apply (Pipelining.h), and
// get back a result object with the decision, the numbers, the reasons and
// the new loop, instead of parsing remarks:
//
//   mlir::pk::PipelineRequest request;
//   request.arch = "sm_90";
//   mlir::IRRewriter rewriter(forOp.getContext());
//   mlir::FailureOr<mlir::pk::PipelineResult> result =
//       mlir::pk::pipelineKernelLoop(rewriter, forOp, request);
//   if (failed(result))
//     return failure();            // error emitted; the IR is invalid
//   if (result->isPipelined())
//     use(result->loop);           // the steady-state loop (and
//                                  // result->prologue, result->epilogue)
//   else
//     log(result->decline);        // why pk left the loop alone, located
//
// pk-analyze-kloops, pk-pipeline-kloops and `transform.pk.*` all go through
// this function, so the remarks, the JSON report and the transform ops say
// the same thing.
//
//===----------------------------------------------------------------------===//

#ifndef PK_PIPELINEKERNELLOOP_H
#define PK_PIPELINEKERNELLOOP_H

#include "pk/Decision.h"
#include "pk/Decline.h"
#include "pk/KLoopInfo.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir {
namespace pk {

/// What the caller asks of one loop. The fields are the options of
/// pk-pipeline-kloops (Passes.td) and of `transform.pk.pipeline_kloop`.
struct PipelineRequest {
  /// Target architecture: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90 or sm_90a
  /// (`lookupTarget`).
  std::string arch = "sm_86";
  /// Shared buffers to create: 2 to 8, or 0 for auto (docs/stages.md).
  int64_t stages = 2;
  /// Resident blocks per SM the multi-buffered kernel must keep;
  /// kMinBlocksFromKernel (the kernel's `nvvm.minctasm`, else 2) or
  /// kMinBlocksAuto (pk chooses and sets `nvvm.minctasm`).
  int64_t minBlocksPerSM = kMinBlocksFromKernel;
  /// Threads per block; 0: from the kernel (`known_block_size`,
  /// `nvvm.reqntid`, `nvvm.maxntid`).
  int64_t blockSize = 0;
  /// Registers per thread; 0: the kernel's `pk.regs_per_thread`, else 128.
  int64_t regsPerThread = 0;
  /// A variant to force, or Auto.
  PipelineVariant variant = PipelineVariant::Auto;
  /// A cp-async order to force, or Auto (multistage).
  PipelineSchedule schedule = PipelineSchedule::Auto;
  /// With variant Auto, leave loops whose compute/load ratio exceeds 20
  /// alone (the procedure's literal rule).
  bool skipHighRatio = false;
  /// With stages=auto or min-blocks-per-sm=auto: compile the candidates
  /// (a clone of the kernel per candidate, pk's lowering, ptxas from
  /// `cudaPath`) and decide with their registers and spills
  /// (docs/stages.md). Without ptxas the model alone decides and says so.
  bool compileCandidates = false;
  /// The CUDA toolkit root for ptxas (resolveCudaPath: empty means
  /// $CUDA_HOME, then /usr/local/cuda).
  std::string cudaPath;
  /// Match and decide only; never change the IR (pk-analyze-kloops,
  /// `transform.pk.analyze_kloop`). The decision is the one pipelining
  /// would apply: with `compileCandidates` it compiles the candidates too
  /// (on clones of the kernel).
  bool analyzeOnly = false;
  /// The operation pk may change, e.g. the op a nested pass runs on; null:
  /// anything. A loop whose transform would change IR outside it (a copied
  /// `memref.global` declared outside it) is declined.
  Operation *scope = nullptr;
  /// Testing only: make upstream's pipeliner reject the schedule after pk
  /// changed the IR (the internal-error path).
  bool testFailLate = false;

  /// Whether the decision searches candidates (stages=auto or
  /// min-blocks-per-sm=auto), which it compiles with `compileCandidates`.
  bool searchesCandidates() const {
    return stages == 0 || minBlocksPerSM == kMinBlocksAuto;
  }
};

/// How `pipelineKernelLoop` ended for one loop (Enums.td): Pipelined (the
/// steady-state loop is `PipelineResult::loop`), NotAKLoop (not a K-loop of
/// pk's input contract, docs/input-contract.md), NotSelected (the decision
/// leaves the loop alone: the budget, the ratio with skip-high-ratio, the
/// trip count), PreconditionFailed (a precondition of the transform failed;
/// the IR is unchanged) or Analyzed (`analyzeOnly`: matched and decided).

/// The numbers pk measured on the loop before changing it (KLoopInfo's,
/// without its references into the IR, which pipelining erases).
struct KLoopNumbers {
  /// "<gpu.module>::<gpu.func>" of the kernel.
  std::string kernel;
  /// Static trip count, if known.
  std::optional<int64_t> tripCount;
  /// Threads per block the budget assumed (0 if unknown).
  int64_t threadsPerBlock = 0;
  /// Shared buffers of the kernel, and how many the load phase writes.
  int64_t sharedBuffers = 0, copiedBuffers = 0;
  /// Bytes loaded from global memory per K-iteration by the block.
  int64_t loadBytesPerTile = 0;
  /// FLOPs of one K-iteration for the whole block.
  int64_t flopsPerTile = 0;
  /// FLOPs per byte loaded.
  double ratio = 0.0;
};

/// What pk did with one loop and why.
struct PipelineResult {
  explicit PipelineResult(scf::ForOp loop) : loop(loop) {}

  /// How the request ended.
  PipelineOutcome outcome = PipelineOutcome::NotAKLoop;
  bool isPipelined() const { return outcome == PipelineOutcome::Pipelined; }

  /// Pipelined: the steady-state loop (it carries `pk.pipelined`; the
  /// prologue precedes it, the epilogue follows it). Otherwise the loop the
  /// caller passed, unchanged.
  scf::ForOp loop;
  /// Pipelined: the operations of the prologue and of the epilogue, in
  /// program order (`PipelinedKLoop`, Pipelining.h); never empty then.
  /// Otherwise empty.
  SmallVector<Operation *> prologue, epilogue;
  /// Unless pipelined or analyzed: why pk left the loop alone, at the
  /// operation that caused it: what did not match (NotAKLoop; the remark
  /// says "not a pk K-loop: " before it), the decision's (NotSelected) or
  /// the failed precondition (PreconditionFailed).
  std::optional<Decline> decline;

  /// Set unless NotAKLoop: the numbers, and pk's decision with the budget
  /// (shared memory, occupancy, cliff), the ratio rule's variant and the
  /// plan.
  std::optional<KLoopNumbers> numbers;
  std::optional<KLoopDecision> decision;
  /// The analysis summary pk-analyze-kloops remarks with (unless NotAKLoop).
  std::string summary;
  /// The decision's reasons and what applying it added: what the
  /// pk-pipeline-kloops remark lists.
  SmallVector<std::string> reasons;
  /// Input bugs pk spotted in a matched loop, each with the location of the
  /// offending operation: a wgmma that reads tiles written by generic-proxy
  /// stores with no proxy fence in between (the kernel races,
  /// docs/hopper.md). pk-analyze-kloops and pk-pipeline-kloops emit them as
  /// warnings.
  SmallVector<std::pair<Location, std::string>> warnings;
  /// Unless NotAKLoop: the loop's JSON report object (docs/report.md); with
  /// a `decision` object unless analyzeOnly.
  llvm::json::Object report;
};

/// Matches `forOp` against pk's input contract, decides with `request` and,
/// unless `request.analyzeOnly`, pipelines it. A loop pk leaves alone is not
/// a failure: the result says why (`decline`, `outcome`) and the IR is
/// unchanged. Fails, after emitting an error, only on an invalid request
/// (`verifyPipelineRequest`; the IR is unchanged) or on an internal error
/// after the transform changed the IR (the IR is then invalid and the
/// caller must fail too).
FailureOr<PipelineResult> pipelineKernelLoop(RewriterBase &rewriter,
                                             scf::ForOp forOp,
                                             const PipelineRequest &request);

/// One loop matched and decided with a request, the IR unchanged: what
/// `pipelineAnalyzedKLoop` applies without matching or deciding again, so
/// that a pipeline of pk's steps (pk-analyze-kloops, pk-check-smem-budget,
/// pk-pipeline-kloops in `pipeline-kernel`) decides each loop once. It holds
/// the matched loop, which refers into the IR: it is valid while the IR of
/// the loop's kernel (and the memref.globals it copies) is unchanged. Not
/// copyable or movable (the matched loop refers to itself); see
/// `analyzeKernelLoop`.
class AnalyzedKLoop {
public:
  /// Matches `forOp` and decides with `request` (verified by the caller).
  AnalyzedKLoop(scf::ForOp forOp, const PipelineRequest &request);
  AnalyzedKLoop(const AnalyzedKLoop &) = delete;
  AnalyzedKLoop &operator=(const AnalyzedKLoop &) = delete;
  ~AnalyzedKLoop();

  /// The request the loop was decided with.
  const PipelineRequest &getRequest() const { return request; }
  /// The result so far: outcome NotAKLoop (with its decline) or Analyzed
  /// (numbers, decision, summary, report without a `decision` object).
  const PipelineResult &getResult() const { return result; }
  /// Whether pipelining the loop changes IR outside its kernel: it
  /// multi-buffers a copied memref.global, which other kernels may use.
  bool changesOutsideKernel() const;
  /// The matched loop; null when it is not a K-loop.
  const KLoopInfo *getMatch() const {
    return succeeded(match) ? &*match : nullptr;
  }

private:
  friend FailureOr<PipelineResult>
  pipelineAnalyzedKLoop(RewriterBase &, AnalyzedKLoop &,
                        const PipelineRequest &);
  PipelineRequest request;
  /// The matched loop, or why it is not a K-loop.
  DeclineOr<KLoopInfo> match;
  PipelineResult result;
  /// Set once `pipelineAnalyzedKLoop` took the result.
  bool consumed = false;
};

/// Whether `a` and `b` lead to the same decision for any loop: the same
/// target, stages, blocks/SM, block size, registers, variant, schedule,
/// ratio rule and, when the decision searches (stages=auto or
/// min-blocks-per-sm=auto), candidate compiler. (`analyzeOnly`, `scope` and
/// `testFailLate` act after the decision.)
bool decideAlike(const PipelineRequest &a, const PipelineRequest &b);

/// Matches and decides `forOp` with `request` (`analyzeOnly` is ignored):
/// the first half of `pipelineKernelLoop`. Fails, after emitting an error,
/// only on an invalid request.
FailureOr<std::unique_ptr<AnalyzedKLoop>>
analyzeKernelLoop(scf::ForOp forOp, const PipelineRequest &request);

/// The second half of `pipelineKernelLoop`: applies the decision of
/// `analyzed` (unless `request.analyzeOnly`) as `pipelineKernelLoop` would
/// have. `request` must decide alike with the analyzed one (else an error);
/// its `scope` and `testFailLate` apply. Consumes `analyzed` (its result
/// moves into the returned one); the IR must not have changed since it was
/// analyzed (AnalyzedKLoop).
FailureOr<PipelineResult> pipelineAnalyzedKLoop(RewriterBase &rewriter,
                                                AnalyzedKLoop &analyzed,
                                                const PipelineRequest &request);

/// Checks `request`: a known arch; stages 2 to 8 or 0 (auto);
/// min-blocks-per-sm in [1, the target's block limit] or a sentinel; block-size
/// in [0, 1024]; regs-per-thread in [0, 255]; variant cp-async only with
/// cp.async (sm_80 and later). Reports the first violation through
/// `emitError`.
LogicalResult
verifyPipelineRequest(const PipelineRequest &request,
                      llvm::function_ref<InFlightDiagnostic()> emitError);

/// The remark pk-pipeline-kloops emits for `result`, one sentence that says
/// one thing: "pipelined: variant V, N shared buffer(s); <reasons>", or, when
/// pk declined, "not pipelined: " followed by why: "not a pk K-loop:
/// <mismatch>", the reason that selected no variant (then the decision's other
/// reasons), or the failed precondition and "; the decision was variant V
/// with N buffer(s): <reasons>".
std::string describePipelineResult(const PipelineResult &result);

/// Emits `describePipelineResult(result)` as a remark: at the loop when pk
/// pipelined or analyzed it, else at the operation the decline names, with
/// the decline's notes and a note at the loop when that is another
/// operation.
InFlightDiagnostic emitPipelineRemark(const PipelineResult &result);

} // namespace pk
} // namespace mlir

#endif // PK_PIPELINEKERNELLOOP_H
