//===- Candidates.cpp - Register-aware stages, variant and blocks/SM ------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// stages=auto and min-blocks-per-sm=auto (docs/stages.md, "Candidates"):
// every variant x stage count x blocks/SM target the budget allows is a
// candidate; the latency model ranks them (cycles per tile per SM); with a
// compiler (the driver's: pipeline a clone, lower, ptxas) the best few by the
// model are compiled and those that spill or lose occupancy are dropped; the
// unpipelined kernel is the floor: pk never picks a candidate the model
// predicts no faster than it. Decision does not depend on Emission: the
// compiler is a callback (DecisionOptions::compiler).
// Tests: test/pipeline-kernel-decide.mlir,
// test/pipeline-kernel-decide-ptxas.mlir,
// test/e2e/pipeline-kernel-decide*.test.
//
//===----------------------------------------------------------------------===//

#include "DecisionInternal.h"

#include "pk/AsyncCopyPlan.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>

#define DEBUG_TYPE "pk-decision"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

std::string mlir::pk::describeCandidate(const Candidate &candidate) {
  std::string text = candidate.variant == PipelineVariant::None
                         ? std::string("unpipelined")
                         : stringifyPipelineVariant(candidate.variant).str();
  if (isMultistageVariant(candidate.variant))
    text += llvm::formatv(" x{0}", candidate.stages).str();
  if (candidate.schedule == PipelineSchedule::MmaInFlight ||
      candidate.schedule == PipelineSchedule::WarpSpecialized)
    text += (" " + stringifyPipelineSchedule(candidate.schedule)).str();
  return text + llvm::formatv(" @{0} block(s)/SM", candidate.blocksPerSM).str();
}

int64_t mlir::pk::resolveMinBlocksPerSM(const KLoopInfo &info, int64_t option,
                                        std::string &source) {
  if (option == kMinBlocksAuto) {
    source = "auto";
    return kMinBlocksAuto;
  }
  if (option != kMinBlocksFromKernel) {
    source = "option";
    return option;
  }
  if (auto attr = info.kernel->getAttrOfType<IntegerAttr>(kMinCtasmAttrName))
    if (attr.getInt() >= 1) {
      source = "kernel nvvm.minctasm";
      return attr.getInt();
    }
  source = "default";
  return kDefaultMinBlocksPerSM;
}

/// 32-bit registers per thread the loop's iter_args (the accumulators) hold.
static int64_t getAccumulatorRegisters(const KLoopInfo &info) {
  int64_t words = 0;
  scf::ForOp forOp = info.forOp;
  for (Value arg : forOp.getRegionIterArgs()) {
    Type type = arg.getType();
    int64_t count = 1;
    if (auto vector = dyn_cast<VectorType>(type)) {
      count = vector.getNumElements();
      type = vector.getElementType();
    }
    if (!type.isIntOrIndexOrFloat())
      continue;
    int64_t bits = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
    words += llvm::divideCeil(count * bits, 32);
  }
  // A warpgroup MMA's accumulator (!nvgpu.warpgroup.accumulator) is not a
  // vector: the analysis counts its registers per thread.
  for (const WarpgroupMma &wgmma : info.warpgroupMmas)
    if (!wgmma.accumulatorFromWgmma)
      words += wgmma.accumulatorRegs;
  return words;
}

int64_t mlir::pk::detail::estimateRegisters(const KLoopInfo &info,
                                            PipelineVariant variant,
                                            int64_t registerPathBytes) {
  int64_t regs = getAccumulatorRegisters(info) + kRegOverheadEstimate;
  // The register variants hold the next tile in registers; a cp-async loop
  // with per-copy variants, its register-path copies' part of it.
  if (variant == PipelineVariant::LdgRegister ||
      variant == PipelineVariant::RegisterPrefetch)
    regs += llvm::divideCeil(info.loadBytesPerThread, 4);
  else if (variant == PipelineVariant::CpAsync)
    regs += llvm::divideCeil(registerPathBytes, 4);
  return regs;
}

int64_t mlir::pk::detail::getRegisterCap(const TargetInfo &target,
                                         int64_t threads, int64_t blocks) {
  if (threads <= 0 || blocks <= 0)
    return target.maxRegsPerThread;
  int64_t perThread = target.regsPerSM / (blocks * threads);
  return std::min<int64_t>(target.maxRegsPerThread, perThread / 8 * 8);
}

