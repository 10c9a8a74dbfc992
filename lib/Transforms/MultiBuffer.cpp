//===- MultiBuffer.cpp - Give the copied shared tiles N stages ------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Multi-buffering of the shared buffers a K-loop's load phase writes, in the
// three allocation forms pk accepts (workgroup attribution, workgroup
// memref.global, workgroup memref.alloc/alloca): each gets a leading stage
// dimension, and every access is redirected to stage ((iv - lb) / step) %
// stages: the load phase's to the stage of the tile being loaded, the
// compute phase's to the stage being computed. Above the 48 KB static limit
// the buffers become views of dynamic shared memory instead.
// Which buffers qualify is BufferUses.cpp. Tests: test/pk-pipeline-kloops.mlir
// (each form, dynamic shared memory).
//
//===----------------------------------------------------------------------===//

#include "pk/PipelineSteps.h"

#include "MultiBufferInternal.h"

#include "pk/AsyncCopyPlan.h"
#include "pk/Support.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

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

/// Every value through which the kernel reaches `buffer`'s storage: the
/// root, or every memref.get_global of its symbol in the kernel.
SmallVector<Value>
mlir::pk::detail::getBufferHandles(const SharedBuffer &buffer,
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

/// Whether `op` is a view pk re-creates on a stage: a memref.subview, or a
/// memref.expand_shape / collapse_shape (IREE reads its tiles through them).
bool mlir::pk::detail::isStageableView(Operation *op) {
  return isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(
      op);
}

/// The type of `reshape` (an expand_shape or collapse_shape) on a source of
/// type `source`: the same shape, the layout that source implies.
FailureOr<MemRefType> mlir::pk::detail::getReshapedType(Operation *reshape,
                                                        MemRefType source) {
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(reshape))
    return memref::ExpandShapeOp::computeExpandedType(
        source, expand.getResultType().getShape(),
        expand.getReassociationIndices());
  auto collapse = cast<memref::CollapseShapeOp>(reshape);
  return memref::CollapseShapeOp::computeCollapsedType(
      source, collapse.getReassociationIndices());
}

/// `type` with a dynamic offset: what a view of one stage has.
MemRefType mlir::pk::detail::withDynamicOffset(MemRefType type) {
  auto [strides, offset] = type.getStridesAndOffset();
  return MemRefType::get(
      type.getShape(), type.getElementType(),
      StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, strides),
      type.getMemorySpace());
}

Value mlir::pk::detail::createTileIndex(RewriterBase &rewriter, Location loc,
                                        scf::ForOp forOp) {
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
  return tile;
}

Value mlir::pk::detail::createStageIndex(RewriterBase &rewriter, Location loc,
                                         scf::ForOp forOp, int64_t stages) {
  Value tile = createTileIndex(rewriter, loc, forOp);
  Value count = arith::ConstantIndexOp::create(rewriter, loc, stages);
  return arith::RemUIOp::create(rewriter, loc, tile, count);
}

namespace {
/// Multi-buffers the copied buffers of one K-loop.
class MultiBuffering {
public:
  MultiBuffering(RewriterBase &rewriter, const KLoopInfo &info, int64_t stages)
      : rewriter(rewriter), info(info), stages(stages), kernel(info.kernel),
        module(kernel->getParentOfType<gpu::GPUModuleOp>()) {}

  /// Multi-buffers every copied buffer in its own allocation form.
  void runInPlace();
  /// Moves every copied buffer, multi-buffered, to dynamic shared memory.
  void runInDynamicSharedMemory();
  /// The stage index of the load phase, at the start of the loop body.
  Value getLoadStage() const { return loadStage; }

private:
  void createStageIndices();
  Value stageFor(Operation *user);
  void redirectUses(Value handle, Value newMemRef);
  void redirectSubView(memref::SubViewOp subview, Value newSource, Value stage);
  void redirectWholeBuffer(OpOperand &operand, Value newMemRef, Value stage);
  Value createStageView(Value newMemRef, Value stage, Operation *before);
  void redirectReshape(Operation *reshape, Value newSource);
  MemRefType getMultiBufferedType(const SharedBuffer &buffer,
                                  Attribute memorySpace) const;
  void multiBufferAttribution(const SharedBuffer &buffer, MemRefType type);
  void multiBufferAlloc(const SharedBuffer &buffer, MemRefType type);
  void multiBufferGlobal(const SharedBuffer &buffer, MemRefType type);
  void eraseOriginal(const SharedBuffer &buffer,
                     SmallVectorImpl<unsigned> &erasedAttributions);
  void dropAttributions(SmallVectorImpl<unsigned> &erasedAttributions,
                        int64_t dynamicBytes);
  int64_t getAlignment(const SharedBuffer &buffer, int64_t floor) const;

