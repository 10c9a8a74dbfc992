#!/usr/bin/env python3
"""Build the GPU check of pk's pipelined wgmma kernels (issue 14, step 2;
docs/hopper.md "Pipelining wgmma loops"): the wgmma HGEMM of
examples/gen_gemm.py (--mma wgmma, NN layout, one warpgroup, BK 64, the
proxy fence after the stores) unpipelined and pipelined by each variant pk
proves safe, at 512^3 (full check) and 4096^3 (64-row check + timing),
lowered by pk's own emission for sm_90a. Writes a pk-artifacts/1 directory
(integration/pkint.py), a prebuilt pk-runner when this machine can build
one, run.sh (the device command) and OUT/hopper2.tar (all of it, one file).

    python3 integration/hopper/build_hopper2.py [OUT]     (default .gpu/hopper2)

Entries (id stem: tile, pk options; what a PASS shows):
  wgmma_baseline       128x128x64, unpipelined (pk-emit-binaries): the
                       control, correct since the fence (wgmma-fix run)
  wgmma_rpf            register-prefetch: one buffer, the next tile stored
                       (then fenced) after the barrier behind the wgmma
  wgmma_ldg            ldg-register, 2 x 32 KB in dynamic shared memory: the
                       per-stage descriptors and the dynamic base's alignment
  wgmma_cp-async-s{2,3,4}  cp.async, N stages (dynamic shared memory; 4
                       stages with min-blocks-per-sm=1): wait ->
                       fence.proxy.async -> barrier before each wgmma
  (128x64x64 was dropped: gen_gemm.py's 128x64x64 wgmma kernel computes
  wrong C unpipelined as well as pipelined, integration/results/
  2026-12-01-h200-wgmma-pipelined; the generator now refuses it)

run.sh (repo root of the GPU machine; RUNNER overrides the runner, OUT is
the device tool's output folder):
  1. every 512^3 entry: full check; 2. every larger entry (--sizes; 4096
  and 8192): 64-row check and timing (5 warm-up, 20 timed); 3. cuBLAS and
  Triton at each larger size (vendor_bench.py, vendor-SIZE.json); 4.
  compute-sanitizer memcheck, racecheck and synccheck on every 512^3 entry
  (SAN_WHERE=filter narrows them, e.g. variant~mma-in-flight), one launch each
  (warmup 0, iters 1: the RUN_REPS=1 of test/upstream/run), until 560 s
  after the start; 5. summary.py's table.
"""

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import pkint  # noqa: E402
import build_hopper  # noqa: E402

WGMMA = build_hopper.WGMMA
GEN = ["--kind", "hgemm", "--mma", "wgmma"]
FIELDS = dict(b_layout="kn", threads=128, bk=64)
# id stem -> (kernel, generator arguments, pk --pipeline-kernel options (None:
# unpipelined), remark pk's log must hold, entry fields)
KERNELS = [
    ("wgmma_baseline", WGMMA, GEN, None, "remark: ptxas", dict(variant="baseline")),
    ("wgmma_rpf", WGMMA, GEN, "variant=register-prefetch",
     "pipelined: variant register-prefetch, 1 shared buffer", dict(variant="register-prefetch")),
    ("wgmma_ldg", WGMMA, GEN, "variant=ldg-register",
     "pipelined: variant ldg-register, 2 shared buffer", dict(variant="ldg-register")),
] + [
    # 4 stages (128 KB) leave room for one block per SM only
    ("wgmma_cp-async-s%d" % s, WGMMA, GEN,
     "variant=cp-async stages=%d" % s + (" min-blocks-per-sm=1" if s == 4 else ""),
     "pipelined: variant cp-async, %d shared buffer" % s, dict(variant="cp-async-s%d" % s))
    for s in (2, 3, 4)
] + [
    # schedule=mma-in-flight: one wgmma group in flight, copies N-2 ahead
    ("wgmma_mif-s%d" % s, WGMMA, GEN,
     "variant=cp-async schedule=mma-in-flight stages=%d min-blocks-per-sm=1" % s,
     "pipelined: variant cp-async, %d shared buffer" % s, dict(variant="mma-in-flight-s%d" % s))
    for s in (3, 4, 5)
]
SANITIZERS = "memcheck,racecheck,synccheck"


def check_ptx(path):
    """Every kernel keeps its tiles in shared memory: the PTX names .shared
    and has neither malloc nor local memory."""
    text = open(path).read()
    bad = [w for w in ("malloc", "__local_depot") if w in text]
    if ".shared" not in text or bad:
        raise pkint.BuildError("%s: %s" % (path, "uses " + ", ".join(bad) if bad else "no .shared"))


