//===- SassCheckTest.cpp - Unit tests of the SASS checks ------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Unit tests of the PKVerification library on small synthetic kernels: the
// parser, the instruction classes, the main-loop detection, each check (PASS
// and FAIL) and the reports. Run by test/pk-sass-check/unittests.test.
//
//===----------------------------------------------------------------------===//

#include "pk/Verification/SassCheck.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace llvm;
using namespace pk::sass;

/// The SASS text of one kernel `name` for `arch`: instruction i of `body`
/// sits at address 0x10 * i, formatted the way cuobjdump prints it (with an
/// encoding comment).
static std::string sassText(ArrayRef<std::string> body, StringRef name = "k",
                            StringRef arch = "sm_86") {
  std::string text;
  raw_string_ostream os(text);
  os << "\tcode for " << arch << "\n\t\tFunction : " << name << "\n";
  for (size_t i = 0; i < body.size(); ++i)
    os << "        " << formatAddress(0x10 * i) << "                   "
       << body[i] << " ;   /* 0x000fe20000000f00 */\n"
       << "                                                   "
          "/* 0x000fc00000000000 */\n";
  return text;
}

/// `count` copies of `inst`.
static std::vector<std::string> repeat(StringRef inst, unsigned count) {
  return std::vector<std::string>(count, inst.str());
}

/// Concatenates instruction lists.
static std::vector<std::string>
concat(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> result;
  for (const std::vector<std::string> &part : parts)
    result.insert(result.end(), part.begin(), part.end());
  return result;
}

static constexpr const char *ldgsts = "LDGSTS.E.BYPASS.128 [R1], [R2.64]";
static constexpr const char *ldg = "LDG.E.128 R4, [R2.64]";
static constexpr const char *hmma = "HMMA.16816.F32 R8, R4, R6, R8";
static constexpr const char *ffmaInst = "FFMA R8, R4, R6, R8";
static constexpr const char *bar = "BAR.SYNC.DEFER_BLOCKING 0x0";
static constexpr const char *other = "IADD3 R1, R1, 0x20, RZ";

/// A cp.async kernel whose loop (0x10..0x70) issues the next tile's load,
/// then computes two HMMAs, waits and synchronizes; two HMMAs in the peeled
/// epilogue.
static std::vector<std::string> pipelinedBody() {
  return {other,                // 0x00
          ldgsts,               // 0x10 <- loop
          "LDGDEPBAR",          // 0x20
          hmma,                 // 0x30
          hmma,                 // 0x40
          "DEPBAR.LE SB0, 0x0", // 0x50
          bar,                  // 0x60
          "@!P0 BRA 0x10",      // 0x70
          hmma,                 // 0x80
          hmma,                 // 0x90
          "EXIT",               // 0xa0
          "BRA 0xb0"};          // 0xb0
}

/// Parses `body` as one kernel (see sassText).
static Kernel parseKernel(ArrayRef<std::string> body) {
  std::vector<Kernel> kernels = parseSass(sassText(body));
  EXPECT_EQ(kernels.size(), 1u);
  return kernels.empty() ? Kernel() : kernels.front();
}

/// The statuses of `checks`, e.g. "PASS PASS FAIL ...".
static std::string statuses(ArrayRef<CheckResult> checks) {
  std::string result;
  for (const CheckResult &check : checks)
    result += (result.empty() ? "" : " ") + statusName(check.status).str();
  return result;
}

/// The value `key` of `check`, printed as JSON; empty when missing.
static std::string value(const CheckResult &check, StringRef key) {
  for (const auto &[name, value] : check.values)
    if (name == key)
      return formatv("{0}", value).str();
  return "";
}

/// A loop of `loads` copies of `load` and `mma` HMMAs, then `epilogue`
/// HMMAs after it.
static std::vector<std::string> loopBody(unsigned loads, StringRef load,
                                         unsigned mma, unsigned epilogue) {
  std::vector<std::string> body =
      concat({{other}, repeat(load, loads), repeat(hmma, mma), {bar}});
  body.push_back("@!P0 BRA 0x10");
  body = concat({body, repeat(hmma, epilogue), {"EXIT"}});
  return body;
}

/// Runs compute_per_iteration and compute_total of `pipelined` against
/// `baseline`.
static SmallVector<CheckResult> compare(ArrayRef<std::string> pipelined,
                                        ArrayRef<std::string> baseline,
                                        const CheckOptions &options = {}) {
  Kernel kernel = parseKernel(pipelined), baseKernel = parseKernel(baseline);
  KernelAnalysis analysis = analyzeKernel(kernel);
  KernelAnalysis base = analyzeKernel(baseKernel);
  BaselineComparison cmp;
  SmallVector<CheckResult> checks;
  checks.push_back(checkComputePerIteration(analysis, &base, cmp));
  checks.push_back(
      checkComputeTotal(analysis, &base, cmp, checks.back(), options));
  return checks;
}

static constexpr const char *hgmma =
    "HGMMA.64x128x16.F32 R24, gdesc[UR4].tnspB, R24";
static constexpr const char *hgmmaCommit =
    "HGMMA.64x128x16.F32 R24, gdesc[UR8].tnspB, R24, gsb0";

/// One wgmma group and its wait: fence, two HGMMAs, wait_group 0.
static std::vector<std::string> wgmmaGroup() {
  return {"WARPGROUP.ARRIVE", hgmma, hgmmaCommit,
          "WARPGROUP.DEPBAR.LE gsb0, 0x0"};
}

/// The shape of a synthetic cp.async wgmma loop (wgmmaCpAsyncBody).
struct WgmmaLoop {
  /// Tiles the prologue copies, one LDGDEPBAR each.
  unsigned prologueCommits = 2;
  /// N of the loop's cp.async wait (DEPBAR.LE SB0, N).
  unsigned copyWait = 1;
  /// N of the loop's wgmma wait (WARPGROUP.DEPBAR.LE gsb0, N).
  unsigned depth = 0;
  bool fence = true;
  bool barrier = true;
  /// wgmma groups after the loop (the peeled epilogue).
  unsigned epilogueGroups = 0;
};

/// A cp.async wgmma kernel in pk's multistage order: the prologue copies
/// `prologueCommits` tiles; each iteration waits for its tile's copies,
/// fences, synchronizes, copies the next tile, commits, runs one wgmma
/// group (two HGMMAs) and waits for it with `depth` groups left in flight.
static std::vector<std::string> wgmmaCpAsyncBody(const WgmmaLoop &shape) {
  std::vector<std::string> body = {other};
  for (unsigned i = 0; i < shape.prologueCommits; ++i)
    body = concat({body, {ldgsts, "LDGDEPBAR"}});
  size_t loopStart = body.size();
  body = concat(
      {body,
       {formatv("DEPBAR.LE SB0, {0:x}", shape.copyWait).str(),
        shape.fence ? "FENCE.VIEW.ASYNC.S" : other, shape.barrier ? bar : other,
        ldgsts, "LDGDEPBAR", "WARPGROUP.ARRIVE", hgmma, hgmmaCommit,
        formatv("WARPGROUP.DEPBAR.LE gsb0, {0:x}", shape.depth).str(),
        formatv("@!P0 BRA {0:x}", 0x10 * loopStart).str()}});
  for (unsigned i = 0; i < shape.epilogueGroups; ++i)
    body = concat({body, {"WARPGROUP.ARRIVE", hgmma, hgmmaCommit}});
  body = concat({body, {"WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"}});
  return body;
}

