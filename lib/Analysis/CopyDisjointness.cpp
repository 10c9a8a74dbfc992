//===- CopyDisjointness.cpp - Do the cp.async copies of a tile overlap? ---===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// cp.async copies of one commit group complete in any order, so the copies
// of one tile must write disjoint shared elements. This file proves it from
// the stores' indices: each store's element offset as an affine expression
// of the values it cannot look through (thread ids, induction variables),
// constant differences between stores into one buffer, and a mixed-radix
// argument for the iterations of nested loops. Used by planAsyncCopies
// (AsyncCopyPlan.cpp). Tests: test/pk-pipeline-kloops*.mlir (disjointness).
//
//===----------------------------------------------------------------------===//

#include "AsyncCopyPlanInternal.h"

#include "pk/KLoopMatcher.h"
#include "pk/MemoryAccess.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/DebugLog.h"

#include <map>

#define DEBUG_TYPE "pk-async-copy-plan"

using namespace mlir;
using namespace mlir::pk;

static int64_t floorMod(int64_t value, int64_t modulus) {
  int64_t rem = value % modulus;
  return rem < 0 ? rem + modulus : rem;
}

namespace {
/// Builds the element offset a copy's shared store writes at, as an affine
/// expression whose symbols are the values it cannot look through (thread
/// ids, loop induction variables, ...). Two stores are compared by
/// subtracting their expressions, so the symbols of all copies live in one
/// builder.
class DestinationOffsets {
public:
  explicit DestinationOffsets(MLIRContext *ctx) : ctx(ctx) {}

  /// The linearized element offset `indices` address in `type` (static
  /// strides only), or null.
  AffineExpr linearize(MemRefType type, ValueRange indices) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return nullptr;
    AffineExpr result = getAffineConstantExpr(0, ctx);
    for (auto [index, stride] : llvm::zip(indices, strides))
      result = result + build(index, 0) * stride;
    return simplify(result);
  }

  /// The element offset `indices` address in `memref`, relative to the
  /// memref its chain of memref.subviews starts from (`memref` becomes that
  /// one: IREE stores each thread's part of a tile through a subview), or
  /// null.
  AffineExpr linearizeThroughSubviews(Value &memref, ValueRange indices) {
    AffineExpr offset = linearize(cast<MemRefType>(memref.getType()), indices);
    while (offset) {
      auto subview = memref.getDefiningOp<memref::SubViewOp>();
      if (!subview)
        break;
      SmallVector<int64_t> strides;
      int64_t sourceOffset;
      if (failed(subview.getSourceType().getStridesAndOffset(strides,
                                                             sourceOffset)) ||
          llvm::any_of(strides, ShapedType::isDynamic))
        return nullptr;
      // The result's strides already count elements of the source; its
      // offsets are indices into the source.
      for (auto [start, stride] : llvm::zip(subview.getMixedOffsets(), strides))
        offset = offset + build(start) * stride;
      offset = simplify(offset);
      memref = subview.getSource();
    }
    return offset;
  }

  /// The symbol standing for `value`.
  AffineExpr symbolFor(Value value) {
    auto *it = llvm::find(leaves, value);
    if (it == leaves.end()) {
      leaves.push_back(value);
      it = std::prev(leaves.end());
    }
    return getAffineSymbolExpr(std::distance(leaves.begin(), it), ctx);
  }

  AffineExpr simplify(AffineExpr expr) const {
    return simplifyAffineExpr(expr, 0, leaves.size());
  }

  ArrayRef<Value> getLeaves() const { return leaves; }

private:
  AffineExpr build(OpFoldResult value) {
    if (std::optional<int64_t> cst = getConstantIntValue(value))
      return getAffineConstantExpr(*cst, ctx);
    return build(cast<Value>(value), 0);
  }

