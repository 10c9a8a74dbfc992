//===- AsyncCopyPlan.cpp - Can the tile copies become cp.async? ----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Proves, without changing the IR, that every global -> shared copy of a
// matched K-loop is a contiguous access whose global and shared addresses are
// aligned to the cp.async width (4, 8 or 16 bytes), from the constants,
// thread ids and induction variables its indices are built from, the
// memref's strides and offset, and `alignment` attributes.
// Tests: test/pk-pipeline-kloops*.mlir (widths, fallbacks).
//
//===----------------------------------------------------------------------===//

#include "AsyncCopyPlanInternal.h"

#include "pk/AsyncCopyPlan.h"
#include "pk/KLoopMatcher.h"
#include "pk/MemoryAccess.h"
#include "pk/Support.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

#define DEBUG_TYPE "pk-async-copy-plan"

using namespace mlir;
using namespace mlir::pk;

/// Divisors are capped here: far above any alignment pk proves.
static constexpr int64_t kLargeDivisor = int64_t(1) << 20;

static int64_t knownDivisor(Value v, unsigned depth = 0);

/// The largest power of two dividing `d` (d > 0).
static int64_t powerOfTwoPart(int64_t d) { return d & -d; }

/// A divisor of the affine expression `expr` whose dims and symbols are
/// `operands` (dims first): sums take the gcd, products multiply, `x mod c`
/// keeps gcd(divisor(x), c); floordiv and ceildiv prove nothing.
static int64_t knownDivisor(AffineExpr expr, ValueRange operands,
                            unsigned numDims, unsigned depth) {
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return cst.getValue() == 0
               ? kLargeDivisor
               : std::min<int64_t>(std::abs(cst.getValue()), kLargeDivisor);
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return knownDivisor(operands[dim.getPosition()], depth + 1);
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return knownDivisor(operands[numDims + sym.getPosition()], depth + 1);
  auto bin = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = knownDivisor(bin.getLHS(), operands, numDims, depth);
  int64_t rhs = knownDivisor(bin.getRHS(), operands, numDims, depth);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return std::gcd(lhs, rhs);
  case AffineExprKind::Mul:
    return std::min(kLargeDivisor, saturatingMul(lhs, rhs));
  case AffineExprKind::Mod:
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return std::gcd(lhs, std::abs(c.getValue()));
    return 1;
  default:
    return 1;
  }
}

/// A divisor of an integer binary operation of pk's index arithmetic.
static int64_t knownDivisorOfArith(Operation *def, unsigned depth) {
  auto operandDivisor = [&](unsigned i) {
    return knownDivisor(def->getOperand(i), depth + 1);
  };
  if (isa<arith::MulIOp>(def))
    return std::min(kLargeDivisor,
                    saturatingMul(operandDivisor(0), operandDivisor(1)));
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::gcd(operandDivisor(0), operandDivisor(1));
  // x rem c = x - c * (x div c).
  if (isa<arith::RemUIOp, arith::RemSIOp>(def))
    if (auto c = getConstantIntValue(def->getOperand(1)); c && *c != 0)
      return std::gcd(operandDivisor(0), std::abs(*c));
  if (isa<arith::ShLIOp>(def))
    if (auto amount = getConstantIntValue(def->getOperand(1)))
      if (*amount >= 0 && *amount < 20)
        return std::min(kLargeDivisor, operandDivisor(0) << *amount);
  // Bitwise ops keep the low zero bits both operands share (and, for
  // `and`, those either operand has).
  if (isa<arith::AndIOp>(def))
    return std::max(powerOfTwoPart(operandDivisor(0)),
                    powerOfTwoPart(operandDivisor(1)));
  if (isa<arith::OrIOp, arith::XOrIOp>(def))
    return std::min(powerOfTwoPart(operandDivisor(0)),
                    powerOfTwoPart(operandDivisor(1)));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return operandDivisor(0);
  return 1;
}

/// A divisor known for the integer value `v` (1 if nothing is known): enough
/// to prove the alignment of tile copies whose indices are built from
/// constants, thread ids and loop induction variables with arith ops or
/// `affine.apply`.
static int64_t knownDivisor(Value v, unsigned depth) {
  if (depth > 32)
    return 1;
  if (auto cst = getConstantIntValue(v))
    return *cst == 0 ? kLargeDivisor
                     : std::min<int64_t>(std::abs(*cst), kLargeDivisor);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (forOp && arg == forOp.getInductionVar())
      return std::gcd(knownDivisor(forOp.getLowerBound(), depth + 1),
                      knownDivisor(forOp.getStep(), depth + 1));
    return 1;
  }
  Operation *def = v.getDefiningOp();
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def))
    return knownDivisor(apply.getAffineMap().getResult(0),
                        apply.getMapOperands(),
                        apply.getAffineMap().getNumDims(), depth);
  return knownDivisorOfArith(def, depth);
}

