#!/usr/bin/env python3
"""pk_iree: IREE alone and IREE + pk for one program, ready to run on a GPU
machine (issue 23, "Back into IREE"). ``integration/iree/pk-iree.sh`` is the
command; this is its body.

Usage:
    integration/iree/pk-iree.sh PROGRAM.mlir OUT/ [--pk-opt PATH]
        [--iree-compile PATH] [--target sm_86] [--pk-arch ARCH]
        [--pk-options 'OPT=V ...'] [--substitute-declined]
        [--bin-dir DIR | --no-bin] [--seed N] [--dispatch-repeat N]

Steps (every step's command is logged in OUT/commands.txt):

1. ``iree-compile PROGRAM --iree-hal-target-device=cuda
   --iree-cuda-target=sm_86 -o OUT/iree.vmfb`` (IREE alone).
2. ``capture.py PROGRAM --convert`` (in a scratch directory; the dumps,
   kernels, IREE's sources and IREE's PTX are kept in OUT/iree/), then per
   dispatch ``pk-opt --pipeline-kernel='arch=sm_86 emit=ptx bare-ptr=1
   out-dir=OUT/pk/<executable>'`` on the converted kernel; pk's remarks (its
   stderr) go to OUT/remarks.txt, its report to OUT/pk/<executable>/report.json.
3. Checks on each pk PTX (``ptx_abi.check_storage``), refusing (exit 1, ``pk-iree: error: ...``) when
   it fails: no ``malloc``, no ``__local_depot``; ``.shared`` present when
   the dispatch stages tiles in shared memory; dynamic shared memory
   (``.extern .shared``, when the stages exceed the 48 KB static limit) only
   with its size in the kernel's ``pk.dynamic_shared_memory_bytes``; static
   ``.shared`` at most 48 KB (the static limit).
4. The ABI check (``ptx_abi.py``): pk's ``.entry`` against IREE's own PTX for
   the executable (name, parameters: binding pointers then i32 push
   constants, ``.maxntid``/``.reqntid``) and against IREE's export
   ``workgroup_size``; a mismatch refuses. Results in OUT/abi.txt.
5. Substitution, the ``.mlir`` form:
   ``--iree-hal-substitute-executable-object=EXE=OUT/pk/EXE.hal.mlir``, a
   ``hal.executable @EXE`` holding IREE's variant target and IREE's export
   (same name, ordinal, pipeline layout) with ``objects([pk's PTX])``, the
   block ``workgroup_size`` of IREE's export, ``workgroup_local_memory`` =
   pk's dynamic shared memory (0 without; IREE's CUDA runtime launches with
   it and opts the kernel in above 48 KB: ``cuFuncSetAttribute(...,
   CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)``)
   and a count region returning the grid of the converted kernel
   (``iree.workgroup_count``). Why not the plain ``=EXE=FILE.ptx`` form: IREE
   then keeps its own export, i.e. its ``workgroup_local_memory`` (IREE's
   kernel takes its tiles from dynamic shared memory, 13568 B for the f16
   matmul, which the runtime would then allocate on top of pk's static
   ``.shared``) and its *final* grid: IREE linearizes the workgroups late
   (``count`` returns 2048x1x1 for the 4096^3 matmul and its kernel
   delinearizes ``%ctaid.x``), while the kernel pk gets (captured where the
   prefetcher would run) still uses ``%ctaid.x`` and ``%ctaid.y`` over
   64x32x1. The same ``iree-compile`` command with that flag -> OUT/pk.vmfb.
   Only dispatches pk pipelined are substituted: a declined one keeps
   IREE's executable (``--substitute-declined`` substitutes it too, e.g. to
   test pk's lowering of the unchanged kernel).
   ``--compile-to=hal`` of the same command is checked to dispatch the
   kernel's grid.
   With ``--dispatch-repeat N``, both commands again with
   ``--iree-hal-benchmark-dispatch-repeat-count=N`` -> OUT/iree_rep.vmfb and
   OUT/pk_rep.vmfb: each dispatch runs N times per call (barriers between),
   so run.sh also times the dispatch without IREE's per-call overhead
   (allocation, submission, the wait), which pk does not change.
6. OUT/run.sh (GPU machine; python3 + numpy, the runtime tools in
   OUT/bin/ or ``--bin-dir``/``$PK_IREE_BIN``), OUT/gpu_compare.py,
   OUT/case.json (the inputs' shapes and dtypes, the seed, K).

iree-compile: ``--iree-compile``, ``$PK_IREE_COMPILE``,
``/work/iree-venv/bin/iree-compile``, PATH. pk-opt: ``--pk-opt``,
``$PK_OPT``, ``build/bin/pk-opt`` of this checkout, PATH. The runtime tools:
``--bin-dir``, else the ``iree/_runtime_libs`` of the ``iree-base-runtime``
wheel next to iree-compile (``iree-base-runtime==3.13.0``).
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import capture  # noqa: E402
import ptx_abi  # noqa: E402

DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "i8": "int8",
          "i16": "int16", "i32": "int32", "i64": "int64"}
RUNTIME_TOOLS = ("iree-run-module", "iree-benchmark-module")


class Refuse(Exception):
    pass


def log_cmd(out, cmd):
    with open(os.path.join(out, "commands.txt"), "a") as f:
        f.write(" ".join(cmd) + "\n")


def run(out, cmd, what):
    log_cmd(out, cmd)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise Refuse("%s failed (status %d):\n%s" % (what, r.returncode, (r.stdout + r.stderr)[-4000:]))
    return r


def find_pk_opt(explicit):
    for c in (explicit, os.environ.get("PK_OPT"), os.path.join(ROOT, "build", "bin", "pk-opt"),
              shutil.which("pk-opt")):
        if c and os.access(c, os.X_OK):
            return c
    return None


def find_runtime_bin(iree_compile):
    venv = os.path.dirname(os.path.dirname(os.path.realpath(iree_compile)))
    for d in glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", "iree", "_runtime_libs")):
        if all(os.access(os.path.join(d, t), os.X_OK) for t in RUNTIME_TOOLS):
            return d
    return None


def parse_signature(text):
    """[(shape, elt)] of @main's arguments and results."""
    m = re.search(r"func\.func\s+@main\s*\((.*?)\)\s*->\s*(\(.*?\)|tensor<[^>]*>)\s*(attributes\s*\{.*?\}\s*)?\{",
                  text, re.S)
    if not m:
        raise Refuse("no `func.func @main(...) -> ...` with tensor results in the program")

    def tensors(s):
        out = []
        for t in re.findall(r"tensor<([^>]*)>", s):
            parts = t.split("x")
            elt = parts[-1].strip()
            if elt not in DTYPES:
                raise Refuse("element type %s of tensor<%s> is not one run.sh can generate/compare (%s)"
                             % (elt, t, ", ".join(DTYPES)))
            try:
                shape = [int(p) for p in parts[:-1]]
            except ValueError:
                raise Refuse("tensor<%s> is not static; run.sh needs static shapes" % t)
            out.append((shape, elt))
        return out
    return tensors(m.group(1)), tensors(m.group(2))


