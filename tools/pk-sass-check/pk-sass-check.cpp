//===- pk-sass-check.cpp - Verify load/compute overlap in SASS ------------===//
//
// pk-sass-check verifies Step 7 of the seed procedure on a cubin: in the
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
// Exit status: 0 all checks pass, 1 a check fails, 2 usage or tool errors.
// Parsing, cuobjdump, the analysis (instruction classes, main loop) and the
// checks are in the PKVerification library
// (include/pk/Verification/SassCheck.h).
// Tests: test/pk-sass-check/.
//
//===----------------------------------------------------------------------===//

#include "pk/Verification/SassCheck.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <numeric>
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
             "stages - 1 tiles outside the loop (compute_total)"),
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

Exit status: 0 every check passes, 1 a check fails, 2 usage or tool error.
)";

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// Prints `pk-sass-check: error: <message>` and returns exit status 2.
static int toolError(const Twine &message) {
  WithColor::error(errs(), "pk-sass-check") << message << "\n";
  return 2;
}

/// Reads the kernels of `path` into `kernels` (see pk::sass::loadKernels).
/// Returns false after printing an error.
static bool loadInput(StringRef path, std::optional<std::string> &cuobjdump,
                      std::vector<Kernel> &kernels) {
  Expected<std::vector<Kernel>> loaded =
      loadKernels(path, LoadOptions{sassInput, cuobjdumpOpt}, cuobjdump);
  if (!loaded) {
    toolError(toString(loaded.takeError()));
    return false;
  }
  kernels = std::move(*loaded);
  return true;
}

//===----------------------------------------------------------------------===//
// JSON helpers
//===----------------------------------------------------------------------===//

static std::string computeKind(const KernelAnalysis &analysis) {
  if (!analysis.totalCompute)
    return "none";
  return analysis.computeIsMma ? "mma" : "ffma";
}

//===----------------------------------------------------------------------===//
// Text report
//===----------------------------------------------------------------------===//

static StringRef annotation(const KernelAnalysis &analysis, size_t index) {
  switch (analysis.classes[index]) {
  case InstClass::GlobalLoad:
    return index == analysis.firstLoad ? "global load (first)" : "global load";
  case InstClass::Compute:
    return "compute";
  case InstClass::Barrier:
    if (index == analysis.barrierAfterCompute)
      return "barrier (after the last compute)";
    if (index == analysis.firstBarrierBetween)
      return "barrier (between the first load and the compute)";
    return "barrier";
  case InstClass::AsyncSync: {
    StringRef base = analysis.kernel->insts[index].baseOpcode;
    if (base == "LDGDEPBAR")
      return "cp.async commit";
    if (base == "DEPBAR")
      return "cp.async wait";
    if (base == "ARRIVES")
      return "cp.async arrive";
    return "mbarrier";
  }
  case InstClass::SharedStore:
    return "shared store";
  case InstClass::Spill:
    return "local memory (spill)";
  case InstClass::BackwardBranch:
    return "backward branch";
  case InstClass::Other:
    return "";
  }
  llvm_unreachable("unknown class");
}

static void printLine(raw_ostream &os, StringRef address, StringRef text,
                      StringRef note) {
  os << "    " << address << "  " << text;
  if (!note.empty()) {
    if (text.size() < 48)
      os.indent(48 - text.size());
    os << "  <- " << note;
  }
  os << "\n";
}

