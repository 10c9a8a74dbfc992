#!/usr/bin/env python3
"""Runs the PTX kernels that prepare.py wrote (GPU machine; python3 + libcuda only).

Each kernel runs once, in its own process (a faulting kernel poisons its CUDA
context), on deterministic inputs: A, B and the initial C hold multiples of
1/8 in [-1, 1], so every product and sum is exact in f32. The kernels compute
C += A * B (or A * B^T for the _tb kernels); 258 entries of C are checked
against a double-precision reference: (0, 0), (M-1, N-1) and 256 random ones.
Tolerance |got - ref| <= 1e-3 + 1e-3 |ref| (f32 C), 0.06 + 1e-2 |ref| (f16 C,
accumulated in f16 by the kernel).

Memref arguments are passed the way MLIR's default (non-bare-pointer) calling
convention lays them out: allocated pointer, aligned pointer, offset, sizes,
strides.

With RUN_REPS=n in the environment, the kernel is then launched 10 times
to warm up and n times between two CUDA events; "us" is the mean time per
launch and "tflops" 2MNK over it.

Usage: run.py ART_DIR [name ...]     prints one JSON line per kernel
"""
import ctypes
import json
import os
import random
import struct
import subprocess
import sys

CUDA_SUCCESS = 0


def cuda():
    lib = ctypes.CDLL("libcuda.so.1")
    return lib


def err_name(lib, code):
    s = ctypes.c_char_p()
    lib.cuGetErrorName(code, ctypes.byref(s))
    return (s.value or b"?").decode() + "(%d)" % code


def check(lib, code, what):
    if code != CUDA_SUCCESS:
        raise RuntimeError("%s: %s" % (what, err_name(lib, code)))


def values(rng, n):
    return [rng.randint(-8, 8) / 8.0 for _ in range(n)]


def pack(vals, ty):
    fmt = {"f32": "f", "f16": "e"}[ty]
    return struct.pack("<%d%s" % (len(vals), fmt), *vals)


def unpack(buf, ty, n):
    fmt = {"f32": "f", "f16": "e"}[ty]
    return list(struct.unpack("<%d%s" % (n, fmt), buf))


