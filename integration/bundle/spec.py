"""Spec files (integration/specs/*.toml): parse, validate, expand.

A spec names one experiment: the kernels to build (generator arguments or
a checked-in example, pk options, arch, lowering, sizes, build checks) and
the run plan on the GPU machine (checks, timings, vendor baselines,
sanitizers). integration/README.md documents the format; this module is
its one reader. python3 >= 3.11 (tomllib) on the build side; the run side
reads the bundle's JSON, not the spec.

    load(path)      -> Spec (SpecError names the file and the key)
    Spec.jobs()     -> one Job per manifest entry, in build order
"""

import itertools
import os
import re

try:
    import tomllib
except ImportError:  # python < 3.11: only the run side works there
    tomllib = None


class SpecError(Exception):
    pass


LOWERINGS = ("pk", "mlir-opt")
BUILD_CHECKS = ("shared-tiles", "kernel-symbol")
STEPS = ("check", "bench", "run", "vendor", "sanitize", "sass", "dump", "tune", "tune-sanitize", "tune-decide")
COLLECTS = ("summary", "results", "stages", "sweep")
SCHEDULES = ("auto", "two-stage", "multistage", "mma-in-flight", "warp-specialized")

TOP_KEYS = {"name", "about", "defaults", "kernel", "tune", "run"}
# [[tune]]: one autotune.py candidate set (integration/autotune/): a kernel and
# the candidates autotune.py builds, runs, sanitizes and decides between
TUNE_KEYS = {"set": str, "source": str, "generator": list, "sizes": list, "shapes": list,
             "candidates": str, "arch": str}
# kernel keys (also allowed in [defaults]) -> python type(s)
KERNEL_KEYS = {
    "stem": str, "kernel": str, "kind": str, "arch": str, "generator": list, "generator_args": list,
    "source": str, "pk": str, "lowering": str, "ptx_isa": int, "jit_estimate": str, "expect": str,
    "allow_race": bool, "sizes": list, "shapes": list, "id": str, "fields": dict, "tma": list,
    "checks": list, "matrix": dict, "report": bool, "cubin": str, "allow_failure": bool, "sass_check": str,
}
RUN_KEYS = {"deadline_s", "step", "collect", "sanitizer_where_env"}
STEP_KEYS = {
    "do": str, "tag": str, "where": list, "check": str, "warmup": int, "iters": int, "seed": int,
    "seed_base": int, "timeout_s": int, "sizes": list, "shapes": list, "jobs": list, "parallel": int, "min_left_s": int,
    "name": str, "deadline_s": int, "sets": list, "rounds": int, "tools": str, "select": str,
    "sanitizers_from": str, "args": list,
}
# presets of the run steps (a step's own keys win)
STEP_DEFAULTS = {
    "check": dict(tag="check", where=["size=512"], check="full", warmup=0, iters=1, seed=1, timeout_s=60),
    "bench": dict(tag="bench", where=["size!=512"], check="rows:64", warmup=5, iters=20, seed=2, timeout_s=90),
    "run": dict(tag="run", warmup=3, iters=20, timeout_s=120),
    "vendor": dict(tag="run", timeout_s=150),
    "sanitize": dict(parallel=1, timeout_s=240, seed_base=5000, min_left_s=15),
    "sass": dict(name="{id}"),
    "dump": dict(tag="check", seed=1, timeout_s=60),
    "tune": dict(rounds=1, warmup=3, iters=10, timeout_s=120),
    "tune-sanitize": dict(tools="memcheck,racecheck,synccheck", select="pipelined", parallel=6, timeout_s=150),
    "tune-decide": dict(timeout_s=60),
}
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def render(value, env, where):
    """value with {var} replaced from env; a string that is exactly one
    {var} keeps the variable's type (an int stays an int)."""
    if isinstance(value, str):
        m = _FIELD.fullmatch(value)
        if m and m.group(1) in env:
            return env[m.group(1)]
        missing = [v for v in _FIELD.findall(value) if v not in env]
        if missing:
            raise SpecError("%s: unknown variable {%s} in %r" % (where, missing[0], value))
        return _FIELD.sub(lambda mm: str(env[mm.group(1)]), value)
    if isinstance(value, list):
        return [render(v, env, where) for v in value]
    if isinstance(value, dict):
        return {k: render(v, env, where) for k, v in value.items()}
    return value


