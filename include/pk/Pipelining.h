//===- Pipelining.h - Software pipelining of tiled GPU K-loops --*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The seed procedure's Steps 2-4 as a transformation: multi-buffer the shared
// tiles a K-loop's load phase writes and restructure the loop into prologue /
// steady-state loop / epilogue so that the loads of the next tiles overlap
// the compute of tile t. The restructuring itself is upstream's
// `scf::pipelineForLoop`, driven by a schedule (load phase: stage 0, compute
// phase: stage 1, or N-1 for N cp.async stages) whose op order encodes each
// variant's barrier and cp.async group/wait placement. On success the
// steady-state loop carries `pk.pipelined`; on failure the enclosing
// gpu.module is replaced by the copy taken before the rewrite (handles into
// it are invalidated).
//
//===----------------------------------------------------------------------===//

#ifndef PK_PIPELINING_H
#define PK_PIPELINING_H

#include "pk/KLoopAnalysis.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace pk {

/// The order of a cp-async iteration.
enum class PipelineSchedule {
  /// Multistage (measured faster than Seed at 2 stages on an H200).
  Auto,
  /// The seed procedure's two-stage order: issue tile t+1, commit, compute
  /// tile t, wait for all groups, barrier.
  Seed,
  /// The CUDA guide's multistage order: wait for all but N-2 groups,
  /// barrier, issue tile t+N-1, commit, compute tile t.
  Multistage,
};

/// Returns "auto", "seed" or "multistage".
llvm::StringRef stringifyPipelineSchedule(PipelineSchedule schedule);

/// Options of `pipelineKLoop`.
struct PipelineKLoopOptions {
  /// CpAsync, LdgRegister or RegisterPrefetch (not None).
  PipelineVariant variant = PipelineVariant::CpAsync;
  /// Number of shared-memory buffers: 2 (double buffering) to 8 for
  /// cp-async; the register variants use 2 (ldg-register) or 1
  /// (register-prefetch) whatever this says.
  int64_t stages = 2;
  /// The cp-async order.
  PipelineSchedule schedule = PipelineSchedule::Auto;
  /// Above this many bytes of shared memory per block (the 48 KB limit of
  /// static shared memory) the multi-buffered tiles move to dynamic shared
  /// memory (`gpu.dynamic_shared_memory` + `memref.view`) and the kernel gets
  /// the `pk.dynamic_shared_memory_bytes` attribute: launch it with that
  /// many bytes of dynamic shared memory (and the opt-in attribute above
  /// 48 KB).
  int64_t staticSharedMemoryLimit = 48 * 1024;
};

/// The number of shared buffers `pipelineKLoop` creates for `info`:
/// 1 for register-prefetch, 2 for ldg-register, else `options.stages`
/// capped by the static trip count.
int64_t getEffectiveStages(const KLoopInfo &info,
                           const PipelineKLoopOptions &options);

/// Checks, without changing anything, that every global -> shared copy of
/// `info` can become `nvgpu.device_async_copy` with a 4, 8 or 16-byte width
/// whose alignment is proven (or asserted by an `alignment` attribute), and
/// returns the narrowest width chosen. On failure sets `reason`.
FailureOr<int64_t> getCpAsyncCopyWidth(const KLoopInfo &info,
                                       std::string &reason);

/// Software-pipelines the matched K-loop `info` with `options`.
///
/// Preconditions (checked; on violation nothing changes and `reason` says
/// why): a static trip count >= 2, or a dynamic one (the loop is then
/// versioned on `trip count >= stages`); every use of a copied shared buffer
/// is a direct access inside the loop whose indices do not depend on the
/// induction variable (vector.load/store, vector.transfer_read/
/// write, memref.load/store, nvgpu.ldmatrix); for cp-async, the copies pass
/// `getCpAsyncCopyWidth`; for the register variants, the shared stores sit
/// directly in the K-loop body.
///
/// The transform is all or nothing: if any step fails the kernel is restored
/// as it was. On success returns the steady-state loop; `info` is stale.
FailureOr<scf::ForOp> pipelineKLoop(RewriterBase &rewriter, KLoopInfo &info,
                                    const PipelineKLoopOptions &options,
                                    std::string &reason);

} // namespace pk
} // namespace mlir

#endif // PK_PIPELINING_H
