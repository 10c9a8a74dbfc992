#!/usr/bin/env python3
"""Unit tests of integration/autotune/autotune.py that need no GPU and no MLIR:
the decide step on the checked-in fixture (Inputs/fixture: manifest.json,
measurements.json, sanitizers.json), candidate parsing, kernel parsing and the
sanitizer summary parser. Run: python3 test_autotune.py -v"""
import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "integration", "autotune"))
import autotune  # noqa: E402

FIX = os.path.join(HERE, "Inputs", "fixture")


def load(name):
    with open(os.path.join(FIX, name)) as f:
        return json.load(f)


class Decide(unittest.TestCase):
    def setUp(self):
        self.man, self.meas, self.san = load("manifest.json"), load("measurements.json"), load("sanitizers.json")

    def row(self, dec, name):
        return next(r for r in dec["candidates"] if r["name"] == name)

    def test_fastest_correct_wins(self):
        # cp-async-s3 is the fastest but failed its check; cp-async-s4 is next but
        # racecheck found hazards: cp-async-s2-multistage wins.
        dec = autotune.decide(self.man, self.meas, self.san)
        self.assertEqual(dec["winner"]["name"], "cp-async-s2-multistage")
        self.assertEqual(dec["winner"]["variant"], "cp-async")
        self.assertEqual(dec["winner"]["stages"], 2)
        self.assertIn("schedule=multistage", dec["winner"]["reproduce"])
        self.assertNotIn("rank", self.row(dec, "cp-async-s3"))
        self.assertIn("racecheck", self.row(dec, "cp-async-s4")["excluded"])

    def test_without_sanitizers_the_faster_one_wins(self):
        dec = autotune.decide(self.man, self.meas, None)
        w = dec["winner"]
        self.assertEqual(w["name"], "cp-async-s4")
        self.assertEqual(w["launch"]["dynamic_shared_bytes"], 65536)
        self.assertEqual(w["launch"]["grid"], [32, 32, 1])
        self.assertEqual(w["launch"]["block"], [256, 1, 1])
        self.assertIn("--pipeline-kernel='arch=sm_90 variant=cp-async stages=4 emit=cubin", w["reproduce"])
        # 0.4470 vs 0.4460: within 0.5% -> a tie is reported
        self.assertEqual(w["within_noise_of_best"], ["cp-async-s2-multistage"])
        self.assertAlmostEqual(w["speedup_vs_baseline"], 0.6402 / 0.4460, places=2)

    def test_model_beside_measured_best(self):
        dec = autotune.decide(self.man, self.meas, self.san)
        m = dec["model"]
        self.assertEqual((m["variant"], m["stages"]), ("cp-async", 2))
        self.assertEqual(m["rank"], 2)
        self.assertFalse(m["agrees"])
        self.assertGreater(m["vs_best_pct"], 1.5)
        self.assertEqual(m["stages_auto"]["latency_stages"], 2)
        # the identical cubin shares the model's rank and numbers
        s2 = self.row(dec, "cp-async-s2")
        self.assertEqual(s2["same_as"], "model")
        self.assertEqual(s2["rank"], 2)
        self.assertEqual(s2["median_ms"], self.row(dec, "model")["median_ms"])

    def test_model_agrees(self):
        meas = copy.deepcopy(self.meas)
        meas["results"]["model"]["median_ms"] = 0.4400
        dec = autotune.decide(self.man, meas, self.san)
        self.assertEqual(dec["winner"]["name"], "model")
        self.assertTrue(dec["model"]["agrees"])
        self.assertIn("variant=auto stages=auto", dec["winner"]["reproduce"])

    def test_errors_and_build_failures_never_win(self):
        dec = autotune.decide(self.man, self.meas, self.san)
        self.assertEqual(self.row(dec, "register-prefetch")["status"], "error")
        self.assertEqual(self.row(dec, "cp-async-s8")["status"], "build-failed")
        for n in ("register-prefetch", "cp-async-s8"):
            self.assertNotIn("rank", self.row(dec, n))

    def test_unchecked_runs_are_not_eligible(self):
        meas = copy.deepcopy(self.meas)
        meas["results"]["cp-async-s2-multistage"]["checked"] = False
        dec = autotune.decide(self.man, meas, self.san)
        self.assertEqual(dec["winner"]["name"], "model")

    def test_no_correct_candidate(self):
        meas = copy.deepcopy(self.meas)
        for r in meas["results"].values():
            if r["status"] == "pass":
                r["status"] = "fail"
        dec = autotune.decide(self.man, meas, self.san)
        self.assertIsNone(dec["winner"])
        self.assertIn("No candidate ran correctly", autotune.decision_md(dec, self.man))

    def test_baseline_winner_reproduce(self):
        meas = copy.deepcopy(self.meas)
        meas["results"]["baseline"]["median_ms"] = 0.1
        dec = autotune.decide(self.man, meas, self.san)
        self.assertEqual(dec["winner"]["name"], "baseline")
        self.assertIn("--pk-emit-binaries", dec["winner"]["reproduce"])

    def test_markdown(self):
        dec = autotune.decide(self.man, self.meas, self.san)
        md = autotune.decision_md(dec, self.man)
        self.assertIn("**Winner: `cp-async-s2-multistage`**", md)
        self.assertIn("| **cp-async-s2-multistage** (#1) |", md)
        self.assertIn("pk's model", md)
        self.assertIn("the model's choice is slower than the measured best", md)
        self.assertIn("FAIL rows:64", md)
        self.assertIn("`cp-async-s4`: `--pipeline-kernel='arch=sm_90 variant=cp-async stages=4'`", md)

    def test_cli(self):
        with tempfile.TemporaryDirectory() as t:
            p = subprocess.run([sys.executable, autotune.__file__, "decide", "--dir", FIX, "--out", t],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            dec = json.load(open(os.path.join(t, "decision.json")))
            self.assertEqual(dec["winner"]["name"], "cp-async-s2-multistage")
            self.assertTrue(os.path.exists(os.path.join(t, "decision.md")))
            # --sanitizers pointing elsewhere (no file): decided without them
            p = subprocess.run([sys.executable, autotune.__file__, "decide", "--dir", FIX, "--out", t,
                                "--sanitizers", os.path.join(t, "none.json")], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(json.load(open(os.path.join(t, "decision.json")))["winner"]["name"], "cp-async-s4")


class Parsing(unittest.TestCase):
    def test_candidates_auto(self):
        names = [c["name"] for c in autotune.parse_candidates("auto", [2, 3, 4])]
        self.assertEqual(names, ["baseline", "model", "cp-async-s2", "cp-async-s2-multistage",
                                 "cp-async-s3", "cp-async-s4", "ldg-register", "register-prefetch"])

    def test_candidates_list(self):
        cs = autotune.parse_candidates("baseline,cp-async:3,cp-async:2:two-stage,ldg-register", [2])
        self.assertEqual([c["name"] for c in cs], ["baseline", "cp-async-s3", "cp-async-s2-two-stage", "ldg-register"])
        self.assertEqual(autotune.pk_options(cs[1], "sm_90"), "arch=sm_90 variant=cp-async stages=3")
        self.assertEqual(autotune.pk_options(cs[2], "sm_86"), "arch=sm_86 variant=cp-async stages=2 schedule=two-stage")
        self.assertIsNone(autotune.pk_options(cs[0], "sm_90"))
        with self.assertRaises(SystemExit):
            autotune.parse_candidates("cp-async:2,cp-async:2", [2])
        with self.assertRaises(SystemExit):
            autotune.parse_candidates("wgmma", [2])
        with self.assertRaises(SystemExit):  # pk's old name of the two-stage order
            autotune.parse_candidates("cp-async:2:seed", [2])

    def test_kernel(self):
        for f, kind, bk in (("hgemm_f16_128x128x32.mlir", "hgemm", 4096), ("igemm_i8_128x128x64.mlir", "igemm", 4096),
                            ("sgemm_f32_128x128x8.mlir", "sgemm", 4096)):
            k = autotune.parse_kernel(os.path.join(ROOT, "examples", f))
            self.assertEqual(k["kind"], kind)
            self.assertEqual((k["m"], k["n"], k["k"]), (4096, 4096, bk))
            self.assertEqual(k["grid"], [32, 32, 1])
            self.assertEqual(k["block"], [256, 1, 1])
            self.assertEqual((k["bm"], k["bn"], k["threads"]), (128, 128, 256))
            self.assertEqual(k["kernel"], f[:-5])

    def test_kernel_partial_k(self):
        with tempfile.TemporaryDirectory() as t:
            out = os.path.join(t, "k.mlir")
            subprocess.check_call([sys.executable, os.path.join(ROOT, "examples", "gen_gemm.py"), "--kind", "hgemm",
                                   "--M", "256", "--N", "512", "--K", "33", "-o", out])
            k = autotune.parse_kernel(out)
            self.assertEqual((k["m"], k["n"], k["k"], k["grid"]), (256, 512, 33, [4, 2, 1]))

    def test_sanitizer_summaries(self):
        self.assertTrue(autotune.san_zero("ERROR SUMMARY: 0 errors"))
        self.assertTrue(autotune.san_zero("RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"))
        self.assertFalse(autotune.san_zero("ERROR SUMMARY: 1 error"))
        self.assertFalse(autotune.san_zero("RACECHECK SUMMARY: 3 hazards displayed (0 errors, 3 warnings)"))

    def test_median(self):
        self.assertEqual(autotune.median([3, 1, 2]), 2)
        self.assertEqual(autotune.median([4, 1, 2, 3]), 2.5)


class SassCheckStages(unittest.TestCase):
    def test_stages_follow_the_built_candidate(self):
        # 3- and 4-stage cp-async candidates are checked with their own stage
        # count (their epilogue computes stages - 1 tiles), not the default 2.
        for n in (2, 3, 4, 6):
            self.assertEqual(autotune.sass_check_stages(
                dict(actual_variant="cp-async", actual_stages=n)), n)
        for v in ("ldg-register", "register-prefetch"):
            self.assertEqual(autotune.sass_check_stages(
                dict(actual_variant=v, actual_stages=2)), 2)


if __name__ == "__main__":
    unittest.main()
