//===- WarpSpecialize.cpp - schedule=warp-specialized of the TMA ring -----===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// schedule=warp-specialized (docs/hopper.md "Warp specialization"; the CUDA
// guide's partitioned producer/consumer pipeline, §4.11): after the TMA ring
// (TmaRing.cpp) gave the loop N stages on N "full" mbarriers, pk adds one
// producer warpgroup to the block and splits the loop between the roles:
//
//   if (tid < C) {                       // the kernel's C threads: consumers
//     scf.for t {                        //   wait full[t % N], parity t/N
//       wait full; compute tile t        //   compute (wgmma)
//       arrive empty[(t - g) % N]        //   release the stage whose wgmma
//     }                                  //   retired (g groups in flight)
//     code after the loop                //   named barrier 1 of C threads
//   } else if (tid == C) {               // one producer thread
//     scf.for t {                        //   wait empty[t % N], parity
//       wait empty; expect_tx; TMA loads //   (t/N + 1) % 2 (free at first)
//     }
//   }
//
// The consumers keep their thread ids, so the compute needs no renumbering;
// `gpu.block_dim x` becomes the constant C and the kernel's
// `known_block_size` (and the launches in the module) C + 128.
// Tests: test/e2e/pk-pipeline-kloops.test (WS-*),
// test/pk-pipeline-kloops-invalid .mlir (WS-*).
//
//===----------------------------------------------------------------------===//

#include "pk/PipelineSteps.h"

#include "pk/Support.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-warp-specialize"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

/// The named barrier the consumers synchronize on instead of the CTA
/// barrier (0), which the producer warpgroup does not reach.
static constexpr int32_t kConsumerBarrierId = 1;

/// The kernel's block size when it is (C, 1, 1) with C a multiple of 128
/// that leaves room for the producer warpgroup.
static DeclineOr<int64_t> getConsumerThreads(gpu::GPUFuncOp kernel) {
  std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize();
  if (!known || known->size() != 3 || (*known)[1] != 1 || (*known)[2] != 1)
    return Decline(kernel, "schedule=warp-specialized adds a producer "
                           "warpgroup to the block, so the kernel needs a "
                           "one-dimensional known_block_size (C, 1, 1) that "
                           "pk can grow");
  int64_t threads = (*known)[0];
  if (threads % kProducerThreads != 0 || threads + kProducerThreads > 1024)
    return Decline(kernel, "schedule=warp-specialized needs a block of whole "
                           "warpgroups with room for one more (at most 896 "
                           "threads); the kernel has " +
                               Twine(threads));
  return threads;
}

/// Whether `op` may write memory: its declared effects, those of the ops it
/// holds when its effects are theirs, and a write when nothing is declared.
static bool writesMemory(Operation *op) {
  if (isMemoryEffectFree(op))
    return false;
  if (auto effects = dyn_cast<MemoryEffectOpInterface>(op))
    if (effects.hasEffect<MemoryEffects::Write>())
      return true;
  if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return !isa<MemoryEffectOpInterface>(op);
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps())
      if (writesMemory(&nested))
        return true;
  return false;
}

/// Whether `op`, before the K-loop, may run on the producer warpgroup too:
/// it writes no memory, or it is the mbarrier setup (creation, init and
/// fences, under any condition: thread c < C runs it) or a CTA barrier that
/// every thread reaches (not under a condition, which the producer's
/// threads might not take).
static bool isSafeForProducer(Operation *op, bool conditional = false) {
  if (isa<nvgpu::MBarrierCreateOp, nvgpu::MBarrierInitOp, NVVM::FenceProxyOp,
          NVVM::FenceMbarrierInitOp, nvgpu::TmaPrefetchOp,
          nvgpu::WarpgroupMmaInitAccumulatorOp, NVVM::ElectSyncOp,
          scf::YieldOp>(op))
    return true;
  if (isa<gpu::BarrierOp, NVVM::Barrier0Op>(op) || isClusterBarrierOp(op))
    return !conditional;
  if (isa<scf::IfOp>(op))
    return llvm::all_of(op->getRegions(), [](Region &region) {
      return llvm::all_of(region.getOps(), [](Operation &nested) {
        return isSafeForProducer(&nested, /*conditional=*/true);
      });
    });
  return !writesMemory(op);
}

