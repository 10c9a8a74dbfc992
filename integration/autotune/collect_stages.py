#!/usr/bin/env python3
"""Collect the candidate sets of the stages spec (integration/specs/stages.toml) into one
results folder: results.json (every set's manifest summary, measurements,
sanitizer results and decision), tables.md (the markdown tables of
results.md), decisions/<set>.{md,json}, and with --charts one PNG per 4096^3
kernel (matplotlib; optional, only needed where the charts are made).

  collect_stages.py --art DIR --out RESULTS_DIR [--charts] [--device-log LOG]

DIR holds one folder per set (manifest.json, measurements.json,
sanitizers.json, decision.json), e.g. a bundle's stages/tune/ or the
unpacked results.tgz of a device run. Charts can be redrawn from results.json
alone: collect_stages.py --from-json RESULTS_DIR/results.json --out RESULTS_DIR --charts
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import autotune  # noqa: E402

# Hand-written CUDA reference quoted by the issue (not measured here):
# HGEMM TFLOP/s and IGEMM TOP/s with 2 / 3 / 4 cp.async stages.
REFERENCE = {"hgemm": {2: 283, 3: 285, 4: 290}, "igemm": {2: 286, 3: 292, 4: 294}}
ORDER = ["baseline", "model", "cp-async-s2", "cp-async-s2-multistage", "cp-async-s3", "cp-async-s4",
         "ldg-register", "register-prefetch"]
SETS_4096 = ["hgemm_4096", "igemm_4096"]
SETS_PARTIAL = ["hgemm_512x512x4000", "hgemm_512x512x4008", "hgemm_512x512x40", "hgemm_512x512x33", "hgemm_512x512x32",
                "hgemm_4096x4096x4000"]
SETS_512 = ["hgemm_512", "igemm_512"]


def load(path):
    return json.load(open(path)) if os.path.exists(path) else None


def collect(art):
    sets = {}
    for s in sorted(os.listdir(art)):
        d = os.path.join(art, s)
        man = load(os.path.join(d, "manifest.json"))
        if not man:
            continue
        meas = load(os.path.join(d, "measurements.json"))
        san = load(os.path.join(d, "sanitizers.json"))
        # the 4096^3 sets take the sanitizer results of the 512^3 build of the same kernel
        san_src = None
        if san is None and s in SETS_4096:
            san = load(os.path.join(art, s.replace("4096", "512"), "sanitizers.json"))
            san_src = s.replace("4096", "512") if san else None
        dec = autotune.decide(man, meas, san) if meas else None
        sets[s] = dict(manifest=man, measurements=meas, sanitizers=san, sanitizers_from=san_src, decision=dec)
    return sets


def unit(kind):
    return autotune.UNIT[kind][0]


def t(x, f="%.1f"):
    return f % x if x is not None else "-"


def stage_table(s, v):
    dec = v["decision"]
    kind = dec["kind"]
    rows = {r["name"]: r for r in dec["candidates"]}
    L = ["### %s %dx%dx%d (sm_90 cubin)" % (kind.upper(), dec["m"], dec["n"], dec["k"]), "",
         "| candidate | pk-opt options | %s (median) | ms | vs baseline | vs best | round medians (ms) | check | regs | dyn smem | hand-written CUDA |" % unit(kind),
         "|---|---|---:|---:|---:|---:|---|---|---:|---:|---:|"]
    for n in ORDER:
        r = rows.get(n)
        if not r:
            continue
        ref = ""
        if r["requested_variant"] == "cp-async" and r["schedule"] in (None, "auto"):
            ref = str(REFERENCE.get(kind, {}).get(r["requested_stages"], ""))
        opts = r["pk_opt_options"] or "(pk-emit-binaries: unpipelined)"
        name = n + (" (= %s)" % r["same_as"] if r.get("same_as") else "")
        if dec.get("winner") and dec["winner"]["name"] == n:
            name = "**%s**" % name
        L.append("| %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, opts, t(r["rate"] / 1000 if r.get("rate") else None),
            t(r.get("median_ms"), "%.4f"),
            t(r.get("speedup_vs_baseline"), "%.2fx"),
            t(r.get("vs_best_pct"), "%+.1f%%"),
            ", ".join("%.4f" % x for x in (r.get("round_medians_ms") or [])) or "-",
            ("%s %s" % ("PASS" if r["status"] == "pass" else r["status"].upper(), r.get("check") or "")).strip(),
            r.get("registers") if r.get("registers") is not None else "-",
            r.get("dynamic_shared_bytes") if r.get("dynamic_shared_bytes") is not None else "-", ref or "-"))
    return L


def partial_table(sets):
    L = ["| problem | candidate | pk-opt options | built as | lowering | check | max abs err | median ms | %s | memcheck |" % "TFLOP/s",
         "|---|---|---|---|---|---|---:|---:|---:|---|"]
    for s in SETS_PARTIAL:
        v = sets.get(s)
        if not v or not v["decision"]:
            continue
        dec = v["decision"]
        man = v["manifest"]
        ents = {e["name"]: e for e in man["entries"]}
        san = (v["sanitizers"] or {}).get("results", {})
        for r in dec["candidates"]:
            e = ents[r["name"]]
            built = ("%s x%s" % (r["actual_variant"], r["actual_stages"]) if r["pipelined"] else "not pipelined")
            if r.get("same_as"):
                built += " (= %s)" % r["same_as"]
            low = "pk emit" if e.get("lowering", "").startswith("pk-opt") else "fallback (mlir-opt)"
            mc = san.get("memcheck:" + (r.get("same_as") or r["name"]), {}).get("status", "-")
            L.append("| %dx%dx%d | %s | `%s` | %s | %s | %s | %s | %s | %s | %s |" % (
                dec["m"], dec["n"], dec["k"], r["name"], r["pk_opt_options"] or "(unpipelined)", built, low,
                ("%s %s" % ("PASS" if r["status"] == "pass" else r["status"].upper(), r.get("check") or "")).strip(),
                t(r.get("max_abs_err"), "%.3g"), t(r.get("median_ms"), "%.4f"),
                t(r["rate"] / 1000 if r.get("rate") else None, "%.2f"), mc))
    return L


def sanitizer_table(sets):
    L = ["| set | candidate | memcheck | synccheck | racecheck |", "|---|---|---|---|---|"]
    for s in SETS_512 + SETS_PARTIAL:
        v = sets.get(s)
        if not v or not v["sanitizers"]:
            continue
        res = v["sanitizers"]["results"]
        names = []
        for k in res:
            n = k.split(":", 1)[1]
            if n not in names:
                names.append(n)
        for n in names:
            def cell(tool):
                r = res.get("%s:%s" % (tool, n))
                if not r:
                    return "-"
                return "%s (%s s)" % (r["status"], r.get("seconds", "?")) if r["status"] == "clean" else \
                    "%s: %s" % (r["status"], r.get("summary", ""))
            L.append("| %s | %s | %s | %s | %s |" % (s, n, cell("memcheck"), cell("synccheck"), cell("racecheck")))
    return L


def check_512_table(sets):
    L = ["| set | candidate | built as | check | max abs err | median ms (512^3, 10 launches) |", "|---|---|---|---|---:|---:|"]
    for s in SETS_512:
        v = sets.get(s)
        if not v or not v["decision"]:
            continue
        for r in v["decision"]["candidates"]:
            built = ("%s x%s" % (r["actual_variant"], r["actual_stages"]) if r["pipelined"] else "not pipelined")
            if r.get("same_as"):
                built += " (= %s)" % r["same_as"]
            L.append("| %s | %s | %s | %s | %s | %s |" % (
                s, r["name"], built,
                ("%s %s" % ("PASS" if r["status"] == "pass" else r["status"].upper(), r.get("check") or "")).strip(),
                t(r.get("max_abs_err"), "%.3g"), t(r.get("median_ms"), "%.4f")))
    return L


def chart(s, v, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    dec = v["decision"]
    kind = dec["kind"]
    rows = {r["name"]: r for r in dec["candidates"]}
    names = [n for n in ORDER if n in rows and n != "model"]
    labels = {"baseline": "unpipelined", "cp-async-s2": "cp.async 2\n(two-stage order)",
              "cp-async-s2-multistage": "cp.async 2\n(multistage)", "cp-async-s3": "cp.async 3",
              "cp-async-s4": "cp.async 4", "ldg-register": "LDG-register", "register-prefetch": "register\nprefetch"}
    rates = [(rows[n].get("rate") or 0) / 1000 for n in names]
    lo, hi = [], []
    ops = 2.0 * dec["m"] * dec["n"] * dec["k"]
    for n, r in zip(names, rates):
        meds = rows[n].get("round_medians_ms") or []
        if meds:
            rs = [ops / (m * 1e9) for m in meds]
            lo.append(max(0, r - min(rs)))
            hi.append(max(0, max(rs) - r))
        else:
            lo.append(0)
            hi.append(0)
    fig, ax = plt.subplots(figsize=(9, 4.8), dpi=110)
    model = dec.get("model") or {}
    colors = []
    for n in names:
        if dec.get("winner") and n == dec["winner"]["name"]:
            colors.append("#2b8a3e")
        elif rows[n]["status"] != "pass" or rows[n].get("excluded"):
            colors.append("#fa5252")
        elif n == model.get("same_as") or model.get("name") in (n, rows[n].get("same_as")):
            colors.append("#1c7ed6")
        else:
            colors.append("#868e96")
    x = list(range(len(names)))
    bars = ax.bar(x, rates, color=colors, yerr=[lo, hi], capsize=3)
    for b, r, n in zip(bars, rates, names):
        bad = rows[n]["status"] != "pass" or rows[n].get("excluded")
        ax.text(b.get_x() + b.get_width() / 2, r + max(rates) * 0.01,
                ("%.1f" % r) + ("\n(%s)" % rows[n]["status"].upper() if bad else ""),
                ha="center", va="bottom", fontsize=8)
    ref = REFERENCE.get(kind, {})
    first = True
    for i, n in enumerate(names):
        st = rows[n]["requested_stages"]
        if rows[n]["requested_variant"] == "cp-async" and rows[n]["schedule"] in (None, "auto") and st in ref:
            ax.plot([i - 0.4, i + 0.4], [ref[st], ref[st]], color="#e8590c", lw=2,
                    label="hand-written CUDA (issue's reference)" if first else None)
            first = False
    ax.set_xticks(x)
    ax.set_xticklabels([labels.get(n, n) for n in names], fontsize=8)
    ax.set_ylabel("%s (median)" % unit(kind))
    env = (v["measurements"] or {}).get("env", {})
    ax.set_title("%s %dx%dx%d on %s, sm_90 cubin, median of all timed launches (bars: round medians)\n"
        "green: fastest correct (autotune's pick), blue: pk's variant=auto stages=auto, red: wrong result" % (
        kind.upper(), dec["m"], dec["n"], dec["k"], (env.get("gpu_name_driver") or "?").split(",")[0]), fontsize=9)
    if not first:
        ax.legend(fontsize=8, loc="lower right")
    ax.set_ylim(0, max(rates + [max(ref.values()) if ref else 0]) * 1.15)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path = os.path.join(out, "%s.png" % s)
    fig.savefig(path)
    plt.close(fig)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--art", help="folder of candidate sets")
    p.add_argument("--from-json", help="results.json written earlier (instead of --art)")
    p.add_argument("--out", required=True)
    p.add_argument("--charts", action="store_true")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.from_json:
        sets = json.load(open(a.from_json))["sets"]
    else:
        sets = collect(a.art)
        json.dump(dict(tool="integration/autotune/collect_stages.py", reference_cuda=REFERENCE, sets=sets),
                  open(os.path.join(a.out, "results.json"), "w"), indent=1)
        dd = os.path.join(a.out, "decisions")
        os.makedirs(dd, exist_ok=True)
        for s, v in sets.items():
            if v["decision"]:
                json.dump(v["decision"], open(os.path.join(dd, s + ".json"), "w"), indent=1)
                open(os.path.join(dd, s + ".md"), "w").write(autotune.decision_md(v["decision"], v["manifest"]))
    L = []
    for s in SETS_4096:
        if s in sets and sets[s]["decision"]:
            L += stage_table(s, sets[s]) + [""]
    L += ["### Partial and small K (HGEMM, tile 128x128x32)", ""] + partial_table(sets) + [""]
    L += ["### 512^3 stage kernels, full check", ""] + check_512_table(sets) + [""]
    L += ["### compute-sanitizer (512^3, one launch, full check)", ""] + sanitizer_table(sets) + [""]
    open(os.path.join(a.out, "tables.md"), "w").write("\n".join(L) + "\n")
    if a.charts:
        for s in SETS_4096:
            if s in sets and sets[s]["decision"]:
                print("chart:", chart(s, sets[s], a.out))
    print("wrote %s" % a.out)


if __name__ == "__main__":
    main()
