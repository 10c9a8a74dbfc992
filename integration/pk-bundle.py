#!/usr/bin/env python3
"""pk-bundle: the one integration flow of pk (integration/README.md).

  check   SPEC...                      validate spec files (integration/specs/*.toml)
  build   SPEC... -o OUT [--only RE] [--dry-run] [--no-runner] [--tar]
          dev machine (pk-opt, ptxas, mlir-opt where a spec lowers with it):
          one self-contained bundle folder OUT with OUT/run.sh
  run     BUNDLE [--results R] [--only NAME] [--where K=V] [--runner R] [--tar]
          GPU machine (python3, the CUDA driver; no MLIR): every spec's run
          plan -> R/NAME/ (default R: BUNDLE-results, or $OUT via run.sh)
  collect RESULTS                      results.md (and results.json) per spec

A SPEC argument is a path or a name of integration/specs/ (tma-ring =
integration/specs/tma-ring.toml); `all` is every spec there.
"""

import argparse
import glob
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "bundle"))
import pkint  # noqa: E402

SPECS = os.path.join(HERE, "specs")


def spec_paths(args):
    out = []
    for a in args:
        if a == "all":
            out += sorted(glob.glob(os.path.join(SPECS, "*.toml")))
        elif os.path.exists(a):
            out.append(a)
        elif os.path.exists(os.path.join(SPECS, a + ".toml")):
            out.append(os.path.join(SPECS, a + ".toml"))
        else:
            raise SystemExit("pk-bundle: no spec %r (a path, or a name of %s)" % (a, pkint.rel(SPECS)))
    return out


def load_specs(args):
    import spec  # noqa: E402  (build side only: tomllib)
    return [spec.load(p) for p in spec_paths(args)]


def cmd_check(a):
    import spec  # noqa: E402
    bad = 0
    for p in spec_paths(a.specs):
        try:
            s = spec.load(p)
            print("%s: OK, %s: %d entries, %d tune sets, %d run steps" % (
                pkint.rel(p), s.name, len(s.jobs()), len(s.tunes()), len(s.steps())))
        except spec.SpecError as ex:
            print(ex, file=sys.stderr)
            bad += 1
    return 1 if bad else 0


def cmd_build(a):
    import build  # noqa: E402
    import spec  # noqa: E402
    command = "python3 integration/pk-bundle.py " + " ".join(shlex.quote(x) for x in sys.argv[1:])
    try:
        specs = load_specs(a.specs)
        info = build.build(specs, a.out, command, a.only, runner=not a.no_runner, tar=a.tar, dry_run=a.dry_run)
    except (spec.SpecError, pkint.BuildError, subprocess.CalledProcessError) as ex:
        print("pk-bundle build: %s" % ex, file=sys.stderr)
        return 1
    if a.dry_run:
        print(build.dry_text(info))
    return 0


def cmd_run(a):
    import run  # noqa: E402
    command = "pk-bundle.py " + " ".join(shlex.quote(x) for x in sys.argv[1:])
    results = a.results or os.path.abspath(a.bundle).rstrip("/") + "-results"
    return run.run(a.bundle, results, a.only, a.where, a.runner, a.tar, command)


def cmd_collect(a):
    import collect  # noqa: E402
    collect.collect_all(a.results)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="validate spec files")
    c.add_argument("specs", nargs="+")
    c.set_defaults(fn=cmd_check)
    b = sub.add_parser("build", help="build a bundle (dev machine)")
    b.add_argument("specs", nargs="+")
    b.add_argument("-o", "--out", required=True)
    b.add_argument("--only", help="build only the entries whose id matches this regex")
    b.add_argument("--dry-run", action="store_true", help="print the entries and pk-opt options; build nothing")
    b.add_argument("--no-runner", action="store_true", help="do not prebuild pk-runner")
    b.add_argument("--tar", action="store_true", help="also write OUT.tar")
    b.set_defaults(fn=cmd_build)
    r = sub.add_parser("run", help="run a bundle (GPU machine)")
    r.add_argument("bundle")
    r.add_argument("--results")
    r.add_argument("--only", action="append", default=[], help="a spec name of the bundle (repeatable)")
    r.add_argument("--where", action="append", default=[], help="an entry filter added to every step")
    r.add_argument("--runner")
    r.add_argument("--tar", action="store_true", help="also write RESULTS/results.tar")
    r.set_defaults(fn=cmd_run)
    k = sub.add_parser("collect", help="tables of a results folder")
    k.add_argument("results")
    k.set_defaults(fn=cmd_collect)
    a = ap.parse_args(argv)
    return a.fn(a)


if __name__ == "__main__":
    sys.exit(main())
