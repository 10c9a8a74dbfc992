//===- RepadInternal.h - A shared buffer's new row size ---------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Transforms: the types the views of a shared buffer take
// when its rows grow (Repad.cpp), which pk-use-ldmatrix (Ldmatrix.cpp)
// checks its alignment against before it changes anything.
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_TRANSFORMS_REPADINTERNAL_H
#define PK_LIB_TRANSFORMS_REPADINTERNAL_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace pk {
namespace detail {

/// The new type of `root` and of every view of it when the innermost
/// dimension of `root` becomes `newSize` elements, or failure when a use
/// depends on that size (Ldmatrix.h, repadSharedRows).
FailureOr<llvm::DenseMap<Value, MemRefType>> planRepad(Value root,
                                                       int64_t newSize);

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_LIB_TRANSFORMS_REPADINTERNAL_H
