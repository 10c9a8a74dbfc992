#!/usr/bin/env python3
"""Every measured candidate in the given measurements.json files passed a check."""
import json
import sys

bad, n = [], 0
for path in sys.argv[1:]:
    for name, r in json.load(open(path))["results"].items():
        if r["status"] in ("same-as",):
            continue
        n += 1
        if r["status"] != "pass" or not r.get("checked"):
            bad.append("%s: %s %s" % (path, name, r["status"]))
print("%d candidates checked, %d not passing" % (n, len(bad)))
for b in bad:
    print("FAIL", b)
sys.exit(1 if bad or not n else 0)
