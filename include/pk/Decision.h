//===- Decision.h - Variant, stage count and schedule of a K-loop -*- C++
//-*-===//
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

#include <functional>
#include <optional>
#include <string>

namespace mlir {
namespace pk {

/// The software-pipelining variants of the seed procedure. `Auto` is a
/// request only: `decide` never returns it.
enum class PipelineVariant {
  Auto,
  None,
  CpAsync,
  LdgRegister,
  RegisterPrefetch,
  /// TMA loads into N buffers completing on a ring of N mbarriers (loops
  /// whose load phase is already TMA; docs/hopper.md "TMA ring").
  Tma
};

/// Returns "auto", "none", "cp-async", "ldg-register", "register-prefetch"
/// or "tma".
llvm::StringRef stringifyPipelineVariant(PipelineVariant variant);

/// Whether `variant` copies asynchronously into N buffers (cp-async, tma):
/// N - 1 tiles in flight, the wgmma orders of PipelineSchedule.
inline bool isMultistageVariant(PipelineVariant variant) {
  return variant == PipelineVariant::CpAsync || variant == PipelineVariant::Tma;
}

/// The order of a cp-async iteration. `Auto` is a request only.
enum class PipelineSchedule {
  /// Multistage (rule `schedule-multistage`).
  Auto,
  /// The seed procedure's two-stage order: issue tile t+1, commit, compute
  /// tile t, wait for all groups, barrier.
  Seed,
  /// The CUDA guide's multistage order: wait for all but N-2 groups,
  /// barrier, issue tile t+N-1, commit, compute tile t.
  Multistage,
  /// wgmma loops (docs/hopper.md): the multistage order with the wgmma group
  /// of tile t left in flight until tile t+1's compute (`wgmma.wait_group
  /// 1`): wait for all but N-3 groups, barrier, issue tile t+N-2 into the
  /// stage of tile t-2, compute tile t. Needs N >= 3.
  MmaInFlight,
  /// TMA loops (docs/hopper.md "Warp specialization"): a producer
  /// warpgroup added to the block issues the TMA loads of tile t+N-1 as soon
  /// as the consumers released its stage on an "empty" mbarrier; the
  /// kernel's threads compute, one wgmma group in flight where the
  /// accumulators chain. The block grows by kProducerThreads threads.
  WarpSpecialized,
};

/// Threads schedule=warp-specialized adds to the block: one warpgroup, of
/// which one thread issues the TMA loads (setmaxnreg and warpgroup-wide
/// register reallocation work per warpgroup).
constexpr int64_t kProducerThreads = 128;

/// Returns "auto", "seed", "multistage", "mma-in-flight" or
/// "warp-specialized".
llvm::StringRef stringifyPipelineSchedule(PipelineSchedule schedule);

/// The seed procedure's compute/load ratio thresholds (FLOP per byte
/// loaded): below kSeedLowRatio cp.async is predicted +15-35%, up to
/// kSeedHighRatio +5-15%, above it 0-5% or a regression.
constexpr double kSeedLowRatio = 5.0;
constexpr double kSeedHighRatio = 20.0;

/// The stage counts pk supports for cp-async.
constexpr int64_t kMinStages = 2;
constexpr int64_t kMaxStages = 8;

/// The width below which cp.async loses to ldg-register (rule
/// `narrow-cp-async`), in bytes per copy: measured on an H200, 4-byte
/// cp.async ran 0.84x its baseline (ldg-register 1.16x) and 8-byte cp.async
/// 1.05x (ldg-register 0.99x); docs/decisions.md.
constexpr int64_t kMinAutoCpAsyncWidth = 8;

/// `minBlocksPerSM` sentinels: the kernel's launch bounds (`nvvm.minctasm`,
/// else kDefaultMinBlocksPerSM), or pk's choice per tile.
constexpr int64_t kMinBlocksFromKernel = -1;
constexpr int64_t kMinBlocksAuto = -2;
/// The blocks/SM target without an option or launch bound.
constexpr int64_t kDefaultMinBlocksPerSM = 2;

/// The kernel's launch bounds pk reads (and, with min-blocks-per-sm=auto,
/// sets): minimum resident blocks per SM (PTX .minnctapersm).
constexpr llvm::StringLiteral kMinCtasmAttrName = "nvvm.minctasm";

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

/// One configuration the decision considers: a variant, its shared buffers
/// (1 for register-prefetch and the unpipelined kernel), the resident
/// blocks per SM it is compiled for (`nvvm.minctasm`) and, for cp-async, its
/// order (Multistage or, on wgmma loops, MmaInFlight).
struct Candidate {
  PipelineVariant variant = PipelineVariant::None;
  int64_t stages = 1;
  int64_t blocksPerSM = 1;
  PipelineSchedule schedule = PipelineSchedule::Multistage;
};

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
/// lowered, ptxas) and returns its resources; sets `error` on failure. The
/// decision does not know how: the driver passes it in (docs/stages.md).
using CandidateCompiler = std::function<FailureOr<CompiledResources>(
    const Candidate &candidate, std::string &error)>;

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
  /// With a ratio above kSeedHighRatio, do not pipeline (the seed's literal
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
  /// The seed rule's variant from the ratio and the budget alone, its
  /// reasons and predicted gain: what pk-analyze-kloops reports.
  PipelineVariant ruleVariant = PipelineVariant::None;
  SmallVector<std::string> ruleReasons;
  std::string prediction;
  /// With stages=auto, the model's numbers.
  std::optional<StageModel> stageModel;
  /// The variant pk applies (None: leave the loop alone), after what the
  /// copies allow and what the caller forced, and every reason.
  PipelineVariant variant = PipelineVariant::None;
  SmallVector<std::string> reasons;
  /// The number of shared buffers the transform creates.
  int64_t buffers = 0;
  /// The cp-async order (never Auto).
  PipelineSchedule schedule = PipelineSchedule::Multistage;
  /// The blocks/SM target and where it came from ("option", "kernel
  /// nvvm.minctasm", "default", "auto").
  int64_t minBlocksPerSM = kDefaultMinBlocksPerSM;
  std::string minBlocksSource = "default";
  /// With min-blocks-per-sm=auto: the kernel's `nvvm.minctasm` to set.
  std::optional<int64_t> setMinBlocks;
  /// With a candidate search (stages=auto with a compiler, or
  /// min-blocks-per-sm=auto): the candidates.
  std::optional<CandidateTable> candidates;
};

/// The number of shared buffers `variant` creates for `info` with `stages`
/// requested: 1 for register-prefetch, 2 for ldg-register, else `stages`
/// capped by a static trip count of at least 2.
int64_t getEffectiveStages(const KLoopInfo &info, PipelineVariant variant,
                           int64_t stages);

/// Returns "cp-async x3 @1 block/SM" and the like, for reasons.
std::string describeCandidate(const Candidate &candidate);

/// The blocks/SM target of `info`: the option, else the kernel's
/// `nvvm.minctasm`, else kDefaultMinBlocksPerSM; kMinBlocksAuto stays auto.
/// Sets `source` ("option", "kernel nvvm.minctasm", "default").
int64_t resolveMinBlocksPerSM(const KLoopInfo &info, int64_t option,
                              std::string &source);

/// Decides how to pipeline `info` on `target`. Never fails: a loop pk
/// should leave alone gets variant None and the reason. With
/// schedule=warp-specialized on a TMA loop the budget counts the producer
/// warpgroup the transform adds (kProducerThreads).
KLoopDecision decide(const KLoopInfo &info, const TargetInfo &target,
                     const DecisionOptions &options);

} // namespace pk
} // namespace mlir

#endif // PK_DECISION_H