/// Whether `op` reads the thread's position in the block, which the
/// producer's thread does not share with the thread that issued the loads.
static bool readsThreadPosition(Operation *op) {
  if (isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  return name.starts_with("nvvm.read.ptx.sreg.tid") ||
         name.starts_with("nvvm.read.ptx.sreg.laneid") ||
         name.starts_with("nvvm.read.ptx.sreg.warpid");
}

static Operation *findThreadDependence(Value value, DenseSet<Value> &visited);

/// The first op reading the thread's position among everything `op` reads:
/// its operands and, for the ops it holds, theirs (a conservative answer
/// for an op with regions whose data flow pk does not follow).
static Operation *findThreadDependenceOfOp(Operation *op,
                                           DenseSet<Value> &visited) {
  Operation *found = nullptr;
  op->walk([&](Operation *nested) {
    if (found)
      return WalkResult::interrupt();
    if (readsThreadPosition(nested)) {
      found = nested;
      return WalkResult::interrupt();
    }
    for (Value operand : nested->getOperands())
      if ((found = findThreadDependence(operand, visited)))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found;
}

/// The first of `values` that depends on the thread's position.
static Operation *findThreadDependenceOfAny(ValueRange values,
                                            DenseSet<Value> &visited) {
  for (Value value : values)
    if (Operation *found = findThreadDependence(value, visited))
      return found;
  return nullptr;
}

/// Result or iteration argument #`index` of `forOp`: its bounds, step,
/// initial value and yielded value.
static Operation *findThreadDependenceOfLoopValue(scf::ForOp forOp,
                                                  unsigned index,
                                                  DenseSet<Value> &visited) {
  if (Operation *found = findThreadDependenceOfAny(
          {forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep(),
           forOp.getInitArgs()[index]},
          visited))
    return found;
  return findThreadDependence(forOp.getYieldedValues()[index], visited);
}

/// The first op reading the thread's position among the producers of
/// `value`, in the loop or before it: through operands; through the
/// condition and yielded values of the `scf.if` a result comes out of;
/// through the bounds, initial and yielded values of an `scf.for` result or
/// iteration argument (the bounds for its induction variable); through
/// every op of another region op. Kernel arguments depend on no thread.
static Operation *findThreadDependence(Value value, DenseSet<Value> &visited) {
  if (!visited.insert(value).second)
    return nullptr;
  if (Operation *def = value.getDefiningOp()) {
    if (readsThreadPosition(def))
      return def;
    unsigned index = cast<OpResult>(value).getResultNumber();
    if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      SmallVector<Value> sources{ifOp.getCondition()};
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
        if (!region->empty())
          sources.push_back(region->front().getTerminator()->getOperand(index));
      return findThreadDependenceOfAny(sources, visited);
    }
    if (auto forOp = dyn_cast<scf::ForOp>(def))
      return findThreadDependenceOfLoopValue(forOp, index, visited);
    if (def->getNumRegions() == 0)
      return findThreadDependenceOfAny(def->getOperands(), visited);
    return findThreadDependenceOfOp(def, visited);
  }
  auto arg = cast<BlockArgument>(value);
  Operation *owner = arg.getOwner()->getParentOp();
  if (!owner || isa<gpu::GPUFuncOp>(owner))
    return nullptr;
  if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
    if (arg == forOp.getInductionVar())
      return findThreadDependenceOfAny(
          {forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()},
          visited);
    return findThreadDependenceOfLoopValue(
        forOp, arg.getArgNumber() - forOp.getNumInductionVars(), visited);
  }
  return findThreadDependenceOfOp(owner, visited);
}

/// Whether `predicate` elects one thread of the block for the whole loop:
/// `gpu.thread_id x == c` defined outside `forOp`.
static bool isOneThreadPredicate(Value predicate, scf::ForOp forOp) {
  auto cmp = predicate ? predicate.getDefiningOp<arith::CmpIOp>() : nullptr;
  if (!cmp || forOp->isAncestor(cmp) ||
      cmp.getPredicate() != arith::CmpIPredicate::eq)
    return false;
  auto isTidX = [](Value v) {
    auto tid = v.getDefiningOp<gpu::ThreadIdOp>();
    return tid && tid.getDimension() == gpu::Dimension::x;
  };
  return (isTidX(cmp.getLhs()) && getConstantIntValue(cmp.getRhs())) ||
         (isTidX(cmp.getRhs()) && getConstantIntValue(cmp.getLhs()));
}

/// The load phase moves to the producer: it may not read the loop's
/// iteration arguments, nor write memory but through the TMA protocol, and
/// one thread issues it.
static DeclineOr<void> checkProducerLoadPhase(const KLoopInfo &info) {
  scf::ForOp forOp = info.forOp;
  TmaLoadPhase tma = *info.tma;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    if (&op == tma.wait.getOperation())
      break;
    bool readsIterArgs = false;
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (llvm::is_contained(forOp.getRegionIterArgs(), operand))
          readsIterArgs = true;
    });
    if (readsIterArgs ||
        (!isa<nvgpu::MBarrierArriveExpectTxOp, nvgpu::TmaAsyncLoadOp>(op) &&
         !isMemoryEffectFree(&op)))
      return Decline(&op, Twine("schedule=warp-specialized moves the load "
                                "phase to a producer warpgroup; this op ") +
                              (readsIterArgs
                                   ? "reads the loop's iteration arguments"
                                   : "writes memory besides the TMA loads"));
  }
  // The loads' coordinates, destinations and barrier: the issuing thread c
  // computed them; the producer's thread C would compute others. (The
  // predicate is the one-thread election, checked below.)
  DenseSet<Value> visited;
  Value predicate = tma.expectTx.getPredicate();
  SmallVector<Operation *> issued(tma.loads.begin(), tma.loads.end());
  issued.push_back(tma.expectTx);
  for (Operation *op : issued)
    for (Value operand : op->getOperands())
      if (operand != predicate)
        if (Operation *found = findThreadDependence(operand, visited))
          return Decline(op, "schedule=warp-specialized gives the TMA loads "
                             "to one producer thread; the operands of this op "
                             "depend on the thread's position, which the "
                             "producer's thread does not share")
              .attachNote(found->getLoc(), "the thread's position is read "
                                           "here");
  Value ticks = tma.wait.getTicks();
  if (forOp->isAncestor(ticks.getParentBlock()->getParentOp()) &&
      !getConstantIntValue(ticks))
    return Decline(tma.wait, "schedule=warp-specialized gives the producer a "
                             "wait of its own; the ticks of this "
                             "nvgpu.mbarrier.try_wait.parity must be a "
                             "constant or defined before the loop");
  if (!isOneThreadPredicate(tma.expectTx.getPredicate(), forOp))
    return Decline(tma.expectTx,
                   "schedule=warp-specialized gives the TMA loads to one "
                   "producer thread; their predicate must be "
                   "`gpu.thread_id x == c`, defined before the loop");
  return success();
}

