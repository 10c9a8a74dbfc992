//===- EmitBinaries.cpp - pk-emit-binaries --------------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Writes <out-dir>/<module>.<arch>.{ll,ptx,cubin} for every gpu.module and
// reports ptxas' resource usage and the occupancy it implies. The IR is not
// changed: each gpu.module is lowered as a copy inside a temporary nested
// module. Tests: test/pk-emit-binaries.mlir,
// test/pk-emit-binaries-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/Emit.h"
#include "pk/KLoopAnalysis.h"
#include "pk/Passes.h"
#include "pk/Pipelining.h"
#include "pk/Report.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#define DEBUG_TYPE "pk-emit-binaries"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKEMITBINARIES
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

/// Writes `contents` to `path`; on failure emits an error at `loc`.
static LogicalResult writeFile(Location loc, StringRef path,
                               StringRef contents) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return emitError(loc) << "cannot write '" << path << "': " << error;
  file->os() << contents;
  file->keep();
  return success();
}

/// Turns LLVM bitcode into textual IR.
static llvm::Expected<std::string> bitcodeToText(StringRef bitcode) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBuffer(bitcode, "kernel", false);
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(buffer->getMemBufferRef(), llvmContext);
  if (!module)
    return module.takeError();
  std::string text;
  llvm::raw_string_ostream os(text);
  (*module)->print(os, nullptr);
  return text;
}

/// The blocks/SM below which `func`'s real occupancy is a warning: `option`,
/// or with 0 the kernel's nvvm.minctasm, else 2.
static int64_t getBlocksThreshold(gpu::GPUFuncOp func, int64_t option) {
  if (option > 0)
    return option;
  if (func)
    if (auto attr = func->getAttrOfType<IntegerAttr>(kMinCtasmAttrName))
      if (attr.getInt() >= 1)
        return attr.getInt();
  return kDefaultMinBlocksPerSM;
}

/// The dynamic shared memory pk's pipelining gave `func`, or 0.
static int64_t getDynamicSharedBytes(gpu::GPUFuncOp func) {
  if (!func)
    return 0;
  if (auto attr =
          func->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttrName))
    return attr.getInt();
  return 0;
}

/// Re-emits `diag` at `loc` when it has no location of its own (and handles
/// it); fails, passing it on unchanged, when it is located.
static LogicalResult locateUnknown(Location loc, Diagnostic &diag) {
  if (!isa<UnknownLoc>(diag.getLocation()))
    return failure();
  Diagnostic located(loc, diag.getSeverity());
  located << diag.str();
  for (Diagnostic &note : diag.getNotes()) {
    std::optional<Location> noteLoc;
    if (!isa<UnknownLoc>(note.getLocation()))
      noteLoc = note.getLocation();
    located.attachNote(noteLoc) << note.str();
  }
  located.attachNote() << "upstream's lowering reported this without a "
                          "location";
  loc->getContext()->getDiagEngine().emit(std::move(located));
  return success();
}

namespace {
/// While alive, re-emits at `loc` (the gpu.module being lowered) every
/// diagnostic that upstream's lowering reports without a location: its type
/// conversions and the translation of the casts they leave have none, and a
/// bare `<unknown>:0: error` does not say which kernel failed. Located
/// diagnostics pass through unchanged.
class LocateUnknownDiagnostics : public ScopedDiagnosticHandler {
public:
  explicit LocateUnknownDiagnostics(Location loc)
      : ScopedDiagnosticHandler(loc->getContext()) {
    setHandler([loc](Diagnostic &diag) { return locateUnknown(loc, diag); });
  }
};

struct EmitBinariesPass final
    : public pk::impl::PKEmitBinariesBase<EmitBinariesPass> {
  using Base::Base;
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) final {
    return pk::detail::initializeOptionsNamingPass(*this, options,
                                                   errorHandler);
  }

