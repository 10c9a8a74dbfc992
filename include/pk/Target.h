//===- Target.h - GPU target table and occupancy model ----------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Per-architecture limits that decide whether multi-buffering a K-loop keeps
// the kernel's occupancy, and the occupancy model itself.
//
// Numbers come from the NVIDIA CUDA C++ Programming Guide, "Compute
// Capabilities", table "Technical Specifications per Compute Capability"
// (shared memory per SM / per block, 1 KB of shared memory reserved per block
// on 8.x and later, 64 K 32-bit registers per SM, maximum threads, warps and
// resident blocks per SM), and from the allocation granularities used by the
// toolkit's cuda_occupancy.h (registers: 256 per warp; shared memory: 128
// bytes on 8.x/9.x, 256 bytes on 7.x; four SM sub-partitions).
//
//===----------------------------------------------------------------------===//

#ifndef PK_TARGET_H
#define PK_TARGET_H

#include "pk/Enums.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace pk {

/// Limits of one compute capability.
struct TargetInfo {
  /// Architecture name as used by NVVM and ptxas (`sm_86`, `sm_90a`).
  llvm::StringRef arch;
  /// A representative GPU, for messages (`GA104`).
  llvm::StringRef exampleGpu;
  /// Compute capability times ten (86).
  unsigned computeCapability;
  /// Largest shared-memory carve-out per SM, in bytes.
  int64_t smemPerSM;
  /// Maximum shared memory per block (with the opt-in attribute), in bytes.
  int64_t smemPerBlockOptIn;
  /// Shared memory per block without opt-in (static allocations), in bytes.
  int64_t smemPerBlockDefault;
  /// Shared memory the driver reserves for each resident block, in bytes.
  int64_t smemReservedPerBlock;
  /// Shared-memory allocation granularity, in bytes.
  int64_t smemAllocUnit;
  /// 32-bit registers per SM.
  int64_t regsPerSM;
  /// Register allocation granularity, in registers per warp.
  int64_t regAllocUnit;
  /// Maximum registers per thread.
  int64_t maxRegsPerThread;
  /// Maximum resident threads, warps and blocks per SM.
  int64_t maxThreadsPerSM;
  int64_t maxWarpsPerSM;
  int64_t maxBlocksPerSM;
  /// Maximum threads per block.
  int64_t maxThreadsPerBlock;
  /// Whether `cp.async` (LDGSTS) exists: compute capability 8.0 and later.
  bool hasCpAsync;
  /// Whether the warpgroup MMA (`wgmma.mma_async`, `nvgpu.warpgroup.mma`)
  /// exists: only the architecture-specific `sm_90a` target has it (MLIR and
  /// ptxas refuse it on `sm_90`).
  bool hasWgmma;
  /// Whether the Tensor Memory Accelerator (`cp.async.bulk.tensor`,
  /// `nvgpu.tma.async.load`) and transaction-count mbarriers exist: compute
  /// capability 9.0 and later.
  bool hasTma() const { return computeCapability >= 90; }
  /// The PTX ISA version pk emits for this target, times ten: 6.3 for sm_75
  /// (its first), 7.8 for sm_8x (the first with sm_89; covers cp.async,
  /// ldmatrix and mma.sync), 8.0 for sm_90 and sm_90a.
  unsigned ptxVersion;
  /// Model constants for stages=auto (docs/stages.md): dense FP16 mma.sync
  /// FLOPs per cycle per SM (INT8 counts twice), FP32 FMA FLOPs per cycle per
  /// SM, and a loaded global-memory latency in cycles. Approximations from
  /// the public peak rates (peak / SMs / boost clock), not measurements.
  int64_t mmaFlopsPerCycle;
  int64_t fmaFlopsPerCycle;
  int64_t memoryLatencyCycles;
  /// Bytes per cycle per SM that the tile copies can stream (from L2) when
  /// every SM copies: the model's bandwidth floor, bytes per tile / this
  /// (docs/stages.md; sm_90 measured, the others estimates).
  int64_t l2BytesPerCycle;
};

/// Returns the table entry for `arch` (`sm_75`, `sm_80`, `sm_86`, `sm_87`,
/// `sm_89`, `sm_90`, `sm_90a`), or null if pk does not know that
/// architecture.
const TargetInfo *lookupTarget(llvm::StringRef arch);

/// All architectures pk knows, in increasing compute capability.
llvm::ArrayRef<TargetInfo> getKnownTargets();

/// The known architecture names joined by ", ", for diagnostics.
std::string getKnownTargetNames();

/// Resident blocks per SM for one kernel configuration.
struct Occupancy {
  /// Resident blocks per SM; 0 when the block cannot launch at all.
  int64_t blocksPerSM = 0;
  /// The resource that sets `blocksPerSM` (the first in the order threads,
  /// registers, shared memory, blocks when several tie).
  OccupancyLimit limit = OccupancyLimit::None;
  /// Blocks per SM allowed by each resource alone.
  int64_t byThreads = 0, byRegisters = 0, bySharedMemory = 0, byBlocks = 0;
  /// Shared memory the SM allocates per block (with reservation and
  /// granularity), in bytes.
  int64_t allocatedSmemPerBlock = 0;
  /// Resident warps per SM.
  int64_t warpsPerSM(int64_t threadsPerBlock) const {
    return blocksPerSM * ((threadsPerBlock + 31) / 32);
  }
};

/// Computes resident blocks per SM for blocks of `threadsPerBlock` threads
/// using `regsPerThread` registers and `smemPerBlock` bytes of shared memory,
/// as cuda_occupancy.h does (largest carve-out, no partitioned-GC rule).
Occupancy computeOccupancy(const TargetInfo &target, int64_t threadsPerBlock,
                           int64_t regsPerThread, int64_t smemPerBlock);

/// The largest shared memory per block, in bytes, for which shared memory
/// alone still allows `blocksPerSM` resident blocks per SM (the "occupancy
/// cliff" for that target), capped by the per-block maximum. Returns -1 when
/// no block size allows it (`blocksPerSM` above the block limit).
int64_t computeSmemCliff(const TargetInfo &target, int64_t blocksPerSM);

} // namespace pk
} // namespace mlir

#endif // PK_TARGET_H
