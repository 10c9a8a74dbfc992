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

#include "pk/PipelineKernelLoop.h"
#include "pk/Report.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/FormatVariadic.h"

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

LogicalResult mlir::pk::detail::initializeOptionsNamingPass(
    Pass &pass, StringRef options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  return pass.Pass::initializeOptions(options, [&](const Twine &message) {
    std::string why = StringRef(message.str()).trim().str();
    return errorHandler(
        llvm::formatv("{0}: cannot parse the options '{1}'{2}",
                      pass.getArgument(), options,
                      why.empty() ? std::string(" (llvm::cl names the option "
                                                "and the value above)")
                                  : ": " + why)
            .str());
  });
}

bool mlir::pk::detail::normalizeStorageWithRemarks(Operation *root) {
  IRRewriter rewriter(root->getContext());
  // Collect first: the rewrite erases memref.globals next to the kernels.
  SmallVector<gpu::GPUFuncOp> kernels;
  root->walk([&](gpu::GPUFuncOp kernel) { kernels.push_back(kernel); });
  // Anchored below the gpu.module, only the kernel itself may change.
  bool globals = isa<ModuleOp, gpu::GPUModuleOp>(root);
  bool changed = false;
  for (gpu::GPUFuncOp kernel : kernels) {
    int64_t moved = normalizeWorkgroupStorage(rewriter, kernel, globals);
    int64_t inlined = foldUniformGuards(rewriter, kernel);
    changed |= moved || inlined;
    if (int64_t count = moved)
      mlir::emitRemark(kernel.getLoc())
          << "moved " << count
          << " workgroup buffer(s) to workgroup attributions (a workgroup "
             "memref.alloc lowers to malloc, a memref.alloca to local memory, "
             "with upstream's NVVM lowering)";
    if (int64_t count = inlined)
      mlir::emitRemark(kernel.getLoc())
          << "inlined " << count
          << " scf.if guard(s) that every thread of the known block size "
             "passes (e.g. gpu.thread_id y == 0 with a block of (C, 1, 1))";
  }
  return changed;
}

LogicalResult pk::detail::SharedReport::write(Location loc, StringRef path,
                                              StringRef lines, bool append) {
  std::lock_guard<std::mutex> lock(mutex);
  if (failed(writeReportLines(loc, path, lines, append || written)))
    return failure();
  written = true;
  return success();
}

void pk::detail::KLoopAnalysisCache::insert(
    scf::ForOp forOp, std::unique_ptr<AnalyzedKLoop> analyzed) {
  loops[forOp] = std::move(analyzed);
}

std::unique_ptr<AnalyzedKLoop>
pk::detail::KLoopAnalysisCache::take(scf::ForOp forOp,
                                     const PipelineRequest &request) {
  auto it = loops.find(forOp);
  if (it == loops.end() || !decideAlike(it->second->getRequest(), request))
    return nullptr;
  std::unique_ptr<AnalyzedKLoop> analyzed = std::move(it->second);
  loops.erase(it);
  return analyzed;
}
