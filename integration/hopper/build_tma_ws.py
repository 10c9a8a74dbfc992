#!/usr/bin/env python3
"""Build the GPU check of schedule=warp-specialized (issue 14, item 4;
docs/hopper.md "Warp specialization"): the TMA + mbarrier wgmma input kernel
(examples/gen_gemm.py --mma wgmma --copy tma, one warpgroup, 128x128x64)
split by pk into a producer warpgroup that issues the TMA loads and the
kernel's 128 threads as consumers (256 threads per block, PTX .reqntid),
handshaking on N full and N empty mbarriers; next to the same kernel
unpipelined and to pk's best TMA ring (mma-in-flight). Same bundle flow as
build_tma.py (pk-artifacts/1 directory, prebuilt pk-runner, run.sh,
OUT/tma-ws.tar, its own copy of the runner tools).

    python3 integration/hopper/build_tma_ws.py [OUT] [--sizes "512 4096 8192"]   (default .gpu/tma-ws)

Entries (id stem: pk options; all with pk-runner --tma A:64x128:128
--tma B:64x64:128):
  tma_base          unpipelined (pk-emit-binaries), 128 threads
  ws_s{2,3,4,5,6}   variant=tma schedule=warp-specialized stages=N
                    min-blocks-per-sm=1, 256 threads: the producer runs up
                    to N tiles ahead, the consumers keep one wgmma group in
                    flight
  ws_auto           schedule=warp-specialized stages=auto
                    min-blocks-per-sm=auto (the model picks N)
  ws_rect_256       M 256, N 384, K 640 (10 tiles, full check), N = 4
  ws_k128_256       M 256, N 256, K 128: 2 tiles, stages clamp to 2
  tma_mif_s3        the TMA ring, schedule=mma-in-flight stages=3 (the best
                    ring of 2026-12-01-h200-tma-ring), the control
Two consumer warpgroups (gen_gemm.py --copy tma --threads 256, tiles
128x128x64 and 128x256x64; stem tma2_128x<BN>_...):
  base              unpipelined, 256 threads
  ring_mif_s{3,4}   the TMA ring, schedule=mma-in-flight, 256 threads
  ws_s{3,4[,5]}     schedule=warp-specialized, 384 threads (x5: 128x128
                    only; 5 x 48 KB of 128x256 exceeds 227 KB)
  cpasync_mif_s4    pk's cp.async pipelining of the per-thread-copy kernel
                    of the same tile (build_hopper_2wg.py's best), 256
                    threads
run.sh: as build_tma_ring.py's (build_tma.sized_run_script).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import build_hopper_2wg  # noqa: E402
import build_tma  # noqa: E402

TMA, GEN_TMA, MAPS, ONE = build_tma.TMA, build_tma.GEN_TMA, build_tma.MAPS, build_tma.ONE
WS = dict(MAPS, threads=256)
PIPELINED = "remark: pipelined: variant tma, %d shared buffer(s), schedule warp-specialized"
GROWN = "the block grows from 128 to 256 threads"
# (id stem, kernel, generator arguments, pk options (None: unpipelined),
#  remark pk's log must hold, entry fields, shapes (None: the --sizes cubes))
KERNELS = (
    [("tma_base", TMA, GEN_TMA, None, "remark: ptxas", dict(MAPS, variant="tma-unpipelined"), None)]
    + [("ws_s%d" % s, TMA, GEN_TMA, "variant=tma schedule=warp-specialized stages=%d" % s + ONE,
        PIPELINED % s, dict(WS, variant="ws-s%d" % s), None) for s in (2, 3, 4, 5, 6)]
    + [("ws_auto", TMA, GEN_TMA, "schedule=warp-specialized stages=auto min-blocks-per-sm=auto", GROWN,
        dict(WS, variant="ws-auto"), None),
       ("ws_rect", TMA, GEN_TMA, "variant=tma schedule=warp-specialized stages=4" + ONE, PIPELINED % 4,
        dict(WS, variant="ws-s4", check="full"), [(256, 384, 640)]),
       ("ws_k128", TMA, GEN_TMA, "variant=tma schedule=warp-specialized stages=4" + ONE, PIPELINED % 2,
        dict(WS, variant="ws-s2", check="full"), [(256, 256, 128)]),
       ("tma_mif_s3", TMA, GEN_TMA, "variant=tma schedule=mma-in-flight stages=3" + ONE,
        "remark: pipelined: variant tma, 3 shared buffer", dict(MAPS, variant="tma-mif-s3"), None)]
)




def two_warpgroups():
    """The entries of the two-warpgroup TMA kernels (KERNELS' form)."""
    out = []
    for bn in (128, 256):
        kernel = "hgemm_wgmma_tma_f16_128x%dx64" % bn
        gen = GEN_TMA + ["--threads", "256", "--BN", str(bn)]
        tile = dict(MAPS, bm=128, bn=bn)
        ring = dict(tile, threads=256)
        ws = dict(tile, threads=384)
        stem = "tma2_128x%d_" % bn
        out.append((stem + "base", kernel, gen, None, "remark: ptxas", dict(ring, variant="tma-unpipelined"), None))
        for s in (3, 4):
            out.append((stem + "ring_mif_s%d" % s, kernel, gen,
                        "variant=tma schedule=mma-in-flight stages=%d" % s + ONE,
                        "remark: pipelined: variant tma, %d shared buffer" % s,
                        dict(ring, variant="tma-mif-s%d" % s), None))
        for s in ((3, 4, 5) if bn == 128 else (3, 4)):
            out.append((stem + "ws_s%d" % s, kernel, gen,
                        "variant=tma schedule=warp-specialized stages=%d" % s + ONE, PIPELINED % s,
                        dict(ws, variant="ws-s%d" % s), None))
        out.append(("wgmma2_128x%d_cpasync_mif_s4" % bn, "hgemm_wgmma_f16_128x%dx64" % bn,
                    build_hopper_2wg.GEN + ["--BN", str(bn)],
                    "variant=cp-async schedule=mma-in-flight stages=4" + ONE,
                    "remark: pipelined: variant cp-async, 4 shared buffer",
                    dict(threads=256, bm=128, bn=bn, variant="cp-async-mif-s4"), None))
    return out


KERNELS += two_warpgroups()


if __name__ == "__main__":
    sys.exit(build_tma.bundle_main(__doc__, "tma-ws", KERNELS))
