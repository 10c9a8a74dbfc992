#!/usr/bin/env python3
"""Generate unpipelined tiled GEMM kernels (HGEMM / IGEMM / SGEMM) in MLIR.

Output: `module attributes {gpu.container_module}` holding one `gpu.module`
with one `gpu.func ... kernel` (static shapes, no host code).

Layout ("TN")
-------------
  A : memref<MxKxT>     row-major, K contiguous
  B : memref<NxKxT>     row-major, K contiguous (i.e. B^T of a KxN matrix)
  C : memref<MxNxTacc>  row-major
  C[m][n] = sum_k A[m][k] * B[n][k]
  Grid = (N/BN, M/BM, 1): block_id.x selects the BN column tile, block_id.y the
  BM row tile.  Block = (threads, 1, 1).  bm = block_id.y*BM, bn = block_id.x*BN.

Loop form (the "input contract")
--------------------------------
  %acc:n = scf.for %k = 0 to K step BK iter_args(accumulators) {
    a. load phase : 16-byte `vector.load` from A/B (global), stored into the
                    shared tiles (`vector.store`, or scalar `memref.store`
                    of the transposed tile for SGEMM).  All global loads of a
                    thread are issued before its shared stores.
    b. gpu.barrier
    c. compute    : nested `scf.for` (constant bounds) over the k-steps of the
                    tile, reading shared memory only (nvgpu.ldmatrix /
                    vector.load) and computing (nvgpu.mma.sync / vector.fma).
    d. gpu.barrier
    e. scf.yield accumulators
  }
  epilogue: accumulators -> C.

Partial K (K not a multiple of BK)
----------------------------------
  M and N must be multiples of BM and BN; K need not be a multiple of BK.
  Then the K-loop runs ceil(K/BK) tiles (scf.for %k = 0 to ceil(K/BK)*BK
  step BK) and every global read of the load phase is a 1-D zero-padded
  read along K instead of the vector.load:
     %ga = vector.transfer_read %A[%row, %k_col], %kpad {in_bounds = [false]}
           : memref<MxKxT>, vector<VECxT>            (%kpad = 0 of type T)
  so elements at k >= K read as 0 in both A and B and add nothing to C
  (rows are always in bounds). pk turns such a read into cp.async with a
  source size (zero fill) when a 16-, 8- or 4-byte width is provable (K*bytes
  a multiple of 16 for the 16-byte copies, e.g. HGEMM K = 40 or 4000), else
  (e.g. HGEMM K = 33: 66-byte rows) pk's variant=auto keeps the masked reads
  (ldg-register). With K % BK == 0 the output is exactly as before.

Sweep forms (mma.sync; every default output is unchanged without them)
-----------------------------------------------------------------------
  All row-major and contiguous; "acc" is f32 (hgemm, bgemm) or i32 (igemm);
  grid (N/BN, M/BM, Z), block (threads, 1, 1); kernel parameters are bare
  device pointers A, B, C (and Kn) in this order.
  --batch NB (hgemm, bgemm, igemm): A memref<NBxMxK>, B memref<NBxNxK>,
    C memref<NBxMxNxacc>; Z = NB, batch b = block_id.z:
    C[b][m][n] = sum_k A[b][m][k] * B[b][n][k].  Every index of A, B, C
    gets b in front (3-D memrefs, no subviews); also with --b-int8 / --b-int4
    (B NBxNxK i8 / NBxNxK/2 i8), --dynamic-k and a partial K.
  --split-k S (hgemm, bgemm, igemm; K a multiple of S*BK): Z = S, slice
    z = block_id.z covers k in [z*K/S, (z+1)*K/S); C is the partial-sum
    buffer memref<SxMxNxacc>, C[z][m][n] = sum over that slice of
    A[m][k] * B[n][k]; no atomics (deterministic), every element written;
    the caller adds the S slices.  --split-k-loop offset (default):
    scf.for %k = 0 to K/S step BK, global column %k + z*K/S + chunk (a
    constant trip count for pk); bounds: scf.for %k = z*K/S to z*K/S + K/S
    (dynamic bounds whose difference is a constant: pk proves the trip
    count static as well, docs/input-contract.md).
  --b-int4 (hgemm, bgemm): weight-only int4. B memref<NxK/2xi8>; byte
    B[n][j] = (q[n][2j] & 0xF) | (q[n][2j+1] << 4), q in [-8, 7] two's
    complement (low nibble = even k, high nibble = odd k). Load phase per
    16-byte f16 chunk (8 k values at k0, k0 % 8 == 0): vector.load of
    vector<4xi8> at B[n][k0/2] (4-byte aligned), lo = shrsi(shli(p, 4), 4),
    hi = shrsi(p, 4), vector.shuffle lo, hi [0, 4, 1, 5, 2, 6, 3, 7] (k
    order), arith.sitofp to vector<8xT> (exact), one 16-byte vector.store
    into sB; as --b-int8 the B copy keeps the register path in pk's per-copy
    variants, A becomes cp.async. C[m][n] = sum_k A[m][k] * q[n][k].
  --conv H W --filter 1 (hgemm, bgemm): 1x1 convolution, stride 1, no
    padding: A the NHWC input memref<(M/(H*W))xHxWxC>, K = C, row m = pixel
    (m/(H*W), (m%(H*W))/W, m%W) (computed before the K-loop), one 16-byte
    vector.load per chunk (cp.async for pk; no mask: M is a multiple of BM,
    so no tile row lies past the input); B the filter memref<NxC>, C
    memref<MxN> (NHWC output). The same numbers as the plain GEMM on A
    viewed as M x C.  --filter 3 (default) is the 3x3 form above.
  --dynamic-k (hgemm, bgemm, igemm; K, the maximum, a multiple of BK): a 4th
    parameter %Kn : memref<1xi32> (pointer to one int32 k_rt); before the
    loop k_ub = min(max(k_rt, 0), K) - (that % BK); scf.for %k = 0 to k_ub
    step BK; C[m][n] = sum_{k < k_ub} A[m][k] * B[n][k] (0 when k_ub = 0;
    every element written). pk versions the loop: the pipelined copy runs
    when the trip count is at least the stage count, the original loop
    otherwise.
  Not combined: --batch with --split-k (both use block_id.z); --conv with
  --batch, --split-k or --dynamic-k; --dynamic-k with --split-k; --b-int4
  with --b-int8; wgmma or sgemm kernels.

Notation: tid = thread_id.x, lane = tid % 32, warp = tid / 32,
g = lane / 4 ("groupID"), t = lane % 4 ("threadID_in_group").

Global -> shared copy (HGEMM / IGEMM)
-------------------------------------
  VEC = 16 / sizeof(T) elements per 16-byte vector, CH = BK / VEC chunks per
  tile row (4 for both defaults: 64-byte tile rows).
  --copy-map row (default): vector v = tid + i*threads goes to tile row v/CH,
  chunk v%CH, i.e. CH consecutive threads copy one tile row:
     row = tid/CH + i*(threads/CH),  col = (tid%CH)*VEC.
  A quarter warp (8 threads, the unit in which a 16-byte-per-thread access is
  processed) reads 2 rows x 64 contiguous bytes = 4 full 32-byte sectors of
  2 lines.
  --copy-map col8 (before 2026-11-29): vector v goes to row (v/8/CH)*8 + v%8,
  chunk (v/8)%CH: 8 consecutive threads copy the same 16-byte chunk of 8 rows.
  Per warp that is the same 8 rows x 64 bytes, but each quarter warp touches
  8 lines with 16 bytes (half a sector) each, so if the load unit serves a
  16-byte access per quarter warp it handles 4x the lines and 2x the sector
  requests per warp instruction (the likely mechanism; the timing is
  measured, the mechanism is inferred). On an H200 the col8 HGEMM ran
  the unpipelined kernel at 142 TFLOP/s against 200 for the row mapping with
  everything else equal (integration/results/2026-11-29-h200-hgemm-tuning/),
  and LDG-register prefetch gained only 1.05x (the loads, not their latency,
  were the bottleneck).

Shared layout: XOR swizzle (default) or padding
-----------------------------------------------
  --layout swizzle (default): unpadded tiles sA[BM][BK], sB[BN][BK]
  (HGEMM 128x32xf16, IGEMM 128x64xi8: 64-byte rows, 8192 bytes per tile).
  16-byte chunk c of row r is stored at chunk  c ^ f(r),
  f(r) = (r / q) % CH,  q = 8 / CH rows per 128 bytes (CH = 4: f = (r/2)%4).
  * Stores (row map): a quarter warp writes 2 consecutive rows = 128
    contiguous bytes (any chunk permutation within a row): 32 distinct banks.
  * ldmatrix: one 8x8 matrix reads rows r0..r0+7 (r0 % 8 == 0) at the same
    logical chunk c; even rows start at bank 0, odd rows at bank 16, and
    c ^ f(r) takes 4 distinct values over the 4 even (and the 4 odd) rows:
    32 distinct banks.
  * f depends only on row bits below 8 (CH = 4: bits 1-2); warp and fragment
    row offsets are multiples of 8, so f is lane-only: f_A = f(l%16),
    f_B = f(l%8), and the ldmatrix k-chunk of k-step ks is
    (ks/VEC + half) ^ f (half = l/16 for A, (l/8)%2 for B), loop-invariant.
  --layout pad (before 2026-11-29): sA[BM][BK+pad] (default pad = 16 bytes,
  80-byte rows): rows r=0..7 start at banks 20r mod 32 = {0,20,8,28,16,4,24,12},
  conflict-free for ldmatrix and for col8 stores, but with the row map a
  quarter warp's second row wraps onto the first row's banks 0-3 (2-way
  conflict on one of four chunks). Measured on the H200 (row map): swizzle
  235 / cp-async 302 TFLOP/s against pad 200 / 263.
  SGEMM tiles sA[BK][BM+4] f32, sB[BK][BN+4] f32 (transposed, [8][132]).
  Transposed scalar stores: thread stores sA[kc+j][row] with row = tid/2
  (16 rows per warp), kc = 4*(tid%2): bank = (4*(kc+j) + row) mod 32 -> even
  threads banks 4j+0..15, odd threads 4j+16..31: conflict-free.

Kernel attributes (HGEMM / IGEMM defaults)
------------------------------------------
  * A, B {llvm.noalias, llvm.readonly}, C {llvm.noalias}
    (--no-readonly-inputs drops them): the global loads of A and B become
    ld.global.nc (LDG.E.128.CONSTANT).
  * nvvm.minctasm = 2 (--min-blocks): PTX .minnctapersm 2, so ptxas keeps the
    kernel at <= 128 registers = 2 blocks of 256 threads per SM (without it
    the read-only kernel took 136 registers, 1 block/SM).
  * The K-loop carries loop_annotation<unroll = <disable = true>>
    (--outer-unroll drops it). Left alone, LLVM unrolls the K-loop 4x and
    ptxas then moves half of a tile's mma.sync below the trailing barrier and
    (with ld.global.nc) the next tiles' loads above the current compute, i.e.
    it partly software-pipelines the "unpipelined" kernel (H200: 235-258
    TFLOP/s instead of 215). The annotation keeps the unpipelined SASS in the
    input contract's load-barrier-compute-barrier form, like the hand-written
    reference integration/reference/hgemm_wmma_ref.cu; pk's pipelined loops
    are rebuilt without it.

MMA fragments (PTX ISA "Matrix Fragments for mma.m16n8k16" (f16) and
"mma.m16n8k32" (s8)); KS = mma K (16 f16 / 32 i8), h = KS/2 (8 / 16
elements = 16 bytes).
  nvgpu.mma.sync A operand vector<4 x E x T>: row r of the vector is PTX
  register a_r (E = 2 f16 or 4 i8 packed in 32 bits):
     reg0 = A[g  ][t*E .. +E)       reg1 = A[g+8][t*E .. +E)
     reg2 = A[g  ][h + t*E .. +E)   reg3 = A[g+8][h + t*E .. +E)
  B operand vector<2 x E x T> (B given as [n][k]):
     reg0 = B[n=g][k = t*E .. +E)   reg1 = B[n=g][k = h + t*E .. +E)
  C/D vector<2x2xTacc>:
     row0 = C[g  ][2t, 2t+1]        row1 = C[g+8][2t, 2t+1]
  ldmatrix (.m8n8.b16, non-transposed, numTiles=x): matrix j's 8 row
  addresses come from lanes 8j..8j+7; lane l receives in result row j the
  32 bits at (row l/4, bytes 4*(l%4)..+3) of matrix j, i.e. exactly the
  E elements at [g][t*E..] of an 8 x h tile.  Hence:
  * A, x4, per 16-row m-tile: matrices (rows 0-7,k 0..h), (rows 8-15,k 0..h),
    (rows 0-7,k h..2h), (rows 8-15,k h..2h)  ==  reg0..reg3 above.
    Lane l addresses  sA[wm + mi*16 + l%16][ks + (l/16)*h].
  * B, x4, per pair of 8-col n-tiles (2p, 2p+1): matrices (n 0-7,k 0..h),
    (n 0-7,k h..2h), (n 8-15,k 0..h), (n 8-15,k h..2h).
    Lane l addresses  sB[wn + p*16 + l%8 + 8*(l/16)][ks + ((l/8)%2)*h];
    result rows {0,1} = B fragment of n-tile 2p, rows {2,3} = n-tile 2p+1
    (split with an n-D vector.shuffle on the leading dimension).
  i8 works with the b16 ldmatrix because both operands are K-contiguous:
  a 16-byte ldmatrix row is 16 consecutive k values, and the 4 bytes lane l
  receives are k = 4t..4t+3, which is the s8 fragment layout.
  Warp tiling (defaults, 8 warps): warp grid WARPS_M x WARPS_N = 2 x 4,
  warp_m = warp / WARPS_N, warp_n = warp % WARPS_N; warp tile 64 x 32 =
  4 m16-tiles x 4 n8-tiles = 16 mma per k-step per warp.
  Epilogue: for (mi, ni): row = bm + wm + mi*16 + g, col = bn + wn + ni*8 + 2t;
  acc row0 -> C[row][col..col+1], acc row1 -> C[row+8][col..col+1]
  (vector<2xTacc> stores).

SGEMM (FMA) mapping
-------------------
  Threads form a (BM/8) x (BN/8) = 16 x 16 grid; inside a warp lanes are
  4 (m) x 8 (n): lane_m = lane/8, lane_n = lane%8; warps are
  (BM/32) x (BN/64): warp_m = warp / (BN/64), warp_n = warp % (BN/64);
  tm = warp_m*4 + lane_m, tn = warp_n*8 + lane_n.
  Thread computes rows {tm*4+i, BM/2+tm*4+i} (i<4) x cols {tn*4+j,
  BN/2+tn*4+j}: per k it reads 4 float4 from shared (sA[k][tm*4],
  sA[k][BM/2+tm*4], sB[k][tn*4], sB[k][BN/2+tn*4]); per warp each read is
  4 resp. 8 distinct contiguous float4 = one wavefront, no conflicts.
  Accumulator acc[2*i+h] (vector<4xf32>) holds row i (i<4: tm*4+i, else
  BM/2+tm*4+i-4), columns h*BN/2 + tn*4 .. +4; 64 FMAs per thread per k
  as 16 vector.fma on vector<4xf32>.
  Global -> shared: vector v = tid + i*threads loads A[bm + v/(BK/4)]
  [k + 4*(v%(BK/4))] as vector<4xf32> and stores its 4 elements transposed.

Lowering (tested with LLVM/MLIR 22 + CUDA 13 ptxas, sm_86 and sm_90)
-------------------------------------------------------------------
  mlir-opt K.mlir --pass-pipeline='builtin.module(
      nvvm-attach-target{chip=sm_90 features=+ptx80 O=3},
      gpu.module(convert-nvgpu-to-nvvm, expand-strided-metadata, lower-affine,
                 convert-scf-to-cf,
                 convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},
                 canonicalize, cse, reconcile-unrealized-casts),
      gpu-module-to-binary{format=isa|bin toolkit=/usr/local/cuda})'
  Kernel parameters are three bare pointers (A, B, C).  Partial-K kernels
  (and pk's register variants of them, which keep the masked reads) need
  `convert-vector-to-llvm, convert-arith-to-llvm` after convert-gpu-to-nvvm:
  MLIR 22's convert-gpu-to-nvvm does not lower vector.transfer_read (nor does
  pk-emit-binaries; integration/test/gen/check_partial_k.py).  Notes:
  * `{alignment = 16 : i64}` on vector.load/store is needed for
    ld.global.v4 / st.shared.v4 (otherwise the element alignment is used);
    the workgroup buffers carry `{llvm.align = 16 : i64}` (attribution) or
    `{alignment = 16 : i64}` (memref.global), else PTX gets `.align 1`.
  * n-D `vector.extract_strided_slice` is not lowered by this pipeline, so
    the B x4 fragment is split with n-D `vector.shuffle`.
  * The inner compute scf.for carries
    `{loop_annotation = #llvm.loop_annotation<unroll = <full = true>>}`
    (convert-scf-to-cf forwards it to the back edge): without it LLVM keeps
    the 2-iteration HGEMM/IGEMM k-step loop rolled.  --no-unroll-hint drops it.
  * IGEMM: nvgpu lowers i8 mma.sync to `...m16n8k32.row.col.satfinite.s32.s8
    .s8.s32` (saturating on i32 overflow; same result as wrapping otherwise).

Code
----
  This file is the command line (argument parsing, option checks, main); the
  generators live in the package examples/gemmgen/: common.py (KINDS, the
  emitter, memref types, global reads, sweep-form checks, write_output),
  tiled.py (gen: the mma.sync / SGEMM kernels), mma.py (gen_mma), sgemm.py
  (gen_sgemm), wgmma.py (gen_wgmma, WGMMA_NOTES, descriptors, epilogues) and
  wgmma_tma.py (gen_wgmma_tma, WGMMA_TMA_NOTES, PERSISTENT_NOTES). The names
  other scripts use (gen_wgmma_fp8.py, gen_attention.py, gen_gemv.py) are
  re-exported here.
"""