/// The code around the loop: the loop sits in the kernel's body, what runs
/// before it is safe on the producer warpgroup, and no op depends on the
/// block size or a named barrier pk would change.
static DeclineOr<void> checkKernelShape(const KLoopInfo &info) {
  scf::ForOp forOp = info.forOp;
  gpu::GPUFuncOp kernel = info.kernel;
  if (forOp->getParentOp() != kernel.getOperation() ||
      !kernel.getBody().hasOneBlock())
    return Decline(forOp, "schedule=warp-specialized splits the kernel body "
                          "at the K-loop; the loop must sit directly in a "
                          "one-block gpu.func body");
  for (Operation *op = &forOp->getBlock()->front(); op != forOp;
       op = op->getNextNode())
    if (!isSafeForProducer(op))
      return Decline(op, "schedule=warp-specialized runs the code before the "
                         "K-loop on the producer warpgroup too; this op "
                         "writes memory or synchronizes under a condition");
  Operation *bad = nullptr;
  kernel.walk([&](Operation *op) {
    if (isa<gpu::GlobalIdOp, gpu::NumSubgroupsOp, NVVM::BarrierOp,
            NVVM::BarrierArriveOp, CallOpInterface>(op) ||
        op->getName().getStringRef().starts_with("nvvm.read.ptx.sreg.ntid"))
      bad = op;
  });
  if (bad)
    return Decline(bad, "schedule=warp-specialized grows the block and uses "
                        "named barrier 1; this '" +
                            bad->getName().getStringRef() +
                            "' would change meaning");
  return success();
}