def pk_option_errors(opts):
    """What is wrong with a pk options string (the spec's `pk`): key=value
    words; schedule spelled as pk spells it (two-stage, not the old seed)."""
    errs = []
    for w in opts.split():
        if "=" not in w:
            errs.append("%r is not key=value" % w)
            continue
        k, v = w.split("=", 1)
        if k == "arch":
            errs.append("arch is the kernel's `arch` key, not a pk option")
        if k in ("emit", "out-dir", "bare-ptr", "report"):
            errs.append("%s is set by the build" % k)
        if k == "schedule" and v not in SCHEDULES:
            errs.append("schedule=%s: one of %s" % (v, ", ".join(SCHEDULES)))
    return errs


class Job:
    """One manifest entry to build: the kernel block's keys, rendered."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __repr__(self):
        return "Job(%s)" % self.id


class Spec:
    def __init__(self, path, data, text):
        self.path = path
        self.text = text
        self.data = data
        self.name = data["name"]
        self.about = data.get("about", "")
        self.defaults = data.get("defaults", {})
        self.kernels = data.get("kernel", [])
        self.tune_blocks = data.get("tune", [])
        self.run = data.get("run", {})

    def where(self, *keys):
        return "%s: %s" % (self.path, ".".join(str(k) for k in keys))

    def jobs(self):
        out = []
        for i, block in enumerate(self.kernels):
            k = dict(self.defaults, **block)
            # fields add to the defaults' fields
            k["fields"] = dict(self.defaults.get("fields", {}), **block.get("fields", {}))
            out += self._expand(i, k)
        ids = [j.id for j in out]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise SpecError("%s: duplicate entry ids %s" % (self.path, ", ".join(dup)))
        return out

    def _expand(self, i, k):
        w = self.where("kernel[%d]" % i)
        matrix = k.get("matrix", {})
        names = list(matrix)
        combos = itertools.product(*(matrix[n] for n in names)) if names else [()]
        jobs = []
        for combo in combos:
            env, kk = {}, dict(k)
            for n, v in zip(names, combo):
                if isinstance(v, dict):
                    # a table: its kernel keys set the kernel's, all are variables
                    for kv, vv in v.items():
                        if kv in KERNEL_KEYS and kv != "matrix":
                            kk[kv] = vv
                        if not isinstance(vv, (list, dict)):
                            env[kv] = vv
                else:
                    env[n] = v
            shapes = kk.get("shapes") or [[s, s, s] for s in kk.get("sizes", [])]
            if not shapes:
                raise SpecError("%s: no sizes or shapes" % w)
            for m, n_, kdim in shapes:
                e = dict(env, m=m, n=n_, k=kdim, arch=kk.get("arch"), kind=kk.get("kind"),
                         dims=m if m == n_ == kdim else "%dx%dx%d" % (m, n_, kdim))
                e["stem"] = render(kk["stem"], e, w + ".stem")
                jobs.append(self._job(w, kk, e))
        return jobs

    def _job(self, w, k, env):
        r = {key: render(k[key], env, "%s.%s" % (w, key)) for key in k if key != "matrix"}
        fields = dict(r.get("fields", {}))
        if r.get("tma"):
            fields["tma"] = r["tma"]
        pk = r.get("pk")
        expect = r.get("expect")
        if expect is None:
            expect = "remark: ptxas" if pk is None else "remark: pipelined:"
            if r.get("lowering") == "mlir-opt":
                expect = None if pk is None else "remark: pipelined:"
        return Job(
            id=render(r.get("id", "{stem}_{m}_{arch}"), dict(env), w + ".id"), stem=env["stem"],
            kernel=r["kernel"], kind=r["kind"], arch=r["arch"], m=env["m"], n=env["n"], k=env["k"],
            generator=[] if r.get("source") else (r.get("generator") or []) + (r.get("generator_args") or []),
            source=r.get("source"),
            pk=pk, lowering=r.get("lowering", "pk"), ptx_isa=r.get("ptx_isa", 80),
            jit_estimate=r.get("jit_estimate"), expect=expect, allow_race=bool(r.get("allow_race")),
            checks=r.get("checks", []), fields=fields, report=bool(r.get("report")),
            cubin=r.get("cubin", "ptxas"), allow_failure=bool(r.get("allow_failure")),
            sass_check=r.get("sass_check"))

    def tunes(self):
        """The [[tune]] blocks, one per set: Job(set, source | generator, m, n,
        k, candidates, arch)."""
        out = []
        for i, t in enumerate(self.tune_blocks):
            w = self.where("tune[%d]" % i)
            shapes = t.get("shapes") or [[x, x, x] for x in t.get("sizes", [])] or [[None, None, None]]
            for m, n, k in shapes:
                env = dict(m=m, n=n, k=k, dims=m if m == n == k else "%sx%sx%s" % (m, n, k))
                out.append(Job(set=render(t["set"], env, w + ".set"), source=t.get("source"),
                               generator=render(t.get("generator", []), env, w + ".generator"), m=m, n=n, k=k,
                               candidates=t.get("candidates", "auto"), arch=t.get("arch", "sm_90")))
        sets = [t.set for t in out]
        dup = sorted({x for x in sets if sets.count(x) > 1})
        if dup:
            raise SpecError("%s: duplicate tune sets %s" % (self.path, ", ".join(dup)))
        return out

    def steps(self):
        """The run plan: [(step dict with the presets filled in)]."""
        out = []
        for s in self.run.get("step", []):
            out.append(dict(STEP_DEFAULTS[s["do"]], **s))
        return out

    def collect(self):
        return self.run.get("collect", "summary")


def candidate_error(text):
    """autotune.py's own reading of a candidate list (None: fine)."""
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "autotune"))
    import autotune
    try:
        autotune.parse_candidates(text, [2, 3, 4])
    except SystemExit as ex:
        return str(ex)
    return None


