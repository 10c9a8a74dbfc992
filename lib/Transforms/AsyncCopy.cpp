//===- AsyncCopy.cpp - Turn planned tile copies into cp.async -------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Applies the plans of AsyncCopyPlan.h: each global load + shared store
// becomes one or more `nvgpu.device_async_copy` of the planned width (16-byte
// copies bypass L1); a zero-padded partial read copies only its in-bounds
// elements and zero-fills the rest. Tests: test/pk-pipeline-kloops.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/PipelineSteps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::pk;

/// Partial tile: copy min(max(dim - index, 0), perCopy) elements, zero the
/// rest; a copy entirely out of bounds reads nothing (and points at column 0
/// so that its address stays inside the row). A masked read (plan.maskSize)
/// also copies no element at or past the mask size (`firstElement` is the
/// copy's first element in the read's vector), and a copy that reads
/// nothing points at element 0 of the buffer: its indices may be anywhere
/// (an im2col row in the padding). A guarded read (plan.guard) is a read
/// masked off entirely when its guard fails. Updates the source indices and
/// returns the source size.
static Value clampPartialCopy(RewriterBase &rewriter, Location loc,
                              const AsyncCopyPlan &plan,
                              SmallVectorImpl<Value> &srcIndices,
                              int64_t firstElement, int64_t perCopy) {
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value full = arith::ConstantIndexOp::create(rewriter, loc, perCopy);
  // The elements left in the row (a partial tile). A read that is only
  // guarded copies whole pieces (as unguarded: a vector.load may span rows
  // of a contiguous memref).
  Value left, count = full;
  if (plan.masked) {
    Value memref = getAccessedMemRef(plan.load);
    unsigned innermost = cast<MemRefType>(memref.getType()).getRank() - 1;
    Value dim = memref::DimOp::create(rewriter, loc, memref, innermost);
    left = arith::SubIOp::create(rewriter, loc, dim, srcIndices.back());
    count = arith::MinSIOp::create(rewriter, loc, left, full);
  }
  Value length =
      arith::ConstantIndexOp::create(rewriter, loc, plan.numElements);
  Value maskSize = plan.maskSize;
  if (plan.guard) {
    // A failed guard masks off every element.
    Value unguarded = maskSize ? maskSize : length;
    maskSize = plan.guardNegated
                   ? arith::SelectOp::create(rewriter, loc, plan.guard, zero,
                                             unguarded)
                   : arith::SelectOp::create(rewriter, loc, plan.guard,
                                             unguarded, zero);
  }
  if (maskSize) {
    // The mask's size clamped to [0, vector length] first, as create_mask
    // does: subtracting from an extreme size would wrap.
    Value size = arith::MaxSIOp::create(
        rewriter, loc, arith::MinSIOp::create(rewriter, loc, maskSize, length),
        zero);
    Value first = arith::ConstantIndexOp::create(rewriter, loc, firstElement);
    Value unmasked = arith::SubIOp::create(rewriter, loc, size, first);
    count = arith::MinSIOp::create(rewriter, loc, count, unmasked);
  }
  Value srcElements = arith::MaxSIOp::create(rewriter, loc, count, zero);
  Value inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt,
                                       maskSize ? count : left, zero);
  for (Value &srcIndex : maskSize
                             ? MutableArrayRef<Value>(srcIndices)
                             : MutableArrayRef<Value>(srcIndices).take_back())
    srcIndex = arith::SelectOp::create(rewriter, loc, inside, srcIndex, zero);
  return srcElements;
}

/// Erases the replaced loads, extracts and stores in an order that leaves no
/// dangling use: stores, then extracts, then loads. Each group is taken
/// before anything is erased (an erased op must not be looked at again).
static void eraseReplacedOps(RewriterBase &rewriter,
                             const llvm::SetVector<Operation *> &dead) {
  SmallVector<Operation *> stores, extracts, loads;
  for (Operation *op : dead)
    (op->getNumResults() == 0     ? stores
     : isa<vector::ExtractOp>(op) ? extracts
                                  : loads)
        .push_back(op);
  for (Operation *op : stores)
    rewriter.eraseOp(op);
  for (ArrayRef<Operation *> group : {ArrayRef(extracts), ArrayRef(loads)})
    for (Operation *op : group)
      if (op->use_empty())
        rewriter.eraseOp(op);
}

SmallVector<Value> mlir::pk::detail::convertToAsyncCopies(
    RewriterBase &rewriter, ArrayRef<AsyncCopyPlan> plans, scf::ForOp forOp) {
  SmallVector<Value> tokens;
  llvm::SetVector<Operation *> dead, guards;
  Type tokenType = nvgpu::DeviceAsyncTokenType::get(rewriter.getContext());
  for (const AsyncCopyPlan &plan : plans) {
    if (plan.registerPath)
      continue;
    if (plan.alreadyAsync) {
      auto copy = cast<nvgpu::DeviceAsyncCopyOp>(plan.store);
      if (copy->getParentOp() == forOp.getOperation())
        tokens.push_back(copy.getAsyncToken());
      continue;
    }
    Operation *store = plan.store;
    Location loc = store->getLoc();
    rewriter.setInsertionPoint(store);
    int64_t perCopy = plan.width / plan.elemBytes;
    int64_t pieces = plan.numElements / perCopy;
    auto shifted = [&](ValueRange indices, int64_t delta) {
      SmallVector<Value> result(indices);
      if (delta != 0) {
        Value cst = arith::ConstantIndexOp::create(rewriter, loc, delta);
        result.back() =
            arith::AddIOp::create(rewriter, loc, result.back(), cst);
      }
      return result;
    };
    for (int64_t piece = 0; piece < pieces; ++piece) {
      SmallVector<Value> srcIndices = shifted(
          getAccessIndices(plan.load), plan.elementOffset + piece * perCopy);
      SmallVector<Value> dstIndices =
          shifted(getAccessIndices(store), piece * perCopy);
      Value srcElements;
      if (plan.masked || plan.guard)
        srcElements = clampPartialCopy(rewriter, loc, plan, srcIndices,
                                       piece * perCopy, perCopy);
      auto copy = nvgpu::DeviceAsyncCopyOp::create(
          rewriter, loc, tokenType, getAccessedMemRef(store), dstIndices,
          getAccessedMemRef(plan.load), srcIndices,
          rewriter.getIndexAttr(perCopy), srcElements,
          plan.width == 16 ? rewriter.getUnitAttr() : UnitAttr());
      if (copy->getParentOp() == forOp.getOperation())
        tokens.push_back(copy.getAsyncToken());
    }
    dead.insert(store);
    if (Operation *def = getAccessValue(store).getDefiningOp())
      if (isa<vector::ExtractOp>(def))
        dead.insert(def);
    dead.insert(plan.load);
    if (plan.guard)
      guards.insert(getAccessValue(store).getDefiningOp());
  }
  eraseReplacedOps(rewriter, dead);
  // The guards' scf.if ops last, once their results are unused: each takes
  // its loads (still used by its yields, so not erased above) with it.
  for (Operation *guard : guards)
    if (guard->use_empty())
      rewriter.eraseOp(guard);
  return tokens;
}