import argparse
import os
import sys

# The gemmgen package (and gen_cluster.py, gen_tma_store.py,
# gen_wgmma_fp8.py) lie next to this file: importable however it is run or
# imported.
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from gemmgen.common import (KINDS, SMEM, Emitter, check_sweep_forms, global_read,  # noqa: E402
                            im2col_read, memref, outer_attr, sweep_notes, unroll_attr, write_output)
from gemmgen.mma import gen_mma  # noqa: E402
from gemmgen.sgemm import gen_sgemm  # noqa: E402
from gemmgen.tiled import gen  # noqa: E402
from gemmgen.wgmma import (WGMMA_DESC_FIELDS, WGMMA_NOTES, as_bf16_wgmma, gen_wgmma,  # noqa: E402
                           wgmma_epilogue, wgmma_fragment_epilogue, wgmma_manual_descriptors,
                           wgmma_types)
from gemmgen.wgmma_tma import (PERSISTENT_NOTES, WGMMA_TMA_NOTES, gen_wgmma_tma,  # noqa: E402
                               persistent_tile_loop, tma_kernel_module, tma_mbarrier_init)

# What this module offered before the generators moved to gemmgen/ (e.g.
# gen_wgmma_fp8.py's `import gen_gemm as g`, gen_attention.py's Emitter).
__all__ = [
    "KINDS", "SMEM", "Emitter", "check_sweep_forms", "global_read", "im2col_read", "memref",
    "outer_attr", "sweep_notes", "unroll_attr", "write_output", "gen_mma", "gen_sgemm", "gen",
    "WGMMA_DESC_FIELDS", "WGMMA_NOTES", "as_bf16_wgmma", "gen_wgmma", "wgmma_epilogue",
    "wgmma_fragment_epilogue", "wgmma_manual_descriptors", "wgmma_types", "PERSISTENT_NOTES",
    "WGMMA_TMA_NOTES", "gen_wgmma_tma", "persistent_tile_loop", "tma_kernel_module",
    "tma_mbarrier_init", "main",
]