/// The check `name` of `checkKernel` on `body`, with `stages` stages.
static CheckResult wgmmaCheck(ArrayRef<std::string> body, StringRef name,
                              unsigned stages = 3) {
  Kernel kernel = parseKernel(body);
  CheckOptions options;
  options.stages = stages;
  KernelReport report = checkKernel(kernel, nullptr, options);
  for (const CheckResult &check : report.checks)
    if (check.name == name)
      return check;
  ADD_FAILURE() << "no check " << name.str();
  return CheckResult();
}

namespace {

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

TEST(SassParser, InstructionLine) {
  std::optional<Instruction> inst = parseInstructionLine(
      "        /*0ce0*/                   @!P0 BRA 0x750 ;      "
      "/* 0x000fea000383ffff */");
  ASSERT_TRUE(inst);
  EXPECT_EQ(inst->address, 0xce0u);
  EXPECT_EQ(inst->predicate, "@!P0");
  EXPECT_EQ(inst->opcode, "BRA");
  EXPECT_EQ(inst->baseOpcode, "BRA");
  EXPECT_EQ(inst->operands, "0x750");
  EXPECT_EQ(inst->branchTarget, std::optional<uint64_t>(0x750));
  EXPECT_EQ(inst->text(), "@!P0 BRA 0x750");

  inst = parseInstructionLine("/*08b0*/ LDGSTS.E.BYPASS.128 [R123], [R8.64] ;");
  ASSERT_TRUE(inst);
  EXPECT_EQ(inst->predicate, "");
  EXPECT_EQ(inst->opcode, "LDGSTS.E.BYPASS.128");
  EXPECT_EQ(inst->baseOpcode, "LDGSTS");
  EXPECT_EQ(inst->operands, "[R123], [R8.64]");
  EXPECT_FALSE(inst->branchTarget);
}

TEST(SassParser, OtherLinesAreNotInstructions) {
  EXPECT_FALSE(
      parseInstructionLine("                /* 0x000fc00000000000 */"));
  EXPECT_FALSE(parseInstructionLine("\t\tFunction : k"));
  EXPECT_FALSE(parseInstructionLine("/*0010*/ NOP"));
  EXPECT_FALSE(parseInstructionLine("/*0010*/ ;"));
  EXPECT_FALSE(parseInstructionLine(""));
}

TEST(SassParser, KernelsAndArchitectures) {
  std::string text = "junk before any kernel\n/*0000*/ EXIT ;\n" +
                     sassText({ldg, "EXIT"}, "a", "sm_86") +
                     sassText({"EXIT"}, "b", "sm_90");
  std::vector<Kernel> kernels = parseSass(text);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "a");
  EXPECT_EQ(kernels[0].arch, "sm_86");
  EXPECT_EQ(kernels[0].insts.size(), 2u);
  EXPECT_EQ(kernels[1].name, "b");
  EXPECT_EQ(kernels[1].arch, "sm_90");
  EXPECT_EQ(kernels[1].insts.size(), 1u);
  EXPECT_FALSE(kernels[0].resources);
  EXPECT_FALSE(kernels[0].resourceUsageRead);
  EXPECT_TRUE(parseSass("").empty());
}

TEST(SassParser, ResourceUsage) {
  StringMap<Resources> resources = parseResourceUsage(
      "\nResource usage:\n Common:\n  GLOBAL:0\n Function k:\n"
      "  REG:126 STACK:8 SHARED:40960 LOCAL:4 CONSTANT[0]:520 TEXTURE:0\n"
      " Function other:\n  REG:32 STACK:0 SHARED:0 LOCAL:0\n");
  ASSERT_EQ(resources.size(), 2u);
  const Resources &k = resources["k"];
  EXPECT_EQ(k.reg, 126);
  EXPECT_EQ(k.stack, 8);
  EXPECT_EQ(k.shared, 40960);
  EXPECT_EQ(k.local, 4);
  EXPECT_EQ(resources["other"].reg, 32);
}

TEST(SassParser, LoadKernelsErrors) {
  std::optional<std::string> cuobjdump;
  Expected<std::vector<Kernel>> missing =
      loadKernels("/nonexistent/k.cubin", LoadOptions(), cuobjdump);
  ASSERT_FALSE(missing);
  EXPECT_EQ(toString(missing.takeError()),
            "cannot read '/nonexistent/k.cubin': No such file or directory");

  // SASS text given as a cubin, and as SASS text.
  SmallString<128> path;
  ASSERT_FALSE(sys::fs::createTemporaryFile("sass-check-test", "sass", path));
  FileRemover remover(path);
  {
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << sassText(pipelinedBody());
  }
  Expected<std::vector<Kernel>> notCubin =
      loadKernels(path, LoadOptions(), cuobjdump);
  ASSERT_FALSE(notCubin);
  EXPECT_EQ(toString(notCubin.takeError()),
            "'" + path.str().str() +
                "' is not a cubin (no ELF or fatbin header); it looks like "
                "SASS text: pass --sass-input");
  EXPECT_FALSE(cuobjdump);

  LoadOptions sassInput;
  sassInput.sassInput = true;
  Expected<std::vector<Kernel>> kernels =
      loadKernels(path, sassInput, cuobjdump);
  ASSERT_TRUE(bool(kernels)) << toString(kernels.takeError());
  ASSERT_EQ(kernels->size(), 1u);
  EXPECT_EQ(kernels->front().insts.size(), pipelinedBody().size());
}

//===----------------------------------------------------------------------===//
// Instruction classes and the main loop
//===----------------------------------------------------------------------===//

