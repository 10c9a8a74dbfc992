"""FP8 wgmma GEMM kernels with TMA input (gen_gemm.py --kind e4m3gemm|e5m2gemm
--mma wgmma --copy tma), sm_90a.

Layout ("TN", K-major operands, as fp8 wgmma requires)
-------------------------------------------------------
  A : memref<MxKxT>  row-major (K contiguous)
  B : memref<NxKxT>  row-major (K contiguous): B^T of a K x N matrix, the
                     layout of torch._scaled_mm's second operand
                     (b = B.t(), column-major)
  C : memref<MxNxf32> row-major
  scale : memref<2xf32>: the per-tensor scales of A and B (device memory,
          as cuBLASLt's and torch._scaled_mm's scale_a / scale_b)
  C[m][n] = scale[0] * scale[1] * sum_k A[m][k] * B[n][k]
  T = f8E4M3FN (--kind e4m3gemm) or f8E5M2 (--kind e5m2gemm); the wgmma
  accumulates in f32. Kernel parameters: A, B, C, %tmaA, %tmaB, %scale
  (bare pointers; the two tensor maps as in WGMMA_TMA_NOTES of gen_gemm.py):
    A: dims (K, M), box (128, BM); B: dims (K, N), box (128, BN); UINT8
    elements, 128B swizzle, innermost dimension first.
  Grid (N/BN, M/BM, 1), block (threads, 1, 1).

Tiles and compute
-----------------
  BK = 128: one tile row is 128 bytes, the width of the 128-byte swizzle
  (TMA writes it, the wgmma descriptors read it). Per stage sA[BM][128] and
  sB[BN][128] (BM 128, BN 128 or 256: 32 or 48 KB).
  Two warpgroups (--threads 256, BM 128): warpgroup w = tid / 128
  computes rows 64w .. 64w+63. A fp8 wgmma is m64nBNk32, so a tile takes 4 k-steps:
  step s reads columns 32s .. 32s+31 of both tiles, through descriptors of
  the subviews sA[64w, 32s] [64, 32] and sB[0, 32s] [BN, 32] (the start
  address moves 32 bytes inside the swizzled rows, as CUTLASS's K-major
  descriptors do). They are 4 nvgpu.warpgroup.mma ops chained on the
  accumulator: MLIR 22 steps the B descriptor of one multi-k-step op along
  the K x N layout only (transposeB, which its fp8 lowering refuses), so
  each op covers one k-step. The first three commit without waiting
  (waitGroup = 3: at most three groups pending, never the case in a tile
  of four), the last one waits for all (waitGroup = 0), so the tile's
  reads are over when the iteration ends.
  K-loop, tile t = k / 128 (the TMA loop of WGMMA_TMA_NOTES):
    a. thread 0: mbarrier.arrive.expect_tx of (BM + BN) * 128 bytes, the
       TMA loads of the A and the B tile;
    b. every thread: mbarrier.try_wait.parity on parity t % 2;
    c. the 4 chained wgmmas (no proxy fence: TMA and wgmma are both async
       proxy);
    d. gpu.barrier.
  Epilogue: the per-tensor scale s = scale[0] * scale[1] (two loads after
  the loop), each thread multiplies its m64nBN accumulator fragment by s
  and stores it as 8-byte pairs (the two-warpgroup epilogue of gen_gemm)."""

import gen_gemm as g

FP8_KINDS = {"e4m3gemm": "f8E4M3FN", "e5m2gemm": "f8E5M2"}
BK = 128
KSTEP = 32


def _types(elt, BM, BN):
    """Tensor maps (whole tiles), descriptors (one k-step) and accumulator."""
    tm = ("!nvgpu.tensormap.descriptor<tensor = memref<{}x128x" + elt + ", 3>, swizzle = swizzle_128b, "
          "l2promo = none, oob = zero, interleave = none>")
    tmA, tmAw, tmB = tm.format(BM), tm.format(64), tm.format(BN)
    dA = "!nvgpu.warpgroup.descriptor<tensor = memref<64x{}x{}, 3>>".format(KSTEP, elt)
    dB = "!nvgpu.warpgroup.descriptor<tensor = memref<{}x{}x{}, 3>>".format(KSTEP, BN, elt)
    acc = "!nvgpu.warpgroup.accumulator<fragmented = vector<64x{}xf32>>".format(BN)
    return tmA, tmAw, tmB, dA, dB, acc


