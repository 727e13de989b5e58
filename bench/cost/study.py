#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The cost model's rank study: predicted against measured time.

Reads a measurement file from bench/cost/measure.py (rows of problem,
candidate, shapes, measured ms), predicts every row with
`cake-opt --cake-cost` on the candidate's source (bench/cost/
gen_candidates.py, regenerated here), and reports per problem and over all
problems: Kendall tau and Spearman rho between predicted and measured time,
top-1 regret (measured time of the predicted best over the measured best,
minus 1), best of the predicted top 8 over the measured best, and the
median absolute percentage error. Also the analysis time per kernel from
--mlir-timing.

usage: study.py --measured bench/cost/results/h200-2026-11-29.json
                [--cake-opt build/bin/cake-opt] [--calibration F]
                [--out study.json] [--markdown]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else 0.0


def kendall(a, b):
    """Kendall tau-b."""
    n = len(a)
    conc = disc = ta = tb = 0
    for i in range(n):
        for j in range(i + 1, n):
            da, db = a[i] - a[j], b[i] - b[j]
            if da == 0 and db == 0:
                continue
            if da == 0:
                ta += 1
            elif db == 0:
                tb += 1
            elif (da > 0) == (db > 0):
                conc += 1
            else:
                disc += 1
    den = ((conc + disc + ta) * (conc + disc + tb)) ** 0.5
    return (conc - disc) / den if den else 0.0


def quality(pred, meas):
    best = min(meas)
    order = sorted(range(len(pred)), key=lambda i: pred[i])
    top1 = meas[order[0]]
    top8 = min(meas[i] for i in order[:8])
    ape = [abs(p - m) / m for p, m in zip(pred, meas)]
    return dict(n=len(pred), kendall=kendall(pred, meas),
                spearman=spearman(pred, meas), top1_regret=top1 / best - 1,
                best_of_top8=best / top8, mape=statistics.median(ape))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--measured", required=True)
    p.add_argument("--cake-opt", default=os.path.join(ROOT, "build", "bin",
                                                      "cake-opt"))
    p.add_argument("--calibration", default="")
    p.add_argument("--out", default="")
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    measured = json.load(open(args.measured))
    src = tempfile.mkdtemp(prefix="cake-cost-study-")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_candidates.py"),
                    src], check=True, capture_output=True)
    rows = [r for r in measured["rows"] if r["ok"]]
    timings = []
    for r in rows:
        opts = f"shapes={r['shapes']}"
        if args.calibration:
            opts += f" calibration={args.calibration}"
        out = subprocess.run(
            [args.cake_opt, os.path.join(src, r["candidate"] + ".cake.mlir"),
             "-o", "/dev/null", f"--cake-cost={opts}", "--cake-cost-json=-",
             "--mlir-timing"], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"{r['candidate']}: {out.stderr}")
        text = out.stdout
        report = json.loads(text)[0]
        r["predicted_ms"] = report["predicted_ns"] / 1e6
        r["bottleneck"] = report["bottleneck"]["resource"]
        m = re.search(r"([0-9.]+) \([ 0-9.]+%\)\s+Cost", out.stderr)
        if m:
            timings.append(float(m.group(1)) * 1e3)  # ms
    problems = {}
    for r in rows:
        problems.setdefault(r["problem"], []).append(r)
    results = {}
    for name, rs in problems.items():
        results[name] = quality([r["predicted_ms"] for r in rs],
                                [r["ms"] for r in rs])
    # Over all problems: rank quality is per problem (candidates compete for
    # one problem); report the mean over problems and the pooled error.
    allq = dict(
        n=len(rows),
        kendall=statistics.fmean(q["kendall"] for q in results.values()),
        spearman=statistics.fmean(q["spearman"] for q in results.values()),
        top1_regret=statistics.fmean(q["top1_regret"] for q in results.values()),
        best_of_top8=min(q["best_of_top8"] for q in results.values()),
        mape=statistics.median(abs(r["predicted_ms"] - r["ms"]) / r["ms"]
                               for r in rows))
    candidates = len({r["candidate"] for r in rows})
    if args.markdown:
        print("| problem | candidates | Kendall τ | Spearman ρ | top-1 regret "
              "| best of top 8 / best | median abs. error |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, q in list(results.items()) + [("all (mean τ, ρ, regret; "
                                                  "worst top-8; pooled error)",
                                                  allq)]:
            print(f"| {name} | {q['n']} | {q['kendall']:.3f} | "
                  f"{q['spearman']:.3f} | {100 * q['top1_regret']:.1f}% | "
                  f"{q['best_of_top8']:.3f} | {100 * q['mape']:.1f}% |")
    else:
        for name, q in list(results.items()) + [("ALL", allq)]:
            print(f"{name:>28}: n={q['n']:3d} tau={q['kendall']:.3f} "
                  f"rho={q['spearman']:.3f} regret={100 * q['top1_regret']:.1f}% "
                  f"top8={q['best_of_top8']:.3f} mape={100 * q['mape']:.1f}%")
    if timings:
        print(f"\n{candidates} distinct candidates, {len(rows)} measurements; "
              f"cake-cost pass time per kernel: median "
              f"{statistics.median(timings):.2f} ms, max {max(timings):.2f} ms")
    if args.out:
        json.dump(dict(problems=results, all=allq, rows=rows,
                       pass_ms=timings), open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
