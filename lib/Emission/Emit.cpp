//===- Emit.cpp - Lower kernels to PTX / cubin, run ptxas -----------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#include "pk/Emit.h"
#include "LoweringPasses.h"
#include "pk/KLoopMatcher.h"
#include "pk/MemoryAccess.h"
#include "pk/Support.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::pk;

namespace {
/// Whether `module` runs wgmma (whose operands pk aligns to 1024 bytes).
static bool runsWgmma(gpu::GPUModuleOp module) {
  return module
      .walk([](Operation *op) {
        return op->getName().getStringRef().starts_with("nvvm.wgmma.")
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Fixes the dynamic shared-memory base (the `__dynamic_shmem__*` globals
/// convert-gpu-to-nvvm creates: internal zero-size arrays, 16-byte aligned).
///
/// * It becomes an external declaration. NVPTX demotes an internal one into
///   its kernel as a one-byte static `.shared .b8 __dynamic_shmem__0`, which
///   ptxas lays out among the kernel's static shared variables: one placed
///   after it (the TMA ring's `__mbarrier`, 8 bytes further) then lies in
///   the bytes the kernel addresses as dynamic shared memory, where stage
///   0's loads overwrite it. An external declaration prints as `.extern
///   .shared .align A .b8 __dynamic_shmem__0[]`, which ptxas places after
///   all static shared memory (what nvcc emits for `extern __shared__`).
/// * In a gpu.module that runs wgmma its alignment becomes 1024: pk places
///   1024-byte aligned wgmma operands at offsets of that base, which holds
///   only if the base is.
struct DynamicSharedMemoryBasePass
    : PassWrapper<DynamicSharedMemoryBasePass,
                  OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DynamicSharedMemoryBasePass)

  StringRef getArgument() const final { return "pk-dynamic-smem-base"; }

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    bool wgmma = runsWgmma(module);
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      if (!global.getSymName().starts_with("__dynamic_shmem__"))
        continue;
      if (global.getAddrSpace() == NVVM::NVVMMemorySpace::Shared &&
          !global.getValue() && global.getInitializerRegion().empty())
        global.setLinkage(LLVM::Linkage::External);
      if (wgmma && global.getAlignment().value_or(0) <
                       static_cast<uint64_t>(kWgmmaOperandAlignment))
        global.setAlignment(kWgmmaOperandAlignment);
    }
  }
};

/// Keeps a kernel's `nvvm.reqntid` (PTX .reqntid, which a launch of another
/// block size fails) where convert-gpu-to-nvvm also derived `nvvm.maxntid`
/// from its known_block_size: ptxas refuses both. pk's warp-specialized
/// kernels require the block they were grown to (WarpSpecialize.cpp).
struct RequiredBlockSizePass
    : PassWrapper<RequiredBlockSizePass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RequiredBlockSizePass)

  StringRef getArgument() const final { return "pk-required-block-size"; }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(NVVM::NVVMDialect::getReqntidAttrName()))
        func->removeAttr(NVVM::NVVMDialect::getMaxntidAttrName());
  }
};
} // namespace

void mlir::pk::buildLoweringPipeline(OpPassManager &pm,
                                     const TargetInfo &target, bool barePtr,
                                     LoweringFormat format) {
  GpuNVVMAttachTargetOptions attach;
  attach.chip = target.arch.str();
  attach.features = llvm::formatv("+ptx{0}", target.ptxVersion).str();
  attach.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(attach));

  // The device half of upstream's buildLowerToNVVMPassPipeline
  // (gpu-lower-to-nvvm-pipeline), in its order, without strip-debuginfo
  // (pk's diagnostics keep the kernel's locations).
  OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
  gpuPm.addPass(detail::createLowerBf16MmaSyncPass());
  gpuPm.addPass(detail::createAccumulatorSelectsAsBranchesPass());
  gpuPm.addPass(createConvertNVGPUToNVVMPass());
  // Transfers with a permutation map (transposing or broadcasting reads and
  // writes) and of rank > 1 become 1-D transfers; fully unrolled, so that no
  // temporary buffer is left for the NVVM lowering to put in local memory.
  gpuPm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  gpuPm.addPass(detail::createLowerTransfersPass());
  gpuPm.addPass(detail::createProveSharedAlignmentPass());
  gpuPm.addPass(memref::createExpandStridedMetadataPass());
  gpuPm.addPass(createLowerAffinePass());
  gpuPm.addPass(createSCFToControlFlowPass());
  gpuPm.addPass(createConvertNVVMToLLVMPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = barePtr;
  gpuPm.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  // What convert-gpu-to-nvvm leaves: vector ops (masked transfers of the
  // partial tiles, transposes, contractions), arith, index, and the
  // ub.poison the vector lowerings create.
  // vector.contract as outer products (vector.fma: FFMA), not as
  // multiplies and reductions (FMUL + FADD, which nothing fuses).
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  gpuPm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  gpuPm.addPass(createArithToLLVMConversionPass());
  gpuPm.addPass(createConvertIndexToLLVMPass());
  gpuPm.addPass(createUBToLLVMConversionPass());
  gpuPm.addPass(detail::createAllowContractionPass());
  gpuPm.addPass(LLVM::createNVVMOptimizeForTargetPass());
  gpuPm.addPass(createCanonicalizerPass());
  gpuPm.addPass(createCSEPass());
  gpuPm.addPass(createReconcileUnrealizedCastsPass());
  gpuPm.addPass(std::make_unique<DynamicSharedMemoryBasePass>());
  gpuPm.addPass(std::make_unique<RequiredBlockSizePass>());

  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = format == LoweringFormat::PTX ? "isa" : "llvm";
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
}

