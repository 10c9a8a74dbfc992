//===- BufferUses.cpp - Which copied shared tiles can be multi-buffered ---===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The precondition of multi-buffering (checkBufferUses): every use of a
// copied shared buffer is an access inside the K-loop, directly or through a
// view pk re-creates per stage (subview, expand_shape, collapse_shape), a
// wgmma descriptor or a TMA load; a memref.global tile is reached only by
// memref.get_global in the kernel. Declines point at the use. The rewrite is
// MultiBuffer.cpp. Tests: test/pk-pipeline-kloops-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/PipelineSteps.h"

#include "MultiBufferInternal.h"

#include "pk/Support.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

/// Whether `op` is an `nvgpu.warpgroup.generate.descriptor` of `memref`.
static bool isWarpgroupDescriptorOf(Operation *op, Value memref) {
  auto gen = dyn_cast<nvgpu::WarpgroupGenerateDescriptorOp>(op);
  return gen && gen.getTensor() == memref;
}

/// Whether `op` is an `nvgpu.tma.async.load` into `memref`.
static bool isTmaLoadInto(Operation *op, Value memref) {
  auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(op);
  return load && load.getDst() == memref;
}

/// The accesses of `memref`, directly or through views (isStageableView;
/// they are appended to `subviews`); returns the first other user, or null.
static Operation *collectAccesses(Value memref,
                                  SmallVectorImpl<Operation *> &accesses,
                                  SmallVectorImpl<Operation *> &subviews) {
  for (Operation *user : memref.getUsers()) {
    if (isStageableView(user)) {
      subviews.push_back(user);
      if (Operation *other =
              collectAccesses(user->getResult(0), accesses, subviews))
        return other;
      continue;
    }
    // A wgmma descriptor reads the buffer through the wgmma that uses it;
    // it is pointed at a stage like an access.
    if (isWarpgroupDescriptorOf(user, memref) || isTmaLoadInto(user, memref)) {
      accesses.push_back(user);
      continue;
    }
    if (getAccessedMemRef(user) != memref)
      return user;
    accesses.push_back(user);
  }
  return nullptr;
}

/// Whether `op`, inside the K-loop, is in its load phase.
static bool isInLoadPhase(const KLoopInfo &info, Operation *op) {
  scf::ForOp forOp = info.forOp;
  return forOp.getBody()->findAncestorOpInBlock(*op)->isBeforeInBlock(
      info.getLoadPhaseEnd());
}

/// Whether `subview`, outside the K-loop, only names the destination of TMA
/// loads of the loop (directly or through subviews): the TMA ring sinks it
/// into the loop before multi-buffering (sinkTmaDestinationViews).
static bool isSinkableTmaView(const KLoopInfo &info, Operation *subview) {
  if (!info.tma || info.forOp->isAncestor(subview))
    return false;
  return llvm::all_of(subview->getUsers(), [&](Operation *user) {
    if (isa<memref::SubViewOp>(user))
      return isSinkableTmaView(info, user);
    return llvm::is_contained(info.tma->loads, user) &&
           isTmaLoadInto(user, subview->getResult(0));
  });
}

/// A decline at `at` about copied buffer `buffer`, with a note at the
/// buffer.
static Decline declineBuffer(Operation *at, const SharedBuffer &buffer,
                             const Twine &message) {
  return Decline(at, message)
      .attachNote(buffer.root.getLoc(), "copied buffer " + buffer.name);
}

