//===- KLoopComputePhase.cpp - The compute phase of a K-loop --------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The compute phase of the K-loop matcher (KLoopMatcherImpl.h): what it
// executes, its warpgroup MMAs and their descriptors, the proxy fences
// between generic-proxy stores and wgmma reads, and accumulators kept in
// global memory. Tests: test/pk-analyze-kloops*.mlir.
//
//===----------------------------------------------------------------------===//

#include "KLoopMatcherImpl.h"

#include "pk/IRContract.h"
#include "pk/TileLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-kloop-matcher"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

LogicalResult KLoopMatcher::walkComputePhase(ArrayRef<Operation *> ops,
                                             int64_t executions) {
  for (Operation *op : ops) {
    if (isa<scf::YieldOp>(op))
      continue;
    if (auto nested = dyn_cast<scf::ForOp>(op)) {
      if (failed(walkNestedLoop(nested, executions, "compute",
                                &KLoopMatcher::walkComputePhase)))
        return failure();
      continue;
    }
    if (isa<gpu::BarrierOp>(op))
      return fail(op, "compute phase: gpu.barrier inside a nested region");
    if (auto ifOp = dyn_cast<scf::IfOp>(op);
        ifOp && ifOp->hasAttr(kTileEpilogueAttrName)) {
      if (failed(walkTileEpilogue(ifOp)))
        return failure();
      continue;
    }
    FailureOr<bool> fence = matchProxyFence(op, "compute");
    if (failed(fence))
      return failure();
    if (*fence)
      continue;
    if (std::optional<MemoryAccess> access = getMemoryAccess(op)) {
      auto type = cast<MemRefType>(access->memref.getType());
      // Global accesses may hold the accumulator (checkMemoryAccumulators).
      if (isGlobalMemory(type)) {
        accumulatorAccesses.push_back(op);
        continue;
      }
      if (access->isWrite)
        return fail(op, "compute phase writes shared memory (" +
                            op->getName().getStringRef() + ")");
      if (!isSharedMemory(type))
        return fail(op, "compute phase reads memory that is not shared (" +
                            op->getName().getStringRef() + ")");
      if (failed(findBuffer(op, access->memref)))
        return failure();
      counter.countSharedRead(op, *access, executions);
      continue;
    }
    // A descriptor only reads its buffer through the wgmma that uses it.
    if (isa<nvgpu::WarpgroupGenerateDescriptorOp>(op))
      continue;
    if (auto mma = dyn_cast<nvgpu::WarpgroupMmaOp>(op)) {
      if (failed(matchWarpgroupMma(mma, executions)))
        return failure();
      continue;
    }
    if (counter.count(op, executions))
      continue;
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

/// The tile epilogue of a flattened persistent loop (KLoopInfo::tileEpilogue):
/// directly in the K-loop body, the only one, and what checkTileEpilogue
/// accepts beside the rest of the body. Its global accesses are checked with
/// the compute phase's (streams the load phase must not read), its TMA
/// stores as writes of the memory their maps describe, its accumulator
/// stores (nvgpu.warpgroup.mma.store) as writes of their memref. It runs once
/// per tile, so its work is not counted per k-step.
LogicalResult KLoopMatcher::walkTileEpilogue(scf::IfOp epilogue) {
  if (epilogue->getParentOp() != forOp.getOperation() || info.tileEpilogue)
    return fail(epilogue, "compute phase: a tile epilogue must be the only "
                          "one, directly in the K-loop body");
  info.tileEpilogue = epilogue;
  SmallVector<Operation *> rest;
  for (Operation &op : forOp.getBody()->without_terminator())
    if (&op != epilogue.getOperation())
      rest.push_back(&op);
  auto stores = checkTileEpilogue({epilogue.getOperation()}, epilogue, rest);
  if (failed(stores))
    return fail(stores.takeDecline());
  epilogueStores = std::move(*stores);
  epilogue->walk([&](Operation *op) {
    if (std::optional<MemoryAccess> access = getMemoryAccess(op);
        access && isGlobalMemory(cast<MemRefType>(access->memref.getType())))
      accumulatorAccesses.push_back(op);
  });
  return success();
}

/// Whether `op` is a generic -> async proxy fence for shared memory
/// (`nvvm.fence.proxy` of kind `async` or `async.shared`), recorded in
/// KLoopInfo::proxyFences; it must sit directly in the K-loop body, where
/// pipelining can keep it between the stores and the compute of a tile.
FailureOr<bool> KLoopMatcher::matchProxyFence(Operation *op, StringRef phase) {
  auto fence = dyn_cast<NVVM::FenceProxyOp>(op);
  if (!fence || (fence.getKind() != NVVM::ProxyKind::async &&
                 fence.getKind() != NVVM::ProxyKind::async_shared))
    return false;
  if (op->getParentOp() != forOp.getOperation())
    return fail(op, phase + " phase: nvvm.fence.proxy inside a nested region");
  info.proxyFences.push_back(op);
  return true;
}

/// Marks each warpgroup MMA that a proxy fence separates from the load
/// phase's shared stores (and from the wait of already-async copies): one
/// directly in the body after all of them and before the MMA.
void KLoopMatcher::checkProxyFences() {
  // TMA writes the tiles through the async proxy, as wgmma reads them.
  if (info.tma) {
    for (WarpgroupMma &wgmma : info.warpgroupMmas)
      wgmma.proxyFenced = true;
    return;
  }
  Block *body = forOp.getBody();
  Operation *lastWrite = nullptr;
  auto noteWrite = [&](Operation *op) {
    Operation *top = body->findAncestorOpInBlock(*op);
    if (!lastWrite || lastWrite->isBeforeInBlock(top))
      lastWrite = top;
  };
  for (const TileCopy &copy : info.copies)
    for (Operation *store : copy.stores)
      noteWrite(store);
  for (Operation *op : info.asyncGroupOps)
    noteWrite(op);
  for (WarpgroupMma &wgmma : info.warpgroupMmas) {
    Operation *top = body->findAncestorOpInBlock(*wgmma.op);
    wgmma.proxyFenced = llvm::any_of(info.proxyFences, [&](Operation *fence) {
      return (!lastWrite || lastWrite->isBeforeInBlock(fence)) &&
             fence->isBeforeInBlock(top);
    });
    if (!wgmma.proxyFenced)
      LDBG() << "wgmma at " << locationToString(wgmma.op->getLoc())
             << " reads the tiles with no proxy fence after their stores";
  }
}

/// Marks each warpgroup MMA whose group retires within the iteration
/// (WarpgroupMma::retiredInIteration): it, or a wgmma after it directly in
/// the same block, waits for every group.
void KLoopMatcher::markRetiredWgmmas() {
  for (WarpgroupMma &wgmma : info.warpgroupMmas) {
    Operation *op = wgmma.op;
    wgmma.retiredInIteration =
        llvm::any_of(info.warpgroupMmas, [&](const WarpgroupMma &other) {
          return other.waitGroup == 0 &&
                 (other.op == op || (other.op->getBlock() == op->getBlock() &&
                                     op->isBeforeInBlock(other.op)));
        });
  }
}

/// The shared buffer behind a warpgroup descriptor: the operand of the
/// `nvgpu.warpgroup.generate.descriptor` that made it (in the compute phase,
/// or hoisted out of the loop).
FailureOr<unsigned> KLoopMatcher::findDescriptorBuffer(Operation *user,
                                                       Value descriptor) {
  auto gen = descriptor.getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>();
  if (!gen)
    return fail(user, "compute phase: nvgpu.warpgroup.mma descriptor that "
                      "is not an nvgpu.warpgroup.generate.descriptor result");
  if (!isSharedMemory(cast<MemRefType>(gen.getTensor().getType())))
    return fail(gen, "compute phase: nvgpu.warpgroup.generate.descriptor of "
                     "memory that is not shared");
  return findBuffer(gen, gen.getTensor());
}

/// The wgmma whose accumulator result `mma` takes as its accumulator, if it
/// is the only use of that result: the previous k-step of a chain.
static nvgpu::WarpgroupMmaOp getPreviousInChain(nvgpu::WarpgroupMmaOp mma) {
  auto previous = mma.getMatrixC().getDefiningOp<nvgpu::WarpgroupMmaOp>();
  if (!previous || !mma.getMatrixC().hasOneUse())
    return nullptr;
  return previous;
}

/// The value that carries `acc` to the next iteration: `acc` itself, or,
/// when a tile epilogue (KLoopInfo::tileEpilogue) reads it and yields it on
/// the other k-steps, the epilogue's result (the next tile's accumulators
/// on a tile's last k-step).
static Value getCarriedThroughEpilogue(Value acc) {
  scf::IfOp epilogue;
  for (OpOperand &use : acc.getUses()) {
    auto ifOp = use.getOwner()->getParentOfType<scf::IfOp>();
    if (!ifOp || !ifOp->hasAttr(kTileEpilogueAttrName) ||
        (epilogue && ifOp != epilogue))
      return acc;
    epilogue = ifOp;
  }
  if (!epilogue)
    return acc;
  auto elseYield = cast<scf::YieldOp>(epilogue.elseBlock()->getTerminator());
  for (OpOperand &operand : elseYield->getOpOperands())
    if (operand.get() == acc)
      return epilogue.getResult(operand.getOperandNumber());
  return acc;
}

/// Whether `mma` belongs to a chain of wgmmas directly in `forOp`'s body
/// (KLoopInfo's WarpgroupMma::accumulatorChained): an iter_arg used by the
/// first op alone, each result used by the next op alone, the last result
/// carried back to the same iter_arg by the yield alone.
static bool isAccumulatorChain(scf::ForOp forOp, nvgpu::WarpgroupMmaOp mma) {
  nvgpu::WarpgroupMmaOp head = mma;
  while (nvgpu::WarpgroupMmaOp previous = getPreviousInChain(head))
    head = previous;
  nvgpu::WarpgroupMmaOp tail = mma;
  while (tail.getMatrixD().hasOneUse()) {
    auto next =
        dyn_cast<nvgpu::WarpgroupMmaOp>(*tail.getMatrixD().user_begin());
    if (!next || next.getMatrixC() != tail.getMatrixD())
      break;
    tail = next;
  }
  auto iterArg = dyn_cast<BlockArgument>(head.getMatrixC());
  Value carried = getCarriedThroughEpilogue(tail.getMatrixD());
  if (head->getParentOp() != forOp.getOperation() ||
      tail->getParentOp() != forOp.getOperation() || !iterArg ||
      iterArg.getOwner() != forOp.getBody() ||
      iterArg.getArgNumber() < forOp.getNumInductionVars() ||
      !iterArg.hasOneUse() || !carried.hasOneUse())
    return false;
  OpOperand &use = *carried.use_begin();
  return use.getOwner() == forOp.getBody()->getTerminator() &&
         use.getOperandNumber() + forOp.getNumInductionVars() ==
             iterArg.getArgNumber();
}

/// The wgmma form of the compute phase: the warpgroup MMAs with their FLOPs
/// (per warpgroup), the shared buffers they read, wait depth and
/// accumulator registers. Descriptors are checked where they are used.
LogicalResult KLoopMatcher::matchWarpgroupMma(nvgpu::WarpgroupMmaOp mma,
                                              int64_t executions) {
  FailureOr<unsigned> bufferA = findDescriptorBuffer(mma, mma.getDescriptorA());
  if (failed(bufferA))
    return failure();
  FailureOr<unsigned> bufferB = findDescriptorBuffer(mma, mma.getDescriptorB());
  if (failed(bufferB))
    return failure();
  MemRefType a = mma.getDescriptorA().getType().getTensor();
  MemRefType b = mma.getDescriptorB().getType().getTensor();
  VectorType acc = mma.getMatrixC().getType().getFragmented();
  WarpgroupMma wgmma;
  wgmma.op = mma;
  wgmma.m = a.getDimSize(0);
  wgmma.k = a.getDimSize(1);
  wgmma.n = b.getDimSize(1);
  wgmma.waitGroup = mma.getWaitGroup();
  wgmma.bufferA = *bufferA;
  wgmma.bufferB = *bufferB;
  wgmma.accumulatorRegs = acc.getNumElements() *
                          llvm::divideCeil(acc.getElementTypeBitWidth(), 32) /
                          kWarpgroupThreads;
  wgmma.executions = executions;
  wgmma.accumulatorChained = isAccumulatorChain(info.forOp, mma);
  wgmma.accumulatorFromWgmma = getPreviousInChain(mma) != nullptr;
  info.warpgroupMmas.push_back(wgmma);
  counter.countWarpgroupMma(wgmma);
  return success();
}

/// Collects the global loads whose values (through side-effect-free
/// operations inside the K-loop) make up `value`.
void mlir::pk::detail::traceToLoads(Value value, scf::ForOp forOp,
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
  // A guarded load (load phase): what either branch yields.
  if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
    unsigned result = cast<OpResult>(value).getResultNumber();
    for (Region &region : ifOp->getRegions())
      if (!region.empty())
        traceToLoads(region.front().getTerminator()->getOperand(result), forOp,
                     loads, visited);
    return;
  }
  for (Value operand : def->getOperands())
    traceToLoads(operand, forOp, loads, visited);
}

/// The global memref a copy reads (the source of an async copy; for a TMA
/// load the memref argument its map describes, when the kernel says so,
/// else null).
static Value getAccessedMemRefOfLoad(Operation *load) {
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(load))
    return copy.getSrc();
  if (auto tma = dyn_cast<nvgpu::TmaAsyncLoadOp>(load)) {
    DeclineOr<Value> target =
        getTensorMapTarget(tma, tma.getTensorMapDescriptor());
    return succeeded(target) ? *target : Value();
  }
  return getAccessedMemRef(load);
}

