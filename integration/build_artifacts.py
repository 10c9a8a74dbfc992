#!/usr/bin/env python3
"""Build the artefacts of the main integration benchmark (dev machine: pk-opt,
LLVM 22's mlir-opt, the CUDA toolkit; no GPU) into an artefact directory
(integration/pkint.py, format pk-artifacts/1):

  integration/build_artifacts.sh [OUT]        (default: integration/artifacts)

For each kernel (hgemm, igemm, sgemm), size (512^3 generated with
examples/gen_gemm.py, 4096^3 = the checked-in examples) and variant (baseline =
the unpipelined input, cp-async, ldg-register, register-prefetch):

  sm_90  cubin: pk-opt's own emission (`--pipeline-kernel='arch=sm_90
         variant=<v> emit=cubin out-dir=... bare-ptr=1'`, `--pk-emit-binaries`
         for the baseline) writes the PTX (kept as bin/<id>.ptx) and pk's
         ptxas numbers (the manifest's "ptxas"); the cubin is that PTX
         assembled with `ptxas -arch=sm_90 -O3` (without -v, as
         gpu-module-to-binary format=bin does: -v writes other bytes).
  sm_86  PTX (JIT-compiled by the driver on the GPU): `pk-opt
         --pipeline-kernel='arch=sm_86 variant=<v>'`, then mlir-opt with
         pkint's lowering pipeline at PTX ISA 8.0 (pk's emission says 7.8 for
         sm_86); `ptxas -v` for sm_86 and, as an estimate of the driver's JIT,
         for sm_90 ("ptxas_sm90_from_ptx").

Writes OUT/bin/<id>.{cubin,ptx}, OUT/logs/, OUT/manifest.json; other things in
OUT (stages/, tuning/) are left alone. Environment: PK_OPT, MLIR_OPT,
CUDA_HOME, KINDS, SIZES, VARIANTS (space-separated lists).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pkint  # noqa: E402

# kind -> K tile / kernel name (must match examples/*.mlir)
BK = {"hgemm": 32, "igemm": 64, "sgemm": 8}
NAME = {"hgemm": "hgemm_f16_128x128x32", "igemm": "igemm_i8_128x128x64", "sgemm": "sgemm_f32_128x128x8"}
BM = BN = 128
THREADS = 256


def source(kind, size, work):
    src = os.path.join(work, "%s_%d.mlir" % (kind, size))
    if size == 4096:
        shutil.copyfile(os.path.join(pkint.ROOT, "examples", NAME[kind] + ".mlir"), src)
    else:
        subprocess.check_call([sys.executable, os.path.join(pkint.ROOT, "examples", "gen_gemm.py"),
                               "--kind", kind, "--M", str(size), "--N", str(size), "--K", str(size),
                               "--BM", str(BM), "--BN", str(BN), "--BK", str(BK[kind]),
                               "--threads", str(THREADS), "--smem", "attribution", "-o", src])
    return src


def check_pipelined(log, stem, variant):
    text = open(log).read()
    if "remark: pipelined: variant %s" % variant not in text:
        raise pkint.BuildError("pk-opt did not pipeline %s (see %s)" % (stem, log))
    m = re.search(r"auto would pick ([a-z-]+)", text)
    return m.group(1) if m else None


def check_kernel(path, kernel):
    data = open(path, "rb").read()
    if (b".entry " if path.endswith(".ptx") else b"") + kernel.encode() not in data:
        raise pkint.BuildError("%s: kernel %s not in it" % (path, kernel))


def build(out, kinds, sizes, variants):
    pk, mlir, cuda = pkint.pk_opt(), pkint.mlir_opt(), pkint.cuda_home()
    pkint.require(pk, mlir, pkint.ptxas(cuda))
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    for d in ("bin", "logs"):
        shutil.rmtree(os.path.join(out, d), ignore_errors=True)
        os.makedirs(os.path.join(out, d))
    if os.path.exists(os.path.join(out, "manifest.json")):
        os.remove(os.path.join(out, "manifest.json"))
    logs = os.path.join(out, "logs")
    man = pkint.new_manifest(
        "integration/build_artifacts.py", pk_opt=pk, pk_opt_sha256=pkint.sha256(pk),
        pk_options="--pipeline-kernel='arch=<arch> variant=<variant>' (arch = the lowering target)",
        lowering=dict(
            sm_90="pk-opt emit=cubin bare-ptr=1 (--pk-emit-binaries for the baseline): PTX and ptxas "
                  "numbers; cubin = ptxas -arch=sm_90 -O3 on that PTX",
            sm_86="mlir-opt --pass-pipeline='%s' (format=isa)" % pkint.lowering_pipeline("sm_86", cuda="$CUDA_HOME")),
        bm=BM, bn=BN, threads=THREADS, smem=0)
    with tempfile.TemporaryDirectory(prefix="pk-artifacts.") as work:
        for kind in kinds:
            kernel = NAME[kind]
            for size in sizes:
                src = source(kind, size, work)
                for variant in variants:
                    for arch in ("sm_90", "sm_86"):
                        stem = "%s_%d_%s_%s" % (kind, size, variant, arch)
                        opts = None if variant == "baseline" else "variant=%s" % variant
                        pklog = os.path.join(logs, stem + ".pk-opt.log")
                        e = dict(id=stem, kind=kind, size=size, m=size, n=size, k=size, variant=variant,
                                 arch=arch, kernel=kernel, bk=BK[kind])
                        if arch == "sm_90":
                            em = pkint.pk_emit(src, arch, os.path.join(work, stem), opts, log=pklog, pk=pk, cuda=cuda)
                            if em["rc"] or not em["ptx"] or not em["ptxas"]:
                                raise pkint.BuildError("pk-opt failed: %s (see %s)" % (stem, pklog))
                            ptx = os.path.join(out, "bin", stem + ".ptx")
                            shutil.copyfile(em["ptx"], ptx)
                            cubin = os.path.join(out, "bin", stem + ".cubin")
                            pkint.assemble(ptx, arch, cubin, cuda=cuda)
                            check_kernel(ptx, kernel)
                            check_kernel(cubin, kernel)
                            e.update(format="cubin", file="bin/%s.cubin" % stem, ptx="bin/%s.ptx" % stem,
                                     ptxas=em["ptxas"])
                        else:
                            inp = src
                            if opts:
                                inp = os.path.join(work, stem + ".pk.mlir")
                                p = subprocess.run([pk, "--pipeline-kernel=arch=%s %s" % (arch, opts), src,
                                                    "-o", inp], capture_output=True, text=True)
                                open(pklog, "w").write(p.stdout + p.stderr)
                                if p.returncode:
                                    raise pkint.BuildError("pk-opt failed: %s (see %s)" % (stem, pklog))
                            ptx = os.path.join(out, "bin", stem + ".ptx")
                            pkint.mlir_lower(inp, arch, "isa", ptx, kernel, ptx=80, cuda=cuda, mlir=mlir)
                            st = pkint.ptxas_stats(ptx, arch, os.path.join(logs, stem + ".ptxas.log"), cuda)
                            jit = pkint.ptxas_stats(ptx, "sm_90", os.path.join(logs, stem + ".ptxas-sm_90.log"), cuda)
                            st = dict(st, arch=arch)
                            st.pop("kernel", None)
                            jit.pop("kernel", None)
                            e.update(format="ptx", file="bin/%s.ptx" % stem, ptxas=st, ptxas_sm90_from_ptx=jit)
                        if opts:
                            pick = check_pipelined(pklog, stem, variant)
                            if pick:
                                e["pk_auto_would_pick"] = pick
                        man["entries"].append(e)
                        s = e["ptxas"]
                        print("built %s (regs %s, spills %s/%s, smem %s)" % (
                            stem, s["registers"], s["spill_stores_bytes"], s["spill_loads_bytes"],
                            s["shared_bytes"]), flush=True)
    pkint.write_manifest(out, man)
    print("manifest: %d entries -> %s" % (len(man["entries"]), os.path.join(out, "manifest.json")))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=os.path.join(pkint.HERE, "artifacts"))
    ap.add_argument("--kinds", default=os.environ.get("KINDS", "hgemm igemm sgemm"))
    ap.add_argument("--sizes", default=os.environ.get("SIZES", "512 4096"))
    ap.add_argument("--variants", default=os.environ.get("VARIANTS", "baseline cp-async ldg-register register-prefetch"))
    a = ap.parse_args()
    try:
        return build(a.out, a.kinds.split(), [int(s) for s in a.sizes.split()], a.variants.split())
    except (pkint.BuildError, subprocess.CalledProcessError) as ex:
        print("build_artifacts: %s" % ex, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
