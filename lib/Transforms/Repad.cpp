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
// buffer itself, an access of the buffer that may run past a row, an op pk
// does not know) makes the plan fail before anything changes.
// pk-use-ldmatrix (Ldmatrix.cpp) re-pads IREE's 8-byte rows to 16 bytes.
// Tests: test/pk-use-ldmatrix.mlir.
//
//===----------------------------------------------------------------------===//

#include "RepadInternal.h"

#include "pk/Ldmatrix.h"

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

/// Whether `user` only accesses `value` through indices that do not depend
/// on its innermost size: loads, stores, copies, ldmatrix, dealloc.
/// Accesses of the buffer itself must stay in bounds (a masked access past
/// the old row would now reach the padding).
static bool isIndexedAccess(Operation *user, Value value, bool isRoot) {
  return llvm::TypeSwitch<Operation *, bool>(user)
      .Case<vector::TransferReadOp, vector::TransferWriteOp>([&](auto op) {
        return op.getBase() == value &&
               (!isRoot || allInBounds(cast<VectorTransferOpInterface>(
                               op.getOperation())));
      })
      .Case([&](vector::LoadOp op) { return op.getBase() == value; })
      .Case([&](vector::StoreOp op) { return op.getBase() == value; })
      .Case([&](memref::LoadOp op) { return op.getMemRef() == value; })
      .Case([&](memref::StoreOp op) { return op.getMemRef() == value; })
      .Case<nvgpu::LdMatrixOp, nvgpu::DeviceAsyncCopyOp, memref::DeallocOp>(
          [](Operation *) { return true; })
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
      if (isIndexedAccess(user, value, isRoot))
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
