#!/usr/bin/env python3
"""Unit tests of integration/pkint.py that need no GPU and no MLIR: the lowering
pipeline's one spelling, ptxas / pk remark parsing, gpu.binary extraction,
manifests (defaults, filters, ids), the runner's command line, and the run side
(run / sanitize) with the stand-in runner of the autotune tests.
Run: python3 test_pkint.py -v"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "integration"))
import pkint  # noqa: E402

FAKE = os.path.join(ROOT, "integration", "test", "autotune", "Inputs", "fake_runner.py")

PTXAS_NVCC = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'hgemm_wmma_base' for 'sm_90'
ptxas info    : Function properties for hgemm_wmma_base
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 96 registers, used 1 barriers, 16384 bytes smem, 388 bytes cmem[0]
ptxas info    : Compiling entry function 'hgemm_wmma_ldg' for 'sm_90'
ptxas info    : Function properties for hgemm_wmma_ldg
    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 128 registers, used 1 barriers, 384 bytes cmem[0]
"""


class Lowering(unittest.TestCase):
    def test_pipeline_is_pks_with_ptx_version(self):
        self.assertEqual(
            pkint.lowering_pipeline("sm_86", "isa", "/cuda"),
            "builtin.module(nvvm-attach-target{chip=sm_86 features=+ptx80 O=3}, gpu.module(convert-nvgpu-to-nvvm, "
            "expand-strided-metadata, lower-affine, convert-scf-to-cf, "
            "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}, convert-vector-to-llvm, convert-arith-to-llvm, "
            "canonicalize, cse, reconcile-unrealized-casts), gpu-module-to-binary{format=isa toolkit=/cuda})")
        p = pkint.lowering_pipeline("sm_90", "bin", "/c", ptx=78, bare_ptr=False)
        self.assertIn("features=+ptx78", p)
        self.assertIn("use-bare-ptr-memref-call-conv=0", p)
        self.assertIn("format=bin toolkit=/c", p)

    def test_no_other_spelling_in_integration(self):
        # the pipeline is spelled once (pkint_lower.py); scripts ask pkint for it
        hits = []
        for d, _, files in os.walk(os.path.join(ROOT, "integration")):
            for f in files:
                if f.endswith((".py", ".sh")) and f not in ("pkint_lower.py", "test_pkint.py"):
                    if "nvvm-attach-target{" in open(os.path.join(d, f), errors="replace").read():
                        hits.append(os.path.relpath(os.path.join(d, f), ROOT))
        self.assertEqual(hits, [])


class Ptxas(unittest.TestCase):
    def test_nvcc_log(self):
        k = pkint.parse_ptxas(PTXAS_NVCC)
        self.assertEqual([x["kernel"] for x in k], ["hgemm_wmma_base", "hgemm_wmma_ldg"])
        self.assertEqual((k[0]["registers"], k[0]["shared_bytes"], k[0]["spill_stores_bytes"]), (96, 16384, 0))
        self.assertEqual((k[1]["registers"], k[1]["shared_bytes"], k[1]["stack_frame_bytes"],
                          k[1]["spill_stores_bytes"], k[1]["spill_loads_bytes"]), (128, 0, 8, 4, 12))

    def test_sass_check_verdict(self):
        # pk-sass-check's exit status: 0 PASS, 3 UNSUPPORTED (no loop around
        # the compute), anything else a failure.
        self.assertEqual(pkint.sass_check_verdict(0), "PASS")
        self.assertEqual(pkint.sass_check_verdict(3), "UNSUPPORTED")
        self.assertEqual(pkint.sass_check_verdict(1), "FAIL (exit 1)")
        self.assertEqual(pkint.sass_check_verdict(2), "FAIL (exit 2)")

    def test_pk_remark(self):
        r = pkint.parse_pk_ptxas("k.mlir:12:5: remark: ptxas (sm_90): 128 registers, 0 bytes spill stores, "
                                 "0 bytes spill loads, 0 bytes stack frame, 32768 bytes shared memory; 2 blocks/SM")
        self.assertEqual(r, [dict(arch="sm_90", registers=128, spill_stores_bytes=0, spill_loads_bytes=0,
                                  stack_frame_bytes=0, shared_bytes=32768)])
        self.assertEqual(pkint.parse_pk_ptxas(""), [])
        # sm_90a (wgmma kernels, docs/hopper.md)
        r = pkint.parse_pk_ptxas("k.mlir:35:5: remark: ptxas (sm_90a): 206 registers, 0 bytes spill stores, "
                                 "0 bytes spill loads, 0 bytes stack frame, 32768 bytes shared memory; 2 blocks/SM")
        self.assertEqual([(x["arch"], x["registers"]) for x in r], [("sm_90a", 206)])