TEST(SassAnalysis, InstructionClasses) {
  auto inst = [](StringRef line) {
    return *parseInstructionLine(("/*0010*/ " + line + " ;").str());
  };
  EXPECT_TRUE(isGlobalLoad(inst(ldg)));
  EXPECT_TRUE(isGlobalLoad(inst(ldgsts)));
  EXPECT_TRUE(isGlobalLoad(inst("UTMALDG.2D [UR8], [UR4]")));
  EXPECT_FALSE(isGlobalLoad(inst("LDGDEPBAR")));
  EXPECT_FALSE(isGlobalLoad(inst("LDS.128 R4, [R2]")));
  EXPECT_TRUE(isMma(inst(hmma)));
  EXPECT_TRUE(isMma(inst("IMMA.16832.S8.S8.SAT R8, R4, R6, R8")));
  EXPECT_TRUE(isMma(inst("HGMMA.64x128x16.F32 R24, gdesc[UR4], R24")));
  EXPECT_FALSE(isMma(inst(ffmaInst)));
  EXPECT_TRUE(isFfma(inst("FFMA.FTZ R8, R4, R6, R8")));
  EXPECT_TRUE(isBarrier(inst(bar)));
  EXPECT_FALSE(isBarrier(inst("BAR.ARV 0x1, 0x40")));
  EXPECT_TRUE(isAsyncSync(inst("DEPBAR.LE SB0, 0x0")));
  EXPECT_TRUE(isSpill(inst("STL [R1+0x4], R116")));
  EXPECT_TRUE(isBackwardBranch(inst("@!P0 BRA 0x10")));
  EXPECT_FALSE(isBackwardBranch(inst("BRA 0x20")));

  EXPECT_EQ(globalLoadBytes(inst(ldg)), std::optional<uint64_t>(16));
  EXPECT_EQ(globalLoadBytes(inst("LDG.E.64 R4, [R2.64]")),
            std::optional<uint64_t>(8));
  EXPECT_EQ(globalLoadBytes(inst("LDG.E R4, [R2.64]")),
            std::optional<uint64_t>(4));
  EXPECT_EQ(globalLoadBytes(inst("LDG.E.U16 R4, [R2.64]")),
            std::optional<uint64_t>(2));
  EXPECT_EQ(globalLoadBytes(inst("LDG.E.S8 R4, [R2.64]")),
            std::optional<uint64_t>(1));
  EXPECT_FALSE(globalLoadBytes(inst("UTMALDG.2D [UR8], [UR4]")));

  // FFMA is compute only in a kernel without MMA; FADD only in a kernel
  // without MMA and FFMA.
  EXPECT_EQ(classifyInstruction(inst(ffmaInst), ComputeKind::Ffma),
            InstClass::Compute);
  EXPECT_EQ(classifyInstruction(inst(ffmaInst), ComputeKind::Mma),
            InstClass::Other);
  EXPECT_EQ(classifyInstruction(inst("FADD R4, R5, R6"), ComputeKind::Ffma),
            InstClass::Other);
  EXPECT_EQ(
      classifyInstruction(inst("FADD R4, R5, R6"), ComputeKind::FloatArith),
      InstClass::Compute);
  EXPECT_EQ(classifyInstruction(inst("STS.128 [R0], R4"), ComputeKind::Mma),
            InstClass::SharedStore);
  EXPECT_TRUE(isSharedRead(inst("LDSM.16.M88.4 R4, [R2]")));
  EXPECT_FALSE(isSharedRead(inst("STS.128 [R0], R4")));
}

TEST(SassAnalysis, PipelinedLoop) {
  Kernel kernel = parseKernel(pipelinedBody());
  KernelAnalysis analysis = analyzeKernel(kernel);
  EXPECT_TRUE(analysis.computeIsMma());
  // The loop and the BRA to itself after EXIT.
  EXPECT_EQ(analysis.backwardBranches, 2u);
  ASSERT_TRUE(analysis.loop);
  EXPECT_EQ(analysis.loop->begin, 1u);
  EXPECT_EQ(analysis.loop->end, 7u);
  EXPECT_EQ(analysis.loopInstructions, 7u);
  EXPECT_EQ(analysis.loopLoads, 1u);
  EXPECT_EQ(analysis.loopCompute, 2u);
  EXPECT_EQ(analysis.loopBarriers, 1u);
  EXPECT_EQ(analysis.loopAsyncSyncs, 2u);
  EXPECT_EQ(analysis.loopLoadBytes, std::optional<uint64_t>(16));
  EXPECT_EQ(analysis.firstLoad, std::optional<size_t>(1));
  EXPECT_EQ(analysis.firstCompute, std::optional<size_t>(3));
  EXPECT_EQ(analysis.lastCompute, std::optional<size_t>(4));
  EXPECT_EQ(analysis.barrierAfterCompute, std::optional<size_t>(6));
  EXPECT_EQ(analysis.barriersBetweenLoadAndCompute, 0u);
  EXPECT_EQ(analysis.totalCompute, 4u);
  EXPECT_EQ(analysis.computeBeforeLoop, 0u);
  EXPECT_EQ(analysis.computeAfterLoop, 2u);
}

TEST(SassAnalysis, BusiestLoopWins) {
  // An inner loop with one HMMA (0x20..0x30) inside an outer loop with two
  // (0x10..0x50), and a compute-free loop (0x60..0x70).
  Kernel kernel = parseKernel({other, ldg, hmma, "@P1 BRA 0x20", hmma,
                               "@!P0 BRA 0x10", other, "@P2 BRA 0x60", "EXIT"});
  KernelAnalysis analysis = analyzeKernel(kernel);
  EXPECT_EQ(analysis.backwardBranches, 3u);
  ASSERT_TRUE(analysis.loop);
  EXPECT_EQ(analysis.loop->begin, 1u);
  EXPECT_EQ(analysis.loop->end, 5u);
  EXPECT_EQ(analysis.loop->compute, 2u);
}

TEST(SassAnalysis, LargerLoopWinsATie) {
  // Both loops hold the same HMMA; the outer one (0x00..0x40) wins.
  Kernel kernel =
      parseKernel({ldg, other, hmma, "@P1 BRA 0x10", "@!P0 BRA 0x0", "EXIT"});
  KernelAnalysis analysis = analyzeKernel(kernel);
  ASSERT_TRUE(analysis.loop);
  EXPECT_EQ(analysis.loop->begin, 0u);
  EXPECT_EQ(analysis.loop->end, 4u);
}

TEST(SassAnalysis, MatchBaseline) {
  std::vector<Kernel> kernels =
      parseSass(sassText({"EXIT"}, "a", "sm_86") +
                sassText({"EXIT"}, "a", "sm_90") + sassText({"EXIT"}, "b"));
  std::vector<KernelAnalysis> baselines;
  for (const Kernel &kernel : kernels)
    baselines.push_back(analyzeKernel(kernel));
  EXPECT_EQ(matchBaseline(kernels[1], baselines), &baselines[1]);
  EXPECT_EQ(matchBaseline(kernels[2], baselines), &baselines[2]);
  Kernel c = kernels[0];
  c.name = "c";
  EXPECT_EQ(matchBaseline(c, baselines), nullptr);
  EXPECT_EQ(matchBaseline(c, ArrayRef(baselines).take_front()), &baselines[0]);
}

//===----------------------------------------------------------------------===//
// Loop checks
//===----------------------------------------------------------------------===//

