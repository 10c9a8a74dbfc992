"""The FMA body of the tiled SGEMM kernel (gen_sgemm): the transposed
global -> shared copy, the 8x8-per-thread vector.fma compute phase and the
epilogue (examples/gen_gemm.py's docstring, "SGEMM (FMA) mapping")."""

from .common import global_read, unroll_attr


def gen_sgemm(e, a, info, tid, lane, warp, bm, bn, gA, gB, gC, sA_t, sB_t):
    """Emits the K-loop and the epilogue of the SGEMM kernel into `e` (after
    gen's block indices) and puts the header's constants and notes into
    `info`."""
    BM, BN, BK, T = a.BM, a.BN, a.BK, a.threads
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
    _compute_phase(e, a, accs, tys, am0, am1, bn0, bn1, sA_t, sB_t)
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


def _compute_phase(e, a, accs, tys, am0, am1, bn0, bn1, sA_t, sB_t):
    """c. of the K-loop: BK rank-1 updates of the thread's 8x8 outputs, 4
    float4 shared loads and 16 vector.fma per k."""
    BK, v4 = a.BK, "vector<4xf32>"
    nacc = len(accs)
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
