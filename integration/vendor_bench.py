#!/usr/bin/env python3
"""Triton and cuBLAS (torch.matmul) HGEMM timings, for the same run as pk's
kernels (pk-bundle.py run, step vendor): FP16 inputs, FP32 accumulation, M = N = K = size.

  * cuBLAS: torch.matmul(A, B) on FP16 and on BF16 (FP32 accumulation);
  * Triton: the tutorial's blocked matmul (FP32 accumulator stored as FP32),
    tile 128x256x64, 4 stages, 8 warps (the configuration issue 14 quotes at
    664 TFLOP/s), and 128x128x64 / 3 stages / 4 warps; then (unless
    --no-triton-sweep) an autotune over SWEEP (the tutorial's CUDA autotune
    list and Hopper-sized tiles, 12 configurations), each timed, the best
    recorded as "triton best of N" and run on BF16 too; with
    --triton-persistent, the tutorial's persistent matmul (one program per
    SM, grouped tiles; flattened across tiles where Triton can) on PERSISTENT;

each checked against torch.matmul in FP32 on a 512^3 problem first, then timed
with CUDA events (median of --iters after --warmup). Writes --json.

FP8 (--fp8: after the entries above; --fp8-only: instead of them), beside
pk's e4m3gemm / e5m2gemm kernels (examples/gen_wgmma_fp8.py): A M x K and
B N x K, both row-major float8, per-tensor scales SA = 0.5, SB = 0.25
(pk-runner's default --scale), C = SA * SB * A B^T:

  * cuBLASLt: torch._scaled_mm(A, B.t(), scale_a, scale_b, out_dtype=...)
    (B.t() is the column-major K x N operand _scaled_mm requires; the scales
    are 1-element float32 tensors) on e4m3 x e4m3 with out_dtype float32 and
    bfloat16, each also with use_fast_accum=True (no periodic promotion of
    the accumulator, as pk's wgmma chain); and e5m2 x e4m3 -> float32:
    cuBLASLt has no e5m2 x e5m2, so pk's e5m2gemm has no exact vendor twin;
  * Triton (if it imports): the same blocked matmul on e4m3 x e4m3 (B.t()
    again, as the tutorial's FP8 path; FP32 accumulator, the scales left
    out: one multiply per element of C), CONFIGS, then (unless
    --no-triton-sweep) SWEEP_FP8 (the tutorial's FP8 autotune list) plus
    CONFIGS, the best recorded as "triton best of N e4m3". Triton versions
    without FP8 tl.dot record the error and go on.

FP8 entries are checked against A.float() @ B.float().t() (times SA * SB for
_scaled_mm) at 512^3 and timed as the others; the JSON records the scales
("fp8_scale").
"""

import argparse
import json
import statistics
import sys

import torch

try:
    import triton
    import triton.language as tl
except ImportError:  # the run records that Triton is missing
    triton = None


if triton is not None:
    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                      stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
        pid = tl.program_id(axis=0)
        num_pid_m = tl.cdiv(M, BLOCK_M)
        num_pid_n = tl.cdiv(N, BLOCK_N)
        num_pid_in_group = GROUP_M * num_pid_n
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + (pid % group_size_m)
        pid_n = (pid % num_pid_in_group) // group_size_m
        offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
        offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
        offs_k = tl.arange(0, BLOCK_K)
        a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
            acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K * stride_ak
            b_ptrs += BLOCK_K * stride_bk
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        tl.store(c_ptrs, acc, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


    @triton.jit
    def matmul_persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                                 stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                                 BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                 GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr,
                                 FLATTEN: tl.constexpr):
        """The tutorial's persistent matmul (09-persistent-matmul, the
        non-TMA form): NUM_SMS programs loop over the tiles in grouped order;
        FLATTEN asks Triton to pipeline across the tile boundary
        (tl.range(..., flatten=True), Triton >= 3.2). Whole tiles only."""
        start_pid = tl.program_id(axis=0)
        num_pid_m = tl.cdiv(M, BLOCK_M)
        num_pid_n = tl.cdiv(N, BLOCK_N)
        k_tiles = tl.cdiv(K, BLOCK_K)
        num_tiles = num_pid_m * num_pid_n
        num_pid_in_group = GROUP_M * num_pid_n
        for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=FLATTEN):
            group_id = tile_id // num_pid_in_group
            first_pid_m = group_id * GROUP_M
            group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
            pid_m = first_pid_m + (tile_id % group_size_m)
            pid_n = (tile_id % num_pid_in_group) // group_size_m
            offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for ki in range(k_tiles):
                offs_k = ki * BLOCK_K + tl.arange(0, BLOCK_K)
                a = tl.load(a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
                b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
                acc = tl.dot(a, b, acc)
            c_ptrs = c_ptr + stride_cm * offs_am[:, None] + stride_cn * offs_bn[None, :]
            tl.store(c_ptrs, acc)


CONFIGS = [dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, num_stages=4, num_warps=8),
           dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_stages=3, num_warps=4)]


