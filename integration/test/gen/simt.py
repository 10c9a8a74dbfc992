#!/usr/bin/env python3
"""A small SIMT interpreter for the mma.sync kernels pk reads and writes.

Pure Python (no numpy): runs one thread block of a `gpu.func` kernel, all
threads in lockstep, on the ops that examples/gen_attention.py generates and
that pk's --pipeline-kernel output of such a kernel holds (arith, math.exp2,
vector, nvgpu.ldmatrix / mma.sync / device_async_*, gpu.shuffle / barrier /
dynamic_shared_memory, memref.view, scf.for / if / yield). Anything else is
an error, not a guess.

Semantics taken from the PTX ISA, independently of the generators:
  * mma.m16n8k16 (row.col, f16 x f16 + f32), per warp, g = lane/4, t = lane%4:
      a0 = A[g][2t..2t+1]  a1 = A[g+8][2t..]  a2 = A[g][8+2t..]  a3 = A[g+8][8+2t..]
      b0 = B[k=2t..2t+1][n=g]  b1 = B[k=8+2t..][n=g]
      c0,c1 = C[g][2t..2t+1]  c2,c3 = C[g+8][2t..]
    (nvgpu: A vector<4x2xf16> row r = a_r, B vector<2x2xf16> row r = b_r,
    C vector<2x2xf32> = [[c0, c1], [c2, c3]]).
  * ldmatrix .m8n8.x{1,2,4}.b16: lanes 8j..8j+7 address the 8 rows (8
    consecutive b16 each) of matrix j; result row j of lane l = matrix j's
    (row l/4, cols 2(l%4), 2(l%4)+1), with .trans (cols l/4 of rows 2(l%4),
    2(l%4)+1).
  * cp.async (device_async_copy) data lands when issued, and a
    shared-memory race detector checks the synchronisation: with epochs
    counted by gpu.barrier, an element written (st.shared, or cp.async from
    its issue until its device_async_wait) and read or written by another
    thread in the same epoch, a read of a cp.async element before its wait,
    or a cp.async into an element read by another thread in the issuing
    epoch is reported.
Floating point is Python's double, with f16 rounding (struct 'e') where the
IR converts to f16; f32 rounding is not modelled.
"""

import math
import re
import struct

INF_EPOCH = 1 << 60


class SimError(Exception):
    pass


def f16(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]


def f32_bits(h):
    return struct.unpack("<f", struct.pack("<I", h))[0]


def parse_type(t):
    """'vector<4x2xf16>' -> ((4, 2), 'f16'); 'f32' / 'index' -> ((), t)."""
    t = t.strip()
    m = re.match(r"vector<([0-9x]+)x(\w+)>$", t)
    if m:
        return tuple(int(d) for d in m.group(1).split("x")), m.group(2)
    return (), t


def parse_memref(t):
    """'memref<3x64x64xf16, #gpu.address_space<workgroup>>' -> (shape, elt, shared)."""
    m = re.match(r"memref<([0-9x?]*?)x?(f16|f32|i8|bf16)(, .*)?>$", t.strip())
    if not m:
        raise SimError("memref type: %s" % t)
    dims = [d for d in m.group(1).split("x") if d]
    shape = tuple(-1 if d == "?" else int(d) for d in dims)
    shared = bool(m.group(3)) and ("workgroup" in m.group(3) or m.group(3).strip(", ") == "3")
    return shape, m.group(2), shared