/// Prints the main loop: loads, computes, barriers, cp.async syncs and shared
/// stores (which wait for register-prefetched loads) with their addresses,
/// other instructions elided as `...` with counts and runs of one compute
/// opcode collapsed (every instruction with --sass).
static void printLoopExcerpt(raw_ostream &os, const KernelAnalysis &analysis) {
  const Loop &loop = *analysis.loop;
  const std::vector<Instruction> &insts = analysis.kernel->insts;
  os << "  main loop " << formatAddress(insts[loop.begin].address) << ".."
     << formatAddress(insts[loop.end].address) << ": "
     << analysis.loopInstructions << " instructions, closed by '"
     << insts[loop.end].text() << "'";
  if (analysis.backwardBranches > 1)
    os << " (the busiest of " << analysis.backwardBranches
       << " backward branches)";
  os << "\n";

  size_t i = loop.begin;
  while (i <= loop.end) {
    InstClass cls = analysis.classes[i];
    const Instruction &inst = insts[i];
    if (printFullSass) {
      printLine(os, formatAddress(inst.address), inst.text(),
                annotation(analysis, i));
      ++i;
      continue;
    }
    if (cls == InstClass::Other) {
      size_t start = i;
      while (i <= loop.end && analysis.classes[i] == InstClass::Other)
        ++i;
      printLine(os, formatAddress(insts[start].address),
                "... " + std::to_string(i - start) + " other instruction" +
                    (i - start == 1 ? "" : "s"),
                "");
      continue;
    }
    if (cls != InstClass::Compute) {
      printLine(os, formatAddress(inst.address), inst.text(),
                annotation(analysis, i));
      ++i;
      continue;
    }
    // A run of one compute opcode, possibly interleaved with other
    // (unclassified) instructions.
    size_t last = i, next = i + 1;
    unsigned count = 1, interleaved = 0, pendingOthers = 0;
    for (; next <= loop.end; ++next) {
      InstClass nextCls = analysis.classes[next];
      if (nextCls == InstClass::Other) {
        ++pendingOthers;
        continue;
      }
      if (nextCls != InstClass::Compute || insts[next].opcode != inst.opcode)
        break;
      ++count;
      interleaved += pendingOthers;
      pendingOthers = 0;
      last = next;
    }
    std::string note = "compute";
    bool hasFirst =
        i <= *analysis.firstCompute && *analysis.firstCompute <= last;
    bool hasLast = i <= *analysis.lastCompute && *analysis.lastCompute <= last;
    if (hasFirst && hasLast)
      note += " (first and last)";
    else if (hasFirst)
      note += " (first)";
    else if (hasLast)
      note += " (last)";
    if (count == 1) {
      printLine(os, formatAddress(inst.address), inst.text(), note);
    } else {
      std::string text = inst.opcode + " x" + std::to_string(count) +
                         " through " + formatAddress(insts[last].address);
      if (interleaved)
        text += " (+" + std::to_string(interleaved) + " other)";
      printLine(os, formatAddress(inst.address), text, note);
    }
    i = last + 1;
  }
}

