"""The TMA-store epilogue of gen_gemm.py's two-warpgroup wgmma kernels
(--copy tma --epilogue tma-store): each warpgroup stages its accumulator
fragment through shared memory and one of its threads stores it to C with
`nvgpu.tma.async.store` (cp.async.bulk.tensor), so that the store of one
tile runs on while the next tile computes."""

SMEM = "#gpu.address_space<workgroup>"

TMA_STORE_NOTES = """\
--epilogue tma-store: the epilogue stores C through shared memory with TMA
(cp.async.bulk.tensor shared -> global, a third tensor-map pointer %tmaC
after %tmaB, boxes of 64 rows x 128 bytes (64 x 32 f32, or 64 x 64 f16 /
bf16 with --c-type), 128-byte swizzle; pk-runner --tma C:32x64, or C:64x64
with --c-type f16|bf16).
%tmaC carries {pk.tensor_map_of = 2}: the map describes C, argument #2
(docs/input-contract.md), so pk knows what the stores write. Shared: %sC,
2 warpgroups x 2 buffers x 64 rows x 128 bytes (32 KB). Warpgroup w, for
each chunk j of W columns (W = 32 f32, 64 f16 / bf16: half as many chunks)
of its 64 x BN fragment, buffer j % 2:
  a. its thread 128w waits until at most one bulk store group is still
     reading shared memory (cp.async.bulk.wait_group.read 1: the store of
     chunk j - 2, which used this buffer, has read it), then gpu.barrier;
  b. every thread writes its W / 2 values of the chunk (pairs at the wgmma
     D layout's rows and columns, converted to C's type first: 8-byte f32
     pairs, 4-byte f16 pairs; 16-byte granules XOR row % 8: the 128-byte
     swizzle the tensor map reads), fence.proxy.async (generic writes ->
     the async proxy), gpu.barrier;
  c. thread 128w stores the box at C[bm + 64w, bn + Wj] and commits it as
     one bulk async-group.
After the last tile, thread 128w waits for every store (wait_group 0).
"""


C_BYTES = {"f32": 4, "f16": 2, "bf16": 2}


def chunk_cols(ct="f32"):
    """W: the columns of one 128-byte chunk row of C's type `ct`."""
    return 128 // C_BYTES[ct]


def c_map_type(ct="f32"):
    return ("!nvgpu.tensormap.descriptor<tensor = memref<64x{}x{}, 3>, swizzle = swizzle_128b, "
            "l2promo = none, oob = zero, interleave = none>".format(chunk_cols(ct), ct))


def c_tile_type(ct="f32"):
    """%sC: [warpgroup][buffer][row][column] of C's type `ct`."""
    return "memref<2x2x64x{}x{}, {}>".format(chunk_cols(ct), ct, SMEM)


def tma_store_setup(e, tid, ct="f32"):
    """The map of C (of type `ct`) and the predicate of each warpgroup's
    storing thread (tid % 128 == 0); returns that predicate."""
    e.op("tmC", "builtin.unrealized_conversion_cast %tmaC : !llvm.ptr to " + c_map_type(ct))
    return e.op("wg_lead", "arith.cmpi eq, {}, {} : index".format(e.rem("tid_wg", tid, 128), e.c(0)))


def _wait_reads(e, lead, pending):
    e.emit("scf.if {} {{".format(lead))
    e.ind += 1
    e.emit("nvvm.cp.async.bulk.wait_group {}{}".format(pending, " {read}" if pending else ""))
    e.ind -= 1
    e.emit("}")


