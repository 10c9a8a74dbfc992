#!/usr/bin/env python3
"""ptx_abi: does a pk PTX keep IREE's kernel ABI? Compare the ``.entry``
signatures of IREE's PTX and pk's PTX for one executable.

Usage:
    python3 integration/iree/ptx_abi.py IREE.ptx PK.ptx [--entry NAME]
        [--workgroup-size X,Y,Z]

What IREE's CUDA runtime relies on when it launches the substituted kernel
(``iree/hal/drivers/cuda``: ``cuModuleGetFunction`` by the export's name,
``cuLaunchKernel`` with one pointer per binding, then one 32-bit word per push
constant, in order, and the export's ``workgroup_size`` as the block):

* the entry name: the same ``.visible .entry NAME`` exists in both;
* the parameters: the same count; parameter i is a 64-bit pointer
  (``.u64``/``.b64``/``.s64``) in both, or a 32-bit scalar
  (``.u32``/``.b32``/``.s32``) in both;
* the block: ``.maxntid``/``.reqntid`` of pk's entry, where present, equal
  IREE's (and ``--workgroup-size``, IREE's export ``workgroup_size``, when
  given); pk's must not be missing where IREE's is present (a mismatch, not
  only a note, because ptxas uses it to bound registers).

Differences that do not change the launch are reported as notes, not
mismatches: the parameter's spelling of the same width (``.b32`` vs
``.u32``), the pointer's state space (``.ptr .global``, IREE's LLVM, vs
``.ptr``, generic) and its declared alignment (IREE's HAL aligns bindings to
64 bytes, ``alignment(64)`` on the subspans, so ``.align 64`` and
``.align 16`` both hold).

``python3 ptx_abi.py --storage PK.ptx [--shared] [--dynamic-bytes N]``: the
storage checks pk-iree makes on pk's PTX (``check_storage``): no ``malloc``,
no ``__local_depot``, dynamic shared memory (``.extern .shared``) only with
its size (``--dynamic-bytes``, pk's ``pk.dynamic_shared_memory_bytes``),
static ``.shared`` at most 48 KB, and (``--shared``) a ``.shared`` declaration;
``storage: ok`` (exit 0) or ``refused: ...`` lines and ``storage: REFUSED``
(exit 1).

Output: one line per finding, ``mismatch: ...`` or ``note: ...``, then
``ABI: match (entry NAME, N params, block X,Y,Z)`` or ``ABI: MISMATCH (M
difference(s))``. Exit status 0 on a match, 1 on a mismatch, 2 on a file
that has no such entry (or no entry at all). Only Python 3.
"""

import argparse
import re
import sys

ENTRY_RE = re.compile(
    r"\.(?:visible|weak)\s+\.entry\s+([A-Za-z_$][\w$]*)\s*\((.*?)\)\s*((?:\.(?:maxntid|reqntid|minnctapersm|maxnreg|maxclusterrank|reqnctapercluster|explicitcluster|noreturn|pragma)[^{]*?)*)\{",
    re.S)
PARAM_RE = re.compile(r"\.param\s+(.*?)\s+([A-Za-z_$][\w$]*)\s*(\[\d+\])?\s*$", re.S)
WIDTH = {"u64": 64, "b64": 64, "s64": 64, "f64": 64,
         "u32": 32, "b32": 32, "s32": 32, "f32": 32,
         "u16": 16, "b16": 16, "s16": 16, "f16": 16,
         "u8": 8, "b8": 8, "s8": 8}


STATIC_SHARED_LIMIT = 48 * 1024


