#!/usr/bin/env python3
"""Extract the object (cubin) or PTX held by a `gpu.binary` op in an MLIR file
(the command line of pkint.extract_object: MLIR's `\\XX` / `\\\\` string
escapes decoded; a cubin must start with \\x7fELF, PTX must have .version and
.target, and `--expect-kernel` must be in it).

Usage:
  extract_binary.py IN.mlir -o OUT [--field auto|bin|assembly] [--object NAME]
                    [--expect-kernel NAME]
Exit status 1 if no gpu.binary / object string is found or a check fails.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pkint  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--field", choices=["auto", "bin", "assembly"], default="auto")
    ap.add_argument("--object", help="gpu.binary symbol (default: the first)")
    ap.add_argument("--expect-kernel", help="kernel that must be in the PTX/cubin")
    a = ap.parse_args()
    try:
        data = pkint.extract_object(a.input, a.field, a.expect_kernel, a.object)
    except (pkint.BuildError, ValueError) as ex:
        print("extract_binary: %s" % ex, file=sys.stderr)
        return 1
    with open(a.output, "wb") as f:
        f.write(data)
    print("%s -> %s (%d bytes)" % (a.input, a.output, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
