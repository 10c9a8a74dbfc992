//===- KLoopPipelining.cpp - Software pipelining of tiled GPU K-loops -----===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The core transformation behind pk-pipeline-kloops (docs/pipelining.md):
//
//   scf.for %k ... {                       // prologue: tile 0 -> buf[0]
//     load tile k  -> buf                  // scf.for %k (n-1 iterations) {
//     gpu.barrier                          //   load tile k+1 -> buf[(t+1)%2]
//     compute buf                   ==>    //   compute buf[t%2]
//     gpu.barrier                          //   synchronize
//   }                                      // }
//                                          // epilogue: compute buf[(n-1)%2]
//
// (The sketch shows the seed's two-stage order; the default multistage order
// waits and synchronizes at the top of the iteration instead,
// docs/pipelining.md.)
//
// Steps: (1) check every precondition without touching the IR, (2) for
// cp-async, replace each global load + shared store by
// nvgpu.device_async_copy, (3) give every copied buffer a leading stage
// dimension and index it by ((iv - lb) / step) % stages, (4) order the body
// into the variant's schedule and let upstream scf::pipelineForLoop peel the
// prologue and epilogue. The kernel's gpu.module is cloned before step 2 and
// restored if anything fails, so the transform is all or nothing.
//
// Tests: test/pk-pipeline-kloops.mlir, test/pk-pipeline-kloops-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

#define DEBUG_TYPE "pk-pipelining"

using namespace mlir;
using namespace mlir::pk;

/// Alignment pk gives the multi-buffered shared buffers, and assumes for the
/// base of global memrefs (device allocations are 256-byte aligned) and of
/// dynamic shared memory.
static constexpr int64_t kBaseAlignment = 16;

//===----------------------------------------------------------------------===//
// Access helpers
//===----------------------------------------------------------------------===//

/// The memref `op` accesses (getMemoryAccess), or null.
static Value getAccessedMemRef(Operation *op) {
  std::optional<MemoryAccess> access = getMemoryAccess(op);
  return access ? access->memref : Value();
}

/// The indices of the access `op` makes (`op` must be an access).
static SmallVector<Value, 4> getAccessIndices(Operation *op) {
  return getMemoryAccess(op)->indices;
}

/// Makes `op` access `newMemRef`, which has a leading stage dimension, at
/// stage `stage`: prepends `stage` to the indices and shifts the permutation
/// map of transfer ops.
static void redirectAccess(RewriterBase &rewriter, Operation *op,
                           Value newMemRef, Value stage) {
  SmallVector<Value> indices{stage};
  llvm::append_range(indices, getAccessIndices(op));
  rewriter.modifyOpInPlace(op, [&] {
    llvm::TypeSwitch<Operation *>(op)
        .Case<vector::LoadOp, vector::StoreOp>([&](auto o) {
          o.getBaseMutable().assign(newMemRef);
          o.getIndicesMutable().assign(indices);
        })
        .Case<vector::TransferReadOp, vector::TransferWriteOp>([&](auto o) {
          o.getBaseMutable().assign(newMemRef);
          o.getIndicesMutable().assign(indices);
          o.setPermutationMapAttr(
              AffineMapAttr::get(o.getPermutationMap().shiftDims(1)));
        })
        .Case<memref::LoadOp, memref::StoreOp>([&](auto o) {
          o.getMemrefMutable().assign(newMemRef);
          o.getIndicesMutable().assign(indices);
        })
        .Case([&](nvgpu::LdMatrixOp o) {
          o.getSrcMemrefMutable().assign(newMemRef);
          o.getIndicesMutable().assign(indices);
        })
        .Case([&](nvgpu::DeviceAsyncCopyOp o) {
          o.getDstMutable().assign(newMemRef);
          o.getDstIndicesMutable().assign(indices);
        });
  });
}

/// A divisor known for the integer value `v` (1 if nothing is known): enough
/// to prove the alignment of tile copies whose indices are products and sums
/// of constants, thread ids and loop induction variables.
static int64_t knownDivisor(Value v, unsigned depth = 0) {
  constexpr int64_t kLarge = int64_t(1) << 20;
  if (depth > 32)
    return 1;
  if (auto cst = getConstantIntValue(v))
    return *cst == 0 ? kLarge : std::min<int64_t>(std::abs(*cst), kLarge);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (forOp && arg == forOp.getInductionVar())
      return std::gcd(knownDivisor(forOp.getLowerBound(), depth + 1),
                      knownDivisor(forOp.getStep(), depth + 1));
    return 1;
  }
  Operation *def = v.getDefiningOp();
  if (auto mul = dyn_cast<arith::MulIOp>(def))
    return std::min(kLarge, knownDivisor(mul.getLhs(), depth + 1) *
                                knownDivisor(mul.getRhs(), depth + 1));
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::gcd(knownDivisor(def->getOperand(0), depth + 1),
                    knownDivisor(def->getOperand(1), depth + 1));
  if (auto shl = dyn_cast<arith::ShLIOp>(def))
    if (auto amount = getConstantIntValue(shl.getRhs()))
      if (*amount >= 0 && *amount < 20)
        return std::min(kLarge, knownDivisor(shl.getLhs(), depth + 1)
                                    << *amount);
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return knownDivisor(def->getOperand(0), depth + 1);
  return 1;
}

