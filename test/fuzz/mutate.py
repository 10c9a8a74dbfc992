#!/usr/bin/env python3
"""Textual / structural mutations of pk's kernels (python3 standard library).

The machine has no MLIR Python bindings, so a mutant is made on the text:
a light line-and-brace parser finds the ops, the blocks and the K-loop (the
first `scf.for` whose own block holds a `gpu.barrier`), and each operator
below edits lines, types or constants. A mutant may no longer parse or
verify: pk must then give a located error, which the runner classifies.

Every operator is a function (rng, text) -> (text, description) or None when
it does not apply to that text; `mutate(rng, text)` picks operators until one
applies. Deterministic for a given random.Random state.

Operators: barriers (drop_barrier, dup_barrier, move_barrier, drop_wait),
ops (move_copy_after_compute, delete_op, swap_ops, swap_load_indices,
alias_stores), types and shapes (change_elem_type, change_tile_shape,
strided_layout, subview_shared_read, change_address_space,
global_address_space), bounds and constants (change_bounds, change_constant),
and structural ones that keep the kernel valid IR (mostly) so that pk's
passes run past the parser, the forms IREE and other front ends produce:
  launch_in_kernel      a host-style gpu.launch inside a gpu.func
  kernel_in_loop        the K-loop nested in an outer scf.for (results carried)
  nest_kloop_in_if      the K-loop inside scf.if (true, block-id or thread-id test)
  int_addr_space_3      #gpu.address_space<workgroup> <-> integer space 3, consistently
  attribution_to_alloc  a workgroup attribution -> memref.alloc (+ dealloc: at the
                        end, after the K-loop, or inside it)
  alloc_in_loop         a shared alloc / get_global / attribution moved into the K-loop
  drop_dealloc          a shared memref.dealloc deleted
  dup_dealloc           a dealloc duplicated (double free), or one added
  rotate_kloop          the K-loop barrier-first (IREE's rotation) or back
  rotate_load_phase     the load phase moved to the end of the K-loop body
  reshape_shared_read   a 2-D shared read through memref.expand_shape (divui/remui
                        indices) or collapse_shape (linearized), in the loop or hoisted
"""

import re

from mutate_common import (  # noqa: F401  (re-exported: mutate.WG, mutate.find_kloop, ...)
    I32_MAX, I32_MIN, I64_MAX, I64_MIN, KLOOP_RE, WG, _pick, block_end, defs_of, direct_body, find_kloop,
    op_lines)

# -------------------------------------------------------------- operators


def _barrier_edit(rng, text, dup):
    lines = text.split("\n")
    idx = [i for i, l in enumerate(lines) if l.strip() == "gpu.barrier"]
    i = _pick(rng, idx)
    if i is None:
        return None
    if dup:
        lines.insert(i, lines[i])
    else:
        del lines[i]
    return "\n".join(lines), "%s gpu.barrier at line %d" % ("duplicate" if dup else "drop", i + 1)


def drop_barrier(rng, text):
    return _barrier_edit(rng, text, False)


def dup_barrier(rng, text):
    return _barrier_edit(rng, text, True)


def move_barrier(rng, text):
    lines = text.split("\n")
    kl = find_kloop(lines)
    if not kl:
        return None
    body = [j for j in direct_body(lines, kl[0]) if j in set(op_lines(lines))]
    bars = [j for j in body if lines[j].strip() == "gpu.barrier"]
    i = _pick(rng, bars)
    if i is None:
        return None
    others = [j for j in body if j != i and not lines[j].strip().startswith("scf.yield")]
    j = _pick(rng, others)
    if j is None:
        return None
    b = lines.pop(i)
    lines.insert(j if j < i else j, b)
    return "\n".join(lines), "move gpu.barrier from line %d to %d" % (i + 1, j + 1)


def _is_shared_store(l):
    return WG in l and re.search(r"\b(vector\.store|memref\.store|nvgpu\.device_async_copy|vector\.transfer_write)\b", l)


