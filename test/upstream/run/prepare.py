#!/usr/bin/env python3
"""Lowers the kernels of test/upstream/kernels/ to PTX for run.py (dev machine).

For every kernel that upstream's --gpu-lower-to-nvvm-pipeline lowers, writes
<out>/<name>.ptx and one entry of <out>/manifest.json: the PTX kernel name,
grid, block, and the kernel's parameters in launch order (each a host-function
argument A/B/C with its memref type, or an index constant), read from the
gpu.launch_func of the (outlined) module. gpu.launch kernels are outlined with
--gpu-kernel-outlining first, as the lowering pipeline does.

Usage: prepare.py OUT_DIR [kernel.mlir ...]   (default: every kernels/*.mlir)
Environment: MLIR_OPT (default mlir-opt-22).
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(os.path.dirname(HERE), "kernels")
MLIR_OPT = os.environ.get("MLIR_OPT") or shutil.which("mlir-opt-22") or "/usr/lib/llvm-22/bin/mlir-opt"
CHIP = os.environ.get("LOWER_CHIP", "sm_86")
LOWER = "--gpu-lower-to-nvvm-pipeline=cubin-chip=%s cubin-features=+ptx80 cubin-format=isa" % CHIP


def sh(args, inp=None):
    p = subprocess.run(args, input=inp, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    out = sys.argv[1]
    files = sys.argv[2:] or sorted(glob.glob(os.path.join(KERNELS, "*.mlir")))
    os.makedirs(out, exist_ok=True)
    manifest = []
    for f in files:
        name = os.path.basename(f)[:-5]
        text = open(f).read()
        if "gpu.launch blocks" in text:
            rc, text, err = sh([MLIR_OPT, f, "--gpu-kernel-outlining"])
            assert rc == 0, err
        rc, low, err = sh([MLIR_OPT, "-", LOWER], text)
        if rc != 0:
            print("skip %s: does not lower (%s)" % (name, err.strip().splitlines()[0]))
            continue
        m = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', low)
        ptx = re.sub(r"\\([0-9A-Fa-f]{2})", lambda x: chr(int(x.group(1), 16)), m.group(1))
        host = re.search(r"func\.func @\w+\((.*?)\) \{", text).group(1)
        roles = {}
        for i, (arg, ty) in enumerate(re.findall(r"(%\w+): (memref<[^>]*>)", host)):
            roles[arg] = ("ABC"[i], ty)
        consts = dict(re.findall(r"(%\w+) = arith\.constant (-?\d+) : index", text))
        lf = re.search(r"gpu\.launch_func\s+@\w+::@(\w+) blocks in \((%\w+), (%\w+), (%\w+)\) "
                       r"threads in \((%\w+), (%\w+), (%\w+)\)\s+args\((.*)\)", text)
        kernel = lf.group(1)
        grid = [int(consts[v]) for v in lf.group(2, 3, 4)]
        block = [int(consts[v]) for v in lf.group(5, 6, 7)]
        params = []
        for arg, ty in re.findall(r"(%\w+) : ([^,]+?(?:<[^>]*>)?)(?:,|$)", lf.group(8)):
            if ty.strip() == "index":
                params.append({"index": int(consts[arg])})
            else:
                role, mty = roles[arg]
                dims = re.match(r"memref<(\d+)x(\d+)x(\w+)>", mty)
                params.append({"memref": role, "rows": int(dims.group(1)),
                               "cols": int(dims.group(2)), "type": dims.group(3)})
        # C += A * B or C += A * B^T (the _tb kernels: B stored N x K).
        entry = {"name": name, "ptx": name + ".ptx", "kernel": kernel, "grid": grid,
                 "block": block, "params": params, "transpose_b": "_tb_" in name}
        with open(os.path.join(out, name + ".ptx"), "w") as fo:
            fo.write(ptx)
        manifest.append(entry)
        print("ok %s: %s grid %s block %s" % (name, kernel, grid, block))
    with open(os.path.join(out, "manifest.json"), "w") as fo:
        json.dump(manifest, fo, indent=1)


if __name__ == "__main__":
    main()
