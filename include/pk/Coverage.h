//===- Coverage.h - What pk does not consider, and why ----------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// pk considers K-loop candidates (isKLoopCandidate: an `scf.for` with a
// `gpu.barrier` directly in its body, in a gpu.func); matchKLoop says why a
// candidate is not a K-loop and remarkOnUnreachableLoops covers gpu.launch
// bodies and modules without kernels. This part of the analysis says why pk
// passes over everything else in a kernel, so that "not a kernel" and
// "ignored" can be told apart (docs/input-contract.md).
//
//===----------------------------------------------------------------------===//

#ifndef PK_COVERAGE_H
#define PK_COVERAGE_H

#include "pk/Decline.h"
#include "pk/KLoopInfo.h"

#include "mlir/IR/Operation.h"

namespace mlir {
namespace pk {

/// Emits a remark on each thing under `root` that pk does not consider:
/// * a kernel (gpu.func kernel or gpu.launch) without a K-loop candidate;
/// * a loop of a kernel that looks like a K-loop pk cannot take: a loop with
///   a barrier that is not an `scf.for` (an `affine.for`: run lower-affine),
///   an `scf.for` whose barrier is `nvvm.barrier0` / `nvvm.barrier` or sits
///   in a nested region (`scf.if`);
/// * a loop with a barrier outside any kernel (e.g. in a `func.func`);
/// * with `verbose`, every other loop of a kernel, once per loop nest (an
///   epilogue loop, a loop without barriers, a loop around a K-loop).
/// K-loop candidates and the loops they hold are left to the matcher, the
/// loops of remarkOnUnreachableLoops to it.
void remarkOnUnconsideredCode(Operation *root, bool verbose);

/// Emits why `forOp`, a K-loop candidate, is not a K-loop: a remark "not a
/// pk K-loop: ..." at the operation `decline` names, with a note at the loop
/// when that is another operation.
void emitNotAKLoopRemark(scf::ForOp forOp, const Decline &decline);

/// The K-loop candidates under `root` (isKLoopCandidate), in pre-order:
/// collected before any is changed, since pipelining one replaces it.
SmallVector<scf::ForOp> collectKLoopCandidates(Operation *root);

/// Says why pk will not look at loops it cannot reach: a remark on each
/// K-loop candidate still in a gpu.launch body, or on `root` when it is a
/// builtin.module without any GPU kernel.
void remarkOnUnreachableLoops(Operation *root);

} // namespace pk
} // namespace mlir

#endif // PK_COVERAGE_H
