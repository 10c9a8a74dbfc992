//===- SassCheck.h - Load/compute overlap checks on SASS --------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The PKVerification library: verifies on the SASS of a compiled kernel that
// the global loads of the next tile are issued before, and overlap, the
// tensor-core (HMMA/IMMA/...) or FFMA compute of the current tile in the
// kernel's main loop. pk-sass-check is a command line around it.
//
// The stages, one file each under lib/Verification/:
//
//   SassParser.cpp   SASS text (`cuobjdump -sass`) and resource usage
//                    (`cuobjdump -res-usage`) into Kernels; finding and
//                    running cuobjdump (loadKernels).
//   SassAnalysis.cpp instruction classes, the main loop and the numbers the
//                    checks read (analyzeKernel -> KernelAnalysis).
//   SassChecks.cpp   one function per check, each returning a CheckResult;
//                    checkKernel runs them all.
//   SassWgmma.cpp    the sm_90 warpgroup MMA protocol (HGMMA groups, their
//                    waits, the proxy fence) and its three checks.
//   SassReport.cpp   the annotated loop excerpt, the PASS/FAIL table and the
//                    JSON report.
//
// Typical use:
//
//   std::vector<Kernel> kernels = parseSass(text);
//   KernelReport report = checkKernel(kernels.front(), /*baseline=*/nullptr);
//   if (!report.passed())
//     printKernelReport(llvm::errs(), report);
//
// The library depends on LLVM Support only.
//
//===----------------------------------------------------------------------===//

#ifndef PK_VERIFICATION_SASSCHECK_H
#define PK_VERIFICATION_SASSCHECK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pk {
namespace sass {

//===----------------------------------------------------------------------===//
// SASS model
//===----------------------------------------------------------------------===//

/// One SASS instruction: `/*0750*/ @!P0 BRA 0x750 ;`.
struct Instruction {
  /// The address in the `/*0750*/` comment.
  uint64_t address = 0;
  /// The guard predicate with its `@`, e.g. `@!P0`; empty when unguarded.
  std::string predicate;
  /// The full opcode with modifiers, e.g. `LDGSTS.E.BYPASS.128`.
  std::string opcode;
  /// The opcode up to the first `.`, e.g. `LDGSTS`.
  std::string baseOpcode;
  /// The operands as disassembled, e.g. `[R123], [R8.64]`.
  std::string operands;
  /// The branch target of a BRA, when it names an address.
  std::optional<uint64_t> branchTarget;