/// Whether `stop` holds for a value `value` is computed from, walking back
/// through the operands of the ops inside `forOp` (values defined outside
/// it end the walk, after `stop` saw them).
static bool reachesInLoop(Value value, scf::ForOp forOp,
                          function_ref<bool(Value)> stop) {
  SmallVector<Value> worklist{value};
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!visited.insert(v).second)
      continue;
    if (stop(v))
      return true;
    Operation *def = v.getDefiningOp();
    if (def && forOp->isProperAncestor(def))
      llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

bool mlir::pk::dependsOnInductionVar(Value value, scf::ForOp forOp) {
  return reachesInLoop(value, forOp,
                       [&](Value v) { return v == forOp.getInductionVar(); });
}

/// A printable name of a global memref root: "kernel argument #N", "the
/// buffer defined at LOC", or "the tensor map of a TMA load" (no memref).
static std::string describeRoot(Value root) {
  if (!root)
    return "the memory a TMA load reads through its tensor map";
  if (auto arg = dyn_cast<BlockArgument>(root))
    return "kernel argument #" + std::to_string(arg.getArgNumber());
  return "the buffer defined at " +
         locationToString(root.getDefiningOp()->getLoc());
}

/// Whether `value` is the same in every iteration of `forOp`: defined
/// outside it, or computed inside it by region-free ops from such values
/// only (an iter_arg, an inner loop's induction variable or a region's
/// result is not).
static bool isLoopInvariant(Value value, scf::ForOp forOp) {
  return !reachesInLoop(value, forOp, [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return forOp->isAncestor(arg.getOwner()->getParentOp());
    Operation *def = v.getDefiningOp();
    return forOp->isProperAncestor(def) && def->getNumRegions() != 0;
  });
}

