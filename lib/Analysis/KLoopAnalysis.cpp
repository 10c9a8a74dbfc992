//===- KLoopAnalysis.cpp - Match and measure tiled GPU K-loops ------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Recognizes the load / barrier / compute / barrier K-loop of the input
// contract (docs/input-contract.md) and measures it: shared buffers, the
// bytes each K-iteration loads, the FLOPs it computes, and, for a target, the
// occupancy single- and multi-buffered and the variant the seed's rule picks.
// Tested by test/pk-analyze-kloops*.mlir and test/pk-check-smem-budget*.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/KLoopAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Mutex.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "pk-kloop-analysis"

using namespace mlir;
using namespace mlir::pk;

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

StringRef mlir::pk::stringifySharedBufferKind(SharedBufferKind kind) {
  switch (kind) {
  case SharedBufferKind::Attribution:
    return "attribution";
  case SharedBufferKind::Global:
    return "global";
  case SharedBufferKind::Alloc:
    return "alloc";
  }
  llvm_unreachable("unknown shared buffer kind");
}

StringRef mlir::pk::stringifyPipelineVariant(PipelineVariant variant) {
  switch (variant) {
  case PipelineVariant::None:
    return "none";
  case PipelineVariant::CpAsync:
    return "cp-async";
  case PipelineVariant::LdgRegister:
    return "ldg-register";
  case PipelineVariant::RegisterPrefetch:
    return "register-prefetch";
  }
  llvm_unreachable("unknown pipeline variant");
}

std::string mlir::pk::locationToString(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", fileLoc.getFilename().getValue(),
                         fileLoc.getLine(), fileLoc.getColumn())
        .str();
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return locationToString(nameLoc.getChildLoc());
  if (auto fusedLoc = dyn_cast<FusedLoc>(loc))
    if (!fusedLoc.getLocations().empty())
      return locationToString(fusedLoc.getLocations().front());
  if (auto callLoc = dyn_cast<CallSiteLoc>(loc))
    return locationToString(callLoc.getCallee());
  std::string str;
  llvm::raw_string_ostream os(str);
  loc.print(os);
  return str;
}

/// Global memory: the default memory space, 1, or #gpu.address_space<global>.
static bool isGlobalMemory(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return true;
  if (auto intSpace = dyn_cast<IntegerAttr>(space))
    return intSpace.getInt() == 0 || intSpace.getInt() == 1;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Global;
  return false;
}

/// Shared memory: 3 or #gpu.address_space<workgroup>.
bool mlir::pk::isSharedMemory(MemRefType type) {
  return gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type) ||
         nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(type);
}

std::optional<int64_t> mlir::pk::getSizeInBytes(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!shaped.hasStaticShape() || !shaped.getElementType().isIntOrFloat() ||
        shaped.getElementTypeBitWidth() % 8 != 0)
      return std::nullopt;
    return shaped.getNumElements() * (shaped.getElementTypeBitWidth() / 8);
  }
  if (type.isIntOrFloat() && type.getIntOrFloatBitWidth() % 8 == 0)
    return type.getIntOrFloatBitWidth() / 8;
  return std::nullopt;
}

int64_t mlir::pk::getNumElements(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.getNumElements();
  return 1;
}

/// Follows view-like operations (subview, cast, expand_shape, ...) back to
/// the memref that owns the storage.
static Value getRootMemRef(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    memref = view.getViewSource();
  }
  return memref;
}