def _add_shape_args(p):
    """--kind, the problem and tile sizes, threads and padding."""
    p.add_argument("--kind", choices=sorted(KINDS), required=True,
                   help="hgemm: f16 mma.sync m16n8k16 f32-acc; bgemm: the same with bf16 "
                        "operands; igemm: i8 mma.sync "
                        "m16n8k32 i32-acc; sgemm: f32 FMA; e4m3gemm / e5m2gemm: fp8 wgmma "
                        "m64nNk32 f32-acc with per-tensor scales (--mma wgmma --copy tma "
                        "--threads 256; examples/gen_wgmma_fp8.py)")
    p.add_argument("--M", type=int, default=4096)
    p.add_argument("--N", type=int, default=4096)
    p.add_argument("--K", type=int, default=4096)
    p.add_argument("--BM", type=int, default=128)
    p.add_argument("--BN", type=int, default=128)
    p.add_argument("--BK", type=int, default=None,
                   help="default: 32 (hgemm), 64 (igemm), 8 (sgemm)")
    p.add_argument("--threads", type=int, default=None,
                   help="threads per block (default: 256; with --mma wgmma 128 = one warpgroup, the default, or 256 = two)")
    p.add_argument("--warps-m", type=int, default=None,
                   help="mma kernels: warps along M (default 2)")
    p.add_argument("--pad", type=int, default=None,
                   help="shared row padding in elements with --layout pad (default: 16 "
                        "bytes for mma kernels, 4 floats for sgemm)")


