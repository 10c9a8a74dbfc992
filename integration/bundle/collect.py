"""The collect step (anywhere, python3 standard library): a results folder
of `pk-bundle.py run` -> tables.

    RESULTS/NAME/results.md   one row per entry: every run tag's status,
                              the timing of the last timed tag (median ms,
                              TFLOP/s or TOP/s), the sanitizers' verdicts,
                              pk's registers; cuBLAS / Triton rows from
                              vendor-SIZE.json
    collect "results" plans also get collect_results.py's results.json /
    results.md (the main benchmark's tables) instead, "stages" ones
    collect_stages.py's tables, "sweep" ones the decision sweep's table
    RESULTS/results.md        the index of the specs run
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INTEG = os.path.dirname(HERE)
sys.path.insert(0, INTEG)
import pkint  # noqa: E402


def _json(path):
    try:
        return pkint.load_json(path)
    except (OSError, ValueError):
        return None


def tags(res, plan):
    """The run tags in plan order that left files."""
    out = []
    for s in plan.get("steps", []):
        t = s.get("tag")
        if s["do"] in ("check", "bench", "run") and t not in out:
            out.append(t)
    return out


def san_cell(res, ident, tools):
    cells = []
    for t in tools:
        st = pkint.read_san_status(res, t, ident)
        if st:
            cells.append("%s %s" % (t, st["status"]))
    if not cells:
        return "-"
    if all(c.endswith(" clean") for c in cells):
        return "clean (%s)" % ", ".join(c.split()[0] for c in cells)
    return "; ".join(cells)


def summary(res):
    """The results.md table of one spec's results folder; returns its text."""
    man = pkint.load_manifest(res)
    plan = _json(os.path.join(res, "plan.json")) or {}
    run_tags = tags(res, plan)
    tools = []
    for s in plan.get("steps", []):
        if s["do"] == "sanitize":
            for j in s["jobs"]:
                tools += [t for t in j.partition("@")[0].split(",") if t not in tools]
    lines = ["# %s" % plan.get("name", os.path.basename(res)), ""]
    if plan.get("about"):
        lines += [plan["about"], ""]
    env = {}
    if os.path.exists(os.path.join(res, "env.txt")):
        for line in open(os.path.join(res, "env.txt")):
            k, _, v = line.rstrip("\n").partition("=")
            env[k] = v
    if env:
        lines += ["GPU: %s; %s" % (env.get("gpu_csv", "?"), env.get("date_utc", "")), ""]
    head = ["entry", "arch", "M x N x K"] + run_tags + ["median ms", "rate", "sanitizers", "regs"]
    if pkint.entries(man):
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for e in pkint.entries(man):
        cells = [e["id"], e["arch"], "%sx%sx%s" % (e["m"], e["n"], e["k"])]
        timed = None
        for t in run_tags:
            j = _json(os.path.join(res, "runs", "%s.%s.json" % (t, e["id"])))
            cells.append(j.get("status", "?") if j else "-")
            if j and isinstance(j.get("median_ms"), (int, float)) and (j.get("iters") or len(j.get("times_ms") or [])) > 1:
                timed = j
        if timed:
            unit = timed.get("unit", "GFLOP/s")
            rate = timed.get("rate")
            if not isinstance(rate, (int, float)):
                shown = "-"
            elif unit.startswith("G"):
                shown = "%.1f T%s" % (rate / 1000.0, unit[1:])
            else:
                shown = "%s %s" % (rate, unit)
            cells += ["%.3f" % timed["median_ms"], shown]
        else:
            cells += ["-", "-"]
        cells += [san_cell(res, e["id"], tools), str((e.get("ptxas") or {}).get("registers", "-"))]
        lines.append("| " + " | ".join(cells) + " |")
    vendor = sorted(f for f in os.listdir(res) if f.startswith("vendor") and f.endswith(".json"))
    if vendor:
        lines += ["", "| vendor | step | device | size | check (512^3) | median ms | TFLOP/s |",
                  "|---|---|---|---|---|---|---|"]
        for name in vendor:
            v = _json(os.path.join(res, name)) or {}
            # vendor-SIZE.json: the first vendor step; vendor-TAG-SIZE.json: a later one
            parts = name[:-len(".json")].split("-")
            when = parts[1] if len(parts) == 3 else "run"
            for r in v.get("results", []):
                lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                    r["name"], when, v.get("device"), v.get("size"),
                    "max err %.3g" % r["max_abs_err_512"] if "max_abs_err_512" in r else r.get("error", "-"),
                    "%.3f" % r["median_ms"] if "median_ms" in r else "-",
                    "%.1f" % r["tflops"] if "tflops" in r else "-"))
    return "\n".join(lines) + "\n"