std::optional<MemoryAccess> mlir::pk::getMemoryAccess(Operation *op) {
  auto make = [](Value memref, ValueRange indices, bool isRead, Value value) {
    return MemoryAccess{memref, llvm::to_vector(indices), isRead, !isRead,
                        value};
  };
  return llvm::TypeSwitch<Operation *, std::optional<MemoryAccess>>(op)
      .Case([&](vector::LoadOp o) {
        return make(o.getBase(), o.getIndices(), true, o.getResult());
      })
      .Case([&](vector::TransferReadOp o) {
        return make(o.getBase(), o.getIndices(), true, o.getResult());
      })
      .Case([&](memref::LoadOp o) {
        return make(o.getMemRef(), o.getIndices(), true, o.getResult());
      })
      .Case([&](nvgpu::LdMatrixOp o) {
        return make(o.getSrcMemref(), o.getIndices(), true, o.getResult());
      })
      .Case([&](vector::StoreOp o) {
        return make(o.getBase(), o.getIndices(), false, o.getValueToStore());
      })
      .Case([&](vector::TransferWriteOp o) {
        return make(o.getBase(), o.getIndices(), false, o.getVector());
      })
      .Case([&](memref::StoreOp o) {
        return make(o.getMemRef(), o.getIndices(), false, o.getValueToStore());
      })
      .Case([&](nvgpu::DeviceAsyncCopyOp o) {
        return make(o.getDst(), o.getDstIndices(), false, Value());
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Returns a short printable name for a value: "%arg0" for a kernel
/// argument, else the defining operation's name.
static std::string describeValue(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return llvm::formatv("%arg{0}", arg.getArgNumber()).str();
  if (Operation *def = value.getDefiningOp())
    if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(def))
      return ("@" + getGlobal.getName()).str();
  return value.getDefiningOp()->getName().getStringRef().str();
}

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

bool mlir::pk::isKLoopCandidate(scf::ForOp forOp) {
  if (!forOp->getParentOfType<gpu::GPUFuncOp>() ||
      forOp->hasAttr(kFallbackAttrName))
    return false;
  return llvm::any_of(forOp.getBody()->getOperations(),
                      [](Operation &op) { return isa<gpu::BarrierOp>(op); });
}

int64_t mlir::pk::getKernelBlockSize(gpu::GPUFuncOp kernel) {
  auto product = [](ArrayRef<int32_t> dims) {
    int64_t n = 1;
    for (int32_t d : dims)
      n *= d;
    return n;
  };
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize())
    return product(*known);
  for (StringRef name : {"nvvm.reqntid", "nvvm.maxntid"})
    if (auto dims = kernel->getAttrOfType<DenseI32ArrayAttr>(name))
      return product(dims.asArrayRef());
  return 0;
}

namespace {
/// Matches one K-loop; keeps the state of the walk.
class KLoopMatcher {
public:
  KLoopMatcher(scf::ForOp forOp, KLoopInfo &info)
      : forOp(forOp), info(info), where(forOp.getLoc()) {}

  LogicalResult match(int64_t threadsOverride);

  std::string reason;
  Location where;

private:
  LogicalResult fail(Operation *at, const Twine &msg) {
    reason = msg.str();
    where = at ? at->getLoc() : forOp.getLoc();
    LDBG() << "K-loop at " << locationToString(forOp.getLoc())
           << " does not match: " << reason << " -> BAIL";
    return failure();
  }

  LogicalResult collectBuffers();
  FailureOr<unsigned> findBuffer(Operation *user, Value memref);
  LogicalResult walkLoadPhase(ArrayRef<Operation *> ops, int64_t executions);
  LogicalResult walkComputePhase(ArrayRef<Operation *> ops, int64_t executions);
  LogicalResult pairCopies();
  LogicalResult checkNoLoopCarriedUse(Operation *op);
  void countCompute(StringRef kind, int64_t flops, int64_t count, bool perWarp);

  scf::ForOp forOp;
  KLoopInfo &info;
  /// Global reads and shared writes of the load phase, with executions.
  SmallVector<std::pair<Operation *, int64_t>> globalLoads, sharedStores;
  /// FLOPs per K-iteration executed per warp (mma.sync) and per thread.
  int64_t flopsPerWarp = 0, flopsPerThread = 0;
  llvm::StringMap<int64_t> computeCounts;
  SmallVector<std::string> computeOrder;
};
} // namespace

LogicalResult KLoopMatcher::collectBuffers() {
  gpu::GPUFuncOp kernel = info.kernel;
  for (auto [i, arg] : llvm::enumerate(kernel.getWorkgroupAttributions())) {
    auto type = cast<MemRefType>(arg.getType());
    std::optional<int64_t> bytes = getSizeInBytes(type);
    if (!bytes)
      return fail(kernel, "workgroup attribution #" + Twine(i) +
                              " has a dynamic shape or elements that are not "
                              "whole-byte integers or floats");
    SharedBuffer buffer{arg, SharedBufferKind::Attribution, type};
    buffer.bytes = *bytes;
    buffer.name = ("workgroup attribution #" + Twine(i)).str();
    info.buffers.push_back(buffer);
  }
  SymbolTableCollection symbols;
  WalkResult walk = kernel.walk([&](Operation *op) -> WalkResult {
    if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(op)) {
      auto type = getGlobal.getType();
      if (!isSharedMemory(type))
        return WalkResult::advance();
      // Several memref.get_global of one symbol name one buffer.
      if (llvm::any_of(info.buffers, [&](const SharedBuffer &b) {
            return b.globalName == getGlobal.getNameAttr().getAttr();
          }))
        return WalkResult::advance();
      std::optional<int64_t> bytes = getSizeInBytes(type);
      if (!bytes) {
        (void)fail(op, "shared memref.global has a dynamic shape or elements "
                       "that are not whole-byte integers or floats");
        return WalkResult::interrupt();
      }
      SharedBuffer buffer{getGlobal.getResult(), SharedBufferKind::Global,
                          type};
      buffer.globalName = getGlobal.getNameAttr().getAttr();
      buffer.bytes = *bytes;
      buffer.name = ("@" + getGlobal.getName()).str();
      info.buffers.push_back(buffer);
      return WalkResult::advance();
    }
    if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (!isSharedMemory(type))
        return WalkResult::advance();
      std::optional<int64_t> bytes = getSizeInBytes(type);
      if (!bytes) {
        (void)fail(op, "shared memory allocation has a dynamic shape or "
                       "elements that are not whole-byte integers or floats");
        return WalkResult::interrupt();
      }
      SharedBuffer buffer{op->getResult(0), SharedBufferKind::Alloc, type};
      buffer.bytes = *bytes;
      buffer.name = (op->getName().getStringRef() + " at " +
                     locationToString(op->getLoc()))
                        .str();
      info.buffers.push_back(buffer);
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  for (const SharedBuffer &buffer : info.buffers)
    info.smemSingleBytes += buffer.bytes;
  // Dynamic shared memory counts when pk placed it (and says how much);
  // otherwise its size is unknown.
  bool usesDynamic = false;
  kernel.walk([&](gpu::DynamicSharedMemoryOp) { usesDynamic = true; });
  if (usesDynamic) {
    auto bytes =
        kernel->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttrName);
    if (!bytes)
      return fail(kernel, "kernel uses gpu.dynamic_shared_memory of unknown "
                          "size");
    info.smemSingleBytes += bytes.getInt();
  }
  return success();
}

/// Returns the index of the shared buffer `memref` (through views) lives in.
FailureOr<unsigned> KLoopMatcher::findBuffer(Operation *user, Value memref) {
  Value root = getRootMemRef(memref);
  for (auto [i, buffer] : llvm::enumerate(info.buffers))
    if (buffer.root == root)
      return static_cast<unsigned>(i);
  // A second memref.get_global of the same symbol.
  if (auto getGlobal = root.getDefiningOp<memref::GetGlobalOp>())
    for (auto [i, buffer] : llvm::enumerate(info.buffers))
      if (buffer.globalName &&
          buffer.globalName == getGlobal.getNameAttr().getAttr())
        return static_cast<unsigned>(i);
  (void)fail(user, "shared memref is not a workgroup attribution, a "
                   "workgroup memref.global or a workgroup memref.alloc of "
                   "the kernel");
  return failure();
}

LogicalResult KLoopMatcher::checkNoLoopCarriedUse(Operation *op) {
  ValueRange iterArgs = forOp.getRegionIterArgs();
  WalkResult walk = op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (llvm::is_contained(iterArgs, operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return fail(op, "load phase uses a loop-carried value (iter_args): the "
                    "next tile's addresses must not depend on the compute");
  return success();
}

LogicalResult KLoopMatcher::walkLoadPhase(ArrayRef<Operation *> ops,
                                          int64_t executions) {
  for (Operation *op : ops) {
    if (isa<scf::YieldOp>(op))
      continue;
    if (auto nested = dyn_cast<scf::ForOp>(op)) {
      std::optional<APInt> trips = nested.getStaticTripCount();
      if (!trips)
        return fail(op, "load phase: nested loop has a dynamic trip count");
      SmallVector<Operation *> body = llvm::map_to_vector(
          nested.getBody()->getOperations(), [](Operation &o) { return &o; });
      if (failed(walkLoadPhase(body, executions * trips->getSExtValue())))
        return failure();
      continue;
    }
    if (isa<gpu::BarrierOp>(op))
      return fail(op, "load phase: gpu.barrier inside a nested region");
    if (isa<nvgpu::DeviceAsyncCopyOp, nvgpu::DeviceAsyncCreateGroupOp,
            nvgpu::DeviceAsyncWaitOp>(op))
      return fail(op, "load phase already uses cp.async "
                      "(nvgpu.device_async_copy): the loop looks pipelined");
    if (std::optional<MemoryAccess> access = getMemoryAccess(op)) {
      auto type = cast<MemRefType>(access->memref.getType());
      if (access->isRead) {
        if (!isGlobalMemory(type))
          return fail(op, "load phase reads memory that is not global (" +
                              op->getName().getStringRef() + ")");
        globalLoads.push_back({op, executions});
      } else {
        if (!isSharedMemory(type))
          return fail(op, "load phase writes memory that is not shared (" +
                              op->getName().getStringRef() + ")");
        sharedStores.push_back({op, executions});
      }
      continue;
    }
    if (op->getNumRegions() != 0)
      return fail(op, "load phase: unsupported region operation '" +
                          op->getName().getStringRef() + "'");
    if (!isMemoryEffectFree(op))
      return fail(op, "load phase: unsupported operation with side effects '" +
                          op->getName().getStringRef() + "'");
  }
  return success();
}

void KLoopMatcher::countCompute(StringRef kind, int64_t flops, int64_t count,
                                bool perWarp) {
  (perWarp ? flopsPerWarp : flopsPerThread) += flops * count;
  std::string key = (kind + (perWarp ? " per warp" : " per thread")).str();
  auto [it, inserted] = computeCounts.try_emplace(key, 0);
  if (inserted)
    computeOrder.push_back(key);
  it->second += count;
}

/// Whether `value` (an arith.mulf/muli result) feeds an addition.
static bool feedsAdd(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    return isa<arith::AddFOp, arith::AddIOp>(user);
  });
}

LogicalResult KLoopMatcher::walkComputePhase(ArrayRef<Operation *> ops,
                                             int64_t executions) {
  for (Operation *op : ops) {
    if (isa<scf::YieldOp>(op))
      continue;
    if (auto nested = dyn_cast<scf::ForOp>(op)) {
      std::optional<APInt> trips = nested.getStaticTripCount();
      if (!trips)
        return fail(op, "compute phase: nested loop has a dynamic trip count");
      SmallVector<Operation *> body = llvm::map_to_vector(
          nested.getBody()->getOperations(), [](Operation &o) { return &o; });
      if (failed(walkComputePhase(body, executions * trips->getSExtValue())))
        return failure();
      continue;
    }
    if (isa<gpu::BarrierOp>(op))
      return fail(op, "compute phase: gpu.barrier inside a nested region");
    if (std::optional<MemoryAccess> access = getMemoryAccess(op)) {
      auto type = cast<MemRefType>(access->memref.getType());
      if (access->isWrite)
        return fail(op, "compute phase writes memory (" +
                            op->getName().getStringRef() +
                            "): results must stay in iter_args");
      if (!isSharedMemory(type))
        return fail(op, "compute phase reads memory that is not shared (" +
                            op->getName().getStringRef() + ")");
      if (failed(findBuffer(op, access->memref)))
        return failure();
      continue;
    }
    if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
      std::array<int64_t, 3> shape = mma.getMmaShapeAsArray();
      if (getElementTypeOrSelf(mma.getMatrixA().getType()).isInteger(8))
        info.mmaInt8 = true;
      countCompute(llvm::formatv("nvgpu.mma.sync m{0}n{1}k{2}", shape[0],
                                 shape[1], shape[2])
                       .str(),
                   2 * shape[0] * shape[1] * shape[2], executions,
                   /*perWarp=*/true);
      continue;
    }
    if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
      SmallVector<int64_t> bounds;
      contract.getIterationBounds(bounds);
      int64_t macs = 1;
      for (int64_t b : bounds)
        macs *= b;
      countCompute("vector.contract", 2 * macs, executions, false);
      continue;
    }
    if (isa<vector::FMAOp, math::FmaOp>(op)) {
      countCompute(op->getName().getStringRef(),
                   2 * getNumElements(op->getResult(0).getType()), executions,
                   false);
      continue;
    }
    // Scalar integer multiply-adds are address arithmetic; count float ones
    // and integer ones on vectors.
    if ((isa<arith::MulFOp>(op) ||
         (isa<arith::MulIOp>(op) &&
          isa<VectorType>(op->getResult(0).getType()))) &&
        feedsAdd(op->getResult(0))) {
      countCompute("multiply-add",
                   2 * getNumElements(op->getResult(0).getType()), executions,
                   false);
      continue;
    }
    if (op->getNumRegions() != 0)
      return fail(op, "compute phase: unsupported region operation '" +
                          op->getName().getStringRef() + "'");
    if (!isMemoryEffectFree(op))
      return fail(op,
                  "compute phase: unsupported operation with side effects '" +
                      op->getName().getStringRef() + "'");
  }
  return success();
}

