#!/usr/bin/env python3
"""Assertions for build-run.test (argv[1]: the test's temporary directory)."""
import os
import subprocess
import sys

t = sys.argv[1]
b = os.path.join(t, "bundle")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import pkint  # noqa: E402

info = pkint.load_json(os.path.join(b, "bundle.json"))
assert info["format"] == "pk-bundle/1" and info["specs"] == ["small"], info
assert "pk-bundle.py build" in info["command"], info
for f in ("run.sh", "tools/pk-bundle.py", "tools/pkint.py", "tools/pkint_tools.py",
          "tools/pkint_lower.py", "tools/pkint_run.py", "tools/bundle/run.py", "tools/bundle/collect.py",
          "tools/collect_results.py", "tools/vendor_bench.py", "tools/runner/pk-runner.cpp",
          "small/spec.toml", "small/plan.json"):
    assert os.path.exists(os.path.join(b, f)), f
man = pkint.load_manifest(os.path.join(b, "small"))
assert man["tool"] == "integration/pk-bundle.py" and man["spec"] == "small", man
ids = [e["id"] for e in man["entries"]]
assert ids == ["base_256_sm_90", "cpasync_s2_256_sm_90", "ldg_256_sm_86"], ids
for e in pkint.entries(man):
    data = open(os.path.join(b, "small", e["file"]), "rb").read()
    assert e["ptxas"]["registers"] > 0 and (e["m"], e["threads"], e["bk"]) == (256, 256, 32), e
    if e["arch"] == "sm_90":
        assert e["format"] == "cubin" and data[:4] == b"\x7fELF", e
        # the cubin is its PTX assembled without -v
        again = os.path.join(t, e["id"] + ".cubin")
        subprocess.check_call([pkint.ptxas(), "-arch=sm_90", "-O3", os.path.join(b, "small", e["ptx"]), "-o", again])
        assert open(again, "rb").read() == data, e["id"]
    else:
        assert e["format"] == "ptx" and b".version 8.0" in data and b".target sm_86" in data, e
        assert e["ptxas_sm90_from_ptx"]["registers"] > 0, e
cp = man["entries"][1]
assert cp["pk_options"] == "variant=cp-async stages=2", cp
# report = true: what pk built, from its report
assert (cp["pipelined"], cp["actual_variant"], cp["actual_stages"]) == (True, "cp-async", 2), cp
assert "sass_check" in cp or not os.path.exists(pkint.pk_sass_check()), cp
res = os.path.join(t, "res", "small")
for f in ("manifest.json", "plan.json", "spec.toml", "env.txt", "run.log", "results.md",
          "runs/check.base_256_sm_90.json", "runs/check.ldg_256_sm_86.json", "runs/bench.cpasync_s2_256_sm_90.json",
          "san/memcheck.cpasync_s2_256_sm_90.status", "san/racecheck.cpasync_s2_256_sm_90.status"):
    assert os.path.exists(os.path.join(res, f)), f
assert not os.path.exists(os.path.join(res, "runs", "bench.ldg_256_sm_86.json"))  # bench: arch=sm_90 only
assert not os.path.exists(os.path.join(res, "san", "memcheck.base_256_sm_90.status"))  # variant!=baseline
text = open(os.path.join(res, "results.md")).read()
assert "| cpasync_s2_256_sm_90 | sm_90 | 256x256x256 | pass | pass | " in text, text
assert "clean (memcheck, racecheck)" in text, text
assert os.path.exists(os.path.join(t, "res", "results.md"))
print("check_build_run: OK")
