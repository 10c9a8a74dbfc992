//===- KLoopMatcher.cpp - Match tiled GPU K-loops -------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Recognizes the load / barrier / compute / barrier K-loop of the input
// contract (docs/input-contract.md): the phases (either rotation of the
// cycle), the shared buffers, the load phase and its copies;
// KLoopComputePhase.cpp matches the compute phase (warpgroup MMAs, proxy
// fences, accumulators), KLoopMeasure.cpp turns what was found into numbers.
// Tests: test/pk-analyze-kloops*.mlir, test/pk-pipeline-kloops-rotated.mlir.
//
//===----------------------------------------------------------------------===//

#include "KLoopMatcherImpl.h"

#include "pk/KLoopMatcher.h"
#include "pk/Support.h"
#include "pk/TileLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-kloop-matcher"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

bool mlir::pk::isKLoopCandidate(scf::ForOp forOp) {
  if (!forOp->getParentOfType<gpu::GPUFuncOp>() ||
      forOp->hasAttr(kFallbackAttrName))
    return false;
  return llvm::any_of(forOp.getBody()->getOperations(), [](Operation &op) {
    return isa<gpu::BarrierOp, nvgpu::MBarrierTryWaitParityOp>(op);
  });
}

int64_t mlir::pk::getKernelBlockSize(gpu::GPUFuncOp kernel) {
  auto product = [](ArrayRef<int32_t> dims) {
    int64_t n = 1;
    for (int32_t d : dims)
      n = saturatingMul(n, d);
    return n;
  };
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize())
    return product(*known);
  for (StringRef name : {"nvvm.reqntid", "nvvm.maxntid"})
    if (auto dims = kernel->getAttrOfType<DenseI32ArrayAttr>(name))
      return product(dims.asArrayRef());
  return 0;
}

LogicalResult KLoopMatcher::fail(Operation *at, const Twine &msg) {
  return fail(Decline(at ? at->getLoc() : forOp.getLoc(), msg));
}

LogicalResult KLoopMatcher::fail(Decline why) {
  LDBG() << "K-loop at " << locationToString(forOp.getLoc())
         << " does not match: " << why.getMessage() << " -> BAIL";
  decline = std::move(why);
  return failure();
}

/// Splits the body into the load phase (everything before the next-to-last
/// barrier, whose own barriers separate copies: upstream emits one after
/// each thread-mapped copy), the load barrier, the compute phase and the
/// compute barrier (the last operation before scf.yield).
LogicalResult KLoopMatcher::splitAtBarriers() {
  Block *body = forOp.getBody();
  SmallVector<gpu::BarrierOp> barriers;
  for (Operation &op : body->getOperations())
    if (auto barrier = dyn_cast<gpu::BarrierOp>(op))
      barriers.push_back(barrier);
  if (barriers.size() < 2 &&
      llvm::any_of(body->getOperations(), [](Operation &op) {
        return isa<nvgpu::MBarrierTryWaitParityOp>(op);
      }))
    return splitAtTmaWait(barriers);
  // A cluster barrier belongs to the TMA form only (its release).
  for (Operation &op : body->getOperations())
    if (isClusterBarrierOp(&op))
      return fail(&op, "a cluster barrier in a K-loop of "
                       "thread copies or of more than one gpu.barrier; pk "
                       "takes one only in a TMA K-loop, between its compute "
                       "and its one gpu.barrier (docs/input-contract.md "
                       "\"Clusters\")");
  if (barriers.size() < 2)
    return fail(forOp, "expected at least 2 gpu.barrier in the K-loop body "
                       "(after the load phase and after the compute phase), "
                       "found " +
                           Twine(barriers.size()));
  // The same cycle, rotated: a body that starts with the barrier that
  // protects the tiles from the previous iteration's compute (IREE's form)
  // and ends with the compute.
  // Address arithmetic may precede that barrier: it has no memory effect,
  // so the barrier orders nothing it does.
  info.barrierFirst =
      barriers.back()->getNextNode() != body->getTerminator() &&
      llvm::all_of(
          llvm::make_range(body->begin(), Block::iterator(barriers.front())),
          [](Operation &op) {
            return op.getNumRegions() == 0 && isMemoryEffectFree(&op);
          });
  if (info.barrierFirst) {
    info.computeBarrier = barriers.front();
    info.loadBarrier = barriers.back();
    info.innerLoadBarriers.assign(barriers.begin() + 1, barriers.end() - 1);
  } else {
    info.computeBarrier = barriers.pop_back_val();
    info.loadBarrier = barriers.pop_back_val();
    info.innerLoadBarriers.assign(barriers.begin(), barriers.end());
  }
  if (!info.barrierFirst &&
      info.computeBarrier->getNextNode() != body->getTerminator())
    return fail(info.computeBarrier,
                "the last gpu.barrier must be the last operation before "
                "scf.yield (or, barrier-first, the first operation of the "
                "body after address arithmetic)");
  for (Operation &op : body->getOperations()) {
    if (&op == info.loadBarrier || &op == info.computeBarrier ||
        &op == body->getTerminator() ||
        llvm::is_contained(info.innerLoadBarriers, &op))
      continue;
    if (op.isBeforeInBlock(info.loadBarrier))
      info.loadPhase.push_back(&op);
    else
      info.computePhase.push_back(&op);
  }
  return success();
}