/// Collects the global loads whose values (through side-effect-free
/// operations inside the K-loop) make up `value`.
static void traceToLoads(Value value, scf::ForOp forOp,
                         llvm::SetVector<Operation *> &loads,
                         llvm::DenseSet<Value> &visited) {
  if (!visited.insert(value).second)
    return;
  Operation *def = value.getDefiningOp();
  if (!def || !forOp->isProperAncestor(def))
    return;
  if (std::optional<MemoryAccess> access = getMemoryAccess(def)) {
    if (access->isRead)
      loads.insert(def);
    return;
  }
  for (Value operand : def->getOperands())
    traceToLoads(operand, forOp, loads, visited);
}

LogicalResult KLoopMatcher::pairCopies() {
  if (globalLoads.empty())
    return fail(info.loadBarrier,
                "load phase has no global load (vector.load, "
                "vector.transfer_read or memref.load of global memory)");
  if (sharedStores.empty())
    return fail(info.loadBarrier, "load phase has no store to shared memory");

  llvm::DenseMap<Operation *, unsigned> copyOfLoad;
  for (auto [load, executions] : globalLoads) {
    TileCopy copy;
    copy.load = load;
    copy.executions = executions;
    copy.bytesPerExecution =
        getSizeInBytes(getMemoryAccess(load)->value.getType()).value_or(0);
    copyOfLoad[load] = info.copies.size();
    info.copies.push_back(copy);
  }
  for (auto [store, executions] : sharedStores) {
    MemoryAccess access = *getMemoryAccess(store);
    FailureOr<unsigned> bufferIndex = findBuffer(store, access.memref);
    if (failed(bufferIndex))
      return failure();
    SharedBuffer &buffer = info.buffers[*bufferIndex];
    if (forOp->isAncestor(buffer.root.getParentRegion()->getParentOp()))
      return fail(store, "shared buffer " + buffer.name +
                             " is defined inside the K-loop");
    llvm::SetVector<Operation *> loads;
    llvm::DenseSet<Value> visited;
    traceToLoads(access.value, forOp, loads, visited);
    if (loads.empty())
      return fail(store, "store to shared memory does not copy a value "
                         "loaded from global memory in the load phase");
    buffer.copied = true;
    for (Operation *load : loads) {
      TileCopy &copy = info.copies[copyOfLoad.lookup(load)];
      copy.stores.push_back(store);
      copy.bufferIndex = *bufferIndex;
      Value src = getRootMemRef(getMemoryAccess(load)->memref);
      if (!buffer.source)
        buffer.source = src;
    }
  }
  // Every global load must be a copy: its value may only reach shared stores
  // of the load phase.
  llvm::DenseSet<Operation *> loadPhaseOps;
  for (Operation *op : info.loadPhase)
    op->walk([&](Operation *nested) { loadPhaseOps.insert(nested); });
  for (TileCopy &copy : info.copies) {
    if (copy.stores.empty())
      return fail(copy.load, "value loaded from global memory is not stored "
                             "to shared memory in the load phase");
    SmallVector<Value> worklist{getMemoryAccess(copy.load)->value};
    llvm::DenseSet<Value> visited;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (!visited.insert(v).second)
        continue;
      for (Operation *user : v.getUsers()) {
        if (!loadPhaseOps.contains(user))
          return fail(user, "value loaded from global memory is used "
                            "outside the load phase");
        if (!getMemoryAccess(user))
          llvm::append_range(worklist, user->getResults());
      }
    }
    info.loadBytesPerThread += copy.bytesPerExecution * copy.executions;
  }
  return success();
}

