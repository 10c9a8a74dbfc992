//===- LoweringPasses.h - pk's own steps of the NVVM lowering ---*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_EMISSION_LOWERINGPASSES_H
#define PK_LIB_EMISSION_LOWERINGPASSES_H

#include <memory>
#include <optional>
#include <string>

namespace mlir {
class Pass;
namespace nvgpu {
class MmaSyncOp;
} // namespace nvgpu
namespace pk::detail {

/// 1-D vector transfers to vector.load / vector.store, before
/// convert-gpu-to-nvvm maps the workgroup address space (LoweringPasses.cpp).
std::unique_ptr<Pass> createLowerTransfersPass();

/// The `alignment` pk proves on shared vector.load / vector.store ops
/// (after createLowerTransfersPass, before the strided metadata expands).
std::unique_ptr<Pass> createProveSharedAlignmentPass();

/// bf16 `nvgpu.mma.sync` as `nvvm.mma.sync`, before convert-nvgpu-to-nvvm
/// (which has no bf16 operand type; MmaSyncBf16.cpp).
std::unique_ptr<Pass> createLowerBf16MmaSyncPass();
/// Whether that step lowers `op`: std::nullopt when it has no bf16 operand,
/// the empty string when it lowers it, else why not (a located error of
/// emission's target check and of the step).
std::optional<std::string> getBf16MmaSyncLoweringProblem(nvgpu::MmaSyncOp op);
void registerLowerBf16MmaSyncPass();

/// The `contract` fast-math flag on the LLVM dialect's floating-point adds,
/// subtracts and multiplies, so that they lower to FMAs as nvcc's do.
std::unique_ptr<Pass> createAllowContractionPass();

/// `arith.select` of `!nvgpu.warpgroup.accumulator` values as `scf.if`
/// (before convert-nvgpu-to-nvvm, which converts neither).
std::unique_ptr<Pass> createAccumulatorSelectsAsBranchesPass();

} // namespace pk::detail
} // namespace mlir

#endif // PK_LIB_EMISSION_LOWERINGPASSES_H
