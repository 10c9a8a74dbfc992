//===- KLoopMatcher.h - Match and measure tiled GPU K-loops -----*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The first stage of pk's data flow (docs/architecture.md): `matchKLoop`
// recognizes the K-loop of the input contract (docs/input-contract.md,
// KLoopInfo.h) and measures it: shared memory, bytes loaded and FLOPs per
// tile, the compute/load ratio. A loop that does not match gets a Decline
// at the operation that did not match.
//
//===----------------------------------------------------------------------===//

#ifndef PK_KLOOPMATCHER_H
#define PK_KLOOPMATCHER_H

#include "pk/Decline.h"
#include "pk/KLoopInfo.h"

namespace mlir {
namespace pk {

/// The exact trip count of `forOp` when its step is a positive constant and
/// its bounds are constants, computed in 128 bits so that it never wraps,
/// unlike the loop type's own arithmetic near its limits (e.g. lb = INT64_MIN);
/// or when the upper bound is the lower bound plus a constant
/// (`arith.addi %lb, %c`, `affine.apply` of `d0 + c`) that the integer range
/// analysis proves does not wrap (a split-K slice `z*K/S .. z*K/S + K/S`).
std::optional<APInt> getExactStaticTripCount(scf::ForOp forOp);

/// Returns true if `forOp` is a candidate K-loop: an `scf.for` inside a
/// `gpu.func` with a `gpu.barrier` (or, TMA form, an
/// `nvgpu.mbarrier.try_wait.parity`) directly in its body, that is not a
/// pipelining fallback. Only candidates get a remark when they do not match.
bool isKLoopCandidate(scf::ForOp forOp);

/// Threads per block from the kernel's `known_block_size`, `nvvm.reqntid`
/// or `nvvm.maxntid`; 0 when it does not say.
int64_t getKernelBlockSize(gpu::GPUFuncOp kernel);

/// Matches `forOp` against the input contract and measures it, or says why
/// not: a Decline at the operation that does not match (the loop's own when
/// the loop as a whole does not), lower case, no trailing period.
/// `threadsPerBlockOverride` > 0 replaces the kernel's block size.
DeclineOr<KLoopInfo> matchKLoop(scf::ForOp forOp,
                                int64_t threadsPerBlockOverride = 0);

/// Whether `value` is computed (inside `forOp`) from its induction variable.
bool dependsOnInductionVar(Value value, scf::ForOp forOp);

namespace detail {
/// Completes the TMA load phase `info.tma` the matcher collected
/// (lib/Analysis/TmaLoadPhase.cpp): one mbarrier group of one barrier,
/// created and initialised before the loop and used only there and by the
/// loop's expect_tx, loads and wait, all on barrier 0; loads issued by the
/// expect_tx's threads, each writing a whole shared buffer box; the expect_tx
/// count equal to the loads' bytes. Adds one TileCopy per load (`findBuffer`
/// names the buffer or declines).
DeclineOr<void> matchTmaLoadPhase(
    KLoopInfo &info,
    llvm::function_ref<DeclineOr<unsigned>(Operation *, Value)> findBuffer);

/// Finds the cluster barrier of the TMA K-loop `info` (TmaLoadPhase::
/// clusterArrive): none, or one `nvvm.cluster.arrive` directly followed by
/// `nvvm.cluster.wait`, directly in the body after the mbarrier wait, with
/// nothing but side-effect-free ops and the tile epilogue between it and
/// the compute barrier; any other cluster barrier in the loop is declined.
DeclineOr<void> findClusterBarrier(KLoopInfo &info);
} // namespace detail

} // namespace pk
} // namespace mlir

#endif // PK_KLOOPMATCHER_H