def _add_sweep_args(p):
    """The sweep forms (the docstring's "Sweep forms"): quantized B, convolution,
    batch, split-K, dynamic K."""
    p.add_argument("--b-int8", action="store_true",
                   help="hgemm / bgemm: B is int8 in global memory (weight-only "
                        "quantization), converted to the operand type in the load "
                        "phase (8-byte loads + arith.sitofp + 16-byte shared stores)")
    p.add_argument("--conv", type=int, nargs=2, metavar=("H", "W"), default=None,
                   help="hgemm / bgemm: an implicit-GEMM 3x3 convolution (stride 1, "
                        "padding 1): A is the NHWC input, images x H x W x C with M = "
                        "images*H*W and K = 9*C, read through a masked im2col "
                        "vector.transfer_read (zero outside the image); B is the filter, "
                        "N x (3x3xC)")
    p.add_argument("--filter", type=int, choices=[1, 3], default=3,
                   help="--conv: the filter size. 3: the 3x3 convolution above. 1: a 1x1 "
                        "convolution (stride 1, no padding): A is the NHWC input memref<images x "
                        "H x W x C> with M = images*H*W, K = C (a multiple of 16/elem bytes), "
                        "row m of the implicit GEMM = input pixel (m / (H*W), (m %% (H*W)) / W, "
                        "m %% W), read with a plain 16-byte vector.load (no mask: M is a multiple "
                        "of BM, so no row lies past the input); B is the filter memref<N x C>, "
                        "C the output memref<M x N x f32> (the NHWC output images x H x W x N). "
                        "Torch: C = x.reshape(M, C).float() @ w.reshape(N, C).float().T")
    p.add_argument("--batch", type=int, default=None, metavar="NB",
                   help="mma.sync hgemm/bgemm/igemm: batched GEMM. A memref<NB x M x K>, B "
                        "memref<NB x N x K> (with --b-int8 NB x N x K i8, with --b-int4 NB x N x "
                        "K/2 i8), C memref<NB x M x N x acc>, all row-major contiguous; grid "
                        "(N/BN, M/BM, NB), batch b = block_id z: C[b][m][n] = sum_k A[b][m][k] * "
                        "B[b][n][k] (torch: C = torch.bmm(A.float(), B.float().transpose(1, 2)); "
                        "igemm: i32 C, exact integer sums)")
    p.add_argument("--split-k", type=int, default=None, metavar="S",
                   help="mma.sync hgemm/bgemm/igemm: split-K GEMM with a partial-sum buffer "
                        "(deterministic, no atomics). K must be a multiple of S*BK; A M x K, B "
                        "N x K as usual, C memref<S x M x N x acc> (f32, i32 for igemm); grid "
                        "(N/BN, M/BM, S), slice z = block_id z: C[z][m][n] = sum over k in "
                        "[z*K/S, (z+1)*K/S) of A[m][k] * B[n][k]; the final C = sum_z C[z] is the "
                        "caller's (torch: P = torch.stack([A[:, z*K//S:(z+1)*K//S].float() @ "
                        "B[:, z*K//S:(z+1)*K//S].float().T for z in range(S))). Every element of "
                        "the buffer is written")
    p.add_argument("--split-k-loop", choices=["offset", "bounds"], default="offset",
                   help="--split-k: the K-loop's form. offset: scf.for %%k = 0 to K/S step BK, "
                        "the slice offset z*K/S added to the global column; bounds: scf.for %%k = "
                        "z*K/S to z*K/S + K/S step BK (the same trip count, dynamic bounds)")
    p.add_argument("--b-int4", action="store_true",
                   help="hgemm / bgemm: weight-only int4 B, packed two per byte: B is memref<N x "
                        "K/2 x i8> (row-major), byte B[n][j] holds k = 2j in its low nibble (bits "
                        "0-3) and k = 2j+1 in its high nibble (bits 4-7), each a two's-complement "
                        "int4 in [-8, 7]; no scale. The load phase loads 4 bytes (8 k values), "
                        "sign-extends the nibbles (arith.shli / arith.shrsi by 4 on vector<4xi8>), "
                        "interleaves them back into k order, converts them exactly with "
                        "arith.sitofp and stores 16 bytes to shared memory. C[m][n] = sum_k A[m][k] "
                        "* q[n][k]. Torch, q int8 N x K in [-8, 7]: B = ((q[:, 0::2] & 15) | "
                        "(q[:, 1::2] << 4)).to(torch.int8); back: q[:, 0::2] = ((B & 15) ^ 8) - 8, "
                        "q[:, 1::2] = B >> 4 (arithmetic shift of the signed byte)")
    p.add_argument("--dynamic-k", action="store_true",
                   help="mma.sync hgemm/bgemm/igemm: the K-loop's upper bound comes from a 4th "
                        "kernel argument %%Kn : memref<1xi32> (a device pointer to one int32 "
                        "k_rt, after A, B, C). A, B keep their static shapes (K is the maximum, "
                        "a multiple of BK); the loop runs scf.for %%k = 0 to k_ub step BK with "
                        "k_ub = min(max(k_rt, 0), K) rounded down to a multiple of BK, so C = "
                        "A[:, :k_ub] @ B[:, :k_ub].T (with --batch: A[:, :, :k_ub]; C = 0 for "
                        "k_ub = 0); every C element is written. Torch: Kn = torch.tensor([k_rt], "
                        "dtype=torch.int32, device='cuda')")