def move_copy_after_compute(rng, text):
    lines = text.split("\n")
    kl = find_kloop(lines)
    if not kl:
        return None
    body = [j for j in direct_body(lines, kl[0])]
    stores = [j for j in body if _is_shared_store(lines[j])]
    i = _pick(rng, stores)
    if i is None:
        return None
    # just before the loop's yield (after the compute)
    y = [j for j in body if lines[j].strip().startswith("scf.yield")]
    if not y:
        return None
    s = lines.pop(i)
    lines.insert(y[-1] - 1, s)
    return "\n".join(lines), "move shared store at line %d after the compute" % (i + 1)


def delete_op(rng, text):
    lines = text.split("\n")
    kl = find_kloop(lines)
    cand = [i for i in op_lines(lines) if not lines[i].rstrip().endswith("{")
            and "return" not in lines[i] and "yield" not in lines[i]]
    if kl:
        cand = [i for i in cand if kl[0] < i < kl[1]] or cand
    if rng.random() < 0.7:
        # ops without results (stores, copies' groups, barriers, waits): more mutants verify
        cand = [i for i in cand if not re.match(r"\s*%", lines[i])] or cand
    i = _pick(rng, cand)
    if i is None:
        return None
    d = lines.pop(i).strip()
    return "\n".join(lines), "delete op at line %d: %s" % (i + 1, d[:80])


def swap_ops(rng, text):
    lines = text.split("\n")
    kl = find_kloop(lines)
    if not kl:
        return None
    body = [j for j in direct_body(lines, kl[0]) if not lines[j].rstrip().endswith("{")
            and "yield" not in lines[j] and lines[j].strip() and not lines[j].strip().startswith(("//", "}"))]
    loads = [j for j in body if re.search(r"\b(load|transfer_read|device_async_copy|ldmatrix)\b", lines[j])]
    pool = loads if len(loads) >= 2 and rng.random() < 0.6 else body
    if len(pool) < 2:
        return None
    a, b = sorted(rng.sample(pool, 2))
    lines[a], lines[b] = lines[b], lines[a]
    return "\n".join(lines), "swap ops at lines %d and %d" % (a + 1, b + 1)


def swap_load_indices(rng, text):
    lines = text.split("\n")
    loads = [i for i, l in enumerate(lines) if re.search(r"= (vector\.load|memref\.load) %\w+\[[^\]]+\]", l)]
    if len(loads) < 2:
        return None
    a, b = rng.sample(loads, 2)
    ia = re.search(r"\[([^\]]+)\]", lines[a]).group(1)
    ib = re.search(r"\[([^\]]+)\]", lines[b]).group(1)
    if ia.count(",") != ib.count(","):
        return None
    lines[a] = lines[a].replace("[" + ia + "]", "[" + ib + "]", 1)
    return "\n".join(lines), "load at line %d takes the indices of line %d" % (a + 1, b + 1)


TYPES = ["f16", "f32", "bf16", "i8", "i32", "i64", "f64"]


def change_elem_type(rng, text):
    present = [t for t in TYPES if re.search(r"x%s\b" % t, text)]
    t = _pick(rng, present)
    if t is None:
        return None
    u = _pick(rng, [x for x in TYPES if x != t])
    if rng.random() < 0.5:
        # only the shared buffers' element type
        new = re.sub(r"x%s(, %s)" % (t, re.escape(WG)), r"x%s\1" % u, text)
        what = "shared buffers"
    else:
        new = re.sub(r"x%s\b" % t, "x" + u, text)
        what = "every shaped type"
    if new == text:
        return None
    return new, "element type %s -> %s (%s)" % (t, u, what)


SHAPES = [0, 1, 3, 7, 33, 100, 127, 129, 1000, 65536, 2**31 - 1, 2**31, 2**32 + 4, 2**62, 2**63 - 1]