def read_exports(sources_text):
    """IREE's variant target and exports from its executable source listing."""
    var = re.search(r"^\s*hal\.executable\.variant public @([\w$.-]+) target\((.*)\) \{\s*$",
                    sources_text, re.M)
    if not var:
        raise Refuse("IREE's executable source has no `hal.executable.variant ... target(...)` line")
    exports = {}
    for m in re.finditer(r"^\s*hal\.executable\.export public @([\w$.-]+) ordinal\((\d+)\) "
                         r"layout\((.*)\) count\((.*?)\) -> \(index, index, index\) \{\s*$",
                         sources_text, re.M):
        exports[m.group(1)] = {"ordinal": int(m.group(2)), "layout": m.group(3), "count_args": m.group(4)}
    if not exports:
        raise Refuse("IREE's executable source has no `hal.executable.export` line pk-iree can read")
    return var.group(1), var.group(2), exports


def kernel_grid(kernel_text, dispatch):
    m = re.search(r"iree\.workgroup_count = array<i64: ([\d, ]+)>", kernel_text)
    if not m:
        raise Refuse("kernel %s has no static iree.workgroup_count (from iree2pk): "
                     "pk-iree needs the grid of the converted kernel" % dispatch)
    g = [int(x) for x in m.group(1).split(",")]
    return g + [1] * (3 - len(g))


