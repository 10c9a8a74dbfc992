#!/usr/bin/env python3
"""Describes the kernels of test/upstream/kernels/ (the facts of README.md).

For each kernel file: the K-loop (the scf.for in the kernel with gpu.barrier
directly in its body), its barriers, the shared buffers and how they are
allocated, the index arithmetic, the copy and compute forms, where the
accumulator lives; whether upstream's

    mlir-opt-22 --gpu-lower-to-nvvm-pipeline='cubin-chip=sm_86 cubin-features=+ptx80 cubin-format=isa'

lowers it, and what the PTX holds (.shared arrays, malloc, __local_depot);
and what pk says:

    pk-opt --pk-analyze-kloops='arch=sm_86' kernel.mlir
    pk-opt --pipeline-kernel='arch=sm_86' kernel.mlir

Usage: survey.py [--markdown] [kernel.mlir ...]   (default: every kernels/*.mlir)
Environment: MLIR_OPT (default mlir-opt-22), PK_OPT (default <repo>/build/bin/pk-opt,
else pk-opt on PATH), SURVEY_PTX_DIR (keep the PTX files there).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MLIR_OPT = os.environ.get("MLIR_OPT") or shutil.which("mlir-opt-22") or "/usr/lib/llvm-22/bin/mlir-opt"
PK_OPT = os.environ.get("PK_OPT") or (
    os.path.join(REPO, "build/bin/pk-opt")
    if os.path.exists(os.path.join(REPO, "build/bin/pk-opt")) else (shutil.which("pk-opt") or "pk-opt"))
LOWER = "--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_86 cubin-features=+ptx80 cubin-format=isa"

OP_RE = re.compile(r"^\s*(?:%[\w#:]+(?:, %[\w#:]+)* = )?([a-z_]+\.[a-z_.]+)")


def depth_delta(line):
    # Attribute dictionaries and maps balance on their line; regions do not.
    return line.count("{") - line.count("}")


def kernel_body(lines):
    """(start, end) line indices of the kernel body: gpu.func ... kernel, else gpu.launch."""
    for pat in (r"gpu\.func @\S+\(.*\bkernel\b", r"\bgpu\.launch blocks"):
        for i, l in enumerate(lines):
            if re.search(pat, l):
                d = 0
                for j in range(i, len(lines)):
                    d += depth_delta(lines[j])
                    if d == 0 and j > i:
                        return i, j
                return i, len(lines) - 1
    return None


def region(lines, start):
    """End line index of the region opened on line `start`."""
    d = 0
    for j in range(start, len(lines)):
        d += depth_delta(lines[j])
        if d == 0 and j > start:
            return j
    return len(lines) - 1


def direct_ops(lines, start, end):
    """Op names of the lines directly in the region [start, end]."""
    out, d = [], 0
    for j in range(start, end + 1):
        if j > start and d == 1:
            m = OP_RE.match(lines[j])
            if m:
                out.append((j, m.group(1)))
        d += depth_delta(lines[j])
    return out


def kloop(lines, kb):
    s, e = kb
    fors = [i for i in range(s, e) if re.search(r"\bscf\.for\b", lines[i])]
    for i in fors:
        if any(op == "gpu.barrier" for _, op in direct_ops(lines, i, region(lines, i))):
            return i, region(lines, i)
    if fors:
        return fors[0], region(lines, fors[0])
    return None


def count(pattern, text):
    return len(re.findall(pattern, text))


def describe_ir(path):
    text = open(path).read()
    lines = text.splitlines()
    info = {}
    kb = kernel_body(lines)
    info["form"] = "gpu.func (outlined)" if kb and "gpu.func" in lines[kb[0]] else "gpu.launch"
    if not kb:
        info["error"] = "no kernel"
        return info
    kern = "\n".join(lines[kb[0]:kb[1] + 1])
    m = re.search(r"known_block_size = array<i32: (\d+), (\d+), (\d+)>", kern)
    if m:
        info["block"] = "x".join(m.groups())
    else:
        m = re.search(r"threads\(.*\) in \(%\w+ = %c(\d+), %\w+ = %c(\d+), %\w+ = %c(\d+)\)", kern)
        info["block"] = "x".join(m.groups()) if m else "?"
    kl = kloop(lines, kb)
    if kl:
        ls, le = kl
        loop = "\n".join(lines[ls:le + 1])
        ops = direct_ops(lines, ls, le)
        info["kloop_line"] = ls + 1
        info["barriers_in_loop"] = sum(1 for _, o in ops if o == "gpu.barrier")
        info["nested_regions_in_loop"] = sorted({o for j, o in ops if depth_delta(lines[j]) > 0})
        m = re.search(r"iter_args\((.*?)\) -> \((.*)\) \{\s*$", lines[ls])
        if m:
            types = [t.strip() for t in re.split(r",\s*(?![^<]*>)", m.group(2))]
            info["iter_args"] = types
        else:
            info["iter_args"] = []
        info["loop_ops"] = {}
        for name in ["vector.transfer_read", "vector.transfer_write", "vector.load", "vector.store",
                     "memref.load", "memref.store", "nvgpu.device_async_copy",
                     "nvgpu.device_async_create_group", "nvgpu.device_async_wait", "nvgpu.ldmatrix",
                     "nvgpu.mma.sync", "vector.fma", "vector.contract", "vector.outerproduct",
                     "affine.apply", "memref.subview", "memref.view", "memref.alloc", "memref.alloca",
                     "memref.dealloc", "memref.get_global"]:
            c = count(r"\b" + re.escape(name) + r"\b", loop)
            if c:
                info["loop_ops"][name] = c
        arith_idx = count(r"arith\.(?:muli|addi|subi|divui|divsi|remui|remsi|floordivsi|ceildivsi)\b[^\n]*: index", loop)
        if arith_idx:
            info["loop_ops"]["arith index ops"] = arith_idx
        unit = sorted(set(re.findall(r"vector<1x[0-9x]*\w+>", loop)))
        info["unit_dim_vectors"] = unit
        info["barriers_outside_loop"] = count(r"gpu\.barrier", kern) - count(r"gpu\.barrier", loop)
    # Shared buffers.
    shared = []
    for m in re.finditer(r"memref\.global \"private\" @(\w+) : (memref<[^>]*workgroup>>)(.*)", text):
        shared.append("memref.global @%s %s" % (m.group(1), m.group(2)))
    for m in re.finditer(r"(memref\.alloca?)\(\)( \{[^}]*\})? : (memref<[^>]*workgroup>>)", kern):
        shared.append("%s %s" % (m.group(1), m.group(3)))
    m = re.search(r"workgroup\((.*?)\)\s*(?:private|kernel)", kern)
    if m:
        shared.append("workgroup attribution " + m.group(1))
    info["shared"] = sorted(set(shared))
    info["views"] = count(r"memref\.view", kern)
    info["deallocs"] = count(r"memref\.dealloc", kern)
    if kl:
        info["allocs_in_loop"] = count(r"memref\.alloca?\(", "\n".join(lines[kl[0]:kl[1] + 1]))
    return info


def run(cmd, timeout=600):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def ptx_of(lowered):
    out = []
    for m in re.finditer(r'assembly = "((?:[^"\\]|\\.)*)"', lowered):
        t = re.sub(r"\\([0-9A-Fa-f]{2})", lambda x: chr(int(x.group(1), 16)), m.group(1))
        out.append(t)
    return "\n".join(out)


def describe_lowering(path, ptx_dir):
    rc, out, err = run([MLIR_OPT, path, LOWER])
    res = {"lowers": rc == 0}
    if rc != 0:
        first = [l for l in err.splitlines() if "error:" in l]
        res["error"] = re.sub(r"^.*?error: ", "error: ", first[0]) if first else err.strip()[:300]
        return res
    ptx = ptx_of(out)
    if ptx_dir:
        with open(os.path.join(ptx_dir, os.path.basename(path)[:-5] + ".sm_86.ptx"), "w") as f:
            f.write(ptx)
    res["shared_decls"] = re.findall(r"\.shared \.align \d+ \.b8 \w+\[\d+\]", ptx)
    res["malloc"] = count(r"call\.uni \(retval0\), malloc", ptx)
    res["free"] = count(r"call\.uni\s+free", ptx)
    res["local_depot"] = re.findall(r"__local_depot\d+\[\d+\]", ptx)
    res["cvta_to_shared"] = count(r"cvta\.to\.shared", ptx)
    res["cvta_shared"] = count(r"cvta\.shared\.u64", ptx)
    res["ld_shared"] = count(r"\bld\.shared", ptx)
    res["st_shared"] = count(r"\bst\.shared", ptx)
    res["cp_async"] = count(r"cp\.async\.(?:cg|ca)", ptx)
    res["ldmatrix"] = count(r"ldmatrix", ptx)
    res["mma"] = count(r"\bmma\.sync", ptx)
    res["bar_sync"] = count(r"\bbar\.sync|barrier\.sync", ptx)
    return res


def pk_says(path):
    res = {}
    for key, flag in (("analyze", "--pk-analyze-kloops=arch=sm_86"),
                      ("pipeline", "--pipeline-kernel=arch=sm_86")):
        rc, out, err = run([PK_OPT, flag, path, "-o", os.devnull])
        msgs = [re.sub(r"^.*?: (remark|error|warning): ", r"\1: ", l)
                for l in err.splitlines() if re.search(r": (remark|error|warning): ", l)]
        res[key] = (rc, msgs)
    return res


def main():
    args = sys.argv[1:]
    md = False
    if args and args[0] == "--markdown":
        md, args = True, args[1:]
    files = args or sorted(glob.glob(os.path.join(HERE, "kernels", "*.mlir")))
    ptx_dir = os.environ.get("SURVEY_PTX_DIR")
    if ptx_dir:
        os.makedirs(ptx_dir, exist_ok=True)
    print("mlir-opt: %s\npk-opt: %s\n" % (MLIR_OPT, PK_OPT))
    for f in files:
        name = os.path.basename(f)[:-5]
        ir = describe_ir(f)
        low = describe_lowering(f, ptx_dir)
        pk = pk_says(f)
        h = "### " if md else "== "
        print(h + name)
        for k, v in ir.items():
            print("  %s: %s" % (k, v))
        for k, v in low.items():
            print("  lowering.%s: %s" % (k, v))
        for k, (rc, msgs) in pk.items():
            print("  pk.%s: rc=%d" % (k, rc))
            for m in msgs:
                print("    " + m)
        print()


if __name__ == "__main__":
    main()
