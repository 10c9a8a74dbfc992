//===- PassUtils.h - Option checks shared by pk's passes --------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_PASSES_PASSUTILS_H
#define PK_LIB_PASSES_PASSUTILS_H

#include "pk/Decision.h"
#include "pk/OptionTypes.h"
#include "pk/PipelineKernelLoop.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <mutex>
#include <string>

namespace mlir {
namespace pk {
namespace detail {

/// Looks `arch` up; on failure emits an error on `op` listing the known
/// architectures and returns null.
const TargetInfo *lookupTargetOrEmitError(Operation *op, llvm::StringRef arch);

/// Pass::initializeOptions of `pass`, whose error names the pass and the
/// option string: llvm::cl prints which option it cannot parse (`for the
/// --variant option: ...`), not of which pass, and MLIR's error at
/// `<unknown>` was empty.
LogicalResult initializeOptionsNamingPass(
    Pass &pass, llvm::StringRef options,
    llvm::function_ref<LogicalResult(const llvm::Twine &)> errorHandler);

/// Rewrites the workgroup storage of every kernel under `root` that would
/// lower to malloc or local memory into workgroup attributions
/// (normalizeWorkgroupStorage) and remarks on each kernel it changed.
/// Returns whether it changed the IR.
bool normalizeStorageWithRemarks(Operation *root);

/// The report file of one pass in a pipeline. The pass manager clones a
/// nested pass for each thread; the clones copy the pointer to this state,
/// so all of them write one file: the first write truncates it (unless
/// `append`), later ones append, each under the lock, whole lines. A pass
/// holds `std::shared_ptr<SharedReport> reportFile =
/// std::make_shared<SharedReport>();`.
class SharedReport {
public:
  /// Writes `lines` to `path` ('-': stderr); emits an error at `loc` on
  /// failure.
  LogicalResult write(Location loc, llvm::StringRef path, llvm::StringRef lines,
                      bool append);

private:
  std::mutex mutex;
  bool written = false;
};

/// The loops pk's passes matched and decided on one operation, kept in its
/// analysis manager so that the next pk pass of a pipeline applies or checks
/// the decision instead of matching and deciding again (`pipeline-kernel`:
/// pk-analyze-kloops decides, pk-check-smem-budget checks its budget,
/// pk-pipeline-kloops applies it). A pass that leaves the IR unchanged marks
/// it preserved; any other pass invalidates it, and the loops it holds refer
/// into the IR as it was (AnalyzedKLoop).
class KLoopAnalysisCache {
public:
  explicit KLoopAnalysisCache(Operation *) {}

  /// Keeps `analyzed`, replacing an earlier entry of its loop.
  void insert(scf::ForOp forOp, std::unique_ptr<AnalyzedKLoop> analyzed);
  /// The entry of `forOp`, whatever its request, or null.
  const AnalyzedKLoop *find(scf::ForOp forOp) const {
    auto it = loops.find(forOp);
    return it == loops.end() ? nullptr : it->second.get();
  }
  /// Takes the entry of `forOp` out of the cache if it was decided alike
  /// with `request` (decideAlike); else null.
  std::unique_ptr<AnalyzedKLoop> take(scf::ForOp forOp,
                                      const PipelineRequest &request);

private:
  llvm::DenseMap<Operation *, std::unique_ptr<AnalyzedKLoop>> loops;
};

/// The request of a pass that has the target option set of Passes.td
/// (arch, stages, min-blocks-per-sm, block-size, regs-per-thread).
template <typename PassT>
PipelineRequest makeTargetRequest(const PassT &pass) {
  PipelineRequest request;
  request.arch = pass.arch;
  request.stages = pass.stages.getValue().value;
  request.minBlocksPerSM = pass.minBlocksPerSM.getValue().value;
  request.blockSize = pass.blockSize;
  request.regsPerThread = pass.regsPerThread;
  return request;
}

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_LIB_PASSES_PASSUTILS_H
