#!/usr/bin/env python3
"""Generate an unpipelined FlashAttention-2 forward kernel (mma.sync) in MLIR.

Output: `module attributes {gpu.container_module}` holding one `gpu.module`
with one `gpu.func ... kernel` (static shapes, no host code), in the dialects
and style of examples/gen_gemm.py (nvgpu.ldmatrix, nvgpu.mma.sync m16n8k16,
16-byte vector.load/store copies into XOR-swizzled workgroup attributions).

Semantics (f16 in, f32 math, f16 out)
-------------------------------------
  Q, K, V, O : memref<BH x S x D x f16>, row-major (D contiguous); BH =
  batch * heads.  For every bh:
     O[bh] = softmax(Q[bh] K[bh]^T / sqrt(D)) V[bh]
  --causal: key j > query i is masked out (the standard lower-triangular
  mask, torch's scaled_dot_product_attention(is_causal=True)).
  Grid = (S/BM, BH, 1): block_id.x = query tile (rows q0 = bx*BM .. +BM),
  block_id.y = bh.  Block = (BM/16 warps * 32, 1, 1): every warp owns 16
  query rows (BM = 64: 4 warps = 128 threads; BM = 128: 8 warps).
  Kernel arguments: Q, K, V {llvm.noalias, llvm.readonly} (ld.global.nc),
  O {llvm.noalias}; known_block_size and known_grid_size are set.
  nvvm.minctasm (--min-blocks): none for BM = 64; 1 for BM = 128, since
  pk's blocks/SM target is otherwise 2, which caps 256-thread blocks at 128
  registers (the d128 kernels then spill hundreds of bytes and stages=auto
  declines every candidate).
  Shared memory: 2*BN*D*2 bytes (d128: 32 KB); pk's 2-stage d128 kernels
  (64 KB) move to dynamic shared memory, so the launcher must raise
  cudaFuncAttributeMaxDynamicSharedMemorySize.

Form (pk's input contract, docs/input-contract.md)
--------------------------------------------------
  before the loop: every thread loads its Q A-fragments straight from global
  memory into registers (D/16 x vector<4x2xf16>, 4-byte loads; Q is read
  once per block), the O accumulators are zero, m = -inf, l = 0.
  %r:N = scf.for %kv = 0 to UB step BN iter_args(O fragments, m0, m1, l0, l1) {
    a. load phase : K[bh, kv .. kv+BN, :] -> sK, V[bh, kv .., :] -> sV with
                    16-byte vector.load (global) + vector.store (shared),
                    global loads first; no iter_args used.
    b. gpu.barrier
    c. compute    : S = Q K^T (mma.sync, K fragments by ldmatrix from sK),
                    causal mask (arith.select), online softmax (f32, exp2),
                    O = O * alpha + P V (V fragments by ldmatrix.trans from sV).
                    Shared reads, arithmetic and gpu.shuffle only.
    d. gpu.barrier
    e. scf.yield O fragments, m_new, l_new
  } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
  epilogue: l reduced over the quad, O / l -> f16 -> O (4-byte stores).
  UB = S, or with --causal (bx+1)*BM: the trip count depends on the block
  (pk versions such a loop on its trip count: the pipelined loop runs when
  the block's trip count is at least the stage count, the original loop
  otherwise).  The mask is applied in every tile (the compute phase
  may hold no scf.if); away from the diagonal it selects nothing.  Every
  row sees key 0 in tile 0, so m is finite from the first tile on and no
  -inf - -inf (NaN) can arise: a tile fully masked for a row (BM > BN)
  gives p = exp2(-inf) = 0 and alpha = 1 for it.

Softmax in the log2 domain
--------------------------
  c = log2(e) / sqrt(D).  m is kept in the unscaled score domain.  Per tile
  and row r (each thread holds parts of rows g and g+8):
     mt      = max over the thread's BN/4 scores of the row, then over the
               quad (gpu.shuffle xor 1, xor 2; the 4 threads of a quad hold
               the same 2 rows)
     m_new   = max(m_old, mt)
     alpha   = exp2(m_old*c - m_new*c)      (0 in tile 0: m_old = -inf)
     p       = exp2(s*c - m_new*c)          (mask: s = -inf -> p = 0)
     l       = l*alpha + sum of the thread's p of the row   (thread-local;
               reduced over the quad once, after the loop)
     O[r][:] = O[r][:] * alpha
  math.exp2 (f32) lowers to ex2.approx.f32 (convert-gpu-to-nvvm); ex2 of
  -inf is +0.

Notation: tid = thread_id.x, lane = tid % 32, warp = tid / 32, g = lane / 4
("groupID"), t = lane % 4 ("threadID_in_group"), qr0 = bx*BM + warp*16 + g,
qr1 = qr0 + 8 (the two query rows of the thread).

MMA fragments (PTX ISA "Matrix Fragments for mma.m16n8k16", as gen_gemm.py)
---------------------------------------------------------------------------
  A vector<4x2xf16>: reg0 = A[g][2t..2t+1]    reg1 = A[g+8][2t..2t+1]
                     reg2 = A[g][8+2t..]      reg3 = A[g+8][8+2t..]
  B vector<2x2xf16> (B given as [n][k]): reg0 = B[n=g][k=2t..2t+1],
                     reg1 = B[n=g][k=8+2t..]
  C/D vector<2x2xf32>: row0 = C[g][2t, 2t+1], row1 = C[g+8][2t, 2t+1]

  1. S = Q K^T (m = query, n = key, k = d): per warp 16 x BN, BN/8 n8-tiles.
     A = Q fragment of k-step ks (d = 16ks ..): loaded from global:
        reg0 = Q[bh, qr0, 16ks+2t ..+1]   reg1 = Q[bh, qr1, 16ks+2t ..]
        reg2 = Q[bh, qr0, 16ks+8+2t ..]   reg3 = Q[bh, qr1, 16ks+8+2t ..]
     B = K as [n = key][k = d], K-contiguous: gen_gemm's B operand.
     ldmatrix.x4 (non-transposed) per key pair (2p, 2p+1) and k-step ks:
     lane l addresses sK[16p + l%8 + 8*(l/16)][16ks + ((l/8)%2)*8]; result
     rows {0,1} = B fragment of key tile 2p, rows {2,3} = key tile 2p+1.
  2. P as the A operand of O += P V (m = query, k = key, n = d): the C
     fragments of key tiles 2kk and 2kk+1 hold P[g][16kk + 2t ..],
     P[g+8][16kk + 2t ..], P[g][16kk + 8 + 2t ..], P[g+8][16kk + 8 + 2t ..]
     which are exactly reg0..reg3 of the A fragment of k-step kk:
        A_kk = [C_2kk.row0, C_2kk.row1, C_2kk+1.row0, C_2kk+1.row1] (f16)
     (truncf of each vector<2xf32> row, vector.insert into vector<4x2xf16>).
  3. B = V as [k = key][n = d] (V is key-major, d contiguous): the B fragment
     wants (V[2t][g], V[2t+1][g]) and (V[8+2t][g], V[9+2t][g]).
     ldmatrix.trans delivers to lane l, from the 8x8 matrix whose rows it
     addresses, the elements (row 2(l%4), col l/4), (row 2(l%4)+1, col l/4):
     with rows = keys and columns = d that is the B fragment.  x4 per
     d pair (2p, 2p+1) and key k-step kk: matrices (keys 0-7, d 0-7),
     (keys 8-15, d 0-7), (keys 0-7, d 8-15), (keys 8-15, d 8-15);
     lane l addresses sV[16kk + l%8 + 8*((l/8)%2)][16p + (l/16)*8];
     rows {0,1} = B fragment of d tile 2p, rows {2,3} = d tile 2p+1.
  O accumulator: D/8 C fragments per thread (rows qr0, qr1, d = 8n + 2t ..).

Shared layout: sK, sV = memref<BN x D x f16> (workgroup attributions, no
padding, 2*BN*D*2 bytes in all), XOR-swizzled 16-byte chunks:
  chunk c (d = 8c .. 8c+7) of row r is stored at chunk c ^ (r % 8).
  CH = D/8 chunks per row (8 or 16: 128- or 256-byte rows).
  * Stores: CH consecutive threads copy one row (the "row" copy map of
    gen_gemm.py): thread tid copies chunk tid % CH of rows tid / CH + i*T/CH
    (T/CH is a multiple of 8, so r % 8 is the same for all i).  A quarter
    warp stores 8 chunks of one row, a permutation within an aligned
    128-byte span: 32 distinct banks.
  * ldmatrix: an 8x8 matrix reads 8 consecutive rows r0..r0+7 (r0 % 8 == 0)
    at one logical chunk c: physical chunks c ^ 0 .. c ^ 7 differ in their
    low 3 bits, and every row starts at bank 0 (128-byte multiples):
    32 distinct banks.
  * The rows of a lane's ldmatrix address are r = 8j + l%8, so the swizzle
    term is l%8; the logical chunk is an even constant (2ks, 2p) plus a
    lane bit h (K: (l/8)%2, V: l/16), hence the physical chunk is
    (h ^ l%8) ^ 2ks, computed per k-step from a loop-invariant lane value.

Lowering: as gen_gemm.py's, e.g.
  pk-opt K.mlir --pk-emit-binaries='arch=sm_90 emit=ptx bare-ptr=1 out-dir=D'
  pk-opt K.mlir --pipeline-kernel='arch=sm_90 variant=cp-async emit=cubin bare-ptr=1 out-dir=D'
Kernel parameters are four bare pointers (Q, K, V, O).  Checked (no GPU)
by integration/test/gen/attention.test: pk's remarks, ptxas, and a SIMT
interpretation of the unpipelined and pipelined MLIR against a reference
(integration/test/gen/simt.py, check_attention.py).
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_gemm import Emitter as GemmEmitter, write_output  # noqa: E402

SMEM = "#gpu.address_space<workgroup>"
V2F32 = "vector<2xf32>"
V2F16 = "vector<2xf16>"
FRAG_A = "vector<4x2xf16>"
FRAG_B = "vector<2x2xf16>"
FRAG_C = "vector<2x2xf32>"
UNROLL_DISABLE = "{loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}"


class Emitter(GemmEmitter):
    """gen_gemm.py's emitter (body lines, fresh names, index arithmetic) with
    negative index constants, i32 constants, xor and f32 arithmetic; the
    constants are declared in front at the end."""

    def __init__(self):
        super().__init__()
        self.i32 = {}

    def c(self, v):
        """index constant"""
        name = "%c{}".format(v) if v >= 0 else "%cm{}".format(-v)
        self.consts[v] = name
        return name

    def ci32(self, v):
        name = "%i{}_i32".format(v) if v >= 0 else "%im{}_i32".format(-v)
        self.i32[v] = name
        return name

    def xor(self, base, a, b):
        if isinstance(b, int):
            if b == 0:
                return a
            b = self.c(b)
        return self.op(base, "arith.xori {}, {} : index".format(a, b))

    # f32 scalar arithmetic
    def f(self, base, opname, *args):
        return self.op(base, "arith.{} {} : f32".format(opname, ", ".join(args)))


def memref(shape, t, space=None):
    s = "memref<{}x{}".format("x".join(str(d) for d in shape), t)
    if space:
        s += ", " + space
    return s + ">"


class Kernel:
    """Sizes and types of one configuration."""

    def __init__(self, a):
        self.BH, self.S, self.D, self.BM, self.BN = a.BH, a.S, a.D, a.BM, a.BN
        self.causal = a.causal
        self.T = self.BM // 16 * 32              # one warp per 16 query rows
        self.CH = self.D // 8                    # 16-byte chunks per tile row
        self.rstep = self.T // self.CH           # tile rows per copy pass
        self.ncopy = self.BN // self.rstep       # 16-byte copies per thread and tile
        self.name = a.name or "fa2_fwd_d{}_{}x{}{}".format(
            self.D, self.BM, self.BN, "_causal" if self.causal else "")
        self.g_t = memref([self.BH, self.S, self.D], "f16")
        self.s_t = memref([self.BN, self.D], "f16", SMEM)
        self.scale_log2 = math.log2(math.e) / math.sqrt(self.D)
        self.NS = self.BN // 8                   # S n8-tiles per warp (keys)
        self.NO = self.D // 8                    # O n8-tiles per warp (d)
        self.KQ = self.D // 16                   # k-steps of Q K^T
        self.KP = self.BN // 16                  # k-steps of P V


def check(k):
    assert k.D in (64, 128), "--D must be 64 or 128"
    assert k.BM in (64, 128), "--BM must be 64 (4 warps) or 128 (8 warps)"
    assert k.BN in (32, 64, 128), "--BN must be 32, 64 or 128"
    assert k.S % k.BM == 0 and k.S % k.BN == 0, "S must be a multiple of BM and BN"
    assert k.BH >= 1 and k.S >= k.BM
    assert k.rstep % 8 == 0 and k.BN % k.rstep == 0, \
        "copy map: T/CH rows per pass must be a multiple of 8 dividing BN"
    if k.causal:
        assert k.BM % k.BN == 0, "--causal: BM must be a multiple of BN (whole key tiles up to the diagonal)"


# ----------------------------------------------------------------- phases

def prologue(e, k):
    """Thread indices, copy and ldmatrix offsets (loop-invariant), the Q
    fragments.  Returns a dict of the values the later phases use."""
    v = {}
    v["tid"] = tid = e.op("tid", "gpu.thread_id x")
    v["bx"] = bx = e.op("bx", "gpu.block_id x")
    v["bh"] = e.op("bh", "gpu.block_id y")
    lane = e.rem("lane", tid, 32)
    warp = e.div("warp", tid, 32)
    g = e.div("g", lane, 4)
    t = e.rem("t", lane, 4)
    v["t2"] = e.mul("t2", t, 2)
    e.emit("// the thread's query rows: qr0 = bx*{} + warp*16 + g, qr1 = qr0 + 8".format(k.BM))
    v["q0"] = q0 = e.mul("q0", bx, k.BM)
    qw = e.op("qw", "arith.addi {}, {} : index".format(q0, e.mul("wq", warp, 16)))
    v["qr0"] = qr0 = e.op("qr0", "arith.addi {}, {} : index".format(qw, g))
    v["qr1"] = e.add("qr1", qr0, 8)

    e.emit("// global->shared copy map: {} consecutive threads copy the {} 16-byte chunks of".format(k.CH, k.CH))
    e.emit("// one tile row; chunk c of row r is stored at chunk c ^ (r % 8) (rows + i*{} keep r % 8)".format(
        k.rstep))
    ld_row = e.div("ld_row", tid, k.CH)
    chunk = e.rem("ld_chunk", tid, k.CH)
    v["ld_col"] = e.mul("ld_col", chunk, 8)
    v["st_col"] = e.mul("st_col", e.xor("st_chunk", chunk, e.rem("st_f", ld_row, 8)), 8)
    v["rows"] = [e.add("ld_row{}".format(i), ld_row, i * k.rstep) if i else ld_row
                 for i in range(k.ncopy)]

    e.emit("// ldmatrix lane addresses (swizzle term l%8, see the generator's docstring):")
    e.emit("//   sK (x4):       row 16p + l%8 + 8*(l/16),     chunk (2ks + (l/8)%2) ^ l%8")
    e.emit("//   sV (x4.trans): row 16kk + l%8 + 8*((l/8)%2), chunk (2p + l/16) ^ l%8")
    l8 = e.rem("l_mod8", lane, 8)
    l16 = e.div("l_div16", lane, 16)
    hb = e.rem("l_div8_mod2", e.div("l_div8", lane, 8), 2)
    k_row = e.op("k_row", "arith.addi {}, {} : index".format(l8, e.mul("l_div16x8", l16, 8)))
    v_row = e.op("v_row", "arith.addi {}, {} : index".format(l8, e.mul("l_div8_mod2x8", hb, 8)))
    xk = e.xor("k_x", hb, l8)
    xv = e.xor("v_x", l16, l8)
    v["k_rows"] = [e.add("k_row{}".format(p), k_row, 16 * p) for p in range(k.BN // 16)]
    v["k_cols"] = [e.mul("k_col{}".format(ks), e.xor("k_chunk{}".format(ks), xk, 2 * ks), 8)
                   for ks in range(k.KQ)]
    v["v_rows"] = [e.add("v_row{}".format(kk), v_row, 16 * kk) for kk in range(k.KP)]
    v["v_cols"] = [e.mul("v_col{}".format(p), e.xor("v_chunk{}".format(p), xv, 2 * p), 8)
                   for p in range(k.D // 16)]

    e.emit("// Q A-fragments, straight from global memory (once per block): k-step ks holds")
    e.emit("// Q[qr0][16ks+2t..], Q[qr1][16ks+2t..], Q[qr0][16ks+8+2t..], Q[qr1][16ks+8+2t..]")
    qf = []
    for ks in range(k.KQ):
        c0 = e.add("qc{}".format(ks), v["t2"], 16 * ks)
        c1 = e.add("qc{}h".format(ks), v["t2"], 16 * ks + 8)
        frag = "%zero_a"
        for reg, (row, col) in enumerate(((qr0, c0), (v["qr1"], c0), (qr0, c1), (v["qr1"], c1))):
            x = e.op("qv{}_{}".format(ks, reg), "vector.load %Q[{}, {}, {}] {{alignment = 4 : i64}} : {}, {}".format(
                v["bh"], row, col, k.g_t, V2F16))
            frag = e.op("qf{}".format(ks) if reg == 3 else "qf{}_{}".format(ks, reg),
                        "vector.insert {}, {} [{}] : {} into {}".format(x, frag, reg, V2F16, FRAG_A))
        qf.append(frag)
    v["qf"] = qf
    if k.causal:
        e.emit("// causal: keys 0 .. (bx+1)*{} - 1 (the diagonal tile(s) last)".format(k.BM))
        v["ub"] = e.mul("kv_end", e.add("bx1", bx, 1), k.BM)
    else:
        v["ub"] = e.c(k.S)
    return v


def load_phase(e, k, v):
    """a. K and V tiles, global -> shared (16-byte copies, global loads first)."""
    e.emit("// a. load phase: K[bh, kv + r, :] -> sK[r], V[bh, kv + r, :] -> sV[r] ({} + {} 16-byte copies "
           "per thread)".format(k.ncopy, k.ncopy))
    vt = "vector<8xf16>"
    grows = [e.op("g_row{}".format(i), "arith.addi %kv, {} : index".format(r)) for i, r in enumerate(v["rows"])]
    loaded = {}
    for src in ("K", "V"):
        loaded[src] = [e.op("g{}{}".format(src.lower(), i),
                            "vector.load %{}[{}, {}, {}] {{alignment = 16 : i64}} : {}, {}".format(
                                src, v["bh"], gr, v["ld_col"], k.g_t, vt))
                       for i, gr in enumerate(grows)]
    for src in ("K", "V"):
        for i, r in enumerate(v["rows"]):
            e.emit("vector.store {}, %s{}[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
                loaded[src][i], src, r, v["st_col"], k.s_t, vt))


def ldmatrix_mma_pair(e, k, name, tile, row, col, transpose, a, accs, j0, result_name):
    """The step S = Q K^T and O += P V share: one ldmatrix.x4 of `tile` at
    (row, col) (transposed for sV), split into the B fragments of accs[j0]
    and accs[j0 + 1], each multiplied with the A fragment `a` into its
    accumulator (result_name(j) names the new value)."""
    b4 = e.op(name, "nvgpu.ldmatrix {}[{}, {}] {{numTiles = 4 : i32, transpose = {}}} : {} -> {}".format(
        tile, row, col, "true" if transpose else "false", k.s_t, FRAG_A))
    for q in range(2):
        j = j0 + q
        b = e.op("{}_{}".format(name, q), "vector.shuffle {0}, {0} [{1}, {2}] : {3}, {3}".format(
            b4, 2 * q, 2 * q + 1, FRAG_A))
        accs[j] = e.op(result_name(j), "nvgpu.mma.sync ({}, {}, {}) {{mmaShape = [16, 8, 16]}} : ({}, {}, {}) -> {}".format(
            a, b, accs[j], FRAG_A, FRAG_B, FRAG_C, FRAG_C))


def scores(e, k, v):
    """S = Q K^T for the warp's 16 rows and the tile's BN keys (f32)."""
    e.emit("// S = Q K^T: {} k-steps x {} ldmatrix.x4 (sK) + {} mma.sync".format(k.KQ, k.BN // 16, k.NS))
    s = ["%zero_c"] * k.NS
    for p in range(k.BN // 16):
        for ks in range(k.KQ):
            last = ks == k.KQ - 1
            ldmatrix_mma_pair(e, k, "kb{}_{}".format(p, ks), "%sK", v["k_rows"][p], v["k_cols"][ks], False,
                              v["qf"][ks], s, 2 * p, lambda j: "s{}".format(j) if last else "s{}_{}".format(j, ks))
    # scalars: x[j][r][c] = S[row r (0: qr0, 1: qr1)][key kv + 8j + 2t + c]
    return [[[e.op("s{}_{}{}".format(j, r, c), "vector.extract {}[{}, {}] : f32 from {}".format(s[j], r, c, FRAG_C))
              for c in range(2)] for r in range(2)] for j in range(k.NS)]


def causal_mask(e, k, v, x):
    """s = -inf where key > query: key - query = (kv + 2t - qr) + 8j + c."""
    e.emit("// causal mask: key kv + 8j + 2t + c > query qr  <=>  (kv + 2t - qr) > -(8j + c)")
    kt = e.op("kv_t2", "arith.addi %kv, {} : index".format(v["t2"]))
    diff = []
    for r in range(2):
        d = e.op("kq{}".format(r), "arith.subi {}, {} : index".format(kt, v["qr{}".format(r)]))
        diff.append(e.op("kq{}_i32".format(r), "arith.index_cast {} : index to i32".format(d)))
    out = []
    for j in range(k.NS):
        rows = []
        for r in range(2):
            cols = []
            for c in range(2):
                m = e.op("mk{}_{}{}".format(j, r, c), "arith.cmpi sgt, {}, {} : i32".format(
                    diff[r], e.ci32(-(8 * j + c))))
                cols.append(e.op("sm{}_{}{}".format(j, r, c), "arith.select {}, %ninf, {} : f32".format(
                    m, x[j][r][c])))
            rows.append(cols)
        out.append(rows)
    return out


def quad_reduce(e, base, val, opname):
    """Reduce a per-row f32 over the 4 threads of a quad (lanes 4g .. 4g+3)."""
    for off in (1, 2):
        sh = e.fresh("{}_sh{}".format(base, off))
        e.emit("{}, {}_ok = gpu.shuffle xor {}, {}, %i32_i32 : f32".format(sh, sh, val, e.ci32(off)))
        val = e.f("{}_x{}".format(base, off), opname, val, sh)
    return val


def online_softmax(e, k, x, m_old, l_old):
    """New row max, p = exp2(s*c - m*c), alpha, l.  Returns (p, m_new,
    alpha, l_new) with p[j][r][c] f32."""
    e.emit("// online softmax (log2 domain, c = log2(e)/sqrt({}) = %scale)".format(k.D))
    m_new, alpha, mc = [], [], []
    for r in range(2):
        mx = x[0][r][0]
        for j in range(k.NS):
            for c in range(2):
                if (j, c) != (0, 0):
                    mx = e.f("mx{}".format(r), "maxnumf", mx, x[j][r][c])
        mx = quad_reduce(e, "mq{}".format(r), mx, "maxnumf")
        mn = e.f("m_new{}".format(r), "maxnumf", m_old[r], mx)
        m_new.append(mn)
        mc.append(e.f("mc{}".format(r), "mulf", mn, "%scale"))
        d = e.f("mdiff{}".format(r), "subf", e.f("moc{}".format(r), "mulf", m_old[r], "%scale"), mc[r])
        alpha.append(e.op("alpha{}".format(r), "math.exp2 {} : f32".format(d)))
    p = [[[None, None], [None, None]] for _ in range(k.NS)]
    for j in range(k.NS):
        for r in range(2):
            for c in range(2):
                z = e.f("z{}_{}{}".format(j, r, c), "subf",
                        e.f("sc{}_{}{}".format(j, r, c), "mulf", x[j][r][c], "%scale"), mc[r])
                p[j][r][c] = e.op("p{}_{}{}".format(j, r, c), "math.exp2 {} : f32".format(z))
    l_new = []
    for r in range(2):
        acc = e.f("l_sc{}".format(r), "mulf", l_old[r], alpha[r])
        for j in range(k.NS):
            for c in range(2):
                acc = e.f("l_acc{}".format(r), "addf", acc, p[j][r][c])
        l_new.append(acc)
    return p, m_new, alpha, l_new


def p_fragments(e, k, p):
    """P (f32 C fragments of key tiles 2kk, 2kk+1) -> f16 A fragment of k-step kk."""
    e.emit("// P as A operand: A_kk = [C_2kk.row0, C_2kk.row1, C_2kk+1.row0, C_2kk+1.row1] in f16")
    frags = []
    for kk in range(k.KP):
        frag = "%zero_a"
        for reg, (j, r) in enumerate(((2 * kk, 0), (2 * kk, 1), (2 * kk + 1, 0), (2 * kk + 1, 1))):
            pv = e.op("pv{}_{}".format(kk, reg), "vector.from_elements {}, {} : {}".format(
                p[j][r][0], p[j][r][1], V2F32))
            ph = e.op("ph{}_{}".format(kk, reg), "arith.truncf {} : {} to {}".format(pv, V2F32, V2F16))
            frag = e.op("pa{}".format(kk) if reg == 3 else "pa{}_{}".format(kk, reg),
                        "vector.insert {}, {} [{}] : {} into {}".format(ph, frag, reg, V2F16, FRAG_A))
        frags.append(frag)
    return frags


def row_scale(e, base, s0, s1):
    """vector<2x2xf32> [[s0, s0], [s1, s1]]: row r of a C fragment times s_r."""
    b0 = e.op(base + "_r0", "vector.broadcast {} : f32 to {}".format(s0, V2F32))
    b1 = e.op(base + "_r1", "vector.broadcast {} : f32 to {}".format(s1, V2F32))
    m = e.op(base + "_0", "vector.insert {}, %zero_c [0] : {} into {}".format(b0, V2F32, FRAG_C))
    return e.op(base, "vector.insert {}, {} [1] : {} into {}".format(b1, m, V2F32, FRAG_C))


def pv_update(e, k, v, o_in, alpha, pa):
    """O = O * alpha + P V."""
    e.emit("// O = O * alpha + P V: {} k-steps x {} ldmatrix.x4.trans (sV) + {} mma.sync".format(
        k.KP, k.D // 16, k.NO))
    am = row_scale(e, "alpha_m", alpha[0], alpha[1])
    o = [e.op("os{}".format(n), "arith.mulf {}, {} : {}".format(o_in[n], am, FRAG_C)) for n in range(k.NO)]
    for kk in range(k.KP):
        for p in range(k.D // 16):
            last = kk == k.KP - 1
            ldmatrix_mma_pair(e, k, "vb{}_{}".format(kk, p), "%sV", v["v_rows"][kk], v["v_cols"][p], True,
                              pa[kk], o, 2 * p, lambda n: "o{}".format(n) if last else "o{}_{}".format(n, kk))
    return o


def kv_loop(e, k, v):
    """The K/V loop: load phase, barrier, compute, barrier, yield."""
    o_args = ["%oacc{}".format(n) for n in range(k.NO)]
    names = o_args + ["%m_0", "%m_1", "%l_0", "%l_1"]
    inits = ["%zero_c"] * k.NO + ["%ninf", "%ninf", "%zero_f", "%zero_f"]
    tys = [FRAG_C] * k.NO + ["f32"] * 4
    nres = len(names)
    e.emit("%res:{} = scf.for %kv = {} to {} step {} iter_args({}) -> ({}) {{".format(
        nres, e.c(0), v["ub"], e.c(k.BN), ", ".join("{} = {}".format(n, i) for n, i in zip(names, inits)),
        ", ".join(tys)))
    e.ind += 1
    load_phase(e, k, v)
    e.emit("// b.")
    e.emit("gpu.barrier")
    e.emit("// c. compute phase (registers and shared reads only)")
    x = scores(e, k, v)
    if k.causal:
        x = causal_mask(e, k, v, x)
    p, m_new, alpha, l_new = online_softmax(e, k, x, ["%m_0", "%m_1"], ["%l_0", "%l_1"])
    pa = p_fragments(e, k, p)
    o = pv_update(e, k, v, o_args, alpha, pa)
    e.emit("// d.")
    e.emit("gpu.barrier")
    e.emit("scf.yield {} : {}".format(", ".join(o + m_new + l_new), ", ".join(tys)))
    e.ind -= 1
    e.emit("} " + UNROLL_DISABLE)
    return ["%res#{}".format(i) for i in range(nres)]


def epilogue(e, k, v, res):
    """l over the quad, O / l, f16, 4-byte stores of the thread's fragments."""
    e.emit("// epilogue: l over the quad, O / l -> f16; the thread stores O[qr0|qr1][8n + 2t .. +1]")
    o, l = res[:k.NO], res[k.NO + 2:]
    inv = []
    for r in range(2):
        lr = quad_reduce(e, "lq{}".format(r), l[r], "addf")
        inv.append(e.f("inv_l{}".format(r), "divf", "%one_f", lr))
    im = row_scale(e, "inv_m", inv[0], inv[1])
    for n in range(k.NO):
        of = e.op("of{}".format(n), "arith.mulf {}, {} : {}".format(o[n], im, FRAG_C))
        oh = e.op("oh{}".format(n), "arith.truncf {} : {} to vector<2x2xf16>".format(of, FRAG_C))
        col = e.add("ocol{}".format(n), v["t2"], 8 * n)
        for r in range(2):
            x = e.op("oh{}_{}".format(n, r), "vector.extract {}[{}] : {} from vector<2x2xf16>".format(oh, r, V2F16))
            e.emit("vector.store {}, %O[{}, {}, {}] {{alignment = 4 : i64}} : {}, {}".format(
                x, v["bh"], v["qr{}".format(r)], col, k.g_t, V2F16))


