//===- Enums.td - pk's enums, spelled once -----------------*- tablegen -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Every enum whose values pk spells in options, remarks, reports or
// transform-op attributes. `-gen-enum-decls` / `-gen-enum-defs` give each its
// `stringify*` and `symbolize*`; Passes.td builds the `llvm::cl::values` of
// an enum option from the same cases (PKOptionValues), so a value is
// spelled here and nowhere else.
//
//===----------------------------------------------------------------------===//

#ifndef PK_ENUMS
#define PK_ENUMS

include "mlir/IR/EnumAttr.td"

/// One case: its C++ symbol, value and spelling, the one-line help of the
/// option value, and whether an option accepts it (`none` is a result only).
class PK_Case<string sym, int val, string str, string helpText = "",
              bit inOption = 1> : I32EnumCase<sym, val, str> {
  string help = helpText;
  bit option = inOption;
}

class PK_Enum<string name, string summary, list<PK_Case> cases>
    : I32Enum<name, summary, cases> {
  list<PK_Case> pkCases = cases;
  let cppNamespace = "::mlir::pk";
}

/// The `llvm::cl::values(...)` of an option of enum `e`: the cases an option
/// accepts, with their help.
class PKOptionValues<PK_Enum e> {
  string prefix = e.cppNamespace # "::" # e.className # "::";
  string values = "::llvm::cl::values(" #
      !interleave(!foreach(c, !filter(c, e.pkCases, !eq(c.option, 1)),
                           "clEnumValN(" # prefix # c.symbol # ", \"" #
                           c.str # "\", \"" # c.help # "\")"), ", ") # ")";
}

def PK_PipelineVariant : PK_Enum<"PipelineVariant",
    "software-pipelining variant", [
  PK_Case<"Auto", 0, "auto",
          "the budget, the compute/load ratio and the copies decide">,
  PK_Case<"None", 1, "none", "", /*inOption=*/0>,
  PK_Case<"CpAsync", 2, "cp-async", "nvgpu.device_async_copy into N buffers">,
  PK_Case<"LdgRegister", 3, "ldg-register",
          "global loads into registers, 2 buffers">,
  PK_Case<"RegisterPrefetch", 4, "register-prefetch",
          "global loads into registers, 1 buffer">,
  PK_Case<"Tma", 5, "tma", "TMA loops: N buffers on a ring of N mbarriers">,
]>;

def PK_PipelineSchedule : PK_Enum<"PipelineSchedule",
    "order of a pipelined iteration", [
  PK_Case<"Auto", 0, "auto", "multistage (mma-in-flight where the model "
          "predicts it faster)">,
  PK_Case<"TwoStage", 1, "two-stage",
          "cp-async, 2 buffers: issue tile t+1, commit, compute tile t, wait, "
          "barrier">,
  PK_Case<"Multistage", 2, "multistage",
          "wait all but N-2, barrier, issue tile t+N-1, compute">,
  PK_Case<"MmaInFlight", 3, "mma-in-flight",
          "wgmma loops, N >= 3: multistage with tile t's wgmma group in "
          "flight until tile t+1's, copies N-2 tiles ahead">,
  PK_Case<"WarpSpecialized", 4, "warp-specialized",
          "TMA loops: a producer warpgroup added to the block issues the "
          "loads, handshaking with the kernel's threads on full/empty "
          "mbarrier rings">,
]>;

def PK_EmitKind : PK_Enum<"EmitKind", "artefacts pk writes", [
  PK_Case<"MLIR", 0, "mlir", "no artefacts">,
  PK_Case<"LLVMIR", 1, "llvm", "<out-dir>/<module>.<arch>.ll">,
  PK_Case<"PTX", 2, "ptx", "<out-dir>/<module>.<arch>.ptx">,
  PK_Case<"Cubin", 3, "cubin",
          "PTX and <out-dir>/<module>.<arch>.cubin with ptxas' usage">,
]>;

def PK_PipelineOutcome : PK_Enum<"PipelineOutcome",
    "how pk ended for one loop", [
  PK_Case<"Pipelined", 0, "pipelined">,
  PK_Case<"NotAKLoop", 1, "not-a-kloop">,
  PK_Case<"NotSelected", 2, "not-selected">,
  PK_Case<"PreconditionFailed", 3, "precondition-failed">,
  PK_Case<"Analyzed", 4, "analyzed">,
]>;

def PK_SharedBufferKind : PK_Enum<"SharedBufferKind",
    "how a shared-memory buffer is allocated", [
  PK_Case<"Attribution", 0, "attribution">,
  PK_Case<"Global", 1, "global">,
  PK_Case<"Alloc", 2, "alloc">,
]>;

def PK_OccupancyLimit : PK_Enum<"OccupancyLimit",
    "the resource that limits blocks per SM", [
  PK_Case<"Threads", 0, "threads">,
  PK_Case<"Registers", 1, "registers">,
  PK_Case<"SharedMemory", 2, "shared_memory">,
  PK_Case<"Blocks", 3, "blocks">,
  PK_Case<"None", 4, "none">,
]>;

#endif // PK_ENUMS
