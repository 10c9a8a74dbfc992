"""The tiled mma.sync / FMA kernels of examples/gen_gemm.py (its docstring
describes them): gen() checks the shape and the sweep-form options, lays out
the global and shared memrefs, emits the block's indices and lets gen_mma
(mma.py) or gen_sgemm (sgemm.py) emit the K-loop and the epilogue, then
writes the header comments and the gpu.module around the body."""

from .common import KINDS, SMEM, Emitter, check_sweep_forms, memref
from .mma import gen_mma
from .sgemm import gen_sgemm


def gen(a):
    """The tiled mma.sync (hgemm, bgemm, igemm) or FMA (sgemm) kernel's text."""
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
    gA, gB, gC = _global_types(a, elt, acc_t, vec)
    sA_t, sB_t, sA_bytes, sB_bytes = _shared_types(a, elt, ebytes, vec)

    e = Emitter()  # body lines; constants are inserted in front at the end
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

    out = _header(a, elt, acc_t, info, sA_t, sB_t, sA_bytes, sB_bytes)
    return _module_text(out, a, name, elt, info, e, (gA, gB, gC), sA_t, sB_t)


def _global_types(a, elt, acc_t, vec):
    """The memref types of A, B and C (batch, split-K, quantized B, NHWC
    convolution input; sets a.ab_pre, a.c_pre and, with --conv, a.conv_c)."""
    M, N, K = a.M, a.N, a.K
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
    return gA, gB, gC


def _shared_types(a, elt, ebytes, vec):
    """The shared tiles' memref types and sizes in bytes: transposed and
    padded for sgemm, swizzled or padded rows for the mma kernels."""
    BM, BN, BK = a.BM, a.BN, a.BK
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
    return sA_t, sB_t, sA_bytes, sB_bytes


def _header(a, elt, acc_t, info, sA_t, sB_t, sA_bytes, sB_bytes):
    """The kernel's header comment lines."""
    M, N, K, BM, BN, BK, T = a.M, a.N, a.K, a.BM, a.BN, a.BK, a.threads
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
    return out


def _module_text(out, a, name, elt, info, e, globals3, sA_t, sB_t):
    """Appends the module (shared tiles, kernel signature and attributes,
    constants, the emitter's body) to the header lines `out`; returns the
    text."""
    M, N, BM, BN = a.M, a.N, a.BM, a.BN
    gA, gB, gC = globals3
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
                   minb, a.threads, N // BN, M // BM, a.batch or a.split_k or 1))
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
    out.extend(e.lines)
    out.append("    }")
    out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"