LogicalResult KLoopMatcher::match(int64_t threadsOverride) {
  info.forOp = forOp;
  info.kernel = forOp->getParentOfType<gpu::GPUFuncOp>();
  if (!info.kernel)
    return fail(forOp, "loop is not inside a gpu.func");
  if (!info.kernel.isKernel())
    return fail(forOp, "enclosing gpu.func is not a kernel");
  if (forOp->hasAttr(kPipelinedAttrName))
    return fail(forOp, "loop already pipelined by pk (pk.pipelined)");
  if (forOp.getUnsignedCmp())
    return fail(forOp, "unsigned loop bounds are not supported");
  if (std::optional<APInt> trips = forOp.getStaticTripCount())
    info.tripCount = trips->getSExtValue();
  info.threadsPerBlock =
      threadsOverride > 0 ? threadsOverride : getKernelBlockSize(info.kernel);
  if (auto regs = info.kernel->getAttrOfType<IntegerAttr>("pk.regs_per_thread"))
    if (regs.getInt() < 1 || regs.getInt() > 255)
      return fail(info.kernel, "pk.regs_per_thread must be in [1, 255], got " +
                                   Twine(regs.getInt()));
  if (info.threadsPerBlock > 1024)
    return fail(info.kernel, "block size " + Twine(info.threadsPerBlock) +
                                 " exceeds 1024 threads");
  if (info.threadsPerBlock <= 0)
    return fail(info.kernel,
                "block size unknown: give the kernel gpu.known_block_size "
                "(or nvvm.reqntid / nvvm.maxntid) or set block-size");

  // Split the body at its two barriers.
  Block *body = forOp.getBody();
  SmallVector<gpu::BarrierOp> barriers;
  for (Operation &op : body->getOperations())
    if (auto barrier = dyn_cast<gpu::BarrierOp>(op))
      barriers.push_back(barrier);
  if (barriers.size() != 2)
    return fail(barriers.size() > 2 ? barriers[2].getOperation()
                                    : forOp.getOperation(),
                "expected exactly 2 gpu.barrier in the K-loop body (after the "
                "load phase and after the compute phase), found " +
                    Twine(barriers.size()));
  info.loadBarrier = barriers[0];
  info.computeBarrier = barriers[1];
  if (info.computeBarrier->getNextNode() != body->getTerminator())
    return fail(info.computeBarrier,
                "the second gpu.barrier must be the last operation before "
                "scf.yield");
  if (forOp.getNumRegionIterArgs() == 0)
    return fail(forOp, "no accumulators in iter_args: the compute phase "
                       "must carry its results across iterations");
  for (Operation &op : body->getOperations()) {
    if (&op == info.loadBarrier || &op == info.computeBarrier ||
        &op == body->getTerminator())
      continue;
    if (op.isBeforeInBlock(info.loadBarrier))
      info.loadPhase.push_back(&op);
    else
      info.computePhase.push_back(&op);
  }
  if (info.computePhase.empty())
    return fail(info.loadBarrier, "compute phase is empty");
  for (auto [i, yielded] :
       llvm::enumerate(forOp.getBody()->getTerminator()->getOperands())) {
    Operation *def = yielded.getDefiningOp();
    if (!def || !forOp->isProperAncestor(def))
      return fail(forOp.getBody()->getTerminator(),
                  "accumulator #" + Twine(i) +
                      " is not computed in the loop body (yielded unchanged "
                      "or from outside)");
  }

  if (failed(collectBuffers()))
    return failure();
  for (Operation *op : info.loadPhase)
    if (failed(checkNoLoopCarriedUse(op)))
      return failure();
  if (failed(walkLoadPhase(info.loadPhase, 1)) || failed(pairCopies()) ||
      failed(walkComputePhase(info.computePhase, 1)))
    return failure();
  if (computeOrder.empty())
    return fail(info.computeBarrier,
                "compute phase has no nvgpu.mma.sync, vector.contract, fma or "
                "multiply-add");

  for (const SharedBuffer &buffer : info.buffers)
    if (buffer.copied)
      info.smemPerStageBytes += buffer.bytes;
  int64_t warps = llvm::divideCeil(info.threadsPerBlock, 32);
  info.loadBytesPerTile = info.loadBytesPerThread * info.threadsPerBlock;
  info.mmaFlopsPerTile = flopsPerWarp * warps;
  info.fmaFlopsPerTile = flopsPerThread * info.threadsPerBlock;
  info.flopsPerTile = info.mmaFlopsPerTile + info.fmaFlopsPerTile;
  for (const std::string &key : computeOrder)
    info.computeOps.push_back({key, computeCounts.lookup(key)});
  info.ratio = info.loadBytesPerTile
                   ? double(info.flopsPerTile) / double(info.loadBytesPerTile)
                   : 0.0;
  LDBG() << "matched K-loop at " << locationToString(forOp.getLoc()) << ": "
         << info.copies.size() << " copies, " << info.smemPerStageBytes
         << " B per stage, ratio " << info.ratio;
  return success();
}