def tma_store_epilogue(e, BN, tid, bm, bn, wg, wg_row, acc, lead, scale=None, ct="f32"):
    """The epilogue of TMA_STORE_NOTES for warpgroup `wg` (rows `wg_row` ..
    + 63 of the tile at (bm, bn)): the fragment's registers d[4J + 2i],
    d[4J + 2i + 1] (the PTX ISA's wgmma D layout, J the 8-column group)
    sit at row 16 (warp % 4) + lane / 4 + 8i, columns 8J + 2 (lane % 4).
    `scale` (an f32 value): each pair is multiplied by it first (the fp8
    kernels' scales). `ct`: C's element type (each pair converted to it)."""
    st = "!frag"
    vt = "vector<2xf32>"
    W = chunk_cols(ct)
    per_granule = 16 // C_BYTES[ct]
    sC_t = c_tile_type(ct)
    box_t = "memref<64x{}x{}, strided<[{}, 1], offset: ?>, {}>".format(W, ct, W, SMEM)
    e.emit("// epilogue: the m64n{} fragment, staged in 64x{} {} chunks through %sC and stored "
           "by TMA (TMA_STORE_NOTES)".format(BN, W, ct))
    frag = e.op("frag", "builtin.unrealized_conversion_cast %res : {} to {}".format(acc, st))
    if scale:
        scale = e.op("sv", "vector.broadcast {} : f32 to {}".format(scale, vt))
    lane = e.rem("lane", tid, 32)
    warp = e.rem("wq", e.div("warp", tid, 32), 4)
    r_l = e.div("r_l", lane, 4)
    row0 = e.op("r_w", "arith.addi {}, {} : index".format(e.mul("r_w16", warp, 16), r_l))
    rows = [row0, e.add("r_w8", row0, 8)]
    # the pair of 8-column group n of a chunk sits at column 8n + 2 (lane % 4):
    # 16-byte granule (8n + 2 (lane % 4)) / per_granule, XOR row % 8 (= lane / 4),
    # at (2 (lane % 4)) % per_granule in it
    col_in = e.mul("c_l2", e.rem("c_l4", lane, 4), 2)
    half = e.div("c_hi", col_in, per_granule)
    lo2 = e.rem("c_lo2", col_in, per_granule)
    g_row = e.op("g_row", "arith.addi {}, {} : index".format(bm, wg_row))
    groups = W // 8
    cols = []
    for n in range(groups):
        g = e.add("c_n", half, 8 * n // per_granule)
        granule = e.op("c_g", "arith.xori {}, {} : index".format(g, r_l))
        cols.append(e.op("c_s", "arith.addi {}, {} : index".format(
            e.mul("c_g4", granule, per_granule), lo2)))
    ot = "vector<2x{}>".format(ct)
    for j in range(BN // W):
        buf = e.c(j % 2)
        e.emit("// chunk {}: columns {}..{} of the fragment, buffer {}".format(j, W * j, W * j + W - 1, j % 2))
        _wait_reads(e, lead, 1)
        e.emit("gpu.barrier")
        for n in range(groups):
            J = groups * j + n
            for i in range(2):
                v = e.fragment_pair(frag, 4 * J + 2 * i, st, scale, ct)
                e.emit("vector.store {}, %sC[{}, {}, {}, {}] : {}, {}".format(
                    v, wg, buf, rows[i], cols[n], sC_t, ot))
        e.emit("nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}")
        e.emit("gpu.barrier")
        e.emit("scf.if {} {{".format(lead))
        e.ind += 1
        box = e.op("sC_box", "memref.subview %sC[{}, {}, 0, 0] [1, 1, 64, {}] [1, 1, 1, 1] : {} to {}".format(
            wg, buf, W, sC_t, box_t))
        col = e.add("g_col", bn, W * j)
        e.emit("nvgpu.tma.async.store {} to %tmC[{}, {}] : {} -> {}".format(box, col, g_row, box_t,
                                                                             c_map_type(ct)))
        e.emit("nvvm.cp.async.bulk.commit.group")
        e.ind -= 1
        e.emit("}")


def tma_store_drain(e, lead):
    """Every bulk store complete before the kernel exits."""
    e.emit("// every TMA store of this block complete")
    _wait_reads(e, lead, 0)
