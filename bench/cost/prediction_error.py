#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""How far measured times fall from the cost model's predictions on one
GPU: the "prediction_error" entry of calibration/<gpu>.json, from which
cake-cost reports an 80 % interval around each prediction.

Re-predicts every measured kernel of the given studies with the current
cake-opt (bench/cost/study.py for rank-study measurement files,
bench/cost/turns_study.py for a GEMM results file of the ping-pong
kernels) and prints the 10th and 90th percentiles of measured /
predicted, overall and per workload family, and the JSON entry.

usage: prediction_error.py --study bench/cost/results/h200-2026-11-29.json
                           [--study ...] [--turns bench/gemm/results-...json]
                           [--gpu h100] (the calibration for --turns files)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def percentile(values, q):
    """The q-quantile by the nearest rank below (as the entry records)."""
    v = sorted(values)
    return v[int(q * (len(v) - 1))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--study", action="append", default=[])
    ap.add_argument("--turns", action="append", default=[])
    ap.add_argument("--gpu", default="h200",
                    help="the calibration to predict the --turns files with")
    args = ap.parse_args()
    ratios = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(args.study + args.turns):
            out = os.path.join(tmp, f"{i}.json")
            tool = "study.py" if path in args.study else "turns_study.py"
            gpu = [] if tool == "study.py" else ["--gpu", args.gpu]
            subprocess.run([sys.executable, os.path.join(HERE, tool),
                            "--measured", path, "--out", out, *gpu],
                           check=True, stdout=subprocess.DEVNULL)
            for r in json.load(open(out))["rows"]:
                if tool == "study.py":
                    if not (r.get("ok") and r.get("predicted_ms")):
                        continue
                    family = r["problem"].split()[0]
                    q = r["ms"] / r["predicted_ms"]
                else:
                    family = "gemm ping-pong"
                    q = r["measured_us"] / r["predicted_us"]
                ratios.setdefault(family, []).append(q)
    every = [q for v in ratios.values() for q in v]
    if not every:
        sys.exit("prediction_error.py: no measured kernel")
    for family, v in sorted(ratios.items()) + [("all", every)]:
        print(f"{family:>16}: n={len(v):4d}  measured/predicted p10 "
              f"{percentile(v, 0.1):.3f}  median {percentile(v, 0.5):.3f}  "
              f"p90 {percentile(v, 0.9):.3f}")
    print(json.dumps({"prediction_error": {
        "measured_over_predicted_p10": round(percentile(every, 0.1), 3),
        "measured_over_predicted_p90": round(percentile(every, 0.9), 3),
        "samples": len(every)}}, indent=2))


if __name__ == "__main__":
    main()