TEST(SassChecks, LoadsBeforeMmaPass) {
  Kernel kernel = parseKernel(pipelinedBody());
  KernelReport report = checkKernel(kernel, /*baseline=*/nullptr);
  EXPECT_EQ(statuses(report.checks),
            "PASS PASS PASS PASS SKIP SKIP PASS SKIP SKIP SKIP SKIP SKIP");
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(report.count(CheckResult::Skip), 7u);
  EXPECT_EQ(report.checks[0].detail,
            "/*0010*/../*0070*/: 1 global loads, 2 HMMA.16816.F32, 1 BAR.SYNC");
  EXPECT_EQ(report.checks[1].detail,
            "first global load /*0010*/ precedes first compute /*0030*/");
  EXPECT_EQ(report.checks[2].detail,
            "0 BAR.SYNC between /*0010*/ and /*0030*/");
  EXPECT_EQ(report.checks[3].detail,
            "BAR.SYNC /*0060*/ after last compute /*0040*/");
  EXPECT_EQ(report.checks[4].detail, "needs --baseline");
  EXPECT_EQ(report.checks[6].detail,
            "0 STL, 0 LDL (SASS input: no -res-usage)");
  EXPECT_EQ(report.checks[7].detail,
            "no warpgroup MMA (HGMMA) in the main loop");
}

TEST(SassChecks, BarrierBetweenLoadAndMmaFails) {
  // The loop's BAR.SYNC moved from after the HMMAs to before them.
  Kernel kernel = parseKernel(
      {other, ldgsts, bar, hmma, hmma, other, "@!P0 BRA 0x10", "EXIT"});
  KernelAnalysis analysis = analyzeKernel(kernel);
  CheckResult between = checkNoBarrierBetween(analysis);
  EXPECT_EQ(between.status, CheckResult::Fail);
  EXPECT_EQ(between.detail,
            "1 BAR.SYNC between /*0010*/ and /*0030*/, first at /*0020*/: the "
            "compute waits behind the barrier (no overlap)");
  EXPECT_EQ(value(between, "first_barrier"), "\"0x0020\"");
  EXPECT_EQ(value(between, "wraps_around"), "false");
  CheckResult after = checkBarrierAfterCompute(analysis);
  EXPECT_EQ(after.status, CheckResult::Fail);
  EXPECT_EQ(after.detail, "no BAR.SYNC between last compute /*0040*/ and the "
                          "backward branch /*0060*/");
  EXPECT_EQ(value(after, "barrier"), "null");
  EXPECT_EQ(checkLoadsBeforeCompute(analysis).status, CheckResult::Pass);
}

TEST(SassChecks, LoadsSunkBelowMmaFail) {
  // The load follows every HMMA: the path to the next compute wraps around
  // the back edge through the barrier.
  Kernel kernel =
      parseKernel({other, hmma, hmma, ldg, bar, "@!P0 BRA 0x10", "EXIT"});
  KernelAnalysis analysis = analyzeKernel(kernel);
  EXPECT_TRUE(analysis.computeAfterLoadWraps);
  CheckResult before = checkLoadsBeforeCompute(analysis);
  EXPECT_EQ(before.status, CheckResult::Fail);
  EXPECT_EQ(before.detail, "first global load /*0030*/ follows first compute "
                           "/*0010*/ (0 of 2 compute follow it in the "
                           "iteration)");
  CheckResult between = checkNoBarrierBetween(analysis);
  EXPECT_EQ(between.status, CheckResult::Fail);
  EXPECT_EQ(between.detail,
            "1 BAR.SYNC between /*0030*/ and /*0010*/ (next iteration), first "
            "at /*0040*/: the compute waits behind the barrier (no overlap)");
}

TEST(SassChecks, NoLoadInLoopFails) {
  Kernel kernel = parseKernel({ldg, hmma, bar, "@!P0 BRA 0x10", "EXIT"});
  KernelAnalysis analysis = analyzeKernel(kernel);
  CheckResult before = checkLoadsBeforeCompute(analysis);
  EXPECT_EQ(before.status, CheckResult::Fail);
  EXPECT_EQ(before.detail, "no global load (LDGSTS/LDG) in the loop body");
  EXPECT_EQ(checkNoBarrierBetween(analysis).status, CheckResult::Fail);
}

TEST(SassChecks, FfmaOverlapThreshold) {
  // An FP32 kernel: one FFMA, then the LDG, then three more FFMAs.
  Kernel kernel = parseKernel({other, ffmaInst, ldg, ffmaInst, ffmaInst,
                               ffmaInst, bar, "@!P0 BRA 0x10", "EXIT"});
  KernelAnalysis analysis = analyzeKernel(kernel);
  EXPECT_FALSE(analysis.computeIsMma());
  EXPECT_EQ(analysis.loopCompute, 4u);
  EXPECT_EQ(analysis.computeAfterFirstLoad, 3u);
  CheckOptions options;
  options.ffmaOverlap = 0.5;
  CheckResult loose = checkLoadsBeforeCompute(analysis, options);
  EXPECT_EQ(loose.status, CheckResult::Pass);
  EXPECT_EQ(loose.detail, "first global load /*0020*/ follows first compute "
                          "/*0010*/ (3 of 4 compute follow it in the "
                          "iteration, at least --ffma-overlap=0.50 of the "
                          "FFMAs)");
  options.ffmaOverlap = 0.9;
  CheckResult strict = checkLoadsBeforeCompute(analysis, options);
  EXPECT_EQ(strict.status, CheckResult::Fail);
  EXPECT_EQ(strict.detail, "first global load /*0020*/ follows first compute "
                           "/*0010*/ (3 of 4 compute follow it in the "
                           "iteration)");
}

TEST(SassChecks, MmaKernelsNeedEveryMmaAfterTheLoad) {
  // The same order with HMMA: no threshold.
  Kernel kernel = parseKernel(
      {other, hmma, ldg, hmma, hmma, hmma, bar, "@!P0 BRA 0x10", "EXIT"});
  CheckOptions options;
  options.ffmaOverlap = 0.1;
  EXPECT_EQ(checkLoadsBeforeCompute(analyzeKernel(kernel), options).status,
            CheckResult::Fail);
}

TEST(SassChecks, MultistageBarrierAtTheTop) {
  // The barrier before the next tile's loads, reached from the last compute
  // through the back edge.
  Kernel kernel =
      parseKernel({other, bar, ldgsts, hmma, hmma, "@!P0 BRA 0x10", "EXIT"});
  KernelAnalysis analysis = analyzeKernel(kernel);
  EXPECT_TRUE(analysis.barrierAfterComputeWraps);
  CheckResult after = checkBarrierAfterCompute(analysis);
  EXPECT_EQ(after.status, CheckResult::Pass);
  EXPECT_EQ(after.detail,
            "BAR.SYNC /*0010*/ after last compute /*0040*/ (at the top of the "
            "next iteration, before its loads: the multistage order)");
  EXPECT_EQ(checkNoBarrierBetween(analysis).status, CheckResult::Pass);
}

