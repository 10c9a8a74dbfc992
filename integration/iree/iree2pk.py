#!/usr/bin/env python3
"""iree2pk: turn one IREE CUDA dispatch dump into a pk kernel that MLIR 22 parses.

Usage:
    python3 integration/iree/iree2pk.py DUMP.mlir -o KERNEL.mlir [--module-name NAME]

Contract
--------
DUMP is one IR dump of one dispatch ``func.func`` as IREE 3.13 prints it with
``--mlir-print-ir-after-all --mlir-print-ir-tree-dir=...`` (the
``// -----// IR Dump ...`` header line may be present; a ``builtin.module``
holding exactly one such ``func.func`` is accepted too). KERNEL is a
``builtin.module attributes {gpu.container_module}`` holding one
``gpu.module`` with one ``gpu.func ... kernel`` that MLIR 22 (``mlir-opt-22``)
parses. The loop body is left as IREE generated it. On a dump it cannot
convert, iree2pk exits with status 1 and a message naming the line and the
construct (status 2: usage errors).

The converter is text-based and has no dependency besides Python 3: it does
not need IREE or MLIR installed.

Rewrites (every change made to IREE's IR; nothing else is touched)
------------------------------------------------------------------
R1. ``func.func @D() attributes {...}`` -> ``gpu.func @D(ARGS) kernel`` in
    ``gpu.module @M`` (M: ``--module-name``, default the dispatch name up to
    ``_dispatch_N``, i.e. IREE's executable name) in a
    ``module attributes {gpu.container_module}``; the function-level
    ``return`` -> ``gpu.return``.
R2. Kernel arguments, in IREE's CUDA kernel ABI order: one per binding of the
    pipeline layout in binding order, then one ``i32`` per push constant in
    ordinal order. Each ``hal.interface.binding.subspan`` is removed and its
    result becomes the binding's argument (same SSA name), typed as the
    subspan's memref without the ``#hal.descriptor_type`` memory space (so in
    the default, global, space), with ``{llvm.align = A : i64}`` from the
    subspan's ``alignment(A)``. Dynamic sizes of the subspan (``{%d}``) are
    then carried by the memref argument itself (the values IREE computed
    from push constants stay in the body, possibly unused). Each
    ``hal.interface.constant.load ... ordinal(N) : i32`` is removed and its
    result becomes push-constant argument N (same SSA name). A layout binding
    or constant that no subspan/load uses gets an argument named
    ``%bindingN`` (``memref<?xi8>``) / ``%pcN`` (``i32``). Declined: a
    subspan with a non-zero offset, two subspans of one binding, a
    non-memref (tensor) subspan, a non-i32 constant.
R3. ``known_block_size = array<i32: X, Y, Z>`` from the translation_info's
    ``workgroup_size`` (else the function's ``gpu.known_block_size``); the
    ``translation_info`` and ``gpu.known_block_size`` function attributes are
    dropped and replaced by plain ``iree.pipeline = "<pipeline>"``,
    ``iree.subgroup_size = N`` and (for a static workgroup forall)
    ``iree.workgroup_count = array<i64: X, Y, Z>``.
R4. The workgroup-distributed ``scf.forall (...) ... {mapping =
    [#iree_codegen.workgroup_mapping<x|y|z>...]}`` is inlined into the kernel:
    each induction variable becomes ``gpu.block_id <dim> upper_bound <trip>``
    (times the step plus the lower bound, as one ``affine.apply``, when the
    forall has them), the forall's lines are removed and its body stays as
    is. Declined: other mappings (``z:1``, linear), nested or other foralls.
R5. ``hal.interface.workgroup.id[i]`` -> ``gpu.block_id x|y|z``,
    ``hal.interface.workgroup.count[i]`` -> ``gpu.grid_dim``,
    ``hal.interface.workgroup.size[i]`` -> ``gpu.block_dim`` (``upper_bound``
    kept).
R6. IREE-only pass-through ops are removed and their results replaced by
    their operands: ``iree_codegen.index_hint %v(#iree_gpu...)``,
    ``iree_tensor_ext.dispatch.workload.ordinal %v, N``,
    ``util.assume.int %a<...>, %b<...>`` (the range assumption is dropped).
R7. The memory space ``#hal.descriptor_type<...>`` is removed from every
    memref type (IREE's bindings are global memory).
R8. ``gpu.barrier memfence [#gpu.address_space<...>, ...]`` -> ``gpu.barrier``
    (MLIR 22's gpu.barrier has no memfence list; the plain barrier fences
    every address space, so it orders at least what IREE's did).
R9. Assembly formats newer than MLIR 22's parser (the op is unchanged, only
    its printed form): ``nvgpu.mma.sync(...) mmaShape = [..] :`` ->
    ``nvgpu.mma.sync(...) {mmaShape = [..]} :`` and
    ``vector.insert_strided_slice / extract_strided_slice ... offsets = [..],
    (sizes = [..],) strides = [..] :`` -> the same keys in an attribute
    dictionary ``{...}``.
Any other IREE construct left (``hal.``/``iree_``/``util.`` ops, ``#hal``/
``#iree_`` attributes, ``!iree_`` types) makes iree2pk decline the dump.
"""

