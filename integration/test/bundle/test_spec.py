#!/usr/bin/env python3
"""Unit tests of pk-bundle's spec reader (integration/bundle/spec.py), the
dry-run build and the collect step, without a GPU, MLIR or pk-opt: every
checked-in spec is valid, templates and matrices expand, mistakes are named
by file and key, schedule names are pk's (two-stage), the run presets.
Run: python3 test_spec.py -v"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
INTEG = os.path.join(ROOT, "integration")
sys.path.insert(0, INTEG)
sys.path.insert(0, os.path.join(INTEG, "bundle"))
import spec  # noqa: E402
import build  # noqa: E402
import collect  # noqa: E402
import pkint  # noqa: E402

CLI = os.path.join(INTEG, "pk-bundle.py")
BASE = """
name = "t"
[defaults]
kind = "hgemm"
kernel = "k"
arch = "sm_90"
generator = ["--kind", "hgemm"]
sizes = [512]
"""


def parse(extra, base=BASE):
    return spec.parse(base + extra, "t.toml")


class Specs(unittest.TestCase):
    def test_checked_in_specs(self):
        paths = sorted(glob.glob(os.path.join(INTEG, "specs", "*.toml")))
        self.assertGreaterEqual(len(paths), 8)
        names = set()
        for p in paths:
            s = spec.load(p)
            self.assertEqual(s.name + ".toml", os.path.basename(p))
            names.add(s.name)
            jobs = s.jobs()
            self.assertTrue(jobs or s.tunes(), p)
            for j in jobs:
                self.assertNotIn("schedule=seed", j.pk or "", j.id)
                self.assertTrue(j.generator or j.source, j.id)
        p = subprocess.run([sys.executable, CLI, "check", "all"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_entry_counts(self):
        # what the old scripts built (their recorded runs' sizes)
        counts = {n: len(spec.load(os.path.join(INTEG, "specs", n + ".toml")).jobs()) for n in (
            "mma-sync-benchmark", "hopper-wgmma", "wgmma-pipelined", "wgmma-2wg", "tma-input", "tma-ring",
            "tma-ws", "wgmma-fix", "sweep")}
        self.assertEqual(counts, {"mma-sync-benchmark": 48, "hopper-wgmma": 4, "wgmma-pipelined": 27,
                                  "wgmma-2wg": 48, "tma-input": 6, "tma-ring": 32, "tma-ws": 65, "wgmma-fix": 12,
                                  "sweep": 408})
        st = spec.load(os.path.join(INTEG, "specs", "stages.toml"))
        self.assertEqual([t.set for t in st.tunes()], [
            "hgemm_4096", "igemm_4096", "hgemm_512", "igemm_512", "hgemm_512x512x4000", "hgemm_512x512x4008",
            "hgemm_512x512x40", "hgemm_512x512x33", "hgemm_512x512x32", "hgemm_4096x4096x4000"])

    def test_tune_sets(self):
        s = parse("""
[[tune]]
set = "h_{m}x{n}x{k}"
generator = ["--kind", "hgemm"]
shapes = [[512, 512, 40]]
candidates = "baseline,cp-async:2:two-stage"
[[run.step]]
do = "tune"
sets = ["h_.*"]
""", 'name = "t"\n')
        (t,) = s.tunes()
        self.assertEqual((t.set, t.m, t.k, t.candidates, t.arch), ("h_512x512x40", 512, 40, "baseline,cp-async:2:two-stage", "sm_90"))
        self.assertEqual(s.steps()[0]["rounds"], 1)
        # autotune.py's own candidate reader: pk's old schedule name is refused
        err = self.errors('[[tune]]\nset = "a"\nsource = "x.mlir"\ncandidates = "cp-async:2:seed"\n', 'name = "t"\n')
        self.assertIn("tune[0].candidates: autotune: schedule 'seed' is called two-stage now", err)
        self.assertIn("one of source", self.errors('[[tune]]\nset = "a"\n', 'name = "t"\n'))

    def test_matrix_and_templates(self):
        s = parse("""
