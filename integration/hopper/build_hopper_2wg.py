#!/usr/bin/env python3
"""Build the GPU check of the two-warpgroup wgmma kernels (issue 14;
docs/hopper.md "Two consumer warpgroups"): examples/gen_gemm.py --mma wgmma
--threads 256, tiles 128x128x64 and 128x256x64 (warpgroup w computes rows
64w..64w+63 of the block, its own fragment epilogue), unpipelined and
pipelined by pk, lowered by pk's own emission for sm_90a. Same bundle flow
as build_hopper2.py (pk-artifacts/1 directory, prebuilt pk-runner, run.sh,
OUT/<name>.tar).

    python3 integration/hopper/build_hopper_2wg.py [OUT] [--first] [--sizes "512 4096 8192"]

OUT defaults to .gpu/hopper-2wg. --first builds the first bundle only
(unpipelined kernels, cp-async x3); the default builds every entry.

Entries (id stem: tile, pk options; what a PASS shows):
  wgmma2_128x{128,256}_baseline  unpipelined (pk-emit-binaries): the sA
                     subview per warpgroup and the fragment epilogue
  wgmma2_128x{128,256}_cp-async-s{2,3,4}  cp.async, N stages, the
                     multistage order (schedule=multistage: with auto the
                     rule mma-in-flight picks the other order for 128x256
                     x4, as it did in the run of
                     integration/results/2026-12-01-h200-wgmma-final/): every
                     warpgroup's descriptor on its stage (128x256 x4 is
                     192 KB, one block per SM)
  wgmma2_128x{128,256}_auto  stages=auto min-blocks-per-sm=auto
  wgmma2_128x128_mif-s{3,4,5}, wgmma2_128x256_mif-s{3,4}
                     schedule=mma-in-flight (one wgmma group in flight;
                     both warpgroups' wait_group 1 precede the barrier
                     before a refill)
(48 entries at 512, 4096 and 8192: the H200 run of
integration/results/2026-12-01-h200-wgmma-2wg/, all correct)
  wgmma_cp-async-s3  the one-warpgroup 128x128x64 kernel, cp.async x3
                     (567 TFLOP/s on the H200 before): the reference

run.sh (build_hopper2.run_script; repo root of the GPU machine): 512^3
fully checked, the larger sizes 64-row checked and timed (5 warm-up, 20
timed), cuBLAS and Triton timed at each larger size, then compute-sanitizer
memcheck, racecheck and synccheck on the 512^3 two-warpgroup entries
(SAN_WHERE=filter overrides; all end by 560 s);
summary.py prints one row per entry (check status PASS/FAIL, TFLOP/s).
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import pkint  # noqa: E402
import build_hopper2  # noqa: E402

GEN = ["--kind", "hgemm", "--mma", "wgmma", "--threads", "256"]
STAGES = (2, 3, 4)


def kernels(first):
    """build_hopper2.KERNELS' form: (id stem, kernel, generator arguments,
    pk options, expected remark, entry fields)."""
    out = []
    for bn in (128, 256):
        kernel = "hgemm_wgmma_f16_128x%dx64" % bn
        gen = GEN + ["--BN", str(bn)]
        tile = dict(threads=256, bm=128, bn=bn)
        stem = "wgmma2_128x%d" % bn
        out.append((stem + "_baseline", kernel, gen, None, "remark: ptxas", dict(tile, variant="baseline")))
        for s in STAGES:
            if first and s != 3:
                continue
            # above half of sm_90a's 227 KB per SM only one block is resident
            one = s * (128 + bn) * 128 > 227 * 1024 // 2
            opts = "variant=cp-async schedule=multistage stages=%d" % s + (" min-blocks-per-sm=1" if one else "")
            out.append(("%s_cp-async-s%d" % (stem, s), kernel, gen, opts,
                        "pipelined: variant cp-async, %d shared buffer" % s, dict(tile, variant="cp-async-s%d" % s)))
        if not first:
            out.append((stem + "_auto", kernel, gen, "stages=auto min-blocks-per-sm=auto",
                        "pipelined: variant cp-async", dict(tile, variant="auto")))
        # one wgmma group in flight (faster at one block per SM; 128x256 has one);
        # x5 of 128x128 is 160 KB, x5 of 128x256 would be 240 KB > 227 KB
        for s in ((3, 4, 5) if bn == 128 else (3, 4)) if not first else ():
            out.append(("%s_mif-s%d" % (stem, s), kernel, gen,
                        "variant=cp-async schedule=mma-in-flight stages=%d min-blocks-per-sm=1" % s,
                        "pipelined: variant cp-async, %d shared buffer" % s, dict(tile, variant="mma-in-flight-s%d" % s)))
    out.append(("wgmma_cp-async-s3", build_hopper2.WGMMA, build_hopper2.GEN, "variant=cp-async stages=3",
                "pipelined: variant cp-async, 3 shared buffer", dict(variant="cp-async-s3")))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=os.path.join(pkint.ROOT, ".gpu", "hopper-2wg"))
    ap.add_argument("--sizes", default="512 4096 8192", help="512 (the checked size) and larger")
    ap.add_argument("--first", action="store_true", help="unpipelined and cp-async x3 only")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split()]
    try:
        return build_hopper2.build_bundle(a.out, sizes, kernels(a.first), "integration/hopper/build_hopper_2wg.py",
                                          "hopper-2wg", san_where="id~^wgmma2_")
    except (pkint.BuildError, subprocess.CalledProcessError) as ex:
        print("build_hopper_2wg: %s" % ex, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
