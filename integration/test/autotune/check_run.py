#!/usr/bin/env python3
"""Assertions for run-fake-runner.test (argv[1]: the candidate directory)."""
import json
import os
import sys

d = sys.argv[1]
meas = json.load(open(os.path.join(d, "measurements.json")))
res = meas["results"]
assert res["cp-async-s3"]["status"] == "fail", res["cp-async-s3"]
assert len(res["cp-async-s3"]["rounds"]) == 1, "a failed candidate is not timed again"
assert res["cp-async-s2"] == {"status": "same-as", "same_as": "model", "rounds": []}, res["cp-async-s2"]
assert res["cp-async-s8"]["status"] == "build-failed"
for n in ("baseline", "model", "cp-async-s4", "ldg-register", "register-prefetch"):
    r = res[n]
    assert r["status"] == "pass" and r["checked"], (n, r)
    assert len(r["rounds"]) == 2 and r["rounds"][0]["check"] == "rows:64" and r["rounds"][1]["check"] == "none", r
    assert len(r["round_medians_ms"]) == 2 and abs(r["median_ms"] - r["rounds"][0]["median_ms"]) < 1e-3, r
assert "--smem 65536" in res["cp-async-s4"]["command"], res["cp-async-s4"]["command"]
san = json.load(open(os.path.join(d, "sanitizers.json")))
keys = sorted(san["results"])
# pipelined, built, not duplicates: model, multistage, s3, s4, ldg, rp x 2 tools
assert len(keys) == 12 and "memcheck:baseline" not in keys and "memcheck:cp-async-s2" not in keys, keys
assert all(v["status"] == "clean" for k, v in san["results"].items() if "cp-async-s3" not in k), san
assert san["results"]["memcheck:cp-async-s3"]["status"] == "rc 1", san["results"]["memcheck:cp-async-s3"]
dec = json.load(open(os.path.join(d, "decision.json")))
# cp-async-s3 is faster but wrong; its sanitizer runs are "rc 1" -> not eligible anyway
assert dec["winner"]["name"] == "cp-async-s4", dec["winner"]
assert dec["model"]["variant"] == "cp-async" and dec["model"]["stages"] == 2
md = open(os.path.join(d, "decision.md")).read()
assert "**Winner: `cp-async-s4`**" in md
print("check_run: OK")
