"""Thread-block clusters with TMA multicast for gen_gemm.py's persistent
two-warpgroup wgmma kernels (--copy tma --persistent G --cluster 2): the two
blocks of a cluster compute vertically adjacent output tiles, which read the
same B tile, and each loads half of it for both."""

SMEM = "#gpu.address_space<workgroup>"

CLUSTER_NOTES = """\
--cluster 2: thread-block clusters of 2 blocks along x (nvvm.cluster_dim,
PTX .reqnctapercluster: a plain launch forms the clusters; G is even). The
cluster c = %clusterid.x runs tile pairs c, c + G/2, ...: pair p is tiles 2p
and 2p + 1 of the grouped order, which lie in one tile column (the groups
have an even number of tile rows), so the block of cluster rank r computes
tile 2p + r and both read the same B tile. Each block TMA-loads its own A
tile and B slabs 2r, 2r+1 (of 4) with multicast_mask = 3: the slabs land at
the same offset in both blocks' shared memory and complete on both blocks'
mbarriers, so each block's expect_tx still announces the whole 49152 bytes.
Since a block's loads write the other block's tiles too:
  * thread 0 fences its mbarrier init to the cluster
    (nvvm.fence.mbarrier.init) and the kernel starts with a cluster barrier
    (nvvm.cluster.arrive.relaxed / nvvm.cluster.wait) instead of the
    gpu.barrier, so no multicast completes on a barrier the other block has
    not initialised;
  * each k-step ends with a cluster barrier before its gpu.barrier: both
    blocks' wgmma of the tiles retired before either block's next loads
    overwrite them. Its arrive is relaxed: the wgmma wait already retired
    the reads, and a release arrive makes ptxas wait for every global store
    first (MEMBAR.ALL.GPU).
Both blocks of a cluster run the same number of tile pairs. pk pipelines the
flattened loop as for one block: the ring keeps the cluster barrier as the
release of each stage; warp specialization replaces it by empty mbarriers
that the consumers of both blocks arrive on (docs/hopper.md "Clusters")."""


def check_cluster(a, tiles_m, slabs):
    """The kernels --cluster generates: persistent, two warpgroups, 128x256
    (4 B slabs, 2 per block), an even grid and tile pairs in one column;
    either epilogue (each block stores its own tile)."""
    assert a.cluster == 2, "--cluster: clusters of 2 blocks only"
    assert a.persistent, "--cluster: the persistent kernels only (--persistent G)"
    assert a.persistent % 2 == 0, "--cluster 2: the grid G must be even"
    assert a.threads == 256 and slabs == 4, "--cluster: the two-warpgroup 128x256x64 kernel only"
    assert tiles_m % 2 == 0, "--cluster 2: M / BM must be even (tile pairs lie in one tile column)"


def cluster_mbarrier_sync(e):
    """The cluster barrier after the mbarrier init (instead of the CTA
    barrier): every block's barrier is initialised before any multicast."""
    e.emit("// every block of the cluster initialised its mbarrier before any multicast reaches it")
    e.emit("// (relaxed: the fence.mbarrier_init orders the init)")
    e.emit("nvvm.cluster.arrive.relaxed")
    e.emit("nvvm.cluster.wait")


def cluster_rank(e):
    """%rank: the block's rank in its cluster (index)."""
    return e.op("rank", "arith.index_cast {} : i32 to index".format(
        e.op("rank32", "nvvm.read.ptx.sreg.cluster.ctarank : i32")))


def cluster_tile_loop(e, tiles, rank):
    """Opens the loop over tile pairs; returns %tile = 2 * pair + rank."""
    cid = e.op("cid", "arith.index_cast {} : i32 to index".format(
        e.op("cid32", "nvvm.read.ptx.sreg.clusterid.x : i32")))
    ncl = e.op("ncl", "arith.index_cast {} : i32 to index".format(
        e.op("ncl32", "nvvm.read.ptx.sreg.nclusterid.x : i32")))
    e.emit("// cluster c computes tile pairs c, c + G/2, ...; this block the tile of its rank")
    e.emit("scf.for %pair = {} to {} step {} {{".format(cid, e.c(tiles // 2), ncl))
    e.ind += 1
    return e.add("tile", e.mul("pair2", "%pair", 2), rank)


def cluster_b_slabs(e, rank, sB_t, slabs):
    """Before the tile loop: the multicast mask and the block's B slabs 2r,
    2r+1 as (column offset, shared view) pairs; returns them and the views'
    type."""
    half = slabs // 2
    e.op("mcast", "arith.constant 3 : i16")
    first = e.mul("my_slab", rank, half)
    view_t = "memref<64x64xf16, strided<[64, 1], offset: ?>, {}>".format(SMEM)
    out = []
    for j in range(half):
        idx = e.add("my_slab{}".format(j), first, j) if j else first
        view = e.op("sBm_{}".format(j), "memref.subview %sB[{}, 0, 0] [1, 64, 64] [1, 1, 1] : {} to {}".format(
            idx, sB_t, view_t))
        out.append((e.mul("slab_off{}".format(j), idx, 64), view))
    return out, view_t


def cluster_b_cols(e, slabs_mine, bn):
    """In the tile loop: the first B column of each of the block's slabs."""
    return [e.op("gbm_col{}".format(j), "arith.addi {}, {} : index".format(bn, off))
            for j, (off, _) in enumerate(slabs_mine)]


def cluster_b_loads(e, slabs_mine, cols, view_t, t0, tmB, mbar):
    """The multicast loads of the block's B slabs (mask 3: both blocks)."""
    for col, (_, view) in zip(cols, slabs_mine):
        e.emit("nvgpu.tma.async.load %tmB[{}, %k], %mbar[{}] to {} multicast_mask = %mcast, predicate = {} : "
               "{}, {} -> {}".format(col, e.c(0), view, t0, tmB, mbar, view_t))


def cluster_release(e):
    """The end of a k-step: both blocks' wgmma of the tiles retired."""
    e.emit("// d. both blocks' wgmma of this tile retired before either block's next TMA overwrites them")
    e.emit("// (relaxed: the wgmma wait retired the reads; a release would fence every global store)")
    e.emit("nvvm.cluster.arrive.relaxed {aligned}")
    e.emit("nvvm.cluster.wait {aligned}")
