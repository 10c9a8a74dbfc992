//===- SassChecks.cpp - The load/compute overlap checks -------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// One function per check (the sm_90a ones: SassHopperChecks.cpp). Each
// reads a KernelAnalysis (and, for the --baseline checks, the baseline's)
// and returns a CheckResult with its status, a one-line detail and the
// numbers behind it.
//
//===----------------------------------------------------------------------===//

#include "pk/Verification/SassCheck.h"

#include "SassCheckInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <numeric>

using namespace llvm;
using namespace pk::sass;
using namespace pk::sass::detail;

StringRef pk::sass::statusName(CheckResult::Status status) {
  switch (status) {
  case CheckResult::Pass:
    return "PASS";
  case CheckResult::Fail:
    return "FAIL";
  case CheckResult::Skip:
    return "SKIP";
  }
  llvm_unreachable("unknown status");
}

/// The cuobjdump-style address of instruction `index`: `/*08b0*/`.
std::string pk::sass::detail::addressOf(const KernelAnalysis &analysis,
                                        size_t index) {
  return formatAddress(analysis.kernel->insts[index].address);
}

void pk::sass::detail::addValue(CheckResult &check, StringRef key,
                                json::Value value) {
  check.values.emplace_back(key.str(), std::move(value));
}

void pk::sass::detail::addAddress(CheckResult &check, StringRef key,
                                  const KernelAnalysis &analysis,
                                  std::optional<size_t> index) {
  addValue(check, key, jsonAddressOf(analysis, index));
}

/// `32 HMMA.16816.F32` or `480 FFMA + 32 FFMA.FTZ`.
static std::string describeLoopCompute(const KernelAnalysis &analysis) {
  if (analysis.loopComputeOpcodes.empty())
    return "0 compute";
  SmallVector<std::string> parts;
  for (const auto &[opcode, count] : analysis.loopComputeOpcodes)
    parts.push_back(std::to_string(count) + " " + opcode);
  return join(parts, " + ");
}

/// Why a kernel without a main loop cannot be checked.
static std::string noLoopReason(const KernelAnalysis &analysis) {
  return analysis.totalCompute
             ? "no backward branch encloses a compute instruction (a loop "
               "unrolled or peeled away, e.g. a pipeline whose stages cover "
               "every tile): nothing to check"
             : "the kernel has no compute instruction (MMA, FFMA, "
               "FADD/FMUL/HADD2/HMUL2/HFMA2): nothing to check";
}

/// Skips `check` because the kernel has no main loop: the kernel is
/// unsupported (KernelReport::unsupported), not wrong.
static void skipNoLoop(CheckResult &check, const KernelAnalysis &analysis) {
  check.status = CheckResult::Skip;
  check.detail = "unsupported: " + noLoopReason(analysis);
}

/// Fails `check` because the main loop has no global load.
void pk::sass::detail::failNoLoad(CheckResult &check) {
  check.status = CheckResult::Fail;
  check.detail = "no global load (LDGSTS/LDG) in the loop body";
}

//===----------------------------------------------------------------------===//
// Loop checks
//===----------------------------------------------------------------------===//

/// Skips `check`, which measures the main loop's own loads, in a
/// warp-specialized kernel: the producer's loop issues them
/// (checkWarpSpecialized checks the handshake); returns true when it did.
bool pk::sass::detail::skipWarpSpecialized(CheckResult &check,
                                           const KernelAnalysis &analysis) {
  if (!analysis.producerLoop)
    return false;
  check.status = CheckResult::Skip;
  check.detail = "warp-specialized: the producer loop " +
                 addressOf(analysis, analysis.producerLoop->begin) + ".." +
                 addressOf(analysis, analysis.producerLoop->end) +
                 " issues the loads (see warp_specialized)";
  return true;
}

CheckResult pk::sass::checkMainLoop(const KernelAnalysis &analysis) {
  CheckResult check{"main_loop"};
  addValue(check, "backward_branches", analysis.backwardBranches);
  if (!analysis.loop) {
    skipNoLoop(check, analysis);
    return check;
  }
  const std::vector<Instruction> &insts = analysis.kernel->insts;
  check.status = CheckResult::Pass;
  check.detail = (addressOf(analysis, analysis.loop->begin) + ".." +
                  addressOf(analysis, analysis.loop->end) + ": " +
                  Twine(analysis.loopLoads) + " global loads, " +
                  describeLoopCompute(analysis) + ", " +
                  Twine(analysis.loopBarriers) + " BAR.SYNC")
                     .str();
  addValue(check, "start",
           formatJsonAddress(insts[analysis.loop->begin].address));
  addValue(check, "branch",
           formatJsonAddress(insts[analysis.loop->end].address));
  addValue(check, "instructions", analysis.loopInstructions);
  addValue(check, "global_loads", analysis.loopLoads);
  addValue(check, "compute", analysis.loopCompute);
  addValue(check, "barriers", analysis.loopBarriers);
  return check;
}