import argparse
import re
import sys

SSA = r"%[A-Za-z0-9_$.\-]+"
SSA_USE_RE = re.compile(r"(%[A-Za-z0-9_$.\-]+)(#\d+)?")
DIMS = "xyz"


class ConvertError(Exception):
    pass


def fail(msg, lineno=None):
    raise ConvertError(("line %d: " % lineno if lineno else "") + msg)


def balanced(text, start, open_ch="<", close_ch=">"):
    """Return the end index (exclusive) of the bracket group opening at start."""
    assert text[start] == open_ch
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
    raise ConvertError("unbalanced '%s' in: %s" % (open_ch, text[start:start + 80]))


def logical_lines(raw_lines):
    """Join op continuation lines (more indented, previous line not opening a
    region) into one line, keeping the original first line number."""
    out = []
    for no, line in raw_lines:
        if out and line.strip() and not out[-1][1].rstrip().endswith("{"):
            prev_indent = len(out[-1][1]) - len(out[-1][1].lstrip())
            indent = len(line) - len(line.lstrip())
            prev = out[-1][1].rstrip()
            is_label = re.match(r"^\s*\^[\w$.\-]+.*:", prev) is not None
            if indent > prev_indent and not prev.endswith("}") and prev.strip() and not is_label:
                out[-1] = (out[-1][0], prev + " " + line.strip())
                continue
        out.append((no, line.rstrip("\n")))
    return out


NEWER_SYNTAX_OPS = ("nvgpu.mma.sync", "vector.insert_strided_slice",
                     "vector.extract_strided_slice")
NEWER_SYNTAX_RE = re.compile(
    r"^(\s*(?:%s = )?(?:%s)\b.*?) ((?:\w+ = \[[^\]]*\](?:, )?)+) : "
    % (SSA, "|".join(re.escape(o) for o in NEWER_SYNTAX_OPS)))


def older_syntax(line):
    # R9: key = [...] lists printed outside an attribute dictionary.
    return NEWER_SYNTAX_RE.sub(lambda m: "%s {%s} : " % (m.group(1), m.group(2)), line, count=1)


def strip_hal_space(text):
    # memref<..., #hal.descriptor_type<storage_buffer>> -> memref<...>
    return re.sub(r",\s*#hal\.descriptor_type<[a-z_]+>", "", text)


FUNC_RE = re.compile(
    r"^(\s*)func\.func (?:public |private )?@([\w$.\-]+)\((.*?)\)(?: attributes (\{.*\}))? \{$")
SUBSPAN_RE = re.compile(
    r"^(\s*)(%s) = hal\.interface\.binding\.subspan layout\((.*)\) binding\((\d+)\)"
    r"(?: alignment\((\d+)\))?(?: offset\((%s)\))?(?: flags\((.*?)\))? : (.*)$" % (SSA, SSA))
CONSTLOAD_RE = re.compile(
    r"^(\s*)(%s) = hal\.interface\.constant\.load layout\((.*)\) ordinal\((\d+)\)(.*?) : (\S+)$"
    % SSA)
WGID_RE = re.compile(
    r"^(\s*)(%s) = hal\.interface\.workgroup\.(id|count|size)\[(\d)\]( upper_bound \d+)? : index$"
    % SSA)