  RewriterBase &rewriter;
  const KLoopInfo &info;
  int64_t stages;
  gpu::GPUFuncOp kernel;
  gpu::GPUModuleOp module;
  Value loadStage, computeStage, zero;
};
} // namespace

void MultiBuffering::createStageIndices() {
  scf::ForOp forOp = info.forOp;
  rewriter.setInsertionPointToStart(forOp.getBody());
  loadStage =
      pk::detail::createStageIndex(rewriter, forOp.getLoc(), forOp, stages);
  rewriter.setInsertionPointAfter(info.getLoadPhaseEnd());
  computeStage =
      pk::detail::createStageIndex(rewriter, forOp.getLoc(), forOp, stages);
}

/// Load-phase accesses use the stage of the tile being loaded,
/// compute-phase accesses the stage being computed, accesses outside the
/// loop stage 0.
Value MultiBuffering::stageFor(Operation *user) {
  scf::ForOp forOp = info.forOp;
  if (Operation *inBody = forOp.getBody()->findAncestorOpInBlock(*user))
    return inBody->isBeforeInBlock(info.getLoadPhaseEnd()) ? loadStage
                                                           : computeStage;
  if (!zero) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&kernel.getBody().front());
    zero = arith::ConstantIndexOp::create(rewriter, kernel.getLoc(), 0);
  }
  return zero;
}

void MultiBuffering::redirectUses(Value handle, Value newMemRef) {
  SmallVector<Operation *> users(handle.getUsers());
  for (Operation *user : users) {
    if (auto subview = dyn_cast<memref::SubViewOp>(user))
      redirectSubView(subview, newMemRef, stageFor(subview));
    else if (auto gen = dyn_cast<nvgpu::WarpgroupGenerateDescriptorOp>(user))
      redirectWholeBuffer(gen.getTensorMutable(), newMemRef, stageFor(gen));
    else if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(user))
      redirectWholeBuffer(load.getDstMutable(), newMemRef, stageFor(load));
    else if (isStageableView(user))
      redirectReshape(user, createStageView(newMemRef, stageFor(user), user));
    else
      redirectAccess(rewriter, user, newMemRef, stageFor(user));
  }
}

/// Points `operand`, a whole buffer (the tensor of a wgmma descriptor, the
/// destination of a TMA load), at slice `stage` of `newMemRef` (the buffer
/// with its leading stage dimension): a rank-reducing `memref.subview` whose
/// dynamic offset the op's address includes (NVGPU's lowering adds the
/// view's offset to its base).
void MultiBuffering::redirectWholeBuffer(OpOperand &operand, Value newMemRef,
                                         Value stage) {
  Operation *user = operand.getOwner();
  Value view = createStageView(newMemRef, stage, user);
  rewriter.modifyOpInPlace(user, [&] { operand.set(view); });
}

/// Slice `stage` of `newMemRef` (the buffer with its leading stage
/// dimension), in the buffer's own shape, before `before`.
Value MultiBuffering::createStageView(Value newMemRef, Value stage,
                                      Operation *before) {
  // One stage: the buffer's own shape (an attribution's type has already
  // changed, so take it from the multi-buffered type).
  auto newType = cast<MemRefType>(newMemRef.getType());
  ArrayRef<int64_t> shape = newType.getShape().drop_front();
  int64_t rank = newType.getRank();
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
  offsets.front() = stage;
  SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1)};
  for (int64_t dim : shape)
    sizes.push_back(rewriter.getIndexAttr(dim));
  SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
  auto type = withDynamicOffset(MemRefType::get(shape, newType.getElementType(),
                                                MemRefLayoutAttrInterface(),
                                                newType.getMemorySpace()));
  rewriter.setInsertionPoint(before);
  return memref::SubViewOp::create(rewriter, before->getLoc(), type, newMemRef,
                                   offsets, sizes, strides);
}

