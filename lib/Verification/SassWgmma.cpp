//===- SassWgmma.cpp - The warpgroup MMA protocol of the main loop --------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Measures, in a main loop with sm_90 warpgroup MMAs, what the wgmma checks
// read (SassChecks.cpp: wgmma_overlap, wgmma_stage_safety, proxy_fence).
//
// The protocol in SASS (ptxas 13, pk's wgmma kernels):
//
//   DEPBAR.LE SB0, 0x1              cp.async.wait_group 1 (cp.async only)
//   MEMBAR.ALL.CTA
//   FENCE.VIEW.ASYNC.S              fence.proxy.async.shared::cta
//   BAR.SYNC.DEFER_BLOCKING 0x0     bar.sync
//   LDGSTS ... / STS ...            the refill of a stage
//   LDGDEPBAR                       cp.async.commit_group
//   WARPGROUP.ARRIVE                wgmma.fence
//   HGMMA.64x128x16.F32 ...         wgmma.mma_async
//   HGMMA.64x128x16.F32 ..., gsb0   the last one: wgmma.commit_group
//   WARPGROUP.DEPBAR.LE gsb0, 0x0   wgmma.wait_group 0
//
// A group's HGMMAs read their shared stage asynchronously until a
// WARPGROUP.DEPBAR.LE gsb0, N retires the group; N groups may stay in
// flight. A refill is safe when a BAR.SYNC lies between that wait (in every
// warp) and the write, and the stage it overwrites was last read by a
// retired group.
//
// Which stage a write refills is not in the SASS; it follows from counting.
// Group g (the g-th closed in the kernel) reads tile g. The tiles are copied
// in order, one cp.async group per tile, so the LDGSTS before the c-th
// LDGDEPBAR copies tile c, into the stage of tile c - S (S stages), last
// read by group c - S. An STS stores the tile the next group reads (the
// register variants hold one tile in registers, which counts as one stage:
// register-prefetch has 2 stages and 1 shared buffer, so ldg-register's
// second buffer is not credited and such a loop passes with no group in
// flight only). The loop closes U groups
// and, for cp.async, U commits per iteration; the prologue commits P_c
// tiles and closes P_g groups. A wait with N in flight that follows the
// closing of group G retires every group before G - N + 1, so a write of
// tile t needs S >= t - (G - N), measured in one iteration's frame
// (stagesNeeded).
//
//===----------------------------------------------------------------------===//

#include "pk/Verification/SassCheck.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;
using namespace pk::sass;

namespace {

/// A register range [first, first + count), the registers one access moves.
struct RegisterRange {
  unsigned first = 0;
  unsigned count = 1;

  bool overlaps(const RegisterRange &other) const {
    return first < other.first + other.count && other.first < first + count;
  }
};

/// Steps through the main loop cyclically: from the backward branch to the
/// loop's first instruction and back.
struct LoopWalk {
  const KernelAnalysis &analysis;
  size_t begin;
  size_t length;

  explicit LoopWalk(const KernelAnalysis &analysis)
      : analysis(analysis), begin(analysis.loop->begin),
        length(analysis.loop->end - analysis.loop->begin + 1) {}

  /// The instruction `step` (1 .. length) positions after `from`, forward
  /// or, with `backward`, before it.
  size_t at(size_t from, size_t step, bool backward = false) const {
    size_t offset = from - begin;
    size_t moved = backward ? offset + length - step % length : offset + step;
    return begin + moved % length;
  }

  const Instruction &inst(size_t index) const {
    return analysis.kernel->insts[index];
  }
};

} // namespace

/// The number of `Rn`; std::nullopt for RZ, uniform registers and others.
static std::optional<unsigned> registerNumber(StringRef operand) {
  unsigned number = 0;
  if (!operand.consume_front("R") || operand.getAsInteger(10, number))
    return std::nullopt;
  return number;
}

/// The registers `operand` of `inst` occupies, from its access width.
static std::optional<RegisterRange> accessRegisters(const Instruction &inst,
                                                    StringRef operand) {
  std::optional<unsigned> first = registerNumber(operand.trim());
  if (!first)
    return std::nullopt;
  return RegisterRange{*first,
                       unsigned(std::max<uint64_t>(accessBytes(inst) / 4, 1))};
}

/// The destination registers of an LDG (its first operand).
static std::optional<RegisterRange> loadDestination(const Instruction &inst) {
  return accessRegisters(inst, StringRef(inst.operands).split(',').first);
}

/// The data registers of an STS (its last operand).
static std::optional<RegisterRange> storeSource(const Instruction &inst) {
  return accessRegisters(inst, StringRef(inst.operands).rsplit(',').second);
}

/// Counts the instructions of [begin, end) satisfying `pred`.
template <typename Pred>
static unsigned countInsts(const KernelAnalysis &analysis, size_t begin,
                           size_t end, Pred pred) {
  ArrayRef<Instruction> insts = analysis.kernel->insts;
  return llvm::count_if(insts.slice(begin, end - begin), pred);
}