CheckResult pk::sass::checkLoadsBeforeCompute(const KernelAnalysis &analysis,
                                              const CheckOptions &options) {
  CheckResult check{"loads_before_compute"};
  if (skipWarpSpecialized(check, analysis))
    return check;
  addAddress(check, "first_global_load", analysis, analysis.firstLoad);
  addAddress(check, "first_compute", analysis, analysis.firstCompute);
  addValue(check, "compute_after_first_load", analysis.computeAfterFirstLoad);
  addValue(check, "loop_compute", analysis.loopCompute);
  if (!analysis.loop) {
    skipNoLoop(check, analysis);
    return check;
  }
  if (!analysis.firstLoad) {
    failNoLoad(check);
    return check;
  }
  bool before = *analysis.firstLoad < *analysis.firstCompute;
  // FFMA kernels: enough of the tile's compute after the first load.
  bool overlapped = !before && !analysis.computeIsMma() &&
                    analysis.loopCompute > 0 &&
                    double(analysis.computeAfterFirstLoad) >=
                        options.ffmaOverlap * double(analysis.loopCompute);
  check.status = before || overlapped ? CheckResult::Pass : CheckResult::Fail;
  check.detail =
      std::string(analysis.firstLoadSkipsStreams ? "first cp.async (LDGSTS) "
                                                 : "first global load ") +
      addressOf(analysis, *analysis.firstLoad) +
      (before ? " precedes" : " follows") + " first compute " +
      addressOf(analysis, *analysis.firstCompute);
  if (!before)
    check.detail +=
        (" (" + Twine(analysis.computeAfterFirstLoad) + " of " +
         Twine(analysis.loopCompute) + " compute follow it in the iteration" +
         (overlapped ? ", at least --ffma-overlap=" +
                           formatv("{0}", options.ffmaOverlap).str() +
                           (analysis.computeKind == ComputeKind::Ffma
                                ? " of the FFMAs"
                                : " of the compute")
                     : std::string()) +
         ")")
            .str();
  return check;
}

CheckResult pk::sass::checkNoBarrierBetween(const KernelAnalysis &analysis) {
  CheckResult check{"no_barrier_between_loads_and_compute"};
  if (skipWarpSpecialized(check, analysis))
    return check;
  addValue(check, "barriers", analysis.barriersBetweenLoadAndCompute);
  addAddress(check, "first_global_load", analysis, analysis.firstLoad);
  addAddress(check, "next_compute", analysis, analysis.computeAfterLoad);
  addAddress(check, "first_barrier", analysis, analysis.firstBarrierBetween);
  addValue(check, "wraps_around", analysis.computeAfterLoadWraps);
  if (!analysis.loop) {
    skipNoLoop(check, analysis);
    return check;
  }
  if (!analysis.firstLoad) {
    failNoLoad(check);
    return check;
  }
  unsigned count = analysis.barriersBetweenLoadAndCompute;
  check.status = count == 0 ? CheckResult::Pass : CheckResult::Fail;
  check.detail = (Twine(count) + " BAR.SYNC between " +
                  addressOf(analysis, *analysis.firstLoad) + " and " +
                  addressOf(analysis, *analysis.computeAfterLoad) +
                  (analysis.computeAfterLoadWraps ? " (next iteration)" : ""))
                     .str();
  if (count)
    check.detail += ", first at " +
                    addressOf(analysis, *analysis.firstBarrierBetween) +
                    ": the compute waits behind the barrier (no overlap)";
  return check;
}

