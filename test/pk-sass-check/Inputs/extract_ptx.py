#!/usr/bin/env python3
"""Print the PTX held by the `assembly = "..."` string of a `gpu.binary` op.

Reads MLIR (the output of `--gpu-lower-to-nvvm-pipeline=... cubin-format=isa`)
from the file named by the first argument, or stdin, and writes the decoded PTX
to stdout. MLIR prints a string's printable ASCII as-is and every other byte as
`\\XX` (two hex digits: `\\0A` newline, `\\09` tab, `\\22` quote, `\\5C`
backslash); the lexer also accepts `\\n`, `\\t`, `\\"` and `\\\\`.
Exit status 1 when no assembly string is found.
"""
import re
import sys

SIMPLE = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def decode(text, start):
    """Decode the string literal starting just after its opening quote."""
    out = bytearray()
    i = start
    while i < len(text):
        c = text[i]
        if c == '"':
            return bytes(out)
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        d = text[i + 1]
        if re.match(r"[0-9a-fA-F]{2}", text[i + 1:i + 3]):
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
        elif d in SIMPLE:
            out += SIMPLE[d].encode()
            i += 2
        else:
            sys.exit("extract_ptx.py: bad escape at offset %d" % i)
    sys.exit("extract_ptx.py: unterminated string")


def main():
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    match = re.search(r'\bassembly\s*=\s*"', text)
    if not match:
        sys.exit("extract_ptx.py: no `assembly = \"...\"` string in the input")
    sys.stdout.buffer.write(decode(text, match.end()))


if __name__ == "__main__":
    main()
