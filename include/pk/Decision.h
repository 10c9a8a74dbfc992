//===- Decision.h - The plan of a K-loop and why ----------------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The third stage of pk's data flow (docs/architecture.md) and the one home
// of pk's choices: from a matched K-loop (KLoopMatcher.h), its budget
// (Budget.h) and the caller's requests, `decide` returns the variant, the
// number of shared buffers, the cp.async schedule and every reason. The
// rules are named; docs/decisions.md states each rule and the measurement
// that justifies it, by the same name.
//
//===----------------------------------------------------------------------===//

#ifndef PK_DECISION_H
#define PK_DECISION_H

#include "pk/Budget.h"
#include "pk/Enums.h"
#include "pk/Plan.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir {
namespace pk {

/// The pipelining procedure's compute/load ratio thresholds (FLOP per byte
/// loaded): below kLowRatio cp.async is predicted +15-35%, up to
/// kHighRatio +5-15%, above it 0-5% or a regression.
constexpr double kLowRatio = 5.0;
constexpr double kHighRatio = 20.0;

/// Rule `read-bound`: an mma.sync compute phase that issues a shared-memory
/// load (not ldmatrix) for fewer than this many cycles of tensor-core compute
/// (kMmaFlopsPerWarpCycle) waits on its shared reads, and the other
/// resident blocks already hide each block's copies. Measured on an H200:
/// IREE's f16 matmuls (2.7-5.3 cycles per load) ran 0.86-0.99x pipelined
/// (integration/results/2026-12-03-h200-iree), upstream's mma.sync rewrite
/// (0.7) 0.99x; upstream's nvgpu kernels (10.7) gained 1.06-1.55x, and
/// pk's HGEMMs/IGEMMs read their operands with ldmatrix.
constexpr double kMinComputeCyclesPerSharedRead = 6.0;
/// Issue rate of one warp on a tensor core: an mma.sync m16n8k16 (f16,
/// 4096 FLOPs) or m16n8k32 (i8) every 8 cycles of its SM sub-partition.
constexpr int64_t kMmaFlopsPerWarpCycle = 512;
constexpr int64_t kMmaInt8FlopsPerWarpCycle = 1024;

/// The width below which cp.async loses to ldg-register (rule
/// `narrow-cp-async`), in bytes per copy: measured on an H200, 4-byte
/// cp.async ran 0.84x its baseline (ldg-register 1.16x) and 8-byte cp.async
/// 1.05x (ldg-register 0.99x); docs/decisions.md.
constexpr int64_t kMinAutoCpAsyncWidth = 8;
/// The same width for a compute phase of FMAs only (no mma.sync, no
/// wgmma; rule `narrow-cp-async`): measured on an H100, IREE's promoted-f32
/// matmul (8-byte copies) ran 0.98-1.00x IREE alone with 8-byte cp.async in
/// three runs and 1.01-1.03x with ldg-register; upstream's SGEMMs copy 16
/// bytes with cp.async and gained 1.15-2.92x; docs/decisions.md.
constexpr int64_t kMinAutoCpAsyncWidthFma = 16;

/// `minBlocksPerSM` sentinels: the kernel's launch bounds (`nvvm.minctasm`,
/// else kDefaultMinBlocksPerSM), or pk's choice per tile.
constexpr int64_t kMinBlocksFromKernel = -1;
constexpr int64_t kMinBlocksAuto = -2;
/// The blocks/SM target without an option or launch bound.
constexpr int64_t kDefaultMinBlocksPerSM = 2;

/// Registers per thread the model adds to a loop's accumulators (addresses,
/// fragments, indices): an estimate, not a measurement (docs/stages.md).
constexpr int64_t kRegOverheadEstimate = 48;

/// The register estimate's error margin, as a fraction of the cap (1/8):
/// within it ptxas decides whether a candidate spills, beyond it the
/// candidate ranks last (docs/stages.md).
constexpr int64_t kRegEstimateMarginDivisor = 8;

/// The most candidates the register-aware decision compiles (besides the
/// unpipelined kernel), taken in the model's order.
constexpr int64_t kMaxCompiledCandidates = 3;

/// The model's wgmma drain (docs/stages.md): with `waitGroup = 0` a block
/// issues tile t+1's wgmma only after tile t's retired, so one block's tile
/// takes at least its MMA cycles plus 1/kWgmmaDrainDivisor of them; another
/// resident block fills that time, schedule=mma-in-flight removes it.
/// Calibrated on the H200 (integration/results/2026-12-01-h200-wgmma-2wg/):
/// the smallest drain with which the model ranks the measured best of each
/// of the three wgmma kernels first.
constexpr int64_t kWgmmaDrainDivisor = 2;

/// What compiling a candidate gave (ptxas' resource usage).
struct CompiledResources {
  int64_t registers = 0;
  int64_t spillBytes = 0;
  /// Static plus dynamic shared memory per block.
  int64_t sharedBytes = 0;
};

/// Compiles a candidate of the loop being decided (pipelined on a clone,
/// lowered, ptxas) and returns its resources, or why it did not compile. The
/// decision does not know how: the driver passes it in (docs/stages.md).
using CandidateCompiler = std::function<llvm::Expected<CompiledResources>(
    const Candidate &candidate)>;

/// One row of the decision table: a candidate, the model's cycles per tile
/// per SM, and what compiling it gave.
struct CandidateRow {
  Candidate candidate;
  /// The model's cycles per tile per SM (lower is faster), with the
  /// registers the model assumed, or ptxas' once compiled.
  double modelCycles = 0;
  /// Blocks/SM the model or ptxas' registers give.
  int64_t blocksPerSM = 0;
  bool compiled = false;
  CompiledResources resources;
  /// The model's register estimate exceeds the cap of the blocks/SM target
  /// (without a compiler the row is dropped).
  bool spillsPredicted = false;
  /// The estimate exceeds the cap by more than its error margin
  /// (kRegEstimateMarginDivisor): ranked after the others, compiled last.
  bool spillsLikely = false;
  /// Why the candidate is out (empty: eligible).
  std::string dropped;
  bool chosen = false;
};

/// The register-aware decision's table (docs/stages.md).
struct CandidateTable {
  SmallVector<CandidateRow> rows;
  /// Whether ptxas compiled the candidates; otherwise why not.
  bool compiledWithPtxas = false;
  std::string noCompileReason;
  /// Wall time of the compilations, in seconds.
  double compileSeconds = 0;
};

/// What the caller asks for.
struct DecisionOptions {
  /// Number of buffers; 0 = auto (the latency model, docs/stages.md).
  int64_t stages = 2;
  /// Resident blocks per SM the multi-buffered kernel must keep, or
  /// kMinBlocksFromKernel, kMinBlocksAuto.
  int64_t minBlocksPerSM = 2;
  /// With stages=auto or min-blocks-per-sm=auto: compiles the candidates
  /// (register-aware decision); empty: the model alone.
  CandidateCompiler compiler;
  /// Why there is no compiler (ptxas missing), for the reasons.
  std::string noCompilerReason;
  /// Registers per thread; 0: the kernel's attribute, else the default.
  int64_t regsPerThread = 0;
  /// A variant to force, or Auto.
  PipelineVariant variant = PipelineVariant::Auto;
  /// A cp-async order to force, or Auto.
  PipelineSchedule schedule = PipelineSchedule::Auto;
  /// With a ratio above kHighRatio, do not pipeline (the procedure's literal
  /// rule).
  bool skipHighRatio = false;
};

/// The inputs and outputs of the stages=auto latency model (docs/stages.md).
struct StageModel {
  int64_t computeCyclesPerTile = 0;
  int64_t latencyCycles = 0;
  int64_t latencyStages = 0;
  int64_t budgetStages = 0;
};

/// pk's decision for one K-loop.
struct KLoopDecision {
  /// The budget with the decided stage count (before the variant's own
  /// buffer count: 1 for register-prefetch, 2 for ldg-register).
  KLoopBudget budget;
  /// The ratio rule's variant from the ratio and the budget alone, its
  /// reasons and predicted gain: what pk-analyze-kloops reports.
  PipelineVariant ruleVariant = PipelineVariant::None;
  SmallVector<std::string> ruleReasons;
  std::string prediction;
  /// With stages=auto, the model's numbers.
  std::optional<StageModel> stageModel;
  /// What the transform does (Plan.h); none: leave the loop alone.
  std::optional<PipelinePlan> plan;
  /// Without a plan: why, at the operation that caused it.
  std::optional<Decline> decline;
  /// When cp.async fell back to another variant: why, at the copy that
  /// could not be asynchronous.
  std::optional<Decline> asyncCopyDecline;
  /// Every reason of the decision, in order (the remark's notes, the
  /// report's `reasons`).
  SmallVector<std::string> reasons;
  /// The blocks/SM target and where it came from ("option", "kernel
  /// nvvm.minctasm", "default", "auto").
  int64_t minBlocksPerSM = kDefaultMinBlocksPerSM;
  std::string minBlocksSource = "default";
  /// With a candidate search (stages=auto with a compiler, or
  /// min-blocks-per-sm=auto): the candidates.
  std::optional<CandidateTable> candidates;

  /// The plan's variant, or None.
  PipelineVariant getVariant() const {
    return plan ? plan->variant : PipelineVariant::None;
  }
  /// The plan's buffers, or 0.
  int64_t getBuffers() const { return plan ? plan->buffers : 0; }
};

/// Returns "cp-async x3 @1 block/SM" and the like, for reasons.
std::string describeCandidate(const Candidate &candidate);

/// The blocks/SM target of `info`: the option, else the kernel's
/// `nvvm.minctasm`, else kDefaultMinBlocksPerSM; kMinBlocksAuto stays auto.
/// Sets `source` ("option", "kernel nvvm.minctasm", "default").
int64_t resolveMinBlocksPerSM(const KLoopInfo &info, int64_t option,
                              std::string &source);

/// Decides how to pipeline `info` on `target` and builds the plan. Never
/// fails: a loop pk should leave alone gets no plan and a Decline. With
/// schedule=warp-specialized on a TMA loop the budget counts the producer
/// warpgroup the transform adds (kProducerThreads).
KLoopDecision decide(const KLoopInfo &info, const TargetInfo &target,
                     const DecisionOptions &options);

} // namespace pk
} // namespace mlir

#endif // PK_DECISION_H