def _add_code_args(p):
    """How the tiled kernels are written: copy mapping, shared layout, kernel
    and loop attributes."""
    p.add_argument("--copy-map", choices=["row", "col8"], default="row",
                   help="mma kernels: global->shared copy mapping. row: CH = BK*bytes/16 "
                        "consecutive threads copy the CH 16-byte chunks of one tile row; "
                        "col8: 8 consecutive threads copy the same chunk of 8 rows (the "
                        "pre-2026-11-29 mapping, 1.7x slower unpipelined on an H200)")
    p.add_argument("--layout", choices=["swizzle", "pad"], default="swizzle",
                   help="mma kernels: shared tile layout. swizzle: unpadded rows, 16-byte "
                        "chunk c of row r stored at chunk c ^ ((r / (8/CH)) %% CH); pad: rows "
                        "padded by --pad elements (the pre-2026-11-29 layout)")
    p.add_argument("--readonly-inputs", dest="readonly_inputs", action="store_true",
                   default=None,
                   help="mark A and B {llvm.noalias, llvm.readonly} and C {llvm.noalias} "
                        "(global loads of A/B become ld.global.nc); default on for mma "
                        "kernels, off for sgemm")
    p.add_argument("--no-readonly-inputs", dest="readonly_inputs", action="store_false")
    p.add_argument("--min-blocks", type=int, default=None,
                   help="nvvm.minctasm on the kernel (PTX .minnctapersm: ptxas keeps the "
                        "registers low enough for this many blocks per SM); 0: none; "
                        "default 2 for mma kernels, 0 for sgemm")
    p.add_argument("--outer-unroll", dest="outer_unroll", action="store_true", default=False,
                   help="mma kernels: let LLVM unroll the K-loop (default: the K-loop carries "
                        "an unroll-disable loop_annotation, so the unpipelined kernel stays "
                        "load-barrier-compute-barrier in SASS too)")
    p.add_argument("--no-outer-unroll", dest="outer_unroll", action="store_false")
    p.add_argument("--smem", choices=["attribution", "global"], default="attribution",
                   help="shared memory as gpu.func workgroup attributions or as "
                        "memref.global in workgroup space + memref.get_global")
    p.add_argument("--no-unroll-hint", dest="unroll_hint", action="store_false",
                   help="do not put the llvm full-unroll loop_annotation on the "
                        "inner compute scf.for")