def dynamic_shared_bytes(pk_mlir):
    """The dynamic shared memory pk's kernel needs (its
    ``pk.dynamic_shared_memory_bytes``; 0 without), from pk-opt's output."""
    sizes = [int(x) for x in re.findall(r"pk\.dynamic_shared_memory_bytes = (\d+)", pk_mlir)]
    if len(sizes) > 1:
        raise Refuse("pk's output has %d kernels with dynamic shared memory (want at most 1)" % len(sizes))
    return sizes[0] if sizes else 0


def hal_executable(exe, variant, target, exports):
    """The .mlir substitution: IREE's variant target and export interfaces, pk's PTX as the object."""
    lines = ["// pk-iree: IREE's executable @%s with pk's PTX as its object (pk_iree.py)" % exe,
             "hal.executable private @%s {" % exe,
             "  hal.executable.variant public @%s target(%s) objects([#hal.executable.object<{path = \"%s\"}>]) {"
             % (variant, target, exports[0]["object"])]
    for e in exports:
        cs = {}
        for v in e["grid"] + e["workgroup_size"]:
            cs[v] = "%%c%d" % v
        lines.append("    hal.executable.export public @%s ordinal(%d) layout(%s) count(%s) -> (index, index, index) {"
                     % (e["name"], e["ordinal"], e["layout"], e["count_args"]))
        for v in sorted(set(e["grid"])):
            lines.append("      %%c%d = arith.constant %d : index" % (v, v))
        lines.append("      hal.return %s : index, index, index" % ", ".join("%%c%d" % v for v in e["grid"]))
        ws = ", ".join("%d : index" % v for v in e["workgroup_size"])
        sg = (", subgroup_size = %d" % e["subgroup_size"]) if e.get("subgroup_size") else ""
        lines.append("    } <workgroup_size = [%s]%s, workgroup_local_memory = %d>"
                     % (ws, sg, e.get("dynamic_shared", 0)))
    lines += ["  }", "}", ""]
    return "\n".join(lines)