def run_script(rel, name="hopper2", san_where="size=512", check_where="size=512", bench_where="size!=512",
               vendor=True, tools="integration"):
    """The device command: check (full, the check_where entries), time
    (64-row check, bench_where), cuBLAS / Triton when vendor, sanitize (the
    512^3 entries that SAN_WHERE, default san_where, selects), summarize;
    everything in one tar under $OUT (the device tool brings back 8 files at
    most). tools: the directory of pkint.py and hopper/ (a bundle's own
    copy, finish_bundle(tools=True))."""
    vendor_lines = [
        "for s in $(python3 $T/pkint.py entries --dir $D --fields size | sort -un | grep -vx 512); do",
        "  timeout 150 python3 $T/hopper/vendor_bench.py --size $s --json $R/vendor-$s.json || rc=1",
        "done",
    ] if vendor else []
    return "\n".join([
        "#!/usr/bin/env bash",
        "# GPU machine, repo root:  bash %s/run.sh" % rel,
        "# -> $OUT/%s-results.tar (runs/, san/, run.log, results.md), $OUT/results.md, $OUT/run.log" % name,
        "set -uo pipefail",
        "START=$(date +%s)  # the device tool stops a command after 600 s: sanitizers end by 560",
        "D=%s; OUT=${OUT:-.gpu/%s-out}; R=$(mktemp -d)/%s-results; mkdir -p $R $OUT" % (rel, name, name),
        "T=%s" % tools.replace(rel, "$D"),
        "exec > >(tee $R/run.log) 2>&1",
        "RUNNER=${RUNNER:-$D/pk-runner}",
        "$RUNNER --help >/dev/null 2>&1; if [ $? -ne 2 ]; then  # usage exits 2 once it loads",
        "  RUNNER=$R/pk-runner; python3 $T/pkint.py build-runner $RUNNER || exit 2",
        "fi",
        "nvidia-smi --query-gpu=name,driver_version --format=csv,noheader",
        "rc=0",
        "python3 $T/pkint.py run --dir $D --out $R --tag check --where '%s' --check full "
        "--warmup 0 --iters 1 --seed 1 --runner $RUNNER --timeout-s 60 --allow-failures || rc=1" % check_where,
        "python3 $T/pkint.py run --dir $D --out $R --tag bench --where '%s' --check rows:64 "
        "--warmup 5 --iters 20 --seed 2 --runner $RUNNER --timeout-s 90 --allow-failures || rc=1" % bench_where,
    ] + vendor_lines + [
        "python3 $T/pkint.py sanitize --dir $D --out $R --jobs \"%s@size=512,${SAN_WHERE:-%s}\" "
        "--runner $RUNNER --timeout-s 240 --deadline $((START + 560)) || rc=1" % (SANITIZERS, san_where),
        "python3 $T/hopper/summary.py $D $R | tee $R/results.md",
        "echo \"== %s done (rc $rc)\"" % name,
        "cp $R/results.md $R/run.log $OUT/; tar cf $OUT/%s-results.tar -C $(dirname $R) %s-results" % (name, name),
        "exit $rc",
    ]) + "\n"


def build_bundle(out, sizes, kernels, tool, name, san_where="size=512"):
    """Build `kernels` (KERNELS' form) at each size into the bundle out:
    manifest, pk-runner, run.sh (run_script) and out/<name>.tar."""
    pk, cuda = pkint.pk_opt(), pkint.cuda_home()
    pkint.require(pk, pkint.ptxas(cuda))
    out = os.path.abspath(out)
    man = build_hopper.new_bundle(out, tool)
    with tempfile.TemporaryDirectory(prefix="pk-%s." % name) as work:
        for stem, kernel, gen_args, options, expect, fields in kernels:
            for size in sizes:
                ident = "%s_%d_sm_90a" % (stem, size)
                e = build_hopper.build_entry(out, work, ident, kernel, gen_args, options, "sm_90a",
                                             dict(FIELDS, **fields), (size, size, size), pk, cuda,
                                             expect=expect)
                check_ptx(os.path.join(out, e["ptx"]))
                man["entries"].append(e)
    finish_bundle(out, man, name, lambda rel: run_script(rel, name, san_where))
    return 0


def finish_bundle(out, man, name, run_text, tools=False):
    """Write the manifest, a prebuilt pk-runner (when this machine can build
    one), run.sh (run_text(rel)) and OUT/NAME.tar (all of it, one file); with
    tools, a copy of pkint.py, hopper/summary.py and runner/pk-runner.cpp
    under OUT/integration, so that run.sh does not depend on the checkout it
    runs in."""
    pkint.write_manifest(out, man)
    if tools:
        for f in ("pkint.py", "hopper/summary.py", "runner/pk-runner.cpp"):
            dst = os.path.join(out, "integration", f)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(HERE, "..", f), dst)
    runner = os.path.join(out, "pk-runner")
    if subprocess.call([sys.executable, os.path.join(HERE, "..", "pkint.py"), "build-runner", runner]):
        print("no prebuilt pk-runner: run.sh builds one on the GPU machine", file=sys.stderr)
    rel = os.path.relpath(out, pkint.ROOT)
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write(run_text(rel))
    tar = os.path.join(out, name + ".tar")
    with tarfile.open(tar, "w") as t:
        for entry in sorted(os.listdir(out)):
            if entry != name + ".tar":
                t.add(os.path.join(out, entry), arcname=os.path.join(rel, entry))
    print("manifest: %d entries -> %s; bundle %s" % (len(man["entries"]),
                                                      os.path.join(out, "manifest.json"), tar))


def build(out, sizes):
    return build_bundle(out, sizes, KERNELS, "integration/hopper/build_hopper2.py", "hopper2")


def main():
    return build_hopper.cli(__doc__, "build_hopper2", "hopper2", build)


if __name__ == "__main__":
    sys.exit(main())
