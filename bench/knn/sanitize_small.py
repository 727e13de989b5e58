#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Small KNN searches for compute-sanitizer (issue #24): each kernel family
the dispatcher picks at a few queries (`_w1_bn64`, two CTAs an SM), at a
few hundred (the two-warpgroup `_fused` kernels) and the merge, and the
KNN build kernels (graph, self excluded, k = 10 and 32, each D of the
table), on ragged shapes, through examples/knn/cake_knn.py; the indices
checked against torch's exact top-k on the same inputs.

usage: compute-sanitizer --tool TOOL --kernel-name regex=knn_ \\
           python3 bench/knn/sanitize_small.py --runtime LIB --bundles DIR
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "knn"))
from cake_knn import CakeKnn  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from topk_check import top_k_ok  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--runtime", required=True)
ap.add_argument("--bundles", required=True)
a = ap.parse_args()
knn = CakeKnn(a.bundles, a.runtime)
bad = 0
for q, m, d in ((5, 100003, 128), (8, 20001, 64), (64, 7777, 200),
                (300, 50001, 96)):
    x = torch.randn(q, d, device="cuda", dtype=torch.bfloat16)
    c = torch.randn(m, d, device="cuda", dtype=torch.bfloat16)
    v, i = knn.flash_knn(x, c, 10)
    torch.cuda.synchronize()
    bad += not top_k_ok(f"search {q} x {m} x {d}", x, c, i, 10)
for n, d, k in ((3001, 64, 10), (2777, 96, 32), (4099, 128, 10),
                (1500, 256, 32)):
    x = torch.randn(n, d, device="cuda", dtype=torch.bfloat16)
    v, i = knn.knn_graph(x, k)
    torch.cuda.synchronize()
    bad += not top_k_ok(f"build {n} x {d}, k = {k}", x, x, i, k,
                        self_excluded=True)
sys.exit(1 if bad else 0)
