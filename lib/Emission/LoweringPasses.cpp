//===- LoweringPasses.cpp - pk's own steps of the NVVM lowering -----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Two steps upstream's gpu-lower-to-nvvm-pipeline lacks for the kernels ML
// compilers generate (IREE's, among them):
//
// * 1-D vector transfers become vector.load / vector.store before
//   convert-gpu-to-nvvm, whose type converter maps
//   #gpu.address_space<workgroup> to NVVM's address space 3: lowered later by
//   convert-vector-to-llvm (which has no such mapping) a transfer on a
//   workgroup memref fails ("conversion of memref memory space ... failed").
// * Floating-point multiplies and adds may contract into FMAs, as nvcc's
//   default (-fmad=true) and IREE's own lowering allow: without the
//   `contract` flag LLVM's NVPTX back end emits mul.rn / add.rn, which ptxas
//   must not fuse (an f32 GEMM then runs twice the instructions).
//
//===----------------------------------------------------------------------===//

#include "LoweringPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
/// 1-D transfers to vector.load / vector.store (the rank VectorToSCF's full
/// unrolling leaves).
struct LowerTransfersPass
    : PassWrapper<LowerTransfersPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerTransfersPass)

  StringRef getArgument() const final { return "pk-lower-transfers"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<vector::VectorDialect>();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

/// Adds `contract` to the fast-math flags of every floating-point add,
/// subtract and multiply of the LLVM dialect (after the arith and vector
/// lowerings, which create them from arith ops and vector.contract).
struct AllowContractionPass
    : PassWrapper<AllowContractionPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AllowContractionPass)

  StringRef getArgument() const final { return "pk-allow-contraction"; }

  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (!isa<LLVM::FAddOp, LLVM::FSubOp, LLVM::FMulOp>(op))
        return;
      auto fastmath = cast<LLVM::FastmathFlagsInterface>(op);
      LLVM::FastmathFlags flags = fastmath.getFastmathAttr().getValue();
      op->setAttr(fastmath.getFastmathAttrName(),
                  LLVM::FastmathFlagsAttr::get(
                      op->getContext(), flags | LLVM::FastmathFlags::contract));
    });
  }
};
} // namespace

std::unique_ptr<Pass> mlir::pk::detail::createLowerTransfersPass() {
  return std::make_unique<LowerTransfersPass>();
}

std::unique_ptr<Pass> mlir::pk::detail::createAllowContractionPass() {
  return std::make_unique<AllowContractionPass>();
}
