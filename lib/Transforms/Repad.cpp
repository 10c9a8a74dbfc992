//===- Repad.cpp - Grow the rows of a shared buffer -----------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Re-pads a static shared buffer: its innermost dimension grows, and every
// subview / expand_shape / collapse_shape of it takes the type that follows.
// Accesses go through indices, so each element keeps its index and only its
// address moves; the padding columns stay unread. A use whose meaning
// depends on the innermost size (an expand_shape or collapse_shape of the
// buffer itself, a masked transfer of the buffer, a vector load or store or
// a copy that may run past a row in some thread, an op pk does not know)
// makes the plan fail before anything changes.
// pk-use-ldmatrix (Ldmatrix.cpp) re-pads IREE's 8-byte rows to 16 bytes.
// Tests: test/pk-use-ldmatrix.mlir.
//
//===----------------------------------------------------------------------===//

#include "RepadInternal.h"

#include "pk/Ldmatrix.h"
#include "pk/ThreadValues.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-repad"

using namespace mlir;
using namespace mlir::pk;

/// Whether the transfer op `op` stays in bounds on every dimension.
static bool allInBounds(VectorTransferOpInterface op) {
  return !op.getMask() &&
         llvm::all_of(llvm::seq<unsigned>(0, op.getTransferRank()),
                      [&](unsigned i) { return op.isDimInBounds(i); });
}

/// Whether the `count` contiguous elements an access of `memref` (a view of
/// a buffer with rows of `rowSize` elements) makes at `indices` stay inside
/// one row of the buffer in every thread of the kernel's known block size:
/// vector.load / store and copies may run past a row, which re-padding
/// would change. Indices pk cannot evaluate per thread prove nothing.
static bool staysInRow(Operation *op, Value memref, ValueRange indices,
                       int64_t count, int64_t rowSize) {
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  std::optional<std::array<int64_t, 3>> dims =
      kernel ? getKnownBlockDims(kernel) : std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  auto type = cast<MemRefType>(memref.getType());
  if (!dims || failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return false;
  ThreadValues values(*dims);
  if (values.getNumThreads() > kMaxEvaluatedThreads)
    return false;
  for (int64_t tid = 0; tid < values.getNumThreads(); ++tid) {
    std::optional<SmallVector<int64_t>> threadIndices =
        values.evaluate(indices, tid);
    if (!threadIndices)
      return false;
    int64_t element = offset;
    for (auto [index, stride] : llvm::zip(*threadIndices, strides))
      element += index * stride;
    if (element < 0 || element % rowSize + count > rowSize)
      return false;
  }
  return true;
}

/// The elements along the innermost dimension a vector access of type
/// `type` makes, or 0 when it spans several rows (an n-D vector).
static int64_t getRowElements(VectorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  if (type.isScalable() ||
      llvm::any_of(shape.drop_back(), [](int64_t d) { return d != 1; }))
    return 0;
  return shape.empty() ? 1 : shape.back();
}

/// Whether `user` only accesses `value` through indices that do not depend
/// on its innermost size (`rowSize` elements): transfers in bounds (of the
/// buffer itself: on every dimension; a masked access past the old row
/// would reach the padding), scalar loads and stores, vector loads and
/// stores, copies and ldmatrix that stay inside a row, deallocs.
static bool isIndexedAccess(Operation *user, Value value, bool isRoot,
                            int64_t rowSize) {
  auto inRow = [&](ValueRange indices, int64_t count) {
    return count > 0 && staysInRow(user, value, indices, count, rowSize);
  };
  return llvm::TypeSwitch<Operation *, bool>(user)
      .Case<vector::TransferReadOp, vector::TransferWriteOp>([&](auto op) {
        return op.getBase() == value &&
               (!isRoot || allInBounds(cast<VectorTransferOpInterface>(
                               op.getOperation())));
      })
      .Case<vector::LoadOp, vector::StoreOp>([&](auto op) {
        return op.getBase() == value &&
               inRow(op.getIndices(), getRowElements(op.getVectorType()));
      })
      .Case([&](nvgpu::LdMatrixOp op) {
        return inRow(op.getIndices(),
                     128 /
                         op.getSrcMemref().getType().getElementTypeBitWidth());
      })
      .Case([&](nvgpu::DeviceAsyncCopyOp op) {
        int64_t count = op.getDstElements().getSExtValue();
        return op.getDst() == value ? inRow(op.getDstIndices(), count)
                                    : inRow(op.getSrcIndices(), count);
      })
      .Case<memref::LoadOp, memref::StoreOp>(
          [&](auto op) { return op.getMemRef() == value; })
      .Case([](memref::DeallocOp) { return true; })
      .Default([](Operation *) { return false; });
}

/// The type of the view `user` of `value` when `value` becomes `type`, or
/// null when `user` is no view pk re-types.
static MemRefType retypeView(Operation *user, MemRefType type, bool isRoot) {
  return llvm::TypeSwitch<Operation *, MemRefType>(user)
      .Case([&](memref::SubViewOp view) {
        return memref::SubViewOp::inferRankReducedResultType(
            view.getType().getShape(), type, view.getMixedOffsets(),
            view.getMixedSizes(), view.getMixedStrides());
      })
      .Case([&](memref::ExpandShapeOp view) -> MemRefType {
        if (isRoot)
          return nullptr;
        FailureOr<MemRefType> result =
            memref::ExpandShapeOp::computeExpandedType(
                type, view.getType().getShape(),
                view.getReassociationIndices());
        return succeeded(result) ? *result : nullptr;
      })
      .Case([&](memref::CollapseShapeOp view) -> MemRefType {
        SmallVector<ReassociationIndices> groups =
            view.getReassociationIndices();
        if (isRoot ||
            !memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups))
          return nullptr;
        return memref::CollapseShapeOp::computeCollapsedType(type, groups);
      })
      .Default([](Operation *) { return nullptr; });
}

FailureOr<DenseMap<Value, MemRefType>>
mlir::pk::detail::planRepad(Value root, int64_t newSize) {
  auto type = dyn_cast<MemRefType>(root.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getRank() < 1 || newSize < type.getShape().back()) {
    LDBG() << "not re-padded: not a static identity-layout buffer: " << root;
    return failure();
  }
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = newSize;
  DenseMap<Value, MemRefType> plan;
  plan[root] =
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface{},
                      type.getMemorySpace());
  SmallVector<Value> worklist = {root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    bool isRoot = value == root;
    for (Operation *user : value.getUsers()) {
      if (isIndexedAccess(user, value, isRoot, type.getShape().back()))
        continue;
      MemRefType viewType = retypeView(user, plan[value], isRoot);
      if (!viewType) {
        LDBG() << "not re-padded: its use '" << user->getName()
               << "' depends on the row size";
        return failure();
      }
      plan[user->getResult(0)] = viewType;
      worklist.push_back(user->getResult(0));
    }
  }
  return plan;
}

LogicalResult mlir::pk::repadSharedRows(Value root, int64_t newSize) {
  FailureOr<DenseMap<Value, MemRefType>> plan =
      detail::planRepad(root, newSize);
  if (failed(plan))
    return failure();
  for (auto [value, type] : *plan)
    value.setType(type);
  return success();
}
