//===- AsyncCopyPlan.h - Can the tile copies become cp.async? ---*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Read-only planning of the cp-async variant: proves the alignment and
// contiguity of every global -> shared copy of a matched K-loop and chooses
// the width (4, 8 or 16 bytes) of the `nvgpu.device_async_copy` ops that
// replace it. The decision asks it whether cp.async is possible and how
// wide; the transform (lib/Transforms/AsyncCopy.cpp) applies the plan.
//
//===----------------------------------------------------------------------===//

#ifndef PK_ASYNCCOPYPLAN_H
#define PK_ASYNCCOPYPLAN_H

#include "pk/Alignment.h"
#include "pk/Decline.h"
#include "pk/KLoopInfo.h"

#include <optional>
#include <string>

namespace mlir {
namespace pk {

/// One global -> shared copy that becomes nvgpu.device_async_copy ops.
struct AsyncCopyPlan {
  Operation *load = nullptr;
  Operation *store = nullptr;
  /// The element of the loaded vector the store writes (scalar stores of a
  /// `vector.extract`), else 0.
  int64_t elementOffset = 0;
  /// Elements the store writes.
  int64_t numElements = 1;
  /// Bytes per nvgpu.device_async_copy (4, 8 or 16).
  int64_t width = 4;
  int64_t elemBytes = 1;
  /// The global read is a `vector.transfer_read` with a zero padding that
  /// may run past the end of the innermost dimension (a partial tile) or
  /// whose elements from `maskSize` on are masked off: each copy then reads
  /// only the in-bounds, unmasked elements and zero-fills the rest.
  bool masked = false;
  /// The size of the read's 1-D `vector.create_mask` (a masked im2col or
  /// halo read), or null: a copy with no element below it reads nothing.
  Value maskSize;
  /// The stored value is an `scf.if` (a halo or bounds guard) that yields
  /// the loaded value when `guard` holds (is false, with `guardNegated`) and
  /// zero otherwise: the copy reads nothing and zero-fills when the guard
  /// fails. Null: no guard.
  Value guard;
  bool guardNegated = false;
  /// The copy is already an `nvgpu.device_async_copy` (load == store): the
  /// transform keeps it.
  bool alreadyAsync = false;
  /// The global buffer (defined before the K-loop) whose dynamic offset or
  /// strides the width assumes to be 16-byte aligned, which pk cannot
  /// prove: pipelining versions the loop on that at run time. Null when the
  /// width is proven.
  Value runtimeAligned;
  /// The copy stays a global load and a shared store (per-copy variants,
  /// rule `per-copy`): some copy into its buffer cannot be cp.async, for
  /// `registerReason`. The pipelined loop issues its load with the tile's
  /// cp.async copies and moves its store after the compute.
  bool registerPath = false;
  std::optional<Decline> registerReason;
};

/// Plans the copies of `info` as cp.async. A shared buffer some copy into
/// which cannot be cp.async (masked, converted, selected, narrow) keeps the
/// register path for all its copies (AsyncCopyPlan::registerPath) when its
/// stores lie directly in the loop body and at least one cp.async copy
/// remains there; otherwise declines at the copy that cannot be converted.
/// Changes nothing.
DeclineOr<SmallVector<AsyncCopyPlan>> planAsyncCopies(const KLoopInfo &info);

/// The narrowest width of the cp.async copies of `plans` (16 when none).
int64_t getNarrowestWidth(ArrayRef<AsyncCopyPlan> plans);

/// The plans of `plans` that keep the register path (per-copy variants).
SmallVector<const AsyncCopyPlan *>
getRegisterPathCopies(ArrayRef<AsyncCopyPlan> plans);

/// Bytes per thread per K-iteration the register-path copies of `plans`
/// hold in registers across the compute (their loads' bytes).
int64_t getRegisterPathBytes(const KLoopInfo &info,
                             ArrayRef<AsyncCopyPlan> plans);

/// The distinct AsyncCopyPlan::runtimeAligned buffers of `plans`, in order.
void getRuntimeAlignedMemRefs(ArrayRef<AsyncCopyPlan> plans,
                              SmallVectorImpl<Value> &memrefs);

} // namespace pk
} // namespace mlir

#endif // PK_ASYNCCOPYPLAN_H
