#!/usr/bin/env python3
"""Bar charts of a results.json of collect_results.py (the mma-sync-benchmark spec): one PNG per kernel and size.

    python3 integration/plot_results.py RESULTS_DIR

Writes RESULTS_DIR/<kind>_<size>.png (throughput per variant, sm_90 cubin and
sm_86 PTX side by side, speedup over the baseline on each bar). Needs
matplotlib where the charts are made; nothing else in pk does.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

VARIANTS = ["baseline", "cp-async", "ldg-register", "register-prefetch"]
ARCHES = [("sm_90", "sm_90 cubin"), ("sm_86", "sm_86 PTX (JIT)")]


def main():
    out = sys.argv[1]
    results = json.load(open(os.path.join(out, "results.json")))
    runs = results["runs"]
    groups = sorted({(r["kind"], r["size"]) for r in runs})
    for kind, size in groups:
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.38
        unit = ""
        for a, (arch, label) in enumerate(ARCHES):
            rates, base = [], None
            for v in VARIANTS:
                match = [r for r in runs if (r["kind"], r["size"], r["variant"],
                                             r["arch"]) == (kind, size, v, arch)]
                rate = match[0]["rate"] / 1000.0 if match else 0.0
                unit = match[0]["unit"].replace("G", "T") if match else unit
                if v == "baseline":
                    base = rate
                rates.append(rate)
            xs = [i + (a - 0.5) * width for i in range(len(VARIANTS))]
            bars = ax.bar(xs, rates, width, label=label)
            for bar, rate in zip(bars, rates):
                if base:
                    ax.annotate("%.2fx" % (rate / base),
                                (bar.get_x() + bar.get_width() / 2, rate),
                                ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(VARIANTS)))
        ax.set_xticklabels(VARIANTS)
        ax.set_ylabel(unit)
        ax.set_title("%s %d^3 on %s (%s)" % (kind.upper(), size, results["gpu"],
                                             results["date_utc"][:10]))
        ax.legend(loc="lower right", fontsize=8)
        fig.tight_layout()
        path = os.path.join(out, "%s_%d.png" % (kind, size))
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print(path)


if __name__ == "__main__":
    main()