def change_tile_shape(rng, text):
    tys = sorted(set(re.findall(r"memref<([0-9x]+)x(\w+), %s>" % re.escape(WG), text)))
    if not tys:
        return None
    dims, et = _pick(rng, tys)
    ds = dims.split("x")
    k = rng.randrange(len(ds))
    nd = list(ds)
    nd[k] = str(_pick(rng, SHAPES))
    old = "memref<%sx%s, %s>" % (dims, et, WG)
    new = "memref<%sx%s, %s>" % ("x".join(nd), et, WG)
    return text.replace(old, new), "shared tile %s -> %s" % (old, new)


def _retype_kloop(text, ty, lb, ub, step, how):
    """Replaces the K-loop's bounds by constants of type `ty` (index, i32,
    i64); a non-index iv is cast back to index for its uses."""
    lines = text.split("\n")
    kl = find_kloop(lines)
    if not kl:
        return None
    i = kl[0]
    m = KLOOP_RE.search(lines[i])
    if not m:
        return None
    iv = m.group(2)
    ind = re.match(r"\s*", lines[i]).group(0)
    consts = ["%s%%fz_lb = arith.constant %d : %s" % (ind, lb, ty),
              "%s%%fz_ub = arith.constant %d : %s" % (ind, ub, ty),
              "%s%%fz_step = arith.constant %d : %s" % (ind, step, ty)]
    newiv = iv if ty == "index" else "%fz_iv"
    head = lines[i][:m.start()] + "%s%s%s%%fz_lb%s%%fz_ub%s%%fz_step" % (
        m.group(1), newiv, m.group(3), m.group(5), m.group(7)) + lines[i][m.end():]
    if ty != "index":
        head = re.sub(r"\s*\{\s*$", " : %s {" % ty, head)
        body = ["%s  %s = arith.index_cast %%fz_iv : %s to index" % (ind, iv, ty)]
    else:
        body = []
    lines[i:i + 1] = consts + [head] + body
    return "\n".join(lines), "K-loop %s: %s (lb %d, ub %d, step %d)" % (ty, how, lb, ub, step)