static bool isCpAsyncCommit(const Instruction &inst) {
  return inst.baseOpcode == "LDGDEPBAR";
}

//===----------------------------------------------------------------------===//
// Overlap of the global loads with the wgmma groups
//===----------------------------------------------------------------------===//

/// True when a wgmma group is in flight when `load` issues: walking back, a
/// warpgroup MMA comes before a WARPGROUP.DEPBAR.LE gsb0, 0x0; a wait that
/// leaves N >= 1 groups in flight keeps the last one running.
static bool groupInFlightAt(const LoopWalk &walk, size_t load) {
  for (size_t step = 1; step <= walk.length; ++step) {
    const Instruction &inst = walk.inst(walk.at(load, step, /*backward=*/true));
    if (isWarpgroupMma(inst))
      return true;
    if (std::optional<unsigned> depth = wgmmaWaitDepth(inst))
      return *depth > 0;
  }
  return false;
}

/// Walks forward from `load` to the first warpgroup MMA. Returns the
/// instruction that consumes the load's data before it, std::nullopt when
/// there is none: the STS of an LDG's registers, or the cp.async wait
/// (DEPBAR.LE SB0, N) that retires an LDGSTS's group, i.e. that follows its
/// commit and at least N later commits.
static std::optional<size_t> consumerBeforeGroup(const LoopWalk &walk,
                                                 size_t load) {
  const Instruction &loadInst = walk.inst(load);
  bool copy = loadInst.baseOpcode == "LDGSTS";
  std::optional<RegisterRange> dest =
      copy ? std::nullopt : loadDestination(loadInst);
  bool committed = false;
  unsigned laterCommits = 0;
  for (size_t step = 1; step <= walk.length; ++step) {
    size_t index = walk.at(load, step);
    const Instruction &inst = walk.inst(index);
    if (isWarpgroupMma(inst))
      return std::nullopt;
    if (copy && isCpAsyncCommit(inst)) {
      laterCommits += committed;
      committed = true;
    }
    std::optional<unsigned> depth = cpAsyncWaitDepth(inst);
    if (copy && depth && committed && laterCommits >= *depth)
      return index;
    std::optional<RegisterRange> data;
    if (dest && inst.baseOpcode == "STS")
      data = storeSource(inst);
    if (data && data->overlaps(*dest))
      return index;
  }
  return std::nullopt;
}

/// Fills the wgmma_overlap numbers of `wgmma`.
static void measureOverlap(const KernelAnalysis &analysis,
                           WgmmaAnalysis &wgmma) {
  LoopWalk walk(analysis);
  for (size_t i = analysis.loop->begin; i <= analysis.loop->end; ++i) {
    if (analysis.classes[i] != InstClass::GlobalLoad)
      continue;
    std::optional<size_t> consumer;
    bool overlaps = groupInFlightAt(walk, i);
    if (!overlaps) {
      consumer = consumerBeforeGroup(walk, i);
      overlaps = !consumer;
    }
    if (overlaps) {
      ++wgmma.overlappingLoads;
    } else if (!wgmma.firstSerialLoad) {
      wgmma.firstSerialLoad = i;
      wgmma.serialLoadConsumer = consumer;
    }
  }
}

//===----------------------------------------------------------------------===//
// Stage safety of the shared writes
//===----------------------------------------------------------------------===//

/// The groups closed in the loop from its first instruction up to `index`.
static int64_t groupsBefore(const KernelAnalysis &analysis, size_t index) {
  return countInsts(analysis, analysis.loop->begin, index, closesWgmmaGroup);
}

/// The stages the write `guard.write` needs (see the file comment): tile
/// written minus the last group `guard.wait` leaves in flight, plus one.
static std::optional<int64_t> stagesNeeded(const LoopWalk &walk,
                                           const WgmmaAnalysis &wgmma,
                                           const SharedWriteGuard &guard) {
  const KernelAnalysis &analysis = walk.analysis;
  int64_t perIteration = wgmma.loopGroups;
  if (perIteration == 0 || !guard.wait)
    return std::nullopt;
  // The wait's group, in the write's iteration frame.
  int64_t waitWraps = *guard.wait > guard.write ? perIteration : 0;
  int64_t lastRetiring = groupsBefore(analysis, *guard.wait) - waitWraps - 1;
  int64_t tile = 0;
  if (walk.inst(guard.write).baseOpcode == "LDGSTS") {
    if (!wgmma.copyDistance)
      return std::nullopt;
    tile = *wgmma.copyDistance + countInsts(analysis, analysis.loop->begin,
                                            guard.write, isCpAsyncCommit);
  } else {
    // The tile of an STS is the one the next group reads.
    size_t step = 1;
    while (!closesWgmmaGroup(walk.inst(walk.at(guard.write, step))))
      ++step;
    size_t next = walk.at(guard.write, step);
    tile =
        groupsBefore(analysis, next) + (next < guard.write ? perIteration : 0);
    // The registers hold one more tile: pipeline stages = shared buffers + 1
    // (register-prefetch: 2 stages, 1 buffer).
    ++tile;
  }
  return tile - (lastRetiring - int64_t(guard.depth));
}