  /// The instruction as disassembled, without the trailing `;`.
  std::string text() const;
};

/// Resource usage of one function from `cuobjdump -res-usage`; -1 when the
/// field is missing.
struct Resources {
  /// Registers per thread (`REG`).
  int64_t reg = -1;
  /// Stack frame bytes (`STACK`).
  int64_t stack = -1;
  /// Static shared memory bytes (`SHARED`).
  int64_t shared = -1;
  /// Local memory bytes per thread (`LOCAL`).
  int64_t local = -1;
};

/// One kernel of the disassembly (one `Function :` section).
struct Kernel {
  /// The name after `Function :`.
  std::string name;
  /// The `code for sm_XX` section the kernel came from (`sm_86`).
  std::string arch;
  /// The instructions in address order.
  std::vector<Instruction> insts;
  /// The kernel's entry of `cuobjdump -res-usage`, when there is one.
  std::optional<Resources> resources;
  /// True when `cuobjdump -res-usage` was read for the kernel's input (a
  /// cubin), even if it had no entry for the kernel; false for SASS text.
  bool resourceUsageRead = false;
};

//===----------------------------------------------------------------------===//
// Parsing and cuobjdump (SassParser.cpp)
//===----------------------------------------------------------------------===//

/// Parses one instruction line, `/*0750*/ @!P0 BRA 0x750 ;  /* 0x... */`.
/// Returns std::nullopt for any other line (headers, encoding-only lines).
std::optional<Instruction> parseInstructionLine(llvm::StringRef line);

/// Parses the output of `cuobjdump -sass`: `code for sm_XX` sections holding
/// `Function : name` kernels. Lines before the first `Function :` and lines
/// that are not instructions are ignored.
std::vector<Kernel> parseSass(llvm::StringRef text);

/// Parses `cuobjdump -res-usage`: ` Function NAME:` followed by
/// `  REG:126 STACK:0 SHARED:40960 LOCAL:0 ...`. Maps each function name to
/// its resources.
llvm::StringMap<Resources> parseResourceUsage(llvm::StringRef text);

/// Finds cuobjdump: `explicitPath` (the --cuobjdump option) when it is not
/// empty, else $CUOBJDUMP, else PATH, else the PyPI package
/// nvidia-cuda-cuobjdump located with python3. The error names every place
/// that was tried.
llvm::Expected<std::string> findCuobjdump(llvm::StringRef explicitPath);

/// Lets `cuobjdump -sass` find nvdisasm: sets NVDISASM_PATH to the directory
/// of `cuobjdump` when that directory holds nvdisasm and the variable is
/// unset.
void exportNvdisasmPath(llvm::StringRef cuobjdump);

/// How loadKernels reads its inputs.
struct LoadOptions {
  /// The inputs are SASS text (the output of `cuobjdump -sass`), not cubins:
  /// cuobjdump is not run and no resource usage is read.
  bool sassInput = false;
  /// The cuobjdump to run; empty to search for one (see findCuobjdump).
  std::string cuobjdumpPath;
};

/// Reads the kernels of the file at `path`: SASS text with
/// `options.sassInput`, else a cubin (ELF or fatbin) disassembled with
/// `cuobjdump -sass` and annotated with `cuobjdump -res-usage`.
///
/// `cuobjdump` caches the cuobjdump found by the first call that needs one
/// (findCuobjdump, then exportNvdisasmPath); pass the same variable for
/// every input. Fails, with a message naming what is missing, when the file
/// cannot be read, is not a cubin, cuobjdump is not found or fails, or the
/// SASS holds no kernel.
llvm::Expected<std::vector<Kernel>>
loadKernels(llvm::StringRef path, const LoadOptions &options,
            std::optional<std::string> &cuobjdump);

//===----------------------------------------------------------------------===//
// Analysis (SassAnalysis.cpp)
//===----------------------------------------------------------------------===//

/// What an instruction is, for the checks and the annotated excerpt.
enum class InstClass {
  /// Anything below.
  Other,
  /// LDG, LDGSTS (cp.async) and UTMALDG.
  GlobalLoad,
  /// Tensor-core MMA; FFMA in a kernel without MMA.
  Compute,
  /// BAR.SYNC.
  Barrier,
  /// cp.async commit/wait and mbarrier operations.
  AsyncSync,
  /// STS, where register-prefetched loads are consumed.
  SharedStore,
  /// STL and LDL.
  Spill,
  /// A BRA to an address at or before its own.
  BackwardBranch,
  /// The warpgroup MMA protocol: WARPGROUP.ARRIVE (wgmma.fence) and
  /// WARPGROUP.DEPBAR.LE gsb0, N (wgmma.wait_group N).
  WgmmaSync,
  /// FENCE.VIEW.ASYNC.S: the generic-to-async proxy fence
  /// (fence.proxy.async.shared::cta).
  ProxyFence
};

/// True for LDG*, LDGSTS* (cp.async) and UTMALDG; LDGDEPBAR is not a load.
bool isGlobalLoad(const Instruction &inst);

/// True for the tensor-core instructions: mma.sync (HMMA, IMMA, DMMA, BMMA)
/// and the sm_90 warpgroup forms (HGMMA, IGMMA, QGMMA, BGMMA).
bool isMma(const Instruction &inst);

/// True for the sm_90 warpgroup MMAs HGMMA, IGMMA, QGMMA and BGMMA.
bool isWarpgroupMma(const Instruction &inst);

/// True for a warpgroup MMA that closes its group: the one carrying the
/// `gsb0` scoreboard operand (wgmma.commit_group).
bool closesWgmmaGroup(const Instruction &inst);

/// True for SYNCS.ARRIVE.TRANS64*, a TMA tile's bytes announced on its
/// mbarrier (mbarrier.arrive.expect_tx).
bool isTmaAnnounce(const Instruction &inst);

/// N of `WARPGROUP.DEPBAR.LE gsb0, 0xN` (wgmma.wait_group N): at most N
/// groups stay in flight; std::nullopt for any other instruction.
std::optional<unsigned> wgmmaWaitDepth(const Instruction &inst);

/// N of `DEPBAR.LE SB0, 0xN` (cp.async.wait_group N): at most N cp.async
/// groups stay pending; std::nullopt for any other instruction.
std::optional<unsigned> cpAsyncWaitDepth(const Instruction &inst);

/// True for FENCE.VIEW.ASYNC.S, the proxy fence wgmma needs between
/// generic-proxy shared writes and its async-proxy reads.
bool isProxyFence(const Instruction &inst);

/// True for FFMA*: the compute of a kernel without tensor-core MMAs.
bool isFfma(const Instruction &inst);

/// True for BAR.SYNC*, including BAR.SYNC.DEFER_BLOCKING.
bool isBarrier(const Instruction &inst);

/// True for the cp.async commit and wait and the mbarrier operations
/// (LDGDEPBAR, DEPBAR, ARRIVES, SYNCS); shown in the excerpt, not checked.
bool isAsyncSync(const Instruction &inst);

/// True for the local-memory accesses STL and LDL (register spills).
bool isSpill(const Instruction &inst);

/// True for a BRA whose target is at or before its own address.
bool isBackwardBranch(const Instruction &inst);

/// Bytes per thread a memory access moves, from its width modifier (`.128`:
/// 16, `.64`: 8, `.U16`/`.S16`: 2, `.U8`/`.S8`: 1, else 4).
uint64_t accessBytes(const Instruction &inst);

/// Bytes per thread one global load moves (accessBytes); std::nullopt for
/// UTMALDG, which copies a whole tile.
std::optional<uint64_t> globalLoadBytes(const Instruction &inst);

/// What a kernel's compute instructions are: tensor-core MMA when it has any,
/// else FFMA when it has any, else float element-wise arithmetic (FADD, FMUL,
/// HADD2, HMUL2, HFMA2: a stencil's or a dequantizing loop's compute).
enum class ComputeKind { Mma, Ffma, FloatArith };

/// True for the float element-wise arithmetic of ComputeKind::FloatArith.
bool isFloatArith(const Instruction &inst);

/// True for a shared-memory read (LDS, LDSM).
bool isSharedRead(const Instruction &inst);

/// The class of `inst` in a kernel whose compute is `kind`.
InstClass classifyInstruction(const Instruction &inst, ComputeKind kind);

/// A loop: instructions [begin, end] of a kernel, where `end` is the
/// backward branch.
struct Loop {
  /// Index of the branch target, the first instruction of the loop.
  size_t begin = 0;
  /// Index of the backward branch.
  size_t end = 0;
  /// Compute instructions in [begin, end].
  unsigned compute = 0;
};

/// A shared-memory write of the main loop (STS, or LDGSTS) and what keeps it
/// from refilling a stage that a warpgroup MMA group may still read.
struct SharedWriteGuard {
  /// The write.
  size_t write = 0;
  /// The last WARPGROUP.DEPBAR before it, around the back edge if needed;
  /// std::nullopt when the loop has none.
  std::optional<size_t> wait;
  /// The first BAR.SYNC between `wait` and the write; std::nullopt when none
  /// lies between them (warps may refill the stage before every warp's
  /// wait).
  std::optional<size_t> barrier;
  /// N of `wait`: the groups that may still be in flight at the write.
  unsigned depth = 0;
  /// The shared stages the refill needs so that the stage it overwrites was
  /// last read by a group that `wait` retired; std::nullopt when it could
  /// not be measured (see WgmmaAnalysis).
  std::optional<int64_t> stagesNeeded;
};

/// The warpgroup MMA (wgmma) protocol of the main loop; see SassWgmma.cpp.
/// Instruction positions are indices into `kernel->insts`.
struct WgmmaAnalysis {
  /// Warpgroup MMAs in the loop.
  unsigned loopMmas = 0;
  /// wgmma groups the loop closes per iteration (HGMMA ... gsb0).
  unsigned loopGroups = 0;
  /// wgmma groups closed before the loop (the prologue computes none in pk's
  /// schedules).
  unsigned groupsBeforeLoop = 0;
  /// cp.async commits (LDGDEPBAR) per iteration.
  unsigned loopCommits = 0;
  /// cp.async commits before the loop: the tiles the prologue copies.
  unsigned commitsBeforeLoop = 0;
  /// Tiles the cp.async copies run ahead of the wgmma groups, which the
  /// epilogue computes after the loop: the prologue's commits minus its
  /// groups (S - 1 in pk's S-stage schedule, S - 2 with one group in
  /// flight); in a TMA loop (no commit, an announce per tile) the tiles
  /// announced before it; std::nullopt unless the loop commits once per
  /// group or is a TMA loop.
  std::optional<int64_t> copyDistance;
  /// The WARPGROUP.DEPBARs of the loop.
  llvm::SmallVector<size_t> waits;
  /// The largest N of those waits.
  unsigned maxDepth = 0;

