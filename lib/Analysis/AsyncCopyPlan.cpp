//===- AsyncCopyPlan.cpp - Can the tile copies become cp.async? -----------===//
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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

#define DEBUG_TYPE "pk-async-copy-plan"

using namespace mlir;
using namespace mlir::pk;

/// Whether the innermost dimension of `memref` has a static unit stride.
static bool hasUnitInnermostStride(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  return type.getRank() == 0 ||
         (succeeded(type.getStridesAndOffset(strides, offset)) &&
          strides.back() == 1);
}

/// The size of the 1-D `vector.create_mask` that masks `op` (a
/// transfer_read), or null.
static Value getCreateMaskSize(Operation *op) {
  auto read = dyn_cast<vector::TransferReadOp>(op);
  auto mask = read && read.getMask()
                  ? read.getMask().getDefiningOp<vector::CreateMaskOp>()
                  : vector::CreateMaskOp();
  return mask && mask.getNumOperands() == 1 ? mask.getOperand(0) : Value();
}

/// Whether `attr` is +0.0 or integer 0, or a splat of it (cp.async fills
/// +0.0, not -0.0).
static bool isPositiveZero(Attribute attr) {
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isPosZero();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  return false;
}

/// The guard of a guarded read: `stored` is a result of an `scf.if` that
/// yields `load`'s value in one branch and zero in the other, and every
/// operand of `load` is defined outside the `scf.if` (the copy is issued
/// where the store is). Returns the condition and whether the load is in
/// the else branch.
static std::optional<std::pair<Value, bool>> matchGuardedRead(Value stored,
                                                              Operation *load) {
  auto ifOp = stored.getDefiningOp<scf::IfOp>();
  if (!ifOp || ifOp.getElseRegion().empty())
    return std::nullopt;
  unsigned result = cast<OpResult>(stored).getResultNumber();
  Value thenValue = ifOp.thenYield().getOperand(result);
  Value elseValue = ifOp.elseYield().getOperand(result);
  Value loaded = getAccessValue(load);
  Attribute zero;
  bool negated = elseValue == loaded;
  Value other = negated ? thenValue : elseValue;
  if ((thenValue != loaded && elseValue != loaded) ||
      !matchPattern(other, m_Constant(&zero)) || !isPositiveZero(zero))
    return std::nullopt;
  for (Value operand : load->getOperands())
    if (ifOp->isAncestor(operand.getParentRegion()->getParentOp())) {
      LDBG() << "guarded read: an operand of the load is defined under the "
                "guard -> BAIL";
      return std::nullopt;
    }
  return std::pair(ifOp.getCondition(), negated);
}

