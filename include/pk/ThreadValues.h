//===- ThreadValues.h - Index values thread by thread -----------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The value an index computation takes in each thread of a block of known
// size: constants, thread ids and the integer arithmetic between them
// (affine.apply, affine.delinearize_index / linearize_index, arith) are
// evaluated for one linear thread id at a time. pk checks lane patterns with
// it (which element of a tile each lane of a warp reads), where an affine
// proof would have to see through IREE's delinearized thread maps.
//
//===----------------------------------------------------------------------===//

#ifndef PK_THREADVALUES_H
#define PK_THREADVALUES_H

#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <optional>

namespace mlir {
namespace affine {
class AffineApplyOp;
class AffineDelinearizeIndexOp;
class AffineLinearizeIndexOp;
} // namespace affine
namespace gpu {
class GPUFuncOp;
} // namespace gpu

namespace pk {

/// Blocks larger than this (CUDA's limit) are not evaluated thread by
/// thread.
constexpr int64_t kMaxEvaluatedThreads = 1024;

/// The block size `kernel` declares (`known_block_size`), or nullopt.
std::optional<std::array<int64_t, 3>> getKnownBlockDims(gpu::GPUFuncOp kernel);

/// Whether `v` is the same in every thread of a block: nothing it is
/// computed from is a thread id, a lane id or a value pk cannot trace
/// (a loop-carried value, a region's result). Induction variables of
/// scf.for loops with uniform bounds are uniform.
bool isThreadUniform(Value v);

/// Evaluates index values for one thread of a block of known size at a time.
class ThreadValues {
public:
  explicit ThreadValues(std::array<int64_t, 3> blockDims)
      : blockDims(blockDims) {}

  /// Threads in the block.
  int64_t getNumThreads() const {
    return blockDims[0] * blockDims[1] * blockDims[2];
  }

  /// The value of `v` in the thread of linear id `linearTid` (x fastest),
  /// or nullopt when `v` depends on anything but constants and thread ids
  /// or on an operation this evaluator does not know.
  std::optional<int64_t> evaluate(Value v, int64_t linearTid);

  /// The values of `values` in that thread, or nullopt when one is unknown.
  std::optional<SmallVector<int64_t>> evaluate(ValueRange values,
                                               int64_t linearTid);

private:
  std::optional<int64_t> eval(Value v, unsigned depth);
  std::optional<int64_t> evalOp(Operation *op, Value v, unsigned depth);
  std::optional<int64_t> evalAffineApply(affine::AffineApplyOp apply,
                                         unsigned depth);
  /// Evaluates (and caches) every result; returns `v`'s.
  std::optional<int64_t> evalDelinearize(affine::AffineDelinearizeIndexOp op,
                                         Value v, unsigned depth);
  std::optional<int64_t> evalLinearize(affine::AffineLinearizeIndexOp op,
                                       unsigned depth);

  std::array<int64_t, 3> blockDims;
  std::array<int64_t, 3> threadId = {0, 0, 0};
  int64_t linearId = -1;
  llvm::DenseMap<Value, int64_t> cache;
};

} // namespace pk
} // namespace mlir

#endif // PK_THREADVALUES_H
