#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks examples/knn/cake_knn.py (the Python API in flashlib's
conventions) on the GPU: (N, D) and batched (B, N, D) inputs, bf16 and
f16, searches and graphs, each result against an fp32 brute force with
bench.py's check (exact top-k sets up to fp32 ties, distances within the
tolerance, no repeats), and the errors it raises for bad arguments.

usage: check_api.py --runtime LIB --bundles DIR
"""
import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "knn"))
from bench import check  # noqa: E402
from cake_knn import CakeKnn  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundles", required=True)
    a = p.parse_args()
    knn = CakeKnn(a.bundles, a.runtime)
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    failures = 0
    cases = [("search", None, 1, 100003, 128, torch.bfloat16),
             ("search", None, 16, 1048576, 64, torch.float16),
             ("search", 2, 300, 50001, 96, torch.bfloat16),
             ("search", 3, 5000, 20000, 128, torch.float16),
             ("graph", None, 70000, None, 128, torch.bfloat16),
             ("graph", 2, 66000, None, 64, torch.float16)]
    for what, b, n, m, d, dt in cases:
        shape = (b,) if b else ()
        x = torch.randn(*shape, n, d, device="cuda", dtype=dt)
        if what == "search":
            c = torch.randn(*shape, m, d, device="cuda", dtype=dt)
            vals, idxs = knn.flash_knn(x, c, 10)
            only = knn.flash_knn(x, c, 10, return_distances=False)
        else:
            c = x
            vals, idxs = knn.knn_graph(x, 10)
            only = knn.knn_graph(x, 10, return_distances=False)
        torch.cuda.synchronize()
        ok = (vals.shape == (*shape, n, 10) and idxs.dtype == torch.int32
              and vals.dtype == torch.float32 and torch.equal(only, idxs))
        for i in range(b or 1):
            xi, ci = (x[i], c[i]) if b else (x, c)
            vi, ii = (vals[i], idxs[i]) if b else (vals, idxs)
            sample = torch.randperm(n, device="cuda")[:64]
            r = check(xi, ci, vi, ii, 10, sample,
                      exclude_self=(what == "graph"))
            ok = ok and r.get("ok", False)
        failures += not ok
        print(f"{what} B={b} N={n} M={m} D={d} {dt}: "
              f"{'ok' if ok else 'FAIL'}", flush=True)
    x = torch.randn(10, 128, device="cuda", dtype=torch.bfloat16)
    for label, call in (
            ("fp32 inputs", lambda: knn.flash_knn(x.float(), x.float(), 3)),
            ("types differ", lambda: knn.flash_knn(x, x.half(), 3)),
            ("k too large", lambda: knn.flash_knn(x, x, 11)),
            ("no D = 100 kernel", lambda: knn.flash_knn(
                torch.randn(4, 100, device="cuda", dtype=torch.bfloat16),
                torch.randn(50, 100, device="cuda", dtype=torch.bfloat16),
                3))):
        try:
            call()
            print(f"{label}: no error: FAIL")
            failures += 1
        except (ValueError, TypeError) as e:  # the type: TypeError
            print(f"{label}: {type(e).__name__}: {e}")
    print(f"failures {failures}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