/// The TMA form (docs/hopper.md "TMA ring"): the load phase ends at the one
/// `nvgpu.mbarrier.try_wait.parity` of the body, the compute phase at the
/// one gpu.barrier, the last operation before scf.yield.
LogicalResult KLoopMatcher::splitAtTmaWait(ArrayRef<gpu::BarrierOp> barriers) {
  Block *body = forOp.getBody();
  SmallVector<nvgpu::MBarrierTryWaitParityOp> waits(
      body->getOps<nvgpu::MBarrierTryWaitParityOp>());
  if (waits.size() != 1)
    return fail(waits[1], "TMA K-loop: expected one "
                          "nvgpu.mbarrier.try_wait.parity in the body, found " +
                              Twine(waits.size()));
  if (barriers.empty())
    return fail(forOp, "TMA K-loop: expected a gpu.barrier after the compute "
                       "phase (it releases the tiles for the next copies), "
                       "found none");
  info.computeBarrier = barriers.front();
  if (info.computeBarrier->getNextNode() != body->getTerminator())
    return fail(info.computeBarrier,
                "the last gpu.barrier must be the last operation before "
                "scf.yield");
  info.tma.emplace();
  info.tma->wait = waits.front();
  if (DeclineOr<void> cluster = pk::detail::findClusterBarrier(info);
      failed(cluster))
    return fail(cluster.takeDecline());
  for (Operation &op : body->without_terminator()) {
    if (&op == info.tma->wait || &op == info.computeBarrier ||
        &op == info.tma->clusterArrive || &op == info.tma->clusterWait)
      continue;
    if (op.isBeforeInBlock(info.tma->wait))
      info.loadPhase.push_back(&op);
    else
      info.computePhase.push_back(&op);
  }
  return success();
}

/// The barriers inside the load phase order nothing pk needs once the
/// copies of different segments write different buffers (the load phase
/// reads no shared memory): pipelining drops them. A buffer written on both
/// sides of one would need that order.
LogicalResult KLoopMatcher::checkLoadSegments() {
  if (info.innerLoadBarriers.empty())
    return success();
  Block *body = forOp.getBody();
  llvm::DenseMap<unsigned, unsigned> segmentOfBuffer;
  for (const TileCopy &copy : info.copies) {
    for (Operation *store : copy.stores) {
      Operation *top = body->findAncestorOpInBlock(*store);
      unsigned segment =
          llvm::count_if(info.innerLoadBarriers, [&](gpu::BarrierOp barrier) {
            return barrier->isBeforeInBlock(top);
          });
      unsigned buffer = copy.getStoreBuffer(store);
      auto [it, inserted] = segmentOfBuffer.try_emplace(buffer, segment);
      if (!inserted && it->second != segment)
        return fail(store, "load phase writes shared buffer " +
                               info.buffers[buffer].name +
                               " on both sides of a gpu.barrier; pk drops "
                               "the load phase's barriers only between "
                               "copies to different buffers");
    }
  }
  return success();
}