  // wgmma_overlap

  /// Global loads of the loop that overlap a wgmma group: issued while one
  /// is in flight, or followed by one before their data is consumed.
  unsigned overlappingLoads = 0;
  /// The first global load of the loop that overlaps no group.
  std::optional<size_t> firstSerialLoad;
  /// Where that load's data is consumed before any group is issued: the STS
  /// of its registers or the cp.async wait that retires it.
  std::optional<size_t> serialLoadConsumer;

  // wgmma_stage_safety

  /// Every shared write (STS, LDGSTS) of the loop, in order.
  llvm::SmallVector<SharedWriteGuard> writes;

  // proxy_fence

  /// The first warpgroup MMA of each group of the loop.
  llvm::SmallVector<size_t> groupStarts;
  /// The first group start with no FENCE.VIEW.ASYNC.S after the shared write
  /// or cp.async wait before it.
  std::optional<size_t> unfencedGroup;
  /// That write or wait.
  std::optional<size_t> unfencedWrite;
  /// The fence of the first group start, when it has one.
  std::optional<size_t> fence;
};

/// Everything measured on one kernel. Instruction positions are indices into
/// `kernel->insts`.
struct KernelAnalysis {
  /// The kernel analyzed; it must outlive the analysis.
  const Kernel *kernel = nullptr;
  /// What the compute instructions are.
  ComputeKind computeKind = ComputeKind::Ffma;
  /// True when HMMA/IMMA/... are the compute.
  bool computeIsMma() const { return computeKind == ComputeKind::Mma; }
  /// The class of each instruction.
  llvm::SmallVector<InstClass> classes;
  /// Number of backward branches (candidate loops) in the kernel.
  unsigned backwardBranches = 0;
  /// The main loop: the backward branch enclosing the most compute (the
  /// larger loop on a tie); std::nullopt when no loop holds compute.
  std::optional<Loop> loop;

