#!/usr/bin/env python3
"""Assertions for flow.test (argv[1]: the test's temporary directory)."""
import json
import os
import subprocess
import sys

t = sys.argv[1]
art = os.path.join(t, "b", "mma-sync-benchmark")
res = os.path.join(t, "res", "mma-sync-benchmark")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import pkint  # noqa: E402

man = pkint.load_manifest(art)
assert man["format"] == "pk-artifacts/1" and man["tool"] == "integration/pk-bundle.py", man
ids = [e["id"] for e in man["entries"]]
assert ids == ["hgemm_512_baseline_sm_90", "hgemm_512_baseline_sm_86", "hgemm_512_cp-async_sm_90",
               "hgemm_512_cp-async_sm_86"], ids
for e in pkint.entries(man):
    f = os.path.join(art, e["file"])
    data = open(f, "rb").read()
    assert e["ptxas"]["registers"] > 0 and e["ptxas"]["arch"] == e["arch"], e
    assert (e["m"], e["bm"], e["threads"], e["smem"]) == (512, 128, 256, 0), e
    if e["arch"] == "sm_90":
        assert e["format"] == "cubin" and data[:4] == b"\x7fELF", e
        # the cubin is its PTX assembled without -v (gpu-module-to-binary format=bin's bytes)
        again = os.path.join(t, e["id"] + ".cubin")
        subprocess.check_call([pkint.ptxas(), "-arch=sm_90", "-O3", os.path.join(art, e["ptx"]), "-o", again])
        assert open(again, "rb").read() == data, e["id"]
    else:
        assert e["format"] == "ptx" and b".version 8.0" in data and b".target sm_86" in data, e
        assert e["ptxas_sm90_from_ptx"]["registers"] > 0, e
assert man["entries"][2]["pk_auto_would_pick"] == "cp-async", man["entries"][2]
res = json.load(open(os.path.join(res, "results.json")))
s = res["summary"]
assert (s["runs"], s["runs_pass"], s["sanitizer_runs"], s["sanitizer_clean"]) == (4, 4, 6, 6), s  # memcheck, synccheck, racecheck x 2 sm_90 entries
assert {r["id"] for r in res["runs"]} == set(ids)
print("check_flow: OK")
