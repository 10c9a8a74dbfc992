#!/usr/bin/env python3
"""diffrun: pk's pipelined kernels against their unpipelined twins on a GPU,
for any static-shape kernel (not only gen_gemm.py's GEMMs).

    # dev machine (pk-opt, ptxas): one cubin per kernel and variant
    python3 integration/kernels/diffrun.py build K.mlir... -o DIR \\
        [--variant NAME=OPTIONS ...]     # default: cp-async, ldg-register, auto
    # GPU machine (python3, numpy, the CUDA driver; no MLIR, no checkout)
    python3 DIR/diffrun.py run DIR [--iters 20] [--only REGEX]

build: for each `gpu.func ... kernel` of each file (static-shape memref
arguments only; `known_block_size` required, `known_grid_size` optional,
default 1x1x1), the unpipelined kernel (`pk-opt --pk-emit-binaries`) and
each variant (`--pipeline-kernel='arch=sm_90 OPTIONS emit=cubin
bare-ptr=1'`), pk's remark kept; DIR/manifest.json lists them, and this
script is copied into DIR.

run: every argument buffer is filled with seeded random values of its
element type (floats: multiples of 1/64 in [-2, 2), exact in f16 and bf16;
integers: [-8, 8)) and every buffer is compared after one launch, so the
check needs no knowledge of which arguments a kernel writes: a variant
passes when all its buffers are bit-identical to the unpipelined kernel's
(pk keeps the arithmetic order). Then each is timed (CUDA events, median of
--iters launches after 3 warm-ups). DIR/results.json and a markdown table on
stdout. `--sanitize TOOL` runs one launch per entry under
compute-sanitizer (memcheck, racecheck, synccheck) instead.
"""
import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPES = {"f16": ("float16", 2), "bf16": ("bfloat16", 2), "f32": ("float32", 4),
          "f64": ("float64", 8), "i8": ("int8", 1), "i16": ("int16", 2),
          "i32": ("int32", 4), "i64": ("int64", 8), "index": ("int64", 8)}
DEFAULT_VARIANTS = ["cp-async=variant=cp-async", "ldg-register=variant=ldg-register",
                    "auto=stages=auto"]


def parse_kernels(text):
    """(name, [(shape, elt)], block, grid) of each kernel gpu.func."""
    out = []
    for m in re.finditer(r"gpu\.func @(\w+)\((.*?)\)\s*(?:workgroup\(.*?\)\s*)?kernel(?: attributes \{(.*?)\})?",
                         text, re.S):
        name, args, attrs = m.group(1), m.group(2), m.group(3) or ""
        shapes = []
        for a in re.finditer(r"%\w+\s*:\s*memref<([^>]*)>", args):
            parts = a.group(1).split(",")[0].split("x")
            if any(not p.isdigit() for p in parts[:-1]):
                raise SystemExit("diffrun: %s: dynamic or strided memref argument %s" % (name, a.group(1)))
            shapes.append(([int(p) for p in parts[:-1]], parts[-1].strip()))
        if len(shapes) != len(re.findall(r"%\w+\s*:", args)):
            raise SystemExit("diffrun: %s: every argument must be a static memref" % name)
        dims = lambda key: [int(x) for x in re.search(key + r" = array<i32: ([^>]*)>", attrs).group(1).split(",")] \
            if re.search(key + r" = array<i32:", attrs) else None
        block = dims("known_block_size")
        if not block:
            raise SystemExit("diffrun: %s: no known_block_size" % name)
        out.append((name, shapes, block, dims("known_grid_size") or [1, 1, 1]))
    return out


