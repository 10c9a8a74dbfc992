//===- pk-sass-check.cpp - Verify load/compute overlap in SASS ------------===//
//
// pk-sass-check verifies Step 7 of the pipelining procedure on a cubin: in the
// kernel's main loop, the global loads of the next tile (LDGSTS for cp.async,
// LDG for register prefetch) are issued before, and overlap, the tensor-core
// (HMMA/IMMA/...) or FFMA compute of the current tile.
//
// It disassembles the cubin with `cuobjdump -sass` (or reads SASS text with
// --sass-input), finds each kernel's main loop (the backward branch enclosing
// the most compute instructions), and checks:
//
//   main_loop                            a loop around the compute exists
//   loads_before_compute                 first global load < first compute
//   no_barrier_between_loads_and_compute no BAR.SYNC from that load to the
//                                        next compute
//   barrier_after_compute                a BAR.SYNC after the last compute
//   compute_per_iteration (--baseline)   loop compute == baseline loop compute
//   compute_total (--baseline)           compute outside the loop (the peeled
//                                        epilogue tile) == one tile's compute
//   no_spills                            no STL/LDL; LOCAL:0 and STACK:0
//
// Exit status: 0 all checks pass, 1 a check fails, 2 usage or tool errors, 3
// no check fails but a kernel is unsupported (no loop encloses its compute).
// The parsing, analysis, checks and reports are the PKVerification library
// (include/pk/Verification/SassCheck.h); this file is its command line.
// Tests: test/pk-sass-check/ and unittests/Verification/.
//
//===----------------------------------------------------------------------===//

#include "pk/Verification/SassCheck.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace pk::sass;

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

static cl::OptionCategory toolCategory("pk-sass-check options");

static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<pipelined.cubin>"),
                                      cl::cat(toolCategory));

static cl::opt<std::string>
    baselinePath("baseline",
                 cl::desc("Unpipelined cubin of the same kernel: enables "
                          "compute_per_iteration and compute_total"),
                 cl::value_desc("unpipelined.cubin"), cl::cat(toolCategory));

static cl::opt<std::string>
    kernelName("kernel",
               cl::desc("Check only this kernel (default: every kernel)"),
               cl::value_desc("name"), cl::cat(toolCategory));

static cl::opt<std::string>
    jsonPath("json",
             cl::desc("Write every number as JSON to <file> ('-': stdout, "
                      "and the text report is not printed)"),
             cl::value_desc("file"), cl::cat(toolCategory));

static cl::opt<std::string> cuobjdumpOpt(
    "cuobjdump",
    cl::desc("cuobjdump to run (default: $CUOBJDUMP, PATH, then the PyPI "
             "package nvidia-cuda-cuobjdump found through python3)"),
    cl::value_desc("path"), cl::cat(toolCategory));

static cl::opt<bool>
    printFullSass("sass",
                  cl::desc("Print every instruction of the main loop, "
                           "annotated, instead of the elided excerpt"),
                  cl::cat(toolCategory));

static cl::opt<unsigned> stagesOpt(
    "stages",
    cl::desc("Pipeline stages of the pipelined kernel: its epilogue computes "
             "stages - 1 tiles outside the loop (compute_total; a wgmma "
             "cp.async loop's copy distance instead), and a wgmma loop's "
             "refills may need up to this many stages (wgmma_stage_safety)"),
    cl::init(2), cl::cat(toolCategory));

static cl::opt<double> ffmaOverlap(
    "ffma-overlap",
    cl::desc("FP32 (FFMA) kernels: loads_before_compute passes when at least "
             "this fraction of the loop's FFMAs follow the first global load "
             "(ptxas interleaves LDGs among the hundreds of FFMAs of a tile); "
             "tensor-core kernels always need every MMA after it"),
    cl::init(0.5), cl::cat(toolCategory));

static cl::opt<bool> sassInput(
    "sass-input",
    cl::desc("The inputs are SASS text (the output of `cuobjdump -sass`), "
             "not cubins; cuobjdump is not run and -res-usage is not read"),
    cl::cat(toolCategory));

