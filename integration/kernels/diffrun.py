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
(pk keeps the arithmetic order). Then the variants of each kernel are timed
interleaved: --rounds rounds, each timing every variant over --iters
back-to-back launches between two CUDA events; a variant's time is the
median of its rounds, and a variant whose cubin is byte-identical to an
earlier one's is not timed again (`(= VARIANT)`: the same code measured
twice measures only noise). DIR/results.json and a markdown table on
stdout, then per kernel `auto` against the unpipelined kernel and the best
fixed variant. A kernel may carry its semantics as `// diffrun-reference:
STATEMENT` lines (Python with torch: the kernel's argument names are bound to
its inputs, and every argument the statements assign is compared with the
kernel's output; a name that is a Python keyword gets a trailing `_`),
`// diffrun-tolerance: atol=X rtol=Y`, default 1e-2 each);
with torch on the GPU machine each entry's outputs are checked against it
(the `torch` column). `// diffrun-input: NAME = INTEGER` fills argument NAME
with that value instead (a run-time K). `--sanitize` runs one launch per entry under
compute-sanitizer (memcheck, racecheck, synccheck) instead.
"""
import argparse
import ctypes
import json
import keyword
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


def parse_references(text):
    """The kernel's `// diffrun-reference: STATEMENT` lines (Python, run in
    order; the kernel's argument names are bound to torch tensors of their
    inputs) and its `// diffrun-tolerance: atol=X rtol=Y` (default 1e-2)."""
    refs = re.findall(r"^\s*//\s*diffrun-reference:\s*(.+?)\s*$", text, re.M)
    fills = dict((n, int(v)) for n, v in re.findall(r"^\s*//\s*diffrun-input:\s*(\w+)\s*=\s*(-?\d+)\s*$",
                                                    text, re.M))
    tol = {"atol": 1e-2, "rtol": 1e-2}
    m = re.search(r"^\s*//\s*diffrun-tolerance:(.*)$", text, re.M)
    for kv in (m.group(1).split() if m else []):
        k, v = kv.split("=")
        tol[k] = float(v)
    return refs, tol, fills


def parse_kernels(text):
    """(name, [(shape, elt)], block, grid) of each kernel gpu.func."""
    out = []
    for m in re.finditer(r"gpu\.func @(\w+)\((.*?)\)\s*(?:workgroup\(.*?\)\s*)?kernel(?: attributes \{(.*?)\})?",
                         text, re.S):
        name, args, attrs = m.group(1), m.group(2), m.group(3) or ""
        shapes = []
        for a in re.finditer(r"%(\w+)\s*:\s*memref<([^>]*)>", args):
            parts = a.group(2).split(",")[0].split("x")
            if any(not p.isdigit() for p in parts[:-1]):
                raise SystemExit("diffrun: %s: dynamic or strided memref argument %s" % (name, a.group(2)))
            shapes.append(([int(p) for p in parts[:-1]], parts[-1].strip(), a.group(1)))
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
            text = open(src).read()
            kernels = parse_kernels(text)
            refs, tol, fills = parse_references(text)
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
                 "name": name, "args": [{"shape": s, "type": t, "name": n} for s, t, n in shapes],
                 "reference": refs, "tolerance": tol, "fill": fills,
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

    def time(self, fn, grid, block, smem, ptrs, iters, warmup=3, batch=False):
        """Milliseconds per launch: the median of `iters` single launches
        after `warmup`, or with `batch` the mean of `iters` back-to-back
        launches between one pair of events."""
        ev = [ctypes.c_void_p(), ctypes.c_void_p()]
        for e in ev:
            self.check(self.lib.cuEventCreate(ctypes.byref(e), 0), "cuEventCreate")
        for _ in range(warmup):
            self.launch(fn, grid, block, smem, ptrs)
        times = []
        for _ in range(1 if batch else iters):
            self.lib.cuEventRecord(ev[0], None)
            for _ in range(iters if batch else 1):
                self.launch(fn, grid, block, smem, ptrs)
            self.lib.cuEventRecord(ev[1], None)
            self.lib.cuEventSynchronize(ev[1])
            ms = ctypes.c_float()
            self.lib.cuEventElapsedTime(ctypes.byref(ms), ev[0], ev[1])
            times.append(ms.value / (iters if batch else 1))
        for e in ev:
            self.lib.cuEventDestroy_v2(e)
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
        if arg.get("name") in entry.get("fill", {}):
            bufs.append(np.full(n, entry["fill"][arg["name"]], dtype=np_t))
        elif arg["type"] in ("f16", "f32", "f64"):
            bufs.append((rng.integers(-128, 128, n) / 64.0).astype(np_t))
        elif arg["type"] == "bf16":  # the upper half of f32 multiples of 1/64
            f = (rng.integers(-128, 128, n) / 64.0).astype("float32")
            bufs.append((f.view("uint32") >> 16).astype("uint16"))
        else:
            bufs.append(rng.integers(-8, 8, n).astype(np_t))
    return bufs


def to_torch(arr, arg):
    """A torch tensor (on the GPU) of one buffer, in the kernel's element type
    and the argument's shape."""
    import torch
    typ = arg["type"]
    t = torch.from_numpy(arr.copy().reshape(arg["shape"]))
    if typ == "bf16":
        t = t.view(torch.int16).view(torch.bfloat16)
    return t.cuda()