def build(a):
    sys.path.insert(0, os.path.join(HERE, ".."))
    import pkint
    os.makedirs(a.out, exist_ok=True)
    variants = [v.split("=", 1) for v in (a.variant or DEFAULT_VARIANTS)]
    entries, skipped = [], []
    for src in a.kernels:
        stem = os.path.splitext(os.path.basename(src))[0]
        try:
            kernels = parse_kernels(open(src).read())
            if len(kernels) != 1:
                raise SystemExit("diffrun: %s: one kernel per file (found %d)" % (src, len(kernels)))
        except SystemExit as ex:
            print("%s: skipped: %s" % (src, ex), file=sys.stderr)
            skipped.append(src)
            continue
        name, shapes, block, grid = kernels[0]
        for var, opts in [("base", None)] + variants:
            d = os.path.join(a.out, stem, var)
            mlir_out = os.path.join(d, "out.mlir")
            r = pkint.pk_emit(src, a.arch, d, options=opts, mlir_out=mlir_out,
                              log=os.path.join(d, "pk.log"))
            remark = [l for l in r["stderr"].splitlines() if "remark: pipelined" in l
                      or "remark: not pipelined" in l]
            dyn = 0
            if os.path.exists(mlir_out):
                m = re.search(r"pk\.dynamic_shared_memory_bytes = (\d+)", open(mlir_out).read())
                dyn = int(m.group(1)) if m else 0
            e = {"id": "%s.%s" % (stem, var), "kernel_file": stem, "variant": var, "options": opts,
                 "name": name, "args": [{"shape": s, "type": t} for s, t in shapes],
                 "block": block, "grid": grid, "dynamic_smem": dyn,
                 "cubin": os.path.relpath(r["cubin"], a.out) if r["cubin"] else None,
                 "ptxas": r["ptxas"], "remark": remark[0].split("remark: ", 1)[1][:300] if remark else "",
                 "status": "built" if r["rc"] == 0 and r["cubin"] else "failed"}
            entries.append(e)
            print("%-40s %s %s" % (e["id"], e["status"], e["remark"][:100]))
    shutil.copy(os.path.abspath(__file__), os.path.join(a.out, "diffrun.py"))
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump({"arch": a.arch, "entries": entries, "skipped": skipped}, f, indent=1)
    return 1 if skipped or any(e["status"] != "built" for e in entries) else 0


