//===- MultiBufferInternal.h - Multi-buffering internals --------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// What the precondition (BufferUses.cpp) and the rewrite (MultiBuffer.cpp)
// of multi-buffering both need: a buffer's handles and the views pk
// re-creates per stage. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_TRANSFORMS_MULTIBUFFERINTERNAL_H
#define PK_LIB_TRANSFORMS_MULTIBUFFERINTERNAL_H

#include "pk/KLoopInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
namespace pk {
namespace detail {

/// Every value through which the kernel reaches `buffer`'s storage: the
/// root, or every memref.get_global of its symbol in the kernel.
SmallVector<Value> getBufferHandles(const SharedBuffer &buffer,
                                    gpu::GPUFuncOp kernel);

/// Whether `op` is a view pk re-creates on a stage: a memref.subview, or a
/// memref.expand_shape / collapse_shape (IREE reads its tiles through them).
bool isStageableView(Operation *op);

/// The type of `reshape` (an expand_shape or collapse_shape) on a source of
/// type `source`: the same shape, the layout that source implies.
FailureOr<MemRefType> getReshapedType(Operation *reshape, MemRefType source);

/// `type` with a dynamic offset: what a view of one stage has.
MemRefType withDynamicOffset(MemRefType type);

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_LIB_TRANSFORMS_MULTIBUFFERINTERNAL_H