  // Loop body numbers (valid when `loop` is set).

  /// Instructions in the loop, the backward branch included.
  unsigned loopInstructions = 0;
  /// Global loads in the loop.
  unsigned loopLoads = 0;
  /// Compute instructions in the loop.
  unsigned loopCompute = 0;
  /// BAR.SYNCs in the loop.
  unsigned loopBarriers = 0;
  /// cp.async commits/waits and mbarrier operations in the loop.
  unsigned loopAsyncSyncs = 0;
  /// Compute instructions in the loop per full opcode, in opcode order.
  std::map<std::string, unsigned> loopComputeOpcodes;
  /// Bytes per thread loaded from global memory by one loop iteration, from
  /// the width of each load (`.128`: 16, `.64`: 8, ...); std::nullopt when a
  /// load's width is unknown (UTMALDG copies a whole tile).
  std::optional<uint64_t> loopLoadBytes = 0;
  /// Compute instructions after the first global load in the loop body: the
  /// compute that the load overlaps within its own iteration.
  unsigned computeAfterFirstLoad = 0;
  /// The loop's first global load; in a loop with LDGSTS, its first LDGSTS
  /// (the LDGs before it read global memory for the compute itself, e.g. a
  /// GEMV's matrix rows, and are not the pipelined copies).
  std::optional<size_t> firstLoad;
  /// True when `firstLoad` is an LDGSTS chosen over earlier LDGs.
  bool firstLoadSkipsStreams = false;
  /// The loop's first compute instruction.
  std::optional<size_t> firstCompute;
  /// The loop's last compute instruction.
  std::optional<size_t> lastCompute;
  /// The compute that follows the first load, possibly in the next iteration.
  std::optional<size_t> computeAfterLoad;
  /// True when `computeAfterLoad` is reached through the back edge.
  bool computeAfterLoadWraps = false;
  /// BAR.SYNCs from the first load to `computeAfterLoad`.
  unsigned barriersBetweenLoadAndCompute = 0;
  /// The first of those BAR.SYNCs.
  std::optional<size_t> firstBarrierBetween;
  /// The first BAR.SYNC after the last compute, before the backward branch
  /// or, see `barrierAfterComputeWraps`, at the top of the loop.
  std::optional<size_t> barrierAfterCompute;
  /// The barrier is at the top of the loop (before the next tile's loads),
  /// reached from the last compute through the back edge.
  bool barrierAfterComputeWraps = false;
  /// The loop's last shared-memory read (LDS, LDSM).
  std::optional<size_t> lastSharedRead;
  /// True when `barrierAfterCompute` follows the last shared read, not the
  /// last compute: ptxas moved register-only compute (FFMA, FADD) past the
  /// barrier, which needs only the shared reads before it.
  bool barrierAfterSharedRead = false;

