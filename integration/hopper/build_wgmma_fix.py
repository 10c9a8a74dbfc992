#!/usr/bin/env python3
"""Build one GPU bundle that tests the hypotheses for the wrong results of the
wgmma HGEMM (examples/gen_gemm.py --mma wgmma, docs/hopper.md): every
variant is an sm_90a cubin lowered by pk (the loop is declined, emitted
unchanged), checked in full by pk-runner --b-layout kn.

    python3 integration/hopper/build_wgmma_fix.py [OUT]   (default .gpu/wgmma-fix)

Entries (id: generator flags; what a PASS means):
  baseline_*        --wgmma-proxy-fence none   control (fails: the race)
  fence_*           --wgmma-proxy-fence before-barrier
                    the st.shared (generic proxy) were not visible to the wgmma
                    reads (async proxy): fence.proxy.async is missing
  fence-after_*     --wgmma-proxy-fence after-barrier   (same, fence in the compute phase)
  manual_*          --wgmma-desc manual        control: hand-built descriptors with
                                               MLIR's own fields (must fail like baseline)
  a-lbo16_*, fence_a-lbo16_*   --wgmma-desc a-lbo16 (+ fence)
                    A's leading byte offset (16384 from MLIR) is not ignored for the
                    swizzled K-major A: CUTLASS's 16 B
  b-swap_*, fence_b-swap_*     --wgmma-desc b-swap (+ fence)
                    the MN-major B's LBO / SBO are read the other way round
  *_128x128x64      one CTA, one K tile: no loop-carried state, fresh shared memory
  *_128x128x128     one CTA, two K tiles
Writes OUT/manifest.json, OUT/bin, OUT/pk-runner (copied from --runner) and
OUT/run.sh (the pkint check plus raw C dumps, seed 1, for offline analysis)."""

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import pkint  # noqa: E402
import build_hopper  # noqa: E402

FENCE = ["--wgmma-proxy-fence", "before-barrier"]
# The generator's default is the fence now: the bug needs it switched off.
NO_FENCE = ["--wgmma-proxy-fence", "none"]
# id stem -> (generator flags, remark pk's log must hold)
DECLINED = "not pipelined:"
RACES = "warning: the kernel races"
VARIANTS = [
    ("baseline", NO_FENCE, RACES),
    ("fence", FENCE, DECLINED),
    ("fence-after", ["--wgmma-proxy-fence", "after-barrier"], DECLINED),
    ("manual", NO_FENCE + ["--wgmma-desc", "manual"], None),
    ("a-lbo16", NO_FENCE + ["--wgmma-desc", "a-lbo16"], None),
    ("fence_a-lbo16", FENCE + ["--wgmma-desc", "a-lbo16"], None),
    ("b-swap", NO_FENCE + ["--wgmma-desc", "b-swap"], None),
    ("fence_b-swap", FENCE + ["--wgmma-desc", "b-swap"], None),
]
SMALL = [("baseline", (128, 128, 64)), ("fence", (128, 128, 64)),
         ("baseline", (128, 128, 128)), ("fence", (128, 128, 128))]


def build(out, runner):
    pk, cuda = pkint.pk_opt(), pkint.cuda_home()
    pkint.require(pk, pkint.ptxas(cuda))
    out = os.path.abspath(out)
    man = build_hopper.new_bundle(out, "integration/hopper/build_wgmma_fix.py")
    flags = {stem: (args, expect) for stem, args, expect in VARIANTS}
    jobs = [(stem, (512, 512, 512)) for stem, _, _ in VARIANTS] + SMALL
    with tempfile.TemporaryDirectory(prefix="pk-wgmma-fix.") as work:
        for stem, mnk in jobs:
            args, expect = flags[stem]
            ident = "%s_%s" % (stem, 512 if mnk == (512, 512, 512) else "x".join(map(str, mnk)))
            fields = dict(variant=stem, b_layout="kn", threads=128, bk=64)
            # every variant is declined somewhere: the log must say so (the
            # one-CTA sizes have short loops that pk declines for other reasons)
            expect = expect if mnk == (512, 512, 512) else None
            e = build_hopper.build_entry(out, work, ident, build_hopper.WGMMA,
                                         ["--kind", "hgemm", "--mma", "wgmma"] + args, "", "sm_90a",
                                         fields, mnk, pk, cuda, expect=expect or "remark:",
                                         allow_race="fence" not in stem)
            e["size"] = "x".join(map(str, mnk))
            man["entries"].append(e)
    pkint.write_manifest(out, man)
    shutil.copyfile(runner, os.path.join(out, "pk-runner"))
    os.chmod(os.path.join(out, "pk-runner"), 0o755)
    rel = os.path.relpath(out, pkint.ROOT)
    lines = ["#!/bin/sh", "# run from the worktree root: sh %s/run.sh  (results under $OUT/wgmma-fix)" % rel,
             "D=%s; O=${OUT:-/tmp}/wgmma-fix; mkdir -p $O/dumps" % rel,
             "python3 integration/pkint.py run --dir $D --out $O --tag check --check full --warmup 0 "
             "--iters 1 --seed 1 --runner $D/pk-runner --allow-failures --timeout-s 60 2>&1 | tee $O/run.log"]
    for e in man["entries"]:
        argv = pkint.runner_argv("$D/pk-runner", "$D", e, "none", 0, 1, 1, dump="$O/dumps/%s.bin" % e["id"])
        lines.append(" ".join(a if a.startswith("$") else shlex.quote(a) for a in argv) + " >/dev/null 2>&1")
    lines.append("ls -l $O/dumps")
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("manifest: %d entries -> %s" % (len(man["entries"]), os.path.join(out, "manifest.json")))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=os.path.join(pkint.ROOT, ".gpu", "wgmma-fix"))
    ap.add_argument("--runner", default="/work/wt-hopper/.gpu/hopper/pk-runner",
                    help="a pk-runner built for the GPU machine (pkint.py build-runner)")
    a = ap.parse_args()
    try:
        return build(a.out, a.runner)
    except (pkint.BuildError, subprocess.CalledProcessError) as ex:
        print("build_wgmma_fix: %s" % ex, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
