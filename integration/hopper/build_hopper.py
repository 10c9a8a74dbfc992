#!/usr/bin/env python3
"""Build the Hopper (sm_90a) check of issue 14 (docs/hopper.md): the wgmma
HGEMM of examples/gen_gemm.py (--mma wgmma, NN layout, one warpgroup,
128x128x64) unpipelined, at 512^3 (full check) and 4096^3 (timing), lowered by
pk's own emission (`--pk-emit-binaries='arch=sm_90a bare-ptr=1'`; the
pipelined variants are build_hopper2.py's); plus pk's
best mma.sync HGEMM (cp-async, 4 stages, sm_90) at the same sizes as the
reference point. Writes a pk-artifacts/1 directory (integration/pkint.py) that
integration/hopper/run_hopper.sh runs on the GPU machine.

    python3 integration/hopper/build_hopper.py [OUT]     (default .gpu/hopper)
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import pkint  # noqa: E402

WGMMA = "hgemm_wgmma_f16_128x128x64"
# pk's warning on a wgmma loop without fence.proxy.async after its stores.
RACE_WARNING = "warning: the kernel races"
MMASYNC = "hgemm_f16_128x128x32"
# id stem -> (kernel, generator arguments, pk --pipeline-kernel options, arch, entry fields)
KERNELS = [
    ("wgmma_baseline", WGMMA, ["--kind", "hgemm", "--mma", "wgmma"], None, "sm_90a",
     dict(variant="baseline", b_layout="kn", threads=128, bk=64)),
    ("mmasync_cp-async-s4", MMASYNC, ["--kind", "hgemm"], "variant=cp-async stages=4", "sm_90",
     dict(variant="cp-async-s4", threads=256, bk=32)),
]


def build_entry(out, work, ident, kernel, gen_args, options, arch, fields, mnk, pk, cuda, expect=None,
                allow_race=False):
    """Generate, lower (pk-opt) and assemble one kernel at M x N x K = mnk into
    out/bin; returns its manifest entry. expect: the remark pk's log must hold
    (default: the wgmma decline for the baseline, "pipelined:" otherwise);
    pk's race warning (a wgmma without the proxy fence) fails the build
    unless allow_race."""
    m, n, k = mnk
    src = os.path.join(work, ident + ".mlir")
    subprocess.check_call([sys.executable, os.path.join(pkint.ROOT, "examples", "gen_gemm.py")]
                          + gen_args + ["--M", str(m), "--N", str(n), "--K", str(k), "-o", src])
    log = os.path.join(out, "logs", ident + ".pk-opt.log")
    out_mlir = os.path.join(work, ident + ".pk.mlir")
    em = pkint.pk_emit(src, arch, os.path.join(work, ident), options, log=log, pk=pk, cuda=cuda,
                       mlir_out=out_mlir)
    if em["rc"] or not em["ptx"] or not em["ptxas"]:
        raise pkint.BuildError("pk-opt failed: %s (see %s)" % (ident, log))
    if expect is None:
        # the unpipelined baseline is pk-emit-binaries' (options None)
        expect = "remark: ptxas" if options is None else "remark: pipelined:"
    text = open(log).read()
    if expect not in text:
        raise pkint.BuildError("%s: no %r in pk's remarks (see %s)" % (ident, expect, log))
    # A wgmma kernel without fence.proxy.async after its st.shared races
    # (docs/hopper.md): only the bundles that reproduce the bug may build one.
    if RACE_WARNING in text and not allow_race:
        raise pkint.BuildError("%s: pk warns that the kernel races (see %s)" % (ident, log))
    ptx = os.path.join(out, "bin", ident + ".ptx")
    shutil.copyfile(em["ptx"], ptx)
    cubin = os.path.join(out, "bin", ident + ".cubin")
    pkint.assemble(ptx, arch, cubin, cuda=cuda)
    # pk moves the tiles to dynamic shared memory above 48 KB; the
    # launch must ask for that much.
    sm = re.search(r"pk\.dynamic_shared_memory_bytes\s*=\s*(\d+)", open(out_mlir).read())
    e = dict(id=ident, kind="hgemm", size=m, m=m, n=n, k=k, arch=arch, kernel=kernel,
             format="cubin", file="bin/%s.cubin" % ident, ptx="bin/%s.ptx" % ident,
             ptxas=em["ptxas"], smem=int(sm.group(1)) if sm else 0, **fields)
    s = e["ptxas"]
    print("built %s (regs %s, spills %s/%s, smem %s)" % (
        ident, s["registers"], s["spill_stores_bytes"], s["spill_loads_bytes"], s["shared_bytes"]),
        flush=True)
    return e


def new_bundle(out, tool):
    """An empty pk-artifacts/1 directory out (bin/, logs/) and its manifest."""
    pk = pkint.pk_opt()
    for d in ("bin", "logs"):
        shutil.rmtree(os.path.join(out, d), ignore_errors=True)
        os.makedirs(os.path.join(out, d))
    return pkint.new_manifest(
        tool, pk_opt=pk, pk_opt_sha256=pkint.sha256(pk),
        lowering="pk-opt --pipeline-kernel='arch=<arch> <options> emit=cubin bare-ptr=1' (PTX, ptxas "
                 "numbers); cubin = ptxas -arch=<arch> -O3 on that PTX",
        bm=128, bn=128, smem=0)


def build(out, sizes):
    pk, cuda = pkint.pk_opt(), pkint.cuda_home()
    pkint.require(pk, pkint.ptxas(cuda))
    out = os.path.abspath(out)
    man = new_bundle(out, "integration/hopper/build_hopper.py")
    with tempfile.TemporaryDirectory(prefix="pk-hopper.") as work:
        for stem, kernel, gen_args, options, arch, fields in KERNELS:
            for size in sizes:
                ident = "%s_%d_%s" % (stem, size, arch)
                man["entries"].append(build_entry(out, work, ident, kernel, gen_args, options, arch, fields,
                                                  (size, size, size), pk, cuda))
    pkint.write_manifest(out, man)
    print("manifest: %d entries -> %s" % (len(man["entries"]), os.path.join(out, "manifest.json")))
    return 0


def cli(doc, name, default_out, build_fn):
    """The command line both bundle scripts share: OUT [--sizes]."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=os.path.join(pkint.ROOT, ".gpu", default_out))
    ap.add_argument("--sizes", default="512 4096")
    a = ap.parse_args()
    try:
        return build_fn(a.out, [int(s) for s in a.sizes.split()])
    except (pkint.BuildError, subprocess.CalledProcessError) as ex:
        print("%s: %s" % (name, ex), file=sys.stderr)
        return 1


def main():
    return cli(__doc__, "build_hopper", "hopper", build)


if __name__ == "__main__":
    sys.exit(main())
