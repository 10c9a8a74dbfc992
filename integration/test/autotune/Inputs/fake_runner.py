#!/usr/bin/env python3
"""Stand-in for pk-runner (and, called with --tool, for compute-sanitizer) so
that `autotune.py run` / `sanitize` can be tested without a GPU. The median
time of a candidate comes from its directory name (TIMES below); cp-async-s3
produces a wrong result (exit 1), like pk-runner on a mismatch."""
import json
import os
import subprocess
import sys

TIMES = {"baseline": 0.64, "model": 0.456, "cp-async-s2-multistage": 0.447, "cp-async-s3": 0.43,
         "cp-async-s4": 0.446, "ldg-register": 0.522, "register-prefetch": 0.50}

argv = sys.argv[1:]
if argv and argv[0] == "--tool":  # compute-sanitizer --tool T --error-exitcode N --print-limit N CMD...
    cmd = argv[6:]
    p = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    tool = argv[1]
    print("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)" if tool == "racecheck"
          else "========= ERROR SUMMARY: 0 errors")
    sys.exit(p.returncode)
o = {argv[i][2:]: argv[i + 1] for i in range(0, len(argv) - 1, 2)}
name = os.path.basename(os.path.dirname(o["module"]))
t = TIMES.get(name, 0.5)
iters = int(o["iters"])
fail = name == "cp-async-s3" and o["check"] != "none"
times = [t * (1 + 0.001 * ((i % 3) - 1)) for i in range(iters)]
s = sorted(times)
med = s[len(s) // 2] if len(s) % 2 else 0.5 * (s[len(s) // 2 - 1] + s[len(s) // 2])
checked = o["check"] != "none"
j = dict(kernel=o["kernel"], module=o["module"], label=o["label"], m=int(o["m"]), n=int(o["n"]), k=int(o["k"]),
         dyn_smem=int(o["smem"]), num_regs=128, local_bytes=0, static_shared_bytes=0, device="fake",
         times_ms=times, median_ms=med, min_ms=min(times), check=o["check"], checked=checked,
         elements_checked=64 * int(o["n"]) if checked else 0, mismatches=5 if fail else 0, unwritten=0,
         max_abs_err=0.0005, max_rel_err=0.001, first_mismatches=["C[0][0] got 1 ref 2"] if fail else [],
         pass_=not fail, status="fail" if fail else "pass", error="")
j["pass"] = j.pop("pass_")
with open(o["json"], "w") as f:
    json.dump(j, f)
print("%s %s median %.4f ms | %s" % (o["kind"], name, med, "FAIL" if fail else "PASS"))
sys.exit(1 if fail else 0)
