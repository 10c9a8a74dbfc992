//===- SassParser.cpp - SASS text, resource usage and cuobjdump -----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Reads kernels from the output of `cuobjdump -sass` and `cuobjdump
// -res-usage`, and finds and runs cuobjdump for cubin inputs.
//
//===----------------------------------------------------------------------===//

#include "pk/Verification/SassCheck.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace llvm;
using namespace pk::sass;

std::string Instruction::text() const {
  std::string result;
  if (!predicate.empty())
    result = predicate + " ";
  result += opcode;
  if (!operands.empty())
    result += " " + operands;
  return result;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// Parses the last `0x...` token of a branch's operands.
static std::optional<uint64_t> parseBranchTarget(StringRef operands) {
  size_t pos = operands.rfind("0x");
  if (pos == StringRef::npos)
    return std::nullopt;
  StringRef digits = operands.substr(pos + 2);
  digits = digits.take_while(isHexDigit);
  uint64_t target;
  if (digits.empty() || digits.getAsInteger(16, target))
    return std::nullopt;
  return target;
}

std::optional<Instruction> pk::sass::parseInstructionLine(StringRef line) {
  line = line.trim();
  if (!line.consume_front("/*"))
    return std::nullopt;
  size_t close = line.find("*/");
  if (close == StringRef::npos)
    return std::nullopt;
  Instruction inst;
  if (line.take_front(close).getAsInteger(16, inst.address))
    return std::nullopt;
  StringRef body = line.drop_front(close + 2);
  size_t semi = body.find(';');
  if (semi == StringRef::npos)
    return std::nullopt;
  body = body.take_front(semi).trim();
  if (body.empty())
    return std::nullopt;
  if (body.starts_with("@")) {
    auto [pred, rest] = body.split(' ');
    inst.predicate = pred.str();
    body = rest.trim();
  }
  auto [opcode, operands] = body.split(' ');
  inst.opcode = opcode.str();
  inst.baseOpcode = opcode.split('.').first.str();
  inst.operands = operands.trim().str();
  if (inst.baseOpcode == "BRA")
    inst.branchTarget = parseBranchTarget(inst.operands);
  return inst;
}

std::vector<Kernel> pk::sass::parseSass(StringRef text) {
  std::vector<Kernel> kernels;
  std::string arch;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    StringRef trimmed = line.trim();
    if (trimmed.consume_front("code for ")) {
      arch = trimmed.trim().str();
      continue;
    }
    if (trimmed.consume_front("Function :")) {
      Kernel kernel;
      kernel.name = trimmed.trim().str();
      kernel.arch = arch;
      kernels.push_back(std::move(kernel));
      continue;
    }
    if (kernels.empty())
      continue;
    if (std::optional<Instruction> inst = parseInstructionLine(line))
      kernels.back().insts.push_back(std::move(*inst));
  }
  return kernels;
}

/// Parses the fields of one `REG:126 STACK:0 ...` line.
static Resources parseResourceLine(StringRef line) {
  Resources res;
  SmallVector<StringRef> fields;
  line.split(fields, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef field : fields) {
    auto [key, value] = field.split(':');
    int64_t number;
    if (value.getAsInteger(10, number))
      continue;
    if (key == "REG")
      res.reg = number;
    else if (key == "STACK")
      res.stack = number;
    else if (key == "SHARED")
      res.shared = number;
    else if (key == "LOCAL")
      res.local = number;
  }
  return res;
}

