"""The mma.sync body of the tiled HGEMM / BGEMM / IGEMM kernels (gen_mma):
the global -> shared copy mapping, the swizzled or padded shared layout,
ldmatrix addressing, the K-loop (load phase including the sweep forms'
int8 / int4 B, im2col and 1x1-convolution A, split-K and dynamic-K bounds;
compute phase) and the fragment epilogue. examples/gen_gemm.py's docstring
describes the mapping."""

from types import SimpleNamespace

from .common import global_read, im2col_read, outer_attr, sweep_notes, unroll_attr


def gen_mma(e, a, info, tid, lane, warp, bm, bn, gA, gB, gC, sA_t, sB_t,
            elt, acc_t, ebytes, mma, vec):
    """Emits the K-loop and the epilogue of an mma.sync kernel into `e` (after
    gen's block indices) and puts the header's constants and notes into
    `info`."""
    g = _geometry(a, elt, acc_t, ebytes, mma, vec)
    _notes(a, info, g)
    # ---- loop-invariant per-thread offsets
    _check_swizzle(a, g)
    cp = _copy_offsets(e, a, g, tid, bm, bn)
    fr = _fragment_offsets(e, g, lane, warp)

    # ---- K loop
    k_lo, k_hi, k_colbase = _kloop_bounds(e, a, g, cp.ld_col)
    pixA = _conv1x1_pixels(e, a, g, cp.gArows) if a.conv and a.filter == 1 else None
    accs = ["%acc{}_{}".format(mi, ni) for mi in range(g.MI) for ni in range(g.NI)]
    tys = ", ".join([g.cT] * g.nacc)
    e.emit("%res:{} = scf.for %k = {} to {} step {} iter_args({}) -> ({}) {{".format(
        g.nacc, k_lo, k_hi, e.c(a.BK),
        ", ".join("{} = %zero".format(x) for x in accs), tys))
    e.ind += 1
    _load_phase(e, a, g, cp, k_colbase, pixA, gA, gB, sA_t, sB_t)
    e.emit("// b.")
    e.emit("gpu.barrier")
    _compute_phase(e, a, g, fr, accs, tys, sA_t, sB_t)
    e.emit("// d.")
    e.emit("gpu.barrier")
    e.emit("scf.yield {} : {}".format(", ".join("%r#{}".format(i) for i in range(g.nacc)), tys))
    e.ind -= 1
    e.emit("}" + outer_attr(a))
    _epilogue(e, a, g, lane, bm, bn, fr, gC)


def _geometry(a, elt, acc_t, ebytes, mma, vec):
    """The warp tiling, the fragment and copy counts and the vector types of
    the kernel (asserting what the mapping needs)."""
    BM, BN, BK, T = a.BM, a.BN, a.BK, a.threads
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
    return SimpleNamespace(
        mm=mm, mn=mn, mk=mk, nwarps=nwarps, wM=wM, wN=wN, WM=WM, WN=WN, MI=MI, NI=NI, h=h, ch=ch,
        nA=nA, nB=nB, vec=vec, acc_t=acc_t, nacc=MI * NI, ksteps=BK // mk,
        vt="vector<{}x{}>".format(vec, elt),
        aT="vector<4x{}x{}>".format(E, elt),
        bT="vector<2x{}x{}>".format(E, elt),
        b4T="vector<4x{}x{}>".format(E, elt),
        cT="vector<2x2x{}>".format(acc_t))