  AffineExpr build(Value value, unsigned depth) {
    APInt cst;
    if (matchPattern(value, m_ConstantInt(&cst)))
      return getAffineConstantExpr(cst.getSExtValue(), ctx);
    Operation *def = value.getDefiningOp();
    if (!def || depth > 16)
      return symbolFor(value);
    auto operand = [&](unsigned i) {
      return build(def->getOperand(i), depth + 1);
    };
    if (isa<arith::AddIOp>(def))
      return operand(0) + operand(1);
    if (isa<arith::SubIOp>(def))
      return operand(0) - operand(1);
    if (isa<arith::MulIOp>(def)) {
      AffineExpr lhs = operand(0), rhs = operand(1);
      if (isa<AffineConstantExpr>(lhs) || isa<AffineConstantExpr>(rhs))
        return lhs * rhs;
    }
    if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
      AffineMap map = apply.getAffineMap();
      SmallVector<AffineExpr> dims, syms;
      for (auto [i, v] : llvm::enumerate(apply.getMapOperands()))
        (i < map.getNumDims() ? dims : syms).push_back(build(v, depth + 1));
      return map.getResult(0).replaceDimsAndSymbols(dims, syms);
    }
    // Thread maps: a quotient of a value pk knows to be non-negative is a
    // floordiv (IREE distributes copies with divui / delinearize_index).
    if (isa<arith::DivUIOp>(def))
      if (std::optional<int64_t> divisor = getPositiveConstant(def, 1))
        if (AffineExpr dividend = operand(0); isNonNegative(dividend))
          return dividend.floorDiv(*divisor);
    if (auto delinearize = dyn_cast<affine::AffineDelinearizeIndexOp>(def))
      if (AffineExpr linear = build(delinearize.getLinearIndex(), depth + 1);
          isNonNegative(linear))
        if (AffineExpr result = delinearizeResult(
                delinearize, cast<OpResult>(value).getResultNumber(), linear))
          return result;
    // The 128B swizzle of wgmma tiles (chunk ^ row % 8): values pk cannot
    // express affinely, but can prove equal (one symbol for all of them).
    if (isa<arith::RemUIOp>(def))
      if (std::optional<std::string> key = getRemainderKey(def, depth))
        return keyedSymbol(value, *key);
    if (isa<arith::XOrIOp>(def)) {
      std::string lhs = print(operand(0)), rhs = print(operand(1));
      if (rhs < lhs)
        std::swap(lhs, rhs);
      return keyedSymbol(value, "xori(" + lhs + ", " + rhs + ")");
    }
    return symbolFor(value);
  }

  /// Operand `i` of `op` as a positive constant, or none.
  static std::optional<int64_t> getPositiveConstant(Operation *op, unsigned i) {
    APInt cst;
    if (!matchPattern(op->getOperand(i), m_ConstantInt(&cst)) ||
        cst.getActiveBits() > 32 || cst.getSExtValue() <= 0)
      return std::nullopt;
    return cst.getSExtValue();
  }

  /// Whether `value` is never negative: a thread, block or lane index, or
  /// the induction variable of an scf.for from a non-negative constant with
  /// a positive constant step.
  static bool isNonNegativeLeaf(Value value) {
    if (Operation *def = value.getDefiningOp())
      return isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::LaneIdOp,
                 gpu::BlockDimOp>(def);
    auto loop = scf::getForInductionVarOwner(value);
    if (!loop)
      return false;
    APInt lb, step;
    return matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) &&
           matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
           !lb.isNegative() && step.isStrictlyPositive();
  }

  /// Whether `expr` is provably non-negative: built from such leaves,
  /// non-negative constants, sums, products with positive constants, and
  /// floordiv / mod by positive constants.
  bool isNonNegative(AffineExpr expr) const {
    if (auto cst = dyn_cast<AffineConstantExpr>(expr))
      return cst.getValue() >= 0;
    if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
      return isNonNegativeLeaf(leaves[symbol.getPosition()]);
    auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!binary)
      return false;
    if (binary.getKind() == AffineExprKind::Add)
      return isNonNegative(binary.getLHS()) && isNonNegative(binary.getRHS());
    auto rhs = dyn_cast<AffineConstantExpr>(binary.getRHS());
    return rhs && rhs.getValue() > 0 && isNonNegative(binary.getLHS());
  }

  /// Result `index` of `op` on the non-negative `linear` (static basis only):
  /// the innermost results are remainders, the outermost a quotient (the
  /// op requires the index below the basis' product when it is bounded).
  static AffineExpr delinearizeResult(affine::AffineDelinearizeIndexOp op,
                                      unsigned index, AffineExpr linear) {
    SmallVector<int64_t> basis(op.getStaticBasis());
    if (llvm::any_of(basis, [](int64_t b) { return b <= 0; }))
      return nullptr;
    // With an outer bound the basis has one element per result.
    unsigned offset = op.hasOuterBound() ? 0 : 1;
    int64_t inner = 1;
    for (unsigned i = index + 1 - offset; i < basis.size(); ++i)
      inner *= basis[i];
    AffineExpr result = linear.floorDiv(inner);
    if (index > 0)
      result = result % basis[index - offset];
    return result;
  }

  /// A key that equal `remui x, 2^p` results share: the linear expression of
  /// x with its coefficients and constant reduced modulo 2^p (exact in the
  /// integers modulo 2^width, which 2^p divides), or none when x is not
  /// linear in the symbols or the divisor no power of two in [2, 2^31].
  std::optional<std::string> getRemainderKey(Operation *rem, unsigned depth) {
    APInt divisor;
    if (!matchPattern(rem->getOperand(1), m_ConstantInt(&divisor)) ||
        !divisor.isPowerOf2() || divisor.getActiveBits() > 32 ||
        divisor.getZExtValue() < 2)
      return std::nullopt;
    int64_t modulus = divisor.getZExtValue();
    std::map<std::string, int64_t> coefficients;
    int64_t constant = 0;
    if (failed(
            collectLinearTerms(simplify(build(rem->getOperand(0), depth + 1)),
                               1, coefficients, constant)))
      return std::nullopt;
    std::string key = "remui" + std::to_string(modulus) + "(";
    for (auto [atom, coefficient] : coefficients)
      if (int64_t reduced = floorMod(coefficient, modulus))
        key += std::to_string(reduced) + "*" + atom + "+";
    return key + std::to_string(floorMod(constant, modulus)) + ")";
  }

  /// Adds `scale` x `expr`, a sum of integer atoms times constants, to
  /// `coefficients` (by atom: a symbol, or a quotient or remainder pk cannot
  /// split further, by its printed form) and `constant` (wrapping like the
  /// index arithmetic it stands for).
  LogicalResult collectLinearTerms(AffineExpr expr, int64_t scale,
                                   std::map<std::string, int64_t> &coefficients,
                                   int64_t &constant) const {
    auto wrapMul = [](int64_t a, int64_t b) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) *
                                  static_cast<uint64_t>(b));
    };
    auto wrapAdd = [](int64_t a, int64_t b) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) +
                                  static_cast<uint64_t>(b));
    };
    if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
      constant = wrapAdd(constant, wrapMul(scale, cst.getValue()));
      return success();
    }
    auto addAtom = [&](AffineExpr atom) {
      std::string key =
          isa<AffineSymbolExpr>(atom) ? print(atom) : "(" + print(atom) + ")";
      int64_t &c = coefficients[key];
      c = wrapAdd(c, scale);
      return success();
    };
    if (isa<AffineSymbolExpr>(expr))
      return addAtom(expr);
    auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!binary)
      return failure();
    if (binary.getKind() == AffineExprKind::Add)
      return success(succeeded(collectLinearTerms(binary.getLHS(), scale,
                                                  coefficients, constant)) &&
                     succeeded(collectLinearTerms(binary.getRHS(), scale,
                                                  coefficients, constant)));
    auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (binary.getKind() != AffineExprKind::Mul || !factor)
      return addAtom(expr);
    return collectLinearTerms(binary.getLHS(),
                              wrapMul(scale, factor.getValue()), coefficients,
                              constant);
  }

  /// The symbol of the first value seen with `key`.
  AffineExpr keyedSymbol(Value value, const std::string &key) {
    auto [it, inserted] = keyed.try_emplace(key, value);
    return symbolFor(it->second);
  }

  std::string print(AffineExpr expr) const {
    std::string text;
    llvm::raw_string_ostream os(text);
    simplify(expr).print(os);
    return text;
  }

  MLIRContext *ctx;
  SmallVector<Value> leaves;
  /// Values proven equal share the symbol of the first one (getRemainderKey,
  /// xori of equal operands).
  std::map<std::string, Value> keyed;
};
} // namespace