  // Whole-kernel numbers.

  /// Compute instructions in the kernel.
  unsigned totalCompute = 0;
  /// Compute instructions before the main loop.
  unsigned computeBeforeLoop = 0;
  /// Compute instructions after the main loop.
  unsigned computeAfterLoop = 0;
  /// The outermost loops with compute outside the main loop (e.g. the
  /// original loop a versioned pipeline falls back to), in address order.
  llvm::SmallVector<Loop> otherComputeLoops;
  /// STL instructions in the kernel.
  unsigned stlCount = 0;
  /// LDL instructions in the kernel.
  unsigned ldlCount = 0;
  /// The wgmma protocol of the main loop; std::nullopt when the loop holds
  /// no warpgroup MMA.
  std::optional<WgmmaAnalysis> wgmma;
  /// A warp-specialized kernel (pk's schedule=warp-specialized): a producer
  /// loop that issues TMA loads (UTMALDG) and computes nothing, disjoint
  /// from the main loop, which then is the consumers' loop: the loop with
  /// the most compute among those without global loads. std::nullopt
  /// otherwise.
  std::optional<Loop> producerLoop;
};

/// Classifies the instructions of `kernel`, finds its main loop and measures
/// it. The result points to `kernel`, which must outlive it.
KernelAnalysis analyzeKernel(const Kernel &kernel);

/// Measures the wgmma protocol of `analysis`'s main loop (SassWgmma.cpp);
/// leaves `analysis.wgmma` unset when the loop holds no warpgroup MMA.
void analyzeWgmma(KernelAnalysis &analysis);

/// Finds the baseline kernel matching `kernel`: the same name and arch, then
/// the same name, then the only baseline kernel; nullptr when none matches.
const KernelAnalysis *matchBaseline(const Kernel &kernel,
                                    llvm::ArrayRef<KernelAnalysis> baselines);

/// Formats an address the way cuobjdump does: `/*08b0*/`.
std::string formatAddress(uint64_t address);

/// Formats an address for the JSON report: `0x08b0`.
std::string formatJsonAddress(uint64_t address);

/// The JSON address (`"0x08b0"`) of instruction `index` of the analyzed
/// kernel; null when `index` is std::nullopt.
llvm::json::Value jsonAddressOf(const KernelAnalysis &analysis,
                                std::optional<size_t> index);

//===----------------------------------------------------------------------===//
// Checks (SassChecks.cpp)
//===----------------------------------------------------------------------===//

/// The result of one check.
struct CheckResult {
  /// The outcome of a check.
  enum Status {
    /// The check passed.
    Pass,
    /// The check failed: the kernel fails.
    Fail,
    /// The check did not run (it needs --baseline); does not fail the kernel.
    Skip
  };
  /// The check's name, e.g. `loads_before_compute`.
  std::string name;
  /// The outcome.
  Status status = Skip;
  /// One line explaining the outcome with the numbers behind it.
  std::string detail;
  /// The numbers behind the check, for the JSON report, in output order.
  llvm::SmallVector<std::pair<std::string, llvm::json::Value>> values;
};

/// `PASS`, `FAIL` or `SKIP`.
llvm::StringRef statusName(CheckResult::Status status);

/// Tunables of the checks (pk-sass-check's --ffma-overlap and --stages).
struct CheckOptions {
  /// FP32 (FFMA) kernels: loads_before_compute passes when at least this
  /// fraction of the loop's FFMAs follow the first global load.
  double ffmaOverlap = 0.5;
  /// Pipeline stages of the pipelined kernel: its epilogue computes
  /// stages - 1 tiles outside the loop (compute_total), and a wgmma loop's
  /// refills may need up to this many shared stages (wgmma_stage_safety).
  unsigned stages = 2;
};

/// The numbers of the --baseline comparison, filled by
/// checkComputePerIteration and read by checkComputeTotal and the reports.
struct BaselineComparison {
  /// The baseline kernel; nullptr without a baseline.
  const Kernel *kernel = nullptr;
  /// True when the baseline has a main loop.
  bool hasLoop = false;
  /// Compute in the baseline's main loop.
  unsigned loopCompute = 0;
  /// Compute outside the baseline's main loop.
  unsigned outsideCompute = 0;
  /// Compute instructions of one tile; 0 when unknown.
  unsigned computePerTile = 0;
  /// Tiles per iteration of the pipelined loop (ptxas' unroll factor).
  unsigned pipelinedUnroll = 1;
  /// Tiles per iteration of the baseline's loop (ptxas' unroll factor).
  unsigned baselineUnroll = 1;
};

/// The largest unroll factor taken as ptxas unrolling rather than a compute
/// mismatch by checkComputePerIteration.
constexpr unsigned maxUnroll = 8;

/// main_loop: passes when a backward branch encloses compute.
CheckResult checkMainLoop(const KernelAnalysis &analysis);

/// loads_before_compute: passes when the loop's first global load precedes
/// its first compute; in an FFMA kernel, also when at least
/// `options.ffmaOverlap` of the loop's FFMAs follow the first load.
CheckResult checkLoadsBeforeCompute(const KernelAnalysis &analysis,
                                    const CheckOptions &options = {});

/// no_barrier_between_loads_and_compute: passes when no BAR.SYNC lies between
/// the loop's first global load and the next compute (around the back edge
/// when the load follows every compute).
CheckResult checkNoBarrierBetween(const KernelAnalysis &analysis);

/// barrier_after_compute: passes when a BAR.SYNC follows the last compute
/// before the backward branch, or sits at the top of the loop before its
/// first load (the multistage order).
CheckResult checkBarrierAfterCompute(const KernelAnalysis &analysis);

/// compute_per_iteration: compares the compute of the main loops of the
/// pipelined kernel and of `baseline` (SKIP when `baseline` is nullptr), and
/// fills `cmp` for checkComputeTotal.
///
/// Equal counts pass. Otherwise the per-tile count is taken to be the greatest
/// common divisor of the two counts, and the loops to be unrolled by
/// count / tile; this passes when both factors are at most `maxUnroll` and
/// the bytes of global memory loaded per iteration have the same ratio (a
/// loop unrolled by k loads k tiles), so lost or duplicated compute fails.
CheckResult checkComputePerIteration(const KernelAnalysis &analysis,
                                     const KernelAnalysis *baseline,
                                     BaselineComparison &cmp);

/// compute_total: the compute outside the pipelined loop minus the compute
/// outside the baseline's must be the peeled epilogue, `options.stages` - 1
/// tiles, or in a wgmma cp.async loop as many tiles as the copies run ahead
/// (WgmmaAnalysis::copyDistance) (SKIP when `baseline` is nullptr). A loop
/// unrolled by k may leave up to k-1 remainder tiles outside it, which widens
/// the accepted range. `cmp` and `perIteration` come from
/// checkComputePerIteration.
CheckResult checkComputeTotal(const KernelAnalysis &analysis,
                              const KernelAnalysis *baseline,
                              const BaselineComparison &cmp,
                              const CheckResult &perIteration,
                              const CheckOptions &options = {});

/// no_spills: passes when the kernel has no STL/LDL and, when its resource
/// usage was read, LOCAL:0 and STACK:0.
CheckResult checkNoSpills(const KernelAnalysis &analysis);

/// wgmma_overlap: in a loop with warpgroup MMAs (SKIP otherwise), passes
/// when every global load overlaps a wgmma group: it is issued while a group
/// is in flight (after an HGMMA, before the WARPGROUP.DEPBAR that retires
/// it), or a group is issued before its data is consumed (the STS of its
/// registers, the cp.async wait that retires it). With `baseline`, the
/// detail adds the baseline's count.
CheckResult checkWgmmaOverlap(const KernelAnalysis &analysis,
                              const KernelAnalysis *baseline = nullptr);

/// wgmma_stage_safety: in a loop with warpgroup MMAs (SKIP otherwise),
/// passes when every shared write (STS, LDGSTS) follows a BAR.SYNC that
/// follows the loop's last WARPGROUP.DEPBAR.LE gsb0, N before it, and the
/// N groups it leaves in flight fit: the refill needs at most
/// `options.stages` shared stages.
CheckResult checkWgmmaStageSafety(const KernelAnalysis &analysis,
                                  const CheckOptions &options = {});

/// proxy_fence: in a loop with warpgroup MMAs (SKIP otherwise), passes when
/// a FENCE.VIEW.ASYNC.S lies between each group's first HGMMA and the
/// shared store (STS) or cp.async wait (DEPBAR.LE SB0) before it.
CheckResult checkProxyFence(const KernelAnalysis &analysis);

/// tma_in_flight: a main loop whose tiles TMA copies (UTMALDG) starts with
/// tiles in flight: the kernel announces tiles (SYNCS.ARRIVE.TRANS64, the
/// expect_tx of each tile) before the loop, between `stages - 2` (one wgmma
/// group in flight) and `stages - 1` of them, at least one. An unpipelined
/// TMA loop announces none: each load is awaited in its own iteration, which
/// wgmma_overlap cannot see (a UTMALDG has no register to consume). Skipped
/// without UTMALDG in the loop.
/// `warp_specialized`: in a warp-specialized kernel (producerLoop set) the
/// producer waits on an mbarrier (the consumers' release of the stage) and
/// announces the tile's bytes before its first UTMALDG, and the consumers
/// wait on an mbarrier before their first compute and arrive on one after
/// their last (after a WARPGROUP.DEPBAR on wgmma: the stage's reads
/// retired). Skipped in other kernels.
CheckResult checkWarpSpecialized(const KernelAnalysis &analysis);

CheckResult checkTmaInFlight(const KernelAnalysis &analysis,
                             const CheckOptions &options);

/// Every check of one kernel, in report order.
struct KernelReport {
  /// The analysis of the checked kernel.
  KernelAnalysis analysis;
  /// The analysis of the matching baseline kernel; nullptr without one.
  const KernelAnalysis *baseline = nullptr;
  /// The baseline comparison (meaningful when `baseline` is set).
  BaselineComparison comparison;
  /// main_loop, loads_before_compute, no_barrier_between_loads_and_compute,
  /// barrier_after_compute, compute_per_iteration, compute_total, no_spills,
  /// wgmma_overlap, wgmma_stage_safety, proxy_fence.
  llvm::SmallVector<CheckResult> checks;