def change_bounds(rng, text):
    lines = text.split("\n")
    kl = find_kloop(lines)
    if not kl:
        return None
    m = KLOOP_RE.search(lines[kl[0]])
    if not m:
        return None
    step = rng.choice([8, 16, 32, 48, 64])
    ty = rng.choice(["index", "i32", "i64"])
    mx = {"i32": I32_MAX, "i64": I64_MAX, "index": I64_MAX}[ty]
    mn = {"i32": I32_MIN, "i64": I64_MIN, "index": I64_MIN}[ty]
    kind = rng.choice(["near-max", "min-lb", "neg-step", "trip0", "trip1", "small", "small", "zero-step",
                       "ub<lb", "span-max"])
    if kind == "near-max":
        ub = mx - rng.randrange(0, 3 * step)
        lb = rng.choice([0, ub - step * rng.randint(1, 9) - rng.randrange(step)])
    elif kind == "min-lb":
        lb, ub = mn, rng.choice([0, mn + step * rng.randint(1, 9), mx])
    elif kind == "neg-step":
        lb, ub, step = 0, step * 4, -step
    elif kind == "trip0":
        lb = ub = rng.choice([0, 64])
    elif kind == "trip1":
        lb, ub = 0, rng.randint(1, step)
    elif kind == "zero-step":
        lb, ub, step = 0, 256, 0
    elif kind == "ub<lb":
        lb, ub = 256, 0
    elif kind == "span-max":
        lb, ub = mn + rng.randrange(step), mx - rng.randrange(step)
    else:
        n = rng.randint(2, 9)
        lb = rng.choice([0, 0, step, 7])
        ub = lb + step * n - rng.choice([0, 0, 1, step // 2])
    return _retype_kloop(text, ty, lb, ub, step, kind)


def alias_stores(rng, text):
    """Two stores to one shared location: a shared store (or copy) gets the
    destination indices of another one to the same buffer."""
    lines = text.split("\n")
    st = []
    for i, l in enumerate(lines):
        if not _is_shared_store(l):
            continue
        if "device_async_copy" in l:
            m = re.search(r"(%[\w#]+)\[([^\]]*)\], \d+", l)
        else:
            m = re.search(r", (%[\w#]+)\[([^\]]*)\]", l)
        if m:
            st.append((i, m.group(1), m.group(2)))
    pairs = [(a, b) for a in st for b in st if a[0] != b[0] and a[1] == b[1] and a[2] != b[2]
             and a[2].count(",") == b[2].count(",")]
    p = _pick(rng, pairs)
    if p is None:
        if not st:
            return None
        i = _pick(rng, st)[0]
        lines.insert(i + 1, re.sub(r"^(\s*)%[\w]+ = ", r"\1%fz_dup = ", lines[i]))
        if "device_async_copy" in lines[i] and "fz_dup" in lines[i + 1]:
            return None  # the token would be unused in a group: not interesting
        return "\n".join(lines), "duplicate shared store at line %d" % (i + 1)
    (a, buf, ia), (b, _, ib) = p
    lines[b] = lines[b].replace("%s[%s]" % (buf, ib), "%s[%s]" % (buf, ia), 1)
    return "\n".join(lines), "store at line %d writes the shared location of line %d" % (b + 1, a + 1)


def strided_layout(rng, text):
    tys = sorted(set(re.findall(r"memref<([0-9x]+)x(\w+), %s>" % re.escape(WG), text)))
    t = _pick(rng, tys)
    if t is None:
        return None
    dims = [int(d) for d in t[0].split("x")]
    strides, s = [], 1
    pad = rng.choice([0, 1, 4, 8])
    for d in reversed(dims):
        strides.insert(0, s)
        s *= d + (pad if not strides[1:] else 0)
    off = rng.choice([0, 0, 8, 3])
    lay = "strided<[%s]%s>" % (", ".join(map(str, strides)), ", offset: %d" % off if off else "")
    old = "memref<%sx%s, %s>" % (t[0], t[1], WG)
    new = "memref<%sx%s, %s, %s>" % (t[0], t[1], lay, WG)
    return text.replace(old, new), "shared tile %s gets layout %s" % (old, lay)


def subview_shared_read(rng, text):
    """A shared read goes through a memref.subview at an offset (overlapping view)."""
    lines = text.split("\n")
    reads = [i for i, l in enumerate(lines)
             if re.search(r"= (vector\.load|memref\.load) (%[\w#]+)\[([^\]]+)\] : memref<([0-9x]+)x(\w+), " + re.escape(WG) + ">", l)]
    i = _pick(rng, reads)
    if i is None:
        return None
    m = re.search(r"= (vector\.load|memref\.load) (%[\w#]+)\[([^\]]+)\] : memref<([0-9x]+)x(\w+), " + re.escape(WG) + ">", lines[i])
    dims = [int(d) for d in m.group(4).split("x")]
    rank = len(dims)
    off = rng.choice([0, 1, 2])
    offs = [0] * (rank - 1) + [off]
    sizes = dims[:-1] + [max(dims[-1] - off, 1)]
    strides = []
    s = 1
    for d in reversed(dims):
        strides.insert(0, s)
        s *= d
    ind = re.match(r"\s*", lines[i]).group(0)
    vt = "memref<%s, strided<[%s], offset: %d>, %s>" % ("x".join(map(str, sizes)) + "x" + m.group(5),
                                                          ", ".join(map(str, strides)), off, WG)
    sv = "%s%%fz_sv = memref.subview %s[%s] [%s] [%s] : memref<%sx%s, %s> to %s" % (
        ind, m.group(2), ", ".join(map(str, offs)), ", ".join(map(str, sizes)), ", ".join("1" * rank),
        m.group(4), m.group(5), WG, vt)
    lines[i] = lines[i].replace("%s[%s] : memref<%sx%s, %s>" % (m.group(2), m.group(3), m.group(4), m.group(5), WG),
                                "%%fz_sv[%s] : %s" % (m.group(3), vt))
    lines.insert(i, sv)
    return "\n".join(lines), "shared read at line %d through a subview at offset %d" % (i + 1, off)


SPACES = ["#gpu.address_space<private>", "#gpu.address_space<global>", "3", "1", "5", "#nvgpu.address_space<...>"]


def change_address_space(rng, text):
    if WG not in text:
        return None
    to = rng.choice(["#gpu.address_space<private>", "#gpu.address_space<global>", "3", "1", "5"])
    if rng.random() < 0.5:
        # one occurrence only (inconsistent types)
        occ = [m.start() for m in re.finditer(re.escape(WG), text)]
        p = _pick(rng, occ)
        return text[:p] + to + text[p + len(WG):], "one workgroup address space -> %s" % to
    return text.replace(WG, to), "every workgroup address space -> %s" % to


def global_address_space(rng, text):
    tys = sorted(set(re.findall(r"memref<(\d+x\d+x(?:f16|f32|i8|i32))>", text)))
    t = _pick(rng, tys)
    if t is None:
        return None
    sp = rng.choice(["#gpu.address_space<global>", "1", WG])
    return text.replace("memref<%s>" % t, "memref<%s, %s>" % (t, sp)), "global memref<%s> in space %s" % (t, sp)


def change_constant(rng, text):
    """An index constant (tile offsets, trip counts) changed: near limits, 0, odd."""
    cs = [m for m in re.finditer(r"arith\.constant (-?\d+) : (index|i32|i64)", text)]
    m = _pick(rng, cs)
    if m is None:
        return None
    v = rng.choice([0, 1, -1, 3, 17, 127, I32_MAX, I32_MIN, I64_MAX, I64_MIN, int(m.group(1)) * 2 + 1])
    if m.group(2) == "i32" and not I32_MIN <= v <= I32_MAX:
        v = I32_MAX
    return text[:m.start(1)] + str(v) + text[m.end(1):], "constant %s : %s -> %d" % (m.group(1), m.group(2), v)


def drop_wait(rng, text):
    lines = text.split("\n")
    idx = [i for i, l in enumerate(lines) if "nvgpu.device_async_wait" in l]
    i = _pick(rng, idx)
    if i is None:
        return None
    del lines[i]
    return "\n".join(lines), "drop device_async_wait at line %d" % (i + 1)


# ------------------------------------------------- structural operators
# (mutate_structural.py: it uses the parsing helpers above)

from mutate_structural import (  # noqa: E402
    alloc_in_loop, attribution_to_alloc, drop_dealloc, dup_dealloc, int_addr_space_3, kernel_in_loop,
    launch_in_kernel, nest_kloop_in_if, reshape_shared_read, rotate_kloop, rotate_load_phase)


OPERATORS = [drop_barrier, dup_barrier, move_barrier, move_copy_after_compute, delete_op, swap_ops,
             swap_load_indices, change_elem_type, change_tile_shape, change_bounds, change_bounds,
             change_bounds, alias_stores, strided_layout, subview_shared_read, change_address_space,
             global_address_space, change_constant, drop_wait,
             launch_in_kernel, kernel_in_loop, nest_kloop_in_if, int_addr_space_3, attribution_to_alloc,
             alloc_in_loop, drop_dealloc, dup_dealloc, rotate_kloop, rotate_load_phase, reshape_shared_read]


def mutate(rng, text, max_ops=2):
    """Applies 1..max_ops operators; returns (text, [descriptions])."""
    n = 1 if rng.random() < 0.75 else rng.randint(2, max_ops)
    desc = []
    tries = 0
    while len(desc) < n and tries < 30:
        tries += 1
        op = rng.choice(OPERATORS)
        r = op(rng, text)
        if r is None or r[0] == text:
            continue
        text = r[0]
        desc.append("%s: %s" % (op.__name__, r[1]))
    return text, desc
