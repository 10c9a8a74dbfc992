//===- Coverage.cpp - What pk does not consider, and why ------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A remark for every kernel and loop pk passes over (Coverage.h):
//
//   gpu.func @k(...) kernel {              remark: kernel @k: nothing to
//     affine.for %i = 0 to 128 step 32 {     pipeline: ...
//       ... gpu.barrier ...                remark: not a pk K-loop: an
//     }                                      affine.for, not an scf.for; ...
//
// Tests: test/pk-analyze-kloops-edge-cases.mlir (UNCONSIDERED, VERBOSE),
// test/pipeline-kernel.mlir (VERBOSE).
//
//===----------------------------------------------------------------------===//

#include "pk/Coverage.h"
#include "pk/KLoopMatcher.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-coverage"

using namespace mlir;
using namespace mlir::pk;

namespace {
/// What pk says about one loop of a kernel it does not consider.
struct LoopVerdict {
  /// The loop looks like a K-loop pk cannot take: said in every mode. The
  /// others (plainly no K-loop) are said only when verbose.
  bool nearMiss = false;
  std::string reason;
  /// The operation the reason is about, when not the loop.
  Operation *culprit = nullptr;
  /// The remark covers the loops nested in this one.
  bool coversNested = true;
};
} // namespace

/// Whether `op` is a barrier of the whole block: gpu.barrier, or the NVVM
/// form it lowers to (nvvm.barrier0, nvvm.barrier), which the matcher does
/// not take.
static bool isBarrier(Operation &op) {
  return isa<gpu::BarrierOp, NVVM::Barrier0Op, NVVM::BarrierOp>(op);
}

/// The first barrier directly in one of `loop`'s blocks, or null.
static Operation *findDirectBarrier(Operation *loop) {
  for (Region &region : loop->getRegions())
    for (Block &block : region)
      for (Operation &op : block)
        if (isBarrier(op))
          return &op;
  return nullptr;
}

/// The first barrier nested deeper than directly in `loop`, or null.
static Operation *findNestedBarrier(Operation *loop) {
  Operation *found = nullptr;
  loop->walk([&](Operation *op) {
    if (op->getParentOp() == loop || !isBarrier(*op))
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

/// An `scf.for` of the candidate form: a gpu.barrier directly in its body,
/// not pk's own fallback. In a gpu.func the matcher reports it, in a
/// gpu.launch body remarkOnUnreachableLoops.
static bool hasCandidateForm(Operation *op) {
  auto forOp = dyn_cast<scf::ForOp>(op);
  return forOp && !forOp->hasAttr(kFallbackAttrName) &&
         llvm::any_of(forOp.getBody()->getOperations(),
                      [](Operation &op) { return isa<gpu::BarrierOp>(op); });
}

/// The kernel `op` is in: its gpu.func if that is a kernel, or its
/// gpu.launch; null outside kernels (host code, gpu.func device functions).
static Operation *getEnclosingKernel(Operation *op) {
  for (Operation *parent = op; parent; parent = parent->getParentOp()) {
    if (auto func = dyn_cast<gpu::GPUFuncOp>(parent))
      return func.isKernel() ? parent : nullptr;
    if (isa<gpu::LaunchOp>(parent))
      return parent;
  }
  return nullptr;
}

/// "kernel @name" or "gpu.launch kernel".
static std::string describeKernel(Operation *kernel) {
  if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel))
    return ("kernel @" + func.getName()).str();
  return "gpu.launch kernel";
}

/// Why pk passes over `loop`, a loop of a kernel that is not of the
/// candidate form; none for pk's own fallback loops.
static std::optional<LoopVerdict> judgeKernelLoop(Operation *loop) {
  if (loop->hasAttr(kFallbackAttrName))
    return std::nullopt;
  bool isScfFor = isa<scf::ForOp>(loop);
  if (Operation *barrier = findDirectBarrier(loop)) {
    if (isa<affine::AffineForOp>(loop))
      return LoopVerdict{true,
                         "an affine.for, not an scf.for; run --lower-affine "
                         "first (it turns affine.for into scf.for)"};
    if (!isScfFor)
      return LoopVerdict{
          true, llvm::formatv("a '{0}', not an scf.for", loop->getName())};
    // A direct gpu.barrier would make it a candidate: this is an NVVM one.
    return LoopVerdict{
        true,
        llvm::formatv(
            "its barrier is '{0}', not gpu.barrier (the same bar.sync "
            "0, the form pk matches): write gpu.barrier",
            barrier->getName()),
        barrier};
  }
  if (Operation *barrier = findNestedBarrier(loop)) {
    Operation *parent = barrier->getParentOp();
    // The loop around a K-loop (candidate or not): the inner loop gets its
    // own verdict.
    if (isa<LoopLikeOpInterface>(parent))
      return LoopVerdict{false, "its barriers are in a nested loop", nullptr,
                         /*coversNested=*/false};
    return LoopVerdict{
        true,
        llvm::formatv("its barrier is inside a nested '{0}', not directly in "
                      "the loop body",
                      parent->getName()),
        barrier};
  }
  return LoopVerdict{false, "no gpu.barrier in its body"};
}

/// A remark on `kernel` when none of its loops is of the candidate form.
static void remarkOnKernel(Operation *kernel) {
  int64_t loops = 0;
  bool candidate = false;
  kernel->walk([&](LoopLikeOpInterface loop) {
    ++loops;
    candidate |= hasCandidateForm(loop);
  });
  if (candidate)
    return;
  InFlightDiagnostic diag = mlir::emitRemark(kernel->getLoc())
                            << describeKernel(kernel)
                            << ": nothing to pipeline: ";
  if (loops == 0)
    diag << "it has no loop";
  else
    diag << "none of its " << loops
         << " loop(s) is a K-loop candidate (an scf.for with a gpu.barrier "
            "directly in its body)";
}

/// A remark on a loop with a barrier outside any kernel.
static void remarkOutsideKernel(Operation *loop) {
  InFlightDiagnostic diag = mlir::emitRemark(loop->getLoc())
                            << "not a pk K-loop: not in a kernel: the loop is "
                               "in ";
  if (auto func = loop->getParentOfType<FunctionOpInterface>())
    diag << "'" << func->getName() << "' @" << func.getName();
  else
    diag << "no function";
  diag << "; pk works on gpu.func kernels (in a gpu.module)";
}

void mlir::pk::remarkOnUnconsideredCode(Operation *root, bool verbose) {
  root->walk([&](Operation *op) {
    auto func = dyn_cast<gpu::GPUFuncOp>(op);
    if ((func && func.isKernel()) || isa<gpu::LaunchOp>(op))
      remarkOnKernel(op);
  });
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa<LoopLikeOpInterface>(op))
      return WalkResult::advance();
    if (!getEnclosingKernel(op)) {
      // The barrier loops of gpu.func device functions are candidates (the
      // matcher says they are not in a kernel).
      if (!findDirectBarrier(op) || op->getParentOfType<gpu::GPUFuncOp>())
        return WalkResult::advance();
      LDBG() << "loop with a barrier outside a kernel";
      remarkOutsideKernel(op);
      return WalkResult::skip();
    }
    if (hasCandidateForm(op))
      return WalkResult::skip();
    std::optional<LoopVerdict> verdict = judgeKernelLoop(op);
    if (!verdict)
      return WalkResult::skip();
    LDBG() << "loop not considered: " << verdict->reason;
    if (verdict->nearMiss || verbose) {
      InFlightDiagnostic diag = mlir::emitRemark(op->getLoc())
                                << "not a pk K-loop: " << verdict->reason;
      if (verdict->culprit)
        diag.attachNote(verdict->culprit->getLoc()) << "here";
    }
    return verdict->coversNested ? WalkResult::skip() : WalkResult::advance();
  });
}