/// Re-creates `reshape` (an expand_shape or collapse_shape, or a subview
/// without a stage) on `newSource`, a view of the same data whose offset is
/// dynamic, and the views of it on the new one.
void MultiBuffering::redirectReshape(Operation *reshape, Value newSource) {
  if (auto subview = dyn_cast<memref::SubViewOp>(reshape))
    return redirectSubView(subview, newSource, Value());
  rewriter.setInsertionPoint(reshape);
  auto source = cast<MemRefType>(newSource.getType());
  // checkHandleUses proved the layout exists.
  MemRefType type = *getReshapedType(reshape, source);
  Value newReshape;
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(reshape))
    newReshape = memref::ExpandShapeOp::create(
        rewriter, expand.getLoc(), type, newSource,
        expand.getReassociationIndices(), expand.getMixedOutputShape());
  else
    newReshape = memref::CollapseShapeOp::create(
        rewriter, reshape->getLoc(), type, newSource,
        cast<memref::CollapseShapeOp>(reshape).getReassociationIndices());
  SmallVector<Operation *> users(reshape->getUsers());
  for (Operation *user : users) {
    if (isStageableView(user))
      redirectReshape(user, newReshape);
    else
      rewriter.modifyOpInPlace(user, [&] {
        user->replaceUsesOfWith(reshape->getResult(0), newReshape);
      });
  }
  rewriter.eraseOp(reshape);
}

/// Re-creates `subview` on `newSource` (a view of the same data with a new
/// type): with `stage`, `newSource` has the leading stage dimension and the
/// new subview takes slice `stage` of it, rank-reduced to `subview`'s shape;
/// the subviews of `subview` are re-created on the new one.
void MultiBuffering::redirectSubView(memref::SubViewOp subview, Value newSource,
                                     Value stage) {
  SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = subview.getMixedSizes();
  SmallVector<OpFoldResult> strides = subview.getMixedStrides();
  if (stage) {
    offsets.insert(offsets.begin(), stage);
    sizes.insert(sizes.begin(), rewriter.getIndexAttr(1));
    strides.insert(strides.begin(), rewriter.getIndexAttr(1));
  }
  // The strides within a stage are the buffer's: the subview keeps its
  // strides, and its offset moves with the stage (dynamic). Given
  // explicitly, the rank reduction drops the stage dimension, not another
  // unit dimension.
  MemRefType oldType = subview.getType();
  auto [oldStrides, oldOffset] = oldType.getStridesAndOffset();
  auto type =
      MemRefType::get(oldType.getShape(), oldType.getElementType(),
                      StridedLayoutAttr::get(rewriter.getContext(),
                                             ShapedType::kDynamic, oldStrides),
                      oldType.getMemorySpace());
  rewriter.setInsertionPoint(subview);
  auto newSubView = memref::SubViewOp::create(
      rewriter, subview.getLoc(), type, newSource, offsets, sizes, strides);
  SmallVector<Operation *> users(subview->getUsers());
  for (Operation *user : users) {
    if (auto nested = dyn_cast<memref::SubViewOp>(user))
      redirectSubView(nested, newSubView, Value());
    else if (isStageableView(user))
      redirectReshape(user, newSubView);
    else
      rewriter.modifyOpInPlace(
          user, [&] { user->replaceUsesOfWith(subview, newSubView); });
  }
  rewriter.eraseOp(subview);
}

MemRefType MultiBuffering::getMultiBufferedType(const SharedBuffer &buffer,
                                                Attribute memorySpace) const {
  SmallVector<int64_t> shape{stages};
  llvm::append_range(shape, buffer.type.getShape());
  return MemRefType::get(shape, buffer.type.getElementType(),
                         MemRefLayoutAttrInterface(), memorySpace);
}