def gen(a):
    k = Kernel(a)
    check(k)
    e = Emitter()
    e.ind = 3
    v = prologue(e, k)
    res = kv_loop(e, k, v)
    epilogue(e, k, v, res)
    e.emit("gpu.return")

    smem = 2 * k.BN * k.D * 2
    out = ["// Generated by examples/gen_attention.py -- do not edit by hand.",
           "// Command: " + a.cmdline,
           "// Fragment layouts, swizzle and softmax: see the docstring of examples/gen_attention.py.",
           "// FlashAttention-2 forward{}: O = softmax(Q K^T / sqrt({})) V, BH={} S={} D={}, f16 in/out, f32 "
           "math; BM={} query rows ({} warps, {} threads), BN={} keys per tile, grid ({}, {}, 1).".format(
               " (causal)" if k.causal else "", k.D, k.BH, k.S, k.D, k.BM, k.T // 32, k.T, k.BN,
               k.S // k.BM, k.BH),
           "// Shared memory: sK, sV {} = {} B each (single buffer, {} B total).".format(
               k.s_t, smem // 2, smem),
           "// Per K/V tile and warp: {} ldmatrix.x4 + {} mma.sync (S = Q K^T), {} ldmatrix.x4.trans + {} "
           "mma.sync (P V), {} exp2; {} + {} 16-byte copies per thread.".format(
               k.KQ * k.BN // 16, k.KQ * k.NS, k.KP * k.D // 16, k.KP * k.NO, 2 * 2 * k.NS + 2,
               k.ncopy, k.ncopy),
           "module attributes {gpu.container_module} {",
           "  gpu.module @{} {{".format(k.name)]
    ro = " {llvm.noalias, llvm.readonly}"
    out.append("    gpu.func @{}(%Q: {}{}, %K: {}{}, %V: {}{}, %O: {} {{llvm.noalias}})".format(
        k.name, k.g_t, ro, k.g_t, ro, k.g_t, ro, k.g_t))
    out.append("        workgroup(%sK : {0} {{llvm.align = 16 : i64}}, %sV : {0} {{llvm.align = 16 : i64}})".format(
        k.s_t))
    minb = "nvvm.minctasm = {} : i32, ".format(a.min_blocks) if a.min_blocks else ""
    out.append("        kernel attributes {{{}known_block_size = array<i32: {}, 1, 1>, "
               "known_grid_size = array<i32: {}, {}, 1>}} {{".format(minb, k.T, k.S // k.BM, k.BH))
    for c in sorted(e.consts):
        out.append("      {} = arith.constant {} : index".format(e.consts[c], c))
    e.ci32(32)
    for c in sorted(e.i32):
        out.append("      {} = arith.constant {} : i32".format(e.i32[c], c))
    out += ["      %zero_f = arith.constant 0.0 : f32",
            "      %one_f = arith.constant 1.0 : f32",
            "      %ninf = arith.constant 0xFF800000 : f32",
            "      // log2(e) / sqrt({})".format(k.D),
            "      %scale = arith.constant {!r} : f32".format(float("%.9g" % k.scale_log2)),
            "      %zero_a = arith.constant dense<0.0> : {}".format(FRAG_A),
            "      %zero_c = arith.constant dense<0.0> : {}".format(FRAG_C)]
    out.extend(e.lines)
    out += ["    }", "  }", "}"]
    return "\n".join(out) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(
        description="Generate an unpipelined FlashAttention-2 forward kernel (mma.sync m16n8k16, "
                    "f16 in/out, f32 softmax) as an MLIR gpu.func.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--BH", type=int, default=16, help="batch * heads (grid.y)")
    p.add_argument("--S", type=int, default=4096, help="sequence length (queries = keys)")
    p.add_argument("--D", type=int, default=64, choices=[64, 128], help="head dimension")
    p.add_argument("--BM", type=int, default=64, choices=[64, 128],
                   help="query rows per block (16 per warp: 64 = 4 warps, 128 = 8 warps)")
    p.add_argument("--BN", type=int, default=64, choices=[32, 64, 128], help="keys per K/V tile")
    p.add_argument("--causal", action="store_true", help="mask key j > query i; the K/V loop ends at "
                   "(block_id.x + 1) * BM")
    p.add_argument("--min-blocks", type=int, default=None,
                   help="nvvm.minctasm on the kernel (PTX .minnctapersm); 0: none. Default: "
                        "none for BM 64 (128 threads), 1 for BM 128 (256 threads: without it pk "
                        "targets 2 blocks/SM, i.e. 128 registers, and the d128 kernels spill)")
    p.add_argument("--name", default=None, help="kernel / gpu.module symbol name")
    p.add_argument("-o", "--output", default="-", help="output path ('-' = stdout)")
    a = p.parse_args(argv)
    if a.min_blocks is None:
        a.min_blocks = 1 if a.BM == 128 else 0
    args = sys.argv[1:] if argv is None else argv
    a.cmdline = "python3 examples/gen_attention.py " + " ".join(args)
    try:
        text = gen(a)
    except AssertionError as ex:
        sys.exit("gen_attention.py: error: %s" % ex)
    write_output(text, a.output)


if __name__ == "__main__":
    main()
