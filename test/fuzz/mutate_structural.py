#!/usr/bin/env python3
"""The structural operators of mutate.py (python3 standard library): the
forms IREE and other front ends produce, kept valid IR (mostly) so that pk's
passes run past the parser. Nesting (launch_in_kernel, kernel_in_loop,
nest_kloop_in_if), address spaces (int_addr_space_3), alloc and dealloc
placement (attribution_to_alloc, alloc_in_loop, drop_dealloc, dup_dealloc),
barrier rotations (rotate_kloop, rotate_load_phase) and reshaped shared reads
(reshape_shared_read); mutate.py's docstring lists what each does. Same
contract: (rng, text) -> (text, description) or None.
"""

import re

from mutate_common import WG, _pick, block_end, direct_body, find_kloop, op_lines  # noqa: F401


# ------------------------------------------------- structural operators
# (nesting, address spaces, alloc/dealloc placement, barrier rotations,
# reshaped shared reads: the forms IREE and other front ends produce)

SPACE_RE = r"(?:#gpu\.address_space<workgroup>|3)"
NAME_END = r"(?![\w$.\-])"


def _fresh(text, base, taken=()):
    """An SSA name %base (or %base_N) that occurs neither in text nor in taken."""
    name, n = base, 0
    while re.search("%" + re.escape(name) + NAME_END, text) or "%" + name in taken:
        n += 1
        name = "%s_%d" % (base, n)
    return "%" + name


def _fresh_names(text, *bases):
    out = []
    for b in bases:
        out.append(_fresh(text, b, out))
    return out


def _ind(line):
    return re.match(r"\s*", line).group(0)


def _code(line):
    """A line without its comment and string literals (for brace counting)."""
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', line).split("//")[0]


def _op_end(lines, i):
    """One past the last line of the op starting at line i (continuation
    lines start with `:` or `->`)."""
    j = i + 1
    while j < len(lines) and lines[j].strip().startswith((":", "->")):
        j += 1
    return j


def _match_close(s, k):
    """Index of the bracket closing the one at s[k] ((, <, [, {); `->` is no bracket."""
    pairs = {"(": ")", "<": ">", "[": "]", "{": "}"}
    stack = []
    i = k
    while i < len(s):
        c = s[i]
        if c == "-" and s[i + 1:i + 2] == ">":
            i += 2
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return i
        i += 1
    return -1


