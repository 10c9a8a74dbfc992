#!/usr/bin/env python3
"""capture: compile a linalg program with IREE for CUDA and keep, per dispatch,
the IR dump at the point where IREE's shared-memory prefetcher would run.

Usage:
    python3 integration/iree/capture.py PROGRAM.mlir OUTDIR [--convert]
        [--iree-compile PATH] [--target sm_86]

Runs (IREE 3.13, ``iree-base-compiler==3.13.0``)
    iree-compile PROGRAM --iree-hal-target-device=cuda --iree-cuda-target=sm_86
      --mlir-print-ir-after-all --mlir-print-ir-tree-dir=OUTDIR/tree
      --mlir-elide-elementsattrs-if-larger=16 --mlir-disable-threading
      --iree-hal-dump-executable-sources-to=OUTDIR/sources
      --iree-hal-dump-executable-binaries-to=OUTDIR/binaries
      -o OUTDIR/iree.vmfb
and, for every dispatch function (``.../hal_executable_<EXE>/
hal_executable_variant_<VARIANT>/.../func_func_<DISPATCH>/`` in the tree; the
files there are ``<nesting>_<pass number>_<pass>.mlir``), picks the dump

* ``TileAndFuse``: the first ``iree-codegen-hoist-statically-bound-allocations``
  dump (``IR Dump After HoistStaticallyBoundAllocationsPass``) of the
  lowering pipeline: it directly follows ``iree-codegen-gpu-reduce-bank-conflicts``
  when IREE has shared memory to pad, and precedes
  ``iree-codegen-fold-memref-alias-ops``; this is where
  ``LLVMGPU/Passes.cpp`` adds the ROCDL prefetcher (``forROCDL &&
  prefetchNumStages >= 2``);
* ``VectorDistribute``: the ``iree-codegen-gpu-reduce-bank-conflicts`` dump
  (``IR Dump After GPUReduceBankConflictsPass``);

(the pipeline is read from the ``translation_info`` in the dumps) and writes
``OUTDIR/<DISPATCH>.dump.mlir`` and ``OUTDIR/manifest.json``: a list of
``{"dispatch", "executable", "variant", "pipeline", "workgroup_size",
"subgroup_size", "file", "pass_file", "has_shared_memory"}``
(``has_shared_memory``: the dump allocates workgroup memory). With
``--convert`` each dump is also converted with iree2pk.py to
``OUTDIR/<DISPATCH>.kernel.mlir`` (``"kernel"`` in the manifest).

iree-compile is ``--iree-compile``, else ``$PK_IREE_COMPILE``, else
``/work/iree-venv/bin/iree-compile``, else the one on ``PATH``.
Exit status: 0, or 1 with a message (compile failure, no dispatch, a
dispatch whose dump cannot be found).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import iree2pk  # noqa: E402

SELECT = {
    "TileAndFuse": ("iree-codegen-hoist-statically-bound-allocations",
                    "IR Dump After HoistStaticallyBoundAllocationsPass"),
    "VectorDistribute": ("iree-codegen-gpu-reduce-bank-conflicts",
                         "IR Dump After GPUReduceBankConflictsPass"),
}
PASS_FILE_RE = re.compile(r"^((?:\d+_)*)(\d+)_([A-Za-z][A-Za-z0-9_.\-]*)\.mlir$")


def find_iree_compile(explicit=None):
    for c in (explicit, os.environ.get("PK_IREE_COMPILE"),
              "/work/iree-venv/bin/iree-compile", shutil.which("iree-compile")):
        if c and os.access(c, os.X_OK):
            return c
    return None


def die(msg):
    print("capture: error: " + msg, file=sys.stderr)
    sys.exit(1)


def pass_files(d):
    """(pass number, pass name, file name) of a func_func_* directory, in pass order."""
    out = []
    for f in os.listdir(d):
        m = PASS_FILE_RE.match(f)
        if m:
            out.append((int(m.group(2)), m.group(3), f))
    return sorted(out)


def read_translation(text):
    m = re.search(r"pipeline = (?:#iree_gpu\.pipeline<(\w+)>|(\w+))", text)
    pipeline = (m.group(1) or m.group(2)) if m else None
    m = re.search(r"translation_info = #iree_codegen\.translation_info<[^\n]*?workgroup_size = \[([\d, ]+)\]", text)
    wg = [int(x) for x in m.group(1).split(",")] if m else None
    m = re.search(r"translation_info = #iree_codegen\.translation_info<[^\n]*?subgroup_size = (\d+)", text)
    sg = int(m.group(1)) if m else None
    return pipeline, wg, sg


def capture(program, outdir, iree_compile, target, convert):
    os.makedirs(outdir, exist_ok=True)
    tree = os.path.join(outdir, "tree")
    if os.path.exists(tree):
        shutil.rmtree(tree)
    cmd = [iree_compile, os.path.abspath(program),
           "--iree-hal-target-device=cuda", "--iree-cuda-target=" + target,
           "--mlir-print-ir-after-all", "--mlir-print-ir-tree-dir=" + tree,
           "--mlir-elide-elementsattrs-if-larger=16", "--mlir-disable-threading",
           "--iree-hal-dump-executable-sources-to=" + os.path.join(outdir, "sources"),
           "--iree-hal-dump-executable-binaries-to=" + os.path.join(outdir, "binaries"),
           "-o", os.path.join(outdir, "iree.vmfb")]
    with open(os.path.join(outdir, "iree-compile.cmd"), "w") as f:
        f.write(" ".join(cmd) + "\n")
    r = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(outdir, "iree-compile.log"), "w") as f:
        f.write(r.stdout + r.stderr)
    if r.returncode != 0:
        die("iree-compile failed (status %d) on %s:\n%s" % (r.returncode, program, r.stderr[-4000:]))

    manifest = []
    for root, dirs, files in sorted(os.walk(tree)):
        base = os.path.basename(root)
        if not base.startswith("func_func_"):
            continue
        parts = root.split(os.sep)
        exe = [p for p in parts if p.startswith("hal_executable_") and
               not p.startswith("hal_executable_variant_")]
        var = [p for p in parts if p.startswith("hal_executable_variant_")]
        if not exe or not var:
            continue  # a stream/flow executable, not a HAL (codegen) one
        executable = exe[-1][len("hal_executable_"):]
        variant = var[-1][len("hal_executable_variant_"):]
        dispatch = base[len("func_func_"):]
        pfs = pass_files(root)
        if not pfs:
            die("no pass dumps in %s" % root)
        with open(os.path.join(root, pfs[-1][2])) as f:
            pipeline, wg, sg = read_translation(f.read())
        if pipeline is None:
            # the last dumps may be past the pipeline (LLVM dialect); look back
            for _, _, fn in reversed(pfs):
                with open(os.path.join(root, fn)) as f:
                    pipeline, wg, sg = read_translation(f.read())
                if pipeline:
                    break
        if pipeline not in SELECT:
            die("dispatch %s: pipeline %s is not one capture knows (%s)"
                % (dispatch, pipeline, ", ".join(sorted(SELECT))))
        want, header = SELECT[pipeline]
        chosen = None
        for num, name, fn in pfs:
            if name == want:
                with open(os.path.join(root, fn)) as f:
                    text = f.read()
                if header not in text.split("\n", 1)[0]:
                    die("%s/%s: header is not '%s'" % (root, fn, header))
                if "translation_info" not in text:
                    continue  # not yet (or no longer) inside the lowering pipeline
                chosen = (fn, text)
                break
        if chosen is None:
            die("dispatch %s (%s): no %s dump in %s" % (dispatch, pipeline, want, root))
        fn, text = chosen
        _, wg2, sg2 = read_translation(text)
        out = os.path.join(outdir, dispatch + ".dump.mlir")
        with open(out, "w") as f:
            f.write(text)
        entry = {
            "dispatch": dispatch,
            "executable": executable,
            "variant": variant,
            "pipeline": pipeline,
            "workgroup_size": wg2 or wg,
            "subgroup_size": sg2 or sg,
            "file": os.path.basename(out),
            "pass_file": os.path.relpath(os.path.join(root, fn), outdir),
            "has_shared_memory": bool(re.search(
                r"memref\.alloc(a)?\(\)[^\n]*(#gpu\.address_space<workgroup>|, 3>)", text)),
        }
        if convert:
            try:
                kernel = iree2pk.convert(text, source=os.path.basename(out), module_name=executable)
            except iree2pk.ConvertError as e:
                die("iree2pk cannot convert %s: %s" % (out, e))
            kout = os.path.join(outdir, dispatch + ".kernel.mlir")
            with open(kout, "w") as f:
                f.write(kernel)
            entry["kernel"] = os.path.basename(kout)
        manifest.append(entry)
    if not manifest:
        die("no HAL dispatch function found in %s" % tree)
    with open(os.path.join(outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    return manifest


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("program")
    ap.add_argument("outdir")
    ap.add_argument("--iree-compile", default=None)
    ap.add_argument("--target", default="sm_86", help="--iree-cuda-target (sm_90 is refused by IREE 3.13)")
    ap.add_argument("--convert", action="store_true", help="also run iree2pk on each dump")
    a = ap.parse_args(argv)
    ic = find_iree_compile(a.iree_compile)
    if not ic:
        die("iree-compile not found (--iree-compile, $PK_IREE_COMPILE, /work/iree-venv, PATH); "
            "install: python3 -m venv V && V/bin/pip install iree-base-compiler==3.13.0")
    m = capture(a.program, a.outdir, ic, a.target, a.convert)
    for e in m:
        print("%s\t%s\t%s\t%s\tshared=%s" % (e["dispatch"], e["pipeline"],
              "x".join(map(str, e["workgroup_size"] or [])), e["file"], e["has_shared_memory"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
