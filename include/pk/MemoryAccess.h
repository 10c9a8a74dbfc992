//===- MemoryAccess.h - The memory accesses pk recognizes -------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// One recognizer of the loads and stores pk reasons about, shared by the
// analysis, the cp.async planning and the multi-buffering, and the type and
// memory-space predicates they need.
//
//===----------------------------------------------------------------------===//

#ifndef PK_MEMORYACCESS_H
#define PK_MEMORYACCESS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir {
namespace gpu {
class GPUFuncOp;
} // namespace gpu

namespace pk {

/// How an operation pk recognizes touches memory: vector.load/store,
/// vector.transfer_read/write, memref.load/store, nvgpu.ldmatrix (reads) and
/// nvgpu.device_async_copy (a write of its destination).
struct MemoryAccess {
  Value memref;
  SmallVector<Value, 4> indices;
  bool isRead = false;
  bool isWrite = false;
  /// The value loaded (reads) or stored (writes; null for async copies).
  Value value;
};

/// The memory access `op` makes, or nullopt if pk does not know `op`.
std::optional<MemoryAccess> getMemoryAccess(Operation *op);

/// The memref `op` accesses (getMemoryAccess), or null.
Value getAccessedMemRef(Operation *op);

/// The indices of the access `op` makes (`op` must be an access).
SmallVector<Value, 4> getAccessIndices(Operation *op);

/// The value `op` loads or stores (`op` must be an access; null for async
/// copies).
Value getAccessValue(Operation *op);

/// Whether `type` lives in shared memory (3 or #gpu.address_space<workgroup>).
bool isSharedMemory(MemRefType type);

/// Whether `type` lives in global memory (the default space, 1, or
/// #gpu.address_space<global>).
bool isGlobalMemory(MemRefType type);

/// Size in bytes of a statically shaped memref or vector, or of a scalar, of
/// whole-byte integers or floats; nullopt otherwise, and when the size does
/// not fit in int64_t (the product is checked, unlike
/// ShapedType::getNumElements).
std::optional<int64_t> getSizeInBytes(Type type);

/// The largest shared buffer pk accepts: far above the shared memory of any
/// GPU (228 KB), and small enough that sums of buffers and their stage
/// multiples cannot overflow int64_t.
constexpr int64_t kMaxSharedBufferBytes = int64_t(1) << 32;

/// Elements of a vector type; 1 for a scalar.
int64_t getNumElements(Type type);

/// The bytes of static shared memory `kernel` declares: its workgroup
/// attributions and the workgroup memref.globals it reads (each once);
/// nullopt when one has no static size.
std::optional<int64_t> getStaticSharedBytes(gpu::GPUFuncOp kernel);

/// Follows view-like operations (subview, cast, expand_shape, ...) back to
/// the memref that owns the storage.
Value getRootMemRef(Value memref);

/// Follows the `memref.subview`s `memref` is a view of (upstream's tiling
/// reads and writes tiles through chains of them) back to the memref they
/// view; appends them to `chain`, the one defining `memref` first.
Value getSubViewSource(Value memref,
                       SmallVectorImpl<Operation *> *chain = nullptr);

/// The values the address of the access `op` is computed from: its indices
/// and the dynamic offsets of the `memref.subview`s it accesses through.
SmallVector<Value> getAddressOperands(Operation *op);

/// Whether `type` has no dimension above 1 but its innermost:
/// `vector<1x4xf32>` is 1-D data in a unit-dim vector.
bool hasOnlyUnitOuterDims(ShapedType type);

} // namespace pk
} // namespace mlir

#endif // PK_MEMORYACCESS_H