/// Whether the address of the global access `op` is the same in every
/// iteration: its indices and every operand of the views it goes through
/// (subview offsets, reinterpret_cast offsets, sizes and strides, a
/// memref.view's shift, ...) down to its root.
static bool hasFixedAddress(Operation *op, scf::ForOp forOp) {
  MemoryAccess access = *getMemoryAccess(op);
  SmallVector<Value> values(access.indices.begin(), access.indices.end());
  Value memref = access.memref;
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>()) {
    for (Value operand : view->getOperands())
      if (operand != view.getViewSource())
        values.push_back(operand);
    memref = view.getViewSource();
  }
  values.push_back(memref);
  return llvm::all_of(values,
                      [&](Value v) { return isLoopInvariant(v, forOp); });
}

/// Whether the global memory roots `a` and `b` may be the same memory: pk
/// takes two different kernel arguments as distinct (the accumulators'
/// assumption, docs/input-contract.md) and two different memref.globals;
/// anything else it cannot tell apart (a select of arguments, a TMA load's
/// tensor map: null).
static bool mayBeSameMemory(Value a, Value b) {
  if (!a || !b || a == b)
    return true;
  if (isa<BlockArgument>(a) && isa<BlockArgument>(b))
    return false;
  auto ga = a.getDefiningOp<memref::GetGlobalOp>();
  auto gb = b.getDefiningOp<memref::GetGlobalOp>();
  return !ga || !gb || ga.getName() == gb.getName();
}

