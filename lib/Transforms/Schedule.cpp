//===- Schedule.cpp - The variants' schedules and upstream's pipeliner ----===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// One named schedule per variant orders the K-loop body into pipeline stages
// (^s below); upstream `scf::pipelineForLoop` then peels the prologue (the
// stage-0 ops of the first tiles), runs stage 0 of tile t+N-1 and the last
// stage of tile t in list order in the steady-state loop, and peels the
// epilogue:
//
//   multistage (cp-async, N stages; docs/pipelining.md):
//     [wait all but N-2, fence, barrier]^(N-1) [load phase, commit]^0
//     [compute]^(N-1)
//   two-stage (cp-async, 2 stages):
//     [load phase, commit]^0 [compute]^1 [wait all, fence, barrier]^0
//   (per-copy variants: a cp-async loop's register-path stores follow the
//   compute, in stage 0: [...]^0 [compute]^(N-1) [register stores]^0)
//   tma (TMA ring, N stages; docs/hopper.md "TMA ring"):
//     [expect_tx, TMA loads]^0 [stage and parity, mbarrier wait, compute,
//     barrier]^(N-1-g)   (g: wgmma groups left in flight)
//   register (ldg-register, register-prefetch):
//     [global loads]^0 [compute, barrier]^1 [shared stores, fence,
//     barrier]^0
//
// "fence" is the load phase's proxy fences (nvvm.fence.proxy <async.shared>,
// wgmma loops, docs/hopper.md): they stay after the writes of the tile the
// next compute reads (its stores, or the wait that completes its copies)
// and before the barrier. A fence in the compute phase stays there.
//
// Tests: test/pk-pipeline-kloops.mlir (CHECK-NEXT on each schedule's loop).
//
//===----------------------------------------------------------------------===//

#include "pk/PipelineSteps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-schedule"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

/// Whether `op` writes shared memory directly (a copy's store).
static bool isSharedStore(Operation *op) {
  if (!isa<vector::StoreOp, vector::TransferWriteOp, memref::StoreOp>(op))
    return false;
  return isSharedMemory(cast<MemRefType>(getAccessedMemRef(op).getType()));
}

namespace {
/// The body of the K-loop split at its two barriers; the load phase's proxy
/// fences and the register-path stores of a cp-async loop on their own.
struct Phases {
  SmallVector<Operation *> load, compute, loadFences, registerStores;
};
} // namespace

static Phases splitPhases(scf::ForOp forOp, gpu::BarrierOp loadBarrier,
                          gpu::BarrierOp computeBarrier,
                          ArrayRef<Operation *> registerStores = {}) {
  Phases phases;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    if (&op == loadBarrier.getOperation() ||
        &op == computeBarrier.getOperation())
      continue;
    if (!op.isBeforeInBlock(loadBarrier))
      phases.compute.push_back(&op);
    else if (isa<NVVM::FenceProxyOp>(op))
      phases.loadFences.push_back(&op);
    else if (llvm::is_contained(registerStores, &op))
      phases.registerStores.push_back(&op);
    else
      phases.load.push_back(&op);
  }
  return phases;
}

static void append(Schedule &schedule, ArrayRef<Operation *> ops,
                   unsigned stage) {
  for (Operation *op : ops)
    schedule.order.push_back({op, stage});
}

/// Replaces the load barrier by the commit of the tile's copies
/// (`nvgpu.device_async_create_group`) and puts the wait for `pending`
/// groups right before the compute barrier; returns both.
static std::pair<Operation *, Operation *>
createGroupAndWait(RewriterBase &rewriter, scf::ForOp forOp,
                   gpu::BarrierOp loadBarrier, gpu::BarrierOp computeBarrier,
                   ArrayRef<Value> tokens, int64_t pending) {
  Location loc = forOp.getLoc();
  rewriter.setInsertionPoint(loadBarrier);
  auto group = nvgpu::DeviceAsyncCreateGroupOp::create(
      rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
      tokens);
  rewriter.setInsertionPoint(computeBarrier);
  auto wait =
      nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, group.getAsyncToken(),
                                       rewriter.getI32IntegerAttr(pending));
  rewriter.eraseOp(loadBarrier);
  return {group, wait};
}

void mlir::pk::detail::setMmaGroupsInFlight(RewriterBase &rewriter,
                                            scf::ForOp forOp, int64_t groups) {
  forOp.getBody()->walk([&](nvgpu::WarpgroupMmaOp mma) {
    if (static_cast<int64_t>(mma.getWaitGroup()) >= groups)
      return;
    rewriter.modifyOpInPlace(
        mma, [&] { mma.setWaitGroupAttr(rewriter.getI64IntegerAttr(groups)); });
  });
}