class Extract(unittest.TestCase):
    def write(self, body):
        f = tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False)
        f.write(body)
        f.close()
        self.addCleanup(os.remove, f.name)
        return f.name

    def test_ptx_and_escapes(self):
        ptx = '//\\0A.version 8.0\\0A.target sm_90\\0A.entry k(\\22x\\22) \\\\ \\09end'
        f = self.write('gpu.binary @m  [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "%s">]' % ptx)
        self.assertEqual(pkint.extract_object(f, "assembly", "k"),
                         b'//\n.version 8.0\n.target sm_90\n.entry k("x") \\ \tend')
        with self.assertRaises(pkint.BuildError):
            pkint.extract_object(f, "assembly", "other")
        with self.assertRaises(pkint.BuildError):
            pkint.extract_object(f, "bin")

    def test_cubin(self):
        f = self.write('gpu.binary @m  [#gpu.object<#nvvm.target, bin = "\\7FELF\\00\\01kern">]')
        self.assertEqual(pkint.extract_object(f, "auto", "kern"), b"\x7fELF\x00\x01kern")


def manifest(tmp):
    os.makedirs(os.path.join(tmp, "bin"), exist_ok=True)
    man = pkint.new_manifest("test", kind="hgemm", kernel="k", m=512, n=512, k=512, bm=128, bn=128, threads=256,
                             arch="sm_90", smem=0)
    for i, (v, big) in enumerate((("baseline", False), ("cp-async", False), ("cp-async", True))):
        ident = "h_%s_%d" % (v, 4096 if big else 512)
        open(os.path.join(tmp, "bin", ident + ".cubin"), "wb").write(b"\x7fELF")
        e = dict(id=ident, file="bin/%s.cubin" % ident, format="cubin", variant=v)
        if big:
            e.update(m=4096, n=4096, k=4096, smem=65536)
        man["entries"].append(e)
    man["entries"].append(dict(id="failed", variant="x", status="build-failed"))
    pkint.write_manifest(tmp, man)
    return man