/// The model's floor for one tile per SM: its compute with the pipes to
/// itself, or streaming its bytes at the target's L2 bandwidth.
static double floorCycles(const KLoopInfo &info, const TargetInfo &target) {
  double compute = static_cast<double>(
      pk::detail::computeCyclesPerTile(info, target, /*blocks=*/1));
  double stream =
      static_cast<double>(info.loadBytesPerTile) /
      static_cast<double>(std::max<int64_t>(target.l2BytesPerCycle, 1));
  return std::max(compute, stream);
}

/// The model's cycles per tile per SM for `candidate` with `stages` buffers
/// (1: unpipelined) and `blocks` resident blocks: a block has stages - 1
/// tiles in flight (stages - 2 with mma-in-flight), the blocks share the
/// pipes and the L2 bandwidth; on wgmma loops a block's tile takes at least
/// its MMA time plus the drain unless its group stays in flight
/// (kWgmmaDrainDivisor; docs/stages.md).
double mlir::pk::detail::modelCycles(const KLoopInfo &info,
                                     const TargetInfo &target,
                                     const Candidate &candidate, int64_t stages,
                                     int64_t blocks) {
  blocks = std::max<int64_t>(blocks, 1);
  double compute = static_cast<double>(
      pk::detail::computeCyclesPerTile(info, target, blocks));
  double latency = static_cast<double>(target.memoryLatencyCycles);
  double floor = floorCycles(info, target);
  PipelineVariant variant = candidate.variant;
  if (variant == PipelineVariant::None)
    return std::max((latency + compute) / blocks, floor);
  // Warp-specialized consumers keep a group in flight where the
  // accumulators chain, and the producer still runs stages - 1 tiles ahead.
  bool mmaInFlight = candidate.schedule == PipelineSchedule::MmaInFlight;
  bool warpSpecialized =
      candidate.schedule == PipelineSchedule::WarpSpecialized;
  int64_t inFlight =
      isMultistageVariant(variant) ? stages - (mmaInFlight ? 2 : 1) : 1;
  if (warpSpecialized)
    mmaInFlight = info.hasChainedWgmmas();
  double perBlock = std::max(compute, latency / std::max<int64_t>(inFlight, 1));
  if (!info.warpgroupMmas.empty() && !mmaInFlight) {
    double own = static_cast<double>(
        pk::detail::computeCyclesPerTile(info, target, /*blocks=*/1));
    perBlock = std::max(perBlock, own + own / kWgmmaDrainDivisor);
  }
  return std::max(perBlock / blocks, floor);
}

/// The start of a row's `dropped` when compiling it failed.
static constexpr llvm::StringLiteral kDidNotCompile = "did not compile: ";

namespace {
/// The candidate search of one loop.
class CandidateSearch {
public:
  CandidateSearch(const DecisionContext &ctx, const KLoopDecision &base,
                  const Choice &choice, int64_t blocks)
      : ctx(ctx), info(ctx.info), target(ctx.target), options(ctx.options),
        base(base), choice(choice), blocks(blocks) {}

  /// Fills `table`; returns the index of the chosen row, or -1 (leave the
  /// loop alone) with the reason in `why`.
  int64_t run(CandidateTable &table, std::string &why);

private:
  SmallVector<PipelineVariant> getVariants() const;
  SmallVector<PipelineSchedule> getSchedules(PipelineVariant variant,
                                             int64_t stages) const;
  SmallVector<int64_t> getBlockTargets() const;
  int64_t maxStages() const;
  /// A model row for `candidate`, or nullopt when the budget rules it out.
  std::optional<CandidateRow> makeRow(const Candidate &candidate) const;
  void compileRow(CandidateRow &row);
  bool hasGivenRegisters() const { return base.budget.regsSource != "default"; }

  /// The loop's threads (with the producer warpgroup of warp
  /// specialization).
  int64_t threads() const { return ctx.threadsPerBlock; }

  const DecisionContext &ctx;
  const KLoopInfo &info;
  const TargetInfo &target;
  const DecisionOptions &options;
  const KLoopDecision &base;
  /// The rules' choice before the search.
  const Choice &choice;
  /// The resolved blocks/SM target, or kMinBlocksAuto.
  int64_t blocks;
};
} // namespace