FailureOr<KLoopInfo> mlir::pk::matchKLoop(scf::ForOp forOp, std::string &reason,
                                          Location &where,
                                          int64_t threadsPerBlockOverride) {
  KLoopInfo info;
  KLoopMatcher matcher(forOp, info);
  if (failed(matcher.match(threadsPerBlockOverride))) {
    reason = matcher.reason;
    where = matcher.where;
    return failure();
  }
  return info;
}

//===----------------------------------------------------------------------===//
// Budget and variant
//===----------------------------------------------------------------------===//

/// stages=auto (docs/stages.md): enough tiles in flight to cover the memory
/// latency with the compute of the others, within the shared-memory budget.
static int64_t chooseStages(const KLoopInfo &info, const TargetInfo &target,
                            const KLoopAnalysisOptions &options,
                            KLoopBudget &budget) {
  KLoopBudget::AutoStages model;
  // Resident blocks share the SM's pipes: one tile of one block takes
  // FLOPs x blocks / (FLOPs per cycle per SM).
  int64_t blocks = std::max<int64_t>(budget.single.blocksPerSM, 1);
  int64_t mmaRate = target.mmaFlopsPerCycle * (info.mmaInt8 ? 2 : 1);
  model.computeCyclesPerTile = std::max<int64_t>(
      1, llvm::divideCeil(info.mmaFlopsPerTile * blocks, mmaRate) +
             llvm::divideCeil(info.fmaFlopsPerTile * blocks,
                              target.fmaFlopsPerCycle));
  model.latencyCycles = target.memoryLatencyCycles;
  model.latencyStages =
      1 + llvm::divideCeil(model.latencyCycles, model.computeCyclesPerTile);
  // The most buffers that keep the per-block maximum and the blocks/SM.
  int64_t maxStages = 8;
  if (info.tripCount && *info.tripCount >= 2)
    maxStages = std::min<int64_t>(maxStages, *info.tripCount);
  model.budgetStages = 1;
  for (int64_t n = 2; n <= maxStages; ++n) {
    int64_t bytes = info.smemMultiBytes(n);
    Occupancy occ = computeOccupancy(target, info.threadsPerBlock,
                                     budget.regsPerThread, bytes);
    if (bytes <= target.smemPerBlockOptIn &&
        occ.blocksPerSM >=
            std::min(options.minBlocksPerSM, budget.single.blocksPerSM))
      model.budgetStages = n;
  }
  int64_t stages = std::clamp<int64_t>(
      model.latencyStages, 2, std::max<int64_t>(model.budgetStages, 2));
  budget.reasons.push_back(llvm::formatv(
      "stages=auto: a tile computes in ~{0} cycles with {1} block(s)/SM "
      "against ~{2} cycles of memory latency, so {3} tiles in flight hide "
      "it; the budget allows {4}: {5} stages",
      model.computeCyclesPerTile, blocks, model.latencyCycles,
      model.latencyStages, model.budgetStages, stages));
  budget.autoStages = model;
  return stages;
}