/// The launches of `kernel` in the enclosing modules, each of which must
/// have the constant block size (C, 1, 1).
static DeclineOr<SmallVector<gpu::LaunchFuncOp>>
getLaunches(gpu::GPUFuncOp kernel, int64_t threads) {
  SmallVector<gpu::LaunchFuncOp> launches;
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  Operation *top = gpuModule ? gpuModule->getParentOp() : nullptr;
  if (!top)
    return launches;
  std::optional<Decline> bad;
  top->walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() != gpuModule.getNameAttr() ||
        launch.getKernelName() != kernel.getNameAttr())
      return;
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    std::optional<int64_t> x = getConstantIntValue(block.x);
    std::optional<int64_t> y = getConstantIntValue(block.y);
    std::optional<int64_t> z = getConstantIntValue(block.z);
    if (!bad && (!x || *x != threads || !y || *y != 1 || !z || *z != 1))
      bad = Decline(launch, "schedule=warp-specialized grows the block by a "
                            "producer warpgroup; this gpu.launch_func does "
                            "not launch the kernel's constant "
                            "known_block_size")
                .attachNote(kernel.getLoc(), "the kernel");
    launches.push_back(launch);
  });
  if (bad)
    return std::move(*bad);
  return launches;
}

DeclineOr<void>
mlir::pk::detail::checkWarpSpecialization(const KLoopInfo &info) {
  gpu::GPUFuncOp kernel = info.kernel;
  DeclineOr<int64_t> threads = getConsumerThreads(kernel);
  if (failed(threads))
    return threads.takeDecline();
  if (DeclineOr<void> shape = checkKernelShape(info); failed(shape))
    return shape;
  if (DeclineOr<void> loads = checkProducerLoadPhase(info); failed(loads))
    return loads;
  if (DeclineOr<SmallVector<gpu::LaunchFuncOp>> launches =
          getLaunches(kernel, *threads);
      failed(launches))
    return launches.takeDecline();
  return success();
}

namespace {
/// Splits one TMA-ring K-loop into producer and consumer roles.
class WarpSpecializer {
public:
  WarpSpecializer(RewriterBase &rewriter, const KLoopInfo &info, int64_t stages,
                  Operation *waitStart, bool mmaInFlight)
      : rewriter(rewriter), info(info), tma(*info.tma), forOp(info.forOp),
        kernel(info.kernel), computeBarrier(info.computeBarrier),
        loc(forOp.getLoc()), stages(stages), waitStart(waitStart),
        mmaInFlight(mmaInFlight), consumers((*kernel.getKnownBlockSize())[0]),
        remoteReleases(getRemoteReleasesPerStage(info, consumers)) {}

  PipelinedKLoop run();

private:
  void createEmptyBarriers();
  scf::ForOp buildProducerLoop();
  void releaseStagesInConsumer();
  Operation *createConsumerBarrier(Location at);
  void splitRoles(scf::ForOp producer);
  void growBlock();

  Value createIndex(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }

  RewriterBase &rewriter;
  const KLoopInfo &info;
  // The ops are handles; the analysis result stays const.
  TmaLoadPhase tma;
  scf::ForOp forOp;
  gpu::GPUFuncOp kernel;
  gpu::BarrierOp computeBarrier;
  Location loc;
  int64_t stages;
  Operation *waitStart;
  bool mmaInFlight;
  int64_t consumers;
  /// Releases of each stage by the other blocks of the cluster.
  int64_t remoteReleases;
  Value empty;
  PipelinedKLoop result;
};
} // namespace

/// N "empty" barriers next to the full ones, each initialised wherever the
/// full barrier was, with one arrival per consumer thread (and, in a
/// cluster, one per consumer warp of each other block).
void WarpSpecializer::createEmptyBarriers() {
  nvgpu::MBarrierCreateOp full = tma.create;
  rewriter.setInsertionPointAfter(full);
  empty = nvgpu::MBarrierCreateOp::create(rewriter, loc,
                                          full.getBarriers().getType());
  for (nvgpu::MBarrierInitOp init : tma.inits) {
    rewriter.setInsertionPoint(init);
    Value count = createIndex(consumers + remoteReleases);
    for (int64_t i = 0; i < stages; ++i) {
      Value index = createIndex(i);
      auto clone = cast<nvgpu::MBarrierInitOp>(rewriter.clone(*init));
      rewriter.modifyOpInPlace(clone, [&] {
        clone.getBarriersMutable().assign(empty);
        clone.getCountMutable().assign(count);
        clone.getMbarIdMutable().assign(index);
      });
    }
  }
}

/// The producer: the load phase of every tile, each after the consumers
/// released its stage (tile t waits for the release of tile t - N; on the
/// first lap parity 1 passes at once), its loads unpredicated (one thread
/// runs the loop).
scf::ForOp WarpSpecializer::buildProducerLoop() {
  rewriter.setInsertionPoint(forOp);
  auto producer = scf::ForOp::create(rewriter, loc, forOp.getLowerBound(),
                                     forOp.getUpperBound(), forOp.getStep());
  producer->setAttrs(forOp->getDiscardableAttrDictionary());
  rewriter.setInsertionPointToStart(producer.getBody());
  Value tile = createTileIndex(rewriter, loc, producer);
  Value count = createIndex(stages);
  Value stage = arith::RemUIOp::create(rewriter, loc, tile, count);
  Value lap = arith::DivUIOp::create(rewriter, loc, tile, count);
  Value parity = arith::IndexCastOp::create(
      rewriter, loc, rewriter.getI1Type(),
      arith::RemUIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, lap, createIndex(1)),
          createIndex(2)));
  Value ticks = tma.wait.getTicks();
  if (forOp->isAncestor(ticks.getParentBlock()->getParentOp()))
    ticks = createIndex(*getConstantIntValue(ticks));
  nvgpu::MBarrierTryWaitParityOp::create(rewriter, loc, empty, parity, ticks,
                                         stage);
  IRMapping mapping;
  mapping.map(forOp.getInductionVar(), producer.getInductionVar());
  for (Operation &op : forOp.getBody()->without_terminator()) {
    if (&op == waitStart)
      break;
    Operation *clone = rewriter.clone(op, mapping);
    if (auto expect = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(clone))
      rewriter.modifyOpInPlace(expect,
                               [&] { expect.getPredicateMutable().clear(); });
    if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(clone))
      rewriter.modifyOpInPlace(load,
                               [&] { load.getPredicateMutable().clear(); });
  }
  return producer;
}

/// Whether the compute phase (from `waitStart` to the barrier) writes memory
/// that the consumers may share (a shared scratch, global memory): the
/// consumers then keep a barrier of their own where the CTA barrier was.
/// The wait and the wgmma, which reads the tiles, do not count.
static bool computePhaseWrites(scf::ForOp forOp, Operation *waitStart,
                               Operation *barrier) {
  bool inCompute = false;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    inCompute |= &op == waitStart;
    if (!inCompute || &op == barrier ||
        isa<nvgpu::MBarrierTryWaitParityOp, nvgpu::WarpgroupMmaOp,
            nvgpu::WarpgroupGenerateDescriptorOp>(op))
      continue;
    if (writesMemory(&op))
      return true;
  }
  return false;
}