/// The alignment in bytes proven for the address of element `indices` (+
/// `extraElements` on the innermost dimension) of `memref`, with the base
/// aligned to kBaseAlignment; capped at 16. `stageBytes` > 0 accounts for a
/// leading stage dimension pk will add.
static int64_t provenAlignment(Value memref, ValueRange indices,
                               int64_t extraElements, int64_t stageBytes) {
  // A view may shift the base by any number of bytes: only bases pk knows
  // (kernel arguments, globals, allocations) are 16-byte aligned.
  if (memref.getDefiningOp<ViewLikeOpInterface>())
    return 1;
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return 1;
  int64_t elemBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  int64_t align = kBaseAlignment;
  auto combine = [&](int64_t bytes) {
    if (bytes != 0)
      align = std::gcd(align, bytes);
  };
  combine(offset * elemBytes);
  combine(extraElements * elemBytes);
  combine(stageBytes);
  for (auto [index, stride] : llvm::zip(indices, strides))
    combine(knownDivisor(index) * stride * elemBytes);
  return align;
}

//===----------------------------------------------------------------------===//
// cp.async planning
//===----------------------------------------------------------------------===//

namespace {
/// One global -> shared copy that becomes nvgpu.device_async_copy ops.
struct AsyncCopyPlan {
  Operation *load;
  Operation *store;
  /// The element of the loaded vector the store writes (scalar stores of a
  /// `vector.extract`), else 0.
  int64_t elementOffset = 0;
  /// Elements the store writes.
  int64_t numElements = 1;
  /// Bytes per nvgpu.device_async_copy (4, 8 or 16).
  int64_t width = 4;
  int64_t elemBytes = 1;
  /// The global read is a `vector.transfer_read` that may run past the end of
  /// the innermost dimension (a partial tile) with a zero padding: each copy
  /// then reads only the in-bounds elements and zero-fills the rest.
  bool masked = false;
};
} // namespace

