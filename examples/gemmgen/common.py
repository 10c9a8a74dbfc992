"""Shared pieces of the GEMM generators (examples/gen_gemm.py): the element
kinds (KINDS), the MLIR text emitter (Emitter), memref type strings, loop
annotations, the global reads of the tiled kernels (plain, zero-padded
partial-K, im2col for --conv), the sweep-form checks and header notes, and
write_output."""

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

    def fragment_pair(self, frag, index, st, scale=None, ct="f32"):
        """Registers `index` and `index + 1` of the wgmma fragment struct
        `frag` (type `st`) as a vector<2xf32>, times `scale` (a
        vector<2xf32> value) when given, converted to C's type `ct`."""
        vt = "vector<2xf32>"
        x0 = self.op("d", "llvm.extractvalue {}[0, {}] : {}".format(frag, index, st))
        x1 = self.op("d", "llvm.extractvalue {}[0, {}] : {}".format(frag, index + 1, st))
        v = self.op("dv", "vector.from_elements {}, {} : {}".format(x0, x1, vt))
        if scale:
            v = self.op("dw", "arith.mulf {}, {} : {}".format(v, scale, vt))
        if ct != "f32":
            v = self.op("dh", "arith.truncf {} : {} to vector<2x{}>".format(v, vt, ct))
        return v

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


def write_output(text, path):
    """Writes a generated kernel to `path` ('-': stdout); the examples'
    other generators share it."""
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)