SmallVector<PipelineVariant> CandidateSearch::getVariants() const {
  if (options.variant != PipelineVariant::Auto)
    return {choice.variant};
  // TMA loads stay TMA loads (rule tma-input).
  if (info.tma)
    return {PipelineVariant::Tma};
  SmallVector<PipelineVariant> variants;
  bool cpAsync =
      target.hasCpAsync && succeeded(ctx.copies) &&
      (getNarrowestWidth(*ctx.copies) >= getMinAutoCpAsyncWidth(info) ||
       info.hasAsyncCopies());
  if (cpAsync)
    variants.push_back(PipelineVariant::CpAsync);
  if (!info.hasAsyncCopies()) {
    variants.push_back(PipelineVariant::RegisterPrefetch);
    variants.push_back(PipelineVariant::LdgRegister);
  }
  return variants;
}

/// The orders a candidate with `stages` buffers may take: a forced
/// two-stage or warp-specialized order; else the multistage order unless
/// the caller forced mma-in-flight, and mma-in-flight where the strategy
/// allows it (wgmma loops whose accumulators form chains, from 3 buffers)
/// unless the caller forced another order.
SmallVector<PipelineSchedule>
CandidateSearch::getSchedules(PipelineVariant variant, int64_t stages) const {
  if (!isMultistageVariant(variant))
    return {PipelineSchedule::Multistage};
  // A forced order other than the two the search weighs stays forced.
  if (options.schedule == PipelineSchedule::WarpSpecialized ||
      options.schedule == PipelineSchedule::TwoStage)
    return {options.schedule};
  SmallVector<PipelineSchedule> schedules;
  if (options.schedule != PipelineSchedule::MmaInFlight)
    schedules.push_back(PipelineSchedule::Multistage);
  if (succeeded(checkStrategy(info, target, variant,
                              PipelineSchedule::MmaInFlight, stages)) &&
      (options.schedule == PipelineSchedule::Auto ||
       options.schedule == PipelineSchedule::MmaInFlight))
    schedules.push_back(PipelineSchedule::MmaInFlight);
  return schedules;
}

SmallVector<int64_t> CandidateSearch::getBlockTargets() const {
  if (blocks != kMinBlocksAuto)
    return {blocks};
  SmallVector<int64_t> targets;
  for (int64_t b : {1, 2, 4})
    if (b <= target.maxBlocksPerSM && b * threads() <= target.maxThreadsPerSM)
      targets.push_back(b);
  return targets;
}

int64_t CandidateSearch::maxStages() const {
  int64_t most = options.stages ? options.stages : kMaxStages;
  if (!target.hasCpAsync)
    most = 2;
  return capByTripCount(info, most);
}

std::optional<CandidateRow>
CandidateSearch::makeRow(const Candidate &candidate) const {
  int64_t buffers =
      candidate.variant == PipelineVariant::None
          ? 1
          : getVariantBuffers(info, candidate.variant, candidate.stages);
  int64_t smem = info.smemMultiBytes(buffers);
  if (smem > target.smemPerBlockOptIn)
    return std::nullopt;
  if (candidate.variant != PipelineVariant::None &&
      failed(checkStrategy(info, target, candidate.variant, candidate.schedule,
                           buffers)))
    return std::nullopt;
  CandidateRow row;
  row.candidate = candidate;
  int64_t cap =
      pk::detail::getRegisterCap(target, threads(), candidate.blocksPerSM);
  int64_t regs = base.budget.regsPerThread;
  if (!hasGivenRegisters()) {
    int64_t estimate = pk::detail::estimateRegisters(
        info, candidate.variant,
        succeeded(ctx.copies) ? getRegisterPathBytes(info, *ctx.copies) : 0);
    regs = std::min(estimate, cap);
    row.spillsPredicted = estimate > cap;
    row.spillsLikely = estimate > cap + cap / kRegEstimateMarginDivisor;
    if (row.spillsPredicted && !options.compiler)
      row.dropped = llvm::formatv("the model's ~{0} registers exceed the cap "
                                  "of {1} for {2} block(s)/SM (spills "
                                  "predicted)",
                                  estimate, cap, candidate.blocksPerSM);
  }
  Occupancy occ = computeOccupancy(target, threads(), regs, smem);
  if (occ.bySharedMemory < candidate.blocksPerSM)
    return std::nullopt;
  row.blocksPerSM = occ.blocksPerSM;
  row.modelCycles = pk::detail::modelCycles(info, target, candidate, buffers,
                                            occ.blocksPerSM);
  return row;
}

