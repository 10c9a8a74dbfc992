#!/usr/bin/env python3
"""gpu_compare: the GPU-machine half of pk-iree (copied into OUT/ by
pk_iree.py; needs python3 + numpy only, no IREE compiler, no MLIR).

    python3 gpu_compare.py gen OUT        # OUT/inputs/arg<i>.npy from OUT/case.json (seeded)
    python3 gpu_compare.py compare OUT    # OUT/outputs/{iree,pk}_<i>.npy -> max error, pass/fail
    python3 gpu_compare.py bench OUT FILE # mean ms of an iree-benchmark-module JSON (FILE)
    python3 gpu_compare.py row OUT        # the one-line table row (OUT/result.json)

Inputs: uniform in [-1, 1) (integers: [-4, 4)), numpy's default_rng(seed of
case.json, one stream per argument), cast to the argument's dtype.

Tolerance (f32 accumulation order may differ between IREE's kernel and pk's;
f16 results round once more): an element passes when
``|pk - iree| <= rtol * |iree| + atol_per_k * K`` with rtol = 1e-2 and
atol_per_k = 1e-5 (K: the contraction length, case.json; 0.041 at K = 4096,
where |result| is about sqrt(K)/3 = 21). Integer results must be equal.
"""

import json
import os
import sys

import numpy as np

RTOL = 1e-2
ATOL_PER_K = 1e-5


def load_case(out):
    with open(os.path.join(out, "case.json")) as f:
        return json.load(f)


def gen(out):
    case = load_case(out)
    d = os.path.join(out, "inputs")
    os.makedirs(d, exist_ok=True)
    for i, a in enumerate(case["inputs"]):
        rng = np.random.default_rng(case["seed"] + i)
        dt = np.dtype(a["dtype"])
        if dt.kind in "iu":
            x = rng.integers(-4, 4, size=a["shape"]).astype(dt)
        else:
            x = rng.uniform(-1.0, 1.0, size=a["shape"]).astype(dt)
        np.save(os.path.join(d, "arg%d.npy" % i), x)


def compare(out):
    case = load_case(out)
    k = case["k"]
    worst_abs, worst_rel, ok = 0.0, 0.0, True
    lines = []
    for i, r in enumerate(case["results"]):
        a = np.load(os.path.join(out, "outputs", "iree_%d.npy" % i))
        b = np.load(os.path.join(out, "outputs", "pk_%d.npy" % i))
        if a.shape != b.shape or a.dtype != b.dtype:
            lines.append("result %d: shape/dtype differ: IREE %s %s, pk %s %s"
                         % (i, a.shape, a.dtype, b.shape, b.dtype))
            ok = False
            continue
        if a.dtype.kind in "iu":
            d = np.abs(a.astype(np.int64) - b.astype(np.int64))
            bad = int((d != 0).sum())
            m = float(d.max()) if d.size else 0.0
            worst_abs = max(worst_abs, m)
        else:
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            if not np.isfinite(b64).all() and np.isfinite(a64).all():
                lines.append("result %d: pk has non-finite values" % i)
                ok = False
            d = np.abs(a64 - b64)
            tol = RTOL * np.abs(a64) + ATOL_PER_K * k
            bad = int((~(d <= tol)).sum())
            m = float(np.nanmax(d)) if d.size else 0.0
            worst_abs = max(worst_abs, m)
            scale = float(np.abs(a64).max()) if a64.size else 0.0
            worst_rel = max(worst_rel, m / scale if scale else m)
        lines.append("result %d: %s %s, max |pk - iree| = %.4g, %d element(s) out of tolerance"
                     % (i, a.dtype, "x".join(map(str, a.shape)), m, bad))
        ok = ok and bad == 0
    lines.append("tolerance: |pk - iree| <= %g*|iree| + %g*K (K = %d); %s"
                 % (RTOL, ATOL_PER_K, k, "PASS" if ok else "FAIL"))
    res = _result(out)
    res.update({"max_abs_err": worst_abs, "max_rel_err": worst_rel, "pass": ok})
    _save(out, res)
    print("\n".join(lines))
    return 0 if ok else 1


def bench(out, path, which):
    with open(path) as f:
        txt = f.read()
    # iree-benchmark-module may print log lines before the JSON object
    j = json.loads(txt[txt.index("{"):])
    times = []
    for b in j.get("benchmarks", []):
        if b.get("run_type") == "aggregate":
            continue
        unit = b.get("time_unit", "ns")
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[unit]
        times.append(b["real_time"] * scale)
    if not times:
        raise SystemExit("no benchmark iterations in %s" % path)
    ms = sum(times) / len(times)
    res = _result(out)
    res[which + "_ms"] = ms
    res[which + "_ms_all"] = times
    _save(out, res)
    print("%s: %.4f ms (mean of %d repetitions: %s)"
          % (which, ms, len(times), ", ".join("%.4f" % t for t in times)))


def row(out):
    case = load_case(out)
    r = _result(out)
    i, p = r.get("iree_ms"), r.get("pk_ms")
    sp = (i / p) if i and p else None
    fl = case.get("flop")
    cell = lambda v, f: (f % v) if v is not None else "-"
    print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
        case["program"], cell(i, "%.3f"), cell(p, "%.3f"), cell(sp, "%.2fx"),
        cell(fl / i / 1e9 if fl and i else None, "%.0f"), cell(fl / p / 1e9 if fl and p else None, "%.0f"),
        cell(r.get("max_abs_err"), "%.3g"),
        {True: "pass", False: "FAIL", None: "-"}[r.get("pass")]))


def reprow(out):
    """The row of the *_rep modules (pk-iree --dispatch-repeat N): the mean
    time per call divided by N, i.e. per dispatch (one dispatch per call)."""
    case = load_case(out)
    r = _result(out)
    n = case.get("dispatch_repeat") or 0
    i, p = r.get("iree_rep_ms"), r.get("pk_rep_ms")
    i, p = (i / n if i and n else None), (p / n if p and n else None)
    sp = (i / p) if i and p else None
    fl = case.get("flop")
    cell = lambda v, f: (f % v) if v is not None else "-"
    print("| %s | %d | %s | %s | %s | %s | %s |" % (
        case["program"], n, cell(i, "%.3f"), cell(p, "%.3f"), cell(sp, "%.2fx"),
        cell(fl / i / 1e9 if fl and i else None, "%.0f"), cell(fl / p / 1e9 if fl and p else None, "%.0f")))


def _result(out):
    p = os.path.join(out, "result.json")
    if os.path.exists(p):
        with open(p) as f:
            return json.load(f)
    return {}


def _save(out, res):
    with open(os.path.join(out, "result.json"), "w") as f:
        json.dump(res, f, indent=1)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd, out = argv[0], argv[1]
    if cmd == "gen":
        gen(out)
    elif cmd == "compare":
        return compare(out)
    elif cmd == "bench":
        bench(out, argv[2], argv[3])
    elif cmd == "row":
        row(out)
    elif cmd == "reprow":
        reprow(out)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