  /// The number of checks with status `status`.
  unsigned count(CheckResult::Status status) const;
  /// True when no check failed.
  bool passed() const { return count(CheckResult::Fail) == 0; }
  /// Why the kernel cannot be checked (no loop encloses its compute, or it
  /// has none); empty when it can. Its loop checks are skipped with this
  /// reason and the kernel reads UNSUPPORTED, not FAIL.
  std::string unsupported;
  /// `PASS`, `FAIL` or `UNSUPPORTED` (a failed check wins).
  llvm::StringRef resultName() const {
    return !passed() ? "FAIL" : unsupported.empty() ? "PASS" : "UNSUPPORTED";
  }
};

/// Analyzes `kernel` and runs every check on it, against `baseline` when it
/// is not nullptr. `kernel` and `baseline` must outlive the report.
KernelReport checkKernel(const Kernel &kernel, const KernelAnalysis *baseline,
                         const CheckOptions &options = {});

//===----------------------------------------------------------------------===//
// Reports (SassReport.cpp)
//===----------------------------------------------------------------------===//

/// Prints the main loop (which must exist): global loads, compute, barriers,
/// cp.async syncs, shared stores and spills with their addresses and
/// annotations; other instructions are elided as `... N other instructions`
/// and runs of one compute opcode collapsed, unless `fullSass` asks for every
/// instruction.
void printLoopExcerpt(llvm::raw_ostream &os, const KernelAnalysis &analysis,
                      bool fullSass = false);

/// Prints the `check  result  details` table.
void printCheckTable(llvm::raw_ostream &os, llvm::ArrayRef<CheckResult> checks);

/// Prints the whole text report of one kernel: its summary line, the loop
/// excerpt, the baseline's numbers, the table, the result line and an empty
/// line.
void printKernelReport(llvm::raw_ostream &os, const KernelReport &report,
                       bool fullSass = false);

/// The run-wide fields of the JSON report.
struct JsonRunInfo {
  /// The checked input.
  std::string input;
  /// The --baseline input; std::nullopt without one.
  std::optional<std::string> baseline;
  /// True when the inputs are SASS text (`input_kind`: `sass`).
  bool sassInput = false;
  /// The cuobjdump that was run; std::nullopt when none was.
  std::optional<std::string> cuobjdump;
};

/// Opens the JSON report: the run-wide fields and the `kernels` array, to be
/// filled with writeKernelJson and closed with endJsonReport.
void beginJsonReport(llvm::json::OStream &j, const JsonRunInfo &info);

/// Writes one kernel's object of the JSON report: every number of the
/// analysis, the baseline comparison and the checks.
void writeKernelJson(llvm::json::OStream &j, const KernelReport &report);

/// Closes the JSON report opened by beginJsonReport with the overall
/// `result` and `exit_code` (FAIL 1 unless `passed`, else UNSUPPORTED 3 when
/// a kernel is `unsupported`, else PASS 0).
void endJsonReport(llvm::json::OStream &j, bool passed, bool unsupported);

} // namespace sass
} // namespace pk

#endif // PK_VERIFICATION_SASSCHECK_H