TEST(SassChecks, NoLoopIsUnsupported) {
  Kernel kernel = parseKernel({ldg, hmma, "EXIT", "BRA 0x30"});
  KernelReport report = checkKernel(kernel, nullptr);
  EXPECT_FALSE(report.analysis.loop);
  EXPECT_EQ(statuses(report.checks),
            "SKIP SKIP SKIP SKIP SKIP SKIP PASS SKIP SKIP SKIP SKIP SKIP");
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(report.resultName(), "UNSUPPORTED");
  EXPECT_EQ(report.checks[7].detail, "no main loop");
  EXPECT_EQ(report.unsupported,
            "no backward branch encloses a compute instruction (a loop "
            "unrolled or peeled away, e.g. a pipeline whose stages cover "
            "every tile): nothing to check");
  EXPECT_EQ(report.checks[0].detail, "unsupported: " + report.unsupported);

  Kernel noCompute = parseKernel({ldg, "@P0 BRA 0x0", "EXIT"});
  EXPECT_EQ(checkMainLoop(analyzeKernel(noCompute)).detail,
            "unsupported: the kernel has no compute instruction (MMA, FFMA, "
            "FADD/FMUL/HADD2/HMUL2/HFMA2): nothing to check");
}

TEST(SassChecks, SpillsFail) {
  Kernel kernel =
      parseKernel({other, ldgsts, "STL [R1+0x4], R116", "LDL R116, [R1+0x4]",
                   hmma, bar, "@!P0 BRA 0x10", "EXIT"});
  CheckResult spills = checkNoSpills(analyzeKernel(kernel));
  EXPECT_EQ(spills.status, CheckResult::Fail);
  EXPECT_EQ(spills.detail, "1 STL, 1 LDL (SASS input: no -res-usage)");
  EXPECT_EQ(value(spills, "STL"), "1");
  EXPECT_EQ(value(spills, "LOCAL"), "null");
}

TEST(SassChecks, ResourceUsageSpillsFail) {
  Kernel kernel = parseKernel(pipelinedBody());
  kernel.resourceUsageRead = true;
  EXPECT_EQ(checkNoSpills(analyzeKernel(kernel)).detail,
            "0 STL, 0 LDL (no -res-usage entry for the kernel)");
  kernel.resources = Resources{126, 16, 40960, 16};
  CheckResult spills = checkNoSpills(analyzeKernel(kernel));
  EXPECT_EQ(spills.status, CheckResult::Fail);
  EXPECT_EQ(spills.detail, "0 STL, 0 LDL, LOCAL:16 STACK:16");
  kernel.resources = Resources{126, 0, 40960, 0};
  EXPECT_EQ(checkNoSpills(analyzeKernel(kernel)).status, CheckResult::Pass);
}

//===----------------------------------------------------------------------===//
// Baseline checks
//===----------------------------------------------------------------------===//

TEST(SassBaselineChecks, EqualCountsAndPeeledEpilogue) {
  SmallVector<CheckResult> checks =
      compare(loopBody(1, ldgsts, 2, 2), loopBody(1, ldg, 2, 0));
  EXPECT_EQ(statuses(checks), "PASS PASS");
  EXPECT_EQ(checks[0].detail, "2 == baseline 2");
  EXPECT_EQ(checks[1].detail, "2 outside the loop - baseline 0 = 2 = 1 x 2 "
                              "per tile (the peeled epilogue)");
  EXPECT_EQ(value(checks[1], "peeled_tiles"), "1");
}

TEST(SassBaselineChecks, EpilogueMissingFails) {
  SmallVector<CheckResult> checks =
      compare(loopBody(1, ldgsts, 2, 0), loopBody(1, ldg, 2, 0));
  EXPECT_EQ(statuses(checks), "PASS FAIL");
  EXPECT_EQ(checks[1].detail,
            "0 outside the loop - baseline 0 = 0 = 0 x 2 per tile; expected "
            "exactly 1 tile(s) (the peeled epilogue of --stages=2)");
}

TEST(SassBaselineChecks, StagesPeelMoreTiles) {
  CheckOptions options;
  options.stages = 3;
  EXPECT_EQ(statuses(compare(loopBody(1, ldgsts, 2, 4), loopBody(1, ldg, 2, 0),
                             options)),
            "PASS PASS");
  EXPECT_EQ(statuses(compare(loopBody(1, ldgsts, 2, 2), loopBody(1, ldg, 2, 0),
                             options)),
            "PASS FAIL");
}

TEST(SassBaselineChecks, CountMismatchFails) {
  // 9 vs 1 HMMA: no unroll factor <= 8 relates them.
  SmallVector<CheckResult> checks =
      compare(loopBody(1, ldgsts, 9, 9), loopBody(1, ldg, 1, 0));
  EXPECT_EQ(statuses(checks), "FAIL FAIL");
  EXPECT_EQ(checks[0].detail, "9 != baseline 1 (not related by an unroll "
                              "factor <= 8: compute was lost or duplicated)");
  EXPECT_EQ(checks[1].detail,
            "no per-tile count: compute_per_iteration failed");
}

TEST(SassBaselineChecks, UnrolledBaselinePasses) {
  // ptxas unrolled the baseline's loop by 4: four times the HMMAs and four
  // times the bytes loaded.
  SmallVector<CheckResult> checks =
      compare(loopBody(1, ldgsts, 2, 2), loopBody(4, ldg, 8, 0));
  EXPECT_EQ(statuses(checks), "PASS PASS");
  EXPECT_EQ(checks[0].detail,
            "2 != baseline 8: ptxas unrolled the baseline's loop by 4; 2 per "
            "tile in both (loads 16 and 64 bytes per thread agree)");
  EXPECT_EQ(value(checks[0], "baseline_unroll"), "4");
  EXPECT_EQ(value(checks[0], "compute_per_tile"), "2");
}

TEST(SassBaselineChecks, UnrollWithoutMoreLoadsFails) {
  // Four times the HMMAs but the same loads: duplicated compute.
  SmallVector<CheckResult> checks =
      compare(loopBody(1, ldgsts, 2, 2), loopBody(1, ldg, 8, 0));
  EXPECT_EQ(statuses(checks), "FAIL FAIL");
  EXPECT_EQ(checks[0].detail,
            "2 != baseline 8 (ratio 1:4, but the loops load 16 and 16 bytes "
            "per thread: not an unroll; compute was lost or duplicated)");
}

TEST(SassBaselineChecks, UnrolledPipelinedLoopAcceptsRemainder) {
  // The pipelined loop unrolled by 2: its epilogue may hold 1..2 tiles.
  EXPECT_EQ(
      statuses(compare(loopBody(2, ldgsts, 4, 4), loopBody(1, ldg, 2, 0))),
      "PASS PASS");
  SmallVector<CheckResult> checks =
      compare(loopBody(2, ldgsts, 4, 6), loopBody(1, ldg, 2, 0));
  EXPECT_EQ(statuses(checks), "PASS FAIL");
  EXPECT_EQ(checks[1].detail,
            "6 outside the loop - baseline 0 = 6 = 3 x 2 per tile; expected "
            "1..2 tiles (the epilogue, give or take the remainder of ptxas' "
            "unrolling)");
}

