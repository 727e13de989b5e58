# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Stands in for a portfolio benchmark (bench/kmeans/lloyd.py and the KNN
benches) where there is no GPU: takes their --portfolio --dtype --only
--out, writes a synthetic k-means row per shape (speedup 2.0) and the JSON
after every shape, as PortfolioRun does.

FAKE_BENCH (comma-separated WHO=WHAT; WHO a shape "B:N:D:K" or gpuX for
CUDA_VISIBLE_DEVICES X) makes faults on purpose: crash (SIGSEGV), hang
(sleeps far past any limit), crash-once (the first time only; a marker
file beside --out remembers), lost (gpuX: exits 1 before any shape).
"""
import argparse
import json
import os
import signal
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--portfolio", action="store_true")
ap.add_argument("--dtype", default="bf16")
ap.add_argument("--only", default="")
ap.add_argument("--out", required=True)
a = ap.parse_args()
gpu = os.environ.get("CUDA_VISIBLE_DEVICES", "")
faults = dict(f.split("=", 1) for f in os.environ.get(
    "FAKE_BENCH", "").split(",") if "=" in f)
print(f"fake-bench: GPU {gpu}: {a.only}", flush=True)
if faults.get(f"gpu{gpu}") == "lost":
    sys.exit("fake-bench: CUDA error: unspecified launch failure")
rows = []
for shape in a.only.split(","):
    what = faults.get(shape, "")
    marker = os.path.join(os.path.dirname(a.out), "crashed-once-" + shape)
    if what == "crash-once" and not os.path.exists(marker):
        open(marker, "w").close()
        what = "crash"
    if what == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if what == "hang":
        time.sleep(3600)
    b, n, d, k = (int(v) for v in shape.split(":"))
    rows.append(dict(B=b, N=n, D=d, K=k, dtype=a.dtype, speedup=2.0,
                     check={"objective": {"ok": True}}, gpu_index=gpu))
    with open(a.out, "w") as f:
        json.dump(dict(gpu="synthetic: fake-portfolio-bench.py", dtype=a.dtype,
                       portfolio="kmeans", rows=rows, unsupported=[],
                       not_run=[]), f)
