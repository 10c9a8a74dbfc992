//===- ThreadValues.cpp - Index values thread by thread -------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Evaluates the integer computations between thread ids and an index for one
// thread at a time (ThreadValues.h). Used by pk-use-ldmatrix to check that a
// warp's lanes read the 8x8 matrices ldmatrix loads. Tests:
// test/pk-use-ldmatrix.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/ThreadValues.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "pk-thread-values"

using namespace mlir;
using namespace mlir::pk;

/// Deeper chains than this are not index computations pk evaluates.
static constexpr unsigned kMaxDepth = 64;

std::optional<std::array<int64_t, 3>>
mlir::pk::getKnownBlockDims(gpu::GPUFuncOp kernel) {
  std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize();
  if (!known || known->size() != 3)
    return std::nullopt;
  std::array<int64_t, 3> dims;
  for (unsigned i = 0; i < 3; ++i) {
    dims[i] = (*known)[i];
    if (dims[i] <= 0)
      return std::nullopt;
  }
  return dims;
}

static bool isThreadUniformImpl(Value v, unsigned depth) {
  if (depth > kMaxDepth)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    // Kernel arguments and attributions; not the arguments of other blocks
    // of the kernel (a branch may pass each thread its own value).
    if (auto func = dyn_cast<gpu::GPUFuncOp>(owner))
      return arg.getOwner() == &func.getBody().front();
    auto loop = dyn_cast<scf::ForOp>(owner);
    if (!loop || arg != loop.getInductionVar())
      return false;
    return isThreadUniformImpl(loop.getLowerBound(), depth + 1) &&
           isThreadUniformImpl(loop.getUpperBound(), depth + 1) &&
           isThreadUniformImpl(loop.getStep(), depth + 1);
  }
  Operation *op = v.getDefiningOp();
  if (matchPattern(v, m_Constant()) ||
      isa<gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(op))
    return true;
  // Thread and lane ids, other ids and special registers (operand-less),
  // loads and atomics (memory), region results: per thread.
  if (op->getNumOperands() == 0 || op->getNumRegions() != 0 ||
      !isMemoryEffectFree(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return isThreadUniformImpl(operand, depth + 1);
  });
}

bool mlir::pk::isThreadUniform(Value v) { return isThreadUniformImpl(v, 0); }

std::optional<int64_t> ThreadValues::evaluate(Value v, int64_t linearTid) {
  if (linearTid != linearId) {
    cache.clear();
    linearId = linearTid;
    threadId = {linearTid % blockDims[0],
                (linearTid / blockDims[0]) % blockDims[1],
                linearTid / (blockDims[0] * blockDims[1])};
  }
  return eval(v, 0);
}

std::optional<SmallVector<int64_t>> ThreadValues::evaluate(ValueRange values,
                                                           int64_t linearTid) {
  SmallVector<int64_t> result;
  for (Value v : values) {
    std::optional<int64_t> value = evaluate(v, linearTid);
    if (!value)
      return std::nullopt;
    result.push_back(*value);
  }
  return result;
}

std::optional<int64_t> ThreadValues::eval(Value v, unsigned depth) {
  if (auto it = cache.find(v); it != cache.end())
    return it->second;
  if (depth > kMaxDepth)
    return std::nullopt;
  Operation *op = v.getDefiningOp();
  if (!op) {
    LDBG() << "not evaluated per thread: block argument " << v;
    return std::nullopt;
  }
  std::optional<int64_t> result = evalOp(op, v, depth);
  if (result)
    cache[v] = *result;
  return result;
}

/// Floor division, nullopt for a non-positive divisor.
static std::optional<int64_t> floorDiv(int64_t a, int64_t b) {
  if (b <= 0)
    return std::nullopt;
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

/// Index arithmetic that overflows int64 is not evaluated.
static std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  return llvm::AddOverflow(a, b, r) ? std::nullopt : std::optional(r);
}
static std::optional<int64_t> checkedSub(int64_t a, int64_t b) {
  int64_t r;
  return llvm::SubOverflow(a, b, r) ? std::nullopt : std::optional(r);
}
static std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  return llvm::MulOverflow(a, b, r) ? std::nullopt : std::optional(r);
}