class Manifest(unittest.TestCase):
    def test_defaults_filters_ids(self):
        with tempfile.TemporaryDirectory() as t:
            man = manifest(t)
            self.assertEqual(pkint.load_manifest(t)["format"], pkint.FORMAT)
            es = pkint.entries(man)
            self.assertEqual([e["id"] for e in es], ["h_baseline_512", "h_cp-async_512", "h_cp-async_4096"])
            self.assertEqual((es[0]["m"], es[0]["kernel"], es[0]["index"]), (512, "k", 0))
            self.assertEqual((es[2]["m"], es[2]["smem"]), (4096, 65536))
            self.assertEqual([e["id"] for e in pkint.entries(man, ["variant!=baseline", "m=512"])], ["h_cp-async_512"])
            self.assertEqual([e["id"] for e in pkint.entries(man, ["id~_4096$"])], ["h_cp-async_4096"])
            self.assertEqual(pkint.default_check(es[0]), "full")
            self.assertEqual(pkint.default_check(es[2]), "rows:64")
            self.assertEqual(pkint.default_check(dict(es[2], check="none")), "none")
            man["entries"].append(dict(man["entries"][0]))
            with self.assertRaises(pkint.BuildError):
                pkint.write_manifest(t, man)

    def test_runner_argv(self):
        with tempfile.TemporaryDirectory() as t:
            e = pkint.entries(manifest(t))[2]
            argv = pkint.runner_argv("R", t, e, "rows:64", 3, 20, 7, "o.json", "run:x")
            self.assertEqual(argv, ["R", "--kind", "hgemm", "--module", os.path.join(t, "bin/h_cp-async_4096.cubin"),
                                    "--kernel", "k", "--m", "4096", "--n", "4096", "--k", "4096", "--bm", "128",
                                    "--bn", "128", "--threads", "256", "--smem", "65536", "--check", "rows:64",
                                    "--warmup", "3", "--iters", "20", "--seed", "7", "--label", "run:x",
                                    "--json", "o.json"])
            # a persistent TMA-store kernel with a 16-bit C (gen_gemm.py --c-type)
            e = dict(e, grid=132, c_type="f16", tma=[{"arg": "C", "box": [64, 64]}])
            argv = pkint.runner_argv("R", t, e, "rows:64", 3, 20, 7)
            self.assertEqual(argv[argv.index("--grid"):], ["--grid", "132", "--c-type", "f16", "--tma", "C:64x64:128"])

    def test_tma_spec(self):
        # A, B, and C for the TMA-store epilogue (--epilogue tma-store).
        self.assertEqual(pkint.tma_spec({"arg": "A", "box": [64, 128], "swizzle": 128}), "A:64x128:128")
        self.assertEqual(pkint.tma_spec({"arg": "C", "box": [32, 64], "swizzle": 128}), "C:32x64:128")
        for bad in ({"arg": "D", "box": [32, 64]}, {"arg": "C", "box": [32]}):
            with self.assertRaises(pkint.BuildError):
                pkint.tma_spec(bad)


class RunSide(unittest.TestCase):
    def test_run_sanitize_cli(self):
        with tempfile.TemporaryDirectory() as t:
            manifest(t)
            out = os.path.join(t, "out")
            cli = [sys.executable, os.path.join(ROOT, "integration", "pkint.py")]
            p = subprocess.run(cli + ["run", "--dir", t, "--out", out, "--tag", "run", "--where", "m=512",
                                      "--warmup", "1", "--iters", "3", "--runner", FAKE], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("[run h_baseline_512] hgemm bin median", p.stdout)
            self.assertEqual(sorted(os.listdir(os.path.join(out, "runs"))),
                             ["run.h_baseline_512.json", "run.h_cp-async_512.json"])
            j = json.load(open(os.path.join(out, "runs", "run.h_cp-async_512.json")))
            self.assertEqual((j["check"], len(j["times_ms"]), j["label"]), ("full", 3, "run:h_cp-async_512"))
            p = subprocess.run(cli + ["sanitize", "--dir", t, "--out", out, "--runner", FAKE, "--sanitizer", FAKE,
                                      "--parallel", "2", "--jobs", "memcheck,racecheck@variant!=baseline,m=512",
                                      "--jobs", "memcheck@variant=baseline"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            st = json.load(open(os.path.join(out, "san", "racecheck.h_cp-async_512.status")))
            self.assertEqual((st["status"], st["rc"]), ("clean", 0))
            self.assertEqual(sorted(f for f in os.listdir(os.path.join(out, "san")) if f.endswith(".status")),
                             ["memcheck.h_baseline_512.status", "memcheck.h_cp-async_512.status",
                              "racecheck.h_cp-async_512.status"])

    def test_deadline_skips(self):
        with tempfile.TemporaryDirectory() as t:
            e = pkint.entries(manifest(t))[0]
            r = pkint.sanitize_one(FAKE, FAKE, t, e, "memcheck", t, deadline=0)
            self.assertEqual(r["status"], "skipped (deadline)")

    def test_sanitizer_log(self):
        info = pkint.parse_sanitizer("========= Invalid __global__ read of size 4\n"
                                     "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n")
        self.assertEqual((info["hazards"], info["hazard_errors"], info["errors"]), (2, 2, None))
        self.assertEqual(info["messages"], ["Invalid __global__ read of size 4"])
        self.assertFalse(pkint.san_zero(info["summary"][0]))


if __name__ == "__main__":
    unittest.main()
