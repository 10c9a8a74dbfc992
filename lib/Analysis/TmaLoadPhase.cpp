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
// Tests: test/pk-analyze-kloops.mlir (TMA), test/pk-pipeline-kloops-invalid
// .mlir (TMA-*).
//
//===----------------------------------------------------------------------===//

#include "pk/KLoopMatcher.h"

#include "pk/MemoryAccess.h"
#include "pk/Support.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-kloop-matcher"

using namespace mlir;
using namespace mlir::pk;

namespace {
/// Checks one TMA load phase; `at` and `reason` say where and why it fails.
class TmaLoadPhaseMatcher {
public:
  TmaLoadPhaseMatcher(KLoopInfo &info, std::string &reason, Operation *&at)
      : info(info), tma(*info.tma), reason(reason), at(at) {}

  LogicalResult checkBarrierGroup();
  LogicalResult checkGroupUses();
  LogicalResult checkIssue();
  FailureOr<int64_t> getLoadBytes(nvgpu::TmaAsyncLoadOp load);

  LogicalResult fail(Operation *op, const Twine &msg) {
    at = op;
    reason = msg.str();
    LDBG() << "TMA load phase at " << locationToString(op->getLoc())
           << " does not match: " << reason << " -> BAIL";
    return failure();
  }

  KLoopInfo &info;
  TmaLoadPhase &tma;
  std::string &reason;
  Operation *&at;
};
} // namespace

/// One group of one barrier, created in the kernel before the loop; every
/// use in the loop names barrier 0.
LogicalResult TmaLoadPhaseMatcher::checkBarrierGroup() {
  if (!tma.expectTx)
    return fail(tma.wait, "TMA K-loop: no nvgpu.mbarrier.arrive.expect_tx in "
                          "the load phase announces the tile's bytes");
  if (tma.loads.empty())
    return fail(tma.wait,
                "TMA K-loop: no nvgpu.tma.async.load in the load phase");
  Value group = tma.wait.getBarriers();
  auto create = group.getDefiningOp<nvgpu::MBarrierCreateOp>();
  if (!create || !info.kernel->isProperAncestor(create) ||
      info.forOp->isAncestor(create))
    return fail(tma.wait, "TMA K-loop: the mbarrier group is not an "
                          "nvgpu.mbarrier.create of the kernel outside the "
                          "loop");
  tma.create = create;
  unsigned count = create.getBarriers().getType().getNumBarriers();
  if (count != 1)
    return fail(create, "TMA K-loop: the mbarrier group has " + Twine(count) +
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
      return fail(use.op, "TMA K-loop: the load phase uses two mbarrier "
                          "groups");
    std::optional<int64_t> index = getConstantIntValue(use.index);
    if (!index || *index != 0)
      return fail(use.op,
                  "TMA K-loop: the mbarrier index is not the constant 0");
  }
  return success();
}

/// The group's other uses are its `nvgpu.mbarrier.init`s before the loop.
LogicalResult TmaLoadPhaseMatcher::checkGroupUses() {
  Block *loopBlock = info.forOp->getBlock();
  for (Operation *user : tma.create.getBarriers().getUsers()) {
    if (info.forOp->isProperAncestor(user)) {
      if (user == tma.expectTx || user == tma.wait ||
          llvm::is_contained(tma.loads, user))
        continue;
      return fail(user, "TMA K-loop: the loop's mbarrier is also used by '" +
                            user->getName().getStringRef() + "'");
    }
    auto init = dyn_cast<nvgpu::MBarrierInitOp>(user);
    Operation *top = loopBlock->findAncestorOpInBlock(*user);
    if (!init || !top || !top->isBeforeInBlock(info.forOp))
      return fail(user, "TMA K-loop: the loop's mbarrier is used by '" +
                            user->getName().getStringRef() +
                            "' outside the loop; pk rebuilds a barrier "
                            "initialised before the loop and used only in it");
    tma.inits.push_back(init);
  }
  if (tma.inits.empty())
    return fail(tma.create, "TMA K-loop: the loop's mbarrier is not "
                            "initialised (nvgpu.mbarrier.init) before it");
  return success();
}

/// The loads are issued by the expect_tx's threads, without multicast.
LogicalResult TmaLoadPhaseMatcher::checkIssue() {
  for (nvgpu::TmaAsyncLoadOp load : tma.loads) {
    if (load.getMulticastMask())
      return fail(load, "TMA K-loop: multicast TMA loads (cluster) are not "
                        "supported");
    if (load.getPredicate() != tma.expectTx.getPredicate())
      return fail(load, "TMA K-loop: the load's predicate differs from the "
                        "expect_tx's; pk needs the threads that announce the "
                        "bytes to issue the loads");
  }
  return success();
}

/// The bytes one load writes: its box (the descriptor's tensor), which must
/// be the whole destination view.
FailureOr<int64_t>
TmaLoadPhaseMatcher::getLoadBytes(nvgpu::TmaAsyncLoadOp load) {
  MemRefType box = load.getTensorMapDescriptor().getType().getTensor();
  MemRefType dst = load.getDst().getType();
  std::optional<int64_t> boxBytes = getSizeInBytes(box);
  std::optional<int64_t> dstBytes = getSizeInBytes(dst);
  if (!boxBytes || !dstBytes || !dst.hasStaticShape() ||
      dst.getShape() != box.getShape())
    return fail(load, "TMA K-loop: the load's destination is not a static "
                      "view of the descriptor's box shape");
  return *boxBytes;
}

LogicalResult mlir::pk::detail::matchTmaLoadPhase(
    KLoopInfo &info,
    llvm::function_ref<FailureOr<unsigned>(Operation *, Value)> findBuffer,
    std::string &reason, Operation *&at) {
  TmaLoadPhaseMatcher matcher(info, reason, at);
  if (failed(matcher.checkBarrierGroup()) || failed(matcher.checkGroupUses()) ||
      failed(matcher.checkIssue()))
    return failure();
  TmaLoadPhase &tma = *info.tma;
  int64_t total = 0;
  for (nvgpu::TmaAsyncLoadOp load : tma.loads) {
    FailureOr<int64_t> bytes = matcher.getLoadBytes(load);
    if (failed(bytes))
      return failure();
    FailureOr<unsigned> bufferIndex = findBuffer(load, load.getDst());
    if (failed(bufferIndex)) {
      reason.clear();
      return failure();
    }
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
    buffer.copied = true;
    info.copies.push_back(copy);
    total = saturatingAdd(total, *bytes);
  }
  std::optional<int64_t> announced =
      getConstantIntValue(tma.expectTx.getTxcount());
  if (!announced || *announced != total) {
    std::string count =
        announced ? std::to_string(*announced) : "a dynamic number of";
    return matcher.fail(tma.expectTx,
                        "TMA K-loop: nvgpu.mbarrier.arrive.expect_tx "
                        "announces " +
                            count + " bytes, the loads write " + Twine(total));
  }
  tma.bytesPerTile = total;
  return success();
}