/// Whether pk can prove that the global memory `written` and `read` (two
/// roots) do not overlap: two different arguments of `kernel`, one of them
/// `llvm.noalias` (nothing else reaches what it points to while the
/// kernel runs); or `read` is a TMA load's tensor map (null) and `written`
/// an `llvm.noalias` argument, which the map's address, not derived from
/// it, does not reach either (a persistent kernel's tile epilogue).
static bool provablyDisjoint(gpu::GPUFuncOp kernel, Value written, Value read) {
  auto isNoaliasArgument = [&](BlockArgument arg) {
    return arg && arg.getOwner() == &kernel.getBody().front() &&
           kernel.getArgAttr(arg.getArgNumber(), "llvm.noalias");
  };
  auto a = dyn_cast_if_present<BlockArgument>(written);
  if (!read)
    return isNoaliasArgument(a);
  auto b = dyn_cast_if_present<BlockArgument>(read);
  if (!a || !b || a == b || a.getOwner() != &kernel.getBody().front() ||
      b.getOwner() != &kernel.getBody().front())
    return false;
  return isNoaliasArgument(a) || isNoaliasArgument(b);
}

/// Declines a copy whose source the compute phase may write: at fixed
/// addresses (`written`, TMA sources taken as distinct, as before) or at
/// moving ones (`movingWrites`, which must be proven disjoint).
LogicalResult KLoopMatcher::checkCopySources(
    ArrayRef<Value> written,
    ArrayRef<std::pair<Operation *, Value>> movingWrites) {
  for (const TileCopy &copy : info.copies) {
    Value src = getRootMemRef(getAccessedMemRefOfLoad(copy.load));
    if (src &&
        llvm::any_of(written, [&](Value w) { return mayBeSameMemory(w, src); }))
      return fail(copy.load, "load phase reads the memory the compute phase "
                             "writes: the next tiles' loads cannot move "
                             "ahead of the compute");
    for (auto [op, dst] : movingWrites) {
      if (dst == src)
        return fail(copy.load, "load phase reads the memory the compute "
                               "phase writes: the next tiles' loads cannot "
                               "move ahead of the compute");
      if (!provablyDisjoint(info.kernel, dst, src))
        return fail(
            Decline(op, "compute phase writes " + describeRoot(dst) +
                            " at addresses that move with the K-loop, and "
                            "the load phase reads " +
                            describeRoot(src) +
                            ": pk cannot prove they do not overlap (the next "
                            "tiles' loads move ahead of this store); mark " +
                            (src ? "one of the two kernel arguments"
                                 : "the written kernel argument") +
                            " llvm.noalias")
                .attachNote(copy.load->getLoc(), "the load of the load phase"));
    }
  }
  return success();
}