static const char *const toolOverview =
    R"(verify that global loads overlap compute in a kernel's main loop

Disassembles <pipelined.cubin> with `cuobjdump -sass` (and reads
`cuobjdump -res-usage`), finds each kernel's main loop -- the body of a backward
branch (BRA to an address <= its own); of several, the one with the most compute
instructions -- and checks, printing an annotated excerpt of the loop and a
PASS/FAIL table:

  main_loop                             a backward branch encloses compute
  loads_before_compute                  the loop's first global load (LDGSTS,
                                        LDG, UTMALDG) precedes its first compute
                                        (FFMA kernels: precedes at least
                                        --ffma-overlap of the loop's FFMAs)
  no_barrier_between_loads_and_compute  no BAR.SYNC between that load and the
                                        next compute (around the back edge if
                                        the load comes after every compute)
  barrier_after_compute                 a BAR.SYNC between the last compute and
                                        the backward branch
  compute_per_iteration  (--baseline)   compute in the loop == compute in the
                                        baseline's main loop
  compute_total          (--baseline)   compute outside the pipelined loop minus
                                        compute outside the baseline's loop ==
                                        one tile's compute
  no_spills                             no STL/LDL; with a cubin, -res-usage
                                        reports LOCAL:0 and STACK:0
  wgmma_overlap          (HGMMA loop)   every global load of the loop overlaps
                                        a wgmma group: issued while one is in
                                        flight, or one issues before the load's
                                        data is consumed (STS, cp.async wait)
  wgmma_stage_safety     (HGMMA loop)   a BAR.SYNC between the last
                                        WARPGROUP.DEPBAR.LE gsb0, N and each
                                        shared write (STS, LDGSTS), and the N
                                        groups in flight fit in --stages
  proxy_fence            (HGMMA loop)   a FENCE.VIEW.ASYNC.S between each
                                        group's first HGMMA and the STS or
                                        cp.async wait before it

The three wgmma checks SKIP in kernels whose main loop has no warpgroup MMA.

Compute is HMMA/IMMA/HGMMA/IGMMA/QGMMA/BGMMA/DMMA/BMMA; in a kernel without
any of those, FFMA (FP32 kernels).

Why compute_total: pipelining peels one tile. The prologue issues the loads of
tile 0, the loop runs n-1 iterations (loads of tile t+1, compute of tile t) and
the epilogue computes the last tile. With C compute instructions per tile, the
pipelined kernel executes (n-1)*C + E where E is the compute outside its loop;
the baseline executes n*C + E0. They match exactly when the loop bodies hold the
same count and E - E0 == C: the peeled epilogue is one full tile.

ptxas may unroll a loop. When the counts differ, one tile is taken to be their
greatest common divisor and each loop unrolled by its count / tile; the check
passes, naming the unrolled loop and the factor, when both factors are <= 8
and the global-memory bytes loaded per thread per iteration (from the load
widths) have the same ratio; otherwise compute was lost or duplicated: FAIL.
An unrolled loop may leave remainder tiles outside it, so compute_total then
accepts 1 - r .. k tiles (pipelined loop unrolled by k; r <= the baseline's
remainder tiles).

cuobjdump: --cuobjdump, else $CUOBJDUMP, else PATH, else
<site-packages>/nvidia/cu13/bin/cuobjdump located with python3 (pip install
nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm). `cuobjdump -sass` runs nvdisasm:
NVDISASM_PATH is set to cuobjdump's directory when it holds nvdisasm.

Exit status: 0 every check passes, 1 a check fails, 2 usage or tool error,
3 no check fails but a kernel is UNSUPPORTED (no loop encloses its compute:
nothing to check).
)";

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Prints `pk-sass-check: error: <message>` and returns exit status 2.
static int toolError(const Twine &message) {
  WithColor::error(errs(), "pk-sass-check") << message << "\n";
  return 2;
}