def write_run_sh(out, case, bin_rel):
    n_in, n_res = len(case["inputs"]), len(case["results"])
    ins = " ".join('--input=@"inputs/arg%d.npy"' % i for i in range(n_in))
    outs = lambda w: " ".join('--output=@"outputs/%s_%d.npy"' % (w, i) for i in range(n_res))
    s = """#!/bin/sh
# pk-iree: IREE alone vs IREE + pk for %(program)s, on a GPU machine.
# Needs python3 + numpy and the IREE runtime tools (bin/, %(bin_rel)s/ or $PK_IREE_BIN);
# no IREE compiler, no MLIR. Prints one table row (header unless PK_IREE_NO_HEADER=1).
# PK_IREE_REPS (5): benchmark repetitions; PK_IREE_SANITIZE=1: also compute-sanitizer
# memcheck on pk.vmfb; PK_IREE_KEEP_DATA=1: keep inputs/ and outputs/*.npy.
# Exit status: 0 when both ran and the outputs agree within tolerance.
set -u
here=$(cd "$(dirname "$0")" && pwd)
BIN=${PK_IREE_BIN:-}
if [ -z "$BIN" ]; then
  for d in "$here/bin" "$here/%(bin_rel)s"; do
    if [ -x "$d/iree-run-module" ]; then BIN=$d; break; fi
  done
fi
[ -n "$BIN" ] || { echo "run.sh: no iree-run-module in $here/bin, $here/%(bin_rel)s or \\$PK_IREE_BIN" >&2; exit 2; }
REPS=${PK_IREE_REPS:-5}
cd "$here"
rm -f result.json
mkdir -p inputs outputs
python3 gpu_compare.py gen . || exit 2
status=0
echo "== iree: iree-run-module" >&2
"$BIN/iree-run-module" --device=cuda --module=iree.vmfb --function=main %(ins)s %(outs_iree)s > outputs/iree.run.txt 2>&1 \\
  || { echo "run.sh: iree-run-module failed on iree.vmfb:" >&2; tail -20 outputs/iree.run.txt >&2; status=1; }
echo "== pk: iree-run-module" >&2
"$BIN/iree-run-module" --device=cuda --module=pk.vmfb --function=main %(ins)s %(outs_pk)s > outputs/pk.run.txt 2>&1 \\
  || { echo "run.sh: iree-run-module failed on pk.vmfb:" >&2; tail -20 outputs/pk.run.txt >&2; status=1; }
if [ $status = 0 ]; then python3 gpu_compare.py compare . >&2 || status=1; fi
if [ "${PK_IREE_SANITIZE:-0}" = 1 ]; then
  # compute-sanitizer (memcheck) on the IREE + pk run: $PK_IREE_SANITIZER, PATH, /usr/local/cuda/bin
  cs=${PK_IREE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
  echo "== pk: $cs --tool memcheck iree-run-module" >&2
  if "$cs" --tool memcheck --error-exitcode 3 "$BIN/iree-run-module" --device=cuda --module=pk.vmfb --function=main %(ins)s > outputs/pk.sanitizer.txt 2>&1; then
    echo "compute-sanitizer memcheck: clean ($(grep -h 'ERROR SUMMARY' outputs/pk.sanitizer.txt))" >&2
  else
    echo "run.sh: compute-sanitizer memcheck failed on pk.vmfb:" >&2; tail -30 outputs/pk.sanitizer.txt >&2; status=1
  fi
fi
# With pk-iree --dispatch-repeat N, also the *_rep.vmfb modules (each dispatch
# N times per call): the dispatch's own time, without the per-call overhead.
runs="iree pk"
[ ! -f iree_rep.vmfb ] || runs="$runs iree_rep pk_rep"
for w in $runs; do
  echo "== $w: iree-benchmark-module --benchmark_repetitions=$REPS" >&2
  if "$BIN/iree-benchmark-module" --device=cuda --module=$w.vmfb --function=main %(ins)s \\
       --benchmark_repetitions=$REPS --benchmark_format=json > outputs/bench_$w.json 2> outputs/bench_$w.err; then
    python3 gpu_compare.py bench . outputs/bench_$w.json $w >&2 || status=1
  else
    echo "run.sh: iree-benchmark-module failed on $w.vmfb:" >&2; tail -20 outputs/bench_$w.err >&2; status=1
  fi
done
[ ! -f iree_rep.vmfb ] || python3 gpu_compare.py reprow . > rep_row.txt
if [ "${PK_IREE_NO_HEADER:-0}" != 1 ]; then
  echo "| program | IREE alone ms | IREE+pk ms | speedup | IREE TFLOP/s | IREE+pk TFLOP/s | max abs err | check |"
  echo "|---|---|---|---|---|---|---|---|"
fi
python3 gpu_compare.py row .
[ "${PK_IREE_KEEP_DATA:-0}" = 1 ] || rm -f inputs/*.npy outputs/*.npy
exit $status
""" % {"program": case["program"], "bin_rel": bin_rel, "ins": ins,
       "outs_iree": outs("iree"), "outs_pk": outs("pk")}
    p = os.path.join(out, "run.sh")
    with open(p, "w") as f:
        f.write(s)
    os.chmod(p, 0o755)


