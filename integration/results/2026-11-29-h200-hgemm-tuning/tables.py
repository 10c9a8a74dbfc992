#!/usr/bin/env python3
"""Markdown tables from a run_tuning.sh log (run from anywhere):
    python3 integration/results/2026-11-29-h200-hgemm-tuning/tables.py tuning.log
(pipelined entries of *_nu configs are the non-_nu ones: pk rebuilds the K-loop without
the unroll-disable annotation, so its output is identical; marked "(=)").
    tables.py --summary RUNS_DIR   -> summary.tsv (run_tuning.sh; pk-runner's JSONs runs/TAG.ID.json)"""
import json, os, re, sys


def summary(runs):
    rows = {}
    for f in sorted(os.listdir(runs)):
        tag, label = f[:-len(".json")].split(".", 1)
        try:
            j = json.load(open(os.path.join(runs, f)))
        except Exception as ex:
            print("# unreadable %s: %s" % (f, ex), file=sys.stderr); continue
        rows.setdefault(label, {})[tag] = j
    print("label\tsize\tregs\tmedian_ms\trate\trep_median_ms\trep_rate\tcheck\tstatus\tmax_abs_err")
    for label in sorted(rows):
        r = rows[label].get("run", {}); p = rows[label].get("rep", {})
        f = lambda d, k, fmt="{}": (fmt.format(d[k]) if k in d and d[k] is not None else "")
        print("\t".join((label, f(r, "m"), f(r, "num_regs"), f(r, "median_ms", "{:.4f}"), f(r, "rate", "{:.0f}"),
                         f(p, "median_ms", "{:.4f}"), f(p, "rate", "{:.0f}"), f(r, "check"), f(r, "status"),
                         f(r, "max_abs_err", "{:.3g}"))))


if sys.argv[1:2] == ["--summary"]:
    summary(sys.argv[2])
    sys.exit(0)
runs={}; reps={}
for l in open(sys.argv[1]):
    m=re.match(r'\[(run|rep) ([^\]]+)\] \S+ \S+ \S+ \S+ \[cubin\] median ([0-9.]+) ms min ([0-9.]+) ms ([0-9.]+) (\S+) \| regs (\d+) local (\d+) \| check (\S+): (\d+) elems, max_abs_err ([^,]+), mismatches (\d+), unwritten (\d+) \| (\w+)',l)
    if not m: continue
    d=dict(med=float(m.group(3)),mn=float(m.group(4)),rate=float(m.group(5))/1000,regs=int(m.group(7)),local=int(m.group(8)),check=m.group(9),err=m.group(11),mm=int(m.group(12)),unw=int(m.group(13)),st=m.group(14))
    (runs if m.group(1)=='run' else reps)[m.group(2)]=d
cfgs=['h_old','h_old_ro','h_row_pad','h_row_pad_ro','h_row_swz','h_row_swz_ro','h_row_swz_nu','h_row_swz_ro_nu','h_row_swz_ro_w4x2','i_old','i_row_swz_ro','i_row_swz_ro_nu']
print("| config | baseline | cp-async | ldg-register | cp-async / baseline | ldg-register / baseline | registers base / cp-async / ldg |")
print("|---|---:|---:|---:|---:|---:|---|")
for c in cfgs:
    b=runs[c+'_baseline_4096']
    src=c.replace('_nu','')
    cp=runs[src+'_cp-async_4096']; lg=runs[src+'_ldg-register_4096']
    star="" if src==c else " (=)"
    print("| %s | %.1f | %.1f%s | %.1f%s | %.2fx | %.2fx | %d / %d / %d%s |" % (c, b['rate'], cp['rate'], star, lg['rate'], star, cp['rate']/b['rate'], lg['rate']/b['rate'], b['regs'], cp['regs'], lg['regs'], " (baseline: %d B local memory)"%b['local'] if b['local'] else ""))
print()
print("| entry | median ms | repeat median ms | rate | repeat rate | min ms | check | max abs err |")
print("|---|---:|---:|---:|---:|---:|---|---:|")
for k,d in runs.items():
    if not k.endswith('_512'):
        rp=reps.get(k)
        print("| %s | %.4f | %s | %.1f | %s | %.4f | %s %s | %s |" % (k, d['med'], "%.4f"%rp['med'] if rp else "-", d['rate'], "%.1f"%rp['rate'] if rp else "-", d['mn'], d['check'], d['st'], d['err']))
print()
print("| entry (512^3) | rate | check | max abs err |")
print("|---|---:|---|---:|")
for k,d in runs.items():
    if k.endswith('_512'):
        print("| %s | %.1f | %s %s, %d mismatches, %d unwritten | %s |" % (k, d['rate'], d['check'], d['st'], d['mm'], d['unw'], d['err']))