/// A divisor known for a subview offset, size or stride.
static int64_t knownDivisor(OpFoldResult ofr) {
  if (auto value = dyn_cast<Value>(ofr))
    return knownDivisor(value);
  int64_t cst = cast<IntegerAttr>(cast<Attribute>(ofr)).getInt();
  return cst == 0 ? kLargeDivisor
                  : std::min<int64_t>(std::abs(cst), kLargeDivisor);
}

/// Maps divisors of the indices into `subview` to divisors of the indices
/// into its source: source index = offset + index * stride on each kept
/// dimension, the offset on each dimension the subview drops.
static SmallVector<int64_t> divisorsInSource(memref::SubViewOp subview,
                                             ArrayRef<int64_t> divisors) {
  llvm::SmallBitVector dropped = subview.getDroppedDims();
  SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
  SmallVector<OpFoldResult> strides = subview.getMixedStrides();
  SmallVector<int64_t> result;
  unsigned next = 0;
  for (unsigned dim = 0, e = offsets.size(); dim < e; ++dim) {
    int64_t index = dropped.test(dim) ? kLargeDivisor : divisors[next++];
    int64_t scaled =
        std::min(kLargeDivisor, index * knownDivisor(strides[dim]));
    result.push_back(std::gcd(scaled, knownDivisor(offsets[dim])));
  }
  return result;
}

/// The alignment of the buffer `memref` views (kBaseAlignment at most):
/// what a `memref.assume_alignment` asserts, or the `llvm.align` attribute
/// of a kernel argument, else kBaseAlignment. Moves `memref` past the
/// assume_alignment.
static int64_t baseAlignment(Value &memref) {
  if (auto assume = memref.getDefiningOp<memref::AssumeAlignmentOp>()) {
    memref = assume.getMemref();
    return std::min<int64_t>(kBaseAlignment,
                             powerOfTwoPart(assume.getAlignment()));
  }
  auto arg = dyn_cast<BlockArgument>(memref);
  auto func = arg ? dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp())
                  : gpu::GPUFuncOp();
  if (!func || arg.getOwner() != &func.getBody().front() ||
      arg.getArgNumber() >= func.getNumArguments())
    return kBaseAlignment;
  auto align =
      func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "llvm.align");
  return align && align.getInt() > 0
             ? std::min(kBaseAlignment, powerOfTwoPart(align.getInt()))
             : kBaseAlignment;
}

/// The alignment in bytes proven for the address of element `indices` (+
/// `extraElements` on the innermost dimension) of `memref`, through the
/// `memref.subview`s it is a view of, with the base aligned to
/// kBaseAlignment; capped at 16. `stageBytes` > 0 accounts for a leading
/// stage dimension pk will add. With `runtimeChecked`, a buffer with a
/// dynamic offset or dynamic strides counts as if its first element and its
/// strides were 16-byte aligned, and `*runtimeChecked` is set to it: the
/// caller checks that at run time.
static int64_t provenAlignment(Value memref, ValueRange indices,
                               int64_t extraElements, int64_t stageBytes,
                               Value *runtimeChecked = nullptr) {
  SmallVector<int64_t> divisors = llvm::map_to_vector(
      indices, [](Value index) { return knownDivisor(index); });
  if (extraElements != 0 && !divisors.empty())
    divisors.back() = std::gcd(divisors.back(), extraElements);
  while (auto subview = memref.getDefiningOp<memref::SubViewOp>()) {
    divisors = divisorsInSource(subview, divisors);
    memref = subview.getSource();
  }
  int64_t align = baseAlignment(memref);
  // Any other view may shift the base by any number of bytes: only bases pk
  // knows (kernel arguments, globals, allocations) are 16-byte aligned.
  if (memref.getDefiningOp<ViewLikeOpInterface>())
    return 1;
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return 1;
  if (ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic)) {
    if (!runtimeChecked)
      return 1;
    *runtimeChecked = memref;
  }
  int64_t elemBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  // Dynamic values are the runtime-checked multiples of 16 bytes.
  auto combine = [&](int64_t bytes) {
    if (bytes != 0)
      align = std::gcd(align, bytes);
  };
  // Only the power-of-two part of each term matters for the alignment: keep
  // it (at most kLargeDivisor), so that the products cannot overflow.
  auto capped = [](int64_t n) {
    int64_t part = powerOfTwoPart(n);
    return part <= 0 || part > kLargeDivisor ? kLargeDivisor : part;
  };
  auto bytesOf = [&](int64_t elements) {
    return elements == 0 ? 0 : capped(elements) * elemBytes;
  };
  if (!ShapedType::isDynamic(offset))
    combine(bytesOf(offset));
  combine(stageBytes);
  for (auto [divisor, stride] : llvm::zip(divisors, strides))
    if (!ShapedType::isDynamic(stride) && stride != 0)
      combine(bytesOf(capped(capped(divisor) * capped(stride))));
  return align;
}

