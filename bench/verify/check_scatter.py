#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the k-means update in Cake IR on the GPU and checks it:
examples/kmeans_update_scatter.cake.mlir (every point's row added to its
cluster's Sums row and 1 to its count, `cake.scatter ... reduce sum`),
then examples/kmeans_update_finalize.cake.mlir (the means, rounded to
bf16, an empty cluster keeping its centroid; their squared norms; the
largest shift by a keyed max).

    python3 bench/verify/check_scatter.py --runtime .device/lib/libcake_runtime.so \
        SCATTER_BUNDLE FINALIZE_BUNDLE [--rows 1000 4096 65536] [--clusters 1000]

Inputs per size: fresh normal bf16 points and old centroids; assignments
drawn so that a tenth of the points fall in cluster 0 (contention on one
row), one in fifty is -1 (no cluster: writes nothing) and the last
cluster is empty; Sums, Counts and the shift zero, New and Norms NaN.
The reference: torch's index_add_ of the same bf16 points in fp32, a
bincount, the IEEE means rounded to bf16 (the old centroid where the
count is 0), the norms and shift of the rounded means. The counts must
be exact; the sums within 1e-5 relative (fp32 additions in another
order); a new centroid within one bf16 ulp of the reference's (a sum on
the other side of a rounding boundary), the norms within 1e-5, the
shift within 1e-3. Exits non-zero on any failure.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import launch_checked, load_bundle, load_runtime  # noqa: E402


def reference(x, assign, old):
    k = old.shape[0]
    keep = assign >= 0
    key = assign[keep].long()
    sums = torch.zeros(k, 128, device="cuda")
    sums.index_add_(0, key, x[keep].float())
    counts = torch.bincount(key, minlength=k)
    mean = sums / counts.clamp(min=1).float().view(-1, 1)
    new = torch.where(counts.view(-1, 1) > 0, mean.bfloat16(), old)
    v = new.float()
    norms = (v * v).sum(1)
    shift = ((v - old.float()) ** 2).sum(1).sqrt().max()
    return sums, counts.int(), new, norms, shift


def check(name, ok, detail):
    print(f"{name}: {detail}: {'PASS' if ok else 'WRONG'}")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--rows", type=int, nargs="+", default=[1000, 4096, 65536])
    ap.add_argument("--clusters", type=int, default=1000)
    ap.add_argument("scatter")
    ap.add_argument("finalize")
    a = ap.parse_args()
    rt = load_runtime(a.runtime)
    hs = load_bundle(rt, a.scatter)
    hf = load_bundle(rt, a.finalize)
    torch.manual_seed(20261205)
    failed = 0
    k = a.clusters
    for rows in a.rows:
        x = torch.randn(rows, 128, device="cuda").bfloat16()
        assign = torch.randint(0, k - 1, (rows,), device="cuda",
                               dtype=torch.int32)
        assign[torch.rand(rows, device="cuda") < 0.1] = 0
        assign[torch.rand(rows, device="cuda") < 0.02] = -1
        old = torch.randn(k, 128, device="cuda").bfloat16()
        sums = torch.zeros(k, 128, device="cuda")
        counts = torch.zeros(k, 1, device="cuda", dtype=torch.int32)
        launch_checked(rt, hs, [x, assign, sums, counts], a.scatter)
        new = torch.full((k, 128), float("nan"), device="cuda").bfloat16()
        norms = torch.full((k,), float("nan"), device="cuda")
        shift = torch.zeros(1, 1, device="cuda", dtype=torch.int32)
        launch_checked(rt, hf, [sums, counts.view(k), old, new, norms, shift],
                       a.finalize)
        want = reference(x, assign, old)
        tag = f"{rows}x128, K = {k}"
        rel = ((sums - want[0]).norm() / want[0].norm()).item()
        failed += check(f"sums {tag}", rel < 1e-5, f"relative error {rel:.2e}")
        wrong = (counts.view(k) != want[1]).sum().item()
        failed += check(f"counts {tag}", wrong == 0, f"{wrong} wrong")
        # One bf16 ulp of the reference's value (2^-7 relative, at least).
        ulp = want[2].float().abs().clamp(min=2.0 ** -126) * 2.0 ** -7
        off = ((new.float() - want[2].float()).abs() > ulp).sum().item()
        unwritten = new.isnan().sum().item()
        failed += check(f"centroids {tag}", off == 0 and unwritten == 0,
                        f"{off} beyond one ulp, {unwritten} unwritten")
        nrel = ((norms - want[3]).norm() / want[3].norm()).item()
        failed += check(f"norms {tag}", nrel < 1e-5, f"relative error {nrel:.2e}")
        got = shift.view(torch.float32).item()
        srel = abs(got - want[4].item()) / want[4].item()
        failed += check(f"shift {tag}", srel < 1e-3,
                        f"{got:.6f} against {want[4].item():.6f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