/// Whether `read` is a 1-D, unmasked, minor-identity transfer_read whose
/// out-of-bounds elements are padded with zero: exactly what cp.async with a
/// source size does.
static bool isZeroPaddedPartialRead(Operation *op) {
  auto read = dyn_cast<vector::TransferReadOp>(op);
  if (!read || read.getVectorType().getRank() != 1 || read.getMask() ||
      !read.getPermutationMap().isMinorIdentity())
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

/// Whether the global read or shared write `op` is a 1-D, contiguous,
/// unmasked, in-bounds access along the innermost dimension.
static bool isContiguousAccess(Operation *op) {
  if (isa<memref::LoadOp, memref::StoreOp>(op))
    return true;
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getVectorType().getRank() == 1;
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getVectorType().getRank() == 1;
  auto isPlainTransfer = [](VectorTransferOpInterface xfer) {
    return xfer.getVectorType().getRank() == 1 && !xfer.getMask() &&
           xfer.getPermutationMap().isMinorIdentity() &&
           llvm::all_of(xfer.getInBoundsValues(), [](bool b) { return b; });
  };
  if (auto xfer = dyn_cast<VectorTransferOpInterface>(op))
    return isPlainTransfer(xfer);
  return false;
}

/// The `alignment` attribute of a vector.load / vector.store, or 0.
static int64_t assertedAlignment(Operation *op) {
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getAlignment().value_or(0);
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getAlignment().value_or(0);
  return 0;
}

/// The value `op` loads or stores (`op` must be an access).
static Value getAccessValue(Operation *op) {
  return getMemoryAccess(op)->value;
}

static LogicalResult planCpAsync(const KLoopInfo &info,
                                 SmallVectorImpl<AsyncCopyPlan> &plans,
                                 std::string &reason) {
  auto failWith = [&](Operation *op, const Twine &msg) {
    reason = (msg + " (at " + locationToString(op->getLoc()) + ")").str();
    LDBG() << "cp.async not possible: " << reason << " -> BAIL";
    return failure();
  };
  for (const TileCopy &copy : info.copies) {
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
      int64_t bytes = plan.numElements * plan.elemBytes;
      auto dstType = cast<MemRefType>(getAccessedMemRef(store).getType());
      int64_t stageBytes = *getSizeInBytes(dstType);
      int64_t srcAlign = std::max(
          provenAlignment(getAccessedMemRef(load), getAccessIndices(load),
                          plan.elementOffset, 0),
          plan.elementOffset == 0 ? assertedAlignment(load) : 0);
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
  return success();
}

FailureOr<int64_t> mlir::pk::getCpAsyncCopyWidth(const KLoopInfo &info,
                                                 std::string &reason) {
  SmallVector<AsyncCopyPlan> plans;
  if (failed(planCpAsync(info, plans, reason)))
    return failure();
  int64_t width = 16;
  for (const AsyncCopyPlan &plan : plans)
    width = std::min(width, plan.width);
  return width;
}

/// Replaces each planned copy by nvgpu.device_async_copy ops at the store's
/// position (16-byte copies bypass L1) and erases the loads, extracts and
/// stores they replace. Returns the tokens of the copies made directly in the
/// K-loop body (copies in nested loops join the group without a token).
static SmallVector<Value> convertToAsyncCopies(RewriterBase &rewriter,
                                               ArrayRef<AsyncCopyPlan> plans,
                                               scf::ForOp forOp) {
  SmallVector<Value> tokens;
  llvm::SetVector<Operation *> dead;
  Type tokenType = nvgpu::DeviceAsyncTokenType::get(rewriter.getContext());
  for (const AsyncCopyPlan &plan : plans) {
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
      if (plan.masked) {
        // Partial tile: copy min(max(dim - index, 0), perCopy) elements, zero
        // the rest; a copy entirely out of bounds reads nothing (and points
        // at column 0 so that its address stays inside the row).
        Value memref = getAccessedMemRef(plan.load);
        unsigned innermost = cast<MemRefType>(memref.getType()).getRank() - 1;
        Value dim = memref::DimOp::create(rewriter, loc, memref, innermost);
        Value index = srcIndices.back();
        Value left = arith::SubIOp::create(rewriter, loc, dim, index);
        Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
        Value full = arith::ConstantIndexOp::create(rewriter, loc, perCopy);
        srcElements = arith::MaxSIOp::create(
            rewriter, loc, arith::MinSIOp::create(rewriter, loc, left, full),
            zero);
        Value inside = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::sgt, left, zero);
        srcIndices.back() =
            arith::SelectOp::create(rewriter, loc, inside, index, zero);
      }
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
  }
  // Erase in an order that leaves no dangling use: stores, then extracts,
  // then loads.
  for (Operation *op : dead)
    if (op->getNumResults() == 0)
      rewriter.eraseOp(op);
  for (Operation *op : dead)
    if (isa<vector::ExtractOp>(op) && op->use_empty())
      rewriter.eraseOp(op);
  for (Operation *op : dead)
    if (!isa<vector::ExtractOp>(op) && op->getNumResults() != 0 &&
        op->use_empty())
      rewriter.eraseOp(op);
  return tokens;
}

//===----------------------------------------------------------------------===//
// Multi-buffering
//===----------------------------------------------------------------------===//

/// Whether `value` is computed (inside `forOp`) from its induction variable.
static bool dependsOnInductionVar(Value value, scf::ForOp forOp) {
  SmallVector<Value> worklist{value};
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!visited.insert(v).second)
      continue;
    if (v == forOp.getInductionVar())
      return true;
    Operation *def = v.getDefiningOp();
    if (def && forOp->isProperAncestor(def))
      llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

/// Every value through which the kernel reaches `buffer`'s storage: the
/// root, or every memref.get_global of its symbol in the kernel.
static SmallVector<Value> getBufferHandles(const SharedBuffer &buffer,
                                           gpu::GPUFuncOp kernel) {
  if (buffer.kind != SharedBufferKind::Global)
    return {buffer.root};
  SmallVector<Value> handles;
  kernel.walk([&](memref::GetGlobalOp getGlobal) {
    if (getGlobal.getNameAttr().getAttr() == buffer.globalName)
      handles.push_back(getGlobal.getResult());
  });
  return handles;
}

/// Checks that every use of the copied buffers is a direct access pk can
/// redirect to a stage of the multi-buffered buffer.
static LogicalResult checkBufferUses(const KLoopInfo &info,
                                     std::string &reason) {
  for (const SharedBuffer &buffer : info.buffers) {
    if (!buffer.copied)
      continue;
    if (!buffer.type.getLayout().isIdentity()) {
      reason = "copied buffer " + buffer.name +
               " has a non-identity layout; pk multi-buffers identity "
               "layouts only";
      return failure();
    }
    if (buffer.kind == SharedBufferKind::Global) {
      auto module = info.kernel->getParentOfType<gpu::GPUModuleOp>();
      if (!module || !SymbolTable::lookupSymbolIn(module, buffer.globalName)) {
        reason = "memref.global " + buffer.name +
                 " is not defined in the kernel's gpu.module";
        return failure();
      }
    }
    if (buffer.kind == SharedBufferKind::Global) {
      // Every memref.get_global of the symbol must be in this kernel: pk
      // replaces the global for this kernel only.
      auto module = info.kernel->getParentOfType<gpu::GPUModuleOp>();
      WalkResult walk = module.walk([&](memref::GetGlobalOp getGlobal) {
        if (getGlobal.getNameAttr().getAttr() != buffer.globalName ||
            info.kernel->isAncestor(getGlobal))
          return WalkResult::advance();
        reason = "copied buffer " + buffer.name + " is also used at " +
                 locationToString(getGlobal.getLoc()) + ", outside the kernel";
        return WalkResult::interrupt();
      });
      if (walk.wasInterrupted())
        return failure();
    }
    for (Value handle : getBufferHandles(buffer, info.kernel)) {
      for (OpOperand &use : handle.getUses()) {
        Operation *user = use.getOwner();
        if (getAccessedMemRef(user) != handle) {
          reason = "copied buffer " + buffer.name + " is used by '" +
                   user->getName().getStringRef().str() + "' at " +
                   locationToString(user->getLoc()) +
                   "; pk multi-buffers buffers used only by direct loads "
                   "and stores";
          return failure();
        }
        // Outside the loop pk could not tell which stage holds the data
        // (reads after it, writes before it, another K-loop).
        if (!info.forOp->isProperAncestor(user)) {
          reason = "copied buffer " + buffer.name + " is also accessed at " +
                   locationToString(user->getLoc()) +
                   ", outside the K-loop; pk multi-buffers tiles used only "
                   "inside their loop";
          return failure();
        }
        // An index that depends on the K-loop's induction variable means
        // the loop already rotates buffers itself.
        for (Value index : getAccessIndices(user)) {
          if (dependsOnInductionVar(index, info.forOp)) {
            reason = "an index into copied buffer " + buffer.name + " at " +
                     locationToString(user->getLoc()) +
                     " depends on the K-loop's induction variable: the loop "
                     "already rotates its buffers";
            return failure();
          }
        }
      }
    }
  }
  return success();
}

/// Creates ((iv - lb) / step) % stages at the rewriter's insertion point.
static Value createStageIndex(RewriterBase &rewriter, Location loc,
                              scf::ForOp forOp, int64_t stages) {
  Value tile = forOp.getInductionVar();
  std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound());
  if (!lb || *lb != 0)
    tile = arith::SubIOp::create(rewriter, loc, tile, forOp.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  if (!step || *step != 1)
    tile = arith::DivUIOp::create(rewriter, loc, tile, forOp.getStep());
  if (!tile.getType().isIndex())
    tile = arith::IndexCastUIOp::create(rewriter, loc, rewriter.getIndexType(),
                                        tile);
  Value count = arith::ConstantIndexOp::create(rewriter, loc, stages);
  return arith::RemUIOp::create(rewriter, loc, tile, count);
}

/// Gives every copied buffer of `info` a leading dimension of `stages` and
/// redirects every access to it: load-phase accesses to the stage of the
/// tile being loaded, compute-phase accesses to the stage being computed,
/// accesses outside the loop to stage 0.
static void multiBufferCopiedBuffers(RewriterBase &rewriter,
                                     const KLoopInfo &info, int64_t stages,
                                     bool useDynamic) {
  scf::ForOp forOp = info.forOp;
  gpu::GPUFuncOp kernel = info.kernel;
  Operation *loadBarrier = info.loadBarrier;
  MLIRContext *ctx = rewriter.getContext();

  rewriter.setInsertionPointToStart(forOp.getBody());
  Value loadStage = createStageIndex(rewriter, forOp.getLoc(), forOp, stages);
  rewriter.setInsertionPointAfter(loadBarrier);
  Value computeStage =
      createStageIndex(rewriter, forOp.getLoc(), forOp, stages);
  Value zero;
  auto stageFor = [&](Operation *user) -> Value {
    Operation *inBody = forOp.getBody()->findAncestorOpInBlock(*user);
    if (inBody)
      return inBody->isBeforeInBlock(loadBarrier) ? loadStage : computeStage;
    if (!zero) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&kernel.getBody().front());
      zero = arith::ConstantIndexOp::create(rewriter, kernel.getLoc(), 0);
    }
    return zero;
  };
  auto redirectUses = [&](Value handle, Value newMemRef) {
    SmallVector<Operation *> users(handle.getUsers());
    for (Operation *user : users)
      redirectAccess(rewriter, user, newMemRef, stageFor(user));
  };
  auto alignAttr = rewriter.getI64IntegerAttr(kBaseAlignment);

  // Above the 48 KB static limit the multi-buffered tiles become views of
  // dynamic shared memory, laid out one after the other at 128-byte
  // boundaries; the kernel records the size to launch with.
  Value dynamicBase;
  // After the dynamic shared memory an earlier K-loop of the kernel took.
  int64_t dynamicBytes = 0;
  if (auto existing =
          kernel->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttrName))
    dynamicBytes = existing.getInt();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  if (useDynamic) {
    rewriter.setInsertionPointToStart(&kernel.getBody().front());
    dynamicBase = gpu::DynamicSharedMemoryOp::create(
        rewriter, kernel.getLoc(),
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
  }
  SmallVector<unsigned> erasedAttributions;

  for (const SharedBuffer &buffer : info.buffers) {
    if (!buffer.copied)
      continue;
    SmallVector<int64_t> shape{stages};
    llvm::append_range(shape, buffer.type.getShape());
    auto newType = MemRefType::get(shape, buffer.type.getElementType(),
                                   MemRefLayoutAttrInterface(),
                                   buffer.type.getMemorySpace());
    if (useDynamic) {
      newType = MemRefType::get(shape, buffer.type.getElementType(),
                                MemRefLayoutAttrInterface(), workgroup);
      dynamicBytes = llvm::alignTo(dynamicBytes, 128);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(dynamicBase.getDefiningOp());
      Value offset = arith::ConstantIndexOp::create(rewriter, kernel.getLoc(),
                                                    dynamicBytes);
      Value view = memref::ViewOp::create(rewriter, kernel.getLoc(), newType,
                                          dynamicBase, offset, ValueRange());
      dynamicBytes += *getSizeInBytes(newType);
      for (Value handle : getBufferHandles(buffer, kernel))
        redirectUses(handle, view);
      switch (buffer.kind) {
      case SharedBufferKind::Attribution:
        erasedAttributions.push_back(
            cast<BlockArgument>(buffer.root).getArgNumber());
        break;
      case SharedBufferKind::Alloc:
        rewriter.eraseOp(buffer.root.getDefiningOp());
        break;
      case SharedBufferKind::Global: {
        auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
        Operation *oldGlobal =
            SymbolTable::lookupSymbolIn(module, buffer.globalName);
        for (Value handle : getBufferHandles(buffer, kernel))
          rewriter.eraseOp(handle.getDefiningOp());
        if (SymbolTable::symbolKnownUseEmpty(oldGlobal, module))
          rewriter.eraseOp(oldGlobal);
        break;
      }
      }
      continue;
    }
    switch (buffer.kind) {
    case SharedBufferKind::Attribution: {
      auto arg = cast<BlockArgument>(buffer.root);
      unsigned index = arg.getArgNumber() - kernel.getNumArguments();
      rewriter.modifyOpInPlace(kernel, [&] {
        arg.setType(newType);
        auto align = dyn_cast_or_null<IntegerAttr>(
            kernel.getWorkgroupAttributionAttr(index, "llvm.align"));
        if (!align || align.getInt() < kBaseAlignment)
          kernel.setWorkgroupAttributionAttr(index, "llvm.align", alignAttr);
      });
      redirectUses(arg, arg);
      break;
    }
    case SharedBufferKind::Alloc: {
      Operation *old = buffer.root.getDefiningOp();
      rewriter.setInsertionPoint(old);
      Value replacement;
      if (isa<memref::AllocOp>(old))
        replacement = memref::AllocOp::create(rewriter, old->getLoc(), newType,
                                              alignAttr);
      else
        replacement = memref::AllocaOp::create(rewriter, old->getLoc(), newType,
                                               alignAttr);
      redirectUses(buffer.root, replacement);
      rewriter.eraseOp(old);
      break;
    }
    case SharedBufferKind::Global: {
      auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
      auto oldGlobal = cast<memref::GlobalOp>(
          SymbolTable::lookupSymbolIn(module, buffer.globalName));
      rewriter.setInsertionPoint(oldGlobal);
      auto newGlobal = memref::GlobalOp::create(
          rewriter, oldGlobal.getLoc(),
          StringAttr::get(ctx, oldGlobal.getSymName() + "_pk" + Twine(stages) +
                                   "stages"),
          rewriter.getStringAttr("private"), TypeAttr::get(newType),
          rewriter.getUnitAttr(), UnitAttr(), alignAttr);
      SymbolTable symbols(module);
      symbols.remove(newGlobal);
      symbols.insert(newGlobal, Block::iterator(oldGlobal));
      for (Value handle : getBufferHandles(buffer, kernel)) {
        Operation *getGlobal = handle.getDefiningOp();
        rewriter.setInsertionPoint(getGlobal);
        Value replacement = memref::GetGlobalOp::create(
            rewriter, getGlobal->getLoc(), newType, newGlobal.getSymName());
        redirectUses(handle, replacement);
        rewriter.eraseOp(getGlobal);
      }
      if (SymbolTable::symbolKnownUseEmpty(oldGlobal, module))
        rewriter.eraseOp(oldGlobal);
      break;
    }
    }
  }
  if (!useDynamic)
    return;
  // Drop the attributions that moved to dynamic shared memory, last first.
  llvm::sort(erasedAttributions, std::greater<unsigned>());
  rewriter.modifyOpInPlace(kernel, [&] {
    unsigned numArgs = kernel.getNumArguments();
    SmallVector<Attribute> attribAttrs;
    if (ArrayAttr attrs = kernel.getWorkgroupAttribAttrsAttr())
      attribAttrs.assign(attrs.begin(), attrs.end());
    for (unsigned argNumber : erasedAttributions) {
      kernel.getBody().front().eraseArgument(argNumber);
      if (!attribAttrs.empty())
        attribAttrs.erase(attribAttrs.begin() + (argNumber - numArgs));
    }
    kernel->setAttr(
        kernel.getNumWorkgroupAttributionsAttrName(),
        rewriter.getI64IntegerAttr(kernel.getNumWorkgroupAttributions() -
                                   erasedAttributions.size()));
    if (kernel.getWorkgroupAttribAttrsAttr())
      kernel.setWorkgroupAttribAttrsAttr(rewriter.getArrayAttr(attribAttrs));
    kernel->setAttr(kDynamicSharedMemoryAttrName,
                    rewriter.getI64IntegerAttr(dynamicBytes));
  });
}