KLoopBudget mlir::pk::analyzeBudget(const KLoopInfo &info,
                                    const TargetInfo &target,
                                    const KLoopAnalysisOptions &options) {
  KLoopBudget budget;
  budget.target = &target;
  auto &reasons = budget.reasons;
  // A loop of n < stages tiles needs only n buffers.
  budget.stages = options.stages;
  budget.minBlocksPerSM = options.minBlocksPerSM;
  if (options.regsPerThread > 0) {
    budget.regsPerThread = options.regsPerThread;
    budget.regsSource = "option";
  } else if (auto attr = info.kernel->getAttrOfType<IntegerAttr>(
                 "pk.regs_per_thread")) {
    budget.regsPerThread = attr.getInt();
    budget.regsSource = "attribute";
  } else {
    budget.regsPerThread = kDefaultRegsPerThread;
    budget.regsSource = "default";
  }
  budget.single = computeOccupancy(target, info.threadsPerBlock,
                                   budget.regsPerThread, info.smemSingleBytes);
  if (options.stages == 0)
    budget.stages = chooseStages(info, target, options, budget);
  // Without cp.async only the register variants remain: 2 buffers at most.
  if (!target.hasCpAsync && budget.stages > 2)
    budget.stages = 2;
  int64_t requested = budget.stages;
  if (info.tripCount && *info.tripCount >= 2 && *info.tripCount < budget.stages)
    budget.stages = *info.tripCount;
  budget.smemSingleBytes = info.smemSingleBytes;
  budget.smemMultiBytes = info.smemMultiBytes(budget.stages);
  budget.cliffBytes = computeSmemCliff(target, options.minBlocksPerSM);
  budget.multi = computeOccupancy(target, info.threadsPerBlock,
                                  budget.regsPerThread, budget.smemMultiBytes);
  budget.exceedsPerBlockMax = budget.smemMultiBytes > target.smemPerBlockOptIn;
  budget.crossesCliff = budget.multi.blocksPerSM < options.minBlocksPerSM &&
                        budget.multi.blocksPerSM < budget.single.blocksPerSM;

  std::string ratio = llvm::formatv("{0:F1}", info.ratio).str();
  if (info.ratio < 5)
    budget.prediction = "+15-35% (ratio < 5:1)";
  else if (info.ratio <= 20)
    budget.prediction = "+5-15% (ratio 5-20:1)";
  else
    budget.prediction = "0-5% or a regression (ratio > 20:1)";

  if (info.tripCount && *info.tripCount < 2) {
    budget.variant = PipelineVariant::None;
    reasons.push_back(llvm::formatv("trip count {0} < 2: no next tile to "
                                    "overlap",
                                    *info.tripCount));
    return budget;
  }
  if (!info.tripCount)
    reasons.push_back(llvm::formatv(
        "dynamic trip count: the pipelined loop runs when the trip count is "
        "at least {0}, the original loop otherwise",
        std::max<int64_t>(budget.stages, 2)));
  if (budget.stages != requested)
    reasons.push_back(llvm::formatv("trip count {0} < stages={1}: {0} buffers",
                                    budget.stages, requested));
  if (budget.exceedsPerBlockMax || budget.crossesCliff) {
    budget.variant = PipelineVariant::RegisterPrefetch;
    if (budget.exceedsPerBlockMax)
      reasons.push_back(llvm::formatv(
          "{0} stages need {1} bytes of shared memory, above the {2} "
          "per-block maximum of {3} bytes: register prefetch keeps one "
          "buffer",
          budget.stages, budget.smemMultiBytes, target.arch,
          target.smemPerBlockOptIn));
    else
      reasons.push_back(llvm::formatv(
          "{0} stages need {1} bytes of shared memory, above the {2} cliff "
          "of {3} bytes for {4} blocks/SM (blocks/SM {5} -> {6}): register "
          "prefetch keeps one buffer",
          budget.stages, budget.smemMultiBytes, target.arch, budget.cliffBytes,
          options.minBlocksPerSM, budget.single.blocksPerSM,
          budget.multi.blocksPerSM));
    return budget;
  }
  if (budget.smemMultiBytes <= budget.cliffBytes)
    reasons.push_back(llvm::formatv(
        "{0} stages need {1} bytes of shared memory, within the {2} cliff of "
        "{3} bytes for {4} blocks/SM",
        budget.stages, budget.smemMultiBytes, target.arch, budget.cliffBytes,
        options.minBlocksPerSM));
  else
    reasons.push_back(llvm::formatv(
        "{0} stages need {1} bytes of shared memory, above the {2} cliff of "
        "{3} bytes for {4} blocks/SM, but blocks/SM stay at {5} (limited by "
        "{6}): doubling costs no occupancy",
        budget.stages, budget.smemMultiBytes, target.arch, budget.cliffBytes,
        options.minBlocksPerSM, budget.multi.blocksPerSM,
        stringifyOccupancyLimit(budget.single.limit)));
  if (!target.hasCpAsync) {
    budget.variant = PipelineVariant::LdgRegister;
    reasons.push_back(
        llvm::formatv("{0} has no cp.async (sm_80 and later): LDG-register "
                      "prefetch",
                      target.arch));
    return budget;
  }
  if (info.ratio < 5) {
    budget.variant = PipelineVariant::CpAsync;
    reasons.push_back("ratio " + ratio +
                      " < 5: cp.async preferred (the seed measured +35% on "
                      "IGEMM)");
  } else if (info.ratio <= 20) {
    budget.variant = PipelineVariant::CpAsync;
    reasons.push_back("ratio " + ratio +
                      " in 5-20: both variants are worth benchmarking; "
                      "cp.async is the seed's safer default (try "
                      "variant=ldg-register too)");
  } else if (options.skipHighRatio) {
    budget.variant = PipelineVariant::None;
    reasons.push_back("ratio " + ratio +
                      " > 20: the seed predicts 0-5% or a regression and "
                      "skip-high-ratio is set");
  } else {
    budget.variant = PipelineVariant::CpAsync;
    reasons.push_back(
        "ratio " + ratio +
        " > 20: the seed predicts 0-5% or a regression, but the 128x128x32 "
        "FP16 HGEMM example (ratio 64) ran 1.41x faster with cp.async double "
        "buffering on an H200; pipelining anyway (skip-high-ratio=true "
        "skips)");
  }
  return budget;
}

