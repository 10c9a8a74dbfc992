//===- Alignment.cpp - Divisors and alignments pk proves ------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Divisors of index arithmetic (constants, thread ids, induction variables,
// arith ops, affine.apply) and the alignment of an access's address through
// the views of its buffer. Tests: test/pk-pipeline-kloops*.mlir (cp.async
// widths), test/pk-prove-shared-alignment.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/Alignment.h"
#include "pk/Support.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

#include <numeric>

using namespace mlir;
using namespace mlir::pk;

/// Divisors are capped here: far above any alignment pk proves.
static constexpr int64_t kLargeDivisor = int64_t(1) << 20;

static int64_t knownDivisor(Value v, unsigned depth);
static int64_t knownDivisor(OpFoldResult ofr, unsigned depth);

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

/// A divisor known for a subview offset, size or stride, or a basis.
static int64_t knownDivisor(OpFoldResult ofr, unsigned depth) {
  if (auto value = dyn_cast<Value>(ofr))
    return knownDivisor(value, depth);
  int64_t cst = cast<IntegerAttr>(cast<Attribute>(ofr)).getInt();
  return cst == 0 ? kLargeDivisor
                  : std::min<int64_t>(std::abs(cst), kLargeDivisor);
}

/// A divisor of `affine.linearize_index`: the gcd of each index times the
/// product of the basis elements after it.
static int64_t knownDivisorOfLinearize(affine::AffineLinearizeIndexOp op,
                                       unsigned depth) {
  SmallVector<OpFoldResult> basis = op.getMixedBasis();
  ValueRange indices = op.getMultiIndex();
  // Without an outer bound the basis lacks the first index's extent.
  size_t skipped = indices.size() - basis.size();
  int64_t result = kLargeDivisor, stride = 1;
  for (size_t i = indices.size(); i-- > 0;) {
    result = std::gcd(
        result,
        std::min(kLargeDivisor,
                 saturatingMul(knownDivisor(indices[i], depth + 1), stride)));
    if (i >= skipped)
      stride = std::min(
          kLargeDivisor,
          saturatingMul(stride, knownDivisor(basis[i - skipped], depth + 1)));
  }
  return result;
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
  if (auto linearize = dyn_cast<affine::AffineLinearizeIndexOp>(def))
    return knownDivisorOfLinearize(linearize, depth);
  // The last result of a delinearization is `x mod b`.
  if (auto delinearize = dyn_cast<affine::AffineDelinearizeIndexOp>(def)) {
    SmallVector<OpFoldResult> basis = delinearize.getMixedBasis();
    if (basis.empty() || v != delinearize.getMultiIndex().back())
      return 1;
    return std::gcd(knownDivisor(delinearize.getLinearIndex(), depth + 1),
                    knownDivisor(basis.back(), depth + 1));
  }
  return knownDivisorOfArith(def, depth);
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
        std::min(kLargeDivisor, index * knownDivisor(strides[dim], 0));
    result.push_back(std::gcd(scaled, knownDivisor(offsets[dim], 0)));
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

/// The divisor (in elements) of the part of the address of element
/// `divisors` (divisors of the indices) that a view of static strides adds
/// to its offset, or 0 if a stride is dynamic.
static int64_t indexTermDivisor(MemRefType type, ArrayRef<int64_t> divisors) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return 0;
  int64_t term = kLargeDivisor;
  for (auto [divisor, stride] : llvm::zip(divisors, strides))
    if (stride != 0)
      term = std::gcd(
          term, std::min(kLargeDivisor, saturatingMul(powerOfTwoPart(divisor),
                                                      powerOfTwoPart(stride))));
  return term;
}

int64_t mlir::pk::getKnownDivisor(Value v) { return knownDivisor(v, 0); }

AlignmentProof mlir::pk::proveAlignment(Value memref, ValueRange indices,
                                        int64_t extraElements,
                                        int64_t stageBytes,
                                        bool allowRuntimeCheck) {
  AlignmentProof proof;
  SmallVector<int64_t> divisors = llvm::map_to_vector(
      indices, [](Value index) { return knownDivisor(index, 0); });
  if (extraElements != 0 && !divisors.empty())
    divisors.back() = std::gcd(divisors.back(), extraElements);
  // A reshape or cast keeps its source's offset and element type, a
  // memref.view moves its source's address by a byte shift: the address is
  // the source's element 0 plus those bytes (`viewTermBytes`, a divisor).
  int64_t viewTermBytes = kLargeDivisor;
  while (true) {
    if (auto subview = memref.getDefiningOp<memref::SubViewOp>()) {
      divisors = divisorsInSource(subview, divisors);
      memref = subview.getSource();
      continue;
    }
    Operation *def = memref.getDefiningOp();
    if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp,
                         memref::CastOp, memref::ViewOp>(def))
      break;
    auto type = cast<MemRefType>(memref.getType());
    int64_t term = indexTermDivisor(type, divisors);
    if (term == 0)
      return proof;
    int64_t elemBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    viewTermBytes = std::gcd(
        viewTermBytes, std::min(kLargeDivisor, saturatingMul(term, elemBytes)));
    if (auto view = dyn_cast<memref::ViewOp>(def))
      viewTermBytes =
          std::gcd(viewTermBytes, knownDivisor(view.getByteShift(), 0));
    memref = def->getOperand(0);
    divisors.assign(cast<MemRefType>(memref.getType()).getRank(),
                    kLargeDivisor);
  }
  int64_t align = baseAlignment(memref);
  proof.root = memref;
  // Any other view may shift the base by any number of bytes: only bases pk
  // knows (kernel arguments, globals, allocations) are 16-byte aligned.
  if (memref.getDefiningOp<ViewLikeOpInterface>())
    return proof;
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return proof;
  if (ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic)) {
    if (!allowRuntimeCheck)
      return proof;
    proof.runtimeChecked = memref;
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
  combine(powerOfTwoPart(viewTermBytes));
  for (auto [divisor, stride] : llvm::zip(divisors, strides))
    if (!ShapedType::isDynamic(stride) && stride != 0)
      combine(bytesOf(capped(capped(divisor) * capped(stride))));
  proof.bytes = align;
  return proof;
}

int64_t mlir::pk::getSharedRootAlignment(Value root) {
  auto type = cast<MemRefType>(root.getType());
  int64_t natural = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  auto fromAttr = [&](Attribute attr) {
    auto align = dyn_cast_or_null<IntegerAttr>(attr);
    return align && align.getInt() > 0 ? align.getInt() : natural;
  };
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    auto func = dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getBody().front() ||
        arg.getArgNumber() < func.getNumArguments())
      return 0;
    unsigned index = arg.getArgNumber() - func.getNumArguments();
    if (index >= func.getNumWorkgroupAttributions())
      return 0;
    return fromAttr(func.getWorkgroupAttributionAttr(
        index, LLVM::LLVMDialect::getAlignAttrName()));
  }
  if (auto get = root.getDefiningOp<memref::GetGlobalOp>()) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        get, get.getNameAttr());
    return global ? fromAttr(global.getAlignmentAttr()) : 0;
  }
  // convert-gpu-to-nvvm's dynamic shared-memory base is 16-byte aligned.
  if (root.getDefiningOp<gpu::DynamicSharedMemoryOp>())
    return 16;
  return 0;
}