//===----------------------------------------------------------------------===//
// Restructuring
//===----------------------------------------------------------------------===//

/// Whether `op` writes shared memory directly (a copy's store).
static bool isSharedStore(Operation *op) {
  if (!isa<vector::StoreOp, vector::TransferWriteOp, memref::StoreOp>(op))
    return false;
  return isSharedMemory(cast<MemRefType>(getAccessedMemRef(op).getType()));
}

/// Orders the K-loop body into the variant's two-stage schedule and runs
/// scf::pipelineForLoop.
///
///   cp-async:     [load phase, create_group]^0 [compute]^1 [wait, barrier]^0
///   ldg-register: [global loads]^0 [compute, barrier]^1 [stores, barrier]^0
///
/// (^s: pipeline stage). The prologue runs the stage-0 ops of tile 0, the
/// loop runs stage 0 of tile t+1 and stage 1 of tile t in list order, the
/// epilogue runs stage 1 of the last tile.
static FailureOr<scf::ForOp>
restructure(RewriterBase &rewriter, scf::ForOp forOp,
            gpu::BarrierOp loadBarrier, gpu::BarrierOp computeBarrier,
            PipelineVariant variant, PipelineSchedule schedule, int64_t stages,
            ArrayRef<Value> tokens, std::string &reason) {
  Block *body = forOp.getBody();
  SmallVector<Operation *> loadOps, computeOps;
  for (Operation &op : body->without_terminator()) {
    if (&op == loadBarrier.getOperation() ||
        &op == computeBarrier.getOperation())
      continue;
    (op.isBeforeInBlock(loadBarrier) ? loadOps : computeOps).push_back(&op);
  }

  std::vector<std::pair<Operation *, unsigned>> order;
  auto add = [&](ArrayRef<Operation *> ops, unsigned stage) {
    for (Operation *op : ops)
      order.push_back({op, stage});
  };
  Location loc = forOp.getLoc();
  // The stage of the compute: the loads run stages - 1 tiles ahead.
  unsigned computeStage = variant == PipelineVariant::CpAsync &&
                                  schedule == PipelineSchedule::Multistage
                              ? static_cast<unsigned>(stages - 1)
                              : 1;
  bool reorderBody = true;
  if (variant == PipelineVariant::CpAsync &&
      schedule == PipelineSchedule::Multistage) {
    rewriter.setInsertionPoint(loadBarrier);
    auto group = nvgpu::DeviceAsyncCreateGroupOp::create(
        rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
        tokens);
    // Waits on tile t's group (carried from stage 0 by the pipeliner); the
    // token only orders the IR, cp.async.wait_group counts groups.
    rewriter.setInsertionPoint(computeBarrier);
    auto wait = nvgpu::DeviceAsyncWaitOp::create(
        rewriter, loc, group.getAsyncToken(),
        rewriter.getI32IntegerAttr(stages - 2));
    rewriter.eraseOp(loadBarrier);
    loadOps.push_back(group);
    add({wait, computeBarrier}, computeStage);
    add(loadOps, 0);
    add(computeOps, computeStage);
    // The wait uses the group defined later in the schedule: keep the body
    // in its (dominance-respecting) order, the pipeliner emits the schedule.
    reorderBody = false;
  } else if (variant == PipelineVariant::CpAsync) {
    rewriter.setInsertionPoint(loadBarrier);
    auto group = nvgpu::DeviceAsyncCreateGroupOp::create(
        rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
        tokens);
    rewriter.setInsertionPoint(computeBarrier);
    auto wait = nvgpu::DeviceAsyncWaitOp::create(
        rewriter, loc, group.getAsyncToken(), rewriter.getI32IntegerAttr(0));
    rewriter.eraseOp(loadBarrier);
    loadOps.push_back(group);
    add(loadOps, 0);
    add(computeOps, 1);
    add({wait, computeBarrier}, 0);
  } else {
    SmallVector<Operation *> loads, stores;
    for (Operation *op : loadOps)
      (isSharedStore(op) ? stores : loads).push_back(op);
    add(loads, 0);
    add(computeOps, 1);
    add({computeBarrier}, 1);
    add(stores, 0);
    add({loadBarrier}, 0);
  }
  // Make the body's order the schedule's order.
  if (reorderBody)
    for (auto &[op, stage] : order)
      op->moveBefore(body->getTerminator());

  scf::PipeliningOption options;
  options.getScheduleFn =
      [&](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &s) {
        s = order;
      };
  // Epilogue iteration k (0-based) computes tile n-N+1+k; no group is
  // committed after the loop, so its wait allows N-2-k pending groups.
  options.annotateFn = [&](Operation *op,
                           scf::PipeliningOption::PipelinerPart part,
                           unsigned iteration) {
    auto wait = dyn_cast<nvgpu::DeviceAsyncWaitOp>(op);
    if (!wait || part != scf::PipeliningOption::PipelinerPart::Epilogue ||
        computeStage < 2)
      return;
    int64_t pending = std::max<int64_t>(stages - 2 - iteration, 0);
    wait.setNumGroupsAttr(rewriter.getI32IntegerAttr(pending));
  };
  options.peelEpilogue = true;
  options.supportDynamicLoops = true;
  options.predicateFn = [](RewriterBase &, Operation *op, Value) { return op; };
  // The op after the loop survives the pipeliner, which emits the epilogue
  // right before it.
  Operation *afterLoop = forOp->getNextNode();
  // The pipeliner creates some values at the current insertion point.
  rewriter.setInsertionPoint(forOp);
  bool modified = false;
  FailureOr<scf::ForOp> newLoop =
      scf::pipelineForLoop(rewriter, forOp, options, &modified);
  if (failed(newLoop)) {
    reason = "scf::pipelineForLoop rejected the schedule";
    return failure();
  }
  if (variant == PipelineVariant::CpAsync) {
    // The original loop ended with a barrier: keep one after the epilogue's
    // compute so that code after the loop may reuse shared memory.
    rewriter.setInsertionPoint(afterLoop);
    gpu::BarrierOp::create(rewriter, loc);
  }
  return newLoop;
}

