"""The wgmma HGEMM kernel with per-thread copies (--mma wgmma, WGMMA_NOTES):
its types, hand-built descriptors (--wgmma-desc), the accumulator
epilogues shared with the TMA kernels, gen_wgmma, and the f16 -> bf16
rewrite of a generated wgmma kernel (as_bf16_wgmma)."""

import re
from types import SimpleNamespace

from .common import SMEM, Emitter, memref, outer_attr


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
            v = e.fragment_pair(frag, 4 * j + 2 * i, st, scale, ct)
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
    WG = _check_wgmma(a)
    WM = BM // WG  # rows of one warpgroup's accumulator
    name = a.name or "hgemm_wgmma_f16_{}x{}x{}".format(BM, BN, BK)
    slabs = BN // 64
    sA_t = memref([BM, 64], "f16", SMEM)
    sB_t = memref([slabs, 64, 64], "f16", SMEM)
    gA, gB, gC = memref([M, K], "f16"), memref([K, N], "f16"), memref([M, N], "f32")
    tmA, tmB, dA, dB, acc = wgmma_types(WM, BN)

    e = Emitter()
    e.ind = 3
    tid = e.op("tid", "gpu.thread_id x")
    if not a.persistent:
        bm = e.mul("bm", e.op("by", "gpu.block_id y"), BM)
        bn = e.mul("bn", e.op("bx", "gpu.block_id x"), BN)
    wg_row = None
    if WG == 2:
        e.emit("// warpgroup w = tid / 128 computes rows 64w .. 64w+63 of the block")
        wg_row = e.mul("wg_row", e.div("wg", tid, 128), 64)
    e.op("null", "llvm.mlir.zero : !llvm.ptr")
    e.op("tmA", "builtin.unrealized_conversion_cast %null : !llvm.ptr to " + tmA)
    e.op("tmB", "builtin.unrealized_conversion_cast %null : !llvm.ptr to " + tmB)
    cp = _copy_offsets(e, T, BM, BN, tid, bm, bn)
    e.op("acc0", "nvgpu.warpgroup.mma.init.accumulator -> " + acc)
    e.emit("%res = scf.for %k = {} to {} step {} iter_args(%acc = %acc0) -> ({}) {{".format(
        e.c(0), e.c(K), e.c(BK), acc))
    e.ind += 1
    _load_phase(e, a, cp, gA, gB, sA_t, sB_t)
    e.emit("// c. compute phase: wgmma on the shared tiles ({} x 4 m64n{}k16{}), all retired "
           "before the barrier (waitGroup = 0)".format(WM // 64, BN, " per warpgroup" if WG > 1 else ""))
    _descriptors(e, a, wg_row, sA_t, sB_t, tmA, tmB, dA, dB)
    e.op("acc_next", "nvgpu.warpgroup.mma %dA, %dB, %acc {{transposeB, waitGroup = 0 : i64}} : "
         "{}, {}, {} -> {}".format(dA, dB, acc, acc))
    e.emit("// d.")
    e.emit("gpu.barrier")
    e.emit("scf.yield %acc_next : " + acc)
    e.ind -= 1
    e.emit("}" + outer_attr(a))
    wgmma_epilogue(e, BM, BN, N, tid, bm, bn, wg_row, gC, acc)
    e.emit("gpu.return")
    return _module_text(a, e, name, WG, (gA, gB, gC), sA_t, sB_t)


def _check_wgmma(a):
    """The tiles, threads and shapes gen_wgmma generates; returns the number
    of consumer warpgroups."""
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
    assert M % BM == 0 and N % BN == 0 and K % BK == 0, "wgmma kernels need whole tiles"
    return WG


def _copy_offsets(e, T, BM, BN, tid, bm, bn):
    """The per-thread copy of the load phase: A rows and B k-rows, global
    columns, and the 128B-swizzled shared columns (and B slab)."""
    cp = SimpleNamespace()
    e.emit("// A chunk v = tid + i*{0}: row v/8, k-chunk v%8 -> swizzled chunk (v%8) ^ (row%8)".format(T))
    a_c = e.rem("a_c", tid, 8)
    cp.a_col = e.mul("a_col", a_c, 8)
    cp.a_rows, cp.a_scols = [], []
    a_r = e.div("a_r", tid, 8)
    for i in range(BM * 8 // T):
        r = e.add("a_row{}".format(i), a_r, i * (T // 8))
        sw = e.op("a_sw", "arith.xori {}, {} : index".format(a_c, e.rem("a_r8", r, 8)))
        cp.a_rows.append((r, e.op("ga_row", "arith.addi {}, {} : index".format(bm, r))))
        cp.a_scols.append(e.mul("a_scol", sw, 8))
    cpr = BN // 8  # 16-byte chunks per B row
    e.emit("// B chunk v = tid + i*{0}: k-row v/{1}, n-chunk v%{1} -> slab (v%{1})/8, "
           "swizzled chunk ((v%{1})%8) ^ (k-row%8)".format(T, cpr))
    b_nc = e.rem("b_nc", tid, cpr)
    cp.b_gcol = e.op("gb_col", "arith.addi {}, {} : index".format(bn, e.mul("b_ncol", b_nc, 8)))
    cp.b_slab = e.div("b_slab", b_nc, 8)
    b_c = e.rem("b_c", b_nc, 8)
    cp.b_rows, cp.b_scols = [], []
    b_r = e.div("b_r", tid, cpr)
    for i in range(64 * cpr // T):
        r = e.add("b_row{}".format(i), b_r, i * (T // cpr))
        sw = e.op("b_sw", "arith.xori {}, {} : index".format(b_c, e.rem("b_r8", r, 8)))
        cp.b_rows.append(r)
        cp.b_scols.append(e.mul("b_scol", sw, 8))
    return cp


def _load_phase(e, a, cp, gA, gB, sA_t, sB_t):
    """a. and b. of the K-loop: 16-byte loads, swizzled shared stores, the
    proxy fence (--wgmma-proxy-fence) and the barrier."""
    vt = "vector<8xf16>"
    e.emit("// a. load phase: global -> shared, 16-byte chunks, 128B-swizzled")
    ga_col = e.op("ga_col", "arith.addi %k, {} : index".format(cp.a_col))
    va = [e.op("ga", "vector.load %A[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
        g, ga_col, gA, vt)) for (_, g) in cp.a_rows]
    vb = [e.op("gb", "vector.load %B[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
        e.op("gb_row", "arith.addi %k, {} : index".format(r)), cp.b_gcol, gB, vt)) for r in cp.b_rows]
    for v, (r, _), sc in zip(va, cp.a_rows, cp.a_scols):
        e.emit("vector.store {}, %sA[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(v, r, sc, sA_t, vt))
    for v, r, sc in zip(vb, cp.b_rows, cp.b_scols):
        e.emit("vector.store {}, %sB[{}, {}, {}] {{alignment = 16 : i64}} : {}, {}".format(
            v, cp.b_slab, r, sc, sB_t, vt))
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


def _descriptors(e, a, wg_row, sA_t, sB_t, tmA, tmB, dA, dB):
    """The A and B descriptors of the compute phase: of the warpgroup's
    64-row view of sA (two warpgroups), generated, or built by hand
    (--wgmma-desc)."""
    if wg_row is not None:
        assert a.wgmma_desc == "generate", "--wgmma-desc: one warpgroup only"
        # Warpgroup w's rows of sA: a 64-row subview (its descriptor starts 64w x 128 B in).
        sAw_t = "memref<64x64xf16, strided<[64, 1], offset: ?>, {}>".format(SMEM)
        e.op("sAw", "memref.subview %sA[{}, 0] [64, 64] [1, 1] : {} to {}".format(wg_row, sA_t, sAw_t))
        e.op("dA", "nvgpu.warpgroup.generate.descriptor %sAw, %tmA : {}, {} -> {}".format(sAw_t, tmA, dA))
        e.op("dB", "nvgpu.warpgroup.generate.descriptor %sB, %tmB : {}, {} -> {}".format(sB_t, tmB, dB))
    elif a.wgmma_desc == "generate":
        e.op("dA", "nvgpu.warpgroup.generate.descriptor %sA, %tmA : {}, {} -> {}".format(sA_t, tmA, dA))
        e.op("dB", "nvgpu.warpgroup.generate.descriptor %sB, %tmB : {}, {} -> {}".format(sB_t, tmB, dB))
    else:
        wgmma_manual_descriptors(e, a.wgmma_desc, a.BM, sA_t, sB_t, dA, dB)


def _module_text(a, e, name, WG, globals3, sA_t, sB_t):
    """The header comments and the module around the emitter's body."""
    M, N, K, BM, BN, BK, T = a.M, a.N, a.K, a.BM, a.BN, a.BK, a.threads
    gA, gB, gC = globals3
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


def as_bf16_wgmma(text):
    """The bf16 form of a wgmma kernel written for f16: the two element types
    share everything the generator decides (2-byte elements, so the tiles,
    the 128-byte swizzle, the TMA boxes and the wgmma shape m64nNk16), only
    the type names differ. Rewrites them, and the kernel's name (hgemm_* ->
    bgemm_*, _f16_ -> _bf16_) unless --name gave one."""
    text = re.sub(r"(?<=[x ])f16\b", "bf16", text)
    text = re.sub(r"\bhgemm_wgmma(\w*)_f16_", r"bgemm_wgmma\1_bf16_", text)
    return text.replace("// HGEMM (wgmma", "// BGEMM (wgmma").replace("A(f16)", "A(bf16)")
