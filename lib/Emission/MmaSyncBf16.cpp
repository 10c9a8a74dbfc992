//===- MmaSyncBf16.cpp - bf16 nvgpu.mma.sync to nvvm.mma.sync -------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Upstream's convert-nvgpu-to-nvvm maps the operand types of
// `nvgpu.mma.sync` to PTX types for f16, tf32, f64, s8 and s4 but not bf16
// ("failed to deduce operand PTX types"), although the op verifies with bf16
// operands and NVVM's `nvvm.mma.sync` has the bf16 forms (m16n8k8,
// m16n8k16: `mma.sync.aligned.m16n8kK.row.col.f32.bf16.bf16.f32`). This
// step, run before convert-nvgpu-to-nvvm, rewrites a bf16 `nvgpu.mma.sync`
// into `nvvm.mma.sync` with the operands packed as the instruction takes
// them: each row of two bf16 of A and B one 32-bit register, the f32
// accumulator one scalar per element; the result struct becomes the
// accumulator's vector again. Test: test/pk-emit-binaries.mlir (BF16-*).
//
//===----------------------------------------------------------------------===//

#include "LoweringPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-lower-bf16-mma-sync"

using namespace mlir;

/// The 32-bit registers of an mma.sync operand `value` of type
/// vector<R x 2 x bf16>: one per row, the row's two bf16 bit-cast to i32.
static SmallVector<Value> packBf16Rows(PatternRewriter &rewriter, Location loc,
                                       Value value) {
  auto type = cast<VectorType>(value.getType());
  auto pairType = VectorType::get({1}, rewriter.getI32Type());
  SmallVector<Value> registers;
  for (int64_t row = 0, rows = type.getDimSize(0); row < rows; ++row) {
    Value pair = vector::ExtractOp::create(rewriter, loc, value, row);
    Value bits = vector::BitCastOp::create(rewriter, loc, pairType, pair);
    registers.push_back(vector::ExtractOp::create(rewriter, loc, bits, 0));
  }
  return registers;
}

/// Every element of `value`, row by row.
static SmallVector<Value> unpackElements(PatternRewriter &rewriter,
                                         Location loc, Value value) {
  auto type = cast<VectorType>(value.getType());
  SmallVector<Value> elements;
  for (int64_t row = 0; row < type.getDimSize(0); ++row)
    for (int64_t col = 0; col < type.getDimSize(1); ++col)
      elements.push_back(vector::ExtractOp::create(
          rewriter, loc, value, ArrayRef<int64_t>{row, col}));
  return elements;
}

namespace {
/// A bf16 x bf16 + f32 `nvgpu.mma.sync` as `nvvm.mma.sync`.
struct Bf16MmaSyncToNVVM : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    VectorType aType = op.getMatrixA().getType();
    VectorType bType = op.getMatrixB().getType();
    VectorType cType = op.getMatrixC().getType();
    if (!aType.getElementType().isBF16() || !bType.getElementType().isBF16())
      return rewriter.notifyMatchFailure(op, "operands are not bf16");
    if (!cType.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "accumulator is not f32");
    std::array<int64_t, 3> shape = op.getMmaShapeAsArray();
    if (shape[0] != 16 || shape[1] != 8 || (shape[2] != 8 && shape[2] != 16))
      return rewriter.notifyMatchFailure(op, "not m16n8k8 or m16n8k16");
    if (aType.getRank() != 2 || aType.getDimSize(1) != 2 ||
        bType.getRank() != 2 || bType.getDimSize(1) != 2 ||
        cType.getRank() != 2 || cType.getDimSize(1) != 2)
      return rewriter.notifyMatchFailure(op, "fragments are not Rx2");

    Location loc = op.getLoc();
    SmallVector<Value> a = packBf16Rows(rewriter, loc, op.getMatrixA());
    SmallVector<Value> b = packBf16Rows(rewriter, loc, op.getMatrixB());
    SmallVector<Value> c = unpackElements(rewriter, loc, op.getMatrixC());
    Type f32 = rewriter.getF32Type();
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(c.size(), f32));
    Value mma = NVVM::MmaOp::create(
        rewriter, loc, resultType, a, b, c, shape, /*b1Op=*/std::nullopt,
        /*intOverflow=*/std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> d;
    for (int64_t i = 0, e = c.size(); i < e; ++i)
      d.push_back(LLVM::ExtractValueOp::create(rewriter, loc, mma, i));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, cType, d);
    return success();
  }
};

struct LowerBf16MmaSyncPass
    : PassWrapper<LowerBf16MmaSyncPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerBf16MmaSyncPass)

  StringRef getArgument() const final { return "pk-lower-bf16-mma-sync"; }
  StringRef getDescription() const final {
    return "Lower bf16 nvgpu.mma.sync to nvvm.mma.sync (upstream's "
           "convert-nvgpu-to-nvvm has no bf16 operand type)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<LLVM::LLVMDialect, NVVM::NVVMDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<Bf16MmaSyncToNVVM>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<Pass> mlir::pk::detail::createLowerBf16MmaSyncPass() {
  return std::make_unique<LowerBf16MmaSyncPass>();
}

void mlir::pk::detail::registerLowerBf16MmaSyncPass() {
  PassRegistration<LowerBf16MmaSyncPass>();
}