def _split_top(s):
    """Splits s at the commas outside any bracket."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(s):
        c = s[i]
        if c == "-" and s[i + 1:i + 2] == ">":
            cur += "->"
            i += 2
            continue
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def _uses(lines, name):
    """Indices of lines that mention the SSA value `name` (%x, %x#i)."""
    r = re.compile(re.escape(name) + NAME_END)
    return [i for i, l in enumerate(lines) if r.search(_code(l))]


def _loop_header(line):
    """The parts of an `scf.for` header line: lhs (the results, or None),
    nres, the iter_args span and their inits, the result types."""
    m = re.match(r"(\s*)(?:(%[^=]+?)\s*=\s*)?scf\.for\b", line)
    if not m:
        return None
    lhs = m.group(2)
    h = {"lhs": lhs, "nres": 0, "inits": [], "types": [], "args": None}
    k = line.find("iter_args(")
    if lhs is None:
        return h if k < 0 else None
    if k < 0:
        return None
    a0 = k + len("iter_args")
    a1 = _match_close(line, a0)
    if a1 < 0:
        return None
    args = _split_top(line[a0 + 1:a1])
    inits = [a.split("=", 1)[1].strip() for a in args if "=" in a]
    rest = line[a1 + 1:]
    t = re.match(r"\s*->\s*", rest)
    if not t:
        return None
    rest = rest[t.end():]
    if rest.startswith("("):
        c = _match_close(rest, 0)
        types = _split_top(rest[1:c])
    else:
        types = [re.match(r"([^{]*?)\s*(?::\s*\w+\s*)?\{\s*$", rest).group(1).strip()]
    if len(types) != len(inits) or not inits:
        return None
    h.update(nres=len(inits), inits=inits, types=types, args=(a0 + 1, a1, args))
    return h


def _rename_results(line, h, new):
    """The header with the loop's results named `new` (:N when more than one)."""
    m = re.match(r"(\s*)(%[^=]+?)(\s*=\s*scf\.for\b)", line)
    return m.group(1) + new + (":%d" % h["nres"] if h["nres"] > 1 else "") + line[m.end(2):]


def _results(h, name):
    return [name] if h["nres"] == 1 else ["%s#%d" % (name, k) for k in range(h["nres"])]


def _shift(block, by="  "):
    return [by + l if l.strip() else l for l in block]


def _wrap_kloop(text, make):
    """Wraps the K-loop in a region: make(ind, h, kloop lines, inner results
    name, text) -> (lines before, wrapper head, lines after the K-loop in the
    region, wrapper tail, description) or None."""
    lines = text.split("\n")
    kl = find_kloop(lines)
    if not kl:
        return None
    s, e = kl
    h = _loop_header(lines[s])
    if h is None:
        return None
    ind = _ind(lines[s])
    kr = _fresh(text, "fz_kr")
    loop = lines[s:e + 1]
    if h["nres"]:
        loop[0] = _rename_results(loop[0], h, kr)
    r = make(ind, h, loop, kr, text)
    if r is None:
        return None
    before, head, inner_tail, tail, what = r
    new = before + [head] + _shift(loop) + inner_tail + tail
    lines[s:e + 1] = new
    return "\n".join(lines), what


def launch_in_kernel(rng, text):
    """A host-style gpu.launch (its own constant 1) inside a kernel's body,
    before the K-loop (or at the top of a gpu.func without one)."""
    lines = text.split("\n")
    kl = find_kloop(lines)
    if kl and rng.random() < 0.8:
        at = kl[0]
    else:
        fs = _gpu_funcs(lines)
        f = _pick(rng, fs)
        if f is None:
            return None
        at = f[1] + 1
    ind = _ind(lines[at]) if lines[at].strip() else "      "
    n = _fresh_names(text, "fz_c1", "fz_bx", "fz_by", "fz_bz", "fz_gx", "fz_gy", "fz_gz",
                     "fz_tx", "fz_ty", "fz_tz", "fz_sx", "fz_sy", "fz_sz")
    c1 = n[0]
    launch = ["%s%s = arith.constant 1 : index" % (ind, c1),
              "%sgpu.launch blocks(%s, %s, %s) in (%s = %s, %s = %s, %s = %s) threads(%s, %s, %s) in "
              "(%s = %s, %s = %s, %s = %s) {" % (ind, n[1], n[2], n[3], n[4], c1, n[5], c1, n[6], c1,
                                                 n[7], n[8], n[9], n[10], c1, n[11], c1, n[12], c1),
              "%s  gpu.terminator" % ind, "%s}" % ind]
    lines[at:at] = launch
    return "\n".join(lines), "gpu.launch inserted in a kernel at line %d" % (at + 1)


def _gpu_funcs(lines):
    """(header line, line opening the body, end line) of every gpu.func."""
    out = []
    for i, l in enumerate(lines):
        if not re.match(r"\s*gpu\.func\b", l):
            continue
        depth, j = 0, i
        while j < len(lines):
            c = _code(lines[j])
            depth += c.count("{") - c.count("}")
            if depth > 0 and c.rstrip().endswith("{"):
                break
            j += 1
        if j < len(lines):
            out.append((i, j, block_end(lines, j)))
    return out


def kernel_in_loop(rng, text):
    """The K-loop nested in an outer scf.for (1-3 trips, fresh constants); its
    results are carried by the outer loop, which either restarts the K-loop
    from the original inits or chains them (accumulates over the outer trips)."""
    trips = rng.choice([1, 2, 2, 3])
    chain = rng.random() < 0.5

    def make(ind, h, loop, kr, text):
        c0, c1, cn, iv = _fresh_names(text, "fz_c0", "fz_c1", "fz_cn", "fz_i")
        before = ["%s%s = arith.constant 0 : index" % (ind, c0),
                  "%s%s = arith.constant 1 : index" % (ind, c1),
                  "%s%s = arith.constant %d : index" % (ind, cn, trips)]
        if not h["nres"]:
            return before, "%sscf.for %s = %s to %s step %s {" % (ind, iv, c0, cn, c1), [], ["%s}" % ind], \
                "K-loop nested in an outer loop of %d trips" % trips
        outs = [_fresh(text, "fz_o%d" % k) for k in range(h["nres"])]
        if chain:
            a0, a1, args = h["args"]
            new_args = [a.split("=", 1)[0].strip() + " = " + o for a, o in zip(args, outs)]
            hh = _loop_header(loop[0])
            loop[0] = loop[0][:hh["args"][0]] + ", ".join(new_args) + loop[0][hh["args"][1]:]
        head = "%s%s = scf.for %s = %s to %s step %s iter_args(%s) -> (%s) {" % (
            ind, h["lhs"], iv, c0, cn, c1, ", ".join("%s = %s" % (o, i) for o, i in zip(outs, h["inits"])),
            ", ".join(h["types"]))
        y = ["%s  scf.yield %s : %s" % (ind, ", ".join(_results(h, kr)), ", ".join(h["types"]))]
        return before, head, y, ["%s}" % ind], "K-loop nested in an outer loop of %d trips (%s)" % (
            trips, "chained iter_args" if chain else "restarted")
    return _wrap_kloop(text, make)


def nest_kloop_in_if(rng, text):
    """The K-loop inside `scf.if` on a fresh condition: `true`, a uniform
    block-id test, or a gpu.thread_id x test (always true, or divergent); its
    results come out of the if (else: the loop's inits)."""
    kind = rng.choice(["true", "true", "tid-always", "tid-1024", "tid-divergent", "block"])

    def make(ind, h, loop, kr, text):
        cond, v, c = _fresh_names(text, "fz_cond", "fz_id", "fz_cb")
        if kind == "true":
            before = ["%s%s = arith.constant true" % (ind, cond)]
        else:
            op, pred, bound = {"tid-always": ("thread_id", "sge", 0), "tid-1024": ("thread_id", "ult", 1024),
                               "tid-divergent": ("thread_id", "ult", rng.choice([1, 32, 64])),
                               "block": ("block_id", "ult", rng.choice([1, 1 << 20]))}[kind]
            before = ["%s%s = gpu.%s x" % (ind, v, op), "%s%s = arith.constant %d : index" % (ind, c, bound),
                      "%s%s = arith.cmpi %s, %s, %s : index" % (ind, cond, pred, v, c)]
        what = "K-loop inside scf.if (%s)" % kind
        if not h["nres"]:
            return before, "%sscf.if %s {" % (ind, cond), [], ["%s}" % ind], what
        ty = ", ".join(h["types"])
        head = "%s%s = scf.if %s -> (%s) {" % (ind, h["lhs"], cond, ty)
        y = ["%s  scf.yield %s : %s" % (ind, ", ".join(_results(h, kr)), ty)]
        tail = ["%s} else {" % ind, "%s  scf.yield %s : %s" % (ind, ", ".join(h["inits"]), ty), "%s}" % ind]
        return before, head, y, tail, what
    return _wrap_kloop(text, make)


def int_addr_space_3(rng, text):
    """Every `#gpu.address_space<workgroup>` -> the integer memory space 3
    (consistently), or back where the text uses 3."""
    if WG in text:
        return text.replace(WG, "3"), "every workgroup address space -> 3"
    new = re.sub(r"(memref<[^<>]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>[^<>]*)*,\s*)3>", r"\g<1>%s>" % WG, text)
    new = new.replace("memorySpace = 3", "memorySpace = " + WG)
    if new == text:
        return None
    return new, "every memory space 3 -> %s" % WG


def _attributions(lines, f):
    """(line, span start, span end, entries) of the workgroup(...) list of gpu.func f."""
    for i in range(f[0], f[1] + 1):
        k = lines[i].find("workgroup(")
        if k < 0:
            continue
        c = _match_close(lines[i], k + len("workgroup"))
        if c < 0:
            return None
        ents = []
        for e in _split_top(lines[i][k + len("workgroup("):c]):
            m = re.match(r"(%[\w$.\-]+)\s*:\s*(memref<.*>)(?:\s*\{(.*)\})?$", e)
            if not m:
                return None
            ents.append((m.group(1), m.group(2), m.group(3)))
        return i, k, c + 1, ents
    return None


def _remove_attributions(lines, at, drop):
    i, k, c, ents = at
    keep = [e for e in ents if e[0] not in drop]
    l = lines[i]
    if keep:
        lst = "workgroup(%s)" % ", ".join("%s : %s%s" % (n, t, " {%s}" % a if a else "") for n, t, a in keep)
        lines[i] = l[:k] + lst + l[c:]
    else:
        lines[i] = (l[:k].rstrip() + " " + l[c:].lstrip()).rstrip()
        if not lines[i].strip():
            del lines[i]


def _alloc_line(ind, name, ty, attrs):
    al = re.search(r"llvm\.align\s*=\s*(\d+)", attrs or "")
    return "%s%s = memref.alloc() %s: %s" % (ind, name, "{alignment = %s : i64} " % al.group(1) if al else "", ty)


def _func_of(fs, i):
    for f in fs:
        if f[1] < i < f[2]:
            return f
    return None


def _last(lines, lo, hi, pat):
    xs = [j for j in range(lo, hi) if re.match(pat, lines[j])]
    return xs[-1] if xs else None


def attribution_to_alloc(rng, text):
    """A gpu.func workgroup attribution (or all) becomes a memref.alloc at the
    top of the body; a memref.dealloc: none, before gpu.return, right after
    the K-loop, or (use after free) at the end of the K-loop body."""
    lines = text.split("\n")
    fs = [(f, _attributions(lines, f)) for f in _gpu_funcs(lines)]
    fs = [(f, a) for f, a in fs if a and a[3]]
    p = _pick(rng, fs)
    if p is None:
        return None
    f, at = p
    ents = at[3] if rng.random() < 0.3 else [_pick(rng, at[3])]
    kl = find_kloop(lines)
    if kl and not f[1] < kl[0] < f[2]:
        kl = None
    where = rng.choice(["none", "return", "return"] + (["after-kloop", "in-kloop"] if kl else []))
    # edits bottom-up so that the indices above stay valid
    deal = ["memref.dealloc %s : %s" % (n, t) for n, t, _ in ents]
    if where == "return":
        r = _last(lines, f[1], f[2], r"\s*gpu\.return\b")
        if r is None:
            where = "none"
        else:
            lines[r:r] = [_ind(lines[r]) + d for d in deal]
    elif where == "after-kloop":
        lines[kl[1] + 1:kl[1] + 1] = [_ind(lines[kl[0]]) + d for d in deal]
    elif where == "in-kloop":
        y = _last(lines, kl[0], kl[1], r"\s*scf\.yield\b")
        y = kl[1] if y is None else y
        lines[y:y] = [_ind(lines[kl[0]]) + "  " + d for d in deal]
    body = f[1] + 1
    ind = _ind(lines[body]) if lines[body].strip() else _ind(lines[f[0]]) + "  "
    lines[body:body] = [_alloc_line(ind, n, t, a) for n, t, a in ents]
    _remove_attributions(lines, at, {n for n, _, _ in ents})
    return "\n".join(lines), "workgroup attribution%s %s -> memref.alloc (dealloc: %s)" % (
        "s" if len(ents) > 1 else "", ", ".join(n for n, _, _ in ents), where)


def alloc_in_loop(rng, text):
    """A shared memref.alloc / memref.get_global (or a workgroup attribution,
    as an alloc, half of the time with a dealloc) moves into the K-loop body,
    at its start; its deallocs after the loop move to the end of the body.
    Not where other ops outside the loop use the buffer."""
    lines = text.split("\n")
    kl = find_kloop(lines)
    if not kl:
        return None
    fs = _gpu_funcs(lines)
    f = _func_of(fs, kl[0])
    lo, hi = (f[1] + 1, f[2]) if f else (0, len(lines))
    inloop = set(range(kl[0], kl[1] + 1))
    cands = []
    for i in range(lo, hi):
        if i in inloop:
            continue
        m = re.match(r"\s*(%[\w$.\-]+) = memref\.(alloc|get_global)\b.*: memref<.*, " + SPACE_RE + r">\s*$", lines[i])
        if m:
            cands.append(("op", i, m.group(1)))
    at = _attributions(lines, f) if f else None
    if at:
        cands += [("attr", e, e[0]) for e in at[3]]
    ok = []
    for kind, where, name in cands:
        outside = [j for j in _uses(lines, name) if j not in inloop and j != (where if kind == "op" else at[0])]
        if all(re.match(r"\s*memref\.dealloc\b", lines[j]) for j in outside):
            ok.append((kind, where, name, outside))
    p = _pick(rng, ok)
    if p is None:
        return None
    kind, where, name, deallocs = p
    body_ind = _ind(lines[kl[0]]) + "  "
    y = _last(lines, kl[0], kl[1], r"\s*scf\.yield\b")
    y = kl[1] if y is None else y
    moved = [body_ind + lines[j].strip() for j in deallocs]
    if kind == "op":
        alloc = body_ind + lines[where].strip()
    else:
        alloc = _alloc_line(body_ind, where[0], where[1], where[2])
        if rng.random() < 0.5:
            moved.append("%smemref.dealloc %s : %s" % (body_ind, where[0], where[1]))
    # bottom-up: deallocs after the loop, the yield, the loop head, lines above
    for j in sorted(deallocs, reverse=True):
        if j > kl[1]:
            del lines[j]
    lines[y:y] = moved
    lines.insert(kl[0] + 1, alloc)
    for j in sorted(deallocs, reverse=True):
        if j < kl[0]:
            del lines[j]
    if kind == "op":
        del lines[where]
    else:
        _remove_attributions(lines, at, {name})
    return "\n".join(lines), "%s %s moved into the K-loop body%s" % (
        "alloc" if kind == "op" else "workgroup attribution (as memref.alloc)", name,
        " with %d dealloc(s)" % len(moved) if moved else "")


def _deallocs(lines):
    return [i for i, l in enumerate(lines)
            if re.match(r"\s*memref\.dealloc %[\w$.\-]+ : memref<.*, " + SPACE_RE + r">\s*$", l)]


def drop_dealloc(rng, text):
    """A memref.dealloc of a shared buffer deleted."""
    lines = text.split("\n")
    i = _pick(rng, _deallocs(lines))
    if i is None:
        return None
    d = lines.pop(i).strip()
    return "\n".join(lines), "drop %s (line %d)" % (d[:60], i + 1)


def dup_dealloc(rng, text):
    """A memref.dealloc of a shared buffer duplicated (double free: next to
    it, or right after the K-loop); with no dealloc, one added before
    gpu.return for a shared memref.alloc."""
    lines = text.split("\n")
    ds = _deallocs(lines)
    kl = find_kloop(lines)
    i = _pick(rng, ds)
    if i is not None:
        if kl and i > kl[1] and rng.random() < 0.4:
            lines.insert(kl[1] + 1, _ind(lines[kl[0]]) + lines[i].strip())
            return "\n".join(lines), "dealloc of line %d also right after the K-loop" % (i + 1)
        lines.insert(i + 1, lines[i])
        return "\n".join(lines), "duplicate dealloc at line %d" % (i + 1)
    fs = _gpu_funcs(lines)
    al = []
    for i, l in enumerate(lines):
        m = re.match(r"\s*(%[\w$.\-]+) = memref\.alloc\(\)[^:]*: (memref<.*, " + SPACE_RE + r">)\s*$", l)
        f = _func_of(fs, i)
        if m and f:
            r = _last(lines, i, f[2], r"\s*gpu\.return\b")
            if r is not None:
                al.append((r, m.group(1), m.group(2)))
    p = _pick(rng, al)
    if p is None:
        return None
    r, n, t = p
    lines.insert(r, "%smemref.dealloc %s : %s" % (_ind(lines[r]), n, t))
    return "\n".join(lines), "add dealloc of %s before gpu.return" % n


def _kloop_body(lines):
    """(K-loop, direct body op lines, index of its scf.yield or None)."""
    kl = find_kloop(lines)
    if not kl:
        return None
    ops = set(op_lines(lines))
    body = [j for j in direct_body(lines, kl[0]) if j in ops and j != kl[1]]
    y = [j for j in body if lines[j].strip().startswith("scf.yield")]
    return kl, [j for j in body if j not in y], (y[-1] if y else None)


def rotate_kloop(rng, text):
    """The K-loop rotated barrier-first (IREE's form): the trailing
    gpu.barrier (the last op before scf.yield) moves to the start of the
    body; a barrier-first loop is rotated back to barrier-last."""
    lines = text.split("\n")
    b = _kloop_body(lines)
    if not b:
        return None
    kl, body, y = b
    if not body:
        return None
    end = y if y is not None else kl[1]
    if lines[body[-1]].strip() == "gpu.barrier":
        bar = lines.pop(body[-1])
        lines.insert(kl[0] + 1, bar)
        return "\n".join(lines), "K-loop rotated barrier-first (barrier of line %d to its start)" % (body[-1] + 1)
    if lines[body[0]].strip() == "gpu.barrier":
        bar = lines[body[0]]
        lines.insert(end, bar)
        del lines[body[0]]
        return "\n".join(lines), "K-loop rotated barrier-last (barrier of line %d to its end)" % (body[0] + 1)
    return None


def rotate_load_phase(rng, text):
    """The K-loop's first op group (leading barriers and the ops up to the
    next gpu.barrier: the load phase) moves to the end of the body, before
    scf.yield; only where the rest of the body uses no value it defines."""
    lines = text.split("\n")
    b = _kloop_body(lines)
    if not b:
        return None
    kl, body, y = b
    k = 0
    while k < len(body) and lines[body[k]].strip() == "gpu.barrier":
        k += 1
    while k < len(body) and lines[body[k]].strip() != "gpu.barrier":
        k += 1
    if k >= len(body) or k == 0:
        return None
    first, last = kl[0] + 1, body[k]          # moved: lines [first, last)
    end = y if y is not None else kl[1]
    seg = lines[first:last]
    rest = lines[last:kl[1] + 1]
    for d in set(re.findall(r"^\s*(%[\w$.\-]+)(?::\d+)?\s*=", "\n".join(seg), re.M)) | \
            set(re.findall(r"^\s*%[\w$.\-]+\s*,\s*(%[\w$.\-]+)", "\n".join(seg), re.M)):
        if _uses(rest, d):
            return None
    if not any(l.strip() and not l.strip().startswith("//") and l.strip() != "gpu.barrier" for l in seg):
        return None
    lines[end:end] = seg
    del lines[first:last]
    return "\n".join(lines), "K-loop rotated: its load phase (lines %d-%d) moved to the end of the body" % (
        first + 1, last)


READ_RE = re.compile(r"(=\s*(?:vector\.load|memref\.load|vector\.transfer_read|nvgpu\.ldmatrix)\s+)"
                     r"(%[\w$.\-#]+)\[([^\[\]]*)\]")
MEMREF_RE = re.compile(r"memref<([^<>]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>[^<>]*)*)>")


def reshape_shared_read(rng, text):
    """A read of a 2-D shared tile (vector.load, memref.load,
    vector.transfer_read, nvgpu.ldmatrix) goes through a memref.expand_shape
    of one dimension (indices split with arith.divui/remui by a fresh
    constant) or a memref.collapse_shape to 1-D (index i * C + j); the view
    sits just before the read or hoisted above the K-loop."""
    lines = text.split("\n")
    reads = []
    for i, l in enumerate(lines):
        m = READ_RE.search(l)
        if not m or len(_split_top(m.group(3))) != 2:
            continue
        j = _op_end(lines, i)
        op = "\n".join(lines[i:j])
        t = MEMREF_RE.search(op, m.end())
        if not t:
            continue
        tm = re.match(r"(\d+)x(\d+)x(\w+),\s*(" + SPACE_RE + r")$", t.group(1))
        if tm and "permutation_map" not in op:
            reads.append((i, j, m, t, tm))
    p = _pick(rng, reads)
    if p is None:
        return None
    i, j, m, t, tm = p
    R, C, et, sp = int(tm.group(1)), int(tm.group(2)), tm.group(3), tm.group(4)
    buf = m.group(2)
    idx = _split_top(m.group(3))
    op = "\n".join(lines[i:j])
    vrank = 0
    if "transfer_read" in op:
        vm = re.search(r"vector<([0-9x]+)x\w+>", op[t.end():])
        vrank = len(vm.group(1).split("x")) if vm else 0
    splits = [(d, f) for d, n in ((0, R), (1, C)) for f in (2, 4, 8) if n % f == 0 and n > 1]
    mode = "collapse" if (rng.random() < 0.3 and vrank <= 1) or not splits else "expand"
    if mode == "collapse" and vrank > 1:
        return None
    view, cst, q, r2 = _fresh_names(text, "fz_view", "fz_cst", "fz_q", "fz_r")
    ind = _ind(lines[i])
    pre = []
    if mode == "expand":
        d, f = splits[rng.randrange(len(splits))] if rng.random() < 0.5 else \
            _pick(rng, [s for s in splits if s[1] == 2] or splits)
        shape = [R, C]
        shape[d:d + 1] = [shape[d] // f, f]
        assoc = "[[0, 1], [2]]" if d == 0 else "[[0], [1, 2]]"
        nty = "memref<%sx%s, %s>" % ("x".join(map(str, shape)), et, sp)
        vline = "%s = memref.expand_shape %s %s output_shape [%s] : %s into %s" % (
            view, buf, assoc, ", ".join(map(str, shape)), t.group(0), nty)
        pre = ["%s%s = arith.constant %d : index" % (ind, cst, f),
               "%s%s = arith.divui %s, %s : index" % (ind, q, idx[d], cst),
               "%s%s = arith.remui %s, %s : index" % (ind, r2, idx[d], cst)]
        nidx = list(idx)
        nidx[d:d + 1] = [q, r2]
        what = "expand_shape of dim %d by %d" % (d, f)
    else:
        nty = "memref<%dx%s, %s>" % (R * C, et, sp)
        vline = "%s = memref.collapse_shape %s [[0, 1]] : %s into %s" % (view, buf, t.group(0), nty)
        pre = ["%s%s = arith.constant %d : index" % (ind, cst, C),
               "%s%s = arith.muli %s, %s : index" % (ind, q, idx[0], cst),
               "%s%s = arith.addi %s, %s : index" % (ind, r2, q, idx[1])]
        nidx = [r2]
        what = "collapse_shape to 1-D"
    new = op[:m.start(2)] + "%s[%s]" % (view, ", ".join(nidx)) + op[m.end():t.start()] + nty + op[t.end():]
    lines[i:j] = new.split("\n")
    lines[i:i] = pre
    kl = find_kloop(lines)
    base = buf.split("#")[0]
    hoist = bool(kl) and kl[0] < i < kl[1] and rng.random() < 0.5 and not _defined_in(lines[kl[0]:kl[1] + 1], base)
    if hoist:
        lines.insert(kl[0], _ind(lines[kl[0]]) + vline)
    else:
        lines.insert(i, ind + vline)
    return "\n".join(lines), "shared read of %s at line %d through a %s (%s)" % (
        buf, i + 1, what, "hoisted above the K-loop" if hoist else "next to the read")



def _defined_in(lines, name):
    """Whether `name` is defined in lines: an op result, a loop iv or iter_arg."""
    n = re.escape(name) + NAME_END
    return any(re.match(r"\s*(?:%[\w$.\-]+(?::\d+)?\s*,\s*)*" + n + r"(?::\d+)?\s*(?:,[^=]*)?=", l)
               or re.search(r"scf\.for\s+" + n, l) or re.search(r"iter_args\(.*" + n + r"\s*=", l) for l in lines)