LogicalResult KLoopMatcher::collectBuffers() {
  gpu::GPUFuncOp kernel = info.kernel;
  for (auto [i, arg] : llvm::enumerate(kernel.getWorkgroupAttributions())) {
    auto type = cast<MemRefType>(arg.getType());
    DeclineOr<int64_t> bytes = getSharedBufferBytes(
        kernel, type, "workgroup attribution #" + Twine(i));
    if (failed(bytes))
      return fail(bytes.takeDecline());
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
      DeclineOr<int64_t> bytes =
          getSharedBufferBytes(op, type, "shared memref.global");
      if (failed(bytes)) {
        (void)fail(bytes.takeDecline());
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
      DeclineOr<int64_t> bytes =
          getSharedBufferBytes(op, type, "shared memory allocation");
      if (failed(bytes)) {
        (void)fail(bytes.takeDecline());
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
    if (bytes.getValue().isNegative() ||
        bytes.getValue().getActiveBits() > 62 ||
        bytes.getInt() > kMaxSharedBufferBytes)
      return fail(kernel, kDynamicSharedMemoryAttrName + " must be in [0, " +
                              Twine(kMaxSharedBufferBytes) + "] bytes");
    info.dynamicSharedBytes = bytes.getInt();
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

/// Walks the body of a loop nested in a phase with `walk`, its ops executing
/// trip count times as often; a dynamic trip count fails.
LogicalResult KLoopMatcher::walkNestedLoop(scf::ForOp nested,
                                           int64_t executions, StringRef phase,
                                           PhaseWalker walk) {
  std::optional<APInt> trips = getExactStaticTripCount(nested);
  if (!trips)
    return fail(nested, phase + " phase: nested loop has a dynamic trip count");
  std::optional<int64_t> total;
  if (trips->getActiveBits() <= 63)
    total = llvm::checkedMul(executions, trips->getSExtValue());
  if (!total)
    return fail(nested, phase + " phase: nested loop runs more than 2^63 - 1 "
                                "times per K-iteration");
  SmallVector<Operation *> body = llvm::map_to_vector(
      nested.getBody()->getOperations(), [](Operation &o) { return &o; });
  return (this->*walk)(body, *total);
}

LogicalResult KLoopMatcher::walkLoadPhase(ArrayRef<Operation *> ops,
                                          int64_t executions) {
  for (Operation *op : ops) {
    if (isa<scf::YieldOp>(op))
      continue;
    if (auto nested = dyn_cast<scf::ForOp>(op)) {
      if (failed(walkNestedLoop(nested, executions, "load",
                                &KLoopMatcher::walkLoadPhase)))
        return failure();
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (failed(walkGuardedLoads(ifOp, executions)))
        return failure();
      continue;
    }
    if (isa<gpu::BarrierOp>(op))
      return fail(op, "load phase: gpu.barrier inside a nested region");
    FailureOr<bool> fence = matchProxyFence(op, "load");
    if (failed(fence))
      return failure();
    if (*fence)
      continue;
    if (isa<nvgpu::MBarrierArriveExpectTxOp, nvgpu::TmaAsyncLoadOp>(op)) {
      if (failed(matchTmaOp(op)))
        return failure();
      continue;
    }
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
      if (!isGlobalMemory(copy.getSrc().getType()) ||
          !isSharedMemory(copy.getDst().getType()))
        return fail(op, "load phase: nvgpu.device_async_copy that is not "
                        "global -> shared");
      asyncCopies.push_back({copy, executions});
      continue;
    }
    // The commit and wait of already-async copies (upstream's
    // create_async_groups): pipelining replaces them by its own.
    if (isa<nvgpu::DeviceAsyncCreateGroupOp, nvgpu::DeviceAsyncWaitOp>(op)) {
      if (op->getParentOp() != forOp.getOperation())
        return fail(op, "load phase: cp.async group or wait inside a nested "
                        "region");
      info.asyncGroupOps.push_back(op);
      continue;
    }
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

/// An `scf.if` of the load phase (a halo or bounds guard): global loads and
/// pure ops in its regions, whose values it yields (executing at most
/// `executions` times); the shared stores stay outside. A store under the
/// guard would leave the elements it skips with another stage's data once
/// the buffer is multi-buffered.
LogicalResult KLoopMatcher::walkGuardedLoads(scf::IfOp ifOp,
                                             int64_t executions) {
  size_t stores = sharedStores.size(), async = asyncCopies.size();
  for (Region &region : ifOp->getRegions()) {
    if (region.empty())
      continue;
    SmallVector<Operation *> ops = llvm::map_to_vector(
        region.front().getOperations(), [](Operation &o) { return &o; });
    if (failed(walkLoadPhase(ops, executions)))
      return failure();
  }
  Operation *store = sharedStores.size() != stores ? sharedStores[stores].first
                     : asyncCopies.size() != async
                         ? asyncCopies[async].first.getOperation()
                         : nullptr;
  if (store)
    return fail(store, "load phase: a shared store under scf.if: the "
                       "elements it skips would keep another stage's data "
                       "once the buffer is multi-buffered; yield the loaded "
                       "value (or zero) from the scf.if and store it after");
  return success();
}

/// A TMA op of the load phase: only in the TMA form, directly in the body.
LogicalResult KLoopMatcher::matchTmaOp(Operation *op) {
  if (!info.tma)
    return fail(op, "load phase: '" + op->getName().getStringRef() +
                        "' in a loop not in pk's TMA form (one "
                        "nvgpu.mbarrier.try_wait.parity ending the load "
                        "phase, one gpu.barrier ending the compute phase)");
  if (op->getParentOp() != forOp.getOperation())
    return fail(op, "load phase: '" + op->getName().getStringRef() +
                        "' inside a nested region");
  if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(op)) {
    info.tma->loads.push_back(load);
    return success();
  }
  if (info.tma->expectTx)
    return fail(op, "TMA K-loop: more than one "
                    "nvgpu.mbarrier.arrive.expect_tx in the load phase");
  info.tma->expectTx = cast<nvgpu::MBarrierArriveExpectTxOp>(op);
  return success();
}

/// An already-async copy is a tile copy by itself.
LogicalResult KLoopMatcher::addAsyncCopies() {
  for (auto [copyOp, executions] : asyncCopies) {
    FailureOr<unsigned> bufferIndex = findBuffer(copyOp, copyOp.getDst());
    if (failed(bufferIndex))
      return failure();
    SharedBuffer &buffer = info.buffers[*bufferIndex];
    if (forOp->isAncestor(buffer.root.getParentRegion()->getParentOp()))
      return fail(copyOp, "shared buffer " + buffer.name +
                              " is defined inside the K-loop");
    TileCopy copy;
    copy.load = copyOp;
    copy.stores.push_back(copyOp);
    copy.async = true;
    copy.executions = executions;
    copy.bytesPerExecution =
        copyOp.getDstElements().getSExtValue() *
        llvm::divideCeil(copyOp.getDst().getType().getElementTypeBitWidth(), 8);
    copy.bufferIndex = *bufferIndex;
    copy.storeBuffers.push_back(*bufferIndex);
    buffer.copied = true;
    if (!buffer.source)
      buffer.source = getRootMemRef(copyOp.getSrc());
    info.loadBytesPerThread =
        saturatingAdd(info.loadBytesPerThread,
                      saturatingMul(copy.bytesPerExecution, copy.executions));
    info.copies.push_back(copy);
  }
  return success();
}

LogicalResult KLoopMatcher::pairCopies() {
  if (globalLoads.empty() && asyncCopies.empty())
    return fail(info.loadBarrier,
                "load phase has no global load (vector.load, "
                "vector.transfer_read or memref.load of global memory)");
  if (sharedStores.empty() && asyncCopies.empty())
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
      copy.storeBuffers.push_back(*bufferIndex);
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
    if (copy.async)
      continue;
    if (copy.stores.empty())
      return fail(copy.load, "value loaded from global memory is not stored "
                             "to shared memory in the load phase");
    SmallVector<Value> worklist{getMemoryAccess(copy.load)->value};
    llvm::DenseSet<Value> visited;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (!visited.insert(v).second)
        continue;
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        if (!loadPhaseOps.contains(user))
          return fail(user, "value loaded from global memory is used "
                            "outside the load phase");
        // A guard's yield: the value flows on as the scf.if's result.
        if (auto yield = dyn_cast<scf::YieldOp>(user)) {
          if (auto ifOp = dyn_cast<scf::IfOp>(yield->getParentOp()))
            worklist.push_back(ifOp.getResult(use.getOperandNumber()));
          continue;
        }
        if (!getMemoryAccess(user))
          llvm::append_range(worklist, user->getResults());
      }
    }
    info.loadBytesPerThread =
        saturatingAdd(info.loadBytesPerThread,
                      saturatingMul(copy.bytesPerExecution, copy.executions));
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
  if (std::optional<APInt> trips = getExactStaticTripCount(forOp)) {
    if (trips->getActiveBits() > 63)
      return fail(forOp, "trip count " + toString(*trips, 10, false) +
                             " exceeds 2^63 - 1");
    info.tripCount = trips->getSExtValue();
  }
  info.threadsPerBlock =
      threadsOverride > 0 ? threadsOverride : getKernelBlockSize(info.kernel);
  if (Attribute attr = info.kernel->getAttr(kRegsPerThreadAttrName)) {
    auto regs = dyn_cast<IntegerAttr>(attr);
    if (!regs || !regs.getType().isSignlessInteger())
      return fail(info.kernel,
                  "pk.regs_per_thread must be an integer in [1, 255]");
    if (regs.getInt() < 1 || regs.getInt() > 255)
      return fail(info.kernel, "pk.regs_per_thread must be in [1, 255], got " +
                                   Twine(regs.getInt()));
  }
  if (info.threadsPerBlock > 1024)
    return fail(info.kernel, "block size " + Twine(info.threadsPerBlock) +
                                 " exceeds 1024 threads");
  if (info.threadsPerBlock <= 0)
    return fail(info.kernel,
                "block size unknown: give the kernel gpu.known_block_size "
                "(or nvvm.reqntid / nvvm.maxntid) or set block-size");

  if (failed(splitAtBarriers()))
    return failure();
  if (info.computePhase.empty())
    return fail(info.getLoadPhaseEnd(), "compute phase is empty");
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
  if (failed(walkLoadPhase(info.loadPhase, 1)))
    return failure();
  if (info.tma) {
    if (!globalLoads.empty() || !sharedStores.empty() || !asyncCopies.empty())
      return fail(info.tma->wait,
                  "TMA K-loop: the load phase also copies with threads; pk "
                  "pipelines TMA loops whose tiles only TMA writes");
    auto find = [&](Operation *user, Value memref) -> DeclineOr<unsigned> {
      FailureOr<unsigned> index = findBuffer(user, memref);
      if (failed(index))
        return std::move(*decline);
      return *index;
    };
    if (DeclineOr<void> tma = pk::detail::matchTmaLoadPhase(info, find);
        failed(tma))
      return fail(tma.takeDecline());
  }
  if ((!info.tma && failed(pairCopies())) || failed(addAsyncCopies()) ||
      failed(checkLoadSegments()) ||
      failed(walkComputePhase(info.computePhase, 1)) ||
      failed(checkMemoryAccumulators()))
    return failure();
  if (counter.empty() && !counter.adoptElementwise())
    return fail(info.computeBarrier,
                "compute phase has no nvgpu.mma.sync, vector.contract, fma, "
                "multiply-add or float arithmetic");
  checkProxyFences();
  markRetiredWgmmas();
  if (!info.warpgroupMmas.empty() && info.threadsPerBlock % kWarpgroupThreads)
    return fail(info.kernel, "nvgpu.warpgroup.mma needs whole warpgroups of " +
                                 Twine(kWarpgroupThreads) +
                                 " threads; the block has " +
                                 Twine(info.threadsPerBlock));
  counter.finish();
  LDBG() << "matched K-loop at " << locationToString(forOp.getLoc()) << ": "
         << info.copies.size() << " copies, " << info.smemPerStageBytes
         << " B per stage, ratio " << info.ratio;
  return success();
}

DeclineOr<KLoopInfo> mlir::pk::matchKLoop(scf::ForOp forOp,
                                          int64_t threadsPerBlockOverride) {
  KLoopInfo info;
  KLoopMatcher matcher(forOp, info);
  if (failed(matcher.match(threadsPerBlockOverride))) {
    Decline decline = std::move(*matcher.decline);
    // The K-loop of a persistent kernel's tile loop: pipelined as one loop
    // with it (TileLoops.h), not on its own.
    auto parent = dyn_cast_or_null<scf::ForOp>(forOp->getParentOp());
    if (parent && isTileLoopCandidate(parent))
      decline.attachNote(parent.getLoc(),
                         "the K-loop of this tile loop: pk-flatten-tile-loops "
                         "(which pipeline-kernel runs) makes the nest one loop "
                         "over (tile, k-step), pipelined across tiles");
    return decline;
  }
  return info;
}