CheckResult pk::sass::checkBarrierAfterCompute(const KernelAnalysis &analysis) {
  CheckResult check{"barrier_after_compute"};
  if (skipWarpSpecialized(check, analysis))
    return check;
  addAddress(check, "last_compute", analysis, analysis.lastCompute);
  addAddress(check, "barrier", analysis, analysis.barrierAfterCompute);
  if (!analysis.loop) {
    skipNoLoop(check, analysis);
    return check;
  }
  if (analysis.barrierAfterCompute) {
    check.status = CheckResult::Pass;
    check.detail =
        "BAR.SYNC " + addressOf(analysis, *analysis.barrierAfterCompute) +
        " after last compute " + addressOf(analysis, *analysis.lastCompute);
    if (analysis.barrierAfterSharedRead)
      check.detail = "BAR.SYNC " +
                     addressOf(analysis, *analysis.barrierAfterCompute) +
                     " after last shared read " +
                     addressOf(analysis, *analysis.lastSharedRead) +
                     " (compute after it, to " +
                     addressOf(analysis, *analysis.lastCompute) +
                     ", reads registers only)";
    if (analysis.barrierAfterComputeWraps)
      check.detail += " (at the top of the next iteration, before its loads: "
                      "the multistage order)";
  } else {
    check.status = CheckResult::Fail;
    check.detail = "no BAR.SYNC between last compute " +
                   addressOf(analysis, *analysis.lastCompute) +
                   " and the backward branch " +
                   addressOf(analysis, analysis.loop->end);
  }
  return check;
}

//===----------------------------------------------------------------------===//
// Baseline checks
//===----------------------------------------------------------------------===//

/// Compares loop compute counts `pipelined` != `base` as ptxas unrolling:
/// one tile is their greatest common divisor. Sets `check` and, when the
/// counts are an unroll of each other, the tile and unroll factors of `cmp`.
static void compareUnrolled(CheckResult &check, BaselineComparison &cmp,
                            unsigned pipelined, unsigned base,
                            std::optional<uint64_t> pipelinedBytes,
                            std::optional<uint64_t> baseBytes) {
  unsigned tile = std::gcd(pipelined, base);
  unsigned pipelinedUnroll = pipelined / tile, baseUnroll = base / tile;
  std::string numbers =
      (Twine(pipelined) + " != baseline " + Twine(base)).str();
  check.status = CheckResult::Fail;
  if (std::max(pipelinedUnroll, baseUnroll) > maxUnroll) {
    check.detail = numbers + " (not related by an unroll factor <= " +
                   std::to_string(maxUnroll) +
                   ": compute was lost or duplicated)";
    return;
  }
  if (pipelinedBytes && baseBytes &&
      *pipelinedBytes * baseUnroll != *baseBytes * pipelinedUnroll) {
    check.detail = numbers + " (ratio " + std::to_string(pipelinedUnroll) +
                   ":" + std::to_string(baseUnroll) + ", but the loops load " +
                   std::to_string(*pipelinedBytes) + " and " +
                   std::to_string(*baseBytes) +
                   " bytes per thread: not an unroll; compute was lost or "
                   "duplicated)";
    return;
  }
  cmp.computePerTile = tile;
  cmp.pipelinedUnroll = pipelinedUnroll;
  cmp.baselineUnroll = baseUnroll;
  SmallVector<std::string> unrolled;
  if (pipelinedUnroll > 1)
    unrolled.push_back("the pipelined loop by " +
                       std::to_string(pipelinedUnroll));
  if (baseUnroll > 1)
    unrolled.push_back("the baseline's loop by " + std::to_string(baseUnroll));
  check.status = CheckResult::Pass;
  check.detail = numbers + ": ptxas unrolled " + join(unrolled, " and ") +
                 "; " + std::to_string(tile) + " per tile in both";
  if (pipelinedBytes && baseBytes)
    check.detail += " (loads " + std::to_string(*pipelinedBytes) + " and " +
                    std::to_string(*baseBytes) + " bytes per thread agree)";
}

/// A JSON number, or null for std::nullopt.
static json::Value optionalNumber(std::optional<uint64_t> value) {
  return value ? json::Value(*value) : json::Value(nullptr);
}

CheckResult pk::sass::checkComputePerIteration(const KernelAnalysis &analysis,
                                               const KernelAnalysis *baseline,
                                               BaselineComparison &cmp) {
  CheckResult check{"compute_per_iteration"};
  if (!baseline) {
    check.detail = "needs --baseline";
    return check;
  }
  cmp.kernel = baseline->kernel;
  cmp.hasLoop = baseline->loop.has_value();
  cmp.loopCompute = baseline->loopCompute;
  cmp.outsideCompute = baseline->computeBeforeLoop + baseline->computeAfterLoop;
  addValue(check, "loop_compute", analysis.loopCompute);
  addValue(check, "baseline_loop_compute", baseline->loopCompute);
  addValue(check, "loop_load_bytes", optionalNumber(analysis.loopLoadBytes));
  addValue(check, "baseline_loop_load_bytes",
           optionalNumber(baseline->loopLoadBytes));
  unsigned pipelined = analysis.loopCompute, base = baseline->loopCompute;
  if (!analysis.loop) {
    skipNoLoop(check, analysis);
  } else if (!baseline->loop) {
    check.status = CheckResult::Fail;
    check.detail = "the baseline has no main loop";
  } else if (pipelined == base) {
    cmp.computePerTile = pipelined;
    check.status = CheckResult::Pass;
    check.detail = (Twine(pipelined) + " == baseline " + Twine(base)).str();
  } else {
    compareUnrolled(check, cmp, pipelined, base, analysis.loopLoadBytes,
                    baseline->loopLoadBytes);
  }
  addValue(check, "compute_per_tile", cmp.computePerTile);
  addValue(check, "pipelined_unroll", cmp.pipelinedUnroll);
  addValue(check, "baseline_unroll", cmp.baselineUnroll);
  return check;
}