void CandidateSearch::compileRow(CandidateRow &row) {
  llvm::Expected<CompiledResources> res = options.compiler(row.candidate);
  row.compiled = true;
  row.spillsPredicted = false;
  row.spillsLikely = false;
  if (!res) {
    row.dropped = (kDidNotCompile + llvm::toString(res.takeError())).str();
    return;
  }
  row.resources = *res;
  Occupancy occ =
      computeOccupancy(target, threads(), res->registers, res->sharedBytes);
  row.blocksPerSM = occ.blocksPerSM;
  int64_t buffers = row.candidate.variant == PipelineVariant::None
                        ? 1
                        : getVariantBuffers(info, row.candidate.variant,
                                            row.candidate.stages);
  row.modelCycles = pk::detail::modelCycles(info, target, row.candidate,
                                            buffers, occ.blocksPerSM);
  if (res->spillBytes > 0)
    row.dropped = llvm::formatv("spills {0} bytes", res->spillBytes).str();
  else if (occ.blocksPerSM < row.candidate.blocksPerSM)
    row.dropped = llvm::formatv("{0} registers give {1} block(s)/SM",
                                res->registers, occ.blocksPerSM)
                      .str();
}

/// Whether a variant holds the next tile in registers.
static bool isRegisterVariant(PipelineVariant variant) {
  return variant == PipelineVariant::LdgRegister ||
         variant == PipelineVariant::RegisterPrefetch;
}

/// Whether `spilling`, compiled and spilling, implies that `row` spills: the
/// same blocks/SM target and no fewer registers held (the same variant with
/// at least as many buffers, or the other register variant).
static bool impliesSpill(const CandidateRow &spilling,
                         const CandidateRow &row) {
  const Candidate &a = spilling.candidate, &b = row.candidate;
  if (!spilling.compiled || spilling.resources.spillBytes <= 0 ||
      a.blocksPerSM != b.blocksPerSM)
    return false;
  if (a.variant == b.variant)
    return a.stages <= b.stages;
  return isRegisterVariant(a.variant) && isRegisterVariant(b.variant);
}

/// A compiled row of `table` whose spills imply that `row` spills, or null.
static const CandidateRow *findSpillingPeer(const CandidateTable &table,
                                            const CandidateRow &row) {
  for (const CandidateRow &other : table.rows)
    if (impliesSpill(other, row))
      return &other;
  return nullptr;
}

/// The variant order of ties: cp-async, then register-prefetch (one buffer;
/// rule register-before-ldg), then ldg-register.
static int getVariantRank(PipelineVariant variant) {
  switch (variant) {
  case PipelineVariant::CpAsync:
  case PipelineVariant::Tma:
    return 0;
  case PipelineVariant::RegisterPrefetch:
    return 1;
  case PipelineVariant::LdgRegister:
    return 2;
  default:
    return 3;
  }
}

/// Whether `a` ranks before `b`: eligible first, likely spills last, then
/// fewer model cycles, more resident blocks, the variant order; within a
/// variant a power-of-two ring (rule pow2-stages), fewer stages, the lower
/// blocks/SM target (the looser register cap for the same occupancy: rule
/// loose-cap). docs/decisions.md has the measurements behind each.
static bool ranksBefore(const CandidateRow &a, const CandidateRow &b) {
  if (a.dropped.empty() != b.dropped.empty())
    return a.dropped.empty();
  if (a.spillsLikely != b.spillsLikely)
    return b.spillsLikely;
  if (a.modelCycles != b.modelCycles)
    return a.modelCycles < b.modelCycles;
  if (a.blocksPerSM != b.blocksPerSM)
    return a.blocksPerSM > b.blocksPerSM;
  if (a.candidate.variant != b.candidate.variant)
    return getVariantRank(a.candidate.variant) <
           getVariantRank(b.candidate.variant);
  // The multistage order needs a buffer fewer for the same copy distance.
  if (a.candidate.schedule != b.candidate.schedule)
    return a.candidate.schedule == PipelineSchedule::Multistage;
  // The stage index is `k mod stages`: a mask for a power of two, a
  // multiply-shift sequence (and registers) otherwise.
  bool aPow2 = llvm::isPowerOf2_64(a.candidate.stages);
  if (aPow2 != llvm::isPowerOf2_64(b.candidate.stages))
    return aPow2;
  if (a.candidate.stages != b.candidate.stages)
    return a.candidate.stages < b.candidate.stages;
  return a.candidate.blocksPerSM < b.candidate.blocksPerSM;
}