  /// The lowering runs as a dynamic pipeline: load every dialect its passes
  /// create up front.
  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm(ModuleOp::getOperationName());
    buildLoweringPipeline(pm, *lookupTarget("sm_86"), /*barePtr=*/false,
                          LoweringFormat::PTX);
    pm.getDependentDialects(registry);
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    emitted.clear();
    const TargetInfo *target =
        pk::detail::lookupTargetOrEmitError(module, arch);
    if (!target)
      return signalPassFailure();
    if (minBlocksPerSM < 0) {
      emitError(module.getLoc())
          << "min-blocks-per-sm must be at least 1 (or 0: each kernel's "
             "nvvm.minctasm), got "
          << int64_t(minBlocksPerSM);
      return signalPassFailure();
    }
    if (emit == EmitKind::MLIR) {
      emitError(module.getLoc())
          << "pk-emit-binaries needs emit=llvm, ptx or cubin (emit=mlir "
             "writes no artefact)";
      return signalPassFailure();
    }
    std::string cuda = resolveCudaPath(cudaPath);
    if (emit == EmitKind::Cubin) {
      SmallString<256> ptxas(cuda);
      llvm::sys::path::append(ptxas, "bin", "ptxas");
      if (!llvm::sys::fs::can_execute(ptxas)) {
        emitError(module.getLoc())
            << "ptxas not found at '" << ptxas
            << "': pass cuda-path=<CUDA toolkit root> or set CUDA_HOME";
        return signalPassFailure();
      }
    }
    if (std::error_code ec = llvm::sys::fs::create_directories(outDir)) {
      emitError(module.getLoc())
          << "cannot create out-dir '" << outDir << "': " << ec.message();
      return signalPassFailure();
    }

    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.empty())
      emitRemark(module.getLoc()) << "no gpu.module to emit";
    for (gpu::GPUModuleOp gpuModule : gpuModules)
      if (failed(emitModule(gpuModule, *target, cuda)))
        return signalPassFailure();
    if (!report.empty() && !emitted.empty() &&
        failed(writeReportLines(module.getLoc(), report,
                                renderReportLines(*target), reportAppend)))
      return signalPassFailure();
  }

  /// Lowers a copy of `gpuModule` and writes its artefacts; records ptxas'
  /// numbers per kernel in `emitted`.
  LogicalResult emitModule(gpu::GPUModuleOp gpuModule, const TargetInfo &target,
                           StringRef cuda) {
    Location loc = gpuModule.getLoc();
    ModuleOp module = getOperation();
    OpBuilder builder(module.getContext());
    builder.setInsertionPointToEnd(module.getBody());
    auto wrapper = ModuleOp::create(builder, loc);
    wrapper->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                     builder.getUnitAttr());
    builder.setInsertionPointToStart(wrapper.getBody());
    auto copy = cast<gpu::GPUModuleOp>(builder.clone(*gpuModule));
    auto cleanup = llvm::scope_exit([&] { wrapper->erase(); });
    // Shared memory the way upstream's lowering keeps it in .shared (a
    // workgroup memref.alloc would become malloc): what pipeline-kernel's
    // first step does, so that the unpipelined build of a kernel is its
    // baseline.
    IRRewriter rewriter(builder.getContext());
    for (auto kernel : copy.getOps<gpu::GPUFuncOp>())
      normalizeWorkgroupStorage(rewriter, kernel, /*globals=*/true);
    if (failed(checkTargetSupport(copy, target)))
      return failure();

    LoweringFormat format =
        emit == EmitKind::LLVMIR ? LoweringFormat::LLVMIR : LoweringFormat::PTX;
    OpPassManager pm(ModuleOp::getOperationName());
    buildLoweringPipeline(pm, target, barePtr, format);
    LocateUnknownDiagnostics locate(loc);
    if (failed(runPipeline(pm, wrapper)))
      return emitError(loc)
             << "lowering gpu.module @" << gpuModule.getName() << " to "
             << (emit == EmitKind::LLVMIR ? "LLVM IR" : "PTX") << " for "
             << target.arch << " failed";
    auto binaries = wrapper.getOps<gpu::BinaryOp>();
    if (binaries.empty())
      return emitError(loc) << "gpu-module-to-binary produced no gpu.binary";
    auto object = cast<gpu::ObjectAttr>((*binaries.begin()).getObjects()[0]);
    StringRef contents = object.getObject().getValue();

    SmallString<256> base(outDir);
    llvm::sys::path::append(base, (gpuModule.getName() + "." + target.arch));
    if (emit == EmitKind::LLVMIR) {
      llvm::Expected<std::string> text = bitcodeToText(contents);
      if (!text)
        return emitError(loc) << "cannot read the LLVM bitcode: "
                              << llvm::toString(text.takeError());
      return writeFile(loc, (base + ".ll").str(), *text);
    }
    std::string ptxPath = (base + ".ptx").str();
    if (failed(writeFile(loc, ptxPath, contents)))
      return failure();
    if (emit == EmitKind::PTX)
      return success();

    std::string cubinPath = (base + ".cubin").str();
    llvm::Expected<SmallVector<PtxasKernelInfo>> kernels =
        runPtxas(ptxPath, cubinPath, target, cuda);
    if (!kernels)
      return emitError(loc) << llvm::toString(kernels.takeError());
    // Report in the module's order, not ptxas'.
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>()) {
      const PtxasKernelInfo *info =
          llvm::find_if(*kernels, [&](const PtxasKernelInfo &k) {
            return k.name == func.getName();
          });
      if (info == kernels->end())
        continue;
      EmittedKernel &entry = emitted.emplace_back();
      entry.key = (gpuModule.getName() + "::" + info->name).str();
      entry.info = *info;
      entry.info.dynamicSharedBytes = getDynamicSharedBytes(func);
      entry.threads = getKernelBlockSize(func);
      entry.blocksThreshold = getBlocksThreshold(func, minBlocksPerSM);
      if (entry.threads > 0)
        entry.occupancy =
            computeOccupancy(target, entry.threads, info->registers,
                             info->sharedBytes + entry.info.dynamicSharedBytes);
      reportKernel(func.getLoc(), entry, target);
    }
    return success();
  }

  /// What ptxas said about one kernel and the occupancy it implies (with a
  /// known block size), for the remark and the report.
  struct EmittedKernel {
    std::string key; ///< "<module>::<kernel>"
    PtxasKernelInfo info;
    int64_t threads = 0;
    int64_t blocksThreshold = 0;
    std::optional<Occupancy> occupancy;
  };

  /// Remark with ptxas' numbers and the occupancy they imply; a warning when
  /// that occupancy is below min-blocks-per-sm.
  void reportKernel(Location loc, const EmittedKernel &kernel,
                    const TargetInfo &target) {
    const PtxasKernelInfo &info = kernel.info;
    InFlightDiagnostic remark = emitRemark(loc);
    remark << "ptxas (" << target.arch << "): " << info.registers
           << " registers, " << info.spillStores << " bytes spill stores, "
           << info.spillLoads << " bytes spill loads, " << info.stackFrame
           << " bytes stack frame, " << info.sharedBytes
           << " bytes shared memory";
    if (info.dynamicSharedBytes)
      remark << " + " << info.dynamicSharedBytes
             << " bytes dynamic shared memory";
    if (!kernel.occupancy)
      return;
    const Occupancy &occ = *kernel.occupancy;
    remark << "; " << occ.blocksPerSM << " blocks/SM (limited by "
           << stringifyOccupancyLimit(occ.limit) << ")";
    remark.report();
    if (occ.blocksPerSM < kernel.blocksThreshold)
      emitWarning(loc) << "with ptxas' " << info.registers
                       << " registers per thread the kernel keeps "
                       << occ.blocksPerSM << " blocks/SM on " << target.arch
                       << " (limited by " << stringifyOccupancyLimit(occ.limit)
                       << "), below min-blocks-per-sm="
                       << kernel.blocksThreshold
                       << ": the occupancy cliff is crossed after the fact";
  }

  SmallVector<EmittedKernel> emitted;

  /// The report's lines of this pass: one per emitted kernel, in the
  /// module's order, joined to the loop lines of pk-analyze-kloops /
  /// pk-pipeline-kloops on `kernel` and `arch` (docs/report.md).
  std::string renderReportLines(const TargetInfo &target) const {
    std::string out;
    for (const EmittedKernel &kernel : emitted) {
      const PtxasKernelInfo &info = kernel.info;
      llvm::json::Object ptxas{
          {"dynamic_shared_bytes", info.dynamicSharedBytes},
          {"registers", info.registers},
          {"spill_stores_bytes", info.spillStores},
          {"spill_loads_bytes", info.spillLoads},
          {"stack_frame_bytes", info.stackFrame},
          {"shared_bytes", info.sharedBytes},
      };
      if (const std::optional<Occupancy> &occ = kernel.occupancy) {
        ptxas["blocks_per_sm"] = occ->blocksPerSM;
        ptxas["limit"] = stringifyOccupancyLimit(occ->limit);
        ptxas["below_target"] = occ->blocksPerSM < kernel.blocksThreshold;
      }
      llvm::json::Object line{
          {"kernel", kernel.key},
          {"arch", target.arch},
          {"threads_per_block", kernel.threads},
          {"ptxas", std::move(ptxas)},
      };
      out += llvm::formatv("{0}\n", llvm::json::Value(std::move(line))).str();
    }
    return out;
  }
};
} // namespace