def _compute_phase(e, elt, BN, sA_t, sB_t, tmAw, tmB, dA, dB, acc, wg_row):
    """The 4 chained wgmmas of one tile (module docstring)."""
    sv = "memref<{}x{}x" + elt + ", strided<[128, 1], offset: {}>, " + g.SMEM + ">"
    cur = "%acc"
    for s in range(BK // KSTEP):
        # sA's offset depends on the warpgroup's row; sB's is static.
        a_t, b_t = sv.format(64, KSTEP, "?"), sv.format(BN, KSTEP, s * KSTEP)
        sa = e.op("sAk", "memref.subview %sA[{}, {}] [64, {}] [1, 1] : {} to {}".format(
            wg_row, s * KSTEP, KSTEP, sA_t, a_t))
        sb = e.op("sBk", "memref.subview %sB[0, {}] [{}, {}] [1, 1] : {} to {}".format(
            s * KSTEP, BN, KSTEP, sB_t, b_t))
        da = e.op("dA", "nvgpu.warpgroup.generate.descriptor {}, %tmAw : {}, {} -> {}".format(sa, a_t, tmAw, dA))
        db = e.op("dB", "nvgpu.warpgroup.generate.descriptor {}, %tmB : {}, {} -> {}".format(sb, b_t, tmB, dB))
        wait = 0 if s == BK // KSTEP - 1 else 3
        cur = e.op("acc_k", "nvgpu.warpgroup.mma {}, {}, {} {{waitGroup = {} : i64}} : {}, {}, {} -> {}".format(
            da, db, cur, wait, dA, dB, acc, acc))
    return cur


def _scaled_epilogue(e, BN, tid, bm, bn, wg_row, gC, acc, lead=None):
    """Loads the two scales and stores each thread's accumulator fragment
    times their product (gen_gemm's two-warpgroup epilogue; with `lead`,
    the storing threads' predicate, the TMA-store epilogue of
    gen_tma_store.py)."""
    e.emit("// epilogue: s = scale[0] * scale[1]; each thread scales its m64n{} fragment".format(BN))
    sa = e.op("sa", "memref.load %scale[{}] : memref<2xf32>".format(e.c(0)))
    sb = e.op("sb", "memref.load %scale[{}] : memref<2xf32>".format(e.c(1)))
    s = e.op("s", "arith.mulf {}, {} : f32".format(sa, sb))
    if lead:
        from gen_tma_store import tma_store_epilogue
        tma_store_epilogue(e, BN, tid, bm, bn, "%wg", wg_row, acc, lead, scale=s)
    else:
        g.wgmma_fragment_epilogue(e, BN, tid, bm, bn, wg_row, gC, acc, scale=s)


def gen_wgmma_tma_fp8(a):
    """The fp8 wgmma GEMM kernel with TMA input (module docstring)."""
    elt = FP8_KINDS[a.kind]
    M, N, K, BM, BN, T = a.M, a.N, a.K, a.BM, a.BN, a.threads
    assert a.mma == "wgmma" and a.copy == "tma", "--kind {}: --mma wgmma --copy tma only".format(a.kind)
    assert a.BK == BK, "--kind {}: BK is 128 (128-byte fp8 rows, the 128B swizzle)".format(a.kind)
    assert (BM, T) == (128, 256) and BN in (128, 256), \
        "--kind {}: 128x128 or 128x256 tiles with two warpgroups (--threads 256)".format(a.kind)
    assert M % BM == 0 and N % BN == 0 and K % BK == 0, "wgmma kernels need whole tiles"
    short = "e4m3" if a.kind == "e4m3gemm" else "e5m2"
    tma_store = a.epilogue == "tma-store"
    assert not tma_store or K // BK >= 2, "--epilogue tma-store: K / BK must be at least 2 (with one stage the " \
        "kernel's shared memory exceeds the 48 KB static limit: only pk's pipelined form runs)"
    name = a.name or "fgemm_wgmma_tma_{}_{}x{}x{}{}{}".format(
        short, BM, BN, BK, "_persistent" if a.persistent else "", "_tma_store" if tma_store else "")
    sA_t, sB_t = g.memref([BM, BK], elt, g.SMEM), g.memref([BN, BK], elt, g.SMEM)
    gA, gB, gC = g.memref([M, K], elt), g.memref([N, K], elt), g.memref([M, N], "f32")
    tmA, tmAw, tmB, dA, dB, acc = _types(elt, BM, BN)
    mbar = "!nvgpu.mbarrier.group<memorySpace = {}>".format(g.SMEM)
    tx_bytes = (BM + BN) * BK

    e = g.Emitter()
    e.ind = 3
    tid = e.op("tid", "gpu.thread_id x")
    if not a.persistent:
        bm = e.mul("bm", e.op("by", "gpu.block_id y"), BM)
        bn = e.mul("bn", e.op("bx", "gpu.block_id x"), BN)
    e.emit("// warpgroup w = tid / 128 computes rows 64w .. 64w+63 of the block")
    wg_row = e.mul("wg_row", e.div("wg", tid, 128), 64)
    e.op("tmA", "builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to " + tmA)
    e.op("tmAw", "builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to " + tmAw)
    e.op("tmB", "builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to " + tmB)
    t0 = g.tma_mbarrier_init(e, tid, mbar)
    lead = None
    if tma_store:
        from gen_tma_store import tma_store_setup
        lead = tma_store_setup(e, tid)
    e.op("acc0", "nvgpu.warpgroup.mma.init.accumulator -> " + acc)
    if a.persistent:
        bm, bn = g.persistent_tile_loop(e, a, M // BM, N // BN, BM, BN, K // BK)
    e.emit("%res = scf.for %k = {} to {} step {} iter_args(%acc = %acc0) -> ({}) {{".format(
        e.c(0), e.c(K), e.c(BK), acc))
    e.ind += 1
    e.emit("// a. thread 0: expect {} bytes, TMA the A and the B tile (coordinates innermost first)".format(
        tx_bytes))
    e.emit("nvgpu.mbarrier.arrive.expect_tx %mbar[{}], {}, predicate = {} : {}".format(
        e.c(0), e.c(tx_bytes), t0, mbar))
    e.emit("nvgpu.tma.async.load %tmA[%k, {}], %mbar[{}] to %sA, predicate = {} : {}, {} -> {}".format(
        bm, e.c(0), t0, tmA, mbar, sA_t))
    e.emit("nvgpu.tma.async.load %tmB[%k, {}], %mbar[{}] to %sB, predicate = {} : {}, {} -> {}".format(
        bn, e.c(0), t0, tmB, mbar, sB_t))
    e.emit("// b. every thread waits for phase t = k / {} of the mbarrier (parity t % 2)".format(BK))
    kt = e.div("kt", "%k", BK)
    par = e.op("par", "arith.index_cast {} : index to i1".format(e.rem("kt2", kt, 2)))
    e.emit("nvgpu.mbarrier.try_wait.parity %mbar[{}], {}, {} : {}".format(e.c(0), par, e.c(10000000), mbar))
    e.emit("// c. compute phase: 4 chained m64n{}k32 wgmmas, the last waits for all".format(BN))
    nxt = _compute_phase(e, elt, BN, sA_t, sB_t, tmAw, tmB, dA, dB, acc, wg_row)
    e.emit("// d. every wgmma of this tile retired before the next TMA overwrites the tiles")
    e.emit("gpu.barrier")
    e.emit("scf.yield {} : {}".format(nxt, acc))
    e.ind -= 1
    e.emit("}" + g.outer_attr(a))
    _scaled_epilogue(e, BN, tid, bm, bn, wg_row, gC, acc, lead)
    grid = (N // BN, M // BM)
    if a.persistent:
        e.ind -= 1
        e.emit("}")
        grid = (a.persistent, 1)
    if tma_store:
        from gen_tma_store import tma_store_drain
        tma_store_drain(e, lead)
    e.emit("gpu.return")

    out = ["// Generated by examples/gen_gemm.py -- do not edit by hand.",
           "// Command: " + a.cmdline]
    out += ["// " + l if l else "//" for l in __doc__.splitlines()]
    if a.persistent:
        out += ["// " + l if l else "//" for l in g.PERSISTENT_NOTES.splitlines()]
    if tma_store:
        from gen_tma_store import TMA_STORE_NOTES, c_tile_type
        out += ["// " + l if l else "//" for l in TMA_STORE_NOTES.splitlines()]
    out.append("// FP8 GEMM (wgmma, TMA): C(f32) = scale[0]*scale[1] * A({0}) * B({0})^T, M={1} N={2} K={3}, "
               "tile {4}x{5}x{6}, {7} threads, grid ({8}, {9}, 1).".format(
                   elt, M, N, K, BM, BN, BK, T, grid[0], grid[1]))
    out.append("!frag = !llvm.struct<(struct<({})>)>".format(", ".join(["f32"] * (BN // 2))))
    if tma_store:
        return g.tma_kernel_module(out, a, e, name, (gA, gB, gC),
                                   ", %tmaC: !llvm.ptr {pk.tensor_map_of = 2 : i64}, %scale: memref<2xf32>",
                                   sA_t, sB_t, grid,
                                   extra_workgroup=", %sC : {} {{llvm.align = 1024 : i64}}".format(c_tile_type()))
    return g.tma_kernel_module(out, a, e, name, (gA, gB, gC), ", %scale: memref<2xf32>", sA_t, sB_t, grid)