int64_t CandidateSearch::run(CandidateTable &table, std::string &why) {
  for (PipelineVariant variant : getVariants())
    for (int64_t b : getBlockTargets()) {
      int64_t first = isMultistageVariant(variant)
                          ? (options.stages ? maxStages() : kMinStages)
                          : 1;
      int64_t last = isMultistageVariant(variant) ? maxStages() : 1;
      for (int64_t n = first; n <= last; ++n)
        for (PipelineSchedule schedule : getSchedules(variant, n))
          if (std::optional<CandidateRow> row =
                  makeRow({variant, n, b, schedule}))
            table.rows.push_back(std::move(*row));
    }
  llvm::stable_sort(table.rows, ranksBefore);
  if (table.rows.empty()) {
    why = "no pipelined candidate fits the shared-memory budget";
    return -1;
  }
  // The floor: the unpipelined kernel at the best candidate's target.
  std::optional<CandidateRow> floor = makeRow(
      {PipelineVariant::None, 1, table.rows.front().candidate.blocksPerSM});
  if (options.compiler) {
    auto start = std::chrono::steady_clock::now();
    table.compiledWithPtxas = true;
    int64_t compiled = 0;
    // The model's floor: one tile's compute with the pipes to itself, or its
    // bytes at the L2 bandwidth.
    double bound = floorCycles(info, target);
    bool reachedBound = false;
    for (CandidateRow &row : table.rows) {
      if (compiled == kMaxCompiledCandidates || reachedBound) {
        row.dropped = "not compiled (ranked below the compiled ones)";
        continue;
      }
      // More buffers of a variant that spills at this target spill too.
      if (const CandidateRow *spilling = findSpillingPeer(table, row)) {
        row.dropped = "not compiled (" +
                      describeCandidate(spilling->candidate) +
                      " already spills)";
        continue;
      }
      compileRow(row);
      ++compiled;
      reachedBound = row.dropped.empty() && row.modelCycles <= bound;
    }
    if (floor)
      compileRow(*floor);
    table.compileSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    llvm::stable_sort(table.rows, ranksBefore);
  } else {
    table.noCompileReason = options.noCompilerReason.empty()
                                ? "the model alone (no compiler)"
                                : options.noCompilerReason;
  }
  CandidateRow &best = table.rows.front();
  if (!best.dropped.empty()) {
    StringRef dropped = best.dropped;
    why = dropped.consume_front(kDidNotCompile)
              ? ("no pipelined candidate compiles (" +
                 describeCandidate(best.candidate) + ": " + dropped + ")")
                    .str()
              : "every pipelined candidate spills or loses occupancy";
    if (floor)
      table.rows.push_back(*floor);
    return -1;
  }
  if (floor && floor->dropped.empty() &&
      floor->modelCycles <= best.modelCycles) {
    why = llvm::formatv("the best pipelined candidate ({0}, ~{1:F0} cycles "
                        "per tile) is predicted no faster than the "
                        "unpipelined kernel (~{2:F0})",
                        describeCandidate(best.candidate), best.modelCycles,
                        floor->modelCycles);
    table.rows.push_back(*floor);
    return -1;
  }
  // Mark before appending: push_back may move the rows `best` refers to.
  best.chosen = true;
  if (floor)
    table.rows.push_back(*floor);
  return 0;
}

/// One row of the table for the reasons.
static std::string describeRow(const CandidateRow &row) {
  std::string text = describeCandidate(row.candidate);
  if (row.compiled && !StringRef(row.dropped).starts_with(kDidNotCompile))
    text += llvm::formatv(": {0} registers, {1} bytes spilled, {2} block(s)/SM",
                          row.resources.registers, row.resources.spillBytes,
                          row.blocksPerSM)
                .str();
  text += llvm::formatv(", ~{0:F0} cycles/tile", row.modelCycles).str();
  if (row.chosen)
    return text + " (chosen)";
  if (!row.dropped.empty())
    return text + " (dropped: " + row.dropped + ")";
  return text;
}

