//===- IRContract.h - The attributes pk reads and writes --------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The attribute names that are pk's contract with its inputs, its own later
// runs and the lowering (docs/input-contract.md, docs/lowering.md): what a
// kernel tells pk (registers, launch bounds), what pk leaves on the IR it
// changed (a pipelined loop, its run-time fallback, the dynamic shared
// memory to launch with). Analysis, transform and emission all read them
// from here.
//
//===----------------------------------------------------------------------===//

#ifndef PK_IRCONTRACT_H
#define PK_IRCONTRACT_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace pk {

/// The kernel attribute that records the dynamic shared memory a pipelined
/// kernel must be launched with (its tiles moved there above 48 KB).
constexpr llvm::StringLiteral kDynamicSharedMemoryAttrName =
    "pk.dynamic_shared_memory_bytes";

/// Marks a steady-state loop pk has pipelined; pk does not match it again.
constexpr llvm::StringLiteral kPipelinedAttrName = "pk.pipelined";

/// Marks the original loop kept as the runtime fallback of a pipelined loop
/// with a dynamic trip count (the trip count was below the stages).
constexpr llvm::StringLiteral kFallbackAttrName = "pk.pipeline_fallback";

/// Marks a gpu.func pk warp-specialized (schedule=warp-specialized): the
/// code after its K-loop runs on the consumer warpgroups only, synchronized
/// by named barriers, so pk pipelines no further K-loop of it.
constexpr llvm::StringLiteral kWarpSpecializedAttrName = "pk.warp_specialized";

/// Marks the flat loop pk-flatten-tile-loops made of a persistent kernel's
/// tile loop and its K-loop (TileLoops.h); a kernel with one that pk does
/// not pipeline gets its nest back.
constexpr llvm::StringLiteral kFlattenedTileLoopAttrName =
    "pk.flattened_tile_loop";

/// Marks the `scf.if` of a flattened loop that runs a tile's epilogue after
/// its last k-step (the code that followed the K-loop in the tile loop); the
/// K-loop matcher takes it as part of the compute phase.
constexpr llvm::StringLiteral kTileEpilogueAttrName = "pk.tile_epilogue";

/// The argument attribute of a kernel's tensor-map pointer that names the
/// memref argument the map describes (an index): a TMA store through the
/// map writes that argument's memory (docs/input-contract.md).
constexpr llvm::StringLiteral kTensorMapOfAttrName = "pk.tensor_map_of";

/// The kernel attribute that gives the registers per thread the budget
/// assumes (when no option overrides it), in [1, 255].
constexpr llvm::StringLiteral kRegsPerThreadAttrName = "pk.regs_per_thread";

/// The kernel's launch bounds pk reads (and, with min-blocks-per-sm=auto,
/// sets): minimum resident blocks per SM (PTX .minnctapersm).
constexpr llvm::StringLiteral kMinCtasmAttrName = "nvvm.minctasm";

} // namespace pk
} // namespace mlir

#endif // PK_IRCONTRACT_H
