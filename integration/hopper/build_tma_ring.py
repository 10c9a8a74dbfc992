#!/usr/bin/env python3
"""Build the GPU check of variant=tma (issue 14, item 3; docs/hopper.md "TMA
ring"): the TMA + mbarrier wgmma input kernel (examples/gen_gemm.py --mma
wgmma --copy tma, one warpgroup, 128x128x64) pipelined by pk into N stages
on a ring of N mbarriers, next to the same kernel unpipelined and to pk's
cp.async pipelining of the per-thread-copy kernel of the same tile. Same
bundle flow as build_tma.py (pk-artifacts/1 directory, prebuilt pk-runner,
run.sh, OUT/tma-ring.tar, its own copy of the runner tools).

    python3 integration/hopper/build_tma_ring.py [OUT] [--sizes "512 4096 8192"]   (default .gpu/tma-ring)

Entries (id stem: pk options; all TMA entries with the manifest's "tma"
list, pk-runner --tma A:64x128:128 --tma B:64x64:128):
  tma_base            unpipelined (pk-emit-binaries)
  tma_ring_s{3,4,5,6} variant=tma schedule=multistage stages=N
                      min-blocks-per-sm=1: tile t+N-1 issued while tile t
                      computes
  tma_mif_s{3,4,5}    variant=tma schedule=mma-in-flight: one wgmma group
                      in flight, tile t+N-2 issued
  tma_auto            stages=auto min-blocks-per-sm=auto (the model picks)
  tma_ring_rect_256   M 256, N 384, K 640 (10 tiles, full check), mif x4
  tma_ring_k128_256   M 256, N 256, K 128: 2 tiles, stages clamp to 2
  cpasync_mif_s4      the per-thread-copy wgmma kernel of the same tile,
                      variant=cp-async schedule=mma-in-flight stages=4
                      min-blocks-per-sm=1 (the control)
run.sh: the check entries (m < 4096) in full, the larger ones on 64 rows
with 5 warm-up and 20 timed launches, compute-sanitizer memcheck, racecheck
and synccheck on the 512^3 entries, then summary.py's table.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import build_hopper  # noqa: E402
import build_hopper2  # noqa: E402
import build_tma  # noqa: E402

TMA = build_tma.TMA
GEN_TMA = build_tma.GEN_TMA
MAPS = build_tma.MAPS
ONE = build_tma.ONE
PIPELINED = "remark: pipelined: variant tma, %d shared buffer"
# (id stem, kernel, generator arguments, pk options (None: unpipelined),
#  remark pk's log must hold, entry fields, shapes (None: the --sizes cubes))
KERNELS = (
    [("tma_base", TMA, GEN_TMA, None, "remark: ptxas", dict(MAPS, variant="tma-unpipelined"), None)]
    + [("tma_ring_s%d" % s, TMA, GEN_TMA, "variant=tma schedule=multistage stages=%d" % s + ONE,
        PIPELINED % s, dict(MAPS, variant="tma-s%d" % s), None) for s in (3, 4, 5, 6)]
    + [("tma_mif_s%d" % s, TMA, GEN_TMA, "variant=tma schedule=mma-in-flight stages=%d" % s + ONE,
        PIPELINED % s, dict(MAPS, variant="tma-mif-s%d" % s), None) for s in (3, 4, 5)]
    + [("tma_auto", TMA, GEN_TMA, "stages=auto min-blocks-per-sm=auto", "remark: pipelined: variant tma",
        dict(MAPS, variant="tma-auto"), None),
       ("tma_ring_rect", TMA, GEN_TMA, "variant=tma schedule=mma-in-flight stages=4" + ONE, PIPELINED % 4,
        dict(MAPS, variant="tma-mif-s4", check="full"), [(256, 384, 640)]),
       ("tma_ring_k128", TMA, GEN_TMA, "variant=tma stages=4" + ONE, PIPELINED % 2,
        dict(MAPS, variant="tma-s2", check="full"), [(256, 256, 128)]),
       ("cpasync_mif_s4", build_hopper.WGMMA, build_hopper2.GEN,
        "variant=cp-async schedule=mma-in-flight stages=4" + ONE,
        "remark: pipelined: variant cp-async, 4 shared buffer", dict(variant="cp-async-mif-s4"), None)]
)


if __name__ == "__main__":
    sys.exit(build_tma.bundle_main(__doc__, "tma-ring", KERNELS))