void MultiBuffering::multiBufferAttribution(const SharedBuffer &buffer,
                                            MemRefType type) {
  auto arg = cast<BlockArgument>(buffer.root);
  unsigned index = arg.getArgNumber() - kernel.getNumArguments();
  int64_t alignment = getAlignment(buffer, kBaseAlignment);
  rewriter.modifyOpInPlace(kernel, [&] {
    arg.setType(type);
    auto align = dyn_cast_or_null<IntegerAttr>(
        kernel.getWorkgroupAttributionAttr(index, "llvm.align"));
    if (!align || align.getInt() < alignment)
      kernel.setWorkgroupAttributionAttr(index, "llvm.align",
                                         rewriter.getI64IntegerAttr(alignment));
  });
  redirectUses(arg, arg);
}

/// A workgroup memref.alloc / alloca would lower to malloc / local memory:
/// the multi-buffered tile becomes a workgroup attribution instead.
void MultiBuffering::multiBufferAlloc(const SharedBuffer &buffer,
                                      MemRefType type) {
  Operation *old = buffer.root.getDefiningOp();
  BlockArgument arg = kernel.addWorkgroupAttribution(type, old->getLoc());
  rewriter.modifyOpInPlace(kernel, [&] {
    kernel.setWorkgroupAttributionAttr(
        kernel.getNumWorkgroupAttributions() - 1, "llvm.align",
        rewriter.getI64IntegerAttr(getAlignment(buffer, kBaseAlignment)));
  });
  redirectUses(buffer.root, arg);
  rewriter.eraseOp(old);
}

void MultiBuffering::multiBufferGlobal(const SharedBuffer &buffer,
                                       MemRefType type) {
  auto oldGlobal = cast<memref::GlobalOp>(
      SymbolTable::lookupSymbolIn(module, buffer.globalName));
  rewriter.setInsertionPoint(oldGlobal);
  auto newGlobal = memref::GlobalOp::create(
      rewriter, oldGlobal.getLoc(),
      rewriter.getStringAttr(oldGlobal.getSymName() + "_pk" + Twine(stages) +
                             "stages"),
      rewriter.getStringAttr("private"), TypeAttr::get(type),
      rewriter.getUnitAttr(), UnitAttr(),
      rewriter.getI64IntegerAttr(getAlignment(buffer, kBaseAlignment)));
  SymbolTable symbols(module);
  symbols.remove(newGlobal);
  symbols.insert(newGlobal, Block::iterator(oldGlobal));
  for (Value handle : getBufferHandles(buffer, kernel)) {
    Operation *getGlobal = handle.getDefiningOp();
    rewriter.setInsertionPoint(getGlobal);
    Value replacement = memref::GetGlobalOp::create(
        rewriter, getGlobal->getLoc(), type, newGlobal.getSymName());
    redirectUses(handle, replacement);
    rewriter.eraseOp(getGlobal);
  }
  if (SymbolTable::symbolKnownUseEmpty(oldGlobal, module))
    rewriter.eraseOp(oldGlobal);
}

void MultiBuffering::runInPlace() {
  createStageIndices();
  for (const SharedBuffer &buffer : info.buffers) {
    if (!buffer.copied)
      continue;
    MemRefType type =
        getMultiBufferedType(buffer, buffer.type.getMemorySpace());
    switch (buffer.kind) {
    case SharedBufferKind::Attribution:
      multiBufferAttribution(buffer, type);
      break;
    case SharedBufferKind::Alloc:
      multiBufferAlloc(buffer, type);
      break;
    case SharedBufferKind::Global:
      multiBufferGlobal(buffer, type);
      break;
    }
  }
}

