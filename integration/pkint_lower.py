#!/usr/bin/env python3
"""pkint_lower: the build side of integration/pkint.py (python3 standard
library only; import pkint, which re-exports every name here): lowering
(LOWERING_PIPELINE / lowering_pipeline() / mlir_lower(), the one mlir-opt
spelling of pk's lowering; pk_emit(), pk-opt's own emission; assemble(),
ptxas_stats(), module_name()), ptxas output parsing (parse_ptxas(),
parse_pk_ptxas()), pk's JSON report (read_report()) and the cubin / PTX of a
gpu.binary op (unescape(), find_objects(), extract_object()). Uses
pkint_tools."""

import json
import os
import re
import subprocess
import tempfile

from pkint_tools import BuildError, cuda_home, mlir_opt, pk_opt, ptxas


# -------------------------------------------------------------- lowering

# The one mlir-opt spelling of pk's lowering (pk's buildLoweringPipeline,
# docs/lowering.md), with the PTX ISA version as a parameter: the measured sm_86
# PTX was made with +ptx80 (pk's own emission uses 7.8 for sm_86).
LOWERING_PIPELINE = (
    "builtin.module(nvvm-attach-target{{chip={arch} features=+ptx{ptx} O=3}}, "
    "gpu.module(convert-nvgpu-to-nvvm, expand-strided-metadata, lower-affine, convert-scf-to-cf, "
    "convert-gpu-to-nvvm{{use-bare-ptr-memref-call-conv={bare}}}, convert-vector-to-llvm, "
    "convert-arith-to-llvm, canonicalize, cse, reconcile-unrealized-casts), "
    "gpu-module-to-binary{{format={fmt} toolkit={cuda}}})")


def lowering_pipeline(arch, fmt="isa", cuda=None, ptx=80, bare_ptr=True):
    """fmt: isa (PTX) or bin (cubin; gpu-module-to-binary runs `ptxas -arch
    <arch> --opt-level 3`)."""
    return LOWERING_PIPELINE.format(arch=arch, ptx=ptx, bare=int(bool(bare_ptr)), fmt=fmt,
                                    cuda=cuda or cuda_home())


def mlir_lower(src, arch, fmt, out, kernel=None, ptx=80, cuda=None, mlir=None):
    """mlir-opt with lowering_pipeline, then the PTX (fmt=isa) or cubin
    (fmt=bin) extracted to `out`."""
    mlir = mlir or mlir_opt()
    with tempfile.TemporaryDirectory(prefix="pkint-lower.") as t:
        lowered = os.path.join(t, "lowered.mlir")
        p = subprocess.run([mlir, src, "--pass-pipeline=" + lowering_pipeline(arch, fmt, cuda, ptx),
                            "-o", lowered], capture_output=True, text=True)
        if p.returncode:
            raise BuildError("mlir-opt (%s, %s) on %s: %s" % (arch, fmt, src, p.stderr.strip()[-600:]))
        data = extract_object(lowered, "bin" if fmt == "bin" else "assembly", kernel)
    with open(out, "wb") as f:
        f.write(data)
    return out


def pk_emit(src, arch, out_dir, options=None, bare_ptr=True, report=None, mlir_out=None,
            log=None, pk=None, cuda=None, env=None):
    """pk-opt's own lowering to PTX and cubin (ptxas -O3 -v) into out_dir.

    options: the --pipeline-kernel options without arch and the artefact
    options (e.g. "variant=cp-async stages=3"); None: the unpipelined kernel
    (--pk-emit-binaries). Returns dict(rc, stderr, argv, pass_option, ptx,
    cubin, ptxas) where ptx / cubin are the files pk wrote (None if missing) and
    ptxas is the first kernel's numbers from pk's remark. With options, pk's
    report goes to out_dir/report.json unless `report` says otherwise (the
    unpipelined kernel has none); cuda (else $CUDA_HOME,
    then /usr/local/cuda, pk's own order) is passed as CUDA_HOME."""
    pk = pk or pk_opt()
    os.makedirs(out_dir, exist_ok=True)
    art = "out-dir=%s" % out_dir + (" bare-ptr=1" if bare_ptr else "")
    env = dict(env or os.environ)
    if cuda:
        env["CUDA_HOME"] = cuda
    if options is None:
        pass_opt = "--pk-emit-binaries=arch=%s %s" % (arch, art)
    else:
        pass_opt = "--pipeline-kernel=arch=%s%s emit=cubin %s%s" % (
            arch, (" " + options) if options else "", art, (" report=%s" % report) if report else "")
    argv = [pk, pass_opt, src, "-o", mlir_out or os.devnull]
    mod = module_name(src)
    paths = {ext: os.path.join(out_dir, "%s.%s.%s" % (mod, arch, ext)) for ext in ("ptx", "cubin")}
    for f in paths.values():  # what is there afterwards is this run's
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    if log:
        with open(log, "w") as f:
            f.write(p.stdout + p.stderr)
    files = {ext: f if os.path.exists(f) else None for ext, f in paths.items()}
    remarks = parse_pk_ptxas(p.stderr)
    return dict(rc=p.returncode, stderr=p.stderr, argv=argv, pass_option=pass_opt,
                ptx=files["ptx"], cubin=files["cubin"], ptxas=remarks[0] if remarks else None)


