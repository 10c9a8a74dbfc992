//===- SassHopperChecks.cpp - The sm_90a checks: wgmma, TMA, roles --------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The checks of Hopper kernels (pk-sass-check, docs/sass-check.md): wgmma
// groups overlapping the next tile's loads, TMA loads in flight across the
// compute, the warp-specialized producer/consumer handshake, no shared write
// into a stage a wgmma group in flight reads, and the proxy fence between
// generic-proxy stores and wgmma. The loop checks are SassChecks.cpp.
//
//===----------------------------------------------------------------------===//

#include "pk/Verification/SassCheck.h"

#include "SassCheckInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace pk::sass;
using namespace pk::sass::detail;

//===----------------------------------------------------------------------===//
// wgmma checks
//===----------------------------------------------------------------------===//

/// Skips `check` when the kernel's main loop holds no warpgroup MMA; returns
/// true when it did.
static bool skipWithoutWgmma(CheckResult &check,
                             const KernelAnalysis &analysis) {
  if (analysis.wgmma)
    return false;
  check.detail = analysis.loop ? "no warpgroup MMA (HGMMA) in the main loop"
                               : "no main loop";
  return true;
}

/// `16 LDGSTS` or `16 STS + 16 LDGSTS`: the loop's shared writes by opcode.
static std::string describeWrites(const KernelAnalysis &analysis) {
  std::map<std::string, unsigned> counts;
  for (const SharedWriteGuard &guard : analysis.wgmma->writes)
    ++counts[analysis.kernel->insts[guard.write].baseOpcode];
  SmallVector<std::string> parts;
  for (const auto &[opcode, count] : counts)
    parts.push_back(std::to_string(count) + " " + opcode);
  return join(parts, " + ");
}

CheckResult pk::sass::checkWgmmaOverlap(const KernelAnalysis &analysis,
                                        const KernelAnalysis *baseline) {
  CheckResult check{"wgmma_overlap"};
  if (skipWithoutWgmma(check, analysis) || skipWarpSpecialized(check, analysis))
    return check;
  const WgmmaAnalysis &wgmma = *analysis.wgmma;
  addValue(check, "global_loads", analysis.loopLoads);
  addValue(check, "overlapping_loads", wgmma.overlappingLoads);
  addAddress(check, "first_serial_load", analysis, wgmma.firstSerialLoad);
  addAddress(check, "consumer", analysis, wgmma.serialLoadConsumer);
  if (!analysis.firstLoad) {
    failNoLoad(check);
    return check;
  }
  check.status = wgmma.firstSerialLoad ? CheckResult::Fail : CheckResult::Pass;
  check.detail =
      (Twine(wgmma.overlappingLoads) + " of " + Twine(analysis.loopLoads) +
       " global loads overlap a wgmma group")
          .str();
  if (wgmma.firstSerialLoad)
    check.detail += "; " + addressOf(analysis, *wgmma.firstSerialLoad) +
                    " is consumed by " +
                    addressOf(analysis, *wgmma.serialLoadConsumer) +
                    " before the next HGMMA and issues after the last "
                    "group retired";
  if (baseline) {
    unsigned baseOverlap =
        baseline->wgmma ? baseline->wgmma->overlappingLoads : 0;
    addValue(check, "baseline_overlapping_loads", baseOverlap);
    check.detail += (" (baseline: " + Twine(baseOverlap) + " of " +
                     Twine(baseline->loopLoads) + ")")
                        .str();
  }
  return check;
}

CheckResult pk::sass::checkTmaInFlight(const KernelAnalysis &analysis,
                                       const CheckOptions &options) {
  CheckResult check{"tma_in_flight"};
  if (skipWarpSpecialized(check, analysis))
    return check;
  if (!analysis.loop) {
    check.detail = "no main loop";
    return check;
  }
  ArrayRef<Instruction> insts = analysis.kernel->insts;
  auto isTmaLoad = [](const Instruction &inst) {
    return inst.baseOpcode == "UTMALDG";
  };
  const Loop &loop = *analysis.loop;
  unsigned loads = llvm::count_if(
      insts.slice(loop.begin, loop.end - loop.begin + 1), isTmaLoad);
  if (loads == 0) {
    check.detail = "no TMA load (UTMALDG) in the main loop";
    return check;
  }
  unsigned ahead = llvm::count_if(insts.take_front(loop.begin), isTmaAnnounce);
  unsigned most = std::max(options.stages, 2u) - 1;
  unsigned least = std::max(most, 2u) - 1;
  addValue(check, "tma_loads_in_loop", loads);
  addValue(check, "tiles_announced_before_loop", ahead);
  addValue(check, "stages", options.stages);
  bool pass = ahead >= least && ahead <= most;
  check.status = pass ? CheckResult::Pass : CheckResult::Fail;
  check.detail =
      (Twine(ahead) +
       " tile(s) announced (SYNCS.ARRIVE.TRANS64) before the loop, " +
       Twine(loads) + " UTMALDG in it; --stages=" + Twine(options.stages) +
       " expects " + Twine(least) +
       (least == most ? "" : ".." + std::to_string(most)))
          .str();
  if (ahead == 0)
    check.detail += ": no tile is in flight when the loop starts, each TMA "
                    "load is awaited in its own iteration";
  return check;
}