def unpack_int4(x):
    """Two's-complement int4 pairs packed in int8 (low nibble first) ->
    int8 tensor with the last dimension doubled."""
    import torch
    lo = (x.to(torch.int16) << 12 >> 12).to(torch.int8)
    hi = (x.to(torch.int16) << 8 >> 12).to(torch.int8)
    return torch.stack([lo, hi], dim=-1).flatten(-2)


def torch_check(entry, host, outs):
    """Runs the kernel's `diffrun-reference` statements on its inputs and
    compares every argument they assign with the kernel's output:
    'ok (max err X)', 'WRONG arg: max err X at I', or 'error: ...'."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return "no torch"
    args = entry["args"]
    env = {"torch": torch, "F": F, "unpack_int4": unpack_int4}
    names = [a["name"] + "_" if keyword.iskeyword(a["name"]) else a["name"] for a in args]
    for name, arg, h in zip(names, args, host):
        env[name] = to_torch(h, arg)
    before = dict(env)
    try:
        for stmt in entry["reference"]:
            exec(stmt, env)
    except Exception as ex:  # a reference that does not run is reported, not fatal
        return "error: %s" % str(ex).splitlines()[0][:120]
    worst, verdict, compared = 0.0, [], 0
    for i, (name, arg) in enumerate(zip(names, args)):
        ref = env.get(name)
        if ref is None or ref is before[name]:
            continue
        compared += 1
        got = to_torch(outs[i], arg).float().reshape(ref.shape)
        ref = ref.float()
        err = (got - ref).abs()
        bound = entry["tolerance"]["atol"] + entry["tolerance"]["rtol"] * ref.abs()
        bad = (err > bound) | torch.isnan(got)
        worst = max(worst, err.max().item())
        if bad.any():
            idx = bad.flatten().nonzero()[0].item()
            verdict.append("WRONG %s: %d elements off, first at %d (%g vs %g)" % (
                name, bad.sum().item(), idx, got.flatten()[idx].item(), ref.flatten()[idx].item()))
    if not compared:
        return "error: the reference assigns no kernel argument"
    return "; ".join(verdict) if verdict else "ok (max err %.3g)" % worst


def describe_difference(arg, ref, out):
    """`NAME: N of M elements, max |diff| D` for one buffer that differs."""
    import numpy as np
    if arg["type"] == "bf16":
        ref = (ref.astype("uint32") << 16).view("float32")
        out = (out.astype("uint32") << 16).view("float32")
    bad = ref.view("uint8").reshape(ref.size, -1) != out.view("uint8").reshape(out.size, -1)
    count = int(bad.any(axis=1).sum())
    diff = np.abs(ref.astype("float64") - out.astype("float64"))
    return "%s: %d of %d elements, max |diff| %.3g" % (arg.get("name", "?"), count, ref.size, np.nanmax(diff))


def check_entry(a, cuda, e, base_out):
    """Loads, fills and launches one entry once; returns its row (None under
    --sanitize) and what timing needs: (fn, ptrs)."""
    _, fn, regs = cuda.load(os.path.join(a.dir, e["cubin"]), e["name"])
    host = inputs(e, 20261206)
    ptrs = [cuda.alloc(h) for h in host]
    cuda.launch(fn, e["grid"], e["block"], e["dynamic_smem"], ptrs)
    cuda.sync()
    outs = [cuda.read(p, h) for p, h in zip(ptrs, host)]
    if a.sanitize:
        print("%s: launched once" % e["id"])
        return None, fn, ptrs
    row = {"id": e["id"], "kernel": e["kernel_file"], "variant": e["variant"], "regs": regs,
           "remark": e["remark"]}
    if e.get("reference"):
        row["torch"] = torch_check(e, host, outs)
    if e["variant"] == "base":
        base_out[e["kernel_file"]] = outs
        row["check"] = "reference"
    else:
        ref = base_out.get(e["kernel_file"])
        if ref is None:
            row["check"] = "no base"
        else:
            diff = [i for i, (x, y) in enumerate(zip(ref, outs)) if x.tobytes() != y.tobytes()]
            row["check"] = "bit-exact" if not diff else "DIFFERS in arg(s) %s" % ", ".join(
                describe_difference(e["args"][i], ref[i], outs[i]) for i in diff)
    return row, fn, ptrs


def time_group(a, cuda, group):
    """Times the entries of one kernel interleaved: --rounds rounds, each
    timing every entry over --iters back-to-back launches (one event pair,
    the mean per launch); an entry's time is the median of its rounds. An
    entry whose cubin is byte-identical to an earlier one's gets that time
    (`same_as`): the same code measured twice only measures noise."""
    first = {}
    for e, row, fn, ptrs in group:
        data = open(os.path.join(a.dir, e["cubin"]), "rb").read()
        if data in first:
            row["same_as"] = first[data]
        else:
            first[data] = e["variant"]
            row["rounds"] = []
    timed = [(e, row, fn, ptrs) for e, row, fn, ptrs in group if "same_as" not in row]
    for e, row, fn, ptrs in timed:  # warm-up
        cuda.time(fn, e["grid"], e["block"], e["dynamic_smem"], ptrs, 1, warmup=2)
    for _ in range(a.rounds):
        for e, row, fn, ptrs in timed:
            row["rounds"].append(cuda.time(fn, e["grid"], e["block"], e["dynamic_smem"], ptrs, a.iters,
                                           warmup=0, batch=True))
    by_variant = {}
    for e, row, fn, ptrs in group:
        if "same_as" not in row:
            row["ms"] = sorted(row["rounds"])[len(row["rounds"]) // 2]
        by_variant[e["variant"]] = row
    for e, row, fn, ptrs in group:
        if "same_as" in row:
            row["ms"] = by_variant[row["same_as"]]["ms"]
        base = by_variant.get("base")
        row["speedup"] = base["ms"] / row["ms"] if base else 1.0


def run(a):
    man = json.load(open(os.path.join(a.dir, "manifest.json")))
    ents = [e for e in man["entries"] if e["status"] == "built" and re.search(a.only or "", e["id"])]
    cuda = Cuda()
    base_out, rows = {}, []
    for kernel in dict.fromkeys(e["kernel_file"] for e in ents):
        group = []
        for e in (e for e in ents if e["kernel_file"] == kernel):
            row, fn, ptrs = check_entry(a, cuda, e, base_out)
            group.append((e, row, fn, ptrs))
        if not a.sanitize:
            time_group(a, cuda, group)
            rows += [row for _, row, _, _ in group]
        for _, _, _, ptrs in group:
            for p in ptrs:
                cuda.lib.cuMemFree_v2(p)
    if a.sanitize:
        return 0
    with open(os.path.join(a.out or a.dir, "results.json"), "w") as f:
        json.dump({"device": cuda.device, "rows": rows}, f, indent=1)
    print("device: %s\n" % cuda.device)
    print("| kernel | variant | ms (median) | vs unpipelined | regs | check | torch | pk |")
    print("|---|---|---:|---:|---:|---|---|---|")
    for r in rows:
        print("| %s | %s | %.4f%s | %.2fx | %d | %s | %s | %s |" % (
            r["kernel"], r["variant"], r["ms"], " (= %s)" % r["same_as"] if "same_as" in r else "",
            r["speedup"], r["regs"], r["check"], r.get("torch", "-"), r["remark"][:90]))
    print_summary(rows, a.auto)
    return 1 if any(r["check"].startswith("DIFFERS") or r.get("torch", "ok").startswith(("WRONG", "error"))
                    for r in rows) else 0


def print_summary(rows, auto):
    """Per kernel: the `auto` variant against the unpipelined kernel and the
    best fixed variant (every other variant but the unpipelined one)."""
    kernels = sorted({r["kernel"] for r in rows})
    if not any(r["variant"] == auto for r in rows):
        return
    print("\n| kernel | unpipelined ms | best fixed | best fixed vs unpipelined | %s | %s vs unpipelined | %s vs best |" % (
        auto, auto, auto))
    print("|---|---:|---|---:|---:|---:|---:|")
    for k in kernels:
        mine = {r["variant"]: r for r in rows if r["kernel"] == k}
        base, au = mine.get("base"), mine.get(auto)
        fixed = [r for v, r in mine.items() if v not in ("base", auto)]
        if not base or not au or not fixed:
            continue
        best = min(fixed, key=lambda r: r["ms"])
        print("| %s | %.4f | %s | %.2fx | %.4f | %.2fx | %.3f |" % (
            k, base["ms"], best["variant"], base["ms"] / best["ms"], au["ms"], base["ms"] / au["ms"],
            best["ms"] / au["ms"]))


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
    r.add_argument("--iters", type=int, default=20, help="launches per timing round")
    r.add_argument("--rounds", type=int, default=7, help="interleaved timing rounds (median)")
    r.add_argument("--only")
    r.add_argument("--out")
    r.add_argument("--auto", default="auto", help="the variant the summary weighs against the others")
    r.add_argument("--sanitize", action="store_true",
                   help="one launch per entry, no timing (run under compute-sanitizer)")
    a = ap.parse_args(argv)
    return build(a) if a.cmd == "build" else run(a)


if __name__ == "__main__":
    sys.exit(main() or 0)
