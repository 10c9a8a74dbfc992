//===- UseLdmatrix.cpp - pk-use-ldmatrix ----------------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A thin wrapper over useLdmatrixForSharedReads (Ldmatrix.h): each kernel,
// with a remark where it changes one. Tests: test/pk-use-ldmatrix.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/Ldmatrix.h"
#include "pk/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKUSELDMATRIX
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

namespace {
struct UseLdmatrixPass final
    : public pk::impl::PKUseLdmatrixBase<UseLdmatrixPass> {
  using Base::Base;

  void runOnOperation() final {
    IRRewriter rewriter(&getContext());
    bool changed = false;
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      LdmatrixRewrite result = useLdmatrixForSharedReads(rewriter, kernel);
      if (result.reads == 0)
        return;
      changed = true;
      emitRemark(kernel.getLoc()) << llvm::formatv(
          "kernel @{0}: {1} shared read(s) in ldmatrix's layout "
          "as {2} ldmatrix; {3} buffer(s) re-padded "
          "to 16-byte rows",
          kernel.getName(), result.reads, result.ldmatrices, result.repadded);
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
