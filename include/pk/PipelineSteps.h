//===- PipelineSteps.h - The steps of applyPipelinePlan ---------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The steps `applyPipelinePlan` (Pipelining.h) runs, one file each in
// lib/Transforms: AsyncCopy.cpp, MultiBuffer.cpp, TmaRing.cpp,
// WarpSpecialize.cpp, Schedule.cpp. They are public so that a step can be
// tested alone (the -test-pk-* passes, test/lib) and reused; their
// preconditions are those applyPipelinePlan checks first, which a caller of
// one step must have checked too.
//
//===----------------------------------------------------------------------===//

#ifndef PK_PIPELINESTEPS_H
#define PK_PIPELINESTEPS_H

#include "pk/AsyncCopyPlan.h"
#include "pk/KLoopMatcher.h"
#include "pk/MemoryAccess.h"
#include "pk/Pipelining.h"

#include <utility>
#include <vector>

namespace mlir {
namespace pk {
namespace detail {

/// Rotates a barrier-first loop (KLoopInfo::barrierFirst) into pk's form:
/// its first barrier moves to the end of the body and a barrier goes before
/// the loop. The first change applyPipelinePlan makes.
void rotateBarrierFirst(RewriterBase &rewriter, const KLoopInfo &info);

/// Versions the loop of `info` at run time on what pipelining it needs but
/// pk cannot prove: with `minTrips` > 0 a dynamic trip count of at least
/// `minTrips` whose arithmetic does not wrap, and the 16-byte alignment of
/// `runtimeAligned` (global buffers with a dynamic offset or strides). The
/// loop moves into the then-branch of an `scf.if` (handles into it stay
/// valid); a copy marked `pk.pipeline_fallback` runs otherwise.
void versionLoop(RewriterBase &rewriter, const KLoopInfo &info,
                 int64_t minTrips, ArrayRef<Value> runtimeAligned);

/// Replaces each planned copy by nvgpu.device_async_copy ops at the store's
/// position (16-byte copies bypass L1) and erases the loads, extracts and
/// stores they replace. Returns the tokens of the copies made directly in the
/// K-loop body (copies in nested loops join the group without a token).
SmallVector<Value> convertToAsyncCopies(RewriterBase &rewriter,
                                        ArrayRef<AsyncCopyPlan> plans,
                                        scf::ForOp forOp);

/// Checks that every use of the copied buffers is a direct access pk can
/// redirect to a stage of the multi-buffered buffer, inside the loop, with
/// indices that do not depend on the induction variable.
DeclineOr<void> checkBufferUses(const KLoopInfo &info);

/// Gives every copied buffer of `info` a leading dimension of `stages` and
/// redirects every access to its stage; with `useDynamic` the buffers move
/// to dynamic shared memory. Returns the load phase's stage index (at the
/// start of the loop body), which the TMA ring names its barriers by.
Value multiBufferCopiedBuffers(RewriterBase &rewriter, const KLoopInfo &info,
                               int64_t stages, bool useDynamic);

/// Creates the tile index `(iv - lb) / step` of `forOp` (as index) at the
/// rewriter's insertion point.
Value createTileIndex(RewriterBase &rewriter, Location loc, scf::ForOp forOp);

/// Creates the stage index `((iv - lb) / step) % stages` of `forOp` at the
/// rewriter's insertion point.
Value createStageIndex(RewriterBase &rewriter, Location loc, scf::ForOp forOp,
                       int64_t stages);

/// Erases `value`'s side-effect-free defining op inside `scope` when nothing
/// uses it, and then its operands' the same way (each op once: an op may
/// feed another twice). The TMA ring and the tile-loop flattening drop the
/// parity computation they replace with it.
void eraseUnusedChain(RewriterBase &rewriter, Value value, Operation *scope);

/// The TMA ring's precondition beyond the matcher's (TmaRing.cpp): the wait's
/// parity is the tile index modulo 2 (pk evaluates it on the first tiles).
DeclineOr<void> checkTmaRing(const KLoopInfo &info);

/// Clones each view outside the K-loop that names a TMA load's destination
/// into the loop, right before the load (multi-buffering then points it at
/// the load's stage).
void sinkTmaDestinationViews(RewriterBase &rewriter, const KLoopInfo &info);

/// Turns the loop's one mbarrier into a ring of `stages` (after
/// multi-buffering): the group gets `stages` barriers, each initialised as
/// the original; the loads of tile t complete on barrier t % stages and the
/// wait waits there on parity (t / stages) % 2. Returns the first op of the
/// wait's index computation (the schedule runs it with the compute).
Operation *buildTmaBarrierRing(RewriterBase &rewriter, const KLoopInfo &info,
                               int64_t stages, Value loadStage);

/// The preconditions of schedule=warp-specialized (WarpSpecialize.cpp) on a
/// TMA loop: a (C, 1, 1) known block size with room for a producer
/// warpgroup, the loop directly in the kernel body after code the producer
/// may run too, a load phase one thread issues without the iteration
/// arguments, and launches in the module of that block size.
DeclineOr<void> checkWarpSpecialization(const KLoopInfo &info);

/// Splits the TMA ring of `stages` stages (after buildTmaBarrierRing, whose
/// wait computation starts at `waitStart`) into a producer warpgroup added
/// to the block and the kernel's threads as consumers, handshaking on N
/// "empty" mbarriers; with `mmaInFlight` the consumers keep one wgmma group
/// in flight. Returns the consumer loop, the producer loop as the prologue,
/// and the ops after the consumer loop.
PipelinedKLoop warpSpecialize(RewriterBase &rewriter, const KLoopInfo &info,
                              int64_t stages, Operation *waitStart,
                              bool mmaInFlight);

/// The releases of a stage that the consumers of the other blocks of a
/// cluster send (ClusterRelease.cpp): one per consumer warp of each other
/// block when the loads of `info` multicast, else 0.
int64_t getRemoteReleasesPerStage(const KLoopInfo &info, int64_t consumers);

/// At the insertion point, lane 0 of the warp arrives on barrier `index` of
/// `group` in every other block of the cluster (`mapa`, `mbarrier.arrive`).
void createRemoteReleases(RewriterBase &rewriter, Location loc,
                          const KLoopInfo &info, Value group, Value index);

/// A cluster barrier (`nvvm.cluster.arrive`, `nvvm.cluster.wait`) at the
/// insertion point, for every thread of the cluster.
void createClusterBarrier(RewriterBase &rewriter, Location loc);

/// Makes the wgmma ops of `forOp` that retire every group (waitGroup = 0)
/// leave `groups` groups in flight instead; the others of a chain of
/// k-steps (waitGroup above 0, retired by the chain's last op) keep theirs.
/// The steady state then ends each iteration with at most `groups` groups,
/// the last of the tile just computed, in flight.
void setMmaGroupsInFlight(RewriterBase &rewriter, scf::ForOp forOp,
                          int64_t groups);

/// A pipeline schedule: each body op with its stage, in the order the
/// steady-state loop runs them.
struct Schedule {
  std::vector<std::pair<Operation *, unsigned>> order;
  /// The stage of the compute phase.
  unsigned computeStage = 1;
  /// Whether to move the body into the schedule's order before pipelining
  /// (not when an op uses a value defined later in the schedule).
  bool reorderBody = true;
  /// wgmma groups the steady state leaves in flight (schedule=mma-in-flight):
  /// the epilogue then waits for all of them.
  int64_t mmaGroupsInFlight = 0;
};

/// The CUDA guide's multistage cp-async order with `stages` buffers; with
/// `mmaGroupsInFlight` > 0 (schedule=mma-in-flight) the wgmma ops of `forOp`
/// leave that many groups in flight and the copies run
/// `stages - 1 - mmaGroupsInFlight` tiles ahead. `registerStores`: the
/// shared stores of register-path copies (per-copy variants), which move
/// after the compute of the iteration that loads their tile.
Schedule buildMultistageSchedule(RewriterBase &rewriter, scf::ForOp forOp,
                                 gpu::BarrierOp loadBarrier,
                                 gpu::BarrierOp computeBarrier, int64_t stages,
                                 int64_t mmaGroupsInFlight,
                                 ArrayRef<Value> tokens,
                                 ArrayRef<Operation *> registerStores);

/// The TMA ring's order: the load phase (everything before `waitStart`)
/// runs `stages - 1 - mmaGroupsInFlight` tiles ahead of the wait, compute
/// and barrier of tile t; with `mmaGroupsInFlight` > 0 the wgmma ops leave
/// that many groups in flight.
Schedule buildTmaSchedule(RewriterBase &rewriter, scf::ForOp forOp,
                          Operation *waitStart, int64_t stages,
                          int64_t mmaGroupsInFlight);

/// The two-stage cp-async order (`registerStores` as in the multistage
/// order).
Schedule buildTwoStageSchedule(RewriterBase &rewriter, scf::ForOp forOp,
                               gpu::BarrierOp loadBarrier,
                               gpu::BarrierOp computeBarrier,
                               ArrayRef<Value> tokens,
                               ArrayRef<Operation *> registerStores);

/// The order of the register variants (ldg-register, register-prefetch).
Schedule buildRegisterSchedule(scf::ForOp forOp, gpu::BarrierOp loadBarrier,
                               gpu::BarrierOp computeBarrier);

/// Runs scf::pipelineForLoop on `forOp` with `schedule`; with
/// `insertFinalBarrier` adds a barrier after the epilogue. `minTrips` > 0:
/// the loop has a dynamic trip count and runs only when it is at least
/// `minTrips` (pk versioned it), so the epilogue's guards on the trip count
/// up to `minTrips` hold and are folded. Returns the new loop with the
/// prologue and epilogue ops.
DeclineOr<PipelinedKLoop> runPipeliner(RewriterBase &rewriter, scf::ForOp forOp,
                                       const Schedule &schedule,
                                       bool insertFinalBarrier,
                                       int64_t minTrips, bool testFailLate);

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_PIPELINESTEPS_H