/// Whether the innermost dimension of `memref` has a static unit stride.
static bool hasUnitInnermostStride(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  return type.getRank() == 0 ||
         (succeeded(type.getStridesAndOffset(strides, offset)) &&
          strides.back() == 1);
}

/// Whether `read` is a 1-D, unmasked, minor-identity transfer_read whose
/// out-of-bounds elements are padded with zero: exactly what cp.async with a
/// source size does.
static bool isZeroPaddedPartialRead(Operation *op) {
  auto read = dyn_cast<vector::TransferReadOp>(op);
  if (!read || read.getVectorType().getRank() != 1 || read.getMask() ||
      !read.getPermutationMap().isMinorIdentity() ||
      !hasUnitInnermostStride(read.getBase()))
    return false;
  Attribute pad;
  if (!matchPattern(read.getPadding(), m_Constant(&pad)))
    return false;
  if (auto f = dyn_cast<FloatAttr>(pad))
    return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(pad))
    return i.getValue().isZero();
  return false;
}

/// Whether the global read or shared write `op` is a contiguous, unmasked,
/// in-bounds access along the innermost dimension: a scalar, or a vector
/// whose outer dimensions are all 1 (`vector<1x4xf32>`, folded to 1-D) on a
/// memref with a unit innermost stride.
static bool isContiguousAccess(Operation *op) {
  if (isa<memref::LoadOp, memref::StoreOp>(op))
    return true;
  std::optional<MemoryAccess> access = getMemoryAccess(op);
  auto vectorType =
      access ? dyn_cast<VectorType>(access->value.getType()) : VectorType();
  if (!vectorType || !hasOnlyUnitOuterDims(vectorType) ||
      !hasUnitInnermostStride(access->memref))
    return false;
  if (isa<vector::LoadOp, vector::StoreOp>(op))
    return true;
  auto xfer = dyn_cast<VectorTransferOpInterface>(op);
  return xfer && !xfer.getMask() &&
         xfer.getPermutationMap().isMinorIdentity() &&
         llvm::all_of(xfer.getInBoundsValues(), [](bool b) { return b; });
}

/// The `alignment` attribute of a vector.load / vector.store, or 0.
static int64_t assertedAlignment(Operation *op) {
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getAlignment().value_or(0);
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getAlignment().value_or(0);
  return 0;
}

/// An `nvgpu.device_async_copy` already in the loop is kept as it is.
static AsyncCopyPlan planExistingAsyncCopy(const TileCopy &copy) {
  auto copyOp = cast<nvgpu::DeviceAsyncCopyOp>(copy.load);
  AsyncCopyPlan plan;
  plan.load = plan.store = copyOp;
  plan.alreadyAsync = true;
  plan.numElements = copyOp.getDstElements().getSExtValue();
  plan.elemBytes =
      llvm::divideCeil(copyOp.getDst().getType().getElementTypeBitWidth(), 8);
  plan.width = saturatingMul(plan.numElements, plan.elemBytes);
  return plan;
}

