//===- WorkgroupStorage.cpp - Workgroup allocations as attributions -------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Upstream's NVVM lowering turns a workgroup `memref.alloc` inside a
// `gpu.func` into a call to malloc and a `memref.alloca` into per-thread
// local memory: only workgroup attributions and workgroup `memref.global`s
// become `.shared`. Upstream's own `structured.promote` emits exactly those
// forms (typed, or `i8` viewed through `memref.view`). This file rewrites
// them into typed workgroup attributions, 16-byte aligned:
//
//   %a = memref.alloc() : memref<4096xi8, #gpu.address_space<workgroup>>
//   %v = memref.view %a[%c0][] : ... to memref<64x16xf32, #gpu...<workgroup>>
//   ...
//   memref.dealloc %a
// ==>
//   gpu.func @k(...) workgroup(%v : memref<64x16xf32, #gpu...<workgroup>>)
//
// and does the same for a private workgroup `memref.global` that is only
// viewed once per use at offset 0. Tests:
// test/pk-normalize-workgroup-storage.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/MemoryAccess.h"
#include "pk/Pipelining.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-workgroup-storage"

using namespace mlir;
using namespace mlir::pk;

/// The typed buffer a workgroup allocation stands for: the allocation's own
/// type, or the type of its one `memref.view` at byte offset 0 (then `view`
/// is set). Fails when the allocation is used otherwise (beyond deallocs).
static FailureOr<MemRefType> getStorageType(Value root, Operation *&view) {
  view = nullptr;
  auto type = cast<MemRefType>(root.getType());
  SmallVector<memref::ViewOp> views;
  for (Operation *user : root.getUsers())
    if (auto viewOp = dyn_cast<memref::ViewOp>(user))
      views.push_back(viewOp);
  if (views.empty()) {
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return failure();
    return type;
  }
  // Several views, or views and other uses, of one buffer: leave it (the
  // analysis names the use it cannot multi-buffer).
  if (views.size() != 1 || llvm::any_of(root.getUsers(), [](Operation *user) {
        return !isa<memref::DeallocOp, memref::ViewOp>(user);
      }))
    return failure();
  memref::ViewOp viewOp = views.front();
  MemRefType viewType = viewOp.getType();
  if (!viewType.hasStaticShape() || !viewType.getLayout().isIdentity() ||
      !matchPattern(viewOp.getByteShift(), m_Zero()))
    return failure();
  view = viewOp;
  return viewType;
}

/// The memref.deallocs of `root` and of the views derived from it (IREE
/// deallocates promoted buffers, and VectorDistribute a subview of one): an
/// attribution lives as long as the block, so they go with the allocation.
static SmallVector<Operation *> collectDeallocs(Value root) {
  SmallVector<Operation *> deallocs;
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<memref::DeallocOp>(user))
        deallocs.push_back(user);
      else if (isa<ViewLikeOpInterface>(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  return deallocs;
}

/// Replaces `root` (and its view, if any) by a new typed, 16-byte aligned
/// workgroup attribution of `kernel`; erases the view and the deallocs.
static void replaceByAttribution(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                                 Value root, Operation *view, MemRefType type,
                                 int64_t alignment) {
  // Collected before the uses are replaced: then they use the attribution.
  for (Operation *dealloc : collectDeallocs(root))
    rewriter.eraseOp(dealloc);
  BlockArgument arg = kernel.addWorkgroupAttribution(type, root.getLoc());
  unsigned index = kernel.getNumWorkgroupAttributions() - 1;
  kernel.setWorkgroupAttributionAttr(
      index, "llvm.align",
      rewriter.getI64IntegerAttr(std::max<int64_t>(alignment, 16)));
  if (view) {
    rewriter.replaceAllUsesWith(view->getResult(0), arg);
    rewriter.eraseOp(view);
  } else {
    rewriter.replaceAllUsesWith(root, arg);
  }
}

/// Allocations: every workgroup memref.alloc / alloca.
static int64_t normalizeAllocations(RewriterBase &rewriter,
                                    gpu::GPUFuncOp kernel) {
  SmallVector<Operation *> allocs;
  kernel.walk([&](Operation *op) {
    // Both spellings of shared memory: #gpu.address_space<workgroup> and
    // the integer address space 3.
    if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
        isSharedMemory(cast<MemRefType>(op->getResult(0).getType())))
      allocs.push_back(op);
  });
  int64_t count = 0;
  for (Operation *alloc : allocs) {
    Value root = alloc->getResult(0);
    if (!alloc->getOperands().empty())
      continue;
    Operation *view = nullptr;
    FailureOr<MemRefType> type = getStorageType(root, view);
    if (failed(type)) {
      LDBG() << "workgroup allocation at " << alloc->getLoc()
             << " has other uses -> BAIL";
      continue;
    }
    auto alignment = alloc->getAttrOfType<IntegerAttr>("alignment");
    replaceByAttribution(rewriter, kernel, root, view, *type,
                         alignment ? alignment.getInt() : 16);
    rewriter.eraseOp(alloc);
    ++count;
  }
  return count;
}

