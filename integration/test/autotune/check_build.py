#!/usr/bin/env python3
"""Assertions for build.test (argv[1]: the test's temporary directory)."""
import json
import os
import sys

t = sys.argv[1]
m = json.load(open(os.path.join(t, "h", "manifest.json")))
assert (m["kind"], m["m"], m["n"], m["k"]) == ("hgemm", 256, 512, 256), m
assert m["grid"] == [4, 2, 1] and m["block"] == [256, 1, 1] and (m["bm"], m["bn"]) == (128, 128), m
e = {x["name"]: x for x in m["entries"]}
assert list(e) == ["baseline", "model", "cp-async-s2", "cp-async-s4", "ldg-register"], list(e)
for x in e.values():
    assert x["status"] == "built", x
    cubin = os.path.join(t, "h", x["cubin"])
    assert open(cubin, "rb").read(4) == b"\x7fELF", cubin
assert e["baseline"]["pipelined"] is False
# stages=auto on sm_90: ~1024 cycles per tile against 3000 -> 4 stages.
assert e["model"]["pipelined"] and e["model"]["actual_variant"] == "cp-async" and e["model"]["actual_stages"] == 4, e["model"]
assert e["model"]["stages_auto"]["latency_stages"] == 4, e["model"]["stages_auto"]
assert e["cp-async-s2"]["actual_stages"] == 2 and "same_as" not in e["cp-async-s2"], e["cp-async-s2"]
assert e["cp-async-s4"]["same_as"] == "model", e["cp-async-s4"]  # identical cubin, run once
assert e["cp-async-s4"]["actual_stages"] == 4 and e["cp-async-s4"]["dynamic_shared_bytes"] == 65536, e["cp-async-s4"]
assert e["cp-async-s4"]["pk_opt_options"] == "arch=sm_90 variant=cp-async stages=4"
assert e["ldg-register"]["actual_variant"] == "ldg-register" and e["ldg-register"]["dynamic_shared_bytes"] == 0
assert "--pipeline-kernel=arch=sm_90 variant=cp-async stages=4 emit=cubin" in e["cp-async-s4"]["command"]

k = json.load(open(os.path.join(t, "k33", "manifest.json")))
e = {x["name"]: x for x in k["entries"]}
assert k["k"] == 33
# rows of 66 bytes: no cp.async; pk's own lowering handles the masked reads
for n in ("baseline", "model", "cp-async-s2"):
    assert e[n]["status"] == "built", e[n]
    assert e[n]["lowering"] == "pk-opt emit=cubin (pk-emit-binaries)", e[n]["lowering"]
# the two register variants tie (same registers and cycles): register-prefetch,
# one buffer, ranks first (rule register-before-ldg, docs/decisions.md)
assert e["model"]["actual_variant"] == "register-prefetch", e["model"]
assert "register-prefetch @2 block(s)/SM: " in " ".join(e["model"]["reasons"]), e["model"]["reasons"]
assert e["cp-async-s2"]["actual_variant"] == "ldg-register" and e["cp-async-s2"].get("same_as") != "model", e["cp-async-s2"]
print("check_build: OK")