class PtxError(Exception):
    pass


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def parse_entries(text):
    """{name: {"params": [param...], "maxntid": tuple|None, "reqntid": tuple|None}}"""
    out = {}
    for m in ENTRY_RE.finditer(strip_comments(text)):
        name, params_text, directives = m.group(1), m.group(2), m.group(3)
        params = []
        for i, p in enumerate(x.strip() for x in params_text.split(",") if x.strip()):
            pm = PARAM_RE.match(p)
            if not pm:
                raise PtxError("entry %s: cannot read parameter %d: %r" % (name, i, p))
            quals = pm.group(1).split()
            types = [q[1:] for q in quals if q[1:] in WIDTH]
            if len(types) != 1:
                raise PtxError("entry %s: parameter %d has no (or several) types: %r" % (name, i, p))
            align = None
            if ".align" in quals:
                k = quals.index(".align")
                align = int(quals[k + 1]) if k + 1 < len(quals) else None
            space = None
            if ".ptr" in quals:
                k = quals.index(".ptr")
                if k + 1 < len(quals) and quals[k + 1] in (".global", ".shared", ".const", ".local"):
                    space = quals[k + 1][1:]
                else:
                    space = "generic"
            params.append({"index": i, "text": p, "type": types[0], "width": WIDTH[types[0]],
                           "ptr": ".ptr" in quals, "space": space, "align": align,
                           "array": pm.group(3)})
        dirs = {}
        for d in ("maxntid", "reqntid"):
            dm = re.search(r"\." + d + r"\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?", directives)
            dirs[d] = tuple(int(x) if x else 1 for x in dm.groups()) if dm else None
        out[name] = {"params": params, **dirs}
    return out


def check_storage(ptx, has_shared, dynamic_bytes=0):
    """(problems, static .shared bytes, .shared declarations) of one pk PTX:
    no malloc, no __local_depot, dynamic shared memory (``.extern .shared``)
    only with its size known (``dynamic_bytes`` > 0: pk-iree launches the
    kernel with it), static .shared within 48 KB, and .shared present when
    the kernel has shared-memory tiles."""
    body = strip_comments(ptx)
    problems = []
    n = len(re.findall(r"\bmalloc\b", body))
    if n:
        problems.append("%d `malloc` reference(s): pk lowered workgroup storage to the heap" % n)
    n = len(re.findall(r"__local_depot", body))
    if n:
        problems.append("%d `__local_depot` reference(s): local memory (stack) in the kernel" % n)
    if re.search(r"\.extern\s+\.shared", body) and dynamic_bytes <= 0:
        problems.append("dynamic shared memory (`.extern .shared`) of unknown size "
                        "(no pk.dynamic_shared_memory_bytes on the kernel)")
    static = sum(int(m.group(1)) for m in
                 re.finditer(r"^\s*\.shared\s+(?:\.align\s+\d+\s+)?\.b8\s+[\w$]+\[(\d+)\]", body, re.M))
    nshared = len(re.findall(r"^\s*(?:\.extern\s+)?\.shared\s", body, re.M))
    if has_shared and not nshared:
        problems.append("no `.shared` declaration, but the kernel stages tiles in shared memory")
    if static > STATIC_SHARED_LIMIT:
        problems.append("%d B of static .shared, above the %d B static limit" % (static, STATIC_SHARED_LIMIT))
    return problems, static, nshared


