#!/usr/bin/env python3
"""semcheck: does a pipelined kernel compute every K tile exactly once, and
read every shared tile only when it is ready? (python3 standard library)

An abstract interpreter of the kernel, every thread of one block in lockstep
(uniform control flow; divergent `scf.if` runs under a thread mask), on the
generic form of the IR (`mlir-opt-22 --mlir-print-op-generic`: one grammar for
every op, so no per-op printer is parsed; an op's types are the `(ins) -> outs`
outside its properties, whose affine maps have arrows too). Integer values are computed
exactly in their bit width (index: 64); data values (vectors, floats) are
abstracted to the set of K tiles they were loaded from.

1. The input (unpipelined) kernel is probed: its K-loop (the first `scf.for`
   with a `gpu.barrier` directly in its body) runs with every global element
   each thread reads labelled by its K tile. A K-loop of at most 16 tiles
   (SEMCHECK_PROBE_ALL) runs every tile: the exact table (thread, element)
   -> tile names the K tile of any global read in the output. A longer one
   runs tiles 0, 1, 2: each thread's reads at tile t are I0 + t*delta,
   checked on tile 2 and on sampled tiles (3, a quarter, half, three
   quarters, the last two: run out of order, the load phase depends on the
   iv only); where that fails (an im2col index, k / C and k % C; a guard or
   a mask leaving some tiles fewer reads; reads past the table's bounds that
   a guard keeps in bounds) every tile is probed after all, up to 1024
   tiles (SEMCHECK_PROBE_LIMIT; beyond: unknown). An element read in several
   tiles names none (unknown if such data reaches a shared tile), except
   one read in every tile (a fixed address of the compute phase) and once
   more in one (the load phase's). The probe also counts, per tile, the
   shared reads and the compute ops (ops whose result is not a plain
   copy/convert of a tile) of all threads.
   Masks and padding: a 1-D or n-D `vector.transfer_read` reads only the
   elements below its `vector.create_mask` / `constant_mask` counts (any
   other mask: all of them) and, where `in_bounds` is false, inside its
   memref's static sizes; padding reads nothing (no byte, no tile), as a
   cp.async's zero fill past its source size does. A vector read spanning
   two rows of a contiguous memref names its elements by their place in the
   buffer. Run-time values: an integer kernel argument is the constant a
   host `gpu.launch_func` passes, or --arg I=V; a dynamic-shape memref
   argument gets --shape I=AxB; an integer `memref.load` of a kernel
   argument (a K read at run time) gets --load I=V; without them the check
   is unknown and says which to give. pk's versioned loops (`scf.if` on the
   trip count or the alignment: the pipelined loop or the original) are
   followed into the branch these values take; a buffer's address
   (`extract_aligned_pointer_as_index`) is cudaMalloc's, 256-byte aligned.
2. The output runs whole. Shared memory is followed byte by byte: the tile
   each byte holds, who wrote it (thread, barrier epoch, cp.async group).
   Rules: `nvgpu.device_async_create_group` commits all of the thread's
   uncommitted copies (the PTX semantics, whatever its operands);
   `device_async_wait {numGroups = N}` completes all but the N most recent
   groups; a byte written by another thread is visible after the next
   `gpu.barrier` (a copy: after a barrier that follows its wait).
   `gpu.dynamic_shared_memory` is one buffer of the kernel's
   `pk.dynamic_shared_memory_bytes` (its views share its bytes).
   Findings:
     read-before-ready   a shared read of a byte whose copy is not complete,
                         or not yet made visible by a barrier
     write-before-read   a shared write over a byte that another thread read
                         in the same barrier epoch
     unordered-writes    a shared write over a byte a cp.async copy or TMA
                         load still in flight writes (two copies to one
                         location, by one thread or of different tiles; two
                         threads copying the same tile data overlap as the
                         input's stores do)
     out-of-bounds       a shared access outside its buffer, an mbarrier
                         index outside its group
     write-during-mma    a shared write over a byte a wgmma group in flight
                         reads (sm_90a: `nvgpu.warpgroup.mma` reads its
                         descriptors' views, as its warpgroup, until its
                         group retires: at most `waitGroup` of a
                         warpgroup's groups stay in flight after it,
                         `nvvm.wgmma.wait.group.sync.aligned N` retires all
                         but N; the read counts as made in the epoch of
                         the retirement, and what other threads wrote
                         needs a barrier before the wgmma)
     accumulator-in-flight  `nvgpu.warpgroup.mma.store` of an accumulator
                         whose warpgroup still has groups in flight
   TMA and mbarriers (sm_90, PTX ISA "mbarrier", "cp.async.bulk.tensor"):
   `nvgpu.mbarrier.create` makes `num_barriers` mbarriers (objects, not
   buffers); `mbarrier.init %b[%i], %count`: pending arrivals = count,
   tx-count 0, phase 0; `mbarrier.arrive.expect_tx %b[%i], %bytes` (the
   threads of its predicate): the current phase expects the bytes more and
   gets one arrival; `tma.async.load %desc[coords], %b[%i] to %dst` (the
   threads of its predicate) writes the box into dst at an unknown later
   time and completes its bytes on mbarrier i (the box's K tile: the
   coordinate that moves with the input's K-loop, as for global reads; the
   descriptor is a cast of an `!llvm.ptr` kernel argument, named by it).
   A phase completes once all its arrivals are in and the bytes in flight
   cover its tx-count; its loads have landed only if they match it exactly
   (with more, it may complete before they land). `mbarrier.try_wait.parity
   %b[%i], %P` returns once the phase of parity P has completed: it waits for
   the current phase if its parity is P, else returns at once; the waiting
   threads observe the last completed phase: its loads' bytes are visible to
   them (to other threads after a barrier that follows the wait). A TMA
   load's write is checked as a copy's (write-before-read, unordered-writes,
   write-during-mma), its bytes are read-before-ready until observed.
     mbarrier-hang       a wait on a phase that never completes (arrivals or
                         expected bytes missing); the run stops there and
                         its tiles are not counted
     phase-mismatch      a phase whose TMA loads bring more bytes than its
                         tx-count; an arrival on a phase that has all its
                         arrivals and no wait on it (it counts on that phase
                         or the next); a re-init with loads in flight
     mbarrier-uninit     an mbarrier used before its init, or (by another
                         thread) with no barrier after it
   The proxy fences (`nvvm.fence.proxy`) are not modelled: pk's matcher
   checks them (docs/hopper.md).
   An input with any of these (the probe) is "unknown": pk is held to the
   input's meaning.
     tile-count          a K tile read or computed a different number of
                         times than the input does per tile (0: dropped,
                         2x: duplicated), or a read mixing two tiles (where
                         the input mixes them, a shared store under a guard:
                         other mixtures than the input's)
   Where every tile was probed (the exact table):
     global-writes       a global element stored a different number of
                         times than the input stores it (a stream written
                         from the compute phase: a row dropped, duplicated
                         or moved), when the output's loops ran whole
     stray-read          a global read of an element the input never reads
                         (a guard, mask or cp.async source size lost: the
                         input takes such an element as zero)
3. Loops too long to run (near-limit bounds) run their first iterations,
   jump by a multiple of 840 iterations (every stage count 1..8 divides it:
   the stage slots are the same after the jump) with the tile labels shifted,
   and run their last iterations; the tiles in the jump are not counted.
   Only a K-loop jumps (a `gpu.barrier` in its body, the jump whole K
   tiles); any other loop (the k-steps within one tile) runs whole.

Usage: semcheck.py OUTPUT.mlir --input INPUT.mlir [--json] [--arg I=V]
       [--shape I=AxB] [--load I=V]
Exit status: 0 ok, 1 wrong (findings), 2 unknown (the checker cannot follow
the kernel: unsupported op, non-uniform loop bound, ...), 3 usage.
"""

import argparse
import collections
import fractions
import json
import os
import re
import shutil
import subprocess
import sys

MLIR_OPT = os.environ.get("MLIR_OPT") or shutil.which("mlir-opt-22") or "/usr/lib/llvm-22/bin/mlir-opt"
WINDOW = int(os.environ.get("SEMCHECK_WINDOW", "3"))  # iterations run before and after a jump
JUMP = 840          # lcm(1..8)
MAX_STEPS = 20000   # loop iterations per run, all loops together


class Unknown(Exception):
    """The checker cannot follow the kernel (not a finding)."""


# ------------------------------------------------------------- parsing

class Op:
    __slots__ = ("name", "results", "operands", "attrs", "types", "regions", "line")

    def __init__(self, name, results, operands, attrs, types, line):
        self.name, self.results, self.operands = name, results, operands
        self.attrs, self.types, self.regions, self.line = attrs, types, [], line


class Block:
    __slots__ = ("args", "ops")

    def __init__(self, args):
        self.args, self.ops = args, []


OP_RE = re.compile(r'^\s*(?:(%[\w.$-]+)(?::(\d+))?\s*=\s*)?"([\w.]+)"\((.*?)\)(.*)$')


def split_top(s, sep=","):
    out, depth, cur, q, prev = [], 0, "", False, ""
    for ch in s:
        if ch == '"':
            q = not q
        if not q:
            if ch in "<([{":
                depth += 1
            elif ch in ">)]}" and not (ch == ">" and prev == "-"):   # the arrow of an affine map
                depth -= 1
        prev = ch
        if ch == sep and depth == 0 and not q:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def function_type(tail):
    """The operand and result types of an op from the text after its
    operands: the `(ins) -> outs` at nesting depth 0 (an `->` inside the
    properties, e.g. a `permutation_map = affine_map<(d0, d1) -> (d0, d1)>`,
    is not it). ([], []) when there is none."""
    depth, q, arrow, opens, start = 0, False, None, [], None
    for i, ch in enumerate(tail):
        if ch == '"':
            q = not q
        if q:
            continue
        if ch == "-" and tail[i + 1:i + 2] == ">" and depth == 0:
            arrow = i
            start = opens[-1] if opens else None
        elif ch in "<([{":
            if depth == 0 and ch == "(":
                opens.append(i)
            depth += 1
        elif ch in ">)]}" and not (ch == ">" and tail[i - 1:i] == "-"):
            depth -= 1
    if arrow is None:
        return [], []
    ins = tail[start + 1:tail.rindex(")", 0, arrow)] if start is not None else ""
    t = tail[arrow + 2:].strip()
    if t.startswith("(") and t.endswith(")"):
        t = t[1:-1]
    return split_top(ins), split_top(t)


def result_types(tail):
    """The result types of an op from the text after its operands."""
    return function_type(tail)[1]


def parse(text):
    """The generic form -> the list of top-level ops (nested regions)."""
    lines = text.split("\n")
    root = Block([])
    stack = [(None, root)]  # (op owning the region, current block)
    for ln, line in enumerate(lines):
        s = line.strip()
        if not s or s.startswith("//") or s.startswith("#"):
            continue
        if s.startswith("^"):
            m = re.match(r"\^[\w]+(?:\((.*)\))?:", s)
            args = []
            if m and m.group(1):
                for a in split_top(m.group(1)):
                    n, t = a.split(":", 1)
                    args.append((n.strip(), t.strip()))
            op = stack[-1][0]
            b = Block(args)
            if op.regions and not op.regions[-1] and True:
                pass
            # a labelled block: a new block of the current region
            cur = op.regions[-1]
            if cur and not cur[-1].ops and not cur[-1].args:
                cur[-1] = b
            else:
                cur.append(b)
            stack[-1] = (op, b)
            continue
        if s.startswith("}"):
            op, _ = stack.pop()
            if s.startswith("}, {"):
                op.regions.append([Block([])])
                stack.append((op, op.regions[-1][0]))
                continue
            # "}) ... : types" closes the op
            tail = s[2:]
            op.types = result_types(tail)
            op.attrs += " " + tail
            continue
        m = OP_RE.match(line)
        if not m:
            raise Unknown("cannot parse line %d: %s" % (ln + 1, s[:80]))
        res, nres, name, opnds, tail = m.groups()
        results = []
        if res:
            results = [res] if not nres else ["%s#%d" % (res, i) for i in range(int(nres))]
        operands = [o.strip() for o in opnds.split(",") if o.strip()]
        op = Op(name, results, operands, tail, result_types(tail), ln + 1)
        stack[-1][1].ops.append(op)
        if tail.rstrip().endswith("({"):
            op.regions.append([Block([])])
            stack.append((op, op.regions[-1][0]))
    return root.ops


def attr_int(op, key, default=None):
    m = re.search(r"\b%s = (-?\d+)" % key, op.attrs)
    return int(m.group(1)) if m else default


def attr_array(op, key):
    m = re.search(r"\b%s = array<i\d+(?::\s*([-\d, ]*))?>" % key, op.attrs)
    if not m:
        return None
    return [int(x) for x in m.group(1).split(",")] if m.group(1) and m.group(1).strip() else []


# ---------------------------------------------------------------- types

ELEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8,
              "index": 8, "tf32": 4, "f8E4M3FN": 1, "f8E5M2": 1, "i4": 1}


def int_width(t):
    t = t.strip()
    if t == "index":
        return 64
    m = re.fullmatch(r"i(\d+)", t)
    return int(m.group(1)) if m else None