# ----------------------------------------------------------------- GPU side
class Cuda:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.check(self.lib.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        name = ctypes.create_string_buffer(256)
        self.lib.cuDeviceGetName(name, 255, dev)
        self.device = name.value.decode()
        ctx = ctypes.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
        self.check(self.lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    @staticmethod
    def check(rc, what):
        if rc != 0:
            raise RuntimeError("%s failed: CUDA error %d" % (what, rc))

    def load(self, path, name):
        data = open(path, "rb").read()
        mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
        self.check(self.lib.cuModuleLoadData(ctypes.byref(mod), data), "cuModuleLoadData")
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "cuModuleGetFunction")
        regs = ctypes.c_int()
        self.lib.cuFuncGetAttribute(ctypes.byref(regs), 4, fn)  # CU_FUNC_ATTRIBUTE_NUM_REGS
        return mod, fn, regs.value

    # Pointers and sizes go as 64-bit ctypes values (a bare Python int is
    # passed as a C int: a host address above 2^31 would be cut).
    def alloc(self, host):
        p = ctypes.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(max(host.nbytes, 1))),
                   "cuMemAlloc")
        self.check(self.lib.cuMemcpyHtoD_v2(p, ctypes.c_void_p(host.ctypes.data),
                                            ctypes.c_size_t(host.nbytes)), "cuMemcpyHtoD")
        return p

    def read(self, p, like):
        import numpy as np
        out = np.empty_like(like)
        self.check(self.lib.cuMemcpyDtoH_v2(ctypes.c_void_p(out.ctypes.data), p,
                                            ctypes.c_size_t(out.nbytes)), "cuMemcpyDtoH")
        return out

    def launch(self, fn, grid, block, smem, ptrs):
        if smem > 48 * 1024:
            self.check(self.lib.cuFuncSetAttribute(fn, 8, ctypes.c_int(smem)), "cuFuncSetAttribute")
        holders = [ctypes.c_uint64(p.value) for p in ptrs]
        params = (ctypes.c_void_p * len(holders))(*[ctypes.cast(ctypes.byref(h), ctypes.c_void_p) for h in holders])
        self.check(self.lib.cuLaunchKernel(fn, *[ctypes.c_uint(x) for x in grid + block + [smem]],
                                           None, params, None), "cuLaunchKernel")

    def sync(self):
        self.check(self.lib.cuCtxSynchronize(), "cuCtxSynchronize")

    def time(self, fn, grid, block, smem, ptrs, iters):
        ev = [ctypes.c_void_p(), ctypes.c_void_p()]
        for e in ev:
            self.check(self.lib.cuEventCreate(ctypes.byref(e), 0), "cuEventCreate")
        times = []
        for i in range(3 + iters):
            self.lib.cuEventRecord(ev[0], None)
            self.launch(fn, grid, block, smem, ptrs)
            self.lib.cuEventRecord(ev[1], None)
            self.lib.cuEventSynchronize(ev[1])
            ms = ctypes.c_float()
            self.lib.cuEventElapsedTime(ctypes.byref(ms), ev[0], ev[1])
            if i >= 3:
                times.append(ms.value)
        times.sort()
        return times[len(times) // 2]


def inputs(entry, seed):
    import numpy as np
    rng = np.random.default_rng(seed)
    bufs = []
    for arg in entry["args"]:
        np_t, size = DTYPES[arg["type"]]
        n = 1
        for d in arg["shape"]:
            n *= d
        if arg["type"] in ("f16", "f32", "f64"):
            bufs.append((rng.integers(-128, 128, n) / 64.0).astype(np_t))
        elif arg["type"] == "bf16":  # the upper half of f32 multiples of 1/64
            f = (rng.integers(-128, 128, n) / 64.0).astype("float32")
            bufs.append((f.view("uint32") >> 16).astype("uint16"))
        else:
            bufs.append(rng.integers(-8, 8, n).astype(np_t))
    return bufs


def run(a):
    import numpy as np
    man = json.load(open(os.path.join(a.dir, "manifest.json")))
    ents = [e for e in man["entries"] if e["status"] == "built" and re.search(a.only or "", e["id"])]
    cuda = Cuda()
    base_out, rows = {}, []
    for e in ents:
        _, fn, regs = cuda.load(os.path.join(a.dir, e["cubin"]), e["name"])
        host = inputs(e, 20261206)
        ptrs = [cuda.alloc(h) for h in host]
        cuda.launch(fn, e["grid"], e["block"], e["dynamic_smem"], ptrs)
        cuda.sync()
        outs = [cuda.read(p, h) for p, h in zip(ptrs, host)]
        if a.sanitize:
            print("%s: launched once" % e["id"])
            continue
        row = {"id": e["id"], "kernel": e["kernel_file"], "variant": e["variant"], "regs": regs,
               "remark": e["remark"]}
        if e["variant"] == "base":
            base_out[e["kernel_file"]] = outs
            row["check"] = "reference"
        else:
            ref = base_out.get(e["kernel_file"])
            if ref is None:
                row["check"] = "no base"
            else:
                diff = [i for i, (x, y) in enumerate(zip(ref, outs)) if x.tobytes() != y.tobytes()]
                row["check"] = "bit-exact" if not diff else "DIFFERS in arg(s) %s" % diff
        row["ms"] = cuda.time(fn, e["grid"], e["block"], e["dynamic_smem"], ptrs, a.iters)
        base = next((r for r in rows if r["kernel"] == e["kernel_file"] and r["variant"] == "base"), None)
        row["speedup"] = base["ms"] / row["ms"] if base else 1.0
        rows.append(row)
        for p in ptrs:
            cuda.lib.cuMemFree_v2(p)
    if a.sanitize:
        return 0
    with open(os.path.join(a.out or a.dir, "results.json"), "w") as f:
        json.dump({"device": cuda.device, "rows": rows}, f, indent=1)
    print("device: %s\n" % cuda.device)
    print("| kernel | variant | ms (median) | vs unpipelined | regs | check | pk |")
    print("|---|---|---:|---:|---:|---|---|")
    for r in rows:
        print("| %s | %s | %.4f | %.2fx | %d | %s | %s |" % (
            r["kernel"], r["variant"], r["ms"], r["speedup"], r["regs"], r["check"], r["remark"][:90]))
    return 1 if any(r["check"].startswith("DIFFERS") for r in rows) else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("kernels", nargs="+")
    b.add_argument("-o", "--out", required=True)
    b.add_argument("--arch", default="sm_90")
    b.add_argument("--variant", action="append", help="NAME=pipeline-kernel options (repeatable)")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--iters", type=int, default=20)
    r.add_argument("--only")
    r.add_argument("--out")
    r.add_argument("--sanitize", action="store_true",
                   help="one launch per entry, no timing (run under compute-sanitizer)")
    a = ap.parse_args(argv)
    return build(a) if a.cmd == "build" else run(a)


if __name__ == "__main__":
    sys.exit(main() or 0)
