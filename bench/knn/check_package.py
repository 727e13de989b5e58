#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""cake.knn.flash_knn (the package's plan: kernel, splits, merge passes,
the spreading of few queries over the warps and the bounded second pass)
against an fp32 brute force on fresh inputs: 1-65 queries over 300000
rows of D = 128, k 10 and 100; and cake.knn.knn_graph of fp32 points
(3xbf16 products) on 256 sampled rows. A row passes when its k indices
are distinct (and, for a graph, not the row itself), each within 1e-3 of
the largest distance of the exact k-th, and the distances returned match
theirs.

usage: CAKE_LIBRARY_DIR=LIB CAKE_KNN_BUNDLES=DIR python3 bench/knn/check_package.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
import cake.knn as knn  # noqa: E402


def check(q, k, m=300000, d=128):
    x = torch.randn(q, d, device="cuda", dtype=torch.bfloat16)
    c = torch.randn(m, d, device="cuda", dtype=torch.bfloat16)
    dist, idx = knn.flash_knn(x, c, k)
    xf, cf = x.float(), c.float()
    exact = ((xf * xf).sum(1)[:, None] + (cf * cf).sum(1)[None]
             - 2 * xf @ cf.T)
    kth = exact.topk(k, dim=1, largest=False).values[:, -1]
    got = exact.gather(1, idx.long())
    tol = 1e-3 * exact.abs().max()
    return (bool((got <= kth[:, None] + tol).all())
            and all(len(set(r.tolist())) == k for r in idx)
            and bool(((dist - got).abs() <= tol).all()))


def check_graph(n, d, k=10):
    x = torch.randn(n, d, device="cuda", dtype=torch.float32)
    dist, idx = knn.knn_graph(x, k)
    rows = torch.randperm(n, device="cuda")[:256]
    xs = x[rows]
    exact = ((xs * xs).sum(1)[:, None] + (x * x).sum(1)[None]
             - 2 * xs @ x.T)
    exact[torch.arange(len(rows), device="cuda"), rows] = float("inf")
    kth = exact.topk(k, dim=1, largest=False).values[:, -1]
    got = exact.gather(1, idx[rows].long())
    tol = 1e-3 * exact[exact.isfinite()].abs().max()
    return (bool((got <= kth[:, None] + tol).all())
            and all(len(set(r.tolist())) == k for r in idx[rows])
            and bool(((dist[rows] - got).abs() <= tol).all()))


def main():
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    torch.backends.cuda.matmul.allow_tf32 = False  # the references in fp32
    bad = 0
    for q in (1, 3, 16, 32, 33, 64, 65):
        for k in (10, 100):
            ok = check(q, k)
            bad += not ok
            print(f"q={q:3} k={k:3} {'ok' if ok else 'FAIL'}")
    for n, d in ((65536, 96), (70000, 256)):
        ok = check_graph(n, d)
        bad += not ok
        print(f"graph fp32 {n} x {d} k=10 {'ok' if ok else 'FAIL'}")
    print("package check:", "FAIL" if bad else "ok")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