/// The basis of a linearize/delinearize op as integers (dynamic elements
/// evaluated through `evalFn`).
template <typename EvalFn>
static std::optional<SmallVector<int64_t>>
evalBasis(ArrayRef<OpFoldResult> basis, EvalFn evalFn) {
  SmallVector<int64_t> values;
  for (OpFoldResult element : basis) {
    std::optional<int64_t> value = getConstantIntValue(element);
    if (!value)
      value = evalFn(cast<Value>(element));
    if (!value || *value <= 0)
      return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

/// The integer arith op `op` applied to its evaluated operands `a`, `b`;
/// nullopt for an op this evaluator does not know or a value it does not
/// model (overflow, division by a non-positive value, unsigned operations
/// on negative values).
static std::optional<int64_t> evalArithBinary(Operation *op, int64_t a,
                                              int64_t b) {
  auto nonNegative = [&](auto fn) -> std::optional<int64_t> {
    if (a < 0 || b < 0)
      return std::nullopt;
    return fn();
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case([&](arith::AddIOp) { return checkedAdd(a, b); })
      .Case([&](arith::SubIOp) { return checkedSub(a, b); })
      .Case([&](arith::MulIOp) { return checkedMul(a, b); })
      .Case<arith::DivSIOp, arith::DivUIOp>([&](Operation *) {
        return b == 0 ? std::nullopt : nonNegative([&] { return a / b; });
      })
      .Case<arith::RemSIOp, arith::RemUIOp>([&](Operation *) {
        return b == 0 ? std::nullopt : nonNegative([&] { return a % b; });
      })
      .Case([&](arith::FloorDivSIOp) { return floorDiv(a, b); })
      .Case([&](arith::AndIOp) { return a & b; })
      .Case([&](arith::OrIOp) { return a | b; })
      .Case([&](arith::ShLIOp) -> std::optional<int64_t> {
        if (b > 32 || a >= (int64_t(1) << 30))
          return std::nullopt;
        return nonNegative([&] { return a << b; });
      })
      .Case<arith::ShRUIOp, arith::ShRSIOp>([&](Operation *) {
        return b > 62 ? std::nullopt : nonNegative([&] { return a >> b; });
      })
      .Case([&](arith::MinSIOp) { return std::min(a, b); })
      .Case([&](arith::MaxSIOp) { return std::max(a, b); })
      // Unsigned: a negative operand is a huge value pk does not model.
      .Case([&](arith::MinUIOp) {
        return nonNegative([&] { return std::min(a, b); });
      })
      .Case([&](arith::MaxUIOp) {
        return nonNegative([&] { return std::max(a, b); });
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<int64_t> ThreadValues::evalOp(Operation *op, Value v,
                                            unsigned depth) {
  // Index arithmetic only: other integer types wrap at their width, which
  // this evaluator does not model.
  if (!v.getType().isIndex()) {
    LDBG() << "not evaluated per thread: not an index: " << v;
    return std::nullopt;
  }
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto attr = dyn_cast<IntegerAttr>(c.getValue());
    return attr ? std::optional(attr.getValue().getSExtValue()) : std::nullopt;
  }
  if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
    return threadId[static_cast<unsigned>(t.getDimension())];
  if (auto d = dyn_cast<gpu::BlockDimOp>(op))
    return blockDims[static_cast<unsigned>(d.getDimension())];
  if (isa<gpu::LaneIdOp>(op))
    return linearId % 32;
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op))
    return evalAffineApply(apply, depth);
  if (auto delin = dyn_cast<affine::AffineDelinearizeIndexOp>(op))
    return evalDelinearize(delin, v, depth);
  if (auto lin = dyn_cast<affine::AffineLinearizeIndexOp>(op))
    return evalLinearize(lin, depth);
  if (isa<arith::ArithDialect>(op->getDialect()) && op->getNumOperands() == 2) {
    std::optional<int64_t> a = eval(op->getOperand(0), depth + 1);
    std::optional<int64_t> b =
        a ? eval(op->getOperand(1), depth + 1) : std::nullopt;
    if (std::optional<int64_t> r =
            b ? evalArithBinary(op, *a, *b) : std::nullopt)
      return r;
  }
  LDBG() << "not evaluated per thread: " << op->getName();
  return std::nullopt;
}

std::optional<int64_t>
ThreadValues::evalAffineApply(affine::AffineApplyOp apply, unsigned depth) {
  SmallVector<Attribute> operands;
  Builder b(apply.getContext());
  for (Value value : apply.getMapOperands()) {
    std::optional<int64_t> x = eval(value, depth + 1);
    if (!x)
      return std::nullopt;
    operands.push_back(b.getIndexAttr(*x));
  }
  SmallVector<Attribute> results;
  if (failed(apply.getAffineMap().constantFold(operands, results)) ||
      results.size() != 1)
    return std::nullopt;
  auto attr = dyn_cast<IntegerAttr>(results.front());
  return attr ? std::optional<int64_t>(attr.getInt()) : std::nullopt;
}

std::optional<int64_t>
ThreadValues::evalDelinearize(affine::AffineDelinearizeIndexOp delin, Value v,
                              unsigned depth) {
  auto evalFn = [&](Value value) { return eval(value, depth + 1); };
  std::optional<int64_t> x = evalFn(delin.getLinearIndex());
  std::optional<SmallVector<int64_t>> basis =
      evalBasis(delin.getEffectiveBasis(), evalFn);
  if (!x || !basis || *x < 0)
    return std::nullopt;
  // Results from the innermost; the first takes what is left.
  unsigned n = delin.getNumResults();
  int64_t rest = *x;
  for (unsigned i = n; i-- > 1;) {
    int64_t size = (*basis)[basis->size() - (n - i)];
    cache[delin.getResult(i)] = rest % size;
    rest /= size;
  }
  cache[delin.getResult(0)] = rest;
  return cache[v];
}

std::optional<int64_t>
ThreadValues::evalLinearize(affine::AffineLinearizeIndexOp lin,
                            unsigned depth) {
  auto evalFn = [&](Value value) { return eval(value, depth + 1); };
  std::optional<SmallVector<int64_t>> basis =
      evalBasis(lin.getEffectiveBasis(), evalFn);
  if (!basis)
    return std::nullopt;
  int64_t result = 0;
  // The effective basis has one element per input but the first.
  for (auto [i, input] : llvm::enumerate(lin.getMultiIndex())) {
    std::optional<int64_t> x = evalFn(input);
    std::optional<int64_t> scaled =
        x ? checkedMul(result, i == 0 ? 1 : (*basis)[i - 1]) : std::nullopt;
    std::optional<int64_t> next =
        scaled ? checkedAdd(*scaled, *x) : std::nullopt;
    if (!next)
      return std::nullopt;
    result = *next;
  }
  return result;
}