std::string mlir::pk::detail::describeCandidateTable(const CandidateTable &t) {
  std::string text =
      t.compiledWithPtxas
          ? llvm::formatv("candidates (compiled with ptxas in {0:F2} s): ",
                          t.compileSeconds)
                .str()
          : "candidates (" + t.noCompileReason + "): ";
  SmallVector<std::string> rows;
  for (const CandidateRow &row : t.rows) {
    // The model-only table lists what it weighed; the compiled one what
    // ptxas saw and the best of the rest.
    if (t.compiledWithPtxas && !row.compiled && rows.size() >= 6)
      continue;
    rows.push_back(describeRow(row));
    if (!t.compiledWithPtxas && rows.size() == 6)
      break;
  }
  if (rows.size() < t.rows.size())
    rows.push_back(
        llvm::formatv("{0} more in the report", t.rows.size() - rows.size()));
  return text + llvm::join(rows, "; ");
}

bool mlir::pk::detail::searchCandidates(const DecisionContext &ctx,
                                        int64_t blocks, KLoopDecision &decision,
                                        Choice &choice) {
  CandidateTable table;
  std::string why;
  CandidateSearch search(ctx, decision, choice, blocks);
  int64_t chosen = search.run(table, why);
  decision.reasons.push_back(describeCandidateTable(table));
  if (chosen < 0) {
    LDBG() << "candidate search: " << why << " -> not pipelined";
    // Last: the reason that selects no variant (describePipelineResult).
    decision.reasons.push_back(why + " (rule never-worse)");
    choice.variant = PipelineVariant::None;
    choice.buffers = 0;
    decision.candidates = std::move(table);
    return false;
  }
  const Candidate &best = table.rows[chosen].candidate;
  const KLoopInfo &info = ctx.info;
  int64_t bestBuffers = getVariantBuffers(info, best.variant, best.stages);
  // The reasons above describe the rules' first estimate; say when the
  // search replaced it, so that the remark does not read as two decisions.
  std::string replaced;
  if (best.variant != choice.variant || bestBuffers != choice.buffers ||
      best.blocksPerSM != decision.minBlocksPerSM ||
      best.schedule == PipelineSchedule::MmaInFlight)
    replaced = llvm::formatv("; it replaces the rules' first estimate "
                             "above, {0} with {1} buffer(s) at {2} "
                             "block(s)/SM",
                             stringifyPipelineVariant(choice.variant),
                             choice.buffers, decision.minBlocksPerSM)
                   .str();
  choice.variant = best.variant;
  choice.buffers = bestBuffers;
  if (isMultistageVariant(best.variant))
    choice.schedule = best.schedule;
  decision.budget = computeContextBudget(
      ctx,
      isMultistageVariant(best.variant) ? bestBuffers
                                        : std::max<int64_t>(best.stages, 2),
      best.blocksPerSM);
  decision.minBlocksPerSM = best.blocksPerSM;
  std::string chosenWhy = "chosen: " + describeCandidate(best);
  if (blocks == kMinBlocksAuto) {
    choice.setMinBlocks = best.blocksPerSM;
    chosenWhy += llvm::formatv(" (min-blocks-per-sm=auto: the kernel gets "
                               "nvvm.minctasm = {0})",
                               best.blocksPerSM)
                     .str();
  } else if (table.compiledWithPtxas && best.variant != PipelineVariant::None &&
             !info.kernel->hasAttr(kMinCtasmAttrName)) {
    // The candidate was compiled under this launch bound; without it ptxas
    // allocates registers by its own occupancy heuristic and may spill
    // what the candidate did not (FA-2 causal: 222 registers and no spill
    // at 2 blocks/SM, 168 and a spill without the bound).
    choice.setMinBlocks = best.blocksPerSM;
    chosenWhy += llvm::formatv(" (the kernel gets nvvm.minctasm = {0}, the "
                               "launch bound its candidate was compiled with)",
                               best.blocksPerSM)
                     .str();
  }
  decision.reasons.push_back(chosenWhy + replaced);
  decision.candidates = std::move(table);
  return true;
}