def pk_iree(a):
    out = os.path.abspath(a.out)
    program = os.path.abspath(a.program)
    name = os.path.splitext(os.path.basename(program))[0]
    ic = capture.find_iree_compile(a.iree_compile)
    if not ic:
        raise Refuse("iree-compile not found (--iree-compile, $PK_IREE_COMPILE, /work/iree-venv, PATH)")
    pk_opt = find_pk_opt(a.pk_opt)
    if not pk_opt:
        raise Refuse("pk-opt not found (--pk-opt, $PK_OPT, build/bin/pk-opt, PATH)")
    bin_src = None
    if not a.no_bin and not a.bin_dir:
        bin_src = find_runtime_bin(ic)
        if not bin_src:
            raise Refuse("the IREE runtime tools (%s) are not next to %s: pip install iree-base-runtime==3.13.0 "
                         "in its venv, or --no-bin" % (", ".join(RUNTIME_TOOLS), ic))
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    with open(program) as f:
        ptext = f.read()
    shutil.copy(program, os.path.join(out, "program.mlir"))
    args, results = parse_signature(ptext)
    base = [ic, program, "--iree-hal-target-device=cuda", "--iree-cuda-target=" + a.target]

    # 1. IREE alone
    run(out, base + ["-o", os.path.join(out, "iree.vmfb")], "iree-compile (IREE alone)")

    # 2. capture, convert, pk
    scratch = tempfile.mkdtemp(prefix="pk-iree-")
    try:
        log_cmd(out, ["python3", os.path.join(HERE, "capture.py"), program, scratch, "--convert",
                      "--iree-compile", ic, "--target", a.target])
        try:
            manifest = capture.capture(program, scratch, ic, a.target, True)
        except SystemExit:
            raise Refuse("capture failed (see above)")
        idir = os.path.join(out, "iree")
        os.makedirs(idir)
        for e in manifest:
            for k in ("file", "kernel"):
                shutil.copy(os.path.join(scratch, e[k]), idir)
        for sub in ("sources", "binaries"):
            shutil.copytree(os.path.join(scratch, sub), os.path.join(idir, sub))
        with open(os.path.join(idir, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=2)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    by_exe = {}
    for e in manifest:
        by_exe.setdefault(e["executable"], []).append(e)
    remarks, abi_lines, subst, summary = [], [], [], []
    problems_all = []
    for exe, entries in sorted(by_exe.items()):
        if len(entries) != 1:
            raise Refuse("executable %s has %d dispatches; pk-iree substitutes one-dispatch executables only"
                         % (exe, len(entries)))
        e = entries[0]
        d = e["dispatch"]
        kernel = os.path.join(out, "iree", e["kernel"])
        pkdir = os.path.join(out, "pk", exe)
        cmd = [pk_opt, "--pipeline-kernel=arch=%s emit=ptx bare-ptr=1 out-dir=%s%s"
               % (a.pk_arch or a.target, pkdir, " " + a.pk_options if a.pk_options else ""),
               kernel, "-o", os.path.join(pkdir, d + ".pk.mlir")]
        os.makedirs(pkdir)
        log_cmd(out, cmd)
        r = subprocess.run(cmd, capture_output=True, text=True)
        remarks.append("== %s (%s, executable %s): %s\n%s" % (d, e["pipeline"], exe, " ".join(cmd[:2]),
                                                              r.stdout + r.stderr))
        pipelined = re.findall(r"remark: (pipelined: [^\n]*)", r.stderr)
        declined = re.findall(r"remark: (not pipelined: [^\n;]*|not a pk K-loop: [^\n]*|[^\n]*nothing to pipeline[^\n]*)",
                              r.stderr)
        if r.returncode != 0:
            with open(os.path.join(out, "remarks.txt"), "w") as f:
                f.write("\n".join(remarks))
            raise Refuse("pk-opt failed on %s (status %d); remarks in %s:\n%s"
                         % (d, r.returncode, os.path.join(out, "remarks.txt"), r.stderr[-3000:]))
        ptxs = glob.glob(os.path.join(pkdir, "*.ptx"))
        if len(ptxs) != 1:
            raise Refuse("pk-opt wrote %d PTX files for %s in %s (want 1)" % (len(ptxs), d, pkdir))
        with open(ptxs[0]) as f:
            ptx = f.read()
        # Without pk-opt's output IR the size is unknown: check_storage then
        # refuses dynamic shared memory.
        pk_mlir = os.path.join(pkdir, d + ".pk.mlir")
        dyn = 0
        if os.path.exists(pk_mlir):
            with open(pk_mlir) as f:
                dyn = dynamic_shared_bytes(f.read())
        problems, static, nshared = ptx_abi.check_storage(ptx, e["has_shared_memory"], dyn)
        for p in problems:
            problems_all.append("%s: pk's PTX %s: %s" % (d, os.path.relpath(ptxs[0], out), p))
        # 4. ABI
        ipt = os.path.join(out, "iree", "binaries", "module_%s_%s.ptx" % (exe, e["variant"]))
        if not os.path.exists(ipt):
            raise Refuse("IREE's PTX for %s not found (%s)" % (exe, ipt))
        with open(ipt) as f:
            itext = f.read()
        try:
            mism, notes, s = ptx_abi.compare(itext, ptx, d, e["workgroup_size"])
        except ptx_abi.PtxError as ex:
            raise Refuse("ABI check of %s: %s" % (d, ex))
        abi_lines.append("== %s: python3 ptx_abi.py %s %s --entry %s --workgroup-size %s"
                         % (d, os.path.relpath(ipt, out), os.path.relpath(ptxs[0], out), d,
                            ",".join(map(str, e["workgroup_size"]))))
        abi_lines += ["note: " + n for n in notes] + ["mismatch: " + m for m in mism]
        abi_lines.append("ABI: MISMATCH (%d difference(s))" % len(mism) if mism else "ABI: match (%s)" % s)
        for m in mism:
            problems_all.append("%s: ABI: %s" % (d, m))
        # 5. the substitution
        with open(os.path.join(out, "iree", "sources", "module_%s.mlir" % exe)) as f:
            variant, target, exports = read_exports(f.read())
        if variant != e["variant"] or d not in exports or len(exports) != 1:
            raise Refuse("IREE's executable %s: variant %s / exports %s do not match the dispatch %s"
                         % (exe, variant, ", ".join(exports), d))
        with open(kernel) as f:
            grid = kernel_grid(f.read(), d)
        ptx_name = os.path.basename(ptxs[0])
        exp = dict(exports[d], name=d, grid=grid, workgroup_size=e["workgroup_size"],
                   subgroup_size=e.get("subgroup_size"), object=ptx_name, dynamic_shared=dyn)
        hal = os.path.join(pkdir, exe + ".hal.mlir")
        with open(hal, "w") as f:
            f.write(hal_executable(exe, variant, target, [exp]))
        # A dispatch pk declined keeps IREE's own executable (pk's lowering
        # of the unchanged kernel is no faster), unless asked otherwise.
        substituted = bool(pipelined) or a.substitute_declined
        if substituted:
            subst += ["--iree-hal-substitute-executable-object=%s=%s" % (exe, hal),
                      "--iree-hal-executable-object-search-path=" + pkdir]
        summary.append("%s: %s; PTX %s: %d .shared declaration(s), %d B static; grid %s, block %s%s"
                       % (d, "; ".join(pipelined) if pipelined else
                          ("; ".join(declined) if declined else "no pipelining remark"),
                          os.path.relpath(ptxs[0], out), nshared, static,
                          "x".join(map(str, grid)), "x".join(map(str, e["workgroup_size"])),
                          "" if substituted else "; IREE's executable kept (pk did not pipeline it)"))
        e["pk"] = {"ptx": os.path.relpath(ptxs[0], out), "hal": os.path.relpath(hal, out),
                   "pipelined": bool(pipelined), "substituted": substituted, "grid": grid,
                   "static_shared": static}
    with open(os.path.join(out, "remarks.txt"), "w") as f:
        f.write("\n".join(remarks))
    with open(os.path.join(out, "abi.txt"), "w") as f:
        f.write("\n".join(abi_lines) + "\n")
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write("\n".join(summary) + "\n")
    if problems_all:
        raise Refuse("pk's kernel cannot replace IREE's:\n  " + "\n  ".join(problems_all))

    # 5. IREE + pk
    r = run(out, base + subst + ["-o", os.path.join(out, "pk.vmfb")], "iree-compile (IREE + pk)")
    n_sub = len(re.findall(r"substituted with MLIR source", r.stdout + r.stderr))
    n_want = sum(1 for e in manifest if e["pk"]["substituted"])
    if n_sub != n_want:
        raise Refuse("iree-compile substituted %d of %d executables:\n%s" % (n_sub, n_want, r.stderr))
    r = run(out, base + subst + ["--compile-to=hal", "-o", "-"], "iree-compile --compile-to=hal (IREE + pk)")
    consts = dict(re.findall(r"(%c\w*) = arith\.constant (\d+) : index", r.stdout))
    grids = re.findall(r"hal\.command_buffer\.dispatch<[^\n]*?function\(@(\w+)::@\w+::@([\w$]+)\)[^\n]*?"
                       r"workgroups\(\[([^\]]*)\]\)", r.stdout)
    if not grids:
        grids = [(m[0], m[1], m[2]) for m in re.findall(
            r"hal\.command_buffer\.dispatch<[^\n]*?target\(%[\w$]*?(\w+) : !hal\.executable\)\[%\w+\] ()workgroups\(\[([^\]]*)\]\)",
            r.stdout)]
    for e in manifest:
        if not e["pk"]["substituted"]:
            continue
        want = e["pk"]["grid"]
        seen = []
        for _, fn, g in grids:
            vals = [int(consts.get(v.strip(), -1)) if v.strip().startswith("%") else -1 for v in g.split(",")]
            if fn in ("", e["dispatch"]):
                seen.append(vals)
        if want not in seen:
            raise Refuse("%s: the IREE + pk module does not dispatch pk's grid %s (dispatches seen: %s)"
                         % (e["dispatch"], want, seen))
    with open(os.path.join(out, "iree", "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)

    # 5b. each dispatch repeated: its own time without the per-call overhead
    if a.dispatch_repeat:
        rep = ["--iree-hal-benchmark-dispatch-repeat-count=%d" % a.dispatch_repeat]
        run(out, base + rep + ["-o", os.path.join(out, "iree_rep.vmfb")],
            "iree-compile (IREE alone, dispatches repeated)")
        run(out, base + subst + rep + ["-o", os.path.join(out, "pk_rep.vmfb")],
            "iree-compile (IREE + pk, dispatches repeated)")

    # 6. the GPU-machine side
    k = args[0][0][-1] if args and args[0][0] else 0
    flop = 2 * k
    for x in results[0][0] if results else []:
        flop *= x
    case = {"program": name, "seed": a.seed, "k": k, "flop": flop,
            "inputs": [{"shape": s, "dtype": DTYPES[t]} for s, t in args],
            "results": [{"shape": s, "dtype": DTYPES[t]} for s, t in results],
            "dispatches": [{"dispatch": e["dispatch"], "pipelined": e["pk"]["pipelined"],
                            "substituted": e["pk"]["substituted"]} for e in manifest],
            "dispatch_repeat": a.dispatch_repeat}
    with open(os.path.join(out, "case.json"), "w") as f:
        json.dump(case, f, indent=1)
    shutil.copy(os.path.join(HERE, "gpu_compare.py"), out)
    if bin_src:
        os.makedirs(os.path.join(out, "bin"))
        for t in RUNTIME_TOOLS:
            shutil.copy2(os.path.join(bin_src, t), os.path.join(out, "bin", t))
    write_run_sh(out, case, a.bin_dir or "../bin")
    return summary


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("program")
    ap.add_argument("out")
    ap.add_argument("--pk-opt", default=None)
    ap.add_argument("--iree-compile", default=None)
    ap.add_argument("--target", default="sm_86")
    ap.add_argument("--pk-arch", default=None,
                    help="pk's arch= (its budget and PTX target; default: --target). The PTX JIT-compiles "
                         "for the device, so sm_90 suits the H200 while IREE compiles for --target")
    ap.add_argument("--pk-options", default="",
                    help="more pipeline-kernel options, e.g. 'stages=auto'")
    ap.add_argument("--substitute-declined", action="store_true",
                    help="substitute pk's PTX for dispatches pk did not pipeline too "
                         "(default: they keep IREE's executable)")
    ap.add_argument("--bin-dir", default=None,
                    help="run.sh finds the runtime tools here (relative to OUT) instead of OUT/bin; nothing copied")
    ap.add_argument("--no-bin", action="store_true", help="do not copy the runtime tools into OUT/bin")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--dispatch-repeat", type=int, default=0, metavar="N",
                    help="also build OUT/iree_rep.vmfb and OUT/pk_rep.vmfb with "
                         "--iree-hal-benchmark-dispatch-repeat-count=N (each dispatch N "
                         "times per call, with barriers between): run.sh then times the "
                         "dispatches without the per-call overhead (rep_row.txt)")
    a = ap.parse_args(argv)
    try:
        summary = pk_iree(a)
    except Refuse as e:
        print("pk-iree: error: %s" % e, file=sys.stderr)
        return 1
    for s in summary:
        print(s)
    with open(os.path.join(a.out, "abi.txt")) as f:
        for line in f:
            if line.startswith("ABI:"):
                print(line.rstrip())
    print("pk-iree: wrote %s (iree.vmfb, pk.vmfb, remarks.txt, abi.txt, run.sh)" % a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
