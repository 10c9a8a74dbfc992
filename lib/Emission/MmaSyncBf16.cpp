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
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "pk-lower-bf16-mma-sync"

using namespace mlir;

/// The 32-bit registers of an mma.sync operand `value` of type
/// vector<R x 2 x bf16>: one per row, the row's two bf16 bit-cast to i32.
static SmallVector<Value> packBf16Rows(RewriterBase &rewriter, Location loc,
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
static SmallVector<Value> unpackElements(RewriterBase &rewriter, Location loc,
                                         Value value) {
  auto type = cast<VectorType>(value.getType());
  SmallVector<Value> elements;
  for (int64_t row = 0; row < type.getDimSize(0); ++row)
    for (int64_t col = 0; col < type.getDimSize(1); ++col)
      elements.push_back(vector::ExtractOp::create(
          rewriter, loc, value, ArrayRef<int64_t>{row, col}));
  return elements;
}

std::optional<std::string>
mlir::pk::detail::getBf16MmaSyncLoweringProblem(nvgpu::MmaSyncOp op) {
  VectorType aType = op.getMatrixA().getType();
  VectorType bType = op.getMatrixB().getType();
  VectorType cType = op.getMatrixC().getType();
  if (!aType.getElementType().isBF16() && !bType.getElementType().isBF16())
    return std::nullopt;
  std::array<int64_t, 3> shape = op.getMmaShapeAsArray();
  bool shapeOk =
      shape[0] == 16 && shape[1] == 8 && (shape[2] == 8 || shape[2] == 16);
  auto rowsOfTwo = [](VectorType type) {
    return type.getRank() == 2 && type.getDimSize(1) == 2;
  };
  if (aType.getElementType().isBF16() && bType.getElementType().isBF16() &&
      cType.getElementType().isF32() && shapeOk && rowsOfTwo(aType) &&
      rowsOfTwo(bType) && rowsOfTwo(cType))
    return std::string();
  std::string problem;
  llvm::raw_string_ostream os(problem);
  os << "pk lowers bf16 nvgpu.mma.sync as m16n8k8 or m16n8k16, bf16 x bf16 "
        "with an f32 accumulator in rows of two (upstream's "
        "convert-nvgpu-to-nvvm has no bf16 form); this one is m"
     << shape[0] << "n" << shape[1] << "k" << shape[2] << " " << aType << " x "
     << bType << " + " << cType;
  return problem;
}

/// `op` (getBf16MmaSyncLoweringProblem says it lowers) as `nvvm.mma.sync`.
static void lowerBf16MmaSync(RewriterBase &rewriter, nvgpu::MmaSyncOp op) {
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  SmallVector<Value> a = packBf16Rows(rewriter, loc, op.getMatrixA());
  SmallVector<Value> b = packBf16Rows(rewriter, loc, op.getMatrixB());
  SmallVector<Value> c = unpackElements(rewriter, loc, op.getMatrixC());
  Type f32 = rewriter.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      rewriter.getContext(), SmallVector<Type>(c.size(), f32));
  Value mma = NVVM::MmaOp::create(
      rewriter, loc, resultType, a, b, c, op.getMmaShapeAsArray(),
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> d;
  for (int64_t i = 0, e = c.size(); i < e; ++i)
    d.push_back(LLVM::ExtractValueOp::create(rewriter, loc, mma, i));
  rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
      op, op.getMatrixC().getType(), d);
}

namespace {
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

  /// Rewrites each bf16 op in place (no greedy driver: nothing else in the
  /// module is folded); a form it cannot lower is a located error.
  void runOnOperation() override {
    SmallVector<nvgpu::MmaSyncOp> ops;
    getOperation().walk([&](nvgpu::MmaSyncOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    bool failedAny = false;
    for (nvgpu::MmaSyncOp op : ops) {
      std::optional<std::string> problem =
          pk::detail::getBf16MmaSyncLoweringProblem(op);
      if (!problem)
        continue;
      if (!problem->empty()) {
        LDBG() << "not lowered: " << *problem << " -> BAIL";
        op.emitError() << *problem;
        failedAny = true;
        continue;
      }
      lowerBf16MmaSync(rewriter, op);
    }
    if (failedAny)
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