std::string mlir::pk::resolveCudaPath(StringRef option) {
  if (!option.empty())
    return option.str();
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    if (!home->empty())
      return *home;
  return "/usr/local/cuda";
}

SmallVector<PtxasKernelInfo> mlir::pk::parsePtxasOutput(StringRef text) {
  SmallVector<PtxasKernelInfo> kernels;
  llvm::Regex function("Compiling entry function '([^']+)'");
  llvm::Regex spills("([0-9]+) bytes stack frame, ([0-9]+) bytes spill "
                     "stores, ([0-9]+) bytes spill loads");
  llvm::Regex used("Used ([0-9]+) registers");
  llvm::Regex smem("([0-9]+) bytes smem");
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef> m;
    if (function.match(line, &m)) {
      kernels.push_back(PtxasKernelInfo{m[1].str()});
      continue;
    }
    if (kernels.empty())
      continue;
    PtxasKernelInfo &k = kernels.back();
    if (spills.match(line, &m)) {
      llvm::to_integer(m[1], k.stackFrame);
      llvm::to_integer(m[2], k.spillStores);
      llvm::to_integer(m[3], k.spillLoads);
    }
    if (used.match(line, &m))
      llvm::to_integer(m[1], k.registers);
    if (smem.match(line, &m))
      llvm::to_integer(m[1], k.sharedBytes);
  }
  return kernels;
}

/// An llvm::Error with `message`.
static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<SmallVector<PtxasKernelInfo>>
mlir::pk::runPtxas(StringRef ptxPath, StringRef cubinPath,
                   const TargetInfo &target, StringRef cudaPath) {
  SmallString<256> ptxas(cudaPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (llvm::Error missing = checkPtxas(cudaPath))
    return std::move(missing);
  SmallString<128> log;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("pk-ptxas", "log", log))
    return makeError("cannot create a temporary file: " + ec.message());
  std::string archArg = ("-arch=" + target.arch).str();
  SmallVector<StringRef> args{ptxas,   archArg, "-O3",    "-v",
                              ptxPath, "-o",    cubinPath};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt,
                                     redirects, kPtxasTimeoutSeconds,
                                     /*MemoryLimit=*/0, &execError);
  auto buffer = llvm::MemoryBuffer::getFile(log);
  std::string output = buffer ? (*buffer)->getBuffer().str() : "";
  llvm::sys::fs::remove(log);
  if (rc != 0)
    return makeError(
        "ptxas failed (exit " + Twine(rc) + "): " +
        (execError.empty() ? StringRef(output).trim() : StringRef(execError)));
  return parsePtxasOutput(output);
}

