#!/usr/bin/env python3
"""Extract the object (cubin) or PTX held by a `gpu.binary` op in an MLIR file.

`gpu-module-to-binary` stores its result as an MLIR string attribute inside
`#gpu.object<..., bin = "...">` (format=bin / fatbin) or
`#gpu.object<..., assembly = "...">` (format=isa).  MLIR prints strings with
printable ASCII as-is and every other byte as `\\XX` (two hex digits, e.g.
`\\0A` newline, `\\22` quote, `\\09` tab); a backslash is `\\\\`.  The lexer also
accepts `\\n`, `\\t` and `\\"`, so those are decoded as well.

Usage:
  extract_binary.py IN.mlir -o OUT [--field auto|bin|assembly] [--object NAME]
                    [--expect-kernel NAME]
Exit status 1 if no gpu.binary / object string is found or a sanity check
fails (a cubin must start with \\x7fELF; PTX must contain `.entry NAME`).
"""
import argparse
import re
import sys

HEX = "0123456789abcdefABCDEF"


def unescape(s: str, start: int):
    """Decode the MLIR string literal whose first character (after the opening
    quote) is s[start]. Returns (bytes, index just past the closing quote)."""
    out = bytearray()
    i = start
    n = len(s)
    while i < n:
        c = s[i]
        if c == '"':
            return bytes(out), i + 1
        if c == "\\":
            if i + 1 >= n:
                raise ValueError("dangling backslash at end of input")
            d = s[i + 1]
            if d == "\\":
                out.append(0x5C); i += 2; continue
            if d == '"':
                out.append(0x22); i += 2; continue
            if d == "n":
                out.append(0x0A); i += 2; continue
            if d == "t":
                out.append(0x09); i += 2; continue
            if i + 2 < n and d in HEX and s[i + 2] in HEX:
                out.append(int(s[i + 1:i + 3], 16)); i += 3; continue
            raise ValueError("bad escape %r at offset %d" % (s[i:i + 3], i))
        out.append(ord(c) & 0xFF)
        i += 1
    raise ValueError("unterminated string literal")


def find_objects(text: str):
    """Yield (binary_symbol, field, bytes) for every object string in the file."""
    for m in re.finditer(r'gpu\.binary\s+@([\w$.\-]+)', text):
        sym = m.group(1)
        # The object list follows; scan for the first bin/assembly string after it.
        pos = m.end()
        fm = re.compile(r'\b(bin|assembly)\s*=\s*"').search(text, pos)
        if not fm:
            continue
        data, _ = unescape(text, fm.end())
        yield sym, fm.group(1), data


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--field", choices=["auto", "bin", "assembly"], default="auto")
    ap.add_argument("--object", help="gpu.binary symbol (default: the first)")
    ap.add_argument("--expect-kernel", help="kernel that must be in the PTX/cubin")
    a = ap.parse_args()

    text = open(a.input, "rb").read().decode("latin-1")
    found = None
    for sym, field, data in find_objects(text):
        if a.object and sym != a.object:
            continue
        if a.field != "auto" and field != a.field:
            continue
        found = (sym, field, data)
        break
    if not found:
        print("extract_binary: no matching gpu.binary object in %s" % a.input, file=sys.stderr)
        return 1
    sym, field, data = found
    if field == "bin":
        if not data.startswith(b"\x7fELF"):
            print("extract_binary: %s: bin is not an ELF (fatbin?)" % a.input, file=sys.stderr)
            return 1
        if a.expect_kernel and a.expect_kernel.encode() not in data:
            print("extract_binary: kernel %s not in cubin" % a.expect_kernel, file=sys.stderr)
            return 1
    else:
        if b".version" not in data or b".target" not in data:
            print("extract_binary: %s: assembly does not look like PTX" % a.input, file=sys.stderr)
            return 1
        if a.expect_kernel and (".entry " + a.expect_kernel).encode() not in data:
            print("extract_binary: .entry %s not in PTX" % a.expect_kernel, file=sys.stderr)
            return 1
    with open(a.output, "wb") as f:
        f.write(data)
    print("%s: %s %s -> %s (%d bytes)" % (a.input, sym, field, a.output, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