def _notes(a, info, g):
    """The kernel's constants (the zero accumulator, --b-int4's shift) and
    header notes."""
    BM, BN, BK = a.BM, a.BN, a.BK
    zero = "0.0" if g.acc_t == "f32" else "0"
    info["zeros"] = ["%zero = arith.constant dense<{}> : {}".format(zero, g.cT)]
    ch = g.ch
    info["notes"] = [
        "Warp grid {}x{} (warp tile {}x{}), per warp and k-step: {} ldmatrix.x4 (A) + {} "
        "ldmatrix.x4 (B) + {} mma.sync m{}n{}k{}.".format(
            g.wM, g.wN, g.WM, g.WN, g.MI, g.NI // 2, g.MI * g.NI, g.mm, g.mn, g.mk),
        "Per K-iteration (BK={}): {} k-steps -> {} mma.sync per warp, {} per block; "
        "{} FLOP per block (2*BM*BN*BK).".format(
            BK, g.ksteps, g.MI * g.NI * g.ksteps, g.MI * g.NI * g.ksteps * g.nwarps, 2 * BM * BN * BK),
        "Global->shared per thread per K-iteration: {} + {} 16-byte vector loads/stores "
        "(A + B).".format(g.nA, g.nB),
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
        info["zeros"].append("%nib4 = arith.constant dense<4> : vector<{}xi8>".format(g.vec // 2))
    info["notes"] += sweep_notes(a)


def _check_swizzle(a, g):
    """--layout swizzle: what the XOR swizzle needs; sets g.swz and g.q."""
    g.swz = a.layout == "swizzle"
    if g.swz:
        # XOR swizzle of the 16-byte chunks of a row: chunk c of row r is stored
        # at chunk c ^ f(r), f(r) = (r / q) % CH, q = 8 / CH rows per 128 bytes.
        assert g.ch in (2, 4, 8), "swizzle needs 2, 4 or 8 chunks per tile row"
        g.q = 8 // g.ch
        assert a.threads % (8 * g.ch) == 0 and g.WM % 8 == 0 and g.WN % 8 == 0


def _swz_f(e, g, base, row):
    """f(row) = (row / q) % CH as an index value"""
    return e.rem(base, e.div(base + "_q", row, g.q), g.ch)


def _copy_offsets(e, a, g, tid, bm, bn):
    """The global -> shared copy mapping (--copy-map) and the swizzled store
    column: ld_col, st_col and the shared / global rows of A and B."""
    ch, vec, T = g.ch, g.vec, a.threads
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
    if g.swz:
        e.emit("// shared chunk = chunk ^ f(row), f(row) = (row / {}) % {} (rows + i*{} keep f)".format(g.q, ch, rstep))
        assert rstep % 8 == 0
        st_col = e.mul("st_col", e.op("st_chunk", "arith.xori {}, {} : index".format(
            chunk, _swz_f(e, g, "st_f", ld_row))), vec)
    else:
        st_col = ld_col
    gArows, sArows, gBrows, sBrows = [], [], [], []
    for i in range(g.nA):
        r = e.add("ld_rowA{}".format(i), ld_row, i * rstep) if i else ld_row
        sArows.append(r)
        gArows.append(e.op("gA_row{}".format(i), "arith.addi {}, {} : index".format(bm, r)))
    for i in range(g.nB):
        r = e.add("ld_rowB{}".format(i), ld_row, i * rstep) if i else ld_row
        sBrows.append(r)
        gBrows.append(e.op("gB_row{}".format(i), "arith.addi {}, {} : index".format(bn, r)))
    return SimpleNamespace(ld_col=ld_col, st_col=st_col, gArows=gArows, sArows=sArows,
                           gBrows=gBrows, sBrows=sBrows)


def _fragment_offsets(e, g, lane, warp):
    """The warp's tile offsets (wm, wn) and the ldmatrix row addresses and
    k-columns of the A and B fragments."""
    h, vec = g.h, g.vec
    e.emit("// warp tiling {}x{} warps, warp tile {}x{}".format(g.wM, g.wN, g.WM, g.WN))
    fr = SimpleNamespace()
    fr.wm = e.mul("wm", e.div("warp_m", warp, g.wN), g.WM)
    fr.wn = e.mul("wn", e.rem("warp_n", warp, g.wN), g.WN)
    e.emit("// ldmatrix row addresses: A lane l -> row l%16, k-col (l/16)*{}".format(h))
    e.emit("//                          B lane l -> row l%8 + 8*(l/16), k-col ((l/8)%2)*{}".format(h))
    l16 = e.rem("l_mod16", lane, 16)
    l8 = e.rem("l_mod8", lane, 8)
    fr.ldiv16 = e.div("l_div16", lane, 16)
    if not g.swz:
        fr.a_col = e.mul("a_col", fr.ldiv16, h)
    fr.b_half = e.rem("l_div8_mod2", e.div("l_div8", lane, 8), 2)
    if g.swz:
        assert h == vec
        e.emit("// swizzled k-chunk: (ks/{0} + half) ^ f(row); f(row) depends on l%16 (A) and l%8 (B) only".format(vec))
        fr.fa = _swz_f(e, g, "fa", l16)
        fr.fb = _swz_f(e, g, "fb", l8)
    else:
        fr.b_col = e.mul("b_col", fr.b_half, h)
    a_row0 = e.op("a_row", "arith.addi {}, {} : index".format(fr.wm, l16))
    b_r = e.op("b_r", "arith.addi {}, {} : index".format(l8, e.mul("l_div16x8", fr.ldiv16, 8)))
    b_row0 = e.op("b_row", "arith.addi {}, {} : index".format(fr.wn, b_r))
    fr.a_rows = [e.add("a_row{}".format(mi), a_row0, mi * g.mm) if mi else a_row0
                 for mi in range(g.MI)]
    fr.b_rows = [e.add("b_row{}".format(p), b_row0, p * 2 * g.mn) if p else b_row0
                 for p in range(g.NI // 2)]
    return fr


def _kloop_bounds(e, a, g, ld_col):
    """The K-loop's bounds and the global column base of the copies (split-K
    slices, dynamic K); returns (k_lo, k_hi, k_colbase)."""
    K, BK = a.K, a.BK
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
    return k_lo, k_hi, k_colbase


def _conv1x1_pixels(e, a, g, gArows):
    """--conv H W --filter 1: the input pixel (n, y, x) of each A row the
    thread copies."""
    H, W = a.conv
    e.emit("// 1x1 convolution: row m of A is input pixel (n, y, x) = (m / {0}, (m % {0}) / {1}, m % {1})".format(
        H * W, W))
    pixA = []
    for i in range(g.nA):
        pix = e.rem("cv_pix{}".format(i), gArows[i], H * W)
        pixA.append((e.div("cv_n{}".format(i), gArows[i], H * W), e.div("cv_y{}".format(i), pix, W),
                     e.rem("cv_x{}".format(i), pix, W)))
    return pixA


def _load_phase(e, a, g, cp, k_colbase, pixA, gA, gB, sA_t, sB_t):
    """a. of the K-loop: the global reads of A (plain, im2col, 1x1
    convolution) and B (plain, --b-int8, --b-int4) and their shared stores."""
    nA, nB, vec, vt = g.nA, g.nB, g.vec, g.vt
    e.emit("// a. load phase: global -> shared, 16-byte vectors")
    kc = e.op("k_col", "arith.addi %k, {} : index".format(k_colbase))
    if a.conv and a.filter == 1:
        va = [e.op("ga{}".format(i), "vector.load %A[{}, {}, {}, {}] {{alignment = 16 : i64}} : {}, {}".format(
            pixA[i][0], pixA[i][1], pixA[i][2], kc, gA, vt)) for i in range(nA)]
    elif a.conv:
        va = [im2col_read(e, a, i, cp.gArows[i], kc, gA, vt, vec) for i in range(nA)]
    else:
        va = [e.op("ga{}".format(i), global_read(a, "%A", cp.gArows[i], kc, gA, vt)) for i in range(nA)]
    if a.b_int8:
        # Weight-only int8 B: 8-byte loads, converted on their way into shared
        # memory (exact: |q| <= 128), which cp.async cannot do.
        vq = "vector<{}xi8>".format(vec)
        vb = [e.op("gbf{}".format(i), "arith.sitofp {} : {} to {}".format(
            e.op("gb{}".format(i), "vector.load %B[{}{}, {}] {{alignment = 8 : i64}} : {}, {}".format(
                a.ab_pre, cp.gBrows[i], kc, gB, vq)), vq, vt)) for i in range(nB)]
    elif a.b_int4:
        vb = _int4_b_reads(e, a, g, cp.gBrows, kc, gB)
    else:
        vb = [e.op("gb{}".format(i), global_read(a, "%B", cp.gBrows[i], kc, gB, vt)) for i in range(nB)]
    for i in range(nA):
        e.emit("vector.store {}, %sA[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
            va[i], cp.sArows[i], cp.st_col, sA_t, vt))
    for i in range(nB):
        e.emit("vector.store {}, %sB[{}, {}] {{alignment = 16 : i64}} : {}, {}".format(
            vb[i], cp.sBrows[i], cp.st_col, sB_t, vt))


def _int4_b_reads(e, a, g, gBrows, kc, gB):
    """Weight-only int4 B: 4-byte loads of 8 packed nibbles (byte j = k 2j
    in bits 0-3, k 2j+1 in bits 4-7), sign-extended with shifts,
    interleaved back into k order and converted (exact: |q| <= 8)."""
    vec = g.vec
    vp = "vector<{}xi8>".format(vec // 2)
    vq = "vector<{}xi8>".format(vec)
    kb = e.div("k_byte", kc, 2)
    vb = []
    for i in range(g.nB):
        p = e.op("gb{}".format(i), "vector.load %B[{}{}, {}] {{alignment = 4 : i64}} : {}, {}".format(
            a.ab_pre, gBrows[i], kb, gB, vp))
        lo = e.op("gb_lo{}".format(i), "arith.shrsi {}, %nib4 : {}".format(
            e.op("gb_shl{}".format(i), "arith.shli {}, %nib4 : {}".format(p, vp)), vp))
        hi = e.op("gb_hi{}".format(i), "arith.shrsi {}, %nib4 : {}".format(p, vp))
        q = e.op("gb_q{}".format(i), "vector.shuffle {}, {} [{}] : {}, {}".format(
            lo, hi, ", ".join("{}, {}".format(j, j + vec // 2) for j in range(vec // 2)), vp, vp))
        vb.append(e.op("gbf{}".format(i), "arith.sitofp {} : {} to {}".format(q, vq, g.vt)))
    return vb


def _compute_phase(e, a, g, fr, accs, tys, sA_t, sB_t):
    """c. of the K-loop: the k-step loop of ldmatrix fragment loads and
    mma.sync on the shared tiles."""
    MI, NI, mk, vec = g.MI, g.NI, g.mk, g.vec
    e.emit("// c. compute phase: {} k-steps of {}".format(g.ksteps, mk))
    iaccs = ["%i{}_{}".format(mi, ni) for mi in range(MI) for ni in range(NI)]
    e.emit("%r:{} = scf.for %ks = {} to {} step {} iter_args({}) -> ({}) {{".format(
        g.nacc, e.c(0), e.c(a.BK), e.c(mk),
        ", ".join("{} = {}".format(x, y) for x, y in zip(iaccs, accs)), tys))
    e.ind += 1
    if g.swz:
        kch = e.div("ks_chunk", "%ks", vec)
        ac = e.mul("ka", e.op("ka_chunk", "arith.xori {}, {} : index".format(
            e.op("ka_log", "arith.addi {}, {} : index".format(kch, fr.ldiv16)), fr.fa)), vec)
        bc = e.mul("kb", e.op("kb_chunk", "arith.xori {}, {} : index".format(
            e.op("kb_log", "arith.addi {}, {} : index".format(kch, fr.b_half)), fr.fb)), vec)
    else:
        ac = e.op("ka", "arith.addi %ks, {} : index".format(fr.a_col))
        bc = e.op("kb", "arith.addi %ks, {} : index".format(fr.b_col))
    afr = [e.op("a{}".format(mi), "nvgpu.ldmatrix %sA[{}, {}] {{numTiles = 4 : i32, transpose = false}} "
                ": {} -> {}".format(fr.a_rows[mi], ac, sA_t, g.aT)) for mi in range(MI)]
    bfr = []
    for p in range(NI // 2):
        b4 = e.op("b{}{}".format(2 * p, 2 * p + 1),
                  "nvgpu.ldmatrix %sB[{}, {}] {{numTiles = 4 : i32, transpose = false}} "
                  ": {} -> {}".format(fr.b_rows[p], bc, sB_t, g.b4T))
        for q in range(2):
            bfr.append(e.op("b{}".format(2 * p + q), "vector.shuffle {0}, {0} [{1}, {2}] : {3}, {3}".format(
                b4, 2 * q, 2 * q + 1, g.b4T)))
    outs = []
    for mi in range(MI):
        for ni in range(NI):
            outs.append(e.op("d{}_{}".format(mi, ni),
                             "nvgpu.mma.sync ({}, {}, {}) {{mmaShape = [{}, {}, {}]}} : ({}, {}, {}) -> {}".format(
                                 afr[mi], bfr[ni], iaccs[mi * NI + ni], g.mm, g.mn, mk, g.aT, g.bT, g.cT, g.cT)))
    e.emit("scf.yield {} : {}".format(", ".join(outs), tys))
    e.ind -= 1
    e.emit("}" + unroll_attr(a))


def _epilogue(e, a, g, lane, bm, bn, fr, gC):
    """The accumulators -> C, one 8-byte store per fragment row."""
    mm, mn, MI, NI = g.mm, g.mn, g.MI, g.NI
    e.emit("// epilogue: thread holds C[g][2t..2t+1] and C[g+8][2t..2t+1] of each 16x8 tile")
    gid = e.div("g", lane, 4)
    t2 = e.mul("t2", e.rem("t", lane, 4), 2)
    crow = e.op("crow", "arith.addi {}, {} : index".format(
        e.op("bmwm", "arith.addi {}, {} : index".format(bm, fr.wm)), gid))
    ccol = e.op("ccol", "arith.addi {}, {} : index".format(
        e.op("bnwn", "arith.addi {}, {} : index".format(bn, fr.wn)), t2))
    rT = "vector<2x{}>".format(g.acc_t)
    ccols = [e.add("ccol{}".format(ni), ccol, ni * mn) for ni in range(NI)]
    for mi in range(MI):
        r0 = e.add("crow{}".format(mi), crow, mi * mm)
        r1 = e.add("crow{}h".format(mi), crow, mi * mm + 8)
        for ni in range(NI):
            i = mi * NI + ni
            for half, r in ((0, r0), (1, r1)):
                v = e.op("o{}_{}_{}".format(mi, ni, half),
                         "vector.extract %res#{}[{}] : {} from {}".format(i, half, rT, g.cT))
                e.emit("vector.store {}, %C[{}{}, {}] {{alignment = 8 : i64}} : {}, {}".format(
                    v, a.c_pre, r, ccols[ni], gC, rT))
