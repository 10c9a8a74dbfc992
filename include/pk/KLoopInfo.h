//===- KLoopInfo.h - What a matched K-loop is and does ----------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The result of the first stage of pk's data flow (docs/architecture.md):
// a K-loop of the input contract (docs/input-contract.md), matched by
// KLoopMatcher.h and measured, independent of any target. A `gpu.func`
// kernel holds an `scf.for` K-loop whose body is, in order,
//
//   load phase:    global -> shared copies (vector.load / transfer_read /
//                  memref.load feeding vector.store / transfer_write /
//                  memref.store), possibly in small nested scf.for loops
//   gpu.barrier
//   compute phase: reads of shared memory (nvgpu.ldmatrix, vector.load,
//                  memref.load, ...) and mma.sync / vector.contract /
//                  multiply-adds, possibly in nested scf.for loops; or
//                  wgmma: nvgpu.warpgroup.generate.descriptor of shared
//                  buffers and nvgpu.warpgroup.mma (docs/hopper.md), with
//                  an nvvm.fence.proxy <async.shared> after the stores
//                  (before or after the barrier)
//   gpu.barrier
//   scf.yield      accumulators
//
// or the TMA form (TmaLoadPhase).
//
//===----------------------------------------------------------------------===//

#ifndef PK_KLOOPINFO_H
#define PK_KLOOPINFO_H

#include "pk/Enums.h"
#include "pk/IRContract.h"
#include "pk/Support.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <string>

namespace mlir {
namespace pk {

/// One shared-memory buffer of the kernel.
struct SharedBuffer {
  /// The root memref value: the attribution block argument, the
  /// `memref.get_global` result or the `memref.alloc` result.
  Value root;
  SharedBufferKind kind;
  MemRefType type;
  /// Symbol of the `memref.global` (kind == Global).
  StringAttr globalName;
  /// Size in bytes.
  int64_t bytes = 0;
  /// Whether the load phase of the K-loop writes it (multi-buffering
  /// replicates exactly these).
  bool copied = false;
  /// For copied buffers: the global memref (kernel argument or other value)
  /// the data comes from, when it is unique.
  Value source;
  /// A printable name: "workgroup attribution #0", "@smem_a", ...
  std::string name;
};

/// One global -> shared copy: a global read and the shared write(s) of the
/// value it produced.
struct TileCopy {
  /// The global read (vector.load, vector.transfer_read, memref.load).
  Operation *load;
  /// The shared writes of its value (vector.store, vector.transfer_write,
  /// memref.store).
  SmallVector<Operation *, 1> stores;
  /// Bytes read by one execution of `load`.
  int64_t bytesPerExecution = 0;
  /// Executions per K-iteration per thread (product of the trip counts of the
  /// nested loops around it inside the K-loop body).
  int64_t executions = 1;
  /// Index into KLoopInfo::buffers of the buffer written (by the last
  /// store: a load may be stored into several buffers, storeBuffers).
  unsigned bufferIndex = 0;
  /// The buffer each of `stores` writes, in order.
  SmallVector<unsigned, 1> storeBuffers;

