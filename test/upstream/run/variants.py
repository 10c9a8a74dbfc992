#!/usr/bin/env python3
"""Builds, on the dev machine, every variant of the upstream kernels that the
GPU run compares (test/upstream/README.md, "GPU runs"):

  <name>__base      the kernel as generated, after pk's storage fix only
                    (pk-normalize-workgroup-storage): unpipelined
  <name>__pk        pk-opt --pipeline-kernel (arch = the lowering chip)
  <name>__pkcp      pk-opt --pipeline-kernel='variant=cp-async', for the
                    kernels where auto picks another variant and the forced
                    cp.async is worth measuring (FORCED_CP_ASYNC)
  <name>__upstream  upstream's own pipelining (kernels/<name>.upstream-
                    pipelined.mlir: memref.multibuffer +
                    nvgpu.pipeline_shared_memory_copies), after the same
                    storage fix, where upstream could pipeline the kernel

each followed by symbol-dce (after the recipe's vector lowering,
src/lower_vectors.mlir, for the kernels in LOWER_VECTORS: upstream's NVVM
pipeline lowers no vector.transfer op in a gpu.module), then prepare.py lowers them: PTX for sm_86 (the
driver JIT-compiles it on the H200) in OUT/sm_86, and PTX for sm_90 assembled
by ptxas into cubins in OUT/sm_90.

Usage: variants.py OUT [kernel ...]
Environment: PK_OPT (pk-opt), MLIR_OPT (mlir-opt-22), PTXAS (ptxas).
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(os.path.dirname(HERE), "kernels")
PK_OPT = os.environ.get("PK_OPT", "pk-opt")
MLIR_OPT = os.environ.get("MLIR_OPT") or shutil.which("mlir-opt-22") or "mlir-opt"
PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
DEFAULT = ["sgemm_f32_64x64x16_promote_global", "sgemm_f32_64x64x16_promote_alloc",
           "sgemm_f32_64x64x16_promote_alloca", "sgemm_f32_128x128x8_bufferize",
           "sgemm_f32_32x32x32_tb_bufferize", "hgemm_f16f32_64x64x64_nvgpu_global",
           "hgemm_f16f32_64x64x64_nvgpu_async_bufferize", "sgemm_f32_64x64x16_launch",
           "hgemm_f16_32x32x16_mmasync_rewrite", "sgemm_f32_64x64x16_vectorize_only"]
# Kernels generated without the recipe's step 6 (vectorize only).
LOWER_VECTORS = {"sgemm_f32_64x64x16_vectorize_only"}
# Auto picks ldg-register for its 8-byte copies (rule narrow-cp-async, measured
# on 4-byte copies only): measure 8-byte cp.async (.ca) against it.
# Empty since rule narrow-cp-async sends only 4-byte copies to ldg-register:
# mmasync_rewrite (8-byte copies), measured here as __pkcp, is cp-async now.
FORCED_CP_ASYNC = set()


def pipe(cmds, inp):
    for cmd in cmds:
        p = subprocess.run(cmd, input=inp, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("%s: %s" % (" ".join(cmd), p.stderr[-500:]))
        inp = p.stdout
    return inp


def variants(name, chip):
    src = open(os.path.join(KERNELS, name + ".mlir")).read()
    dce = [MLIR_OPT, "-", "--symbol-dce"]
    if name in LOWER_VECTORS:
        library = os.path.join(os.path.dirname(HERE), "src", "lower_vectors.mlir")
        dce[2:2] = ["--transform-preload-library=transform-library-paths=" + library,
                    "--transform-interpreter"]
    out = {"base": pipe([[PK_OPT, "-", "--pk-normalize-workgroup-storage"], dce], src),
           "pk": pipe([[PK_OPT, "-", "--pipeline-kernel=arch=%s" % chip], dce], src)}
    if name in FORCED_CP_ASYNC:
        out["pkcp"] = pipe([[PK_OPT, "-", "--pipeline-kernel=arch=%s variant=cp-async" % chip],
                            dce], src)
    upstream = os.path.join(KERNELS, name + ".upstream-pipelined.mlir")
    if os.path.exists(upstream):
        out["upstream"] = pipe([[PK_OPT, "-", "--pk-normalize-workgroup-storage"], dce],
                               open(upstream).read())
    return out


def main():
    out = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or DEFAULT
    for chip in ("sm_86", "sm_90"):
        src_dir = os.path.join(out, "src_" + chip)
        os.makedirs(src_dir, exist_ok=True)
        files = []
        for name in names:
            for kind, text in variants(name, chip).items():
                path = os.path.join(src_dir, "%s__%s.mlir" % (name, kind))
                open(path, "w").write(text)
                files.append(path)
        art = os.path.join(out, chip)
        env = dict(os.environ, LOWER_CHIP=chip, MLIR_OPT=MLIR_OPT)
        subprocess.run([sys.executable, os.path.join(HERE, "prepare.py"), art] + files,
                       check=True, env=env)
        if chip != "sm_90":
            continue
        manifest_path = os.path.join(art, "manifest.json")
        manifest = json.load(open(manifest_path))
        for e in manifest:
            cubin = e["ptx"][:-4] + ".cubin"
            subprocess.run([PTXAS, "-arch=sm_90", "-O3", os.path.join(art, e["ptx"]),
                            "-o", os.path.join(art, cubin)], check=True)
            e["cubin"] = cubin
        json.dump(manifest, open(manifest_path, "w"), indent=1)


if __name__ == "__main__":
    main()