def sweep(res, tag="run"):
    """The decision sweep's tables (was sweep.py collect): results.jsonl (one
    line per candidate) and, per kernel, the best candidate, pk's auto
    choice, % behind the best and against the unpipelined kernel."""
    man = pkint.load_manifest(res)
    rows = []
    for e in man["entries"]:
        r = dict(e)
        run = _json(os.path.join(res, "runs", "%s.%s.json" % (tag, e["id"]))) or {}
        ms = run.get("median_ms")
        r["ok"] = bool(run.get("pass")) and ms is not None
        r["median_ms"] = ms
        r["rate_t"] = 2.0 * e["m"] * e["n"] * e["k"] / (ms * 1e-3) / 1e12 if ms else None
        rows.append(r)
    with open(os.path.join(res, "results.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    size = man["entries"][0]["m"] if man["entries"] else 0
    L = ["## Decision sweep (%s, %d^3, sm_90 cubins built %s)" % (man.get("git_commit", "")[:12], size,
                                                                  man.get("created")), "",
         "| kernel | best candidate | best T(FL)OP/s | pk auto | auto T(FL)OP/s | behind best | vs unpipelined |",
         "|---|---|---|---|---|---|---|"]
    within = total = never_slower = 0
    for kid in sorted({r["kernel_id"] for r in rows}):
        ks = [r for r in rows if r["kernel_id"] == kid and r["ok"]]
        auto = next((r for r in ks if r["candidate"] == "auto"), None)
        if not ks or not auto:
            L.append("| %s | - | - | - | - | not measured | - |" % kid)
            continue
        best = min(ks, key=lambda r: r["median_ms"])
        unp = min((r for r in ks if r["candidate"].startswith("unpipelined")), key=lambda r: r["median_ms"],
                  default=None)
        behind = 100.0 * (auto["median_ms"] / best["median_ms"] - 1)
        vs_unp = unp and 100.0 * (unp["median_ms"] / auto["median_ms"] - 1)
        total += 1
        within += behind <= 3.0
        never_slower += bool(unp) and auto["median_ms"] <= unp["median_ms"] * 1.005
        chose = "%s x%s @%s" % (auto.get("actual_variant"), auto.get("actual_stages"), auto.get("actual_blocks"))
        L.append("| %s | %s | %.1f | %s | %.1f | %.1f%% | %s |" % (
            kid, best["candidate"], best["rate_t"], chose, auto["rate_t"], behind,
            "%+.1f%%" % vs_unp if unp else "-"))
    L += ["", "pk's auto choice within 3%% of the best on %d of %d kernels (%.0f%%); not slower than the "
          "best unpipelined build (0.5%% noise) on %d of %d." % (
              within, total, 100.0 * within / max(total, 1), never_slower, total)]
    return "\n".join(L) + "\n"


def collect(res):
    """results.md (and for collect "results" results.json) of one spec's folder."""
    plan = _json(os.path.join(res, "plan.json")) or {}
    if plan.get("collect") == "stages":
        if os.path.isdir(os.path.join(res, "tune")):
            subprocess.run([sys.executable, os.path.join(INTEG, "autotune", "collect_stages.py"), "--art",
                            os.path.join(res, "tune"), "--out", res], check=True)
        with open(os.path.join(res, "results.md"), "w") as f:
            f.write(summary(res))
            if os.path.exists(os.path.join(res, "tables.md")):
                f.write("\n" + open(os.path.join(res, "tables.md")).read())
        return os.path.join(res, "results.md")
    if plan.get("collect") == "sweep":
        with open(os.path.join(res, "results.md"), "w") as f:
            f.write(sweep(res) + "\n" + summary(res))
        return os.path.join(res, "results.md")
    if plan.get("collect") == "results":
        argv = [sys.executable, os.path.join(INTEG, "collect_results.py"), "--manifest",
                os.path.join(res, "manifest.json"), "--runs", os.path.join(res, "runs"), "--san",
                os.path.join(res, "san"), "--env", os.path.join(res, "env.txt"),
                "--out-json", os.path.join(res, "results.json"), "--out-md", os.path.join(res, "results.md")]
        if os.path.isdir(os.path.join(res, "sass")):
            argv += ["--sass", os.path.join(res, "sass")]
        for sub in ("runs", "san"):
            os.makedirs(os.path.join(res, sub), exist_ok=True)
        subprocess.run(argv, check=True)
        return os.path.join(res, "results.md")
    with open(os.path.join(res, "results.md"), "w") as f:
        f.write(summary(res))
    return os.path.join(res, "results.md")


def index(results, names):
    lines = ["# pk bundle results", ""] + ["* [%s](%s/results.md)" % (n, n) for n in names]
    with open(os.path.join(results, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def collect_all(results):
    """Every spec folder under results (those with a plan.json)."""
    names = sorted(n for n in os.listdir(results) if os.path.exists(os.path.join(results, n, "plan.json")))
    if not names and os.path.exists(os.path.join(results, "plan.json")):
        collect(results)
        return [results]
    for n in names:
        collect(os.path.join(results, n))
        print("%s: %s" % (n, os.path.join(results, n, "results.md")))
    index(results, names)
    return names