Schedule mlir::pk::detail::buildMultistageSchedule(
    RewriterBase &rewriter, scf::ForOp forOp, gpu::BarrierOp loadBarrier,
    gpu::BarrierOp computeBarrier, int64_t stages, int64_t mmaGroupsInFlight,
    ArrayRef<Value> tokens, ArrayRef<Operation *> registerStores) {
  Phases phases =
      splitPhases(forOp, loadBarrier, computeBarrier, registerStores);
  // The loads run `distance` tiles ahead of the compute: the copy issued
  // while tile t computes refills the stage of tile t - 1 - groups in
  // flight, whose wgmma every warp retired before the barrier above it.
  int64_t distance = stages - 1 - mmaGroupsInFlight;
  // Waits on tile t's group (carried from stage 0 by the pipeliner); the
  // token only orders the IR, cp.async.wait_group counts groups.
  auto [group, wait] = createGroupAndWait(rewriter, forOp, loadBarrier,
                                          computeBarrier, tokens, distance - 1);
  phases.load.push_back(group);
  if (mmaGroupsInFlight > 0)
    setMmaGroupsInFlight(rewriter, forOp, mmaGroupsInFlight);
  Schedule schedule;
  schedule.mmaGroupsInFlight = mmaGroupsInFlight;
  schedule.computeStage = static_cast<unsigned>(distance);
  append(schedule, {wait}, schedule.computeStage);
  append(schedule, phases.loadFences, schedule.computeStage);
  append(schedule, {computeBarrier}, schedule.computeStage);
  append(schedule, phases.load, 0);
  append(schedule, phases.compute, schedule.computeStage);
  // Tile t+D's register-path stores refill the stage the barrier above
  // freed, after the compute hid their loads' latency; the next barrier
  // orders them before any read (and the next fence before any wgmma).
  append(schedule, phases.registerStores, 0);
  // The wait uses the group defined later in the schedule: keep the body in
  // its (dominance-respecting) order, the pipeliner emits the schedule.
  schedule.reorderBody = false;
  return schedule;
}

Schedule mlir::pk::detail::buildTmaSchedule(RewriterBase &rewriter,
                                            scf::ForOp forOp,
                                            Operation *waitStart,
                                            int64_t stages,
                                            int64_t mmaGroupsInFlight) {
  // The copies issued while tile t computes refill the stage of tile t - 1 -
  // groups in flight, which every warp retired before the barrier above.
  int64_t distance = stages - 1 - mmaGroupsInFlight;
  if (mmaGroupsInFlight > 0)
    setMmaGroupsInFlight(rewriter, forOp, mmaGroupsInFlight);
  Schedule schedule;
  schedule.mmaGroupsInFlight = mmaGroupsInFlight;
  schedule.computeStage = static_cast<unsigned>(distance);
  unsigned stage = 0;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    if (&op == waitStart)
      stage = schedule.computeStage;
    schedule.order.push_back({&op, stage});
  }
  return schedule;
}

Schedule mlir::pk::detail::buildTwoStageSchedule(
    RewriterBase &rewriter, scf::ForOp forOp, gpu::BarrierOp loadBarrier,
    gpu::BarrierOp computeBarrier, ArrayRef<Value> tokens,
    ArrayRef<Operation *> registerStores) {
  Phases phases =
      splitPhases(forOp, loadBarrier, computeBarrier, registerStores);
  auto [group, wait] = createGroupAndWait(rewriter, forOp, loadBarrier,
                                          computeBarrier, tokens, 0);
  phases.load.push_back(group);
  Schedule schedule;
  append(schedule, phases.load, 0);
  append(schedule, phases.compute, 1);
  append(schedule, phases.registerStores, 0);
  append(schedule, {wait}, 0);
  append(schedule, phases.loadFences, 0);
  append(schedule, {computeBarrier}, 0);
  return schedule;
}

Schedule
mlir::pk::detail::buildRegisterSchedule(scf::ForOp forOp,
                                        gpu::BarrierOp loadBarrier,
                                        gpu::BarrierOp computeBarrier) {
  Phases phases = splitPhases(forOp, loadBarrier, computeBarrier);
  SmallVector<Operation *> loads, stores;
  for (Operation *op : phases.load)
    (isSharedStore(op) ? stores : loads).push_back(op);
  Schedule schedule;
  append(schedule, loads, 0);
  append(schedule, phases.compute, 1);
  append(schedule, {computeBarrier}, 1);
  append(schedule, stores, 0);
  append(schedule, phases.loadFences, 0);
  append(schedule, {loadBarrier}, 0);
  return schedule;
}

/// Whether `condition` is upstream's epilogue guard `trips >= c` with
/// 1 <= c <= `minTrips`.
static bool isHeldTripGuard(Value condition, int64_t minTrips) {
  auto cmp = condition.getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::sge)
    return false;
  std::optional<int64_t> bound = getConstantIntValue(cmp.getRhs());
  return bound && *bound >= 1 && *bound <= minTrips;
}