std::string mlir::pk::summarizeKLoop(const KLoopInfo &info,
                                     const KLoopBudget &budget) {
  std::string trips =
      info.tripCount ? std::to_string(*info.tripCount) : "dynamic";
  return llvm::formatv(
             "K-loop: trip count {0}, {1} copied buffer(s), shared memory {2} "
             "B single / {3} B per stage / {4} B with {5} stages (cliff {6} B "
             "for {7} blocks/SM on {8}), blocks/SM {9} -> {10} (limit: {11}), "
             "ratio {12:F1} FLOP/B, variant {13}",
             trips,
             llvm::count_if(info.buffers,
                            [](const SharedBuffer &b) { return b.copied; }),
             budget.smemSingleBytes, info.smemPerStageBytes,
             budget.smemMultiBytes, budget.stages, budget.cliffBytes,
             budget.minBlocksPerSM, budget.target->arch,
             budget.single.blocksPerSM, budget.multi.blocksPerSM,
             stringifyOccupancyLimit(budget.multi.limit), info.ratio,
             stringifyPipelineVariant(budget.variant))
      .str();
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static llvm::json::Object occupancyToJSON(const Occupancy &occ,
                                          int64_t threads) {
  return llvm::json::Object{
      {"blocks_per_sm", occ.blocksPerSM},
      {"warps_per_sm", occ.warpsPerSM(threads)},
      {"limit", stringifyOccupancyLimit(occ.limit)},
      {"by_threads", occ.byThreads},
      {"by_registers", occ.byRegisters},
      {"by_shared_memory", occ.bySharedMemory},
      {"by_blocks", occ.byBlocks},
      {"allocated_smem_per_block", occ.allocatedSmemPerBlock},
  };
}

static std::string typeToString(Type type) {
  std::string str;
  llvm::raw_string_ostream os(str);
  type.print(os);
  return str;
}

llvm::json::Object mlir::pk::toJSON(const KLoopInfo &info,
                                    const KLoopBudget &budget) {
  const TargetInfo &target = *budget.target;
  gpu::GPUFuncOp func = info.kernel;
  scf::ForOp forOp = info.forOp;
  std::string kernel = func.getName().str();
  if (auto module = func->getParentOfType<gpu::GPUModuleOp>())
    kernel = (module.getName() + "::" + kernel).str();

  llvm::json::Array buffers;
  for (const SharedBuffer &buffer : info.buffers) {
    llvm::json::Object obj{
        {"name", buffer.name},
        {"kind", stringifySharedBufferKind(buffer.kind)},
        {"shape", llvm::json::Array(buffer.type.getShape())},
        {"element_type", typeToString(buffer.type.getElementType())},
        {"bytes", buffer.bytes},
        {"copied", buffer.copied},
    };
    if (buffer.copied) {
      obj["bytes_per_stage"] = buffer.bytes;
      if (buffer.source)
        obj["source"] = describeValue(buffer.source);
    }
    buffers.push_back(std::move(obj));
  }
  llvm::json::Array computeOps;
  for (const auto &[kind, count] : info.computeOps)
    computeOps.push_back(llvm::json::Object{{"op", kind}, {"count", count}});
  llvm::json::Array reasons;
  for (const std::string &r : budget.reasons)
    reasons.push_back(r);

  llvm::json::Value tripCount = info.tripCount
                                    ? llvm::json::Value(*info.tripCount)
                                    : llvm::json::Value("dynamic");
  return llvm::json::Object{
      {"kernel", kernel},
      {"loc", locationToString(forOp.getLoc())},
      {"arch", target.arch},
      {"trip_count", std::move(tripCount)},
      {"threads_per_block", info.threadsPerBlock},
      {"regs_per_thread", budget.regsPerThread},
      {"regs_source", budget.regsSource},
      {"buffers", std::move(buffers)},
      {"loads",
       llvm::json::Object{
           {"global_loads", static_cast<int64_t>(info.copies.size())},
           {"bytes_per_thread", info.loadBytesPerThread},
           {"bytes_per_tile", info.loadBytesPerTile},
       }},
      {"smem",
       llvm::json::Object{
           {"single_bytes", budget.smemSingleBytes},
           {"per_stage_bytes", info.smemPerStageBytes},
           {"stages", budget.stages},
           {"multi_bytes", budget.smemMultiBytes},
           {"cliff_bytes", budget.cliffBytes},
           {"per_block_max_bytes", target.smemPerBlockOptIn},
           {"static_max_bytes", target.smemPerBlockDefault},
           {"reserved_per_block_bytes", target.smemReservedPerBlock},
           {"per_sm_bytes", target.smemPerSM},
       }},
      {"occupancy",
       llvm::json::Object{
           {"target_blocks_per_sm", budget.minBlocksPerSM},
           {"single", occupancyToJSON(budget.single, info.threadsPerBlock)},
           {"multi", occupancyToJSON(budget.multi, info.threadsPerBlock)},
       }},
      {"flops_per_tile", info.flopsPerTile},
      {"stages_auto",
       budget.autoStages
           ? llvm::json::Value(llvm::json::Object{
                 {"compute_cycles_per_tile",
                  budget.autoStages->computeCyclesPerTile},
                 {"latency_cycles", budget.autoStages->latencyCycles},
                 {"latency_stages", budget.autoStages->latencyStages},
                 {"budget_stages", budget.autoStages->budgetStages},
             })
           : llvm::json::Value(nullptr)},
      {"compute_ops", std::move(computeOps)},
      {"ratio", std::round(info.ratio * 100.0) / 100.0},
      {"variant", stringifyPipelineVariant(budget.variant)},
      {"prediction", budget.prediction},
      {"reasons", std::move(reasons)},
  };
}

//===----------------------------------------------------------------------===//
// Pass helpers
//===----------------------------------------------------------------------===//

const TargetInfo *mlir::pk::lookupTargetOrEmitError(Operation *op,
                                                    StringRef arch) {
  if (const TargetInfo *target = lookupTarget(arch))
    return target;
  mlir::emitError(op->getLoc())
      << "unknown arch '" << arch << "'; pk knows: " << getKnownTargetNames();
  return nullptr;
}

/// "auto" gives 0, an integer itself, anything else -1.
static int64_t parseStages(StringRef stages) {
  if (stages == "auto")
    return 0;
  int64_t value = -1;
  if (stages.getAsInteger(10, value) || value == 0)
    return -1;
  return value;
}

FailureOr<KLoopAnalysisOptions>
mlir::pk::parseAnalysisOptions(Operation *op, StringRef arch,
                               StringRef stagesOption, int64_t minBlocksPerSM,
                               int64_t blockSize, int64_t regsPerThread) {
  const TargetInfo *found = lookupTargetOrEmitError(op, arch);
  if (!found)
    return failure();
  const TargetInfo &target = *found;
  int64_t stages = parseStages(stagesOption);
  if (stages != 0 && (stages < 2 || stages > 8))
    return mlir::emitError(op->getLoc())
           << "stages must be 2 to 8 or auto, got '" << stagesOption << "'";
  if (minBlocksPerSM < 1)
    return mlir::emitError(op->getLoc())
           << "min-blocks-per-sm must be at least 1, got " << minBlocksPerSM;
  if (minBlocksPerSM > target.maxBlocksPerSM)
    return mlir::emitError(op->getLoc())
           << "min-blocks-per-sm=" << minBlocksPerSM << " exceeds the "
           << target.maxBlocksPerSM << " resident blocks per SM of "
           << target.arch;
  if (blockSize < 0 || blockSize > 1024)
    return mlir::emitError(op->getLoc())
           << "block-size must be in [0, 1024], got " << blockSize;
  if (regsPerThread < 0 || regsPerThread > 255)
    return mlir::emitError(op->getLoc())
           << "regs-per-thread must be in [0, 255], got " << regsPerThread;
  KLoopAnalysisOptions options;
  options.target = found;
  options.stages = stages;
  options.minBlocksPerSM = minBlocksPerSM;
  options.regsPerThread = regsPerThread;
  return options;
}

LogicalResult mlir::pk::writeReportLines(Location loc, StringRef path,
                                         StringRef lines) {
  if (path == "-") {
    llvm::outs() << lines;
    llvm::outs().flush();
    return success();
  }
  // Paths written by this process: append after the first write.
  static llvm::sys::SmartMutex<true> mutex;
  static llvm::StringSet<> written;
  llvm::sys::SmartScopedLock<true> lock(mutex);
  bool append = !written.insert(path).second;
  std::error_code ec;
  StringRef parent = llvm::sys::path::parent_path(path);
  if (!parent.empty())
    ec = llvm::sys::fs::create_directories(parent);
  if (ec)
    return mlir::emitError(loc) << "cannot create the directory of the report '"
                                << path << "': " << ec.message();
  llvm::raw_fd_ostream os(
      path, ec, append ? llvm::sys::fs::OF_Append : llvm::sys::fs::OF_None);
  if (ec)
    return mlir::emitError(loc)
           << "cannot write the report '" << path << "': " << ec.message();
  os << lines;
  return success();
}

void mlir::pk::forEachKLoop(Operation *root, int64_t threadsPerBlockOverride,
                            bool remarkOnMismatch,
                            llvm::function_ref<void(KLoopInfo &)> onMatch) {
  SmallVector<scf::ForOp> candidates;
  root->walk<WalkOrder::PreOrder>([&](scf::ForOp forOp) {
    if (isKLoopCandidate(forOp))
      candidates.push_back(forOp);
  });
  for (scf::ForOp forOp : candidates) {
    std::string reason;
    Location where = forOp.getLoc();
    FailureOr<KLoopInfo> info =
        matchKLoop(forOp, reason, where, threadsPerBlockOverride);
    if (succeeded(info)) {
      onMatch(*info);
      continue;
    }
    if (!remarkOnMismatch)
      continue;
    InFlightDiagnostic diag = mlir::emitRemark(forOp.getLoc())
                              << "not a pk K-loop: " << reason;
    if (where != forOp.getLoc())
      diag.attachNote(where) << "here";
  }
}