/// The consumer keeps the wait and the compute; its barrier after the
/// compute becomes the release of the stage whose wgmma groups retired:
/// tile t's (every group retired), or with one group in flight tile t-1's
/// (from the second tile on, and every group retires after the loop).
void WarpSpecializer::releaseStagesInConsumer() {
  // The empty barriers release the stages (across the cluster) instead of
  // the loop's cluster barrier.
  if (tma.clusterArrive) {
    rewriter.eraseOp(tma.clusterWait);
    rewriter.eraseOp(tma.clusterArrive);
  }
  rewriter.eraseOp(tma.expectTx);
  for (nvgpu::TmaAsyncLoadOp load : tma.loads)
    rewriter.eraseOp(load);
  // The load phase's addressing now only feeds the producer.
  SmallVector<Operation *> loadPhase;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    if (&op == waitStart)
      break;
    loadPhase.push_back(&op);
  }
  for (Operation *op : llvm::reverse(loadPhase))
    if (op->use_empty() && isMemoryEffectFree(op))
      rewriter.eraseOp(op);

  rewriter.setInsertionPoint(computeBarrier);
  if (computePhaseWrites(forOp, waitStart, computeBarrier))
    createConsumerBarrier(computeBarrier.getLoc());
  Value stage = tma.wait.getMbarId();
  auto tokenType = nvgpu::MBarrierTokenType::get(rewriter.getContext());
  bool cluster = remoteReleases > 0;
  if (!mmaInFlight) {
    nvgpu::MBarrierArriveOp::create(rewriter, loc, tokenType, empty, stage);
    if (cluster)
      createRemoteReleases(rewriter, loc, info, empty, stage);
  } else {
    setMmaGroupsInFlight(rewriter, forOp, 1);
    Value notFirst =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                              forOp.getInductionVar(), forOp.getLowerBound());
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, notFirst,
                                  /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Value previous = arith::RemUIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, stage, createIndex(stages - 1)),
        createIndex(stages));
    nvgpu::MBarrierArriveOp::create(rewriter, loc, tokenType, empty, previous);
    if (cluster)
      createRemoteReleases(rewriter, loc, info, empty, previous);
    rewriter.setInsertionPointAfter(forOp);
    result.epilogue.push_back(
        NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0));
  }
  rewriter.eraseOp(computeBarrier);
}

/// Named barrier 1 of the C consumer threads at the insertion point.
Operation *WarpSpecializer::createConsumerBarrier(Location at) {
  Value id = arith::ConstantIntOp::create(rewriter, at, kConsumerBarrierId, 32);
  Value count = arith::ConstantIntOp::create(rewriter, at, consumers, 32);
  return NVVM::BarrierOp::create(rewriter, at, Type(), id, count,
                                 NVVM::BarrierReductionAttr(), Value());
}