def _cfg(m, n, k, stages, warps):
    return dict(BLOCK_M=m, BLOCK_N=n, BLOCK_K=k, GROUP_M=8, num_stages=stages, num_warps=warps)


# The Triton tutorial's get_cuda_autotune_config() list, then larger tiles
# for Hopper (BLOCK_K 64, 8 warps); CONFIGS are timed on their own above.
SWEEP = [_cfg(128, 256, 64, 3, 8), _cfg(64, 256, 32, 4, 4), _cfg(128, 128, 32, 4, 4),
         _cfg(128, 64, 32, 4, 4), _cfg(64, 128, 32, 4, 4), _cfg(128, 32, 32, 4, 4),
         _cfg(64, 32, 32, 5, 2), _cfg(32, 64, 32, 5, 2), _cfg(256, 128, 64, 3, 8),
         _cfg(128, 256, 64, 5, 8), _cfg(256, 128, 64, 4, 8), _cfg(128, 128, 64, 4, 4)]
# The tutorial's "good config for fp8 inputs" entries of get_cuda_autotune_config().
SWEEP_FP8 = [_cfg(128, 256, 128, 3, 8), _cfg(256, 128, 128, 3, 8), _cfg(256, 64, 128, 4, 4),
             _cfg(64, 256, 128, 4, 4), _cfg(128, 128, 128, 4, 4), _cfg(128, 64, 64, 4, 4),
             _cfg(64, 128, 64, 4, 4), _cfg(128, 32, 64, 4, 4)]
FP8_SCALE = (0.5, 0.25)  # SA, SB: pk-runner's default --scale


def cfg_name(cfg):
    return "%dx%dx%d s%d w%d" % (cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"],
                                 cfg["num_stages"], cfg["num_warps"])


def triton_mm(a, b, cfg):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, cfg["BLOCK_M"]) * triton.cdiv(N, cfg["BLOCK_N"]),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), **cfg)
    return c


def triton_mm_persistent(a, b, cfg, flatten):
    """The persistent Triton matmul on as many programs as SMs."""
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    tiles = triton.cdiv(M, cfg["BLOCK_M"]) * triton.cdiv(N, cfg["BLOCK_N"])
    matmul_persistent_kernel[(min(sms, tiles),)](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
        c.stride(1), NUM_SMS=sms, FLATTEN=flatten, **cfg)
    return c


# The persistent kernel's configurations: the tutorial's 128x256x64 with 3
# and 4 stages (the 4-stage one as CONFIGS[0]).
PERSISTENT = [_cfg(128, 256, 64, 3, 8), CONFIGS[0]]


def time_ms(fn, warmup, iters):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times), min(times)


def sweep(res, record, A, B, a5, b5, ref5, Ab, Bb, a5b, b5b, ref5b):
    """Triton's autotune over SWEEP on FP16 (each configuration a result):
    the fastest correct one is "triton best of N f16" with the sweep's own
    timing (as an autotuner would pick it; a second timing of the same
    configuration moves by several percent), then timed on BF16."""
    first = len(res["results"])
    for cfg in SWEEP + CONFIGS:
        record("triton sweep " + cfg_name(cfg), lambda cfg=cfg: triton_mm(A, B, cfg),
               lambda cfg=cfg: (triton_mm(a5, b5, cfg) - ref5).abs().max().item())
    runs = [(r, cfg) for r, cfg in zip(res["results"][first:], SWEEP + CONFIGS)
            if "tflops" in r and r.get("max_abs_err_512", 1.0) < 0.05]
    if not runs:
        return
    fastest, best = max(runs, key=lambda rc: rc[0]["tflops"])
    n = len(SWEEP + CONFIGS)
    res["results"].append(dict(fastest, name="triton best of %d f16 (%s)" % (n, cfg_name(best)),
                               timed=len(runs)))
    record("triton best of %d bf16 (%s)" % (n, cfg_name(best)), lambda: triton_mm(Ab, Bb, best),
           lambda: (triton_mm(a5b, b5b, best) - ref5b).abs().max().item())