/// The detail of compute_total: how the `peeled` compute outside the loop
/// splits into tiles and, unless `ok` with one expected count, which range
/// [minTiles, maxTiles] was expected.
static std::string describePeeled(unsigned outside, unsigned fallback,
                                  const BaselineComparison &cmp, int64_t peeled,
                                  int64_t minTiles, int64_t maxTiles, bool ok,
                                  StringRef origin) {
  int64_t tile = cmp.computePerTile;
  std::string detail = (Twine(outside) + " outside the loop").str();
  if (fallback)
    detail += (" - " + Twine(fallback) +
               " in the fallback loop (a versioned pipeline's original loop, "
               "the baseline's loop again)")
                  .str();
  detail += (" - baseline " + Twine(cmp.outsideCompute) + " = " + Twine(peeled))
                .str();
  if (peeled % tile == 0)
    detail += " = " + std::to_string(peeled / tile) + " x " +
              std::to_string(tile) + " per tile";
  else
    detail += ", not a multiple of " + std::to_string(tile) + " per tile";
  if (minTiles == maxTiles)
    detail += ok ? " (the peeled epilogue)"
                 : "; expected exactly " + std::to_string(minTiles) +
                       " tile(s) (the peeled epilogue of " + origin.str() + ")";
  else
    detail += "; expected " + std::to_string(minTiles) + ".." +
              std::to_string(maxTiles) +
              " tiles (the epilogue, give or take the remainder of "
              "ptxas' unrolling)";
  return detail;
}

/// The compute of the pipelined kernel's fallback loops: loops outside its
/// main loop that each compute what the baseline's main loop does, where the
/// baseline has no such loop (pk versions a loop it cannot prove, e.g. a
/// dynamic trip count, and keeps the original loop for the other case).
static unsigned getFallbackCompute(const KernelAnalysis &analysis,
                                   const KernelAnalysis &baseline) {
  if (!baseline.otherComputeLoops.empty() ||
      analysis.otherComputeLoops.empty() || baseline.loopCompute == 0)
    return 0;
  unsigned total = 0;
  for (const Loop &loop : analysis.otherComputeLoops) {
    if (loop.compute != baseline.loopCompute)
      return 0;
    total += loop.compute;
  }
  return total;
}

