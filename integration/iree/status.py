#!/usr/bin/env python3
"""status: what pk says today about the converted IREE kernels.

Usage:
    python3 integration/iree/status.py [--pk-opt PATH] [--arch sm_86] [--emit]
        KERNEL.mlir... > table.md

For every kernel (iree2pk.py's output) prints one markdown table row: the
kernel file, its gpu.func, the IREE pipeline and workgroup size, whether it
has shared memory (workgroup memref.alloc/alloca, with the bytes), and the
remarks of ``pk-opt --pk-analyze-kloops`` and ``pk-opt --pipeline-kernel``
(as ``line: text``; the normalization remark and notes are left out). With
``--emit`` a last column says what ``--pipeline-kernel='emit=ptx'`` gives:
the first error, or the PTX's count of ``malloc``/``__local_depot`` and of
f32 ``fma``/``mul``/``add``.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

REMARK_RE = re.compile(r"^[^:\s]+:(\d+):\d+: (remark|error|warning): (.*)$")
ELEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8}


def shared_allocs(text):
    total, n = 0, 0
    for m in re.finditer(r"memref\.alloca?\(\) : memref<([\dx]+)x(\w+), (#gpu\.address_space<workgroup>|3)>", text):
        size = 1
        for d in m.group(1).split("x"):
            size *= int(d)
        total += size * ELEM_BYTES.get(m.group(2), 0)
        n += 1
    return n, total


def remarks(pk_opt, args, kernel, keep_normalize=False):
    r = subprocess.run([pk_opt] + args + [kernel, "-o", os.devnull], capture_output=True, text=True)
    out = []
    for l in r.stderr.splitlines():
        m = REMARK_RE.match(l)
        if not m:
            continue
        if not keep_normalize and "workgroup buffer(s) to workgroup attributions" in m.group(3):
            continue
        kind = "" if m.group(2) == "remark" else m.group(2) + ": "
        out.append("%s: %s%s" % (m.group(1), kind, m.group(3)))
    return out, r.returncode


def emit(pk_opt, arch, kernel):
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([pk_opt, "--pipeline-kernel=arch=%s emit=ptx out-dir=%s" % (arch, d),
                            kernel, "-o", os.devnull], capture_output=True, text=True)
        errs = [REMARK_RE.match(l) for l in r.stderr.splitlines()]
        errs = [m.group(3) for m in errs if m and m.group(2) == "error"]
        if errs:
            return "error: " + errs[0]
        ptx = [f for f in os.listdir(d) if f.endswith(".ptx")]
        if not ptx:
            return "no PTX"
        text = open(os.path.join(d, ptx[0])).read()
        return "PTX: malloc/local_depot %d, fma.rn.f32 %d, mul.rn.f32 %d, add.rn.f32 %d" % (
            len(re.findall(r"malloc|__local_depot", text)), text.count("fma.rn.f32"),
            text.count("mul.rn.f32"), text.count("add.rn.f32"))


def cell(lines):
    return "<br>".join(l.replace("|", "\\|") for l in lines) or "(none)"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kernels", nargs="+")
    ap.add_argument("--pk-opt", default=os.environ.get("PK_OPT", "pk-opt"))
    ap.add_argument("--arch", default="sm_86")
    ap.add_argument("--emit", action="store_true")
    a = ap.parse_args(argv)
    head = ["kernel", "gpu.func", "pipeline, block", "shared memory",
            "`--pk-analyze-kloops`", "`--pipeline-kernel`"]
    if a.emit:
        head.append("`--pipeline-kernel='emit=ptx'`")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for k in a.kernels:
        text = open(k).read()
        fn = re.search(r"gpu\.func @(\w+)\(", text).group(1)
        pl = re.search(r'iree\.pipeline = "(\w+)"', text)
        kbs = re.search(r"known_block_size = array<i32: ([\d, ]+)>", text).group(1).replace(", ", "x")
        n, b = shared_allocs(text)
        shared = "yes: %d allocs, %d B" % (n, b) if n else "no"
        an, _ = remarks(a.pk_opt, ["--pk-analyze-kloops=arch=%s" % a.arch], k)
        pk, _ = remarks(a.pk_opt, ["--pipeline-kernel=arch=%s" % a.arch], k)
        row = [os.path.basename(k), "`%s`" % fn, "%s, %s" % (pl.group(1) if pl else "?", kbs), shared,
               cell(an), cell(pk)]
        if a.emit:
            row.append(emit(a.pk_opt, a.arch, k).replace("|", "\\|"))
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
