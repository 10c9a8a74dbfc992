//===- Target.cpp - GPU target table and occupancy model ------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#include "pk/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::pk;

// Source: NVIDIA CUDA C++ Programming Guide, "Compute Capabilities",
// "Technical Specifications per Compute Capability" (maximum resident blocks,
// warps and threads per SM; 64 K registers per SM; maximum shared memory per
// SM and per block; "1 KB of shared memory is reserved for system use per
// thread block" on 8.x and 9.0). Granularities from cuda_occupancy.h
// (cudaOccSMemAllocationGranularity, cudaOccRegAllocationGranularity).
static constexpr int64_t KiB = 1024;
// The sm_90 memory latency of the stages=auto model (3000 cycles) is
// calibrated on an H200: the HGEMM and IGEMM examples (about 1024 cycles of
// compute per tile) ran fastest with 4 cp.async stages of 2, 3 and 4
// (integration/results/2026-11-29-h200-stages); the other architectures keep
// uncalibrated estimates (docs/stages.md). The sm_90 L2 bandwidth floor
// (36 bytes per cycle per SM) is what the 64x64 tiles of the H200 decision
// sweep streamed at their best, 32-38 bytes per cycle per SM whatever the
// stage count (integration/results/2026-12-01-h200-decision-sweep); the
// others are estimates.
static const TargetInfo kTargets[] = {
    // arch, gpu, cc, smem/SM, smem/block opt-in, default, reserved, unit,
    // regs/SM, reg unit, max regs/thread, threads/SM, warps/SM, blocks/SM,
    // threads/block, cp.async, wgmma, PTX version, mma / FMA FLOPs per cycle
    // per SM, memory latency (cycles), L2 bytes per cycle per SM
    // clang-format off
    {"sm_75",  "TU102", 75,  64 * KiB,  64 * KiB, 48 * KiB,       0, 256,
    65536, 256, 255, 1024, 32, 16, 1024, false, false, 63, 1024, 128,  500, 32},
    {"sm_80",  "GA100", 80, 164 * KiB, 163 * KiB, 48 * KiB, 1 * KiB, 128,
    65536, 256, 255, 2048, 64, 32, 1024,  true, false, 78, 2048, 128,  600, 48},
    {"sm_86",  "GA104", 86, 100 * KiB,  99 * KiB, 48 * KiB, 1 * KiB, 128,
    65536, 256, 255, 1536, 48, 16, 1024,  true, false, 78,  512, 256,  500, 32},
    {"sm_87",  "GA10B", 87, 164 * KiB, 163 * KiB, 48 * KiB, 1 * KiB, 128,
    65536, 256, 255, 1536, 48, 16, 1024,  true, false, 78, 1024, 256,  500, 32},
    {"sm_89",  "AD102", 89, 100 * KiB,  99 * KiB, 48 * KiB, 1 * KiB, 128,
    65536, 256, 255, 1536, 48, 24, 1024,  true, false, 78,  512, 256,  500, 32},
    {"sm_90",  "GH100", 90, 228 * KiB, 227 * KiB, 48 * KiB, 1 * KiB, 128,
    65536, 256, 255, 2048, 64, 32, 1024,  true, false, 80, 2048, 256, 3000, 36},
    // sm_90a: the same GPU and limits as sm_90, with the architecture-
    // specific features (wgmma, setmaxnreg); its cubins and PTX run only on
    // compute capability 9.0 (docs/target-table.md).
    {"sm_90a", "GH100", 90, 228 * KiB, 227 * KiB, 48 * KiB, 1 * KiB, 128,
    65536, 256, 255, 2048, 64, 32, 1024,  true,  true, 80, 2048, 256, 3000, 36},
    // clang-format on
};

/// Number of SM sub-partitions (warp schedulers), each with a quarter of the
/// register file, on every architecture in the table.
static constexpr int64_t kSubPartitions = 4;

ArrayRef<TargetInfo> mlir::pk::getKnownTargets() { return kTargets; }

const TargetInfo *mlir::pk::lookupTarget(StringRef arch) {
  for (const TargetInfo &target : kTargets)
    if (target.arch == arch)
      return &target;
  return nullptr;
}

std::string mlir::pk::getKnownTargetNames() {
  std::string names;
  llvm::interleave(
      kTargets, [&](const TargetInfo &t) { names += t.arch.str(); },
      [&] { names += ", "; });
  return names;
}

Occupancy mlir::pk::computeOccupancy(const TargetInfo &target,
                                     int64_t threadsPerBlock,
                                     int64_t regsPerThread,
                                     int64_t smemPerBlock) {
  Occupancy occ;
  int64_t warpsPerBlock = llvm::divideCeil(threadsPerBlock, 32);

  // Threads (warps) per SM.
  occ.byThreads =
      (threadsPerBlock <= 0 || threadsPerBlock > target.maxThreadsPerBlock)
          ? 0
          : target.maxWarpsPerSM / warpsPerBlock;

  // Registers: each warp allocates regsPerThread * 32 rounded up to the
  // allocation unit; every sub-partition holds a quarter of the file.
  int64_t regsPerWarp = llvm::alignTo(std::max<int64_t>(regsPerThread, 1) * 32,
                                      target.regAllocUnit);
  if (regsPerThread > target.maxRegsPerThread || warpsPerBlock == 0 ||
      regsPerWarp * static_cast<int64_t>(
                        llvm::alignTo(warpsPerBlock, kSubPartitions)) >
          target.regsPerSM) {
    occ.byRegisters = 0;
  } else {
    int64_t warpsPerSubPartition =
        (target.regsPerSM / kSubPartitions) / regsPerWarp;
    occ.byRegisters = warpsPerSubPartition * kSubPartitions / warpsPerBlock;
  }

  // Shared memory: the static size plus the per-block reservation, rounded
  // up to the allocation granularity, against the largest carve-out.
  occ.allocatedSmemPerBlock = llvm::alignTo(
      smemPerBlock + target.smemReservedPerBlock, target.smemAllocUnit);
  if (smemPerBlock > target.smemPerBlockOptIn)
    occ.bySharedMemory = 0;
  else if (occ.allocatedSmemPerBlock == 0)
    occ.bySharedMemory = target.maxBlocksPerSM; // No shared memory: no limit.
  else
    occ.bySharedMemory = target.smemPerSM / occ.allocatedSmemPerBlock;

  occ.byBlocks = target.maxBlocksPerSM;

  occ.blocksPerSM = occ.byThreads;
  occ.limit = OccupancyLimit::Threads;
  auto consider = [&](int64_t blocks, OccupancyLimit limit) {
    if (blocks < occ.blocksPerSM) {
      occ.blocksPerSM = blocks;
      occ.limit = limit;
    }
  };
  consider(occ.byRegisters, OccupancyLimit::Registers);
  consider(occ.bySharedMemory, OccupancyLimit::SharedMemory);
  consider(occ.byBlocks, OccupancyLimit::Blocks);
  return occ;
}

int64_t mlir::pk::computeSmemCliff(const TargetInfo &target,
                                   int64_t blocksPerSM) {
  if (blocksPerSM <= 0 || blocksPerSM > target.maxBlocksPerSM)
    return -1;
  // Largest allocation a such that smemPerSM / a >= blocksPerSM, a multiple
  // of the granularity; the block itself may use a minus the reservation.
  int64_t allocated =
      llvm::alignDown(target.smemPerSM / blocksPerSM, target.smemAllocUnit);
  int64_t usable = allocated - target.smemReservedPerBlock;
  return std::min(usable, target.smemPerBlockOptIn);
}
