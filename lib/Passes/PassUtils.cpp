//===- PassUtils.cpp - Option checks shared by pk's passes ----------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Tests: test/pk-analyze-kloops-invalid.mlir, test/pipeline-kernel-invalid.mlir
// (every bad option value).
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/Pipelining.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::pk;

const TargetInfo *mlir::pk::detail::lookupTargetOrEmitError(Operation *op,
                                                            StringRef arch) {
  if (const TargetInfo *target = lookupTarget(arch))
    return target;
  mlir::emitError(op->getLoc())
      << "unknown arch '" << arch << "'; pk knows: " << getKnownTargetNames();
  return nullptr;
}

FailureOr<pk::detail::TargetOptions>
mlir::pk::detail::checkTargetOptions(Operation *op, StringRef arch,
                                     StageCount stages, int64_t minBlocksPerSM,
                                     int64_t blockSize, int64_t regsPerThread) {
  const TargetInfo *target = lookupTargetOrEmitError(op, arch);
  if (!target)
    return failure();
  if (!stages.isAuto() &&
      (stages.value < kMinStages || stages.value > kMaxStages))
    return mlir::emitError(op->getLoc())
           << "stages must be 2 to 8 or auto, got '" << stages.value << "'";
  if (minBlocksPerSM < 1)
    return mlir::emitError(op->getLoc())
           << "min-blocks-per-sm must be at least 1, got " << minBlocksPerSM;
  if (minBlocksPerSM > target->maxBlocksPerSM)
    return mlir::emitError(op->getLoc())
           << "min-blocks-per-sm=" << minBlocksPerSM << " exceeds the "
           << target->maxBlocksPerSM << " resident blocks per SM of "
           << target->arch;
  if (blockSize < 0 || blockSize > 1024)
    return mlir::emitError(op->getLoc())
           << "block-size must be in [0, 1024], got " << blockSize;
  if (regsPerThread < 0 || regsPerThread > 255)
    return mlir::emitError(op->getLoc())
           << "regs-per-thread must be in [0, 255], got " << regsPerThread;
  TargetOptions options;
  options.target = target;
  options.decision.stages = stages.value;
  options.decision.minBlocksPerSM = minBlocksPerSM;
  options.decision.regsPerThread = regsPerThread;
  return options;
}

void mlir::pk::detail::normalizeStorageWithRemarks(Operation *root) {
  IRRewriter rewriter(root->getContext());
  // Collect first: the rewrite erases memref.globals next to the kernels.
  SmallVector<gpu::GPUFuncOp> kernels;
  root->walk([&](gpu::GPUFuncOp kernel) { kernels.push_back(kernel); });
  for (gpu::GPUFuncOp kernel : kernels)
    if (int64_t count = normalizeWorkgroupStorage(rewriter, kernel))
      mlir::emitRemark(kernel.getLoc())
          << "moved " << count
          << " workgroup buffer(s) to workgroup attributions (a workgroup "
             "memref.alloc lowers to malloc, a memref.alloca to local memory, "
             "with upstream's NVVM lowering)";
}
