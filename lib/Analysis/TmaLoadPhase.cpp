//===- TmaLoadPhase.cpp - The load phase of a TMA K-loop ------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The analysis of a K-loop whose tiles the Tensor Memory Accelerator copies
// (docs/hopper.md "TMA ring"): the issuing threads announce the tile's
// bytes on one mbarrier and start `nvgpu.tma.async.load`s that complete on
// it; every thread waits for the barrier's phase of the tile. The matcher
// (KLoopMatcher.cpp) splits the body and collects the ops; this file checks
// the protocol pk can turn into an N-stage ring and records the copies.
// Tests: test/e2e/pk-analyze-kloops.test (TMA), test/pk-pipeline-kloops-invalid
// .mlir (TMA-*).
//
//===----------------------------------------------------------------------===//

#include "pk/KLoopMatcher.h"

#include "pk/MemoryAccess.h"
#include "pk/Support.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-kloop-matcher"

using namespace mlir;
using namespace mlir::pk;

namespace {
/// Checks one TMA load phase.
class TmaLoadPhaseMatcher {
public:
  explicit TmaLoadPhaseMatcher(KLoopInfo &info) : info(info), tma(*info.tma) {}

  DeclineOr<void> checkBarrierGroup();
  DeclineOr<void> checkGroupUses();
  DeclineOr<void> checkIssue();
  DeclineOr<void> checkMulticast();
  DeclineOr<void> checkClusterInit(Operation *at);
  DeclineOr<int64_t> getLoadBytes(nvgpu::TmaAsyncLoadOp load);

  Decline fail(Operation *op, const Twine &msg) {
    LDBG() << "TMA load phase at " << locationToString(op->getLoc())
           << " does not match: " << msg << " -> BAIL";
    return Decline(op, "TMA K-loop: " + msg);
  }

  KLoopInfo &info;
  TmaLoadPhase &tma;
};
} // namespace

/// One group of one barrier, created in the kernel before the loop; every
/// use in the loop names barrier 0.
DeclineOr<void> TmaLoadPhaseMatcher::checkBarrierGroup() {
  if (!tma.expectTx)
    return fail(tma.wait, "no nvgpu.mbarrier.arrive.expect_tx in "
                          "the load phase announces the tile's bytes");
  if (tma.loads.empty())
    return fail(tma.wait, "no nvgpu.tma.async.load in the load phase");
  Value group = tma.wait.getBarriers();
  auto create = group.getDefiningOp<nvgpu::MBarrierCreateOp>();
  if (!create || !info.kernel->isProperAncestor(create) ||
      info.forOp->isAncestor(create))
    return fail(tma.wait, "the mbarrier group is not an "
                          "nvgpu.mbarrier.create of the kernel outside the "
                          "loop");
  tma.create = create;
  unsigned count = create.getBarriers().getType().getNumBarriers();
  if (count != 1)
    return fail(create, "the mbarrier group has " + Twine(count) +
                            " barriers: the loop already rotates its "
                            "barriers");
  struct Use {
    Operation *op;
    Value group, index;
  };
  SmallVector<Use> inLoop{
      {tma.expectTx, tma.expectTx.getBarriers(), tma.expectTx.getMbarId()},
      {tma.wait, tma.wait.getBarriers(), tma.wait.getMbarId()}};
  for (nvgpu::TmaAsyncLoadOp load : tma.loads)
    inLoop.push_back({load, load.getBarriers(), load.getMbarId()});
  for (const Use &use : inLoop) {
    if (use.group != group)
      return fail(use.op, "the load phase uses two mbarrier "
                          "groups");
    std::optional<int64_t> index = getConstantIntValue(use.index);
    if (!index || *index != 0)
      return fail(use.op, "the mbarrier index is not the constant 0");
  }
  return success();
}