/// The positions, in a warp-specialized kernel, of the handshake
/// checkWarpSpecialized looks for.
struct Handshake {
  /// Producer loop: its first UTMALDG, the first mbarrier wait and the
  /// first arrive (expect_tx) before it.
  std::optional<size_t> firstTma, emptyWait, announce;
  unsigned tmaLoads = 0;
  /// Consumer loop: the first wait before the first compute, the first
  /// WARPGROUP.DEPBAR after the last compute and the first arrive after
  /// it (after the last compute in a kernel without wgmma).
  std::optional<size_t> fullWait, retire, release;
};

static bool isMbarrierWait(const Instruction &inst) {
  return inst.baseOpcode == "SYNCS" &&
         StringRef(inst.opcode).contains("TRYWAIT");
}

static bool isMbarrierArrive(const Instruction &inst) {
  return StringRef(inst.opcode).starts_with("SYNCS.ARRIVE");
}

static Handshake findHandshake(const KernelAnalysis &analysis) {
  ArrayRef<Instruction> insts = analysis.kernel->insts;
  const Loop &producer = *analysis.producerLoop;
  Handshake found;
  for (size_t i = producer.begin; i <= producer.end; ++i) {
    if (insts[i].baseOpcode == "UTMALDG") {
      ++found.tmaLoads;
      if (!found.firstTma)
        found.firstTma = i;
    } else if (!found.firstTma && isMbarrierWait(insts[i]) &&
               !found.emptyWait) {
      found.emptyWait = i;
    } else if (!found.firstTma && isMbarrierArrive(insts[i]) &&
               !found.announce) {
      found.announce = i;
    }
  }
  const Loop &consumer = *analysis.loop;
  for (size_t i = consumer.begin; i < *analysis.firstCompute; ++i)
    if (isMbarrierWait(insts[i])) {
      found.fullWait = i;
      break;
    }
  for (size_t i = *analysis.lastCompute + 1; i <= consumer.end; ++i) {
    if (!found.retire && wgmmaWaitDepth(insts[i]))
      found.retire = i;
    if (isMbarrierArrive(insts[i]) && (found.retire || !analysis.wgmma)) {
      found.release = i;
      break;
    }
  }
  return found;
}

CheckResult pk::sass::checkWarpSpecialized(const KernelAnalysis &analysis) {
  CheckResult check{"warp_specialized"};
  if (!analysis.producerLoop || !analysis.firstCompute) {
    check.detail = "not warp-specialized: no loop issues TMA loads without "
                   "computing";
    return check;
  }
  Handshake found = findHandshake(analysis);
  auto at = [&](std::optional<size_t> index) {
    return index ? addressOf(analysis, *index) : std::string("none");
  };
  const Loop &producer = *analysis.producerLoop;
  addAddress(check, "producer_start", analysis, producer.begin);
  addAddress(check, "producer_branch", analysis, producer.end);
  addValue(check, "producer_tma_loads", found.tmaLoads);
  check.detail =
      "producer " + addressOf(analysis, producer.begin) + ".." +
      addressOf(analysis, producer.end) + ": wait " + at(found.emptyWait) +
      ", expect_tx " + at(found.announce) + ", " +
      std::to_string(found.tmaLoads) + " UTMALDG; consumers: wait " +
      at(found.fullWait) + " before the first compute, release " +
      at(found.release) +
      (analysis.wgmma ? " after WARPGROUP.DEPBAR " + at(found.retire) : "");
  const char *missing =
      !found.emptyWait  ? "the producer loads before waiting for a free stage"
      : !found.announce ? "the producer announces no bytes before its loads"
      : !found.fullWait ? "the consumers compute before waiting for a tile"
      : !found.release  ? "the consumers release no stage after computing"
                        : nullptr;
  check.status = missing ? CheckResult::Fail : CheckResult::Pass;
  if (missing)
    check.detail += std::string(": ") + missing;
  return check;
}