/// Keeps only the kernel named by --kernel, if given. Returns false when
/// there is no such kernel.
static bool selectKernel(std::vector<Kernel> &kernels) {
  if (kernelName.empty())
    return true;
  std::vector<std::string> names;
  for (const Kernel &kernel : kernels)
    names.push_back(kernel.name);
  llvm::erase_if(kernels, [](const Kernel &k) { return k.name != kernelName; });
  if (!kernels.empty())
    return true;
  toolError("no kernel '" + kernelName + "' in '" + inputPath +
            "' (kernels: " + join(names, ", ") + ")");
  return false;
}

/// Checks every kernel, printing the text report to `text` and the kernel
/// objects to `json` when it is not null. Returns the exit status.
static int checkKernels(ArrayRef<Kernel> kernels,
                        ArrayRef<KernelAnalysis> baselines, raw_ostream &text,
                        json::OStream *json) {
  CheckOptions options{ffmaOverlap, stagesOpt};
  bool allPassed = true, anyUnsupported = false;
  SmallVector<std::string> kernelResults;
  for (const Kernel &kernel : kernels) {
    const KernelAnalysis *baseline = nullptr;
    if (!baselinePath.empty()) {
      baseline = matchBaseline(kernel, baselines);
      if (!baseline)
        return toolError("no kernel '" + kernel.name + "' in the baseline '" +
                         baselinePath + "'");
    }
    KernelReport report = checkKernel(kernel, baseline, options);
    allPassed &= report.passed();
    anyUnsupported |= !report.unsupported.empty();
    printKernelReport(text, report, printFullSass);
    kernelResults.push_back(kernel.name + ": " + report.resultName().str());
    if (json)
      writeKernelJson(*json, report);
  }
  StringRef result = !allPassed       ? "FAIL"
                     : anyUnsupported ? "UNSUPPORTED"
                                      : "PASS";
  text << "pk-sass-check: " << result << " (" << join(kernelResults, ", ")
       << ")\n";
  if (json)
    endJsonReport(*json, allPassed, anyUnsupported);
  return !allPassed ? 1 : anyUnsupported ? 3 : 0;
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  if (!cl::ParseCommandLineOptions(argc, argv, toolOverview, &errs()))
    return 2;

  LoadOptions loadOptions{sassInput, cuobjdumpOpt};
  std::optional<std::string> cuobjdump;
  Expected<std::vector<Kernel>> kernels =
      loadKernels(inputPath, loadOptions, cuobjdump);
  if (!kernels)
    return toolError(toString(kernels.takeError()));
  std::vector<Kernel> baselineKernels;
  if (!baselinePath.empty()) {
    Expected<std::vector<Kernel>> loaded =
        loadKernels(baselinePath, loadOptions, cuobjdump);
    if (!loaded)
      return toolError(toString(loaded.takeError()));
    baselineKernels = std::move(*loaded);
  }
  if (!selectKernel(*kernels))
    return 2;
  std::vector<KernelAnalysis> baselines;
  for (const Kernel &kernel : baselineKernels)
    baselines.push_back(analyzeKernel(kernel));

  // --json FILE writes the JSON next to the text report; with --json - the
  // JSON replaces it on stdout.
  std::unique_ptr<raw_fd_ostream> jsonFile;
  bool jsonToStdout = jsonPath == "-";
  if (!jsonPath.empty() && !jsonToStdout) {
    std::error_code ec;
    jsonFile = std::make_unique<raw_fd_ostream>(jsonPath, ec);
    if (ec)
      return toolError("cannot write '" + jsonPath + "': " + ec.message());
  }
  raw_ostream *jsonOut = jsonToStdout ? &outs() : jsonFile.get();
  std::optional<json::OStream> json;
  if (jsonOut) {
    JsonRunInfo info;
    info.input = inputPath;
    if (!baselinePath.empty())
      info.baseline = baselinePath;
    info.sassInput = sassInput;
    info.cuobjdump = cuobjdump;
    json.emplace(*jsonOut, /*IndentSize=*/2);
    beginJsonReport(*json, info);
  }
  raw_null_ostream nullStream;
  raw_ostream &text =
      jsonToStdout ? static_cast<raw_ostream &>(nullStream) : outs();
  int status = checkKernels(*kernels, baselines, text, json ? &*json : nullptr);
  if (json && status != 2) {
    json->flush();
    *jsonOut << "\n";
  }
  return status;
}
