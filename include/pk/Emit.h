//===- Emit.h - Lower kernels to PTX / cubin, ptxas report ------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The fifth stage of pk's data flow (docs/architecture.md): pk's own
// lowering from the nvgpu/gpu/vector/scf level to NVVM, PTX (LLVM's NVPTX
// back end) and a cubin (ptxas), with the PTX version of the target table
// (docs/lowering.md), and the parsing of ptxas' resource usage. The
// pk-emit-binaries pass drives it.
//
//===----------------------------------------------------------------------===//

#ifndef PK_EMIT_H
#define PK_EMIT_H

#include "pk/Decline.h"
#include "pk/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace pk {

/// What ptxas -v reports for one kernel.
struct PtxasKernelInfo {
  std::string name;
  int64_t registers = 0;
  int64_t spillStores = 0, spillLoads = 0;
  int64_t stackFrame = 0;
  int64_t sharedBytes = 0;
  /// Dynamic shared memory the kernel is launched with (not from ptxas:
  /// pk.dynamic_shared_memory_bytes).
  int64_t dynamicSharedBytes = 0;
};

/// Parses the output of `ptxas -v` (one entry per "Compiling entry
/// function" / "Function properties" block).
SmallVector<PtxasKernelInfo> parsePtxasOutput(llvm::StringRef text);

/// The output form of `lowerGPUModule`.
enum class LoweringFormat { LLVMIR, PTX };

/// Adds pk's lowering of every gpu.module under a builtin.module to `pm`
/// (anchored on that builtin.module), ending in gpu-module-to-binary with
/// the given format.
void buildLoweringPipeline(OpPassManager &pm, const TargetInfo &target,
                           bool barePtr, LoweringFormat format);

/// Registers pk's own steps of that lowering (pk-lower-transfers,
/// pk-prove-shared-alignment, pk-allow-contraction) for pk-opt and tests.
void registerLoweringPasses();

/// The CUDA toolkit root: `option` if not empty, else $CUDA_HOME, else
/// /usr/local/cuda.
std::string resolveCudaPath(llvm::StringRef option);

/// Runs `<cudaPath>/bin/ptxas -arch=<arch> -O3 -v ptxPath -o cubinPath`
/// (at most kPtxasTimeoutSeconds). The error names the missing ptxas or
/// quotes its diagnostics.
llvm::Expected<SmallVector<PtxasKernelInfo>> runPtxas(llvm::StringRef ptxPath,
                                                      llvm::StringRef cubinPath,
                                                      const TargetInfo &target,
                                                      llvm::StringRef cudaPath);

/// The longest pk waits for one ptxas run (a hung ptxas must not hang pk).
constexpr unsigned kPtxasTimeoutSeconds = 300;

/// The first operation under `root` that `target`'s NVPTX back end cannot
/// select (LLVM would abort, or MLIR's NVVM verifier would fail in the
/// middle of the lowering): wgmma outside sm_90a, mma.sync shapes and
/// cp.async that need sm_80. Located at it, saying why; none if there is
/// none.
std::optional<Decline> findUnsupportedOp(Operation *root,
                                         const TargetInfo &target);

/// findUnsupportedOp as a located error.
LogicalResult checkTargetSupport(Operation *root, const TargetInfo &target);

/// Lowers `wrapper` (a builtin.module holding one gpu.module, detached from
/// any other IR; it is consumed) to PTX with pk's lowering, after
/// canonicalize and cse as pipeline-kernel runs them, assembles it with
/// ptxas in a temporary directory and returns ptxas' numbers for `kernel`.
/// The register-aware decision's compiler (docs/stages.md); the calling
/// convention is the bare-pointer one when every kernel memref argument is
/// static, the descriptors otherwise.
llvm::Expected<PtxasKernelInfo> compileForResources(ModuleOp wrapper,
                                                    llvm::StringRef kernel,
                                                    const TargetInfo &target,
                                                    llvm::StringRef cudaPath);

/// Whether `<cudaPath>/bin/ptxas` exists and is executable, or the error
/// that says where pk looked ("ptxas not found at ...").
llvm::Error checkPtxas(llvm::StringRef cudaPath);

} // namespace pk
} // namespace mlir

#endif // PK_EMIT_H