/// For a dynamic trip count, upstream's epilogue keeps each value of its
/// part i as `arith.select (trips >= i), new, old` (the part may not run).
/// The pipelined loop runs only when the trip count is at least `minTrips`
/// (pk's version guard; the prologue, which upstream does not predicate,
/// relies on it too), so every such guard holds: the select is its new
/// value. This keeps both values from living in registers and the select
/// off types no lowering handles (`!nvgpu.warpgroup.accumulator`: upstream's
/// arith lowering leaves it as an unrealized cast). The selects the
/// pipeliner created lie between the new loop and `afterLoop` and are not
/// clones of the loop's ops (`cloned`).
static void foldEpilogueTripGuards(RewriterBase &rewriter, scf::ForOp newLoop,
                                   Operation *afterLoop,
                                   ArrayRef<Operation *> cloned,
                                   int64_t minTrips) {
  SmallPtrSet<Operation *, 32> clones(cloned.begin(), cloned.end());
  SmallVector<arith::SelectOp> selects;
  for (Operation *op = newLoop->getNextNode(); op && op != afterLoop;
       op = op->getNextNode())
    if (auto select = dyn_cast<arith::SelectOp>(op))
      if (!clones.contains(op) &&
          isHeldTripGuard(select.getCondition(), minTrips))
        selects.push_back(select);
  LDBG() << "folding " << selects.size()
         << " epilogue select(s) on the trip count (trips >= " << minTrips
         << " by the version guard)";
  for (arith::SelectOp select : selects)
    rewriter.replaceOp(select, select.getTrueValue());
}

DeclineOr<PipelinedKLoop> mlir::pk::detail::runPipeliner(
    RewriterBase &rewriter, scf::ForOp forOp, const Schedule &schedule,
    bool insertFinalBarrier, int64_t minTrips, bool testFailLate) {
  Block *body = forOp.getBody();
  if (schedule.reorderBody)
    for (auto &[op, stage] : schedule.order)
      op->moveBefore(body->getTerminator());

  scf::PipeliningOption options;
  options.getScheduleFn =
      [&](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &s) {
        s = schedule.order;
        // Testing only: an op without a stage makes the pipeliner bail.
        if (testFailLate && !s.empty())
          s.pop_back();
      };
  // Epilogue iteration k (0-based) computes tile n-D+k (D: the compute
  // stage, the copies' distance); no group is committed after the loop, so
  // its wait allows D-1-k pending groups.
  // The callback also collects the ops of the prologue and the epilogue.
  unsigned computeStage = schedule.computeStage;
  PipelinedKLoop result;
  options.annotateFn = [&](Operation *op,
                           scf::PipeliningOption::PipelinerPart part,
                           unsigned iteration) {
    if (part == scf::PipeliningOption::PipelinerPart::Prologue)
      result.prologue.push_back(op);
    else if (part == scf::PipeliningOption::PipelinerPart::Epilogue)
      result.epilogue.push_back(op);
    auto wait = dyn_cast<nvgpu::DeviceAsyncWaitOp>(op);
    if (!wait || part != scf::PipeliningOption::PipelinerPart::Epilogue ||
        computeStage < 2)
      return;
    int64_t pending = std::max<int64_t>(
        static_cast<int64_t>(computeStage) - 1 - iteration, 0);
    wait.setNumGroupsAttr(rewriter.getI32IntegerAttr(pending));
  };
  options.peelEpilogue = true;
  options.supportDynamicLoops = true;
  options.predicateFn = [](RewriterBase &, Operation *op, Value) { return op; };
  // The op after the loop survives the pipeliner, which emits the epilogue
  // right before it.
  Operation *afterLoop = forOp->getNextNode();
  Location loc = forOp.getLoc();
  // The pipeliner creates some values at the current insertion point.
  rewriter.setInsertionPoint(forOp);
  bool pipelinerModified = false;
  FailureOr<scf::ForOp> newLoop =
      scf::pipelineForLoop(rewriter, forOp, options, &pipelinerModified);
  if (failed(newLoop)) {
    LDBG() << "scf::pipelineForLoop rejected the schedule (it "
           << (pipelinerModified ? "had" : "had not")
           << " changed the IR) -> BAIL";
    return Decline(loc, "scf::pipelineForLoop rejected the schedule");
  }
  if (minTrips > 0)
    foldEpilogueTripGuards(rewriter, *newLoop, afterLoop, result.epilogue,
                           minTrips);
  if (schedule.mmaGroupsInFlight > 0) {
    // Retire the groups the last computes left in flight before anything
    // reads the accumulators or refills shared memory.
    rewriter.setInsertionPoint(afterLoop);
    result.epilogue.push_back(
        NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0));
  }
  if (insertFinalBarrier) {
    // The original loop ended with a barrier: keep one after the epilogue's
    // compute so that code after the loop may reuse shared memory.
    rewriter.setInsertionPoint(afterLoop);
    result.epilogue.push_back(gpu::BarrierOp::create(rewriter, loc));
  }
  result.loop = *newLoop;
  return result;
}