/// The guard of the shared write `write`: the last wgmma wait before it and
/// the first barrier between them.
static SharedWriteGuard guardWrite(const LoopWalk &walk,
                                   const WgmmaAnalysis &wgmma, size_t write) {
  SharedWriteGuard guard;
  guard.write = write;
  size_t step = 1;
  for (; step <= walk.length; ++step) {
    size_t index = walk.at(write, step, /*backward=*/true);
    if (std::optional<unsigned> depth = wgmmaWaitDepth(walk.inst(index))) {
      guard.wait = index;
      guard.depth = *depth;
      break;
    }
  }
  if (!guard.wait)
    return guard;
  for (size_t back = step - 1; back >= 1; --back) {
    size_t index = walk.at(write, back, /*backward=*/true);
    if (isBarrier(walk.inst(index))) {
      guard.barrier = index;
      break;
    }
  }
  guard.stagesNeeded = stagesNeeded(walk, wgmma, guard);
  return guard;
}

//===----------------------------------------------------------------------===//
// Proxy fences
//===----------------------------------------------------------------------===//

/// True for what a proxy fence must follow before a wgmma reads shared
/// memory: a generic-proxy store (STS) or the cp.async wait that completes
/// copies (their writes are generic-proxy writes too).
static bool needsProxyFence(const Instruction &inst) {
  return inst.baseOpcode == "STS" || cpAsyncWaitDepth(inst).has_value();
}

/// Fills the group starts and the proxy_fence numbers of `wgmma`.
static void measureProxyFences(const KernelAnalysis &analysis,
                               WgmmaAnalysis &wgmma) {
  LoopWalk walk(analysis);
  const Loop &loop = *analysis.loop;
  // Around the back edge: the loop's first group starts after its last
  // closing HGMMA.
  bool afterClose = true;
  for (size_t i = loop.begin; i <= loop.end; ++i) {
    const Instruction &inst = walk.inst(i);
    if (!isWarpgroupMma(inst))
      continue;
    if (afterClose)
      wgmma.groupStarts.push_back(i);
    afterClose = closesWgmmaGroup(inst);
  }
  for (size_t start : wgmma.groupStarts) {
    for (size_t step = 1; step <= walk.length; ++step) {
      size_t index = walk.at(start, step, /*backward=*/true);
      const Instruction &inst = walk.inst(index);
      if (isProxyFence(inst)) {
        if (start == wgmma.groupStarts.front())
          wgmma.fence = index;
        break;
      }
      if (needsProxyFence(inst)) {
        if (!wgmma.unfencedGroup) {
          wgmma.unfencedGroup = start;
          wgmma.unfencedWrite = index;
        }
        break;
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

void pk::sass::analyzeWgmma(KernelAnalysis &analysis) {
  if (!analysis.loop)
    return;
  const Loop &loop = *analysis.loop;
  WgmmaAnalysis wgmma;
  wgmma.loopMmas =
      countInsts(analysis, loop.begin, loop.end + 1, isWarpgroupMma);
  if (wgmma.loopMmas == 0)
    return;
  wgmma.loopGroups =
      countInsts(analysis, loop.begin, loop.end + 1, closesWgmmaGroup);
  wgmma.groupsBeforeLoop =
      countInsts(analysis, 0, loop.begin, closesWgmmaGroup);
  wgmma.loopCommits =
      countInsts(analysis, loop.begin, loop.end + 1, isCpAsyncCommit);
  wgmma.commitsBeforeLoop =
      countInsts(analysis, 0, loop.begin, isCpAsyncCommit);
  if (wgmma.loopGroups > 0 && wgmma.loopCommits == wgmma.loopGroups)
    wgmma.copyDistance =
        int64_t(wgmma.commitsBeforeLoop) - int64_t(wgmma.groupsBeforeLoop);
  // A TMA loop: its prologue announced the tiles its loads run ahead.
  if (wgmma.loopCommits == 0 &&
      countInsts(analysis, loop.begin, loop.end + 1, isTmaAnnounce) > 0)
    wgmma.copyDistance = countInsts(analysis, 0, loop.begin, isTmaAnnounce);
  LoopWalk walk(analysis);
  for (size_t i = loop.begin; i <= loop.end; ++i) {
    const Instruction &inst = walk.inst(i);
    if (std::optional<unsigned> depth = wgmmaWaitDepth(inst)) {
      wgmma.waits.push_back(i);
      wgmma.maxDepth = std::max(wgmma.maxDepth, *depth);
    }
    if (inst.baseOpcode == "STS" || inst.baseOpcode == "LDGSTS")
      wgmma.writes.push_back(guardWrite(walk, wgmma, i));
  }
  measureOverlap(analysis, wgmma);
  measureProxyFences(analysis, wgmma);
  analysis.wgmma = std::move(wgmma);
}