def nelem(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class Op:
    __slots__ = ("res", "name", "rest", "regions", "line")

    def __init__(self, res, name, rest, line):
        self.res, self.name, self.rest, self.line = res, name, rest, line
        self.regions = []


NAME = r"%[\w$.-]+"
OP_RE = re.compile(r"^(?:(%s(?::\d+)?(?:, %s)*) = )?([a-z_]+\.[a-z_0-9.]+)\s*(.*)$" % (NAME, NAME))


def position_slice(shape, position):
    """The sub-vector of a `shape` vector at the static `position` ("i, j"
    of vector.extract / vector.insert): its shape, its element count and the
    flat offset of its first element."""
    pos = [int(p) for p in position.split(",") if p.strip()]
    rshape = shape[len(pos):]
    stride = nelem(rshape)
    off = 0
    for p, d in zip(pos, shape):
        off = off * d + p
    return rshape, stride, off * stride


def parse_kernel(text):
    """The first gpu.func of text -> (header text, list of Op)."""
    lines = text.splitlines()
    i = next(i for i, l in enumerate(lines) if "gpu.func @" in l)
    header = []
    while True:
        header.append(lines[i].strip())
        if lines[i].rstrip().endswith("{"):
            break
        i += 1
    i += 1
    stack = [[]]
    ops_stack = []
    for n in range(i, len(lines)):
        raw = lines[n]
        s = raw.strip()
        if not s or s.startswith("//"):
            continue
        if s.startswith("}"):
            if not ops_stack:  # end of the gpu.func
                return " ".join(header), stack[0]
            body = stack.pop()
            op = ops_stack[-1]
            op.regions.append(body)
            if s.startswith("} else {"):
                stack.append([])
            else:
                ops_stack.pop()
            continue
        m = OP_RE.match(s)
        if not m:
            raise SimError("line %d: cannot parse: %s" % (n + 1, s))
        res = []
        if m.group(1):
            for r in m.group(1).split(", "):
                if ":" in r:
                    base, cnt = r.split(":")
                    res += ["%s#%d" % (base, j) for j in range(int(cnt))]
                else:
                    res.append(r)
        op = Op(res, m.group(2), m.group(3), n + 1)
        stack[-1].append(op)
        if s.endswith("{") and op.name in ("scf.for", "scf.if"):
            ops_stack.append(op)
            stack.append([])
    raise SimError("unterminated gpu.func")


VAL = re.compile(NAME + r"(?:#\d+)?")


def split_top(s, sep=","):
    """Split s at sep outside brackets."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[(<{":
            depth += 1
        elif ch in "])>}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Memref:
    """A view: storage (list), flat base offset, shape, row-major strides."""

    def __init__(self, store, base, shape, elt, shared, name):
        self.store, self.base, self.shape, self.elt, self.shared, self.name = \
            store, base, shape, elt, shared, name
        st, acc = [], 1
        for d in reversed(shape):
            st.append(acc)
            acc *= max(d, 1)
        self.strides = tuple(reversed(st))

    def flat(self, idx):
        if len(idx) != len(self.shape):
            raise SimError("rank mismatch on %s" % self.name)
        off = self.base
        for i, d, s in zip(idx, self.shape, self.strides):
            if d >= 0 and not (0 <= i < d):
                raise SimError("index %s out of bounds of %s %s" % (idx, self.name, self.shape))
            off += i * s
        return off


class Block:
    """Runs one block of the kernel in lockstep."""

    def __init__(self, text, args, block_id, block_dim=None):
        """args: list of flat python lists (the kernel's memref arguments,
        row-major, in order); block_id: (x, y, z)."""
        self.header, self.body = parse_kernel(text)
        h = self.header
        bs = re.search(r"known_block_size = array<i32: (\d+), (\d+), (\d+)>", h)
        self.T = block_dim or int(bs.group(1))
        self.bid = block_id
        sig, _, rest = h.partition(" workgroup(")
        if not rest:
            sig = h.split(" kernel attributes")[0]
        self.env = {}
        argdefs = re.findall(r"(%\w+): (memref<[^>]*>)", sig)
        if len(argdefs) != len(args):
            raise SimError("kernel has %d memref args, got %d" % (len(argdefs), len(args)))
        for (name, ty), store in zip(argdefs, args):
            shape, elt, shared = parse_memref(ty)
            if len(store) != nelem(shape):
                raise SimError("argument %s: %d elements for %s" % (name, len(store), ty))
            self.env[name] = Memref(store, 0, shape, elt, False, name)
        # shared memory: one f16 store for every workgroup buffer
        self.smem = []
        if rest:
            wg = rest.split(" kernel attributes")[0]
            for name, ty in re.findall(r"(%\w+) : (memref<[^>]*>>)", wg):
                shape, elt, shared = parse_memref(ty)
                self.env[name] = Memref(self.smem, len(self.smem), shape, elt, True, name)
                self.smem.extend([float("nan")] * nelem(shape))
        dyn = re.search(r"pk.dynamic_shared_memory_bytes = (\d+)", h)
        self.dyn_base = len(self.smem)
        if dyn:
            self.smem.extend([float("nan")] * (int(dyn.group(1)) // 2))
        n = len(self.smem)
        self.w_hi = [-1] * n      # epoch until which the last write may land (INF: pending)
        self.w_tid = [-1] * n
        self.r_ep = [-1] * n
        self.r_who = [-1] * n     # reader tid, -2 several
        self.epoch = 0
        self.groups = []          # committed cp.async groups: lists of flat indices
        self.pending = []         # issued, uncommitted
        self.races = []
        self.counts = {}

    # ------------------------------------------------------------- values
    def get(self, name):
        try:
            return self.env[name]
        except KeyError:
            raise SimError("undefined value %s" % name)

    def uniform(self, name):
        v = self.get(name)[1]
        x = v[0]
        if any(y != x for y in v):
            raise SimError("%s is not uniform" % name)
        return x

    def setv(self, name, shape, vals):
        self.env[name] = (shape, vals)

    # --------------------------------------------------------- races
    def race(self, msg):
        if len(self.races) < 20:
            self.races.append("epoch %d: %s" % (self.epoch, msg))

    def sh_write(self, f, tid, asynch):
        e = self.epoch
        if self.w_hi[f] == INF_EPOCH:
            self.race("write to %d while a cp.async into it is pending" % f)
        if self.r_ep[f] == e and self.r_who[f] != tid:
            self.race("write to %d by thread %d after a read by %d in the same epoch" % (f, tid, self.r_who[f]))
        if self.w_hi[f] >= e and self.w_tid[f] != tid:
            self.race("write-write on %d (threads %d, %d)" % (f, self.w_tid[f], tid))
        self.w_hi[f] = INF_EPOCH if asynch else e
        self.w_tid[f] = tid

    def sh_read(self, f, tid):
        e = self.epoch
        if self.w_hi[f] == INF_EPOCH:
            self.race("read of %d by %d before the cp.async writing it was waited for" % (f, tid))
        elif self.w_hi[f] >= e and self.w_tid[f] != tid:
            self.race("read of %d by %d of thread %d's write without a barrier in between"
                      % (f, tid, self.w_tid[f]))
        if self.r_ep[f] == e and self.r_who[f] != tid:
            self.r_who[f] = -2
        else:
            self.r_ep[f], self.r_who[f] = e, tid

    # ------------------------------------------------------------ running
    def run(self):
        self.exec_region(self.body)
        if self.pending or any(self.groups):
            self.race("cp.async still pending at the end of the kernel")

    def exec_region(self, ops):
        for op in ops:
            self.counts[op.name] = self.counts.get(op.name, 0) + 1
            if op.name == "scf.yield":
                return [self.get(v) for v in VAL.findall(op.rest.split(" : ")[0])]
            if op.name == "gpu.return":
                return None
            fn = getattr(self, "op_" + op.name.replace(".", "_"), None)
            if fn is None:
                raise SimError("line %d: unsupported op %s" % (op.line, op.name))
            try:
                fn(op)
            except SimError as ex:
                raise SimError("line %d (%s): %s" % (op.line, op.name, ex))
        return None

    def bind(self, op, vals):
        if len(vals) != len(op.res):
            raise SimError("%d results for %d names" % (len(vals), len(op.res)))
        for r, v in zip(op.res, vals):
            self.env[r] = v

    def one(self, op, shape, vals):
        self.env[op.res[0]] = (shape, vals)

    # scf
    def op_scf_for(self, op):
        m = re.match(r"(%[\w$.-]+) = (%[\w$.-]+) to (%[\w$.-]+) step (%[\w$.-]+)(?: iter_args\((.*)\) -> \((.*)\))?\s*\{$", op.rest)
        if not m:
            raise SimError("scf.for form: " + op.rest)
        iv, lb, ub, st = m.group(1), self.uniform(m.group(2)), self.uniform(m.group(3)), self.uniform(m.group(4))
        inits = []
        if m.group(5):
            for a in split_top(m.group(5)):
                n, v = a.split(" = ")
                inits.append((n.strip(), self.get(v.strip())))
        cur = [v for _, v in inits]
        i = lb
        while i < ub:
            self.env[iv] = ((), [i] * self.T)
            for (n, _), v in zip(inits, cur):
                self.env[n] = v
            cur = self.exec_region(op.regions[0]) or []
            i += st
        self.bind(op, cur)

    def op_scf_if(self, op):
        c = self.uniform(VAL.findall(op.rest)[0])
        region = op.regions[0] if c else (op.regions[1] if len(op.regions) > 1 else [])
        out = self.exec_region(region) or []
        self.bind(op, out)

    # arith
    def op_arith_constant(self, op):
        body, ty = op.rest.rsplit(" : ", 1)
        shape, elt = parse_type(ty)
        m = re.match(r"dense<(.*)>$", body)
        if m:
            x = self.scalar_lit(m.group(1), elt)
            self.one(op, shape, [tuple([x] * nelem(shape))] * self.T)
        else:
            self.one(op, (), [self.scalar_lit(body, elt)] * self.T)

    def scalar_lit(self, s, elt):
        s = s.strip()
        if s in ("true", "false"):
            return s == "true"
        if elt in ("index", "i32", "i64", "i1", "i8", "i16"):
            return int(s)
        if s.startswith("0x"):
            if elt != "f32":
                raise SimError("hex literal of " + elt)
            return f32_bits(int(s, 16))
        x = float(s)
        return f16(x) if elt == "f16" else x

    def binop(self, op, fn):
        args = op.rest.split(" : ")[0]
        a, b = [self.get(v) for v in VAL.findall(args)[:2]]
        shape = a[0]
        if shape:
            vals = [tuple(fn(x, y) for x, y in zip(xa, ya)) for xa, ya in zip(a[1], b[1])]
        else:
            vals = [fn(x, y) for x, y in zip(a[1], b[1])]
        self.one(op, shape, vals)

    def op_arith_addi(self, op): self.binop(op, lambda x, y: x + y)
    def op_arith_subi(self, op): self.binop(op, lambda x, y: x - y)
    def op_arith_muli(self, op): self.binop(op, lambda x, y: x * y)
    def op_arith_xori(self, op): self.binop(op, lambda x, y: x ^ y)
    def op_arith_andi(self, op): self.binop(op, lambda x, y: x & y if not isinstance(x, bool) else (x and y))
    def op_arith_ori(self, op): self.binop(op, lambda x, y: x | y if not isinstance(x, bool) else (x or y))
    def op_arith_maxsi(self, op): self.binop(op, max)
    def op_arith_minsi(self, op): self.binop(op, min)

    def op_arith_divui(self, op):
        def f(x, y):
            if x < 0 or y <= 0:
                raise SimError("divui of %d, %d" % (x, y))
            return x // y
        self.binop(op, f)

    def op_arith_remui(self, op):
        def f(x, y):
            if x < 0 or y <= 0:
                raise SimError("remui of %d, %d" % (x, y))
            return x % y
        self.binop(op, f)

    def op_arith_divsi(self, op):
        self.binop(op, lambda x, y: int(x / y) if (x >= 0) == (y > 0) else -(abs(x) // abs(y)))

    def op_arith_addf(self, op): self.binop(op, lambda x, y: x + y)
    def op_arith_subf(self, op): self.binop(op, lambda x, y: x - y)
    def op_arith_mulf(self, op): self.binop(op, lambda x, y: x * y)
    def op_arith_divf(self, op): self.binop(op, lambda x, y: x / y if y != 0 else math.copysign(math.inf, x))

    def op_arith_maxnumf(self, op):
        self.binop(op, lambda x, y: y if math.isnan(x) else (x if math.isnan(y) else max(x, y)))

    def op_arith_cmpi(self, op):
        pred = op.rest.split(",")[0].strip()
        fns = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "slt": lambda x, y: x < y,
               "sle": lambda x, y: x <= y, "sgt": lambda x, y: x > y, "sge": lambda x, y: x >= y,
               "ult": lambda x, y: x < y, "ule": lambda x, y: x <= y, "ugt": lambda x, y: x > y,
               "uge": lambda x, y: x >= y}
        if pred.startswith("u"):
            ty = op.rest.rsplit(" : ", 1)[1]

            def fn(x, y, f=fns[pred]):
                if x < 0 or y < 0:
                    raise SimError("unsigned compare of negative %s values" % ty)
                return f(x, y)
            self.binop(op, fn)
        else:
            self.binop(op, fns[pred])

    def op_arith_select(self, op):
        c, a, b = [self.get(v) for v in VAL.findall(op.rest.split(" : ")[0])]
        if c[0]:
            raise SimError("vector select")
        self.one(op, a[0], [x if k else y for k, x, y in zip(c[1], a[1], b[1])])

    def op_arith_index_cast(self, op):
        a = self.get(VAL.findall(op.rest)[0])
        to = op.rest.rsplit(" to ", 1)[1].strip()

        def wrap(x):
            if to == "i32":
                x &= 0xFFFFFFFF
                return x - (1 << 32) if x >= 1 << 31 else x
            return x
        self.one(op, (), [wrap(x) for x in a[1]])

    def unop(self, op, fn):
        a = self.get(VAL.findall(op.rest)[0])
        if a[0]:
            self.one(op, a[0], [tuple(fn(x) for x in xs) for xs in a[1]])
        else:
            self.one(op, (), [fn(x) for x in a[1]])

    def op_arith_truncf(self, op):
        if not op.rest.rstrip().endswith("f16>") and not op.rest.rstrip().endswith("f16"):
            raise SimError("truncf to other than f16")
        self.unop(op, f16)

    def op_arith_extf(self, op): self.unop(op, lambda x: x)

    def op_math_exp2(self, op):
        def e2(x):
            if math.isnan(x):
                return x
            if x == -math.inf:
                return 0.0
            return 2.0 ** x if x < 1024 else math.inf
        self.unop(op, e2)

    # vector
    def op_vector_extract(self, op):
        m = re.match(r"(%[\w#$.-]+)\[([0-9, ]*)\] : (\S+) from (vector<[^>]*>)", op.rest)
        if not m:
            raise SimError("vector.extract form: " + op.rest)
        src = self.get(m.group(1))
        rshape, stride, off = position_slice(src[0], m.group(2))
        if rshape:
            self.one(op, rshape, [xs[off:off + stride] for xs in src[1]])
        else:
            self.one(op, (), [xs[off] for xs in src[1]])

    def op_vector_insert(self, op):
        m = re.match(r"(%[\w#$.-]+), (%[\w#$.-]+) ?\[([0-9, ]*)\] : (\S+) into (vector<[^>]*>)", op.rest)
        if not m:
            raise SimError("vector.insert form: " + op.rest)
        val, dst = self.get(m.group(1)), self.get(m.group(2))
        shape = dst[0]
        rshape, stride, off = position_slice(shape, m.group(3))
        out = []
        for v, d in zip(val[1], dst[1]):
            v = tuple(v) if rshape else (v,)
            out.append(d[:off] + v + d[off + stride:])
        self.one(op, shape, out)

    def op_vector_shuffle(self, op):
        m = re.match(r"(%[\w#$.-]+), (%[\w#$.-]+) ?\[([0-9, ]*)\] : (vector<[^>]*>), (vector<[^>]*>)", op.rest)
        a, b = self.get(m.group(1)), self.get(m.group(2))
        idx = [int(p) for p in m.group(3).split(",")]
        shape = a[0]
        inner = nelem(shape[1:])
        n0 = shape[0]
        out = []
        for xa, xb in zip(a[1], b[1]):
            v = ()
            for i in idx:
                v += xa[i * inner:(i + 1) * inner] if i < n0 else xb[(i - n0) * inner:(i - n0 + 1) * inner]
            out.append(v)
        self.one(op, (len(idx),) + shape[1:], out)

    def op_vector_from_elements(self, op):
        args, ty = op.rest.rsplit(" : ", 1)
        shape, _ = parse_type(ty)
        vals = [self.get(v)[1] for v in VAL.findall(args)]
        self.one(op, shape, [tuple(x) for x in zip(*vals)])

    def op_vector_to_elements(self, op):
        src = self.get(VAL.findall(op.rest)[0])
        self.bind(op, [((), [xs[i] for xs in src[1]]) for i in range(nelem(src[0]))])

    def op_vector_broadcast(self, op):
        src = self.get(VAL.findall(op.rest)[0])
        shape, _ = parse_type(op.rest.rsplit(" to ", 1)[1])
        if src[0]:
            raise SimError("vector broadcast of a vector")
        self.one(op, shape, [tuple([x] * nelem(shape)) for x in src[1]])

    def mem_access(self, text):
        """'%m[%a, %b]' -> (Memref, per-thread index tuples)."""
        m = re.match(r"(%[\w#$.-]+)\[([^\]]*)\]", text.strip())
        mr = self.get(m.group(1))
        idx = [self.get(v)[1] for v in VAL.findall(m.group(2))]
        return mr, list(zip(*idx)) if idx else [()] * self.T

    def op_vector_load(self, op):
        mr, idx = self.mem_access(op.rest)
        shape, _ = parse_type(op.rest.rsplit(", ", 1)[1])
        n = nelem(shape)
        out = []
        for tid, ix in enumerate(idx):
            f = mr.flat(ix)
            if f + n > mr.flat(ix[:-1] + (0,)) + mr.shape[-1]:
                raise SimError("vector.load past the row of %s" % mr.name)
            if mr.shared:
                for j in range(n):
                    self.sh_read(f + j, tid)
            out.append(tuple(mr.store[f:f + n]))
        self.one(op, shape, out)

    def op_vector_store(self, op):
        val, rest = op.rest.split(", ", 1)
        v = self.get(val.strip())
        mr, idx = self.mem_access(rest)
        for tid, (ix, xs) in enumerate(zip(idx, v[1])):
            f = mr.flat(ix)
            xs = xs if v[0] else (xs,)
            if f + len(xs) > mr.flat(ix[:-1] + (0,)) + mr.shape[-1]:
                raise SimError("vector.store past the row of %s" % mr.name)
            for j, x in enumerate(xs):
                if mr.shared:
                    self.sh_write(f + j, tid, False)
                mr.store[f + j] = f16(x) if mr.elt == "f16" else x

    # memref / gpu
    def op_memref_view(self, op):
        m = re.match(r"(%[\w#$.-]+)\[(%[\w#$.-]+)\]\[\] : \S+, #gpu.address_space<workgroup>> to (memref<.*>)$", op.rest)
        if not m:
            raise SimError("memref.view form: " + op.rest)
        base = self.get(m.group(1))
        off = self.uniform(m.group(2))
        shape, elt, _ = parse_memref(m.group(3))
        if elt != "f16" or off % 2:
            raise SimError("memref.view: f16 views at even offsets only")
        self.one_mem(op, Memref(self.smem, base.base + off // 2, shape, elt, True, op.res[0]))

    def one_mem(self, op, mr):
        self.env[op.res[0]] = mr

    def op_gpu_dynamic_shared_memory(self, op):
        self.one_mem(op, Memref(self.smem, self.dyn_base, (-1,), "i8", True, op.res[0]))

    def op_gpu_thread_id(self, op):
        if op.rest.strip() != "x":
            raise SimError("thread_id " + op.rest)
        self.one(op, (), list(range(self.T)))

    def op_gpu_block_id(self, op):
        self.one(op, (), [self.bid["xyz".index(op.rest.strip())]] * self.T)

    def op_gpu_barrier(self, op):
        self.epoch += 1

    def op_gpu_shuffle(self, op):
        m = re.match(r"(\w+)\s+(%[\w#$.-]+), (%[\w#$.-]+), (%[\w#$.-]+) : (\w+)$", op.rest.strip())
        mode, v, off, width = m.group(1), self.get(m.group(2)), self.uniform(m.group(3)), self.uniform(m.group(4))
        if mode != "xor" or width != 32:
            raise SimError("shuffle %s width %d" % (mode, width))
        out = [v[1][(t & ~31) | ((t & 31) ^ off)] for t in range(self.T)]
        self.bind(op, [((), out), ((), [True] * self.T)])

    # nvgpu
    def op_nvgpu_ldmatrix(self, op):
        mr, idx = self.mem_access(op.rest)
        ntiles = int(re.search(r"numTiles = (\d+)", op.rest).group(1))
        trans = "transpose = true" in op.rest
        rows = []
        for tid, ix in enumerate(idx):
            if tid % 32 >= 8 * ntiles:
                rows.append(None)
                continue
            f = mr.flat(ix)
            if f % 8:
                raise SimError("ldmatrix row address not 16-byte aligned")
            for j in range(8):
                self.sh_read(f + j, -3)  # read by the whole warp
            rows.append(mr.store[f:f + 8])
        out = []
        for tid in range(self.T):
            w0, l = tid & ~31, tid & 31
            v = ()
            for j in range(ntiles):
                mat = rows[w0 + 8 * j:w0 + 8 * j + 8]
                if trans:
                    v += (mat[2 * (l % 4)][l // 4], mat[2 * (l % 4) + 1][l // 4])
                else:
                    v += (mat[l // 4][2 * (l % 4)], mat[l // 4][2 * (l % 4) + 1])
            out.append(v)
        self.one(op, (ntiles, 2), out)

    def op_nvgpu_mma_sync(self, op):
        if "mmaShape = [16, 8, 16]" not in op.rest or "vector<2x2xf32>" not in op.rest.split("->")[-1]:
            raise SimError("mma.sync: only m16n8k16 f16 x f16 + f32")
        a, b, c = [self.get(v)[1] for v in VAL.findall(op.rest.split(")")[0])]
        out = [None] * self.T
        for w0 in range(0, self.T, 32):
            A = [[0.0] * 16 for _ in range(16)]
            B = [[0.0] * 8 for _ in range(16)]   # B[k][n]
            C = [[0.0] * 8 for _ in range(16)]
            for l in range(32):
                g, t = l // 4, l % 4
                x = a[w0 + l]
                A[g][2 * t], A[g][2 * t + 1] = x[0], x[1]
                A[g + 8][2 * t], A[g + 8][2 * t + 1] = x[2], x[3]
                A[g][8 + 2 * t], A[g][9 + 2 * t] = x[4], x[5]
                A[g + 8][8 + 2 * t], A[g + 8][9 + 2 * t] = x[6], x[7]
                y = b[w0 + l]
                B[2 * t][g], B[2 * t + 1][g] = y[0], y[1]
                B[8 + 2 * t][g], B[9 + 2 * t][g] = y[2], y[3]
                z = c[w0 + l]
                C[g][2 * t], C[g][2 * t + 1], C[g + 8][2 * t], C[g + 8][2 * t + 1] = z
            Bt = list(zip(*B))  # Bt[n][k]
            D = [[C[m][n] + sum(p * q for p, q in zip(A[m], Bt[n])) for n in range(8)] for m in range(16)]
            for l in range(32):
                g, t = l // 4, l % 4
                out[w0 + l] = (D[g][2 * t], D[g][2 * t + 1], D[g + 8][2 * t], D[g + 8][2 * t + 1])
        self.one(op, (2, 2), out)

    def op_nvgpu_device_async_copy(self, op):
        m = re.match(r"(%[\w#$.-]+\[[^\]]*\]), (%[\w#$.-]+\[[^\]]*\]), (\d+)(?:, (%[\w#$.-]+))?", op.rest)
        if not m:
            raise SimError("device_async_copy form: " + op.rest)
        src, sidx = self.mem_access(m.group(1))
        dst, didx = self.mem_access(m.group(2))
        n = int(m.group(3))
        srcn = self.get(m.group(4))[1] if m.group(4) else [n] * self.T
        for tid in range(self.T):
            fs, fd = src.flat(sidx[tid]), dst.flat(didx[tid])
            for j in range(n):
                self.sh_write(fd + j, tid, True)
                self.pending.append(fd + j)
                dst.store[fd + j] = src.store[fs + j] if j < srcn[tid] else 0.0
        self.one(op, (), [None] * self.T)

    def op_nvgpu_device_async_create_group(self, op):
        self.groups.append(self.pending)
        self.pending = []
        self.one(op, (), [None] * self.T)

    def op_nvgpu_device_async_wait(self, op):
        m = re.search(r"numGroups = (\d+)", op.rest)
        keep = int(m.group(1)) if m else 0
        while len(self.groups) > keep:
            for f in self.groups.pop(0):
                self.w_hi[f] = self.epoch   # visible to other threads after the next barrier