def run_one(art, e):
    lib = cuda()
    check(lib, lib.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(lib, lib.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    check(lib, lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(lib, lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    image = e.get("cubin") or e["ptx"]
    ptx = open(os.path.join(art, image), "rb").read() + b"\0"
    mod = ctypes.c_void_p()
    check(lib, lib.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(ptx)), "cuModuleLoadData")
    fn = ctypes.c_void_p()
    check(lib, lib.cuModuleGetFunction(ctypes.byref(fn), mod, e["kernel"].encode()), "cuModuleGetFunction")

    shapes = {p["memref"]: (p["rows"], p["cols"], p["type"]) for p in e["params"] if "memref" in p}
    rng = random.Random(1234)
    host = {r: values(rng, shapes[r][0] * shapes[r][1]) for r in "ABC"}
    dptr = {}
    for r in "ABC":
        rows, cols, ty = shapes[r]
        data = pack(host[r], ty)
        p = ctypes.c_uint64()
        check(lib, lib.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(len(data))), "cuMemAlloc")
        check(lib, lib.cuMemcpyHtoD_v2(p, data, ctypes.c_size_t(len(data))), "cuMemcpyHtoD")
        dptr[r] = p.value

    storage = []
    for p in e["params"]:
        if "index" in p:
            storage.append(ctypes.c_int64(p["index"]))
        else:
            rows, cols = p["rows"], p["cols"]
            ptr = dptr[p["memref"]]
            storage += [ctypes.c_uint64(ptr), ctypes.c_uint64(ptr), ctypes.c_int64(0),
                        ctypes.c_int64(rows), ctypes.c_int64(cols),
                        ctypes.c_int64(cols), ctypes.c_int64(1)]
    params = (ctypes.c_void_p * len(storage))(*[ctypes.cast(ctypes.byref(s), ctypes.c_void_p) for s in storage])
    g, b = e["grid"], e["block"]
    code = lib.cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], 0, None, params, None)
    check(lib, code, "cuLaunchKernel")
    check(lib, lib.cuCtxSynchronize(), "kernel execution (cuCtxSynchronize)")
    # The result is checked after the first launch; later ones only time.
    M, N, ty = shapes["C"]
    nbytes = M * N * (4 if ty == "f32" else 2)
    first = ctypes.create_string_buffer(nbytes)
    check(lib, lib.cuMemcpyDtoH_v2(first, ctypes.c_uint64(dptr["C"]), ctypes.c_size_t(nbytes)), "cuMemcpyDtoH")
    reps = int(os.environ.get("RUN_REPS", "0"))
    micros = None
    if reps > 0:
        start, stop = ctypes.c_void_p(), ctypes.c_void_p()
        check(lib, lib.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
        check(lib, lib.cuEventCreate(ctypes.byref(stop), 0), "cuEventCreate")
        for _ in range(10):
            lib.cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], 0, None, params, None)
        check(lib, lib.cuEventRecord(start, None), "cuEventRecord")
        for _ in range(reps):
            lib.cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], 0, None, params, None)
        check(lib, lib.cuEventRecord(stop, None), "cuEventRecord")
        check(lib, lib.cuEventSynchronize(stop), "cuEventSynchronize")
        ms = ctypes.c_float()
        check(lib, lib.cuEventElapsedTime(ctypes.byref(ms), start, stop), "cuEventElapsedTime")
        micros = ms.value * 1000.0 / reps

    result = verify(e, shapes, host, unpack(first.raw, ty, M * N), rng)
    if micros is not None:
        K = shapes["A"][1]
        result["us"] = round(micros, 3)
        result["tflops"] = round(2.0 * M * N * K / (micros * 1e-6) / 1e12, 3)
    return result


def verify(e, shapes, host, got, rng):
    M, N, ty = shapes["C"]
    K = shapes["A"][1]
    A, B, C0 = host["A"], host["B"], host["C"]
    tb = e["transpose_b"]
    points = [(0, 0), (M - 1, N - 1)] + [(rng.randrange(M), rng.randrange(N)) for _ in range(256)]
    abs_tol, rel_tol = (1e-3, 1e-3) if ty == "f32" else (0.06, 1e-2)
    bad = []
    for i, j in points:
        ref = C0[i * N + j] + sum(A[i * K + k] * (B[j * K + k] if tb else B[k * N + j]) for k in range(K))
        v = got[i * N + j]
        if not (abs(v - ref) <= abs_tol + rel_tol * abs(ref)):
            bad.append((i, j, v, ref))
    return {"name": e["name"], "status": "pass" if not bad else "FAIL",
            "checked": len(points), "mismatches": len(bad),
            "first": [{"i": i, "j": j, "got": v, "ref": r} for i, j, v, r in bad[:3]]}


def main():
    art = sys.argv[1]
    manifest = json.load(open(os.path.join(art, "manifest.json")))
    if len(sys.argv) > 3 and sys.argv[2] == "--one":
        e = next(x for x in manifest if x["name"] == sys.argv[3])
        try:
            print(json.dumps(run_one(art, e)))
        except Exception as ex:  # CUDA errors: report, do not trace back
            print(json.dumps({"name": e["name"], "status": "ERROR", "error": str(ex)}))
        return
    names = sys.argv[2:] or [x["name"] for x in manifest]
    for n in names:
        try:
            p = subprocess.run([sys.executable, __file__, art, "--one", n], capture_output=True,
                               text=True, timeout=120)
            line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else json.dumps(
                {"name": n, "status": "ERROR", "error": "rc=%d %s" % (p.returncode, p.stderr.strip()[-300:])})
        except subprocess.TimeoutExpired:
            line = json.dumps({"name": n, "status": "ERROR", "error": "timeout (120 s)"})
        print(line, flush=True)


if __name__ == "__main__":
    main()