/// The scf.for loops between `op` and `forOp`, innermost first.
static SmallVector<scf::ForOp> getNestedLoops(Operation *op, scf::ForOp forOp) {
  SmallVector<scf::ForOp> loops;
  for (Operation *parent = op->getParentOp(); parent && parent != forOp;
       parent = parent->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      loops.push_back(loop);
  return loops;
}

/// Whether the iterations of the loops around one copy (in a nested loop of
/// the load phase) write disjoint elements: with the offset's coefficient
/// times step of each loop sorted, each must step over everything the
/// inner ones cover (a mixed-radix numbering).
static bool provesNestedDisjoint(DestinationOffsets &offsets, AffineExpr offset,
                                 int64_t elements, ArrayRef<scf::ForOp> loops) {
  SmallVector<std::pair<int64_t, int64_t>> strideAndTrips;
  for (scf::ForOp loop : loops) {
    // A value the offset treats as opaque must not change with the loop.
    for (Value leaf : offsets.getLeaves())
      if (leaf != loop.getInductionVar() && dependsOnInductionVar(leaf, loop))
        return false;
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    std::optional<APInt> trips = getExactStaticTripCount(loop);
    if (!step || !trips || trips->getActiveBits() > 62)
      return false;
    if (trips->getZExtValue() < 2)
      continue;
    AffineExpr iv = offsets.symbolFor(loop.getInductionVar());
    auto delta = dyn_cast<AffineConstantExpr>(
        offsets.simplify(offset.replace(iv, iv + *step) - offset));
    if (!delta)
      return false;
    std::optional<int64_t> stride = llvm::checkedMul(
        static_cast<int64_t>(std::abs(delta.getValue())), *step);
    if (!stride)
      return false;
    strideAndTrips.push_back({*stride, trips->getSExtValue()});
  }
  llvm::sort(strideAndTrips);
  int64_t covered = elements;
  for (auto [stride, trips] : strideAndTrips) {
    if (stride < covered)
      return false;
    std::optional<int64_t> next =
        llvm::checkedMulAdd(stride, trips - 1, covered);
    if (!next)
      return false;
    covered = *next;
  }
  return true;
}

/// Proves that the copies of one K-iteration, which become cp.async copies
/// of one group (unordered among themselves), write disjoint shared
/// elements: different buffers, or one memref at offsets whose constant
/// difference separates the elements each writes, and copies in nested
/// loops whose iterations write disjoint elements (and that share their
/// buffer with no other copy). Copies already asynchronous in the input are
/// left as they were. Fails with the first pair it cannot separate.
DeclineOr<void>
mlir::pk::detail::checkDisjointDestinations(const KLoopInfo &info,
                                            ArrayRef<AsyncCopyPlan> plans) {
  struct Destination {
    const AsyncCopyPlan *plan;
    unsigned buffer;
    Value memref;
    AffineExpr offset;
    bool nested;
  };
  scf::ForOp forOp = info.forOp;
  DestinationOffsets offsets(forOp.getContext());
  SmallVector<Destination> destinations;
  DenseMap<Operation *, unsigned> bufferOfStore;
  for (const TileCopy &copy : info.copies)
    for (Operation *store : copy.stores)
      bufferOfStore[store] = copy.getStoreBuffer(store);
  auto fail = [&](const AsyncCopyPlan &plan, const Twine &msg) {
    LDBG() << "cp.async not possible: " << msg << " -> BAIL";
    return Decline(plan.store, msg);
  };
  for (const AsyncCopyPlan &plan : plans) {
    // Register-path copies keep their program order (and their buffers).
    if (plan.alreadyAsync || plan.registerPath)
      continue;
    Value memref = getAccessedMemRef(plan.store);
    AffineExpr offset =
        offsets.linearizeThroughSubviews(memref, getAccessIndices(plan.store));
    SmallVector<scf::ForOp> loops = getNestedLoops(plan.store, forOp);
    if (offset && !loops.empty() &&
        !provesNestedDisjoint(offsets, offset, plan.numElements, loops))
      offset = nullptr;
    if (!offset)
      return fail(plan, "cp.async copies of one tile are unordered: pk cannot "
                        "prove that the iterations of this shared store "
                        "write disjoint elements");
    destinations.push_back({&plan, bufferOfStore.lookup(plan.store), memref,
                            offset, !loops.empty()});
  }
  for (auto [i, a] : llvm::enumerate(destinations))
    for (const Destination &b : ArrayRef(destinations).drop_front(i + 1)) {
      if (a.buffer != b.buffer)
        continue;
      auto delta =
          dyn_cast<AffineConstantExpr>(offsets.simplify(b.offset - a.offset));
      bool disjoint = delta && a.memref == b.memref && !a.nested && !b.nested &&
                      (delta.getValue() >= a.plan->numElements ||
                       -delta.getValue() >= b.plan->numElements);
      if (!disjoint)
        return fail(*b.plan, "cp.async copies of one tile are unordered: pk "
                             "cannot prove that this shared store and another "
                             "write disjoint elements")
            .attachNote(a.plan->store->getLoc(), "the other shared store");
    }
  return success();
}