/// `if (tid < C) { loop; rest of the kernel } else if (tid == C) {
/// producer }`. Every CTA barrier the consumers run becomes named barrier 1
/// of the C consumer threads: the producer warpgroup never reaches them.
void WarpSpecializer::splitRoles(scf::ForOp producer) {
  Block *body = forOp->getBlock();
  rewriter.setInsertionPoint(forOp);
  Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value threads = createIndex(consumers);
  Value isConsumer = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ult, tid, threads);
  auto roles = scf::IfOp::create(rewriter, loc, TypeRange{}, isConsumer,
                                 /*withElseRegion=*/true);
  SmallVector<Operation *> tail;
  for (Operation *op = forOp; op != body->getTerminator();
       op = op->getNextNode())
    tail.push_back(op);
  for (Operation *op : tail)
    rewriter.moveOpBefore(op, roles.thenBlock()->getTerminator());
  SmallVector<Operation *> barriers;
  roles.getThenRegion().walk([&](Operation *op) {
    if (isa<gpu::BarrierOp, NVVM::Barrier0Op>(op))
      barriers.push_back(op);
  });
  for (Operation *barrier : barriers) {
    rewriter.setInsertionPoint(barrier);
    createConsumerBarrier(barrier->getLoc());
    rewriter.eraseOp(barrier);
  }
  // Code after the loop may reuse shared memory: every consumer finished
  // the loop first (as the pipeliner's barrier after its epilogue).
  rewriter.setInsertionPointAfter(
      result.epilogue.empty() ? forOp.getOperation() : result.epilogue.back());
  result.epilogue.push_back(createConsumerBarrier(loc));

  rewriter.setInsertionPoint(roles.elseBlock()->getTerminator());
  Value isLeader = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq, tid, threads);
  auto leader = scf::IfOp::create(rewriter, loc, TypeRange{}, isLeader,
                                  /*withElseRegion=*/false);
  rewriter.moveOpBefore(producer, leader.thenBlock()->getTerminator());
  result.prologue.push_back(producer);
  // No block of the cluster leaves while another may still release a stage
  // on its barriers.
  if (remoteReleases > 0) {
    rewriter.setInsertionPointAfter(roles);
    createClusterBarrier(rewriter, loc);
  }
}

/// `gpu.block_dim x` is the consumers' C; the kernel and its launches get
/// C + 128 threads.
void WarpSpecializer::growBlock() {
  SmallVector<gpu::BlockDimOp> dims;
  kernel.walk([&](gpu::BlockDimOp dim) {
    if (dim.getDimension() == gpu::Dimension::x)
      dims.push_back(dim);
  });
  for (gpu::BlockDimOp dim : dims) {
    rewriter.setInsertionPoint(dim);
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(dim, consumers);
  }
  int32_t total = static_cast<int32_t>(consumers + kProducerThreads);
  // A launch of another block size would hang (no producer) or race: PTX
  // .reqntid makes it fail instead.
  rewriter.modifyOpInPlace(kernel, [&] {
    kernel.setKnownBlockSizeAttr(rewriter.getDenseI32ArrayAttr({total, 1, 1}));
    kernel->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                    rewriter.getDenseI32ArrayAttr({total, 1, 1}));
    kernel->removeAttr(NVVM::NVVMDialect::getMaxntidAttrName());
    kernel->setAttr(kWarpSpecializedAttrName, rewriter.getUnitAttr());
  });
  // Thread ids now range over the grown block.
  kernel.walk([&](gpu::ThreadIdOp tid) {
    if (tid.getUpperBoundAttr())
      rewriter.modifyOpInPlace(
          tid, [&] { tid.setUpperBoundAttr(rewriter.getIndexAttr(total)); });
  });
  // checkWarpSpecialization checked the launches.
  DeclineOr<SmallVector<gpu::LaunchFuncOp>> launches =
      getLaunches(kernel, consumers);
  for (gpu::LaunchFuncOp launch : *launches) {
    rewriter.setInsertionPoint(launch);
    Value x = arith::ConstantIndexOp::create(rewriter, launch.getLoc(), total);
    rewriter.modifyOpInPlace(launch,
                             [&] { launch.getBlockSizeXMutable().assign(x); });
  }
}

PipelinedKLoop WarpSpecializer::run() {
  // The launches are checked against the original block size.
  createEmptyBarriers();
  scf::ForOp producer = buildProducerLoop();
  releaseStagesInConsumer();
  splitRoles(producer);
  growBlock();
  result.loop = forOp;
  LDBG() << "warp-specialized " << locationToString(loc) << ": " << consumers
         << " consumer threads, " << stages << " stages"
         << (mmaInFlight ? ", one wgmma group in flight" : "");
  return result;
}

PipelinedKLoop mlir::pk::detail::warpSpecialize(RewriterBase &rewriter,
                                                const KLoopInfo &info,
                                                int64_t stages,
                                                Operation *waitStart,
                                                bool mmaInFlight) {
  return WarpSpecializer(rewriter, info, stages, waitStart, mmaInFlight).run();
}
