# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Stands in for bench/cost/measure.py where there is no GPU (tests): reads
a manifest cake-evolve exported (or one shard of it) and writes results in
measure.py's format, marked synthetic. The seed takes 3 ms, the candidate
of rank r its prediction times 1 + r/10, the peer 1.5 ms (timed only where
the manifest asks for it, as measure.py does).

FAKE_MEASURE (comma-separated WHO=WHAT) makes faults on purpose, WHO being
`rankN`, `seed` or `gpuX` (this process's CUDA_VISIBLE_DEVICES is X):
  finding      the candidate is a finding ("hang (timeout)"), as a kernel
               that hangs in measure.py's screen is
  crash        this process dies of SIGSEGV
  crash-once   the same, the first time only (a marker file beside the
               results remembers)
  hang         this process sleeps far past any time limit
  exit         this process exits with status 3
  lost         (gpuX) every measurement on that device exits with status 1

usage: fake-measure.py MANIFEST RESULTS
"""
import json
import os
import signal
import sys
import time

manifest, out = sys.argv[1], sys.argv[2]
man = json.load(open(manifest))
gpu = os.environ.get("CUDA_VISIBLE_DEVICES", "")
faults = dict(f.split("=", 1) for f in os.environ.get(
    "FAKE_MEASURE", "").split(",") if "=" in f)
names = ["seed" if c.get("seed") else f"rank{c.get('rank')}"
         for c in man["candidates"]]
print(f"fake-measure: GPU {gpu or '-'}: "
      f"{' '.join(c['id'] for c in man['candidates'])}", flush=True)
if faults.get(f"gpu{gpu}") == "lost":
    sys.exit(f"fake-measure: GPU {gpu} lost (CUDA error: unspecified launch "
             "failure)")
for name in names:
    what = faults.get(name, "")
    if what == "crash-once":
        marker = out + ".crashed-once"
        if not os.path.exists(marker):
            open(marker, "w").close()
            what = "crash"
    if what == "crash":
        print(f"fake-measure: {name} crashes", flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)
    if what == "hang":
        print(f"fake-measure: {name} hangs", flush=True)
        time.sleep(3600)
    if what == "exit":
        sys.exit(f"fake-measure: {name} exits with status 3" and 3)
rows, findings = [], []
for c, name in zip(man["candidates"], names):
    if c.get("seed"):
        rows.append({"candidate": "seed", "ms": 3.0, "ok": True})
    elif faults.get(name) == "finding":
        findings.append({"candidate": c["id"], "result": "hang (timeout)",
                         "stderr": ""})
    else:
        rows.append({"candidate": c["id"], "ok": True,
                     "ms": c["predicted_ns"] / 1e6 * (1 + c["rank"] / 10)})
peers = {"cuBLAS (torch.matmul)": 1.5} if man.get("peers", True) else {}
json.dump({"gpu": "synthetic: test/Tools/Inputs/fake-measure.py, not a "
                  "measurement", "rows": rows, "findings": findings,
           "peers": peers}, open(out, "w"))
print(f"fake-measure: {len(rows)} rows, {len(findings)} findings")