/// Globals: a private workgroup memref.global of the kernel's gpu.module
/// used only by `memref.get_global`s in this kernel, each viewed once at
/// offset 0 (upstream's alloca_to_global output).
static int64_t normalizeViewedGlobals(RewriterBase &rewriter,
                                      gpu::GPUFuncOp kernel) {
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  if (!module)
    return 0;
  SmallVector<memref::GetGlobalOp> getGlobals;
  kernel.walk([&](memref::GetGlobalOp op) {
    if (gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(op.getType()))
      getGlobals.push_back(op);
  });
  int64_t count = 0;
  for (memref::GetGlobalOp getGlobal : getGlobals) {
    auto global = dyn_cast_or_null<memref::GlobalOp>(
        SymbolTable::lookupSymbolIn(module, getGlobal.getNameAttr()));
    if (!global || !global.isPrivate() || global.getInitialValue())
      continue;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(global, module);
    if (!uses || !llvm::hasSingleElement(*uses))
      continue;
    Operation *view = nullptr;
    FailureOr<MemRefType> type = getStorageType(getGlobal, view);
    if (failed(type) || !view)
      continue;
    replaceByAttribution(rewriter, kernel, getGlobal, view, *type,
                         global.getAlignment().value_or(16));
    rewriter.eraseOp(getGlobal);
    rewriter.eraseOp(global);
    ++count;
  }
  return count;
}

/// Whether `op` is a view of shared memory that sinking may clone: a
/// memref.subview, expand_shape or collapse_shape.
static bool isSinkableView(Operation *op) {
  return isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(
             op) &&
         isSharedMemory(cast<MemRefType>(op->getResult(0).getType()));
}

/// `value` as seen inside `loop` before `before`: the views of it defined
/// outside the loop are cloned there, the clones' sources first.
static Value cloneViewChain(RewriterBase &rewriter, Value value,
                            scf::ForOp loop, Operation *before) {
  Operation *def = value.getDefiningOp();
  if (!def || !isSinkableView(def) || loop->isAncestor(def))
    return value;
  Value source = cloneViewChain(rewriter, def->getOperand(0), loop, before);
  IRMapping mapping;
  mapping.map(def->getOperand(0), source);
  rewriter.setInsertionPoint(before);
  return rewriter.clone(*def, mapping)->getResult(0);
}

/// The innermost scf.for around `op` that has a gpu.barrier directly in its
/// body (a K-loop candidate, Coverage.h), or null.
static scf::ForOp getEnclosingKLoopCandidate(Operation *op) {
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>())
    if (!loop.getBody()->getOps<gpu::BarrierOp>().empty())
      return loop;
  return nullptr;
}

/// Views of shared memory hoisted above a K-loop candidate (IREE hoists its
/// per-thread subviews and the expand_shapes its fragments are read through)
/// are cloned in front of each of their users inside the loop: the
/// multi-buffering then re-creates them on the stage of their phase (TMA
/// destinations excepted: the TMA ring sinks those itself).
/// Views are pure, so this changes no behaviour; the hoisted ones left
/// unused are erased.
static int64_t sinkHoistedViews(RewriterBase &rewriter, gpu::GPUFuncOp kernel) {
  SmallVector<Operation *> views;
  kernel.walk([&](Operation *op) {
    if (isSinkableView(op))
      views.push_back(op);
  });
  int64_t count = 0;
  for (Operation *view : views) {
    for (OpOperand &use : llvm::make_early_inc_range(view->getUses())) {
      Operation *user = use.getOwner();
      scf::ForOp loop = getEnclosingKLoopCandidate(user);
      if (!loop || loop->isAncestor(view) || isa<nvgpu::TmaAsyncLoadOp>(user))
        continue;
      Value sunk = cloneViewChain(rewriter, use.get(), loop, user);
      rewriter.modifyOpInPlace(user, [&] { use.set(sunk); });
      ++count;
    }
  }
  // Unused views, users first.
  for (Operation *view : llvm::reverse(views))
    if (view->use_empty())
      rewriter.eraseOp(view);
  return count;
}

int64_t mlir::pk::normalizeWorkgroupStorage(RewriterBase &rewriter,
                                            gpu::GPUFuncOp kernel,
                                            bool globals) {
  if (!kernel.isKernel())
    return 0;
  int64_t count = normalizeAllocations(rewriter, kernel);
  if (globals)
    count += normalizeViewedGlobals(rewriter, kernel);
  sinkHoistedViews(rewriter, kernel);
  return count;
}