  /// The buffer `store` (one of `stores`) writes.
  unsigned getStoreBuffer(Operation *store) const {
    for (auto [s, buffer] : llvm::zip_equal(stores, storeBuffers))
      if (s == store)
        return buffer;
    return bufferIndex;
  }
  /// The copy is already an `nvgpu.device_async_copy` (load == the only
  /// store): only the cp-async variant applies.
  bool async = false;
  /// The copy is an `nvgpu.tma.async.load` (load == the only store; one
  /// thread issues it, the mbarrier of KLoopInfo::tma completes it): only
  /// the tma variant applies.
  bool tma = false;
};

/// One warpgroup MMA (`nvgpu.warpgroup.mma`, Hopper's wgmma) of the compute
/// phase: asynchronous, it reads its operands from shared memory through
/// descriptors until its wgmma group has retired.
struct WarpgroupMma {
  /// The `nvgpu.warpgroup.mma`.
  Operation *op = nullptr;
  /// The GEMM shape of the op (A: m x k, B: k x n), FP16/BF16/... operands.
  int64_t m = 0, n = 0, k = 0;
  /// wgmma groups the op leaves in flight when it returns (its `waitGroup`,
  /// lowered to `wgmma.wait_group`); 0: its shared reads are over.
  int64_t waitGroup = 0;
  /// Whether the op's group has retired when the iteration ends: it waits
  /// for every group (waitGroup = 0), or a later wgmma directly in the same
  /// block does (groups retire in order). The fp8 kernels chain one wgmma
  /// per k-step, and only the last one waits.
  bool retiredInIteration = false;
  /// Indices into KLoopInfo::buffers of the shared buffers the A and B
  /// descriptors (`nvgpu.warpgroup.generate.descriptor`) point into.
  unsigned bufferA = 0, bufferB = 0;
  /// 32-bit accumulator registers per thread (m x n elements over the 128
  /// threads of the warpgroup).
  int64_t accumulatorRegs = 0;
  /// Executions per K-iteration (nested loops inside the K-loop body).
  int64_t executions = 1;
  /// Whether a proxy fence (KLoopInfo::proxyFences) lies between the load
  /// phase's shared stores and this op. The stores go through the generic
  /// proxy, wgmma reads through the async proxy: without
  /// `fence.proxy.async` it may read stale data (the kernel races).
  bool proxyFenced = false;
  /// Whether the accumulator is a chain only wgmma ops touch: an iter_arg of
  /// the K-loop that only one op (directly in the body) uses, each op's
  /// result used only by the next op of the chain, the last one's only by
  /// the yield that carries it to the next iteration. Then the op may leave
  /// its group in flight into the next iteration (schedule=mma-in-flight).
  bool accumulatorChained = false;
  /// Whether the accumulator operand is another wgmma's result (a k-step of
  /// a chain): the chain's registers are counted once, at its first op.
  bool accumulatorFromWgmma = false;
};

/// The load phase of a TMA K-loop (variant tma; docs/hopper.md "TMA
/// ring"): the issuing threads announce the tile's bytes on one mbarrier
/// (`nvgpu.mbarrier.arrive.expect_tx`) and start `nvgpu.tma.async.load`s
/// that complete on it; every thread then waits for the barrier's phase of
/// this tile (`nvgpu.mbarrier.try_wait.parity`, parity t % 2). The wait
/// ends the load phase as the load barrier does in the thread-copy form.
struct TmaLoadPhase {
  /// The mbarrier group (one barrier) and the op that creates it.
  nvgpu::MBarrierCreateOp create;
  /// Its `nvgpu.mbarrier.init`s, before the loop.
  SmallVector<nvgpu::MBarrierInitOp> inits;
  nvgpu::MBarrierArriveExpectTxOp expectTx;
  SmallVector<nvgpu::TmaAsyncLoadOp> loads;
  nvgpu::MBarrierTryWaitParityOp wait;
  /// Bytes the loads of one tile write (the expect_tx count).
  int64_t bytesPerTile = 0;
  /// A cluster's loop (docs/hopper.md "Clusters"): the cluster barrier
  /// (`nvvm.cluster.arrive[.relaxed]` directly followed by
  /// `nvvm.cluster.wait`) after
  /// the compute, before the compute barrier: every block of the cluster
  /// retired its compute of the tiles before any block's next loads, which
  /// may multicast into the others' tiles. Null without one.
  Operation *clusterArrive = nullptr, *clusterWait = nullptr;
  /// The kernel's blocks per cluster (`nvvm.cluster_dim`); 1 without.
  int64_t clusterSize = 1;
  /// How many of the loads multicast (`multicast_mask`: to every block of
  /// the cluster). Counted by the matcher: the transforms erase the loads.
  int64_t multicastLoads = 0;
};

/// Whether `op` is half of a cluster barrier: `nvvm.cluster.arrive`,
/// `nvvm.cluster.arrive.relaxed` or `nvvm.cluster.wait`.
bool isClusterBarrierOp(Operation *op);

/// What a matched K-loop is and does, independent of the target.
struct KLoopInfo {
  scf::ForOp forOp;
  gpu::GPUFuncOp kernel;
  /// Static trip count, if known.
  std::optional<int64_t> tripCount;
  /// The two barriers: after the load phase, after the compute phase. A TMA
  /// loop has no load barrier (its mbarrier wait ends the load phase).
  gpu::BarrierOp loadBarrier, computeBarrier;
  /// The loop is the barrier-first rotation of the cycle (IREE's form):
  /// `gpu.barrier; load; gpu.barrier; compute; scf.yield`. Then
  /// `computeBarrier` is the body's first operation; the transform rotates
  /// it to the end of the body (and puts a barrier before the loop) before
  /// anything else (rotateBarrierFirst).
  bool barrierFirst = false;
  /// The TMA form of the load phase, if the loop has it.
  std::optional<TmaLoadPhase> tma;
  /// The tile epilogue of a flattened persistent loop (TileLoops.h): an
  /// `scf.if` of the compute phase that runs on each tile's last k-step,
  /// writes global memory only and hands the next tile its accumulators.
  scf::IfOp tileEpilogue;
  /// The op that ends the load phase: the load barrier, or the TMA wait.
  Operation *getLoadPhaseEnd() const {
    if (tma)
      return tma->wait;
    return loadBarrier;
  }
  /// Barriers between the copies of the load phase (upstream puts one after
  /// each thread-mapped copy); the copies on their two sides write different
  /// buffers, and pipelining drops them.
  SmallVector<gpu::BarrierOp> innerLoadBarriers;
  /// The `nvgpu.device_async_create_group` / `device_async_wait` of copies
  /// that are already asynchronous; pipelining replaces them.
  SmallVector<Operation *> asyncGroupOps;
  /// The generic -> async proxy fences (`nvvm.fence.proxy` of kind `async`
  /// or `async.shared`, fence.proxy.async) directly in the K-loop body, in
  /// either phase: what makes the load phase's shared stores visible to a
  /// wgmma (docs/hopper.md). Pipelining keeps each between the stores of a
  /// tile and the compute that reads it.
  SmallVector<Operation *> proxyFences;