def scaled_mm(a, b_nk, sa, sb, out_dtype, fast=False):
    """cuBLASLt's FP8 GEMM: a (M x K) times b_nk.t() (b_nk N x K row-major,
    so K x N column-major), per-tensor scales sa, sb (1-element float32)."""
    out = torch._scaled_mm(a, b_nk.t(), scale_a=sa, scale_b=sb, out_dtype=out_dtype,
                           use_fast_accum=fast)
    return out[0] if isinstance(out, tuple) else out  # torch < 2.4: (out, amax)


def fp8(res, record, m, n, k, dev, triton_sweep):
    """The FP8 entries (module docstring)."""
    e4, e5 = torch.float8_e4m3fn, torch.float8_e5m2
    res["fp8_scale"] = list(FP8_SCALE)
    sa, sb = (torch.tensor([x], device=dev, dtype=torch.float32) for x in FP8_SCALE)
    # randn fits both formats (e4m3fn max 448); the reference takes the fp8 values
    A = torch.randn(m, k, device=dev).to(e4)
    B = torch.randn(n, k, device=dev).to(e4)  # N x K row-major
    a5 = torch.randn(512, 512, device=dev).to(e4)
    b5 = torch.randn(512, 512, device=dev).to(e4)
    ref5 = a5.float() @ b5.float().t()
    s = FP8_SCALE[0] * FP8_SCALE[1]
    for od, od_name in ((torch.float32, "f32"), (torch.bfloat16, "bf16")):
        for fast in (False, True):
            record("cublaslt _scaled_mm e4m3 %s%s" % (od_name, " fast-accum" if fast else ""),
                   lambda od=od, fast=fast: scaled_mm(A, B, sa, sb, od, fast),
                   lambda od=od, fast=fast: (scaled_mm(a5, b5, sa, sb, od, fast).float()
                                             - s * ref5).abs().max().item())
    A_e5, a5_e5 = torch.randn(m, k, device=dev).to(e5), torch.randn(512, 512, device=dev).to(e5)
    ref5_e5 = a5_e5.float() @ b5.float().t()
    record("cublaslt _scaled_mm e5m2xe4m3 f32", lambda: scaled_mm(A_e5, B, sa, sb, torch.float32),
           lambda: (scaled_mm(a5_e5, b5, sa, sb, torch.float32) - s * ref5_e5).abs().max().item())
    if triton is None:
        return
    Bt, b5t = B.t(), b5.t()  # K x N column-major views, as the tutorial's FP8 path
    for cfg in CONFIGS:
        record("triton e4m3 " + cfg_name(cfg), lambda cfg=cfg: triton_mm(A, Bt, cfg),
               lambda cfg=cfg: (triton_mm(a5, b5t, cfg) - ref5).abs().max().item())
    if not triton_sweep:
        return
    first, cfgs = len(res["results"]), SWEEP_FP8 + CONFIGS
    for cfg in cfgs:
        record("triton sweep e4m3 " + cfg_name(cfg), lambda cfg=cfg: triton_mm(A, Bt, cfg),
               lambda cfg=cfg: (triton_mm(a5, b5t, cfg) - ref5).abs().max().item())
    runs = [(r, cfg) for r, cfg in zip(res["results"][first:], cfgs)
            if "tflops" in r and r.get("max_abs_err_512", 1.0) < 0.05]
    if runs:
        fastest, best = max(runs, key=lambda rc: rc[0]["tflops"])
        res["results"].append(dict(fastest, name="triton best of %d e4m3 (%s)" % (len(cfgs), cfg_name(best)),
                                   timed=len(runs)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--shape", default=None, help="M,N,K instead of --size (e.g. an LLM layer)")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--json", default=None)
    ap.add_argument("--no-triton-sweep", dest="triton_sweep", action="store_false",
                    help="time only the two fixed Triton configurations")
    ap.add_argument("--triton-persistent", action="store_true",
                    help="also time Triton's persistent matmul (PERSISTENT, flattened across "
                         "tiles and not) on f16 and bf16")
    ap.add_argument("--fp8", action="store_true",
                    help="also time the FP8 entries (cuBLASLt _scaled_mm, Triton e4m3) after the others")
    ap.add_argument("--fp8-only", action="store_true",
                    help="time only the FP8 entries (no f16 / bf16 ones)")
    a = ap.parse_args()
    torch.manual_seed(0)
    dev = torch.device("cuda")
    m, n, k = (int(x) for x in a.shape.split(",")) if a.shape else (a.size,) * 3
    res = dict(device=torch.cuda.get_device_name(0), torch=torch.__version__,
               triton=getattr(triton, "__version__", None),
               size=a.size if not a.shape else "%dx%dx%d" % (m, n, k), results=[])

    def record(name, fn, check_fn=None):
        r = dict(name=name)
        try:
            if check_fn:
                r["max_abs_err_512"] = check_fn()
            med, mn = time_ms(fn, a.warmup, a.iters)
            r.update(median_ms=med, min_ms=mn, tflops=2.0 * m * n * k / (med * 1e-3) / 1e12)
        except Exception as ex:  # keep the other results
            r["error"] = "%s: %s" % (type(ex).__name__, ex)
        res["results"].append(r)
        print("%-28s %s" % (name, ("%.3f ms  %.1f TFLOP/s" % (r["median_ms"], r["tflops"]))
                            if "tflops" in r else r.get("error")), flush=True)

    if not a.fp8_only:
        A = torch.randn(m, k, device=dev, dtype=torch.float16)
        B = torch.randn(k, n, device=dev, dtype=torch.float16)
        a5 = torch.randn(512, 512, device=dev, dtype=torch.float16)
        b5 = torch.randn(512, 512, device=dev, dtype=torch.float16)
        ref5 = a5.float() @ b5.float()
        record("cublas torch.matmul f16", lambda: torch.matmul(A, B),
               lambda: (torch.matmul(a5, b5).float() - ref5).abs().max().item())
        Ab, Bb = A.bfloat16(), B.bfloat16()
        a5b, b5b = a5.bfloat16(), b5.bfloat16()
        ref5b = a5b.float() @ b5b.float()
        record("cublas torch.matmul bf16", lambda: torch.matmul(Ab, Bb),
               lambda: (torch.matmul(a5b, b5b).float() - ref5b).abs().max().item())
        if triton is not None:
            for cfg in CONFIGS:
                record("triton " + cfg_name(cfg), lambda cfg=cfg: triton_mm(A, B, cfg),
                       lambda cfg=cfg: (triton_mm(a5, b5, cfg) - ref5).abs().max().item())
            if a.triton_persistent:
                for cfg in PERSISTENT:
                    for flatten in (True, False):
                        name = "triton persistent%s %s" % (" flat" if flatten else "", cfg_name(cfg))
                        for dt, X, Y, x5, y5, r5 in (("f16", A, B, a5, b5, ref5),
                                                     ("bf16", Ab, Bb, a5b, b5b, ref5b)):
                            record(name + " " + dt,
                                   lambda cfg=cfg, f=flatten, X=X, Y=Y: triton_mm_persistent(X, Y, cfg, f),
                                   lambda cfg=cfg, f=flatten, x5=x5, y5=y5, r5=r5:
                                   (triton_mm_persistent(x5, y5, cfg, f) - r5).abs().max().item())
            if a.triton_sweep:
                sweep(res, record, A, B, a5, b5, ref5, Ab, Bb, a5b, b5b, ref5b)
    if a.fp8 or a.fp8_only:
        try:
            fp8(res, record, m, n, k, dev, a.triton_sweep)
        except Exception as ex:  # e.g. a torch without float8 dtypes: recorded, not fatal
            res["results"].append(dict(name="fp8 setup", error="%s: %s" % (type(ex).__name__, ex)))
            print("fp8 setup: %s: %s" % (type(ex).__name__, ex), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
