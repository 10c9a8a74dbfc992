//===- SassAnalysis.cpp - Instruction classes and the main loop -----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Classifies the instructions of a kernel, finds its main loop (the backward
// branch enclosing the most compute) and measures what the checks read: the
// loop's loads, compute and barriers, the path from the first load to the
// next compute, and the compute outside the loop.
//
//===----------------------------------------------------------------------===//

#include "pk/Verification/SassCheck.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

using namespace llvm;
using namespace pk::sass;

//===----------------------------------------------------------------------===//
// Instruction classes
//===----------------------------------------------------------------------===//

bool pk::sass::isGlobalLoad(const Instruction &inst) {
  return inst.baseOpcode == "LDG" || inst.baseOpcode == "LDGSTS" ||
         inst.baseOpcode == "UTMALDG";
}

bool pk::sass::isMma(const Instruction &inst) {
  static constexpr StringLiteral mmaOpcodes[] = {
      "HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "IGMMA", "QGMMA", "BGMMA"};
  return is_contained(mmaOpcodes, StringRef(inst.baseOpcode));
}

bool pk::sass::isWarpgroupMma(const Instruction &inst) {
  static constexpr StringLiteral wgmmaOpcodes[] = {"HGMMA", "IGMMA", "QGMMA",
                                                   "BGMMA"};
  return is_contained(wgmmaOpcodes, StringRef(inst.baseOpcode));
}

bool pk::sass::isTmaAnnounce(const Instruction &inst) {
  return StringRef(inst.opcode).starts_with("SYNCS.ARRIVE.TRANS64");
}

/// The comma-separated operands of `inst`, trimmed.
static SmallVector<StringRef> splitOperands(const Instruction &inst) {
  SmallVector<StringRef> operands;
  StringRef(inst.operands).split(operands, ',');
  for (StringRef &operand : operands)
    operand = operand.trim();
  return operands;
}

bool pk::sass::closesWgmmaGroup(const Instruction &inst) {
  return isWarpgroupMma(inst) && is_contained(splitOperands(inst), "gsb0");
}

/// N of `<opcode> <scoreboard>, 0xN`; std::nullopt unless `inst` has exactly
/// that opcode and scoreboard.
static std::optional<unsigned> scoreboardWaitDepth(const Instruction &inst,
                                                   StringRef opcode,
                                                   StringRef scoreboard) {
  if (inst.opcode != opcode)
    return std::nullopt;
  SmallVector<StringRef> operands = splitOperands(inst);
  unsigned depth = 0;
  if (operands.size() != 2 || operands[0] != scoreboard ||
      operands[1].getAsInteger(0, depth))
    return std::nullopt;
  return depth;
}

std::optional<unsigned> pk::sass::wgmmaWaitDepth(const Instruction &inst) {
  return scoreboardWaitDepth(inst, "WARPGROUP.DEPBAR.LE", "gsb0");
}

std::optional<unsigned> pk::sass::cpAsyncWaitDepth(const Instruction &inst) {
  return scoreboardWaitDepth(inst, "DEPBAR.LE", "SB0");
}

bool pk::sass::isProxyFence(const Instruction &inst) {
  return StringRef(inst.opcode).starts_with("FENCE.VIEW.ASYNC");
}

bool pk::sass::isFfma(const Instruction &inst) {
  return StringRef(inst.baseOpcode).starts_with("FFMA");
}

bool pk::sass::isFloatArith(const Instruction &inst) {
  static constexpr StringLiteral floatOpcodes[] = {"FFMA",  "FADD",  "FMUL",
                                                   "HADD2", "HMUL2", "HFMA2"};
  return is_contained(floatOpcodes, StringRef(inst.baseOpcode));
}

bool pk::sass::isSharedRead(const Instruction &inst) {
  return inst.baseOpcode == "LDS" || inst.baseOpcode == "LDSM";
}

bool pk::sass::isBarrier(const Instruction &inst) {
  return StringRef(inst.opcode).starts_with("BAR.SYNC");
}

bool pk::sass::isAsyncSync(const Instruction &inst) {
  return inst.baseOpcode == "DEPBAR" || inst.baseOpcode == "LDGDEPBAR" ||
         inst.baseOpcode == "ARRIVES" || inst.baseOpcode == "SYNCS";
}

bool pk::sass::isSpill(const Instruction &inst) {
  return inst.baseOpcode == "STL" || inst.baseOpcode == "LDL";
}

bool pk::sass::isBackwardBranch(const Instruction &inst) {
  return inst.branchTarget && *inst.branchTarget <= inst.address;
}

std::optional<uint64_t> pk::sass::globalLoadBytes(const Instruction &inst) {
  if (inst.baseOpcode == "UTMALDG")
    return std::nullopt;
  return accessBytes(inst);
}

uint64_t pk::sass::accessBytes(const Instruction &inst) {
  SmallVector<StringRef> modifiers;
  StringRef(inst.opcode).split(modifiers, '.');
  for (StringRef modifier : modifiers) {
    if (modifier == "128")
      return 16;
    if (modifier == "64")
      return 8;
    if (modifier == "U16" || modifier == "S16")
      return 2;
    if (modifier == "U8" || modifier == "S8")
      return 1;
  }
  return 4;
}

/// True when `inst` is compute in a kernel whose compute is `kind`.
static bool isCompute(const Instruction &inst, ComputeKind kind) {
  switch (kind) {
  case ComputeKind::Mma:
    return isMma(inst);
  case ComputeKind::Ffma:
    return isFfma(inst);
  case ComputeKind::FloatArith:
    return isFloatArith(inst);
  }
  llvm_unreachable("unknown compute kind");
}

InstClass pk::sass::classifyInstruction(const Instruction &inst,
                                        ComputeKind kind) {
  if (isGlobalLoad(inst))
    return InstClass::GlobalLoad;
  if (isCompute(inst, kind))
    return InstClass::Compute;
  if (isBarrier(inst))
    return InstClass::Barrier;
  if (isAsyncSync(inst))
    return InstClass::AsyncSync;
  if (inst.baseOpcode == "STS")
    return InstClass::SharedStore;
  if (isSpill(inst))
    return InstClass::Spill;
  if (isBackwardBranch(inst))
    return InstClass::BackwardBranch;
  if (inst.baseOpcode == "WARPGROUP")
    return InstClass::WgmmaSync;
  if (isProxyFence(inst))
    return InstClass::ProxyFence;
  return InstClass::Other;
}

//===----------------------------------------------------------------------===//
// Kernel analysis
//===----------------------------------------------------------------------===//

/// Counts `classes[i] == cls` for i in [begin, end).
static unsigned countClass(ArrayRef<InstClass> classes, size_t begin,
                           size_t end, InstClass cls) {
  return llvm::count(classes.slice(begin, end - begin), cls);
}

/// Fills the classes and the whole-kernel counts of `result`.
static void classifyKernel(KernelAnalysis &result) {
  const std::vector<Instruction> &insts = result.kernel->insts;
  result.computeKind = llvm::any_of(insts, isMma)    ? ComputeKind::Mma
                       : llvm::any_of(insts, isFfma) ? ComputeKind::Ffma
                                                     : ComputeKind::FloatArith;
  for (const Instruction &inst : insts) {
    result.classes.push_back(classifyInstruction(inst, result.computeKind));
    if (inst.baseOpcode == "STL")
      ++result.stlCount;
    if (inst.baseOpcode == "LDL")
      ++result.ldlCount;
  }
  result.totalCompute =
      countClass(result.classes, 0, result.classes.size(), InstClass::Compute);
}

/// The loop that ends at the backward branch `end`.
static Loop makeLoop(const KernelAnalysis &result, size_t end) {
  const std::vector<Instruction> &insts = result.kernel->insts;
  uint64_t target = *insts[end].branchTarget;
  size_t begin = llvm::partition_point(insts,
                                       [&](const Instruction &inst) {
                                         return inst.address < target;
                                       }) -
                 insts.begin();
  return Loop{begin, end,
              countClass(result.classes, begin, end + 1, InstClass::Compute)};
}

/// Whether the backward branch `end` closes a loop of the kernel's code, not
/// (a) the jump back of an out-of-line block that ptxas puts after the
/// kernel's (unguarded) EXIT (an mbarrier wait's retry path, which returns
/// into the middle of the loop it came from) or (b) a `BRA.U.ANY` loop, which
/// makes one instruction's operand uniform (UTMALDG's coordinates).
static bool closesLoop(const KernelAnalysis &result, size_t end) {
  const std::vector<Instruction> &insts = result.kernel->insts;
  if (!isBackwardBranch(insts[end]) ||
      StringRef(insts[end].opcode).contains(".U.ANY"))
    return false;
  Loop loop = makeLoop(result, end);
  return llvm::none_of(
      ArrayRef(insts).slice(loop.begin, loop.end - loop.begin + 1),
      [](const Instruction &inst) {
        return inst.baseOpcode == "EXIT" && inst.predicate.empty();
      });
}

/// Finds the main loop among the backward branches: the one enclosing the
/// most compute, the larger one on ties (an outer loop over an inner one).
/// Loops without compute are ignored.
static void findMainLoop(KernelAnalysis &result) {
  const std::vector<Instruction> &insts = result.kernel->insts;
  for (size_t i = 0, e = insts.size(); i < e; ++i) {
    if (!closesLoop(result, i))
      continue;
    ++result.backwardBranches;
    Loop loop = makeLoop(result, i);
    if (loop.compute == 0)
      continue;
    if (!result.loop || loop.compute > result.loop->compute ||
        (loop.compute == result.loop->compute &&
         loop.end - loop.begin > result.loop->end - result.loop->begin))
      result.loop = loop;
  }
}

/// Collects the outermost loops with compute that lie outside the main loop
/// (a versioned pipeline's fallback: the original loop).
static void findOtherComputeLoops(KernelAnalysis &result) {
  const std::vector<Instruction> &insts = result.kernel->insts;
  const Loop &main = *result.loop;
  auto disjoint = [](const Loop &a, const Loop &b) {
    return a.end < b.begin || b.end < a.begin;
  };
  SmallVector<Loop> loops;
  for (size_t i = 0, e = insts.size(); i < e; ++i)
    if (closesLoop(result, i)) {
      Loop loop = makeLoop(result, i);
      if (loop.compute != 0 && disjoint(loop, main))
        loops.push_back(loop);
    }
  // Outermost first, then drop the loops nested in one kept.
  llvm::stable_sort(loops, [](const Loop &a, const Loop &b) {
    return a.end - a.begin > b.end - b.begin;
  });
  for (const Loop &loop : loops)
    if (llvm::all_of(result.otherComputeLoops,
                     [&](const Loop &kept) { return disjoint(loop, kept); }))
      result.otherComputeLoops.push_back(loop);
  llvm::sort(result.otherComputeLoops,
             [](const Loop &a, const Loop &b) { return a.begin < b.begin; });
}

/// Recognizes a warp-specialized kernel: a loop that issues TMA loads and
/// computes nothing, and a disjoint loop that computes and loads nothing
/// (the consumers'; the most compute, the smallest on ties). The main loop
/// findMainLoop chose may span both through the out-of-line retry paths of
/// the mbarrier waits, which branch back into the consumers' loop.
static void findWarpSpecializedLoops(KernelAnalysis &result) {
  const std::vector<Instruction> &insts = result.kernel->insts;
  std::optional<Loop> producer, consumer;
  auto span = [](const Loop &loop) { return loop.end - loop.begin; };
  for (size_t i = 0, e = insts.size(); i < e; ++i) {
    if (!closesLoop(result, i))
      continue;
    Loop loop = makeLoop(result, i);
    auto body = ArrayRef(insts).slice(loop.begin, loop.end - loop.begin + 1);
    bool tma = llvm::any_of(body, [](const Instruction &inst) {
      return inst.baseOpcode == "UTMALDG";
    });
    unsigned loads = countClass(result.classes, loop.begin, loop.end + 1,
                                InstClass::GlobalLoad);
    if (tma && loop.compute == 0 && (!producer || span(loop) < span(*producer)))
      producer = loop;
    if (loads == 0 && loop.compute > 0 &&
        (!consumer || loop.compute > consumer->compute ||
         (loop.compute == consumer->compute && span(loop) < span(*consumer))))
      consumer = loop;
  }
  if (!producer || !consumer ||
      !(producer->end < consumer->begin || consumer->end < producer->begin))
    return;
  result.producerLoop = producer;
  result.loop = consumer;
}

/// Counts the loads, compute, barriers and syncs of the main loop and finds
/// its first load and first and last compute.
static void measureLoopBody(KernelAnalysis &result) {
  const std::vector<Instruction> &insts = result.kernel->insts;
  const Loop &loop = *result.loop;
  result.loopInstructions = loop.end - loop.begin + 1;
  std::optional<size_t> firstAsyncCopy;
  for (size_t i = loop.begin; i <= loop.end; ++i) {
    if (isSharedRead(insts[i]))
      result.lastSharedRead = i;
    switch (result.classes[i]) {
    case InstClass::GlobalLoad: {
      ++result.loopLoads;
      if (!result.firstLoad)
        result.firstLoad = i;
      if (!firstAsyncCopy && insts[i].baseOpcode == "LDGSTS")
        firstAsyncCopy = i;
      std::optional<uint64_t> bytes = globalLoadBytes(insts[i]);
      if (result.loopLoadBytes && bytes)
        *result.loopLoadBytes += *bytes;
      else
        result.loopLoadBytes = std::nullopt;
      break;
    }
    case InstClass::Compute:
      ++result.loopCompute;
      if (result.firstLoad)
        ++result.computeAfterFirstLoad;
      ++result.loopComputeOpcodes[insts[i].opcode];
      if (!result.firstCompute)
        result.firstCompute = i;
      result.lastCompute = i;
      break;
    case InstClass::Barrier:
      ++result.loopBarriers;
      break;
    case InstClass::AsyncSync:
      ++result.loopAsyncSyncs;
      break;
    default:
      break;
    }
  }
  // The cp.async copies are the pipelined loads; LDGs before them feed the
  // compute directly (streams) and overlap nothing by design.
  if (firstAsyncCopy && *firstAsyncCopy != *result.firstLoad) {
    result.firstLoad = firstAsyncCopy;
    result.firstLoadSkipsStreams = true;
    result.computeAfterFirstLoad = countClass(result.classes, *firstAsyncCopy,
                                              loop.end + 1, InstClass::Compute);
  }
  result.computeBeforeLoop =
      countClass(result.classes, 0, loop.begin, InstClass::Compute);
  result.computeAfterLoop = countClass(
      result.classes, loop.end + 1, result.classes.size(), InstClass::Compute);
}

/// Walks from the first load to the next compute, around the back edge if
/// needed, counting the barriers on the way.
static void traceLoadToCompute(KernelAnalysis &result) {
  if (!result.firstLoad)
    return;
  const Loop &loop = *result.loop;
  size_t length = result.loopInstructions;
  size_t offset = *result.firstLoad - loop.begin;
  for (size_t step = 1; step <= length; ++step) {
    size_t i = loop.begin + (offset + step) % length;
    if (result.classes[i] == InstClass::Compute) {
      result.computeAfterLoad = i;
      result.computeAfterLoadWraps = i < *result.firstLoad;
      return;
    }
    if (result.classes[i] == InstClass::Barrier) {
      if (!result.firstBarrierBetween)
        result.firstBarrierBetween = i;
      ++result.barriersBetweenLoadAndCompute;
    }
  }
}

/// Finds the first barrier after instruction `last` of the loop: before the
/// backward branch or, in the multistage order, at the top of the loop
/// before the next tile's loads (reached through the back edge).
static void findBarrierAfter(KernelAnalysis &result, size_t last) {
  const Loop &loop = *result.loop;
  for (size_t i = last + 1; i < loop.end; ++i) {
    if (result.classes[i] == InstClass::Barrier) {
      result.barrierAfterCompute = i;
      return;
    }
  }
  // The multistage order synchronizes at the top of the iteration: the
  // barrier before the next tile's loads follows this tile's compute across
  // the back edge.
  if (!result.firstLoad || *result.firstCompute < *result.firstLoad)
    return;
  for (size_t i = loop.begin; i < *result.firstLoad; ++i) {
    if (result.classes[i] == InstClass::Barrier) {
      result.barrierAfterCompute = i;
      result.barrierAfterComputeWraps = true;
      return;
    }
  }
}

/// The barrier after the last compute (findBarrierAfter); failing that, in a
/// kernel whose compute is not MMA, the barrier after the last shared read:
/// what a barrier must order before the next tile's stores is the reads of
/// shared memory, and ptxas may sink register-only FFMA/FADD below it.
static void findBarrierAfterCompute(KernelAnalysis &result) {
  if (!result.lastCompute)
    return;
  findBarrierAfter(result, *result.lastCompute);
  if (result.barrierAfterCompute || result.computeIsMma() ||
      !result.lastSharedRead || *result.lastSharedRead > *result.lastCompute)
    return;
  findBarrierAfter(result, *result.lastSharedRead);
  result.barrierAfterSharedRead = result.barrierAfterCompute.has_value();
}

KernelAnalysis pk::sass::analyzeKernel(const Kernel &kernel) {
  KernelAnalysis result;
  result.kernel = &kernel;
  classifyKernel(result);
  findMainLoop(result);
  if (!result.loop)
    return result;
  findWarpSpecializedLoops(result);
  findOtherComputeLoops(result);
  measureLoopBody(result);
  traceLoadToCompute(result);
  findBarrierAfterCompute(result);
  analyzeWgmma(result);
  return result;
}

const KernelAnalysis *
pk::sass::matchBaseline(const Kernel &kernel,
                        ArrayRef<KernelAnalysis> baselines) {
  for (const KernelAnalysis &base : baselines)
    if (base.kernel->name == kernel.name && base.kernel->arch == kernel.arch)
      return &base;
  for (const KernelAnalysis &base : baselines)
    if (base.kernel->name == kernel.name)
      return &base;
  if (baselines.size() == 1)
    return &baselines.front();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Addresses
//===----------------------------------------------------------------------===//

std::string pk::sass::formatAddress(uint64_t address) {
  std::string result;
  raw_string_ostream os(result);
  os << "/*" << format_hex_no_prefix(address, 4) << "*/";
  return result;
}

std::string pk::sass::formatJsonAddress(uint64_t address) {
  std::string result;
  raw_string_ostream os(result);
  os << format_hex(address, 6);
  return result;
}

json::Value pk::sass::jsonAddressOf(const KernelAnalysis &analysis,
                                    std::optional<size_t> index) {
  if (!index)
    return nullptr;
  return formatJsonAddress(analysis.kernel->insts[*index].address);
}