def _typecheck(where, table, keys):
    errs = []
    for key, v in table.items():
        if key not in keys:
            errs.append("%s.%s: unknown key (known: %s)" % (where, key, ", ".join(sorted(keys))))
        elif isinstance(keys, dict) and not isinstance(v, keys[key]):
            errs.append("%s.%s: %s expected, got %r" % (where, key, keys[key].__name__, v))
    return errs


def validate(path, data):
    """Every problem of a parsed spec, as 'file: key: what' lines."""
    errs = _typecheck(path, data, TOP_KEYS)
    if not isinstance(data.get("name"), str) or not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", data.get("name") or ""):
        errs.append("%s: name: a lower-case word (the bundle's name) is required" % path)
    defaults = data.get("defaults", {})
    errs += _typecheck(path + ": defaults", defaults, KERNEL_KEYS)
    kernels = data.get("kernel", [])
    if not kernels and not data.get("tune"):
        errs.append("%s: no [[kernel]] blocks" % path)
    for i, t in enumerate(data.get("tune", [])):
        w = "%s: tune[%d]" % (path, i)
        errs += _typecheck(w, t, TUNE_KEYS)
        if "set" not in t:
            errs.append("%s: set (the candidate set's name) is required" % w)
        if bool(t.get("source")) == bool(t.get("generator")):
            errs.append("%s: one of source (an .mlir file) and generator (gen_gemm.py arguments) is required" % w)
        if t.get("generator") and not (t.get("sizes") or t.get("shapes")):
            errs.append("%s: a generated kernel needs sizes or shapes" % w)
        err = candidate_error(t.get("candidates", "auto"))
        if err:
            errs.append("%s.candidates: %s" % (w, err))
    for i, block in enumerate(kernels):
        w = "%s: kernel[%d]" % (path, i)
        errs += _typecheck(w, block, KERNEL_KEYS)
        k = dict(defaults, **block)
        # keys a matrix table sets count as set
        tables = [v for vs in k.get("matrix", {}).values() if isinstance(vs, list) for v in vs if isinstance(v, dict)]
        for t in tables:
            errs += _typecheck(w + ".matrix", {kk: vv for kk, vv in t.items() if kk in KERNEL_KEYS},
                               KERNEL_KEYS)

        def has(key):
            return key in k or any(key in t for t in tables)
        for need in ("stem", "kernel", "kind", "arch"):
            if not has(need):
                errs.append("%s: %s is required (here, in [defaults] or in a matrix table)" % (w, need))
        if not has("generator") and not has("source"):
            errs.append("%s: generator (gen_gemm.py arguments) or source (an .mlir file) is required" % w)
        if k.get("generator") and k.get("source"):
            errs.append("%s: generator and source exclude each other" % w)
        if k.get("cubin", "ptxas") not in ("ptxas", "pk"):
            errs.append("%s.cubin: ptxas (the PTX assembled without -v) or pk (pk's own, ptxas -v)" % w)
        if k.get("lowering", "pk") not in LOWERINGS:
            errs.append("%s.lowering: one of %s" % (w, ", ".join(LOWERINGS)))
        for c in k.get("checks", []):
            if c not in BUILD_CHECKS:
                errs.append("%s.checks: %r is not one of %s" % (w, c, ", ".join(BUILD_CHECKS)))
        for sh in k.get("shapes", []):
            if not (isinstance(sh, list) and len(sh) == 3 and all(isinstance(x, int) for x in sh)):
                errs.append("%s.shapes: [M, N, K] lists of integers expected, got %r" % (w, sh))
        for name, vals in k.get("matrix", {}).items():
            if not isinstance(vals, list) or not vals:
                errs.append("%s.matrix.%s: a non-empty list expected" % (w, name))
        if isinstance(k.get("pk"), str) and "{" not in k["pk"]:
            errs += ["%s.pk: %s" % (w, e) for e in pk_option_errors(k["pk"])]
    run = data.get("run", {})
    errs += _typecheck(path + ": run", run, RUN_KEYS)
    if run.get("collect", "summary") not in COLLECTS:
        errs.append("%s: run.collect: one of %s" % (path, ", ".join(COLLECTS)))
    for i, s in enumerate(run.get("step", [])):
        w = "%s: run.step[%d]" % (path, i)
        errs += _typecheck(w, s, STEP_KEYS)
        if s.get("do") not in STEPS:
            errs.append("%s.do: one of %s" % (w, ", ".join(STEPS)))
        if s.get("do") == "sanitize" and not s.get("jobs"):
            errs.append("%s.jobs: 'TOOL[,TOOL]@FILTER[,FILTER]' items are required" % w)
    return errs


def parse(text, path="<spec>"):
    if tomllib is None:
        raise SpecError("reading spec files needs python >= 3.11 (tomllib)")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as ex:
        raise SpecError("%s: %s" % (path, ex))
    errs = validate(path, data)
    if errs:
        raise SpecError("\n".join(errs))
    spec = Spec(path, data, text)
    spec.tunes()
    for j in spec.jobs():  # rendering errors and pk options after the templates
        if j.pk:
            bad = pk_option_errors(j.pk)
            if bad:
                raise SpecError("%s: %s.pk: %s" % (path, j.id, "; ".join(bad)))
    return spec


def load(path):
    with open(path) as f:
        return parse(f.read(), os.path.relpath(path))