/// The compute phase's global memory. (a) Accumulators: memory it reads and
/// writes at addresses that do not change across the loop (upstream's
/// rewrite_matmul_as_mma_sync: C loaded, updated and stored back every
/// iteration); the compute phases stay in order, so that read-modify-write
/// stays correct as long as the load phase does not read that memory (its
/// loads move ahead of earlier computes; kernel arguments are assumed not
/// to overlap, as before). (b) Streams: reads of memory nothing in the loop
/// writes, at any address (a GEMV's matrix rows), and writes at addresses
/// that move with the loop (a stencil's output rows) of memory nothing in
/// the loop reads, which pk must prove disjoint from what the load phase
/// reads (provablyDisjoint): its loads of tile t+1 move ahead of the
/// compute of tile t.
LogicalResult KLoopMatcher::checkMemoryAccumulators() {
  SmallVector<Value> written, streamed;
  SmallVector<std::pair<Operation *, Value>> movingWrites(epilogueStores);
  for (auto [op, root] : epilogueStores)
    streamed.push_back(root);
  for (Operation *op : accumulatorAccesses) {
    MemoryAccess access = *getMemoryAccess(op);
    if (!access.isWrite)
      continue;
    Value root = getRootMemRef(access.memref);
    if (hasFixedAddress(op, forOp)) {
      written.push_back(root);
      continue;
    }
    movingWrites.emplace_back(op, root);
    streamed.push_back(root);
  }
  for (Operation *op : accumulatorAccesses) {
    MemoryAccess access = *getMemoryAccess(op);
    Value root = getRootMemRef(access.memref);
    bool fixedWrite =
        access.isWrite && llvm::none_of(movingWrites, [&](const auto &write) {
          return write.first == op;
        });
    if ((access.isRead || fixedWrite) && llvm::any_of(streamed, [&](Value s) {
          return mayBeSameMemory(s, root);
        }))
      return fail(op, "compute phase " +
                          Twine(access.isRead ? "reads" : "writes") +
                          " global memory it also writes at addresses that "
                          "move with the K-loop (" +
                          describeRoot(root) +
                          "): only accumulators at fixed addresses may be "
                          "read back");
  }
  if (failed(checkCopySources(written, movingWrites)))
    return failure();
  if (written.empty() && streamed.empty() && forOp.getNumRegionIterArgs() == 0)
    return fail(forOp, "no accumulators: neither iter_args nor global memory "
                       "written by the compute phase");
  info.memoryAccumulators = !written.empty();
  return success();
}