INDEX_HINT_RE = re.compile(r"^\s*(%s) = iree_codegen\.index_hint (%s(?:#\d+)?)\(.*\) : \S+$" % (SSA, SSA))
ORDINAL_RE = re.compile(
    r"^\s*(%s) = iree_tensor_ext\.dispatch\.workload\.ordinal (%s(?:#\d+)?), \d+ : \S+$" % (SSA, SSA))
ASSUME_RE = re.compile(r"^\s*(%s)(?::(\d+))? = util\.assume\.int (.*) : (.*)$" % SSA)
CONST_RE = re.compile(r"^\s*(%s) = arith\.constant (-?\d+) : index$" % SSA)
FORALL_RE = re.compile(
    r"^(\s*)scf\.forall \(([^)]*)\) (?:in \(([^)]*)\)|= \(([^)]*)\) to \(([^)]*)\) step \(([^)]*)\)) \{$")


def parse_layout_counts(layout):
    nbind = len(re.findall(r"#hal\.pipeline\.binding<", layout))
    m = re.search(r"constants = (\d+)", layout)
    return nbind, int(m.group(1)) if m else 0


def extract_attr(attrs, key):
    """Value text of `key = <value>` in an attribute dictionary text."""
    m = re.search(r"(?:^|[{,]\s*)" + re.escape(key) + r" = ", attrs)
    if not m:
        return None
    i = m.end()
    depth, j, quote = 0, i, False
    while j < len(attrs):
        c = attrs[j]
        if quote:
            if c == "\\":
                j += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
        elif c in "<[({":
            depth += 1
        elif c in ">])}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        j += 1
    return attrs[i:j].strip()


