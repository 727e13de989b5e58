#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The cost model against the naive-seed searches measured on the H200
(CPU only).

docs/benchmarks/evolve.md records, for the GEMM and the k-means
assignment naive-seed searches of 2026-11-29, each exported candidate's
tactics and measured time. This predicts each again with today's model
(the seed, the candidate's tactics, `cake-opt --cake-cost`) and reports
per search Kendall tau-a over the measured candidates, the pairs the
model predicts equal, and the top-1 regret (ties taken in the table's
order, as a search would have no better). issue #27 asks for at most 10%
of the top-16 pairs tied.

usage: rank_naive_searches.py [--cake-opt BIN] [-v]
"""
import argparse
import itertools
import json
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SEARCHES = [  # the table's heading, the seed, the shapes
    ("## GEMM", "examples/naive/gemm_naive.cake.mlir",
     "8192x8192,8192x8192,8192x8192"),
    ("## k-means assignment", "examples/naive/kmeans_naive.cake.mlir",
     "1048576x128,1024x128,1024,1048576"),
]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cake-opt",
                   default=os.path.join(ROOT, "build", "bin", "cake-opt"))
    p.add_argument("-v", action="store_true", help="every candidate")
    a = p.parse_args()
    doc = open(os.path.join(ROOT, "docs", "benchmarks", "evolve.md")).read()
    for heading, seed, shapes in SEARCHES:
        at = doc.index(heading)
        end = doc.find("\n## ", at + 1)
        rows = re.findall(r"^\| (c\d+) \| `([^`]*)` \| ([0-9.]+) \|",
                          doc[at:end if end > 0 else None], re.M)
        xs = []
        for cid, tactics, ms in rows:
            steps = ["cake-" + t.strip() + "}"
                     for t in tactics.split("}") if t.strip()]
            r = subprocess.run(
                f"'{a.cake_opt}' '{os.path.join(ROOT, seed)}' "
                f"--pass-pipeline='builtin.module({','.join(steps)})' | "
                f"'{a.cake_opt}' -o /dev/null "
                f"--cake-cost='shapes={shapes} json=-'",
                shell=True, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{cid}: not predicted: {r.stderr.strip()[:200]}")
                continue
            xs.append((float(ms), json.loads(r.stdout)[0]["predicted_ns"]
                       / 1e6, cid))
        pairs = list(itertools.combinations(xs, 2))
        # tau-a: concordant minus discordant over all pairs; a pair
        # predicted (or measured) equal counts as neither.
        sign = [(x[0] - y[0]) * (x[1] - y[1]) for x, y in pairs]
        c = sum(1 for v in sign if v > 0)
        d = sum(1 for v in sign if v < 0)
        ties = sum(1 for x, y in pairs if x[1] == y[1])
        pick = min(xs, key=lambda x: x[1])
        best = min(x[0] for x in xs)
        print(f"{heading[3:]} ({seed}, {shapes}): {len(xs)} candidates, "
              f"Kendall tau-a {(c - d) / len(pairs):.3f}, "
              f"predicted equal {ties} of {len(pairs)} pairs, "
              f"pick {pick[2]}, top-1 regret {(pick[0] / best - 1):.1%}")
        if a.v:
            for x in sorted(xs):
                print(f"  {x[2]} measured {x[0]:.4f} ms, predicted "
                      f"{x[1]:.4f} ms")


if __name__ == "__main__":
    main()