//===----------------------------------------------------------------------===//
// Dynamic trip counts
//===----------------------------------------------------------------------===//

/// Replaces `forOp` by `scf.if (ceildiv(ub - lb, step) >= minTrips)` whose
/// then-branch holds a copy of the loop (returned, to be pipelined) and whose
/// else-branch holds the original loop, marked with kFallbackAttrName.
static scf::ForOp versionOnTripCount(RewriterBase &rewriter, scf::ForOp forOp,
                                     int64_t minTrips) {
  Location loc = forOp.getLoc();
  rewriter.setInsertionPoint(forOp);
  Value span = arith::SubIOp::create(rewriter, loc, forOp.getUpperBound(),
                                     forOp.getLowerBound());
  Value trips =
      arith::CeilDivSIOp::create(rewriter, loc, span, forOp.getStep());
  Value min = arith::ConstantOp::create(
      rewriter, loc, rewriter.getIntegerAttr(trips.getType(), minTrips));
  Value enough = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                       trips, min);
  auto ifOp = scf::IfOp::create(rewriter, loc, forOp.getResultTypes(), enough,
                                /*withElseRegion=*/true);
  rewriter.replaceAllUsesWith(forOp.getResults(), ifOp.getResults());

  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  auto copy = cast<scf::ForOp>(rewriter.clone(*forOp));
  if (ifOp.getNumResults())
    scf::YieldOp::create(rewriter, loc, copy.getResults());
  else
    rewriter.eraseOp(ifOp.thenBlock()->getTerminator());

  Block *elseBlock = ifOp.elseBlock();
  if (!ifOp.getNumResults() && !elseBlock->empty())
    rewriter.eraseOp(elseBlock->getTerminator());
  rewriter.moveOpBefore(forOp, elseBlock, elseBlock->end());
  rewriter.setInsertionPointToEnd(elseBlock);
  scf::YieldOp::create(rewriter, loc, forOp.getResults());
  rewriter.modifyOpInPlace(forOp, [&] {
    forOp->setAttr(kFallbackAttrName, rewriter.getUnitAttr());
  });
  if (!ifOp.getNumResults()) {
    rewriter.setInsertionPointToEnd(ifOp.thenBlock());
    scf::YieldOp::create(rewriter, loc);
  }
  return copy;
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