/// Fails `check` at the first write of `analysis` that no barrier separates
/// from its wgmma wait, or whose refill needs more than `stages` stages;
/// returns true when it did.
static bool failUnsafeWrite(CheckResult &check, const KernelAnalysis &analysis,
                            unsigned stages) {
  const WgmmaAnalysis &wgmma = *analysis.wgmma;
  for (const SharedWriteGuard &guard : wgmma.writes) {
    std::string write = analysis.kernel->insts[guard.write].baseOpcode + " " +
                        addressOf(analysis, guard.write);
    std::string wait = "WARPGROUP.DEPBAR " + addressOf(analysis, *guard.wait);
    if (!guard.barrier) {
      check.detail = "no BAR.SYNC between " + wait + " and the " + write +
                     ": another warp may refill the stage while this "
                     "warp's wgmma group still reads it";
    } else if (!guard.stagesNeeded && guard.depth > 0) {
      check.detail = (wait + " leaves " + Twine(guard.depth) +
                      " group(s) in flight at the " + write +
                      ", and which stage it refills is unknown (" +
                      Twine(wgmma.loopCommits) + " cp.async commits, " +
                      Twine(wgmma.loopGroups) + " wgmma groups per iteration)")
                         .str();
    } else if (guard.stagesNeeded && *guard.stagesNeeded > int64_t(stages)) {
      check.detail =
          (wait + " leaves " + Twine(guard.depth) +
           " group(s) in flight at the " + write +
           ": the stage it refills is still read unless there are " +
           Twine(*guard.stagesNeeded) + " stages, --stages=" + Twine(stages))
              .str();
    } else {
      continue;
    }
    check.status = CheckResult::Fail;
    return true;
  }
  return false;
}

CheckResult pk::sass::checkWgmmaStageSafety(const KernelAnalysis &analysis,
                                            const CheckOptions &options) {
  CheckResult check{"wgmma_stage_safety"};
  if (skipWithoutWgmma(check, analysis))
    return check;
  const WgmmaAnalysis &wgmma = *analysis.wgmma;
  std::optional<int64_t> needed;
  for (const SharedWriteGuard &guard : wgmma.writes)
    if (guard.stagesNeeded)
      needed = std::max(needed.value_or(0), *guard.stagesNeeded);
  addValue(check, "shared_writes", int64_t(wgmma.writes.size()));
  addValue(check, "wgmma_waits", int64_t(wgmma.waits.size()));
  addValue(check, "max_groups_in_flight", wgmma.maxDepth);
  addValue(check, "stages_needed",
           needed ? json::Value(*needed) : json::Value(nullptr));
  addValue(check, "stages", options.stages);
  if (wgmma.writes.empty()) {
    check.status = CheckResult::Pass;
    check.detail = "no shared write (STS/LDGSTS) in the loop";
    return check;
  }
  if (wgmma.waits.empty()) {
    check.status = CheckResult::Fail;
    check.detail = "no WARPGROUP.DEPBAR in the loop: no wgmma group retires "
                   "before the " +
                   describeWrites(analysis) + " refill its stages";
    return check;
  }
  if (failUnsafeWrite(check, analysis, options.stages))
    return check;
  const SharedWriteGuard &first = wgmma.writes.front();
  check.status = CheckResult::Pass;
  check.detail = describeWrites(analysis) + ", first " +
                 addressOf(analysis, first.write) + " after BAR.SYNC " +
                 addressOf(analysis, *first.barrier) + " after " +
                 analysis.kernel->insts[*first.wait].text() + " " +
                 addressOf(analysis, *first.wait) + "; at most " +
                 std::to_string(wgmma.maxDepth) + " group(s) in flight";
  if (needed)
    check.detail += ", the refills need " + std::to_string(*needed) +
                    " stage(s), --stages=" + std::to_string(options.stages);
  return check;
}

CheckResult pk::sass::checkProxyFence(const KernelAnalysis &analysis) {
  CheckResult check{"proxy_fence"};
  if (skipWithoutWgmma(check, analysis))
    return check;
  const WgmmaAnalysis &wgmma = *analysis.wgmma;
  addValue(check, "groups", int64_t(wgmma.groupStarts.size()));
  addAddress(check, "fence", analysis, wgmma.fence);
  addAddress(check, "unfenced_group", analysis, wgmma.unfencedGroup);
  addAddress(check, "unfenced_write", analysis, wgmma.unfencedWrite);
  if (wgmma.unfencedGroup) {
    check.status = CheckResult::Fail;
    check.detail = "no FENCE.VIEW.ASYNC.S between " +
                   analysis.kernel->insts[*wgmma.unfencedWrite].text() + " " +
                   addressOf(analysis, *wgmma.unfencedWrite) +
                   " and the HGMMA " +
                   addressOf(analysis, *wgmma.unfencedGroup) +
                   ": the wgmma may read the tile's generic-proxy writes "
                   "stale through the async proxy";
    return check;
  }
  check.status = CheckResult::Pass;
  if (!wgmma.fence) {
    check.detail = "no shared store or cp.async wait in the loop";
    return check;
  }
  check.detail =
      (Twine(wgmma.groupStarts.size()) + " wgmma group(s), first HGMMA " +
       addressOf(analysis, wgmma.groupStarts.front()) +
       " after FENCE.VIEW.ASYNC.S " + addressOf(analysis, *wgmma.fence) +
       (*wgmma.fence > wgmma.groupStarts.front() ? " (previous iteration)"
                                                 : "") +
       " after the last shared store or cp.async wait")
          .str();
  return check;
}
