//===- Ldmatrix.h - Shared operand reads as ldmatrix ------------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A compute-phase rewrite that runs before pk's analysis: a warp's
// `vector.transfer_read`s of 16-bit shared tiles that read the mma.sync
// operand layout (each lane two elements of a row of an 8x8 matrix, or of a
// column for the transposed B operand) become `nvgpu.ldmatrix` loads of the
// same elements, one instruction per four 8x8 matrices instead of one or two
// shared loads per matrix. ldmatrix needs 16-byte aligned rows: a buffer
// whose rows are padded to a multiple of 8 bytes only (IREE pads so) gets
// its rows re-padded to a multiple of 16 bytes (an odd multiple, so that
// ldmatrix's eight rows fall in distinct banks), which also lets its
// global->shared copies be 16-byte cp.async. Test:
// test/pk-use-ldmatrix.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef PK_LDMATRIX_H
#define PK_LDMATRIX_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpu {
class GPUFuncOp;
} // namespace gpu

namespace pk {

/// What `useLdmatrixForSharedReads` did to one kernel.
struct LdmatrixRewrite {
  /// The transfer_reads replaced.
  int64_t reads = 0;
  /// The nvgpu.ldmatrix ops that replace them.
  int64_t ldmatrices = 0;
  /// The shared buffers whose rows were re-padded to 16 bytes.
  int64_t repadded = 0;
};

/// Rewrites every shared `vector.transfer_read` of `kernel` whose lanes read
/// the ldmatrix layout (checked for each thread of the kernel's
/// `known_block_size`, in warp-uniform control flow) into `nvgpu.ldmatrix`
/// ops and a `vector.from_elements` of their results; re-pads the rows of
/// the workgroup attributions that needs. A read it cannot prove is left as
/// it is (LDBG says why). Changes nothing when it returns zero reads.
LdmatrixRewrite useLdmatrixForSharedReads(RewriterBase &rewriter,
                                          gpu::GPUFuncOp kernel);

/// Grows the innermost dimension of the static, identity-layout shared
/// buffer `root` to `newSize` elements, giving every view of it the type
/// that follows. Fails without changing the IR when a use depends on that
/// dimension's size (a reshape or an unmasked access of `root` itself, an
/// op pk does not know).
LogicalResult repadSharedRows(Value root, int64_t newSize);

} // namespace pk
} // namespace mlir

#endif // PK_LDMATRIX_H
