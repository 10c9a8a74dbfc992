#!/usr/bin/env python3
"""Build the GPU check of the TMA + mbarrier wgmma input kernel (issue 14,
item 3; docs/hopper.md "TMA"): examples/gen_gemm.py --mma wgmma --copy tma
(one warpgroup, 128x128x64, thread 0 issues the TMA loads of the A tile and
the two B slabs, every thread waits on the mbarrier's parity k/64 % 2),
unpipelined, lowered by pk's own emission for sm_90a (pk does not treat it
as a K-loop: one barrier, no shared stores), next to build_hopper2.py's
unpipelined wgmma kernel (per-thread copies) as the control. Same flow as build_hopper2.py: a
pk-artifacts/1 directory, a prebuilt pk-runner, run.sh and OUT/tma.tar.

    python3 integration/hopper/build_tma.py [OUT] [--sizes "512 4096"]   (default .gpu/tma)

Entries (pk-runner --b-layout kn; the TMA ones with the manifest's "tma"
list, i.e. pk-runner --tma A:64x128:128 --tma B:64x64:128):
  wgmma_tma_{512,4096}    the TMA kernel: 512^3 full check, then
                          compute-sanitizer memcheck, racecheck, synccheck;
                          4096^3 64-row check and timing
  wgmma_tma_rect_256      M 256, N 384, K 640 (full check): a swapped
                          coordinate or tensor-map dimension cannot pass
  wgmma_tma_k64_256       M 256, N 256, K 64: one K tile (parity 0 only)
  wgmma_baseline_{512,4096}  the control: the per-thread-copy wgmma kernel
                          (st.shared + fence.proxy.async), unpipelined
run.sh: the check entries (m < 4096) in full, the 4096 ones on 64 rows with
5 warm-up and 20 timed launches, the sanitizers on the 512^3 entries, then
summary.py's table (no cuBLAS / Triton: build_hopper2.py has them). The
bundle carries its own pkint.py (with the "tma" manifest key), summary.py
and pk-runner source under OUT/integration: it runs from any checkout.
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import pkint  # noqa: E402
import build_hopper  # noqa: E402
import build_hopper2  # noqa: E402

TMA = "hgemm_wgmma_tma_f16_128x128x64"
GEN_TMA = build_hopper2.GEN + ["--copy", "tma"]
# A: M x K row-major, box 64 (K) x 128 (M); B: K x N, box 64 (N) x 64 (K).
TMA_MAPS = [dict(arg="A", box=[64, 128], swizzle=128), dict(arg="B", box=[64, 64], swizzle=128)]
# Entry fields of a TMA kernel; the pk option of one resident block per SM.
MAPS = dict(tma=TMA_MAPS)
ONE = " min-blocks-per-sm=1"
# id stem -> (kernel, generator arguments, entry fields, shapes: None = the --sizes cubes)
KERNELS = [
    ("wgmma_tma", TMA, GEN_TMA, dict(variant="tma", tma=TMA_MAPS), None),
    ("wgmma_tma_rect", TMA, GEN_TMA, dict(variant="tma", tma=TMA_MAPS, check="full"), [(256, 384, 640)]),
    ("wgmma_tma_k64", TMA, GEN_TMA, dict(variant="tma", tma=TMA_MAPS, check="full"), [(256, 256, 64)]),
    ("wgmma_baseline", build_hopper.WGMMA, build_hopper2.GEN, dict(variant="baseline"), None),
]


def run_script(rel):
    return build_hopper2.run_script(rel, name="tma", check_where="m!=4096", bench_where="m=4096",
                                    vendor=False, tools=os.path.join(rel, "integration"))


def sized_run_script(name):
    """The run.sh text of a bundle whose check entries are the 256 and 512
    shapes and whose benchmark entries are 4096^3 and 8192^3."""
    def run_script(rel):
        return build_hopper2.run_script(rel, name=name, check_where="size~^(256|512)$",
                                        bench_where="size~^(4096|8192)$", vendor=False,
                                        tools=os.path.join(rel, "integration"))
    return run_script


def build_kernels(out, sizes, kernels, tool, name, run_text):
    """Build `kernels` ((id stem, kernel, generator arguments, pk options or
    None, expected remark, entry fields, shapes or None for the `sizes`
    cubes)) into the self-contained bundle out (OUT/<name>.tar)."""
    pk, cuda = pkint.pk_opt(), pkint.cuda_home()
    pkint.require(pk, pkint.ptxas(cuda))
    out = os.path.abspath(out)
    man = build_hopper.new_bundle(out, tool)
    with tempfile.TemporaryDirectory(prefix="pk-%s." % name) as work:
        for stem, kernel, gen_args, options, expect, fields, shapes in kernels:
            for mnk in shapes or [(s, s, s) for s in sizes]:
                ident = "%s_%d_sm_90a" % (stem, mnk[0])
                e = build_hopper.build_entry(out, work, ident, kernel, gen_args, options, "sm_90a",
                                             dict(build_hopper2.FIELDS, **fields), mnk, pk, cuda,
                                             expect=expect)
                build_hopper2.check_ptx(os.path.join(out, e["ptx"]))
                man["entries"].append(e)
    build_hopper2.finish_bundle(out, man, name, run_text, tools=True)
    return 0


def bundle_main(doc, name, kernels):
    """The command line of a TMA bundle script: OUT [--sizes] into
    .gpu/<name>, KERNELS (build_kernels' form), sized_run_script's run.sh."""
    tool = "integration/hopper/build_%s.py" % name.replace("-", "_")

    def build_fn(out, sizes):
        return build_kernels(out, sizes, kernels, tool, name, sized_run_script(name))
    return build_hopper.cli(doc, "build_" + name.replace("-", "_"), name, build_fn)


def build(out, sizes):
    kernels = [(stem, kernel, gen, None, "remark: ptxas", fields, shapes)
               for stem, kernel, gen, fields, shapes in KERNELS]
    return build_kernels(out, sizes, kernels, "integration/hopper/build_tma.py", "tma", run_script)


def main():
    return build_hopper.cli(__doc__, "build_tma", "tma", build)


if __name__ == "__main__":
    sys.exit(main())
