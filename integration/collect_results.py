#!/usr/bin/env python3
"""Collect pk-runner JSON files and compute-sanitizer logs into results.json and
results.md (the collect step of the mma-sync-benchmark spec; can be re-run on a results folder unpacked
elsewhere). Reads the artefact manifest and the run side's files of
integration/pkint.py: runs/TAG.ID.json, san/TOOL.ID.{status,log,json}.

  collect_results.py --manifest M --runs DIR --san DIR --env ENV.txt
                     --out-json results.json --out-md results.md
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pkint  # noqa: E402

VARIANTS = ["baseline", "cp-async", "ldg-register", "register-prefetch"]
ARCHS = ["sm_90", "sm_86"]
KINDS = ["hgemm", "bgemm", "igemm", "sgemm"]
KIND_DESC = {
    "hgemm": "HGEMM f16 x f16 -> f32 (mma.sync m16n8k16), tile 128x128x32",
    "bgemm": "BGEMM bf16 x bf16 -> f32 (mma.sync m16n8k16), tile 128x128x32",
    "igemm": "IGEMM i8 x i8 -> i32 (mma.sync m16n8k32), tile 128x128x64",
    "sgemm": "SGEMM f32 FMA, tile 128x128x8",
}
TOOLS = ["memcheck", "synccheck", "racecheck"]


def read_env(path):
    env = {}
    if path and os.path.exists(path):
        for line in open(path):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                env[k] = v
    return env


def eid(e):
    return e["id"]


def load_json(path):
    try:
        return json.load(open(path))
    except Exception as ex:  # missing or truncated
        return {"status": "error", "error": "no result (%s)" % ex}


def parse_san(san_dir, tool, ident):
    st_path = os.path.join(san_dir, "%s.%s.status" % (tool, ident))
    if not os.path.exists(st_path):
        return None
    st = load_json(st_path)
    out = {"tool": tool, "id": ident}
    if st.get("status", "").startswith("skipped"):
        out.update(verdict="skipped", note=st["status"])
        return out
    rc = st.get("rc")
    out["seconds"] = st.get("seconds")
    out["rc"] = rc
    log = os.path.join(san_dir, "%s.%s.log" % (tool, ident))
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    info = pkint.parse_sanitizer(text)
    out["errors"] = info["errors"]
    for k in ("hazards", "hazard_errors", "hazard_warnings"):
        if k in info:
            out[k] = info[k]
    out["summary"] = info["summary"]
    rj = load_json(os.path.join(san_dir, "%s.%s.json" % (tool, ident)))
    out["runner_status"] = rj.get("status")
    out["runner_mismatches"] = rj.get("mismatches")
    out["messages"] = info["messages"]
    if rc in (124, 137):
        out["verdict"] = "timeout"
    else:
        found = (out["errors"] or 0) + (out.get("hazards") or 0)
        if found == 0 and rc == 0 and out["runner_status"] == "pass":
            out["verdict"] = "clean"
        elif found == 0 and rc == 0:
            out["verdict"] = "clean (runner %s)" % out["runner_status"]
        elif found:
            out["verdict"] = "%d finding(s)" % found
        else:
            out["verdict"] = "rc %s" % rc
    return out


SASS_OPS = ["LDGSTS", "LDGDEPBAR", "DEPBAR", "LDG", "STG", "STS", "LDS", "LDSM", "HMMA", "IMMA",
            "FFMA", "BAR", "BRA"]


def sass_counts(path):
    counts = {k: 0 for k in SASS_OPS}
    total = 0
    for line in open(path, errors="replace"):
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)(\.[A-Z0-9_.]+)?", line)
        if not m:
            continue
        total += 1
        op = m.group(1)
        if op in counts:
            counts[op] += 1
    counts["total"] = total
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--runs", required=True)
    ap.add_argument("--san", required=True)
    ap.add_argument("--env")
    ap.add_argument("--sass", help="dir with <id>.sass (cuobjdump --dump-sass)")
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--out-md", required=True)
    a = ap.parse_args()

    man = json.load(open(a.manifest))
    env = read_env(a.env)
    gpu_csv = env.get("gpu_csv", "")
    gpu, _, driver = gpu_csv.partition(",")

    runs = []
    for e in man["entries"]:
        ident = eid(e)
        r = load_json(os.path.join(a.runs, "run.%s.json" % ident))
        rec = {k: e[k] for k in ("kind", "size", "variant", "arch", "format", "file", "kernel")}
        rec["id"] = ident
        rec["b_int8"] = bool(e.get("b_int8"))
        rec["ptxas"] = e.get("ptxas")
        if "ptxas_sm90_from_ptx" in e:
            rec["ptxas_sm90_from_ptx"] = e["ptxas_sm90_from_ptx"]
        for k in ("status", "pass", "error", "check", "rows_checked", "elements_checked",
                  "max_abs_err", "max_rel_err", "mismatches", "unwritten", "first_mismatches",
                  "median_ms", "min_ms", "mean_ms", "times_ms", "rate", "rate_best", "unit",
                  "num_regs", "local_bytes", "static_shared_bytes", "module_load_ms",
                  "warmup", "iters", "seed", "device", "cc", "command"):
            if k in r:
                rec[k] = r[k]
        rp = os.path.join(a.runs, "rep.%s.json" % ident)
        if os.path.exists(rp):
            rr = load_json(rp)
            rec["repeat"] = {k: rr.get(k) for k in ("status", "median_ms", "min_ms", "rate", "times_ms")}
        sp = os.path.join(a.sass, ident + ".sass") if a.sass else None
        if sp and os.path.exists(sp):
            rec["sass_counts"] = sass_counts(sp)
        runs.append(rec)

    # speedup vs the baseline of the same kind, size and arch
    base = {(r["kind"], r["size"], r["arch"]): r for r in runs if r["variant"] == "baseline"}
    for r in runs:
        b = base.get((r["kind"], r["size"], r["arch"]))
        if b and b.get("median_ms") and r.get("median_ms"):
            r["speedup_vs_baseline"] = b["median_ms"] / r["median_ms"]
        else:
            r["speedup_vs_baseline"] = None

    sans = []
    for e in man["entries"]:
        if e["size"] != 512 or e["arch"] != "sm_90":
            continue
        for tool in TOOLS:
            s = parse_san(a.san, tool, eid(e))
            if s is not None:
                s.update(kind=e["kind"], variant=e["variant"])
                sans.append(s)

    bad = [r["id"] for r in runs if r.get("status") != "pass"]
    san_find = [s["tool"] + ":" + s["id"] for s in sans
                if not s["verdict"].startswith("clean") and s["verdict"] not in ("skipped",)]
    summary = {
        "runs": len(runs),
        "runs_pass": sum(1 for r in runs if r.get("status") == "pass"),
        "not_passing": bad,
        "sanitizer_runs": len(sans),
        "sanitizer_clean": sum(1 for s in sans if s["verdict"].startswith("clean")),
        "sanitizer_not_clean": san_find,
        "sanitizer_skipped": [s["tool"] + ":" + s["id"] for s in sans if s["verdict"] == "skipped"],
    }
    result = {
        "date_utc": env.get("date_utc"),
        "gpu": gpu.strip(), "driver": driver.strip(),
        "command": env.get("command"),
        "environment": env,
        "artifacts": {k: v for k, v in man.items() if k != "entries"},
        "summary": summary,
        "runs": runs,
        "sanitizers": sans,
    }
    json.dump(result, open(a.out_json, "w"), indent=1)

    # ------------------------------------------------------------- markdown
    L = []
    L.append("# pk pipelining: integration results")
    L.append("")
    L.append("- Date (UTC): %s" % env.get("date_utc", "?"))
    L.append("- GPU: %s, driver %s" % (gpu.strip() or "?", driver.strip() or "?"))
    L.append("- Command: `%s`" % env.get("command", "?"))
    L.append("- Toolchain on the GPU machine: %s; sanitizer: %s" % (env.get("nvcc", "?"), env.get("sanitizer", "?")))
    L.append("- GPU state before / after benchmarks (clocks.sm, clocks.max.sm, clocks.mem, temp, power, util): "
             "%s / %s" % (env.get("gpu_state_before", "?"), env.get("gpu_state_after_bench", "?")))
    art = result["artifacts"]
    L.append("- Artefacts: built %s from git %s%s" % (art.get("created", "?"), art.get("git_commit", "?")[:12],
                                                   " (dirty tree)" if art.get("git_dirty") else ""))
    L.append("- Suite wall time on the GPU machine: %s s" % env.get("total_seconds", "?"))
    L.append("")
    L.append("Correctness: %d/%d runs pass%s." % (summary["runs_pass"], summary["runs"],
             "" if not bad else " -- NOT passing: " + ", ".join(bad)))
    L.append("Sanitizers: %d/%d clean%s%s." % (
        summary["sanitizer_clean"], summary["sanitizer_runs"],
        "" if not san_find else " -- findings/failures: " + ", ".join(san_find),
        "" if not summary["sanitizer_skipped"] else "; skipped: " + ", ".join(summary["sanitizer_skipped"])))
    L.append("")
    L.append("Rates are 2*M*N*K / median kernel time (CUDA events, one pair per launch; warmup 3, "
             "iters as listed). Speedup = baseline median / variant median, same arch. "
             "sm_90 = cubin (pk's PTX, `ptxas -O3`: the bytes of `gpu-module-to-binary format=bin`); "
             "sm_86 = PTX (`.target sm_86`, PTX ISA 8.0) JIT-compiled by the driver for the H200. "
             "Correctness: 512^3 every "
             "element, 4096^3 64 rows (row 0, row 4095, 62 random) x all columns, against a "
             "double (int64) CPU reference; tolerance abs/rel igemm 0.5/0.1, hgemm and bgemm 1e-2/1e-2, "
             "sgemm 1e-3/1e-3. regs = registers reported by the driver for the loaded function. "
             "(rep x) = median of a second, independent timing run (same binary, --check none) "
             "to show run-to-run noise.")
    L.append("")

    def fmt_rate(r):
        return "%.0f" % r["rate"] if r.get("rate") is not None else "n/a"

    for kind in KINDS:
        for size in sorted({r["size"] for r in runs if r["kind"] == kind}):
            sel = [r for r in runs if r["kind"] == kind and r["size"] == size]
            if not sel:
                continue
            unit = "GOPS" if kind == "igemm" else "GFLOPS"
            desc = KIND_DESC[kind]
            if any(r.get("b_int8") for r in sel):
                # gen_gemm.py --b-int8: B is int8, converted in the load phase
                desc = re.sub(r" x \S+ ->", " x int8 (B, converted in the load phase) ->", desc, count=1)
            L.append("## %s, %dx%dx%d" % (desc, size, size, size))
            L.append("")
            L.append("| Variant | arch | %s | Speedup vs Baseline | correctness | median ms | max abs err | regs |" % unit)
            L.append("|---|---|---:|---:|---|---:|---:|---:|")
            sel.sort(key=lambda r: (ARCHS.index(r["arch"]) if r["arch"] in ARCHS else 9,
                                    VARIANTS.index(r["variant"]) if r["variant"] in VARIANTS else 9))
            for r in sel:
                st = r.get("status", "error")
                if st == "pass":
                    corr = "PASS (%s)" % r.get("check")
                elif st == "fail":
                    corr = "**FAIL** %s/%s wrong, %s unwritten" % (r.get("mismatches"), r.get("elements_checked"),
                                                                 r.get("unwritten"))
                else:
                    corr = "**ERROR** %s" % (r.get("error") or "")[:120]
                sp = "%.2fx" % r["speedup_vs_baseline"] if r.get("speedup_vs_baseline") else "n/a"
                L.append("| %s | %s %s | %s | %s | %s | %s | %s | %s |" % (
                    r["variant"], r["arch"], "cubin" if r["format"] == "cubin" else "PTX-JIT",
                    fmt_rate(r), sp, corr,
                    ("%.4f" % r["median_ms"] if r.get("median_ms") is not None else "n/a")
                    + (" (rep %.4f)" % r["repeat"]["median_ms"]
                       if r.get("repeat") and r["repeat"].get("median_ms") is not None else ""),
                    "%.3g" % r["max_abs_err"] if r.get("max_abs_err") is not None else "n/a",
                    r.get("num_regs", "?")))
            L.append("")

    sass_rows = [r for r in runs if r.get("sass_counts")]
    if sass_rows:
        L.append("## SASS opcode counts, 4096^3 sm_90 cubins (cuobjdump --dump-sass, static counts)")
        L.append("")
        L.append("| kernel | variant | " + " | ".join(SASS_OPS) + " | total |")
        L.append("|---|---|" + "---:|" * (len(SASS_OPS) + 1))
        for r in sass_rows:
            c = r["sass_counts"]
            L.append("| %s | %s | %s | %d |" % (r["kind"], r["variant"],
                                               " | ".join(str(c[k]) for k in SASS_OPS), c["total"]))
        L.append("")

    if sans:
        L.append("## compute-sanitizer, 512^3, sm_90 cubin (`--check full --warmup 0 --iters 1`)")
        L.append("")
        L.append("| kernel | variant | memcheck | synccheck | racecheck |")
        L.append("|---|---|---|---|---|")
        by = {}
        for s in sans:
            by.setdefault((s["kind"], s["variant"]), {})[s["tool"]] = s
        # the known variants in their order, then the spec's others as run
        extra = [v for _, v in by if v not in VARIANTS]
        for kind in KINDS:
            for v in VARIANTS + sorted(set(extra), key=extra.index):
                row = by.get((kind, v))
                if not row:
                    continue
                cells = []
                for t in TOOLS:
                    s = row.get(t)
                    if not s:
                        cells.append("not run")
                    else:
                        c = s["verdict"]
                        if s.get("seconds") is not None:
                            c += " (%.0f s)" % s["seconds"]
                        cells.append(c)
                L.append("| %s | %s | %s |" % (kind, v, " | ".join(cells)))
        L.append("")
        notes = [s for s in sans if not s["verdict"].startswith("clean") and s["verdict"] != "skipped"]
        for s in notes:
            L.append("- %s %s: %s; %s" % (s["tool"], s["id"], s["verdict"],
                                         "; ".join(s.get("messages", [])[:3]) or "; ".join(s.get("summary", []))))
        if notes:
            L.append("")
    open(a.out_md, "w").write("\n".join(L) + "\n")
    print("results: %s, %s" % (a.out_json, a.out_md))


if __name__ == "__main__":
    main()
