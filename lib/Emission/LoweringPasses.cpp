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
// * Shared loads and stores get the alignment pk proves for them
//   (pk/Alignment.h): LLVM infers it from the address arithmetic only to a
//   limited depth, and a stage of a multi-buffered tile read through a
//   reshape (IREE's matmuls) is beyond it; a misaligned-looking 4-byte load
//   of two f16 then splits into two 16-bit ones.
// * Selects of wgmma accumulators (the canonicalizer's form of a persistent
//   kernel's tile epilogue) become scf.if, which the lowering handles.
// * Floating-point multiplies and adds may contract into FMAs, as nvcc's
//   default (-fmad=true) and IREE's own lowering allow: without the
//   `contract` flag LLVM's NVPTX back end emits mul.rn / add.rn, which ptxas
//   must not fuse (an f32 GEMM then runs twice the instructions).
//
//===----------------------------------------------------------------------===//

#include "LoweringPasses.h"

#include "pk/Alignment.h"
#include "pk/Emit.h"
#include "pk/MemoryAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-lowering"

using namespace mlir;
using namespace mlir::pk;

/// The alignment pk proves for the shared `vector.load` / `vector.store`
/// `op` (`memref`, `indices`), capped at its width; 0 if it proves no more
/// than the element's.
static int64_t proveSharedAccessAlignment(Operation *op, Value memref,
                                          ValueRange indices,
                                          VectorType vectorType) {
  auto type = cast<MemRefType>(memref.getType());
  if (!isSharedMemory(type))
    return 0;
  AlignmentProof proof = proveAlignment(memref, indices);
  int64_t root = proof.root ? getSharedRootAlignment(proof.root) : 0;
  int64_t elemBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  int64_t width = llvm::PowerOf2Ceil(
      elemBytes * std::max<int64_t>(1, vectorType.getNumElements()));
  int64_t align = std::min({proof.bytes, root, width});
  LDBG() << "shared access " << *op << ": proven " << proof.bytes << " B, root "
         << root << " B -> " << align;
  return align > elemBytes ? align : 0;
}

namespace {
/// 1-D transfers to vector.load / vector.store (the rank VectorToSCF's full
/// unrolling leaves).
struct LowerTransfersPass
    : PassWrapper<LowerTransfersPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerTransfersPass)

  StringRef getArgument() const final { return "pk-lower-transfers"; }
  StringRef getDescription() const final {
    return "Lower 1-D vector transfers to vector.load / vector.store";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<vector::VectorDialect>();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    // Out-of-bounds transfers get their mask here (`memref.dim` - index),
    // while convert-gpu-to-nvvm is still to lower the `memref.dim` of a
    // dynamic-shape memref; convert-vector-to-llvm would create it too late
    // (an unrealized_conversion_cast LLVM cannot translate).
    vector::populateVectorMaskMaterializationPatterns(
        patterns, /*force32BitVectorIndices=*/true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

/// Sets the `alignment` of every shared vector.load / vector.store to what
/// pk proves for it, where that is more than it states.
struct ProveSharedAlignmentPass
    : PassWrapper<ProveSharedAlignmentPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ProveSharedAlignmentPass)

  StringRef getArgument() const final { return "pk-prove-shared-alignment"; }
  StringRef getDescription() const final {
    return "Give shared vector loads and stores the alignment pk proves";
  }

  void runOnOperation() override {
    Builder builder(&getContext());
    auto annotate = [&](auto op) {
      int64_t align = proveSharedAccessAlignment(
          op, op.getBase(), op.getIndices(), op.getVectorType());
      if (align > static_cast<int64_t>(op.getAlignment().value_or(0)))
        op.setAlignmentAttr(builder.getI64IntegerAttr(align));
    };
    getOperation().walk([&](Operation *op) {
      if (auto load = dyn_cast<vector::LoadOp>(op))
        annotate(load);
      else if (auto store = dyn_cast<vector::StoreOp>(op))
        annotate(store);
    });
  }
};

/// Adds `contract` to the fast-math flags of every floating-point add,
/// subtract and multiply of the LLVM dialect (after the arith and vector
/// lowerings, which create them from arith ops and vector.contract).
struct AllowContractionPass
    : PassWrapper<AllowContractionPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AllowContractionPass)

  StringRef getArgument() const final { return "pk-allow-contraction"; }
  StringRef getDescription() const final {
    return "Allow LLVM floating-point adds and multiplies to contract";
  }

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

/// Rewrites each `arith.select` of `!nvgpu.warpgroup.accumulator` values
/// into an `scf.if` that yields one or the other. The canonicalizer folds an
/// scf.if whose branches yield values defined above it into a select (a
/// persistent kernel's tile epilogue, which hands the next tile the zero
/// accumulator, becomes one), and neither convert-nvgpu-to-nvvm nor the
/// arith lowering converts a select of that type.
struct AccumulatorSelectsAsBranchesPass
    : PassWrapper<AccumulatorSelectsAsBranchesPass,
                  OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AccumulatorSelectsAsBranchesPass)

  StringRef getArgument() const final {
    return "pk-accumulator-selects-as-branches";
  }
  StringRef getDescription() const final {
    return "Rewrite selects of wgmma accumulators into scf.if";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<scf::SCFDialect>();
  }

  void runOnOperation() override {
    SmallVector<arith::SelectOp> selects;
    getOperation().walk([&](arith::SelectOp select) {
      if (isa<nvgpu::WarpgroupAccumulatorType>(select.getType()))
        selects.push_back(select);
    });
    IRRewriter rewriter(&getContext());
    for (arith::SelectOp select : selects) {
      rewriter.setInsertionPoint(select);
      Location loc = select.getLoc();
      auto ifOp = scf::IfOp::create(rewriter, loc, select.getType(),
                                    select.getCondition(),
                                    /*withElseRegion=*/true);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(rewriter, loc, select.getTrueValue());
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(rewriter, loc, select.getFalseValue());
      rewriter.replaceOp(select, ifOp.getResults());
    }
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::pk::detail::createAccumulatorSelectsAsBranchesPass() {
  return std::make_unique<AccumulatorSelectsAsBranchesPass>();
}

std::unique_ptr<Pass> mlir::pk::detail::createLowerTransfersPass() {
  return std::make_unique<LowerTransfersPass>();
}

std::unique_ptr<Pass> mlir::pk::detail::createAllowContractionPass() {
  return std::make_unique<AllowContractionPass>();
}

std::unique_ptr<Pass> mlir::pk::detail::createProveSharedAlignmentPass() {
  return std::make_unique<ProveSharedAlignmentPass>();
}

void mlir::pk::registerLoweringPasses() {
  PassRegistration<LowerTransfersPass>();
  PassRegistration<ProveSharedAlignmentPass>();
  PassRegistration<AllowContractionPass>();
  PassRegistration<AccumulatorSelectsAsBranchesPass>();
  detail::registerLowerBf16MmaSyncPass();
}