def _add_wgmma_args(p):
    """The wgmma kernels: instruction, proxy fence, descriptors, TMA copy,
    persistent / cluster / epilogue forms, C's type."""
    p.add_argument("--mma", choices=["mma.sync", "wgmma"], default="mma.sync",
                   help="hgemm: the tensor-core instruction. wgmma: Hopper's warpgroup MMA "
                        "(sm_90a; NN layout, one warpgroup, BK 64, 128B-swizzled tiles; see "
                        "WGMMA_NOTES in this file)")
    p.add_argument("--wgmma-proxy-fence", choices=["none", "before-barrier", "after-barrier"],
                   default="before-barrier",
                   help="wgmma: fence.proxy.async.shared::cta between the load phase's st.shared "
                        "(generic proxy) and the wgmma's reads (async proxy), before or after the "
                        "load barrier; none reproduces the race the H200 showed (wrong results, "
                        "integration/results/2026-12-01-h200-wgmma-fix/)")
    p.add_argument("--allow-unchecked-wgmma", action="store_true",
                   help="--mma wgmma: generate tiles other than 128x128x64, which no GPU run has "
                        "checked correct (128x64x64 computes wrong C on the H200)")
    p.add_argument("--wgmma-desc", choices=["generate"] + sorted(WGMMA_DESC_FIELDS), default="generate",
                   help="wgmma: descriptors from nvgpu.warpgroup.generate.descriptor (default) or "
                        "built by hand with the fields of WGMMA_DESC_FIELDS")
    p.add_argument("--copy", choices=["threads", "tma"], default="threads",
                   help="--mma wgmma: how tiles reach shared memory. threads: 16-byte loads and "
                        "swizzled st.shared by every thread (WGMMA_NOTES); tma: thread 0 issues "
                        "TMA loads completing on an mbarrier (WGMMA_TMA_NOTES; two tensor-map "
                        "pointer arguments after C)")
    p.add_argument("--persistent", type=int, default=0, metavar="G",
                   help="--copy tma (f16, bf16, fp8): a persistent kernel of G blocks with a tile "
                        "loop around the K-loop (PERSISTENT_NOTES); 0: one block per tile")
    p.add_argument("--cluster", type=int, default=1, metavar="N",
                   help="--persistent two-warpgroup 128x256 f16 / bf16 kernels: thread-block clusters of N = 2 "
                        "blocks that multicast their shared B tile (CLUSTER_NOTES, examples/gen_cluster.py)")
    p.add_argument("--epilogue", choices=["registers", "tma-store"], default="registers",
                   help="--copy tma with two warpgroups (f16, bf16, fp8): how C is stored. registers: each thread "
                        "stores its fragment; tma-store: through shared memory with TMA stores "
                        "(TMA_STORE_NOTES, examples/gen_tma_store.py; a third tensor-map pointer)")
    p.add_argument("--c-type", choices=["f32", "f16", "bf16"], default="f32",
                   help="--copy tma two-warpgroup f16 / bf16 kernels: C's element type; f16 (--kind hgemm) or "
                        "bf16 (--kind bgemm) rounds the f32 accumulators to the inputs' type in the epilogue, "
                        "as torch.matmul returns it (kernel name suffix _c16)")


