#!/usr/bin/env python3
"""Run the entries of build_artifacts.sh's manifest of one size with pk-runner
(full check up to 1024, else 64 rows). Usage: run_manifest.py ARTIFACTS WORK SIZE"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "integration", "autotune"))
import autotune  # noqa: E402

art, work, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
runner = os.environ.get("PK_RUNNER") or autotune.build_runner(autotune.find_cuda_home(), os.path.join(work, "pk-runner"))
man = json.load(open(os.path.join(art, "manifest.json")))
bad = n = 0
for i, e in enumerate(man["entries"]):
    if e["size"] != size:
        continue
    n += 1
    argv = [runner, "--kind", e["kind"], "--module", os.path.join(art, e["file"]), "--kernel", e["kernel"],
            "--m", str(e["m"]), "--n", str(e["n"]), "--k", str(e["k"]), "--bm", str(e["bm"]), "--bn", str(e["bn"]),
            "--threads", str(e["threads"]), "--check", "full" if size <= 1024 else "rows:64",
            "--warmup", "1", "--iters", "3", "--seed", str(1000 + i)]
    p = subprocess.run(argv, capture_output=True, text=True, env=autotune.runner_env())
    print((p.stdout + p.stderr).strip().splitlines()[0] if (p.stdout + p.stderr).strip() else "rc %d" % p.returncode)
    bad += p.returncode != 0
print("%d entries, %d failing" % (n, bad))
sys.exit(1 if bad or not n else 0)
