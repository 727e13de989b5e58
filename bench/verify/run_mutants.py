#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the verified mutants that bench/verify/run_bundles.py cannot (issue
#24: no mutant that passes cake-verify may hang or fault on the GPU): the
KNN kernels (search, build, row norms) and the KDA forward (kda_fwd,
kda_intra, kda_recur*), each through the code that runs its original, with
the mutant's bundle in the original's place, and checked as the original
is checked.

A mutant bundle is `BASE--MUTATION.json` (scripts/mutate.py --emit-passing,
then lowered): BASE names the original kernel, whose bundle and the rest
of the family's are in --bundles.

- KNN: a copy of --bundles with the mutant as BASE.json; a search shape
  (D from the name, k = 10) or a build shape that examples/knn/dispatch.py
  sends to BASE (an unfused search kernel below its query limit: with
  the limit lowered; row norms: one of each); the indices checked against
  torch's exact top-k (bench/knn/topk_check.py, as sanitize_small.py).
- KDA: bench/kda/check_fwd.py at 1000 tokens x 2 heads, the mutant beside
  the original of the other half of the split forward.

Each mutant runs in a child process with a wall-clock limit: a hang or a
fault costs that mutant only, and is reported as such.

usage: run_mutants.py --runtime LIB --bundles DIR [--out F.json] MUTANT.json...
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "examples", "knn"))
import dispatch  # noqa: E402

SEARCH_Q = (1, 8, 64, 128, 256, 300, 1024, 2048)
SEARCH_M = (20001, 100003)
BUILD_N = (3001, 4099, 140001)
TIMEOUT_S = 300


def knn_shapes(base):
    """(search shapes, build shapes) that dispatch.py sends to `base`; a
    search shape (Q, M, D, unfused) with unfused set needs the form that
    takes the norms below FUSED_MAX_Q queries."""
    if base.startswith("knn_merge_"):
        # the second step of every search whose corpus is split (the
        # checks below search with k = 10)
        if base != "knn_merge_k10":
            return [], []
        for q in SEARCH_Q:
            for m in SEARCH_M:
                if dispatch.choose(q, m, 128, 10, 132)[1] > 1:
                    return [(q, m, 128, False)], []
        return [], []
    d = int(re.search(r"_d(\d+)", base).group(1))
    dtype = "f16" if "_f16_" in base else "bf16"
    if base.startswith("row_norms_"):
        # every unfused search and every build reads them
        return [(1024, 20001, d, False)], [(3001, d, 10)]
    if base.startswith("knn_build_"):
        k = int(re.search(r"_k(\d+)", base).group(1))
        for n in BUILD_N:
            if dispatch.choose_build(n, d, k, dtype=dtype) == base:
                return [], [(n, d, k)]
        return [], []
    for fused in (None, False):
        for q in SEARCH_Q:
            for m in SEARCH_M:
                if dispatch.choose(q, m, d, 10, 132, fused=fused,
                                   dtype=dtype)[0] == base:
                    return [(q, m, d, fused is False)], []
    return [], []


def run_knn(args, base, mutant):
    """Child process: the KNN checks of `base` with `mutant` in its place."""
    import torch
    from cake_knn import CakeKnn
    sys.path.insert(0, os.path.join(ROOT, "bench", "knn"))
    from topk_check import top_k_ok
    search, build = knn_shapes(base)
    if not search and not build:
        print(f"{base}: no shape dispatches to it")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        for f in os.listdir(args.bundles):
            if f.endswith(".json"):
                os.symlink(os.path.abspath(os.path.join(args.bundles, f)),
                           os.path.join(tmp, f))
        os.remove(os.path.join(tmp, base + ".json"))
        shutil.copy(mutant, os.path.join(tmp, base + ".json"))
        knn = CakeKnn(tmp, args.runtime)
        bad = 0
        for q, m, d, unfused in search:
            if unfused:
                dispatch.FUSED_MAX_Q = 0
            x = torch.randn(q, d, device="cuda", dtype=torch.bfloat16)
            c = torch.randn(m, d, device="cuda", dtype=torch.bfloat16)
            _, i = knn.flash_knn(x, c, 10)
            torch.cuda.synchronize()
            bad += not top_k_ok(f"search {q} x {m} x {d}", x, c, i, 10)
        for n, d, k in build:
            x = torch.randn(n, d, device="cuda", dtype=torch.bfloat16)
            _, i = knn.knn_graph(x, k)
            torch.cuda.synchronize()
            bad += not top_k_ok(f"build {n} x {d}, k = {k}", x, x, i, k,
                                self_excluded=True)
    return 1 if bad else 0


def kda_command(args, base, mutant):
    check = [sys.executable, os.path.join(ROOT, "bench", "kda", "check_fwd.py"),
             "--runtime", args.runtime]
    shapes = ["--shapes", "1000x2"]  # after the bundles: it takes a list
    orig = lambda name: os.path.join(args.bundles, name + ".json")  # noqa
    if base == "kda_fwd":
        return check + [mutant] + shapes
    if base == "kda_intra":
        return check + [mutant, orig("kda_recur")] + shapes
    return check + [orig("kda_intra"), mutant] + shapes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--bundles", required=True,
                    help="the originals (the KNN table's, the KDA kernels)")
    ap.add_argument("--out", default="")
    ap.add_argument("--one", default="", help=argparse.SUPPRESS)
    ap.add_argument("mutants", nargs="*")
    args = ap.parse_args()
    if args.one:
        base = os.path.basename(args.one).split("--")[0]
        sys.exit(run_knn(args, base, args.one))
    rows = []
    for mutant in args.mutants:
        base = os.path.basename(mutant).split("--")[0]
        if base.startswith(("knn_", "row_norms_")):
            cmd = [sys.executable, os.path.abspath(__file__), "--runtime",
                   args.runtime, "--bundles", args.bundles, "--one", mutant]
        elif base.startswith("kda_") and base != "kda_chunk_intra":
            cmd = kda_command(args, base, mutant)
        else:
            rows.append(dict(mutant=os.path.basename(mutant),
                             result="skipped"))
            continue
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=TIMEOUT_S)
            result = {0: "pass", 1: "wrong", 2: "no shape"}.get(
                p.returncode, f"fault (exit {p.returncode})")
            out = (p.stdout + p.stderr).strip().splitlines()[-4:]
        except subprocess.TimeoutExpired:
            result, out = "hang", [f"no exit within {TIMEOUT_S} s"]
        rows.append(dict(mutant=os.path.basename(mutant), result=result,
                         output=out))
        print(f"{os.path.basename(mutant)}: {result}", flush=True)
        for line in out:
            print(f"    {line}")
    counts = {}
    for r in rows:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    print("summary: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(dict(rows=rows, counts=counts), f, indent=1)
    sys.exit(0 if set(counts) <= {"pass", "skipped"} else 1)


if __name__ == "__main__":
    main()
