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
"""

import argparse
import re
import sys

KINDS = {
    # kind: (elem type, acc type, elem bytes, mma shape)
    "hgemm": ("f16", "f32", 2, (16, 8, 16)),
    "bgemm": ("bf16", "f32", 2, (16, 8, 16)),
    "igemm": ("i8", "i32", 1, (16, 8, 32)),
    "sgemm": ("f32", "f32", 4, None),
    # fp8 wgmma only (--mma wgmma --copy tma; examples/gen_wgmma_fp8.py)
    "e4m3gemm": ("f8E4M3FN", "f32", 1, None),
    "e5m2gemm": ("f8E5M2", "f32", 1, None),
}

SMEM = "#gpu.address_space<workgroup>"


class Emitter:
    def __init__(self):
        self.lines = []
        self.ind = 0
        self.consts = {}
        self.names = set()

    def c(self, v):
        """index constant"""
        name = "%c{}".format(v)
        self.consts[v] = name
        return name

    def fresh(self, base):
        if base not in self.names:
            self.names.add(base)
            return "%" + base
        i = 1
        while "{}_{}".format(base, i) in self.names:
            i += 1
        n = "{}_{}".format(base, i)
        self.names.add(n)
        return "%" + n

    def emit(self, s):
        self.lines.append("  " * self.ind + s)

    def op(self, base, rhs):
        n = self.fresh(base)
        self.emit("{} = {}".format(n, rhs))
        return n

    # index arithmetic helpers (constant folded in python where possible)
    def add(self, base, a, b):
        if b == 0 or b is None:
            return a
        if isinstance(b, int):
            b = self.c(b)
        return self.op(base, "arith.addi {}, {} : index".format(a, b))

    def mul(self, base, a, b):
        if b == 1:
            return a
        return self.op(base, "arith.muli {}, {} : index".format(a, self.c(b)))

    def div(self, base, a, b):
        if b == 1:
            return a
        return self.op(base, "arith.divui {}, {} : index".format(a, self.c(b)))

    def rem(self, base, a, b):
        return self.op(base, "arith.remui {}, {} : index".format(a, self.c(b)))


def unroll_attr(a):
    """LLVM full-unroll hint for the constant-bound compute loop (propagated by
    convert-scf-to-cf to the back-edge llvm.cond_br; without it LLVM keeps the
    2-iteration k-step loop rolled)."""
    if not a.unroll_hint:
        return ""
    return " {loop_annotation = #llvm.loop_annotation<unroll = <full = true>>}"


def outer_attr(a):
    """--no-outer-unroll: keep LLVM from unrolling the K-loop (ptxas then cannot
    move the next tile's ld.global.nc above the current tile's compute)."""
    if a.outer_unroll:
        return ""
    return " {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}"


def global_read(a, mem, row, col, mt, vt):
    """The 16-byte global read of a tile chunk: vector.load when K % BK == 0,
    else a 1-D zero-padded vector.transfer_read along K (out-of-range elements
    read as %kpad = 0; pk turns it into cp.async with a source size, or keeps
    the masked read for the register variants)."""
    pre = getattr(a, "ab_pre", "")  # --batch: the batch index in front
    if not a.partial_k:
        return "vector.load {}[{}{}, {}] {{alignment = 16 : i64}} : {}, {}".format(mem, pre, row, col, mt, vt)
    return "vector.transfer_read {}[{}{}, {}], %kpad {{in_bounds = [false]}} : {}, {}".format(
        mem, pre, row, col, mt, vt)


def im2col_read(e, a, i, m, kc, gA, vt, vec):
    """--conv: the 16-byte chunk (8 channels of one 3x3 tap) of row m of the
    implicit-GEMM A: output pixel m = (n, y, x), column kc = (tap, c); input
    pixel (y + tap/3 - 1, x + tap%3 - 1), zero outside the image: a 1-D
    vector.transfer_read masked by vector.create_mask (8 or 0 elements), its
    indices clamped to pixel (0, 0) where the mask is empty."""
    H, W = a.conv
    C = a.conv_c
    n = e.div("cv_n{}".format(i), m, H * W)
    pix = e.rem("cv_pix{}".format(i), m, H * W)
    y = e.div("cv_y{}".format(i), pix, W)
    x = e.rem("cv_x{}".format(i), pix, W)
    tap = e.div("cv_tap{}".format(i), kc, C)
    c = e.rem("cv_c{}".format(i), kc, C)
    iy = e.op("cv_iy{}".format(i), "arith.subi {}, {} : index".format(
        e.op("cv_yy{}".format(i), "arith.addi {}, {} : index".format(y, e.div("cv_dy{}".format(i), tap, 3))),
        e.c(1)))
    ix = e.op("cv_ix{}".format(i), "arith.subi {}, {} : index".format(
        e.op("cv_xx{}".format(i), "arith.addi {}, {} : index".format(x, e.rem("cv_dx{}".format(i), tap, 3))),
        e.c(1)))
    conds = [e.op("cv_ok{}_{}".format(i, j), "arith.cmpi {}, {}, {} : index".format(pred, v, e.c(b)))
             for j, (pred, v, b) in enumerate((("sge", iy, 0), ("slt", iy, H), ("sge", ix, 0), ("slt", ix, W)))]
    ok = conds[0]
    for j, cond in enumerate(conds[1:]):
        ok = e.op("cv_and{}_{}".format(i, j), "arith.andi {}, {} : i1".format(ok, cond))
    iyc = e.op("cv_iyc{}".format(i), "arith.select {}, {}, {} : index".format(ok, iy, e.c(0)))
    ixc = e.op("cv_ixc{}".format(i), "arith.select {}, {}, {} : index".format(ok, ix, e.c(0)))
    cnt = e.op("cv_cnt{}".format(i), "arith.select {}, {}, {} : index".format(ok, e.c(vec), e.c(0)))
    mask = e.op("cv_mask{}".format(i), "vector.create_mask {} : vector<{}xi1>".format(cnt, vec))
    return e.op("ga{}".format(i), "vector.transfer_read %A[{}, {}, {}, {}], %apad, {} {{in_bounds = [true]}} "
                ": {}, {}".format(n, iyc, ixc, c, mask, gA, vt))


def check_sweep_forms(a):
    """The sweep-form options (docstring, "Sweep forms"): what they need and what
    they combine with."""
    assert a.batch is None or a.batch >= 1, "--batch NB: NB >= 1"
    assert a.split_k is None or a.split_k >= 1, "--split-k S: S >= 1"
    if not (a.batch or a.split_k or a.b_int4 or a.dynamic_k or (a.conv and a.filter == 1)):
        assert a.filter == 3, "--filter: with --conv only"
        return
    assert a.mma == "mma.sync" and a.kind in ("hgemm", "bgemm", "igemm"), \
        "--batch, --split-k, --b-int4, --dynamic-k, --filter 1: mma.sync kernels (hgemm, bgemm, igemm)"
    assert a.filter == 3 or a.conv, "--filter: with --conv only"
    assert not (a.batch and a.split_k), "--batch and --split-k both use block_id z: one of them"
    assert not (a.conv and (a.batch or a.split_k or a.dynamic_k)), \
        "--conv: not with --batch, --split-k or --dynamic-k"
    if a.b_int4:
        assert a.kind in ("hgemm", "bgemm") and not a.partial_k and not a.b_int8, \
            "--b-int4: hgemm or bgemm with K a multiple of BK, not with --b-int8"
    if a.split_k:
        assert a.K % (a.split_k * a.BK) == 0, \
            "--split-k S: K must be a multiple of S*BK (each slice covers K/S, whole tiles)"
    if a.dynamic_k:
        assert not a.partial_k and not a.split_k, \
            "--dynamic-k: K (the maximum) a multiple of BK, not with --split-k"


def sweep_notes(a):
    """Header lines stating the semantics of the sweep-form options in use."""
    n = []
    M, N, K = a.M, a.N, a.K
    if a.batch:
        n.append("Batched (--batch {0}): A[{0}][{1}][{3}], B[{0}][{2}][{3}], C[{0}][{1}][{2}]; batch b = "
                 "block_id z: C[b][m][n] = sum_k A[b][m][k] * B[b][n][k].".format(a.batch, M, N, K))
    if a.split_k:
        S = a.split_k
        n.append("Split-K (--split-k {0}): slice z = block_id z covers k in [z*{1}, (z+1)*{1}) and writes "
                 "the partial sums P[z][m][n] (C is {0}x{2}x{3}, no atomics); C = sum_z P[z] is left to "
                 "the caller. K-loop form: {4}.".format(
                     S, K // S, M, N, "scf.for %k = z*{0} to z*{0} + {0}".format(K // S)
                     if a.split_k_loop == "bounds" else "scf.for %k = 0 to {}, column k + z*{}".format(
                         K // S, K // S)))
    if a.b_int4:
        n.append("Weight-only int4 (--b-int4): B is N x K/2 bytes, byte B[n][j] = k 2j in bits 0-3, k 2j+1 "
                 "in bits 4-7, two's complement int4 in [-8, 7]; dequantized exactly to the operand type "
                 "in the load phase (4-byte loads, shli/shrsi, shuffle, sitofp, 16-byte shared stores).")
    if a.conv and a.filter == 1:
        H, W = a.conv
        n.append("1x1 convolution (--conv {0} {1} --filter 1, stride 1, no padding): A is the NHWC input "
                 "{2}x{0}x{1}x{3}, row m = pixel (m/{4}, (m%{4})/{1}, m%{1}), K = C = {3}; B is the "
                 "filter N x C.".format(H, W, M // (H * W), K, H * W))
    if a.dynamic_k:
        n.append("Dynamic K (--dynamic-k): %Kn (memref<1xi32>) holds k_rt; the K-loop runs 0 to k_ub step "
                 "{0}, k_ub = min(max(k_rt, 0), {1}) rounded down to a multiple of {0}: C = "
                 "A[:, :k_ub] * B[:, :k_ub]^T.".format(a.BK, K))
    return n


def memref(shape, t, space=None):
    s = "memref<{}x{}".format("x".join(str(d) for d in shape), t)
    if space:
        s += ", " + space
    return s + ">"


def gen(a):
    elt, acc_t, ebytes, mma = KINDS[a.kind]
    M, N, K, BM, BN, BK, T = a.M, a.N, a.K, a.BM, a.BN, a.BK, a.threads
    assert M % BM == 0 and N % BN == 0, "tile must divide M and N"
    # K need not be a multiple of BK: the K-loop runs ceil(K/BK) tiles and the
    # global reads become zero-padded transfer_reads (see "Partial K" above).
    a.k_tiles = -(-K // BK)
    a.k_end = a.k_tiles * BK
    a.partial_k = K % BK != 0
    assert T % 32 == 0
    check_sweep_forms(a)
    conv_tag = ""
    if a.conv:
        conv_tag = "_conv3x3" if a.filter == 3 else "_conv1x1"
    name = a.name or "{}_{}{}{}_{}x{}x{}".format(
        a.kind, elt, ("_w8" if a.b_int8 else "") + ("_w4" if a.b_int4 else ""),
        conv_tag + ("_b{}".format(a.batch) if a.batch else "")
        + ("_sk{}".format(a.split_k) if a.split_k else "") + ("_dynk" if a.dynamic_k else ""),
        BM, BN, BK)
    vec = 16 // ebytes  # elements per 16-byte vector
    assert BK % vec == 0
    # --batch: A, B and C get a leading batch dimension indexed by block_id z;
    # --split-k: C is the S x M x N partial-sum buffer indexed by block_id z.
    a.ab_pre = "%bz, " if a.batch else ""
    a.c_pre = "%bz, " if (a.batch or a.split_k) else ""
    bdim = [a.batch] if a.batch else []
    gA, gB, gC = memref(bdim + [M, K], elt), memref(bdim + [N, K], elt), memref(bdim + [M, N], acc_t)
    if a.split_k:
        gC = memref([a.split_k, M, N], acc_t)
    if a.b_int8:
        assert a.kind in ("hgemm", "bgemm") and not a.partial_k, \
            "--b-int8: hgemm or bgemm with K a multiple of BK"
        gB = memref(bdim + [N, K], "i8")
    if a.b_int4:
        gB = memref(bdim + [N, K // 2], "i8")
    if a.conv:
        H, W = a.conv
        assert a.kind in ("hgemm", "bgemm") and not a.partial_k and a.mma == "mma.sync", \
            "--conv: hgemm or bgemm (mma.sync) with K a multiple of BK"
        if a.filter == 3:
            assert K % 9 == 0 and (K // 9) % vec == 0 and M % (H * W) == 0, \
                "--conv H W: K = 9*C with C a multiple of %d, M = images*H*W" % vec
            a.conv_c = K // 9
        else:
            assert K % vec == 0 and M % (H * W) == 0, \
                "--conv H W --filter 1: K = C a multiple of %d, M = images*H*W" % vec
            a.conv_c = K
        gA = memref([M // (H * W), H, W, a.conv_c], elt)

    if a.kind == "sgemm":
        pad = a.pad if a.pad is not None else 4
        sA_t = memref([BK, BM + pad], elt, SMEM)
        sB_t = memref([BK, BN + pad], elt, SMEM)
        sA_bytes, sB_bytes = BK * (BM + pad) * 4, BK * (BN + pad) * 4
    else:
        if a.layout == "swizzle":
            assert not a.pad, "--layout swizzle uses no padding"
            pad = 0
        else:
            pad = a.pad if a.pad is not None else vec  # one 16-byte chunk
        sA_t = memref([BM, BK + pad], elt, SMEM)
        sB_t = memref([BN, BK + pad], elt, SMEM)
        sA_bytes, sB_bytes = BM * (BK + pad) * ebytes, BN * (BK + pad) * ebytes
        assert ((BK + pad) * ebytes) % 16 == 0, "ldmatrix rows must be 16B aligned"

    e = Emitter()
    body = e  # body lines; constants are inserted in front at the end
    e.ind = 3
    tid = e.op("tid", "gpu.thread_id x")
    bx = e.op("bx", "gpu.block_id x")
    by = e.op("by", "gpu.block_id y")
    if a.batch or a.split_k:
        e.op("bz", "gpu.block_id z")
    bm = e.mul("bm", by, BM)
    bn = e.mul("bn", bx, BN)
    lane = e.rem("lane", tid, 32)
    warp = e.div("warp", tid, 32)
    info = {}

    if a.kind == "sgemm":
        gen_sgemm(e, a, info, tid, lane, warp, bm, bn, gA, gB, gC, sA_t, sB_t)
    else:
        gen_mma(e, a, info, tid, lane, warp, bm, bn, gA, gB, gC, sA_t, sB_t,
                elt, acc_t, ebytes, mma, vec)
    e.emit("gpu.return")

    out = []
    out.append("// Generated by examples/gen_gemm.py -- do not edit by hand.")
    out.append("// Command: " + a.cmdline)
    out.append("// Lowering pipeline and fragment mapping: see the docstring of examples/gen_gemm.py.")
    out.append("// {}: C({}) = A({}) * B^T ({}), M={} N={} K={}, tile {}x{}x{}, "
               "{} threads, grid ({}, {}, {}).".format(
                   a.kind.upper(), acc_t, elt, "TN", M, N, K, BM, BN, BK, T,
                   N // BN, M // BM, a.batch or a.split_k or 1))
    out.append("// Shared memory: A tile {} = {} B, B tile {} = {} B (single "
               "buffer, {} B total).".format(sA_t, sA_bytes, sB_t, sB_bytes,
                                             sA_bytes + sB_bytes))
    for l in info.get("notes", []):
        out.append("// " + l)
    if a.partial_k:
        out.append("// Partial K: K = {} is not a multiple of BK = {}: the K-loop runs ceil(K/BK) = {} "
                   "tiles (0 to {} step {}); the global reads are vector.transfer_read ..., %kpad "
                   "{{in_bounds = [false]}} (elements at k >= K read as 0).".format(
                       K, BK, a.k_tiles, a.k_end, BK))
    out.append("module attributes {gpu.container_module} {")
    out.append("  gpu.module @{} {{".format(name))
    if a.smem == "global":
        out.append('    memref.global "private" @{}_smem_A : {} = uninitialized '
                   '{{alignment = 16 : i64}}'.format(name, sA_t))
        out.append('    memref.global "private" @{}_smem_B : {} = uninitialized '
                   '{{alignment = 16 : i64}}'.format(name, sB_t))
        wg = ""
    else:
        wg = ("\n        workgroup(%sA : {0} {{llvm.align = 16 : i64}}, "
              "%sB : {1} {{llvm.align = 16 : i64}})".format(sA_t, sB_t))
    ro = " {llvm.noalias, llvm.readonly}" if a.readonly_inputs else ""
    kn = ", %Kn: memref<1xi32>{}".format(ro) if a.dynamic_k else ""
    out.append("    gpu.func @{}(%A: {}{}, %B: {}{}, %C: {}{}{}){}".format(
        name, gA, ro, gB, ro, gC, " {llvm.noalias}" if a.readonly_inputs else "", kn, wg))
    minb = "nvvm.minctasm = {} : i32, ".format(a.min_blocks) if a.min_blocks else ""
    out.append("        kernel attributes {{{}known_block_size = array<i32: {}, 1, 1>, "
               "known_grid_size = array<i32: {}, {}, {}>}} {{".format(
                   minb, T, N // BN, M // BM, a.batch or a.split_k or 1))
    if a.smem == "global":
        out.append("      %sA = memref.get_global @{}_smem_A : {}".format(name, sA_t))
        out.append("      %sB = memref.get_global @{}_smem_B : {}".format(name, sB_t))
    for v in sorted(e.consts):
        out.append("      {} = arith.constant {} : index".format(e.consts[v], v))
    for z in info.get("zeros", []):
        out.append("      " + z)
    if a.partial_k:
        out.append("      %kpad = arith.constant {} : {}".format(
            "0.0" if elt.startswith(("f", "bf")) else "0", elt))
    if a.conv and a.filter == 3:
        out.append("      %apad = arith.constant 0.0 : {}".format(elt))
    out.extend(body.lines)
    out.append("    }")
    out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


def gen_mma(e, a, info, tid, lane, warp, bm, bn, gA, gB, gC, sA_t, sB_t,
            elt, acc_t, ebytes, mma, vec):
    M, N, K, BM, BN, BK, T = a.M, a.N, a.K, a.BM, a.BN, a.BK, a.threads
    mm, mn, mk = mma
    nwarps = T // 32
    wM = a.warps_m or 2
    assert nwarps % wM == 0
    wN = nwarps // wM
    WM, WN = BM // wM, BN // wN
    assert BM % wM == 0 and BN % wN == 0 and WM % mm == 0 and WN % (2 * mn) == 0
    MI, NI = WM // mm, WN // mn
    assert BK % mk == 0
    E = 4 // ebytes          # elements per 32-bit register
    h = mk // 2              # elements per 16-byte ldmatrix row
    ch = BK // vec
    assert T % (8 * ch) == 0 and (BM * ch) % T == 0 and (BN * ch) % T == 0
    nA, nB = BM * ch // T, BN * ch // T
    vt = "vector<{}x{}>".format(vec, elt)
    aT = "vector<4x{}x{}>".format(E, elt)
    bT = "vector<2x{}x{}>".format(E, elt)
    b4T = "vector<4x{}x{}>".format(E, elt)
    cT = "vector<2x2x{}>".format(acc_t)
    zero = "0.0" if acc_t == "f32" else "0"
    info["zeros"] = ["%zero = arith.constant dense<{}> : {}".format(zero, cT)]
    nacc = MI * NI
    ksteps = BK // mk
    info["notes"] = [
        "Warp grid {}x{} (warp tile {}x{}), per warp and k-step: {} ldmatrix.x4 (A) + {} "
        "ldmatrix.x4 (B) + {} mma.sync m{}n{}k{}.".format(
            wM, wN, WM, WN, MI, NI // 2, MI * NI, mm, mn, mk),
        "Per K-iteration (BK={}): {} k-steps -> {} mma.sync per warp, {} per block; "
        "{} FLOP per block (2*BM*BN*BK).".format(
            BK, ksteps, MI * NI * ksteps, MI * NI * ksteps * nwarps, 2 * BM * BN * BK),
        "Global->shared per thread per K-iteration: {} + {} 16-byte vector loads/stores "
        "(A + B).".format(nA, nB),
        "Copy mapping {}; shared layout {}; A/B read-only: {}; nvvm.minctasm: {}; "
        "K-loop unroll: {}.".format(
            "row ({} threads per tile row)".format(ch) if a.copy_map == "row"
            else "col8 (8 threads per chunk column of 8 rows)",
            "XOR swizzle (chunk c of row r at c ^ (r/{})%{}, no padding)".format(8 // ch, ch)
            if a.layout == "swizzle" else "padded rows",
            "yes (ld.global.nc)" if a.readonly_inputs else "no",
            a.min_blocks if a.min_blocks else "none",
            "LLVM's choice" if a.outer_unroll else "disabled (loop_annotation)"),
    ]
    if a.b_int4:
        info["zeros"].append("%nib4 = arith.constant dense<4> : vector<{}xi8>".format(vec // 2))
    info["notes"] += sweep_notes(a)

    # ---- loop-invariant per-thread offsets
    swz = a.layout == "swizzle"
    if swz:
        # XOR swizzle of the 16-byte chunks of a row: chunk c of row r is stored
        # at chunk c ^ f(r), f(r) = (r / q) % CH, q = 8 / CH rows per 128 bytes.
        assert ch in (2, 4, 8), "swizzle needs 2, 4 or 8 chunks per tile row"
        q = 8 // ch
        assert T % (8 * ch) == 0 and WM % 8 == 0 and WN % 8 == 0

    def swz_f(base, row):
        """f(row) = (row / q) % CH as an index value"""
        return e.rem(base, e.div(base + "_q", row, q), ch)

    if a.copy_map == "row":
        e.emit("// global->shared copy mapping: {} consecutive threads copy the {} 16-byte".format(ch, ch))
        e.emit("// chunks of one tile row (row-major; a quarter warp covers 128 contiguous")
        e.emit("// bytes of {} rows: full 32-byte sectors per quarter-warp request).".format(8 // ch))
        ld_row = e.div("ld_row", tid, ch)
        chunk = e.rem("t_chunk", tid, ch)
    else:
        e.emit("// global->shared copy mapping: 8 consecutive threads copy one 16-byte")
        e.emit("// chunk of 8 consecutive rows (conflict-free 16-byte shared stores).")
        t8 = e.rem("t_mod8", tid, 8)
        rb = e.mul("t_rowblk", e.div("t_div{}".format(8 * ch), tid, 8 * ch), 8)
        ld_row = e.op("ld_row", "arith.addi {}, {} : index".format(rb, t8))
        chunk = e.rem("t_chunk", e.div("t_div8", tid, 8), ch)
    ld_col = e.mul("ld_col", chunk, vec)
    rstep = T // ch
    if swz:
        e.emit("// shared chunk = chunk ^ f(row), f(row) = (row / {}) % {} (rows + i*{} keep f)".format(q, ch, rstep))
        assert rstep % 8 == 0
        st_col = e.mul("st_col", e.op("st_chunk", "arith.xori {}, {} : index".format(
            chunk, swz_f("st_f", ld_row))), vec)
    else:
        st_col = ld_col
    gArows, sArows, gBrows, sBrows = [], [], [], []
    for i in range(nA):
        r = e.add("ld_rowA{}".format(i), ld_row, i * rstep) if i else ld_row
        sArows.append(r)
        gArows.append(e.op("gA_row{}".format(i), "arith.addi {}, {} : index".format(bm, r)))
    for i in range(nB):
        r = e.add("ld_rowB{}".format(i), ld_row, i * rstep) if i else ld_row
        sBrows.append(r)
        gBrows.append(e.op("gB_row{}".format(i), "arith.addi {}, {} : index".format(bn, r)))

    e.emit("// warp tiling {}x{} warps, warp tile {}x{}".format(wM, wN, WM, WN))
    wm = e.mul("wm", e.div("warp_m", warp, wN), WM)
    wn = e.mul("wn", e.rem("warp_n", warp, wN), WN)
    e.emit("// ldmatrix row addresses: A lane l -> row l%16, k-col (l/16)*{}".format(h))
    e.emit("//                          B lane l -> row l%8 + 8*(l/16), k-col ((l/8)%2)*{}".format(h))
    l16 = e.rem("l_mod16", lane, 16)
    l8 = e.rem("l_mod8", lane, 8)
    ldiv16 = e.div("l_div16", lane, 16)
    if not swz:
        a_col = e.mul("a_col", ldiv16, h)
    b_half = e.rem("l_div8_mod2", e.div("l_div8", lane, 8), 2)
    if swz:
        assert h == vec
        e.emit("// swizzled k-chunk: (ks/{0} + half) ^ f(row); f(row) depends on l%16 (A) and l%8 (B) only".format(vec))
        fa = swz_f("fa", l16)
        fb = swz_f("fb", l8)
    else:
        b_col = e.mul("b_col", b_half, h)
    a_row0 = e.op("a_row", "arith.addi {}, {} : index".format(wm, l16))
    b_r = e.op("b_r", "arith.addi {}, {} : index".format(l8, e.mul("l_div16x8", ldiv16, 8)))
    b_row0 = e.op("b_row", "arith.addi {}, {} : index".format(wn, b_r))
    a_rows = [e.add("a_row{}".format(mi), a_row0, mi * mm) if mi else a_row0
              for mi in range(MI)]
    b_rows = [e.add("b_row{}".format(p), b_row0, p * 2 * mn) if p else b_row0
              for p in range(NI // 2)]

    # ---- K loop
    k_lo, k_hi, k_colbase = e.c(0), e.c(a.k_end), ld_col
    if a.split_k:
        ks_len = K // a.split_k
        e.emit("// split-K slice z = block_id z: k in [z*{0}, z*{0} + {0})".format(ks_len))
        k_off = e.mul("k_off", "%bz", ks_len)
        if a.split_k_loop == "bounds":
            e.emit("// K-loop from z*{0} to z*{0} + {0} (a static trip count of {1})".format(
                ks_len, ks_len // BK))
            k_lo = k_off
            k_hi = e.add("k_hi", k_off, ks_len)
        else:
            e.emit("// K-loop 0 to {}; the slice offset is added to the column".format(ks_len))
            k_hi = e.c(ks_len)
            k_colbase = e.op("ld_colz", "arith.addi {}, {} : index".format(ld_col, k_off))
    if a.dynamic_k:
        e.emit("// dynamic K: k_ub = k_rt clamped to [0, {0}], rounded down to a multiple of {1}".format(K, BK))
        k_rt = e.op("k_rt", "arith.index_cast {} : i32 to index".format(
            e.op("k_rt_i32", "memref.load %Kn[{}] : memref<1xi32>".format(e.c(0)))))
        k_cl = e.op("k_cl", "arith.minsi {}, {} : index".format(
            e.op("k_pos", "arith.maxsi {}, {} : index".format(k_rt, e.c(0))), e.c(K)))
        k_hi = e.op("k_ub", "arith.subi {}, {} : index".format(k_cl, e.rem("k_tail", k_cl, BK)))
    if a.conv and a.filter == 1:
        H, W = a.conv
        e.emit("// 1x1 convolution: row m of A is input pixel (n, y, x) = (m / {0}, (m % {0}) / {1}, m % {1})".format(
            H * W, W))
        pixA = []
        for i in range(nA):
            pix = e.rem("cv_pix{}".format(i), gArows[i], H * W)
            pixA.append((e.div("cv_n{}".format(i), gArows[i], H * W), e.div("cv_y{}".format(i), pix, W),
                         e.rem("cv_x{}".format(i), pix, W)))
    accs = ["%acc{}_{}".format(mi, ni) for mi in range(MI) for ni in range(NI)]
    tys = ", ".join([cT] * nacc)
    e.emit("%res:{} = scf.for %k = {} to {} step {} iter_args({}) -> ({}) {{".format(
        nacc, k_lo, k_hi, e.c(BK),
        ", ".join("{} = %zero".format(x) for x in accs), tys))
    e.ind += 1
    e.emit("// a. load phase: global -> shared, 16-byte vectors")
    kc = e.op("k_col", "arith.addi %k, {} : index".format(k_colbase))
    if a.conv and a.filter == 1:
        va = [e.op("ga{}".format(i), "vector.load %A[{}, {}, {}, {}] {{alignment = 16 : i64}} : {}, {}".format(
            pixA[i][0], pixA[i][1], pixA[i][2], kc, gA, vt)) for i in range(nA)]
    elif a.conv:
        va = [im2col_read(e, a, i, gArows[i], kc, gA, vt, vec) for i in range(nA)]
    else:
        va = [e.op("ga{}".format(i), global_read(a, "%A", gArows[i], kc, gA, vt)) for i in range(nA)]
    if a.b_int8:
        # Weight-only int8 B: 8-byte loads, converted on their way into shared
        # memory (exact: |q| <= 128), which cp.async cannot do.
        vq = "vector<{}xi8>".format(vec)
        vb = [e.op("gbf{}".format(i), "arith.sitofp {} : {} to {}".format(
            e.op("gb{}".format(i), "vector.load %B[{}{}, {}] {{alignment = 8 : i64}} : {}, {}".format(
                a.ab_pre, gBrows[i], kc, gB, vq)), vq, vt)) for i in range(nB)]
    elif a.b_int4:
        # Weight-only int4 B: 4-byte loads of 8 packed nibbles (byte j = k 2j
        # in bits 0-3, k 2j+1 in bits 4-7), sign-extended with shifts,
        # interleaved back into k order and converted (exact: |q| <= 8).
        vp = "vector<{}xi8>".format(vec // 2)
        vq = "vector<{}xi8>".format(vec)
        kb = e.div("k_byte", kc, 2)
        vb = []
        for i in range(nB):
            p = e.op("gb{}".format(i), "vector.load %B[{}{}, {}] {{alignment = 4 : i64}} : {}, {}".format(
                a.ab_pre, gBrows[i], kb, gB, vp))
            lo = e.op("gb_lo{}".format(i), "arith.shrsi {}, %nib4 : {}".format(
                e.op("gb_shl{}".format(i), "arith.shli {}, %nib4 : {}".format(p, vp)), vp))
            hi = e.op("gb_hi{}".format(i), "arith.shrsi {}, %nib4 : {}".format(p, vp))
            q = e.op("gb_q{}".format(i), "vector.shuffle {}, {} [{}] : {}, {}".format(
                lo, hi, ", ".join("{}, {}".format(j, j + vec // 2) for j in range(vec // 2)), vp, vp))
            vb.append(e.op("gbf{}".format(i), "arith.sitofp {} : {} to {}".format(q, vq, vt)))
    else:
        vb = [e.op("gb{}".format(i), global_read(a, "%B", gBrows[i], kc, gB, vt)) for i in range(nB)]
    for i in range(nA):
        e.emit("vector.store {}, %sA[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
            va[i], sArows[i], st_col, sA_t, vt))
    for i in range(nB):
        e.emit("vector.store {}, %sB[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
            vb[i], sBrows[i], st_col, sB_t, vt))
    e.emit("// b.")
    e.emit("gpu.barrier")
    e.emit("// c. compute phase: {} k-steps of {}".format(ksteps, mk))
    iaccs = ["%i{}_{}".format(mi, ni) for mi in range(MI) for ni in range(NI)]
    e.emit("%r:{} = scf.for %ks = {} to {} step {} iter_args({}) -> ({}) {{".format(
        nacc, e.c(0), e.c(BK), e.c(mk),
        ", ".join("{} = {}".format(x, y) for x, y in zip(iaccs, accs)), tys))
    e.ind += 1
    if swz:
        kch = e.div("ks_chunk", "%ks", vec)
        ac = e.mul("ka", e.op("ka_chunk", "arith.xori {}, {} : index".format(
            e.op("ka_log", "arith.addi {}, {} : index".format(kch, ldiv16)), fa)), vec)
        bc = e.mul("kb", e.op("kb_chunk", "arith.xori {}, {} : index".format(
            e.op("kb_log", "arith.addi {}, {} : index".format(kch, b_half)), fb)), vec)
    else:
        ac = e.op("ka", "arith.addi %ks, {} : index".format(a_col))
        bc = e.op("kb", "arith.addi %ks, {} : index".format(b_col))
    afr = [e.op("a{}".format(mi), "nvgpu.ldmatrix %sA[{}, {}] {{numTiles = 4 : i32, transpose = false}} "
                ": {} -> {}".format(a_rows[mi], ac, sA_t, aT)) for mi in range(MI)]
    bfr = []
    for p in range(NI // 2):
        b4 = e.op("b{}{}".format(2 * p, 2 * p + 1),
                  "nvgpu.ldmatrix %sB[{}, {}] {{numTiles = 4 : i32, transpose = false}} "
                  ": {} -> {}".format(b_rows[p], bc, sB_t, b4T))
        for q in range(2):
            bfr.append(e.op("b{}".format(2 * p + q), "vector.shuffle {0}, {0} [{1}, {2}] : {3}, {3}".format(
                b4, 2 * q, 2 * q + 1, b4T)))
    outs = []
    for mi in range(MI):
        for ni in range(NI):
            outs.append(e.op("d{}_{}".format(mi, ni),
                             "nvgpu.mma.sync ({}, {}, {}) {{mmaShape = [{}, {}, {}]}} : ({}, {}, {}) -> {}".format(
                                 afr[mi], bfr[ni], iaccs[mi * NI + ni], mm, mn, mk, aT, bT, cT, cT)))
    e.emit("scf.yield {} : {}".format(", ".join(outs), tys))
    e.ind -= 1
    e.emit("}" + unroll_attr(a))
    e.emit("// d.")
    e.emit("gpu.barrier")
    e.emit("scf.yield {} : {}".format(", ".join("%r#{}".format(i) for i in range(nacc)), tys))
    e.ind -= 1
    e.emit("}" + outer_attr(a))

    # ---- epilogue
    e.emit("// epilogue: thread holds C[g][2t..2t+1] and C[g+8][2t..2t+1] of each 16x8 tile")
    g = e.div("g", lane, 4)
    t2 = e.mul("t2", e.rem("t", lane, 4), 2)
    crow = e.op("crow", "arith.addi {}, {} : index".format(
        e.op("bmwm", "arith.addi {}, {} : index".format(bm, wm)), g))
    ccol = e.op("ccol", "arith.addi {}, {} : index".format(
        e.op("bnwn", "arith.addi {}, {} : index".format(bn, wn)), t2))
    rT = "vector<2x{}>".format(acc_t)
    ccols = [e.add("ccol{}".format(ni), ccol, ni * mn) for ni in range(NI)]
    for mi in range(MI):
        r0 = e.add("crow{}".format(mi), crow, mi * mm)
        r1 = e.add("crow{}h".format(mi), crow, mi * mm + 8)
        for ni in range(NI):
            i = mi * NI + ni
            for half, r in ((0, r0), (1, r1)):
                v = e.op("o{}_{}_{}".format(mi, ni, half),
                         "vector.extract %res#{}[{}] : {} from {}".format(i, half, rT, cT))
                e.emit("vector.store {}, %C[{}{}, {}] {{alignment = 8 : i64}} : {}, {}".format(
                    v, a.c_pre, r, ccols[ni], gC, rT))


def gen_sgemm(e, a, info, tid, lane, warp, bm, bn, gA, gB, gC, sA_t, sB_t):
    M, N, K, BM, BN, BK, T = a.M, a.N, a.K, a.BM, a.BN, a.BK, a.threads
    TY, TX = BM // 8, BN // 8
    assert TY * TX == T, "sgemm: 8x8 outputs per thread requires (BM/8)*(BN/8) == threads"
    assert TY % 4 == 0 and TX % 8 == 0 and BK % 4 == 0
    wNn = TX // 8
    ch = BK // 4
    assert (BM * ch) % T == 0 and (BN * ch) % T == 0
    nA, nB = BM * ch // T, BN * ch // T
    v4 = "vector<4xf32>"
    info["zeros"] = ["%zero = arith.constant dense<0.0> : {}".format(v4)]
    info["notes"] = [
        "Thread tile 8x8 (rows tm*4+i, {}+tm*4+i; cols tn*4+j, {}+tn*4+j); per k: 4 vector<4xf32> "
        "shared loads + 16 vector.fma on vector<4xf32> (= 64 fma.rn.f32) per thread.".format(BM // 2, BN // 2),
        "Per K-iteration (BK={}): {} fma.rn.f32 per thread, {} per block; {} FLOP per block "
        "(2*BM*BN*BK).".format(BK, 64 * BK, 64 * BK * T, 2 * BM * BN * BK),
        "Global->shared per thread per K-iteration: {} + {} 16-byte vector loads (A + B), each "
        "stored as 4 transposed scalars.".format(nA, nB),
    ]
    # copy mapping
    e.emit("// global->shared copy: vector v = tid + i*{} -> tile row v/{}, k-col 4*(v%{})".format(T, ch, ch))
    ld_row = e.div("ld_row", tid, ch)
    ld_k = e.mul("ld_k", e.rem("t_modch", tid, ch), 4)
    ld_ks = [e.add("ld_k{}".format(j), ld_k, j) if j else ld_k for j in range(4)]
    rstep = T // ch
    rowsA = [e.add("ld_rowA{}".format(i), ld_row, i * rstep) if i else ld_row for i in range(nA)]
    rowsB = [e.add("ld_rowB{}".format(i), ld_row, i * rstep) if i else ld_row for i in range(nB)]
    gArows = [e.op("gA_row{}".format(i), "arith.addi {}, {} : index".format(bm, r)) for i, r in enumerate(rowsA)]
    gBrows = [e.op("gB_row{}".format(i), "arith.addi {}, {} : index".format(bn, r)) for i, r in enumerate(rowsB)]
    e.emit("// thread grid {}x{}: lanes 4(m)x8(n), warps {}x{}".format(TY, TX, TY // 4, wNn))
    tm = e.op("tm", "arith.addi {}, {} : index".format(
        e.mul("wm4", e.div("warp_m", warp, wNn), 4), e.div("lane_m", lane, 8)))
    tn = e.op("tn", "arith.addi {}, {} : index".format(
        e.mul("wn8", e.rem("warp_n", warp, wNn), 8), e.rem("lane_n", lane, 8)))
    am0 = e.mul("am0", tm, 4)
    am1 = e.add("am1", am0, BM // 2)
    bn0 = e.mul("bn0", tn, 4)
    bn1 = e.add("bn1", bn0, BN // 2)

    accs = ["%acc{}_{}".format(i, hh) for i in range(8) for hh in range(2)]
    nacc = len(accs)
    tys = ", ".join([v4] * nacc)
    e.emit("%res:{} = scf.for %k = {} to {} step {} iter_args({}) -> ({}) {{".format(
        nacc, e.c(0), e.c(a.k_end), e.c(BK), ", ".join("{} = %zero".format(x) for x in accs), tys))
    e.ind += 1
    e.emit("// a. load phase: global -> shared (16-byte loads, transposed scalar stores)")
    kc = e.op("k_col", "arith.addi %k, {} : index".format(ld_k))
    va = [e.op("ga{}".format(i), global_read(a, "%A", gArows[i], kc, gA, v4)) for i in range(nA)]
    vb = [e.op("gb{}".format(i), global_read(a, "%B", gBrows[i], kc, gB, v4)) for i in range(nB)]
    for src, rows, s, st in ((va, rowsA, "%sA", sA_t), (vb, rowsB, "%sB", sB_t)):
        for i, v in enumerate(src):
            for j in range(4):
                x = e.op("x", "vector.extract {}[{}] : f32 from {}".format(v, j, v4))
                e.emit("memref.store {}, {}[{}, {}] : {}".format(x, s, ld_ks[j], rows[i], st))
    e.emit("// b.")
    e.emit("gpu.barrier")
    e.emit("// c. compute phase: {} rank-1 updates".format(BK))
    iaccs = ["%i{}_{}".format(i, hh) for i in range(8) for hh in range(2)]
    e.emit("%r:{} = scf.for %kk = {} to {} step {} iter_args({}) -> ({}) {{".format(
        nacc, e.c(0), e.c(BK), e.c(1),
        ", ".join("{} = {}".format(x, y) for x, y in zip(iaccs, accs)), tys))
    e.ind += 1
    fa = [e.op("fa{}".format(q), "vector.load %sA[%kk, {}] {{alignment = 16 : i64}} : {}, {}".format(
        c, sA_t, v4)) for q, c in enumerate((am0, am1))]
    fb = [e.op("fb{}".format(q), "vector.load %sB[%kk, {}] {{alignment = 16 : i64}} : {}, {}".format(
        c, sB_t, v4)) for q, c in enumerate((bn0, bn1))]
    outs = []
    for i in range(8):
        s = e.op("a{}".format(i), "vector.extract {}[{}] : f32 from {}".format(fa[i // 4], i % 4, v4))
        sb = e.op("a{}v".format(i), "vector.broadcast {} : f32 to {}".format(s, v4))
        for hh in range(2):
            outs.append(e.op("d{}_{}".format(i, hh), "vector.fma {}, {}, {} : {}".format(
                sb, fb[hh], iaccs[2 * i + hh], v4)))
    e.emit("scf.yield {} : {}".format(", ".join(outs), tys))
    e.ind -= 1
    e.emit("}" + unroll_attr(a))
    e.emit("// d.")
    e.emit("gpu.barrier")
    e.emit("scf.yield {} : {}".format(", ".join("%r#{}".format(i) for i in range(nacc)), tys))
    e.ind -= 1
    e.emit("}")
    e.emit("// epilogue: row i -> (i<4 ? tm*4+i : {}+tm*4+i-4), half h -> cols h*{}+tn*4..+4".format(BM // 2, BN // 2))
    cr0 = e.op("crow", "arith.addi {}, {} : index".format(bm, am0))
    cc0 = e.op("ccol0", "arith.addi {}, {} : index".format(bn, bn0))
    cc1 = e.add("ccol1", cc0, BN // 2)
    for i in range(8):
        r = e.add("crow{}".format(i), cr0, (i % 4) + (BM // 2) * (i // 4))
        for hh, cc in enumerate((cc0, cc1)):
            e.emit("vector.store %res#{}, %C[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
                2 * i + hh, r, cc, gC, v4))


WGMMA_NOTES = """\
wgmma HGEMM (--mma wgmma, sm_90a): layout "NN" (B is K x N row-major, N
contiguous), because MLIR 22's nvgpu.warpgroup.mma steps the B descriptor
only for an N-major B (`transposeB`, as upstream's sm90 tests use it).
  A : memref<MxKxf16>  row-major,  B : memref<KxNxf16> row-major,
  C : memref<MxNxf32>  row-major,  C[m][n] = sum_k A[m][k] * B[k][n].
One consumer warpgroup (128 threads), tile BM x BN x 64, grid (N/BN, M/BM);
or two (--threads 256, BM = 128, BN 128 or 256): warpgroup w = tid / 128
computes rows 64w..64w+63 of the block, m64nBNk16 on its own 64-row subview
of sA (descriptor 64w x 128 B further in), on all of sB; all 256 threads copy
the tiles.
Shared tiles, 128-byte rows with the 128B swizzle wgmma descriptors expect
(16-byte chunk c of row r stored at chunk c ^ (r % 8); tiles 1024-aligned):
  sA : memref<BMx64xf16>        (K-major A, row m = 64 k values)
  sB : memref<(BN/64)x64x64xf16> (N-major B in 64-column slabs: slab j,
       row k holds B[k][64j .. 64j+63]; the descriptor's leading byte offset,
       64 rows x 128 B = 8192, steps from slab to slab)
K-loop (pk's unpipelined input form):
  a. 16-byte vector.load of A and B chunks, vector.store to the swizzled
     chunk (8 consecutive threads copy one 128-byte row: conflict-free),
     then nvvm.fence.proxy <async.shared> (fence.proxy.async.shared::cta):
     the st.shared go through the generic proxy, wgmma reads through the
     async proxy, and without the fence it reads stale data (wrong results
     on the H200; --wgmma-proxy-fence none reproduces that, after-barrier
     puts the fence after b.);
  b. gpu.barrier;
  c. nvgpu.warpgroup.generate.descriptor of sA and sB (the tensor-map operand
     only carries the swizzle mode: an unrealized cast of a null pointer) and
     one nvgpu.warpgroup.mma {transposeB, waitGroup = 0} on the accumulator
     iter_arg (64 x BN per warpgroup with two): wgmma.fence,
     rows/64 x 4 wgmma.mma_async m64nBNk16,
     commit_group, wait_group 0. waitGroup must be 0 here: the barrier after
     the compute lets the next copies overwrite the tiles, and wgmma reads
     shared memory asynchronously until its group has retired;
  d. gpu.barrier.
Epilogue, one warpgroup: nvgpu.warpgroup.mma.store of the accumulator to
the C block (scalar st.global). MLIR 22's lowering puts register pair
4j+2i of 64-row half h of warp W, lane L at row 16 W + L/4 + 8i + off_h,
column 8j + 2 (L%4), with W = tid/32 (not reduced modulo 4) and off_h = h x
(registers of one half, BN/2): right only for BN = 128 (off_1 = 64), so
128x256 (also 256 accumulator registers) and 128x64 are refused.
Two warpgroups: each accumulator is 64 x BN, the store's verifier wants a
64 x BN destination, and the unreduced warp id would put warpgroup 1's
rows at 64..127 of it (outside the view); so the kernel stores its
fragment itself: an unrealized cast of the accumulator to its LLVM struct
(!frag), llvm.extractvalue of registers 4j+2i, 4j+2i+1 and one 8-byte
vector.store to C[bm + 64w + 16(W%4) + L/4 + 8i][bn + 8j + 2(L%4)]
(st.global.v2, every index inside C).
Lowering: pk-opt --pk-emit-binaries='arch=sm_90a emit=cubin bare-ptr=1'
(docs/lowering.md: convert-nvvm-to-llvm turns the NVVM wgmma ops into PTX)."""


# Descriptor fields (bytes) of --wgmma-desc: (A LBO, A SBO, B LBO, B SBO).
# "manual" repeats what MLIR 22's generate.descriptor encodes for this kernel
# (LBO = tensor-map dim 0 x 128 B, SBO = 8 rows x 128 B); the others change
# one field each, to test a hypothesis about the hardware's reading of it.
WGMMA_DESC_FIELDS = {
    "manual": lambda BM: (BM * 128, 1024, 8192, 1024),
    "a-lbo16": lambda BM: (16, 1024, 8192, 1024),          # CUTLASS: LBO unused (1) for swizzled K-major
    "b-swap": lambda BM: (BM * 128, 1024, 1024, 8192),     # B: LBO and SBO exchanged
}


def wgmma_manual_descriptors(e, mode, BM, sA_t, sB_t, dA, dB):
    """Build the A and B wgmma descriptors from the tiles' shared addresses by
    hand (128B swizzle, base offset 0), with the fields of WGMMA_DESC_FIELDS."""
    a_lbo, a_sbo, b_lbo, b_sbo = WGMMA_DESC_FIELDS[mode](BM)
    for name, buf, ty, dty, lbo, sbo in (("dA", "%sA", sA_t, dA, a_lbo, a_sbo),
                                         ("dB", "%sB", sB_t, dB, b_lbo, b_sbo)):
        hi = (1 << 62) | ((sbo >> 4) << 32) | ((lbo >> 4) << 16)
        p = e.op(name + "_p", "memref.extract_aligned_pointer_as_index {} : {} -> index".format(buf, ty))
        p64 = e.op(name + "_p64", "arith.index_cast {} : index to i64".format(p))
        c4 = e.op(name + "_c4", "arith.constant 4 : i64")
        m14 = e.op(name + "_m14", "arith.constant 16383 : i64")
        hic = e.op(name + "_hi", "arith.constant {} : i64".format(hi))
        lo = e.op(name + "_lo", "arith.andi {}, {} : i64".format(
            e.op(name + "_sh", "arith.shrui {}, {} : i64".format(p64, c4)), m14))
        d = e.op(name + "_i64", "arith.ori {}, {} : i64".format(lo, hic))
        e.op(name, "builtin.unrealized_conversion_cast {} : i64 to {}".format(d, dty))


def wgmma_fragment_epilogue(e, BN, tid, bm, bn, wg_row, gC, acc, scale=None, ct="f32"):
    """Two warpgroups: each thread stores its m64nBN accumulator fragment
    itself (WGMMA_NOTES, Epilogue): the PTX ISA's wgmma D layout, registers
    d[4j + 2i], d[4j + 2i + 1] at row 16 (warp % 4) + lane / 4 + 8i of the
    warpgroup's 64 rows, columns 8j + 2 (lane % 4) + {0, 1}; one 8-byte
    vector.store per pair, every index inside C. `scale` (an f32 value):
    each pair is multiplied by it first (the fp8 kernels' scales). `ct`:
    C's element type (f32, or f16: each pair converted, 4-byte stores)."""
    regs = BN // 2
    st = "!frag"  # type alias, defined before the module (gen_wgmma)
    e.emit("// epilogue: the m64n{} fragment of this thread, {} f32 registers (struct of "
           "nvgpu's lowering), stored as pairs".format(BN, regs))
    frag = e.op("frag", "builtin.unrealized_conversion_cast %res : {} to {}".format(acc, st))
    lane = e.rem("lane", tid, 32)
    warp = e.rem("wq", e.div("warp", tid, 32), 4)
    r0 = e.op("r_blk", "arith.addi {}, {} : index".format(
        wg_row, e.op("r_w", "arith.addi {}, {} : index".format(e.mul("r_w16", warp, 16),
                                                                 e.div("r_l", lane, 4)))))
    row0 = e.op("c_row", "arith.addi {}, {} : index".format(bm, r0))
    col0 = e.op("c_col", "arith.addi {}, {} : index".format(bn, e.mul("c_l2", e.rem("c_l4", lane, 4), 2)))
    vt, ot = "vector<2xf32>", "vector<2x{}>".format(ct)
    if scale:
        scale = e.op("sv", "vector.broadcast {} : f32 to {}".format(scale, vt))
    for i in range(2):
        row = e.add("c_row", row0, 8 * i)
        for j in range(BN // 8):
            col = e.add("c_col", col0, 8 * j)
            x0 = e.op("d", "llvm.extractvalue {}[0, {}] : {}".format(frag, 4 * j + 2 * i, st))
            x1 = e.op("d", "llvm.extractvalue {}[0, {}] : {}".format(frag, 4 * j + 2 * i + 1, st))
            v = e.op("dv", "vector.from_elements {}, {} : {}".format(x0, x1, vt))
            if scale:
                v = e.op("dw", "arith.mulf {}, {} : {}".format(v, scale, vt))
            if ct != "f32":
                v = e.op("dh", "arith.truncf {} : {} to {}".format(v, vt, ot))
            e.emit("vector.store {}, %C[{}, {}] {{alignment = {} : i64}} : {}, {}".format(
                v, row, col, 8 if ct == "f32" else 4, gC, ot))


def wgmma_epilogue(e, BM, BN, N, tid, bm, bn, wg_row, gC, acc, ct="f32"):
    """The store of the accumulators: nvgpu.warpgroup.mma.store of the one
    warpgroup's BM x BN block, or (wg_row given: two warpgroups) each
    thread's fragment (wgmma_fragment_epilogue) of C's type `ct`."""
    if wg_row is None:
        cs_t = "memref<{}x{}xf32, strided<[{}, 1], offset: ?>>".format(BM, BN, N)
        e.op("C_blk", "memref.subview %C[{}, {}] [{}, {}] [1, 1] : {} to {}".format(bm, bn, BM, BN, gC, cs_t))
        e.emit("nvgpu.warpgroup.mma.store %res, %C_blk : {} to {}".format(acc, cs_t))
    else:
        wgmma_fragment_epilogue(e, BN, tid, bm, bn, wg_row, gC, acc, ct=ct)


def wgmma_types(rows, BN):
    """The tensor-map, warpgroup-descriptor and accumulator types of a wgmma
    on `rows` rows of A (128B swizzle, BK 64) and BN columns of B."""
    tmA = ("!nvgpu.tensormap.descriptor<tensor = memref<{}x64xf16, 3>, swizzle = swizzle_128b, "
           "l2promo = none, oob = zero, interleave = none>".format(rows))
    tmB = ("!nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, "
           "l2promo = none, oob = zero, interleave = none>")
    dA = "!nvgpu.warpgroup.descriptor<tensor = memref<{}x64xf16, 3>>".format(rows)
    dB = "!nvgpu.warpgroup.descriptor<tensor = memref<64x{}xf16, 3>>".format(BN)
    acc = "!nvgpu.warpgroup.accumulator<fragmented = vector<{}x{}xf32>>".format(rows, BN)
    return tmA, tmB, dA, dB, acc


def gen_wgmma(a):
    """The wgmma HGEMM kernel (WGMMA_NOTES)."""
    M, N, K, BM, BN, BK, T = a.M, a.N, a.K, a.BM, a.BN, a.BK, a.threads
    assert a.kind in ("hgemm", "bgemm"), "--mma wgmma: hgemm or bgemm only (f16 / bf16 -> f32)"
    assert BK == 64, "--mma wgmma: BK must be 64 (128-byte rows, 128B swizzle)"
    assert T in (128, 256), "--mma wgmma: one or two consumer warpgroups (128 or 256 threads)"
    WG = T // 128
    if WG == 2:
        assert BM == 128 and BN in (128, 256), \
            "--mma wgmma --threads 256: BM 128 (warpgroup w computes rows 64w..64w+63), BN 128 or 256"
    else:
        assert BM in (64, 128) and BN % 64 == 0 and 64 <= BN <= 256, \
            "--mma wgmma: BM 64 or 128, BN a multiple of 64 up to 256"
        assert BN <= 128 or BM == 64, \
            "MLIR 22's warpgroup.mma.store offsets the second 64-row half of a 128-row accumulator " \
            "by the first half's register count (BN/2), right only for BN = 128; a 128x256 " \
            "accumulator is also 256 registers per thread: use --threads 256 (two warpgroups)"
        # Measured on the H200 (integration/results/2026-12-01-h200-wgmma-pipelined):
        # 128x64x64 computes wrong C (a quarter unwritten) unpipelined as well as
        # pipelined; only the 128x128x64 tile is checked correct.
        assert (BM, BN) == (128, 128) or a.allow_unchecked_wgmma, \
            "--mma wgmma: only 128x128x64 is checked correct on a GPU (128x64x64 computes wrong C); " \
            "--allow-unchecked-wgmma generates the others anyway"
    WM = BM // WG  # rows of one warpgroup's accumulator
    assert M % BM == 0 and N % BN == 0 and K % BK == 0, "wgmma kernels need whole tiles"
    name = a.name or "hgemm_wgmma_f16_{}x{}x{}".format(BM, BN, BK)
    slabs = BN // 64
    sA_t = memref([BM, 64], "f16", SMEM)
    sB_t = memref([slabs, 64, 64], "f16", SMEM)
    gA, gB, gC = memref([M, K], "f16"), memref([K, N], "f16"), memref([M, N], "f32")
    tmA, tmB, dA, dB, acc = wgmma_types(WM, BN)
    # Warpgroup w's rows of sA: a 64-row subview (its descriptor starts 64w x 128 B in).
    sAw_t = "memref<64x64xf16, strided<[64, 1], offset: ?>, {}>".format(SMEM)
    vt = "vector<8xf16>"

    e = Emitter()
    e.ind = 3
    tid = e.op("tid", "gpu.thread_id x")
    if not a.persistent:
        bm = e.mul("bm", e.op("by", "gpu.block_id y"), BM)
        bn = e.mul("bn", e.op("bx", "gpu.block_id x"), BN)
    if WG == 2:
        e.emit("// warpgroup w = tid / 128 computes rows 64w .. 64w+63 of the block")
        wg_row = e.mul("wg_row", e.div("wg", tid, 128), 64)
    e.op("null", "llvm.mlir.zero : !llvm.ptr")
    e.op("tmA", "builtin.unrealized_conversion_cast %null : !llvm.ptr to " + tmA)
    e.op("tmB", "builtin.unrealized_conversion_cast %null : !llvm.ptr to " + tmB)
    e.emit("// A chunk v = tid + i*{0}: row v/8, k-chunk v%8 -> swizzled chunk (v%8) ^ (row%8)".format(T))
    a_c = e.rem("a_c", tid, 8)
    a_col = e.mul("a_col", a_c, 8)
    a_rows, a_scols = [], []
    a_r = e.div("a_r", tid, 8)
    for i in range(BM * 8 // T):
        r = e.add("a_row{}".format(i), a_r, i * (T // 8))
        sw = e.op("a_sw", "arith.xori {}, {} : index".format(a_c, e.rem("a_r8", r, 8)))
        a_rows.append((r, e.op("ga_row", "arith.addi {}, {} : index".format(bm, r))))
        a_scols.append(e.mul("a_scol", sw, 8))
    cpr = BN // 8  # 16-byte chunks per B row
    e.emit("// B chunk v = tid + i*{0}: k-row v/{1}, n-chunk v%{1} -> slab (v%{1})/8, "
           "swizzled chunk ((v%{1})%8) ^ (k-row%8)".format(T, cpr))
    b_nc = e.rem("b_nc", tid, cpr)
    b_gcol = e.op("gb_col", "arith.addi {}, {} : index".format(bn, e.mul("b_ncol", b_nc, 8)))
    b_slab = e.div("b_slab", b_nc, 8)
    b_c = e.rem("b_c", b_nc, 8)
    b_rows, b_scols = [], []
    b_r = e.div("b_r", tid, cpr)
    for i in range(64 * cpr // T):
        r = e.add("b_row{}".format(i), b_r, i * (T // cpr))
        sw = e.op("b_sw", "arith.xori {}, {} : index".format(b_c, e.rem("b_r8", r, 8)))
        b_rows.append(r)
        b_scols.append(e.mul("b_scol", sw, 8))
    e.op("acc0", "nvgpu.warpgroup.mma.init.accumulator -> " + acc)
    e.emit("%res = scf.for %k = {} to {} step {} iter_args(%acc = %acc0) -> ({}) {{".format(
        e.c(0), e.c(K), e.c(BK), acc))
    e.ind += 1
    e.emit("// a. load phase: global -> shared, 16-byte chunks, 128B-swizzled")
    ga_col = e.op("ga_col", "arith.addi %k, {} : index".format(a_col))
    va = [e.op("ga", "vector.load %A[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
        g, ga_col, gA, vt)) for (_, g) in a_rows]
    vb = [e.op("gb", "vector.load %B[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
        e.op("gb_row", "arith.addi %k, {} : index".format(r)), b_gcol, gB, vt)) for r in b_rows]
    for v, (r, _), sc in zip(va, a_rows, a_scols):
        e.emit("vector.store {}, %sA[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(v, r, sc, sA_t, vt))
    for v, r, sc in zip(vb, b_rows, b_scols):
        e.emit("vector.store {}, %sB[{}, {}, {}] {{alignment = 16 : i64}} : {}, {}".format(
            v, b_slab, r, sc, sB_t, vt))
    fence = ("nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, "
             "space = #nvvm.shared_space<cta>}")
    if a.wgmma_proxy_fence == "before-barrier":
        e.emit("// generic-proxy st.shared -> async-proxy wgmma reads: fence.proxy.async")
        e.emit(fence)
    e.emit("// b.")
    e.emit("gpu.barrier")
    if a.wgmma_proxy_fence == "after-barrier":
        e.emit("// generic-proxy st.shared (all threads, ordered by the barrier) -> async-proxy "
               "wgmma reads: fence.proxy.async")
        e.emit(fence)
    e.emit("// c. compute phase: wgmma on the shared tiles ({} x 4 m64n{}k16{}), all retired "
           "before the barrier (waitGroup = 0)".format(WM // 64, BN, " per warpgroup" if WG > 1 else ""))
    if WG == 2:
        assert a.wgmma_desc == "generate", "--wgmma-desc: one warpgroup only"
        e.op("sAw", "memref.subview %sA[{}, 0] [64, 64] [1, 1] : {} to {}".format(wg_row, sA_t, sAw_t))
        e.op("dA", "nvgpu.warpgroup.generate.descriptor %sAw, %tmA : {}, {} -> {}".format(sAw_t, tmA, dA))
        e.op("dB", "nvgpu.warpgroup.generate.descriptor %sB, %tmB : {}, {} -> {}".format(sB_t, tmB, dB))
    elif a.wgmma_desc == "generate":
        e.op("dA", "nvgpu.warpgroup.generate.descriptor %sA, %tmA : {}, {} -> {}".format(sA_t, tmA, dA))
        e.op("dB", "nvgpu.warpgroup.generate.descriptor %sB, %tmB : {}, {} -> {}".format(sB_t, tmB, dB))
    else:
        wgmma_manual_descriptors(e, a.wgmma_desc, BM, sA_t, sB_t, dA, dB)
    e.op("acc_next", "nvgpu.warpgroup.mma %dA, %dB, %acc {{transposeB, waitGroup = 0 : i64}} : "
         "{}, {}, {} -> {}".format(dA, dB, acc, acc))
    e.emit("// d.")
    e.emit("gpu.barrier")
    e.emit("scf.yield %acc_next : " + acc)
    e.ind -= 1
    e.emit("}" + outer_attr(a))
    wgmma_epilogue(e, BM, BN, N, tid, bm, bn, wg_row if WG == 2 else None, gC, acc)
    e.emit("gpu.return")

    out = ["// Generated by examples/gen_gemm.py -- do not edit by hand.",
           "// Command: " + a.cmdline]
    out += ["// " + l if l else "//" for l in WGMMA_NOTES.splitlines()]
    out.append("// HGEMM (wgmma): C(f32) = A(f16) * B (NN), M={} N={} K={}, tile {}x{}x{}, {} threads, "
               "grid ({}, {}, 1).".format(M, N, K, BM, BN, BK, T, N // BN, M // BM))
    out.append("// Shared memory: A tile {} = {} B, B tile {} = {} B (single buffer, {} B total).".format(
        sA_t, BM * 128, sB_t, BN * 128, (BM + BN) * 128))
    if WG == 2:
        out.append("// The accumulator's LLVM form (convert-nvgpu-to-nvvm): one struct per 64 rows.")
        out.append("!frag = !llvm.struct<(struct<({})>)>".format(", ".join(["f32"] * (BN // 2))))
    out.append("module attributes {gpu.container_module} {")
    out.append("  gpu.module @{} {{".format(name))
    ro = " {llvm.noalias, llvm.readonly}" if a.readonly_inputs else ""
    out.append("    gpu.func @{}(%A: {}{}, %B: {}{}, %C: {}{})".format(
        name, gA, ro, gB, ro, gC, " {llvm.noalias}" if a.readonly_inputs else ""))
    out.append("        workgroup(%sA : {} {{llvm.align = 1024 : i64}}, "
               "%sB : {} {{llvm.align = 1024 : i64}})".format(sA_t, sB_t))
    minb = "nvvm.minctasm = {} : i32, ".format(a.min_blocks) if a.min_blocks else ""
    out.append("        kernel attributes {{{}known_block_size = array<i32: {}, 1, 1>, "
               "known_grid_size = array<i32: {}, {}, 1>}} {{".format(minb, T, N // BN, M // BM))
    for v in sorted(e.consts):
        out.append("      {} = arith.constant {} : index".format(e.consts[v], v))
    out.extend(e.lines)
    out += ["    }", "  }", "}"]
    return "\n".join(out) + "\n"


WGMMA_TMA_NOTES = """\
wgmma HGEMM with TMA input (--mma wgmma --copy tma, sm_90a): the wgmma kernel
above (NN layout, one warpgroup at 128x128x64, or with --threads 256 two at
128x128x64 / 128x256x64; the same 128B-swizzled tiles, compute phase and
epilogue) whose load phase is the Tensor Memory Accelerator instead of
per-thread copies. Two extra kernel arguments, after C:
  %tmaA, %tmaB : !llvm.ptr, the generic addresses of two 128-byte CUtensorMap
  objects in global memory (pk-runner --tma, integration/runner/README.md):
  A: dims (K, M), box (64, 128);  B: dims (N, K), box (64, 64); FP16,
  128B swizzle, innermost dimension first. MLIR 22 cannot legalize a gpu.func
  argument of type !nvgpu.tensormap.descriptor, so the kernel casts the
  pointer (builtin.unrealized_conversion_cast; docs/hopper.md "TMA:
  descriptors").
Before the loop, thread 0 initialises one mbarrier (nvgpu.mbarrier.create)
with an arrival count of 1, makes it visible to the async proxy
(fence.proxy.async.shared::cta, as the CUDA programming guide's TMA example);
then a gpu.barrier. No nvgpu.tma.fence.descriptor (fence.proxy.tensormap::
generic.acquire): at pk's PTX 8.0 the NVPTX backend cannot select it and LLVM
aborts; the runner writes each map once, into fresh memory, before the first
launch. K-loop, tile t = k / 64:
  a. thread 0: nvgpu.mbarrier.arrive.expect_tx of 32768 bytes (A 16384 +
     B 2 x 8192), then nvgpu.tma.async.load of the A tile into sA and of the
     two 64-column B slabs into sB[0], sB[1] (cp.async.bulk.tensor.2d ...
     mbarrier::complete_tx::bytes; TMA writes the 128B swizzle itself);
  b. every thread: nvgpu.mbarrier.try_wait.parity on parity t % 2 (the
     barrier's phase t completes when the 32768 bytes have landed);
  c. the wgmma compute phase {transposeB, waitGroup = 0} as above. No
     fence.proxy.async: TMA writes and wgmma reads both go through the
     async proxy, and the mbarrier's complete_tx makes the writes visible
     to the threads that observe the phase completion;
  d. gpu.barrier: every warp's wgmma of tile t has retired (wait_group 0)
     before thread 0 issues the TMA of tile t+1 into the same tiles.
pk analyses this loop as a TMA K-loop and pipelines it with variant=tma: N
stages on a ring of N mbarriers (docs/hopper.md "TMA ring")."""


PERSISTENT_NOTES = """\
--persistent G: a persistent kernel. The grid is G blocks (the number of SMs,
132 on an H100 / H200 SXM, or a multiple); block b computes output tiles b,
b + G, b + 2G, ... of the (M/BM) x (N/BN) tiles in a loop around the K-loop
(the tile loop), in grouped order: groups of 8 tile rows, column-major
inside a group, so that the blocks running together share their A rows and
B columns in L2. The accumulator's initial value lies outside the tile loop;
the K-loop and its epilogue are the kernel above. The one mbarrier's phase
runs on across tiles: K/BK is even, so tile t of every output tile waits on
parity t % 2. pk-opt --pipeline-kernel flattens the nest into one loop over
(tile, k-step) and pipelines it across the tile boundary (docs/hopper.md
"Persistent kernels")."""


def persistent_tile_loop(e, a, tiles_m, tiles_n, BM, BN, k_tiles, rank=None):
    """Opens the tile loop of a persistent kernel (PERSISTENT_NOTES) and
    emits the grouped rasterization of its tile index; returns (bm, bn), the
    tile's first row and column. With the cluster rank `rank` (--cluster),
    the loop runs over tile pairs (gen_cluster.py)."""
    assert a.persistent >= 1, "--persistent: the grid size must be at least 1"
    assert k_tiles % 2 == 0, \
        "--persistent: K / BK must be even (the one mbarrier's parity t % 2 runs on across tiles)"
    group = min(8, tiles_m)
    width = group * tiles_n
    if rank is None:
        e.emit("// the tile loop: block b computes tiles b, b + G, ... in grouped order "
               "({} tile rows per group)".format(group))
        bid = e.op("bid", "gpu.block_id x")
        nblk = e.op("nblk", "gpu.grid_dim x")
        e.emit("scf.for %tile = {} to {} step {} {{".format(bid, e.c(tiles_m * tiles_n), nblk))
        e.ind += 1
        tile = "%tile"
    else:
        assert group % 2 == 0, "--cluster 2: the groups need an even number of tile rows"
        from gen_cluster import cluster_tile_loop
        tile = cluster_tile_loop(e, tiles_m * tiles_n, rank)
    grp = e.div("grp", tile, width)
    first = e.mul("first_m", grp, group)
    left = e.op("left_m", "arith.subi {}, {} : index".format(e.c(tiles_m), first))
    size = e.op("gsize", "arith.minui {}, {} : index".format(left, e.c(group)))
    inner = e.rem("in_grp", tile, width)
    tm = e.op("tm", "arith.addi {}, {} : index".format(
        first, e.op("tm_in", "arith.remui {}, {} : index".format(inner, size))))
    tn = e.op("tn", "arith.divui {}, {} : index".format(inner, size))
    return e.mul("bm", tm, BM), e.mul("bn", tn, BN)


def tma_mbarrier_init(e, tid, mbar, cluster=False):
    """Thread 0 initialises the TMA kernels' one mbarrier (arrival count 1)
    and fences it to the async proxy, then a gpu.barrier (with --cluster: a
    fence to the cluster and a cluster barrier); returns the `tid == 0`
    predicate."""
    t0 = e.op("t0", "arith.cmpi eq, {}, {} : index".format(tid, e.c(0)))
    e.op("mbar", "nvgpu.mbarrier.create -> " + mbar)
    e.emit("// one mbarrier, arrival count 1 (thread 0's arrive.expect_tx), initialised once")
    e.emit("scf.if {} {{".format(t0))
    e.ind += 1
    e.emit("nvgpu.mbarrier.init %mbar[{}], {} : {}".format(e.c(0), e.c(1), mbar))
    e.emit("// the initialised mbarrier -> the async proxy (TMA's complete_tx)")
    e.emit("nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}")
    if cluster:
        e.emit("// ... and to the other block of the cluster, whose multicast loads complete on it")
        e.emit("nvvm.fence.mbarrier.init")
    e.ind -= 1
    e.emit("}")
    if cluster:
        from gen_cluster import cluster_mbarrier_sync
        cluster_mbarrier_sync(e)
    else:
        e.emit("gpu.barrier")
    return t0


def gen_wgmma_tma(a):
    """The wgmma HGEMM kernel with TMA + mbarrier input (WGMMA_TMA_NOTES)."""
    M, N, K, BM, BN, BK, T = a.M, a.N, a.K, a.BM, a.BN, a.BK, a.threads
    assert a.kind in ("hgemm", "bgemm") and a.mma == "wgmma", \
        "--copy tma: --kind hgemm or bgemm --mma wgmma only"
    assert (BM, BN, BK, T) in ((128, 128, 64, 128), (128, 128, 64, 256), (128, 256, 64, 256)), \
        "--copy tma: 128x128x64 with one warpgroup (128 threads), or 128x128x64 / 128x256x64 " \
        "with two (256 threads, warpgroup w computes rows 64w..64w+63)"
    assert M % BM == 0 and N % BN == 0 and K % BK == 0, "wgmma kernels need whole tiles"
    WG = T // 128
    tma_store = a.epilogue == "tma-store"
    assert not tma_store or WG == 2, "--epilogue tma-store: the two-warpgroup kernels (--threads 256)"
    if tma_store:
        assert K // BK >= 2, "--epilogue tma-store: K / BK must be at least 2 (with one stage the kernel's " \
            "shared memory exceeds the 48 KB static limit: only pk's pipelined form runs)"
        from gen_tma_store import (TMA_STORE_NOTES, c_tile_type, tma_store_drain, tma_store_epilogue,
                                   tma_store_setup)
    # C of the inputs' 16-bit type: written f16 here, bf16 after as_bf16_wgmma
    ct = "f32" if a.c_type == "f32" else "f16"
    assert ct == "f32" or WG == 2, "--c-type f16 / bf16: the two-warpgroup kernels (--threads 256)"
    name = a.name or "hgemm_wgmma_tma_f16_{}x{}x{}{}{}{}".format(
        BM, BN, BK, "_persistent" if a.persistent else "", "_tma_store" if tma_store else "",
        "_c16" if ct != "f32" else "")
    slabs = BN // 64
    sA_t = memref([BM, 64], "f16", SMEM)
    sB_t = memref([slabs, 64, 64], "f16", SMEM)
    gA, gB, gC = memref([M, K], "f16"), memref([K, N], "f16"), memref([M, N], ct)
    # TMA loads the whole A tile (box 64 x BM); each warpgroup's wgmma reads
    # its 64 rows, described with a 64-row tensor-map type.
    tmA = wgmma_types(BM, BN)[0]
    tmAw, tmB, dA, dB, acc = wgmma_types(BM // WG, BN)
    sAw_t = "memref<64x64xf16, strided<[64, 1], offset: ?>, {}>".format(SMEM)
    mbar = "!nvgpu.mbarrier.group<memorySpace = {}>".format(SMEM)
    slab_t = "memref<64x64xf16, strided<[64, 1], offset: {{}}>, {}>".format(SMEM)
    tx_bytes = (BM * 64 + slabs * 64 * 64) * 2
    cluster = a.cluster > 1
    if cluster:
        import gen_cluster as gc
        gc.check_cluster(a, M // BM, slabs)
        name = a.name or name.replace("_persistent", "_persistent_cluster{}".format(a.cluster))

    e = Emitter()
    e.ind = 3
    tid = e.op("tid", "gpu.thread_id x")
    if not a.persistent:
        bm = e.mul("bm", e.op("by", "gpu.block_id y"), BM)
        bn = e.mul("bn", e.op("bx", "gpu.block_id x"), BN)
    if WG == 2:
        e.emit("// warpgroup w = tid / 128 computes rows 64w .. 64w+63 of the block")
        wg_row = e.mul("wg_row", e.div("wg", tid, 128), 64)
    e.op("tmA", "builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to " + tmA)
    if WG == 2:
        e.op("tmAw", "builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to " + tmAw)
    e.op("tmB", "builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to " + tmB)
    t0 = tma_mbarrier_init(e, tid, mbar, cluster)
    if tma_store:
        lead = tma_store_setup(e, tid, ct)
    if cluster:
        rank = gc.cluster_rank(e)
        slabs_mine, slab_view_t = gc.cluster_b_slabs(e, rank, sB_t, slabs)
    slabs_v = [e.op("sB_{}".format(j), "memref.subview %sB[{}, 0, 0] [1, 64, 64] [1, 1, 1] : {} to {}".format(
        j, sB_t, slab_t.format(j * 4096))) for j in range(0 if cluster else slabs)]
    if a.persistent:
        e.op("acc0", "nvgpu.warpgroup.mma.init.accumulator -> " + acc)
        bm, bn = persistent_tile_loop(e, a, M // BM, N // BN, BM, BN, K // BK,
                                      rank if cluster else None)
    if cluster:
        b_cols = gc.cluster_b_cols(e, slabs_mine, bn)
    else:
        b_cols = [e.add("gb_col{}".format(j), bn, 64 * j) for j in range(slabs)]
    if not a.persistent:
        e.op("acc0", "nvgpu.warpgroup.mma.init.accumulator -> " + acc)
    e.emit("%res = scf.for %k = {} to {} step {} iter_args(%acc = %acc0) -> ({}) {{".format(
        e.c(0), e.c(K), e.c(BK), acc))
    e.ind += 1
    e.emit("// a. thread 0: expect {} bytes, TMA the A tile and the {} B slabs (coordinates "
           "innermost first)".format(tx_bytes, slabs))
    e.emit("nvgpu.mbarrier.arrive.expect_tx %mbar[{}], {}, predicate = {} : {}".format(
        e.c(0), e.c(tx_bytes), t0, mbar))
    e.emit("nvgpu.tma.async.load %tmA[%k, {}], %mbar[{}] to %sA, predicate = {} : {}, {} -> {}".format(
        bm, e.c(0), t0, tmA, mbar, sA_t))
    if cluster:
        gc.cluster_b_loads(e, slabs_mine, b_cols, slab_view_t, t0, tmB, mbar)
    for j in range(0 if cluster else slabs):
        e.emit("nvgpu.tma.async.load %tmB[{}, %k], %mbar[{}] to {}, predicate = {} : {}, {} -> {}".format(
            b_cols[j], e.c(0), slabs_v[j], t0, tmB, mbar, slab_t.format(j * 4096)))
    e.emit("// b. every thread waits for phase t = k / {} of the mbarrier (parity t % 2)".format(BK))
    kt = e.div("kt", "%k", BK)
    par = e.op("par", "arith.index_cast {} : index to i1".format(e.rem("kt2", kt, 2)))
    e.emit("nvgpu.mbarrier.try_wait.parity %mbar[{}], {}, {} : {}".format(e.c(0), par, e.c(10000000), mbar))
    e.emit("// c. compute phase: TMA wrote through the async proxy, as wgmma reads: no proxy fence")
    if WG == 2:
        e.op("sAw", "memref.subview %sA[{}, 0] [64, 64] [1, 1] : {} to {}".format(wg_row, sA_t, sAw_t))
        e.op("dA", "nvgpu.warpgroup.generate.descriptor %sAw, %tmAw : {}, {} -> {}".format(sAw_t, tmAw, dA))
    else:
        e.op("dA", "nvgpu.warpgroup.generate.descriptor %sA, %tmA : {}, {} -> {}".format(sA_t, tmA, dA))
    e.op("dB", "nvgpu.warpgroup.generate.descriptor %sB, %tmB : {}, {} -> {}".format(sB_t, tmB, dB))
    e.op("acc_next", "nvgpu.warpgroup.mma %dA, %dB, %acc {{transposeB, waitGroup = 0 : i64}} : "
         "{}, {}, {} -> {}".format(dA, dB, acc, acc))
    if cluster:
        gc.cluster_release(e)
    else:
        e.emit("// d. every wgmma of this tile retired before the next TMA overwrites the tiles")
    e.emit("gpu.barrier")
    e.emit("scf.yield %acc_next : " + acc)
    e.ind -= 1
    e.emit("}" + outer_attr(a))
    if tma_store:
        tma_store_epilogue(e, BN, tid, bm, bn, "%wg", wg_row, acc, lead, ct=ct)
    else:
        wgmma_epilogue(e, BM, BN, N, tid, bm, bn, wg_row if WG == 2 else None, gC, acc, ct=ct)
    grid = (N // BN, M // BM)
    if a.persistent:
        e.ind -= 1
        e.emit("}")
        grid = (a.persistent, 1)
    if tma_store:
        tma_store_drain(e, lead)
    e.emit("gpu.return")

    out = ["// Generated by examples/gen_gemm.py -- do not edit by hand.",
           "// Command: " + a.cmdline]
    out += ["// " + l if l else "//" for l in WGMMA_TMA_NOTES.splitlines()]
    if a.persistent:
        out += ["// " + l if l else "//" for l in PERSISTENT_NOTES.splitlines()]
    if cluster:
        out += ["// " + l if l else "//" for l in gc.CLUSTER_NOTES.splitlines()]
    if tma_store:
        out += ["// " + l if l else "//" for l in TMA_STORE_NOTES.splitlines()]
    out.append("// HGEMM (wgmma, TMA): C({}) = A(f16) * B (NN), M={} N={} K={}, tile {}x{}x{}, {} threads, "
               "grid ({}, {}, 1).".format(ct, M, N, K, BM, BN, BK, T, grid[0], grid[1]))
    if ct != "f32":
        out.append("// --c-type: C has the inputs' type (as torch.matmul returns it); the f32 accumulators "
                   "are rounded to it (arith.truncf) in the epilogue.")
    if WG == 2:
        out.append("// Two warpgroups: the A descriptor of warpgroup w starts at row 64w; " + (
            "each warpgroup stores its fragment through shared memory with TMA (--epilogue tma-store)."
            if tma_store else
            "each thread stores its accumulator fragment (the --threads 256 epilogue of --copy threads)."))
        out.append("!frag = !llvm.struct<(struct<({})>)>".format(", ".join(["f32"] * (BN // 2))))
    if tma_store:
        return tma_kernel_module(out, a, e, name, (gA, gB, gC),
                                 ", %tmaC: !llvm.ptr {pk.tensor_map_of = 2 : i64}", sA_t, sB_t, grid,
                                 extra_workgroup=", %sC : {} {{llvm.align = 1024 : i64}}".format(c_tile_type(ct)))
    return tma_kernel_module(out, a, e, name, (gA, gB, gC), "", sA_t, sB_t, grid)


def tma_kernel_module(out, a, e, name, globals3, extra_params, sA_t, sB_t, grid, extra_workgroup=""):
    """Appends to the header lines `out` the module of a TMA wgmma kernel:
    parameters A, B, C (types `globals3`), the two tensor-map pointers and
    `extra_params`, the 1024-byte aligned tiles sA and sB (and
    `extra_workgroup`), the launch attributes, the emitter's constants and
    body; returns the text."""
    gA, gB, gC = globals3
    out.append("module attributes {gpu.container_module} {")
    out.append("  gpu.module @{} {{".format(name))
    out.append("    gpu.func @{}(%A: {}, %B: {}, %C: {} {{llvm.noalias}}, %tmaA: !llvm.ptr, "
               "%tmaB: !llvm.ptr{})".format(name, gA, gB, gC, extra_params))
    out.append("        workgroup(%sA : {} {{llvm.align = 1024 : i64}}, "
               "%sB : {} {{llvm.align = 1024 : i64}}{})".format(sA_t, sB_t, extra_workgroup))
    minb = "nvvm.minctasm = {} : i32, ".format(a.min_blocks) if a.min_blocks else ""
    if a.cluster > 1:
        minb += "nvvm.cluster_dim = array<i32: {}, 1, 1>, ".format(a.cluster)
    out.append("        kernel attributes {{{}known_block_size = array<i32: {}, 1, 1>, "
               "known_grid_size = array<i32: {}, {}, 1>}} {{".format(minb, a.threads, grid[0], grid[1]))
    for v in sorted(e.consts):
        out.append("      {} = arith.constant {} : index".format(e.consts[v], v))
    out.extend(e.lines)
    out += ["    }", "  }", "}"]
    return "\n".join(out) + "\n"


def as_bf16_wgmma(text):
    """The bf16 form of a wgmma kernel written for f16: the two element types
    share everything the generator decides (2-byte elements, so the tiles,
    the 128-byte swizzle, the TMA boxes and the wgmma shape m64nNk16), only
    the type names differ. Rewrites them, and the kernel's name (hgemm_* ->
    bgemm_*, _f16_ -> _bf16_) unless --name gave one."""
    text = re.sub(r"(?<=[x ])f16\b", "bf16", text)
    text = re.sub(r"\bhgemm_wgmma(\w*)_f16_", r"bgemm_wgmma\1_bf16_", text)
    return text.replace("// HGEMM (wgmma", "// BGEMM (wgmma").replace("A(f16)", "A(bf16)")


def write_output(text, path):
    """Writes a generated kernel to `path` ('-': stdout); the examples'
    other generators share it."""
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)


def main(argv=None):
    p = argparse.ArgumentParser(
        description="Generate an unpipelined tiled GEMM kernel (TN layout: "
                    "C[m][n] = sum_k A[m][k]*B[n][k]) as MLIR gpu.func.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
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
    # The generators state what they cannot generate as assertions: a
    # message, not a traceback.
    try:
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
        if fp8:
            from gen_wgmma_fp8 import gen_wgmma_tma_fp8
            text = gen_wgmma_tma_fp8(a)
        elif a.copy == "tma":
            text = gen_wgmma_tma(a)
        else:
            text = gen_wgmma(a) if a.mma == "wgmma" else gen(a)
    except AssertionError as ex:
        sys.exit("gen_gemm.py: error: %s" % ex)
    if a.kind == "bgemm" and a.mma == "wgmma":
        text = as_bf16_wgmma(text)
    write_output(text, a.output)


if __name__ == "__main__":
    main()