[[kernel]]
stem = "cp_s{stages}"
matrix = { stages = [2, 3] }
pk = "variant=cp-async stages={stages}"
fields = { variant = "cp-async-s{stages}", stages = "{stages}" }
[[kernel]]
stem = "rect"
shapes = [[256, 384, 640]]
id = "{stem}_{dims}"
""")
        jobs = s.jobs()
        self.assertEqual([j.id for j in jobs], ["cp_s2_512_sm_90", "cp_s3_512_sm_90", "rect_256x384x640"])
        self.assertEqual(jobs[1].pk, "variant=cp-async stages=3")
        self.assertEqual(jobs[1].fields, {"variant": "cp-async-s3", "stages": 3})  # "{var}" keeps the int
        self.assertEqual(jobs[1].expect, "remark: pipelined:")
        self.assertEqual((jobs[2].m, jobs[2].n, jobs[2].k, jobs[2].pk, jobs[2].expect),
                         (256, 384, 640, None, "remark: ptxas"))

    def test_matrix_tables_set_kernel_keys(self):
        s = parse("""
[[kernel]]
stem = "{kind}_{variant}"
[kernel.matrix]
kind = [{ kind = "igemm", kernel = "igemm_k" }]
variant = [{ variant = "baseline" }, { variant = "ldg", pk = "variant=ldg-register" }]
size = [{ sizes = [4096], source = "examples/{kernel}.mlir" }]
""")
        jobs = s.jobs()
        self.assertEqual([(j.id, j.kind, j.kernel, j.pk, j.source, j.generator) for j in jobs], [
            ("igemm_baseline_4096_sm_90", "igemm", "igemm_k", None, "examples/igemm_k.mlir", []),
            ("igemm_ldg_4096_sm_90", "igemm", "igemm_k", "variant=ldg-register", "examples/igemm_k.mlir", [])])

    def test_fields_add_to_defaults(self):
        s = parse('[[kernel]]\nstem = "a"\nfields = { variant = "x" }\ntma = [{ arg = "A", box = [64, 128] }]\n',
                  BASE + 'fields = { b_layout = "kn", threads = 128 }\n')
        self.assertEqual(s.jobs()[0].fields, {"b_layout": "kn", "threads": 128, "variant": "x",
                                              "tma": [{"arg": "A", "box": [64, 128]}]})

    def errors(self, text, base=BASE):
        with self.assertRaises(spec.SpecError) as cm:
            parse(text, base)
        return str(cm.exception)

    def test_errors(self):
        self.assertIn("t.toml: kernel[0].colour: unknown key", self.errors('[[kernel]]\nstem = "a"\ncolour = 1\n'))
        self.assertIn("kernel[0].sizes: list expected", self.errors('[[kernel]]\nstem = "a"\nsizes = 512\n'))
        self.assertIn("unknown variable {stages}", self.errors('[[kernel]]\nstem = "a{stages}"\n'))
        self.assertIn("duplicate entry ids a_512_sm_90", self.errors('[[kernel]]\nstem = "a"\n[[kernel]]\nstem = "a"\n'))
        self.assertIn("no [[kernel]] blocks", self.errors(""))
        self.assertIn("pk: arch is the kernel's `arch` key", self.errors('[[kernel]]\nstem = "a"\npk = "arch=sm_80"\n'))
        self.assertIn("out-dir is set by the build", self.errors('[[kernel]]\nstem = "a"\npk = "out-dir=x"\n'))
        self.assertIn("cubin: ptxas (the PTX assembled without -v) or pk",
                      self.errors('[[kernel]]\nstem = "a"\ncubin = "nvcc"\n'))
        self.assertIn("lowering: one of pk, mlir-opt", self.errors('[[kernel]]\nstem = "a"\nlowering = "nvcc"\n'))
        self.assertIn("run.step[0].do: one of", self.errors('[[kernel]]\nstem = "a"\n[[run.step]]\ndo = "fly"\n'))
        self.assertIn("run.step[0].jobs", self.errors('[[kernel]]\nstem = "a"\n[[run.step]]\ndo = "sanitize"\n'))
        self.assertIn("t.toml:", self.errors('[[kernel]\n'))  # TOML syntax
        self.assertIn("generator and source exclude", self.errors('[[kernel]]\nstem = "a"\nsource = "x.mlir"\n'))
        self.assertIn("kernel is required", self.errors('[[kernel]]\nstem = "a"\n', BASE.replace('kernel = "k"\n', "")))

    def test_schedule_names(self):
        for sched in ("two-stage", "multistage", "mma-in-flight", "warp-specialized", "auto"):
            parse('[[kernel]]\nstem = "a"\npk = "variant=cp-async stages=2 schedule=%s"\n' % sched)
        # pk's old name of the two-stage order is refused, also through a template
        self.assertIn("schedule=seed: one of auto, two-stage",
                      self.errors('[[kernel]]\nstem = "a"\npk = "variant=cp-async schedule=seed"\n'))
        self.assertIn("schedule=seed", self.errors(
            '[[kernel]]\nstem = "a{s}"\nmatrix = { s = ["seed"] }\npk = "schedule={s}"\n'))

    def test_run_presets(self):
        s = parse('[[kernel]]\nstem = "a"\n[run]\n[[run.step]]\ndo = "check"\n[[run.step]]\ndo = "bench"\n'
                  'iters = 5\n[[run.step]]\ndo = "sanitize"\njobs = ["memcheck@size=512"]\n')
        c, b, z = s.steps()
        self.assertEqual((c["tag"], c["where"], c["check"], c["iters"], c["seed"]), ("check", ["size=512"], "full", 1, 1))
        self.assertEqual((b["tag"], b["where"], b["check"], b["iters"], b["warmup"]), ("bench", ["size!=512"], "rows:64", 5, 5))
        self.assertEqual((z["parallel"], z["timeout_s"], z["seed_base"]), (1, 240, 5000))
        self.assertEqual(s.collect(), "summary")


class DryRun(unittest.TestCase):
    def test_dry_run(self):
        p = subprocess.run([sys.executable, CLI, "build", os.path.join(HERE, "Inputs", "small.toml"), "-o",
                            os.path.join(tempfile.mkdtemp(), "b"), "--dry-run"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertEqual(lines[0], "== small: 3 entries, run steps check bench sanitize, collect summary")
        self.assertIn("--pk-emit-binaries=arch=sm_90", lines[1])
        self.assertIn("--pipeline-kernel=arch=sm_90 variant=cp-async stages=2 emit=cubin", lines[2])
        self.assertIn("--pipeline-kernel=arch=sm_86 variant=ldg-register | mlir-opt (PTX ISA 8.0)", lines[3])
        plan = build.dry([spec.load(os.path.join(INTEG, "specs", "tma-ws.toml"))])["tma-ws"]
        self.assertEqual(len(plan["entries"]), 65)
        self.assertEqual([s["do"] for s in plan["steps"]], ["check", "bench", "sanitize"])


class Collect(unittest.TestCase):
    def test_summary(self):
        d = tempfile.mkdtemp()
        man = pkint.new_manifest("t", entries=[
            dict(id="a", file="bin/a.cubin", arch="sm_90", kind="hgemm", m=512, n=512, k=512, ptxas=dict(registers=128)),
            dict(id="b", file="bin/b.cubin", arch="sm_90", kind="hgemm", m=4096, n=4096, k=4096, ptxas=dict(registers=90))])
        pkint.write_manifest(d, man)
        plan = dict(name="t", about="x", collect="summary", deadline_s=60, steps=[
            dict(do="check", tag="check"), dict(do="bench", tag="bench"),
            dict(do="sanitize", jobs=["memcheck,racecheck@size=512"])])
        pkint.write_json(os.path.join(d, "plan.json"), plan)
        os.makedirs(os.path.join(d, "runs"))
        pkint.write_json(os.path.join(d, "runs", "check.a.json"), dict(status="pass", median_ms=0.1, iters=1))
        pkint.write_json(os.path.join(d, "runs", "bench.b.json"),
                         dict(status="pass", median_ms=0.25, iters=20, rate=549755.8, unit="GFLOP/s"))
        os.makedirs(os.path.join(d, "san"))
        for t in ("memcheck", "racecheck"):
            pkint.write_json(os.path.join(d, "san", "%s.a.status" % t), dict(status="clean"))
        with open(os.path.join(d, "vendor-4096.json"), "w") as f:
            json.dump(dict(device="H200", size=4096, results=[dict(name="cublas", median_ms=0.2, tflops=687.2)]), f)
        # a second vendor step (tag "after") keeps its own file and row
        with open(os.path.join(d, "vendor-after-4096.json"), "w") as f:
            json.dump(dict(device="H200", size=4096, results=[dict(name="cublas", median_ms=0.21, tflops=654.5)]), f)
        collect.collect(d)
        text = open(os.path.join(d, "results.md")).read()
        self.assertIn("| a | sm_90 | 512x512x512 | pass | - | - | - | clean (memcheck, racecheck) | 128 |", text)
        self.assertIn("| b | sm_90 | 4096x4096x4096 | - | pass | 0.250 | 549.8 TFLOP/s | - | 90 |", text)
        self.assertIn("| cublas | run | H200 | 4096 | - | 0.200 | 687.2 |", text)
        self.assertIn("| cublas | after | H200 | 4096 | - | 0.210 | 654.5 |", text)


if __name__ == "__main__":
    unittest.main()
