//===- TileEpilogue.cpp - What a persistent kernel's tile epilogue does ---===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// checkTileEpilogue (TileLoops.h): the code that stores a tile's results in
// a persistent kernel, before flattening (matchTileLoopNest) and after it
// (the K-loop matcher's tile epilogue). Besides computing and writing global
// memory it may stage the results in shared memory of its own and store
// them with TMA (docs/input-contract.md, "Persistent kernels"). Tests:
// test/pk-flatten-tile-loops*.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/TileLoops.h"

#include "pk/IRContract.h"
#include "pk/MemoryAccess.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-tile-loops"

using namespace mlir;
using namespace mlir::pk;

/// Whether `value` names shared memory: a shared memref, or a view or cast
/// of one, or an LLVM pointer in address space 3.
static bool isSharedReference(Value value) {
  if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(value.getType()))
    return ptr.getAddressSpace() == 3;
  if (!isa<MemRefType>(value.getType()))
    return false;
  Value root = getRootMemRef(value);
  for (Value v : {value, root}) {
    while (v) {
      if (auto type = dyn_cast<MemRefType>(v.getType());
          type && isSharedMemory(type))
        return true;
      auto cast = v.getDefiningOp<memref::MemorySpaceCastOp>();
      v = cast ? cast.getSource() : Value();
    }
  }
  return false;
}

/// The allocation a shared reference reaches, as an opaque key: a workgroup
/// attribution, an `memref.alloc`/`alloca` (the root of its views), or the
/// symbol of a `memref.get_global` (two of the same global are one
/// allocation); null for what pk cannot name (an LLVM pointer, a function
/// argument).
static const void *getSharedAllocation(Value value) {
  if (!isa<MemRefType>(value.getType()))
    return nullptr;
  Value root = getRootMemRef(value);
  while (auto cast = root.getDefiningOp<memref::MemorySpaceCastOp>())
    root = getRootMemRef(cast.getSource());
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    auto func = dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp());
    if (func && arg.getOwner() == &func.getBody().front() &&
        llvm::is_contained(func.getWorkgroupAttributions(), arg))
      return root.getAsOpaquePointer();
    return nullptr;
  }
  if (auto global = root.getDefiningOp<memref::GetGlobalOp>())
    return global.getNameAttr().getAsOpaquePointer();
  if (root.getDefiningOp<memref::AllocOp>() ||
      root.getDefiningOp<memref::AllocaOp>())
    return root.getAsOpaquePointer();
  return nullptr;
}

/// Whether `op` only names memory (a view or cast) without accessing it:
/// what the K-loop's body reaches through it counts where it is accessed.
static bool onlyNamesMemory(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         (isa<ViewLikeOpInterface, CastOpInterface>(op));
}

/// Whether `op` is part of the TMA-store protocol: the store, the bulk
/// async-group commit and wait, and the generic -> async proxy fence that
/// makes the staged values visible to it.
static bool isBulkStoreOp(Operation *op) {
  if (auto fence = dyn_cast<NVVM::FenceProxyOp>(op))
    return fence.getKind() == NVVM::ProxyKind::async ||
           fence.getKind() == NVVM::ProxyKind::async_shared;
  return isa<nvgpu::TmaAsyncStoreOp, NVVM::CpAsyncBulkCommitGroupOp,
             NVVM::CpAsyncBulkWaitGroupOp>(op);
}

/// The shared allocations that `ops` (and the ops they hold) reach, each
/// with the first op that reaches it (views and casts not counted with
/// `skipViews`); the first op that reaches shared memory pk cannot name, if
/// any.
static Operation *
collectSharedAllocations(ArrayRef<Operation *> ops,
                         llvm::MapVector<const void *, Operation *> &roots,
                         bool skipViews) {
  Operation *unnamed = nullptr;
  for (Operation *top : ops)
    top->walk([&](Operation *op) {
      if (skipViews && onlyNamesMemory(op))
        return;
      for (Value operand : op->getOperands()) {
        if (!isSharedReference(operand))
          continue;
        if (const void *root = getSharedAllocation(operand))
          roots.insert({root, op});
        else if (!unnamed)
          unnamed = op;
      }
    });
  return unnamed;
}

/// Why `op`, inside a tile epilogue, is not one pk moves; empty when it is.
/// `container` holds the epilogue's top-level ops (barriers must be there).
/// Every op with memory effects must be one whose accesses pk models.
static std::string whyUnsupported(Operation *op, Operation *container) {
  if (isa<gpu::BarrierOp>(op))
    return op->getParentOp() == container
               ? ""
               : "a gpu.barrier inside a nested region of the epilogue";
  if (isBulkStoreOp(op) ||
      isa<NVVM::WgmmaWaitGroupSyncOp, nvgpu::WarpgroupMmaStoreOp,
          nvgpu::WarpgroupMmaInitAccumulatorOp>(op))
    return "";
  if (isa<NVVM::Barrier0Op, NVVM::BarrierOp>(op) ||
      (op->getDialect() && op->getDialect()->getNamespace() ==
                               nvgpu::NVGPUDialect::getDialectNamespace()))
    return "it synchronizes with other threads or the TMA unit, or copies "
           "asynchronously";
  if (isMemoryEffectFree(op) ||
      op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
      getMemoryAccess(op) ||
      isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op))
    return "";
  return "it has side effects whose memory pk does not model";
}

