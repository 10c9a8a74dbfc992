//===- Alignment.h - Divisors and alignments pk proves ----------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// What pk proves about addresses without changing the IR: a divisor of an
// index built from constants, thread ids and induction variables, and the
// alignment of the address an access reaches through the views (subviews,
// expand_shape, collapse_shape, cast, view) of its buffer. The cp.async
// planning chooses its widths from it; pk's lowering
// (pk-prove-shared-alignment) gives the shared loads and stores the alignment
// it proves.
//
//===----------------------------------------------------------------------===//

#ifndef PK_ALIGNMENT_H
#define PK_ALIGNMENT_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"

namespace mlir {
namespace pk {

/// Alignment pk gives the multi-buffered shared buffers, and assumes for the
/// base of global memrefs (device allocations are 256-byte aligned) and of
/// dynamic shared memory.
constexpr int64_t kBaseAlignment = 16;

/// A divisor known for the integer (index) value `v`, 1 if nothing is known.
int64_t getKnownDivisor(Value v);

/// Where an alignment proof rests.
struct AlignmentProof {
  /// The proven alignment in bytes (a power of two, at most kBaseAlignment).
  int64_t bytes = 1;
  /// The buffer the views lead to (a kernel argument, an attribution, an
  /// allocation, a get_global...), whose base the proof assumes aligned to
  /// kBaseAlignment unless an `llvm.align` / assume_alignment says less.
  Value root;
  /// With `allowRuntimeCheck`: the root whose dynamic offset or strides the
  /// proof assumed 16-byte aligned (the caller checks that at run time).
  Value runtimeChecked;
};

/// The alignment proven for the address of element `indices` (+
/// `extraElements` on the innermost dimension) of `memref`. `stageBytes` > 0
/// accounts for a leading stage dimension pk will add. With
/// `allowRuntimeCheck`, a root with a dynamic offset or strides counts as if
/// its first element and strides were 16-byte aligned (see
/// AlignmentProof::runtimeChecked); otherwise it proves nothing.
AlignmentProof proveAlignment(Value memref, ValueRange indices,
                              int64_t extraElements = 0, int64_t stageBytes = 0,
                              bool allowRuntimeCheck = false);

/// The alignment in bytes the NVVM lowering gives the shared buffer `root`
/// (a workgroup attribution or memref.global: its alignment attribute, else
/// its element's; dynamic shared memory: 16), 0 if unknown.
int64_t getSharedRootAlignment(Value root);

} // namespace pk
} // namespace mlir

#endif // PK_ALIGNMENT_H
