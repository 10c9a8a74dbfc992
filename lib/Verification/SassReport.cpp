//===- SassReport.cpp - Text and JSON reports of the SASS checks ----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The text report of a kernel (the annotated loop excerpt and the PASS/FAIL
// table) and the JSON report (every number).
//
//===----------------------------------------------------------------------===//

#include "pk/Verification/SassCheck.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"

using namespace llvm;
using namespace pk::sass;

//===----------------------------------------------------------------------===//
// Loop excerpt
//===----------------------------------------------------------------------===//

/// The note of a WARPGROUP instruction: the wgmma fence or wait.
static std::string wgmmaAnnotation(const Instruction &inst) {
  if (std::optional<unsigned> depth = wgmmaWaitDepth(inst))
    return "wgmma wait (" + std::to_string(*depth) + " group(s) in flight)";
  if (inst.opcode == "WARPGROUP.ARRIVE")
    return "wgmma fence (arrive)";
  return "wgmma";
}

/// The `<- ...` note of instruction `index`; empty for unclassified ones.
static std::string annotation(const KernelAnalysis &analysis, size_t index) {
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
  case InstClass::WgmmaSync:
    return wgmmaAnnotation(analysis.kernel->insts[index]);
  case InstClass::ProxyFence:
    return "proxy fence (generic -> async)";
  case InstClass::Other:
    return "";
  }
  llvm_unreachable("unknown class");
}

/// Prints one excerpt line: address, text and, when there is one, the note
/// in a column.
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

/// Prints `main loop A..B: N instructions, closed by '...'`.
static void printLoopHeader(raw_ostream &os, const KernelAnalysis &analysis) {
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
}

