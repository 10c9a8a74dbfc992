#!/usr/bin/env python3
"""Build the artefacts of the 2026-11-29 HGEMM/IGEMM tuning study (dev machine:
pk-opt, the CUDA toolkit; no GPU) into an artefact directory
(integration/pkint.py, format pk-artifacts/1), for run_tuning.sh:

  python3 integration/results/2026-11-29-h200-hgemm-tuning/build_tuning.py [OUT]
      (default integration/artifacts/tuning, git-ignored; SIZES_SMALL=512 in the
      environment, or --sizes-small 512, adds the 512^3 builds)

Every configuration in CONFIGS (examples/gen_gemm.py flags) is built as the
unpipelined baseline (`pk-opt --pk-emit-binaries`) and pipelined by
`pk-opt --pipeline-kernel='arch=sm_90 variant=cp-async|ldg-register emit=cubin
out-dir=... bare-ptr=1'`: pk's lowering to sm_90 (PTX ISA 8.0, O=3, bare
pointers) and `ptxas -arch=sm_90 -O3 -v` (the study's cubins were made exactly
so). Plus two timing-only diagnostics (`*_hotk`: every K-iteration loads the k=0
tile) and the hand-written WMMA reference integration/reference/hgemm_wmma_ref.cu
(nvcc). Writes OUT/bin/*.cubin, OUT/src/, OUT/logs/, OUT/sass/ (cuobjdump, when
found) and OUT/manifest.json.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "integration"))
import pkint  # noqa: E402

ARCH = "sm_90"
NAME = {"hgemm": "hgemm_f16_128x128x32", "igemm": "igemm_i8_128x128x64"}
OLD = "--copy-map col8 --layout pad --no-readonly-inputs --min-blocks 0 --outer-unroll"  # = the examples before tuning
ALL = "baseline cp-async ldg-register"
# label|kind|gen flags|variants|small sizes too (y/n)
CONFIGS = [
    "h_old|hgemm|%s|%s|n" % (OLD, ALL),
    "h_old_ro|hgemm|--copy-map col8 --layout pad --readonly-inputs --min-blocks 2 --outer-unroll|%s|n" % ALL,
    "h_row_pad|hgemm|--copy-map row --layout pad --no-readonly-inputs --min-blocks 0 --outer-unroll|%s|n" % ALL,
    "h_row_pad_ro|hgemm|--copy-map row --layout pad --readonly-inputs --min-blocks 2 --outer-unroll|%s|y" % ALL,
    "h_row_swz|hgemm|--copy-map row --layout swizzle --no-readonly-inputs --min-blocks 0 --outer-unroll|%s|y" % ALL,
    "h_row_swz_ro|hgemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --outer-unroll|%s|y" % ALL,
    "h_row_swz_nu|hgemm|--copy-map row --layout swizzle --no-readonly-inputs --min-blocks 0 --no-outer-unroll|baseline|n",
    "h_row_swz_ro_nu|hgemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --no-outer-unroll|baseline|y",
    "h_row_swz_ro_w4x2|hgemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --warps-m 4 --outer-unroll|%s|y" % ALL,
    "i_old|igemm|%s|%s|n" % (OLD, ALL),
    "i_row_swz_ro|igemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --outer-unroll|%s|y" % ALL,
    "i_row_swz_ro_nu|igemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --no-outer-unroll|baseline|n",
]
# the diagnostic's edit of the generated kernel: every K-iteration reads the k=0 tile
HOTK = ("%k_col = arith.addi %k, %ld_col : index", "%k_col = arith.addi %c0, %ld_col : index")


class Builder:
    def __init__(self, out):
        self.out = out
        self.man = pkint.new_manifest(
            "integration/results/2026-11-29-h200-hgemm-tuning/build_tuning.py", pk_opt=pkint.pk_opt(),
            lowering="pk-opt emit=cubin bare-ptr=1 (--pk-emit-binaries for baselines): pk's lowering, "
                     "ptxas -arch=sm_90 -O3 -v", arch=ARCH,
            bm=128, bn=128, threads=256, smem=0)
        self.work = tempfile.mkdtemp(prefix="pk-tuning.")
        self.cuobjdump = pkint.cuobjdump()

    def add(self, ident, kind, size, cubin, kernel, registers, **extra):
        e = dict(id=ident, kind=kind, m=size, n=size, k=size, size=size, format="cubin",
                 file=os.path.relpath(cubin, self.out), kernel=kernel, registers=registers, **extra)
        self.man["entries"].append(e)
        if self.cuobjdump:
            p = subprocess.run([self.cuobjdump, "--dump-sass", cubin], capture_output=True, text=True)
            open(os.path.join(self.out, "sass", ident + ".sass"), "w").write(p.stdout)
        print("built %s (regs %s)" % (ident, "-" if registers is None else registers), flush=True)

    def emit(self, stem, src, variant):
        """pk-opt emission of one kernel -> bin/<stem>.cubin; its registers."""
        log = os.path.join(self.out, "logs", stem + ".pk-opt.log")
        pipelined = variant != "baseline"
        em = pkint.pk_emit(src, ARCH, os.path.join(self.work, stem), "variant=%s" % variant if pipelined else None,
                           log=log, mlir_out=os.path.join(self.out, "src", stem + ".pk.mlir") if pipelined else None)
        if em["rc"] or not em["cubin"]:
            raise pkint.BuildError("pk-opt failed on %s (see %s)" % (stem, log))
        if pipelined and "remark: pipelined: variant %s" % variant not in em["stderr"]:
            raise pkint.BuildError("not pipelined: %s" % stem)
        cubin = os.path.join(self.out, "bin", stem + ".cubin")
        shutil.copyfile(em["cubin"], cubin)
        return cubin, (em["ptxas"] or {}).get("registers")

    def config(self, label, kind, size, flags, variants):
        src = os.path.join(self.out, "src", "%s.%d.mlir" % (label, size))
        subprocess.check_call([sys.executable, os.path.join(ROOT, "examples", "gen_gemm.py"), "--kind", kind,
                               "--M", str(size), "--N", str(size), "--K", str(size)] + flags.split() + ["-o", src])
        for v in variants.split():
            stem = "%s_%s_%d" % (label, v, size)
            cubin, regs = self.emit(stem, src, v)
            self.add(stem, kind, size, cubin, NAME[kind], regs, config=label, variant=v)

    def hotk(self, label):
        src = os.path.join(self.out, "src", "%s.4096.mlir" % label)
        d = os.path.join(self.out, "src", "%s_hotk.4096.mlir" % label)
        text = open(src).read()
        if HOTK[0] not in text:
            raise pkint.BuildError("%s: no %r to edit" % (src, HOTK[0]))
        open(d, "w").write(text.replace(HOTK[0], HOTK[1]))
        stem = "%s_hotk_baseline_4096" % label
        cubin, regs = self.emit(stem, d, "baseline")
        # timing only: the results are wrong by construction
        self.add(stem, "hgemm", 4096, cubin, NAME["hgemm"], regs, config=label + "_hotk", variant="baseline",
                 check="none", diagnostic="hotk")

    def reference(self):
        cubin = os.path.join(self.out, "bin", "ref_wmma.cubin")
        log = os.path.join(self.out, "logs", "ref_wmma.ptxas.log")
        p = subprocess.run([os.path.join(pkint.cuda_home(), "bin", "nvcc"), "-arch=sm_90", "-O3", "-cubin",
                            "-Xptxas", "-v", os.path.join(ROOT, "integration", "reference", "hgemm_wmma_ref.cu"),
                            "-o", cubin], capture_output=True, text=True)
        open(log, "w").write(p.stderr)
        if p.returncode:
            raise pkint.BuildError("nvcc failed on the reference (see %s)" % log)
        regs = {k["kernel"]: k["registers"] for k in pkint.parse_ptxas(p.stderr)}
        for k in ("base", "ldg", "cpa"):
            self.man["entries"].append(dict(id="ref_wmma_" + k, kind="hgemm", m=4096, n=4096, k=4096, size=4096,
                                            format="cubin", file="bin/ref_wmma.cubin", kernel="hgemm_wmma_" + k,
                                            registers=regs.get("hgemm_wmma_" + k), config="ref_wmma"))
        if self.cuobjdump:
            p = subprocess.run([self.cuobjdump, "--dump-sass", cubin], capture_output=True, text=True)
            open(os.path.join(self.out, "sass", "ref_wmma.sass"), "w").write(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=os.path.join(ROOT, "integration", "artifacts", "tuning"))
    ap.add_argument("--sizes-small", default=os.environ.get("SIZES_SMALL", ""),
                    help="e.g. 512: also build these sizes of the configurations marked y")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    pkint.require(pkint.pk_opt(), pkint.ptxas())
    shutil.rmtree(out, ignore_errors=True)
    for d in ("bin", "src", "logs", "sass"):
        os.makedirs(os.path.join(out, d))
    b = Builder(out)
    try:
        for c in CONFIGS:
            label, kind, flags, variants, small = c.split("|")
            b.config(label, kind, 4096, flags, variants)
            if small == "y":
                for s in a.sizes_small.split():
                    b.config(label, kind, int(s), flags, variants)
        for label in ("h_old", "h_row_swz"):
            b.hotk(label)
        b.reference()
    except (pkint.BuildError, subprocess.CalledProcessError) as ex:
        print("build_tuning: %s" % ex, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(b.work, ignore_errors=True)
    pkint.write_manifest(out, b.man)
    print("manifest: %d entries -> %s" % (len(b.man["entries"]), os.path.join(out, "manifest.json")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