void mlir::pk::emitNotAKLoopRemark(scf::ForOp forOp, const Decline &decline) {
  InFlightDiagnostic diag =
      decline.emit(DiagnosticSeverity::Remark, "not a pk K-loop: ");
  if (decline.getLoc() != forOp.getLoc())
    diag.attachNote(forOp.getLoc()) << "in this K-loop candidate";
}

void mlir::pk::remarkOnUnreachableLoops(Operation *root) {
  bool anyKernel = false;
  root->walk([&](Operation *op) {
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op))
      anyKernel |= func.isKernel();
    if (isa<gpu::LaunchOp>(op))
      anyKernel = true;
  });
  // Only a whole module is known to lack kernels: a pass nested on a host
  // func.func says nothing.
  if (!anyKernel) {
    if (!isa<ModuleOp>(root))
      return;
    mlir::emitRemark(root->getLoc())
        << "no GPU kernel (gpu.func kernel or gpu.launch) found: pk has "
           "nothing to pipeline";
    return;
  }
  root->walk([&](scf::ForOp forOp) {
    if (!forOp->getParentOfType<gpu::LaunchOp>() ||
        forOp->getParentOfType<gpu::GPUFuncOp>())
      return;
    if (llvm::any_of(forOp.getBody()->getOperations(),
                     [](Operation &op) { return isa<gpu::BarrierOp>(op); }))
      mlir::emitRemark(forOp.getLoc())
          << "not a pk K-loop yet: the loop is in a gpu.launch body; pk "
             "matches and pipelines K-loops of gpu.func kernels only (the "
             "block size from known_block_size, the multi-buffered tiles "
             "as the kernel's workgroup attributions or its gpu.module's "
             "globals, dynamic shared memory recorded on the kernel): "
             "pipeline-kernel outlines gpu.launch kernels first; otherwise "
             "run --gpu-launch-sink-index-computations "
             "--gpu-kernel-outlining";
  });
}

SmallVector<scf::ForOp> mlir::pk::collectKLoopCandidates(Operation *root) {
  SmallVector<scf::ForOp> candidates;
  root->walk<WalkOrder::PreOrder>([&](scf::ForOp forOp) {
    if (isKLoopCandidate(forOp))
      candidates.push_back(forOp);
  });
  return candidates;
}