/// Prints the run of compute instructions with the opcode of instruction
/// `first`, possibly interleaved with unclassified instructions, as one line.
/// Returns the index after the run.
static size_t printComputeRun(raw_ostream &os, const KernelAnalysis &analysis,
                              size_t first) {
  const Loop &loop = *analysis.loop;
  const std::vector<Instruction> &insts = analysis.kernel->insts;
  const Instruction &inst = insts[first];
  size_t last = first;
  unsigned count = 1, interleaved = 0, pendingOthers = 0;
  for (size_t next = first + 1; next <= loop.end; ++next) {
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
      first <= *analysis.firstCompute && *analysis.firstCompute <= last;
  bool hasLast =
      first <= *analysis.lastCompute && *analysis.lastCompute <= last;
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
  return last + 1;
}

void pk::sass::printLoopExcerpt(raw_ostream &os, const KernelAnalysis &analysis,
                                bool fullSass) {
  printLoopHeader(os, analysis);
  const Loop &loop = *analysis.loop;
  const std::vector<Instruction> &insts = analysis.kernel->insts;
  size_t i = loop.begin;
  while (i <= loop.end) {
    InstClass cls = analysis.classes[i];
    const Instruction &inst = insts[i];
    if (fullSass || (cls != InstClass::Other && cls != InstClass::Compute)) {
      printLine(os, formatAddress(inst.address), inst.text(),
                annotation(analysis, i));
      ++i;
      continue;
    }
    if (cls == InstClass::Compute) {
      i = printComputeRun(os, analysis, i);
      continue;
    }
    size_t start = i;
    while (i <= loop.end && analysis.classes[i] == InstClass::Other)
      ++i;
    printLine(os, formatAddress(insts[start].address),
              "... " + std::to_string(i - start) + " other instruction" +
                  (i - start == 1 ? "" : "s"),
              "");
  }
}

//===----------------------------------------------------------------------===//
// Text report
//===----------------------------------------------------------------------===//

void pk::sass::printCheckTable(raw_ostream &os, ArrayRef<CheckResult> checks) {
  os << "  " << left_justify("check", 38) << left_justify("result", 8)
     << "details\n";
  for (const CheckResult &check : checks)
    os << "  " << left_justify(check.name, 38)
       << left_justify(statusName(check.status), 8) << check.detail << "\n";
}

/// The kernel's compute in words.
static StringRef computeName(const KernelAnalysis &analysis) {
  switch (analysis.computeKind) {
  case ComputeKind::Mma:
    return "tensor-core MMA";
  case ComputeKind::Ffma:
    return "FFMA";
  case ComputeKind::FloatArith:
    return "float arithmetic (FADD/FMUL/HADD2/HMUL2/HFMA2)";
  }
  llvm_unreachable("unknown compute kind");
}

void pk::sass::printKernelReport(raw_ostream &os, const KernelReport &report,
                                 bool fullSass) {
  const KernelAnalysis &analysis = report.analysis;
  const Kernel &kernel = *analysis.kernel;
  os << "kernel " << kernel.name;
  if (!kernel.arch.empty())
    os << " (" << kernel.arch << ")";
  os << ": " << kernel.insts.size() << " instructions, compute = "
     << (analysis.totalCompute ? computeName(analysis) : "none") << " ("
     << analysis.totalCompute << " in the kernel)\n";
  if (analysis.loop)
    printLoopExcerpt(os, analysis, fullSass);
  if (const KernelAnalysis *baseline = report.baseline)
    os << "  baseline " << baseline->kernel->name << ": "
       << (baseline->loop
               ? std::to_string(baseline->loopCompute) +
                     " compute in its main loop, " +
                     std::to_string(report.comparison.outsideCompute) +
                     " outside"
               : std::string("no main loop"))
       << "\n";
  printCheckTable(os, report.checks);
  unsigned passed = report.count(CheckResult::Pass);
  unsigned failed = report.count(CheckResult::Fail);
  os << "  result: " << report.resultName() << " (" << passed << " passed, "
     << failed << " failed, " << report.checks.size() - passed - failed
     << " skipped)";
  if (!failed && !report.unsupported.empty())
    os << ": " << report.unsupported;
  os << "\n\n";
}

//===----------------------------------------------------------------------===//
// JSON report
//===----------------------------------------------------------------------===//

/// `mma`, `ffma`, `float` or `none`.
static StringRef computeKind(const KernelAnalysis &analysis) {
  if (!analysis.totalCompute)
    return "none";
  switch (analysis.computeKind) {
  case ComputeKind::Mma:
    return "mma";
  case ComputeKind::Ffma:
    return "ffma";
  case ComputeKind::FloatArith:
    return "float";
  }
  llvm_unreachable("unknown compute kind");
}

/// The `main_loop` object, or null without a main loop.
static void writeLoopJson(json::OStream &j, const KernelAnalysis &analysis) {
  if (!analysis.loop) {
    j.value(nullptr);
    return;
  }
  const std::vector<Instruction> &insts = analysis.kernel->insts;
  const Loop &loop = *analysis.loop;
  j.object([&] {
    j.attribute("start", formatJsonAddress(insts[loop.begin].address));
    j.attribute("branch", formatJsonAddress(insts[loop.end].address));
    j.attribute("branch_text", insts[loop.end].text());
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
    j.attribute("last_compute", jsonAddressOf(analysis, analysis.lastCompute));
    j.attribute("barriers_between_load_and_compute",
                analysis.barriersBetweenLoadAndCompute);
    j.attribute("barrier_after_compute",
                jsonAddressOf(analysis, analysis.barrierAfterCompute));
  });
}

/// The `resources` object, or null without resource usage.
static void writeResourcesJson(json::OStream &j, const Kernel &kernel) {
  if (!kernel.resources) {
    j.value(nullptr);
    return;
  }
  j.object([&] {
    j.attribute("REG", kernel.resources->reg);
    j.attribute("STACK", kernel.resources->stack);
    j.attribute("SHARED", kernel.resources->shared);
    j.attribute("LOCAL", kernel.resources->local);
  });
}

/// The `baseline` object, or null without a baseline.
static void writeBaselineJson(json::OStream &j, const KernelReport &report) {
  const BaselineComparison &cmp = report.comparison;
  if (!report.baseline || !cmp.kernel) {
    j.value(nullptr);
    return;
  }
  j.object([&] {
    j.attribute("kernel", cmp.kernel->name);
    j.attribute("arch", cmp.kernel->arch);
    j.attribute("has_main_loop", cmp.hasLoop);
    j.attribute("loop_compute", cmp.loopCompute);
    j.attribute("outside_loop_compute", cmp.outsideCompute);
    j.attribute("compute_per_tile", cmp.computePerTile);
    j.attribute("pipelined_unroll", cmp.pipelinedUnroll);
    j.attribute("baseline_unroll", cmp.baselineUnroll);
  });
}

/// The `checks` array.
static void writeChecksJson(json::OStream &j, ArrayRef<CheckResult> checks) {
  j.array([&] {
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
}

void pk::sass::writeKernelJson(json::OStream &j, const KernelReport &report) {
  const KernelAnalysis &analysis = report.analysis;
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
    writeLoopJson(j, analysis);
    j.attributeEnd();
    j.attributeObject("spills", [&] {
      j.attribute("STL", analysis.stlCount);
      j.attribute("LDL", analysis.ldlCount);
    });
    j.attributeBegin("resources");
    writeResourcesJson(j, kernel);
    j.attributeEnd();
    j.attributeBegin("baseline");
    writeBaselineJson(j, report);
    j.attributeEnd();
    j.attributeBegin("checks");
    writeChecksJson(j, report.checks);
    j.attributeEnd();
    j.attribute("unsupported", report.unsupported.empty()
                                   ? json::Value(nullptr)
                                   : json::Value(report.unsupported));
    j.attribute("result", report.resultName());
  });
}

void pk::sass::beginJsonReport(json::OStream &j, const JsonRunInfo &info) {
  j.objectBegin();
  j.attribute("input", info.input);
  j.attribute("baseline", info.baseline ? json::Value(*info.baseline)
                                        : json::Value(nullptr));
  j.attribute("input_kind", info.sassInput ? "sass" : "cubin");
  j.attribute("cuobjdump", info.cuobjdump ? json::Value(*info.cuobjdump)
                                          : json::Value(nullptr));
  j.attributeBegin("kernels");
  j.arrayBegin();
}

void pk::sass::endJsonReport(json::OStream &j, bool passed, bool unsupported) {
  j.arrayEnd();
  j.attributeEnd();
  j.attribute("result", !passed       ? "FAIL"
                        : unsupported ? "UNSUPPORTED"
                                      : "PASS");
  j.attribute("exit_code", !passed ? 1 : unsupported ? 3 : 0);
  j.objectEnd();
}