int64_t mlir::pk::getEffectiveStages(const KLoopInfo &info,
                                     const PipelineKLoopOptions &options) {
  if (options.variant == PipelineVariant::RegisterPrefetch)
    return 1;
  if (options.variant == PipelineVariant::LdgRegister)
    return 2;
  // Fewer tiles than buffers: one buffer per tile.
  if (info.tripCount && *info.tripCount >= 2)
    return std::min(options.stages, *info.tripCount);
  return options.stages;
}

StringRef mlir::pk::stringifyPipelineSchedule(PipelineSchedule schedule) {
  switch (schedule) {
  case PipelineSchedule::Auto:
    return "auto";
  case PipelineSchedule::Seed:
    return "seed";
  case PipelineSchedule::Multistage:
    return "multistage";
  }
  llvm_unreachable("unknown schedule");
}

FailureOr<scf::ForOp>
mlir::pk::pipelineKLoop(RewriterBase &rewriter, KLoopInfo &info,
                        const PipelineKLoopOptions &options,
                        std::string &reason) {
  auto bail = [&](const Twine &msg) {
    reason = msg.str();
    LDBG() << "not pipelining " << locationToString(info.forOp.getLoc()) << ": "
           << reason << " -> BAIL";
    return failure();
  };
  PipelineVariant variant = options.variant;
  if (variant == PipelineVariant::None)
    return bail("no variant selected");
  if (info.tripCount && *info.tripCount < 2)
    return bail("trip count " + Twine(*info.tripCount) +
                " < 2: no next tile to overlap");
  if (options.stages < 2 || options.stages > 8)
    return bail("stages=" + Twine(options.stages) + ": pk supports 2 to 8");
  int64_t stages = getEffectiveStages(info, options);
  PipelineSchedule schedule = options.schedule;
  // The multistage order measured faster than the seed's at 2 stages too
  // (HGEMM 328.7 vs 301.9 TFLOP/s, IGEMM 661.0 vs 593.4 TOP/s on an H200:
  // integration/results/2026-11-29-h200-stages).
  if (schedule == PipelineSchedule::Auto)
    schedule = PipelineSchedule::Multistage;
  if (variant == PipelineVariant::CpAsync &&
      schedule == PipelineSchedule::Seed && stages != 2)
    return bail("schedule=seed is the seed's two-stage order; stages=" +
                Twine(stages) + " needs schedule=multistage");
  if (variant != PipelineVariant::RegisterPrefetch &&
      failed(checkBufferUses(info, reason)))
    return bail(reason);
  SmallVector<AsyncCopyPlan> plans;
  if (variant == PipelineVariant::CpAsync &&
      failed(planCpAsync(info, plans, reason)))
    return bail(reason);
  if (variant != PipelineVariant::CpAsync) {
    for (const TileCopy &copy : info.copies)
      for (Operation *store : copy.stores)
        if (store->getParentOp() != info.forOp.getOperation())
          return bail("the " + stringifyPipelineVariant(variant) +
                      " variant moves the shared stores after the compute; "
                      "the store at " +
                      locationToString(store->getLoc()) +
                      " is inside a nested region");
  }

  // Keep a copy of the enclosing gpu.module (or kernel) to restore on
  // failure: the transform is all or nothing.
  Operation *scope = info.kernel->getParentOfType<gpu::GPUModuleOp>();
  if (!scope)
    scope = info.kernel;
  Operation *backup = scope->clone();
  auto restore = [&](const Twine &msg) {
    scope->getBlock()->getOperations().insert(Block::iterator(scope), backup);
    rewriter.eraseOp(scope);
    return bail(msg);
  };

  gpu::GPUFuncOp kernel = info.kernel;
  // A dynamic trip count: version the loop on `trip count >= stages`; the
  // pipelined copy runs when it holds, the original loop (marked as the
  // fallback) otherwise.
  KLoopInfo dynamicInfo;
  KLoopInfo *work = &info;
  if (!info.tripCount) {
    scf::ForOp pipelinedCopy =
        versionOnTripCount(rewriter, info.forOp, std::max<int64_t>(stages, 2));
    std::string why;
    Location where = pipelinedCopy.getLoc();
    FailureOr<KLoopInfo> rematched =
        matchKLoop(pipelinedCopy, why, where, info.threadsPerBlock);
    if (failed(rematched))
      return restore("internal error: the versioned loop does not match: " +
                     why);
    dynamicInfo = std::move(*rematched);
    work = &dynamicInfo;
    plans.clear();
    if (variant == PipelineVariant::CpAsync &&
        failed(planCpAsync(*work, plans, reason)))
      return restore(reason);
  }

  SmallVector<Value> tokens;
  if (variant == PipelineVariant::CpAsync)
    tokens = convertToAsyncCopies(rewriter, plans, work->forOp);
  if (stages > 1)
    multiBufferCopiedBuffers(rewriter, *work, stages,
                             work->smemMultiBytes(stages) >
                                 options.staticSharedMemoryLimit);
  FailureOr<scf::ForOp> newLoop = restructure(
      rewriter, work->forOp, work->loadBarrier, work->computeBarrier, variant,
      schedule, stages, tokens, reason);
  if (failed(newLoop))
    return restore(reason);

  rewriter.modifyOpInPlace(*newLoop, [&] {
    (*newLoop)->setAttr(kPipelinedAttrName, rewriter.getUnitAttr());
  });

  std::string diagnostics;
  {
    ScopedDiagnosticHandler handler(rewriter.getContext(),
                                    [&](Diagnostic &diag) {
                                      diagnostics += diag.str();
                                      return success();
                                    });
    if (failed(verify(kernel)))
      return restore("internal error: the pipelined kernel does not verify (" +
                     diagnostics + "); the loop is left untouched");
  }
  backup->destroy();
  return newLoop;
}