def compare(iree_text, pk_text, entry=None, workgroup_size=None):
    """(mismatches, notes, summary) for the entry ``entry`` (default: IREE's only entry)."""
    ie, pe = parse_entries(iree_text), parse_entries(pk_text)
    if not ie:
        raise PtxError("IREE's PTX has no .entry")
    if not pe:
        raise PtxError("pk's PTX has no .entry")
    if entry is None:
        if len(ie) != 1:
            raise PtxError("IREE's PTX has %d entries (%s); name one with --entry"
                           % (len(ie), ", ".join(sorted(ie))))
        entry = next(iter(ie))
    if entry not in ie:
        raise PtxError("IREE's PTX has no entry %s (it has %s)" % (entry, ", ".join(sorted(ie))))
    mism, notes = [], []
    if entry not in pe:
        mism.append("entry name: IREE launches %s; pk's PTX has only %s"
                    % (entry, ", ".join(sorted(pe))))
        return mism, notes, None
    a, b = ie[entry], pe[entry]
    extra = sorted(set(pe) - {entry})
    if extra:
        notes.append("pk's PTX has other entries as well (not launched by IREE): %s" % ", ".join(extra))
    if len(a["params"]) != len(b["params"]):
        mism.append("parameter count: IREE %d, pk %d" % (len(a["params"]), len(b["params"])))
    for pa, pb in zip(a["params"], b["params"]):
        i = pa["index"]
        if pa["width"] != pb["width"] or pa["ptr"] != pb["ptr"] or pa["array"] != pb["array"]:
            mism.append("parameter %d: IREE `%s`, pk `%s` (%s%d-bit%s vs %s%d-bit%s)"
                        % (i, pa["text"], pb["text"],
                           "pointer " if pa["ptr"] else "", pa["width"], pa["array"] or "",
                           "pointer " if pb["ptr"] else "", pb["width"], pb["array"] or ""))
            continue
        if pa["type"] != pb["type"]:
            notes.append("parameter %d: .%s vs .%s (same width)" % (i, pa["type"], pb["type"]))
        if pa["space"] != pb["space"]:
            notes.append("parameter %d: pointer state space %s (IREE) vs %s (pk)"
                         % (i, pa["space"], pb["space"]))
        if pa["align"] != pb["align"]:
            notes.append("parameter %d: .align %s (IREE) vs %s (pk); IREE's bindings are 64-byte aligned"
                         % (i, pa["align"], pb["align"]))
            if pb["align"] and pb["align"] > 64:
                mism.append("parameter %d: pk assumes .align %d, more than IREE's 64-byte binding alignment"
                            % (i, pb["align"]))
    for d in ("maxntid", "reqntid"):
        if a[d] != b[d]:
            if b[d] is None and d == "reqntid":
                notes.append(".reqntid %s in IREE's PTX, none in pk's" % (",".join(map(str, a[d]))))
            else:
                mism.append(".%s: IREE %s, pk %s" % (d, ",".join(map(str, a[d])) if a[d] else "none",
                                                     ",".join(map(str, b[d])) if b[d] else "none"))
    block = b["reqntid"] or b["maxntid"]
    if workgroup_size is not None:
        ws = tuple(workgroup_size) + (1,) * (3 - len(workgroup_size))
        for d in ("maxntid", "reqntid"):
            if b[d] is not None and b[d] != ws:
                if d == "reqntid" or any(x > y for x, y in zip(ws, b[d])):
                    mism.append(".%s %s of pk's entry does not admit IREE's workgroup_size %s"
                                % (d, ",".join(map(str, b[d])), ",".join(map(str, ws))))
                else:
                    notes.append(".%s %s of pk's entry is larger than IREE's workgroup_size %s"
                                 % (d, ",".join(map(str, b[d])), ",".join(map(str, ws))))
        block = ws
    summary = "entry %s, %d params, block %s" % (
        entry, len(b["params"]), ",".join(map(str, block)) if block else "unknown")
    return mism, notes, summary


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "--storage":
        return storage_main(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("iree_ptx")
    ap.add_argument("pk_ptx")
    ap.add_argument("--entry", default=None)
    ap.add_argument("--workgroup-size", default=None, help="IREE's export workgroup_size, X,Y,Z")
    a = ap.parse_args(argv)
    ws = [int(x) for x in a.workgroup_size.split(",")] if a.workgroup_size else None
    try:
        with open(a.iree_ptx) as f:
            it = f.read()
        with open(a.pk_ptx) as f:
            pt = f.read()
        mism, notes, summary = compare(it, pt, a.entry, ws)
    except (PtxError, OSError) as e:
        print("ptx_abi: error: %s" % e, file=sys.stderr)
        return 2
    for n in notes:
        print("note: " + n)
    for m in mism:
        print("mismatch: " + m)
    if mism:
        print("ABI: MISMATCH (%d difference(s))" % len(mism))
        return 1
    print("ABI: match (%s)" % summary)
    return 0


def storage_main(argv):
    ap = argparse.ArgumentParser(prog="ptx_abi.py --storage")
    ap.add_argument("ptx")
    ap.add_argument("--shared", action="store_true", help="the kernel has shared-memory tiles")
    ap.add_argument("--dynamic-bytes", type=int, default=0,
                    help="the dynamic shared memory the kernel is launched with")
    a = ap.parse_args(argv)
    with open(a.ptx) as f:
        problems, static, nshared = check_storage(f.read(), a.shared, a.dynamic_bytes)
    for p in problems:
        print("refused: " + p)
    print("storage: %s (%d .shared declaration(s), %d B static)"
          % ("REFUSED" if problems else "ok", nshared, static))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