static void printTable(raw_ostream &os, ArrayRef<CheckResult> checks) {
  os << "  " << left_justify("check", 38) << left_justify("result", 8)
     << "details\n";
  for (const CheckResult &check : checks)
    os << "  " << left_justify(check.name, 38)
       << left_justify(statusName(check.status), 8) << check.detail << "\n";
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

static void writeKernelJson(json::OStream &j, const KernelAnalysis &analysis,
                            const BaselineComparison *cmp,
                            ArrayRef<CheckResult> checks, bool passed) {
  const Kernel &kernel = *analysis.kernel;
  j.object([&] {
    j.attribute("kernel", kernel.name);
    j.attribute("arch", kernel.arch);
    j.attribute("instructions", int64_t(kernel.insts.size()));
    j.attribute("compute_kind", computeKind(analysis));
    j.attribute("compute_total", analysis.totalCompute);
    j.attribute("compute_before_loop", analysis.computeBeforeLoop);
    j.attribute("compute_after_loop", analysis.computeAfterLoop);
    j.attribute("backward_branches", analysis.backwardBranches);
    j.attributeBegin("main_loop");
    if (analysis.loop) {
      j.object([&] {
        const std::vector<Instruction> &insts = kernel.insts;
        j.attribute("start",
                    formatJsonAddress(insts[analysis.loop->begin].address));
        j.attribute("branch",
                    formatJsonAddress(insts[analysis.loop->end].address));
        j.attribute("branch_text", insts[analysis.loop->end].text());
        j.attribute("instructions", analysis.loopInstructions);
        j.attribute("global_loads", analysis.loopLoads);
        j.attribute("compute", analysis.loopCompute);
        j.attributeObject("compute_opcodes", [&] {
          for (const auto &[opcode, count] : analysis.loopComputeOpcodes)
            j.attribute(opcode, count);
        });
        j.attribute("barriers", analysis.loopBarriers);
        j.attribute("async_syncs", analysis.loopAsyncSyncs);
        j.attribute("first_global_load",
                    jsonAddressOf(analysis, analysis.firstLoad));
        j.attribute("first_compute",
                    jsonAddressOf(analysis, analysis.firstCompute));
        j.attribute("last_compute",
                    jsonAddressOf(analysis, analysis.lastCompute));
        j.attribute("barriers_between_load_and_compute",
                    analysis.barriersBetweenLoadAndCompute);
        j.attribute("barrier_after_compute",
                    jsonAddressOf(analysis, analysis.barrierAfterCompute));
      });
    } else {
      j.value(nullptr);
    }
    j.attributeEnd();
    j.attributeObject("spills", [&] {
      j.attribute("STL", analysis.stlCount);
      j.attribute("LDL", analysis.ldlCount);
    });
    j.attributeBegin("resources");
    if (kernel.resources) {
      j.object([&] {
        j.attribute("REG", kernel.resources->reg);
        j.attribute("STACK", kernel.resources->stack);
        j.attribute("SHARED", kernel.resources->shared);
        j.attribute("LOCAL", kernel.resources->local);
      });
    } else {
      j.value(nullptr);
    }
    j.attributeEnd();
    j.attributeBegin("baseline");
    if (cmp && cmp->kernel) {
      j.object([&] {
        j.attribute("kernel", cmp->kernel->name);
        j.attribute("arch", cmp->kernel->arch);
        j.attribute("has_main_loop", cmp->hasLoop);
        j.attribute("loop_compute", cmp->loopCompute);
        j.attribute("outside_loop_compute", cmp->outsideCompute);
        j.attribute("compute_per_tile", cmp->computePerTile);
        j.attribute("pipelined_unroll", cmp->pipelinedUnroll);
        j.attribute("baseline_unroll", cmp->baselineUnroll);
      });
    } else {
      j.value(nullptr);
    }
    j.attributeEnd();
    j.attributeArray("checks", [&] {
      for (const CheckResult &check : checks) {
        j.object([&] {
          j.attribute("name", check.name);
          j.attribute("status", statusName(check.status));
          j.attribute("detail", check.detail);
          for (const auto &[key, value] : check.values)
            j.attribute(key, value);
        });
      }
    });
    j.attribute("result", passed ? "PASS" : "FAIL");
  });
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  if (!cl::ParseCommandLineOptions(argc, argv, toolOverview, &errs()))
    return 2;

  std::optional<std::string> cuobjdump;
  std::vector<Kernel> kernels, baselineKernels;
  if (!loadInput(inputPath, cuobjdump, kernels))
    return 2;
  if (!baselinePath.empty() &&
      !loadInput(baselinePath, cuobjdump, baselineKernels))
    return 2;

  if (!kernelName.empty()) {
    std::vector<std::string> names;
    for (const Kernel &kernel : kernels)
      names.push_back(kernel.name);
    llvm::erase_if(kernels,
                   [](const Kernel &k) { return k.name != kernelName; });
    if (kernels.empty())
      return toolError("no kernel '" + kernelName + "' in '" + inputPath +
                       "' (kernels: " + join(names, ", ") + ")");
  }

  std::vector<KernelAnalysis> baselines;
  for (const Kernel &kernel : baselineKernels)
    baselines.push_back(analyzeKernel(kernel));

  std::unique_ptr<raw_fd_ostream> jsonFile;
  bool jsonToStdout = jsonPath == "-";
  if (!jsonPath.empty() && !jsonToStdout) {
    std::error_code ec;
    jsonFile = std::make_unique<raw_fd_ostream>(jsonPath, ec);
    if (ec)
      return toolError("cannot write '" + jsonPath + "': " + ec.message());
  }
  raw_null_ostream nullStream;
  raw_ostream &text =
      jsonToStdout ? static_cast<raw_ostream &>(nullStream) : outs();
  std::optional<json::OStream> jsonStream;
  if (jsonToStdout)
    jsonStream.emplace(outs(), /*IndentSize=*/2);
  else if (jsonFile)
    jsonStream.emplace(*jsonFile, /*IndentSize=*/2);

  bool allPassed = true;
  SmallVector<std::string> kernelResults;
  if (jsonStream) {
    jsonStream->objectBegin();
    jsonStream->attribute("input", inputPath);
    jsonStream->attribute("baseline", baselinePath.empty()
                                          ? json::Value(nullptr)
                                          : json::Value(baselinePath));
    jsonStream->attribute("input_kind", sassInput ? "sass" : "cubin");
    jsonStream->attribute("cuobjdump", cuobjdump ? json::Value(*cuobjdump)
                                                 : json::Value(nullptr));
    jsonStream->attributeBegin("kernels");
    jsonStream->arrayBegin();
  }
  for (const Kernel &kernel : kernels) {
    const KernelAnalysis *baseline = nullptr;
    if (!baselinePath.empty()) {
      baseline = matchBaseline(kernel, baselines);
      if (!baseline)
        return toolError("no kernel '" + kernel.name + "' in the baseline '" +
                         baselinePath + "'");
    }
    KernelReport report =
        checkKernel(kernel, baseline, CheckOptions{ffmaOverlap, stagesOpt});
    const KernelAnalysis &analysis = report.analysis;
    const BaselineComparison &cmp = report.comparison;
    ArrayRef<CheckResult> checks = report.checks;
    unsigned failed = report.count(CheckResult::Fail);
    unsigned passed = report.count(CheckResult::Pass);
    allPassed &= failed == 0;

    text << "kernel " << kernel.name;
    if (!kernel.arch.empty())
      text << " (" << kernel.arch << ")";
    text << ": " << kernel.insts.size() << " instructions, compute = "
         << (analysis.totalCompute
                 ? (analysis.computeIsMma ? "tensor-core MMA" : "FFMA")
                 : "none")
         << " (" << analysis.totalCompute << " in the kernel)\n";
    if (analysis.loop)
      printLoopExcerpt(text, analysis);
    if (baseline)
      text << "  baseline " << baseline->kernel->name << ": "
           << (baseline->loop
                   ? std::to_string(baseline->loopCompute) +
                         " compute in its main loop, " +
                         std::to_string(cmp.outsideCompute) + " outside"
                   : std::string("no main loop"))
           << "\n";
    printTable(text, checks);
    text << "  result: " << (failed ? "FAIL" : "PASS") << " (" << passed
         << " passed, " << failed << " failed, "
         << checks.size() - passed - failed << " skipped)\n\n";
    kernelResults.push_back(kernel.name + ": " + (failed ? "FAIL" : "PASS"));
    if (jsonStream)
      writeKernelJson(*jsonStream, analysis, baseline ? &cmp : nullptr, checks,
                      failed == 0);
  }
  text << "pk-sass-check: " << (allPassed ? "PASS" : "FAIL") << " ("
       << join(kernelResults, ", ") << ")\n";
  if (jsonStream) {
    jsonStream->arrayEnd();
    jsonStream->attributeEnd();
    jsonStream->attribute("result", allPassed ? "PASS" : "FAIL");
    jsonStream->attribute("exit_code", allPassed ? 0 : 1);
    jsonStream->objectEnd();
    jsonStream->flush();
    (jsonToStdout ? outs() : *jsonFile) << "\n";
  }
  return allPassed ? 0 : 1;
}