CheckResult pk::sass::checkComputeTotal(const KernelAnalysis &analysis,
                                        const KernelAnalysis *baseline,
                                        const BaselineComparison &cmp,
                                        const CheckResult &perIteration,
                                        const CheckOptions &options) {
  CheckResult check{"compute_total"};
  if (skipWarpSpecialized(check, analysis))
    return check;
  if (!baseline) {
    check.detail = "needs --baseline";
    return check;
  }
  unsigned outside = analysis.computeBeforeLoop + analysis.computeAfterLoop;
  addValue(check, "outside_loop_compute", outside);
  addValue(check, "before_loop_compute", analysis.computeBeforeLoop);
  addValue(check, "after_loop_compute", analysis.computeAfterLoop);
  addValue(check, "baseline_outside_loop_compute", cmp.outsideCompute);
  addValue(check, "compute_per_tile", cmp.computePerTile);
  if (!analysis.loop) {
    skipNoLoop(check, analysis);
    return check;
  }
  if (perIteration.status != CheckResult::Pass || cmp.computePerTile == 0) {
    check.status = CheckResult::Fail;
    check.detail = "no per-tile count: compute_per_iteration failed";
    return check;
  }
  int64_t tile = cmp.computePerTile;
  unsigned fallback = getFallbackCompute(analysis, *baseline);
  addValue(check, "fallback_loop_compute", fallback);
  int64_t peeled =
      int64_t(outside) - int64_t(fallback) - int64_t(cmp.outsideCompute);
  // The baseline's remainder tiles sit in its outside compute, so there are
  // at most min(baseline_unroll - 1, outside / tile) of them.
  int64_t baselineRemainder =
      std::min<int64_t>(cmp.baselineUnroll - 1, cmp.outsideCompute / tile);
  // A wgmma cp.async or TMA loop shows how far its copies run ahead: the
  // epilogue computes those tiles (S - 1, or S - 2 with one wgmma group in
  // flight).
  std::optional<int64_t> distance =
      analysis.wgmma ? analysis.wgmma->copyDistance : std::nullopt;
  int64_t epilogueTiles =
      distance ? *distance : std::max<int64_t>(int64_t(options.stages) - 1, 1);
  std::string origin =
      distance ? "copies " + std::to_string(*distance) + " tile(s) ahead"
               : "--stages=" + std::to_string(options.stages);
  int64_t minTiles = epilogueTiles - baselineRemainder;
  int64_t maxTiles = epilogueTiles - 1 + cmp.pipelinedUnroll;
  addValue(check, "peeled_compute", peeled);
  bool wholeTiles = peeled % tile == 0;
  int64_t tiles = peeled / tile;
  if (wholeTiles)
    addValue(check, "peeled_tiles", tiles);
  bool ok = wholeTiles && minTiles <= tiles && tiles <= maxTiles;
  check.status = ok ? CheckResult::Pass : CheckResult::Fail;
  check.detail = describePeeled(outside, fallback, cmp, peeled, minTiles,
                                maxTiles, ok, origin);
  return check;
}

//===----------------------------------------------------------------------===//
// Spills
//===----------------------------------------------------------------------===//

CheckResult pk::sass::checkNoSpills(const KernelAnalysis &analysis) {
  CheckResult check{"no_spills"};
  const Kernel &kernel = *analysis.kernel;
  const std::optional<Resources> &res = kernel.resources;
  addValue(check, "STL", analysis.stlCount);
  addValue(check, "LDL", analysis.ldlCount);
  addValue(check, "LOCAL",
           res ? json::Value(res->local) : json::Value(nullptr));
  addValue(check, "STACK",
           res ? json::Value(res->stack) : json::Value(nullptr));
  bool ok = analysis.stlCount == 0 && analysis.ldlCount == 0;
  check.detail =
      (Twine(analysis.stlCount) + " STL, " + Twine(analysis.ldlCount) + " LDL")
          .str();
  if (res) {
    ok = ok && res->local == 0 && res->stack == 0;
    check.detail +=
        (", LOCAL:" + Twine(res->local) + " STACK:" + Twine(res->stack)).str();
  } else {
    check.detail += kernel.resourceUsageRead
                        ? " (no -res-usage entry for the kernel)"
                        : " (SASS input: no -res-usage)";
  }
  check.status = ok ? CheckResult::Pass : CheckResult::Fail;
  return check;
}

//===----------------------------------------------------------------------===//
// Every check
//===----------------------------------------------------------------------===//

unsigned KernelReport::count(CheckResult::Status status) const {
  return llvm::count_if(
      checks, [&](const CheckResult &check) { return check.status == status; });
}

KernelReport pk::sass::checkKernel(const Kernel &kernel,
                                   const KernelAnalysis *baseline,
                                   const CheckOptions &options) {
  KernelReport report;
  report.analysis = analyzeKernel(kernel);
  report.baseline = baseline;
  const KernelAnalysis &analysis = report.analysis;
  SmallVector<CheckResult> &checks = report.checks;
  checks.push_back(checkMainLoop(analysis));
  checks.push_back(checkLoadsBeforeCompute(analysis, options));
  checks.push_back(checkNoBarrierBetween(analysis));
  checks.push_back(checkBarrierAfterCompute(analysis));
  checks.push_back(
      checkComputePerIteration(analysis, baseline, report.comparison));
  checks.push_back(checkComputeTotal(analysis, baseline, report.comparison,
                                     checks.back(), options));
  checks.push_back(checkNoSpills(analysis));
  checks.push_back(checkWgmmaOverlap(analysis, baseline));
  checks.push_back(checkWgmmaStageSafety(analysis, options));
  checks.push_back(checkProxyFence(analysis));
  checks.push_back(checkTmaInFlight(analysis, options));
  checks.push_back(checkWarpSpecialized(analysis));
  if (!analysis.loop)
    report.unsupported = noLoopReason(analysis);
  return report;
}
