"""The wgmma HGEMM kernels with TMA input (--mma wgmma --copy tma,
WGMMA_TMA_NOTES): the mbarrier setup, the persistent tile loop
(--persistent, PERSISTENT_NOTES), gen_wgmma_tma with its --cluster
(gen_cluster.py) and --epilogue tma-store (gen_tma_store.py) forms, and the
module text of the TMA kernels (tma_kernel_module, also used by
gen_wgmma_fp8.py)."""

from types import SimpleNamespace

from .common import SMEM, Emitter, memref, outer_attr
from .wgmma import wgmma_epilogue, wgmma_types


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
    k = _plan(a)
    e = Emitter()
    e.ind = 3
    tid = e.op("tid", "gpu.thread_id x")
    p = _prologue(e, a, k, tid)
    e.emit("%res = scf.for %k = {} to {} step {} iter_args(%acc = %acc0) -> ({}) {{".format(
        e.c(0), e.c(a.K), e.c(a.BK), k.acc))
    e.ind += 1
    _kloop_body(e, a, k, p)
    e.ind -= 1
    e.emit("}" + outer_attr(a))
    if k.tma_store:
        k.ts.tma_store_epilogue(e, a.BN, tid, p.bm, p.bn, "%wg", p.wg_row, k.acc, p.lead, ct=k.ct)
    else:
        wgmma_epilogue(e, a.BM, a.BN, a.N, tid, p.bm, p.bn, p.wg_row, k.gC, k.acc, ct=k.ct)
    grid = (a.N // a.BN, a.M // a.BM)
    if a.persistent:
        e.ind -= 1
        e.emit("}")
        grid = (a.persistent, 1)
    if k.tma_store:
        k.ts.tma_store_drain(e, p.lead)
    e.emit("gpu.return")
    return _module_text(a, k, e, grid)


def _plan(a):
    """Checks what --copy tma generates and decides the kernel's name, types
    and forms (two warpgroups, TMA-store epilogue, C's type, cluster)."""
    M, N, K, BM, BN, BK, T = a.M, a.N, a.K, a.BM, a.BN, a.BK, a.threads
    assert a.kind in ("hgemm", "bgemm") and a.mma == "wgmma", \
        "--copy tma: --kind hgemm or bgemm --mma wgmma only"
    assert (BM, BN, BK, T) in ((128, 128, 64, 128), (128, 128, 64, 256), (128, 256, 64, 256)), \
        "--copy tma: 128x128x64 with one warpgroup (128 threads), or 128x128x64 / 128x256x64 " \
        "with two (256 threads, warpgroup w computes rows 64w..64w+63)"
    assert M % BM == 0 and N % BN == 0 and K % BK == 0, "wgmma kernels need whole tiles"
    k = SimpleNamespace(WG=T // 128, tma_store=a.epilogue == "tma-store", ts=None, gc=None)
    assert not k.tma_store or k.WG == 2, "--epilogue tma-store: the two-warpgroup kernels (--threads 256)"
    if k.tma_store:
        assert K // BK >= 2, "--epilogue tma-store: K / BK must be at least 2 (with one stage the kernel's " \
            "shared memory exceeds the 48 KB static limit: only pk's pipelined form runs)"
        import gen_tma_store
        k.ts = gen_tma_store
    # C of the inputs' 16-bit type: written f16 here, bf16 after as_bf16_wgmma
    k.ct = "f32" if a.c_type == "f32" else "f16"
    assert k.ct == "f32" or k.WG == 2, "--c-type f16 / bf16: the two-warpgroup kernels (--threads 256)"
    k.name = a.name or "hgemm_wgmma_tma_f16_{}x{}x{}{}{}{}".format(
        BM, BN, BK, "_persistent" if a.persistent else "", "_tma_store" if k.tma_store else "",
        "_c16" if k.ct != "f32" else "")
    k.slabs = BN // 64
    k.sA_t = memref([BM, 64], "f16", SMEM)
    k.sB_t = memref([k.slabs, 64, 64], "f16", SMEM)
    k.gA, k.gB, k.gC = memref([M, K], "f16"), memref([K, N], "f16"), memref([M, N], k.ct)
    # TMA loads the whole A tile (box 64 x BM); each warpgroup's wgmma reads
    # its 64 rows, described with a 64-row tensor-map type.
    k.tmA = wgmma_types(BM, BN)[0]
    k.tmAw, k.tmB, k.dA, k.dB, k.acc = wgmma_types(BM // k.WG, BN)
    k.mbar = "!nvgpu.mbarrier.group<memorySpace = {}>".format(SMEM)
    k.slab_t = "memref<64x64xf16, strided<[64, 1], offset: {{}}>, {}>".format(SMEM)
    k.tx_bytes = (BM * 64 + k.slabs * 64 * 64) * 2
    k.cluster = a.cluster > 1
    if k.cluster:
        import gen_cluster
        k.gc = gen_cluster
        k.gc.check_cluster(a, M // BM, k.slabs)
        k.name = a.name or k.name.replace("_persistent", "_persistent_cluster{}".format(a.cluster))
    return k


def _prologue(e, a, k, tid):
    """Everything before the K-loop: the tile's indices (or the persistent
    tile loop), the tensor maps, the mbarrier, the TMA-store and cluster
    setup, the B slabs' views and columns, the initial accumulator."""
    p = SimpleNamespace(bm=None, bn=None, wg_row=None, lead=None, slabs_mine=None, slab_view_t=None)
    BM, BN, slabs = a.BM, a.BN, k.slabs
    if not a.persistent:
        p.bm = e.mul("bm", e.op("by", "gpu.block_id y"), BM)
        p.bn = e.mul("bn", e.op("bx", "gpu.block_id x"), BN)
    if k.WG == 2:
        e.emit("// warpgroup w = tid / 128 computes rows 64w .. 64w+63 of the block")
        p.wg_row = e.mul("wg_row", e.div("wg", tid, 128), 64)
    e.op("tmA", "builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to " + k.tmA)
    if k.WG == 2:
        e.op("tmAw", "builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to " + k.tmAw)
    e.op("tmB", "builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to " + k.tmB)
    p.t0 = tma_mbarrier_init(e, tid, k.mbar, k.cluster)
    if k.tma_store:
        p.lead = k.ts.tma_store_setup(e, tid, k.ct)
    if k.cluster:
        rank = k.gc.cluster_rank(e)
        p.slabs_mine, p.slab_view_t = k.gc.cluster_b_slabs(e, rank, k.sB_t, slabs)
    p.slabs_v = [e.op("sB_{}".format(j), "memref.subview %sB[{}, 0, 0] [1, 64, 64] [1, 1, 1] : {} to {}".format(
        j, k.sB_t, k.slab_t.format(j * 4096))) for j in range(0 if k.cluster else slabs)]
    if a.persistent:
        e.op("acc0", "nvgpu.warpgroup.mma.init.accumulator -> " + k.acc)
        p.bm, p.bn = persistent_tile_loop(e, a, a.M // BM, a.N // BN, BM, BN, a.K // a.BK,
                                          rank if k.cluster else None)
    if k.cluster:
        p.b_cols = k.gc.cluster_b_cols(e, p.slabs_mine, p.bn)
    else:
        p.b_cols = [e.add("gb_col{}".format(j), p.bn, 64 * j) for j in range(slabs)]
    if not a.persistent:
        e.op("acc0", "nvgpu.warpgroup.mma.init.accumulator -> " + k.acc)
    return p


def _kloop_body(e, a, k, p):
    """The K-loop's body: thread 0's expect_tx and TMA loads, every thread's
    parity wait, the wgmma, the release of the tiles."""
    BK, mbar, t0, slabs = a.BK, k.mbar, p.t0, k.slabs
    e.emit("// a. thread 0: expect {} bytes, TMA the A tile and the {} B slabs (coordinates "
           "innermost first)".format(k.tx_bytes, slabs))
    e.emit("nvgpu.mbarrier.arrive.expect_tx %mbar[{}], {}, predicate = {} : {}".format(
        e.c(0), e.c(k.tx_bytes), t0, mbar))
    e.emit("nvgpu.tma.async.load %tmA[%k, {}], %mbar[{}] to %sA, predicate = {} : {}, {} -> {}".format(
        p.bm, e.c(0), t0, k.tmA, mbar, k.sA_t))
    if k.cluster:
        k.gc.cluster_b_loads(e, p.slabs_mine, p.b_cols, p.slab_view_t, t0, k.tmB, mbar)
    for j in range(0 if k.cluster else slabs):
        e.emit("nvgpu.tma.async.load %tmB[{}, %k], %mbar[{}] to {}, predicate = {} : {}, {} -> {}".format(
            p.b_cols[j], e.c(0), p.slabs_v[j], t0, k.tmB, mbar, k.slab_t.format(j * 4096)))
    e.emit("// b. every thread waits for phase t = k / {} of the mbarrier (parity t % 2)".format(BK))
    kt = e.div("kt", "%k", BK)
    par = e.op("par", "arith.index_cast {} : index to i1".format(e.rem("kt2", kt, 2)))
    e.emit("nvgpu.mbarrier.try_wait.parity %mbar[{}], {}, {} : {}".format(e.c(0), par, e.c(10000000), mbar))
    e.emit("// c. compute phase: TMA wrote through the async proxy, as wgmma reads: no proxy fence")
    if k.WG == 2:
        sAw_t = "memref<64x64xf16, strided<[64, 1], offset: ?>, {}>".format(SMEM)
        e.op("sAw", "memref.subview %sA[{}, 0] [64, 64] [1, 1] : {} to {}".format(p.wg_row, k.sA_t, sAw_t))
        e.op("dA", "nvgpu.warpgroup.generate.descriptor %sAw, %tmAw : {}, {} -> {}".format(sAw_t, k.tmAw, k.dA))
    else:
        e.op("dA", "nvgpu.warpgroup.generate.descriptor %sA, %tmA : {}, {} -> {}".format(k.sA_t, k.tmA, k.dA))
    e.op("dB", "nvgpu.warpgroup.generate.descriptor %sB, %tmB : {}, {} -> {}".format(k.sB_t, k.tmB, k.dB))
    e.op("acc_next", "nvgpu.warpgroup.mma %dA, %dB, %acc {{transposeB, waitGroup = 0 : i64}} : "
         "{}, {}, {} -> {}".format(k.dA, k.dB, k.acc, k.acc))
    if k.cluster:
        k.gc.cluster_release(e)
    else:
        e.emit("// d. every wgmma of this tile retired before the next TMA overwrites the tiles")
    e.emit("gpu.barrier")
    e.emit("scf.yield %acc_next : " + k.acc)


def _module_text(a, k, e, grid):
    """The header comments (the notes of the forms in use) and the module."""
    M, N, K, BM, BN, BK, T = a.M, a.N, a.K, a.BM, a.BN, a.BK, a.threads
    ct = k.ct
    out = ["// Generated by examples/gen_gemm.py -- do not edit by hand.",
           "// Command: " + a.cmdline]
    out += ["// " + l if l else "//" for l in WGMMA_TMA_NOTES.splitlines()]
    if a.persistent:
        out += ["// " + l if l else "//" for l in PERSISTENT_NOTES.splitlines()]
    if k.cluster:
        out += ["// " + l if l else "//" for l in k.gc.CLUSTER_NOTES.splitlines()]
    if k.tma_store:
        out += ["// " + l if l else "//" for l in k.ts.TMA_STORE_NOTES.splitlines()]
    out.append("// HGEMM (wgmma, TMA): C({}) = A(f16) * B (NN), M={} N={} K={}, tile {}x{}x{}, {} threads, "
               "grid ({}, {}, 1).".format(ct, M, N, K, BM, BN, BK, T, grid[0], grid[1]))
    if ct != "f32":
        out.append("// --c-type: C has the inputs' type (as torch.matmul returns it); the f32 accumulators "
                   "are rounded to it (arith.truncf) in the epilogue.")
    if k.WG == 2:
        out.append("// Two warpgroups: the A descriptor of warpgroup w starts at row 64w; " + (
            "each warpgroup stores its fragment through shared memory with TMA (--epilogue tma-store)."
            if k.tma_store else
            "each thread stores its accumulator fragment (the --threads 256 epilogue of --copy threads)."))
        out.append("!frag = !llvm.struct<(struct<({})>)>".format(", ".join(["f32"] * (BN // 2))))
    globals3 = (k.gA, k.gB, k.gC)
    if k.tma_store:
        return tma_kernel_module(out, a, e, k.name, globals3,
                                 ", %tmaC: !llvm.ptr {pk.tensor_map_of = 2 : i64}", k.sA_t, k.sB_t, grid,
                                 extra_workgroup=", %sC : {} {{llvm.align = 1024 : i64}}".format(
                                     k.ts.c_tile_type(ct)))
    return tma_kernel_module(out, a, e, k.name, globals3, "", k.sA_t, k.sB_t, grid)


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