StringMap<Resources> pk::sass::parseResourceUsage(StringRef text) {
  StringMap<Resources> result;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  std::string current;
  for (StringRef line : lines) {
    StringRef trimmed = line.trim();
    if (trimmed.consume_front("Function ")) {
      current = trimmed.rtrim(':').trim().str();
      continue;
    }
    if (current.empty() || !trimmed.contains(':'))
      continue;
    result.try_emplace(current, parseResourceLine(trimmed));
    current.clear();
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Running cuobjdump
//===----------------------------------------------------------------------===//

/// An error carrying `message` only.
static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// Runs `program args...`, capturing stdout (and stderr) as strings.
/// Returns the exit status, or -1 when the program could not be started.
static int runProgram(StringRef program, ArrayRef<StringRef> args,
                      std::string &out, std::string &err) {
  SmallString<128> outPath, errPath;
  if (sys::fs::createTemporaryFile("pk-sass-check", "out", outPath) ||
      sys::fs::createTemporaryFile("pk-sass-check", "err", errPath)) {
    err = "cannot create a temporary file";
    return -1;
  }
  FileRemover outRemover(outPath), errRemover(errPath);
  SmallVector<StringRef> argv = {program};
  argv.append(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(outPath),
                                          StringRef(errPath)};
  std::string execError;
  bool failed = false;
  int rc = sys::ExecuteAndWait(program, argv, /*Env=*/std::nullopt, redirects,
                               /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                               &execError, &failed);
  if (auto buf = MemoryBuffer::getFile(outPath))
    out = (*buf)->getBuffer().str();
  if (auto buf = MemoryBuffer::getFile(errPath))
    err = (*buf)->getBuffer().str();
  if (!execError.empty())
    err = execError + (err.empty() ? "" : "\n" + err);
  return failed ? -1 : rc;
}

/// Looks for cuobjdump under the `nvidia` Python namespace package
/// (pip install nvidia-cuda-cuobjdump), asking python3 where it lives.
/// On failure `tried` says why.
static std::optional<std::string> findPyPICuobjdump(std::string &tried) {
  ErrorOr<std::string> python = sys::findProgramByName("python3");
  if (!python) {
    tried = "python3 is not on PATH";
    return std::nullopt;
  }
  std::string out, err;
  int rc = runProgram(
      *python,
      {"-c", "import nvidia, os; print(os.linesep.join(nvidia.__path__))"}, out,
      err);
  if (rc != 0) {
    tried = *python + " cannot import the nvidia package";
    return std::nullopt;
  }
  SmallVector<StringRef> dirs;
  StringRef(out).split(dirs, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef dir : dirs) {
    for (StringRef sub : {"cu13/bin", "cu12/bin", "cuda_cuobjdump/bin"}) {
      SmallString<256> candidate(dir.trim());
      sys::path::append(candidate, sub, "cuobjdump");
      if (sys::fs::can_execute(candidate))
        return std::string(candidate);
    }
  }
  tried = "no nvidia/cu13/bin/cuobjdump under " + join(dirs, ", ");
  return std::nullopt;
}

Expected<std::string> pk::sass::findCuobjdump(StringRef explicitPath) {
  if (!explicitPath.empty()) {
    if (sys::fs::can_execute(explicitPath))
      return explicitPath.str();
    return makeError("--cuobjdump=" + explicitPath +
                     " is not an executable file");
  }
  if (std::optional<std::string> env = sys::Process::GetEnv("CUOBJDUMP")) {
    if (sys::fs::can_execute(*env))
      return *env;
    return makeError("$CUOBJDUMP=" + *env + " is not an executable file");
  }
  if (ErrorOr<std::string> onPath = sys::findProgramByName("cuobjdump"))
    return *onPath;
  std::string tried;
  if (std::optional<std::string> pypi = findPyPICuobjdump(tried))
    return *pypi;
  return makeError(
      "cuobjdump not found: no --cuobjdump, $CUOBJDUMP is unset, it is not "
      "on PATH, and the PyPI package was not found (" +
      tried +
      "); install it with `pip install nvidia-cuda-cuobjdump "
      "nvidia-cuda-nvdisasm`, or pass disassembled SASS with --sass-input");
}

void pk::sass::exportNvdisasmPath(StringRef cuobjdump) {
  if (sys::Process::GetEnv("NVDISASM_PATH"))
    return;
  SmallString<256> dir(cuobjdump);
  sys::path::remove_filename(dir);
  SmallString<256> nvdisasm(dir);
  sys::path::append(nvdisasm, "nvdisasm");
  if (!sys::fs::can_execute(nvdisasm))
    return;
#ifdef _WIN32
  _putenv_s("NVDISASM_PATH", dir.c_str());
#else
  setenv("NVDISASM_PATH", dir.c_str(), /*overwrite=*/1);
#endif
}

//===----------------------------------------------------------------------===//
// Loading an input
//===----------------------------------------------------------------------===//

/// Checks that `contents` is a cubin (ELF) or a fatbin.
static Error checkCubinHeader(StringRef path, StringRef contents) {
  bool isElf = contents.starts_with("\x7f"
                                    "ELF");
  bool isFatbin = contents.starts_with("\x50\xed\x55\xba");
  if (isElf || isFatbin)
    return Error::success();
  return makeError("'" + path + "' is not a cubin (no ELF or fatbin header)" +
                   (contents.contains("Function :")
                        ? "; it looks like SASS text: pass --sass-input"
                        : ""));
}

/// Disassembles the cubin at `path` with `cuobjdump -sass` and attaches the
/// resources reported by `cuobjdump -res-usage` to its kernels.
static Expected<std::vector<Kernel>> disassemble(StringRef path,
                                                 StringRef cuobjdump) {
  std::string out, err;
  int rc = runProgram(cuobjdump, {"-sass", path}, out, err);
  if (rc != 0) {
    StringRef message = StringRef(err).trim();
    return makeError("'" + cuobjdump + " -sass " + path + "' failed (exit " +
                     Twine(rc) +
                     "): " + (message.empty() ? "no message" : message) +
                     "\n  (cuobjdump -sass runs nvdisasm: put it next to "
                     "cuobjdump, on PATH, or its directory in $NVDISASM_PATH; "
                     "pip install nvidia-cuda-nvdisasm)");
  }
  std::vector<Kernel> kernels = parseSass(out);
  rc = runProgram(cuobjdump, {"-res-usage", path}, out, err);
  if (rc != 0)
    return makeError("'" + cuobjdump + " -res-usage " + path +
                     "' failed (exit " + Twine(rc) +
                     "): " + StringRef(err).trim());
  StringMap<Resources> resources = parseResourceUsage(out);
  for (Kernel &kernel : kernels) {
    kernel.resourceUsageRead = true;
    auto it = resources.find(kernel.name);
    if (it != resources.end())
      kernel.resources = it->second;
  }
  return kernels;
}

Expected<std::vector<Kernel>>
pk::sass::loadKernels(StringRef path, const LoadOptions &options,
                      std::optional<std::string> &cuobjdump) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  StringRef contents = (*buffer)->getBuffer();
  std::vector<Kernel> kernels;
  if (options.sassInput) {
    kernels = parseSass(contents);
  } else {
    if (Error error = checkCubinHeader(path, contents))
      return std::move(error);
    if (!cuobjdump) {
      Expected<std::string> found = findCuobjdump(options.cuobjdumpPath);
      if (!found)
        return found.takeError();
      cuobjdump = *found;
      exportNvdisasmPath(*cuobjdump);
    }
    Expected<std::vector<Kernel>> disassembled = disassemble(path, *cuobjdump);
    if (!disassembled)
      return disassembled.takeError();
    kernels = std::move(*disassembled);
  }
  if (kernels.empty())
    return makeError("no kernel (`Function : name`) in the SASS of '" + path +
                     "'");
  return kernels;
}