/// The kernel argument a tensor map comes from (through
/// `builtin.unrealized_conversion_cast`s): an argument of the kernel's
/// entry block that is a function argument, not a workgroup attribution.
static BlockArgument getTensorMapArgument(Value map, gpu::GPUFuncOp &kernel) {
  while (auto cast = map.getDefiningOp<UnrealizedConversionCastOp>()) {
    if (cast.getInputs().size() != 1)
      return {};
    map = cast.getInputs().front();
  }
  auto arg = dyn_cast<BlockArgument>(map);
  kernel = arg ? dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp())
               : gpu::GPUFuncOp();
  if (!kernel || arg.getOwner() != &kernel.getBody().front() ||
      arg.getArgNumber() >= kernel.getNumArguments())
    return {};
  return arg;
}

DeclineOr<Value> mlir::pk::getTensorMapTarget(Operation *user, Value map) {
  gpu::GPUFuncOp kernel;
  BlockArgument arg = getTensorMapArgument(map, kernel);
  auto index = arg ? kernel.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                          kTensorMapOfAttrName)
                   : IntegerAttr();
  if (!index)
    return Decline(user, "pk cannot tell which memory this op's tensor map "
                         "describes; give the kernel argument the map comes "
                         "from {" +
                             kTensorMapOfAttrName +
                             " = N}, N the memref argument it describes");
  APInt value = index.getValue();
  int64_t n = value.getSignificantBits() <= 32 ? value.getSExtValue() : -1;
  auto type = n >= 0 && n < kernel.getNumArguments()
                  ? dyn_cast<MemRefType>(kernel.getArgument(n).getType())
                  : MemRefType();
  auto descriptor = cast<nvgpu::TensorMapDescriptorType>(map.getType());
  if (!type || !isGlobalMemory(type) ||
      type.getElementType() != descriptor.getTensor().getElementType())
    return Decline(user, "the tensor map's " + kTensorMapOfAttrName + " = " +
                             llvm::toString(value, 10, /*Signed=*/true) +
                             " does not name a global memref argument of the "
                             "map's element type");
  return kernel.getArgument(n);
}

DeclineOr<SmallVector<std::pair<Operation *, Value>>>
mlir::pk::checkTileEpilogue(ArrayRef<Operation *> epilogue,
                            Operation *container,
                            ArrayRef<Operation *> kLoopOps) {
  SmallVector<std::pair<Operation *, Value>> stores;
  for (Operation *top : epilogue) {
    Operation *culprit = nullptr;
    std::string why;
    std::optional<Decline> badStore;
    top->walk([&](Operation *op) {
      if (auto store = dyn_cast<nvgpu::TmaAsyncStoreOp>(op)) {
        DeclineOr<Value> target =
            getTensorMapTarget(store, store.getTensorMapDescriptor());
        if (failed(target)) {
          badStore = Decline(store, "tile epilogue: a TMA store: " +
                                        target.getDecline().getMessage());
          return WalkResult::interrupt();
        }
        stores.emplace_back(op, *target);
      }
      if (auto store = dyn_cast<nvgpu::WarpgroupMmaStoreOp>(op))
        stores.emplace_back(op, getRootMemRef(store.getDstMemref()));
      why = whyUnsupported(op, container);
      if (why.empty())
        return WalkResult::advance();
      culprit = op;
      return WalkResult::interrupt();
    });
    if (badStore)
      return std::move(*badStore);
    if (culprit)
      return Decline(culprit, "tile epilogue: '" +
                                  culprit->getName().getStringRef() +
                                  "' cannot run while the next tile's loads "
                                  "fill the shared stages: " +
                                  why);
  }
  llvm::MapVector<const void *, Operation *> own, kLoop;
  if (Operation *unnamed =
          collectSharedAllocations(epilogue, own, /*skipViews=*/false))
    return Decline(unnamed, "tile epilogue: this op reaches shared memory "
                            "that pk cannot trace to an allocation");
  if (own.empty())
    return stores;
  if (Operation *unnamed =
          collectSharedAllocations(kLoopOps, kLoop, /*skipViews=*/true))
    return Decline(own.front().second,
                   "tile epilogue: it uses shared memory, and the K-loop "
                   "reaches shared memory pk cannot trace to an allocation: "
                   "pk cannot tell the two apart")
        .attachNote(unnamed->getLoc(), "the K-loop's access");
  for (auto [root, op] : own)
    if (kLoop.contains(root))
      return Decline(op, "tile epilogue: it uses shared memory that the "
                         "K-loop uses too; the next tile's loads would "
                         "overwrite it while the epilogue runs")
          .attachNote(kLoop.lookup(root)->getLoc(), "the K-loop's use");
  LDBG() << "tile epilogue with " << own.size()
         << " shared allocation(s) of its own";
  return stores;
}