llvm::Error mlir::pk::checkPtxas(StringRef cudaPath) {
  SmallString<256> ptxas(cudaPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (llvm::sys::fs::can_execute(ptxas))
    return llvm::Error::success();
  return makeError("ptxas not found at '" + ptxas +
                   "': pass cuda-path=<CUDA toolkit root> or set CUDA_HOME");
}

/// The PTX of the gpu.binary that lowering `wrapper` produced.
static llvm::Expected<std::string> getPtx(ModuleOp wrapper) {
  auto binaries = wrapper.getOps<gpu::BinaryOp>();
  if (binaries.empty())
    return makeError("gpu-module-to-binary produced no gpu.binary");
  auto object = cast<gpu::ObjectAttr>((*binaries.begin()).getObjects()[0]);
  return object.getObject().getValue().str();
}

/// Whether `op` is a warpgroup MMA operation (nvgpu's or NVVM's wgmma).
static bool isWarpgroupMmaOp(Operation *op) {
  return isa<nvgpu::WarpgroupMmaOp, nvgpu::WarpgroupGenerateDescriptorOp,
             nvgpu::WarpgroupMmaStoreOp, nvgpu::WarpgroupMmaInitAccumulatorOp>(
             op) ||
         op->getName().getStringRef().starts_with("nvvm.wgmma.");
}

/// What a target before sm_80 lacks for `op` (cp.async, bf16 and the larger
/// mma.sync shapes), or the empty string.
static std::string getPreAmpereUnsupportedReason(Operation *op,
                                                 const TargetInfo &target) {
  if (isa<nvgpu::DeviceAsyncCopyOp>(op))
    return llvm::formatv("nvgpu.device_async_copy (cp.async) needs sm_80 or "
                         "later; {0} has none: use variant=ldg-register",
                         target.arch)
        .str();
  // sm_75 has m16n8k8 on f16 and m8n8k16 on 8-bit integers (and the
  // m8n8k4 f16 of sm_70); bf16, tf32 and the larger shapes arrived with
  // sm_80. LLVM's NVPTX back end aborts on the others ("Cannot select").
  std::array<int64_t, 3> shape;
  std::string type;
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    shape = mma.getMmaShapeAsArray();
    llvm::raw_string_ostream os(type);
    os << mma.getMatrixA().getType().getElementType();
    if (type == "i8")
      type = "s8";
  } else if (auto mma = dyn_cast<NVVM::MmaOp>(op)) {
    NVVM::MMAShapeAttr attr = mma.getShape();
    shape = {attr.getM(), attr.getN(), attr.getK()};
    if (std::optional<NVVM::MMATypes> ptx = mma.getMultiplicandAPtxType())
      type = NVVM::stringifyMMATypes(*ptx).str();
  } else {
    return "";
  }
  bool f16 = type == "f16", i8 = type == "s8" || type == "u8";
  if ((f16 && shape == std::array<int64_t, 3>{16, 8, 8}) ||
      (f16 && shape == std::array<int64_t, 3>{8, 8, 4}) ||
      (i8 && shape == std::array<int64_t, 3>{8, 8, 16}))
    return "";
  return llvm::formatv("{0} {1} m{2}n{3}k{4} needs sm_80 or later; {5} has "
                       "mma.sync m16n8k8 on f16 and m8n8k16 on 8-bit integers "
                       "only",
                       op->getName(), type.empty() ? "(untyped)" : type,
                       shape[0], shape[1], shape[2], target.arch)
      .str();
}

/// Why `target` cannot lower `op`, or the empty string.
static std::string getUnsupportedReason(Operation *op,
                                        const TargetInfo &target) {
  // ptxas refuses static shared memory above the per-block default; LLVM
  // emits the PTX all the same.
  if (auto kernel = dyn_cast<gpu::GPUFuncOp>(op); kernel && kernel.isKernel()) {
    std::optional<int64_t> bytes = getStaticSharedBytes(kernel);
    if (bytes && *bytes > target.smemPerBlockDefault)
      return llvm::formatv(
                 "the kernel declares {0} bytes of static shared memory "
                 "(workgroup attributions and workgroup memref.globals), "
                 "above the {1}-byte static limit of {2}: ptxas refuses it "
                 "(pk moves the stages of a loop it pipelines above the "
                 "limit to dynamic shared memory; this storage is the "
                 "kernel's own)",
                 *bytes, target.smemPerBlockDefault, target.arch)
          .str();
  }
  // Upstream lowers a shared-memory allocation inside a kernel to malloc
  // (global memory) or local memory: never emit that silently.
  if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
      op->getParentOfType<gpu::GPUFuncOp>()) {
    auto type = cast<MemRefType>(op->getResult(0).getType());
    if (gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type) ||
        nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(type))
      return llvm::formatv(
                 "this shared-memory {0} would lower to {1}, not .shared: "
                 "pk-normalize-workgroup-storage turns a static allocation "
                 "used directly or through one memref.view at offset 0 into "
                 "a workgroup attribution, and this one is not of that form",
                 op->getName(),
                 isa<memref::AllocOp>(op) ? "malloc" : "local memory")
          .str();
    // Any other allocation: a per-thread device-heap buffer (an alloca of
    // private memory is a thread's stack, its storage as written).
    if (isa<memref::AllocOp>(op))
      return "this memref.alloc inside a kernel would lower to a device-side "
             "malloc per thread (global memory); pk emits no kernel that "
             "allocates from the device heap: pass the buffer as a kernel "
             "argument, or allocate it in #gpu.address_space<workgroup> for "
             "shared memory";
  }
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op))
    if (std::optional<std::string> problem =
            pk::detail::getBf16MmaSyncLoweringProblem(mma);
        problem && !problem->empty())
      return *problem;
  if (!target.hasWgmma && isWarpgroupMmaOp(op))
    return llvm::formatv("{0} (wgmma) needs arch=sm_90a; {1} has none (MLIR "
                         "and ptxas accept wgmma only on the "
                         "architecture-specific sm_90a target)",
                         op->getName(), target.arch)
        .str();
  // The tensor-map acquire fence is PTX 8.3; at a lower PTX version LLVM's
  // NVPTX back end aborts ("Cannot select") instead of reporting it.
  constexpr unsigned kTensormapFencePtx = 83;
  if (target.ptxVersion < kTensormapFencePtx &&
      isa<nvgpu::TmaFenceOp, NVVM::FenceProxyAcquireOp>(op))
    return llvm::formatv("{0} (fence.proxy.tensormap::generic.acquire) needs "
                         "PTX {1}.{2}; pk emits PTX {3}.{4} for {5}",
                         op->getName(), kTensormapFencePtx / 10,
                         kTensormapFencePtx % 10, target.ptxVersion / 10,
                         target.ptxVersion % 10, target.arch)
        .str();
  if (target.computeCapability >= 80)
    return "";
  return getPreAmpereUnsupportedReason(op, target);
}