def _run_ptxas(argv, log, failure):
    """Runs ptxas (argv), writes its output to log, raises BuildError
    ("<failure>: <output>") when it fails; returns parse_ptxas() of it."""
    p = subprocess.run(argv, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if log:
        with open(log, "w") as f:
            f.write(out)
    if p.returncode:
        raise BuildError("%s: %s" % (failure, out.strip()[-600:]))
    return parse_ptxas(out)


def assemble(ptx, arch, cubin, verbose=False, log=None, cuda=None):
    """ptxas -arch=<arch> -O3 [-v] PTX -o CUBIN; returns parse_ptxas()'s
    first kernel when verbose. Without -v the cubin is byte-identical to
    gpu-module-to-binary format=bin's (with -v ptxas writes other bytes)."""
    argv = [ptxas(cuda), "-arch=" + arch, "-O3"] + (["-v"] if verbose else []) + [ptx, "-o", cubin]
    k = _run_ptxas(argv, log, "ptxas %s on %s" % (arch, ptx))
    return k[0] if k else None


def ptxas_stats(ptx, arch, log=None, cuda=None):
    """Resource usage of a PTX for arch: `ptxas -arch=<arch> -v PTX -o /dev/null`."""
    argv = [ptxas(cuda), "-arch=" + arch, "-v", ptx, "-o", os.devnull]
    k = _run_ptxas(argv, log, "ptxas failed on %s (%s)" % (ptx, arch))
    if not k:
        raise BuildError("no ptxas -v report for %s (%s)" % (ptx, arch))
    return k[0]


def module_name(src):
    m = re.search(r"gpu\.module\s+@([\w$.]+)", open(src).read())
    if not m:
        raise BuildError("no gpu.module in %s" % src)
    return m.group(1)


# ---------------------------------------------------------------- ptxas

_PTXAS_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_PTXAS_SPILL = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_PTXAS_REGS = re.compile(r"Used (\d+) registers")
_PTXAS_SMEM = re.compile(r"(\d+) bytes smem")
_PK_PTXAS = re.compile(r"ptxas \((sm_\d+a?)\): (\d+) registers, (\d+) bytes spill stores, "
                       r"(\d+) bytes spill loads, (\d+) bytes stack frame, (\d+) bytes shared memory")


def parse_ptxas(text):
    """`ptxas -v` output -> one dict per entry function, in order (as pk's
    parsePtxasOutput): kernel, registers, spill_stores_bytes,
    spill_loads_bytes, stack_frame_bytes, shared_bytes. Lines before the first
    'Compiling entry function' (a single-kernel log without it) count for an
    unnamed kernel."""
    out = []
    for line in text.splitlines():
        m = _PTXAS_ENTRY.search(line)
        if m:
            out.append(dict(kernel=m.group(1), registers=None, spill_stores_bytes=None,
                            spill_loads_bytes=None, stack_frame_bytes=None, shared_bytes=0))
            continue
        if not out:
            if not (_PTXAS_SPILL.search(line) or _PTXAS_REGS.search(line)):
                continue
            out.append(dict(kernel=None, registers=None, spill_stores_bytes=None,
                            spill_loads_bytes=None, stack_frame_bytes=None, shared_bytes=0))
        k = out[-1]
        m = _PTXAS_SPILL.search(line)
        if m:
            k["stack_frame_bytes"], k["spill_stores_bytes"], k["spill_loads_bytes"] = map(int, m.groups())
        m = _PTXAS_REGS.search(line)
        if m:
            k["registers"] = int(m.group(1))
            m = _PTXAS_SMEM.search(line)
            if m:
                k["shared_bytes"] = int(m.group(1))
    return out


def parse_pk_ptxas(text):
    """pk-opt's `remark: ptxas (sm_NN[a]): R registers, ...` lines (emit=cubin,
    pk-emit-binaries) -> the keys of parse_ptxas() plus arch."""
    return [dict(arch=m.group(1), registers=int(m.group(2)), spill_stores_bytes=int(m.group(3)),
                 spill_loads_bytes=int(m.group(4)), stack_frame_bytes=int(m.group(5)),
                 shared_bytes=int(m.group(6))) for m in _PK_PTXAS.finditer(text or "")]


# ---------------------------------------------------------------- report

def read_report(path):
    """pk's JSON report (docs/report.md) as its loop lines, each with the
    `ptxas` object of its kernel joined in from pk-emit-binaries' line of the
    same `kernel` and `arch` (absent when nothing was assembled). None if the
    file is missing; [] if it holds no loop."""
    if not os.path.exists(path):
        return None
    loops, ptxas = [], {}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            obj = json.loads(line)
            if "loc" in obj:
                loops.append(obj)
            elif "ptxas" in obj:
                ptxas[(obj.get("kernel"), obj.get("arch"))] = obj["ptxas"]
    for obj in loops:
        key = (obj.get("kernel"), obj.get("arch"))
        if key in ptxas:
            obj["ptxas"] = ptxas[key]
    return loops


# -------------------------------------------------------------- binaries

_HEX = "0123456789abcdefABCDEF"


def unescape(s, start):
    """Decode the MLIR string literal whose first character (after the opening
    quote) is s[start]: printable ASCII as-is, other bytes as \\XX, a backslash
    as \\\\, and the lexer's \\n \\t \\". Returns (bytes, index past the
    closing quote)."""
    out = bytearray()
    i, n = start, len(s)
    while i < n:
        c = s[i]
        if c == '"':
            return bytes(out), i + 1
        if c == "\\":
            if i + 1 >= n:
                raise ValueError("dangling backslash at end of input")
            d = s[i + 1]
            if d in '\\"nt':
                out.append({"\\": 0x5C, '"': 0x22, "n": 0x0A, "t": 0x09}[d])
                i += 2
                continue
            if i + 2 < n and d in _HEX and s[i + 2] in _HEX:
                out.append(int(s[i + 1:i + 3], 16))
                i += 3
                continue
            raise ValueError("bad escape %r at offset %d" % (s[i:i + 3], i))
        out.append(ord(c) & 0xFF)
        i += 1
    raise ValueError("unterminated string literal")


def find_objects(text):
    """Yield (gpu.binary symbol, field bin|assembly, bytes) per gpu.binary."""
    field = re.compile(r'\b(bin|assembly)\s*=\s*"')
    for m in re.finditer(r'gpu\.binary\s+@([\w$.\-]+)', text):
        fm = field.search(text, m.end())
        if fm:
            yield m.group(1), fm.group(1), unescape(text, fm.end())[0]


def extract_object(mlir_path, field="auto", expect_kernel=None, symbol=None):
    """The cubin (field bin) or PTX (assembly) of the first matching gpu.binary
    in an MLIR file, checked: a cubin is an ELF, PTX has .version/.target;
    expect_kernel must be in it (`.entry NAME` for PTX)."""
    text = open(mlir_path, "rb").read().decode("latin-1")
    for sym, f, data in find_objects(text):
        if (symbol and sym != symbol) or (field != "auto" and f != field):
            continue
        if f == "bin":
            if not data.startswith(b"\x7fELF"):
                raise BuildError("%s: bin is not an ELF (fatbin?)" % mlir_path)
            if expect_kernel and expect_kernel.encode() not in data:
                raise BuildError("kernel %s not in cubin" % expect_kernel)
        else:
            if b".version" not in data or b".target" not in data:
                raise BuildError("%s: assembly does not look like PTX" % mlir_path)
            if expect_kernel and (".entry " + expect_kernel).encode() not in data:
                raise BuildError(".entry %s not in PTX" % expect_kernel)
        return data
    raise BuildError("no matching gpu.binary object in %s" % mlir_path)