/// Checks the uses of one handle of a copied buffer: accesses, directly or
/// through `memref.subview`s, inside the K-loop, at addresses that do not
/// depend on its induction variable; a subview in the phase of every access
/// made through it (it is redirected to that phase's stage).
static DeclineOr<void> checkHandleUses(const KLoopInfo &info,
                                       const SharedBuffer &buffer,
                                       Value handle) {
  SmallVector<Operation *> accesses, subviews;
  if (Operation *user = collectAccesses(handle, accesses, subviews))
    return declineBuffer(user, buffer,
                         "copied buffer " + buffer.name + " is used by '" +
                             user->getName().getStringRef() +
                             "'; pk multi-buffers buffers used only by loads "
                             "and stores, directly or through memref.subview, "
                             "expand_shape or collapse_shape");
  // An address that depends on the K-loop's induction variable means the
  // loop already rotates buffers itself.
  for (Operation *access : accesses)
    for (Value index : getAddressOperands(access))
      if (dependsOnInductionVar(index, info.forOp))
        return declineBuffer(access, buffer,
                             "this index into copied buffer " + buffer.name +
                                 " depends on the K-loop's induction "
                                 "variable: the loop already rotates its "
                                 "buffers");
  // Outside the loop pk could not tell which stage holds the data (reads
  // after it, writes before it, another K-loop).
  for (Operation *user : llvm::concat<Operation *>(subviews, accesses)) {
    if (info.forOp->isProperAncestor(user) || isSinkableTmaView(info, user))
      continue;
    return declineBuffer(user, buffer,
                         "copied buffer " + buffer.name +
                             " is also accessed here, outside the K-loop; pk "
                             "multi-buffers tiles used only inside their loop");
  }
  for (Operation *subview : subviews) {
    // A reshape of a stage (whose offset is dynamic) must keep its layout.
    if (!isa<memref::SubViewOp>(subview) &&
        failed(
            getReshapedType(subview, withDynamicOffset(cast<MemRefType>(
                                         subview->getOperand(0).getType())))))
      return declineBuffer(subview, buffer,
                           "this reshape of copied buffer " + buffer.name +
                               " has no strided layout on one stage of the "
                               "multi-buffered tile");
    if (!info.forOp->isProperAncestor(subview))
      continue;
    for (Operation *user : subview->getUsers()) {
      if (isInLoadPhase(info, user) == isInLoadPhase(info, subview))
        continue;
      return declineBuffer(subview, buffer,
                           "this " + subview->getName().getStringRef() +
                               " of copied buffer " + buffer.name +
                               " is used in the other phase of the K-loop; "
                               "pk needs the subviews of each phase in that "
                               "phase")
          .attachNote(user->getLoc(), "the use in the other phase");
    }
  }
  return success();
}

/// A copied buffer that is a memref.global: private, uninitialized, defined
/// in the kernel's gpu.module and used only by this kernel (pk replaces it
/// by a multi-buffered one for this kernel).
static DeclineOr<void> checkGlobalBuffer(const KLoopInfo &info,
                                         const SharedBuffer &buffer) {
  Operation *at = buffer.root.getDefiningOp();
  auto module = info.kernel->getParentOfType<gpu::GPUModuleOp>();
  auto global = dyn_cast_or_null<memref::GlobalOp>(
      module ? SymbolTable::lookupSymbolIn(module, buffer.globalName)
             : nullptr);
  if (!global)
    return Decline(at, "memref.global " + buffer.name +
                           " is not defined in the kernel's gpu.module");
  // pk replaces the global by a private, multi-buffered one: it would drop
  // an initializer and change what other modules see.
  if (!global.isPrivate() || global.getInitialValue())
    return Decline(
        global, "copied buffer " + buffer.name + " is a " +
                    (global.isPrivate() ? "" : "public ") + "memref.global" +
                    (global.getInitialValue() ? " with an initializer" : "") +
                    "; pk multi-buffers private, uninitialized "
                    "globals only");
  // Every memref.get_global of the symbol must be in this kernel: pk
  // replaces the global for this kernel only.
  std::optional<Decline> outside;
  module.walk([&](memref::GetGlobalOp getGlobal) {
    if (getGlobal.getNameAttr().getAttr() != buffer.globalName ||
        info.kernel->isAncestor(getGlobal))
      return WalkResult::advance();
    outside = Decline(getGlobal, "copied buffer " + buffer.name +
                                     " is also used here, outside the kernel");
    return WalkResult::interrupt();
  });
  if (outside)
    return std::move(*outside);
  return success();
}

DeclineOr<void> mlir::pk::detail::checkBufferUses(const KLoopInfo &info) {
  for (const SharedBuffer &buffer : info.buffers) {
    if (!buffer.copied)
      continue;
    if (!buffer.type.getLayout().isIdentity())
      return Decline(buffer.root.getLoc(),
                     "copied buffer " + buffer.name +
                         " has a non-identity layout; pk multi-buffers "
                         "identity layouts only");
    if (buffer.kind == SharedBufferKind::Global)
      if (DeclineOr<void> global = checkGlobalBuffer(info, buffer);
          failed(global))
        return global;
    for (Value handle : getBufferHandles(buffer, info.kernel))
      if (DeclineOr<void> uses = checkHandleUses(info, buffer, handle);
          failed(uses))
        return uses;
  }
  return success();
}