TEST(SassBaselineChecks, BaselineWithoutLoopFails) {
  SmallVector<CheckResult> checks =
      compare(loopBody(1, ldgsts, 2, 2), {ldg, hmma, "EXIT"});
  EXPECT_EQ(statuses(checks), "FAIL FAIL");
  EXPECT_EQ(checks[0].detail, "the baseline has no main loop");
}

//===----------------------------------------------------------------------===//
// wgmma checks
//===----------------------------------------------------------------------===//

TEST(SassWgmma, InstructionClasses) {
  auto inst = [](StringRef line) {
    return *parseInstructionLine(("/*0010*/ " + line + " ;").str());
  };
  EXPECT_TRUE(isWarpgroupMma(inst(hgmma)));
  EXPECT_FALSE(isWarpgroupMma(inst(hmma)));
  EXPECT_FALSE(closesWgmmaGroup(inst(hgmma)));
  EXPECT_TRUE(closesWgmmaGroup(inst(hgmmaCommit)));
  EXPECT_EQ(wgmmaWaitDepth(inst("WARPGROUP.DEPBAR.LE gsb0, 0x1")),
            std::optional<unsigned>(1));
  EXPECT_FALSE(wgmmaWaitDepth(inst("WARPGROUP.ARRIVE")));
  EXPECT_FALSE(wgmmaWaitDepth(inst("DEPBAR.LE SB0, 0x1")));
  EXPECT_EQ(cpAsyncWaitDepth(inst("DEPBAR.LE SB0, 0x2")),
            std::optional<unsigned>(2));
  EXPECT_FALSE(cpAsyncWaitDepth(inst("DEPBAR.LE SB1, 0x2")));
  EXPECT_FALSE(cpAsyncWaitDepth(inst("WARPGROUP.DEPBAR.LE gsb0, 0x0")));
  EXPECT_TRUE(isProxyFence(inst("FENCE.VIEW.ASYNC.S")));
  EXPECT_FALSE(isProxyFence(inst("MEMBAR.ALL.CTA")));
  EXPECT_EQ(classifyInstruction(inst("WARPGROUP.ARRIVE"), ComputeKind::Mma),
            InstClass::WgmmaSync);
  EXPECT_EQ(classifyInstruction(inst("WARPGROUP.DEPBAR.LE gsb0, 0x0"),
                                ComputeKind::Mma),
            InstClass::WgmmaSync);
  EXPECT_EQ(classifyInstruction(inst("FENCE.VIEW.ASYNC.S"), ComputeKind::Mma),
            InstClass::ProxyFence);
  EXPECT_EQ(classifyInstruction(inst("DEPBAR.LE SB0, 0x0"), ComputeKind::Mma),
            InstClass::AsyncSync);
  EXPECT_EQ(accessBytes(inst("STS.64 [R0], R4")), 8u);
}

TEST(SassWgmma, CpAsyncLoopPasses) {
  std::vector<std::string> body = wgmmaCpAsyncBody({});
  Kernel kernel = parseKernel(body);
  KernelAnalysis analysis = analyzeKernel(kernel);
  ASSERT_TRUE(analysis.wgmma);
  const WgmmaAnalysis &wgmma = *analysis.wgmma;
  EXPECT_EQ(wgmma.loopMmas, 2u);
  EXPECT_EQ(wgmma.loopGroups, 1u);
  EXPECT_EQ(wgmma.loopCommits, 1u);
  EXPECT_EQ(wgmma.commitsBeforeLoop, 2u);
  EXPECT_EQ(wgmma.groupsBeforeLoop, 0u);
  EXPECT_EQ(wgmma.overlappingLoads, 1u);
  ASSERT_EQ(wgmma.writes.size(), 1u);
  EXPECT_EQ(wgmma.writes[0].stagesNeeded, std::optional<int64_t>(3));
  EXPECT_EQ(wgmma.groupStarts.size(), 1u);

  CheckOptions options;
  options.stages = 3;
  KernelReport report = checkKernel(kernel, nullptr, options);
  EXPECT_EQ(statuses(report.checks),
            "PASS PASS PASS PASS SKIP SKIP PASS PASS PASS PASS SKIP SKIP");
  EXPECT_EQ(report.checks[7].detail,
            "1 of 1 global loads overlap a wgmma group");
  EXPECT_EQ(report.checks[8].detail,
            "1 LDGSTS, first /*0080*/ after BAR.SYNC /*0070*/ after "
            "WARPGROUP.DEPBAR.LE gsb0, 0x0 /*00d0*/; at most 0 group(s) in "
            "flight, the refills need 3 stage(s), --stages=3");
  EXPECT_EQ(report.checks[9].detail,
            "1 wgmma group(s), first HGMMA /*00b0*/ after FENCE.VIEW.ASYNC.S "
            "/*0060*/ after the last shared store or cp.async wait");
}

TEST(SassWgmma, StagesBoundTheGroupsInFlight) {
  // Copies two tiles ahead need 3 stages with no group in flight ...
  EXPECT_EQ(wgmmaCheck(wgmmaCpAsyncBody({}), "wgmma_stage_safety", 2).status,
            CheckResult::Fail);
  // ... and 4 with one group in flight.
  WgmmaLoop depth1;
  depth1.depth = 1;
  CheckResult fail = wgmmaCheck(wgmmaCpAsyncBody(depth1), "wgmma_stage_safety");
  EXPECT_EQ(fail.status, CheckResult::Fail);
  EXPECT_EQ(fail.detail,
            "WARPGROUP.DEPBAR /*00d0*/ leaves 1 group(s) in flight at the "
            "LDGSTS /*0080*/: the stage it refills is still read unless there "
            "are 4 stages, --stages=3");
  EXPECT_EQ(
      wgmmaCheck(wgmmaCpAsyncBody(depth1), "wgmma_stage_safety", 4).status,
      CheckResult::Pass);
  // One group in flight with the copies one tile ahead (distance S - 2).
  WgmmaLoop distance1;
  distance1.prologueCommits = 1;
  distance1.copyWait = 0;
  distance1.depth = 1;
  CheckResult pass =
      wgmmaCheck(wgmmaCpAsyncBody(distance1), "wgmma_stage_safety");
  EXPECT_EQ(pass.status, CheckResult::Pass);
  EXPECT_EQ(value(pass, "stages_needed"), "3");
  EXPECT_EQ(value(pass, "max_groups_in_flight"), "1");
}