/// The innermost loop around `forOp` that does not contain `op`, or null.
static Operation *findLoopAround(scf::ForOp forOp, Operation *op) {
  for (Operation *parent = forOp->getParentOp();
       parent && !parent->isAncestor(op); parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return parent;
  return nullptr;
}

/// The group's other uses are its `nvgpu.mbarrier.init`s before the loop.
DeclineOr<void> TmaLoadPhaseMatcher::checkGroupUses() {
  Block *loopBlock = info.forOp->getBlock();
  for (Operation *user : tma.create.getBarriers().getUsers()) {
    if (info.forOp->isProperAncestor(user)) {
      if (user == tma.expectTx || user == tma.wait ||
          llvm::is_contained(tma.loads, user))
        continue;
      return fail(user, "the loop's mbarrier is also used by '" +
                            user->getName().getStringRef() + "'");
    }
    auto init = dyn_cast<nvgpu::MBarrierInitOp>(user);
    Operation *top = loopBlock->findAncestorOpInBlock(*user);
    // An init outside a loop around the K-loop (a tile loop the flattener
    // refused): the barrier's phases run on across that loop's iterations.
    if (Operation *around =
            init && !top ? findLoopAround(info.forOp, init) : nullptr)
      return fail(init, "the loop's mbarrier is initialised outside the '" +
                            around->getName().getStringRef() +
                            "' around the loop, whose iterations share its "
                            "phases (a tile loop pk did not flatten); pk "
                            "rebuilds a barrier initialised before the loop "
                            "and used only in it");
    if (!init || !top || !top->isBeforeInBlock(info.forOp))
      return fail(user, "the loop's mbarrier is used by '" +
                            user->getName().getStringRef() +
                            "' outside the loop; pk rebuilds a barrier "
                            "initialised before the loop and used only in it");
    tma.inits.push_back(init);
  }
  if (tma.inits.empty())
    return fail(tma.create, "the loop's mbarrier is not "
                            "initialised (nvgpu.mbarrier.init) before it");
  return success();
}

/// The loads are issued by the expect_tx's threads.
DeclineOr<void> TmaLoadPhaseMatcher::checkIssue() {
  for (nvgpu::TmaAsyncLoadOp load : tma.loads) {
    if (load.getPredicate() != tma.expectTx.getPredicate())
      return fail(load, "the load's predicate differs from the "
                        "expect_tx's; pk needs the threads that announce the "
                        "bytes to issue the loads");
  }
  return success();
}

/// Multicast loads (docs/hopper.md "Clusters") write every block of a
/// cluster of 2 and complete on every block's barrier: the loop releases its
/// tiles with a cluster barrier, and the barrier's init reaches the cluster
/// before the loop.
DeclineOr<void> TmaLoadPhaseMatcher::checkMulticast() {
  if (auto dims = info.kernel->getAttrOfType<DenseI32ArrayAttr>(
          NVVM::NVVMDialect::getClusterDimAttrName()))
    for (int32_t dim : dims.asArrayRef()) {
      if (dim < 1)
        return fail(tma.wait, "the kernel's nvvm.cluster_dim has a "
                              "dimension of " +
                                  Twine(dim));
      tma.clusterSize *= dim;
    }
  auto isMulticast = [](nvgpu::TmaAsyncLoadOp load) {
    return static_cast<bool>(load.getMulticastMask());
  };
  auto multicast = llvm::find_if(tma.loads, isMulticast);
  if (multicast == tma.loads.end())
    return success();
  if (tma.clusterSize != 2)
    return fail(*multicast, "multicast TMA loads need a cluster of 2 blocks "
                            "(nvvm.cluster_dim); the kernel's has " +
                                Twine(tma.clusterSize));
  for (nvgpu::TmaAsyncLoadOp load : tma.loads) {
    if (!load.getMulticastMask())
      continue;
    std::optional<int64_t> mask = getConstantIntValue(load.getMulticastMask());
    if (!mask || *mask != (int64_t{1} << tma.clusterSize) - 1)
      return fail(load, "pk pipelines multicast to every block of the "
                        "cluster (multicast_mask = 3); this mask is not that "
                        "constant");
  }
  if (!tma.clusterArrive)
    return fail(*multicast,
                "multicast TMA loads write the other block's tiles; the "
                "K-loop needs a cluster barrier (nvvm.cluster.arrive, "
                "nvvm.cluster.wait) after its compute, before its "
                "gpu.barrier");
  if (DeclineOr<void> init = checkClusterInit(*multicast); failed(init))
    return init;
  tma.multicastLoads = llvm::count_if(tma.loads, isMulticast);
  return success();
}

/// Whether a `nvvm.fence.mbarrier.init` follows `init` in `lastInit` (the
/// op of the loop's block that holds it) or between it and `end`.
static bool isFencedToCluster(nvgpu::MBarrierInitOp init, Operation *lastInit,
                              Operation *end) {
  bool fenced = false;
  lastInit->walk([&](NVVM::FenceMbarrierInitOp fence) {
    fenced |=
        fence->getBlock() == init->getBlock() && init->isBeforeInBlock(fence);
  });
  for (Operation *op = lastInit->getNextNode(); op != end;
       op = op->getNextNode())
    fenced |= isa<NVVM::FenceMbarrierInitOp>(op);
  return fenced;
}

/// A cluster barrier between the mbarrier's inits and the loop: no block's
/// multicast completes on a barrier another block has not initialised. Its
/// arrive and wait follow the inits directly in the loop's block; a relaxed
/// arrive needs `nvvm.fence.mbarrier.init` after every init.
DeclineOr<void> TmaLoadPhaseMatcher::checkClusterInit(Operation *at) {
  Block *block = info.forOp->getBlock();
  Operation *lastInit = nullptr;
  for (nvgpu::MBarrierInitOp init : tma.inits) {
    Operation *top = block->findAncestorOpInBlock(*init);
    if (!lastInit || lastInit->isBeforeInBlock(top))
      lastInit = top;
  }
  Operation *arrive = nullptr;
  for (Operation *op = lastInit->getNextNode(); op && op != info.forOp;
       op = op->getNextNode()) {
    if (isa<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp>(op) && !arrive)
      arrive = op;
    if (!isa<NVVM::ClusterWaitOp>(op) || !arrive)
      continue;
    if (isa<NVVM::ClusterArriveOp>(arrive) ||
        llvm::all_of(tma.inits, [&](nvgpu::MBarrierInitOp init) {
          return isFencedToCluster(init, block->findAncestorOpInBlock(*init),
                                   arrive);
        }))
      return success();
    return fail(arrive, "multicast TMA loads complete on the other block's "
                        "mbarrier; with a relaxed cluster arrive after its "
                        "init, a nvvm.fence.mbarrier.init must follow every "
                        "nvgpu.mbarrier.init of it")
        .attachNote(lastInit->getLoc(), "the mbarrier is initialised here");
  }
  return fail(at, "multicast TMA loads complete on the other block's "
                  "mbarrier; a cluster barrier (nvvm.cluster.arrive, "
                  "nvvm.cluster.wait) must follow its nvgpu.mbarrier.init "
                  "before the loop")
      .attachNote(lastInit->getLoc(), "the mbarrier is initialised here");
}

/// The bytes one load writes: its box (the descriptor's tensor), which must
/// be the whole destination view.
DeclineOr<int64_t>
TmaLoadPhaseMatcher::getLoadBytes(nvgpu::TmaAsyncLoadOp load) {
  MemRefType box = load.getTensorMapDescriptor().getType().getTensor();
  MemRefType dst = load.getDst().getType();
  std::optional<int64_t> boxBytes = getSizeInBytes(box);
  std::optional<int64_t> dstBytes = getSizeInBytes(dst);
  if (!boxBytes || !dstBytes || !dst.hasStaticShape() ||
      dst.getShape() != box.getShape())
    return fail(load, "the load's destination is not a static "
                      "view of the descriptor's box shape");
  return *boxBytes;
}

DeclineOr<void> mlir::pk::detail::matchTmaLoadPhase(
    KLoopInfo &info,
    llvm::function_ref<DeclineOr<unsigned>(Operation *, Value)> findBuffer) {
  TmaLoadPhaseMatcher matcher(info);
  for (auto check :
       {&TmaLoadPhaseMatcher::checkBarrierGroup,
        &TmaLoadPhaseMatcher::checkGroupUses, &TmaLoadPhaseMatcher::checkIssue,
        &TmaLoadPhaseMatcher::checkMulticast})
    if (DeclineOr<void> checked = (matcher.*check)(); failed(checked))
      return checked;
  TmaLoadPhase &tma = *info.tma;
  int64_t total = 0;
  for (nvgpu::TmaAsyncLoadOp load : tma.loads) {
    DeclineOr<int64_t> bytes = matcher.getLoadBytes(load);
    if (failed(bytes))
      return bytes.takeDecline();
    DeclineOr<unsigned> bufferIndex = findBuffer(load, load.getDst());
    if (failed(bufferIndex))
      return bufferIndex.takeDecline();
    SharedBuffer &buffer = info.buffers[*bufferIndex];
    if (info.forOp->isAncestor(buffer.root.getParentRegion()->getParentOp()))
      return matcher.fail(load, "shared buffer " + buffer.name +
                                    " is defined inside the K-loop");
    TileCopy copy;
    copy.load = load;
    copy.stores.push_back(load);
    copy.tma = true;
    copy.bytesPerExecution = *bytes;
    copy.bufferIndex = *bufferIndex;
    copy.storeBuffers.push_back(*bufferIndex);
    buffer.copied = true;
    info.copies.push_back(copy);
    // A multicast lands in every block of the cluster; each block's
    // expect_tx announces the bytes all blocks' loads bring it.
    total = saturatingAdd(
        total, load.getMulticastMask() ? *bytes * tma.clusterSize : *bytes);
  }
  std::optional<int64_t> announced =
      getConstantIntValue(tma.expectTx.getTxcount());
  if (!announced || *announced != total) {
    std::string count =
        announced ? std::to_string(*announced) : "a dynamic number of";
    return matcher.fail(tma.expectTx,
                        "nvgpu.mbarrier.arrive.expect_tx announces " + count +
                            " bytes, the loads write " + Twine(total));
  }
  tma.bytesPerTile = total;
  return success();
}

bool mlir::pk::isClusterBarrierOp(Operation *op) {
  return isa<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp,
             NVVM::ClusterWaitOp>(op);
}

DeclineOr<void> mlir::pk::detail::findClusterBarrier(KLoopInfo &info) {
  TmaLoadPhase &tma = *info.tma;
  Block *body = info.forOp.getBody();
  SmallVector<Operation *> found;
  info.forOp.getBody()->walk([&](Operation *op) {
    if (isClusterBarrierOp(op))
      found.push_back(op);
  });
  if (found.empty())
    return success();
  auto bad = [&](Operation *op) {
    LDBG() << "cluster barrier at " << locationToString(op->getLoc())
           << " is not the loop's release -> BAIL";
    return Decline(op, "TMA K-loop: pk takes one cluster barrier in the "
                       "loop, nvvm.cluster.arrive[.relaxed] directly "
                       "followed by nvvm.cluster.wait, directly in the body "
                       "after the compute and before the gpu.barrier");
  };
  Operation *arrive = found.front();
  if (found.size() != 2 ||
      !isa<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp>(arrive) ||
      arrive->getBlock() != body || arrive->getNextNode() != found.back() ||
      !arrive->isBeforeInBlock(info.computeBarrier) ||
      arrive->isBeforeInBlock(tma.wait))
    return bad(found.size() == 2 ? arrive : found.back());
  // Between the cluster barrier and the CTA barrier the other block may
  // already refill the tiles: nothing there may read them.
  for (Operation *op = found.back()->getNextNode();
       op != info.computeBarrier.getOperation(); op = op->getNextNode())
    if (!isMemoryEffectFree(op) &&
        !(isa<scf::IfOp>(op) && op->hasAttr(kTileEpilogueAttrName)))
      return Decline(op, "TMA K-loop: after the cluster barrier the other "
                         "block's loads may refill the tiles; this op, "
                         "between it and the gpu.barrier, may access "
                         "memory")
          .attachNote(arrive->getLoc(), "the cluster barrier");
  tma.clusterArrive = arrive;
  tma.clusterWait = found.back();
  return success();
}