/// Erases what held `buffer` before it moved to dynamic shared memory
/// (attributions are collected and dropped together at the end).
void MultiBuffering::eraseOriginal(
    const SharedBuffer &buffer, SmallVectorImpl<unsigned> &erasedAttributions) {
  switch (buffer.kind) {
  case SharedBufferKind::Attribution:
    erasedAttributions.push_back(
        cast<BlockArgument>(buffer.root).getArgNumber());
    break;
  case SharedBufferKind::Alloc:
    rewriter.eraseOp(buffer.root.getDefiningOp());
    break;
  case SharedBufferKind::Global: {
    Operation *oldGlobal =
        SymbolTable::lookupSymbolIn(module, buffer.globalName);
    for (Value handle : getBufferHandles(buffer, kernel))
      rewriter.eraseOp(handle.getDefiningOp());
    if (SymbolTable::symbolKnownUseEmpty(oldGlobal, module))
      rewriter.eraseOp(oldGlobal);
    break;
  }
  }
}

/// Drops the attributions that moved to dynamic shared memory, last first,
/// and records the dynamic shared memory the kernel must be launched with.
void MultiBuffering::dropAttributions(
    SmallVectorImpl<unsigned> &erasedAttributions, int64_t dynamicBytes) {
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

/// The alignment of `buffer`'s stages: `floor`, or kWgmmaOperandAlignment
/// for a wgmma operand (its stages are multiples of it,
/// checkPipelineKLoop).
int64_t MultiBuffering::getAlignment(const SharedBuffer &buffer,
                                     int64_t floor) const {
  bool wgmmaOperand = llvm::any_of(info.warpgroupMmas, [&](const auto &mma) {
    return &info.buffers[mma.bufferA] == &buffer ||
           &info.buffers[mma.bufferB] == &buffer;
  });
  // TMA writes 128B-swizzled boxes at 1024-byte aligned addresses.
  bool tmaDestination = llvm::any_of(info.copies, [&](const TileCopy &copy) {
    return copy.tma && &info.buffers[copy.bufferIndex] == &buffer;
  });
  return wgmmaOperand || tmaDestination
             ? std::max(floor, kWgmmaOperandAlignment)
             : floor;
}

/// Above the 48 KB static limit the multi-buffered tiles become views of
/// dynamic shared memory, laid out one after the other at 128-byte
/// boundaries (1024 for wgmma operands), after the dynamic shared memory an
/// earlier K-loop of the kernel took; the kernel records the size to launch
/// with.
void MultiBuffering::runInDynamicSharedMemory() {
  createStageIndices();
  int64_t dynamicBytes = 0;
  if (auto existing =
          kernel->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttrName))
    dynamicBytes = existing.getInt();
  auto workgroup = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                              gpu::AddressSpace::Workgroup);
  rewriter.setInsertionPointToStart(&kernel.getBody().front());
  Value base = gpu::DynamicSharedMemoryOp::create(
      rewriter, kernel.getLoc(),
      MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  SmallVector<unsigned> erasedAttributions;
  for (const SharedBuffer &buffer : info.buffers) {
    if (!buffer.copied)
      continue;
    MemRefType type = getMultiBufferedType(buffer, workgroup);
    dynamicBytes = llvm::alignTo(dynamicBytes, getAlignment(buffer, 128));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(base.getDefiningOp());
    Value offset =
        arith::ConstantIndexOp::create(rewriter, kernel.getLoc(), dynamicBytes);
    Value view = memref::ViewOp::create(rewriter, kernel.getLoc(), type, base,
                                        offset, ValueRange());
    dynamicBytes = saturatingAdd(dynamicBytes, *getSizeInBytes(type));
    for (Value handle : getBufferHandles(buffer, kernel))
      redirectUses(handle, view);
    eraseOriginal(buffer, erasedAttributions);
  }
  dropAttributions(erasedAttributions, dynamicBytes);
}

Value mlir::pk::detail::multiBufferCopiedBuffers(RewriterBase &rewriter,
                                                 const KLoopInfo &info,
                                                 int64_t stages,
                                                 bool useDynamic) {
  MultiBuffering multiBuffering(rewriter, info, stages);
  if (useDynamic)
    multiBuffering.runInDynamicSharedMemory();
  else
    multiBuffering.runInPlace();
  return multiBuffering.getLoadStage();
}