TEST(SassWgmma, EpilogueFollowsTheCopyDistance) {
  // One group in flight, copies one tile ahead: the epilogue computes one
  // tile whatever --stages says.
  WgmmaLoop distance1;
  distance1.prologueCommits = 1;
  distance1.copyWait = 0;
  distance1.depth = 1;
  distance1.epilogueGroups = 1;
  std::vector<std::string> baseline =
      concat({{other}, wgmmaGroup(), {bar, "@!P0 BRA 0x10", "EXIT"}});
  CheckOptions options;
  options.stages = 3;
  SmallVector<CheckResult> checks =
      compare(wgmmaCpAsyncBody(distance1), baseline, options);
  EXPECT_EQ(checks[1].status, CheckResult::Pass);
  EXPECT_EQ(checks[1].detail, "2 outside the loop - baseline 0 = 2 = 1 x 2 "
                              "per tile (the peeled epilogue)");
  distance1.epilogueGroups = 2;
  checks = compare(wgmmaCpAsyncBody(distance1), baseline, options);
  EXPECT_EQ(checks[1].status, CheckResult::Fail);
  EXPECT_EQ(checks[1].detail,
            "4 outside the loop - baseline 0 = 4 = 2 x 2 per tile; expected "
            "exactly 1 tile(s) (the peeled epilogue of copies 1 tile(s) "
            "ahead)");
}

TEST(SassWgmma, BarrierBetweenWaitAndRefill) {
  WgmmaLoop noBarrier;
  noBarrier.barrier = false;
  CheckResult check =
      wgmmaCheck(wgmmaCpAsyncBody(noBarrier), "wgmma_stage_safety");
  EXPECT_EQ(check.status, CheckResult::Fail);
  EXPECT_EQ(check.detail,
            "no BAR.SYNC between WARPGROUP.DEPBAR /*00d0*/ and the LDGSTS "
            "/*0080*/: another warp may refill the stage while this warp's "
            "wgmma group still reads it");

  // Without any wgmma wait in the loop no group retires before the refill.
  std::vector<std::string> body = wgmmaCpAsyncBody({});
  body[13] = other;
  CheckResult noWait = wgmmaCheck(body, "wgmma_stage_safety");
  EXPECT_EQ(noWait.status, CheckResult::Fail);
  EXPECT_EQ(noWait.detail, "no WARPGROUP.DEPBAR in the loop: no wgmma group "
                           "retires before the 1 LDGSTS refill its stages");
}

TEST(SassWgmma, ProxyFence) {
  WgmmaLoop noFence;
  noFence.fence = false;
  CheckResult check = wgmmaCheck(wgmmaCpAsyncBody(noFence), "proxy_fence");
  EXPECT_EQ(check.status, CheckResult::Fail);
  EXPECT_EQ(check.detail,
            "no FENCE.VIEW.ASYNC.S between DEPBAR.LE SB0, 0x1 /*0050*/ and the "
            "HGMMA /*00b0*/: the wgmma may read the tile's generic-proxy "
            "writes stale through the async proxy");
  EXPECT_EQ(value(check, "unfenced_write"), "\"0x0050\"");

  // A fence before the wait does not order the copies it completes.
  std::vector<std::string> early = wgmmaCpAsyncBody(noFence);
  early[5] = "FENCE.VIEW.ASYNC.S";
  early[6] = "DEPBAR.LE SB0, 0x1";
  EXPECT_EQ(wgmmaCheck(early, "proxy_fence").status, CheckResult::Fail);
}

TEST(SassWgmma, CopiesWaitedBeforeTheGroupDoNotOverlap) {
  // The copy's own group is waited for (DEPBAR.LE SB0, 0x0 after its
  // commit) before the HGMMAs issue, and the previous group has retired.
  std::vector<std::string> body = wgmmaCpAsyncBody({});
  body.insert(body.begin() + 10, "DEPBAR.LE SB0, 0x0");
  CheckResult check = wgmmaCheck(body, "wgmma_overlap");
  EXPECT_EQ(check.status, CheckResult::Fail);
  EXPECT_EQ(check.detail,
            "0 of 1 global loads overlap a wgmma group; /*0080*/ is consumed "
            "by /*00a0*/ before the next HGMMA and issues after the last group "
            "retired");
  // Waiting with one cp.async group pending does not retire the copy.
  body[10] = "DEPBAR.LE SB0, 0x1";
  EXPECT_EQ(wgmmaCheck(body, "wgmma_overlap").status, CheckResult::Pass);
}