  /// The compute phase keeps (some) accumulators in global memory at fixed
  /// addresses instead of iter_args.
  bool memoryAccumulators = false;

  /// Whether some copy is already an `nvgpu.device_async_copy`.
  bool hasAsyncCopies() const {
    return llvm::any_of(copies, [](const TileCopy &c) { return c.async; });
  }
  /// Whether the loop computes with wgmma and every accumulator forms a
  /// chain (WarpgroupMma::accumulatorChained): a wgmma group may then stay
  /// in flight into the next iteration.
  bool hasChainedWgmmas() const {
    return !warpgroupMmas.empty() &&
           llvm::all_of(warpgroupMmas, [](const WarpgroupMma &mma) {
             return mma.accumulatorChained;
           });
  }
  /// Operations of the K-loop body in each phase (direct children).
  SmallVector<Operation *> loadPhase, computePhase;
  /// The global -> shared copies of the load phase.
  SmallVector<TileCopy> copies;
  /// All shared buffers of the kernel (single-buffered, as written).
  SmallVector<SharedBuffer> buffers;
  /// Threads per block (from gpu.known_block_size, nvvm.reqntid,
  /// nvvm.maxntid or the caller), 0 if unknown.
  int64_t threadsPerBlock = 0;
  /// The dynamic shared memory pk placed and recorded on the kernel
  /// (kDynamicSharedMemoryAttrName), in bytes.
  int64_t dynamicSharedBytes = 0;
  /// All shared memory of the kernel as written, in bytes.
  int64_t smemSingleBytes = 0;
  /// The part multi-buffering replicates (the copied buffers), in bytes.
  int64_t smemPerStageBytes = 0;
  /// Bytes read from global memory per K-iteration by one thread, and by
  /// the whole block.
  int64_t loadBytesPerThread = 0;
  int64_t loadBytesPerTile = 0;
  /// FLOPs of one K-iteration for the whole block on tensor cores
  /// (mma.sync; `mmaInt8` when the operands are 8-bit) and on the FMA pipes.
  int64_t mmaFlopsPerTile = 0, fmaFlopsPerTile = 0;
  bool mmaInt8 = false;
  /// FLOPs of one K-iteration for the whole block (2 per multiply-add), and
  /// a breakdown by kind ("mma.sync m16n8k16" -> count per warp or thread).
  int64_t flopsPerTile = 0;
  SmallVector<std::pair<std::string, int64_t>> computeOps;
  /// Compute/load ratio: FLOPs per tile / bytes loaded per tile.
  double ratio = 0.0;
  /// Shared-memory loads (not ldmatrix) one thread's compute phase issues
  /// per K-iteration: an estimate of what the lowering emits, loads as wide
  /// as the contiguous runs and their proven alignment allow (16 bytes at
  /// most), a transposing transfer one per element.
  int64_t sharedLoadsPerThread = 0;
  /// The warpgroup MMAs of the compute phase (empty without wgmma); their
  /// FLOPs count once per warpgroup of the block in `mmaFlopsPerTile`.
  SmallVector<WarpgroupMma> warpgroupMmas;

  /// Shared memory with `stages` copies of the copied buffers (saturating
  /// at INT64_MAX rather than wrapping).
  int64_t smemMultiBytes(int64_t stages) const {
    return saturatingAdd(smemSingleBytes,
                         saturatingMul(stages - 1, smemPerStageBytes));
  }
};

/// Threads of a warpgroup (four warps), the unit that issues wgmma.
constexpr int64_t kWarpgroupThreads = 128;

/// The alignment in bytes of a 128B-swizzled wgmma operand tile: the
/// swizzle pattern repeats every 8 rows of 128 bytes, and the descriptor
/// encodes no offset into it. Multi-buffering keeps every stage of such a
/// tile at this alignment.
constexpr int64_t kWgmmaOperandAlignment = 1024;

} // namespace pk
} // namespace mlir

#endif // PK_KLOOPINFO_H