def wrap(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if w > 1 and v >> (w - 1) else v


def unsigned(v, w):
    return v & ((1 << w) - 1)


class MemT:
    """A memref type: shape, element, strides (elements), offset, space."""

    def __init__(self, t):
        m = re.match(r"memref<(.*)>$", t.strip())
        if not m:
            raise Unknown("not a memref type: %s" % t)
        parts = split_top(m.group(1))
        dims = parts[0].split("x")
        self.elem = dims[-1]
        if self.elem.startswith("vector<"):
            raise Unknown("memref of vectors")
        self.shape = [(-1 if d == "?" else int(d)) for d in dims[:-1]]
        if self.elem not in ELEM_BYTES:
            raise Unknown("element type %s" % self.elem)
        self.ebytes = ELEM_BYTES[self.elem]
        self.space = "global"
        self.strides = None
        self.offset = 0
        for p in parts[1:]:
            if "workgroup" in p or p.strip() == "3":
                self.space = "workgroup"
            elif "private" in p or p.strip() == "5":
                self.space = "private"
            elif p.startswith("strided<"):
                sm = re.match(r"strided<\[([^\]]*)\](?:, offset: (\?|-?\d+))?>", p)
                self.strides = [(-1 if x.strip() == "?" else int(x)) for x in sm.group(1).split(",") if x.strip()]
                if sm.group(2) and sm.group(2) != "?":
                    self.offset = int(sm.group(2))
            elif p.startswith("affine_map"):
                raise Unknown("memref with an affine-map layout")
        if self.strides is None:
            self.strides = identity_strides(self.shape)


def identity_strides(shape):
    st, s = [], 1
    for d in reversed(shape):
        st.insert(0, s)
        s *= max(d, 1)
    return st


def vec_shape(t):
    m = re.match(r"vector<(.*)>$", t.strip())
    if not m:
        return None, t.strip()
    dims = m.group(1).split("x")
    return [int(d.strip("[]")) for d in dims[:-1]], dims[-1]


class Mem:
    """A memref value: a root buffer, a byte offset (int or per thread),
    strides in elements, element size."""
    __slots__ = ("root", "off", "strides", "shape", "ebytes", "space")

    def __init__(self, root, off, strides, shape, ebytes, space):
        self.root, self.off, self.strides, self.shape = root, off, strides, shape
        self.ebytes, self.space = ebytes, space


class Root:
    def __init__(self, key, mt, argi=None):
        self.key, self.mt, self.argi = key, mt, argi   # argi: the kernel argument it is


# ------------------------------------------------------------ the machine

PROPAGATE = ("vector.extract", "vector.insert", "vector.broadcast", "vector.shape_cast", "vector.bitcast",
             "vector.transpose", "vector.extract_strided_slice", "vector.insert_strided_slice",
             "vector.from_elements", "vector.splat", "arith.extf", "arith.truncf", "arith.bitcast",
             "arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp", "arith.uitofp", "arith.fptosi",
             "vector.shuffle", "llvm.bitcast", "builtin.unrealized_conversion_cast", "vector.interleave",
             "vector.deinterleave", "arith.index_cast", "vector.extractelement", "vector.insertelement")
SKIP = ("gpu.return", "func.return", "memref.dealloc", "gpu.terminator", "llvm.intr.assume",
        "nvvm.barrier0", "nvvm.fence.proxy", "nvvm.fence.mbarrier.init",
        "nvgpu.tma.fence.descriptor", "nvgpu.tma.prefetch.descriptor")
WARPGROUP = 128     # threads of a warpgroup (wgmma)
AMBIGUOUS = -1      # the label of data read in several K tiles of the input


class Stop(Exception):
    """The run cannot go on: every thread waits on an mbarrier phase that
    never completes, or uses an mbarrier that does not exist (a finding)."""


class Tma:
    """One TMA load (cp.async.bulk.tensor ... mbarrier::complete_tx::bytes):
    its bytes, whether they have landed (the mbarrier phase they complete on
    completed exactly: all arrivals and exactly the expected bytes), and the
    threads that observed that through a wait (a bit mask; seen_epoch: the
    barrier epoch of the first observation)."""
    __slots__ = ("nbytes", "line", "done", "seen", "seen_epoch")

    def __init__(self, nbytes, line):
        self.nbytes, self.line, self.done, self.seen, self.seen_epoch = nbytes, line, False, 0, None


class MBarrier:
    """One mbarrier object (PTX ISA "mbarrier"): the current phase's pending
    arrivals and expected transaction bytes, the TMA loads that complete
    their bytes on it, the phases completed so far. `carry`: bytes of an
    earlier phase's loads beyond its tx-count, which may land on this one."""

    def __init__(self, index, count, epoch, thread):
        self.index, self.count, self.pending, self.expect = index, count, count, 0
        self.tmas, self.last, self.carry, self.phase = [], [], 0, 0
        self.init_epoch, self.init_thread = epoch, thread

    def inflight(self):
        return sum(x.nbytes for x in self.tmas) + self.carry

    def completable(self):
        return self.pending <= 0 and self.inflight() >= self.expect


class Machine:
    def __init__(self, func_op, nthreads, block_dims, tile_of=None, probe=None):
        self.f = func_op
        self.T = nthreads
        self.bdims = block_dims
        self.tile_of = tile_of          # (root type, thread, index tuple) -> tile
        self.probe = probe              # dict: the K-loop op when probing
        self.env = {}
        self.mem = {}                   # (root id, byte) -> [tag, writer, epoch, group, async]
        self.lastread = {}              # (root id, byte) -> (epoch, reader or -1)
        self.epoch = 0
        self.groups = [collections.deque() for _ in range(1)]  # per thread in lockstep: one list
        self.pending = []               # uncommitted copy bytes: (key) list
        self.committed = []             # [(group id, [keys])]
        self.done_epoch = {}            # group id -> epoch of the wait that completed it
        self.next_group = 0
        self.findings = []
        self.reads = collections.Counter()      # tile -> shared reads (thread-executions)
        self.computes = collections.Counter()   # tile -> compute-op executions
        self.mixed = 0
        self.mixed_tags = collections.Counter()   # tiles -> reads mixing them
        self.steps = 0
        self.shift = 0                  # the tile label shift of a jump
        self.skipped = []               # (lo, hi) tile ranges not counted
        self.global_reads = []          # probe: (tile, root type, thread, index tuple) of every element
        self.global_starts = []         # probe: the same of the first element of each read, as indexed
        self.global_outside = set()     # probe: (root, thread, element) read outside the K-loop
        self.input_reads = None         # output: every (root, thread, element) the input reads
        self.stray = []                 # output: reads of elements the input never reads
        self.global_shapes = {}         # probe: root key -> its static shape
        self.cur_tile = None            # probe: the K tile being run
        self.uninit_reads = 0
        self.kinds = collections.Counter()
        self.int_args = {}              # kernel argument index -> the launch's constant
        self.arg_shapes = {}            # kernel argument index -> the sizes of its dynamic dimensions
        self.arg_loads = {}             # kernel argument index -> the integer every memref.load of it gives
        self.loaded = {}                # value -> the kernel argument an integer was loaded from
        self.granule = 1                # bytes followed as one (the smallest shared element)
        self.period = JUMP              # iterations after which the stage slots repeat
        self.dyn_smem = None            # the Root of gpu.dynamic_shared_memory
        self.wg_groups = {}             # warpgroup -> its wgmma groups in flight: [[byte keys]]
        self.mma_reading = collections.Counter()   # byte key -> wgmma groups in flight reading it
        self.mbars = {}                 # (mbarrier.create line, index) -> MBarrier
        self.tma_reported = set()       # (op line, Tma, what): TMA findings made once
        self.ambiguous = None           # why a read labelled AMBIGUOUS names no tile
        self.fast = False               # shared bytes followed for their tiles only (no hazards)
        self.gwrites = collections.Counter()   # (root key, element, tiles of the value) -> global stores
        self.gwrites_unknown = False    # a global store whose elements were not followed

    # ---- values
    def get(self, name):
        if name not in self.env:
            raise Unknown("value %s used before it is defined" % name)
        return self.env[name]

    def per_thread(self, v, t):
        return v[t] if isinstance(v, list) else v

    def uniform(self, v, what):
        if isinstance(v, list):
            if all(x == v[0] for x in v):
                return v[0]
            raise Unknown("non-uniform %s" % what)
        return v

    def finding(self, kind, op, msg):
        self.kinds[kind] += 1
        if self.kinds[kind] <= 10:   # the first 10 of each kind
            self.findings.append({"kind": kind, "line": op.line, "op": op.name, "message": msg})

    # ---- the run
    def run_func(self):
        body = self.f.regions[0][0]
        ftype = re.search(r"function_type = \((.*?)\) ->", self.f.attrs)
        nin = len(split_top(ftype.group(1))) if ftype and ftype.group(1).strip() else 0
        for i, (name, ty) in enumerate(body.args):
            if ty.startswith("memref<"):
                mt = MemT(ty)
                if any(d < 0 for d in mt.shape):
                    sizes = self.arg_shapes.get(i)
                    if sizes is None or len(sizes) != len(mt.shape) or \
                            any(d >= 0 and d != z for d, z in zip(mt.shape, sizes)):
                        raise Unknown("kernel argument %s has a dynamic shape (%s) and no launch that gives "
                                      "its sizes (semcheck.py --shape %d=%s)" %
                                      (name, ty.split(",")[0].split("<", 1)[1].rsplit("x", 1)[0], i,
                                       "x".join("N" if d < 0 else str(d) for d in mt.shape)))
                    if "strided<" in ty:
                        raise Unknown("kernel argument %s: a dynamic shape with a strided layout" % name)
                    mt.shape = list(sizes)
                    mt.strides = identity_strides(mt.shape)
                space = mt.space if i >= nin else ("global" if mt.space != "workgroup" else "workgroup")
                key = self.int_args.get(i) if isinstance(self.int_args.get(i), str) else "arg%d" % i
                root = Root(key if space == "global" else "wg%d" % i, mt, i)
                self.env[name] = Mem(root, mt.offset * mt.ebytes, mt.strides, mt.shape, mt.ebytes, space)
            elif ty == "!llvm.ptr":
                self.env[name] = ("ptr", "arg%d" % i)   # e.g. a TMA tensor map's address
            elif ty.startswith("!nvgpu.tensormap.descriptor"):
                m = re.match(r"!nvgpu\.tensormap\.descriptor<tensor = memref<([0-9x]+)x(\w+)", ty)
                if not m:
                    raise Unknown("TMA descriptor argument of type %s" % ty)
                self.env[name] = ("tmadesc", "tma:arg%d" % i, [int(d) for d in m.group(1).split("x")],
                                  ELEM_BYTES.get(m.group(2), 1))
            elif int_width(ty):
                if i not in self.int_args:
                    raise Unknown("integer kernel argument %s with no constant at the launch (semcheck.py "
                                  "--arg %d=VALUE)" % (name, i))
                self.env[name] = self.int_args[i]
            else:
                self.env[name] = frozenset()
        mask = list(range(self.T))
        self.run_block(body.ops, mask)

    def run_block(self, ops, mask):
        for op in ops:
            r = self.run_op(op, mask)
            if r is not None:
                return r
        return None

    def run_op(self, op, mask):
        n = op.name
        if n in ("scf.yield", "affine.yield"):
            return [self.get(o) for o in op.operands]
        if n in SKIP:
            return None
        h = getattr(self, "op_" + n.replace(".", "_"), None)
        if h is not None:
            h(op, mask)
            return None
        if n.startswith("arith.") or n.startswith("index."):
            return self.arith(op)
        # default: a data op (compute) or unknown side effects
        if n.startswith("nvgpu.mbarrier") or n.startswith("nvgpu.tma"):
            raise Unknown("%s is not modelled" % n)
        if op.regions:
            raise Unknown("op with regions: %s" % n)
        if any(isinstance(self.env.get(o), Mem) for o in op.operands):
            raise Unknown("unsupported memory op %s" % n)
        tags = frozenset().union(*[self.tag(o) for o in op.operands]) if op.operands else frozenset()
        if n in PROPAGATE:
            for r in op.results:
                self.env[r] = tags
        else:
            for t in tags:
                self.computes[t] += len(mask)
            for r in op.results:
                self.env[r] = frozenset()
        return None

    def tag(self, name):
        v = self.get(name)
        return v if isinstance(v, frozenset) else frozenset()

    # ---- integer arithmetic
    def arith(self, op):
        n = op.name.split(".", 1)[1]
        ty = op.types[0] if op.types else ""
        w = int_width(ty)
        if n == "constant":
            m = re.search(r"value = (-?\d+|true|false) : (\w+)", op.attrs) or \
                re.search(r"value = (true|false)()\b", op.attrs)   # an i1: `false`, no type
            if m and (int_width(m.group(2)) or not m.group(2)):
                v = {"true": 1, "false": 0}.get(m.group(1))
                self.env[op.results[0]] = wrap(int(m.group(1)), int_width(m.group(2))) if v is None else v
            else:
                self.env[op.results[0]] = frozenset()
            return None
        if n == "select" and len(op.operands) == 3 and isinstance(self.env.get(op.operands[1]), Mem):
            c = self.get(op.operands[0])
            if isinstance(c, list) and any(x != c[0] for x in c):
                raise Unknown("arith.select of a memref under a thread-dependent condition")
            c = c[0] if isinstance(c, list) else c
            if isinstance(c, frozenset):
                raise Unknown("arith.select of a memref on a data condition")
            self.env[op.results[0]] = self.get(op.operands[1] if c else op.operands[2])
            return None
        if w is None and n != "cmpi":
            # float / vector arithmetic: data
            tags = frozenset().union(*[self.tag(o) for o in op.operands])
            if "f" in n[-1:] or n in ("mulf", "addf", "subf", "fma", "divf", "maxf", "minf", "maximumf",
                                      "minimumf", "negf", "muli", "addi") or "vector" in ty:
                if n in PROPAGATE or "arith." + n in PROPAGATE or n in ("select", "negf"):
                    self.env[op.results[0]] = tags
                else:
                    for t in tags:
                        self.computes[t] += self.T
                    self.env[op.results[0]] = frozenset()
                return None
            self.env[op.results[0]] = tags
            return None
        vals = [self.get(o) for o in op.operands]
        if any(isinstance(v, (frozenset, Mem)) for v in vals):
            if n == "select":
                self.env[op.results[0]] = frozenset().union(*[v for v in vals if isinstance(v, frozenset)])
                return None
            src = [self.loaded[o] for o in op.operands if o in self.loaded]
            if src:
                raise Unknown("%s of an integer loaded from global memory (kernel argument %d: a run-time "
                              "size; semcheck.py --load %d=VALUE)" % (op.name, src[0], src[0]))
            raise Unknown("integer op %s on data" % op.name)
        iw = int_width(op.attrs.split("(")[-1].split(",")[0].split(")")[0]) or w
        src_w = None
        m = re.search(r":\s*\(([^,)]+)", op.attrs)
        if m:
            src_w = int_width(m.group(1))
        f = INT_OPS.get(n)
        if f is None:
            raise Unknown("integer op %s" % op.name)
        pred = attr_int(op, "predicate", 0)
        lanes = [isinstance(v, list) for v in vals]
        if any(lanes):
            out = []
            for t in range(self.T):
                out.append(f([v[t] if isinstance(v, list) else v for v in vals], w or 1, src_w or w or 64, pred))
            self.env[op.results[0]] = out if any(x != out[0] for x in out) else out[0]
        else:
            self.env[op.results[0]] = f(vals, w or 1, src_w or w or 64, pred)
        del iw
        return None

    # ---- thread ids
    def _dim(self, op):
        m = re.search(r"dimension = #gpu<dim (\w)>", op.attrs)
        return "xyz".index(m.group(1)) if m else 0

    def op_gpu_thread_id(self, op, mask):
        d = self._dim(op)
        bx, by, _ = self.bdims
        self.env[op.results[0]] = [(t % bx, (t // bx) % by, t // (bx * by))[d] for t in range(self.T)]

    def op_gpu_block_id(self, op, mask):
        self.env[op.results[0]] = 0

    def op_gpu_block_dim(self, op, mask):
        self.env[op.results[0]] = self.bdims[self._dim(op)]

    def op_gpu_grid_dim(self, op, mask):
        self.env[op.results[0]] = 1

    def op_gpu_lane_id(self, op, mask):
        self.env[op.results[0]] = [t % 32 for t in range(self.T)]

    def op_gpu_subgroup_id(self, op, mask):
        self.env[op.results[0]] = [t // 32 for t in range(self.T)]

    def op_nvvm_elect_sync(self, op, mask):
        """True in the first thread of each warp among those running."""
        first = {}
        for t in mask:
            first.setdefault(t // 32, t)
        lead = set(first.values())
        self.env[op.results[0]] = [1 if t in lead else 0 for t in range(self.T)]

    def op_nvvm_shfl_sync(self, op, mask):
        """`nvvm.shfl.sync kind %mask, %val, %offset, %clamp` of an integer:
        each thread gets the value of its source lane in its warp (idx: the
        offset, bfly: lane ^ offset, up / down: lane -/+ offset, its own
        value where that lane is outside the segment the clamp sets)."""
        kind = re.search(r"shfl_kind (\w+)", op.attrs)
        v, off, clamp = (self.get(o) for o in op.operands[1:4])
        if isinstance(v, frozenset) or not kind or len(op.results) != 1:
            tags = self.tag(op.operands[1])
            for r in op.results:
                self.env[r] = tags
            return
        out = []
        for t in range(self.T):
            lane, o, c = t % 32, self.per_thread(off, t) & 31, self.per_thread(clamp, t)
            seg = (c >> 8) & 31                  # the lanes outside the segment mask
            lo, hi = lane & seg, (lane & seg) | (c & 31 & ~seg)
            src = {"idx": (o & ~seg) | lo, "bfly": lane ^ o, "up": lane - o, "down": lane + o}.get(kind.group(1))
            if src is None:
                raise Unknown("nvvm.shfl.sync %s" % kind.group(1))
            if (kind.group(1) == "up" and src < lo) or (kind.group(1) != "up" and src > hi):
                src = lane
            out.append(self.per_thread(v, t - lane + src))
        self.env[op.results[0]] = out if any(x != out[0] for x in out) else out[0]

    def op_gpu_barrier(self, op, mask):
        if len(mask) != self.T:
            self.finding("divergent-barrier", op, "gpu.barrier under a thread-dependent condition")
        self.epoch += 1

    # ---- affine
    def op_affine_apply(self, op, mask):
        self.env[op.results[0]] = self.affine(op, op.operands)[0]

    def op_affine_min(self, op, mask):
        self.env[op.results[0]] = self.lanewise(self.affine(op, op.operands), min)

    def op_affine_max(self, op, mask):
        self.env[op.results[0]] = self.lanewise(self.affine(op, op.operands), max)

    def _basis(self, op, operands):
        """The basis of affine.{de,}linearize_index: static_basis with its
        dynamic entries (INT64_MIN) from `operands`, in order."""
        dyn = iter(operands)
        basis = [self.uniform(self.get(next(dyn)), "dynamic basis") if b == -2**63 else b
                 for b in attr_array(op, "static_basis") or []]
        if any(b <= 0 for b in basis):
            raise Unknown("%s with a basis element <= 0" % op.name)
        return basis

    def op_affine_delinearize_index(self, op, mask):
        """The results split the index by the basis, innermost last (a basis
        of as many elements as results: its first bounds the outermost
        result and does not divide)."""
        n = len(op.results)
        basis = self._basis(op, op.operands[1:])
        if len(basis) == n:
            basis = basis[1:]
        x = self.get(op.operands[0])
        if isinstance(x, frozenset):
            raise Unknown("affine.delinearize_index of a data value")

        def split(v):
            out = []
            for b in reversed(basis):
                out.append(v % b)
                v //= b
            return [v] + out[::-1]
        per = [split(self.per_thread(x, t)) for t in range(self.T)] if isinstance(x, list) else [split(x)]
        for j, r in enumerate(op.results):
            vals = [p[j] for p in per]
            self.env[r] = vals if len(per) > 1 and any(v != vals[0] for v in vals) else vals[0]

    def op_affine_linearize_index(self, op, mask):
        """sum of the indices times the products of the basis inner to them
        (`disjoint` or not: the arithmetic is the same)."""
        seg = attr_array(op, "operandSegmentSizes")
        n = seg[0] if seg else len(op.operands)
        idx_ops, dyn_ops = op.operands[:n], op.operands[n:]
        basis = self._basis(op, dyn_ops)
        if len(basis) == len(idx_ops):
            basis = basis[1:]
        vals = [self.get(o) for o in idx_ops]
        if any(isinstance(v, frozenset) for v in vals):
            raise Unknown("affine.linearize_index of a data value")

        def lin(vs):
            acc = 0
            for v, b in zip(vs, [1] + basis):
                acc = acc * b + v
            return acc
        if any(isinstance(v, list) for v in vals):
            out = [lin([self.per_thread(v, t) for v in vals]) for t in range(self.T)]
            self.env[op.results[0]] = out if any(x != out[0] for x in out) else out[0]
        else:
            self.env[op.results[0]] = lin(vals)

    def lanewise(self, vs, f):
        if any(isinstance(v, list) for v in vs):
            out = [f(self.per_thread(v, t) for v in vs) for t in range(self.T)]
            return out if any(x != out[0] for x in out) else out[0]
        return f(vs)

    def affine(self, op, operands):
        m = re.search(r"map = affine_map<\(([^)]*)\)(?:\[([^\]]*)\])? -> \((.*)\)>", op.attrs)
        if not m:
            raise Unknown("affine map of %s" % op.name)
        names = [x.strip() for x in m.group(1).split(",") if x.strip()]
        names += [x.strip() for x in (m.group(2) or "").split(",") if x.strip()]
        exprs = split_top(m.group(3))
        vals = [self.get(o) for o in operands]
        if "ceildiv" in m.group(3):
            raise Unknown("ceildiv in an affine map")
        code = [compile(re.sub(r"\bfloordiv\b", "//", re.sub(r"\bmod\b", "%", e)), "<affine>", "eval")
                for e in exprs]
        out = []
        for c in code:
            if any(isinstance(v, list) for v in vals):
                r = [eval(c, {}, dict(zip(names, [self.per_thread(v, t) for v in vals]))) for t in range(self.T)]
                out.append(r if any(x != r[0] for x in r) else r[0])
            else:
                out.append(eval(c, {}, dict(zip(names, vals))))
        return out

    # ---- memrefs
    def new_root(self, op, mask):
        mt = MemT(op.types[0])
        if any(d < 0 for d in mt.shape):
            raise Unknown("dynamic alloc")
        root = Root("alloc%d" % op.line if mt.space != "global" else op.types[0], mt)
        self.env[op.results[0]] = Mem(root, 0, mt.strides, mt.shape, mt.ebytes, mt.space)

    op_memref_alloc = op_memref_alloca = new_root

    def op_gpu_dynamic_shared_memory(self, op, mask):
        """The block's dynamic shared memory: one i8 buffer (every
        `gpu.dynamic_shared_memory` op names the same bytes) of the size the
        kernel's `pk.dynamic_shared_memory_bytes` says (out-of-bounds is
        checked against it)."""
        if self.dyn_smem is None:
            size = attr_int(self.f, "pk.dynamic_shared_memory_bytes")
            if size is None or size < 0:
                raise Unknown("gpu.dynamic_shared_memory of unknown size")
            mt = MemT(op.types[0])
            if mt.space != "workgroup" or len(mt.shape) != 1:
                raise Unknown("gpu.dynamic_shared_memory of type %s" % op.types[0])
            mt.shape, mt.strides = [size // mt.ebytes], [1]
            self.dyn_smem = Root("dynamic_shared_memory", mt)
        mt = self.dyn_smem.mt
        self.env[op.results[0]] = Mem(self.dyn_smem, 0, mt.strides, mt.shape, mt.ebytes, mt.space)

    def op_memref_get_global(self, op, mask):
        m = re.search(r"name = @([\w$.]+)", op.attrs)
        mt = MemT(op.types[0])
        root = Root("global@" + m.group(1) if mt.space == "workgroup" else op.types[0], mt)
        self.env[op.results[0]] = Mem(root, 0, mt.strides, mt.shape, mt.ebytes, mt.space)

    def op_memref_subview(self, op, mask):
        src = self.get(op.operands[0])
        seg = attr_array(op, "operandSegmentSizes") or [1, 0, 0, 0]
        dyn = [self.get(o) for o in op.operands[1:]]
        offs_d, sizes_d, strides_d = dyn[:seg[1]], dyn[seg[1]:seg[1] + seg[2]], dyn[seg[1] + seg[2]:]
        kd = -9223372036854775808

        def fill(static, d):
            it = iter(d)
            return [next(it) if s == kd else s for s in static]
        offs = fill(attr_array(op, "static_offsets"), offs_d)
        sizes = fill(attr_array(op, "static_sizes"), sizes_d)
        steps = fill(attr_array(op, "static_strides"), strides_d)
        rt = MemT(op.types[0])
        off = src.off
        for o, s in zip(offs, src.strides):
            off = self.add(off, self.mul(o, s * src.ebytes))
        keep = []
        drop = len(sizes) - len(rt.shape)
        for i, sz in enumerate(sizes):
            if drop > 0 and sz == 1 and (len(sizes) - i - 1) >= len(rt.shape) - len(keep):
                drop -= 1
                continue
            keep.append(i)
        strides = [src.strides[i] * self.uniform(steps[i], "subview stride") for i in keep]
        self.env[op.results[0]] = Mem(src.root, off, strides, rt.shape, src.ebytes, src.space)

    def op_memref_assume_alignment(self, op, mask):
        """MLIR 22's assume_alignment returns its memref (a view of it)."""
        if op.results:
            self.env[op.results[0]] = self.get(op.operands[0])

    def op_memref_view(self, op, mask):
        src = self.get(op.operands[0])
        shift = self.get(op.operands[1])
        rt = MemT(op.types[0])
        self.env[op.results[0]] = Mem(src.root, self.add(src.off, shift), rt.strides, rt.shape, rt.ebytes,
                                      src.space)

    def _retype(self, op, mask):
        src = self.get(op.operands[0])
        rt = MemT(op.types[0])
        self.env[op.results[0]] = Mem(src.root, src.off, rt.strides, rt.shape, rt.ebytes, src.space)

    op_memref_cast = op_memref_collapse_shape = op_memref_expand_shape = _retype
    op_memref_memory_space_cast = _retype

    def op_memref_reinterpret_cast(self, op, mask):
        src = self.get(op.operands[0])
        rt = MemT(op.types[0])
        offs = attr_array(op, "static_offsets") or [0]
        if offs[0] < -10**15:
            offs = [self.get(op.operands[1])]
        base = src.off if src.root.mt.offset == 0 else 0
        self.env[op.results[0]] = Mem(src.root, self.add(base, self.mul(offs[0], rt.ebytes)), rt.strides,
                                      rt.shape, rt.ebytes, src.space)

    def op_memref_extract_strided_metadata(self, op, mask):
        """base buffer, offset, sizes, strides (in elements) of a memref."""
        src = self.get(op.operands[0])
        r = len(src.shape)
        if len(op.results) != 2 + 2 * r:
            raise Unknown("memref.extract_strided_metadata with %d results" % len(op.results))
        self.env[op.results[0]] = Mem(src.root, 0, [], [], src.ebytes, src.space)
        off = src.off
        self.env[op.results[1]] = [x // src.ebytes for x in off] if isinstance(off, list) else off // src.ebytes
        for i in range(r):
            if src.shape[i] < 0:
                raise Unknown("memref.extract_strided_metadata of a dynamic size")
            self.env[op.results[2 + i]] = src.shape[i]
            self.env[op.results[2 + r + i]] = src.strides[i]

    def op_memref_dim(self, op, mask):
        src = self.get(op.operands[0])
        self.env[op.results[0]] = src.shape[self.uniform(self.get(op.operands[1]), "dim")]

    def op_memref_extract_aligned_pointer_as_index(self, op, mask):
        """The address of a kernel argument's buffer: cudaMalloc's, aligned
        to 256 bytes (pk's run-time alignment test of a dynamic memref),
        here (argument index + 1) << 32; any other pointer is unknown."""
        src = self.get(op.operands[0])
        if not isinstance(src, Mem) or src.space == "workgroup" or src.root.argi is None:
            raise Unknown("pointer arithmetic")
        self.env[op.results[0]] = (src.root.argi + 1) << 32

    def add(self, a, b):
        if isinstance(a, list) or isinstance(b, list):
            out = [self.per_thread(a, t) + self.per_thread(b, t) for t in range(self.T)]
            return out if any(x != out[0] for x in out) else out[0]
        return a + b

    def mul(self, a, k):
        if isinstance(a, list):
            return [x * k for x in a]
        return a * k

    # ---- accesses
    def addrs(self, m, idx_names, t, elems):
        """Byte addresses of `elems` (lists of element offsets per vector
        element, relative to the index) for thread t."""
        idx = [self.per_thread(self.get(i), t) for i in idx_names]
        base = self.per_thread(m.off, t)
        for i, s in zip(idx, m.strides):
            base += i * s * m.ebytes
        return base, idx

    def access(self, op, mask, m, idx_names, nbytes_per_thread, write, tag=None, is_async=False,
               src=None):
        """A read or a write of `m`; returns the tag read (reads)."""
        got = frozenset()
        for t in mask:
            base, idx = self.addrs(m, idx_names, t, None)
            if m.space == "workgroup":
                if write:
                    self.write_bytes(op, m, base, nbytes_per_thread, t, tag if tag is not None else frozenset(),
                                     is_async)
                else:
                    got |= self.read_bytes(op, m, base, nbytes_per_thread, t)
            elif not write:
                got |= self.global_tile(m, base, t, nbytes_per_thread, idx)
            else:
                self.global_write(m, base, t, nbytes_per_thread, idx, tag)
        return got

    def global_elem(self, m, base, t, idx=None):
        """The index tuple in the root memref of the global element at byte
        `base` of m, as thread t computes it: not wrapped into its shape (a
        near-limit K index runs past the row) where the view keeps the
        root's strides."""
        eb = m.root.mt.ebytes
        if idx is not None and len(idx) == len(m.root.mt.strides) and m.strides == m.root.mt.strides:
            o = unravel(self.per_thread(m.off, t) // eb - m.root.mt.offset, m.root.mt)
            return tuple(a + b for a, b in zip(o, idx))
        return unravel(base // eb, m.root.mt)

    def global_write(self, m, base, t, nbytes, idx, tag):
        """A global store: counted per element and the tiles of its value
        (compared with the input's when both ran every iteration)."""
        eb = m.root.mt.ebytes
        tup = self.global_elem(m, base, t, idx)
        tag = tag if isinstance(tag, frozenset) else frozenset()
        for e in range(max(1, nbytes // eb)):
            self.gwrites[(m.root.key, tup[:-1] + (tup[-1] + e,), tag)] += 1

    def global_tile(self, m, base, t, nbytes=0, idx=None):
        """The K tile a global read of thread t at byte `base` belongs to
        (the probe records every element of the read, and its first as
        indexed, for the bounds check). The element is named by
        global_elem; an element of the read past its row (a vector load
        spanning two rows of a contiguous memref) by its place in the buffer."""
        eb = m.root.mt.ebytes
        tup = self.global_elem(m, base, t, idx)
        if self.probe is not None:
            self.global_shapes[m.root.key] = list(m.root.mt.shape)
            if self.cur_tile is not None:
                self.global_starts.append((self.cur_tile, m.root.key, t, tup))
                for e in range(max(1, nbytes // eb)):
                    self.global_reads.append((self.cur_tile, m.root.key, t,
                                              in_buffer(tup[:-1] + (tup[-1] + e,), m.root.mt)))
                return frozenset([self.cur_tile])
            for e in range(max(1, nbytes // eb)):
                self.global_outside.add((m.root.key, t, in_buffer(tup[:-1] + (tup[-1] + e,), m.root.mt)))
            return frozenset()
        if self.input_reads is not None:
            for e in range(max(1, nbytes // eb)):
                x = (m.root.key, t, in_buffer(tup[:-1] + (tup[-1] + e,), m.root.mt))
                if x not in self.input_reads:
                    self.stray.append(x)
                    break
        tile = self.tile_of(m.root.key, t, in_buffer(tup, m.root.mt))
        return frozenset() if tile is None else frozenset([tile])

    def in_bounds(self, op, m, base, n, t):
        """The access lies in its view (and so in its buffer)."""
        lo = self.per_thread(m.off, t)
        if any(d <= 0 for d in m.shape):
            hi = lo
        else:
            hi = lo + (sum((d - 1) * st for d, st in zip(m.shape, m.strides)) + 1) * m.ebytes
        size = m.root.mt.ebytes
        for d in m.root.mt.shape:
            size *= max(d, 0)
        if base < lo or base + n > hi or base < 0 or base + n > size:
            self.finding("out-of-bounds", op, "thread %d accesses shared bytes %d..%d outside its view "
                         "(bytes %d..%d of a %d-byte buffer)" % (t, base, base + n - 1, lo, hi - 1, size))
            return False
        return True

    def write_bytes(self, op, m, base, n, t, tag, is_async, tma=None):
        """Thread t writes n bytes at `base` of m (is_async: a cp.async copy,
        or with `tma` a TMA load that t issued)."""
        if self.fast:
            g, mem, rid = self.granule, self.mem, id(m.root)
            for b in range(base - base % g, base + n, g):
                rec = [tag, t, self.epoch, tma, is_async]
                mem[(rid, b)] = rec
                if is_async and tma is None:
                    self.pending.append(rec)
            return
        if not self.in_bounds(op, m, base, n, t):
            return
        root = m.root
        ep = self.epoch
        g = self.granule
        for b in range(base - base % g, base + n, g):
            k = (id(root), b)
            lr = self.lastread.get(k)
            if lr and lr[0] == ep and lr[1] != t and self.once(op, tma, "write-before-read"):
                self.finding("write-before-read", op, "thread %d overwrites shared byte %d of a buffer that "
                             "%s read in the same barrier epoch"
                             % (t, b, "threads" if lr[1] == -1 else self.who(lr[1])))
                self.lastread.pop(k)
            if self.mma_reading[k] and self.once(op, tma, "write-during-mma"):
                self.finding("write-during-mma", op, "thread %d overwrites shared byte %d that a wgmma group "
                             "in flight still reads (no wgmma wait retired it)" % (t, b))
            cur = self.mem.get(k)
            # Another thread's copy of the same tile data is the input's own
            # write-write overlap (its plain stores race the same way, with
            # the same value): only a different tile, or the same thread,
            # makes the order matter.
            if cur and cur[4] and self.in_flight(cur[3]) and (cur[1] == t or cur[0] != tag) and \
                    self.once(op, tma, cur[3]):
                self.finding("unordered-writes", op, "shared byte %d is written while %s to it is in flight "
                             "(the two writes have no order)"
                             % (b, "a TMA load (line %d)" % cur[3].line if isinstance(cur[3], Tma)
                                else "a cp.async copy"))
            rec = [tag, t, ep, tma, is_async]
            self.mem[k] = rec
            if is_async and tma is None:
                self.pending.append(rec)

    def once(self, op, tma, what):
        """Whether to flag `what` at this write: a TMA load is flagged once
        per kind (its first byte), a thread's write at every byte."""
        if tma is None:
            return True
        key = (op.line, tma, what)
        if key in self.tma_reported:
            return False
        self.tma_reported.add(key)
        return True

    def in_flight(self, g):
        """Whether the copy of a byte (its cp.async group or TMA load) may
        still write it."""
        return not g.done if isinstance(g, Tma) else g not in self.done_epoch

    def tma_visible(self, x, r):
        """Whether reader r (a thread, or -100 - w: warpgroup w's wgmma) may
        read the bytes of TMA load x: they landed and r waited on the phase
        they complete on (a wgmma: every thread of its warpgroup), or a
        barrier followed a wait that observed it."""
        if not x.done or not x.seen:
            return False
        need = ((1 << WARPGROUP) - 1) << (WARPGROUP * (-100 - r)) if r <= -100 else 1 << r
        return x.seen & need == need or self.epoch > x.seen_epoch

    @staticmethod
    def who(t):
        """A reader's name: a thread, or (t <= -100) a warpgroup's wgmma."""
        return "thread %d" % t if t > -100 else "the wgmma of warpgroup %d" % (-100 - t)

    def read_bytes(self, op, m, base, n, t, record=True, reader=None):
        """Reads n bytes at `base` of m as thread t computes the address;
        the reader is t, or `reader` (a wgmma: -100 - its warpgroup, which
        reads what any thread wrote only after a barrier). `record` False
        checks readiness only (a wgmma's read ends when its group retires)."""
        ep = self.epoch
        got = frozenset()
        if self.fast:
            g, mem, rid = self.granule, self.mem, id(m.root)
            for b in range(base - base % g, base + n, g):
                cur = mem.get((rid, b))
                if cur is not None:
                    got |= cur[0]
            return got
        if not self.in_bounds(op, m, base, n, t):
            return got
        r = t if reader is None else reader
        root = m.root
        g = self.granule
        for b in range(base - base % g, base + n, g):
            k = (id(root), b)
            cur = self.mem.get(k)
            if record:
                self.note_read(k, r)
            if cur is None:
                self.uninit_reads += 1
                continue
            tag, w, wep, g, is_async = cur
            if is_async and isinstance(g, Tma):
                if not self.tma_visible(g, r) and self.once(op, g, r):   # once per read op, load, reader
                    self.finding("read-before-ready", op, "%s reads shared byte %d before the TMA load of tile %s "
                                 "(line %d) %s" % (self.who(r), b, sorted(tag), g.line,
                                                   "has landed: no mbarrier phase it completes on completed"
                                                   if not g.done else "is visible to it: it did not wait on "
                                                   "the mbarrier phase that completes it"))
            elif is_async:
                if g is None or g not in self.done_epoch:
                    self.finding("read-before-ready", op, "%s reads shared byte %d before the cp.async "
                                 "copy of tile %s completes (no wait covers its group)"
                                 % (self.who(r), b, sorted(tag)))
                    cur[4] = False
                elif w != r and self.done_epoch[g] >= ep:
                    self.finding("read-before-ready", op, "%s reads shared byte %d copied by thread %d "
                                 "(tile %s) with no barrier after the wait" % (self.who(r), b, w, sorted(tag)))
                    cur[2] = -1
            elif w != r and wep >= ep:
                self.finding("read-before-ready", op, "%s reads shared byte %d stored by thread %d "
                             "(tile %s) with no barrier in between" % (self.who(r), b, w, sorted(tag)))
                cur[2] = -1
            got |= tag
        return got

    def note_read(self, k, t):
        """Byte k was read by thread t in this epoch (-1: by several)."""
        lr = self.lastread.get(k)
        self.lastread[k] = (self.epoch, t if not lr or lr[0] != self.epoch or lr[1] == t else -1)

    def count_read(self, tag, nthreads):
        if AMBIGUOUS in tag:
            raise Unknown(self.ambiguous)
        if len(tag) > 1:
            self.mixed += nthreads
            self.mixed_tags[tag] += nthreads
        for t in tag:
            self.reads[t] += nthreads

    def vec_bytes(self, t):
        shape, elem = vec_shape(t)
        n = 1
        for d in shape or []:
            n *= d
        return n * ELEM_BYTES.get(elem, 4)

    def load(self, op, mask, nbytes):
        m = self.get(op.operands[0])
        tag = self.access(op, mask, m, op.operands[1:1 + len(m.strides)], nbytes, False)
        if m.space == "workgroup":
            self.count_read(tag, len(mask))
        self.env[op.results[0]] = tag

    def op_vector_load(self, op, mask):
        self.load(op, mask, self.vec_bytes(op.types[0]))

    def op_memref_load(self, op, mask):
        m = self.get(op.operands[0])
        if m.space != "workgroup" and int_width(m.root.mt.elem) and m.root.argi is not None:
            # an integer read from global memory (a run-time K): the value
            # --load gives it, else data (an integer op on it is unknown)
            if m.root.argi in self.arg_loads:
                self.env[op.results[0]] = self.arg_loads[m.root.argi]
                return
            self.loaded[op.results[0]] = m.root.argi
        self.load(op, mask, m.ebytes)

    def op_nvgpu_ldmatrix(self, op, mask):
        # ldmatrix .xN: lanes 0 .. 8N-1 give the row addresses (16 bytes each)
        n = attr_int(op, "numTiles", 4)
        self.load(op, [t for t in mask if t % 32 < 8 * n], 16)

    def op_vector_create_mask(self, op, mask):
        """A mask of the elements below the operands (one per dimension):
        ("mask", counts), each count an int or a per-thread list."""
        self.env[op.results[0]] = ("mask", tuple(self.get(o) for o in op.operands))

    def op_vector_constant_mask(self, op, mask):
        self.env[op.results[0]] = ("mask", tuple(attr_array(op, "mask_dim_sizes") or []))

    def op_vector_transfer_read(self, op, mask):
        """A read of the elements of the vector that are in bounds (an
        `in_bounds = [false]` dimension past its static size reads the
        padding) and set in its mask (`vector.create_mask` /
        `constant_mask`: the elements below the counts; any other mask is
        taken as all set). Padding and masked-off elements read nothing: no
        byte, no tile."""
        m = self.get(op.operands[0])
        pm = re.search(r"permutation_map = affine_map<\(([^)]*)\) -> \(([^)]*)\)>", op.attrs)
        shape, elem = vec_shape(op.types[0])
        if shape is None:
            raise Unknown("transfer_read of a scalar")
        rank = len(m.strides)
        seg = attr_array(op, "operandSegmentSizes") or [1, rank, 1, 0]
        if pm:
            ins = [x.strip() for x in pm.group(1).split(",")]
            outs = [x.strip() for x in pm.group(2).split(",")]
            dims = [ins.index(o) if o in ins else None for o in outs]
        else:
            dims = list(range(rank - len(shape), rank))
        ib = re.search(r"in_bounds = \[([^\]]*)\]", op.attrs)
        inb = [x.strip() == "true" for x in ib.group(1).split(",")] if ib else [False] * len(shape)
        mval = self.get(op.operands[1 + rank + 1]) if len(seg) > 3 and seg[3] else None
        counts = None
        if isinstance(mval, tuple) and mval[0] == "mask":
            if dims != list(range(rank - len(shape), rank)) or len(mval[1]) != len(shape):
                raise Unknown("a masked transfer_read with a permutation_map")
            counts = mval[1]
        tag = frozenset()
        contiguous = len(shape) == 1 and dims == [rank - 1] and m.strides[-1] == 1 and m.space != "workgroup"
        for t in mask:
            base, idx = self.addrs(m, op.operands[1:1 + rank], t, None)
            if contiguous:
                # a 1-D global read: the elements below its mask and its
                # row's end (a prefix), read as one
                n = shape[0] if counts is None else max(0, min(shape[0], self.per_thread(counts[0], t)))
                if not (inb[0] if inb else False) and m.shape[-1] >= 0:
                    n = max(0, min(n, m.shape[-1] - idx[-1]))
                if n:
                    tag |= self.global_tile(m, base, t, n * m.ebytes, idx)
                continue
            for e in elements(shape):
                if counts is not None and any(vi >= self.per_thread(c, t) for vi, c in zip(e, counts)):
                    continue   # masked off: the padding
                a, out = base, False
                for j, (vi, d) in enumerate(zip(e, dims)):
                    if d is not None:
                        a += vi * m.strides[d] * m.ebytes
                        if not (inb[j] if j < len(inb) else False) and m.shape[d] >= 0 and \
                                idx[d] + vi >= m.shape[d]:
                            out = True   # past the dimension: the padding
                if out:
                    continue
                if m.space == "workgroup":
                    tag |= self.read_bytes(op, m, a, m.ebytes, t)
                else:
                    tag |= self.global_tile(m, a, t, m.ebytes,
                                            [i + (e[dims.index(d)] if d in dims else 0)
                                             for d, i in enumerate(idx)])
        if m.space == "workgroup":
            self.count_read(tag, len(mask))
        self.env[op.results[0]] = tag

    def store(self, op, mask, val, memv, idx, nbytes):
        m = self.get(memv)
        tag = self.tag(val)
        self.access(op, mask, m, idx, nbytes, True, tag)

    def op_vector_store(self, op, mask):
        m = self.get(op.operands[1])
        vt = (function_type(op.attrs)[0] or ["vector<1xf32>"])[0]
        self.store(op, mask, op.operands[0], op.operands[1], op.operands[2:2 + len(m.strides)],
                   self.vec_bytes(vt))

    def op_memref_store(self, op, mask):
        m = self.get(op.operands[1])
        self.store(op, mask, op.operands[0], op.operands[1], op.operands[2:2 + len(m.strides)], m.ebytes)

    def op_vector_transfer_write(self, op, mask):
        m = self.get(op.operands[1])
        vt = function_type(op.attrs)[0][0]
        shape, _ = vec_shape(vt)
        if m.space != "workgroup":
            # a global write: no shared byte (the epilogue's C); its elements
            # are counted (rows of a 2-D vector: the innermost dimension)
            if len(shape) > 1 or "permutation_map" in op.attrs and "-> (d%d)>" % (len(m.strides) - 1) \
                    not in op.attrs:
                self.gwrites_unknown = True
                return
            rank = len(m.strides)
            seg = attr_array(op, "operandSegmentSizes") or []
            if len(seg) > 3 and seg[3]:
                self.gwrites_unknown = True   # a masked store
                return
            inb = "in_bounds = [true]" in op.attrs or not shape
            tag = self.tag(op.operands[0])
            n = shape[-1] if shape else 1
            for t in mask:
                base, idx = self.addrs(m, op.operands[2:2 + rank], t, None)
                nn = n
                if not inb and m.shape and m.shape[-1] >= 0 and idx:
                    nn = max(0, min(n, m.shape[-1] - idx[-1]))   # the elements past the row are not written
                if nn:
                    self.global_write(m, base, t, nn * m.ebytes, idx, tag)
            return
        if len(shape) > 1 and "permutation_map" in op.attrs and "(d0, d1) -> (d0, d1)" not in op.attrs:
            raise Unknown("permuted transfer_write to shared memory")
        rank = len(m.strides)
        tag = self.tag(op.operands[0])
        for t in mask:
            base, _ = self.addrs(m, op.operands[2:2 + rank], t, None)
            rows = shape[:-1] if len(shape) > 1 else []
            for e in elements(rows):
                a = base
                for vi, d in zip(e, range(rank - len(shape), rank - 1)):
                    a += vi * m.strides[d] * m.ebytes
                if m.space == "workgroup":   # a 0-d vector<T> writes one element
                    self.write_bytes(op, m, a, (shape[-1] if shape else 1) * m.ebytes, t, tag, False)

    def op_nvgpu_device_async_copy(self, op, mask):
        seg = attr_array(op, "operandSegmentSizes")
        dst = self.get(op.operands[0])
        didx = op.operands[1:1 + seg[1]]
        src = self.get(op.operands[1 + seg[1]])
        sidx = op.operands[2 + seg[1]:2 + seg[1] + seg[3]]
        n = attr_int(op, "dstElements")
        srcn = self.get(op.operands[-1]) if seg[4] else n
        for t in mask:
            sbase, _ = self.addrs(src, sidx, t, None)
            k = self.per_thread(srcn, t)
            sb, sid = self.addrs(src, sidx, t, None)
            tag = self.global_tile(src, sb, t, k * src.ebytes, sid) if k > 0 else frozenset()
            dbase, _ = self.addrs(dst, didx, t, None)
            if dst.space != "workgroup":
                raise Unknown("device_async_copy to non-workgroup memory")
            self.write_bytes(op, dst, dbase, n * dst.ebytes, t, tag, True)
        self.env[op.results[0]] = frozenset()

    def op_nvgpu_device_async_create_group(self, op, mask):
        g = self.next_group
        self.next_group += 1
        for rec in self.pending:
            rec[3] = g
        self.committed.append(g)
        self.pending = []
        self.env[op.results[0]] = frozenset()

    def op_nvgpu_device_async_wait(self, op, mask):
        keep = attr_int(op, "numGroups", 0)
        done = self.committed[:len(self.committed) - keep] if keep else self.committed
        for g in done:
            self.done_epoch.setdefault(g, self.epoch)
        self.committed = self.committed[len(done):]

    # ---- TMA and mbarriers (sm_90): PTX ISA "mbarrier", "cp.async.bulk.tensor"
    def predicated(self, mask, name):
        """The threads of mask whose i1 `name` is true (None: all)."""
        if name is None:
            return mask
        c = self.get(name)
        return [t for t in mask if self.per_thread(c, t)]

    def op_nvgpu_mbarrier_create(self, op, mask):
        m = re.search(r"num_barriers = (\d+)", op.types[0] if op.types else "")
        self.env[op.results[0]] = ("mbar", op.line, int(m.group(1)) if m else 1)

    def mbar(self, op, group, index, threads):
        """The mbarrier `group`[index] as `threads` use it: it must exist
        and be initialised, by them or before a barrier."""
        t = threads[0]
        g = self.get(group)
        if not (isinstance(g, tuple) and g[0] == "mbar"):
            raise Unknown("mbarrier operand %s is not an nvgpu.mbarrier.create" % group)
        if not 0 <= index < g[2]:
            self.finding("out-of-bounds", op, "thread %d uses mbarrier %d of a group of %d" % (t, index, g[2]))
            raise Stop()
        bar = self.mbars.get((g[1], index))
        if bar is None:
            self.finding("mbarrier-uninit", op, "thread %d uses mbarrier %d before any mbarrier.init of it"
                         % (t, index))
            raise Stop()
        other = [x for x in threads if x != bar.init_thread]
        if bar.init_epoch == self.epoch and other:
            self.finding("mbarrier-uninit", op, "thread %d uses mbarrier %d that thread %d initialised with no "
                         "barrier in between" % (other[0], index, bar.init_thread))
            bar.init_epoch = -1
        return bar

    def op_nvgpu_mbarrier_init(self, op, mask):
        """`mbarrier.init %b[%i], %count`: pending arrivals = count, tx-count
        0, phase 0."""
        g = self.get(op.operands[0])
        for t in self.predicated(mask, op.operands[3] if len(op.operands) > 3 else None):
            i = self.per_thread(self.get(op.operands[2]), t)
            if not (isinstance(g, tuple) and g[0] == "mbar"):
                raise Unknown("mbarrier.init of %s" % op.operands[0])
            if not 0 <= i < g[2]:
                self.finding("out-of-bounds", op, "thread %d initialises mbarrier %d of a group of %d"
                             % (t, i, g[2]))
                raise Stop()
            old = self.mbars.get((g[1], i))
            if old and (old.tmas or old.carry):
                self.finding("phase-mismatch", op, "thread %d re-initialises mbarrier %d while TMA loads "
                             "complete on it" % (t, i))
            count = self.per_thread(self.get(op.operands[1]), t)
            self.mbars[(g[1], i)] = MBarrier(i, count, self.epoch, t)

    def arrive(self, op, bar, t, tx):
        """Thread t arrives on bar, expecting tx more bytes in its phase."""
        if bar.pending <= 0:
            self.finding("phase-mismatch", op, "thread %d arrives on mbarrier %d whose phase %d has all its %d "
                         "arrival(s) and no wait on it: the arrival counts on that phase or the next"
                         % (t, bar.index, bar.phase, bar.count))
            if bar.completable():
                self.complete(op, bar)
        bar.pending -= 1
        bar.expect += tx

    def op_nvgpu_mbarrier_arrive_expect_tx(self, op, mask):
        """`arrive.expect_tx %b[%i], %bytes` (the threads of its predicate):
        the phase expects the bytes more, and one arrival."""
        for t in self.predicated(mask, op.operands[3] if len(op.operands) > 3 else None):
            bar = self.mbar(op, op.operands[0], self.per_thread(self.get(op.operands[2]), t), [t])
            self.arrive(op, bar, t, self.per_thread(self.get(op.operands[1]), t))

    def op_nvgpu_mbarrier_arrive(self, op, mask):
        for t in mask:
            self.arrive(op, self.mbar(op, op.operands[0], self.per_thread(self.get(op.operands[1]), t), [t]), t, 0)
        self.env[op.results[0]] = frozenset()

    def complete(self, op, bar):
        """bar's current phase completes (all arrivals in, at least the
        expected bytes in flight). Its TMA loads have landed only when the
        bytes match exactly: with more, the phase may complete first."""
        total = bar.inflight()
        if total != bar.expect or bar.carry:
            earlier = " (and up to %d more of an earlier phase's loads may)" % bar.carry if bar.carry else ""
            self.finding("phase-mismatch", op, "phase %d of mbarrier %d expects %d bytes while TMA loads "
                         "complete %d bytes on it%s: the phase may complete before they land"
                         % (bar.phase, bar.index, bar.expect, total - bar.carry, earlier))
        else:
            for x in bar.tmas:
                x.done = True
        bar.carry = total - bar.expect
        bar.last, bar.tmas = bar.tmas, []
        bar.phase += 1
        bar.pending, bar.expect = bar.count, 0

    def op_nvgpu_mbarrier_try_wait_parity(self, op, mask):
        """`try_wait.parity %b[%i], %parity`: returns once the phase of that
        parity has completed, i.e. the barrier's current phase parity is not
        %parity: it waits for the current phase when its parity is %parity
        (which must be able to complete: all arrivals and bytes issued),
        else returns at once. The waiting threads observe the last completed
        phase: its TMA loads' bytes are visible to them."""
        by = collections.OrderedDict()
        for t in mask:
            key = (self.per_thread(self.get(op.operands[3]), t), self.per_thread(self.get(op.operands[1]), t) & 1)
            by.setdefault(key, []).append(t)
        for (i, parity), threads in by.items():
            bar = self.mbar(op, op.operands[0], i, threads)
            if bar.phase % 2 == parity:
                if not bar.completable():
                    self.finding("mbarrier-hang", op, "threads %d..%d wait on parity %d of mbarrier %d, whose "
                                 "phase %d never completes (%d of %d arrival(s) missing, %d of %d expected bytes "
                                 "in flight)" % (threads[0], threads[-1], parity, i, bar.phase,
                                                 max(bar.pending, 0), bar.count, bar.inflight(), bar.expect))
                    raise Stop()
                self.complete(op, bar)
            bits = sum(1 << t for t in threads)
            for x in bar.last:
                if x.done:
                    x.seen_epoch = self.epoch if not x.seen else x.seen_epoch
                    x.seen |= bits

    def op_builtin_unrealized_conversion_cast(self, op, mask):
        """A kernel's `!llvm.ptr` cast to a TMA descriptor names the tensor
        map (its box from the type); any other cast passes its data on."""
        v = self.get(op.operands[0]) if len(op.operands) == 1 else None
        m = re.match(r"!nvgpu\.tensormap\.descriptor<tensor = memref<([0-9x]+)x(\w+)", op.types[0]) \
            if len(op.results) == 1 and op.types else None
        if isinstance(v, tuple) and v[0] == "ptr" and m:
            box = [int(d) for d in m.group(1).split("x")]
            self.env[op.results[0]] = ("tmadesc", "tma:" + v[1], box, ELEM_BYTES.get(m.group(2), 1))
            return
        tags = frozenset().union(*[self.tag(o) for o in op.operands]) if op.operands else frozenset()
        for r in op.results:
            self.env[r] = tags

    def tma_tile(self, key, coords):
        """The K tile of a TMA box at `coords` (the probe records it: the
        coordinate that moves with the K-loop names it, as for global reads)."""
        if self.probe is not None:
            if self.cur_tile is None:
                return frozenset()
            self.global_reads.append((self.cur_tile, key, -1, coords))
            return frozenset([self.cur_tile])
        tile = self.tile_of(key, -1, coords)
        return frozenset() if tile is None else frozenset([tile])

    def op_nvgpu_tma_async_load(self, op, mask):
        """`tma.async.load %desc[coords], %b[%i] to %dst` (the threads of its
        predicate): writes the box into dst asynchronously and completes its
        bytes on mbarrier i; they are visible to the threads that wait on the
        phase that completes."""
        seg = attr_array(op, "operandSegmentSizes")   # dst, barriers, desc, coords, mbarId, multicast, pred
        if not seg or len(seg) != 7 or seg[5]:
            raise Unknown("TMA load with multicast or an unknown operand layout")
        o = op.operands
        dst, desc = self.get(o[0]), self.get(o[2])
        if not (isinstance(desc, tuple) and desc[0] == "tmadesc"):
            raise Unknown("TMA descriptor that is not a cast of a kernel argument")
        if not isinstance(dst, Mem) or dst.space != "workgroup":
            raise Unknown("TMA load to non-workgroup memory")
        _, key, box, ebytes = desc
        nbytes = ebytes
        for d in box:
            nbytes *= d
        coords, idx = o[3:3 + seg[3]], o[3 + seg[3]]
        for t in self.predicated(mask, o[-1] if seg[6] else None):
            tag = self.tma_tile(key, tuple(self.per_thread(self.get(c), t) for c in coords))
            bar = self.mbar(op, o[1], self.per_thread(self.get(idx), t), [t])
            rows = self.view_rows(dst, t, "TMA destination")
            if sum(n for _, n in rows) != nbytes:
                raise Unknown("TMA box of %d bytes into a view of %d" % (nbytes, sum(n for _, n in rows)))
            x = Tma(nbytes, op.line)
            bar.tmas.append(x)
            for base, n in rows:
                self.write_bytes(op, dst, base, n, t, tag, True, tma=x)

    # ---- wgmma (sm_90a): a warpgroup's MMA reads its shared tiles through
    # the descriptors until a wgmma wait retires its group
    def op_nvgpu_warpgroup_generate_descriptor(self, op, mask):
        m = self.get(op.operands[0])
        if not isinstance(m, Mem) or m.space != "workgroup":
            raise Unknown("wgmma descriptor of non-shared memory")
        self.env[op.results[0]] = ("wgdesc", m)

    @staticmethod
    def warpgroups(mask):
        wgs = collections.OrderedDict()
        for t in mask:
            wgs.setdefault(t // WARPGROUP, []).append(t)
        return wgs

    def desc_rows(self, name, t):
        """The view a wgmma descriptor points at, as thread t computes it:
        (Mem, [(byte base, bytes)] one per contiguous innermost row)."""
        d = self.get(name)
        if not (isinstance(d, tuple) and d[0] == "wgdesc"):
            raise Unknown("wgmma operand %s is not a generated descriptor" % name)
        return d[1], self.view_rows(d[1], t, "wgmma descriptor")

    def view_rows(self, m, t, what):
        """The bytes of view m as thread t computes it: [(byte base, bytes)],
        one per contiguous innermost row."""
        if not m.shape or m.strides[-1] != 1 or any(x <= 0 for x in m.shape):
            raise Unknown("%s of a non-contiguous or dynamic view" % what)
        offs = [0]
        for dim, st in zip(m.shape[:-1], m.strides[:-1]):
            offs = [o + i * st for o in offs for i in range(dim)]
        base = self.per_thread(m.off, t)
        return [(base + o * m.ebytes, m.shape[-1] * m.ebytes) for o in offs]

    def op_nvgpu_warpgroup_mma(self, op, mask):
        if len(mask) != self.T or self.T % WARPGROUP:
            raise Unknown("wgmma under a thread mask or in a partial warpgroup")
        keep = attr_int(op, "waitGroup", 1)
        got = frozenset()
        for w, threads in self.warpgroups(mask).items():
            keys = set()
            for name in op.operands[:2]:
                m, rows = self.desc_rows(name, threads[0])
                for base, n in rows:
                    got |= self.read_bytes(op, m, base, n, threads[0], record=False, reader=-100 - w)
                    g = self.granule
                    keys.update((id(m.root), b) for b in range(base - base % g, base + n, g))
            for k in keys:
                self.mma_reading[k] += 1
            self.wg_groups.setdefault(w, []).append(keys)
            self.retire(w, keep)
        self.count_read(got, len(mask))
        for t in got:
            self.computes[t] += len(mask)
        self.env[op.results[0]] = frozenset()

    def retire(self, w, keep):
        """Warpgroup w waits until at most `keep` of its groups are in flight:
        the others' reads end now (in this barrier epoch)."""
        groups = self.wg_groups.get(w, [])
        while len(groups) > keep:
            for k in groups.pop(0):
                self.mma_reading[k] -= 1
                self.note_read(k, -100 - w)

    def op_nvvm_wgmma_wait_group_sync_aligned(self, op, mask):
        keep = attr_int(op, "group", 0)
        for w in self.warpgroups(mask):
            self.retire(w, keep)

    def op_nvgpu_warpgroup_mma_store(self, op, mask):
        m = self.get(op.operands[1])
        if not isinstance(m, Mem) or m.space == "workgroup":
            raise Unknown("warpgroup.mma.store to shared memory")
        for w in self.warpgroups(mask):
            if self.wg_groups.get(w):
                self.finding("accumulator-in-flight", op, "warpgroup %d stores its accumulator while %d wgmma "
                             "group(s) writing it are in flight (no wgmma wait retired them)"
                             % (w, len(self.wg_groups[w])))

    # ---- control flow
    def op_scf_for(self, op, mask):
        lb, ub, step = [self.uniform(self.get(o), "loop bound") for o in op.operands[:3]]
        inits = [self.get(o) for o in op.operands[3:]]
        body = op.regions[0][0]
        ivw = int_width(body.args[0][1]) or 64
        unsigned_cmp = "unsignedCmp" in op.attrs
        if unsigned_cmp:
            lb, ub = unsigned(lb, ivw), unsigned(ub, ivw)
        if step <= 0:
            raise Unknown("scf.for with step %d" % step)
        n = max(0, -((lb - ub) // step)) if ub > lb else 0
        is_k = self.probe is not None and op is self.probe["loop"]
        vals = inits
        if is_k:
            self.probe["trips"] = n
            # an enclosing loop runs the K-loop several times
            self.probe["runs"] = self.probe.get("runs", 0) + 1
            self.probe_kloop(op, body, lb, step, n, ivw, inits, mask)
            return
        jump_at, jump = None, 0
        win = max(WINDOW, min(self.period, 8))   # at least one full round of the stages
        if not is_k and n > 2 * win + self.period:
            jump = ((n - 2 * win) // self.period) * self.period
            if self.jumpable(op, jump * step):
                jump_at = win
        i = 0
        while i < n:
            if jump_at is not None and i == jump_at:
                self.do_jump(op, jump, step)
                i += jump
                continue
            self.enter_iteration(body, lb + i * step, ivw, vals)
            vals = self.run_block(body.ops, mask) or []
            i += 1
        for r, v in zip(op.results, vals):
            self.env[r] = v

    def enter_iteration(self, body, iv, ivw, vals):
        """Counts one loop iteration against MAX_STEPS and binds the body's
        induction variable (`iv`, `ivw` bits) and iter_args (`vals`)."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise Unknown("more than %d loop iterations" % MAX_STEPS)
        self.env[body.args[0][0]] = wrap(iv, ivw)
        for (a, _), v in zip(body.args[1:], vals):
            self.env[a] = v

    def probe_kloop(self, op, body, lb, step, n, ivw, inits, mask):
        """The probe's run of the input's K-loop: the iterations
        probe["select"](n) (a sorted list; the others are not run: the load
        phase does not depend on them), each labelled with its tile."""
        vals = inits
        for i in self.probe["select"](n):
            self.enter_iteration(body, lb + i * step, ivw, vals)
            self.cur_tile = i
            before = (collections.Counter(self.reads), collections.Counter(self.computes))
            vals = self.run_block(body.ops, mask) or []
            self.probe.setdefault("per_tile", []).append(
                (i, sum((self.reads - before[0]).values()), sum((self.computes - before[1]).values())))
            self.cur_tile = None
        for r, v in zip(op.results, vals):
            self.env[r] = v

    def jumpable(self, op, span):
        """Whether a long loop may jump over iterations that move its iv by
        `span`: it is a K-loop (a `gpu.barrier` in its body: tiles pass
        through shared memory) and `span` is whole K tiles. Any other loop
        (an inner k-step loop within one tile, step 1 < the tile's 16; a
        loop without barriers) runs whole: exact, within MAX_STEPS."""
        if not self.tile_step or span % self.tile_step:
            return False
        return any(o.name == "gpu.barrier" for o in walk(op.regions[0][0].ops))

    def do_jump(self, op, jump, step):
        """Skips `jump` iterations of a long loop: the tile labels in shared
        memory and in registers move by the tiles those iterations cover."""
        tiles = jump * step // self.tile_step
        lo = max(self.reads) + 1 if self.reads else 0   # the next tile to be read
        self.skipped.append((lo, lo + tiles))
        for r in self.mem.values():
            r[0] = frozenset(x + tiles if x != AMBIGUOUS else x for x in r[0])
        for k, v in list(self.env.items()):
            if isinstance(v, frozenset) and v:
                self.env[k] = frozenset(x + tiles if x != AMBIGUOUS else x for x in v)
        self.shift += tiles
        self.jumped = (jump, tiles)

    def op_scf_if(self, op, mask):
        c = self.get(op.operands[0])
        if not isinstance(c, list):
            region = op.regions[0] if c else (op.regions[1] if len(op.regions) > 1 else None)
            vals = self.run_block(region[0].ops, mask) if region and region[0].ops else []
            for r, v in zip(op.results, vals or []):
                self.env[r] = v
            return
        mt = [t for t in mask if c[t]]
        mf = [t for t in mask if not c[t]]
        vt = self.run_block(op.regions[0][0].ops, mt) if mt else None
        vf = self.run_block(op.regions[1][0].ops, mf) if mf and len(op.regions) > 1 and op.regions[1][0].ops else None
        for i, r in enumerate(op.results):
            a = vt[i] if vt else None
            b = vf[i] if vf else None
            if a is None or b is None:
                self.env[r] = a if b is None else b
            elif isinstance(a, frozenset) or isinstance(b, frozenset):
                self.env[r] = (a if isinstance(a, frozenset) else frozenset()) | (
                    b if isinstance(b, frozenset) else frozenset())
            else:
                self.env[r] = [self.per_thread(a, t) if c[t] else self.per_thread(b, t) for t in range(self.T)]

    def op_scf_execute_region(self, op, mask):
        vals = self.run_block(op.regions[0][0].ops, mask) or []
        for r, v in zip(op.results, vals):
            self.env[r] = v

    def op_affine_for(self, op, mask):
        raise Unknown("affine.for")

    def op_gpu_launch(self, op, mask):
        raise Unknown("nested gpu.launch")


def elements(shape):
    out = [()]
    for d in shape:
        out = [e + (i,) for e in out for i in range(d)]
    return out


def in_buffer(tup, mt):
    """An index tuple past a dimension of a static, contiguous (row-major)
    memref named by its place in the buffer (the element a read spanning two
    rows reads); one outside the buffer as it is."""
    shape = mt.shape
    if len(tup) < 2 or all(0 <= x < n for x, n in zip(tup, shape)) or any(n <= 0 for n in shape) or \
            mt.strides != identity_strides(shape):
        return tup
    lin = sum(x * s for x, s in zip(tup, mt.strides))
    size = 1
    for n in shape:
        size *= n
    return unravel(lin, mt) if 0 <= lin < size else tup


def unravel(elem, mt):
    tup = []
    for s in mt.strides:
        if s <= 0:
            tup.append(0)
            continue
        tup.append(elem // s)
        elem %= s
    return tuple(tup)


def _cmp(v, w, sw, p):
    a, b = v
    if p in (6, 7, 8, 9):
        a, b = unsigned(a, sw), unsigned(b, sw)
    return int([a == b, a != b, a < b, a <= b, a > b, a >= b, a < b, a <= b, a > b, a >= b][p])


def _div(a, b, f):
    if b == 0:
        raise Unknown("division by zero")
    return f(a, b)


INT_OPS = {
    "addi": lambda v, w, sw, p: wrap(v[0] + v[1], w),
    "subi": lambda v, w, sw, p: wrap(v[0] - v[1], w),
    "muli": lambda v, w, sw, p: wrap(v[0] * v[1], w),
    "divui": lambda v, w, sw, p: wrap(_div(unsigned(v[0], w), unsigned(v[1], w), lambda a, b: a // b), w),
    "remui": lambda v, w, sw, p: wrap(_div(unsigned(v[0], w), unsigned(v[1], w), lambda a, b: a % b), w),
    "divsi": lambda v, w, sw, p: wrap(_div(v[0], v[1], lambda a, b: abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)), w),
    "remsi": lambda v, w, sw, p: wrap(_div(v[0], v[1], lambda a, b: a - b * (abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1))), w),
    "floordivsi": lambda v, w, sw, p: wrap(_div(v[0], v[1], lambda a, b: a // b), w),
    "ceildivsi": lambda v, w, sw, p: wrap(_div(v[0], v[1], lambda a, b: -((-a) // b)), w),
    "ceildivui": lambda v, w, sw, p: wrap(_div(unsigned(v[0], w), unsigned(v[1], w), lambda a, b: -((-a) // b)), w),
    "andi": lambda v, w, sw, p: wrap(v[0] & v[1], w),
    "ori": lambda v, w, sw, p: wrap(v[0] | v[1], w),
    "xori": lambda v, w, sw, p: wrap(v[0] ^ v[1], w),
    "shli": lambda v, w, sw, p: wrap(v[0] << v[1], w) if 0 <= v[1] < w else 0,
    "shrui": lambda v, w, sw, p: wrap(unsigned(v[0], w) >> v[1], w) if 0 <= v[1] < w else 0,
    "shrsi": lambda v, w, sw, p: wrap(v[0] >> v[1], w) if 0 <= v[1] < w else 0,
    "minsi": lambda v, w, sw, p: min(v), "maxsi": lambda v, w, sw, p: max(v),
    "minui": lambda v, w, sw, p: wrap(min(unsigned(x, w) for x in v), w),
    "maxui": lambda v, w, sw, p: wrap(max(unsigned(x, w) for x in v), w),
    "cmpi": _cmp,
    "select": lambda v, w, sw, p: v[1] if v[0] else v[2],
    "index_cast": lambda v, w, sw, p: wrap(v[0], w),
    "casts": lambda v, w, sw, p: wrap(v[0], w),                  # index.casts
    "castu": lambda v, w, sw, p: wrap(unsigned(v[0], sw), w),    # index.castu
    "index_castui": lambda v, w, sw, p: wrap(unsigned(v[0], sw), w),
    "extsi": lambda v, w, sw, p: wrap(v[0], w),
    "extui": lambda v, w, sw, p: wrap(unsigned(v[0], sw), w),
    "trunci": lambda v, w, sw, p: wrap(v[0], w),
}


# ------------------------------------------------------------- the check

def generic(path_or_text):
    p = subprocess.run([MLIR_OPT, "-", "--mlir-print-op-generic", "--mlir-print-local-scope",
                        "--allow-unregistered-dialect"],
                       input=path_or_text, capture_output=True, text=True)
    if p.returncode != 0:
        raise Unknown("mlir-opt cannot parse: %s" % p.stderr.strip()[:200])
    return parse(p.stdout)


def walk(ops):
    for op in ops:
        yield op
        for reg in op.regions:
            for b in reg:
                yield from walk(b.ops)


def kernels(ops):
    return [op for op in walk(ops) if op.name == "gpu.func" and re.search(r"\bkernel\b", op.attrs)] or \
        [op for op in walk(ops) if op.name == "gpu.func"]


def block_dims(f):
    m = re.search(r"known_block_size = array<i32: (\d+), (\d+), (\d+)>", f.attrs) or \
        re.search(r"nvvm.reqntid = array<i32: (\d+)(?:, (\d+))?(?:, (\d+))?>", f.attrs) or \
        re.search(r"nvvm.maxntid = array<i32: (\d+)(?:, (\d+))?(?:, (\d+))?>", f.attrs)
    if not m:
        return None
    return tuple(int(x or 1) for x in m.groups())


def outline(text):
    if "gpu.launch blocks" not in text and '"gpu.launch"' not in text:
        return text
    p = subprocess.run([MLIR_OPT, "-", "--gpu-kernel-outlining"], input=text, capture_output=True, text=True)
    if p.returncode != 0:
        raise Unknown("outlining failed")
    return p.stdout


def first_kloop(f):
    for op in walk([f]):
        if op.name == "scf.for" and any(o.name == "gpu.barrier" for o in op.regions[0][0].ops):
            return op
    return None


def lcm(a, b):
    import math
    return a * b // math.gcd(a, b)


def shared_memref_types(text):
    """(dims, element type) of every shared-memory memref type in `text`:
    `#gpu.address_space<workgroup>` or the integer memory space 3, any
    layout (the custom form prints both)."""
    out = []
    for m in re.finditer(r"memref<(\d+(?:x\d+)*)x(\w+)", text):
        depth, i = 1, m.start() + len("memref<")
        while i < len(text) and depth:
            depth += {"<": 1, ">": -1}.get(text[i], 0)
            i += 1
        body = text[m.start():i - 1]
        if body.endswith(("#gpu.address_space<workgroup>", ", 3")):
            out.append((m.group(1), m.group(2)))
    return out


def granule_and_period(out_text):
    """The smallest element of shared memory accessed (bytes followed as one)
    and the stage period: a multiple of the stage counts and of twice the
    size of each mbarrier group (its phase parities repeat). The stage count
    is not written down: every leading dimension 2..8 of the output's
    shared memrefs of rank > 1 is taken as one (an over-approximation only
    costs iterations run), with 2."""
    els = [ELEM_BYTES.get(e, 1) for d, e in shared_memref_types(out_text) if not (e == "i8" and "x" not in d)]
    granule = min(els) if els else 1
    period = 2
    for d, e in set(shared_memref_types(out_text)):
        dims = d.split("x")
        if len(dims) > 1 and 2 <= int(dims[0]) <= 8:
            period = lcm(period, int(dims[0]))
    # (the custom form prints the type without its `!nvgpu.mbarrier.group`)
    for nb in re.findall(r"num_barriers = (\d+)", out_text):
        period = lcm(period, 2 * int(nb))   # every mbarrier's phase parity repeats
    if period > JUMP:
        period = JUMP
    return granule, period


def launch_constants(ops, f):
    """Kernel argument index -> value, for the integer arguments that the
    host's gpu.launch_func passes as arith.constant."""
    consts = {}
    for op in walk(ops):
        if op.name == "arith.constant" and op.results:
            m = re.search(r"value = (-?\d+) : (index|i\d+)", op.attrs)
            if m:
                consts[op.results[0]] = int(m.group(1))
    name = re.search(r'sym_name = "([^"]+)"', f.attrs)
    host_args = {}
    for op in walk(ops):
        if op.name == "func.func" and op.regions and op.regions[0]:
            fn = re.search(r'sym_name = "([^"]+)"', op.attrs)
            for j, (a, _) in enumerate(op.regions[0][0].args):
                host_args[a] = "%s:%d" % (fn.group(1) if fn else "?", j)
    out = {}
    for op in walk(ops):
        if op.name == "gpu.launch_func" and name and ("@%s>" % name.group(1)) in op.attrs.replace("::@", ">").replace(">" , ">", 1) or \
                (op.name == "gpu.launch_func" and name and name.group(1) in op.attrs):
            nargs = len(f.regions[0][0].args)
            seg = attr_array(op, "operandSegmentSizes")
            kops = op.operands
            if seg:
                start = sum(seg[:-2])
                kops = op.operands[start:start + seg[-2]]
            for i, o in enumerate(kops[:nargs]):
                if o in consts:
                    out[i] = consts[o]
                elif o in host_args:
                    out[i] = "host" + host_args[o]   # a memref: the host function's argument
            break
    return out


def check_text(out_text, in_text, int_args=None, arg_shapes=None, arg_loads=None):
    try:
        return _check(out_text, in_text, int_args, arg_shapes, arg_loads)
    except Unknown as ex:
        return {"status": "unknown", "reason": str(ex), "findings": []}
    except RecursionError:
        return {"status": "unknown", "reason": "nesting too deep", "findings": []}
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as ex:
        # an IR form the interpreter does not model (e.g. a memref it lost track of)
        return {"status": "unknown", "reason": "checker limitation: %r" % ex, "findings": []}


def check_last_tile_in_bounds(table, shapes, trips):
    """The input's global reads of its last K tile (I0 + (trips-1) * delta,
    from the probe) lie in their buffers' static shapes; otherwise the input
    reads out of bounds (a K bound past the row: undefined behaviour), and
    pk is held to nothing."""
    for (key, t), reads in table.items():
        shape = shapes.get(key)
        if not shape:
            continue
        for base, d in reads:
            for i, (b, z, n) in enumerate(zip(base, d, shape)):
                last = b + (trips - 1) * z
                if n > 0 and not 0 <= last < n:
                    raise Unknown("the input reads global memory out of bounds in its last K tile "
                                  "(index %d of dimension %d of %d): undefined behaviour" % (last, i, n))


def check_reads_in_bounds(reads, shapes, trips):
    """The input's global reads the probe saw (every element: tile, root
    key, thread, index tuple) lie in their buffers' static shapes; otherwise
    the input reads out of bounds (a K bound past the row: undefined
    behaviour), and pk is held to nothing. The last tile's reads are named
    first."""
    bad = None
    for tile, key, t, tup in reads:
        shape = shapes.get(key)
        if not shape or t < 0:
            continue
        for i, (x, n) in enumerate(zip(tup, shape)):
            if n > 0 and not 0 <= x < n:
                if tile == trips - 1:
                    raise Unknown("the input reads global memory out of bounds in its last K tile "
                                  "(index %d of dimension %d of %d): undefined behaviour" % (x, i, n))
                bad = bad or (tile, x, i, n)
    if bad:
        raise Unknown("the input reads global memory out of bounds in K tile %d (index %d of dimension %d "
                      "of %d): undefined behaviour" % bad)


PROBE_ALL = int(os.environ.get("SEMCHECK_PROBE_ALL", "16"))       # K-loops this short: every tile probed
PROBE_LIMIT = int(os.environ.get("SEMCHECK_PROBE_LIMIT", "1024"))  # the most tiles probed one by one


def run_probe(fin, T, dims, consts, kl, select, strict=True, arg_shapes=None, arg_loads=None, granule=1,
              fast=False):
    """Runs the input with its K-loop's iterations `select(trips)` (the
    others skipped), recording every global element each thread reads per
    tile. strict: the run is the input's meaning: a hazard in it, or a read
    mixing two tiles, makes pk's output uncheckable (unknown)."""
    probe = {"loop": kl, "select": select}
    pm = Machine(fin, T, dims, probe=probe)
    pm.int_args = consts
    pm.arg_shapes = arg_shapes or {}
    pm.arg_loads = arg_loads or {}
    pm.granule = granule
    pm.fast = fast
    pm.tile_step = None
    try:
        pm.run_func()
    except Stop:
        if not strict:
            raise
    if strict and pm.findings:
        # pk is held to the input's meaning; an input that races has none
        raise Unknown("the input itself has a hazard: %s" % pm.findings[0]["message"])
    return pm, probe


def linear_table(reads):
    """The table (root key, thread) -> [(I0, delta)] from tiles 0 and 1 of
    the probe's reads, and the reads grouped (root key, thread) -> tile ->
    [index tuples]."""
    table = collections.defaultdict(list)
    by = collections.defaultdict(dict)
    for tile, key, t, tup in reads:
        by[(key, t)].setdefault(tile, []).append(tup)
    for (key, t), tiles in by.items():
        if 0 not in tiles or 1 not in tiles or len(tiles[0]) != len(tiles[1]):
            continue
        for a, b in zip(tiles[0], tiles[1]):
            table[(key, t)].append((a, tuple(y - x for x, y in zip(a, b))))
    return table, by


def not_linear(table, by, tiles):
    """Why the probed `tiles` do not read I0 + tile*delta (None: they do):
    the first thread and tile whose reads are not the table's."""
    for key, t in sorted(set(table) | set(by), key=lambda kt: (str(kt[0]), kt[1])):
        got, rows = by.get((key, t), {}), table.get((key, t))
        for tile in tiles:
            want = [tuple(b + tile * z for b, z in zip(base, d)) for base, d in rows] if rows else []
            have = got.get(tile, [])
            if have != want:
                who = "the TMA loads" if t < 0 else "thread %d" % t
                if len(have) != len(want):
                    return ("%s reads %d element(s) of %s in K tile %d and %d in tile 0" %
                            (who, len(have), key, tile, len(got.get(0, []))))
                j = next(j for j, (x, y) in enumerate(zip(have, want)) if x != y)
                return ("%s reads %s of %s in K tile %d, not %s = I0 + %d*delta" %
                        (who, have[j], key, tile, want[j], tile))
    return None


def _check(out_text, in_text, int_args=None, arg_shapes=None, arg_loads=None):
    min_ops = generic(outline(in_text))
    mout_ops = generic(out_text)
    fin, fout = kernels(min_ops), kernels(mout_ops)
    if len(fin) != 1 or len(fout) != 1:
        raise Unknown("%d input / %d output kernels (one each is checked)" % (len(fin), len(fout)))
    fin, fout = fin[0], fout[0]
    dims = block_dims(fout) or block_dims(fin)
    if not dims:
        raise Unknown("no known block size")
    if block_dims(fin) and block_dims(fout) and block_dims(fin) != block_dims(fout):
        # schedule=warp-specialized: the threads added to the block run
        # their own loop concurrently, which the lockstep machine cannot.
        raise Unknown("the output's block %s differs from the input's %s (warp roles are not "
                      "modelled)" % (block_dims(fout), block_dims(fin)))
    T = dims[0] * dims[1] * dims[2]
    if T > 1024:
        raise Unknown("block of %d threads" % T)
    kl = first_kloop(fin)
    if kl is None:
        raise Unknown("no K-loop in the input")
    cin = launch_constants(min_ops, fin)
    cin.update(int_args or {})
    gin = granule_and_period(in_text)[0]
    # 1. the probe: every tile of a short K-loop; of a longer one tiles
    # 0, 1, 2 give the table I0 + t*delta, checked on sampled tiles (the
    # last ones among them); where it does not hold (an im2col index, a
    # guard, a mask) every tile is probed after all.
    pm, probe = run_probe(fin, T, dims, cin, kl, lambda n: list(range(n)) if n <= PROBE_ALL else [0, 1, 2],
                          arg_shapes=arg_shapes, arg_loads=arg_loads, granule=gin)
    trips = probe["trips"]
    kstep = pm.uniform(pm.get(kl.operands[2]), "step")
    exact = trips <= PROBE_ALL
    table = None
    if not exact:
        table, by = linear_table(pm.global_reads)
        why = not_linear(table, by, [2])
        per = set((r, c) for _, r, c in probe.get("per_tile", []))
        if why is None and len(per) > 1:
            why = "the tiles differ in shared reads/computes: %s" % [x[1:] for x in probe["per_tile"]]
        if why is None and pm.mixed:
            why = "shared reads mix two tiles"
        oob, sm = None, None
        try:
            check_last_tile_in_bounds(table, pm.global_shapes, trips)
        except Unknown as ex:
            oob = ex    # by the table; a guard may keep the reads in bounds
        body = kl.regions[0][0]
        if why is None and any(int_width(ty) or ty.startswith("memref") for _, ty in body.args[1:]):
            # tiles cannot be run out of order: the iterations carry integers
            why = None if trips > PROBE_LIMIT else "unsampled"
        elif why is None:
            samples = sorted(x for x in {3, trips // 4, trips // 2, trips // 2 + 1, 3 * trips // 4, trips - 2,
                                         trips - 1} if 3 <= x < trips)
            try:
                sm, sp = run_probe(fin, T, dims, cin, kl, lambda n: samples, strict=False,
                                   arg_shapes=arg_shapes, arg_loads=arg_loads, granule=gin)
            except (Unknown, Stop) as ex:
                sm, why = None, "the sampled tiles could not be run (%s)" % ex
            if sm is not None:
                try:
                    check_reads_in_bounds(sm.global_starts + sm.global_reads, sm.global_shapes, trips)
                except Unknown as ex:
                    raise oob or ex
                _, sby = linear_table(sm.global_reads)
                why = not_linear(table, sby, samples)
                sper = set((r, c) for _, r, c in sp.get("per_tile", []))
                if why is None and sper - per:
                    why = "the sampled tiles differ in shared reads/computes: %s" % sorted(sper | per)
        if why is not None and trips > PROBE_LIMIT:
            if oob is not None:
                raise oob
            raise Unknown("the input's global reads are not linear in the K tile (%s), and its %d tiles are "
                          "too many to probe one by one (more than %d)" % (why, trips, PROBE_LIMIT))
        if why is None and oob is not None:
            if trips > PROBE_LIMIT or sm is None:
                raise oob
            why = "the table's last tile is out of bounds, the sampled one is not"
        if why is not None:
            # every tile, its hazards not followed again (the first probe
            # checked tiles 0..2 for them): the tiles each thread reads
            pm, probe = run_probe(fin, T, dims, cin, kl, lambda n: list(range(n)), arg_shapes=arg_shapes,
                                  arg_loads=arg_loads, granule=gin, fast=True)
            exact = True
    runs = probe.get("runs", 1)
    in_reads, in_computes = collections.Counter(), collections.Counter()
    for i, r, c in probe.get("per_tile", []):
        in_reads[i] += r
        in_computes[i] += c
    if exact:
        # by the tiles read (what the output is counted by), not by the
        # iteration reading them
        in_reads = collections.Counter({t: pm.reads[t] for t in range(trips)})
        check_reads_in_bounds(pm.global_starts + pm.global_reads, pm.global_shapes, trips)
        reads_per_tile = (collections.Counter(in_reads.values()).most_common(1) or [(0,)])[0][0] // runs
        computes_per_tile = (collections.Counter(in_computes.values()).most_common(1) or [(0,)])[0][0] // runs
        if trips and not any(in_reads.values()):
            raise Unknown("the input K-loop reads no shared memory")
        elem_tiles = collections.defaultdict(collections.Counter)
        for tile, key, t, tup in pm.global_reads:
            elem_tiles[(key, t, tup)][tile] += 1

        def tile_of(key, t, tup):
            counts = elem_tiles.get((key, t, tup))
            if not counts:
                return None
            tiles = sorted(counts)
            if len(tiles) == trips and trips > 1:
                # read in every tile (a fixed address of the compute phase)
                # and once more in one: the load phase's read is that one's
                base = min(counts.values())
                more = [x for x in tiles if counts[x] > base]
                if len(more) == 1:
                    return more[0]
            if len(tiles) > 1:
                # A loop step below the tile's extent, or a read that does
                # not move with the loop: one global element is read in
                # several K tiles, so a read names no one tile. Data the
                # compute phase reads straight from global memory (a bias,
                # a fixed row) may; a shared tile may not (count_read).
                every = " (every tile: the read does not move with the K-loop)" \
                    if len(tiles) == trips and trips > 2 else ""
                m.ambiguous = m.ambiguous or ("the input's K tiles overlap: thread %d reads %s in tiles %s%s, so "
                                              "the tile of a read is ambiguous" % (t, tup, sorted(tiles), every))
                return AMBIGUOUS
            return next(iter(tiles))
    else:
        reads_per_tile, computes_per_tile = probe["per_tile"][0][1:]
        if reads_per_tile == 0:
            raise Unknown("the input K-loop reads no shared memory")

        def canon(tup, d):
            """The point of the line tup + k*d whose first moving
            coordinate lies in [0, |delta|) (one key per line)."""
            j = next(i for i, z in enumerate(d) if z)
            q = (tup[j] - tup[j] % d[j]) // d[j]
            return tuple(x - q * z for x, z in zip(tup, d))
        lines = {}      # (key, t) -> {delta: {canonical point: [I0]}}; delta 0: no tile

        def tile_of(key, t, tup):
            idx = lines.get((key, t))
            if idx is None:
                idx = lines[(key, t)] = collections.defaultdict(lambda: collections.defaultdict(list))
                for base, d in table.get((key, t), ()):
                    if any(d):
                        idx[d][canon(base, d)].append(base)
            tiles = set()
            for d, pts in idx.items():
                if len(d) != len(tup):
                    continue
                for base in pts.get(canon(tup, d), ()):
                    j = next(i for i, z in enumerate(d) if z)
                    k = (tup[j] - base[j]) // d[j]
                    if 0 <= k < max(trips, 1):
                        tiles.add(k)
            if len(tiles) > 1:
                # A loop step below the tile's extent: consecutive K tiles read
                # the same global elements, so a read names no one tile.
                raise Unknown("the input's K tiles overlap: thread %d reads %s in tiles %s, so "
                              "the tile of a read is ambiguous" % (t, tup, sorted(tiles)))
            return tiles.pop() if tiles else None
    # 2. the output
    m = Machine(fout, T, dims, tile_of=tile_of)
    m.int_args = launch_constants(mout_ops, fout)
    m.int_args.update(int_args or {})
    m.arg_shapes = arg_shapes or {}
    m.arg_loads = arg_loads or {}
    m.tile_step = kstep
    m.granule, m.period = granule_and_period(out_text)
    if exact:
        m.input_reads = set(elem_tiles) | pm.global_outside
    try:
        m.run_func()
    except Stop:
        # the kernel hangs (or uses a wild mbarrier): its tiles are not counted
        return {"status": "wrong", "findings": list(m.findings), "trips": trips, "threads": T}
    findings = list(m.findings)
    skipped = sorted(m.skipped)

    def counted():
        """The tiles not in a jump (ranges: a jump may skip 2**60 tiles)."""
        lo = 0
        for a, b in skipped + [(trips, trips)]:
            yield from range(lo, min(a, trips))
            lo = max(lo, b)
    bad_tiles = []
    if exact:
        # Every tile is read as often as the input reads it (a guard or a
        # mask may leave a tile fewer tagged reads), or all of them in one
        # proportion below it (canonicalize/cse may merge two equal reads
        # of one tile, everywhere alike).
        ratios = collections.Counter(fractions.Fraction(m.reads[t], in_reads[t]) for t in counted()
                                     if in_reads[t])
        common = ratios.most_common(1)[0][0] if ratios else 1
        for t in counted():
            r, c, e = m.reads[t], m.computes[t], in_reads[t]
            if (r == 0) != (e == 0) or r > e or (e and fractions.Fraction(r, e) != common):
                bad_tiles.append((t, r, c))
            if len(bad_tiles) > 20:
                break
        common = common * reads_per_tile * runs
    else:
        # Every tile is read the same number of times, at least once and at most
        # as often as the input reads one (canonicalize/cse may merge two equal
        # reads of one tile, everywhere alike), times the runs of the K-loop
        # (an enclosing loop's trips: each run reads every tile).
        common = collections.Counter(m.reads[t] for t in counted()).most_common(1)
        common = common[0][0] if common else reads_per_tile * runs
        for t in counted():
            r, c = m.reads[t], m.computes[t]
            if r == 0 or r > reads_per_tile * runs or r != common:
                bad_tiles.append((t, r, c))
            if len(bad_tiles) > 20:
                break
    extra = [t for t in m.reads if not 0 <= t < trips]
    if bad_tiles:
        findings.append({"kind": "tile-count", "line": 0, "op": "", "message":
                         "K tiles read a wrong number of times (tile, shared reads, computes; each "
                         "tile is read %d times, computed %d in the input (per run of its K-loop, %d "
                         "run(s)), %d in the output): %s" % (reads_per_tile, computes_per_tile, runs, common,
                                                             bad_tiles[:8])})
    if extra:
        findings.append({"kind": "tile-count", "line": 0, "op": "", "message":
                         "reads of tiles outside the loop's %d tiles: %s" % (trips, sorted(extra)[:8])})
    if pm.mixed:
        # The input itself mixes tiles (e.g. a shared store under a guard:
        # a thread whose guard fails reads what an earlier iteration stored;
        # multi-buffering changes which tile that is): the output must read
        # the same mixtures as often.
        if skipped:
            raise Unknown("the input's shared reads mix bytes of two K tiles (a shared tile keeps an earlier "
                          "tile's data where a store is skipped) and the output's K-loop is too long to run whole")
        if m.mixed_tags != pm.mixed_tags:
            diff = sorted((k for k in set(m.mixed_tags) | set(pm.mixed_tags) if m.mixed_tags[k] != pm.mixed_tags[k]),
                          key=sorted)
            findings.append({"kind": "tile-count", "line": 0, "op": "", "message":
                             "shared reads mix tiles unlike the input's (tiles: output, input reads): %s" %
                             ", ".join("%s: %d, %d" % (sorted(k), m.mixed_tags[k], pm.mixed_tags[k])
                                       for k in diff[:6])})
    elif m.mixed:
        findings.append({"kind": "tile-count", "line": 0, "op": "", "message":
                         "%d shared reads mix bytes of two tiles" % m.mixed})
    if m.stray:
        # (the input ran every tile: these elements are read in none of
        # them: a copy whose guard, mask or source size was lost reads
        # what the input takes as zero)
        key, t, e = m.stray[0]
        findings.append({"kind": "stray-read", "line": 0, "op": "", "message":
                         "%d global read(s) of elements the input never reads, e.g. thread %d reads %s of %s "
                         "(a guard, mask or cp.async source size lost?)" % (len(m.stray), t, e, key)})
    if exact and not skipped and not pm.gwrites_unknown and not m.gwrites_unknown:
        # Both ran every iteration: the output stores every global element
        # as often as the input does (a stream written from the compute
        # phase: no row dropped, duplicated or moved).
        gin, gout = collections.Counter(), collections.Counter()
        for (key, e, _), c in pm.gwrites.items():
            gin[(key, e)] += c
        for (key, e, _), c in m.gwrites.items():
            gout[(key, e)] += c
        diff = sorted(set(k for k in gin.keys() | gout.keys() if gin[k] != gout[k]), key=str)
        if diff:
            findings.append({"kind": "global-writes", "line": 0, "op": "", "message":
                             "%d global element(s) stored a different number of times than the input "
                             "stores them (memref, element: output, input): %s" %
                             (len(diff), ", ".join("%s %s: %d, %d" % (k[0], k[1], gout[k], gin[k])
                                                   for k in diff[:4]))})
    return {"status": "wrong" if findings else "ok", "findings": findings, "trips": trips,
            "reads_per_tile": reads_per_tile, "computes_per_tile": computes_per_tile,
            "threads": T, "skipped_tiles": sum(b - a for a, b in skipped), "uninitialized_reads": m.uninit_reads,
            "kloop_runs": runs}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("output")
    ap.add_argument("--input", required=True)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--arg", action="append", default=[], metavar="I=V",
                    help="integer kernel argument I (no constant at a launch) is V, in input and output")
    ap.add_argument("--shape", action="append", default=[], metavar="I=D0xD1..",
                    help="the sizes of memref kernel argument I of a dynamic shape (all of them)")
    ap.add_argument("--load", action="append", default=[], metavar="I=V",
                    help="every integer memref.load of kernel argument I gives V (a K read at run time)")
    a = ap.parse_args()
    int_args, arg_shapes, arg_loads = {}, {}, {}
    for x in a.load:
        i, v = x.split("=")
        arg_loads[int(i)] = int(v, 0)
    for x in a.arg:
        i, v = x.split("=")
        int_args[int(i)] = int(v, 0)
    for x in a.shape:
        i, v = x.split("=")
        arg_shapes[int(i)] = [int(d) for d in v.split("x")]
    r = check_text(open(a.output).read(), open(a.input).read(), int_args, arg_shapes, arg_loads)
    if a.json:
        print(json.dumps(r))
    else:
        print("semcheck: %s%s" % (r["status"], (" (%s)" % r["reason"]) if r.get("reason") else ""))
        for f in r["findings"]:
            print("  %s: line %s %s: %s" % (f["kind"], f["line"], f["op"], f["message"]))
    return {"ok": 0, "wrong": 1, "unknown": 2}[r["status"]]


if __name__ == "__main__":
    sys.exit(main())