def parse_args(argv=None):
    """The command line -> the options, with the kind-dependent defaults filled
    in and a.cmdline (the header's "Command:" line) set."""
    p = argparse.ArgumentParser(
        description="Generate an unpipelined tiled GEMM kernel (TN layout: "
                    "C[m][n] = sum_k A[m][k]*B[n][k]) as MLIR gpu.func.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    _add_shape_args(p)
    _add_sweep_args(p)
    _add_code_args(p)
    _add_wgmma_args(p)
    p.add_argument("--name", default=None, help="kernel / gpu.module symbol name")
    p.add_argument("-o", "--output", default="-", help="output path ('-' = stdout)")
    a = p.parse_args(argv)
    mma_kind = a.kind != "sgemm"
    if a.readonly_inputs is None:
        a.readonly_inputs = mma_kind
    fp8 = a.kind in ("e4m3gemm", "e5m2gemm")
    if a.threads is None:
        a.threads = 128 if a.mma == "wgmma" and not fp8 else 256
    if a.min_blocks is None:
        # Two warpgroups of 128x256: 128 accumulator registers per thread, so
        # one block of 256 threads per SM (two would cap them at 128 in all).
        big_wgmma = a.mma == "wgmma" and a.threads == 256 and a.BN == 256
        a.min_blocks = (1 if big_wgmma else 2) if mma_kind else 0
    if a.BK is None:
        a.BK = 128 if fp8 else 64 if a.mma == "wgmma" else {"hgemm": 32, "bgemm": 32, "igemm": 64, "sgemm": 8}[a.kind]
    args = sys.argv[1:] if argv is None else argv
    a.cmdline = "python3 examples/gen_gemm.py " + " ".join(args)
    return a


def check_options(a):
    """The option combinations no generator accepts (AssertionError)."""
    assert not (a.b_int8 and a.mma == "wgmma"), "--b-int8: mma.sync kernels only"
    assert a.mma == "mma.sync" or not (a.batch is not None or a.split_k is not None or a.b_int4
                                       or a.dynamic_k or a.filter != 3), \
        "--batch, --split-k, --b-int4, --dynamic-k, --filter: mma.sync kernels only"
    assert not a.persistent or a.copy == "tma", "--persistent: the --copy tma kernels only"
    assert a.cluster == 1 or (a.copy == "tma" and a.kind in ("hgemm", "bgemm")), \
        "--cluster: the f16 / bf16 --copy tma kernels only"
    assert a.epilogue == "registers" or (a.copy == "tma" and a.kind != "igemm" and a.kind != "sgemm"), \
        "--epilogue tma-store: the f16 / bf16 / fp8 --copy tma kernels only"
    assert a.c_type == "f32" or (a.copy == "tma" and (a.kind, a.c_type) in (("hgemm", "f16"),
                                                                            ("bgemm", "bf16"))), \
        "--c-type: f16 with --kind hgemm or bf16 with --kind bgemm, --copy tma only"


def generate(a):
    """The kernel text the options ask for (AssertionError: what cannot be
    generated)."""
    if a.kind in ("e4m3gemm", "e5m2gemm"):
        from gen_wgmma_fp8 import gen_wgmma_tma_fp8
        return gen_wgmma_tma_fp8(a)
    if a.copy == "tma":
        return gen_wgmma_tma(a)
    return gen_wgmma(a) if a.mma == "wgmma" else gen(a)


def main(argv=None):
    a = parse_args(argv)
    # The generators state what they cannot generate as assertions: a
    # message, not a traceback.
    try:
        check_options(a)
        text = generate(a)
    except AssertionError as ex:
        sys.exit("gen_gemm.py: error: %s" % ex)
    if a.kind == "bgemm" and a.mma == "wgmma":
        text = as_bf16_wgmma(text)
    write_output(text, a.output)


if __name__ == "__main__":
    main()
