#!/usr/bin/env python3
"""A small FileCheck for the integration suite (the GPU machine has no
FileCheck): check_lines.py PREFIX FILE < INPUT.

The lines of FILE holding `PREFIX: pattern` must match lines of INPUT in
order (each after the previous match); `PREFIX-SAME: pattern` must match
the line of the previous match, after it; `PREFIX-NOT: pattern` must match
no line of INPUT at all. A pattern is a literal substring, except that
{{...}} holds a Python regular expression. Exit status 1 names the first
pattern that failed."""
import re
import sys

prefix, check_file = sys.argv[1:3]
text = sys.stdin.read().splitlines()
tag = re.compile(r"(?:^|\s|#|//)" + re.escape(prefix) + r"(-NOT|-SAME)?:\s?(.*)$")


def compile_pattern(p):
    out, i = "", 0
    for m in re.finditer(r"\{\{(.*?)\}\}", p):
        out += re.escape(p[i:m.start()]) + "(?:" + m.group(1) + ")"
        i = m.end()
    return re.compile(out + re.escape(p[i:]))


checks = []
for n, line in enumerate(open(check_file).read().splitlines(), 1):
    m = tag.search(line)
    if m:
        checks.append((n, m.group(1) or "", m.group(2).rstrip(), compile_pattern(m.group(2).rstrip())))
if not checks:
    sys.exit("check_lines.py: no %s: lines in %s" % (prefix, check_file))
pos, line, col = 0, None, 0
for n, kind, raw, rx in checks:
    if kind == "-NOT":
        hit = next((l for l in text if rx.search(l)), None)
        if hit is not None:
            sys.exit("%s:%d: %s-NOT: %r found in: %s" % (check_file, n, prefix, raw, hit[:300]))
        continue
    if kind == "-SAME":
        m = rx.search(text[line], col) if line is not None else None
        if not m:
            sys.exit("%s:%d: %s-SAME: %r not on the line of the previous match" % (check_file, n, prefix, raw))
        col = m.end()
        continue
    for i in range(pos, len(text)):
        m = rx.search(text[i])
        if m:
            pos, line, col = i + 1, i, m.end()
            break
    else:
        sys.exit("%s:%d: %s: %r not found after input line %d (%d lines)" % (check_file, n, prefix, raw, pos,
                                                                                 len(text)))
print("check_lines %s: %d pattern(s) ok" % (prefix, len(checks)))