/// Whether `read` is a 1-D, minor-identity transfer_read padded with zero
/// whose elements past the end of the innermost dimension or past the size
/// of its 1-D `vector.create_mask` are that padding: exactly what cp.async
/// with a source size does.
static bool isZeroPaddedPartialRead(Operation *op) {
  auto read = dyn_cast<vector::TransferReadOp>(op);
  if (!read || read.getVectorType().getRank() != 1 ||
      (read.getMask() && !getCreateMaskSize(op)) ||
      !read.getPermutationMap().isMinorIdentity() ||
      !hasUnitInnermostStride(read.getBase()))
    return false;
  Attribute pad;
  return matchPattern(read.getPadding(), m_Constant(&pad)) &&
         isPositiveZero(pad);
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

/// A decline of cp.async at `op`, with its debug line.
static Decline declineAsyncCopy(Operation *op, const Twine &msg) {
  LDBG() << "cp.async not possible: " << msg << " -> BAIL";
  return Decline(op, msg);
}

/// The widest cp.async (16, 8 or 4 bytes) that `plan`'s bytes and the
/// proven alignments of both sides allow, and the run-time alignment check
/// it needs, if any: a global buffer with a dynamic offset or strides
/// defined before the loop may be assumed aligned, and pipelining versions
/// the loop on that at run time.
static DeclineOr<void> chooseCopyWidth(const KLoopInfo &info,
                                       AsyncCopyPlan &plan) {
  Operation *load = plan.load, *store = plan.store;
  int64_t bytes = saturatingMul(plan.numElements, plan.elemBytes);
  // A stage is the whole buffer, not the subview the store writes.
  auto dstType =
      cast<MemRefType>(getSubViewSource(getAccessedMemRef(store)).getType());
  int64_t stageBytes = getSizeInBytes(dstType).value_or(1);
  int64_t asserted = plan.elementOffset == 0 ? assertedAlignment(load) : 0;
  int64_t provenSrcAlign =
      std::max(proveAlignment(getAccessedMemRef(load), getAccessIndices(load),
                              plan.elementOffset)
                   .bytes,
               asserted);
  AlignmentProof checked =
      proveAlignment(getAccessedMemRef(load), getAccessIndices(load),
                     plan.elementOffset, 0, /*allowRuntimeCheck=*/true);
  Value runtimeChecked = checked.runtimeChecked;
  int64_t srcAlign = std::max(checked.bytes, asserted);
  if (!runtimeChecked ||
      info.forOp->isAncestor(runtimeChecked.getParentRegion()->getParentOp()))
    srcAlign = provenSrcAlign;
  int64_t dstAlign =
      std::max(proveAlignment(getAccessedMemRef(store), getAccessIndices(store),
                              0, stageBytes)
                   .bytes,
               assertedAlignment(store));
  plan.width = 0;
  for (int64_t width : {16, 8, 4}) {
    if (bytes % width == 0 && srcAlign % width == 0 && dstAlign % width == 0) {
      plan.width = width;
      break;
    }
  }
  if (plan.width == 0)
    return declineAsyncCopy(
        store, llvm::formatv("cp.async copies 4, 8 or 16 bytes: this copy "
                             "moves {0} bytes with proven alignment {1} "
                             "(global) / {2} (shared)",
                             bytes, srcAlign, dstAlign));
  // Versioning only where the proof falls short of the width.
  if (provenSrcAlign % plan.width != 0)
    plan.runtimeAligned = runtimeChecked;
  return success();
}

/// The cp.async of one shared store of `load`: the store writes the loaded
/// value, or one element of it, unchanged.
static DeclineOr<AsyncCopyPlan> planCopyStore(const KLoopInfo &info,
                                              Operation *load, Operation *store,
                                              bool masked) {
  AsyncCopyPlan plan{load, store};
  plan.masked = masked;
  if (masked)
    plan.maskSize = getCreateMaskSize(load);
  Value loaded = getAccessValue(load);
  Value stored = getAccessValue(store);
  Type elemType = getElementTypeOrSelf(loaded.getType());
  plan.elemBytes = llvm::divideCeil(elemType.getIntOrFloatBitWidth(), 8);
  std::optional<std::pair<Value, bool>> guard;
  if (stored != loaded)
    guard = matchGuardedRead(stored, load);
  if (stored == loaded || guard) {
    if (!isContiguousAccess(store))
      return declineAsyncCopy(store, "cp.async needs a 1-D contiguous, "
                                     "unmasked, in-bounds shared write");
    plan.numElements = getNumElements(loaded.getType());
    if (guard)
      std::tie(plan.guard, plan.guardNegated) = *guard;
  } else if (auto extract = stored.getDefiningOp<vector::ExtractOp>();
             !masked && extract && extract.getSource() == loaded &&
             !isa<VectorType>(stored.getType()) &&
             extract.getStaticPosition().size() == 1 &&
             !ShapedType::isDynamic(extract.getStaticPosition()[0])) {
    plan.elementOffset = extract.getStaticPosition()[0];
    plan.numElements = 1;
  } else {
    return declineAsyncCopy(store, "cp.async needs the shared store to write "
                                   "the loaded value or one element of it "
                                   "unchanged");
  }
  if (DeclineOr<void> width = chooseCopyWidth(info, plan); failed(width))
    return width.takeDecline();
  return plan;
}

/// Plans one thread-issued copy: one plan per store, or the decline at the
/// part that cannot be cp.async.
static DeclineOr<SmallVector<AsyncCopyPlan>>
planThreadCopy(const KLoopInfo &info, const TileCopy &copy) {
  Operation *load = copy.load;
  bool masked = !isContiguousAccess(load) && isZeroPaddedPartialRead(load);
  if (!isContiguousAccess(load) && !masked)
    return declineAsyncCopy(load, "cp.async needs a 1-D contiguous, "
                                  "unmasked global read, in bounds or "
                                  "zero-padded (out of bounds or past a "
                                  "1-D vector.create_mask)");
  SmallVector<AsyncCopyPlan> plans;
  for (Operation *store : copy.stores) {
    DeclineOr<AsyncCopyPlan> plan = planCopyStore(info, load, store, masked);
    if (failed(plan))
      return plan.takeDecline();
    plans.push_back(*plan);
  }
  return plans;
}

/// The register-path plans of `copy`, whose buffer cannot be cp.async for
/// `reason`; fails when a store of it is not directly in the loop body (the
/// schedule moves the stores after the compute).
static FailureOr<SmallVector<AsyncCopyPlan>>
planRegisterCopy(const KLoopInfo &info, const TileCopy &copy,
                 const Decline &reason) {
  SmallVector<AsyncCopyPlan> plans;
  for (Operation *store : copy.stores) {
    if (store->getParentOp() != static_cast<Operation *>(info.forOp)) {
      LDBG() << "no per-copy variants: a register-path store is in a nested "
                "region -> BAIL";
      return failure();
    }
    AsyncCopyPlan plan{copy.load, store};
    plan.registerPath = true;
    plan.registerReason = reason;
    plans.push_back(std::move(plan));
  }
  return plans;
}

using RegisterBuffers = llvm::MapVector<unsigned, Decline>;

/// Why a buffer `copy` stores into keeps the register path, or null.
static const Decline *findRegisterReason(const TileCopy &copy,
                                         const RegisterBuffers &buffers) {
  for (unsigned buffer : copy.storeBuffers)
    if (auto it = buffers.find(buffer); it != buffers.end())
      return &it->second;
  return nullptr;
}

/// Each thread-issued copy planned once (planThreadCopy), in the loop's
/// order; an already-async copy's slot holds a placeholder decline that is
/// never reported (the copy stays as it is).
using CopyPlans = SmallVector<DeclineOr<SmallVector<AsyncCopyPlan>>>;

/// The buffers whose copies keep the register path, each with the first
/// decline that put it there: those a copy that cannot be cp.async
/// (`planned`) stores into, and, until nothing changes, every other buffer
/// a register-path copy stores into (a load stored into two buffers), so
/// that no buffer mixes cp.async copies and register-path stores.
static RegisterBuffers collectRegisterBuffers(const KLoopInfo &info,
                                              CopyPlans &planned) {
  RegisterBuffers buffers;
  for (auto [copy, plan] : llvm::zip_equal(info.copies, planned))
    if (!copy.async && failed(plan))
      for (unsigned buffer : copy.storeBuffers)
        buffers.insert({buffer, plan.getDecline()});
  for (bool changed = !buffers.empty(); changed;) {
    changed = false;
    for (const TileCopy &copy : info.copies) {
      const Decline *why =
          copy.async ? nullptr : findRegisterReason(copy, buffers);
      if (!why)
        continue;
      Decline reason = *why;
      for (unsigned buffer : copy.storeBuffers)
        changed |= buffers.insert({buffer, reason}).second;
    }
  }
  return buffers;
}

/// Per-copy variants: every copy into a buffer of `registerBuffers` (with
/// the decline that put it there) keeps the register path, the others
/// become cp.async. Fails when a buffer cannot take the register path: an
/// already-async copy writes it, or a store of it lies in a nested region.
static FailureOr<SmallVector<AsyncCopyPlan>>
planMixedCopies(const KLoopInfo &info, const CopyPlans &planned,
                const RegisterBuffers &registerBuffers) {
  SmallVector<AsyncCopyPlan> plans;
  for (auto [copy, plan] : llvm::zip_equal(info.copies, planned)) {
    const Decline *reason = findRegisterReason(copy, registerBuffers);
    if (!reason) {
      if (copy.async)
        plans.push_back(planExistingAsyncCopy(copy));
      else
        llvm::append_range(plans, *plan);
      continue;
    }
    if (copy.async) {
      LDBG() << "no per-copy variants: an nvgpu.device_async_copy writes "
             << info.buffers[copy.bufferIndex].name << " -> BAIL";
      return failure();
    }
    FailureOr<SmallVector<AsyncCopyPlan>> kept =
        planRegisterCopy(info, copy, *reason);
    if (failed(kept))
      return failure();
    llvm::append_range(plans, *kept);
  }
  return plans;
}

DeclineOr<SmallVector<AsyncCopyPlan>>
mlir::pk::planAsyncCopies(const KLoopInfo &info) {
  if (info.tma)
    return declineAsyncCopy(info.tma->wait,
                            "the copies are TMA loads (nvgpu.tma.async.load)");
  CopyPlans copyPlans;
  for (const TileCopy &copy : info.copies)
    copyPlans.push_back(copy.async ? DeclineOr<SmallVector<AsyncCopyPlan>>(
                                         Decline(copy.load, "already async"))
                                   : planThreadCopy(info, copy));
  RegisterBuffers registerBuffers = collectRegisterBuffers(info, copyPlans);
  FailureOr<SmallVector<AsyncCopyPlan>> planned =
      planMixedCopies(info, copyPlans, registerBuffers);
  if (failed(planned)) {
    assert(!registerBuffers.empty() && "every copy was planned once");
    return registerBuffers.front().second;
  }
  SmallVector<AsyncCopyPlan> plans = std::move(*planned);
  // The group's token comes from a cp.async copy made directly in the loop
  // body; without one, no copy is cp.async.
  scf::ForOp forOp = info.forOp;
  if (llvm::none_of(plans, [&](const AsyncCopyPlan &plan) {
        return !plan.registerPath &&
               plan.store->getParentOp() == forOp.getOperation();
      })) {
    if (!registerBuffers.empty())
      return registerBuffers.front().second;
    return declineAsyncCopy(info.forOp,
                            "cp.async needs at least one copy directly in "
                            "the K-loop body (all copies are in nested "
                            "loops)");
  }
  if (DeclineOr<void> disjoint = detail::checkDisjointDestinations(info, plans);
      failed(disjoint))
    return disjoint.takeDecline();
  return plans;
}

int64_t mlir::pk::getNarrowestWidth(ArrayRef<AsyncCopyPlan> plans) {
  int64_t width = 16;
  for (const AsyncCopyPlan &plan : plans)
    if (!plan.registerPath)
      width = std::min(width, plan.width);
  return width;
}

SmallVector<const AsyncCopyPlan *>
mlir::pk::getRegisterPathCopies(ArrayRef<AsyncCopyPlan> plans) {
  SmallVector<const AsyncCopyPlan *> kept;
  for (const AsyncCopyPlan &plan : plans)
    if (plan.registerPath)
      kept.push_back(&plan);
  return kept;
}

int64_t mlir::pk::getRegisterPathBytes(const KLoopInfo &info,
                                       ArrayRef<AsyncCopyPlan> plans) {
  int64_t bytes = 0;
  for (const TileCopy &copy : info.copies)
    if (llvm::any_of(plans, [&](const AsyncCopyPlan &plan) {
          return plan.registerPath && plan.load == copy.load;
        }))
      bytes = saturatingAdd(
          bytes, saturatingMul(copy.bytesPerExecution, copy.executions));
  return bytes;
}

void mlir::pk::getRuntimeAlignedMemRefs(ArrayRef<AsyncCopyPlan> plans,
                                        SmallVectorImpl<Value> &memrefs) {
  for (const AsyncCopyPlan &plan : plans)
    if (plan.runtimeAligned &&
        !llvm::is_contained(memrefs, plan.runtimeAligned))
      memrefs.push_back(plan.runtimeAligned);
}