/// `value` modulo `modulus` (> 0), in [0, modulus).
DeclineOr<SmallVector<AsyncCopyPlan>>
mlir::pk::planAsyncCopies(const KLoopInfo &info) {
  SmallVector<AsyncCopyPlan> plans;
  auto failWith = [&](Operation *op, const Twine &msg) {
    LDBG() << "cp.async not possible: " << msg << " -> BAIL";
    return Decline(op, msg);
  };
  if (info.tma)
    return failWith(info.tma->wait,
                    "the copies are TMA loads (nvgpu.tma.async.load)");
  for (const TileCopy &copy : info.copies) {
    if (copy.async) {
      plans.push_back(planExistingAsyncCopy(copy));
      continue;
    }
    Operation *load = copy.load;
    Value loaded = getAccessValue(load);
    bool masked = !isContiguousAccess(load) && isZeroPaddedPartialRead(load);
    if (!isContiguousAccess(load) && !masked)
      return failWith(load, "cp.async needs a 1-D contiguous, unmasked global "
                            "read, in bounds or zero-padded");
    for (Operation *store : copy.stores) {
      AsyncCopyPlan plan{load, store};
      plan.masked = masked;
      Value stored = getAccessValue(store);
      Type elemType = getElementTypeOrSelf(loaded.getType());
      plan.elemBytes = llvm::divideCeil(elemType.getIntOrFloatBitWidth(), 8);
      if (stored == loaded) {
        if (!isContiguousAccess(store))
          return failWith(store, "cp.async needs a 1-D contiguous, unmasked, "
                                 "in-bounds shared write");
        plan.numElements = getNumElements(loaded.getType());
      } else if (auto extract = stored.getDefiningOp<vector::ExtractOp>();
                 !masked && extract && extract.getSource() == loaded &&
                 !isa<VectorType>(stored.getType()) &&
                 extract.getStaticPosition().size() == 1 &&
                 !ShapedType::isDynamic(extract.getStaticPosition()[0])) {
        plan.elementOffset = extract.getStaticPosition()[0];
        plan.numElements = 1;
      } else {
        return failWith(store, "cp.async needs the shared store to write the "
                               "loaded value or one element of it unchanged");
      }
      int64_t bytes = saturatingMul(plan.numElements, plan.elemBytes);
      // A stage is the whole buffer, not the subview the store writes.
      auto dstType = cast<MemRefType>(
          getSubViewSource(getAccessedMemRef(store)).getType());
      int64_t stageBytes = getSizeInBytes(dstType).value_or(1);
      // A global buffer with a dynamic offset or strides defined before
      // the loop: the width may assume it aligned, and pipelining versions
      // the loop on that at run time.
      int64_t asserted = plan.elementOffset == 0 ? assertedAlignment(load) : 0;
      int64_t provenSrcAlign = std::max(provenAlignment(getAccessedMemRef(load),
                                                        getAccessIndices(load),
                                                        plan.elementOffset, 0),
                                        asserted);
      Value runtimeChecked;
      int64_t srcAlign = std::max(
          provenAlignment(getAccessedMemRef(load), getAccessIndices(load),
                          plan.elementOffset, 0, &runtimeChecked),
          asserted);
      if (!runtimeChecked ||
          info.forOp->isAncestor(
              runtimeChecked.getParentRegion()->getParentOp()))
        srcAlign = provenSrcAlign;
      int64_t dstAlign =
          std::max(provenAlignment(getAccessedMemRef(store),
                                   getAccessIndices(store), 0, stageBytes),
                   assertedAlignment(store));
      plan.width = 0;
      for (int64_t width : {16, 8, 4}) {
        if (bytes % width == 0 && srcAlign % width == 0 &&
            dstAlign % width == 0) {
          plan.width = width;
          break;
        }
      }
      // Versioning only where the proof falls short of the width.
      if (plan.width != 0 && provenSrcAlign % plan.width != 0)
        plan.runtimeAligned = runtimeChecked;
      if (plan.width == 0)
        return failWith(store,
                        llvm::formatv("cp.async copies 4, 8 or 16 bytes: "
                                      "this copy moves {0} bytes with proven "
                                      "alignment {1} (global) / {2} (shared)",
                                      bytes, srcAlign, dstAlign));
      plans.push_back(plan);
    }
  }
  // The group's token comes from a copy made directly in the loop body.
  scf::ForOp forOp = info.forOp;
  if (llvm::none_of(plans, [&](const AsyncCopyPlan &plan) {
        return plan.store->getParentOp() == forOp.getOperation();
      }))
    return failWith(info.forOp, "cp.async needs at least one copy directly "
                                "in the K-loop body (all copies are in "
                                "nested loops)");
  if (DeclineOr<void> disjoint = detail::checkDisjointDestinations(info, plans);
      failed(disjoint))
    return disjoint.takeDecline();
  return plans;
}

int64_t mlir::pk::getNarrowestWidth(ArrayRef<AsyncCopyPlan> plans) {
  int64_t width = 16;
  for (const AsyncCopyPlan &plan : plans)
    width = std::min(width, plan.width);
  return width;
}

void mlir::pk::getRuntimeAlignedMemRefs(ArrayRef<AsyncCopyPlan> plans,
                                        SmallVectorImpl<Value> &memrefs) {
  for (const AsyncCopyPlan &plan : plans)
    if (plan.runtimeAligned &&
        !llvm::is_contained(memrefs, plan.runtimeAligned))
      memrefs.push_back(plan.runtimeAligned);
}