def convert(text, source="DUMP", module_name=None):
    raw = [(i + 1, l) for i, l in enumerate(text.splitlines())]
    header = None
    kept = []
    for no, l in raw:
        if l.startswith("// -----// IR Dump"):
            if header is not None:
                fail("more than one IR dump in the file (give one dump of one dispatch)", no)
            header = l
            continue
        kept.append((no, l))
    lines = logical_lines(kept)

    # Locate the one func.func.
    funcs = [(k, no, l) for k, (no, l) in enumerate(lines) if FUNC_RE.match(l)]
    if not funcs:
        if any("func.func" in l for _, l in lines):
            fail("found 'func.func' but not in the form 'func.func @name() attributes {...} {' on one line")
        fail("no func.func in the dump (is it an IR dump of a dispatch function?)")
    if len(funcs) > 1:
        fail("%d func.func in the dump; give the dump of one dispatch" % len(funcs), funcs[1][1])
    fk, fno, fline = funcs[0]
    fm = FUNC_RE.match(fline)
    findent, fname, fargs, fattrs = fm.group(1), fm.group(2), fm.group(3), fm.group(4) or "{}"
    if fargs.strip():
        fail("dispatch function @%s has arguments (%s); IREE dispatches take none" % (fname, fargs), fno)
    close = None
    for k in range(fk + 1, len(lines)):
        if lines[k][1] == findent + "}":
            close = k
            break
    if close is None:
        fail("no closing '}' for func.func @%s" % fname, fno)
    prefix = [(no, l) for no, l in lines[:fk] if l.strip()]
    suffix = [(no, l) for no, l in lines[close + 1:] if l.strip()]
    aliases = []
    for no, l in prefix:
        s = l.strip()
        if re.match(r"^(module|builtin\.module)\b.*\{$", s) or s.startswith("//"):
            continue
        if re.match(r"^[#!][\w$.\-]+ = ", s):
            aliases.append((no, s))
            continue
        fail("unexpected operation outside the dispatch function: %s" % s[:80], no)
    for no, l in suffix:
        s = l.strip()
        if s == "}" or s.startswith("//"):
            continue
        fail("unexpected operation after the dispatch function: %s" % s[:80], no)
    body = lines[fk + 1:close]

    # --- function attributes (R3)
    ti = extract_attr(fattrs, "translation_info")
    pipeline, wg, subgroup = None, None, None
    if ti:
        m = re.search(r"pipeline = (?:#iree_gpu\.pipeline<(\w+)>|(\w+))", ti)
        if m:
            pipeline = m.group(1) or m.group(2)
        m = re.search(r"workgroup_size = \[([\d, ]+)\]", ti)
        if m:
            wg = [int(x) for x in m.group(1).split(",")]
        m = re.search(r"subgroup_size = (\d+)", ti)
        if m:
            subgroup = int(m.group(1))
    kbs = extract_attr(fattrs, "gpu.known_block_size")
    if wg is None and kbs:
        m = re.match(r"array<i32: ([\d, ]+)>", kbs)
        wg = [int(x) for x in m.group(1).split(",")]
    if wg is None:
        fail("no workgroup_size in the translation_info of @%s (and no gpu.known_block_size)" % fname, fno)
    while len(wg) < 3:
        wg.append(1)

    # --- pass 1: constants, aliases (R6), bindings and push constants (R2)
    consts = {}
    alias = {}
    bindings = {}   # index -> (name, type, align)
    pconsts = {}    # ordinal -> name
    nbind, nconst = 0, 0
    drop = set()
    for k, (no, l) in enumerate(body):
        m = CONST_RE.match(l)
        if m:
            consts[m.group(1)] = int(m.group(2))
        m = INDEX_HINT_RE.match(l) or ORDINAL_RE.match(l)
        if m:
            alias[m.group(1)] = m.group(2)
            drop.add(k)
            continue
        m = ASSUME_RE.match(l)
        if m:
            res, n = m.group(1), int(m.group(2) or 1)
            ops = re.findall(r"(%s(?:#\d+)?)<[^>]*>" % SSA, m.group(3))
            if len(ops) != n:
                fail("cannot read util.assume.int operands: %s" % l.strip()[:100], no)
            if n == 1:
                alias[res] = ops[0]
            else:
                for i, o in enumerate(ops):
                    alias["%s#%d" % (res, i)] = o
            drop.add(k)
            continue
        m = SUBSPAN_RE.match(l)
        if m:
            name, layout, idx, align, off, ty = (m.group(2), m.group(3), int(m.group(4)),
                                                 m.group(5), m.group(6), m.group(8))
            nb, nc = parse_layout_counts(layout)
            nbind, nconst = max(nbind, nb), max(nconst, nc)
            tym = re.match(r"^(memref<.*>)(\{.*\})?$", ty)
            if not tym:
                fail("binding %d is not a memref (%s): the dump is not bufferized; capture a "
                     "later pass" % (idx, ty[:60]), no)
            if off is not None and consts.get(off) != 0:
                fail("binding %d has offset %s, not a constant 0: not supported" % (idx, off), no)
            if idx in bindings:
                fail("binding %d has two subspans (%s and %s): not supported"
                     % (idx, bindings[idx][0], name), no)
            bindings[idx] = (name, strip_hal_space(tym.group(1)), int(align) if align else None)
            drop.add(k)
            continue
        if "hal.interface.binding.subspan" in l:
            fail("cannot read this hal.interface.binding.subspan: %s" % l.strip()[:120], no)
        m = CONSTLOAD_RE.match(l)
        if m:
            name, layout, ordn, ty = m.group(2), m.group(3), int(m.group(4)), m.group(6)
            nb, nc = parse_layout_counts(layout)
            nbind, nconst = max(nbind, nb), max(nconst, nc)
            if ty != "i32":
                fail("push constant %d has type %s, not i32" % (ordn, ty), no)
            if ordn in pconsts:
                fail("push constant %d loaded twice (%s and %s): not supported"
                     % (ordn, pconsts[ordn], name), no)
            pconsts[ordn] = name
            drop.add(k)
            continue
        if "hal.interface.constant.load" in l:
            fail("cannot read this hal.interface.constant.load: %s" % l.strip()[:120], no)
    nbind = max([nbind] + [i + 1 for i in bindings])
    nconst = max([nconst] + [i + 1 for i in pconsts])

    def resolve(tok):
        seen = 0
        while tok in alias:
            tok = alias[tok]
            seen += 1
            if seen > 1000:
                fail("alias cycle at %s" % tok)
        return tok

    def subst(l):
        if not alias:
            return l

        def rep(m):
            full = m.group(0)
            if full in alias:
                return resolve(full)
            base = m.group(1)
            if base in alias:
                return resolve(base) + (m.group(2) or "")
            return full
        return SSA_USE_RE.sub(rep, l)

    # --- pass 2: forall (R4), workgroup ids (R5), types (R7), return (R1)
    out = []
    grid = None
    forall_stack = []  # index of the closing line of the forall being inlined
    forall_indent = ""
    k = 0
    while k < len(body):
        no, l = body[k]
        if k in drop:
            k += 1
            continue
        l = subst(l)
        m = FORALL_RE.match(l)
        if m:
            indent = m.group(1)
            # find its closing line at the same indentation
            end = None
            for j in range(k + 1, len(body)):
                if body[j][1].startswith(indent + "}") and len(body[j][1]) - len(body[j][1].lstrip()) == len(indent):
                    end = j
                    break
            if end is None:
                fail("no end of scf.forall", no)
            mm = re.match(r"^\s*\} \{mapping = \[(.*)\]\}$", body[end][1])
            if not mm:
                fail("scf.forall without a mapping attribute (or with results): %s" % body[end][1].strip(), body[end][0])
            maps = re.findall(r"#iree_codegen\.workgroup_mapping<([^>]*)>", mm.group(1))
            if not maps or len(maps) != len(re.findall(r"#", mm.group(1))):
                fail("scf.forall mapping is not workgroup_mapping<x|y|z>: %s" % mm.group(1), body[end][0])
            if forall_stack:
                fail("nested workgroup scf.forall", no)
            ivs = [s.strip() for s in m.group(2).split(",")]
            if m.group(3) is not None:
                ubs = [s.strip() for s in m.group(3).split(",")]
                lbs = ["0"] * len(ivs)
                steps = ["1"] * len(ivs)
            else:
                lbs = [s.strip() for s in m.group(4).split(",")]
                ubs = [s.strip() for s in m.group(5).split(",")]
                steps = [s.strip() for s in m.group(6).split(",")]
            if not (len(ivs) == len(maps) == len(ubs) == len(lbs) == len(steps)):
                fail("scf.forall bounds and mapping disagree", no)
            counts = {}
            for iv, mp, lb, ub, st in zip(ivs, maps, lbs, ubs, steps):
                if mp not in ("x", "y", "z"):
                    fail("workgroup_mapping<%s> is not supported (only x, y, z)" % mp, body[end][0])
                static = all(re.match(r"^-?\d+$", v) for v in (lb, ub, st))
                trip = None
                if static:
                    trip = -(-(int(ub) - int(lb)) // int(st))
                    counts[mp] = trip
                ub_txt = " upper_bound %d" % trip if trip else ""
                if lb == "0" and st == "1":
                    out.append("%s%s = gpu.block_id %s%s" % (indent, iv, mp, ub_txt))
                    continue
                bid = "%s_bid" % iv
                out.append("%s%s = gpu.block_id %s%s" % (indent, bid, mp, ub_txt))
                syms, expr_s, expr_l = [], "d0", ""
                if re.match(r"^-?\d+$", st):
                    expr_s = "d0 * %s" % st
                else:
                    syms.append(st)
                    expr_s = "d0 * s0"
                if re.match(r"^-?\d+$", lb):
                    expr_l = " + %s" % lb if lb != "0" else ""
                else:
                    syms.append(lb)
                    expr_l = " + s%d" % (len(syms) - 1)
                symdecl = "[%s]" % ", ".join("s%d" % i for i in range(len(syms))) if syms else ""
                symargs = "[%s]" % ", ".join(syms) if syms else ""
                out.append("%s%s = affine.apply affine_map<(d0)%s -> (%s%s)>(%s)%s"
                           % (indent, iv, symdecl, expr_s, expr_l, bid, symargs))
            if counts and len(counts) == len(maps):
                grid = [counts.get(d, 1) for d in DIMS]
            forall_stack.append(end)
            forall_indent = indent
            k += 1
            continue
        if forall_stack and k == forall_stack[-1]:
            forall_stack.pop()
            k += 1
            continue
        if re.match(r"^\s*scf\.forall\b", l):
            fail("scf.forall not in the workgroup form iree2pk converts: %s" % l.strip()[:100], no)
        if re.match(r"^\s*scf\.forall\.in_parallel \{\s*\}$", l):
            k += 1
            continue
        m = WGID_RE.match(l)
        if m:
            op = {"id": "gpu.block_id", "count": "gpu.grid_dim", "size": "gpu.block_dim"}[m.group(3)]
            d = int(m.group(4))
            if d > 2:
                fail("hal.interface.workgroup.%s[%d]: only dimensions 0..2" % (m.group(3), d), no)
            l = "%s%s = %s %s%s" % (m.group(1), m.group(2), op, DIMS[d], m.group(5) or "")
        if forall_stack and l.startswith(forall_indent + "  "):
            l = forall_indent + l[len(forall_indent) + 2:]  # cosmetic: dedent the inlined body
        l = strip_hal_space(l)
        l = older_syntax(l)
        l = re.sub(r"^(\s*gpu\.barrier) memfence \[[^\]]*\]$", r"\1", l)
        if l == findent + "  return":
            l = findent + "  gpu.return"
        out.append(l)
        k += 1

    # the forall body was one level deeper: dedent nothing (cosmetic only)
    # --- leftovers
    leftover_re = re.compile(r"(\b(?:hal|iree_\w+|util)\.[\w.]+|#hal\.\w+|#iree_\w+\.\w+|!iree_\w+\.\w+|!hal\.\w+)")
    for l in out:
        mm = leftover_re.search(l)
        if mm:
            fail("IREE construct iree2pk does not convert: '%s' in: %s" % (mm.group(1), l.strip()[:140]))
    for no, a in aliases:
        if leftover_re.search(a):
            name = a.split(" = ")[0]
            if any(name in l for l in out):
                fail("alias %s uses an IREE attribute and is used in the body" % name, no)

    # --- assemble
    args = []
    for i in range(nbind):
        if i in bindings:
            name, ty, align = bindings[i]
            attr = " {llvm.align = %d : i64}" % align if align else ""
            args.append("%s: %s%s" % (name, ty, attr))
        else:
            args.append("%%binding%d: memref<?xi8>" % i)
    for i in range(nconst):
        args.append("%s: i32" % pconsts.get(i, "%%pc%d" % i))
    kattrs = ["known_block_size = array<i32: %d, %d, %d>" % tuple(wg[:3])]
    if pipeline:
        kattrs.append('iree.pipeline = "%s"' % pipeline)
    if subgroup:
        kattrs.append("iree.subgroup_size = %d : i64" % subgroup)
    if grid:
        kattrs.append("iree.workgroup_count = array<i64: %d, %d, %d>" % tuple(grid))
    if module_name is None:
        mm = re.match(r"^(.*?_dispatch_\d+)", fname)
        module_name = mm.group(1) if mm else fname + "_module"
    res = []
    res.append("// Converted by integration/iree/iree2pk.py from %s" % source)
    if header:
        res.append("// %s" % header.strip("/ -").strip())
    for _, a in aliases:
        if not leftover_re.search(a):
            res.append(a)
    res.append("module attributes {gpu.container_module} {")
    res.append("  gpu.module @%s {" % module_name)
    res.append("    gpu.func @%s(%s) kernel attributes {%s} {" % (fname, ", ".join(args), ", ".join(kattrs)))
    base = len(findent)
    for l in out:
        if not l.strip():
            continue
        res.append("    " + l[base:] if l.startswith(findent) else l)
    res.append("    }")
    res.append("  }")
    res.append("}")
    return "\n".join(res) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dump", help="one IR dump of one IREE dispatch func.func")
    ap.add_argument("-o", "--output", default="-", help="kernel file (default: stdout)")
    ap.add_argument("--module-name", default=None, help="gpu.module name (default: the executable name)")
    a = ap.parse_args(argv)
    try:
        with open(a.dump) as f:
            text = f.read()
    except OSError as e:
        print("iree2pk: error: cannot read %s: %s" % (a.dump, e), file=sys.stderr)
        return 1
    try:
        kernel = convert(text, source=a.dump.split("/")[-1], module_name=a.module_name)
    except ConvertError as e:
        print("iree2pk: error: %s: cannot convert: %s" % (a.dump, e), file=sys.stderr)
        return 1
    except Exception as e:  # a form the converter does not expect: still a clear failure
        print("iree2pk: error: %s: cannot convert: unexpected input (%s: %s)"
              % (a.dump, type(e).__name__, e), file=sys.stderr)
        return 1
    if a.output == "-":
        sys.stdout.write(kernel)
    else:
        with open(a.output, "w") as f:
            f.write(kernel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