TEST(SassWgmma, RegisterVariants) {
  // The unpipelined order: LDG, its STS, fence, barrier, the group.
  std::vector<std::string> serial =
      concat({{other, "LDG.E.128 R40, [R2.64]", "STS.128 [R0], R40",
               "FENCE.VIEW.ASYNC.S", bar},
              wgmmaGroup(),
              {bar, "@!P0 BRA 0x10", "EXIT"}});
  CheckResult check = wgmmaCheck(serial, "wgmma_overlap");
  EXPECT_EQ(check.status, CheckResult::Fail);
  EXPECT_EQ(value(check, "consumer"), "\"0x0020\"");
  // An STS of other registers does not consume the load.
  std::vector<std::string> unrelated = serial;
  unrelated[2] = "STS.128 [R0], R44";
  EXPECT_EQ(wgmmaCheck(unrelated, "wgmma_overlap").status, CheckResult::Pass);

  // register-prefetch: the LDG among the HGMMAs, its STS after the wait and
  // the barrier, fenced before the next iteration's group.
  std::vector<std::string> rpf = {other,
                                  "WARPGROUP.ARRIVE",
                                  hgmma,
                                  "LDG.E.128 R40, [R2.64]",
                                  hgmmaCommit,
                                  "WARPGROUP.DEPBAR.LE gsb0, 0x0",
                                  bar,
                                  "STS.128 [R0], R40",
                                  "FENCE.VIEW.ASYNC.S",
                                  bar,
                                  "@!P0 BRA 0x10",
                                  "EXIT"};
  EXPECT_EQ(wgmmaCheck(rpf, "wgmma_overlap").status, CheckResult::Pass);
  CheckResult stage = wgmmaCheck(rpf, "wgmma_stage_safety", 2);
  EXPECT_EQ(stage.status, CheckResult::Pass);
  EXPECT_EQ(value(stage, "stages_needed"), "2");
  EXPECT_EQ(wgmmaCheck(rpf, "proxy_fence").detail,
            "1 wgmma group(s), first HGMMA /*0020*/ after FENCE.VIEW.ASYNC.S "
            "/*0080*/ (previous iteration) after the last shared store or "
            "cp.async wait");
  // One group in flight at the STS needs a second buffer.
  rpf[5] = "WARPGROUP.DEPBAR.LE gsb0, 0x1";
  EXPECT_EQ(wgmmaCheck(rpf, "wgmma_stage_safety", 2).status, CheckResult::Fail);
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

TEST(SassReport, LoopExcerpt) {
  Kernel kernel = parseKernel(pipelinedBody());
  KernelAnalysis analysis = analyzeKernel(kernel);
  std::string text;
  raw_string_ostream os(text);
  printLoopExcerpt(os, analysis);
  EXPECT_EQ(
      text,
      R"(  main loop /*0010*/../*0070*/: 7 instructions, closed by '@!P0 BRA 0x10' (the busiest of 2 backward branches)
    /*0010*/  LDGSTS.E.BYPASS.128 [R1], [R2.64]                 <- global load (first)
    /*0020*/  LDGDEPBAR                                         <- cp.async commit
    /*0030*/  HMMA.16816.F32 x2 through /*0040*/                <- compute (first and last)
    /*0050*/  DEPBAR.LE SB0, 0x0                                <- cp.async wait
    /*0060*/  BAR.SYNC.DEFER_BLOCKING 0x0                       <- barrier (after the last compute)
    /*0070*/  @!P0 BRA 0x10                                     <- backward branch
)");

  text.clear();
  printLoopExcerpt(os, analysis, /*fullSass=*/true);
  // Every instruction, each with its own note.
  std::string pad(48 - StringRef(hmma).size() + 2, ' ');
  EXPECT_NE(text.find(std::string("    /*0030*/  ") + hmma + pad +
                      "<- compute\n    /*0040*/  " + hmma + pad +
                      "<- compute\n"),
            std::string::npos)
      << text;
}

TEST(SassReport, ElidesOtherInstructions) {
  Kernel kernel = parseKernel(
      {other, ldg, other, other, hmma, other, hmma, bar, "@!P0 BRA 0x10"});
  std::string text;
  raw_string_ostream os(text);
  printLoopExcerpt(os, analyzeKernel(kernel));
  EXPECT_NE(text.find("    /*0020*/  ... 2 other instructions\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("HMMA.16816.F32 x2 through /*0060*/ (+1 other)"),
            std::string::npos)
      << text;
}

TEST(SassReport, CheckTable) {
  CheckResult pass{"main_loop", CheckResult::Pass, "fine"};
  CheckResult fail{"no_spills", CheckResult::Fail, "1 STL"};
  std::string text;
  raw_string_ostream os(text);
  printCheckTable(os, {pass, fail});
  EXPECT_EQ(text, "  check                                 result  details\n"
                  "  main_loop                             PASS    fine\n"
                  "  no_spills                             FAIL    1 STL\n");
}

TEST(SassReport, KernelReportAndJson) {
  Kernel kernel = parseKernel(pipelinedBody());
  KernelReport report = checkKernel(kernel, nullptr);
  std::string text;
  raw_string_ostream os(text);
  printKernelReport(os, report);
  EXPECT_TRUE(StringRef(text).starts_with(
      "kernel k (sm_86): 12 instructions, compute = tensor-core MMA (4 in the "
      "kernel)\n"))
      << text;
  EXPECT_NE(text.find("  result: PASS (5 passed, 0 failed, 7 skipped)\n\n"),
            std::string::npos)
      << text;

  std::string jsonText;
  raw_string_ostream jsonOs(jsonText);
  {
    json::OStream j(jsonOs);
    JsonRunInfo info;
    info.input = "k.sass";
    info.sassInput = true;
    beginJsonReport(j, info);
    writeKernelJson(j, report);
    endJsonReport(j, report.passed(), !report.unsupported.empty());
  }
  Expected<json::Value> parsed = json::parse(jsonText);
  ASSERT_TRUE(bool(parsed)) << toString(parsed.takeError());
  const json::Object *root = parsed->getAsObject();
  ASSERT_TRUE(root);
  EXPECT_EQ(root->getString("input_kind"), std::optional<StringRef>("sass"));
  EXPECT_EQ(root->getInteger("exit_code"), std::optional<int64_t>(0));
  const json::Array *kernels = root->getArray("kernels");
  ASSERT_TRUE(kernels && kernels->size() == 1);
  const json::Object *k = (*kernels)[0].getAsObject();
  ASSERT_TRUE(k);
  EXPECT_EQ(k->getString("compute_kind"), std::optional<StringRef>("mma"));
  EXPECT_EQ(k->getObject("main_loop")->getString("first_global_load"),
            std::optional<StringRef>("0x0010"));
  EXPECT_EQ(k->getArray("checks")->size(), 12u);
  EXPECT_EQ(k->getString("result"), std::optional<StringRef>("PASS"));
}

} // namespace

//===----------------------------------------------------------------------===//
// tma_in_flight
//===----------------------------------------------------------------------===//

/// A TMA wgmma kernel: `ahead` tiles announced and loaded before the loop,
/// then the loop (at 0x10 * (2 * ahead)): announce, load, wait, HGMMA,
/// barrier, back edge.
static std::vector<std::string> tmaBody(unsigned ahead) {
  std::vector<std::string> body;
  for (unsigned i = 0; i < ahead; ++i) {
    body.push_back("@!P0 SYNCS.ARRIVE.TRANS64 RZ, [UR13], R0");
    body.push_back("@!UP0 UTMALDG.2D [UR12], [UR10]");
  }
  std::string loop = formatv("{0:x}", 0x10 * body.size()).str();
  llvm::append_range(
      body,
      std::vector<std::string>{
          "@!P0 SYNCS.ARRIVE.TRANS64 RZ, [UR17], R2",
          "@!UP0 UTMALDG.2D [UR16], [UR24]",
          "SYNCS.PHASECHK.TRANS64.TRYWAIT P1, [R3+URZ], R2", "WARPGROUP.ARRIVE",
          "HGMMA.64x128x16.F32 R24, gdesc[UR32].tnspB, R24, gsb0",
          "WARPGROUP.DEPBAR.LE gsb0, 0x0", "BAR.SYNC.DEFER_BLOCKING 0x0",
          "@P0 BRA 0x" + loop, "EXIT"});
  return body;
}

TEST(SassChecks, TmaInFlight) {
  // pk's TMA ring with 3 stages: 2 tiles ahead (multistage), 1 (one wgmma
  // group in flight).
  CheckResult ring = wgmmaCheck(tmaBody(2), "tma_in_flight", 3);
  EXPECT_EQ(ring.status, CheckResult::Pass) << ring.detail;
  EXPECT_EQ(value(ring, "tiles_announced_before_loop"), "2");
  EXPECT_EQ(wgmmaCheck(tmaBody(1), "tma_in_flight", 3).status,
            CheckResult::Pass);
  // Unpipelined: every load awaited in its own iteration.
  CheckResult serial = wgmmaCheck(tmaBody(0), "tma_in_flight", 2);
  EXPECT_EQ(serial.status, CheckResult::Fail);
  EXPECT_NE(serial.detail.find("no tile is in flight"), std::string::npos)
      << serial.detail;
  // More tiles ahead than --stages holds.
  EXPECT_EQ(wgmmaCheck(tmaBody(3), "tma_in_flight", 3).status,
            CheckResult::Fail);
  // No UTMALDG: skipped.
  EXPECT_EQ(wgmmaCheck(wgmmaCpAsyncBody({}), "tma_in_flight").status,
            CheckResult::Skip);
}