std::optional<Decline> mlir::pk::findUnsupportedOp(Operation *root,
                                                   const TargetInfo &target) {
  std::optional<Decline> found;
  root->walk([&](Operation *op) {
    std::string why = getUnsupportedReason(op, target);
    if (why.empty())
      return WalkResult::advance();
    found = Decline(op, why);
    return WalkResult::interrupt();
  });
  return found;
}

LogicalResult mlir::pk::checkTargetSupport(Operation *root,
                                           const TargetInfo &target) {
  if (std::optional<Decline> unsupported = findUnsupportedOp(root, target)) {
    unsupported->emit(DiagnosticSeverity::Error);
    return failure();
  }
  return success();
}

/// Whether every memref argument of every kernel under `root` has a static
/// shape, so that the bare-pointer calling convention applies.
static bool hasOnlyStaticMemRefArgs(Operation *root) {
  bool allStatic = true;
  root->walk([&](gpu::GPUFuncOp func) {
    for (Type type : func.getArgumentTypes())
      if (auto memref = dyn_cast<MemRefType>(type))
        allStatic &= memref.hasStaticShape();
  });
  return allStatic;
}

/// Writes `ptx` to a temporary directory and runs ptxas on it.
static llvm::Expected<SmallVector<PtxasKernelInfo>>
assembleInTemporaryDirectory(StringRef ptx, const TargetInfo &target,
                             StringRef cudaPath) {
  SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("pk-candidate", dir))
    return makeError("cannot create a temporary directory: " + ec.message());
  SmallString<128> ptxPath(dir), cubinPath(dir);
  llvm::sys::path::append(ptxPath, "kernel.ptx");
  llvm::sys::path::append(cubinPath, "kernel.cubin");
  llvm::Expected<SmallVector<PtxasKernelInfo>> kernels =
      makeError("cannot write '" + ptxPath + "'");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxPath, ec);
    if (!ec) {
      os << ptx;
      os.close();
      llvm::consumeError(kernels.takeError());
      kernels = runPtxas(ptxPath, cubinPath, target, cudaPath);
    }
  }
  llvm::sys::fs::remove(ptxPath);
  llvm::sys::fs::remove(cubinPath);
  llvm::sys::fs::remove(dir);
  return kernels;
}

llvm::Expected<PtxasKernelInfo>
mlir::pk::compileForResources(ModuleOp wrapper, StringRef kernel,
                              const TargetInfo &target, StringRef cudaPath) {
  // LLVM's NVPTX back end aborts on what the target cannot select.
  if (std::optional<Decline> unsupported = findUnsupportedOp(wrapper, target))
    return makeError(unsupported->getMessage());
  // The final lowering's calling convention where it applies (pk-emit-
  // binaries' bare-ptr); dynamic-shape memrefs need the descriptors.
  bool barePtr = hasOnlyStaticMemRefArgs(wrapper);
  PassManager pm(wrapper.getContext(), ModuleOp::getOperationName());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  buildLoweringPipeline(pm, target, barePtr, LoweringFormat::PTX);
  if (failed(pm.run(wrapper)))
    return makeError("lowering to PTX for " + target.arch + " failed");
  llvm::Expected<std::string> ptx = getPtx(wrapper);
  if (!ptx)
    return ptx.takeError();
  llvm::Expected<SmallVector<PtxasKernelInfo>> kernels =
      assembleInTemporaryDirectory(*ptx, target, cudaPath);
  if (!kernels)
    return kernels.takeError();
  for (const PtxasKernelInfo &info : *kernels)
    if (info.name == kernel)
      return info;
  return makeError("ptxas reported no kernel '" + kernel + "'");
}
