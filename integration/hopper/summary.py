#!/usr/bin/env python3
"""The results table of run_hopper.sh: pk's kernels (runs/check.*.json,
runs/bench.*.json) and Triton / cuBLAS (vendor.json) side by side.

    python3 integration/hopper/summary.py ARTIFACTS_DIR RESULTS_DIR
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import pkint  # noqa: E402


def main(art, res):
    man = pkint.load_manifest(art)
    print("| kernel | arch | size | check | median ms | TFLOP/s | regs |")
    print("|---|---|---|---|---|---|---|")
    for e in pkint.entries(man):
        tag = "check" if e["size"] <= 1024 else "bench"
        path = os.path.join(res, "runs", "%s.%s.json" % (tag, e["id"]))
        j = pkint.load_json(path) if os.path.exists(path) else {}
        ms = j.get("median_ms")
        rate = j.get("rate")
        print("| %s | %s | %d | %s | %s | %s | %s |" % (
            e["id"], e["arch"], e["size"], j.get("status", "not run"),
            "%.3f" % ms if isinstance(ms, (int, float)) else "-",
            "%.1f" % (rate / 1000.0) if isinstance(rate, (int, float)) else "-",
            e["ptxas"].get("registers")))
    vendor = sorted(f for f in os.listdir(res) if f.startswith("vendor") and f.endswith(".json"))
    for name in vendor:
        v = pkint.load_json(os.path.join(res, name))
        for r in v.get("results", []):
            print("| %s | %s | %d | %s | %s | %s | - |" % (
                r["name"], v.get("device"), v["size"],
                "max err %.3g (512^3)" % r["max_abs_err_512"] if "max_abs_err_512" in r else r.get("error", "-"),
                "%.3f" % r["median_ms"] if "median_ms" in r else "-",
                "%.1f" % r["tflops"] if "tflops" in r else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
